//! The serde door (`parse/door.rs`): `Value` and `RawJson` read through
//! jetjson's serde deserializer are built by the direct builder and checked
//! by the driver, with the same results as `Value::from_slice`, wherever
//! they sit in a typed struct; invalid input still gets the generic path's
//! error and position.

use std::collections::BTreeMap;

use jetjson::{DuplicateKeys, ErrorKind, Number, RawJson, ReadOptions, Value};
use serde::Deserialize;

fn corpus() -> Vec<(String, Vec<u8>)> {
    let mut docs = Vec::new();
    let bench = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/corpus/bench");
    for sub in ["nativejson-benchmark", "simdjson"] {
        let mut paths: Vec<_> = std::fs::read_dir(format!("{bench}/{sub}")).unwrap().map(|e| e.unwrap().path()).collect();
        paths.sort();
        for p in paths {
            if p.extension().is_some_and(|x| x == "json") && std::fs::metadata(&p).unwrap().len() < 4_000_000 {
                docs.push((p.display().to_string(), std::fs::read(&p).unwrap()));
            }
        }
    }
    let suite = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/corpus/jsontestsuite/test_parsing");
    let mut paths: Vec<_> = std::fs::read_dir(suite).unwrap().map(|e| e.unwrap().path()).collect();
    paths.sort();
    for p in paths {
        docs.push((p.display().to_string(), std::fs::read(&p).unwrap()));
    }
    docs
}

/// Equal values, and equal number kinds (`Value`'s `==` compares numbers by
/// value; the door must give the builder's kinds: `Big` text included).
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x, y) {
            (Number::Big(s), Number::Big(t)) => s == t,
            (Number::Float(f), Number::Float(g)) => f.to_bits() == g.to_bits(),
            _ => std::mem::discriminant(x) == std::mem::discriminant(y) && x == y,
        },
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y.iter()).all(|(a, b)| same(a, b)),
        (Value::Object(x), Value::Object(y)) => x.len() == y.len() && x.iter().zip(y.iter()).all(|((k, a), (l, b))| k == l && same(a, b)),
        _ => a == b,
    }
}

#[test]
fn from_slice_of_value_is_value_from_slice() {
    for options in [
        ReadOptions::default(),
        ReadOptions::default().duplicate_keys(DuplicateKeys::First),
        ReadOptions::default().duplicate_keys(DuplicateKeys::Last),
    ] {
        for (name, doc) in corpus() {
            let direct = Value::from_slice_with(&doc, &options);
            let door = jetjson::from_slice_with::<Value>(&doc, &options);
            match (&direct, &door) {
                (Ok(a), Ok(b)) => assert!(same(a, b), "{name} {options:?}: values differ"),
                (Err(a), Err(b)) => assert_eq!(a.position().map(|p| p.offset), b.position().map(|p| p.offset), "{name}: {a} / {b}"),
                _ => panic!("{name} {options:?}: direct {direct:?}, door {door:?}"),
            }
            if let Ok(text) = std::str::from_utf8(&doc) {
                let from_str = jetjson::from_str_with::<Value>(text, &options);
                assert_eq!(from_str.is_ok(), direct.is_ok(), "{name}");
            }
        }
    }
}

/// Integers beyond 128 bits keep their text through the builder; the
/// generic visitor (any other deserializer, or lossless reading, which has
/// no door) rounds them to a double. So this tells which way a value took.
const HUGE: &str = "123456789012345678901234567890123456789012345";

fn is_text(v: &Value) -> bool {
    matches!(v, Value::Number(Number::Big(t)) if t.as_str() == HUGE)
}

#[derive(Deserialize)]
struct Envelope {
    id: String,
    data: Value,
    extra: Option<Value>,
    list: Vec<Value>,
    map: BTreeMap<String, Value>,
}

