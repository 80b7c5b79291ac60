//! The push driver reads a run of numbers in an array (`[1, 2.5, -3e2]`)
//! in a loop of its own, without the general dispatch on the next byte
//! (parser.rs, `drive_with`). Whatever that loop accepts, builds or rejects
//! must be what the general path would: checked on many random documents
//! made of such runs (with whitespace, nesting, other elements between
//! numbers) and on corruptions of them (a byte deleted, inserted or
//! replaced), against two references that do not use the loop:
//!
//! * serde_json (accepts exactly RFC 8259, like jetjson in its default
//!   options): the same documents accepted, with the same values;
//! * jetjson's serde `Deserializer` (de.rs), which pulls the same grammar
//!   pieces without the push driver: a rejected document is rejected at
//!   the same offset.

mod common;

use common::Rng;
use jetjson::Value;

/// A number literal: integers of every size that reads back exactly,
/// fractions, exponents, negative zero. No literal is out of the double
/// range (serde_json rejects those; jetjson keeps their text).
fn number(rng: &mut Rng) -> String {
    match rng.below(8) {
        0 => rng.below(10).to_string(),
        1 => (rng.next() % 100_000).to_string(),
        2 => format!("-{}", rng.next() >> rng.below(64)),
        3 => (rng.next() >> rng.below(64)).to_string(),
        4 => format!("{}.{}", rng.next() % 1000, rng.next() % 1_000_000),
        5 => format!("-{}.{:03}e{}{}", rng.next() % 10, rng.next() % 1000, ["", "+", "-"][rng.below(3)], rng.below(30)),
        6 => ["0", "-0", "-0.0", "1E5", "0e0", "123456789012345678901234567890", "4.9e-324"][rng.below(7)].to_string(),
        _ => format!("{}", (rng.next() % 1_000_000) as f64 / 1024.0),
    }
}

fn ws(rng: &mut Rng) -> &'static str {
    ["", "", "", "", " ", " ", "\n  ", "\t", " \r\n ", "  "][rng.below(10)]
}

/// An array element: mostly numbers, sometimes something else (which the
/// run must stop at and hand over), sometimes a nested array of numbers.
fn element(rng: &mut Rng, depth: usize, out: &mut String) {
    match rng.below(20) {
        0 => out.push_str(["true", "false", "null"][rng.below(3)]),
        1 => out.push_str("\"s, 1]\""),
        2 if depth > 0 => {
            out.push_str("{\"k\":");
            out.push_str(ws(rng));
            array(rng, depth - 1, out);
            out.push('}');
        }
        3..=5 if depth > 0 => array(rng, depth - 1, out),
        _ => out.push_str(&number(rng)),
    }
}

fn array(rng: &mut Rng, depth: usize, out: &mut String) {
    out.push('[');
    out.push_str(ws(rng));
    let n = [0, 1, 2, 2, 3, 5, 17][rng.below(7)];
    for k in 0..n {
        if k > 0 {
            out.push_str(ws(rng));
            out.push(',');
            out.push_str(ws(rng));
        }
        element(rng, depth, out);
    }
    out.push_str(ws(rng));
    out.push(']');
}

/// One byte deleted, inserted or replaced, at a random place (bytes chosen
/// to break a run of numbers in every way: separators, brackets, number
/// characters, whitespace, junk).
fn corrupt(rng: &mut Rng, doc: &str) -> Vec<u8> {
    let mut b = doc.as_bytes().to_vec();
    let at = rng.below(b.len() + 1);
    let bytes = b",,]][-.e+0 9\nx}\"";
    let byte = bytes[rng.below(bytes.len())];
    match rng.below(3) {
        0 if at < b.len() => {
            b.remove(at);
        }
        1 if at < b.len() => b[at] = byte,
        _ => b.insert(at, byte),
    }
    b
}

/// Same tree, numbers compared by value (serde_json's numbers are i64,
/// u64 or f64; jetjson keeps integers beyond 64 bits as text).
fn same(ours: &Value, theirs: &serde_json::Value) -> bool {
    match (ours, theirs) {
        (Value::Null, serde_json::Value::Null) => true,
        (Value::Bool(a), serde_json::Value::Bool(b)) => a == b,
        (Value::String(a), serde_json::Value::String(b)) => a.as_ref() as &str == b,
        (Value::Number(a), serde_json::Value::Number(b)) => match (b.as_i64(), b.as_u64()) {
            (Some(i), _) => a.as_i64() == Some(i) && a.is_integer(),
            (_, Some(u)) => a.as_u64() == Some(u) && a.is_integer(),
            // The correctly rounded double of the same literal.
            _ => a.as_f64().map(f64::to_bits) == b.as_f64().map(f64::to_bits),
        },
        (Value::Array(a), serde_json::Value::Array(b)) => a.len() == b.len() && a.iter().zip(b).all(|(x, y)| same(x, y)),
        (Value::Object(a), serde_json::Value::Object(b)) => {
            a.len() == b.len() && a.iter().all(|(k, v)| b.get(k as &str).is_some_and(|w| same(v, w)))
        }
        _ => false,
    }
}

