//! Array elements written through serde: the serde writer fuses each
//! element's separator with its first token (`ser/item.rs`), and writes
//! arrays, tuples and struct fields with its own in-line paths. Each element
//! of a generated array, written alone, must come out exactly as it does
//! inside the array, in every profile; and the compact bytes, flat and
//! indented, must be serde_json's.

mod common;

use std::collections::{BTreeMap, HashMap};

use common::{hostile_string, interesting_f64, Rng};
use jetjson::{ByteStr, NonFinite, RawJson, Value, WriteOptions};
use serde::Serialize;

/// One element of every shape serde hands a serializer (untagged: written
/// as its content, so each variant reaches the element serializer through
/// the method of its own type).
#[derive(Serialize, Clone, Debug)]
#[serde(untagged)]
enum Item {
    Bool(bool),
    I8(i8),
    I16(i16),
    I32(i32),
    I64(i64),
    I128(i128),
    U8(u8),
    U16(u16),
    U32(u32),
    U64(u64),
    U128(u128),
    F32(f32),
    F64(f64),
    Char(char),
    Str(String),
    Unit(()),
    UnitStruct(UnitStruct),
    None(Option<u8>),
    Some(Option<f64>),
    Newtype(Newtype),
    Variant(Variant),
    Seq(Vec<Item>),
    Pair((f64, i64)),
    Array([f64; 2]),
    TupleStruct(TupleStruct),
    Map(BTreeMap<String, Item>),
    Struct(Struct),
    Value(Value),
}

#[derive(Serialize, Clone, Debug)]
struct UnitStruct;

#[derive(Serialize, Clone, Debug)]
struct Newtype(f64);

#[derive(Serialize, Clone, Debug)]
struct TupleStruct(u32, String);

#[derive(Serialize, Clone, Debug)]
struct Struct {
    id: u64,
    score: f64,
    name: String,
    tags: Vec<String>,
    #[serde(rename = "<html>")]
    html: Option<bool>,
}

#[derive(Serialize, Clone, Debug)]
enum Variant {
    Unit,
    Newtype(i32),
    Tuple(f64, bool),
    Struct { x: f64, label: String },
}

fn f64_item(rng: &mut Rng) -> f64 {
    // Finite only: the non-finite ones are checked apart (each profile
    // refuses or writes them its own way).
    let f = interesting_f64(rng);
    if f.is_finite() {
        f
    } else {
        0.5
    }
}

fn short_string(rng: &mut Rng) -> String {
    // Mostly short strings (the fused path takes clean ones of up to 96
    // bytes), some long, some with bytes to escape.
    match rng.below(4) {
        0 => hostile_string(rng, 12),
        1 => hostile_string(rng, 200),
        _ => (0..rng.below(100)).map(|i| (b'a' + (i % 26) as u8) as char).collect(),
    }
}

fn item(rng: &mut Rng, depth: usize) -> Item {
    let leaf = depth == 0;
    match rng.below(if leaf { 21 } else { 28 }) {
        0 => Item::Bool(rng.chance(50)),
        1 => Item::I8(rng.next() as i8),
        2 => Item::I16(rng.next() as i16),
        3 => Item::I32(rng.next() as i32),
        4 => Item::I64((rng.next() as i64) >> rng.below(64)),
        5 => Item::I128((rng.next() as i128) << rng.below(64) | rng.next() as i128),
        6 => Item::U8(rng.next() as u8),
        7 => Item::U16(rng.next() as u16),
        8 => Item::U32(rng.next() as u32),
        9 => Item::U64(rng.next() >> rng.below(64)),
        10 => Item::U128((rng.next() as u128) << rng.below(64) | rng.next() as u128),
        11 => Item::F32(Some(f64_item(rng) as f32).filter(|f| f.is_finite()).unwrap_or(0.25)),
        12 => Item::F64(f64_item(rng)),
        13 => Item::Char(hostile_string(rng, 1).chars().next().unwrap_or('"')),
        14 => Item::Str(short_string(rng)),
        15 => Item::Unit(()),
        16 => Item::UnitStruct(UnitStruct),
        17 => Item::None(None),
        18 => Item::Some(rng.chance(50).then(|| f64_item(rng))),
        19 => Item::Newtype(Newtype(f64_item(rng))),
        20 => Item::Variant(match rng.below(4) {
            0 => Variant::Unit,
            1 => Variant::Newtype(rng.next() as i32),
            2 => Variant::Tuple(f64_item(rng), rng.chance(50)),
            _ => Variant::Struct { x: f64_item(rng), label: short_string(rng) },
        }),
        21 => Item::Seq((0..rng.below(5)).map(|_| item(rng, depth - 1)).collect()),
        22 => Item::Pair((f64_item(rng), rng.next() as i64)),
        23 => Item::Array([f64_item(rng), f64_item(rng)]),
        24 => Item::TupleStruct(TupleStruct(rng.next() as u32, short_string(rng))),
        25 => Item::Map((0..rng.below(4)).map(|_| (short_string(rng), item(rng, depth - 1))).collect()),
        26 => Item::Struct(Struct {
            id: rng.next(),
            score: f64_item(rng),
            name: short_string(rng),
            tags: (0..rng.below(3)).map(|_| short_string(rng)).collect(),
            html: rng.chance(50).then(|| rng.chance(50)),
        }),
        _ => Item::Value(common::document(rng, 2)),
    }
}

/// Whether serde_json writes `item` as jetjson's compact profile does (it
/// has no private newtypes and writes `f32` through its own digits).
fn serde_json_agrees(item: &Item) -> bool {
    match item {
        Item::Value(_) => false,
        Item::Seq(items) => items.iter().all(serde_json_agrees),
        Item::Map(m) => m.values().all(serde_json_agrees),
        _ => true,
    }
}

