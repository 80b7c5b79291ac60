//! The walk of a small flat object, for bindings' quick paths
//! (`loads(b'{"a":1}')` in Python, a request body of a few scalar members).
//!
//! A document of at most `FLAT_UP_TO` bytes that is one object whose
//! members are all strings, numbers or literals (no nested array or
//! object) is read by a walk of its bytes that hands each member to a
//! `FlatBuilder` as it goes. None of the driver's machinery runs: no set-up,
//! no masks of the first block, no working memory. A look over the bytes
//! first (`plain`) declines every document with a `{`, `[` or `\` after its
//! first byte before the builder hears of it, so nested documents lose
//! only that look.
//!
//! The walk accepts only what the parser accepts (and reports the members
//! the parser would report, in document order): anything else (bad syntax
//! of any kind, an escape, a control byte or bad UTF-8 in a string, a
//! nested container, a document that does not start with `{`, options it
//! does not honour, a builder that declines) makes it decline, and the
//! caller then parses the document with the parser, which gives the result
//! or the error (with its position). Members already handed over before a
//! decline are the builder's to drop. Repeated names are handed over as
//! they come: the walk applies no `DuplicateKeys` policy (a builder that
//! refuses repeats declines, or checks afterwards, and lets the parser
//! report them).
//!
//! The one JSON reader for these documents: the Python binding's
//! `loads/flat.rs` only makes its objects from what this walk hands it.

use super::drive::number_at;
use super::options::ReadOptions;
use super::visitor::NumberToken;

/// The longest input the flat walk takes: beyond it, the parser's driver
/// (block masks, 64 bytes at a time) reads members faster than the walk
/// saves in set-up. A binding checks it before calling `flat_object`, to
/// spare longer documents the call.
#[doc(hidden)]
pub const FLAT_UP_TO: usize = 128;

