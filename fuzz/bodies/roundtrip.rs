//! Target `roundtrip`: whatever parses, written in each profile, parses back
//! to an equal value, and writing is idempotent: `canon(canon(x)) ==
//! canon(x)` byte for byte, in every profile and layout option.
//!
//! Documented exceptions (checked, not skipped):
//! * numbers: `go` writes floats Go's way (`100.0` as `100`), so they come
//!   back equal as doubles; `jcs` writes every number as an ECMAScript
//!   double (integers beyond 2^53 round); see `common::Numbers`;
//! * numbers kept as literal text (integers beyond 64 bits, or any number
//!   in lossless mode) may be refused by `jcs` alone (no double for them)
//!   with `NumberOutOfRange`: `compact` and `go` write integers exactly at
//!   any size and kept text as it is;
//! * non-finite floats cannot come from parsing, so they never reach here.
//!
//! Also: the `Value` fast writer and the serde writer give the same bytes,
//! and `RawJson` (the verbatim / relaid / canonicalize paths) agrees.

use jetjson::{ErrorKind, Profile, RawJson, ReadOptions, Value};

use super::common::{depth, has_literal_number, read_options, same_value, show, split_options, write_options, Numbers, PROFILES};

pub fn run(data: &[u8]) {
    let ([a, b, w], input) = split_options::<3>(data);
    let options = read_options(a, b, input.len());
    let Ok(value) = Value::from_slice_with(input, &options) else { return };
    // Output is parsed back with the same number mode and enough depth;
    // duplicates are gone (refused or merged), BOM and size do not apply.
    let reread = ReadOptions::new().max_depth(depth(&value).max(1)).lossless_numbers(options.keeps_numbers_lossless());

    for profile in PROFILES {
        let wo = write_options(profile, w);
        let what = format!("{wo:?} of {:?}", show(input));
        let first = match value.to_vec_with(&wo) {
            Ok(bytes) => bytes,
            Err(e) => {
                assert!(
                    matches!(e.kind(), ErrorKind::NumberOutOfRange { .. }) && profile == Profile::Jcs && has_literal_number(&value),
                    "{what}: refused: {e}"
                );
                // The serde writer refuses it too.
                assert!(jetjson::to_vec_with(&value, &wo).is_err(), "{what}: serde writer accepted what the Value writer refused");
                continue;
            }
        };
        // The serde writer (Value's Serialize impl) gives the same bytes.
        let via_serde = jetjson::to_vec_with(&value, &wo).unwrap_or_else(|e| panic!("{what}: serde writer: {e}"));
        assert_eq!(show(&via_serde), show(&first), "{what}: Value writer vs serde writer");

        let back =
            Value::from_slice_with(&first, &reread).unwrap_or_else(|e| panic!("{what}: output {:?} does not parse: {e}", show(&first)));
        assert!(
            same_value(&value, &back, Numbers::of(profile)),
            "{what}: round trip changed the value: {:?} -> {:?}",
            show(&first),
            show(&back.to_vec_with(&wo).unwrap_or_default())
        );
        let second = back.to_vec_with(&wo).unwrap_or_else(|e| panic!("{what}: rewriting {:?}: {e}", show(&first)));
        assert_eq!(show(&second), show(&first), "{what}: not idempotent");
    }

    // Raw JSON embeds already-serialized text: compact copies it, jcs
    // canonicalizes it like a parsed value. (RawJson validates with the
    // default options.)
    if options == ReadOptions::default() {
        let raw = RawJson::from_slice(input).unwrap_or_else(|e| panic!("RawJson refused what parses: {e}"));
        let compact = jetjson::to_vec_with(&raw, &jetjson::WriteOptions::compact()).expect("raw compact");
        assert_eq!(show(&compact), show(input), "RawJson in compact is verbatim");
        let jcs = jetjson::WriteOptions::jcs();
        if let Ok(canonical) = value.to_vec_with(&jcs) {
            let raw_jcs = jetjson::to_vec_with(&raw, &jcs).unwrap_or_else(|e| panic!("RawJson in jcs: {e}"));
            assert_eq!(show(&raw_jcs), show(&canonical), "RawJson in jcs vs the parsed value in jcs");
        }
        let go = jetjson::WriteOptions::go();
        let raw_go = jetjson::to_vec_with(&raw, &go).unwrap_or_else(|e| panic!("RawJson in go: {e}"));
        let back = Value::from_slice_with(&raw_go, &reread).unwrap_or_else(|e| panic!("RawJson in go wrote {:?}: {e}", show(&raw_go)));
        assert!(same_value(&value, &back, Numbers::Exact), "RawJson in go changed the value: {:?}", show(&raw_go));
        // Options that change strings or key order hold inside it, laid
        // out token by token: ASCII, sorted, the same value.
        let relaid = jetjson::WriteOptions::compact().ascii_only(true).sort_keys(true).escape_html(true);
        let raw_relaid = jetjson::to_vec_with(&raw, &relaid).unwrap_or_else(|e| panic!("RawJson relaid: {e}"));
        assert!(raw_relaid.is_ascii(), "RawJson relaid with ascii_only: {:?}", show(&raw_relaid));
        let back =
            Value::from_slice_with(&raw_relaid, &reread).unwrap_or_else(|e| panic!("RawJson relaid wrote {:?}: {e}", show(&raw_relaid)));
        assert!(same_value(&value, &back, Numbers::Exact), "RawJson relaid changed the value: {:?}", show(&raw_relaid));
    }
}
