//! `Display` for `Value`: compact JSON that never fails.
//!
//! The fast path is the `Writer` (`Value::to_vec_with`, compact, NaN and
//! ±Infinity as `null`) under the default `max_write_depth`. What that
//! refuses (a value nested deeper, which the writer's recursion does not
//! take unbounded; a `Number::Big` built with text that is not a number)
//! is written again by `write_any`, a loop over an explicit stack, so any
//! `Value` that exists displays, whatever its depth, as serde_json's does.

use std::fmt;

use super::{Number, Str, Value};
use crate::escape::{EscapeSet, Escaper};
use crate::number::{write_f64, FloatLayout};
use crate::{NonFinite, WriteOptions};

/// Compact JSON (`v.to_string()`, `format!("{v}")`). It never fails: NaN and ±Infinity (which only a
/// `Number::Float` built by hand can hold) are written `null`, nesting of
/// any depth is written, and a `Number::Big` holds its text as given (as
/// `Number`'s `Display` writes it). `Value::to_vec_with` is the checked
/// writer: it refuses those.
///
/// ```
/// use jetjson::{Number, Value};
/// let v = Value::Array(vec![Value::Number(Number::Float(f64::NAN)), Value::from(1)].into());
/// assert_eq!(v.to_string(), "[null,1]");
/// ```
///
/// `{:#}` indents by two spaces, as serde_json's `{:#}` does (a value the
/// writer refuses, nested beyond `max_write_depth`, is written compact):
///
/// ```
/// let v = jetjson::Value::from_slice(br#"{"a":[1,2],"b":{}}"#).unwrap();
/// assert_eq!(format!("{v:#}"), "{\n  \"a\": [\n    1,\n    2\n  ],\n  \"b\": {}\n}");
/// ```
impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let options = WriteOptions::compact().non_finite(NonFinite::Null).indent(if f.alternate() { 2 } else { 0 });
        let bytes = self.to_vec_with(&options).unwrap_or_else(|_| write_any(self));
        f.write_str(&String::from_utf8_lossy(&bytes))
    }
}

/// An array or object being written: the items or members left.
enum Open<'a> {
    Items(std::slice::Iter<'a, Value>),
    Members(std::slice::Iter<'a, (Str, Value)>),
}

/// `v` as compact JSON by a loop over an explicit stack (no recursion, no
/// depth limit); the same bytes as the compact writer for what it accepts.
pub(super) fn write_any(v: &Value) -> Vec<u8> {
    let escaper = Escaper::new(EscapeSet::default());
    let mut out = Vec::new();
    let mut open: Vec<(Open, bool)> = Vec::new();
    let mut next = Some(v);
    loop {
        match next.take() {
            Some(Value::Null) => out.extend(b"null"),
            Some(Value::Bool(b)) => out.extend(if *b { &b"true"[..] } else { b"false" }),
            Some(Value::Number(n)) => write_number(&mut out, n),
            Some(Value::String(s)) => write_str(&mut out, &escaper, s),
            Some(Value::Array(a)) => {
                out.push(b'[');
                open.push((Open::Items(a.iter()), true));
            }
            Some(Value::Object(m)) => {
                out.push(b'{');
                open.push((Open::Members(m.members().iter()), true));
            }
            None => {}
        }
        let Some((top, first)) = open.last_mut() else { return out };
        let comma = !std::mem::replace(first, false);
        match top {
            Open::Items(items) => match items.next() {
                Some(item) => {
                    if comma {
                        out.push(b',');
                    }
                    next = Some(item);
                }
                None => {
                    out.push(b']');
                    open.pop();
                }
            },
            Open::Members(members) => match members.next() {
                Some((k, item)) => {
                    if comma {
                        out.push(b',');
                    }
                    write_str(&mut out, &escaper, k);
                    out.push(b':');
                    next = Some(item);
                }
                None => {
                    out.push(b'}');
                    open.pop();
                }
            },
        }
    }
}

fn write_str(out: &mut Vec<u8>, escaper: &Escaper, s: &str) {
    out.push(b'"');
    escaper.escape(out, s);
    out.push(b'"');
}

fn write_number(out: &mut Vec<u8>, n: &Number) {
    match n {
        Number::Float(x) if !x.is_finite() => out.extend(b"null"),
        Number::Float(x) => write_f64(out, *x, FloatLayout::Compact),
        Number::Big(text) => out.extend(text.as_bytes()),
        n => out.extend(n.to_string().as_bytes()),
    }
}

#[cfg(test)]
mod tests {
    use super::write_any;
    use crate::{Number, Value, WriteOptions};

    /// The loop writes the bytes the compact writer writes.
    #[test]
    fn the_fallback_writes_what_the_writer_writes() {
        let docs: [&[u8]; 7] = [
            br#"[1e400,1.50,-0]"#,
            br#"{"a":[1,-2,18446744073709551615,-9223372036854775808,1e300,0.5,1e-7,123456789012345680000,"s\n\"\u0001","\u2028<>&\u00e9\ud83d\ude00\u007f",true,null,{},[]],"b":{"c":[[{"d":[]}]]},"":{"x":1}}"#,
            b"[]",
            b"{}",
            b"\"\"",
            b"-0.0",
            br#"[[1,2],{"a":{"b":[3]}},4]"#,
        ];
        for doc in docs {
            for v in [Value::from_slice(doc), Value::from_slice_with(doc, &crate::ReadOptions::lossless())].into_iter().flatten() {
                assert_eq!(write_any(&v), v.to_vec_with(&WriteOptions::compact()).unwrap(), "{}", String::from_utf8_lossy(doc));
            }
        }
    }

    /// NaN and ±Infinity (built by hand) display as `null`; a `Big` whose
    /// text is not a number as that text. Neither is an error.
    #[test]
    fn display_never_fails() {
        let v = Value::from(vec![Value::Number(Number::Float(f64::NAN)), Value::Number(Number::Float(f64::NEG_INFINITY)), Value::from(1)]);
        assert_eq!(v.to_string(), "[null,null,1]");
        let v = Value::from(vec![Value::Number(Number::Big("0x1".into())), Value::from(2)]);
        assert_eq!(v.to_string(), "[0x1,2]");
    }
}