fn check(input: &[u8], what: &str) {
    let ours = Value::from_slice(input);
    let theirs = serde_json::from_slice::<serde_json::Value>(input);
    let shown = String::from_utf8_lossy(input);
    match (&ours, &theirs) {
        (Ok(a), Ok(b)) => assert!(same(a, b), "{what}: different values for {shown:?}: {a} vs {b}"),
        (Err(e), Err(_)) => {
            // Rejected by both: at the same place as the pull parser.
            let pulled = jetjson::from_slice::<serde::de::IgnoredAny>(input).expect_err("the pull parser rejects it too");
            if let jetjson::ErrorKind::NumberOutOfRange { .. } = pulled.kind() {
                // The pull parser converts numbers as it reads them (for
                // serde) and stopped at a literal beyond the double range,
                // before the syntax error: no position to compare.
                return;
            }
            let at = |e: &jetjson::Error| e.position().map(|p| p.offset);
            assert_eq!(at(e), at(&pulled), "{what}: {shown:?}: push driver says {e}, pull parser says {pulled}");
        }
        // A corruption can make a literal beyond the double range (an
        // exponent gaining digits): serde_json refuses it, jetjson keeps
        // its text (the syntax is the same).
        (Ok(_), Err(e)) if e.to_string().starts_with("number out of range") => {}
        _ => panic!("{what}: {shown:?}: jetjson {:?}, serde_json {:?}", ours.map(|v| v.to_string()), theirs.map(|_| ())),
    }
}

#[test]
fn runs_of_numbers_match_the_references() {
    let mut rng = Rng::new(0x5EED_0003);
    for round in 0..4000 {
        let mut doc = String::new();
        if rng.chance(30) {
            doc.push_str("{\"a\":");
            array(&mut rng, 3, &mut doc);
            doc.push_str(",\"b\":");
            array(&mut rng, 1, &mut doc);
            doc.push('}');
        } else {
            array(&mut rng, 3, &mut doc);
        }
        check(doc.as_bytes(), &format!("round {round}"));
        for k in 0..8 {
            check(&corrupt(&mut rng, &doc), &format!("round {round}, corruption {k}"));
        }
    }
}

/// Long runs (one large flat array, as in vertex data), whole and cut off
/// at every kind of place.
#[test]
fn long_runs_whole_and_truncated() {
    let mut rng = Rng::new(41);
    for round in 0..40 {
        let mut doc = String::from("[");
        for k in 0..3000 {
            if k > 0 {
                doc.push_str(ws(&mut rng));
                doc.push(',');
                doc.push_str(ws(&mut rng));
            }
            doc.push_str(&number(&mut rng));
        }
        doc.push(']');
        check(doc.as_bytes(), &format!("round {round}"));
        let cut = rng.below(doc.len());
        check(&doc.as_bytes()[..cut], &format!("round {round}, cut at {cut}"));
    }
}

/// The run loop reads the separator after a number, and the next number's
/// first byte, from the number's 32-byte window (`", "` or `","` then a
/// digit or '-'). Only inside arrays: after an object member's value a
/// number must not be taken as the next member. Checked with every
/// separator form, numbers of every length the window accepts, and each
/// placed at every distance from the end of the input, where the window
/// stops being available and the byte-by-byte path takes over.
#[test]
fn separators_read_from_the_window_at_every_distance_from_the_end() {
    let numbers = ["7", "-3", "0", "-0", "12.5", "-0.0636837780476", "1234567890123456789", "-65.613616999999977", "9.999999999999999999"];
    let separators = [",", ", ", " ,", ",  ", ",\n", " , "];
    for number in numbers {
        for sep in separators {
            for pad in 0..40 {
                // `pad` extra numbers after the pair push it towards the
                // start of the input, one number's length at a time.
                let mut doc = format!("[{number}{sep}{number}");
                for _ in 0..pad {
                    doc.push_str(sep);
                    doc.push('1');
                }
                doc.push(']');
                check(doc.as_bytes(), &format!("array {doc:?}"));
                // Objects: a number after ',' is an error, not a member.
                let object = format!("{{\"a\":{number}{sep}{number}{}}}", " ".repeat(pad));
                assert!(Value::from_slice(object.as_bytes()).is_err(), "{object:?} accepted");
                check(object.as_bytes(), &format!("object {object:?}"));
                // Something else after the ',' (a string, an array, a
                // literal, a bad byte): handed to the general path.
                for next in ["\"x\"", "[1]", "true", "-", "x", "]"] {
                    let doc = format!("[{number}{sep}{next}{}]", " ".repeat(pad));
                    check(doc.as_bytes(), &format!("array {doc:?}"));
                }
            }
        }
    }
}
