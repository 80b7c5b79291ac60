//! `jetjson_escape`: one string escaped in a profile's escape set, appended
//! to the caller's buffer (the operation a C database serializing strings
//! does by hand).
//!
//! The input goes in pieces of `PIECE` bytes, cut where no UTF-8 sequence
//! spans the cut: each piece is validated (SIMD) while it is in cache and
//! escaped by the core's kernel straight into the caller's buffer, so the
//! room reserved at once stays bounded and a 100 MB string is read twice
//! from cache, not from memory.

use std::os::raw::c_char;

use jetjson::escape::{escape_bytes_replacing_invalid, escape_room};
use jetjson::{InvalidText, Position, Style};

use crate::boundary::{self, Failure, Outcome};
use crate::buffer::Out;
use crate::options::write_options;
use crate::types::{self, Buffer, Error, Status, WriteOptions};

/// Bytes of input per piece (validated and escaped while in L2).
const PIECE: usize = 64 * 1024;

/// UTF-8 continuation bytes are `10xxxxxx`.
fn is_continuation(b: u8) -> bool {
    b & 0xC0 == 0x80
}

/// Where the piece starting at `at` ends: `at + PIECE` (or the end of the
/// input), moved back so that no UTF-8 sequence, valid or not, starts before
/// the cut and goes on after it. A sequence is a lead byte and at most three
/// continuation bytes, so the cut may sit before a byte that is not a
/// continuation, or after three continuation bytes in a row (no lead byte
/// among the three before it).
fn piece_end(input: &[u8], at: usize) -> usize {
    let end = (at + PIECE).min(input.len());
    if end == input.len() {
        return end;
    }
    let mut cut = end;
    for _ in 0..3 {
        if !is_continuation(input[cut]) {
            return cut;
        }
        cut -= 1;
    }
    if is_continuation(input[cut]) {
        // input[end-3..=end] are all continuation bytes: no sequence that
        // starts before `end` reaches it.
        end
    } else {
        cut
    }
}

/// Appends the escaped `input` to `out`; on failure `out` may hold part of
/// the output (the caller truncates).
fn escape_into(style: &Style, input: &[u8], out: &mut Out) -> Outcome {
    let escaper = style.escaper;
    let mut at = 0;
    let mut scratch = Vec::new();
    while at < input.len() {
        let end = piece_end(input, at);
        let piece = &input[at..end];
        match simdutf8::basic::from_utf8(piece) {
            Ok(text) => {
                out.reserve(escape_room(text.len()))?;
                // SAFETY: `reserve` made `escape_room(text.len())` bytes
                // writable at `spare()`, the room `escape_raw` needs; it
                // initialises the `n` bytes it reports.
                unsafe {
                    let n = escaper.escape_raw(out.spare(), text);
                    out.commit(n);
                }
            }
            Err(_) if style.invalid_text == InvalidText::ReplacePerByte => {
                // Go's rule: each byte utf8.DecodeRune rejects is \ufffd.
                // Pieces end where no sequence spans the cut, so the rule
                // applied per piece is the rule applied to the whole.
                scratch.clear();
                escape_bytes_replacing_invalid(&escaper, &mut scratch, piece);
                out.append(&scratch)?;
            }
            Err(_) => {
                let valid = std::str::from_utf8(piece).err().map_or(0, |e| e.valid_up_to());
                let offset = at + valid;
                return Err(Failure::new(
                    types::ERR_VALUE,
                    format!("string is not valid UTF-8 at byte {offset} (profile {} does not repair text)", style.profile.name()),
                )
                .at(Position::locate(input, offset)));
            }
        }
        at = end;
    }
    Ok(())
}

/// `jetjson_escape`.
///
/// # Safety
/// See `jetjson.h`.
#[no_mangle]
pub unsafe extern "C" fn jetjson_escape(
    s: *const c_char,
    len: usize,
    options: *const WriteOptions,
    out: *mut Buffer,
    err: *mut Error,
) -> Status {
    // SAFETY: the caller's contract (jetjson.h), forwarded to each helper.
    unsafe {
        boundary::run(err, || {
            let input = boundary::text(s, len, "s")?;
            let style = write_options(options)?.style();
            let mut out = Out::new(out, "out")?;
            let base = out.len();
            escape_into(&style, input, &mut out).inspect_err(|_| out.truncate(base))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::{piece_end, PIECE};

    #[test]
    fn cuts_never_split_a_sequence() {
        // "€" is E2 82 AC: a cut that would fall on 82 or AC moves back to E2.
        for shift in 0..4 {
            let mut input = vec![b'a'; PIECE - shift];
            input.extend_from_slice("€€".as_bytes());
            let cut = piece_end(&input, 0);
            assert!(std::str::from_utf8(&input[..cut]).is_ok(), "shift {shift}: cut {cut}");
            assert!(std::str::from_utf8(&input[cut..]).is_ok(), "shift {shift}: cut {cut}");
        }
        // A run of stray continuation bytes: the cut stays at the piece end.
        let mut input = vec![b'a'; PIECE - 5];
        input.extend_from_slice(&[0x80; 10]);
        assert_eq!(piece_end(&input, 0), PIECE);
        // A lead byte three before the end of a run keeps its sequence whole.
        let mut input = vec![b'a'; PIECE - 1];
        input.extend_from_slice(&[0xF0, 0x9F, 0x98, 0x80, 0x80]);
        assert_eq!(piece_end(&input, 0), PIECE - 1);
    }
}
