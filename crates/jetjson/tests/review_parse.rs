//! Review tests for the thread-local parse memory (`with_pooled`), the
//! Value builder's thread-local, the names filter and the arena release.

use jetjson::parse::{parse, NumberToken, ReadOptions, Visitor};
use jetjson::Result;
use jetjson::Value;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Counts events; panics at the `panic_at`-th `begin_array`/`begin_object`
/// (depth-wise) or at a given key.
#[derive(Default)]
struct Panicky {
    depth: usize,
    panic_at_depth: Option<usize>,
    panic_at_key: Option<&'static str>,
    events: usize,
}

impl Panicky {
    fn enter(&mut self) {
        self.depth += 1;
        self.events += 1;
        if Some(self.depth) == self.panic_at_depth {
            panic!("visitor panics at depth {}", self.depth);
        }
    }
}

impl Visitor for Panicky {
    fn null(&mut self) -> Result<()> {
        self.events += 1;
        Ok(())
    }
    fn bool(&mut self, _: bool) -> Result<()> {
        self.events += 1;
        Ok(())
    }
    fn number(&mut self, _: NumberToken<'_>) -> Result<()> {
        self.events += 1;
        Ok(())
    }
    fn string(&mut self, _: &str, _: &str) -> Result<()> {
        self.events += 1;
        Ok(())
    }
    fn begin_array(&mut self) -> Result<()> {
        self.enter();
        Ok(())
    }
    fn end_array(&mut self) -> Result<()> {
        self.depth -= 1;
        Ok(())
    }
    fn begin_object(&mut self) -> Result<()> {
        self.enter();
        Ok(())
    }
    fn key(&mut self, k: &str, _: &str) -> Result<()> {
        self.events += 1;
        if Some(k) == self.panic_at_key {
            panic!("visitor panics at key {k}");
        }
        Ok(())
    }
    fn end_object(&mut self) -> Result<()> {
        self.depth -= 1;
        Ok(())
    }
}

fn nested(depth: usize) -> Vec<u8> {
    format!("{}1{}", "[".repeat(depth), "]".repeat(depth)).into_bytes()
}

/// A visitor that panics deep inside a document (caught), then ordinary
/// parses on the same thread: they must see the same limits as before.
#[test]
fn a_panicking_visitor_leaves_the_thread_memory_usable() {
    let options = ReadOptions::new().max_depth(64);
    // Before: a document of depth 40 is fine.
    parse(&nested(40), &options, &mut Panicky::default()).unwrap();
    let caught = catch_unwind(AssertUnwindSafe(|| {
        let mut v = Panicky { panic_at_depth: Some(60), ..Default::default() };
        let _ = parse(&nested(63), &options, &mut v);
    }));
    assert!(caught.is_err(), "the visitor panicked");
    // After: the same document of depth 40 must still parse.
    let mut v = Panicky::default();
    let r = parse(&nested(40), &options, &mut v);
    assert!(r.is_ok(), "after a caught panic: {r:?}");
    // And Value::from_slice, with the default depth limit.
    let caught = catch_unwind(AssertUnwindSafe(|| {
        let mut v = Panicky { panic_at_depth: Some(500), ..Default::default() };
        let _ = parse(&nested(510), &ReadOptions::new(), &mut v);
    }));
    assert!(caught.is_err());
    let r = Value::from_slice(&nested(100));
    assert!(r.is_ok(), "Value::from_slice after a caught panic: {r:?}");
}

