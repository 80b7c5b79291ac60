//! A look at the end of an input, for a front end that builds while it
//! parses and would rather not build a value it will throw away: does the
//! input's last value start the input, as a single JSON text's does?
//!
//! The Python binding builds objects as the parser reads them, so text after
//! the value (`{...} {...}`, a stray second body) was met only once the
//! whole first value had been built. `more_than_one_value` reads the last
//! `LOOK_BACK` bytes as the validator's block masks (`blocks.rs`) and finds
//! where the last value starts; if some text comes before it inside the
//! window, the input is not one JSON text. Its answer is a hint: `true` on
//! invalid text may be wrong, and the caller confirms it with a walk that
//! builds nothing before acting on it.

use super::blocks::{prefix_xor_shifts, Structure};

/// The most bytes `more_than_one_value` reads, from the input's end: one
/// block of masks.
pub const LOOK_BACK: usize = 64;

/// The validator's masks of the 64 bytes `w`.
#[inline]
fn window(w: &[u8; LOOK_BACK]) -> Structure {
    #[cfg(target_arch = "x86_64")]
    {
        use super::blocks::{Classify, Sse2};
        // SAFETY: `w` is 64 readable bytes; SSE2 is part of the x86_64
        // baseline, so `Sse2`'s code may run on any x86_64 CPU.
        unsafe { Sse2::structure(w.as_ptr()) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    super::blocks::structure_bytes(w)
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
/// backslashes), for a window no run enters from before (the carry-free
/// form of what the validator does across blocks, `validate.rs`).
#[inline(always)]
fn escaped(backslash: u64) -> u64 {
    const ODD: u64 = 0xAAAA_AAAA_AAAA_AAAA;
    let codes = ((backslash << 1) | ODD).wrapping_sub(backslash) ^ ODD;
    codes ^ backslash
}

/// Whether the last value of `b` (read backwards over its last `LOOK_BACK`
/// bytes at most) certainly does not start the input: text other than
/// whitespace comes before it. For a single JSON text this is never so (its
/// last value is the whole text, after whitespace and perhaps a byte order
/// mark), so `true` means the input is not one JSON text: a second value,
/// or invalid text (where the answer may be wrong either way). `false` when
/// it cannot tell within the window, and for inputs of `LOOK_BACK` bytes or
/// fewer.
pub fn more_than_one_value(b: &[u8]) -> bool {
    let Some(at) = b.len().checked_sub(LOOK_BACK).filter(|&at| at > 0) else {
        return false;
    };
    if b[at - 1] == b'\\' {
        // The window's first byte may be escaped, or a run of backslashes
        // go on before it: not known.
        return false;
    }
    let bytes: &[u8; LOOK_BACK] = b[at..].try_into().expect("LOOK_BACK bytes");
    let w = window(bytes);
    // Quotes that open or close a string, and the bytes inside strings
    // (opening quote included): the window ends outside any string (after
    // a value's last byte), which fixes the state it starts in.
    let quotes = w.quote & !escaped(w.backslash);
    let parity = prefix_xor_shifts(quotes);
    let inside = if quotes.count_ones() & 1 == 1 { !parity } else { parity };
    let space = w.ws | w.control;
    let text = !space;
    if text == 0 {
        return false;
    }
    let last = top(text);
    // Brackets and separators outside strings; which one a bit is comes
    // from its byte.
    let op = w.op & !inside;
    let start = if op >> last & 1 == 1 {
        if !matches!(bytes[last as usize], b'}' | b']') {
            // A text never ends with `:` or `,`.
            return true;
        }
        // Back to the bracket that opens this one.
        let mut depth = 1u32;
        let mut marks = op & below(last);
        loop {
            if marks == 0 {
                return false;
            }
            let at = top(marks);
            marks &= below(at);
            match bytes[at as usize] {
                b'}' | b']' => depth += 1,
                b'{' | b'[' => {
                    depth -= 1;
                    if depth == 0 {
                        break at;
                    }
                }
                _ => {}
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
        let ends = space | w.quote | w.op;
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

#[cfg(test)]
mod tests {
    use super::*;

    /// `doc` after enough spaces that the window holds only its end.
    fn long(doc: &[u8], spaces: usize) -> Vec<u8> {
        let mut v = vec![b' '; spaces];
        v.extend_from_slice(doc);
        v
    }

    /// No single valid text is taken for two: the random documents the
    /// parser's differential tests use, the ones it accepts, after every
    /// count of leading spaces that moves them across the window's start.
    #[test]
    fn a_single_text_never_looks_like_two() {
        let pieces: &[&[u8]] = &[
            b"1",
            b"-2.5e3",
            b"true",
            b"null",
            b"\"s\"",
            b"\"a\\\"b\"",
            b"\"\\\\\"",
            b"\"}]\"",
            b"\"{[\"",
            b"[]",
            b"{}",
            b"[1,[2,{\"x\":\"]\"}]]",
            b"{\"k\":{\"q\":\"\\\\\\\"\"}}",
            b" ",
            b"\n",
        ];
        let mut checked = 0;
        super::super::test_documents::random_documents(pieces, 3000, 4, ":", |doc| {
            if crate::parse::validate(doc, &crate::ReadOptions::default()).is_ok() {
                for spaces in [1, 30, 63, 64, 65, 100] {
                    let input = long(doc, spaces);
                    assert!(!more_than_one_value(&input), "{:?}", String::from_utf8_lossy(&input));
                    checked += 1;
                }
            }
        });
        assert!(checked > 3000, "{checked}");
    }

    /// Two values in the window are seen, whatever the last one is.
    #[test]
    fn a_second_value_in_the_window_is_seen() {
        let firsts: &[&[u8]] = &[b"{\"a\":1}", b"[1,2]", b"\"x\"", b"7", b"true"];
        let lasts: &[&[u8]] = &[b"{\"b\":[2]}", b"[\"]\"]", b"\"y\\\"\"", b"8", b"null", b"{}"];
        for first in firsts {
            for last in lasts {
                for gap in [&b" "[..], b"\n", b"", b" \t "] {
                    if gap.is_empty() && first.last().is_some_and(u8::is_ascii_alphanumeric) && last[0].is_ascii_alphanumeric() {
                        continue; // `7null` is one bad token, not two values.
                    }
                    let mut doc = first.to_vec();
                    doc.extend_from_slice(gap);
                    doc.extend_from_slice(last);
                    doc.extend_from_slice(b"  ");
                    let input = long(&doc, 100);
                    assert!(more_than_one_value(&input), "{:?}", String::from_utf8_lossy(&input));
                }
            }
        }
    }

    /// What the window cannot decide is `false`: short inputs, a window
    /// that starts after a backslash, a last value that starts before it,
    /// nothing but whitespace.
    #[test]
    fn undecided_is_false() {
        assert!(!more_than_one_value(b"1 2"));
        assert!(!more_than_one_value(&long(b"1 2", LOOK_BACK - 3)));
        assert!(more_than_one_value(&long(b"1 2", LOOK_BACK - 2)));
        let mut after_backslash = long(b"\"\\", 10);
        after_backslash.extend_from_slice(&long(b"\" 2", 61));
        assert!(!more_than_one_value(&after_backslash));
        let big = format!("[{}]", "1,".repeat(40) + "1");
        assert!(!more_than_one_value(&long(big.as_bytes(), 5)));
        assert!(!more_than_one_value(&[b' '; 200]));
    }

    /// A window ending in `:` or `,` is never one text.
    #[test]
    fn a_separator_at_the_end_is_two() {
        assert!(more_than_one_value(&long(b"{\"a\":", 100)));
        assert!(more_than_one_value(&long(b"[1,", 100)));
    }
}
