//! Sorted objects against a reference sort: random keys of every length,
//! keys that tie on their first 8 or 16 bytes (the writer compares 16-byte
//! prefixes first and remembers the sorted order of object shapes), keys
//! equal up to the length of the shorter, non-ASCII keys, duplicate keys,
//! objects already in order, objects of more members than the writer
//! sorts by insertion or remembers, nested sorted objects, and one shape
//! written again and again with keys that differ only beyond the prefix.
//!
//! The reference is the standard library's stable sort of the members by
//! key (UTF-8 bytes for `go`, UTF-16 code units for `jcs`), written in that
//! order by a writer that keeps the given order.

mod common;

use common::Rng;
use jetjson::{Map, Value, WriteOptions};
use serde::ser::{SerializeMap, Serializer};

/// Pieces of keys: ASCII, every UTF-8 width, the characters whose UTF-16
/// order differs from their UTF-8 order, the go escapes.
const PIECES: &[&str] =
    &["a", "b", "z", "_", "~", "<", "&", "é", "\u{7ff}", "\u{2028}", "\u{e000}", "\u{fb33}", "\u{ffff}", "😂", "\u{10000}", "\u{10ffff}"];
/// Stems that make keys tie on their first 8 bytes, 16 bytes, or more.
const STEMS: &[&str] = &[
    "abcdefgh",
    "abcdefghijklmnop",
    "profile_background_",
    "profile_",
    "é\u{e000}😂ab",
    "\u{e000}\u{e000}\u{e000}\u{e000}\u{e000}\u{e000}",
];

fn pieces(rng: &mut Rng, max: usize) -> String {
    (0..rng.below(max + 1)).map(|_| PIECES[rng.below(PIECES.len())]).collect()
}

fn key(rng: &mut Rng) -> String {
    match rng.below(5) {
        0 => pieces(rng, 6),
        // Equal up to the length of the shorter, every length 0..40.
        1 => "x".repeat(rng.below(41)),
        2 => format!("{}{}", STEMS[rng.below(STEMS.len())], pieces(rng, 3)),
        3 => format!("{}{}", STEMS[rng.below(STEMS.len())], "y".repeat(rng.below(12))),
        _ => (0..rng.below(30)).map(|_| char::from(b'a' + rng.below(3) as u8)).collect(),
    }
}

/// Member counts around the writer's thresholds (insertion sort up to 16,
/// cached shapes up to 256) and the sizes objects usually have.
fn count(rng: &mut Rng) -> usize {
    match rng.below(6) {
        0 => rng.below(4),
        1 => 14 + rng.below(6),
        2 => 250 + rng.below(12),
        _ => rng.below(40),
    }
}

/// The keys of an object: random, sometimes with duplicates, sometimes
/// already sorted.
fn keys(rng: &mut Rng, sorted_by: fn(&str, &str) -> std::cmp::Ordering) -> Vec<String> {
    let n = count(rng);
    let mut keys: Vec<String> = Vec::with_capacity(n);
    for _ in 0..n {
        if !keys.is_empty() && rng.chance(5) {
            let again = keys[rng.below(keys.len())].clone();
            keys.push(again);
        } else {
            keys.push(key(rng));
        }
    }
    if rng.chance(15) {
        keys.sort_by(|a, b| sorted_by(a, b));
    }
    keys
}

fn utf8(a: &str, b: &str) -> std::cmp::Ordering {
    a.as_bytes().cmp(b.as_bytes())
}

fn utf16(a: &str, b: &str) -> std::cmp::Ordering {
    a.encode_utf16().cmp(b.encode_utf16())
}

/// An object of `keys`, each member's value its index (or, at `nest`, an
/// object of its own).
fn object(rng: &mut Rng, keys: &[String], nest: usize, order: fn(&str, &str) -> std::cmp::Ordering) -> Value {
    let mut m = Map::new();
    for (i, k) in keys.iter().enumerate() {
        let v = if nest > 0 && rng.chance(10) {
            let inner = self::keys(rng, order);
            object(rng, &inner, nest - 1, order)
        } else {
            Value::from(i as i64)
        };
        m.push(k.as_str(), v);
    }
    Value::Object(m)
}

/// `v` with the members of every object stably sorted by `order`.
fn reference_sorted(v: &Value, order: fn(&str, &str) -> std::cmp::Ordering) -> Value {
    match v {
        Value::Object(m) => {
            let mut members: Vec<(&str, Value)> = m.iter().map(|(k, x)| (k.as_str(), reference_sorted(x, order))).collect();
            members.sort_by(|a, b| order(a.0, b.0));
            let mut out = Map::new();
            for (k, x) in members {
                out.push(k, x);
            }
            Value::Object(out)
        }
        Value::Array(a) => Value::Array(a.iter().map(|x| reference_sorted(x, order)).collect()),
        other => other.clone(),
    }
}

