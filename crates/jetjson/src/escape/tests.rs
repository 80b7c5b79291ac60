//! Rules with hand-written expectations, differential tests of every kernel
//! this CPU runs against the scalar reference (and the reference against an
//! independent char-by-char oracle), and Go's invalid-UTF-8 rule against a
//! per-byte decoder written from `utf8.DecodeRune`'s rules.

use super::*;

const NONE: EscapeSet = EscapeSet { html: false, line_separators: false, ascii_only: false };
const HTML: EscapeSet = EscapeSet { html: true, line_separators: false, ascii_only: false };
const LINE: EscapeSet = EscapeSet { html: false, line_separators: true, ascii_only: false };
const ASCII: EscapeSet = EscapeSet { html: false, line_separators: false, ascii_only: true };
const GO: EscapeSet = EscapeSet { html: true, line_separators: true, ascii_only: false };

fn all_sets() -> impl Iterator<Item = EscapeSet> {
    (0..8).map(|i| EscapeSet { html: i & 1 != 0, line_separators: i & 2 != 0, ascii_only: i & 4 != 0 })
}

fn run(escaper: &Escaper, s: &str) -> Vec<u8> {
    let mut out = Vec::new();
    escaper.escape(&mut out, s);
    out
}

/// Independent oracle: char by char, with formatting (which the kernels
/// must not use), straight from the rules in the module contract.
fn oracle(set: EscapeSet, s: &str) -> Vec<u8> {
    let mut out = String::new();
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{08}' => out.push_str("\\b"),
            '\u{0C}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\0'..='\u{1F}' => out.push_str(&format!("\\u{:04x}", c as u32)),
            '<' | '>' | '&' if set.html => out.push_str(&format!("\\u{:04x}", c as u32)),
            // DEL too under ascii_only, as Python's ensure_ascii writes it.
            '\u{7f}' if set.ascii_only => out.push_str("\\u007f"),
            '\u{80}'.. if set.ascii_only => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    out.push_str(&format!("\\u{:04x}", unit));
                }
            }
            '\u{2028}' | '\u{2029}' if set.line_separators => out.push_str(&format!("\\u{:04x}", c as u32)),
            _ => out.push(c),
        }
    }
    out.into_bytes()
}

/// Checks every available kernel for `set` on `s`, embedded after every
/// prefix length in `prefixes` and followed by `suffix`, against `expected`.
fn check_embedded(set: EscapeSet, s: &str, expected: &[u8]) {
    for escaper in Escaper::all_available(set) {
        for prefix_len in [0, 1, 7, 8, 15, 16, 17, 31, 32, 33, 40, 63, 64, 65] {
            for suffix in ["", "x", "0123456789abcdefghijklmnopqrstuvwxyz0123456789"] {
                let prefix = "p".repeat(prefix_len);
                let input = format!("{prefix}{s}{suffix}");
                let mut want = prefix.clone().into_bytes();
                want.extend_from_slice(expected);
                want.extend_from_slice(suffix.as_bytes());
                let got = run(&escaper, &input);
                assert_eq!(
                    String::from_utf8_lossy(&got),
                    String::from_utf8_lossy(&want),
                    "isa {} set {set:?} input {input:?}",
                    escaper.isa_name()
                );
                assert_eq!(escaper.needs_escape(&input), got != input.as_bytes());
            }
        }
    }
}

#[test]
fn base_set() {
    for set in all_sets() {
        check_embedded(set, "\"", b"\\\"");
        check_embedded(set, "\\", b"\\\\");
        check_embedded(set, "\x08", b"\\b");
        check_embedded(set, "\x0c", b"\\f");
        check_embedded(set, "\n", b"\\n");
        check_embedded(set, "\r", b"\\r");
        check_embedded(set, "\t", b"\\t");
        check_embedded(set, "\x00", b"\\u0000");
        check_embedded(set, "\x01", b"\\u0001");
        check_embedded(set, "\x0b", b"\\u000b");
        check_embedded(set, "\x0e", b"\\u000e");
        check_embedded(set, "\x1a", b"\\u001a");
        check_embedded(set, "\x1f", b"\\u001f");
        check_embedded(set, "a\"b\\c\r\n", b"a\\\"b\\\\c\\r\\n");
        // Not escaped by any set: '/', printable ASCII; DEL only by ascii_only.
        check_embedded(set, "/ ~!#$%'()*+,-.:;=?@[]^_`{|}", b"/ ~!#$%'()*+,-.:;=?@[]^_`{|}");
        let del: &[u8] = if set.ascii_only { b"\\u007f/" } else { b"\x7f/" };
        check_embedded(set, "\x7f/", del);
    }
}

