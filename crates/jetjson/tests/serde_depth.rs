//! The serde path's recursion ceiling (10,000 levels) applies to the types
//! that recurse, not to `Value` and `RawJson`, which the door reads without
//! recursion under the caller's `max_depth`; and when the ceiling stops a
//! read, the error names it, not a `max_depth` the caller never set.

use jetjson::{ErrorKind, RawJson, ReadOptions, Value};
use serde::Deserialize;

fn nested(depth: usize) -> String {
    format!("{}{}", "[".repeat(depth), "]".repeat(depth))
}

/// On a thread with room for the serde path's recursion.
fn big_stack<R: Send + 'static>(f: impl FnOnce() -> R + Send + 'static) -> R {
    std::thread::Builder::new().stack_size(512 << 20).spawn(f).unwrap().join().unwrap()
}

#[test]
fn value_and_raw_json_take_max_depth_beyond_the_ceiling() {
    let text = nested(20_000);
    let options = ReadOptions::new().max_depth(100_000);
    let v = jetjson::from_slice_with::<Value>(text.as_bytes(), &options).unwrap();
    assert!(v == Value::from_slice_with(text.as_bytes(), &options).unwrap());
}

#[derive(Deserialize)]
struct OnlyV {
    v: Value,
}

#[derive(Deserialize)]
struct OnlyRaw<'a> {
    #[serde(borrow)]
    raw: RawJson<'a>,
}

#[test]
fn value_and_raw_json_fields_take_max_depth_beyond_the_ceiling() {
    let (v, raw) = big_stack(|| {
        let text = nested(20_000);
        let options = ReadOptions::new().max_depth(100_000);
        let doc = format!(r#"{{"v":{text}}}"#);
        let v = jetjson::from_slice_with::<OnlyV>(doc.as_bytes(), &options)
            .map(|h| h.v == Value::from_slice_with(text.as_bytes(), &options).unwrap());
        let doc = format!(r#"{{"raw":{text}}}"#);
        let raw = jetjson::from_slice_with::<OnlyRaw>(doc.as_bytes(), &options).map(|h| h.raw.as_bytes() == text.as_bytes());
        (v.map_err(|e| e.to_string()), raw.map_err(|e| e.to_string()))
    });
    assert_eq!(v, Ok(true));
    assert_eq!(raw, Ok(true));
}

/// Known limit: a `Value` the door refuses (invalid, or deeper than
/// `max_depth`) is read again the generic way to say why, and that
/// recursion stops at the ceiling; the error then names the ceiling.
#[test]
fn a_refused_value_beyond_the_ceiling_names_the_ceiling() {
    let e = big_stack(|| {
        let options = ReadOptions::new().max_depth(100_000);
        jetjson::from_slice_with::<Value>(nested(100_001).as_bytes(), &options).unwrap_err()
    });
    assert_eq!(e.kind(), &ErrorKind::RecursionCeiling { ceiling: 10_000, max_depth: Some(100_000) });
    assert_eq!(e.position().unwrap().offset, 10_000);
}

/// A type that recurses: `[[[...]]]`.
#[derive(Deserialize)]
struct Nest(#[allow(dead_code)] Vec<Nest>);

#[test]
fn recursive_types_stop_at_the_ceiling_and_say_so() {
    let text = nested(20_000);
    let e =
        big_stack(move || jetjson::from_slice_with::<Nest>(text.as_bytes(), &ReadOptions::new().max_depth(100_000)).map(drop)).unwrap_err();
    assert_eq!(e.kind(), &ErrorKind::RecursionCeiling { ceiling: 10_000, max_depth: Some(100_000) });
    assert_eq!(e.position().unwrap().offset, 10_000);
    let shown = e.to_string();
    assert!(shown.contains("nesting deeper than 10000") && shown.contains("max_depth 100000"), "{shown}");
    assert_eq!(e.classify(), jetjson::Category::Limit);
    // At or under the ceiling, max_depth is the limit, as ever.
    let text = nested(20_000);
    let e =
        big_stack(move || jetjson::from_slice_with::<Nest>(text.as_bytes(), &ReadOptions::new().max_depth(10_000)).map(drop)).unwrap_err();
    assert_eq!(e.kind(), &ErrorKind::DepthLimit { limit: 10_000 });
}