/// Documents whose objects repeat one shape: the same keys, except that
/// the part of each stem-led key beyond its stem is drawn again, so two
/// objects of equal prefixes can need different orders.
fn repeated_shape(rng: &mut Rng, order: fn(&str, &str) -> std::cmp::Ordering) -> Value {
    let template = keys(rng, order);
    let objects = (0..8)
        .map(|_| {
            let keys = redrawn(rng, &template);
            object(rng, &keys, 1, order)
        })
        .collect();
    Value::Array(objects)
}

/// `template` with the part of each stem-led key beyond its stem drawn again.
fn redrawn(rng: &mut Rng, template: &[String]) -> Vec<String> {
    template
        .iter()
        .map(|k| match STEMS.iter().find(|s| k.starts_with(**s)) {
            Some(stem) if rng.chance(70) => format!("{stem}{}", pieces(rng, 2)),
            _ => k.clone(),
        })
        .collect()
}

fn check(v: &Value, sorted: &WriteOptions, reference: &WriteOptions, order: fn(&str, &str) -> std::cmp::Ordering, what: &str) {
    let got = v.to_vec_with(sorted).unwrap();
    let want = reference_sorted(v, order).to_vec_with(reference).unwrap();
    assert!(got == want, "{what}:\n got {}\nwant {}", String::from_utf8_lossy(&got), String::from_utf8_lossy(&want));
}

#[test]
fn go_writes_members_in_the_order_of_a_reference_sort_by_utf8_bytes() {
    let mut rng = Rng::new(0x5eed_0019);
    let (go, unsorted) = (WriteOptions::go(), WriteOptions::go().sort_keys(false));
    for round in 0..400 {
        let keys = keys(&mut rng, utf8);
        let v = object(&mut rng, &keys, 2, utf8);
        check(&v, &go, &unsorted, utf8, &format!("round {round}"));
        let v = repeated_shape(&mut rng, utf8);
        check(&v, &go, &unsorted, utf8, &format!("repeated shape, round {round}"));
    }
}

#[test]
fn jcs_writes_members_in_the_order_of_a_reference_sort_by_utf16_units() {
    // jcs escapes as compact does for these keys (no control characters),
    // and the values are small integers, written alike.
    let mut rng = Rng::new(0x5eed_8785);
    let (jcs, compact) = (WriteOptions::jcs(), WriteOptions::compact());
    for round in 0..300 {
        let keys = keys(&mut rng, utf16);
        let v = object(&mut rng, &keys, 2, utf16);
        check(&v, &jcs, &compact, utf16, &format!("round {round}"));
        let v = repeated_shape(&mut rng, utf16);
        check(&v, &jcs, &compact, utf16, &format!("repeated shape, round {round}"));
    }
}

#[test]
fn parsed_documents_sort_as_built_ones() {
    // Parsed keys are inline up to 22 bytes and in the parse arena beyond:
    // both kinds of key, sorted as the reference sorts them.
    let mut rng = Rng::new(0x5eed_a7e4);
    let (go, unsorted) = (WriteOptions::go(), WriteOptions::go().sort_keys(false));
    for round in 0..200 {
        let mut keys = keys(&mut rng, utf8);
        keys.sort();
        keys.dedup();
        // Unique keys (the parser refuses duplicates), in a shuffled order.
        for i in (1..keys.len()).rev() {
            keys.swap(i, rng.below(i + 1));
        }
        let built = object(&mut rng, &keys, 0, utf8);
        let parsed = Value::from_slice(&built.to_vec_with(&WriteOptions::compact()).unwrap()).unwrap();
        check(&parsed, &go, &unsorted, utf8, &format!("round {round}"));
    }
}

/// Members serialized through serde's map interface in the given order.
struct Members<'a>(&'a [(String, i64)]);

impl serde::Serialize for Members<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

#[test]
fn serde_maps_sort_as_the_reference_sorts() {
    let mut rng = Rng::new(0x5eed_5e7d);
    let go = WriteOptions::go();
    for round in 0..300 {
        // One shape again and again: keys equal in their prefixes may need
        // another order each time.
        let template = keys(&mut rng, utf8);
        for _ in 0..4 {
            let members: Vec<(String, i64)> = redrawn(&mut rng, &template).into_iter().enumerate().map(|(i, k)| (k, i as i64)).collect();
            let mut sorted = members.clone();
            sorted.sort_by(|a, b| utf8(&a.0, &b.0));
            let mut want_map = Map::new();
            for (k, v) in &sorted {
                want_map.push(k.as_str(), Value::from(*v));
            }
            let want = Value::Object(want_map).to_vec_with(&go.clone().sort_keys(false)).unwrap();
            let got = jetjson::to_vec_with(&Members(&members), &go).unwrap();
            assert!(got == want, "round {round}:\n got {}\nwant {}", String::from_utf8_lossy(&got), String::from_utf8_lossy(&want));
        }
    }
}
