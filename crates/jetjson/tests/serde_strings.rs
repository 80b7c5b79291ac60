//! Strings with escapes read by the serde path (`from_slice::<String>`, a
//! struct's `String` field) and by the fast driver (`Value::from_slice`):
//! the decoder that copies text 16 bytes at a time, takes runs of escapes
//! from 32-byte windows and decodes escapes in place (`parse/parser.rs`,
//! `decode_string`, `escape_runs`).
//!
//! Differential: generated bodies dense in escapes (one-letter, `\u`,
//! surrogate pairs), raw non-ASCII text and runs of every length, decoded
//! as serde_json decodes them; broken bodies (bad escapes, lone
//! surrogates, control bytes, invalid UTF-8, no closing quote) refused at
//! the offset and with the message a byte-by-byte reference below gives.
//! Each document ends at the end of its allocation, at several alignments,
//! so the decoder's last bytes (the byte loop) and its 16-byte copies are
//! both exercised, and under AddressSanitizer an over-read is reported.

mod common;

use common::Rng;
use jetjson::ErrorKind;
use serde::Deserialize;

/// `doc` copied to offset `align` of an allocation that ends with it.
fn placed(doc: &[u8], align: usize) -> Box<[u8]> {
    let mut v = Vec::with_capacity(align + doc.len());
    v.resize(align, b' ');
    v.extend_from_slice(doc);
    v.into_boxed_slice()
}

