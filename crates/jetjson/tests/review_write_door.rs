//! Review of the write door (value/ser.rs, d1f9849): a `Value` handed to
//! jetjson's own serializer is written by the `Value` writer.
//!
//! The reference for bytes is `Old`, a copy of the member-by-member path
//! the door replaced (what `Value::serialize` did before), and
//! `Value::to_vec_with`. The reference for errors is `Value::to_vec_with`
//! on the value alone, with the path of the enclosing type in front.
//!
//! Whether the door opened (the `Value` writer ran) or not (the members
//! went through serde) shows in one place only, which of two errors a
//! sorted profile meets first (`probe`): `door_opened` uses that to check
//! that a door forwarded by a foreign serializer is still recognised, or
//! is not.

use std::collections::{BTreeMap, HashMap};
use std::panic::{catch_unwind, AssertUnwindSafe};

use jetjson::{json, Map, ReadOptions, Value, WriteOptions};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};

/// A double no profile here writes (`Value::from` makes `null` of it, as
/// serde_json does; a `Number` holds it as given).
fn non_finite(x: f64) -> Value {
    Value::Number(jetjson::Number::Float(x))
}

/// `v` with the strings "<nan>" and "<inf>" replaced by those doubles
/// (`json!` would make `null` of them).
fn planted(mut v: Value) -> Value {
    match &mut v {
        Value::String(s) if s.as_str() == "<nan>" => return non_finite(f64::NAN),
        Value::String(s) if s.as_str() == "<inf>" => return non_finite(f64::INFINITY),
        Value::Array(items) => items.iter_mut().for_each(|x| *x = planted(std::mem::take(x))),
        Value::Object(m) => m.values_mut().for_each(|x| *x = planted(std::mem::take(x))),
        _ => {}
    }
    v
}

// ---- references -------------------------------------------------------

/// The member-by-member path as it was before the door.
#[derive(Clone, Copy)]
struct Old<'v>(&'v Value);

impl Serialize for Old<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Value::Null => s.serialize_unit(),
            Value::Bool(b) => s.serialize_bool(*b),
            Value::Number(n) => n.serialize(s),
            Value::String(v) => s.serialize_str(v),
            Value::Array(items) => {
                let mut seq = s.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(&Old(item))?;
                }
                seq.end()
            }
            Value::Object(map) => {
                let mut m = s.serialize_map(Some(map.len()))?;
                for (k, v) in map.iter() {
                    m.serialize_entry(&**k, &Old(v))?;
                }
                m.end()
            }
        }
    }
}

fn outcome(r: jetjson::Result<Vec<u8>>) -> String {
    match r {
        Ok(b) => String::from_utf8_lossy(&b).into_owned(),
        Err(e) => format!("error at {}: {e}", e.path_string()),
    }
}

fn profiles() -> Vec<(&'static str, WriteOptions)> {
    vec![
        ("compact", WriteOptions::compact()),
        ("go", WriteOptions::go()),
        ("go no html", WriteOptions::go().escape_html(false)),
        ("jcs", WriteOptions::jcs()),
        ("jcs strict", WriteOptions::jcs().jcs_strict_integers(true)),
        ("sorted", WriteOptions::compact().sort_keys(true)),
        ("ascii", WriteOptions::compact().ascii_only(true)),
        ("indent", WriteOptions::compact().indent(2)),
        ("go indent 4", WriteOptions::go().indent(4)),
        ("sorted ascii indent", WriteOptions::compact().sort_keys(true).ascii_only(true).indent(3)),
        ("null non-finite", WriteOptions::compact().non_finite(jetjson::NonFinite::Null)),
    ]
}

fn lossless(text: &str) -> Value {
    Value::from_slice_with(text.as_bytes(), &ReadOptions::lossless()).unwrap()
}

