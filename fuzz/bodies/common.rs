//! What the targets share: options derived from the input's first bytes,
//! and value comparison up to what a profile is allowed to change.

use jetjson::{DuplicateKeys, Number, Profile, ReadOptions, Value, WriteOptions};

pub const PROFILES: [Profile; 3] = [Profile::Compact, Profile::Go, Profile::Jcs];

/// Splits off `n` option bytes (zero-padded when the input is shorter), so
/// every input, even an empty one, selects some options and a document.
pub fn split_options<const N: usize>(data: &[u8]) -> ([u8; N], &[u8]) {
    let mut opts = [0u8; N];
    let n = data.len().min(N);
    opts[..n].copy_from_slice(&data[..n]);
    (opts, &data[n..])
}

/// Reading options from two bytes: every limit and leniency, including the
/// edges (depth 0 and 1, a size limit just below, at and above the
/// document's length). Depth stays <= 512 so the serde path, which
/// recurses, fits a test thread's stack.
pub fn read_options(a: u8, b: u8, len: usize) -> ReadOptions {
    const DEPTHS: [usize; 8] = [512, 0, 1, 2, 3, 8, 64, 512];
    let mut o = ReadOptions::new()
        .max_depth(DEPTHS[usize::from(a & 7)])
        .duplicate_keys(match (a >> 3) & 3 {
            1 => DuplicateKeys::First,
            2 => DuplicateKeys::Last,
            _ => DuplicateKeys::Error,
        })
        .allow_bom(a & 0x20 != 0)
        .lossless_numbers(a & 0x40 != 0);
    if a & 0x80 != 0 {
        // A limit within 8 bytes of the length on either side.
        o = o.max_size((len + usize::from(b & 15)).saturating_sub(8));
    }
    o
}

/// Writing options for `profile` from one byte. `jcs` takes no layout
/// options (RFC 8785 fixes them; the writer would ignore or refuse them).
pub fn write_options(profile: Profile, a: u8) -> WriteOptions {
    let mut o = WriteOptions::new(profile);
    if profile == Profile::Jcs {
        return o;
    }
    o = o.indent([0, 0, 2, 1][usize::from(a & 3)]).ascii_only(a & 4 != 0);
    o = match (a >> 3) & 3 {
        1 => o.escape_html(true),
        2 => o.escape_html(false),
        _ => o,
    };
    match (a >> 5) & 3 {
        1 => o.sort_keys(true),
        2 => o.sort_keys(false),
        _ => o,
    }
}

/// How two numbers may differ and still be "the same".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Numbers {
    /// Same variant class and value; literal text compared as text
    /// (`compact`: integers, floats and kept literals come back as they went).
    Exact,
    /// Integers exact, everything else by its nearest double (`go`: floats
    /// may come back as integers, `100.0` is written `100`).
    Integers,
    /// Every number by its nearest double (`jcs` writes ECMAScript doubles).
    Doubles,
}

impl Numbers {
    pub fn of(profile: Profile) -> Numbers {
        match profile {
            Profile::Compact => Numbers::Exact,
            Profile::Go => Numbers::Integers,
            Profile::Jcs => Numbers::Doubles,
        }
    }
}

/// The exact integer a number holds, if it is one (literal text included).
pub fn exact_integer(n: &Number) -> Option<i128> {
    match n {
        Number::Int(i) => Some(i128::from(*i)),
        Number::UInt(u) => Some(i128::from(*u)),
        Number::Float(_) => None,
        Number::Big(t) => t.parse().ok(),
    }
}

pub fn same_number(a: &Number, b: &Number, how: Numbers) -> bool {
    match how {
        Numbers::Exact => a == b,
        Numbers::Integers => match (a, b) {
            (Number::Int(_) | Number::UInt(_), _) => exact_integer(a) == exact_integer(b),
            _ => a.as_f64() == b.as_f64(),
        },
        Numbers::Doubles => a.as_f64() == b.as_f64(),
    }
}

/// Structural equality; object members compared by name (canonical
/// profiles reorder them), arrays in order.
pub fn same_value(a: &Value, b: &Value, how: Numbers) -> bool {
    match (a, b) {
        (Value::Null, Value::Null) => true,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::Number(x), Value::Number(y)) => same_number(x, y, how),
        (Value::String(x), Value::String(y)) => x == y,
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same_value(x, y, how)),
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, xv)| y.get(k).is_some_and(|yv| same_value(xv, yv, how)))
        }
        _ => false,
    }
}

/// Whether `v` holds a number kept as literal text (beyond 64-bit
/// integers or the double range, or any number in lossless mode).
pub fn has_literal_number(v: &Value) -> bool {
    match v {
        Value::Number(Number::Big(_)) => true,
        Value::Array(items) => items.iter().any(has_literal_number),
        Value::Object(m) => m.values().any(has_literal_number),
        _ => false,
    }
}

/// Nesting depth of a parsed value (number of nested containers).
pub fn depth(v: &Value) -> usize {
    match v {
        Value::Array(items) => 1 + items.iter().map(depth).max().unwrap_or(0),
        Value::Object(m) => 1 + m.values().map(depth).max().unwrap_or(0),
        _ => 0,
    }
}

pub fn show(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}