#[test]
fn every_control_byte_uses_the_short_form_or_lowercase_hex() {
    let short = [(0x08, "\\b"), (0x09, "\\t"), (0x0A, "\\n"), (0x0C, "\\f"), (0x0D, "\\r")];
    let digits = b"0123456789abcdef";
    for b in 0u8..0x20 {
        let expected: Vec<u8> = match short.iter().find(|(c, _)| *c == b) {
            Some((_, e)) => e.as_bytes().to_vec(),
            None => vec![b'\\', b'u', b'0', b'0', digits[(b >> 4) as usize], digits[(b & 15) as usize]],
        };
        let s = (b as char).to_string();
        check_embedded(NONE, &s, &expected);
        check_embedded(GO, &s, &expected);
    }
}

#[test]
fn html() {
    check_embedded(HTML, "<a&b>", b"\\u003ca\\u0026b\\u003e");
    check_embedded(GO, "<a&b>", b"\\u003ca\\u0026b\\u003e");
    check_embedded(NONE, "<a&b>", b"<a&b>");
    check_embedded(LINE, "<a&b>", b"<a&b>");
    // Neighbours of the paired compares (`v | 4 == '&'`, `v | 2 == '>'`).
    check_embedded(HTML, "\"$&'\"", b"\\\"$\\u0026'\\\"");
    check_embedded(HTML, ";<=>?:", b";\\u003c=\\u003e?:");
}

#[test]
fn line_separators() {
    check_embedded(LINE, "\u{2028}", b"\\u2028");
    check_embedded(LINE, "\u{2029}", b"\\u2029");
    check_embedded(GO, "a\u{2028}b\u{2029}c", b"a\\u2028b\\u2029c");
    check_embedded(LINE, "\u{2028}\u{2029}\u{2028}", b"\\u2028\\u2029\\u2028");
    // Other E2 sequences stay raw: E2 80 A7, E2 80 AA, E2 81 A8, E2 82 AC.
    for s in ["\u{2027}", "\u{202A}", "\u{2068}", "\u{20AC}", "\u{2014}\u{201C}\u{2192}"] {
        check_embedded(LINE, s, s.as_bytes());
        check_embedded(GO, s, s.as_bytes());
    }
    check_embedded(NONE, "\u{2028}\u{2029}", "\u{2028}\u{2029}".as_bytes());
    check_embedded(HTML, "\u{2028}", "\u{2028}".as_bytes());
}

#[test]
fn ascii_only() {
    check_embedded(ASCII, "\u{1F600}", b"\\ud83d\\ude00");
    check_embedded(ASCII, "\u{e9}", b"\\u00e9");
    check_embedded(ASCII, "\u{80}\u{7ff}\u{800}", b"\\u0080\\u07ff\\u0800");
    check_embedded(ASCII, "\u{4e2d}\u{6587}", b"\\u4e2d\\u6587");
    check_embedded(ASCII, "\u{FFFD}\u{FFFF}", b"\\ufffd\\uffff");
    check_embedded(ASCII, "\u{10000}\u{10FFFF}", b"\\ud800\\udc00\\udbff\\udfff");
    check_embedded(ASCII, "\u{2028}\u{2029}", b"\\u2028\\u2029");
    check_embedded(ASCII, "\x7f", b"\\u007f");
    check_embedded(ASCII, "<&>", b"<&>");
    let all = EscapeSet { html: true, line_separators: true, ascii_only: true };
    check_embedded(all, "<\u{2028}\u{1F600}\"", b"\\u003c\\u2028\\ud83d\\ude00\\\"");
    // Without ascii_only, non-ASCII stays raw.
    check_embedded(GO, "\u{e9}\u{4e2d}\u{1F600}", "\u{e9}\u{4e2d}\u{1F600}".as_bytes());
}

