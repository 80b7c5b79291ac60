//! Parsed `Value` trees live in a per-document arena (shared, copied out on
//! the first `&mut` access). These tests check that a parsed tree behaves
//! exactly like the same tree built by hand, through reads, mutations,
//! clones that outlive the root, and threads.

mod common;

use common::*;
use jetjson::{Array, Map, Number, Str, Value, WriteOptions};

/// A string of up to `max` bytes, often longer than the inline capacity
/// (so it lives in the arena when parsed).
fn text(rng: &mut Rng, max: usize) -> String {
    let mut s = String::new();
    let target = rng.below(max + 1);
    while s.len() < target {
        s.push_str(&hostile_string(rng, 12));
        s.push_str(["-", "é", "x", "\u{1F600}"][rng.below(4)]);
    }
    s
}

/// A random document with unique keys, long and short strings, and numbers
/// that read back as the same variant.
fn tree(rng: &mut Rng, depth: usize) -> Value {
    let pick = if depth == 0 { rng.below(5) } else { rng.below(8) };
    match pick {
        0 => Value::Null,
        1 => Value::Bool(rng.chance(50)),
        2 => Value::Number(interesting_int(rng)),
        3 => Value::Number(Number::Float((rng.next() % 1_000_000) as f64 + 0.25)),
        4 => Value::String(text(rng, 60).into()),
        5 | 6 => Value::Array((0..rng.below(6)).map(|_| tree(rng, depth - 1)).collect()),
        _ => {
            let mut m = Map::new();
            for _ in 0..rng.below(7) {
                let k = text(rng, 40);
                if !m.contains_key(&k) {
                    m.push(k, tree(rng, depth - 1));
                }
            }
            Value::Object(m)
        }
    }
}

/// The same random edits on whatever tree it is given (the `Rng` decides,
/// so two equal trees stay equal): pushes, inserts, removals, replacements
/// through `iter_mut`, and taking children out.
fn mutate(v: &mut Value, rng: &mut Rng) {
    match v {
        Value::Array(a) => {
            match rng.below(6) {
                0 => a.push(Value::from(text(rng, 40))),
                1 if !a.is_empty() => {
                    let i = rng.below(a.len());
                    a.remove(i);
                }
                2 => {
                    let i = rng.below(a.len() + 1);
                    let item = a.first().cloned().unwrap_or(Value::Null);
                    a.insert(i, item);
                }
                3 if !a.is_empty() => {
                    let i = rng.below(a.len());
                    let taken = std::mem::take(&mut a[i]);
                    a.push(taken);
                }
                _ => {}
            }
            for item in a.iter_mut() {
                if rng.chance(50) {
                    mutate(item, rng);
                }
            }
        }
        Value::Object(m) => {
            match rng.below(4) {
                0 => {
                    m.insert(text(rng, 30), Value::from(rng.below(100)));
                }
                1 if !m.is_empty() => {
                    let k = m.keys().nth(rng.below(m.len())).unwrap().to_string();
                    m.remove(&k);
                }
                _ => {}
            }
            for item in m.values_mut() {
                if rng.chance(50) {
                    mutate(item, rng);
                }
            }
        }
        Value::String(s) if rng.chance(30) => *s = Str::from(format!("{s}!")),
        _ => {}
    }
}

fn parse(v: &Value) -> Value {
    let bytes = v.to_vec_with(&WriteOptions::compact()).unwrap();
    Value::from_slice(&bytes).unwrap()
}

