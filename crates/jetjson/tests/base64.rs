//! `#[serde(with = "jetjson::base64")]`: byte vectors written as Go writes
//! a `[]byte` (checked against Go's `encoding/json` itself) and read back
//! as Go reads one.

mod common;

use common::*;
use jetjson::WriteOptions;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Blob(#[serde(with = "jetjson::base64")] Vec<u8>);

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Maybe(#[serde(with = "jetjson::base64::option")] Option<Vec<u8>>);

fn random_bytes(rng: &mut Rng) -> Vec<u8> {
    let len = match rng.below(4) {
        0 => rng.below(4),
        1 => rng.below(70),
        _ => rng.below(3000),
    };
    (0..len).map(|_| rng.next() as u8).collect()
}

#[test]
fn bytes_are_written_as_go_marshals_a_byte_slice() {
    let mut rng = Rng::new(64);
    let blobs: Vec<Vec<u8>> = (0..500).map(|_| random_bytes(&mut rng)).collect();
    let input: Vec<Vec<u8>> = blobs.iter().map(|b| b64(b)).collect();
    let go = run_oracle(go_command(&["-mode", "bytes"]), &input);
    for (bytes, want) in blobs.iter().zip(go) {
        let want = want.expect("Go marshals any []byte");
        for options in [WriteOptions::go(), WriteOptions::compact(), WriteOptions::jcs()] {
            assert_eq!(
                jetjson::to_vec_with(&Blob(bytes.clone()), &options).unwrap(),
                want,
                "{} bytes, {:?}",
                bytes.len(),
                options.profile()
            );
        }
        // serde_json writes the same (the helper is not tied to jetjson).
        assert_eq!(serde_json::to_vec(&Blob(bytes.clone())).unwrap(), want);
    }
}

#[test]
fn bytes_read_back_exactly() {
    let mut rng = Rng::new(65);
    for _ in 0..500 {
        let bytes = random_bytes(&mut rng);
        let text = jetjson::to_vec(&Blob(bytes.clone())).unwrap();
        assert_eq!(jetjson::from_slice::<Blob>(&text).unwrap().0, bytes);
        assert_eq!(jetjson::from_value::<Blob>(jetjson::to_value(&Blob(bytes.clone())).unwrap()).unwrap().0, bytes);
    }
}

#[test]
fn reading_accepts_what_go_accepts() {
    // Each case as Go 1.26's json.Unmarshal into a []byte answers it.
    let accepted: &[(&str, &[u8])] = &[
        (r#""Zg==""#, b"f"),
        (r#""Zh==""#, b"f"), // unused low bits set: Go does not check them
        (r#""Z\ng==""#, b"f"),
        (r#""Zg==\r\n""#, b"f"),
        (r#""Zm9v""#, b"foo"),
        (r#""""#, b""),
        ("[1,2]", &[1, 2]),
        ("[]", &[]),
    ];
    for (text, want) in accepted {
        assert_eq!(jetjson::from_str::<Blob>(text).map(|b| b.0).as_deref(), Ok(*want), "{text}");
    }
    // Refused by Go too, except `null` (Go: a nil slice; here an error, and
    // `None` with `base64::option`).
    let refused = [r#""Zg=""#, r#""Zg""#, r#""Zm 9v""#, r#""-_8=""#, r#""Zg==Zg==""#, "null", "[256]", "[-1]", "1", "{}"];
    for text in refused {
        let e = jetjson::from_str::<Blob>(text).unwrap_err();
        assert_eq!(e.classify(), jetjson::Category::Data, "{text}: {e}");
        assert_eq!(e.line(), 1, "{text}: {e}");
    }
}

#[test]
fn option_writes_none_as_null() {
    assert_eq!(jetjson::to_string_with(&Maybe(None), &WriteOptions::go()).unwrap(), "null");
    assert_eq!(jetjson::to_string_with(&Maybe(Some(vec![1, 2, 3])), &WriteOptions::go()).unwrap(), r#""AQID""#);
    assert_eq!(jetjson::from_str::<Maybe>("null").unwrap(), Maybe(None));
    assert_eq!(jetjson::from_str::<Maybe>(r#""AQID""#).unwrap(), Maybe(Some(vec![1, 2, 3])));
    assert!(jetjson::from_str::<Maybe>(r#""AQI""#).is_err());
}

#[test]
fn borrowed_slices_serialize() {
    #[derive(Serialize)]
    struct Out<'a> {
        #[serde(serialize_with = "jetjson::base64::serialize")]
        data: &'a [u8],
        #[serde(serialize_with = "jetjson::base64::serialize")]
        fixed: [u8; 3],
    }
    let out = Out { data: b"\x00\xff", fixed: [1, 2, 3] };
    assert_eq!(jetjson::to_string(&out).unwrap(), r#"{"data":"AP8=","fixed":"AQID"}"#);
}
