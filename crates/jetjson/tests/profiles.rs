//! Every byte rule of ../shared/spec/output-rules.md, profile by profile.
//! Expected bytes are written out from the spec's rules and examples.

use std::collections::{BTreeMap, HashMap};

use jetjson::{ByteStr, ErrorKind, NonFinite, Number, RawJson, Value, WriteOptions};
use serde::Serialize;

fn go<T: ?Sized + Serialize>(v: &T) -> String {
    jetjson::to_string_with(v, &WriteOptions::go()).unwrap()
}
fn go_no_html<T: ?Sized + Serialize>(v: &T) -> String {
    jetjson::to_string_with(v, &WriteOptions::go().escape_html(false)).unwrap()
}
fn jcs<T: ?Sized + Serialize>(v: &T) -> String {
    jetjson::to_string_with(v, &WriteOptions::jcs()).unwrap()
}
fn compact<T: ?Sized + Serialize>(v: &T) -> String {
    jetjson::to_string(v).unwrap()
}
fn go_bytes(b: &[u8]) -> String {
    go(&ByteStr(b))
}

// ---- go: strings (spec 1.1) ---------------------------------------------

#[test]
fn go_escapes_quote_backslash_and_short_controls() {
    assert_eq!(go("\"\\"), r#""\"\\""#);
    assert_eq!(go("\u{8}\u{c}\n\r\t"), r#""\b\f\n\r\t""#);
}

#[test]
fn go_other_controls_are_lowercase_u00xx() {
    assert_eq!(go("\u{0}\u{1}\u{1f}\u{b}\u{e}"), r#""\u0000\u0001\u001f\u000b\u000e""#);
}

#[test]
fn go_html_set_and_line_separators() {
    assert_eq!(go("<a href='x'>&amp;</a>"), r#""\u003ca href='x'\u003e\u0026amp;\u003c/a\u003e""#);
    assert_eq!(go("\u{2028}\u{2029}"), r#""\u2028\u2029""#);
    // SetEscapeHTML(false): <>& raw, U+2028/9 still escaped.
    assert_eq!(go_no_html("<&>\u{2028}\u{2029}"), "\"<&>\\u2028\\u2029\"");
}

#[test]
fn go_leaves_del_slash_and_other_non_ascii_raw() {
    assert_eq!(go("\u{7f}/\u{85}\u{feff}é€😀\u{fffd}\u{2027}\u{202a}"), "\"\u{7f}/\u{85}\u{feff}é€😀\u{fffd}\u{2027}\u{202a}\"");
}

#[test]
fn go_replaces_each_invalid_byte_with_ufffd() {
    assert_eq!(go_bytes(b"a\xffb"), r#""a\ufffdb""#);
    assert_eq!(go_bytes(b"\xe2\x82"), r#""\ufffd\ufffd""#);
    assert_eq!(go_bytes(b"\xf0\x9f\x98"), r#""\ufffd\ufffd\ufffd""#);
    assert_eq!(go_bytes(b"\xed\xa0\x80"), r#""\ufffd\ufffd\ufffd""#);
    assert_eq!(go_bytes(b"\xc0\xaf"), r#""\ufffd\ufffd""#);
    // A valid U+FFFD stays as its raw bytes, and valid text around bad bytes
    // keeps the profile's escapes.
    assert_eq!(go_bytes("\u{fffd}".as_bytes()), "\"\u{fffd}\"");
    assert_eq!(go_bytes(b"<\xff\xe2\x80\xa8"), r#""\u003c\ufffd\u2028""#);
}

#[test]
fn invalid_text_is_an_error_outside_go() {
    for opts in [WriteOptions::compact(), WriteOptions::jcs()] {
        let err = jetjson::to_vec_with(&ByteStr(b"a\xff"), &opts).unwrap_err();
        assert!(matches!(err.kind(), ErrorKind::InvalidText { .. }), "{err}");
    }
    assert_eq!(compact(&ByteStr("ok".as_bytes())), r#""ok""#);
}

#[test]
fn go_writes_byte_slices_as_padded_base64() {
    #[derive(Serialize)]
    struct B<'a> {
        #[serde(with = "bytes_as_bytes")]
        b: &'a [u8],
    }
    mod bytes_as_bytes {
        pub fn serialize<S: serde::Serializer>(b: &&[u8], s: S) -> Result<S::Ok, S::Error> {
            s.serialize_bytes(b)
        }
    }
    assert_eq!(go(&B { b: b"hi?>" }), r#"{"b":"aGk/Pg=="}"#);
    assert_eq!(go(&B { b: b"" }), r#"{"b":""}"#);
    // serde_json writes bytes as an array of numbers; compact follows it.
    assert_eq!(compact(&B { b: b"hi" }), r#"{"b":[104,105]}"#);
}

#[test]
fn go_map_keys_go_through_the_same_escaping() {
    let mut m = BTreeMap::new();
    m.insert("<", 1);
    assert_eq!(go(&m), r#"{"\u003c":1}"#);
}

// ---- go: numbers (spec 1.2) ---------------------------------------------

#[test]
fn go_float_layout() {
    let cases: &[(f64, &str)] = &[
        (1e20, "100000000000000000000"),
        (1e21, "1e+21"),
        (1e-6, "0.000001"),
        (1e-7, "1e-7"),
        (1.234e-7, "1.234e-7"),
        (5e-324, "5e-324"),
        (100.0, "100"),
        (0.1 + 0.2, "0.30000000000000004"),
        (1.2345678901234568e20, "123456789012345680000"),
        (-0.0, "-0"),
        (1.5e300, "1.5e+300"),
    ];
    for (v, want) in cases {
        assert_eq!(go(v), *want, "{v:e}");
    }
    assert_eq!(go(&0.1f32), "0.1");
    assert_eq!(go(&3.4028235e38f32), "3.4028235e+38");
}

#[test]
fn nan_and_infinity_are_errors_in_go_and_jcs() {
    for v in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        for opts in [WriteOptions::go(), WriteOptions::jcs(), WriteOptions::compact()] {
            let err = jetjson::to_vec_with(&v, &opts).unwrap_err();
            assert!(matches!(err.kind(), ErrorKind::NonFiniteFloat { .. }), "{err}");
        }
        // Only compact may write them, as null, on request.
        let null = WriteOptions::compact().non_finite(NonFinite::Null);
        assert_eq!(jetjson::to_string_with(&v, &null).unwrap(), "null");
        let still_error = WriteOptions::go().non_finite(NonFinite::Null);
        assert!(jetjson::to_vec_with(&v, &still_error).is_err());
    }
}

#[test]
fn error_message_names_value_profile_and_path() {
    #[derive(Serialize)]
    struct Item {
        price: f64,
    }
    #[derive(Serialize)]
    struct Order {
        items: Vec<Item>,
    }
    let order = Order { items: vec![Item { price: 1.0 }, Item { price: 2.0 }, Item { price: 3.0 }, Item { price: f64::NAN }] };
    let err = jetjson::to_vec_with(&order, &WriteOptions::go()).unwrap_err();
    assert_eq!(err.to_string(), "$.items[3].price: NaN is not allowed in profile \"go\"");
}

#[test]
fn integers_are_exact_over_64_bits() {
    assert_eq!(go(&i64::MAX), "9223372036854775807");
    assert_eq!(go(&i64::MIN), "-9223372036854775808");
    assert_eq!(go(&u64::MAX), "18446744073709551615");
    assert_eq!(compact(&i128::MIN), "-170141183460469231731687303715884105728");
    assert_eq!(compact(&u128::MAX), "340282366920938463463374607431768211455");
    // Integers are exact at any size in go too, as Go writes a *big.Int:
    // 128-bit values, and the same digits as the literal text of a Value.
    assert_eq!(go(&(u64::MAX as u128)), "18446744073709551615");
    assert_eq!(go(&(u64::MAX as u128 + 1)), "18446744073709551616");
    assert_eq!(go(&i128::MIN), "-170141183460469231731687303715884105728");
    assert_eq!(go(&u128::MAX), "340282366920938463463374607431768211455");
    let text = Value::Number(Number::from_literal("-170141183460469231731687303715884105728").unwrap());
    assert_eq!(text.to_string_with(&WriteOptions::go()).unwrap(), go(&i128::MIN));
    // jcs: the nearest double, or an error with strict integers.
    assert_eq!(jetjson::to_string_with(&u128::MAX, &WriteOptions::jcs()).unwrap(), "3.402823669209385e+38");
    assert!(matches!(
        jetjson::to_vec_with(&(u64::MAX as u128 + 1), &WriteOptions::jcs().jcs_strict_integers(true)).unwrap_err().kind(),
        ErrorKind::NumberOutOfRange { .. }
    ));
}

#[test]
fn big_number_text_is_written_as_given_in_go_and_compact() {
    let big = Value::Number(Number::from_literal("123456789012345678901234567890").unwrap());
    assert_eq!(big.to_string_with(&WriteOptions::go()).unwrap(), "123456789012345678901234567890");
    assert_eq!(big.to_string_with(&WriteOptions::compact()).unwrap(), "123456789012345678901234567890");
    assert_eq!(big.to_string_with(&WriteOptions::jcs()).unwrap(), "1.2345678901234568e+29");
    let kept = Value::Number(Number::from_literal("1.0e+02").unwrap());
    assert_eq!(kept.to_string_with(&WriteOptions::go()).unwrap(), "1.0e+02");
    assert_eq!(kept.to_string_with(&WriteOptions::jcs()).unwrap(), "100");
    assert!(Number::from_literal("abc").is_none());
    assert!(Value::Number(Number::Big("abc".into())).to_vec_with(&WriteOptions::go()).is_err());
}

// ---- go: objects and arrays (spec 1.3) ----------------------------------

#[test]
fn go_sorts_maps_by_utf8_bytes_and_int_keys_as_strings() {
    let m: HashMap<i32, &str> = [(10, "a"), (2, "b"), (-1, "c"), (1, "d")].into_iter().collect();
    assert_eq!(go(&m), r#"{"-1":"c","1":"d","10":"a","2":"b"}"#);
    // U+E000 before U+10000 in UTF-8 byte order (the reverse of UTF-16 order).
    let m: HashMap<&str, i32> = [("\u{10000}", 1), ("\u{e000}", 2), ("B", 3), ("a", 4)].into_iter().collect();
    assert_eq!(go(&m), "{\"B\":3,\"a\":4,\"\u{e000}\":2,\"\u{10000}\":1}");
}

#[test]
fn go_keeps_struct_field_declaration_order_and_sorts_nested_maps() {
    #[derive(Serialize)]
    struct Manifest {
        #[serde(rename = "schemaVersion")]
        schema_version: u32,
        #[serde(rename = "mediaType")]
        media_type: &'static str,
        annotations: BTreeMap<&'static str, &'static str>,
        zeta: bool,
        alpha: Option<u8>,
    }
    let m = Manifest {
        schema_version: 2,
        media_type: "application/vnd.oci.image.manifest.v1+json",
        annotations: [("z", "1"), ("a", "<2>")].into_iter().collect(),
        zeta: true,
        alpha: None,
    };
    assert_eq!(
        go(&m),
        r#"{"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json","annotations":{"a":"\u003c2\u003e","z":"1"},"zeta":true,"alpha":null}"#
    );
    // sort_keys(true) sorts structs too; sort_keys(false) keeps map order.
    let sorted = jetjson::to_string_with(&m, &WriteOptions::go().sort_keys(true)).unwrap();
    assert!(sorted.starts_with(r#"{"alpha":null,"annotations":"#), "{sorted}");
    let v = Value::from_slice(br#"{"b":1,"a":2}"#).unwrap();
    assert_eq!(v.to_string_with(&WriteOptions::go()).unwrap(), r#"{"a":2,"b":1}"#);
    assert_eq!(v.to_string_with(&WriteOptions::go().sort_keys(false)).unwrap(), r#"{"b":1,"a":2}"#);
}

#[test]
fn empty_and_nested_containers() {
    let v = Value::from_slice(br#"{"a":[],"b":{},"c":[[]],"d":[{}]}"#).unwrap();
    assert_eq!(v.to_string_with(&WriteOptions::go()).unwrap(), r#"{"a":[],"b":{},"c":[[]],"d":[{}]}"#);
    let none: Option<Vec<u8>> = None;
    assert_eq!(go(&none), "null");
    assert_eq!(go(&Vec::<u8>::new()), "[]");
}

// ---- indent (spec 1.5) --------------------------------------------------

#[test]
fn indent_follows_marshal_indent() {
    let v = Value::from_slice(br#"{"a":[1,2],"b":{}}"#).unwrap();
    assert_eq!(v.to_string_with(&WriteOptions::go().indent(1)).unwrap(), "{\n \"a\": [\n  1,\n  2\n ],\n \"b\": {}\n}");
    assert_eq!(v.to_string_with(&WriteOptions::compact().indent(2)).unwrap(), "{\n  \"a\": [\n    1,\n    2\n  ],\n  \"b\": {}\n}");
    // Same bytes through serde as through the Value writer, sorted or not.
    for opts in [WriteOptions::go().indent(3), WriteOptions::jcs().indent(2), WriteOptions::compact().indent(4)] {
        assert_eq!(jetjson::to_string_with(&v, &opts).unwrap(), v.to_string_with(&opts).unwrap());
    }
}

// ---- jcs (spec 4) -------------------------------------------------------

#[test]
fn jcs_strings_escape_only_the_base_set() {
    assert_eq!(jcs("\u{8}\t\n\u{c}\r\u{1f}\"\\"), r#""\b\t\n\f\r\u001f\"\\""#);
    assert_eq!(jcs("\u{7f}/<>&\u{2028}\u{2029}é"), "\"\u{7f}/<>&\u{2028}\u{2029}é\"");
}

#[test]
fn jcs_numbers_are_doubles() {
    assert_eq!(jcs(&-0.0f64), "0");
    assert_eq!(jcs(&1e21f64), "1e+21");
    assert_eq!(jcs(&1e20f64), "100000000000000000000");
    assert_eq!(jcs(&100.0f64), "100");
    assert_eq!(jcs(&9007199254740993u64), "9007199254740992");
    assert_eq!(jcs(&9007199254740992i64), "9007199254740992");
    assert_eq!(jcs(&-9007199254740993i64), "-9007199254740992");
    assert_eq!(jcs(&18446744073709551615u64), "18446744073709552000");
    assert_eq!(jcs(&(1u128 << 64)), "18446744073709552000");
    let big = Value::Number(Number::from_literal("123456789012345678901234").unwrap());
    assert_eq!(big.to_string_with(&WriteOptions::jcs()).unwrap(), "1.2345678901234569e+23");
    // Beyond the double range there is no number to write.
    let huge = Value::Number(Number::from_literal("1e400").unwrap());
    assert!(huge.to_vec_with(&WriteOptions::jcs()).is_err());
}

#[test]
fn jcs_strict_integers_refuse_beyond_2_pow_53() {
    let strict = WriteOptions::jcs().jcs_strict_integers(true);
    assert_eq!(jetjson::to_string_with(&9007199254740992u64, &strict).unwrap(), "9007199254740992");
    let err = jetjson::to_vec_with(&9007199254740993u64, &strict).unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::NumberOutOfRange { .. }), "{err}");
    assert!(jetjson::to_vec_with(&i64::MIN, &strict).is_err());
    let big = Value::Number(Number::from_literal("123456789012345678901234").unwrap());
    assert!(big.to_vec_with(&strict).is_err());
}

#[test]
fn jcs_sorts_every_object_by_utf16_including_structs() {
    #[derive(Serialize)]
    struct S {
        b: u8,
        a: u8,
        #[serde(rename = "\u{fb33}")]
        hebrew: u8,
        #[serde(rename = "😂")]
        emoji: u8,
    }
    assert_eq!(jcs(&S { b: 1, a: 2, hebrew: 3, emoji: 4 }), "{\"a\":2,\"b\":1,\"😂\":4,\"\u{fb33}\":3}");
    let v = Value::from_slice("{\"\u{fb33}\":1,\"😂\":2,\"x\":{\"b\":1,\"a\":[{\"d\":1,\"c\":2}]}}".as_bytes()).unwrap();
    assert_eq!(v.to_string_with(&WriteOptions::jcs()).unwrap(), "{\"x\":{\"a\":[{\"c\":2,\"d\":1}],\"b\":1},\"😂\":2,\"\u{fb33}\":1}");
}

// ---- compact (spec 6) ---------------------------------------------------

#[test]
fn compact_float_layout_is_serde_jsons() {
    let cases: &[(f64, &str)] = &[
        (1e15, "1000000000000000.0"),
        (1e16, "1e+16"),
        (1e20, "1e+20"),
        (1e21, "1e+21"),
        (0.00001, "0.00001"),
        (1e-6, "1e-6"),
        (1e-7, "1e-7"),
        (1.5e300, "1.5e+300"),
        (100.0, "100.0"),
        (-0.0, "-0.0"),
        (9007199254740993u64 as f64, "9007199254740992.0"),
    ];
    for (v, want) in cases {
        assert_eq!(compact(v), *want);
        assert_eq!(serde_json::to_string(v).unwrap(), *want, "the spec's serde_json example");
    }
    assert_eq!(compact(&1e12f32), "1000000000000.0");
    assert_eq!(compact(&1e13f32), "1e+13");
}

#[test]
fn compact_escapes_minimally_and_keeps_order() {
    assert_eq!(compact("<&>\u{2028}\u{7f}/é\u{1f}"), "\"<&>\u{2028}\u{7f}/é\\u001f\"");
    let v = Value::from_slice(br#"{"b":1,"a":2}"#).unwrap();
    assert_eq!(v.to_string_with(&WriteOptions::compact()).unwrap(), r#"{"b":1,"a":2}"#);
    assert_eq!(v.to_string_with(&WriteOptions::compact().sort_keys(true)).unwrap(), r#"{"a":2,"b":1}"#);
}

#[test]
fn options_apply_to_every_profile() {
    // ascii_only: lowercase \u escapes, surrogate pairs above the BMP, and
    // DEL escaped too (as Python's ensure_ascii does).
    for opts in [WriteOptions::compact(), WriteOptions::go(), WriteOptions::jcs()] {
        let o = opts.ascii_only(true);
        assert_eq!(jetjson::to_string_with("é😀\u{7f}", &o).unwrap(), "\"\\u00e9\\ud83d\\ude00\\u007f\"");
    }
    // escape_html turns on the HTML/JS-safe set in compact and jcs too.
    assert_eq!(jetjson::to_string_with("<\u{2028}", &WriteOptions::compact().escape_html(true)).unwrap(), r#""\u003c\u2028""#);
}

// ---- raw JSON (spec 1.4) ------------------------------------------------

#[derive(Serialize)]
struct Envelope<'a> {
    id: &'a str,
    data: RawJson<'a>,
}

#[test]
fn raw_json_is_validated_unless_unchecked() {
    assert!(RawJson::new("{\"a\":1}").is_ok());
    for bad in ["{", "[1,]", "01", "", "{\"a\":1} x", "\"\\ud800\""] {
        assert!(RawJson::new(bad).is_err(), "{bad:?}");
    }
    // A name twice is refused as `from_slice` refuses it, unless the
    // options say otherwise.
    let twice = br#"{"amount":1,"amount":1000000}"#;
    assert!(RawJson::from_slice(twice).unwrap_err().to_string().contains("duplicate"));
    assert!(jetjson::Value::from_slice(twice).is_err());
    let last = jetjson::ReadOptions::new().duplicate_keys(jetjson::DuplicateKeys::Last);
    assert_eq!(RawJson::from_slice_with(twice, &last).unwrap().as_bytes(), twice);
    let unchecked = RawJson::from_unchecked(&b"{not json"[..]);
    let env = Envelope { id: "1", data: unchecked };
    assert_eq!(compact(&env), r#"{"id":"1","data":{not json}"#);
    assert!(jetjson::to_vec_with(&env, &WriteOptions::go()).is_err());
}

#[test]
fn raw_json_per_profile() {
    let payload = "{ \"z\" : [1.0E+02, \"\\u00e9\\/\\u001F\"],\n \"a\": \"<b>&\u{2028}\" }";
    let env = Envelope { id: "7", data: RawJson::new(payload).unwrap() };
    // compact: verbatim.
    assert_eq!(compact(&env), format!("{{\"id\":\"7\",\"data\":{payload}}}"));
    // go: whitespace gone, escapes and spellings kept, <>& and U+2028 escaped.
    assert_eq!(go(&env), r#"{"id":"7","data":{"z":[1.0E+02,"\u00e9\/\u001F"],"a":"\u003cb\u003e\u0026\u2028"}}"#);
    assert_eq!(go_no_html(&env), "{\"id\":\"7\",\"data\":{\"z\":[1.0E+02,\"\\u00e9\\/\\u001F\"],\"a\":\"<b>&\u{2028}\"}}");
    // go with indent re-indents the raw value, as MarshalIndent does.
    let pretty = jetjson::to_string_with(&env, &WriteOptions::go().indent(2)).unwrap();
    assert_eq!(pretty, "{\n  \"id\": \"7\",\n  \"data\": {\n    \"z\": [\n      1.0E+02,\n      \"\\u00e9\\/\\u001F\"\n    ],\n    \"a\": \"\\u003cb\\u003e\\u0026\\u2028\"\n  }\n}");
    // jcs: canonicalized.
    assert_eq!(jcs(&env), "{\"data\":{\"a\":\"<b>&\u{2028}\",\"z\":[100,\"é/\\u001f\"]},\"id\":\"7\"}");
}

/// An option that changes strings or key order (ascii_only, escape_html,
/// sort_keys) holds inside raw text too, in compact and go: the raw text,
/// written plainly (no escapes, plain numbers), gives the bytes the same
/// document gives as a parsed `Value` under the same options. An indent
/// alone leaves compact's raw text as it is (serde_json and orjson do).
#[test]
fn raw_json_follows_options_that_change_strings_or_order() {
    let payload = "{\"zé\":[1,\"<b>&\u{2028}\u{7f}\u{1F600}\"],\"a\":{\"y\":true,\"b\":null},\"m\":\"x\",\"\u{e9}\":-2.5}";
    let value = Value::from_slice(payload.as_bytes()).unwrap();
    let env = Envelope { id: "7", data: RawJson::new(payload).unwrap() };
    let mut parsed_env = Value::from_slice(br#"{"id":"7","data":null}"#).unwrap();
    if let Value::Object(o) = &mut parsed_env {
        o.insert("data", value);
    }
    for opts in [
        WriteOptions::compact().ascii_only(true),
        WriteOptions::compact().escape_html(true),
        WriteOptions::compact().sort_keys(true),
        WriteOptions::compact().ascii_only(true).sort_keys(true).indent(2),
        WriteOptions::go().ascii_only(true),
        WriteOptions::go().sort_keys(true),
        WriteOptions::go().escape_html(false).ascii_only(true).sort_keys(true),
    ] {
        let from_raw = jetjson::to_string_with(&env, &opts).unwrap();
        // go sorts a map's keys by default but keeps a RawMessage's order
        // (and the envelope is a struct): the `Value` then keeps its order.
        let sorted = format!("{opts:?}").contains("sort_keys: Some(true)");
        let value_opts = if sorted { opts.clone() } else { opts.clone().sort_keys(false) };
        let from_value = parsed_env.to_string_with(&value_opts).unwrap();
        assert_eq!(from_raw, from_value, "{opts:?}");
        if format!("{opts:?}").contains("ascii_only: true") {
            assert!(from_raw.is_ascii(), "{opts:?}: {from_raw}");
        }
    }
    // Escapes already in the text and number spellings stay; only what the
    // options add is new. Repeated keys keep their order when sorted.
    let spelled = r#"{"b":1.0E+02,"a":"éé","b":2}"#;
    let last = jetjson::ReadOptions::new().duplicate_keys(jetjson::DuplicateKeys::Last);
    let data = RawJson::from_slice_with(spelled.as_bytes(), &last).unwrap();
    let out = jetjson::to_string_with(&[data], &WriteOptions::compact().ascii_only(true).sort_keys(true)).unwrap();
    assert_eq!(out, r#"[{"a":"\u00e9\u00e9","b":1.0E+02,"b":2}]"#);
    // An indent alone: compact copies the text.
    let spaced = RawJson::new("{ \"b\" : [ 1 ] }").unwrap();
    let out = jetjson::to_string_with(&[spaced], &WriteOptions::compact().indent(2)).unwrap();
    assert_eq!(out, "[\n  { \"b\" : [ 1 ] }\n]");
}

/// Sorting a raw text's keys reads it whole into a tree: a text nesting as
/// deep as a raised write limit allows is written, or refused after its
/// last level, with no stack overflow (building, writing and dropping the
/// tree recurse once per level).
#[test]
fn raw_json_sorted_as_deep_as_the_write_limit_allows() {
    let n = 200_000;
    let deep = format!("{}0{}", "[{\"b\":1,\"a\":".repeat(n), "}]".repeat(n));
    let opts = WriteOptions::compact().sort_keys(true).max_write_depth(1_000_000);
    let out = jetjson::to_vec_with(&[RawJson::from_unchecked(deep.as_str())], &opts).unwrap();
    let sorted = format!("[{}0{}]", "[{\"a\":".repeat(n), ",\"b\":1}]".repeat(n));
    assert!(out == sorted.as_bytes(), "sorted at every level");
    let bad = format!("{deep} x");
    let e = jetjson::to_vec_with(&[RawJson::from_unchecked(bad.as_str())], &opts).unwrap_err();
    assert!(e.to_string().contains("trailing") || e.to_string().contains("after"), "{e}");
    // One level past the limit is the write limit's error.
    let e = jetjson::to_vec_with(&[RawJson::from_unchecked(deep.as_str())], &opts.clone().max_write_depth(2 * n)).unwrap_err();
    assert!(matches!(e.kind(), jetjson::ErrorKind::WriteDepthLimit { .. }), "{e}");
}

// ---- entry points -------------------------------------------------------

#[test]
fn to_writer_and_digest_see_the_same_bytes_as_to_vec() {
    let big: Vec<String> = (0..20_000).map(|i| format!("item <{i}> \u{2028}")).collect();
    for opts in [WriteOptions::compact(), WriteOptions::go(), WriteOptions::jcs().indent(2)] {
        let bytes = jetjson::to_vec_with(&big, &opts).unwrap();
        let mut out = Vec::new();
        jetjson::to_writer_with(&mut out, &big, &opts).unwrap();
        assert_eq!(out, bytes);
        for alg in [jetjson::Algorithm::Sha256, jetjson::Algorithm::Sha512] {
            assert_eq!(jetjson::digest(&big, &opts, alg).unwrap(), jetjson::digest_bytes(&bytes, alg));
        }
    }
    // A known vector: sha256 of the 4 bytes `null`.
    assert_eq!(
        jetjson::digest(&(), &WriteOptions::go(), jetjson::Algorithm::Sha256).unwrap(),
        "sha256:74234e98afe7498fb5daf1f36ac2d78acc339464f950703b8c019892f982b90b"
    );
}

#[test]
fn digest_value_matches_digest_of_bytes() {
    let v = Value::from_slice(br#"{"b":[1,2,{"y":1,"x":2}],"a":"<"}"#).unwrap();
    for opts in [WriteOptions::go(), WriteOptions::jcs()] {
        let bytes = v.to_vec_with(&opts).unwrap();
        assert_eq!(
            jetjson::digest_value(&v, &opts, jetjson::Algorithm::Sha256).unwrap(),
            jetjson::digest_bytes(&bytes, jetjson::Algorithm::Sha256)
        );
    }
}

#[test]
fn serde_and_value_paths_agree() {
    let v = Value::from_slice("{\"k\":[1,-2,3.5,1e300,\"<é\u{2028}>\",null,true,{\"z\":{},\"\u{10000}\":1,\"\u{e000}\":2}]}".as_bytes())
        .unwrap();
    for opts in [
        WriteOptions::compact(),
        WriteOptions::go(),
        WriteOptions::jcs(),
        WriteOptions::go().escape_html(false).indent(2),
        WriteOptions::compact().ascii_only(true).sort_keys(true),
    ] {
        assert_eq!(jetjson::to_vec_with(&v, &opts).unwrap(), v.to_vec_with(&opts).unwrap(), "{opts:?}");
    }
}

#[test]
fn zeroing_buffers_does_not_change_output() {
    let v: Vec<String> = (0..5000).map(|i| format!("secret-{i}")).collect();
    let plain = jetjson::to_vec_with(&v, &WriteOptions::go()).unwrap();
    let zeroed = jetjson::to_vec_with(&v, &WriteOptions::go().zero_buffers(true)).unwrap();
    assert_eq!(plain, zeroed);
}

#[test]
fn every_entry_point_honours_zero_buffers() {
    // Same bytes and digest whether or not buffers are zeroed, on the paths
    // that spill to a sink as well as on to_vec.
    let v: Vec<String> = (0..20_000).map(|i| format!("token-{i}")).collect();
    let opts = WriteOptions::go().zero_buffers(true);
    let bytes = jetjson::to_vec_with(&v, &WriteOptions::go()).unwrap();
    let mut out = Vec::new();
    jetjson::to_writer_with(&mut out, &v, &opts).unwrap();
    assert_eq!(out, bytes);
    assert_eq!(jetjson::digest(&v, &opts, jetjson::Algorithm::Sha256).unwrap(), jetjson::digest_bytes(&bytes, jetjson::Algorithm::Sha256));
}

#[test]
fn sorted_structs_and_maps_equal_the_value_writer() {
    #[derive(Serialize)]
    struct Inner {
        z: u8,
        #[serde(rename = "a\"q")]
        quoted: &'static str,
        #[serde(rename = "<tag>")]
        tag: Vec<u8>,
    }
    #[derive(Serialize)]
    struct Outer {
        zeta: Inner,
        #[serde(rename = "\u{e000}")]
        private_use: u8,
        #[serde(rename = "😂")]
        emoji: BTreeMap<&'static str, Inner>,
        alpha: HashMap<u32, Option<bool>>,
        sorted_already: BTreeMap<&'static str, u8>,
        empty: BTreeMap<&'static str, u8>,
    }
    let inner = || Inner { z: 1, quoted: "<&>", tag: vec![3, 1] };
    let value = Outer {
        zeta: inner(),
        private_use: 2,
        emoji: [("b", inner()), ("a", inner())].into_iter().collect(),
        alpha: [(10, Some(true)), (9, None), (100, Some(false))].into_iter().collect(),
        sorted_already: [("a", 1), ("b", 2), ("c", 3)].into_iter().collect(),
        empty: BTreeMap::new(),
    };
    let doc = Value::from_slice(&jetjson::to_vec(&value).unwrap()).unwrap();
    // Configurations in which every object is sorted, structs included.
    for opts in [
        WriteOptions::go().sort_keys(true),
        WriteOptions::jcs(),
        WriteOptions::jcs().indent(2),
        WriteOptions::go().sort_keys(true).indent(3).escape_html(false),
        WriteOptions::compact().sort_keys(true).ascii_only(true),
    ] {
        assert_eq!(jetjson::to_string_with(&value, &opts).unwrap(), doc.to_string_with(&opts).unwrap(), "{opts:?}");
    }
    // Plain go: structs in declaration order, maps sorted.
    let go = jetjson::to_string_with(&value, &WriteOptions::go()).unwrap();
    assert!(
        go.starts_with(
            "{\"zeta\":{\"z\":1,\"a\\\"q\":\"\\u003c\\u0026\\u003e\",\"\\u003ctag\\u003e\":[3,1]},\"\u{e000}\":2,\"😂\":{\"a\":"
        ),
        "{go}"
    );
    assert!(go.contains(r#""alpha":{"10":true,"100":false,"9":null}"#), "{go}");
}

#[test]
fn indent_with_tabs_is_indent_with_spaces_with_tabs_at_line_starts() {
    let v = jetjson::Value::from_slice(br#"{"a":[1,{"b":[],"c":{}},"x y"],"d":{"e":[[2]]}}"#).unwrap();
    for n in [1u16, 2, 16] {
        for base in [WriteOptions::compact(), WriteOptions::go()] {
            let spaces = String::from_utf8(v.to_vec_with(&base.clone().indent(n)).unwrap()).unwrap();
            let tabs = String::from_utf8(v.to_vec_with(&base.clone().indent_tabs(n)).unwrap()).unwrap();
            let expected: Vec<String> = spaces
                .lines()
                .map(|l| {
                    let lead = l.len() - l.trim_start_matches(' ').len();
                    format!("{}{}", "\t".repeat(lead), &l[lead..])
                })
                .collect();
            assert_eq!(tabs, expected.join("\n"), "{n}");
            assert!(tabs.contains('\t') && !tabs.contains("\n "));
        }
    }
    // The cap counts tabs too.
    assert!(v.to_vec_with(&WriteOptions::compact().indent_tabs(17)).is_err());
}