/// A visitor that panics inside an object whose names are being tracked
/// (default `DuplicateKeys::Error`), then parses of other documents: no
/// false repeat, no missed repeat.
#[test]
fn a_panic_inside_a_tracked_object_leaves_names_right() {
    let doc = br#"{"a":1,"b":{"c":2,"d":3,"boom":4}}"#;
    let caught = catch_unwind(AssertUnwindSafe(|| {
        let mut v = Panicky { panic_at_key: Some("boom"), ..Default::default() };
        let _ = parse(doc, &ReadOptions::new(), &mut v);
    }));
    assert!(caught.is_err());
    parse(br#"{"c":1,"d":2}"#, &ReadOptions::new(), &mut Panicky::default()).unwrap();
    assert!(parse(br#"{"c":1,"c":2}"#, &ReadOptions::new(), &mut Panicky::default()).is_err());
    assert!(parse(br#"{"x":{"a":1},"a":2, "b":{"a":1,"a":2}}"#, &ReadOptions::new(), &mut Panicky::default()).is_err());
    parse(br#"{"x":{"a":1},"a":2, "b":{"a":1,"b":2}}"#, &ReadOptions::new(), &mut Panicky::default()).unwrap();
}

/// Small deterministic generator (no dependency).
struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Handles on one parsed tree (the root, clones of it, children taken by
/// clone, children of clones) sent to several threads and dropped there in
/// random orders, while other threads read through theirs; the last drop
/// frees the arena. Under Miri / TSan / ASan this checks the arena's count
/// (`arena::release`'s Acquire load of 1 without a decrement).
#[test]
fn arena_handles_dropped_across_threads() {
    let long = "a string longer than the inline capacity of a Str";
    let text = format!(r#"{{"a":[1,2,{{"b":"{long}"}}],"c":{{"d":["{long}",[3,4]],"e":null}},"f":["{long}","{long}"],"g":[[[[5]]]]}}"#);
    let rounds = if cfg!(miri) { 4 } else { 300 };
    let threads = if cfg!(miri) { 3 } else { 4 };
    let mut rng = Lcg(0x5eed);
    for _ in 0..rounds {
        let root = Value::from_slice(text.as_bytes()).unwrap();
        // Every kind of handle: root clones, arena children (cloned out of
        // the root: counted), children of children.
        let grand = root["g"].clone();
        let mut handles: Vec<Value> = vec![
            root.clone(),
            root["a"].clone(),
            root["a"][2].clone(),
            root["c"]["d"].clone(),
            root["c"]["d"][1].clone(),
            root["f"].clone(),
            root["g"][0][0].clone(),
            grand[0].clone(),
        ];
        handles.push(grand);
        handles.push(root);
        // Shuffle, then deal round-robin to threads.
        for i in (1..handles.len()).rev() {
            let j = rng.below(i + 1);
            handles.swap(i, j);
        }
        let mut per: Vec<Vec<Value>> = (0..threads).map(|_| Vec::new()).collect();
        for (i, h) in handles.into_iter().enumerate() {
            per[i % threads].push(h);
        }
        let seeds: Vec<u64> = (0..threads).map(|_| rng.next()).collect();
        std::thread::scope(|s| {
            for (mut mine, seed) in per.into_iter().zip(seeds) {
                let long = long.to_string();
                s.spawn(move || {
                    let mut rng = Lcg(seed);
                    while !mine.is_empty() {
                        let i = rng.below(mine.len());
                        let h = mine.swap_remove(i);
                        // Read through it, clone it, drop in some order.
                        let written = h.to_string();
                        assert!(!written.is_empty());
                        if written.contains(&long) || rng.below(2) == 0 {
                            let c = h.clone();
                            if rng.below(2) == 0 {
                                drop(h);
                                assert_eq!(c.to_string(), written);
                            } else {
                                drop(c);
                                assert_eq!(h.to_string(), written);
                            }
                        }
                    }
                });
            }
        });
    }
}

/// Two threads race to drop the last two handles of one arena (each
/// sees the count 2 or 1): exactly one frees.
#[test]
fn two_last_handles_race() {
    let text = r#"[["a string longer than the inline capacity of a Str"],{"k":[1,2,3]}]"#;
    let rounds = if cfg!(miri) { 8 } else { 2000 };
    for _ in 0..rounds {
        let a = Value::from_slice(text.as_bytes()).unwrap();
        let b = a[0].clone();
        let barrier = std::sync::Barrier::new(2);
        std::thread::scope(|s| {
            s.spawn(|| {
                let a = a;
                barrier.wait();
                assert_eq!(a[1]["k"][2], 3);
                drop(a);
            });
            s.spawn(|| {
                let b = b;
                barrier.wait();
                assert_eq!(b[0].as_str().map(str::len), Some(49));
                drop(b);
            });
        });
    }
}

/// A name's text and a JSON spelling of it (escapes chosen at random, so a
/// repeat may be spelled differently from the first).
fn spell(rng: &mut Lcg, name: &str) -> String {
    let mut out = String::from("\"");
    for c in name.chars() {
        match rng.below(6) {
            0 => {
                let mut buf = [0u16; 2];
                for u in c.encode_utf16(&mut buf) {
                    out.push_str(&format!("\\u{:04x}", u));
                }
            }
            _ if c == '"' => out.push_str("\\\""),
            _ if c == '\\' => out.push_str("\\\\"),
            _ if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04X}", c as u32)),
            1 if c == '/' => out.push_str("\\/"),
            _ => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Names from a small alphabet so that equal-length, equal-prefix names and
/// names of 22/23 bytes (the inline limit) and longer are all common.
fn random_name(rng: &mut Lcg) -> String {
    let len = match rng.below(5) {
        0 => rng.below(4),
        1 => 7 + rng.below(3),
        2 => 21 + rng.below(4),
        3 => 30 + rng.below(20),
        _ => 8 + rng.below(30),
    };
    let alphabet: &[char] = &['a', 'b', '"', '\\', '\n', '/', 'é', '\u{1F600}', '\u{7f}', 'a', 'a'];
    let mut s: String = "prefix_same_for_many_names_".chars().take(rng.below(28)).collect();
    while s.chars().count() < len {
        s.push(alphabet[rng.below(alphabet.len())]);
    }
    s
}

/// Writes a random object of `n` names (some repeated, at random places)
/// into `out`; returns whether it (or any object inside) repeats a name.
fn random_object(rng: &mut Lcg, out: &mut String, depth: usize, repeat_chance: usize) -> bool {
    let n = match rng.below(4) {
        0 => rng.below(9),
        1 => 9 + rng.below(56),  // the marked filter: 9..=64
        2 => 60 + rng.below(10), // around its upper edge
        _ => 1 + rng.below(70),
    };
    let mut names: Vec<String> = Vec::new();
    while names.len() < n {
        let name =
            if !names.is_empty() && rng.below(100) < repeat_chance { names[rng.below(names.len())].clone() } else { random_name(rng) };
        names.push(name);
    }
    let mut set = std::collections::HashSet::new();
    let mut repeats = names.iter().any(|k| !set.insert(k.clone()));
    out.push('{');
    for (i, k) in names.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&spell(rng, k));
        out.push(':');
        if depth > 0 && rng.below(8) == 0 {
            repeats |= random_object(rng, out, depth - 1, repeat_chance);
        } else if depth > 0 && rng.below(8) == 0 {
            out.push('[');
            repeats |= random_object(rng, out, depth - 1, repeat_chance);
            out.push(']');
        } else {
            out.push_str(&i.to_string());
        }
    }
    out.push('}');
    repeats
}

/// Documents of many objects (9-64 names especially, escaped names, nested
/// objects, records one after another): refused exactly when some object
/// repeats a name, under the default `DuplicateKeys::Error`; checked
/// against a reference (a `HashSet` per object) and against serde_json's
/// own parse of the text (the names as it decodes them).
#[test]
fn repeated_names_agree_with_a_reference() {
    let mut rng = Lcg(42);
    let docs = if cfg!(miri) { 20 } else { 1_000 };
    let (mut refused, mut accepted) = (0, 0);
    for d in 0..docs {
        let mut text = String::from("[");
        let mut want = false;
        for r in 0..1 + rng.below(6) {
            if r > 0 {
                text.push(',');
            }
            want |= random_object(&mut rng, &mut text, 2, [0, 1, 3, 20][d % 4]);
        }
        text.push(']');
        // The reference's own decoding of the names agrees with ours.
        assert_eq!(has_repeat_serde(&text), want, "{text}");
        let got = Value::from_slice(text.as_bytes());
        assert_eq!(got.is_err(), want, "doc {d}: {text}\n{got:?}");
        if let Err(e) = &got {
            assert!(e.to_string().contains("duplicate") || e.to_string().contains("repeat"), "{e}");
            refused += 1;
        } else {
            accepted += 1;
        }
        // The same under the checking parser (typed path) and validate.
        assert_eq!(jetjson::parse::validate(text.as_bytes(), &ReadOptions::new()).is_err(), want, "{text}");
    }
    assert!(refused > 0 && accepted > 0, "{refused} {accepted}");
}

fn has_repeat_serde(text: &str) -> bool {
    use serde::de::{Deserializer as _, MapAccess, SeqAccess, Visitor as SerdeVisitor};
    struct Any;
    struct Out(bool);
    impl<'de> serde::de::DeserializeSeed<'de> for &mut Out {
        type Value = ();
        fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> std::result::Result<(), D::Error> {
            d.deserialize_any(self)
        }
    }
    impl<'de> SerdeVisitor<'de> for &mut Out {
        type Value = ();
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("json")
        }
        fn visit_u64<E>(self, _: u64) -> std::result::Result<(), E> {
            Ok(())
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut a: A) -> std::result::Result<(), A::Error> {
            while a.next_element_seed(&mut *self)?.is_some() {}
            Ok(())
        }
        fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> std::result::Result<(), A::Error> {
            let mut seen = std::collections::HashSet::new();
            while let Some(k) = a.next_key::<String>()? {
                if !seen.insert(k) {
                    self.0 = true;
                }
                a.next_value_seed(&mut *self)?;
            }
            Ok(())
        }
    }
    let _ = Any;
    let mut out = Out(false);
    let mut de = serde_json::Deserializer::from_str(text);
    (&mut de).deserialize_any(&mut out).unwrap();
    out.0
}

/// Value::from_slice (and typed from_slice with Value fields) called from
/// inside a visitor's callback and from inside a serde Deserialize impl;
/// and a Deserialize impl that panics next to Value fields (caught), then
/// parses again on the same thread.
#[test]
fn value_parses_nested_in_callbacks_and_after_panics() {
    struct Inner(Vec<Value>);
    impl Visitor for Inner {
        fn null(&mut self) -> Result<()> {
            Ok(())
        }
        fn bool(&mut self, _: bool) -> Result<()> {
            Ok(())
        }
        fn number(&mut self, _: NumberToken<'_>) -> Result<()> {
            Ok(())
        }
        fn string(&mut self, s: &str, _: &str) -> Result<()> {
            self.0.push(Value::from_slice(s.as_bytes())?);
            let typed: Vec<Value> = jetjson::from_slice(format!("[{s},{s}]").as_bytes())?;
            assert_eq!(typed[0], typed[1]);
            Ok(())
        }
        fn begin_array(&mut self) -> Result<()> {
            Ok(())
        }
        fn end_array(&mut self) -> Result<()> {
            Ok(())
        }
        fn begin_object(&mut self) -> Result<()> {
            Ok(())
        }
        fn key(&mut self, _: &str, _: &str) -> Result<()> {
            Ok(())
        }
        fn end_object(&mut self) -> Result<()> {
            Ok(())
        }
    }
    let mut v = Inner(Vec::new());
    parse(br#"["[1,{\"a\":2,\"b\":[3]}]", {"k": "{\"x\":\"a string longer than the inline capacity\"}"}]"#, &ReadOptions::new(), &mut v)
        .unwrap();
    assert_eq!(v.0.len(), 2);
    assert_eq!(v.0[0].to_string(), r#"[1,{"a":2,"b":[3]}]"#);
    assert!(parse(br#"["{\"a\":1,\"a\":2}"]"#, &ReadOptions::new(), &mut Inner(Vec::new())).is_err());

    /// Parses its own string as a document while the outer typed parse runs.
    #[derive(Debug)]
    struct Reparse(Value);
    impl<'de> serde::Deserialize<'de> for Reparse {
        fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
            let s = String::deserialize(d)?;
            if s == "panic" {
                panic!("Deserialize impl panics");
            }
            Value::from_slice(s.as_bytes()).map(Reparse).map_err(serde::de::Error::custom)
        }
    }
    #[derive(serde::Deserialize, Debug)]
    struct Record {
        before: Value,
        inner: Reparse,
        after: Value,
    }
    let r: Record = jetjson::from_slice(br#"{"before":{"p":[1,2]},"inner":"{\"q\":[3,{\"r\":4}]}","after":[5,{"s":6}]}"#).unwrap();
    assert_eq!(r.before.to_string(), r#"{"p":[1,2]}"#);
    assert_eq!(r.inner.0.to_string(), r#"{"q":[3,{"r":4}]}"#);
    assert_eq!(r.after.to_string(), r#"[5,{"s":6}]"#);
    for _ in 0..3 {
        let caught = catch_unwind(|| {
            let _: std::result::Result<Record, _> = jetjson::from_slice(br#"{"before":[[[[1]]]],"inner":"panic","after":2}"#);
        });
        assert!(caught.is_err());
        let r: Record = jetjson::from_slice(br#"{"before":{"p":[1,2]},"inner":"[]","after":[5,{"s":6}]}"#).unwrap();
        assert_eq!(r.after.to_string(), r#"[5,{"s":6}]"#);
        assert!(jetjson::from_slice::<Record>(br#"{"before":{"p":1,"p":2},"inner":"[]","after":1}"#).is_err());
        assert!(Value::from_slice(&nested(500)).is_ok());
    }
}
