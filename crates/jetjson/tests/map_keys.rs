//! Map keys of integer and boolean types are read from member names as
//! serde_json reads them: integers only in JSON's syntax (no `+`, no
//! leading zeros, no spaces), so `"1"`, `"01"` and `"+1"` cannot merge into
//! one key; booleans as `"true"` and `"false"`. Checked against serde_json,
//! through the parser (`from_str`, `from_reader`) and `from_value`.

use std::collections::{BTreeMap, HashMap};

use serde::de::DeserializeOwned;

/// Names refused as integer keys by serde_json and jetjson alike.
const NOT_JSON_INTEGERS: [&str; 12] = ["01", "+1", "00", "+0", "-01", "1e2", "1.0", " 1", "1 ", "", "-", "0x1"];

/// Whether jetjson reads `doc` as `T` through all three doors, and whether
/// serde_json does; the doors must agree, and errors of the parser's doors
/// have a position.
fn reads<T: DeserializeOwned + PartialEq + std::fmt::Debug>(doc: &str) -> (bool, bool) {
    let a = jetjson::from_str::<T>(doc);
    let b = jetjson::from_reader::<_, T>(doc.as_bytes());
    let c = jetjson::from_value::<T>(jetjson::Value::from_slice(doc.as_bytes()).unwrap());
    assert_eq!(a.is_ok(), b.is_ok(), "{doc}");
    assert_eq!(a.is_ok(), c.is_ok(), "{doc}");
    if let (Ok(a), Ok(b), Ok(c)) = (&a, &b, &c) {
        assert_eq!(a, b);
        assert_eq!(a, c);
    }
    if let Err(e) = &a {
        assert!(e.position().is_some(), "{doc}: {e}");
    }
    (a.is_ok(), serde_json::from_str::<T>(doc).is_ok())
}

#[test]
fn integer_keys_take_json_syntax_only() {
    for name in NOT_JSON_INTEGERS {
        let doc = format!(r#"{{"{name}":1}}"#);
        assert_eq!(reads::<HashMap<u32, i32>>(&doc), (false, false), "{doc}");
        assert_eq!(reads::<BTreeMap<i64, i32>>(&doc), (false, false), "{doc}");
        assert_eq!(reads::<BTreeMap<u8, i32>>(&doc), (false, false), "{doc}");
        assert_eq!(reads::<BTreeMap<i128, i32>>(&doc), (false, false), "{doc}");
    }
    for name in ["0", "7", "-5", "18446744073709551615", "-9223372036854775808"] {
        let doc = format!(r#"{{"{name}":1}}"#);
        let want: bool = name.parse::<i128>().is_ok();
        assert_eq!(reads::<BTreeMap<i128, i32>>(&doc), (want, want), "{doc}");
        let i = name.parse::<i64>().is_ok();
        assert_eq!(reads::<BTreeMap<i64, i32>>(&doc), (i, i), "{doc}");
        let u = name.parse::<u64>().is_ok();
        assert_eq!(reads::<BTreeMap<u64, i32>>(&doc), (u, u), "{doc}");
    }
    let m: BTreeMap<i64, String> = jetjson::from_str(r#"{"-5":"z","10":"t"}"#).unwrap();
    assert_eq!(m, BTreeMap::from([(-5, "z".to_string()), (10, "t".to_string())]));
    // `-0` would name the key `0` a second way (serde_json refuses it for
    // i64, takes it for i128): refused for every integer type.
    assert_eq!(reads::<BTreeMap<i64, i32>>(r#"{"-0":1}"#), (false, false));
    assert!(jetjson::from_str::<BTreeMap<i128, i32>>(r#"{"0":1,"-0":2}"#).is_err());
    assert!(jetjson::from_str::<BTreeMap<u8, i32>>(r#"{"-0":2}"#).is_err());
}

/// The tester's case: three names, one number in Rust's syntax. The
/// second name is refused where it starts, and says what it is.
#[test]
fn distinct_names_do_not_merge() {
    let doc = r#"{"1":"a","01":"b","+1":"c"}"#;
    let e = jetjson::from_str::<HashMap<u32, String>>(doc).unwrap_err();
    assert_eq!(e.position().map(|p| p.offset), Some(9), "{e}");
    assert!(e.to_string().contains(r#""01""#), "{e}");
    assert!(serde_json::from_str::<HashMap<u32, String>>(doc).is_err());
}

#[test]
fn bool_keys_read_true_and_false() {
    assert_eq!(reads::<HashMap<bool, i32>>(r#"{"true":1,"false":2}"#), (true, true));
    let m: BTreeMap<bool, i32> = jetjson::from_str(r#"{"true":1,"false":2}"#).unwrap();
    assert_eq!(m, BTreeMap::from([(false, 2), (true, 1)]));
    for name in ["True", "1", "", "false "] {
        assert_eq!(reads::<HashMap<bool, i32>>(&format!(r#"{{"{name}":1}}"#)), (false, false), "{name}");
    }
}

/// `Some(k)` is written as the key `k`, `None` refused, as serde_json does.
#[test]
fn option_keys_write_as_serde_json_writes_them() {
    let some = BTreeMap::from([(Some(1u8), 1), (Some(20), 2)]);
    let text = serde_json::to_string(&some).unwrap();
    assert_eq!(jetjson::to_string(&some).unwrap(), text);
    assert_eq!(jetjson::to_value(&some).unwrap().to_string(), text);
    let none = BTreeMap::from([(None::<u8>, 1)]);
    assert!(serde_json::to_string(&none).is_err());
    assert_eq!(jetjson::to_string(&none).unwrap_err().kind(), &jetjson::ErrorKind::KeyMustBeString);
    assert_eq!(jetjson::to_value(&none).unwrap_err().kind(), &jetjson::ErrorKind::KeyMustBeString);
}