fn profiles() -> Vec<(&'static str, WriteOptions)> {
    vec![
        ("compact", WriteOptions::compact()),
        ("go", WriteOptions::go()),
        ("go-plain", WriteOptions::go().escape_html(false)),
        ("jcs", WriteOptions::jcs()),
        ("compact-ascii", WriteOptions::compact().ascii_only(true)),
    ]
}

/// `[e0,e1,...]` from each element's bytes written alone, or the first error.
fn joined<T: Serialize>(items: &[T], options: &WriteOptions) -> jetjson::Result<Vec<u8>> {
    let mut out = b"[".to_vec();
    for (i, x) in items.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend(jetjson::to_vec_with(x, options)?);
    }
    out.push(b']');
    Ok(out)
}

#[test]
fn elements_write_as_they_do_alone() {
    let mut rng = Rng::new(0x17E5);
    for round in 0..400 {
        let n = rng.below(12);
        let items: Vec<Item> = (0..n).map(|_| item(&mut rng, 3)).collect();
        for (name, options) in profiles() {
            let whole = jetjson::to_vec_with(&items, &options);
            let parts = joined(&items, &options);
            match (whole, parts) {
                (Ok(w), Ok(p)) => assert_eq!(String::from_utf8_lossy(&w), String::from_utf8_lossy(&p), "{name}, round {round}: {items:?}"),
                (w, p) => panic!("{name}, round {round}: array {w:?}, elements {p:?}: {items:?}"),
            }
        }
    }
}

#[test]
fn compact_elements_equal_serde_json_flat_and_indented() {
    let mut rng = Rng::new(0x5E7D);
    let pretty = WriteOptions::compact().indent(2);
    let mut checked = 0;
    for _ in 0..600 {
        let n = rng.below(10);
        let items: Vec<Item> = (0..n).map(|_| item(&mut rng, 3)).collect();
        if !items.iter().all(serde_json_agrees) {
            continue;
        }
        checked += 1;
        let want = serde_json::to_vec(&items).expect("serde_json writes it");
        let got = jetjson::to_vec_with(&items, &WriteOptions::compact()).expect("compact writes it");
        assert_eq!(String::from_utf8_lossy(&got), String::from_utf8_lossy(&want), "{items:?}");
        let want = serde_json::to_vec_pretty(&items).expect("serde_json writes it");
        let got = jetjson::to_vec_with(&items, &pretty).expect("compact writes it");
        assert_eq!(String::from_utf8_lossy(&got), String::from_utf8_lossy(&want), "{items:?}");
    }
    assert!(checked > 100, "{checked} arrays checked");
}

#[test]
fn private_newtypes_and_bytes_as_elements() {
    #[derive(Serialize)]
    struct Bytes<'a>(#[serde(with = "jetjson::base64")] &'a [u8]);
    #[derive(Serialize)]
    #[serde(untagged)]
    enum Special<'a> {
        Raw(RawJson<'a>),
        ByteStr(ByteStr<'a>),
        Bytes(Bytes<'a>),
        Number(Value),
        Float(f64),
    }
    let raw = RawJson::new(r#"{"b": [1, 2.50], "a": "<x>"}"#).expect("valid JSON");
    let big = jetjson::from_slice::<Value>(b"123456789012345678901234567890").expect("an integer");
    let items = [
        Special::Raw(raw.clone()),
        Special::ByteStr(ByteStr(b"a\xffb\"")),
        Special::Bytes(Bytes(b"hi?>")),
        Special::Number(big),
        Special::Float(1e21),
        Special::Float(-0.0),
        Special::Float(1e-7),
        Special::Float(100.0),
        Special::Raw(raw),
    ];
    for (name, options) in [("go", WriteOptions::go()), ("go-plain", WriteOptions::go().escape_html(false))] {
        let whole = jetjson::to_vec_with(&items, &options).expect("go writes them");
        assert_eq!(String::from_utf8_lossy(&whole), String::from_utf8_lossy(&joined(&items, &options).unwrap()), "{name}");
    }
    // A float array element that is not finite: refused, or null when asked.
    let floats = [1.5, f64::NAN, 2.0];
    assert!(jetjson::to_vec_with(&floats, &WriteOptions::compact()).is_err());
    assert!(jetjson::to_vec_with(&floats, &WriteOptions::go()).is_err());
    let nulls = WriteOptions::compact().non_finite(NonFinite::Null);
    assert_eq!(jetjson::to_vec_with(&floats, &nulls).unwrap(), b"[1.5,null,2.0]");
    // Go-layout floats in arrays, flat and indented: integers, the re-laid
    // bands and zmij's digits next to each other.
    let floats = [1e20, 1e21, 0.000001, 1e-7, -0.0, 123456.789, 5e-324, 1.7976931348623157e308];
    let got = jetjson::to_vec_with(&floats, &WriteOptions::go()).unwrap();
    assert_eq!(String::from_utf8_lossy(&got), "[100000000000000000000,1e+21,0.000001,1e-7,-0,123456.789,5e-324,1.7976931348623157e+308]");
    let got = jetjson::to_vec_with(&floats[..3], &WriteOptions::go().indent(1)).unwrap();
    assert_eq!(String::from_utf8_lossy(&got), "[\n 100000000000000000000,\n 1e+21,\n 0.000001\n]");
    // Maps of arrays, sorted by go: the fused elements sit inside members
    // that are moved.
    let m: HashMap<&str, Vec<f64>> = [("b", vec![1.5, 2.0]), ("a", vec![]), ("c", vec![-0.0])].into_iter().collect();
    assert_eq!(jetjson::to_vec_with(&m, &WriteOptions::go()).unwrap(), br#"{"a":[],"b":[1.5,2],"c":[-0]}"#);
}
