//! Inputs with text after their value (`{...} {...}`), refused without
//! building the first value.
//!
//! The builder creates the Python objects of a value as the parser reads
//! it, so text after the value was met only once the whole value had been
//! built, and then all of it was released: a body with a stray second
//! value cost a full `loads` and more. `more_than_one_value` looks at the
//! end of the input (at most `LOOK_BACK` bytes) for a last value that does
//! not start the input; when it finds one, `error_without_building` walks
//! the input with a visitor that builds nothing, and its error is the one
//! `loads` raises. What the look at the end says is only a hint: the walk
//! decides, and any input it cannot vouch for goes the usual way.

use jetjson::parse::{NumberToken, NumberValue, Visitor};
use jetjson::{Error, ErrorKind, ReadOptions};
use pyo3::Python;

/// The most bytes `more_than_one_value` reads, from the input's end: one
/// window of bit masks.
pub(crate) const LOOK_BACK: usize = 64;

/// Inputs shorter than this are built without the look at their end: it
/// costs about 150 instructions, a small share of building a value this
/// long or longer, and the build it saves is short below (the quick path
/// of `loads(data)` takes bodies up to the same size).
pub(crate) const LOOK_FROM: usize = super::QUICK_UP_TO;

/// The last `LOOK_BACK` bytes of an input as bit masks (bit `i` for byte
/// `i` of the window; bit 63 is the input's last byte).
struct Window {
    /// Bytes up to 0x20: whitespace in valid JSON outside strings (the
    /// other control bytes are invalid there; a wrong answer on invalid
    /// text only costs the hint).
    space: u64,
    quote: u64,
    backslash: u64,
    /// `{` and `[`.
    open: u64,
    /// `}` and `]`.
    close: u64,
}

/// `Window` of the 64 bytes `w`.
#[cfg(target_arch = "x86_64")]
fn masks(w: &[u8; LOOK_BACK]) -> Window {
    use std::arch::x86_64::*;
    let mut m = [0u64; 5];
    // SAFETY: SSE2 is part of x86_64; each load reads 16 bytes of `w` at
    // offsets 0, 16, 32 and 48 (`w` has 64).
    unsafe {
        let (sp, qu, bs, ob, cb) = (
            _mm_set1_epi8(0x20),
            _mm_set1_epi8(b'"' as i8),
            _mm_set1_epi8(b'\\' as i8),
            _mm_set1_epi8(b'{' as i8),
            _mm_set1_epi8(b'}' as i8),
        );
        for chunk in 0..4 {
            let x = _mm_loadu_si128(w.as_ptr().add(16 * chunk).cast());
            // `[` | 0x20 is `{` and `]` | 0x20 is `}` (and only they).
            let folded = _mm_or_si128(x, sp);
            let bits = [
                _mm_cmpeq_epi8(_mm_max_epu8(x, sp), sp),
                _mm_cmpeq_epi8(x, qu),
                _mm_cmpeq_epi8(x, bs),
                _mm_cmpeq_epi8(folded, ob),
                _mm_cmpeq_epi8(folded, cb),
            ];
            for (mask, v) in m.iter_mut().zip(bits) {
                *mask |= ((_mm_movemask_epi8(v) as u32 as u64) & 0xFFFF) << (16 * chunk);
            }
        }
    }
    Window { space: m[0], quote: m[1], backslash: m[2], open: m[3], close: m[4] }
}

/// `Window` of the 64 bytes `w`.
#[cfg(not(target_arch = "x86_64"))]
fn masks(w: &[u8; LOOK_BACK]) -> Window {
    let mut m = [0u64; 5];
    for (i, &c) in w.iter().enumerate() {
        let bit = 1u64 << i;
        m[0] |= if c <= 0x20 { bit } else { 0 };
        m[1] |= if c == b'"' { bit } else { 0 };
        m[2] |= if c == b'\\' { bit } else { 0 };
        m[3] |= if c | 0x20 == b'{' { bit } else { 0 };
        m[4] |= if c | 0x20 == b'}' { bit } else { 0 };
    }
    Window { space: m[0], quote: m[1], backslash: m[2], open: m[3], close: m[4] }
}

/// The bits below bit `at` (0..=63).
#[inline(always)]
fn below(at: u32) -> u64 {
    (1u64 << at) - 1
}

/// The highest set bit of a non-zero `m`.
#[inline(always)]
fn top(m: u64) -> u32 {
    63 - m.leading_zeros()
}

/// The bytes escaped by a backslash (the byte after an odd run of
/// backslashes), for a window no run enters from before: simdjson's
/// method (`json_string_scanner.h`, `next_escape_and_terminal_code`).
#[inline(always)]
fn escaped(backslash: u64) -> u64 {
    const ODD: u64 = 0xAAAA_AAAA_AAAA_AAAA;
    let codes = ((backslash << 1) | ODD).wrapping_sub(backslash) ^ ODD;
    codes ^ backslash
}

/// The running parity of `m` (bit `i`: the parity of bits `0..=i`).
#[inline(always)]
fn prefix_xor(mut m: u64) -> u64 {
    m ^= m << 1;
    m ^= m << 2;
    m ^= m << 4;
    m ^= m << 8;
    m ^= m << 16;
    m ^= m << 32;
    m
}

