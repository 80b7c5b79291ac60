//! The `Value` API a serde_json user reaches for: `json!`, indexing that
//! reads and writes, `get_mut`, JSON Pointer, `take`, the type tests and
//! views, comparisons with primitives, `FromStr`, and `Number`'s
//! constructors. Where serde_json defines the behaviour, the test checks
//! jetjson against serde_json itself on the same input.

use jetjson::{json, Array, Map, Number, Str, Value};

/// The same document through serde_json's `Value`, for comparing results.
fn sj(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap()
}

fn jt(text: &str) -> Value {
    text.parse().unwrap()
}

#[test]
fn json_macro_builds_the_same_tree_as_parsing_the_same_text() {
    let x = 7;
    let name = String::from("jet");
    let v = json!({
        "null": null, "t": true, "f": false,
        "n": -12, "f64": 2.5e-3, "s": "text \" with \\ escapes",
        "empty_a": [], "empty_o": {},
        "nested": [[1, [2, [3]]], {"a": {"b": [null, true, false]}}],
        "expr": x * 6,
        "neg": -x,
        "cmp": x > 3 && x < 10,
        "owned": name,
        "trailing": [1, 2,],
    });
    let text = r#"{"null":null,"t":true,"f":false,"n":-12,"f64":0.0025,"s":"text \" with \\ escapes",
        "empty_a":[],"empty_o":{},"nested":[[1,[2,[3]]],{"a":{"b":[null,true,false]}}],
        "expr":42,"neg":-7,"cmp":true,"owned":"jet","trailing":[1,2]}"#;
    assert_eq!(v, jt(text));
    // Member order is the order written.
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(|k| k.as_str()).collect();
    assert_eq!(keys[..4], ["null", "t", "f", "n"]);
    // `name` was moved as a key? No: it was a value, borrowed.
    assert_eq!(name, "jet");
}

