//! A number reaches a typed target as serde_json gives it: an integer
//! beyond 64 bits into a float type is its nearest double (not a 128-bit
//! integer the float type refuses), the integer literal `-0` into an integer
//! type is 0, and 128-bit integers stay exact. Compared with serde_json
//! itself on the serde door (`from_str`) and, for float targets, through a
//! `Value` (`from_value`).

use std::fmt::Debug;

use serde::de::DeserializeOwned;

/// Integers of 1 to 45 digits around the 64- and 128-bit edges, both signs.
fn integers() -> Vec<String> {
    let mut out = vec!["0".to_string(), "-0".to_string()];
    for n in 1..=45 {
        out.push("9".repeat(n));
        out.push(format!("1{}", "0".repeat(n - 1)));
    }
    for edge in [u64::MAX as u128, i64::MAX as u128, u128::MAX, i128::MAX as u128] {
        for d in [0u128, 1] {
            out.push((edge - d).to_string());
            if let Some(up) = edge.checked_add(1 + d) {
                out.push(up.to_string());
            } else {
                out.push(format!("{edge}{d}"));
            }
        }
    }
    out.push(i128::MIN.to_string());
    out.push(format!("{}9", i128::MIN));
    let negatives: Vec<String> = out.iter().filter(|t| !t.starts_with('-')).map(|t| format!("-{t}")).collect();
    out.extend(negatives);
    out
}

/// serde_json's answer and jetjson's, as text (`{:?}` tells -0.0 from 0.0).
/// One difference on purpose: the integer literal `-0` is 0 to every
/// integer type (serde_json gives 0 to `i128` and `u128` and refuses it to
/// the others, as the double -0.0).
fn agree<T: DeserializeOwned + Debug>(text: &str, what: &str) {
    let ours = jetjson::from_str::<T>(text).map(|v| format!("{v:?}"));
    if text == "-0" && what.starts_with(['i', 'u']) {
        assert_eq!(ours.ok().as_deref(), Some("0"), "{what} from -0");
        return;
    }
    let theirs = serde_json::from_str::<T>(text).map(|v| format!("{v:?}"));
    match (&theirs, &ours) {
        (Ok(a), Ok(b)) => assert_eq!(a, b, "{what} from {text}"),
        (Err(_), Err(_)) => {}
        _ => panic!("{what} from {text}: serde_json {theirs:?}, jetjson {ours:?}"),
    }
}

#[test]
fn numbers_reach_typed_targets_as_serde_json_gives_them() {
    let texts = integers();
    assert!(texts.len() > 200);
    for text in &texts {
        agree::<f64>(text, "f64");
        agree::<f32>(text, "f32");
        agree::<Vec<f64>>(&format!("[{text}]"), "Vec<f64>");
        agree::<Option<f64>>(text, "Option<f64>");
        agree::<i8>(text, "i8");
        agree::<i64>(text, "i64");
        agree::<u64>(text, "u64");
        agree::<i128>(text, "i128");
        agree::<u128>(text, "u128");
    }
}

#[test]
fn float_targets_take_big_integers_from_a_value_too() {
    for text in integers() {
        let theirs = serde_json::from_str::<serde_json::Value>(&text).and_then(serde_json::from_value::<f64>);
        let value: jetjson::Value = jetjson::from_str(&text).unwrap();
        let ours = jetjson::from_value::<f64>(value.clone());
        assert_eq!(format!("{:?}", theirs.ok()), format!("{:?}", ours.ok()), "f64 from the Value of {text}");
        // serde_json casts its double to an infinity beyond the f32 range;
        // jetjson refuses it.
        let theirs = serde_json::from_str::<serde_json::Value>(&text).and_then(serde_json::from_value::<f32>).ok();
        let ours = jetjson::from_value::<f32>(value).ok();
        match theirs {
            Some(f) if f.is_finite() => assert_eq!(format!("{f:?}"), format!("{:?}", ours.unwrap()), "f32 from the Value of {text}"),
            _ => assert!(ours.is_none(), "f32 from the Value of {text}: {ours:?}"),
        }
    }
}

#[test]
fn an_f32_beyond_its_range_is_an_error_not_an_infinity() {
    // serde's f32 casts a double: 1e39 became inf, silently.
    for t in
        ["1e39", "-1e39", "3.5e38", "3.4028236e38", "340282356779733661637539395458142568448", "999999999999999999999999999999999999999"]
    {
        let e = jetjson::from_str::<f32>(t).expect_err(t);
        assert!(e.to_string().contains("out of range for an f32"), "{t}: {e}");
        assert!(serde_json::from_str::<f32>(t).is_err(), "{t}");
        let value: jetjson::Value = jetjson::from_str(t).unwrap();
        assert!(jetjson::from_value::<f32>(value).is_err(), "{t} through a Value");
    }
    // Rounded once, from the text: just below the midpoint above f32::MAX.
    assert_eq!(jetjson::from_str::<f32>("340282356779733661637539395458142568447").unwrap(), f32::MAX);
    for t in ["3.4028235e38", "1e-50", "1.5", "-0", "-0.0", "16777217", "0.1"] {
        assert_eq!(format!("{:?}", jetjson::from_str::<f32>(t).unwrap()), format!("{:?}", serde_json::from_str::<f32>(t).unwrap()), "{t}");
    }
}