#[test]
fn values_inside_typed_structs_take_the_door() {
    let doc = format!(
        r#"{{"id": "e1", "data": {{"n": {HUGE}, "s": "x\u00e9", "a": [1, 2.5, -0, true, null]}}, "extra": {HUGE}, "list": [{HUGE}, [{HUGE}]], "map": {{"k": {HUGE}}}}}"#
    );
    let e: Envelope = jetjson::from_str(&doc).unwrap();
    assert_eq!(e.id, "e1");
    let want = Value::from_slice(r#"{"n": 0, "s": "xé", "a": [1, 2.5, -0, true, null]}"#.as_bytes()).unwrap();
    assert_eq!(e.data["s"], want["s"]);
    assert!(same(&e.data["a"], &want["a"]));
    assert!(is_text(&e.data["n"]), "{:?}", e.data["n"]);
    assert!(is_text(e.extra.as_ref().unwrap()));
    assert!(is_text(&e.list[0]) && is_text(&e.list[1][0]));
    assert!(is_text(&e.map["k"]));
    // The same struct from serde_json: the generic visitor, doubles.
    let e: Envelope = serde_json::from_str(&doc).unwrap();
    assert!(matches!(e.data["n"], Value::Number(Number::Float(_))), "{:?}", e.data["n"]);
    assert!(matches!(e.list[1][0], Value::Number(Number::Float(_))));
    // Lossless reading keeps the generic way through serde.
    let v: Value = jetjson::from_slice_with(HUGE.as_bytes(), &ReadOptions::lossless()).unwrap();
    assert!(matches!(v, Value::Number(Number::Float(_))), "{v:?}");
    // And from a reader.
    let v: Value = jetjson::from_reader(format!("[{HUGE}]").as_bytes()).unwrap();
    assert!(is_text(&v[0]));
}

/// Errors inside a value read through the door: the generic path's
/// message, at the offset the direct parser gives.
#[test]
fn invalid_values_inside_structs_report_where() {
    let cases: &[&str] = &[
        r#"{"id": "a", "data": [1, 2, }, "extra": null, "list": [], "map": {}}"#,
        r#"{"id": "a", "data": {"k": 1, "k": 2}, "extra": null, "list": [], "map": {}}"#,
        r#"{"id": "a", "data": "bad \u12", "extra": null, "list": [], "map": {}}"#,
        r#"{"id": "a", "data": 1, "extra": [tru], "list": [], "map": {}}"#,
        r#"{"id": "a", "data": 1, "extra": null, "list": [1e400], "map": {}}"#,
        "{\"id\": \"a\", \"data\": \"\x01\", \"extra\": null, \"list\": [], \"map\": {}}",
    ];
    for doc in cases {
        let e = jetjson::from_str::<Envelope>(doc).err().unwrap_or_else(|| panic!("accepted {doc}"));
        let direct = Value::from_slice(doc.as_bytes()).unwrap_err();
        assert_eq!(e.position().map(|p| p.offset), direct.position().map(|p| p.offset), "{doc}: {e} / {direct}");
    }
    // Too deep: the limit counts the struct's own levels too.
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct Outer {
        inner: Value,
    }
    let ok = jetjson::from_slice_with::<Outer>(br#"{"inner": [[1]]}"#, &ReadOptions::default().max_depth(3));
    assert!(ok.is_ok(), "{ok:?}");
    let deep = jetjson::from_slice_with::<Outer>(br#"{"inner": [[[1]]]}"#, &ReadOptions::default().max_depth(3)).unwrap_err();
    assert!(matches!(deep.kind(), ErrorKind::DepthLimit { limit: 3 }), "{deep:?}");
    assert_eq!(deep.position().map(|p| p.offset), Some(12));
}

#[derive(Deserialize)]
struct RawEnvelope<'a> {
    id: u32,
    #[serde(borrow)]
    data: RawJson<'a>,
}

#[test]
fn raw_json_fields_borrow_the_checked_bytes() {
    let doc = br#"{"id": 7, "data": {"a" : [1, 2 ,3], "b":"\u00e9"}  }"#;
    let e: RawEnvelope<'_> = jetjson::from_slice(doc).unwrap();
    assert_eq!(e.id, 7);
    assert_eq!(e.data.as_bytes(), br#"{"a" : [1, 2 ,3], "b":"\u00e9"}"#);
    let range = doc.as_ptr_range();
    assert!(range.contains(&e.data.as_bytes().as_ptr()), "borrowed from the input");
    // Written back as it was.
    assert_eq!(jetjson::to_vec(&e.data).unwrap(), e.data.as_bytes());
    // Every kind of value, at the root too.
    for v in ["1", "-2.5e3", "\"s\"", "true", "null", "[]", "{}", " [ 1 , {\"x\" : null} ] "] {
        let raw: RawJson<'_> = jetjson::from_str(v).unwrap();
        assert_eq!(raw.as_bytes(), v.trim().as_bytes());
    }
    // Invalid raw JSON: the error where the direct parser puts it.
    for doc in [r#"{"id": 1, "data": [1, 2,]}"#, r#"{"id": 1, "data": {"a": 1, "a": 2}}"#, r#"{"id": 1, "data": tru}"#] {
        let e = jetjson::from_str::<RawEnvelope<'_>>(doc).err().unwrap_or_else(|| panic!("accepted {doc}"));
        let direct = Value::from_slice(doc.as_bytes()).unwrap_err();
        assert_eq!(e.position().map(|p| p.offset), direct.position().map(|p| p.offset), "{doc}: {e} / {direct}");
    }
    // Repeated names are kept as they are when the options allow them.
    let e: RawEnvelope<'_> =
        jetjson::from_slice_with(br#"{"id": 1, "data": {"a": 1, "a": 2}}"#, &ReadOptions::default().duplicate_keys(DuplicateKeys::Last))
            .unwrap();
    assert_eq!(e.data.as_bytes(), br#"{"a": 1, "a": 2}"#);
    // From another deserializer: the value, compact.
    let e: RawEnvelope<'_> = serde_json::from_slice(doc).unwrap();
    assert_eq!(e.data.as_bytes(), r#"{"a":[1,2,3],"b":"é"}"#.as_bytes());
}

/// The private name with someone else's visitor: an error, not a value of
/// the wrong type.
#[test]
fn the_private_name_is_refused_to_other_visitors() {
    struct Sneaky;
    impl<'de> Deserialize<'de> for Sneaky {
        fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Sneaky, D::Error> {
            struct V;
            impl<'de> serde::de::Visitor<'de> for V {
                type Value = Sneaky;
                fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                    f.write_str("anything")
                }
                fn visit_newtype_struct<D: serde::Deserializer<'de>>(self, d: D) -> Result<Sneaky, D::Error> {
                    u64::deserialize(d).map(|_| Sneaky)
                }
            }
            d.deserialize_newtype_struct("$jetjson::private::Value", V)
        }
    }
    assert!(jetjson::from_slice::<Sneaky>(b"[1, 2]").is_err());
    // And the next value read is not affected.
    assert_eq!(jetjson::from_slice::<Value>(b"[3]").unwrap(), Value::from_slice(b"[3]").unwrap());
}

/// A repeated name inside a `Value` field (the builder refuses it; the
/// door then reads the text again): refused, where the direct parser puts
/// it, at any depth, in small and large objects.
#[test]
fn repeated_names_in_a_value_field_are_refused_where_they_are() {
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct Holder {
        id: u32,
        data: Value,
    }
    let many: String = (0..80).map(|i| format!("\"k{i}\": {i}, ")).collect();
    let docs = [
        r#"{"id": 1, "data": {"a": 1, "a": 2}}"#.to_string(),
        r#"{"id": 1, "data": [{"b": {"c": 1, "c": 2}}]}"#.to_string(),
        format!(r#"{{"id": 1, "data": {{{many}"k9": 0}}}}"#),
        r#"{"id": 1, "data": {"a": 1, "a": 2, ]}"#.to_string(),
    ];
    for doc in &docs {
        let e = jetjson::from_str::<Holder>(doc).expect_err(doc);
        let direct = Value::from_slice(doc.as_bytes()).unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::DuplicateKey { .. }), "{doc}: {e}");
        assert_eq!(e.position().map(|p| p.offset), direct.position().map(|p| p.offset), "{doc}: {e} / {direct}");
    }
    // And accepted when the options allow repeats.
    let last = ReadOptions::default().duplicate_keys(DuplicateKeys::Last);
    let h: Holder = jetjson::from_str_with(&docs[0], &last).unwrap();
    assert_eq!(h.data["a"], 2);
}

/// `RawJson` fields (the validator checks a container there in place; the
/// driver walks it again only when the validator refuses it) accept what
/// the direct parser accepts in their place, with the bytes of the value,
/// and refuse the rest at the direct parser's offset: repeated names at
/// every nesting and in every spelling, literals beyond the double range,
/// depth counted from the document's root, invalid text after the value,
/// all with the value at every offset of a block.
#[test]
fn raw_json_fields_are_judged_as_the_direct_parser_judges_them() {
    #[derive(Deserialize)]
    struct Listed<'a> {
        #[serde(borrow)]
        list: Vec<RawEnvelope<'a>>,
    }
    let many: String = (0..20).map(|i| format!("\"k{i}\":{i},")).collect();
    let long = format!("1{}", "0".repeat(400));
    let payloads: Vec<Vec<u8>> = [
        r#"{"a":1,"a":2}"#.to_string(),
        r#"{"a":1,"\u0061":2}"#.to_string(),
        r#"[{"b":{"c":1,"c":2}}]"#.to_string(),
        r#"{"a":{"a":{"a":1}},"b":[{"a":1},{"a":2}]}"#.to_string(),
        r#"[{"x":{"y":[{"z":1,"z":2}]}}]"#.to_string(),
        format!("{{{many}\"k7\":0}}"),
        format!("{{{many}\"z\":0}}"),
        "[1e400]".to_string(),
        r#"{"n":-1e400}"#.to_string(),
        r#"[1.7976931348623157e308, 1e-400]"#.to_string(),
        format!("[{long}, -{long}]"),
        format!("[{long}.5]"),
        "[[[[1]]]]".to_string(),
        r#"{"a":[{"b":[{}]}]}"#.to_string(),
        "[1,]".to_string(),
        r#"{"a" 1}"#.to_string(),
        r#"[ "é", "\ud83d\ude00", {"k\n": "\"q\""} ]"#.to_string(),
        r#"["\ud800"]"#.to_string(),
        "[\"a\"]\x01".to_string(),
    ]
    .into_iter()
    .map(String::into_bytes)
    .chain([b"[\"\xc3\"]".to_vec(), b"{\"\xff\":1}".to_vec(), b"[\"ok\"], \"x\": \"\\q\"".to_vec()])
    .collect();
    let sets = [
        ReadOptions::default(),
        ReadOptions::default().duplicate_keys(DuplicateKeys::Last),
        ReadOptions::default().max_depth(4),
        ReadOptions::default().max_depth(5),
        ReadOptions::default().max_depth(6),
    ];
    for payload in &payloads {
        for pad in 0..64 {
            let spaces = " ".repeat(pad);
            let mut flat = format!("{spaces}{{\"id\": 1, \"data\": ").into_bytes();
            flat.extend_from_slice(payload);
            flat.extend_from_slice(b"}");
            let mut listed = format!("{{\"list\": [{spaces}{{\"id\": 2, \"data\": ").into_bytes();
            listed.extend_from_slice(payload);
            listed.extend_from_slice(b"}]}");
            for options in &sets {
                let what = |doc: &[u8]| format!("{} with {options:?}", String::from_utf8_lossy(doc));
                let direct = Value::from_slice_with(&flat, options);
                match (jetjson::from_slice_with::<RawEnvelope<'_>>(&flat, options), direct) {
                    (Ok(e), Ok(_)) => assert_eq!(e.data.as_bytes(), &payload[..], "{}", what(&flat)),
                    (Err(a), Err(b)) => {
                        assert_eq!(a.position().map(|p| p.offset), b.position().map(|p| p.offset), "{}: {a} / {b}", what(&flat))
                    }
                    (a, b) => panic!("{}: door {:?}, direct {b:?}", what(&flat), a.map(|e| e.id)),
                }
                let direct = Value::from_slice_with(&listed, options);
                match (jetjson::from_slice_with::<Listed<'_>>(&listed, options), direct) {
                    (Ok(l), Ok(_)) => assert_eq!(l.list[0].data.as_bytes(), &payload[..], "{}", what(&listed)),
                    (Err(a), Err(b)) => {
                        assert_eq!(a.position().map(|p| p.offset), b.position().map(|p| p.offset), "{}: {a} / {b}", what(&listed))
                    }
                    (a, b) => panic!("{}: door {:?}, direct {b:?}", what(&listed), a.map(|l| l.list.len())),
                }
            }
        }
    }
}
