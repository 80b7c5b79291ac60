//! `to_value` and `from_value`: a `Value` as the target of any `Serialize`
//! type and the source of any `Deserialize` type.
//!
//! The reference for each conversion is jetjson's own byte path: writing a
//! type with `to_vec` and reading it with `from_slice` must agree with
//! going through a `Value`. serde_json's `to_value`/`from_value` are the
//! reference where the two libraries share behaviour.

mod common;

use std::collections::{BTreeMap, HashMap};

use jetjson::{json, Category, ErrorKind, RawJson, ReadOptions, Value, WriteOptions};
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
enum Shape {
    Unit,
    Newtype(u8),
    Tuple(i32, String),
    Struct { w: f64, h: f64 },
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Record {
    id: u64,
    name: String,
    score: f32,
    ratio: f64,
    tags: Vec<String>,
    nested: Option<Box<Record>>,
    shapes: Vec<Shape>,
    by_id: BTreeMap<u32, String>,
    flags: HashMap<String, bool>,
    pair: (i8, char),
    huge: i128,
    unit: (),
    bytes: Vec<u8>,
}

fn record(seed: u64) -> Record {
    let mut rng = common::Rng::new(seed);
    Record {
        id: rng.next(),
        name: common::hostile_string(&mut rng, 30),
        score: (rng.next() % 1000) as f32 / 7.0,
        ratio: common::interesting_f64(&mut rng),
        tags: (0..rng.below(4)).map(|_| common::hostile_string(&mut rng, 8)).collect(),
        nested: if seed.is_multiple_of(3) { Some(Box::new(record(seed + 1))) } else { None },
        shapes: vec![
            Shape::Unit,
            Shape::Newtype(rng.below(256) as u8),
            Shape::Tuple(-(rng.below(1000) as i32), "t".into()),
            Shape::Struct { w: 1.5, h: -0.25 },
        ],
        by_id: (0..3).map(|i| (i * 7 + rng.below(5) as u32, format!("v{i}"))).collect(),
        flags: [("on".to_string(), true)].into_iter().collect(),
        pair: (-8, 'é'),
        huge: i128::MIN + rng.below(1000) as i128,
        unit: (),
        bytes: vec![0, 1, 255],
    }
}

#[test]
fn to_value_then_writing_gives_the_bytes_of_writing_directly() {
    for seed in 0..200 {
        let r = record(seed);
        if !r.ratio.is_finite() {
            continue;
        }
        let direct = jetjson::to_vec(&r).unwrap();
        let v = jetjson::to_value(&r).unwrap();
        assert_eq!(v.to_vec_with(&WriteOptions::compact()).unwrap(), direct, "seed {seed}");
        // And the tree is the one parsing those bytes gives.
        assert_eq!(v, Value::from_slice(&direct).unwrap(), "seed {seed}");
    }
}

#[test]
fn from_value_reads_what_from_slice_reads() {
    for seed in 0..200 {
        let r = record(seed);
        if !r.ratio.is_finite() {
            continue;
        }
        let bytes = jetjson::to_vec(&r).unwrap();
        let v = Value::from_slice(&bytes).unwrap();
        let through_value: Record = jetjson::from_value(v.clone()).unwrap();
        let direct: Record = jetjson::from_slice(&bytes).unwrap();
        assert_eq!(through_value, direct, "seed {seed}");
        assert_eq!(through_value, r, "seed {seed}");
        // Borrowing form.
        assert_eq!(Record::deserialize(&v).unwrap(), r, "seed {seed}");
    }
}

#[test]
fn to_value_agrees_with_serde_json_on_shared_ground() {
    for seed in 0..100 {
        let r = record(seed);
        if !r.ratio.is_finite() {
            continue;
        }
        let mut r = r;
        // serde_json's Value holds no 128-bit integers (without
        // arbitrary_precision) and reads f32 as its exact double.
        r.huge = 0;
        r.score = 0.5;
        if let Some(n) = r.nested.as_mut() {
            n.huge = 0;
            n.score = 0.5;
        }
        let ours = jetjson::to_value(&r).unwrap().to_string();
        let theirs = serde_json::to_value(&r).unwrap();
        assert_eq!(serde_json::from_str::<serde_json::Value>(&ours).unwrap(), theirs, "seed {seed}");
    }
}

#[test]
fn numbers_keep_their_exact_value() {
    let v = jetjson::to_value(&(u64::MAX, i64::MIN, u128::MAX, i128::MIN, 0.1f32, -0.0f64, f64::MAX)).unwrap();
    assert_eq!(v[0].as_u64(), Some(u64::MAX));
    assert_eq!(v[1].as_i64(), Some(i64::MIN));
    assert_eq!(v[2].as_number().unwrap().as_u128(), Some(u128::MAX));
    assert_eq!(v[3].as_number().unwrap().as_i128(), Some(i128::MIN));
    // The f32 as the double of its shortest form, written as the f32 is.
    assert_eq!(v[4].as_f64(), Some(0.1));
    assert_eq!(jetjson::to_string(&v[4]).unwrap(), jetjson::to_string(&0.1f32).unwrap());
    assert_eq!(v[5].as_f64().map(f64::to_bits), Some((-0.0f64).to_bits()));
    assert_eq!(v[6].as_f64(), Some(f64::MAX));
    // And back out, exactly.
    let back: (u64, i64, u128, i128, f32, f64, f64) = jetjson::from_value(v).unwrap();
    assert_eq!(back.2, u128::MAX);
    assert_eq!(back.3, i128::MIN);
    assert_eq!(back.4, 0.1f32);
    assert_eq!(back.5.to_bits(), (-0.0f64).to_bits());
}

/// An `f32` becomes the double of its shortest decimal form: the same
/// number as the writer writes for the `f32` (in `go` the same bytes; in
/// `compact` the layout of a double may differ, `1.9828146e+14` for the
/// `f32` and `198281460000000.0` for the double), and it reads back as the
/// same `f32`.
#[test]
fn every_f32_keeps_its_digits_through_to_value() {
    let mut rng = common::Rng::new(32);
    let mut layouts_differ = 0;
    for _ in 0..20_000 {
        let f = f32::from_bits(rng.next() as u32);
        if !f.is_finite() {
            continue;
        }
        let v = jetjson::to_value(&f).unwrap();
        let go = WriteOptions::go();
        assert_eq!(v.to_vec_with(&go).unwrap(), jetjson::to_vec_with(&f, &go).unwrap(), "{f:e} ({:#x})", f.to_bits());
        let direct = jetjson::to_string(&f).unwrap();
        let through = v.to_string();
        assert_eq!(through.parse::<f64>().unwrap(), direct.parse::<f64>().unwrap(), "{f:e}: {through} vs {direct}");
        layouts_differ += usize::from(through != direct);
        assert_eq!(jetjson::from_value::<f32>(v).unwrap().to_bits(), f.to_bits(), "{f:e}");
    }
    // The compact layouts of f32 and f64 do differ somewhere in this sample
    // (so the numeric comparison above is what holds them together).
    assert!(layouts_differ > 0);
}

#[test]
fn lossless_number_text_survives_to_value() {
    let v = Value::from_slice_with(b"[1.50, 1e400, 123456789012345678901234567890]", &ReadOptions::lossless()).unwrap();
    let copy = jetjson::to_value(&v).unwrap();
    assert_eq!(copy, v);
    assert_eq!(copy.to_string(), "[1.50,1e400,123456789012345678901234567890]");
}

#[test]
fn raw_json_is_parsed_into_the_tree() {
    let raw = RawJson::new(r#"{"b": [1, 2.5], "a": "x"}"#).unwrap();
    let v = jetjson::to_value(&("envelope", &raw)).unwrap();
    assert_eq!(v, json!(["envelope", {"b": [1, 2.5], "a": "x"}]));
    let bad = RawJson::from_unchecked("{not json");
    let e = jetjson::to_value(&bad).unwrap_err();
    assert_eq!(e.classify(), Category::Syntax, "{e}");
}

#[test]
fn map_keys_follow_the_writer() {
    let mut m = BTreeMap::new();
    m.insert(-3i64, "a");
    m.insert(10i64, "b");
    assert_eq!(jetjson::to_value(&m).unwrap(), json!({"-3": "a", "10": "b"}));
    let mut c = BTreeMap::new();
    c.insert('k', 1);
    c.insert('é', 2);
    assert_eq!(jetjson::to_value(&c).unwrap(), json!({"k": 1, "é": 2}));
    let mut b = BTreeMap::new();
    b.insert(true, 1);
    assert_eq!(jetjson::to_value(&b).unwrap(), json!({"true": 1}));
    // Keys the writer refuses are refused here too.
    let mut f = BTreeMap::new();
    f.insert(vec![1], 1);
    let direct = jetjson::to_vec(&f).unwrap_err();
    let e = jetjson::to_value(&f).unwrap_err();
    assert_eq!(e.kind(), direct.kind());
    assert_eq!(e.kind(), &ErrorKind::KeyMustBeString);
    // Integer keys read back into integer maps.
    let back: BTreeMap<i64, String> = jetjson::from_value(jetjson::to_value(&m).unwrap()).unwrap();
    assert_eq!(back.get(&-3).map(String::as_str), Some("a"));
    assert!(jetjson::from_value::<BTreeMap<u8, String>>(json!({"256": "x"})).is_err());
}

#[test]
fn from_value_errors_name_their_path() {
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct Item {
        name: String,
        sizes: Vec<u8>,
    }
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct Order {
        items: Vec<Item>,
    }
    let v = json!({"items": [{"name": "a", "sizes": [1]}, {"name": "b", "sizes": [1, 2, -3]}]});
    let e = jetjson::from_value::<Order>(v).unwrap_err();
    assert_eq!(e.path_string(), "$.items[1].sizes[2]");
    assert_eq!(e.classify(), Category::Data);
    assert!(e.to_string().contains("-3"), "{e}");

    let e = jetjson::from_value::<Order>(json!({"items": [{"name": "a"}]})).unwrap_err();
    assert_eq!(e.path_string(), "$.items[0]");
    assert!(e.to_string().contains("missing field `sizes`"), "{e}");

    let e = jetjson::from_value::<Order>(json!({"items": [{"name": 5, "sizes": []}]})).unwrap_err();
    assert_eq!(e.path_string(), "$.items[0].name");
}

#[test]
fn from_value_checks_lengths_like_serde_json() {
    // Fewer items than the array holds is an error in both.
    let e = jetjson::from_value::<(u8, u8)>(json!([1, 2, 3])).unwrap_err();
    assert!(serde_json::from_value::<(u8, u8)>(serde_json::json!([1, 2, 3])).is_err());
    assert_eq!(e.classify(), Category::Data);
    assert!(jetjson::from_value::<[u8; 3]>(json!([1, 2])).is_err());
    assert_eq!(jetjson::from_value::<[u8; 2]>(json!([1, 2])).unwrap(), [1, 2]);
}

#[test]
fn enums_in_every_form() {
    for shape in [Shape::Unit, Shape::Newtype(7), Shape::Tuple(-1, "x".into()), Shape::Struct { w: 2.0, h: 0.5 }] {
        let v = jetjson::to_value(&shape).unwrap();
        assert_eq!(v, Value::from_slice(&jetjson::to_vec(&shape).unwrap()).unwrap());
        assert_eq!(jetjson::from_value::<Shape>(v).unwrap(), shape);
    }
    // Malformed enum values are errors, not panics.
    for bad in [
        json!(1),
        json!({"Unit": null, "Newtype": 1}),
        json!({"Newtype": "x"}),
        json!({"Tuple": {}}),
        json!({"Struct": [1]}),
        json!("Nope"),
    ] {
        assert!(jetjson::from_value::<Shape>(bad.clone()).is_err(), "{bad}");
    }
    // A unit variant may also be written as {"Unit": null}, as serde_json accepts.
    assert_eq!(jetjson::from_value::<Shape>(json!({"Unit": null})).unwrap(), Shape::Unit);
}

#[test]
fn borrowed_deserialization_lends_strings_from_the_tree() {
    #[derive(Deserialize)]
    struct View<'a> {
        #[serde(borrow)]
        name: &'a str,
        #[serde(borrow)]
        tags: Vec<&'a str>,
    }
    let v = Value::from_slice(br#"{"name": "a string long enough for the arena", "tags": ["x", "y"]}"#).unwrap();
    let view = View::deserialize(&v).unwrap();
    assert_eq!(view.name, "a string long enough for the arena");
    assert_eq!(view.tags, ["x", "y"]);
    // The owned form cannot lend: borrowing types are refused.
    assert!(jetjson::from_value::<String>(json!("x")).is_ok());
    assert!(<&str>::deserialize(json!("x")).is_err());
}

#[test]
fn options_unit_and_ignored_members() {
    #[derive(Deserialize, Debug, PartialEq)]
    struct Partial {
        a: Option<u8>,
        b: Option<u8>,
    }
    let p: Partial = jetjson::from_value(json!({"a": null, "ignored": {"deep": [1, 2, {"x": null}]}, "b": 3})).unwrap();
    assert_eq!(p, Partial { a: None, b: Some(3) });
    let unit: () = jetjson::from_value(json!(null)).unwrap();
    assert_eq!(unit, ());
    assert!(jetjson::from_value::<()>(json!(0)).is_err());
}

#[test]
fn value_round_trips_through_itself() {
    let mut rng = common::Rng::new(7);
    for _ in 0..200 {
        let doc = common::document(&mut rng, 4);
        let Ok(text) = jetjson::to_vec(&doc) else { continue };
        let v = Value::from_slice(&text).unwrap();
        assert_eq!(jetjson::to_value(&v).unwrap(), v);
        assert_eq!(jetjson::from_value::<Value>(v.clone()).unwrap(), v);
        assert_eq!(Value::deserialize(&v).unwrap(), v);
    }
}

#[test]
fn nesting_is_bounded_in_both_directions() {
    // 3000 levels, beyond the 2048 that can be written: refused with a
    // depth error instead of overflowing the stack (test threads have 2 MiB).
    let mut deep = json!(1);
    for _ in 0..3000 {
        deep = Value::Array(vec![deep].into());
    }
    // The error names the conversions' ceiling (no max_depth was set), and
    // its message shows the ends of its 2048-segment path.
    let e = jetjson::from_value::<Value>(deep.clone()).unwrap_err();
    assert_eq!(e.kind(), &ErrorKind::RecursionCeiling { ceiling: 2048, max_depth: None });
    assert_eq!(e.path().count(), 2048);
    let tail = "nesting deeper than 2048, the most to_value and from_value convert (they recurse on the stack)";
    assert_eq!(e.to_string(), format!("$[0][0][0][0][0][0][0][0]...[0][0][0][0][0][0][0][0]: {tail}"));
    let e = jetjson::to_value(&deep).unwrap_err();
    assert_eq!(e.kind(), &ErrorKind::RecursionCeiling { ceiling: 2048, max_depth: None });
    assert_eq!(e.to_string(), format!("$[0][0][0][0][0][0][0][0]...[0][0][0][0][0][0][0][0]: {tail}"));
    assert_eq!(e.path_string(), format!("${}", "[0]".repeat(e.path().count())));
    // 2000 levels are fine both ways.
    let mut ok = json!(1);
    for _ in 0..2000 {
        ok = Value::Array(vec![ok].into());
    }
    assert_eq!(jetjson::to_value(&ok).unwrap(), ok);
    assert_eq!(jetjson::from_value::<Value>(ok.clone()).unwrap(), ok);
    // Dropping deep trees recursively is Value's own business; unwrap them.
    for mut v in [deep, ok] {
        while let Value::Array(items) = v {
            v = items.into_iter().next().unwrap_or_default();
        }
    }
}

#[test]
fn big_numbers_read_out_of_a_value() {
    let v = Value::from_slice_with(b"[170141183460469231731687303715884105727, 1e400, 2.5]", &ReadOptions::lossless()).unwrap();
    assert_eq!(jetjson::from_value::<i128>(v[0].clone()).unwrap(), i128::MAX);
    let e = jetjson::from_value::<f64>(v[1].clone()).unwrap_err();
    assert_eq!(e.classify(), Category::Data);
    assert!(matches!(e.kind(), ErrorKind::NumberOutOfRange { .. }), "{e:?}");
    assert_eq!(jetjson::from_value::<f64>(v[2].clone()).unwrap(), 2.5);
}
