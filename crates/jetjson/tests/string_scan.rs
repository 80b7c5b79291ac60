//! The parser's string scanning (the inline 16-byte SSE2 check and the
//! dispatched AVX2/SSE2/SWAR scan, `parse/scan.rs`) through the public API,
//! at every body length up to 160 bytes and every start alignment 0..64,
//! with the special byte (quote, backslash, control byte, non-ASCII, invalid
//! UTF-8) at every position. Each document ends exactly at the end of its
//! allocation, so under AddressSanitizer (`make sanitize`) a vector load
//! past the input is reported, and unterminated strings run the scan into
//! that edge.

use jetjson::parse::validate;
use jetjson::{ErrorKind, ReadOptions, Value};

const MAX_LEN: usize = 160;
/// Every start alignment within a cache line, and (for the tests that
/// also vary the special byte's position, which already moves it across
/// every lane) a sample of them.
const ALL_ALIGNMENTS: &[usize] = &{
    let mut all = [0; 64];
    let mut i = 0;
    while i < 64 {
        all[i] = i;
        i += 1;
    }
    all
};
const SOME_ALIGNMENTS: &[usize] = &[0, 1, 7, 8, 15, 31, 32, 63];

/// `doc` copied to offset `align` of an allocation that ends with it.
fn placed(doc: &[u8], align: usize) -> Box<[u8]> {
    let mut v = Vec::with_capacity(align + doc.len());
    v.resize(align, b' ');
    v.extend_from_slice(doc);
    v.into_boxed_slice()
}

/// Body of `len` letters (varying, so no two lanes look alike).
fn letters(len: usize) -> Vec<u8> {
    (0..len).map(|i| b'a' + (i * 7 % 26) as u8).collect()
}

/// Parses `doc` at every alignment through the direct parser, the
/// validator and the serde path; all must give `want` (the decoded
/// string, or the error offset and whether it is a syntax error).
fn check(doc: &[u8], want: Result<&str, usize>, alignments: &[usize]) {
    for &align in alignments {
        let buf = placed(doc, align);
        let input = &buf[align..];
        let what = || format!("{:?} at alignment {align}", String::from_utf8_lossy(doc));
        let direct = Value::from_slice(input);
        let serde = jetjson::from_slice::<Value>(input);
        let valid = validate(input, &ReadOptions::default());
        match want {
            Ok(s) => {
                assert_eq!(direct.as_ref().map(|v| v.as_str()), Ok(Some(s)), "{}", what());
                assert_eq!(serde.as_ref().map(|v| v.as_str()), Ok(Some(s)), "{}: serde", what());
                assert!(valid.is_ok(), "{}: validate: {valid:?}", what());
            }
            Err(at) => {
                for (path, e) in [("direct", direct.map(drop)), ("serde", serde.map(drop)), ("validate", valid)] {
                    let e = e.expect_err(&format!("{}: {path} accepted", what()));
                    assert!(matches!(e.kind(), ErrorKind::Syntax { .. }), "{}: {path}: {e:?}", what());
                    assert_eq!(e.position().map(|p| p.offset), Some(at), "{}: {path}: {e}", what());
                }
            }
        }
    }
}

fn quoted(body: &[u8]) -> Vec<u8> {
    let mut d = vec![b'"'];
    d.extend_from_slice(body);
    d.push(b'"');
    d
}

#[test]
fn plain_strings_of_every_length() {
    for len in 0..=MAX_LEN {
        let body = letters(len);
        check(&quoted(&body), Ok(std::str::from_utf8(&body).unwrap()), ALL_ALIGNMENTS);
    }
}

#[test]
fn unterminated_strings_of_every_length_end_at_the_allocation() {
    for len in 0..=MAX_LEN {
        // `"abc…` with no closing quote: the scan runs to the last byte.
        let mut doc = vec![b'"'];
        doc.extend_from_slice(&letters(len));
        check(&doc, Err(0), ALL_ALIGNMENTS);
        // The same after an escape, which restarts the scan mid-string.
        let mut doc = b"\"\\n".to_vec();
        doc.extend_from_slice(&letters(len));
        check(&doc, Err(0), ALL_ALIGNMENTS);
        // Non-ASCII bytes up to the end.
        let mut doc = vec![b'"'];
        doc.extend(std::iter::repeat_n("é".as_bytes(), len / 2).flatten());
        check(&doc, Err(0), ALL_ALIGNMENTS);
    }
}

#[test]
fn a_special_byte_at_every_position() {
    for len in 1..=MAX_LEN {
        for k in 0..len {
            // An escaped quote before byte k: decoded as a quote.
            let body = letters(len);
            let doc = [&b"\""[..], &body[..k], b"\\\"", &body[k..], b"\""].concat();
            let want = [&body[..k], b"\"", &body[k..]].concat();
            check(&doc, Ok(std::str::from_utf8(&want).unwrap()), SOME_ALIGNMENTS);

            // A raw control byte at k: an error there (offset k + 1).
            let mut body = letters(len);
            body[k] = 0x1f;
            check(&quoted(&body), Err(k + 1), SOME_ALIGNMENTS);

            // A two-byte character at k (the body grows by one byte).
            let mut body = letters(len);
            body.splice(k..k + 1, "é".bytes());
            check(&quoted(&body), Ok(std::str::from_utf8(&body).unwrap()), SOME_ALIGNMENTS);

            // An invalid UTF-8 byte at k.
            let mut body = letters(len);
            body[k] = 0xff;
            check(&quoted(&body), Err(k + 1), SOME_ALIGNMENTS);
        }
    }
}

/// The UTF-8 check of string bodies agrees with `std::str::from_utf8`
/// (accepts the same bodies, reports the same first invalid byte) on every
/// sequence of up to three bytes drawn from the bytes that decide UTF-8
/// validity (each lead byte class, each continuation boundary), placed at
/// several offsets of a body long enough for the SIMD validator's blocks.
#[test]
fn utf8_check_agrees_with_the_standard_library() {
    let interesting: Vec<u8> = vec![
        b'a', 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4,
        0xF5, 0xFF,
    ];
    let mut tried = 0;
    for &a in &interesting {
        for &b in &interesting {
            for &c in &interesting {
                for prefix in [0usize, 13, 62] {
                    // A valid multi-byte character first, so the body is
                    // never on the ASCII-only path.
                    let mut body = "é".as_bytes().to_vec();
                    body.extend_from_slice(&letters(prefix));
                    body.extend_from_slice(&[a, b, c]);
                    body.extend_from_slice(&letters(5));
                    let doc = quoted(&body);
                    let want = std::str::from_utf8(&body).map_err(|e| 1 + e.valid_up_to());
                    check(&doc, want, &[0]);
                    tried += 1;
                }
            }
        }
    }
    assert_eq!(tried, 24 * 24 * 24 * 3);
}