#[test]
fn empty_and_tiny() {
    for set in all_sets() {
        for escaper in Escaper::all_available(set) {
            assert_eq!(run(&escaper, ""), b"");
            assert!(!escaper.needs_escape(""));
            let mut out = b"keep".to_vec();
            escaper.escape(&mut out, "\"");
            assert_eq!(out, b"keep\\\"");
        }
    }
}

#[test]
fn constructors_and_names() {
    for set in all_sets() {
        let all = Escaper::all_available(set);
        assert_eq!(Escaper::new(set).isa_name(), all[0].isa_name());
        assert_eq!(Escaper::portable(set).isa_name(), "swar");
        assert_eq!(Escaper::scalar(set).isa_name(), "scalar");
        for escaper in &all {
            assert_eq!(escaper.set(), set);
        }
        let names: Vec<_> = all.iter().map(|e| e.isa_name()).collect();
        assert_eq!(&names[names.len() - 2..], ["swar", "scalar"]);
        #[cfg(target_arch = "x86_64")]
        {
            assert!(names.contains(&"sse2"));
            assert_eq!(names.contains(&"avx2"), std::is_x86_feature_detected!("avx2"));
        }
    }
}

/// xorshift64*: deterministic and dependency-free.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Pieces that stress every branch: escapes of every kind, their near
/// misses, and characters of every UTF-8 width.
const HOSTILE: &[&str] = &[
    "a",
    "b",
    "Z",
    "0",
    " ",
    "/",
    "\"",
    "\\",
    "\n",
    "\r",
    "\t",
    "\x08",
    "\x0c",
    "\x00",
    "\x1f",
    "\x01",
    "<",
    ">",
    "&",
    "'",
    "=",
    "\x7f",
    "\u{e9}",
    "\u{7ff}",
    "\u{4e2d}",
    "\u{FFFD}",
    "\u{1F600}",
    "\u{10FFFF}",
    "\u{2028}",
    "\u{2029}",
    "\u{2027}",
    "\u{2068}",
    "\u{20AC}",
    "\u{2014}",
    "\u{E2}",
];

/// A random string of exactly `len` bytes; `clean_bias` in 0..=100 is the
/// percentage of plain letters, to get both dense and sparse escapes.
fn hostile_string(rng: &mut Rng, len: usize, clean_bias: usize) -> String {
    let mut s = String::with_capacity(len);
    while s.len() < len {
        let piece = if rng.below(100) < clean_bias { "x" } else { HOSTILE[rng.below(HOSTILE.len())] };
        if s.len() + piece.len() <= len {
            s.push_str(piece);
        } else {
            s.push('y');
        }
    }
    s
}

/// Every kernel agrees with the scalar reference, the reference agrees
/// with the oracle, and `needs_escape` agrees with the output; `copies`
/// holds the same bytes as `s` at other addresses (alignments).
fn check_all_kernels_at(kernels: &[Vec<Escaper>], s: &str, copies: &[&str]) {
    for (set, escapers) in all_sets().zip(kernels) {
        let reference = run(&Escaper::scalar(set), s);
        assert_eq!(reference, oracle(set, s), "scalar vs oracle, set {set:?}, input {s:?}");
        let changes = reference != s.as_bytes();
        for escaper in escapers {
            for input in std::iter::once(&s).chain(copies) {
                let got = run(escaper, input);
                if got != reference {
                    panic!(
                        "isa {} set {set:?} input {input:?} at {:p}\n got {:?}\nwant {:?}",
                        escaper.isa_name(),
                        input.as_ptr(),
                        String::from_utf8_lossy(&got),
                        String::from_utf8_lossy(&reference)
                    );
                }
                assert_eq!(escaper.needs_escape(input), changes, "needs_escape: isa {} set {set:?} input {input:?}", escaper.isa_name());
            }
        }
    }
}

