//! The `Value` builder writes the items of the innermost open array straight
//! into the document's arena while they are plain (null, booleans, numbers,
//! strings short enough to be inline), and moves them onto its stack when
//! something else arrives: a nested container, a string too long to be
//! inline, a number kept as text (value/build.rs, `DirectArray`). Its
//! region grows by moving to a fresh chunk, and past a size limit the array
//! goes to the stack. Every one of these transitions must give the tree the
//! document describes: checked against trees built by hand (not parsed),
//! written out and parsed back.

mod common;

use common::*;
use jetjson::{DuplicateKeys, Number, ReadOptions, Value};

/// The longest string a `Str` keeps inline (value/str.rs).
const INLINE: usize = 22;

/// An item the builder writes in place.
fn plain(rng: &mut Rng) -> Value {
    match rng.below(6) {
        0 => Value::Null,
        1 => Value::Bool(rng.chance(50)),
        2 => Value::Number(interesting_int(rng)),
        3 => Value::Number(Number::Float(interesting_f64(rng))),
        // Up to exactly the inline capacity.
        4 => Value::String("x".repeat(rng.below(INLINE + 1)).into()),
        _ => Value::String(hostile_string(rng, 5).chars().take(4).collect::<String>().into()),
    }
}

/// An item that makes the builder move the array onto its stack.
fn spiller(rng: &mut Rng) -> Value {
    match rng.below(5) {
        // One byte past the inline capacity, and much longer.
        0 => Value::String("y".repeat(INLINE + 1).into()),
        1 => Value::String(format!("{}{}", "z".repeat(40), hostile_string(rng, 8)).into()),
        2 => Value::Array((0..rng.below(4)).map(|_| plain(rng)).collect()),
        3 => {
            let mut m = jetjson::Map::new();
            m.push("k", plain(rng));
            Value::Object(m)
        }
        // Beyond u64: kept as its text, which needs arena memory.
        _ => Value::Number(Number::from_literal("123456789012345678901234567890").unwrap()),
    }
}

fn round_trip(v: &Value) -> Value {
    let text = jetjson::to_vec(v).unwrap();
    let parsed = Value::from_slice(&text).unwrap_or_else(|e| panic!("{e}: {}", show(&text)));
    // The parsed tree writes the same bytes, too (its arena items are read
    // through the same handles the writer uses).
    assert_eq!(jetjson::to_vec(&parsed).unwrap(), text);
    parsed
}

/// Arrays of every size around the region's growth steps and the size
/// limit, each with its spill (if any) at the start, in the middle or at
/// the end: the parsed tree equals the built one.
#[test]
fn plain_runs_of_every_size_with_a_spill_anywhere() {
    let mut rng = Rng::new(0xd1ec7);
    // 131,072 values are the 4 MiB limit; 200,000 pass it.
    for n in [0usize, 1, 2, 3, 4, 7, 16, 100, 1_000, 20_000, 131_071, 131_072, 131_073, 200_000] {
        for spill_at in [None, Some(0), Some(1), Some(n / 2), Some(n)] {
            let mut items: Vec<Value> = (0..n).map(|_| plain(&mut rng)).collect();
            if let Some(at) = spill_at {
                items.insert(at.min(items.len()), spiller(&mut rng));
            }
            let built = Value::Array(items.into_iter().collect());
            assert_eq!(round_trip(&built), built, "n = {n}, spill at {spill_at:?}");
            // Inside an object, after a sibling array, and as the last of
            // several arrays in an array (the enclosing array is moved to
            // the stack when the first of them begins).
            let mut m = jetjson::Map::new();
            m.push("before", Value::Array(vec![Value::from(1), Value::from("s")].into_iter().collect()));
            m.push("run", built.clone());
            let wrapped = Value::Array(vec![Value::Object(m), built.clone(), built].into_iter().collect());
            assert_eq!(round_trip(&wrapped), wrapped, "n = {n}, spill at {spill_at:?}, wrapped");
        }
    }
}

/// Random documents of nested arrays and objects whose items switch
/// between plain, spilling and nested ones: every move of an array's items
/// from its region to the stack, at any depth and with objects between
/// arrays, must give the built tree.
#[test]
fn random_nestings_equal_built_trees() {
    fn tree(rng: &mut Rng, depth: usize, nested: usize) -> Value {
        // Dense nestings stay small: their size is the product of lengths.
        let n = if nested > 10 { [0, 1, 2, 3, 5, 9, 20][rng.below(7)] } else { [0, 1, 2, 3, 5, 9, 40, 300][rng.below(8)] };
        let items = (0..n).map(|_| match rng.below(100) {
            k if depth > 0 && k < nested => tree(rng, depth - 1, nested),
            k if depth > 0 && k < nested + 3 => {
                let mut m = jetjson::Map::new();
                m.push("t", tree(rng, depth - 1, nested));
                m.push("p", plain(rng));
                Value::Object(m)
            }
            k if k < nested + 13 => spiller(rng),
            _ => plain(rng),
        });
        Value::Array(items.collect())
    }
    let mut rng = Rng::new(0xa77a);
    for round in 0..3_000 {
        // Sparse nestings (mostly plain runs) and dense ones (arrays of
        // arrays, as in rings of points).
        let nested = if round % 2 == 0 { 10 } else { 60 };
        let depth = if nested == 10 { 4 } else { 3 };
        let built = tree(&mut rng, depth, nested);
        assert_eq!(round_trip(&built), built);
    }
}

