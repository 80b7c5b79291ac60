//! The number model (README, "Numbers") on generated documents: integers
//! exact at any size in `compact` and `go` (Go's bytes for a `*big.Int`),
//! doubles in [2^64, 1e21) that `go` writes as integers read back exactly,
//! `-0` as serde_json reads it (or as Python does, on request), literals
//! beyond the double range refused with their position on every read path,
//! and what each profile writes read back to the same bytes.

mod common;

use common::*;
use jetjson::{ErrorKind, Number, RawJson, ReadOptions, Value, WriteOptions};

fn profiles() -> [(&'static str, WriteOptions); 3] {
    [("compact", WriteOptions::compact()), ("go", WriteOptions::go()), ("jcs", WriteOptions::jcs())]
}

fn documents(seed: u64, n: usize) -> Vec<String> {
    let mut rng = Rng::new(seed);
    (0..n).map(|_| number_document(&mut rng, 3, false)).collect()
}

#[test]
fn every_path_writes_the_same_bytes_and_reads_them_back() {
    let mut written = [0usize; 3];
    for doc in documents(9, 4000) {
        let v = Value::from_slice(doc.as_bytes()).unwrap_or_else(|e| panic!("{doc}: {e}"));
        for (k, (name, options)) in profiles().into_iter().enumerate() {
            let out = match v.to_vec_with(&options) {
                Ok(out) => out,
                Err(e) => {
                    // Only jcs refuses, and only integers with no double.
                    assert_eq!(name, "jcs", "{doc}: {e}");
                    assert!(matches!(e.kind(), ErrorKind::NumberOutOfRange { .. }), "{doc}: {e}");
                    continue;
                }
            };
            written[k] += 1;
            // The serde writer (Value's Serialize, big numbers through the
            // private number token) gives the same bytes.
            assert_eq!(show(&jetjson::to_vec_with(&v, &options).unwrap()), show(&out), "{name}: {doc}");
            // What a profile writes reads back to the same bytes: go's
            // integers from doubles in [2^64, 1e21) are exact integers.
            let again = Value::from_slice(&out).unwrap_or_else(|e| panic!("{name}: {} does not read back: {e}", show(&out)));
            assert_eq!(show(&again.to_vec_with(&options).unwrap()), show(&out), "{name}: {doc}");
        }
    }
    assert_eq!(written[0], 4000);
    assert_eq!(written[1], 4000);
    assert!(written[2] > 3000, "{written:?}");
}

#[test]
fn go_bytes_equal_go_with_big_ints() {
    // Go reads the same text: json.Number, integers beyond 64 bits as
    // *big.Int, other numbers (and -0) as float64.
    let docs = documents(10, 3000);
    let lines: Vec<Vec<u8>> = docs.iter().map(|d| d.clone().into_bytes()).collect();
    let oracle = run_oracle(go_command(&["-mode", "bignum"]), &lines);
    let mut mismatches = Vec::new();
    let mut big = 0;
    for (doc, want) in docs.iter().zip(oracle) {
        let want = want.unwrap_or_else(|e| panic!("Go refused {doc}: {e}"));
        let got = Value::from_slice(doc.as_bytes()).unwrap().to_vec_with(&WriteOptions::go()).unwrap();
        big += usize::from(want.windows(21).any(|w| w.iter().all(u8::is_ascii_digit)));
        if got != want {
            mismatches.push(format!("{doc}\n  go: {}\n  us: {}", show(&want), show(&got)));
        }
    }
    assert!(mismatches.is_empty(), "{} of {} differ:\n{}", mismatches.len(), docs.len(), mismatches[..mismatches.len().min(3)].join("\n"));
    assert!(big > 300, "integers beyond 64 bits in {big} documents");
}

#[test]
fn integers_beyond_64_bits_are_exact_in_go_from_every_source() {
    let text = "-1701411834604692317316873037158841057289";
    let v = Value::from_slice(text.as_bytes()).unwrap();
    assert_eq!(v.to_string_with(&WriteOptions::go()).unwrap(), text);
    assert_eq!(jetjson::to_string_with(&(u64::MAX as u128 + 1), &WriteOptions::go()).unwrap(), "18446744073709551616");
    assert_eq!(jetjson::to_string_with(&i128::MIN, &WriteOptions::go()).unwrap(), "-170141183460469231731687303715884105728");
    // A double in [2^64, 1e21) in go, and what it reads back as.
    let out = jetjson::to_vec_with(&1e20f64, &WriteOptions::go()).unwrap();
    assert_eq!(out, b"100000000000000000000");
    let back = Value::from_slice(&out).unwrap();
    assert!(matches!(back, Value::Number(Number::Big(_))), "{back:?}");
    assert_eq!(back.to_vec_with(&WriteOptions::go()).unwrap(), out);
    assert_eq!(jetjson::from_slice::<u128>(&out).unwrap(), 100_000_000_000_000_000_000);
}

#[test]
fn minus_zero_is_a_double_unless_read_as_python_reads_it() {
    let doc = b"[-0,-0.0,-0e0,0]";
    let v = Value::from_slice(doc).unwrap();
    let ints = Value::from_slice_with(doc, &ReadOptions::new().negative_zero_int(true)).unwrap();
    assert_eq!(v.to_string_with(&WriteOptions::compact()).unwrap(), "[-0.0,-0.0,-0.0,0]");
    assert_eq!(v.to_string_with(&WriteOptions::go()).unwrap(), "[-0,-0,-0,0]");
    assert_eq!(ints.to_string_with(&WriteOptions::compact()).unwrap(), "[0,-0.0,-0.0,0]");
    assert_eq!(ints.to_string_with(&WriteOptions::go()).unwrap(), "[0,-0,-0,0]");
    assert_eq!(ints.to_string_with(&WriteOptions::jcs()).unwrap(), "[0,0,0,0]");
    assert!(matches!(ints[0], Value::Number(Number::Int(0))), "{:?}", ints[0]);
    // The serde path reads -0 as serde_json does, whatever the option.
    assert_eq!(jetjson::from_slice::<f64>(b"-0").unwrap().to_bits(), (-0.0f64).to_bits());
    // Lossless keeps the text either way.
    let kept = Value::from_slice_with(b"-0", &ReadOptions::lossless().negative_zero_int(true)).unwrap();
    assert_eq!(kept.to_string_with(&WriteOptions::compact()).unwrap(), "-0");
    // On generated documents the option changes nothing but the integer -0
    // literals, which read as they would if written `0`.
    let mut changed = 0;
    for doc in documents(11, 1000) {
        let plain = Value::from_slice(doc.as_bytes()).unwrap();
        let ints = Value::from_slice_with(doc.as_bytes(), &ReadOptions::new().negative_zero_int(true)).unwrap();
        let (zeroed, bare) = zero_bare_minus_zeros(&doc);
        assert_eq!(ints, Value::from_slice(zeroed.as_bytes()).unwrap(), "{doc}");
        // (Value equality tells -0.0 from 0: floats compare by value, but
        // an Int is never equal to a Float.)
        assert_eq!(plain == ints, bare == 0, "{doc}");
        changed += usize::from(bare > 0);
    }
    assert!(changed > 20, "{changed} of 1000 documents have a bare -0");
}

/// `doc` with every bare `-0` literal (a whole token) written `0`, and how
/// many there were.
fn zero_bare_minus_zeros(doc: &str) -> (String, usize) {
    let b = doc.as_bytes();
    let mut out = Vec::new();
    let mut count = 0;
    let mut i = 0;
    while i < b.len() {
        let starts_token = i == 0 || matches!(b[i - 1], b'[' | b',' | b' ' | b':');
        let ends_token = matches!(b.get(i + 2), None | Some(b',' | b']' | b'}'));
        if b[i..].starts_with(b"-0") && starts_token && ends_token {
            out.push(b'0');
            count += 1;
            i += 2;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    (String::from_utf8(out).expect("only ASCII bytes replaced"), count)
}

/// Every reading path's verdict on `input`: each must refuse it, with the
/// position `at` and an out-of-range message naming the literal.
fn assert_refused_everywhere(input: &[u8], at: (usize, usize, usize), literal: &str) {
    #[derive(serde::Deserialize)]
    #[allow(dead_code)]
    struct Typed {
        a: Vec<f64>,
    }
    let errors = [
        ("Value::from_slice", Value::from_slice(input).err()),
        ("validate", jetjson::parse::validate(input, &ReadOptions::new()).err()),
        ("RawJson::from_slice", RawJson::from_slice(input).err()),
        ("from_slice::<Value>", jetjson::from_slice::<Value>(input).err()),
        ("from_slice::<Typed>", jetjson::from_slice::<Typed>(input).err()),
        ("from_reader_with", jetjson::from_reader_with::<_, Value>(input, &ReadOptions::new()).err()),
    ];
    for (path, e) in errors {
        let e = e.unwrap_or_else(|| panic!("{path} accepted {}", show(input)));
        assert!(matches!(e.kind(), ErrorKind::NumberOutOfRange { profile: "read", .. }), "{path}: {e}");
        let p = e.position().unwrap_or_else(|| panic!("{path}: no position in {e}"));
        assert_eq!((p.offset, p.line, p.column), at, "{path}: {e}");
        assert!(e.message().contains(literal), "{path}: {e}");
    }
}

/// The decimal digits of the point halfway between f64::MAX and 2^1024,
/// 2^970 × (2^54 - 1): ties go to even there, so it rounds to infinity.
fn halfway_above_max() -> String {
    let mut d: Vec<u32> = ((1u64 << 54) - 1).to_string().bytes().rev().map(|c| u32::from(c - b'0')).collect();
    for _ in 0..970 {
        let mut carry = 0;
        for x in d.iter_mut() {
            let v = *x * 2 + carry;
            *x = v % 10;
            carry = v / 10;
        }
        if carry > 0 {
            d.push(carry);
        }
    }
    d.iter().rev().map(|&x| char::from(b'0' + x as u8)).collect()
}

#[test]
fn literals_beyond_the_double_range_are_refused_with_their_position() {
    let halfway = halfway_above_max();
    assert_eq!(halfway.len(), 309);
    let long = format!("0.{}1e1400", "0".repeat(1000));
    let at_halfway = format!("{halfway}.0");
    for literal in ["1e400", "1E400", "-1e400", "1e2147483648", "1.5e+9999", &at_halfway, &long] {
        let input = format!("{{\"a\":\n  [1, {literal}]}}");
        let shown = if literal.len() > 40 { &literal[..24] } else { literal };
        assert_refused_everywhere(input.as_bytes(), (12, 2, 7), shown);
        // Lossless keeps the text, as Go's json.Number does; compact and go
        // write it back, jcs has no double for it.
        let kept = Value::from_slice_with(input.as_bytes(), &ReadOptions::lossless()).unwrap();
        assert_eq!(kept["a"][1].to_string_with(&WriteOptions::compact()).unwrap(), literal);
        assert_eq!(kept["a"][1].to_string_with(&WriteOptions::go()).unwrap(), literal);
        assert!(kept.to_vec_with(&WriteOptions::jcs()).is_err());
    }
    // Just below that boundary is the largest double (and as an integer
    // literal, beyond 64 bits, it keeps its digits).
    let last = halfway.as_bytes()[308];
    assert_ne!(last, b'0');
    let below = format!("{}{}.9", &halfway[..308], char::from(last - 1));
    assert_eq!(Value::from_slice(below.as_bytes()).unwrap().as_f64(), Some(f64::MAX), "{below}");
    // Underflow is not out of range: the nearest double is a signed zero.
    for (literal, want) in [("1e-400", 0.0f64), ("-1e-400", -0.0), ("-1e-2147483648", -0.0), ("2.4703282292062328e-324", 5e-324)] {
        let v = Value::from_slice(literal.as_bytes()).unwrap();
        assert_eq!(v.as_f64().map(f64::to_bits), Some(want.to_bits()), "{literal}");
        assert_eq!(jetjson::from_slice::<f64>(literal.as_bytes()).unwrap().to_bits(), want.to_bits(), "{literal}");
    }
}

#[test]
fn long_exponents_give_the_value_on_every_path() {
    let text = format!("0.{}1e655360", "0".repeat(655_359));
    let v = Value::from_slice(text.as_bytes()).unwrap();
    assert_eq!(v.as_f64(), Some(1.0), "{v:?}");
    assert_eq!(v.to_string_with(&WriteOptions::compact()).unwrap(), "1.0");
    assert_eq!(jetjson::from_slice::<f64>(text.as_bytes()).unwrap(), 1.0);
    let lossless = Value::from_slice_with(text.as_bytes(), &ReadOptions::lossless()).unwrap();
    assert_eq!(lossless.to_string_with(&WriteOptions::jcs()).unwrap(), "1");
    assert_eq!(lossless.as_f64(), Some(1.0));
    // Past the range once the exponent is read whole: refused, not 0.
    let beyond = format!("[0.{}1e656000]", "0".repeat(655_359));
    assert_refused_everywhere(beyond.as_bytes(), (1, 1, 2), "0.000000000000000000000");
}

/// What serde_json's `arbitrary_precision` numbers and its `RawValue` hand
/// a serializer: a private struct whose one field, of the same name, holds
/// the text (serde_json's own source; the feature is not turned on here,
/// as it would change serde_json everywhere in these tests).
struct SerdeJsonPrivate(&'static str, String);

impl serde::Serialize for SerdeJsonPrivate {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct(self.0, 1)?;
        st.serialize_field(self.0, &self.1)?;
        st.end()
    }
}

const SJ_NUMBER: &str = "$serde_json::private::Number";
const SJ_RAW: &str = "$serde_json::private::RawValue";

/// Written as the number or the raw text they stand for, in every profile,
/// as jetjson writes its own lossless numbers and `RawJson` (outside
/// tester, stop 44: they came out as `{"$serde_json::private::Number":"1.5"}`).
#[test]
fn serde_json_private_numbers_and_raw_values_are_written_as_their_text() {
    let numbers = ["1.5", "-0", "123456789012345678901234567890", "1e400", "2.50E+3", "0.000001"];
    let raws = ["{\"b\":1,\"a\":[1.50,\"\\u00e9\"]}", "[1, 2 ,3]", "\"<&>\"", "1.0"];
    for (name, options) in profiles() {
        for text in numbers {
            let theirs = jetjson::to_vec_with(&vec![SerdeJsonPrivate(SJ_NUMBER, text.into())], &options);
            let ours =
                Value::from_slice_with(format!("[{text}]").as_bytes(), &ReadOptions::lossless()).and_then(|v| v.to_vec_with(&options));
            match (theirs, ours) {
                (Ok(a), Ok(b)) => assert_eq!(a, b, "{name} {text}"),
                (a, b) => assert_eq!(a.is_err(), b.is_err(), "{name} {text}: {a:?} {b:?}"),
            }
        }
        for text in raws {
            let theirs = jetjson::to_vec_with(&SerdeJsonPrivate(SJ_RAW, text.into()), &options).unwrap();
            let ours = jetjson::to_vec_with(&RawJson::from_slice(text.as_bytes()).unwrap(), &options).unwrap();
            assert_eq!(theirs, ours, "{name} {text}");
        }
    }
    // `to_value` makes the number or value they stand for (it made
    // `{"$serde_json::private::Number":"1.5"}` before: outside tester,
    // stop 45): the same as jetjson's own lossless numbers and `RawJson`.
    for text in numbers {
        let theirs = jetjson::to_value(&vec![SerdeJsonPrivate(SJ_NUMBER, text.into())]).unwrap();
        let ours = Value::from_slice_with(format!("[{text}]").as_bytes(), &ReadOptions::lossless()).unwrap();
        assert_eq!(theirs, ours, "{text}");
        assert_eq!(jetjson::to_vec(&theirs).unwrap(), jetjson::to_vec(&vec![SerdeJsonPrivate(SJ_NUMBER, text.into())]).unwrap(), "{text}");
    }
    for text in raws {
        let theirs = jetjson::to_value(&SerdeJsonPrivate(SJ_RAW, text.into())).unwrap();
        let ours = jetjson::to_value(&RawJson::from_slice(text.as_bytes()).unwrap()).unwrap();
        assert_eq!(theirs, ours, "{text}");
        assert!(!matches!(&theirs, Value::Object(m) if m.get(SJ_RAW).is_some()), "{text}");
    }
    assert!(jetjson::to_value(&SerdeJsonPrivate(SJ_NUMBER, "1.5x".into())).is_err());
    // Not a number, or not the struct's one field: an error, not an object.
    // (A `RawValue`'s text is JSON that serde_json checked when it made it:
    // `compact` copies it as it copies a `RawJson`'s.)
    assert!(jetjson::to_vec(&SerdeJsonPrivate(SJ_NUMBER, "1.5x".into())).is_err());
    struct Other;
    impl serde::Serialize for Other {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeStruct;
            let mut st = s.serialize_struct(SJ_NUMBER, 1)?;
            st.serialize_field("x", "1")?;
            st.end()
        }
    }
    let e = jetjson::to_vec(&Other).unwrap_err();
    assert!(e.to_string().contains("must have one field"), "{e}");
    let e = jetjson::to_value(&Other).unwrap_err();
    assert!(e.to_string().contains("must have one field"), "{e}");
    struct Empty;
    impl serde::Serialize for Empty {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeStruct;
            s.serialize_struct(SJ_RAW, 0)?.end()
        }
    }
    assert!(jetjson::to_vec(&Empty).is_err());
    assert!(jetjson::to_value(&Empty).is_err());
}