/// Values that differ in what some profile does with them, a few of which
/// some profile refuses.
fn documents() -> Vec<Value> {
    let mut dup = Map::new();
    dup.push("b", json!(1));
    dup.push("a", json!(2));
    dup.push("b", json!(3));
    dup.push("a", json!([4]));
    let mut deep = json!("leaf");
    for i in 0..12 {
        deep = if i % 2 == 0 { json!([i, deep, {}]) } else { json!({"y": deep, "x": [], "é": i}) };
    }
    vec![
        json!(null),
        json!(true),
        json!(0),
        json!(-0.0),
        json!(1e21),
        json!(5e-324),
        json!(0.1),
        json!(1.0),
        json!(u64::MAX),
        json!(i64::MIN),
        json!("<&>\u{2028}\u{2029}\u{7f}\u{0}é😀\"\\/"),
        json!([]),
        json!({}),
        json!([[], {}, [[]], {"": {}}]),
        json!({"b": "<&>", "a": [1, -2.5, 1e21, "\u{1}"], "c": {"y": true, "x": null}, "\u{e9}": 1, "e\u{301}": 2, "😀": 3, "\u{ffff}": 4}),
        json!([1.5, 2, "x", null, true, false, -0.0, 1e-7, 123456789.0]),
        Value::Object(dup),
        deep,
        lossless(r#"{"n":[1.50,1e400,-0,123456789012345678901234567890,9007199254740993,1E+2]}"#),
        lossless(r#"[1e400]"#),
        non_finite(f64::NAN),
        planted(json!({"z": 1, "a": [1, "<inf>"]})),
    ]
}

/// A large value (well over the writer's 32 KiB spill threshold), nested.
fn large() -> Value {
    let mut items = Vec::new();
    for i in 0..3000 {
        items.push(json!({"id": i, "name": format!("item <{i}> é"), "tags": ["a", "b", i], "score": i as f64 / 7.0, "z": null}));
    }
    json!({"items": items, "meta": {"count": 3000, "b": true}})
}

// ---- typed containers --------------------------------------------------

#[derive(serde::Serialize)]
struct Envelope<V> {
    id: u32,
    data: V,
    list: Vec<V>,
    maybe: Option<V>,
    none: Option<V>,
    hmap: HashMap<String, V>,
    bmap: BTreeMap<String, V>,
    pair: (V, u8),
    #[serde(flatten)]
    extra: BTreeMap<String, V>,
    nested: Vec<Vec<V>>,
}

fn envelope<V: Clone>(v: V) -> Envelope<V> {
    Envelope {
        id: 7,
        data: v.clone(),
        list: vec![v.clone(), v.clone()],
        maybe: Some(v.clone()),
        none: None,
        hmap: [("h".to_string(), v.clone())].into(),
        bmap: [("m".to_string(), v.clone()), ("k".to_string(), v.clone())].into(),
        pair: (v.clone(), 1),
        extra: [("x1".to_string(), v.clone()), ("x0".to_string(), v.clone())].into(),
        nested: vec![vec![v.clone()], vec![]],
    }
}

#[derive(serde::Serialize)]
enum External<V> {
    A(V),
    T(V, u8),
    S { v: V, n: u8 },
}

#[derive(serde::Serialize)]
#[serde(tag = "t")]
enum Internal<V> {
    A(V),
    S { v: V },
}

#[derive(serde::Serialize)]
#[serde(tag = "t", content = "c")]
enum Adjacent<V> {
    A(V),
    T(V, u8),
    S { v: V },
}

#[derive(serde::Serialize)]
#[serde(untagged)]
enum Untagged<V> {
    A(V),
    S { v: V },
}

/// A struct variant under `flatten`: serde buffers its fields as `Content`
/// (`FlatMapSerializeStructVariantAsMapValue`) and replays them.
#[derive(serde::Serialize)]
struct FlatVariant<V> {
    id: u8,
    #[serde(flatten)]
    e: External<V>,
}

/// A `Value` flattened itself (serde's `FlatMapSerializer`).
#[derive(serde::Serialize)]
struct FlatValue<V> {
    id: u8,
    #[serde(flatten)]
    rest: V,
}

/// Every typed container of `v`, each written as one document.
type Writes = Vec<(&'static str, Box<dyn Fn(&WriteOptions) -> jetjson::Result<Vec<u8>>>)>;

fn containers<V: Serialize + Clone + 'static>(v: V) -> Writes {
    let mut out: Writes = Vec::new();
    macro_rules! add {
        ($name:expr, $e:expr) => {{
            let x = $e;
            out.push(($name, Box::new(move |o: &WriteOptions| jetjson::to_vec_with(&x, o))));
        }};
    }
    add!("envelope", envelope(v.clone()));
    add!("external A", External::A(v.clone()));
    add!("external T", External::T(v.clone(), 2));
    add!("external S", External::S { v: v.clone(), n: 3 });
    add!("internal A", Internal::A(v.clone()));
    add!("internal S", Internal::S { v: v.clone() });
    add!("adjacent A", Adjacent::A(v.clone()));
    add!("adjacent T", Adjacent::T(v.clone(), 2));
    add!("adjacent S", Adjacent::S { v: v.clone() });
    add!("untagged A", Untagged::A(v.clone()));
    add!("untagged S", Untagged::S { v: v.clone() });
    add!("flat variant S", FlatVariant { id: 1, e: External::S { v: v.clone(), n: 4 } });
    add!("flat variant A", FlatVariant { id: 1, e: External::A(v.clone()) });
    add!("flat value", FlatValue { id: 1, rest: v.clone() });
    add!("vec of options", vec![Some(v.clone()), None, Some(v.clone())]);
    out
}

/// Typed containers of `Value`s give the bytes the member-by-member path
/// gave, in every profile; where that path failed, the door fails too.
#[test]
fn typed_containers_write_as_the_member_path() {
    let mut checked = 0;
    let mut errors = 0;
    for v in documents() {
        let v: &'static Value = Box::leak(Box::new(v));
        let door = containers(v);
        let plain = containers(Old(v));
        for ((name, door), (_, plain)) in door.iter().zip(plain.iter()) {
            for (profile, o) in profiles() {
                let d = outcome(door(&o));
                let p = outcome(plain(&o));
                let at = format!("{name}, {profile}, {}", v.to_string_with(&WriteOptions::compact()).unwrap_or_default());
                if p.starts_with("error") {
                    assert!(d.starts_with("error"), "{at}: {d}");
                    errors += 1;
                } else {
                    assert_eq!(d, p, "{at}");
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 1000 && errors > 100, "{checked} {errors}");
}

/// At the top level: `to_vec_with`, `to_writer_with` (a sink that takes
/// a few bytes at a time) and `to_string_pretty` against the `Value`
/// writer and the member path, the large value included (it spills).
#[test]
fn top_level_through_every_entry_point() {
    struct Dribble(Vec<u8>);
    impl std::io::Write for Dribble {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            let n = b.len().min(7);
            self.0.extend_from_slice(&b[..n]);
            Ok(n)
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut docs = documents();
    docs.push(large());
    for v in &docs {
        for (profile, o) in profiles() {
            let direct = outcome(v.to_vec_with(&o));
            assert_eq!(outcome(jetjson::to_vec_with(v, &o)), direct, "{profile}");
            let mut sink = Dribble(Vec::new());
            let streamed = jetjson::to_writer_with(&mut sink, v, &o).map(|()| sink.0);
            assert_eq!(outcome(streamed), direct, "{profile}");
            let old = outcome(jetjson::to_vec_with(&Old(v), &o));
            if !old.starts_with("error") {
                assert_eq!(old, direct, "{profile}");
            }
        }
        assert_eq!(jetjson::to_string_pretty(v).ok(), jetjson::to_string_pretty(&Old(v)).ok());
        assert_eq!(jetjson::to_string_pretty(&envelope(v)).ok(), jetjson::to_string_pretty(&envelope(Old(v))).ok());
    }
}

/// The large value inside a typed envelope, streamed through a sink and
/// written indented and sorted: the spills inside the `Value` writer
/// (under a struct, beside sorted members) give the member path's bytes.
#[test]
fn large_values_in_typed_structs_stream_as_the_member_path() {
    let v = large();
    for (profile, o) in profiles() {
        let door = envelope(&v);
        let old = envelope(Old(&v));
        let want = jetjson::to_vec_with(&old, &o).unwrap();
        assert_eq!(jetjson::to_vec_with(&door, &o).unwrap(), want, "{profile}");
        let mut sink = Vec::new();
        jetjson::to_writer_with(&mut sink, &door, &o).unwrap();
        assert_eq!(sink, want, "{profile}");
    }
}

// ---- limits -------------------------------------------------------------

#[derive(serde::Serialize)]
struct Outer<V> {
    inner: Inner<V>,
}

#[derive(serde::Serialize)]
struct Inner<V> {
    v: V,
}

fn nested(depth: usize) -> Value {
    let mut v = json!(1);
    for i in 0..depth {
        v = if i % 2 == 0 { json!([v]) } else { json!({"k": v}) };
    }
    v
}

/// `max_write_depth` counts the typed levels around a `Value`: two struct
/// levels and two of the value are four, over a limit of three.
#[test]
fn the_depth_limit_counts_typed_levels() {
    let o = WriteOptions::compact().max_write_depth(3);
    let two = json!([[1]]);
    let e = jetjson::to_vec_with(&Outer { inner: Inner { v: &two } }, &o).unwrap_err();
    assert!(matches!(e.kind(), jetjson::ErrorKind::WriteDepthLimit { limit: 3 }), "{e}");
    assert_eq!(jetjson::to_vec_with(&Outer { inner: Inner { v: json!([1]) } }, &o).unwrap(), br#"{"inner":{"v":[1]}}"#);
    // A scalar at the limit, an empty container one past it.
    let o2 = WriteOptions::compact().max_write_depth(2);
    assert!(jetjson::to_vec_with(&Outer { inner: Inner { v: json!(1) } }, &o2).is_ok());
    assert!(jetjson::to_vec_with(&Outer { inner: Inner { v: json!([]) } }, &o2).is_err());
    assert!(jetjson::to_vec_with(&Outer { inner: Inner { v: json!({}) } }, &o2).is_err());
    // Every split of 1..=6 levels between typed and value, at limits
    // around it: the door agrees with the member path.
    for value_depth in 0..6 {
        for limit in 1..9 {
            for (profile, o) in profiles() {
                let o = o.max_write_depth(limit);
                let v = nested(value_depth);
                let door = outcome(jetjson::to_vec_with(&envelope(&v), &o));
                let old = outcome(jetjson::to_vec_with(&envelope(Old(&v)), &o));
                assert_eq!(door.starts_with("error"), old.starts_with("error"), "{profile} {value_depth} {limit}");
                if !old.starts_with("error") {
                    assert_eq!(door, old);
                }
                let ext = outcome(jetjson::to_vec_with(&External::A(&v), &o));
                let ext_old = outcome(jetjson::to_vec_with(&External::A(Old(&v)), &o));
                assert_eq!(ext, ext_old, "{profile} {value_depth} {limit}");
            }
        }
    }
}

/// Values as deep as the default limit allows under a struct, on a thread
/// with a 256 KiB stack: written, not overflowed; one level more is the
/// depth error.
#[test]
fn deep_values_near_the_default_limit_on_a_small_stack() {
    std::thread::Builder::new()
        .stack_size(256 << 10)
        .spawn(|| {
            let limit = jetjson::DEFAULT_MAX_WRITE_DEPTH;
            // One level for the struct (`Inner`), two for `Outer`.
            for (typed, v_depth) in [(1usize, limit - 1), (2, limit - 2)] {
                let ok = nested(v_depth);
                let over = nested(v_depth + 1);
                for (profile, o) in [
                    ("compact", WriteOptions::compact()),
                    ("go", WriteOptions::go()),
                    ("indent", WriteOptions::compact().indent(1)),
                    ("jcs", WriteOptions::jcs()),
                ] {
                    let (good, bad) = if typed == 1 {
                        (jetjson::to_vec_with(&Inner { v: &ok }, &o), jetjson::to_vec_with(&Inner { v: &over }, &o))
                    } else {
                        (
                            jetjson::to_vec_with(&Outer { inner: Inner { v: &ok } }, &o),
                            jetjson::to_vec_with(&Outer { inner: Inner { v: &over } }, &o),
                        )
                    };
                    let good = good.unwrap_or_else(|e| panic!("{profile}: {e}"));
                    assert!(good.len() > 2 * v_depth, "{profile}");
                    assert!(matches!(bad.unwrap_err().kind(), jetjson::ErrorKind::WriteDepthLimit { .. }), "{profile}");
                    let mut sink = Vec::new();
                    jetjson::to_writer_with(&mut sink, &vec![Inner { v: &nested(limit - 3) }], &o).unwrap();
                    assert!(sink.len() > 2 * (limit - 3));
                }
            }
        })
        .unwrap()
        .join()
        .unwrap();
}

// ---- errors ---------------------------------------------------------------

/// The error of a value inside a typed container: the `Value` writer's
/// error with the container's path in front.
#[test]
fn errors_carry_the_value_writers_path_under_the_enclosing_one() {
    let v = planted(json!({"z": 1, "a": [1, "<nan>"]}));
    let alone = v.to_vec_with(&WriteOptions::compact()).unwrap_err();
    assert_eq!(alone.path_string(), "$.a[1]");
    let e = |r: jetjson::Result<Vec<u8>>| {
        let e = r.unwrap_err();
        assert_eq!(format!("{:?}", e.kind()), format!("{:?}", alone.kind()));
        e.path_string()
    };
    let o = WriteOptions::compact();
    assert_eq!(e(jetjson::to_vec_with(&v, &o)), "$.a[1]");
    assert_eq!(e(jetjson::to_vec_with(&Outer { inner: Inner { v: &v } }, &o)), "$.inner.v.a[1]");
    assert_eq!(e(jetjson::to_vec_with(&vec![json!(0), v.clone()], &o)), "$[1].a[1]");
    assert_eq!(e(jetjson::to_vec_with(&Some(&v), &o)), "$.a[1]");
    assert_eq!(e(jetjson::to_vec_with(&External::A(&v), &o)), "$.A.a[1]");
    // A struct variant's name is not in paths (serialize_struct_variant
    // adds no segment, unlike a newtype variant): older than the door.
    assert_eq!(e(jetjson::to_vec_with(&External::S { v: &v, n: 1 }, &o)), "$.v.a[1]");
    assert_eq!(e(jetjson::to_vec_with(&Adjacent::A(&v), &o)), "$.c.a[1]");
    assert_eq!(e(jetjson::to_vec_with(&Untagged::A(&v), &o)), "$.a[1]");
    // Sorted: the writer meets "a" before "z" whatever the insertion order.
    let two = planted(json!({"z": ["<nan>"], "a": {"b": "<inf>"}}));
    let sorted = WriteOptions::compact().sort_keys(true);
    assert_eq!(jetjson::to_vec_with(&Inner { v: &two }, &sorted).unwrap_err().path_string(), "$.v.a.b");
    assert_eq!(jetjson::to_vec_with(&Inner { v: &two }, &o).unwrap_err().path_string(), "$.v.z[0]");
}

// ---- other serializers ------------------------------------------------------

/// serde_json, sonic-rs and simd-json see an ordinary newtype (which they
/// unwrap), `to_value` gives the value back.
#[test]
fn other_serializers_are_unchanged() {
    let mut docs = documents();
    docs.retain(|v| serde_json::to_string(&Old(v)).is_ok());
    docs.push(large());
    for v in &docs {
        let want = serde_json::to_string(&Old(v)).unwrap();
        assert_eq!(serde_json::to_string(v).unwrap(), want);
        assert_eq!(serde_json::to_string_pretty(&envelope(v)).unwrap(), serde_json::to_string_pretty(&envelope(Old(v))).unwrap());
        assert_eq!(serde_json::to_value(v).unwrap(), serde_json::to_value(Old(v)).unwrap());
        assert_eq!(sonic_rs::to_string(v).unwrap(), sonic_rs::to_string(&Old(v)).unwrap());
        assert_eq!(simd_json::to_string(v).unwrap(), simd_json::to_string(&Old(v)).unwrap());
        // (`to_value` keeps the last of repeated names, as it did.)
        assert_eq!(format!("{:?}", jetjson::to_value(v)), format!("{:?}", jetjson::to_value(&Old(v))));
        // (`to_value` makes `null` of NaN and infinities, as `From<f64>`.)
        let non_finite = ["Float(NaN)", "Float(inf)", "Float(-inf)"].iter().any(|f| format!("{v:?}").contains(f));
        if !want.contains(r#""b":1,"a":2,"b""#) && !non_finite {
            assert_eq!(format!("{:?}", jetjson::to_value(v).unwrap()), format!("{v:?}"));
        }
        assert_eq!(format!("{:?}", jetjson::to_value(&envelope(v))), format!("{:?}", jetjson::to_value(&envelope(Old(v)))));
    }
}

/// A map key that is a `Value` (a newtype key type) goes through the key
/// serializer, which sees an ordinary newtype: a string key as before,
/// anything else refused as before.
#[test]
fn values_as_map_keys() {
    #[derive(PartialEq, Eq, PartialOrd, Ord)]
    struct K(&'static str);
    impl Serialize for K {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let v = if self.0 == "num" {
                json!(12)
            } else if self.0 == "arr" {
                json!([1])
            } else {
                Value::from(self.0)
            };
            v.serialize(s)
        }
    }
    let m: BTreeMap<K, u8> = [(K("b"), 1), (K("a<"), 2), (K("num"), 3)].into();
    assert_eq!(jetjson::to_string(&m).unwrap(), r#"{"a<":2,"b":1,"12":3}"#);
    assert_eq!(jetjson::to_string_with(&m, &WriteOptions::go()).unwrap(), r#"{"12":3,"a\u003c":2,"b":1}"#);
    let bad: BTreeMap<K, u8> = [(K("arr"), 1)].into();
    assert!(jetjson::to_string(&bad).is_err());
}

// ---- soundness: foreign serializers between the door and jetjson ------------

/// What a forwarding serializer does with the first newtype struct it is
/// handed (a `Value`'s door); everything else it passes through.
trait Hook {
    fn newtype<S: Serializer, T: ?Sized + Serialize>(self, inner: S, name: &'static str, value: &T) -> Result<S::Ok, S::Error>;
}

/// A serializer in front of another that changes nothing but
/// `serialize_newtype_struct` (what a wrapper adding logging, metrics or
/// a field filter looks like).
struct Fwd<S, H> {
    inner: S,
    hook: H,
}

macro_rules! forward {
    ($($m:ident($($a:ident: $t:ty),*) -> $r:ty;)*) => {$(
        fn $m(self, $($a: $t),*) -> Result<$r, S::Error> {
            self.inner.$m($($a),*)
        }
    )*};
}

impl<S: Serializer, H: Hook> Serializer for Fwd<S, H> {
    type Ok = S::Ok;
    type Error = S::Error;
    type SerializeSeq = S::SerializeSeq;
    type SerializeTuple = S::SerializeTuple;
    type SerializeTupleStruct = S::SerializeTupleStruct;
    type SerializeTupleVariant = S::SerializeTupleVariant;
    type SerializeMap = S::SerializeMap;
    type SerializeStruct = S::SerializeStruct;
    type SerializeStructVariant = S::SerializeStructVariant;
    forward! {
        serialize_bool(v: bool) -> S::Ok;
        serialize_i8(v: i8) -> S::Ok;
        serialize_i16(v: i16) -> S::Ok;
        serialize_i32(v: i32) -> S::Ok;
        serialize_i64(v: i64) -> S::Ok;
        serialize_u8(v: u8) -> S::Ok;
        serialize_u16(v: u16) -> S::Ok;
        serialize_u32(v: u32) -> S::Ok;
        serialize_u64(v: u64) -> S::Ok;
        serialize_f32(v: f32) -> S::Ok;
        serialize_f64(v: f64) -> S::Ok;
        serialize_char(v: char) -> S::Ok;
        serialize_str(v: &str) -> S::Ok;
        serialize_bytes(v: &[u8]) -> S::Ok;
        serialize_none() -> S::Ok;
        serialize_unit() -> S::Ok;
        serialize_unit_struct(n: &'static str) -> S::Ok;
        serialize_unit_variant(n: &'static str, i: u32, v: &'static str) -> S::Ok;
        serialize_seq(l: Option<usize>) -> S::SerializeSeq;
        serialize_tuple(l: usize) -> S::SerializeTuple;
        serialize_tuple_struct(n: &'static str, l: usize) -> S::SerializeTupleStruct;
        serialize_tuple_variant(n: &'static str, i: u32, v: &'static str, l: usize) -> S::SerializeTupleVariant;
        serialize_map(l: Option<usize>) -> S::SerializeMap;
        serialize_struct(n: &'static str, l: usize) -> S::SerializeStruct;
        serialize_struct_variant(n: &'static str, i: u32, v: &'static str, l: usize) -> S::SerializeStructVariant;
    }
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<S::Ok, S::Error> {
        self.inner.serialize_some(value)
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(self, name: &'static str, value: &T) -> Result<S::Ok, S::Error> {
        self.hook.newtype(self.inner, name, value)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        n: &'static str,
        i: u32,
        v: &'static str,
        value: &T,
    ) -> Result<S::Ok, S::Error> {
        self.inner.serialize_newtype_variant(n, i, v, value)
    }
}

/// `value` serialized through `Fwd` with `hook`.
struct Via<'v, H>(H, &'v Value);

impl<H: Hook + Clone> Serialize for Via<'_, H> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.1.serialize(Fwd { inner: s, hook: self.0.clone() })
    }
}

/// A document whose error shows whether the `Value` writer wrote it: in
/// a sorted profile the writer meets "a" first, the member path (which
/// collects the members as they come, then sorts) meets "z" first.
fn probe() -> Value {
    planted(json!({"z": ["<nan>"], "a": ["<inf>"]}))
}

fn sorted() -> WriteOptions {
    WriteOptions::compact().sort_keys(true)
}

/// Whether `r` (writing `probe()` at the top level, `sorted()`) came from
/// the door.
fn door_opened(r: jetjson::Result<Vec<u8>>) -> bool {
    match r.unwrap_err().path_string().as_str() {
        "$.a[0]" => true,
        // The member path: keys named (serialize_entry) or not.
        "$.z[0]" | "$[0]" => false,
        other => panic!("unexpected path {other}"),
    }
}

#[derive(Clone)]
struct Pass;
impl Hook for Pass {
    fn newtype<S: Serializer, T: ?Sized + Serialize>(self, inner: S, name: &'static str, value: &T) -> Result<S::Ok, S::Error> {
        inner.serialize_newtype_struct(name, value)
    }
}

/// A forwarded door is still the door: the writer writes it.
#[test]
fn a_forwarded_door_opens() {
    let v = json!({"b": [1, {"c": null}], "a": "x"});
    for (profile, o) in profiles() {
        assert_eq!(outcome(jetjson::to_vec_with(&Via(Pass, &v), &o)), outcome(v.to_vec_with(&o)), "{profile}");
    }
    assert!(door_opened(jetjson::to_vec_with(&Via(Pass, &probe()), &sorted())));
}

/// Nested work on the same thread inside the door's call (another value
/// written by jetjson, a nested write that panics and is caught), then
/// the door forwarded: the nested doors closed the slot (a door never puts
/// an earlier one back, see `Close` in value/ser.rs), so the first door is
/// written member by member, with the same bytes.
#[derive(Clone)]
struct NestedFirst;
impl Hook for NestedFirst {
    fn newtype<S: Serializer, T: ?Sized + Serialize>(self, inner: S, name: &'static str, value: &T) -> Result<S::Ok, S::Error> {
        assert!(door_opened(jetjson::to_vec_with(&probe(), &sorted())));
        assert!(!door_opened(jetjson::to_vec_with(&Old(&probe()), &sorted())));
        let r = catch_unwind(|| {
            struct Boom;
            impl std::io::Write for Boom {
                fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
                    panic!("sink gave up")
                }
                fn flush(&mut self) -> std::io::Result<()> {
                    Ok(())
                }
            }
            let big = large();
            let _ = jetjson::to_writer(Boom, &Inner { v: &big });
        });
        assert!(r.is_err());
        inner.serialize_newtype_struct(name, value)
    }
}

#[test]
fn nested_writes_and_panics_inside_a_door_leave_it_closed() {
    assert!(!door_opened(jetjson::to_vec_with(&Via(NestedFirst, &probe()), &sorted())));
    let v = json!({"b": [1, 2], "a": {}});
    assert_eq!(jetjson::to_string_with(&Via(NestedFirst, &v), &WriteOptions::go()).unwrap(), r#"{"a":{},"b":[1,2]}"#);
}

/// The door handed to another jetjson writer (not the one it was handed
/// to): it is the live door, so that writer writes it, in its own options.
#[derive(Clone)]
struct Rewrite;
impl Hook for Rewrite {
    fn newtype<S: Serializer, T: ?Sized + Serialize>(self, inner: S, _: &'static str, value: &T) -> Result<S::Ok, S::Error> {
        let text = jetjson::to_string_with(value, &WriteOptions::jcs()).unwrap();
        inner.serialize_str(&text)
    }
}

#[test]
fn a_door_written_by_another_writer() {
    let v = json!({"b": 1e21, "a": [-0.0]});
    assert_eq!(jetjson::to_string(&Via(Rewrite, &v)).unwrap(), r#""{\"a\":[0],\"b\":1e+21}""#);
}

/// The door held back while another value's door is open (the other
/// value serialized into a serializer that then forwards the first door):
/// the slot names the other door, so the first is written member by
/// member, with the same bytes.
#[derive(Clone)]
struct Shadow<'o>(&'o Value);
impl Hook for Shadow<'_> {
    fn newtype<S: Serializer, T: ?Sized + Serialize>(self, inner: S, name: &'static str, value: &T) -> Result<S::Ok, S::Error> {
        self.0.serialize(Fwd { inner, hook: Held(name, value) })
    }
}

struct Held<'a, T: ?Sized>(&'static str, &'a T);
impl<T: ?Sized + Serialize> Hook for Held<'_, T> {
    fn newtype<S: Serializer, U: ?Sized + Serialize>(self, inner: S, _: &'static str, _: &U) -> Result<S::Ok, S::Error> {
        inner.serialize_newtype_struct(self.0, self.1)
    }
}

#[test]
fn a_door_forwarded_under_another_door_is_written_member_by_member() {
    let other = json!(["other"]);
    let v = json!({"b": [1, {"c": null}], "a": "x"});
    for (profile, o) in profiles() {
        assert_eq!(outcome(jetjson::to_vec_with(&Via(Shadow(&other), &v), &o)), outcome(v.to_vec_with(&o)), "{profile}");
    }
    assert!(!door_opened(jetjson::to_vec_with(&Via(Shadow(&other), &probe()), &sorted())));
    // The other value's own door forwarded from inside the first (the
    // slot names it): it opens.
    let r = jetjson::to_vec_with(&Via(ShadowPass(&probe()), &json!(1)), &sorted());
    assert!(door_opened(r));
}

#[derive(Clone)]
struct ShadowPass<'o>(&'o Value);
impl Hook for ShadowPass<'_> {
    fn newtype<S: Serializer, T: ?Sized + Serialize>(self, inner: S, _: &'static str, _: &T) -> Result<S::Ok, S::Error> {
        self.0.serialize(Fwd { inner, hook: Pass })
    }
}

/// A scoped thread serializes values with jetjson while this thread's
/// door is open: each thread has its own slot.
#[derive(Clone)]
struct Threads;
impl Hook for Threads {
    fn newtype<S: Serializer, T: ?Sized + Serialize>(self, inner: S, name: &'static str, value: &T) -> Result<S::Ok, S::Error> {
        std::thread::scope(|sc| {
            for _ in 0..2 {
                sc.spawn(|| {
                    for _ in 0..50 {
                        assert!(door_opened(jetjson::to_vec_with(&probe(), &sorted())));
                        assert_eq!(jetjson::to_vec(&Inner { v: json!([1]) }).unwrap(), br#"{"v":[1]}"#);
                    }
                });
            }
        });
        inner.serialize_newtype_struct(name, value)
    }
}

#[test]
fn threads_have_their_own_doors() {
    assert!(door_opened(jetjson::to_vec_with(&Via(Threads, &probe()), &sorted())));
}

/// A value written from a thread-local's destructor, registered after
/// jetjson's own thread-locals (torn down before them) and before them
/// (torn down after them): the same bytes as the member path.
#[test]
fn writing_from_a_thread_local_destructor() {
    struct OnExit(std::sync::mpsc::Sender<(String, String)>);
    impl Drop for OnExit {
        fn drop(&mut self) {
            let r = catch_unwind(|| {
                let v = json!({"b": [1, {"z": 0, "y": "<"}], "a": null});
                let o = WriteOptions::go().indent(2);
                let door = outcome(jetjson::to_vec_with(&Outer { inner: Inner { v: &v } }, &o));
                let old = outcome(jetjson::to_vec_with(&Outer { inner: Inner { v: Old(&v) } }, &o));
                (door, old)
            });
            let _ = self.0.send(r.unwrap_or_else(|_| ("panicked".into(), String::new())));
        }
    }
    thread_local! {
        static EXIT: std::cell::RefCell<Option<OnExit>> = const { std::cell::RefCell::new(None) };
    }
    for jetjson_first in [true, false] {
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            if jetjson_first {
                let _ = jetjson::to_vec(&Inner { v: probe() });
            }
            EXIT.with(|e| *e.borrow_mut() = Some(OnExit(tx)));
            let _ = jetjson::to_vec(&Inner { v: probe() });
        })
        .join()
        .unwrap();
        let (door, old) = rx.recv().unwrap();
        assert_eq!(door, old, "{jetjson_first}");
        assert!(door.contains("\\u003c"), "{door}");
    }
}

/// Writers that fail at every write call of a long stream (an error, then
/// a panic), with values in typed structs: afterwards the door opens for
/// the next value and nothing is left of the aborted ones.
#[test]
fn a_sink_failing_at_every_point() {
    struct FailAt {
        n: usize,
        panic: bool,
    }
    impl std::io::Write for FailAt {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            if self.n == 0 {
                if self.panic {
                    panic!("sink panics");
                }
                return Err(std::io::Error::other("sink fails"));
            }
            self.n -= 1;
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let big = large();
    let doc = Outer { inner: Inner { v: vec![&big, &big] } };
    let mut sink = Vec::new();
    jetjson::to_writer(&mut sink, &doc).unwrap();
    let writes = sink.len() / (32 << 10) + 2;
    for n in 0..writes {
        for panic in [false, true] {
            let r = catch_unwind(AssertUnwindSafe(|| jetjson::to_writer(FailAt { n, panic }, &doc)));
            match r {
                Ok(r) => assert!(r.is_err() || n + 1 >= writes, "{n}"),
                Err(_) => assert!(panic),
            }
            assert!(door_opened(jetjson::to_vec_with(&probe(), &sorted())));
            assert!(door_opened(jetjson::to_vec_with(&Via(Pass, &probe()), &sorted())));
        }
    }
}

/// A serializer that stores what it is given (`Content`: serde buffers
/// the fields of a flattened struct variant, then replays them) gives
/// jetjson a copy, not the door: the members, with the same bytes.
#[test]
fn buffered_content_is_written_as_members() {
    let v = json!({"b": [1, {"c": null}], "a": "x"});
    for (profile, o) in profiles() {
        let door = outcome(jetjson::to_vec_with(&FlatVariant { id: 1, e: External::S { v: &v, n: 2 } }, &o));
        let old = outcome(jetjson::to_vec_with(&FlatVariant { id: 1, e: External::S { v: Old(&v), n: 2 } }, &o));
        assert_eq!(door, old, "{profile}");
    }
    let probe = probe();
    let r = jetjson::to_vec(&FlatVariant { id: 1, e: External::S { v: &probe, n: 2 } });
    assert!(r.is_err());
}
/// Something at the door's address, of the door's size, that is not the
/// door: a `#[repr(transparent)]` wrapper around it, made from `&T` as the
/// `ref-cast` crate makes it (`RefCast::ref_cast`, a safe function; the
/// cast below is the one its derive generates). serde hands a serializer
/// `&T` with `T: ?Sized`, so without such a wrapper a serializer cannot
/// make a new type of the door (`slice::from_ref` needs `T: Sized`).
///
/// The wrapper serializes as `["wrapped", inner]`; the door must not take
/// it for itself. Not undefined behaviour (the bytes are the door's), but
/// the wrong JSON.
#[repr(transparent)]
struct Wrapped<T: ?Sized>(T);

impl<T: ?Sized> Wrapped<T> {
    fn ref_cast(t: &T) -> &Wrapped<T> {
        // SAFETY: `Wrapped<T>` is `repr(transparent)` over `T` (what
        // `#[derive(RefCast)]` checks and emits).
        unsafe { &*(t as *const T as *const Wrapped<T>) }
    }
}

impl<T: ?Sized + Serialize> Serialize for Wrapped<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeTuple;
        let mut t = s.serialize_tuple(2)?;
        t.serialize_element("wrapped")?;
        t.serialize_element(&self.0)?;
        t.end()
    }
}

#[derive(Clone)]
struct Wrap;
impl Hook for Wrap {
    fn newtype<S: Serializer, T: ?Sized + Serialize>(self, inner: S, name: &'static str, value: &T) -> Result<S::Ok, S::Error> {
        inner.serialize_newtype_struct(name, Wrapped::ref_cast(value))
    }
}

#[test]
fn a_transparent_wrapper_of_the_door_is_not_the_door() {
    let v = json!({"b": [1], "a": 2});
    let want = format!(r#"["wrapped",{}]"#, v.to_string_with(&WriteOptions::go()).unwrap());
    assert_eq!(jetjson::to_string_with(&Via(Wrap, &v), &WriteOptions::go()).unwrap(), want);
    assert_eq!(serde_json::to_string(&Via(Wrap, &v)).unwrap(), r#"["wrapped",{"b":[1],"a":2}]"#);
}

/// A value under a typed map: the map's key is part of the place. The
/// writer's path below the value must not hang directly under the
/// enclosing field as if the map's key were not there (`$.v.a[1]` names a
/// member `a` of `v`, which does not exist).
#[test]
fn errors_under_a_typed_map_name_the_key() {
    let v = planted(json!({"z": 1, "a": [1, "<nan>"]}));
    for o in [WriteOptions::compact(), WriteOptions::compact().sort_keys(true), WriteOptions::go()] {
        let map: BTreeMap<&str, &Value> = [("m", &v)].into();
        assert_eq!(jetjson::to_vec_with(&Inner { v: &map }, &o).unwrap_err().path_string(), "$.v.m.a[1]");
        assert_eq!(jetjson::to_vec_with(&map, &o).unwrap_err().path_string(), "$.m.a[1]");
        let hmap: HashMap<String, &Value> = [("k k".to_string(), &v)].into();
        assert_eq!(jetjson::to_vec_with(&hmap, &o).unwrap_err().path_string(), r#"$["k k"].a[1]"#);
        let imap: BTreeMap<i32, &Value> = [(-3, &v)].into();
        assert_eq!(jetjson::to_vec_with(&vec![imap], &o).unwrap_err().path_string(), r#"$[0]["-3"].a[1]"#);
        // The member path (a `Value` other serializers see) names them too.
        let old: BTreeMap<&str, Old> = [("m", Old(&v))].into();
        assert_eq!(jetjson::to_vec_with(&Inner { v: &old }, &o).unwrap_err().path_string(), "$.v.m.a[1]");
        // Flattened map members.
        let flat = FlatValue { id: 1, rest: map };
        assert_eq!(jetjson::to_vec_with(&flat, &o).unwrap_err().path_string(), "$.m.a[1]");
    }
}