/// A string as the flat walk found it: its body, which has no escape and
/// no control byte.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub enum FlatText<'a> {
    /// Every byte below 0x80 (so also valid UTF-8).
    Ascii(&'a [u8]),
    /// Checked as UTF-8, with at least one byte of 0x80 or above.
    Utf8(&'a str),
}

/// A member's value as the flat walk found it.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub enum FlatValue<'a> {
    Text(FlatText<'a>),
    /// As the driver reads a number with numbers not kept lossless
    /// (`number_at`).
    Number(NumberToken<'a>),
    True,
    False,
    Null,
}

/// What `flat_object` hands a flat object's parts to.
#[doc(hidden)]
pub trait FlatBuilder {
    /// Called once, after the options and the look over the bytes have
    /// passed and before the first member (also for `{}`): `false` to
    /// decline (the walk then stops, calling nothing more). A builder
    /// makes its object here, so a document the look refuses costs it
    /// nothing.
    fn begin(&mut self) -> bool;

    /// The next member, in document order: `false` to decline (the walk
    /// then stops, calling nothing more). The rest of the document is not
    /// checked yet: a walk that later declines leaves the members already
    /// taken to the builder to drop.
    fn member(&mut self, key: FlatText<'_>, value: FlatValue<'_>) -> bool;
}

/// JSON whitespace (RFC 8259: space, tab, line feed, carriage return).
#[inline(always)]
fn is_ws(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r')
}

/// The first offset at or after `i` that is not whitespace (or the end).
#[inline(always)]
fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while b.get(i).is_some_and(|&c| is_ws(c)) {
        i += 1;
    }
    i
}

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// Bytes of `w` that end a string's plain run: `"`, `\` or a control byte
/// (below 0x20). The lowest flagged byte is exact (borrows only flag bytes
/// above a true one), which is all the caller uses.
#[inline(always)]
fn stops(w: u64) -> u64 {
    let quote = w ^ (ONES * u64::from(b'"'));
    let backslash = w ^ (ONES * u64::from(b'\\'));
    let zero_quote = quote.wrapping_sub(ONES) & !quote;
    let zero_backslash = backslash.wrapping_sub(ONES) & !backslash;
    let control = w.wrapping_sub(ONES * 0x20) & !w;
    (zero_quote | zero_backslash | control) & HIGHS
}

/// The string whose body starts at `start` (after its opening quote): its
/// text and the offset of its closing quote, when the body has no escape
/// and no control byte and is valid UTF-8; `None` otherwise (escapes are
/// the parser's, as is every error).
#[inline(always)]
fn string(b: &[u8], start: usize) -> Option<(FlatText<'_>, usize)> {
    let mut i = start;
    let mut high = 0u64;
    let end = loop {
        match b.get(i..).and_then(<[u8]>::first_chunk::<8>) {
            Some(chunk) => {
                let w = u64::from_le_bytes(*chunk);
                let s = stops(w);
                if s != 0 {
                    let k = (s.trailing_zeros() / 8) as usize;
                    // The bytes before the stop (k < 8).
                    high |= w & HIGHS & ((1u64 << (8 * k)) - 1);
                    i += k;
                } else {
                    high |= w & HIGHS;
                    i += 8;
                    continue;
                }
            }
            None => {
                // Fewer than 8 bytes left: byte by byte.
                while let Some(&c) = b.get(i) {
                    if c == b'"' || c == b'\\' || c < 0x20 {
                        break;
                    }
                    high |= u64::from(c & 0x80);
                    i += 1;
                }
            }
        }
        break i;
    };
    if b.get(end) != Some(&b'"') {
        // An escape, a control byte or the end of the input.
        return None;
    }
    let body = b.get(start..end)?;
    if high == 0 {
        return Some((FlatText::Ascii(body), end));
    }
    Some((FlatText::Utf8(std::str::from_utf8(body).ok()?), end))
}

/// Whether `b` after its first byte has no `{`, `[` or `\\`: then a
/// document that starts with `{` is, if valid, one object with no nested
/// container and no escape. Conservative (a bracket inside a string
/// counts): a document it refuses is read by the parser, having cost only
/// this look, about one instruction per 2 bytes up to the first such byte.
#[inline(always)]
fn plain(b: &[u8]) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{__m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8};
        let n = b.len();
        if n > 16 {
            // SAFETY: SSE2 is part of x86_64's baseline. Every load reads
            // the 16 bytes at `i`, with `1 <= i` and `i + 16 <= n` (the last
            // one overlapping the one before), inside `b`.
            unsafe {
                let hit = |i: usize| {
                    let v = _mm_loadu_si128(b.as_ptr().add(i).cast::<__m128i>());
                    let m = _mm_or_si128(
                        _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(b'{' as i8)), _mm_cmpeq_epi8(v, _mm_set1_epi8(b'[' as i8))),
                        _mm_cmpeq_epi8(v, _mm_set1_epi8(b'\\' as i8)),
                    );
                    _mm_movemask_epi8(m) != 0
                };
                let mut i = 1;
                while i + 16 <= n {
                    if hit(i) {
                        return false;
                    }
                    i += 16;
                }
                return i == n || !hit(n - 16);
            }
        }
    }
    // Short inputs (and other targets): two overlapping words, or bytes.
    let rest = b.get(1..).unwrap_or(&[]);
    match (rest.first_chunk::<8>(), rest.last_chunk::<8>()) {
        (Some(first), Some(last)) if rest.len() <= 16 => {
            !word_has_bracket_or_escape(u64::from_le_bytes(*first)) && !word_has_bracket_or_escape(u64::from_le_bytes(*last))
        }
        _ => !rest.iter().any(|&c| matches!(c, b'{' | b'[' | b'\\')),
    }
}

/// Whether the word `w` has a byte `{`, `[` or `\\` (exact: a borrow only
/// flags bytes above a true one).
#[inline(always)]
fn word_has_bracket_or_escape(w: u64) -> bool {
    // `[` (0x5B) and `{` (0x7B) are the only bytes that are `{` once bit 5 is set.
    let brace = (w | (ONES * 0x20)) ^ (ONES * u64::from(b'{'));
    let backslash = w ^ (ONES * u64::from(b'\\'));
    ((brace.wrapping_sub(ONES) & !brace) | (backslash.wrapping_sub(ONES) & !backslash)) & HIGHS != 0
}

