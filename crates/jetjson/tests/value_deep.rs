//! A `Value` of any depth that exists can be compared (`==`), formatted
//! with `{:?}` and displayed: none of them recurses on the stack, and
//! `Display` has no depth limit (values nested far beyond the writer's
//! default `max_write_depth` of 512, and beyond `MAX_WRITE_DEPTH`).

use jetjson::{ReadOptions, Value, MAX_WRITE_DEPTH};

fn nested(depth: usize, open: &str, close: &str, leaf: &str) -> String {
    let mut s = open.repeat(depth);
    s.push_str(leaf);
    s.push_str(&close.repeat(depth));
    s
}

/// Parsed (the arena builder takes any depth, and dropping it does not
/// walk the tree).
fn parse(text: &str, depth: usize) -> Value {
    Value::from_slice_with(text.as_bytes(), &ReadOptions::new().max_depth(depth)).unwrap()
}

#[test]
fn display_writes_any_depth() {
    for depth in [512, 513, 10_000, MAX_WRITE_DEPTH + 1] {
        for (open, close, leaf) in [("[", "]", ""), ("{\"k\":", "}", "1"), ("[1,", "]", "\"s\"")] {
            let text = nested(depth, open, close, leaf);
            let v = parse(&text, depth);
            let shown = v.to_string();
            assert!(shown == text, "depth {depth}, {open}");
        }
    }
}

#[test]
fn eq_compares_a_million_levels() {
    let n = 1_000_000;
    let a = parse(&nested(n, "[", "]", "1"), n);
    let b = parse(&nested(n, "[", "]", "1"), n);
    let c = parse(&nested(n, "[", "]", "2"), n);
    let d = parse(&nested(n, "{\"k\":", "}", "1"), n);
    assert!(a == b);
    assert!(a != c);
    assert!(a != d);
    assert!(d == d.clone());
}

#[test]
fn debug_formats_a_million_levels() {
    let n = 1_000_000;
    let v = parse(&nested(n, "[", "]", "true"), n);
    let s = format!("{v:?}");
    assert_eq!(s, format!("{}Bool(true){}", "Array([".repeat(n), "])".repeat(n)));
}
