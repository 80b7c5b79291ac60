//! Target `differential`: jetjson against serde_json on the same bytes.
//! Both accept or both reject, and accepted documents give equal values,
//! except for these documented differences:
//!
//! * duplicate names: jetjson refuses them by default; serde_json keeps the
//!   last. Compared with `DuplicateKeys::Last`, which must then agree.
//! * nesting: serde_json stops at 128 levels ("recursion limit exceeded");
//!   jetjson's default is 512. Deeper documents are compared only for
//!   syntax: jetjson must accept them iff they are valid.
//! * integers beyond 64 bits: serde_json rounds them to a double, jetjson
//!   keeps the literal text: compared by their nearest double.
//! * integers beyond the double range (`5` and 323 zeros): jetjson keeps
//!   their text, exact at any size (README, "Numbers"); serde_json has no
//!   double for them and refuses the document ("number out of range"). The
//!   integer serde_json names must be one jetjson keeps as text with no
//!   double; it is then replaced by `0` (padded with spaces, so positions
//!   stay) and the document checked again, so everything else in it is
//!   still compared.
//!
//! Other literals beyond the double range (`1e400`, `5` and 323 zeros
//! `.0`) are refused by both; `-0` is the float -0.0 in both (numbers other
//! than two integers compare as doubles).

use jetjson::{DuplicateKeys, Number, ReadOptions, Value};

/// serde_json's nesting limit (its `remaining_depth` starts at 128).
const SERDE_DEPTH: usize = 128;

pub fn run(input: &[u8]) {
    let options = ReadOptions::new().duplicate_keys(DuplicateKeys::Last);
    let ours = Value::from_slice_with(input, &options);
    let theirs = serde_json::from_slice::<serde_json::Value>(input);
    match (&ours, &theirs) {
        (Ok(a), Ok(b)) => assert!(same(a, b), "values differ: jetjson {a:?}, serde_json {b:?}"),
        (Err(_), Err(_)) => {}
        (Ok(a), Err(e)) => {
            if let Some(masked) = integer_beyond_doubles_masked(input, e) {
                return run(&masked);
            }
            let msg = e.to_string();
            let explained = msg.starts_with("recursion limit exceeded") && super::common::depth(a) >= SERDE_DEPTH;
            assert!(explained, "jetjson accepts {a:?}, serde_json refuses: {msg}");
        }
        (Err(e), Ok(b)) => panic!("serde_json accepts {b:?}, jetjson refuses: {e}"),
    }
}

fn same(a: &Value, b: &serde_json::Value) -> bool {
    use serde_json::Value as S;
    match (a, b) {
        (Value::Null, S::Null) => true,
        (Value::Bool(x), S::Bool(y)) => x == y,
        (Value::Number(x), S::Number(y)) => same_number(x, y),
        (Value::String(x), S::String(y)) => x == y,
        (Value::Array(x), S::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same(x, y)),
        (Value::Object(x), S::Object(y)) => x.len() == y.len() && x.iter().all(|(k, xv)| y.get(k.as_str()).is_some_and(|yv| same(xv, yv))),
        _ => false,
    }
}

/// When serde_json's error is "number out of range" at the end of an
/// integer literal (digits, no fraction or exponent) that jetjson reads as
/// text with no double, the input with that literal replaced by `0` and
/// spaces; otherwise `None` (the difference is not this one).
fn integer_beyond_doubles_masked(input: &[u8], e: &serde_json::Error) -> Option<Vec<u8>> {
    if !e.to_string().starts_with("number out of range") {
        return None;
    }
    // serde_json's position: 1-based line, and the bytes of that line read
    // so far (here: up to the end of the literal).
    let line_start = if e.line() <= 1 { 0 } else { input.iter().enumerate().filter(|&(_, &b)| b == b'\n').nth(e.line() - 2)?.0 + 1 };
    let end = line_start + e.column();
    let digits = input.get(..end)?.iter().rev().take_while(|b| b.is_ascii_digit()).count();
    let start = end - digits - usize::from(end > digits && input[end - digits - 1] == b'-');
    if digits == 0 || matches!(input.get(end), Some(b'0'..=b'9' | b'.' | b'e' | b'E')) {
        return None;
    }
    let literal = &input[start..end];
    match Value::from_slice(literal) {
        Ok(Value::Number(n @ Number::Big(_))) if n.as_f64().is_none() => {}
        _ => return None,
    }
    let mut masked = input.to_vec();
    masked[start] = b'0';
    masked[start + 1..end].fill(b' ');
    Some(masked)
}

fn same_number(a: &Number, b: &serde_json::Number) -> bool {
    let theirs = b.as_i64().map(i128::from).or_else(|| b.as_u64().map(i128::from));
    match (super::common::exact_integer(a), theirs) {
        (Some(x), Some(y)) if !matches!(a, Number::Big(_)) => x == y,
        _ => a.as_f64().is_some() && a.as_f64() == b.as_f64(),
    }
}