#[test]
fn json_macro_names_can_be_literals_variables_or_expressions() {
    let key = "from_var";
    let n = 3;
    let v = json!({
        key: 1,
        (format!("k{n}")): 2,
        ('c'): 3,
        "dup": 4,
        "dup": 5,
    });
    assert_eq!(v, jt(r#"{"from_var":1,"k3":2,"c":3,"dup":5}"#));
}

#[test]
fn json_macro_takes_long_literal_arrays_and_mixed_runs() {
    // 200 items, some of two tokens (`-n`): within the default recursion
    // limit only because runs of one-token items are taken eight at a time.
    let v = json!([
        0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34,
        35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67,
        68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96, 97, 98, 99,
        -100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 116, 117, 118, 119, -120, 121, 122, 123, 124, 125,
        126, 127, 128, 129, 130, 131, 132, 133, 134, 135, 136, 137, 138, 139, -140, 141, 142, 143, 144, 145, 146, 147, 148, 149, 150, 151,
        152, 153, 154, 155, 156, 157, 158, 159, -160, 161, 162, 163, 164, 165, 166, 167, 168, 169, 170, 171, 172, 173, 174, 175, 176, 177,
        178, 179, -180, 181, 182, 183, 184, 185, 186, 187, 188, 189, 190, 191, 192, 193, 194, 195, 196, 197, 198, 199
    ]);
    let items = v.as_array().unwrap();
    assert_eq!(items.len(), 200);
    assert!(items.iter().enumerate().all(|(i, item)| *item == if i >= 100 && i % 20 == 0 { -(i as i64) } else { i as i64 }));

    let x = 5;
    let v = json!([1, "two", -3.5, true, null, x, [x], {"x": x}, 9, 10, -x, 12, 13, 14, 15, 16, 17]);
    assert_eq!(v, jt(r#"[1,"two",-3.5,true,null,5,[5],{"x":5},9,10,-5,12,13,14,15,16,17]"#));
}

#[test]
fn json_macro_interpolates_any_serialize_value() {
    #[derive(serde::Serialize)]
    struct Point {
        x: i32,
        y: i32,
    }
    let p = Point { x: 1, y: -2 };
    let list = vec![Some(1), None];
    let v = json!({"p": p, "list": list, "big": u128::MAX});
    assert_eq!(v.to_string(), r#"{"p":{"x":1,"y":-2},"list":[1,null],"big":340282366920938463463374607431768211455}"#);
}

#[test]
#[should_panic(expected = "json!: a value that cannot be represented as JSON")]
fn json_macro_panics_on_a_value_that_is_not_json() {
    let mut m = std::collections::BTreeMap::new();
    m.insert(vec![1u8], 1);
    let _ = json!({ "m": m });
}

#[test]
fn index_reads_like_serde_json() {
    let text = r#"{"a":[10,{"b":"x"}],"n":null,"s":"str"}"#;
    let (v, s) = (jt(text), sj(text));
    let json_of = |v: &Value| v.to_string();
    for path in [&["a"][..], &["a", "1", "b"], &["missing"], &["missing", "deeper"], &["s", "0"], &["n", "x"]] {
        let mut a = &v;
        let mut b = &s;
        for step in path {
            match step.parse::<usize>() {
                Ok(i) => {
                    a = &a[i];
                    b = &b[i];
                }
                Err(_) => {
                    a = &a[*step];
                    b = &b[*step];
                }
            }
        }
        assert_eq!(json_of(a), b.to_string(), "{path:?}");
    }
    // Indexing a string or number by position reads null, as serde_json does.
    assert!(v["s"][0].is_null() && s["s"][0].is_null());
    assert!(v["a"][99].is_null());
    // `&String` and `String` index too.
    let key = String::from("s");
    assert_eq!(v[&key], "str");
    assert_eq!(v[key.clone()], "str");
}

#[test]
fn index_mut_inserts_members_like_serde_json() {
    let mut v = json!(null);
    let mut s = serde_json::Value::Null;
    v["a"]["b"] = json!(1);
    s["a"]["b"] = serde_json::json!(1);
    v["a"]["c"] = json!([1, 2]);
    s["a"]["c"] = serde_json::json!([1, 2]);
    v["a"]["c"][0] = json!("first");
    s["a"]["c"][0] = serde_json::json!("first");
    v["a"]["b"] = json!({"replaced": true});
    s["a"]["b"] = serde_json::json!({"replaced": true});
    assert_eq!(v.to_string(), s.to_string());
    // A replaced member keeps its place.
    let keys: Vec<&Str> = v["a"].as_object().unwrap().keys().collect();
    assert_eq!(keys, ["b", "c"]);
}

#[test]
fn index_mut_on_a_parsed_document_copies_out_of_its_arena() {
    let text = r#"{"list":[1,2,3],"inner":{"name":"a string longer than twenty-two bytes"}}"#;
    let mut v = jt(text);
    let copy = v.clone();
    v["list"][1] = json!("two");
    v["inner"]["added"] = json!(true);
    assert_eq!(v, jt(r#"{"list":[1,"two",3],"inner":{"name":"a string longer than twenty-two bytes","added":true}}"#));
    // The clone shared the arena and still sees the document as parsed.
    assert_eq!(copy, jt(text));
}

#[test]
#[should_panic(expected = "cannot index \"a\" into a JSON array")]
fn index_mut_by_name_into_an_array_panics() {
    let mut v = json!([1]);
    v["a"] = json!(1);
}

#[test]
#[should_panic(expected = "cannot index 3 into a JSON array of length 1")]
fn index_mut_past_the_end_panics() {
    let mut v = json!([1]);
    v[3] = json!(1);
}

#[test]
#[should_panic(expected = "cannot index 0 into a JSON object")]
fn index_mut_by_position_into_an_object_panics() {
    let mut v = json!({});
    v[0] = json!(1);
}

#[test]
fn get_and_get_mut_never_insert_or_panic() {
    let mut v = json!({"a": [1, 2], "s": "x"});
    assert_eq!(v.get("a").and_then(|a| a.get(1)), Some(&json!(2)));
    assert_eq!(v.get(0), None);
    assert_eq!(v.get("s").and_then(|s| s.get(0)), None);
    assert!(v.get_mut("missing").is_none());
    assert!(v.get_mut("a").and_then(|a| a.get_mut(2)).is_none());
    *v.get_mut("a").unwrap().get_mut(0).unwrap() = json!(-1);
    assert_eq!(v, json!({"a": [-1, 2], "s": "x"}));
}

#[test]
fn pointer_follows_rfc_6901_like_serde_json() {
    // RFC 6901 section 5's document and pointers, plus malformed ones.
    let text = r#"{"foo":["bar","baz"],"":0,"a/b":1,"c%d":2,"e^f":3,"g|h":4,"i\\j":5,"k\"l":6," ":7,"m~n":8,"arr":[[0,1],[2]]}"#;
    let (v, s) = (jt(text), sj(text));
    let pointers = [
        "",
        "/foo",
        "/foo/0",
        "/foo/1",
        "/foo/2",
        "/",
        "/a~1b",
        "/c%d",
        "/e^f",
        "/g|h",
        "/i\\j",
        "/k\"l",
        "/ ",
        "/m~0n",
        "/arr/1/0",
        "/foo/01",
        "/foo/-",
        "/foo/+1",
        "/foo/ 1",
        "foo",
        "/m~2n",
        "/m~",
        "/missing/x",
        "/arr/0/1/2",
        "/foo/18446744073709551616",
    ];
    for p in pointers {
        let ours = v.pointer(p).map(|x| sj(&x.to_string()));
        assert_eq!(ours.as_ref(), s.pointer(p), "pointer {p:?}");
    }
    let mut v = v;
    *v.pointer_mut("/arr/0/1").unwrap() = json!("one");
    *v.pointer_mut("/m~0n").unwrap() = json!(null);
    assert!(v.pointer_mut("/arr/5").is_none());
    assert_eq!(v["arr"], json!([[0, "one"], [2]]));
    assert!(v["m~n"].is_null());
}

#[test]
fn take_leaves_null() {
    let mut v = jt(r#"{"a":{"b":[1,2]}}"#);
    let b = v["a"]["b"].take();
    assert_eq!(b, json!([1, 2]));
    assert_eq!(v, json!({"a": {"b": null}}));
    assert_eq!(v.take(), json!({"a": {"b": null}}));
    assert!(v.is_null());
}

#[test]
fn type_tests_and_views_agree_with_serde_json() {
    let text = r#"[null,true,0,-1,18446744073709551615,1.5,-0.0,1e300,"s",[1],{"a":1},18446744073709551616,-9223372036854775809]"#;
    let (v, s) = (jt(text), sj(text));
    for (i, (a, b)) in v.as_array().unwrap().iter().zip(s.as_array().unwrap()).enumerate() {
        assert_eq!(a.is_null(), b.is_null(), "{i}");
        assert_eq!(a.as_null(), b.as_null(), "{i}");
        assert_eq!(a.is_boolean(), b.is_boolean(), "{i}");
        assert_eq!(a.as_bool(), b.as_bool(), "{i}");
        assert_eq!(a.is_string(), b.is_string(), "{i}");
        assert_eq!(a.as_str(), b.as_str(), "{i}");
        assert_eq!(a.is_array(), b.is_array(), "{i}");
        assert_eq!(a.is_object(), b.is_object(), "{i}");
        assert_eq!(a.is_number(), b.is_number(), "{i}");
        if i < 11 {
            // serde_json without arbitrary_precision reads the last two as
            // doubles; jetjson keeps their digits (checked below).
            assert_eq!(a.is_i64(), b.is_i64(), "{i}");
            assert_eq!(a.is_u64(), b.is_u64(), "{i}");
            assert_eq!(a.is_f64(), b.is_f64(), "{i}");
            assert_eq!(a.as_i64(), b.as_i64(), "{i}");
            assert_eq!(a.as_u64(), b.as_u64(), "{i}");
            assert_eq!(a.as_f64().map(f64::to_bits), b.as_f64().map(f64::to_bits), "{i}");
        }
    }
    // Integers beyond 64 bits: neither i64 nor u64, a double all the same,
    // and exact through `Number::as_i128`.
    let big = &v[11];
    assert!(!big.is_i64() && !big.is_u64() && big.is_f64());
    assert_eq!(big.as_f64(), Some(18446744073709551616.0));
    assert_eq!(big.as_number().unwrap().as_i128(), Some(1i128 << 64));
    assert_eq!(v[12].as_number().unwrap().as_i128(), Some(i128::from(i64::MIN) - 1));
    assert_eq!(v[12].as_number().unwrap().as_u128(), None);
}

#[test]
fn mutable_views_change_the_value() {
    let mut v = jt(r#"{"a":[1],"o":{"k":1},"b":true,"n":1}"#);
    v["a"].as_array_mut().unwrap().push(json!(2));
    v["o"].as_object_mut().unwrap().insert("k2", json!(2));
    *v["b"].as_bool_mut().unwrap() = false;
    *v["n"].as_number_mut().unwrap() = Number::from(u64::MAX);
    assert!(v["a"].as_object_mut().is_none() && v["o"].as_array_mut().is_none() && v["n"].as_bool_mut().is_none());
    assert_eq!(v.to_string(), r#"{"a":[1,2],"o":{"k":1,"k2":2},"b":false,"n":18446744073709551615}"#);
}

#[test]
fn comparisons_with_primitives_follow_serde_json() {
    let text = r#"{"name":"jet","i":-3,"u":18446744073709551615,"f":1.5,"whole":2.0,"t":true,"z":0,"big":18446744073709551616}"#;
    let (v, s) = (jt(text), sj(text));
    macro_rules! same {
        ($key:literal, $($other:expr),+) => {$(
            assert_eq!(v[$key] == $other, s[$key] == $other, "{} == {:?}", $key, $other);
            assert_eq!($other == v[$key], $other == s[$key], "{:?} == {}", $other, $key);
        )+};
    }
    same!("name", "jet", "jeT", String::from("jet"));
    same!("i", -3, -3i8, -3i64, -3isize, 3u8, -3.0);
    same!("u", u64::MAX, usize::MAX, -1i64, 1.8446744073709552e19);
    same!("f", 1.5, 1.5f32, 1, 2);
    same!("whole", 2, 2u64, 2.0, 2.0f32);
    same!("t", true, false, 1);
    same!("z", 0, 0u8, 0.0, -0.0, false);
    let jet: &str = "jet";
    assert!(v["name"] == *jet);
    assert!(*jet == v["name"]);
    // `&Value` and `&mut Value` compare too.
    let r = &v["i"];
    assert!(r == -3);
    let mut m = v.clone();
    let mr = &mut m["t"];
    assert!(mr == true);
    // Beyond 64 bits: no 64-bit integer equals it; its double does.
    assert!(v["big"] != 0u64 && v["big"] != u64::MAX && v["big"] == 18446744073709551616.0);
    // Values of other types never equal.
    assert!(v["name"] != 0 && v["i"] != "-3" && v["missing"] != false);
}

#[test]
fn parse_from_str_reads_one_document() {
    let v: Value = " [1, {\"a\": \"b\"}] \n".parse().unwrap();
    assert_eq!(v, json!([1, {"a": "b"}]));
    for (bad, line, column) in [("[1,]", 1, 4), ("[1] x", 1, 5), ("{\n\"a\" 1}", 2, 5), ("", 1, 1)] {
        let e = bad.parse::<Value>().unwrap_err();
        assert_eq!((e.line(), e.column()), (line, column), "{bad:?}: {e}");
    }
}

#[test]
fn number_constructors_and_views() {
    assert_eq!(Number::from_f64(0.1).unwrap().as_f64(), Some(0.1));
    for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        assert!(Number::from_f64(bad).is_none());
        assert!(serde_json::Number::from_f64(bad).is_none());
    }
    for i in [0i128, -1, i128::from(i64::MIN), i128::from(u64::MAX), i128::from(u64::MAX) + 1, i128::MIN, i128::MAX] {
        let n = Number::from_i128(i).unwrap();
        assert_eq!(n.to_string(), i.to_string());
        assert_eq!(n.as_i128(), Some(i));
        assert_eq!(n.is_i64(), i64::try_from(i).is_ok(), "{i}");
        assert_eq!(n.is_u64(), u64::try_from(i).is_ok(), "{i}");
    }
    assert_eq!(Number::from_u128(u128::MAX).unwrap().as_u128(), Some(u128::MAX));
    assert_eq!(Number::from(u64::MAX), Number::UInt(u64::MAX));
    assert_eq!(Number::from(-5i8), Number::Int(-5));
    assert_eq!(Number::from(7usize), Number::Int(7));
    // `FromStr` reads a number as the parser does; `from_literal` keeps text.
    assert_eq!("-0".parse::<Number>().unwrap().as_f64().map(f64::to_bits), Some((-0.0f64).to_bits()));
    assert_eq!("100000000000000000000".parse::<Number>().unwrap().as_i128(), Some(100_000_000_000_000_000_000));
    assert!("1e400".parse::<Number>().is_err());
    assert!("[1]".parse::<Number>().is_err());
    assert!(" 12 ".parse::<Number>().is_ok());
    assert_eq!(Number::from_literal("1.50").unwrap().to_string(), "1.50");
    assert!(Number::from_literal("+1").is_none());
}

#[test]
fn maps_arrays_and_strings_build_values() {
    let mut m = Map::new();
    m.insert("k", json!(1));
    let a: Array = vec![json!(1), json!("x")].into();
    let v = json!({"m": m, "a": a, "s": Str::from("inline")});
    assert_eq!(v.to_string(), r#"{"m":{"k":1},"a":[1,"x"],"s":"inline"}"#);
    assert_eq!(Value::from(i128::MIN).to_string(), i128::MIN.to_string());
}

/// NaN and ±Infinity, which JSON has no literal for, become `null` in
/// `json!`, `to_value`, `From<f64>`/`From<f32>` and a `Value` read from
/// another format, as in serde_json (checked against it); `Number::from_f64`
/// still refuses them. Such a value then displays, and equals itself.
#[test]
fn non_finite_floats_become_null_as_in_serde_json() {
    for x in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        let v = json!({"r": x, "a": [x, (x as f32)], "ok": 0.5});
        let s = serde_json::json!({"r": x, "a": [x, (x as f32)], "ok": 0.5});
        assert_eq!(sj(&v.to_string()), s);
        assert_eq!(v.to_string(), r#"{"r":null,"a":[null,null],"ok":0.5}"#);
        assert!(v == v.clone());
        assert_eq!(jetjson::to_value(&x).unwrap(), Value::Null);
        assert_eq!(jetjson::to_value(&(x as f32)).unwrap(), Value::Null);
        assert_eq!(serde_json::to_value(x).unwrap(), serde_json::Value::Null);
        assert_eq!(Value::from(x), Value::Null);
        assert_eq!(Value::from(x as f32), Value::Null);
        assert!(Number::from_f64(x).is_none());
        // Through `Value`'s `Deserialize` (a format that has NaN hands it
        // over as `visit_f64`).
        let d: Value = serde::Deserialize::deserialize(serde::de::value::F64Deserializer::<serde::de::value::Error>::new(x)).unwrap();
        assert_eq!(d, Value::Null);
    }
    assert_eq!(Value::from(0.5f32), 0.5);
}