/// Arrays of arrays of every size, like GeoJSON rings of points, alone,
/// inside objects, after a long string and three deep: each point is an
/// array written in place, each ring one moved to the stack by its first
/// point.
#[test]
fn rings_of_points() {
    let mut rng = Rng::new(0x7e0);
    for n in [1usize, 2, 3, 17, 1_000, 50_000] {
        let ring = |rng: &mut Rng| -> Value { Value::Array((0..n).map(|_| Value::Array((0..2).map(|_| plain(rng)).collect())).collect()) };
        let built = ring(&mut rng);
        assert_eq!(round_trip(&built), built, "n = {n}");
        let polygon = Value::Array(vec![ring(&mut rng), ring(&mut rng)].into_iter().collect());
        let mut m = jetjson::Map::new();
        m.push("coordinates", polygon.clone());
        let mut late = vec![Value::String("w".repeat(40).into())];
        late.extend((0..3).map(|_| ring(&mut rng)));
        let doc = Value::Array(vec![Value::Object(m), polygon, Value::Array(late.into_iter().collect())].into_iter().collect());
        assert_eq!(round_trip(&doc), doc, "n = {n}");
    }
}

/// Lossless numbers all need arena memory; duplicate-key policies build
/// objects off the stack; arrays inside both must come out unchanged.
#[test]
fn options_that_take_other_paths() {
    let mut rng = Rng::new(0x1055);
    for _ in 0..500 {
        let items: Vec<String> = (0..1 + rng.below(50)).map(|i| format!("{}.{}", i, rng.below(1000))).collect();
        let text = format!("[[{}],[1,\"a\",{}]]", items.join(","), items.join(","));
        let v = Value::from_slice_with(text.as_bytes(), &ReadOptions::lossless()).unwrap();
        assert_eq!(jetjson::to_vec(&v).unwrap(), text.as_bytes(), "lossless numbers keep their text");
        for policy in [DuplicateKeys::First, DuplicateKeys::Last] {
            let doubled = format!("{{\"a\":[{0}],\"a\":[{0},7],\"b\":[[{0}]]}}", items.join(","));
            let v = Value::from_slice_with(doubled.as_bytes(), &ReadOptions::new().duplicate_keys(policy)).unwrap();
            let want = match policy {
                DuplicateKeys::First => format!("{{\"a\":[{0}],\"b\":[[{0}]]}}", items.join(",")),
                _ => format!("{{\"a\":[{0},7],\"b\":[[{0}]]}}", items.join(",")),
            };
            let want: serde_json::Value = serde_json::from_str(&want).unwrap();
            let got: serde_json::Value = serde_json::from_slice(&jetjson::to_vec(&v).unwrap()).unwrap();
            assert_eq!(got, want, "{policy:?}");
        }
    }
}

/// A document that fails inside an array written in place reports the
/// same error as one that fails on the stack path, and the next parse on
/// the same thread (which reuses the builder's stacks) is unaffected.
#[test]
fn errors_inside_a_run_and_the_next_parse() {
    for n in [0usize, 1, 5, 1_000, 140_000] {
        let run: Vec<String> = (0..n).map(|i| i.to_string()).collect();
        for tail in ["", ",", ",]", ", x]", ",\"unterminated", ",[1,"] {
            let text = format!("{{\"k\":[{}{tail}", run.join(","));
            let ours = Value::from_slice(text.as_bytes()).expect_err("truncated or corrupt");
            // The same document with the run behind a long string (so the
            // array is on the stack when the error comes) fails at the
            // same offset, shifted by the string's length.
            let long = format!("\"{}\",", "w".repeat(30));
            let shifted = format!("{{\"k\":[{long}{}{tail}", run.join(","));
            let theirs = Value::from_slice(shifted.as_bytes()).expect_err("truncated or corrupt");
            assert_eq!(
                ours.position().unwrap().offset + long.len(),
                theirs.position().unwrap().offset,
                "n = {n}, tail {tail:?}: {ours} / {theirs}"
            );
            let fine = format!("[{}]", run.join(","));
            let v = Value::from_slice(fine.as_bytes()).unwrap();
            assert_eq!(v.as_array().map(|a| a.len()), Some(n));
        }
    }
}

/// Children of in-place arrays are shared, cloned and mutated like any
/// other parsed container.
#[test]
fn in_place_arrays_are_ordinary_values() {
    let text = br#"{"a":[1,2.5,"short",null,true],"b":[[3,4],[5,6]],"c":[]}"#;
    let root = Value::from_slice(text).unwrap();
    let a = root["a"].clone();
    let pair = root["b"][1].clone();
    drop(root);
    assert_eq!(jetjson::to_vec(&a).unwrap(), br#"[1,2.5,"short",null,true]"#);
    let mut pair = pair;
    pair.as_array_mut().unwrap().push(Value::from(7));
    assert_eq!(jetjson::to_vec(&pair).unwrap(), b"[5,6,7]");
    let threads: Vec<_> = (0..2)
        .map(|_| {
            let a = a.clone();
            std::thread::spawn(move || a[2].as_str().map(str::to_owned))
        })
        .collect();
    for t in threads {
        assert_eq!(t.join().unwrap().as_deref(), Some("short"));
    }
}