/// Reads `input` as one flat object of at most `FLAT_UP_TO` bytes, handing
/// `builder` each member as it is read: the number of members when the
/// whole document was such an object and the builder took every member;
/// `None` (declined) otherwise, and then the caller parses `input` with
/// the parser (`parse`), which gives the result or the error.
///
/// Honours `options` by declining unless the depth limit is at least 1,
/// numbers are not kept lossless and there is no size limit below the
/// input's size; the document must start with `{` (so no byte order mark
/// and no whitespace before it). The duplicate-key policy is the
/// builder's (see the module docs). For bindings' quick paths; inlined
/// into the caller.
#[doc(hidden)]
#[inline(always)]
pub fn flat_object<B: FlatBuilder + ?Sized>(input: &[u8], options: &ReadOptions, builder: &mut B) -> Option<usize> {
    let b = input;
    if b.len() > FLAT_UP_TO
        || b.first() != Some(&b'{')
        || options.max_depth == 0
        || options.lossless_numbers
        || options.max_size.is_some_and(|limit| b.len() > limit)
    {
        return None;
    }
    if !plain(b) || !builder.begin() {
        return None;
    }
    let mut n = 0;
    let mut i = skip_ws(b, 1);
    if b.get(i) == Some(&b'}') {
        i += 1;
    } else {
        loop {
            if b.get(i) != Some(&b'"') {
                return None;
            }
            let (key, end) = string(b, i + 1)?;
            i = end + 1;
            // `":"` then the value at once (compact input), else whitespace
            // around the colon.
            if b.get(i) == Some(&b':') {
                i += 1;
            } else {
                i = skip_ws(b, i);
                if b.get(i) != Some(&b':') {
                    return None;
                }
                i += 1;
            }
            i = skip_ws(b, i);
            let value = match b.get(i) {
                Some(b'"') => {
                    let (text, end) = string(b, i + 1)?;
                    i = end + 1;
                    FlatValue::Text(text)
                }
                Some(b'-' | b'0'..=b'9') => {
                    let (token, end) = number_at(b, i)?;
                    i = end;
                    FlatValue::Number(token)
                }
                Some(b't') if b.get(i..i + 4) == Some(b"true") => {
                    i += 4;
                    FlatValue::True
                }
                Some(b'f') if b.get(i..i + 5) == Some(b"false") => {
                    i += 5;
                    FlatValue::False
                }
                Some(b'n') if b.get(i..i + 4) == Some(b"null") => {
                    i += 4;
                    FlatValue::Null
                }
                // A nested container, or bad input.
                _ => return None,
            };
            if !builder.member(key, value) {
                return None;
            }
            n += 1;
            i = skip_ws(b, i);
            match b.get(i) {
                Some(b',') => i = skip_ws(b, i + 1),
                Some(b'}') => {
                    i += 1;
                    break;
                }
                _ => return None,
            }
        }
    }
    // Nothing but whitespace after the object.
    if skip_ws(b, i) != b.len() {
        return None;
    }
    Some(n)
}

#[cfg(test)]
mod tests {
    use super::super::test_documents::reference;
    use super::*;
    use crate::error::ErrorKind;
    use crate::DuplicateKeys;

    /// The number as `Record` (the parser's calls, test_documents.rs)
    /// spells it.
    fn number(n: &NumberToken<'_>) -> String {
        format!("num {} {} {:?}", n.text, n.is_integer, n.value)
    }

    /// The walk's calls, spelled as `Record` spells the parser's; declines
    /// at member `decline_at` (never when `None`), or at `begin` when
    /// `decline_begin`.
    #[derive(Default)]
    struct Members {
        calls: Vec<String>,
        begun: bool,
        decline_begin: bool,
        decline_at: Option<usize>,
        members: usize,
    }

    fn text(t: FlatText<'_>) -> String {
        match t {
            FlatText::Ascii(b) => {
                assert!(b.is_ascii(), "Ascii text with a high byte: {b:?}");
                std::str::from_utf8(b).expect("ASCII").to_owned()
            }
            FlatText::Utf8(s) => {
                assert!(!s.is_ascii(), "Utf8 text that is all ASCII: {s:?}");
                s.to_owned()
            }
        }
    }