#[test]
fn parsed_trees_equal_built_ones_through_mutations() {
    let mut rng = Rng::new(0x00A1_2E4A);
    for round in 0..1500 {
        let mut built = tree(&mut rng, 5);
        let mut parsed = parse(&built);
        assert_eq!(parsed, built, "round {round}");
        // A clone of the parsed tree and of one child, kept while the
        // parsed tree changes and after it is gone.
        let snapshot = parsed.clone();
        let before = built.clone();
        let child_path = rng.below(4);
        let child = parsed.get(child_path).or_else(|| parsed.as_object().and_then(|m| m.values().next())).cloned();
        let seed = rng.next();
        mutate(&mut built, &mut Rng::new(seed));
        mutate(&mut parsed, &mut Rng::new(seed));
        assert_eq!(parsed, built, "round {round} after mutation");
        assert_eq!(snapshot, before, "round {round}: the snapshot changed with the tree");
        // Take a child out, drop the root, then read and change the child.
        let mut taken = match &mut parsed {
            Value::Array(a) if !a.is_empty() => std::mem::take(&mut a[0]),
            Value::Object(m) if !m.is_empty() => m.values_mut().next().map(std::mem::take).unwrap(),
            _ => Value::Null,
        };
        let want = match &mut built {
            Value::Array(a) if !a.is_empty() => std::mem::take(&mut a[0]),
            Value::Object(m) if !m.is_empty() => m.values_mut().next().map(std::mem::take).unwrap(),
            _ => Value::Null,
        };
        drop(parsed);
        drop(snapshot);
        assert_eq!(taken, want, "round {round}: child after its root was dropped");
        let mut want = want;
        mutate(&mut taken, &mut Rng::new(seed ^ 1));
        mutate(&mut want, &mut Rng::new(seed ^ 1));
        assert_eq!(taken, want);
        if let Some(child) = child {
            assert_eq!(child.to_string(), {
                let original = before.get(child_path).or_else(|| before.as_object().and_then(|m| m.values().next())).unwrap();
                original.to_string()
            });
        }
    }
}

#[test]
fn clones_of_children_outlive_the_root() {
    let mut rng = Rng::new(77);
    for _ in 0..300 {
        let built = Value::Array((0..8).map(|_| tree(&mut rng, 4)).collect());
        let parsed = parse(&built);
        let children: Vec<Value> = parsed.as_array().unwrap().iter().cloned().collect();
        let last = parsed.as_array().unwrap().last().cloned();
        drop(parsed);
        assert_eq!(children, built.as_array().unwrap().as_slice());
        assert_eq!(last.as_ref(), built.as_array().unwrap().last());
    }
}

#[test]
fn parsed_values_move_and_drop_across_threads() {
    let mut rng = Rng::new(5);
    let built: Vec<Value> = (0..200).map(|_| tree(&mut rng, 5)).collect();
    let parsed: Vec<Value> = built.iter().map(parse).collect();
    // Children shared with values that other threads read and drop.
    let kept: Vec<Value> = parsed.iter().map(|v| v.get(0).cloned().unwrap_or(Value::Null)).collect();
    let workers: Vec<_> = parsed
        .chunks(50)
        .map(|chunk| {
            let chunk = chunk.to_vec();
            std::thread::spawn(move || chunk.iter().map(|v| v.to_string()).collect::<Vec<_>>())
        })
        .collect();
    drop(parsed);
    let texts: Vec<String> = workers.into_iter().flat_map(|w| w.join().unwrap()).collect();
    for ((t, b), k) in texts.iter().zip(&built).zip(&kept) {
        assert_eq!(&Value::from_slice(t.as_bytes()).unwrap(), b);
        assert_eq!(Some(k), b.get(0).or(Some(&Value::Null)));
    }
    // A shared tree read from several threads at once.
    let shared = std::sync::Arc::new(parse(&built[0]));
    let readers: Vec<_> = (0..4)
        .map(|_| {
            let s = shared.clone();
            std::thread::spawn(move || s.to_string())
        })
        .collect();
    for r in readers {
        assert_eq!(Value::from_slice(r.join().unwrap().as_bytes()).unwrap(), built[0]);
    }
}

#[test]
fn array_api_matches_vec() {
    let mut rng = Rng::new(9);
    let items: Vec<Value> = (0..20).map(|_| tree(&mut rng, 2)).collect();
    let mut vec = items.clone();
    let mut arr = parse(&Value::Array(Array::from(items))).as_array().unwrap().clone();
    assert_eq!(arr, vec);
    assert_eq!(arr.first(), vec.first());
    assert_eq!(arr.last(), vec.last());
    assert_eq!(arr.get(3), vec.get(3));
    assert_eq!(arr.pop(), vec.pop());
    arr.insert(2, Value::from("x"));
    vec.insert(2, Value::from("x"));
    assert_eq!(arr.remove(5), vec.remove(5));
    arr[0] = Value::Null;
    vec[0] = Value::Null;
    arr.reverse();
    vec.reverse();
    assert_eq!(arr, vec);
    assert_eq!(arr.clone().into_vec(), vec);
    assert_eq!(arr.iter().count(), vec.len());
    assert_eq!((&arr).into_iter().collect::<Vec<_>>(), vec.iter().collect::<Vec<_>>());
    assert_eq!(arr.clone().into_iter().collect::<Vec<_>>(), vec);
    arr.clear();
    assert!(arr.is_empty());
}