fn check_all_kernels(kernels: &[Vec<Escaper>], s: &str) {
    check_all_kernels_at(kernels, s, &[]);
}

fn kernels() -> Vec<Vec<Escaper>> {
    all_sets().map(Escaper::all_available).collect()
}

#[test]
fn differential_every_length_and_alignment() {
    let kernels = kernels();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for len in 0..=200 {
        for bias in [0, 50, 95] {
            let s = hostile_string(&mut rng, len, bias);
            // The same bytes at every start offset 0..64 within one larger
            // buffer; the bytes after each copy are escapes, so a kernel
            // reading past the end would show it.
            let mut buffer = String::new();
            let mut starts = Vec::new();
            for offset in 0..64 {
                while buffer.len() % 64 != offset {
                    buffer.push('o');
                }
                starts.push(buffer.len());
                buffer.push_str(&s);
                buffer.push_str("\"\\\n\u{2028}<");
            }
            let copies: Vec<&str> = starts.iter().map(|&at| &buffer[at..at + len]).collect();
            assert!(copies.iter().all(|c| *c == s));
            let offsets: std::collections::BTreeSet<usize> = copies.iter().map(|c| c.as_ptr() as usize % 64).collect();
            assert_eq!(offsets.len(), 64, "every alignment is covered");
            check_all_kernels_at(&kernels, &s, &copies);
        }
    }
}

#[test]
fn differential_long_strings() {
    let kernels = kernels();
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    for len in [4095, 4096, 4097, 4096 + 64, 4096 + 65, 8192 + 70, 10_000, 50_000] {
        for bias in [0, 90, 99, 100] {
            let s = hostile_string(&mut rng, len, bias);
            // Exact-size allocation, so out-of-bounds reads would leave it.
            let s: Box<str> = s.into_boxed_str();
            check_all_kernels(&kernels, &s);
        }
    }
}

#[test]
fn escapes_around_block_boundaries() {
    let kernels = kernels();
    for piece in ["\"", "\u{1F600}", "\u{2028}", "\u{4e2d}", "\x01\x02\x03"] {
        for at in (4096 - 40..4096 + 40).chain(8192 - 8..8192 + 8) {
            let mut s = "c".repeat(at);
            s.push_str(piece);
            s.push_str(&"d".repeat(9000 - at));
            check_all_kernels(&kernels, &s);
        }
    }
    // Runs of escapes longer than a block.
    for piece in ["\x01", "\"", "\u{1F600}", "\u{2028}", "\u{e9}"] {
        check_all_kernels(&kernels, &piece.repeat(5000));
        check_all_kernels(&kernels, &format!("ab{}", piece.repeat(3000)));
    }
}

/// Several characters to escape in one chunk, apart by clean runs of every
/// width: the vector loops escape all the flagged lanes of a chunk from one
/// mask, storing the chunk's rest again after each escape (JSON inside a
/// string: a quote every few bytes). Every kind of escape, including
/// multi-byte characters that may end past the chunk.
#[test]
fn several_escapes_per_chunk_at_every_spacing() {
    let kernels = kernels();
    for piece in ["\"", "\x01", "<", "\u{e9}", "\u{2028}", "\u{1F600}", "\\\n"] {
        for gap in 0..=40 {
            for lead in [0, 1, 5, 31, 33] {
                let mut s = "l".repeat(lead);
                for k in 0..12 {
                    s.push_str(piece);
                    s.push_str(&"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN"[..gap]);
                    if k % 5 == 4 {
                        s.push('"');
                    }
                }
                let s: Box<str> = s.into_boxed_str();
                check_all_kernels(&kernels, &s);
            }
        }
    }
}

#[test]
fn reservation_is_bounded() {
    // A clean 1 MiB string must not trigger a 6 MiB reservation.
    let s = "x".repeat(1 << 20);
    for escaper in Escaper::all_available(GO) {
        let mut out = Vec::new();
        escaper.escape(&mut out, &s);
        assert_eq!(out.len(), s.len());
        assert!(out.capacity() < 3 << 20, "{}: capacity {}", escaper.isa_name(), out.capacity());
    }
}

