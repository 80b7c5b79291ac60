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
//!
//! Numbers beyond the double range (`1e400`) are refused by both; `-0` is
//! the float -0.0 in both (numbers other than two integers compare as
//! doubles).

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

fn same_number(a: &Number, b: &serde_json::Number) -> bool {
    let theirs = b.as_i64().map(i128::from).or_else(|| b.as_u64().map(i128::from));
    match (super::common::exact_integer(a), theirs) {
        (Some(x), Some(y)) if !matches!(a, Number::Big(_)) => x == y,
        _ => a.as_f64().is_some() && a.as_f64() == b.as_f64(),
    }
}