    impl FlatBuilder for Members {
        fn begin(&mut self) -> bool {
            assert!(!self.begun, "begin called twice");
            self.begun = true;
            self.calls.push("{".into());
            !self.decline_begin
        }
        fn member(&mut self, key: FlatText<'_>, value: FlatValue<'_>) -> bool {
            assert!(self.begun && !self.decline_begin, "a member without begin");
            assert!(self.decline_at.is_none_or(|at| self.members <= at), "a member after declining");
            // The walk takes no escapes: the raw text is the text.
            let k = text(key);
            self.calls.push(format!("key {k:?} {k:?}"));
            self.calls.push(match value {
                FlatValue::Text(t) => {
                    let t = text(t);
                    format!("str {t:?} {t:?}")
                }
                FlatValue::Number(n) => number(&n),
                FlatValue::True => "true".into(),
                FlatValue::False => "false".into(),
                FlatValue::Null => "null".into(),
            });
            self.members += 1;
            self.decline_at != Some(self.members - 1)
        }
    }

    /// Whether the walk must take `input` with `options`: the parser
    /// accepts it and it is in the walk's domain (at most `FLAT_UP_TO`
    /// bytes, `{` first and no `{`, `[` or `\` after it, options honoured).
    fn in_domain(input: &[u8], options: &ReadOptions) -> bool {
        input.len() <= FLAT_UP_TO
            && input.first() == Some(&b'{')
            && !input[1..].iter().any(|c| matches!(c, b'{' | b'[' | b'\\'))
            && options.max_depth >= 1
            && !options.lossless_numbers
            && options.max_size.is_none_or(|limit| input.len() <= limit)
    }

    /// The walk against the parser on `input`: whatever it takes, the
    /// parser accepts with the same members in the same order (under
    /// `DuplicateKeys::Error`, or refuses for a repeated name only); what
    /// the parser accepts in the walk's domain, it takes. Then the same
    /// with a builder that declines at `begin` and at each member.
    fn agree(input: &[u8], options: &ReadOptions) -> bool {
        // The members the parser reports with repeats allowed, and its
        // outcome with `options` as given.
        let last = options.clone().duplicate_keys(match options.duplicate_keys {
            DuplicateKeys::Error => DuplicateKeys::Last,
            policy => policy,
        });
        let (want_calls, want_any) = reference(input, &last);
        let (_, want) = reference(input, options);
        let what = || format!("{:?} with {options:?}", String::from_utf8_lossy(input));
        let mut m = Members::default();
        let got = flat_object(input, options, &mut m);
        match got {
            Some(n) => {
                m.calls.push("}".into());
                assert_eq!(n, m.members, "member count: {}", what());
                assert!(want_any.is_ok(), "took what the parser refuses ({want_any:?}): {}", what());
                assert_eq!(m.calls, want_calls, "members differ: {}", what());
                if let Err(e) = &want {
                    assert!(matches!(e.kind(), ErrorKind::DuplicateKey { .. }), "took what the parser refuses ({e}): {}", what());
                    let mut keys: Vec<&String> = m.calls.iter().filter(|c| c.starts_with("key ")).collect();
                    let all = keys.len();
                    keys.sort();
                    keys.dedup();
                    assert!(keys.len() < all, "a repeat reported with none taken: {}", what());
                }
            }
            None => {
                assert!(
                    !(in_domain(input, options) && want_any.is_ok()),
                    "declined what it should take (parser: {want_any:?}): {}",
                    what()
                );
            }
        }
        // A builder that declines: at `begin`, nothing else is called;
        // at member k, the walk stops there.
        let mut m = Members { decline_begin: true, ..Members::default() };
        assert_eq!(flat_object(input, options, &mut m), None, "{}", what());
        assert!(m.calls.len() <= 1, "{}", what());
        if let Some(n) = got {
            for at in 0..n {
                let mut m = Members { decline_at: Some(at), ..Members::default() };
                assert_eq!(flat_object(input, options, &mut m), None, "{}", what());
                assert_eq!(m.members, at + 1, "{}", what());
            }
        }
        got.is_some()
    }

    fn options() -> Vec<ReadOptions> {
        vec![
            ReadOptions::default(),
            ReadOptions::default().duplicate_keys(DuplicateKeys::Last),
            ReadOptions::default().duplicate_keys(DuplicateKeys::First),
            ReadOptions::lossless(),
            ReadOptions::default().max_depth(0),
            ReadOptions::default().max_depth(1).duplicate_keys(DuplicateKeys::Last),
            ReadOptions::default().max_size(40).duplicate_keys(DuplicateKeys::Last),
            ReadOptions::default().allow_bom(true).duplicate_keys(DuplicateKeys::Last),
        ]
    }

