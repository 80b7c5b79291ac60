//! Unit tests of the arena handles (small enough to run under Miri:
//! `cargo +nightly miri test -p jetjson --lib value::`, which also
//! runs the arena's own test; passes under Stacked and Tree Borrows).

use super::str::INLINE_CAPACITY;
use super::{Array, Map, Number, Str, Value};
use crate::parse::DuplicateKeys;
use crate::ReadOptions;

const LONG_A: &str = "a string longer than the inline capacity";
const LONG_B: &str = "another string that has to live in the arena";

fn doc() -> String {
    format!(r#"{{"list":[1,"{LONG_A}",{{"{LONG_B}":[true,null,2.5]}},[]],"name":"{LONG_B}","n":-7}}"#)
}

/// The same tree as `doc()`, built by hand (all owned).
fn built() -> Value {
    let inner: Map = [(Str::from(LONG_B), Value::from(vec![Value::Bool(true), Value::Null, Value::from(2.5)]))].into_iter().collect();
    let list = Array::from(vec![Value::from(1), Value::from(LONG_A), Value::Object(inner), Value::Array(Array::new())]);
    let mut root = Map::new();
    root.insert("list", Value::Array(list));
    root.insert("name", Value::from(LONG_B));
    root.insert("n", Value::from(-7));
    Value::Object(root)
}

#[test]
fn sizes() {
    assert!(std::mem::size_of::<Value>() <= 32, "Value is {} bytes", std::mem::size_of::<Value>());
    assert_eq!(std::mem::size_of::<Str>(), 24);
    assert_eq!(std::mem::size_of::<Array>(), 24);
    assert_eq!(std::mem::size_of::<Map>(), 24);
    assert!(std::mem::size_of::<Number>() <= 24);
}

/// Inline strings are put together from word loads (`Str::inline`): every
/// length up to the capacity and one past it, with distinct bytes (and
/// multi-byte characters across the word boundaries), keeps its text, in
/// a buffer ending exactly at the string (reads stay inside it).
#[test]
fn inline_strings_of_every_length_keep_their_text() {
    let alphabet: Vec<char> = "abcdefghijklmnopqrstuvwxyzé€".chars().collect();
    for len in 0..=INLINE_CAPACITY + 1 {
        for start in 0..alphabet.len() {
            let mut text = String::new();
            let mut k = start;
            while text.len() < len {
                let c = alphabet[k % alphabet.len()];
                if text.len() + c.len_utf8() > len {
                    text.push('z');
                } else {
                    text.push(c);
                }
                k += 1;
            }
            let exact: Box<str> = text.clone().into_boxed_str();
            let s = Str::new(&exact);
            assert_eq!(s.as_str(), text, "length {len}");
            assert_eq!(s.is_inline(), len <= INLINE_CAPACITY, "length {len}");
            // Equal strings made from other memory compare equal (the
            // bytes past the text are the same: zero).
            assert!(s == Str::new(&text.clone()), "length {len}");
            let parsed = Value::from_slice(format!("{{\"{text}\":\"{text}\"}}").as_bytes()).unwrap();
            let (name, value) = parsed.as_object().unwrap().iter().next().unwrap();
            assert_eq!((name.as_str(), value.as_str()), (text.as_str(), Some(text.as_str())));
        }
    }
}

#[test]
fn parsed_equals_built_and_is_arena_backed() {
    let v = Value::from_slice(doc().as_bytes()).unwrap();
    assert_eq!(v, built());
    // The root and its children live in the arena.
    let m = v.as_object().unwrap();
    assert!(matches!(m.members, super::seq::Seq::Counted(..)));
    let list = m.get("list").unwrap().as_array().unwrap();
    assert!(matches!(list.0, super::seq::Seq::Uncounted(..)));
    // A clone of an arena child is a counted handle onto the same items.
    let c = list.clone();
    assert!(matches!(c.0, super::seq::Seq::Counted(..)));
    assert_eq!(c.as_ptr(), list.as_ptr());
    // And an arena string's clone is an owned copy.
    let s = m.get("name").unwrap().as_str().unwrap();
    let Value::String(owned) = m.get("name").unwrap().clone() else { panic!() };
    assert_eq!(owned, s);
    assert_ne!(owned.as_ptr(), s.as_ptr());
}

#[test]
fn child_outlives_root() {
    let v = Value::from_slice(doc().as_bytes()).unwrap();
    let list = v["list"].clone();
    let inner = v["list"][2].clone();
    drop(v);
    assert_eq!(list, built()["list"]);
    drop(list);
    assert_eq!(inner[LONG_B][2].as_f64(), Some(2.5));
}

#[test]
fn mutation_copies_out() {
    let mut v = Value::from_slice(doc().as_bytes()).unwrap();
    let list = v.as_object_mut().unwrap().get_mut("list").unwrap().as_array_mut().unwrap();
    list.push(Value::from(LONG_B));
    list.insert(0, Value::Null);
    assert_eq!(list.remove(1), Value::from(1));
    for item in list.iter_mut() {
        if let Value::String(s) = item {
            *s = Str::from(s.to_uppercase());
        }
    }
    let taken = std::mem::take(&mut list[2]);
    drop(v);
    assert_eq!(taken, built()["list"][2]);
    let mut taken = taken;
    taken.as_object_mut().unwrap().insert("x", Value::from(LONG_A));
    assert_eq!(taken.as_object().unwrap().len(), 2);
    assert_eq!(taken["x"].as_str(), Some(LONG_A));
}

#[test]
fn send_to_another_thread() {
    let v = Value::from_slice(doc().as_bytes()).unwrap();
    let child = v["list"].clone();
    let t = std::thread::spawn(move || {
        let out = v.to_string();
        drop(v);
        out
    });
    let text = t.join().unwrap();
    assert_eq!(Value::from_slice(text.as_bytes()).unwrap(), built());
    assert_eq!(child, built()["list"]);
}

#[test]
fn duplicate_policies_and_lossless() {
    let text = format!(r#"[{{"{LONG_A}":1,"b":2,"{LONG_A}":3}},12345678901234567890123,1.5]"#);
    for (policy, expect) in [(DuplicateKeys::First, 1), (DuplicateKeys::Last, 3)] {
        let opts = ReadOptions::new().duplicate_keys(policy).lossless_numbers(true);
        let v = Value::from_slice_with(text.as_bytes(), &opts).unwrap();
        let o = v[0].as_object().unwrap();
        assert_eq!(o.keys().map(|k| k.as_str()).collect::<Vec<_>>(), [LONG_A, "b"]);
        assert_eq!(o.get(LONG_A).and_then(Value::as_number).map(Number::to_string), Some(expect.to_string()));
        assert_eq!(v[1], Value::Number(Number::Big(Str::from("12345678901234567890123"))));
        let v1 = v[1].clone();
        drop(v);
        assert_eq!(v1.to_string(), "12345678901234567890123");
    }
}

/// `First` and `Last` on objects of every size class of the builder's
/// name check (2, 3-8 pairwise, 9-64 marks and remembered shapes, more
/// than 64 the table), a repeated name at several places (inline and long
/// names), against a model of the policy (a list searched name by name);
/// objects without a repeat, the same shape parsed again and again (so a
/// remembered shape answers), keep every member.
#[test]
fn first_and_last_at_every_size_of_the_name_check() {
    let name = |k: usize| if k % 7 == 3 { format!("{LONG_A}-{k}") } else { format!("k{k}") };
    for n in [2, 3, 5, 8, 9, 24, 40, 64, 65, 100] {
        let mut places = vec![(1, 0), (n - 1, 0), (n - 1, n - 2), (n / 2, n / 3)];
        places.retain(|&(at, of)| at > of);
        let clean: Vec<String> = (0..n).map(name).collect();
        for round in 0..3 {
            for at in places.iter().copied().map(Some).chain([None]) {
                let mut names = clean.clone();
                if let Some((at, of)) = at {
                    names[at] = names[of].clone();
                }
                let text = format!("[{{{}}}]", names.iter().enumerate().map(|(i, k)| format!("\"{k}\":{i}")).collect::<Vec<_>>().join(","));
                for policy in [DuplicateKeys::First, DuplicateKeys::Last] {
                    let mut model: Vec<(&str, usize)> = Vec::new();
                    for (i, k) in names.iter().enumerate() {
                        match model.iter_mut().find(|(m, _)| *m == k.as_str()) {
                            Some(slot) if policy == DuplicateKeys::Last => slot.1 = i,
                            Some(_) => {}
                            None => model.push((k, i)),
                        }
                    }
                    let want = format!("[{{{}}}]", model.iter().map(|(k, i)| format!("\"{k}\":{i}")).collect::<Vec<_>>().join(","));
                    let opts = ReadOptions::new().duplicate_keys(policy);
                    let v = Value::from_slice_with(text.as_bytes(), &opts).unwrap();
                    assert_eq!(v.to_string(), want, "{n} names, repeat {at:?}, {policy:?}, round {round}");
                }
            }
        }
    }
}

#[test]
fn failed_parse_frees_everything() {
    let text = format!(r#"[{{"{LONG_A}":["{LONG_B}",[1,2]]}},"#);
    assert!(Value::from_slice(text.as_bytes()).is_err());
}

#[test]
fn root_scalars_and_strings() {
    let long = format!("\"{LONG_A}\"");
    assert_eq!(Value::from_slice(long.as_bytes()).unwrap(), Value::from(LONG_A));
    assert_eq!(Value::from_slice(b"[]").unwrap(), Value::Array(Array::new()));
    assert_eq!(Value::from_slice(b"{}").unwrap(), Value::Object(Map::new()));
    assert_eq!(Value::from_slice(b"[[],{}]").unwrap()[1], Value::Object(Map::new()));
}

/// Repeated names are refused by the builder (the parser does not look
/// under `Value::from_slice`): the error is the first one in the text, with
/// its place, whether the repeat is in a small object, a large one, a long
/// name, or followed by another error before its object ends.
#[test]
fn repeated_names_are_refused_at_the_first_error() {
    use crate::error::ErrorKind;
    let many: String = (0..100).map(|i| format!("\"k{i}\":{i},")).collect();
    let long = "a name longer than the inline capacity";
    let cases: Vec<(String, &str, usize)> = vec![
        (r#"{"a":1,"a":2}"#.into(), "a", 7),
        (r#"{"a":1,"b":{"c":1,"c":2},"a":3}"#.into(), "c", 18),
        (format!(r#"{{"{long}":1,"x":2,"{long}":3}}"#), long, 50),
        (format!(r#"{{{many}"k7":0}}"#), "k7", 1 + many.len()),
        // The object is never finished: the repeat is still the first error.
        (r#"{"a":1,"a":2,]"#.into(), "a", 7),
        (r#"[{"a":1,"a":2}"#.into(), "a", 8),
    ];
    for (text, key, at) in cases {
        let e = Value::from_slice(text.as_bytes()).expect_err(&text);
        match e.kind() {
            ErrorKind::DuplicateKey { key: k } => assert_eq!(k, key, "{text}"),
            other => panic!("{text}: {other:?}"),
        }
        assert_eq!(e.position().map(|p| p.offset), Some(at), "{text}");
    }
    // An error before any repeat is that error.
    let e = Value::from_slice(br#"{"a":tru,"a":1}"#).unwrap_err();
    assert!(e.is_syntax(), "{e}");
    // Distinct names (short, long, and same-prefix ones) are accepted.
    let ok = format!(r#"{{"{long}1":1,"{long}2":2,"abcdefghijklmnopqrstu1":3,"abcdefghijklmnopqrstu2":4,{many}"z":0}}"#);
    assert_eq!(Value::from_slice(ok.as_bytes()).unwrap().as_object().unwrap().len(), 105);
}

/// Documents parsed one after another on a thread start in the chunk the
/// last freed one left (`arena.rs`, `spare`): a tree kept across later
/// parses, and one dropped between them, leave every other tree intact.
#[test]
fn trees_kept_and_dropped_between_parses_stay_intact() {
    let text = |i: usize| format!(r#"{{"k{i}":["{LONG_A} {i}",{{"{LONG_B} {i}":{i}}}],"n":{i}}}"#);
    let mut kept = Vec::new();
    for i in 0..12 {
        let v = Value::from_slice(text(i).as_bytes()).unwrap();
        if i % 3 == 0 {
            // Dropped right away: its chunk becomes the spare.
            drop(v);
        } else {
            kept.push((i, v));
        }
        if i % 4 == 1 {
            // A kept tree dropped later, on another thread.
            let (_, v) = kept.remove(0);
            std::thread::spawn(move || drop(v)).join().unwrap();
        }
    }
    for (i, v) in &kept {
        assert_eq!(*v, Value::from_slice(text(*i).as_bytes()).unwrap(), "document {i}");
        assert_eq!(v.to_string(), text(*i), "document {i}");
    }
}

/// A text of `len` bytes: ASCII and multi-byte characters mixed, different
/// for each `seed` (and ending with `tail`'s byte when `len > 0`).
fn text_of(len: usize, seed: usize, tail: u8) -> String {
    let alphabet: Vec<char> = "abcdefghijklmnopqrstuvwxyzé€😂".chars().collect();
    let mut text = String::new();
    let mut k = seed;
    while text.len() + 1 < len {
        let c = alphabet[k % alphabet.len()];
        text.push(if text.len() + c.len_utf8() + 1 > len { 'z' } else { c });
        k += 1;
    }
    if len > 0 {
        text.push(tail as char);
    }
    text
}

fn hash_of<T: std::hash::Hash + ?Sized>(x: &T) -> u64 {
    use std::hash::{BuildHasher, BuildHasherDefault};
    BuildHasherDefault::<std::collections::hash_map::DefaultHasher>::default().hash_one(x)
}

/// Every length 0..40 across the inline boundary (22 bytes), made every
/// way (new, from a `String`, a `Box<str>`, a `char` sequence, parsed as a
/// name and as a value, cloned): the same text, inline exactly up to the
/// capacity, equal, ordered and hashed as the `str`, and converted back.
#[test]
fn strings_of_every_length_across_the_inline_boundary() {
    for len in 0..40 {
        for seed in [0, 7, 26] {
            let text = text_of(len, seed, b'q');
            let smaller = text_of(len, seed, b'p');
            assert_eq!(text.len(), len);
            let parsed = Value::from_slice(format!(r#"{{"{text}":["{text}", "{smaller}"]}}"#).as_bytes()).unwrap();
            let (name, items) = parsed.as_object().unwrap().iter().next().unwrap();
            let Value::String(value) = &items[0] else { panic!() };
            let Value::String(parsed_smaller) = &items[1] else { panic!() };
            let made = [
                Str::new(&text),
                Str::from(text.clone()),
                Str::from(text.clone().into_boxed_str()),
                text.chars().collect::<Str>(),
                name.clone(),
                value.clone(),
            ];
            for s in made.iter().chain([name, value]) {
                assert_eq!(s.as_str(), text, "length {len}");
                assert_eq!(s.len(), len);
                assert_eq!(s.is_inline(), len <= INLINE_CAPACITY, "length {len}");
                assert_eq!(*s, made[0]);
                assert_eq!(hash_of(s), hash_of(text.as_str()), "length {len}");
                assert_eq!(s.cmp(&made[0]), std::cmp::Ordering::Equal);
                assert_eq!(s.cmp(parsed_smaller), text.as_str().cmp(smaller.as_str()));
                assert_eq!(s.clone(), *s);
                assert_eq!(String::from(s.clone()), text);
                assert_eq!(s.head_word(), made[0].head_word());
                assert_eq!(s.inline_words(), made[0].inline_words());
            }
            // Equality only by text.
            assert_eq!(Str::new(&smaller) == made[0], len == 0);
            assert!(Some(made[0].clone()).is_some_and(|s| s == text.as_str()));
            // Parsed strings past the capacity are in the arena; their
            // clones and `new` ones on the heap (owned).
            if len > INLINE_CAPACITY {
                assert_ne!(value.as_ptr(), made[5].as_ptr());
                assert_ne!(made[0].as_ptr(), made[1].as_ptr());
            }
            // Numbers keep long literal texts (`Big`) of the same layout.
            let digits = "1".repeat(len.max(1));
            let lossless = ReadOptions::new().lossless_numbers(true);
            let n = Value::from_slice_with(format!("[{digits}]").as_bytes(), &lossless).unwrap();
            let Value::Number(Number::Big(b)) = &n[0] else { panic!("{n:?}") };
            assert_eq!(b.as_str(), digits);
            let root = Value::from_slice_with(digits.as_bytes(), &lossless).unwrap();
            assert_eq!(root, n[0]);
        }
    }
}

/// Long strings: a megabyte (heap and arena), an empty one, and strings
/// dropped, cloned and converted in every representation.
#[test]
fn long_strings_heap_and_arena() {
    let big = "x€".repeat(1 << 18);
    let heap = Str::new(&big);
    assert!(!heap.is_inline());
    let parsed = Value::from_slice(format!(r#"["{big}", "{big}"]"#).as_bytes()).unwrap();
    let Value::String(arena) = &parsed[1] else { panic!() };
    assert_eq!(*arena, heap);
    assert_eq!(arena.as_str(), big);
    let owned: String = arena.clone().into();
    assert_eq!(owned, big);
    let back: String = heap.into();
    assert_eq!(back, big);
    let kept = parsed[0].clone();
    drop(parsed);
    assert_eq!(kept.as_str(), Some(big.as_str()));
    assert_eq!(Str::default(), "");
    assert!(Str::default().is_inline());
}

/// Arrays and maps, owned (empty or not) and from an arena: lengths,
/// clones, mutation (a push onto a parsed array copies it out, its arena
/// children staying valid after the document is dropped), `into_vec`.
#[test]
fn containers_owned_and_from_the_arena() {
    use super::seq::Seq;
    assert!(matches!(&Array::new().0, Seq::Owned(v) if v.capacity() == 0));
    assert!(matches!(Array::with_capacity(3).0, Seq::Owned(_)));
    assert!(matches!(Array::from(vec![Value::Null]).0, Seq::Owned(_)));
    let mut empty = Array::new();
    empty.push(Value::from(1));
    assert!(matches!(empty.0, Seq::Owned(_)));
    assert_eq!(empty.len(), 1);
    empty.clear();
    assert!(empty.is_empty());
    let mut m = Map::new();
    assert!(matches!(&m.members, Seq::Owned(v) if v.capacity() == 0));
    m.insert("k", Value::from(LONG_A));
    assert_eq!(m.clone().get("k").and_then(Value::as_str), Some(LONG_A));

    let text = format!(r#"{{"a":[1,"{LONG_A}",[2,3],{{"{LONG_B}":[]}}],"e":[],"o":{{}}}}"#);
    let v = Value::from_slice(text.as_bytes()).unwrap();
    assert!(matches!(&v["e"].as_array().unwrap().0, Seq::Owned(v) if v.capacity() == 0));
    assert!(matches!(&v["o"].as_object().unwrap().members, Seq::Owned(v) if v.capacity() == 0));
    let mut a = v["a"].clone();
    assert!(matches!(a.as_array().unwrap().0, Seq::Counted(..)));
    let arr = a.as_array_mut().unwrap();
    arr.push(Value::from(LONG_B));
    assert!(matches!(arr.0, Seq::Owned(_)));
    assert_eq!(arr.len(), 5);
    drop(v);
    assert_eq!(a[1].as_str(), Some(LONG_A));
    assert_eq!(a[2][1].as_i64(), Some(3));
    assert_eq!(a[3][LONG_B].as_array().map(|x| x.len()), Some(0));
    assert_eq!(a[4].as_str(), Some(LONG_B));
    let items = a.as_array().unwrap().clone().into_vec();
    assert_eq!(items.len(), 5);
}

#[test]
fn values_are_send_and_sync() {
    fn check<T: Send + Sync>() {}
    check::<Str>();
    check::<Array>();
    check::<Map>();
    check::<Value>();
    let v = Value::from_slice(format!(r#"{{"{LONG_A}":"{LONG_B}","s":"short"}}"#).as_bytes()).unwrap();
    let threads: Vec<_> = (0..2)
        .map(|_| {
            let v = v.clone();
            std::thread::spawn(move || (v[LONG_A].as_str().map(str::to_owned), v["s"].as_str().map(str::to_owned)))
        })
        .collect();
    drop(v);
    for t in threads {
        assert_eq!(t.join().unwrap(), (Some(LONG_B.to_owned()), Some("short".to_owned())));
    }
}

/// Short strings (every length up to the inline capacity) in each place a
/// string value is pushed: an array written in place in the arena, over
/// many chunks (its region moved as it grows), the same array after a
/// container (the stack), and object members: each keeps its text.
#[test]
fn short_strings_in_every_push_route_keep_their_text() {
    let texts: Vec<String> = (0..6000).map(|i| text_of(i % (INLINE_CAPACITY + 1), i / 7, b'a' + (i % 26) as u8)).collect();
    let quoted: Vec<String> = texts.iter().map(|t| format!("\"{t}\"")).collect();
    let in_place = format!("[{}]", quoted.join(","));
    let on_stack = format!("[{{}},{}]", quoted.join(","));
    let members: Vec<String> = quoted.iter().enumerate().map(|(i, q)| format!("\"k{i}\":{q}")).collect();
    let object = format!("{{{}}}", members.join(","));
    let check = |items: Vec<&Value>, what: &str| {
        assert_eq!(items.len(), texts.len(), "{what}");
        for (i, (item, text)) in items.into_iter().zip(&texts).enumerate() {
            let Value::String(s) = item else { panic!("{what} {i}: {item:?}") };
            assert!(s.is_inline(), "{what} {i}");
            assert_eq!(s.as_str(), text, "{what} {i}");
            assert_eq!(s.inline_words(), Str::new(text).inline_words(), "{what} {i}");
        }
    };
    let v = Value::from_slice(in_place.as_bytes()).unwrap();
    check(v.as_array().unwrap().iter().collect(), "in place");
    let v = Value::from_slice(on_stack.as_bytes()).unwrap();
    check(v.as_array().unwrap().iter().skip(1).collect(), "on the stack");
    let v = Value::from_slice(object.as_bytes()).unwrap();
    check(v.as_object().unwrap().iter().map(|(_, v)| v).collect(), "members");
}
