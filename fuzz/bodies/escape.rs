//! Target `escape`: every escaper this CPU runs (AVX2, SSE2, SWAR) writes
//! the same bytes as the byte-at-a-time reference, for every escape set
//! (the profiles' sets and every other combination), at any string length,
//! start alignment and output-buffer state. The input string ends exactly at
//! the end of its allocation, so a read past it is caught under
//! AddressSanitizer. Go's invalid-UTF-8 path (`escape_bytes_replacing_invalid`)
//! is checked the same way on the raw bytes.

use jetjson::escape::{escape_bytes_replacing_invalid, EscapeSet, Escaper};

use super::common::split_options;

pub fn run(data: &[u8]) {
    let ([a, b], rest) = split_options::<2>(data);
    let set = EscapeSet { html: a & 1 != 0, line_separators: a & 2 != 0, ascii_only: a & 4 != 0 };
    // Start offset of the string within its allocation (0..=63) and how
    // many bytes the output buffer already holds (0..=7, times 9).
    let align = usize::from(b & 63);
    let held = usize::from(a >> 5) * 9;

    // Text: the input's valid UTF-8 prefix plus the rest lossily, so most
    // inputs keep their bytes.
    let text = String::from_utf8_lossy(rest);
    let placed = placed_at(text.as_bytes(), align);
    let s = std::str::from_utf8(&placed[align..]).expect("copied from a str");

    let kernels = Escaper::all_available(set);
    let reference = kernels.last().expect("the scalar reference is always available");
    assert_eq!(reference.isa_name(), "scalar");
    let want = escaped(reference, s, held);
    let want_raw = replaced(reference, &placed_at(rest, align)[align..], held);
    for k in &kernels {
        assert_eq!(k.set(), set);
        let got = escaped(k, s, held);
        assert!(got == want, "{} vs scalar, {set:?}, align {align}, held {held}: {s:?}", k.isa_name());
        assert_eq!(k.needs_escape(s), want[held..] != *s.as_bytes(), "{} needs_escape, {set:?}: {s:?}", k.isa_name());
        let got = replaced(k, &placed_at(rest, align)[align..], held);
        assert!(got == want_raw, "{} vs scalar on bytes, {set:?}, align {align}, held {held}: {rest:?}", k.isa_name());
    }
    // The escaper the writer picks is one of them.
    assert_eq!(escaped(&Escaper::new(set), s, held), want);
    assert_eq!(escaped(&Escaper::portable(set), s, held), want);
}

/// `bytes` copied to offset `align` of an allocation that ends with them.
fn placed_at(bytes: &[u8], align: usize) -> Box<[u8]> {
    let mut v = Vec::with_capacity(align + bytes.len());
    v.resize(align, b'.');
    v.extend_from_slice(bytes);
    v.into_boxed_slice()
}

/// Escapes `s` after `held` bytes already in an exactly-sized buffer.
fn escaped(k: &Escaper, s: &str, held: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(held);
    out.resize(held, b'#');
    k.escape(&mut out, s);
    out
}

fn replaced(k: &Escaper, s: &[u8], held: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(held);
    out.resize(held, b'#');
    escape_bytes_replacing_invalid(k, &mut out, s);
    out
}
