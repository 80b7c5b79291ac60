//! A `Value` of any depth that exists can be compared (`==`), formatted
//! with `{:?}`, displayed, cloned, dropped and given to another crate's
//! serializer: none of them overflows the stack (the first three and drop
//! do not recurse; clone and serialize check the stack's room at each
//! level), and `Display` has no depth limit (values nested far beyond the
//! writer's default `max_write_depth` of 512, and beyond `MAX_WRITE_DEPTH`).

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

/// A tree of owned vectors (built by hand, by `to_value`, by a lossless
/// read) is dropped without recursion, at any depth, on any stack.
#[test]
fn owned_trees_drop_at_any_depth() {
    let n = 1_000_000;
    let v = owned_tree(n);
    // Walks it without recursion to check the shape, then drops it on a
    // thread with a 64 KiB stack.
    let mut depth = 0;
    let mut at = &v;
    while let Some(inner) = at.get(1).or_else(|| at.get("k")) {
        depth += 1;
        at = inner;
    }
    assert_eq!(depth, n);
    std::thread::Builder::new().stack_size(64 << 10).spawn(move || drop(v)).unwrap().join().unwrap();
}

/// A lossless read keeps the generic serde path, which builds owned
/// vectors: read and dropped on a small stack.
#[test]
fn lossless_reads_drop_on_a_small_stack() {
    let depth = 9_000;
    let ok = std::thread::Builder::new()
        .stack_size(64 << 10)
        .spawn(move || {
            let text = nested(depth, "[", "]", "123456789012345678901234567890");
            let v: Value = jetjson::from_slice_with(text.as_bytes(), &ReadOptions::lossless().max_depth(depth)).unwrap();
            let shown = v.to_string();
            drop(v);
            shown == text
        })
        .unwrap()
        .join()
        .unwrap();
    assert!(ok);
}

/// A hand-built tree of owned vectors, `n` levels of arrays and objects
/// in turn (`[i, <inner>, true]` and `{"a": null, "k": <inner>}`).
fn owned_tree(n: usize) -> Value {
    let mut v = Value::Null;
    for i in 0..n {
        v = if i % 2 == 0 {
            Value::Array(vec![Value::from(i as u64), v, Value::Bool(true)].into())
        } else {
            let mut m = jetjson::Map::new();
            m.push("a", Value::Null);
            m.push("k", v);
            Value::Object(m)
        };
    }
    v
}

/// On a thread with a 64 KiB stack.
fn on_small_stack<R: Send + 'static>(f: impl FnOnce() -> R + Send + 'static) -> R {
    std::thread::Builder::new().stack_size(64 << 10).spawn(f).unwrap().join().unwrap()
}

/// `Clone` of a tree of owned vectors copies it level by level: at any
/// depth, on any stack (a parsed tree's clone only counts a reference).
#[test]
fn owned_trees_clone_at_any_depth() {
    let n = 200_000;
    let same = on_small_stack(move || {
        let v = owned_tree(n);
        let copy = v.clone();
        let mut copy_changed = copy.clone();
        *copy_changed.pointer_mut(&"/k/1".repeat(3)).unwrap() = Value::Null;
        (v == copy, v == copy_changed)
    });
    assert_eq!(same, (true, false));
}

/// Through another crate's serializer (serde_json's, which has no depth
/// limit when writing), a deep hand-built tree is written whole on a small
/// stack; the text is the one jetjson writes.
#[test]
fn deep_trees_serialize_through_another_serializer_on_a_small_stack() {
    let n = 20_000;
    let (theirs, ours) = on_small_stack(move || {
        let v = owned_tree(n);
        let theirs = serde_json::to_string(&v).unwrap();
        let ours = v.to_string();
        (theirs, ours)
    });
    assert!(theirs.len() > 10 * n);
    assert!(theirs == ours);
}

/// `{:#}` is serde_json's `{:#}` (its pretty printer, two spaces), and
/// past the writer's depth the compact text, as `{}`.
#[test]
fn display_alternate_is_serde_jsons_pretty_text() {
    for doc in [r#"{"a":[1,2.5,"x"],"b":{},"c":[],"d":{"e":[{"f":null}]},"g":"\u00e9\n"}"#, "[]", "7", r#"[[[]],{"k":[true,false]}]"#] {
        let ours = format!("{:#}", Value::from_slice(doc.as_bytes()).unwrap());
        let theirs = format!("{:#}", serde_json::from_str::<serde_json::Value>(doc).unwrap());
        assert_eq!(ours, theirs);
    }
    let deep = parse(&nested(600, "[", "]", ""), 600);
    assert_eq!(format!("{deep:#}"), deep.to_string());
}