    const KEYS: &[&[u8]] = &[
        b"\"a\"",
        b"\"id\"",
        b"\"\"",
        b"\"name_with_some_length\"",
        "\"é\"".as_bytes(),
        "\"日本\"".as_bytes(),
        "\"seven7é\"".as_bytes(),
        b"\"kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk\"",
        b"\"k\\n\"",
        b"\"\x01\"",
        b"\"abcdefg\x1f\"",
        b"\"\xc3\"",
        b"\"abcdefgh\xff\"",
        b"\"\x7f\"",
        b"\"unterminated",
        b"a",
        b"1",
    ];

    const VALUES: &[&[u8]] = &[
        b"0",
        b"-1",
        b"1.5",
        b"-0",
        b"01",
        b"1.",
        b"-",
        b"1e400",
        b"-1e-400",
        b"12345678901234567890",
        b"123456789012345678901234567890",
        b"2.5e-3",
        b"1E+2",
        b"0.1e",
        b"true",
        b"false",
        b"null",
        b"nul",
        b"tru",
        b"fals",
        b"nullx",
        b"True",
        b"\"\"",
        b"\"x\"",
        b"\"a long string with no escapes at all, 40+\"",
        "\"é€😀\"".as_bytes(),
        b"\"\\u00e9\"",
        b"\"a{b\"",
        b"\"tab\there\"",
        b"\"\xe2\x82\"",
        b"{}",
        b"[]",
        b"[1]",
        b"{\"b\":1}",
        b"",
    ];

    /// Values that are mostly valid (the walk takes all but `1e400`).
    const GOOD: &[&[u8]] =
        &[b"0", b"-12", b"3.25", b"1e400", b"18446744073709551616", b"true", b"false", b"null", b"\"\"", b"\"v\"", "\"né\"".as_bytes()];

    const COLONS: &[&[u8]] = &[b":", b" : ", b":\t", b"\n:", b" ", b"::"];
    const COMMAS: &[&[u8]] = &[b",", b" ,\n ", b"\r\n,", b",,", b""];
    const SPACES: &[&[u8]] = &[b"", b" ", b"\t\n\r ", b"\x0b", b"\xc2\xa0"];
    const BYTES: &[u8] = b"\"',:{}[] \t\nx\x01\x7f\xff\\0-e.+tn";

    /// A flat object (or nearly) from the pieces above, drawn by `next`.
    fn document(next: &mut impl FnMut(usize) -> usize) -> Vec<u8> {
        let pick = |set: &[&[u8]], common: &[u8], n: &mut dyn FnMut(usize) -> usize| -> Vec<u8> {
            if n(8) == 0 {
                set[n(set.len())].to_vec()
            } else {
                common.to_vec()
            }
        };
        let mut doc = Vec::new();
        if next(8) == 0 {
            doc.extend_from_slice(SPACES[next(SPACES.len())]);
        }
        doc.push(b'{');
        doc.extend_from_slice(&pick(SPACES, b"", next));
        let members = next(8);
        for k in 0..members {
            if k > 0 {
                doc.extend_from_slice(&pick(COMMAS, b",", next));
            }
            let key = if next(6) == 0 { KEYS[next(KEYS.len())].to_vec() } else { format!("\"k{}\"", next(6)).into_bytes() };
            doc.extend_from_slice(&key);
            doc.extend_from_slice(&pick(COLONS, b":", next));
            let value = if next(2) == 0 { VALUES[next(VALUES.len())] } else { GOOD[next(GOOD.len())] };
            doc.extend_from_slice(value);
            doc.extend_from_slice(&pick(SPACES, b"", next));
        }
        doc.extend_from_slice(&pick(&[b"", b",", b"]"], b"}", next));
        doc.extend_from_slice(&pick(SPACES, b"", next));
        if next(16) == 0 {
            doc.extend_from_slice(&pick(&[b"1", b"{}", b"}", b"x"], b" ", next));
        }
        doc
    }