/// Go's `utf8.DecodeRune`, written from its rules: the lead byte sets the
/// length, continuation bytes are `10xxxxxx`, and overlong forms,
/// surrogates and values above U+10FFFF are rejected. Any failure is
/// `(None, 1)`: one replacement, resume at the next byte.
fn go_decode_rune(p: &[u8]) -> (Option<char>, usize) {
    let lead = p[0];
    let (len, min, mut cp) = match lead {
        0x00..=0x7F => return (Some(lead as char), 1),
        0xC0..=0xDF => (2, 0x80, (lead & 0x1F) as u32),
        0xE0..=0xEF => (3, 0x800, (lead & 0x0F) as u32),
        0xF0..=0xF7 => (4, 0x1_0000, (lead & 0x07) as u32),
        _ => return (None, 1),
    };
    if p.len() < len {
        return (None, 1);
    }
    for &b in &p[1..len] {
        if b & 0xC0 != 0x80 {
            return (None, 1);
        }
        cp = cp << 6 | (b & 0x3F) as u32;
    }
    if cp < min || (0xD800..=0xDFFF).contains(&cp) || cp > 0x10_FFFF {
        return (None, 1);
    }
    (char::from_u32(cp), len)
}

fn go_reference(set: EscapeSet, s: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < s.len() {
        match go_decode_rune(&s[i..]) {
            (Some(c), n) => {
                out.extend_from_slice(&oracle(set, c.encode_utf8(&mut [0; 4])));
                i += n;
            }
            (None, _) => {
                out.extend_from_slice(b"\\ufffd");
                i += 1;
            }
        }
    }
    out
}

fn replacing(escaper: &Escaper, s: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    escape_bytes_replacing_invalid(escaper, &mut out, s);
    out
}

#[test]
fn go_invalid_utf8_examples() {
    let cases: &[(&[u8], &[u8])] = &[
        (b"a\xffb", b"a\\ufffdb"),
        (b"\xe2\x82", b"\\ufffd\\ufffd"),
        (b"\xf0\x9f\x98", b"\\ufffd\\ufffd\\ufffd"),
        (b"\xed\xa0\x80", b"\\ufffd\\ufffd\\ufffd"),
        (b"\xc0\xaf", b"\\ufffd\\ufffd"),
        (b"\xef\xbf\xbd", b"\xef\xbf\xbd"),
        (b"\xe2\x82A", b"\\ufffd\\ufffdA"),
        (b"\xe2\x82\x28", b"\\ufffd\\ufffd("),
        (b"\xf4\x90\x80\x80", b"\\ufffd\\ufffd\\ufffd\\ufffd"),
        (b"\xf5", b"\\ufffd"),
        (b"\x80\xbf", b"\\ufffd\\ufffd"),
        (b"\xe0\x80\x80", b"\\ufffd\\ufffd\\ufffd"),
        (b"\"\xff<\xe2\x80\xa8", b"\\\"\\ufffd\\u003c\\u2028"),
        (b"", b""),
    ];
    for &(input, expected) in cases {
        for escaper in Escaper::all_available(GO) {
            assert_eq!(
                String::from_utf8_lossy(&replacing(&escaper, input)),
                String::from_utf8_lossy(expected),
                "isa {} input {input:?}",
                escaper.isa_name()
            );
        }
        assert_eq!(go_reference(GO, input), expected, "reference decoder, input {input:?}");
    }
    // A valid U+FFFD is escaped like any other character under ascii_only.
    assert_eq!(replacing(&Escaper::new(ASCII), b"\xef\xbf\xbd\xff"), b"\\ufffd\\ufffd");
}