/// Whether the last value of `b` (read backwards over its last
/// `LOOK_BACK` bytes at most) certainly does not start the input: some
/// text other than whitespace comes before it. For a single JSON text this
/// is never so (its last value is the whole text, after whitespace and a
/// byte order mark), so `true` means the input is not one JSON text, or
/// not valid at all. `false` when it cannot tell within the window, and
/// for inputs shorter than `LOOK_FROM`.
pub(crate) fn more_than_one_value(b: &[u8]) -> bool {
    if b.len() < LOOK_FROM.max(LOOK_BACK + 1) {
        return false;
    }
    let at = b.len() - LOOK_BACK;
    if b[at - 1] == b'\\' {
        // The window's first byte may be escaped, or a run of backslashes
        // go on before it: not known.
        return false;
    }
    let mut bytes = [0u8; LOOK_BACK];
    bytes.copy_from_slice(&b[at..]);
    let w = masks(&bytes);
    // Quotes that open or close a string, and the bytes inside strings
    // (opening quote included): the window ends outside any string (after
    // a value's last byte), which fixes the state it starts in.
    let quotes = w.quote & !escaped(w.backslash);
    let parity = prefix_xor(quotes);
    let inside = if quotes.count_ones() & 1 == 1 { !parity } else { parity };
    let (open, close) = (w.open & !inside, w.close & !inside);
    let text = !w.space;
    if text == 0 {
        return false;
    }
    let last = top(text);
    let start = if close >> last & 1 == 1 {
        // Back to the bracket that opens this one.
        let mut depth = 1u32;
        let mut marks = (open | close) & below(last);
        loop {
            if marks == 0 {
                return false;
            }
            let at = top(marks);
            marks &= below(at);
            if close >> at & 1 == 1 {
                depth += 1;
            } else {
                depth -= 1;
                if depth == 0 {
                    break at;
                }
            }
        }
    } else if quotes >> last & 1 == 1 {
        // A string: its opening quote.
        match quotes & below(last) {
            0 => return false,
            opening => top(opening),
        }
    } else {
        // A number or a literal (or anything else): back to the byte that
        // ends what comes before it.
        let ends = w.space | w.quote | w.open | w.close;
        match ends & below(last) {
            0 => return false,
            before => top(before) + 1,
        }
    };
    // What comes before that value in the window: only whitespace in a
    // single text (whose start, and a byte order mark, lie before the
    // window: the input is longer than it).
    text & below(start) != 0
}

/// A visitor that builds nothing, for `error_without_building`. It calls
/// off the walk at an integer beyond 64 bits: the builder makes an `int`
/// of its text there, which CPython may refuse (its limit on the digits
/// of an int read from text), an error this walk cannot stand for.
struct Scout {
    /// The walk was called off: what it found says nothing.
    called_off: bool,
}

impl Visitor for Scout {
    fn null(&mut self) -> jetjson::Result<()> {
        Ok(())
    }
    fn bool(&mut self, _: bool) -> jetjson::Result<()> {
        Ok(())
    }
    fn number(&mut self, n: NumberToken<'_>) -> jetjson::Result<()> {
        if matches!(n.value, NumberValue::Big) {
            self.called_off = true;
            return Err(Error::new(ErrorKind::Custom(String::new())));
        }
        Ok(())
    }
    fn string(&mut self, _: &str, _: &str) -> jetjson::Result<()> {
        Ok(())
    }
    fn begin_array(&mut self) -> jetjson::Result<()> {
        Ok(())
    }
    fn end_array(&mut self) -> jetjson::Result<()> {
        Ok(())
    }
    fn begin_object(&mut self) -> jetjson::Result<()> {
        Ok(())
    }
    fn key(&mut self, _: &str, _: &str) -> jetjson::Result<()> {
        Ok(())
    }
    fn end_object(&mut self) -> jetjson::Result<()> {
        Ok(())
    }
}

/// The error a build of `b` with `options` (not reading decimals) ends
/// with, found by walking it with a visitor that builds nothing; `None`
/// when the walk cannot vouch for it, and the caller builds as usual:
///
/// * the text is valid (the hint was wrong);
/// * an integer beyond 64 bits comes first (the builder's `int` may fail);
/// * a repeated name comes first. The walk runs with the caller's
///   options, so under "error" the parser itself refuses a repeated name,
///   at its second spelling, where the builder (parsing with names let
///   through) finds it when its object ends, and the parse may stop
///   elsewhere before that. Any other error therefore comes before every
///   repeated name: the build meets the same parse up to it, builds no
///   object with a repeated name, and stops with this very error (the
///   same driver, the same checks, the same reference explanation).
///
/// A build can also fail for want of memory; this walk makes no objects.
pub(crate) fn error_without_building(py: Python<'_>, b: &[u8], options: &ReadOptions) -> Option<Error> {
    let mut scout = Scout { called_off: false };
    let e = super::kept::parse(py, b, options, &mut scout).err()?;
    if scout.called_off || matches!(e.kind(), ErrorKind::DuplicateKey { .. }) {
        return None;
    }
    Some(e)
}