    /// Generated flat objects, and each of them cut at every length and
    /// with one byte replaced, inserted or removed, judged by the walk and
    /// the parser alike under every option set. The same seed every time:
    /// a failure repeats.
    #[test]
    fn flat_objects_are_read_as_the_parser_reads_them() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |n: usize| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 11) as usize % n.max(1)
        };
        let options = options();
        let (mut taken, mut docs) = (0usize, 0usize);
        for round in 0..3000 {
            let doc = document(&mut next);
            let mut variants = vec![doc.clone()];
            if round % 4 == 0 {
                variants.extend((0..doc.len()).map(|n| doc[..n].to_vec()));
            }
            for _ in 0..4 {
                let mut v = doc.clone();
                let at = next(v.len() + 1);
                let c = BYTES[next(BYTES.len())];
                match next(3) {
                    0 if at < v.len() => v[at] = c,
                    1 if at < v.len() => {
                        v.remove(at);
                    }
                    _ => v.insert(at, c),
                }
                variants.push(v);
            }
            for v in &variants {
                for o in &options {
                    docs += 1;
                    taken += usize::from(agree(v, o));
                }
            }
        }
        // Both outcomes occur often (most variants are cut or changed, so
        // refused), so both sides are tested.
        assert!(taken > docs / 100 && taken < docs / 2, "taken {taken} of {docs}");
    }

    /// Hand-picked edges: sizes around `FLAT_UP_TO` and the size limit, a
    /// string ending at the input's end, every byte after an object, the
    /// word and byte paths of the look.
    #[test]
    fn edges_are_read_as_the_parser_reads_them() {
        let mut docs: Vec<Vec<u8>> = vec![
            b"{}".to_vec(),
            b"{ }".to_vec(),
            b"{".to_vec(),
            b"}".to_vec(),
            b"".to_vec(),
            b"{\"a\"".to_vec(),
            b"{\"a\":".to_vec(),
            b"{\"a\":1".to_vec(),
            b"{\"a\":1,}".to_vec(),
            b"{,\"a\":1}".to_vec(),
            b"{\"a\":1}".to_vec(),
            b"{\"a\":1,\"a\":2}".to_vec(),
            b"{\"a\":1 \"b\":2}".to_vec(),
            b"{\"a\" 1}".to_vec(),
            b"{\"a\":tru}".to_vec(),
            b"{\"a\":true".to_vec(),
            b"{\"a\":\"".to_vec(),
            b"{\"a\":\"abcdefghijk".to_vec(),
            b"{\"id\":1,\"name\":\"Jane\",\"email\":\"j@x.io\",\"ok\":true,\"n\":null}".to_vec(),
            b"\xef\xbb\xbf{\"a\":1}".to_vec(),
        ];
        for c in 0..=255u8 {
            docs.push([b"{\"a\":1}".as_slice(), &[c]].concat());
            docs.push([b"{\"a\":".as_slice(), &[c], b"}"].concat());
            docs.push([b"{\"a\":\"".as_slice(), &[c], b"\"}"].concat());
            docs.push([b"{\"abcdefghijklmnop".as_slice(), &[c], b"\":0}"].concat());
        }
        for len in 100..=140 {
            // A string value filling the document to `len` bytes.
            let body = "x".repeat(len - 8);
            docs.push(format!("{{\"a\":\"{body}\"}} ").into_bytes());
            docs.push(format!("{{\"a\":\"{body}\"}}").into_bytes());
            docs.push(format!("{{\"a\":\"{body}\"}}").into_bytes()[..len - 1].to_vec());
        }
        for len in 1..40 {
            // A bracket or backslash at every place of the look.
            let mut d = format!("{{\"a\":\"{}\"}}", "y".repeat(len)).into_bytes();
            for at in 1..d.len() {
                for c in [b'{', b'[', b'\\'] {
                    let keep = d[at];
                    d[at] = c;
                    docs.push(d.clone());
                    d[at] = keep;
                }
            }
            docs.push(d);
        }
        for doc in &docs {
            for o in &options() {
                agree(doc, o);
            }
            // Exactly at, and one below, the size limit.
            agree(doc, &ReadOptions::default().max_size(doc.len()));
            agree(doc, &ReadOptions::default().max_size(doc.len().saturating_sub(1)));
        }
    }
}