#[test]
fn go_invalid_utf8_random() {
    const BYTES: &[u8] = &[
        b'a', b'"', b'\\', b'\n', b'<', 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xA8, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE2, 0xED, 0xEE,
        0xEF, 0xF0, 0xF3, 0xF4, 0xF5, 0xF8, 0xFF,
    ];
    let kernels = kernels();
    let mut rng = Rng(0x1234_5678_9ABC_DEF1);
    for round in 0..4000 {
        let len = rng.below(if round % 100 == 0 { 3000 } else { 40 });
        let bytes: Vec<u8> = (0..len)
            .map(|_| match rng.below(4) {
                0 => rng.next() as u8,
                1 => b'x',
                _ => BYTES[rng.below(BYTES.len())],
            })
            .collect();
        for (set, escapers) in all_sets().zip(&kernels) {
            let expected = go_reference(set, &bytes);
            for escaper in escapers {
                assert_eq!(replacing(escaper, &bytes), expected, "isa {} set {set:?} input {bytes:x?}", escaper.isa_name());
            }
        }
    }
}

/// Clean strings with one character to escape at every position (or none):
/// covers the last chunk that overlaps bytes already written, with the hit
/// inside the overlap (already handled), just after it, or nowhere. The
/// em dash (`E2 80 94`) is a line-separator candidate that needs no escape:
/// wherever it falls in a pair of chunks, the scan must settle it and go on.
#[test]
fn one_escape_at_every_position() {
    let kernels = kernels();
    for len in 0..=140usize {
        for piece in ["\"", "\n", "<", "\u{2028}", "é", "\u{2014}"] {
            let mut inputs = vec!["x".repeat(len)];
            for at in 0..=len.saturating_sub(piece.len()) {
                if at + piece.len() <= len {
                    inputs.push(format!("{}{piece}{}", "x".repeat(at), "x".repeat(len - at - piece.len())));
                }
            }
            for s in &inputs {
                // Exact-size allocation, so out-of-bounds reads would leave it.
                let s: Box<str> = s.clone().into_boxed_str();
                check_all_kernels(&kernels, &s);
            }
        }
    }
}

/// A line-separator candidate that needs no escape (an em dash, `E2 80
/// 94`) and a second character at every pair of positions of the first
/// chunks: the candidate is settled within a chunk that also holds a real
/// escape (or a real separator, or another candidate) before, after or
/// beside it, including leads whose continuation bytes lie in the next
/// chunk, and the chunk's flagged lanes are then escaped from one mask.
#[test]
fn separator_candidate_beside_another_escape_at_every_pair_of_positions() {
    let kernels = kernels();
    let len = 100;
    for other in ["\n", "\u{2028}", "<", "\u{2014}", "\u{2029}"] {
        for a in 0..=70usize {
            for b in 0..=70usize {
                // The two pieces apart, in either order.
                if b < a + 3 && a < b + other.len() {
                    continue;
                }
                let mut s = vec![b'x'; len];
                s[a..a + 3].copy_from_slice("\u{2014}".as_bytes());
                s[b..b + other.len()].copy_from_slice(other.as_bytes());
                let s: Box<str> = String::from_utf8(s).expect("pieces at character boundaries").into_boxed_str();
                check_all_kernels(&kernels, &s);
            }
        }
    }
}

/// An escape at every place in either chunk of the pair loop's pairs,
/// after a character that straddles the two chunks (so the second chunk
/// starts inside it), or lies wholly in the second chunk, or is absent: the
/// loop escapes a second chunk from its own mask when the first is clean,
/// and after escaping the first it copies a clean second chunk without
/// classifying it again.
#[test]
fn escape_in_either_chunk_of_a_pair_after_a_straddling_character() {
    let kernels = kernels();
    for wide in ["\u{e9}", "\u{2014}", "\u{1F600}", "\u{2028}", "x"] {
        for piece in ["\n", "\"", "\n\n", "\x01", "<", "\u{2029}", "\u{2014}"] {
            for lead in [0usize, 29, 30, 31, 40] {
                for at in 0..=72 {
                    let mut s = "a".repeat(lead);
                    s.push_str(wide);
                    s.push_str(&"b".repeat(at));
                    s.push_str(piece);
                    s.push_str(&"c".repeat(200 - s.len()));
                    check_all_kernels(&kernels, &s.into_boxed_str());
                }
            }
        }
    }
}
