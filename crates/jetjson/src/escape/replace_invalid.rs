//! Go's treatment of byte strings that may hold invalid UTF-8.

use super::Escaper;

/// Go's `\ufffd`, written for every byte `utf8.DecodeRune` rejects.
const REPLACEMENT: &[u8; 6] = b"\\ufffd";

/// Go's rule for byte strings that may hold invalid UTF-8: appends the
/// escaped contents of `s`; every byte that Go's `utf8.DecodeRune` rejects
/// (`RuneError` with size 1) becomes the six ASCII bytes `\ufffd`, and
/// valid sequences are escaped per `escaper`'s set.
///
/// E.g. `b"a\xffb"` -> `a\ufffdb`; `E2 82` -> 2 escapes; `F0 9F 98` -> 3;
/// `ED A0 80` (a surrogate) -> 3; `C0 AF` -> 2; a valid U+FFFD
/// (`EF BF BD`) stays raw bytes (unless the set is ascii_only).
pub fn escape_bytes_replacing_invalid(escaper: &Escaper, dst: &mut Vec<u8>, s: &[u8]) {
    let mut rest = s;
    loop {
        match core::str::from_utf8(rest) {
            Ok(valid) => return escaper.escape(dst, valid),
            Err(error) => {
                let (valid, invalid) = rest.split_at(error.valid_up_to());
                // SAFETY: `valid_up_to` delimits a valid UTF-8 prefix.
                escaper.escape(dst, unsafe { core::str::from_utf8_unchecked(valid) });
                // Rust reports each maximal invalid subpart (a lone bad byte,
                // or a lead byte plus the continuation bytes that fit it) as
                // one error, `None` meaning a truncated sequence at the end.
                // Go rejects such a subpart one byte at a time: the lead byte
                // fails with size 1, then each following continuation byte
                // fails on its own. So it is one replacement per byte.
                let bad = error.error_len().unwrap_or(invalid.len());
                for _ in 0..bad {
                    dst.extend_from_slice(REPLACEMENT);
                }
                rest = &invalid[bad..];
            }
        }
    }
}