/// Pieces a body is made of.
fn piece(rng: &mut Rng, out: &mut Vec<u8>) {
    match rng.below(12) {
        // Plain runs of any length, across 16-byte copies.
        0..=2 => {
            let len = rng.below(40);
            let from = out.len();
            out.extend((0..len).map(|k| b'a' + ((k * 7 + from) % 26) as u8));
        }
        3 => out.extend_from_slice(br#"\""#),
        4 => {
            let e: &[u8] = [&b"\\\\"[..], b"\\/", b"\\b", b"\\f", b"\\n", b"\\r", b"\\t"][rng.below(7)];
            out.extend_from_slice(e);
        }
        5 => {
            // A BMP escape, upper or lower case hex.
            let cp = [0x41, 0xe9, 0x7ff, 0x800, 0x2028, 0xfffd, 0xd7ff, 0xe000][rng.below(8)];
            let s = if rng.chance(50) { format!("\\u{cp:04x}") } else { format!("\\u{cp:04X}") };
            out.extend_from_slice(s.as_bytes());
        }
        6 => {
            // A surrogate pair.
            let hi = 0xd800 + rng.below(0x400);
            let lo = 0xdc00 + rng.below(0x400);
            out.extend_from_slice(format!("\\u{hi:04x}\\u{lo:04x}").as_bytes());
        }
        7 => {
            let s = ["é", "ß", "€", "😀", "\u{7f}", "\u{80}"][rng.below(6)];
            out.extend_from_slice(s.as_bytes());
        }
        // Escapes back to back (embedded JSON: `\":\"`).
        8 => out.extend_from_slice(br#"\":\""#),
        9 => out.extend_from_slice(br#"\\\""#),
        10 => out.push(b' '),
        _ => out.extend_from_slice(b"{"),
    }
}

/// One way a body can be broken, applied at a random place.
fn break_body(rng: &mut Rng, body: &mut Vec<u8>) {
    let at = rng.below(body.len() + 1);
    let bad: &[u8] = match rng.below(9) {
        0 => b"\\x",
        1 => b"\\u12g4",
        2 => b"\\ud800",
        3 => b"\\udc00",
        4 => b"\\ud800\\u0041",
        5 => b"\x01",
        6 => b"\xff",
        7 => b"\xe2\x82",
        _ => b"\\u12",
    };
    body.splice(at..at, bad.iter().copied());
}

/// What a string body (after the opening quote at offset 0) decodes to, or
/// where and why it is refused, byte by byte: a run of text is checked as
/// UTF-8 when the escape or quote after it is reached, a control byte is
/// refused where it is, and a body with no closing quote at its quote.
fn reference(doc: &[u8]) -> Result<(String, usize), (usize, &'static str)> {
    let mut out = String::new();
    let (mut i, mut run) = (1, 1);
    let utf8 = |run: usize, at: usize| std::str::from_utf8(&doc[run..at]).map_err(|e| (run + e.valid_up_to(), "invalid UTF-8 in string"));
    let hex4 = |at: usize| -> Result<u32, (usize, &'static str)> {
        let d = doc.get(at..at + 4).ok_or((at, "incomplete \\u escape"))?;
        let mut v = 0;
        for (k, &c) in d.iter().enumerate() {
            v = v * 16 + (c as char).to_digit(16).ok_or((at + k, "invalid hex digit in \\u escape"))?;
        }
        Ok(v)
    };
    loop {
        match doc.get(i) {
            None => return Err((0, "unterminated string")),
            Some(b'"') => {
                out.push_str(utf8(run, i)?);
                return Ok((out, i));
            }
            Some(b'\\') => {
                out.push_str(utf8(run, i)?);
                let (c, next) = match doc.get(i + 1) {
                    Some(b'"') => ('"', i + 2),
                    Some(b'\\') => ('\\', i + 2),
                    Some(b'/') => ('/', i + 2),
                    Some(b'b') => ('\u{8}', i + 2),
                    Some(b'f') => ('\u{c}', i + 2),
                    Some(b'n') => ('\n', i + 2),
                    Some(b'r') => ('\r', i + 2),
                    Some(b't') => ('\t', i + 2),
                    Some(b'u') => {
                        let hi = hex4(i + 2)?;
                        match hi {
                            0xd800..=0xdbff => {
                                let lone = "lone surrogate escape (a high surrogate must be followed by a low one)";
                                if doc.get(i + 6..i + 8) != Some(b"\\u") {
                                    return Err((i, lone));
                                }
                                let lo = hex4(i + 8)?;
                                if !(0xdc00..=0xdfff).contains(&lo) {
                                    return Err((i + 6, lone));
                                }
                                (char::from_u32(0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00)).unwrap(), i + 12)
                            }
                            0xdc00..=0xdfff => return Err((i, "lone surrogate escape (a low surrogate without a high one)")),
                            _ => (char::from_u32(hi).unwrap(), i + 6),
                        }
                    }
                    Some(_) => return Err((i, "invalid escape in string")),
                    None => return Err((i, "unterminated string")),
                };
                out.push(c);
                i = next;
                run = i;
            }
            Some(&c) if c < 0x20 => return Err((i, "control character in string (must be escaped)")),
            Some(_) => i += 1,
        }
    }
}

#[derive(Deserialize, Debug, PartialEq)]
struct Record {
    name: String,
    other: String,
}

fn check(doc: &[u8], tail: usize) {
    let want = reference(doc).map(|(s, end)| {
        assert_eq!(end + 1, doc.len(), "the string ends the document");
        s
    });
    if let Ok(s) = &want {
        // The reference agrees with serde_json on what the text is.
        let theirs: String = serde_json::from_slice(doc).expect("serde_json accepts what the reference accepts");
        assert_eq!(&theirs, s);
    } else {
        assert!(serde_json::from_slice::<String>(doc).is_err(), "serde_json accepts {:?}", String::from_utf8_lossy(doc));
    }
    for align in [0, 1, 15, 33] {
        // The document alone, ending at the end of its allocation, and the
        // same after `tail` bytes of whitespace (the 16-byte copies then run
        // past the closing quote).
        let mut padded = doc.to_vec();
        padded.extend(std::iter::repeat_n(b' ', tail));
        for d in [doc, &padded[..]] {
            let buf = placed(d, align);
            // The serde path, and the fast driver building a `Value` (the
            // same decoder behind it; its errors told by the reference).
            let got = jetjson::from_slice::<String>(&buf[align..]);
            let value = jetjson::Value::from_slice(&buf[align..]);
            // In an object, as a member's value and as its name: decoded
            // into the `Value` builder's arena (`Visitor::text_room`), not
            // the scratch buffer a string alone takes.
            let member = jetjson::Value::from_slice(&[&b"{\"k\":"[..], d, b"}"].concat());
            let name = jetjson::Value::from_slice(&[&b"{"[..], d, b":0}"].concat());
            let name = name.map(|v| v.as_object().and_then(|m| m.iter().next().map(|(k, _)| k.to_string())));
            // Whitespace after an unterminated string is part of it.
            let want = if d.len() == doc.len() { want.clone() } else { reference(d).map(|(s, _)| s) };
            match &want {
                Ok(s) => {
                    assert_eq!(got.as_ref(), Ok(s), "{:?}", String::from_utf8_lossy(doc));
                    assert_eq!(
                        value.as_ref().ok().and_then(|v| v.as_str()),
                        Some(s.as_str()),
                        "Value of {:?}",
                        String::from_utf8_lossy(doc)
                    );
                    let member = member.as_ref().ok().and_then(|v| v.get("k")).and_then(|v| v.as_str());
                    assert!(member == Some(s.as_str()), "member {:?}", String::from_utf8_lossy(doc));
                    assert!(name.as_ref().ok().cloned().flatten().as_ref() == Some(s), "name {:?}", String::from_utf8_lossy(doc));
                }
                Err((at, msg)) => {
                    assert!(member.is_err() && name.is_err(), "in an object {:?}", String::from_utf8_lossy(doc));
                    for e in [got.expect_err("refused"), value.expect_err("Value refused")] {
                        assert!(matches!(e.kind(), ErrorKind::Syntax { .. }), "{e:?}");
                        assert_eq!(e.position().map(|p| p.offset), Some(*at), "{:?}: {e}", String::from_utf8_lossy(doc));
                        assert!(e.to_string().contains(msg), "{:?}: {e}, expected {msg}", String::from_utf8_lossy(doc));
                    }
                }
            }
        }
    }
    // As a member of a struct, twice (the decoder's buffer is reused);
    // errors only where they do not depend on what follows the document.
    if want.is_err() && reference(&[doc, b"\"}"].concat()).err() != want.clone().err() {
        return;
    }
    let mut rec = b"{\"name\":".to_vec();
    rec.extend_from_slice(doc);
    rec.extend_from_slice(b",\"other\":");
    rec.extend_from_slice(doc);
    rec.push(b'}');
    let got = jetjson::from_slice::<Record>(&rec);
    match &want {
        Ok(s) => assert_eq!(got.unwrap(), Record { name: s.clone(), other: s.clone() }),
        Err((at, _)) => assert_eq!(got.unwrap_err().position().map(|p| p.offset), Some(at + 8)),
    }
}

#[test]
fn escaped_strings_decode_as_serde_json_does() {
    let mut rng = Rng::new(0x5e5d_e57a);
    for n in 0..4000 {
        let mut body = Vec::new();
        let pieces = 1 + rng.below(if n % 10 == 0 { 60 } else { 12 });
        for _ in 0..pieces {
            piece(&mut rng, &mut body);
        }
        // At least one escape, so the body takes the decoder.
        if !body.contains(&b'\\') {
            let at = rng.below(body.len() + 1);
            body.splice(at..at, *b"\\n");
        }
        let mut doc = vec![b'"'];
        doc.extend_from_slice(&body);
        doc.push(b'"');
        check(&doc, rng.below(20));
    }
}

#[test]
fn broken_escaped_strings_are_refused_where_the_reference_says() {
    let mut rng = Rng::new(0xbad5_7e5c);
    for n in 0..4000 {
        let mut body = b"\\n".to_vec();
        for _ in 0..1 + rng.below(10) {
            piece(&mut rng, &mut body);
        }
        break_body(&mut rng, &mut body);
        if n % 3 == 0 {
            break_body(&mut rng, &mut body);
        }
        let mut doc = vec![b'"'];
        doc.extend_from_slice(&body);
        // Some have no closing quote at all.
        if n % 7 != 0 {
            doc.push(b'"');
        }
        // A break can make a quote end the string early (`\\x"`): not
        // what this test is about.
        if reference(&doc).is_ok_and(|(_, end)| end + 1 != doc.len()) {
            continue;
        }
        check(&doc, rng.below(20));
    }
}

/// An escape, then text of every length to 80 with one special byte at
/// every position, ending the input there or not.
#[test]
fn every_run_length_and_stop_after_an_escape() {
    for len in 0..80 {
        for k in 0..=len {
            for special in [&b"\\\""[..], b"\\n", b"\x1f", "é".as_bytes(), b"\xc3"] {
                let mut doc = b"\"\\t".to_vec();
                doc.extend((0..len).map(|i| b'a' + (i % 26) as u8));
                doc.splice(3 + k..3 + k, special.iter().copied());
                check(&doc, 0);
                doc.push(b'"');
                check(&doc, 3);
            }
        }
    }
}

/// Runs of escapes (as in JSON embedded in a string) of every length and
/// at every offset from the start of the input, ending at the end of the
/// input in every way: closed, unterminated, in a lone backslash, in a
/// `\u` escape, or followed by text with bytes >= 0x80 or a control byte
/// (the 32-byte windows of `escape_runs` must stop short of the end).
#[test]
fn escape_runs_end_anywhere() {
    let runs: [&[u8]; 4] = [br#"\""#, br#"\\"#, br#"a\":\"b"#, br#"\n\t"#];
    let ends: [&[u8]; 9] = [b"\"", b"", b"\\", b"\\u00", b"\\u00e9\"", "é\"".as_bytes(), b"\xc3\"", b"\x01\"", b"xyz\\/\""];
    for lead in 0..3 {
        for run in runs {
            for count in 0..40 {
                for end in ends {
                    let mut doc = b"\"".to_vec();
                    doc.extend(std::iter::repeat_n(b'x', lead));
                    for _ in 0..count {
                        doc.extend_from_slice(run);
                    }
                    if !doc[1..].contains(&b'\\') {
                        doc.extend_from_slice(b"\\n");
                    }
                    doc.extend_from_slice(end);
                    check(&doc, 0);
                }
            }
        }
    }
}
