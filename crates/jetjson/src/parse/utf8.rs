//! UTF-8 validation of string bodies that contain non-ASCII bytes.
//!
//! Text in non-Latin scripts is long runs of multi-byte characters (CJK is
//! three bytes each). The standard library's validator looks each lead
//! byte's width up and then checks the continuation bytes one by one; here
//! a whole sequence is checked with one masked compare of up to four bytes
//! read at once, plus the two range rules that a mask cannot express
//! (no overlong forms, no surrogates, nothing above U+10FFFF). Only the
//! yes/no answer is computed: on failure the caller asks the standard
//! library where the first invalid sequence starts.

/// Whether `b` is valid UTF-8 (same answer as `std::str::from_utf8`).
/// Out of line: only bodies with non-ASCII bytes come here, and the
/// string fast path stays small.
#[inline(never)]
pub(crate) fn is_valid(b: &[u8]) -> bool {
    let n = b.len();
    let mut i = 0;
    // Sequences are checked by reading four bytes at once while four are
    // available; the tail goes to the standard library.
    while i + 4 <= n {
        let w = u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
        let c = w as u8;
        if c < 0x80 {
            // ASCII: skip the whole run of ASCII bytes in this word.
            // (The first byte is ASCII, so this is at least 1.)
            i += ((w & 0x8080_8080).trailing_zeros() / 8) as usize;
            continue;
        }
        if c < 0xE0 {
            // 110xxxxx 10xxxxxx, lead >= 0xC2 (0xC0 and 0xC1 are overlong).
            if w & 0xC0E0 != 0x80C0 || c < 0xC2 {
                return false;
            }
            i += 2;
        } else if c < 0xF0 {
            // 1110xxxx 10xxxxxx 10xxxxxx; after 0xE0 the second byte is
            // >= 0xA0 (else overlong), after 0xED <= 0x9F (else a surrogate).
            if w & 0x00C0_C0F0 != 0x0080_80E0 {
                return false;
            }
            let c1 = (w >> 8) as u8;
            if (c == 0xE0 && c1 < 0xA0) || (c == 0xED && c1 > 0x9F) {
                return false;
            }
            i += 3;
        } else {
            // 11110xxx and three continuation bytes; lead <= 0xF4, after
            // 0xF0 the second byte is >= 0x90 (else overlong), after 0xF4
            // <= 0x8F (else beyond U+10FFFF).
            if w & 0xC0C0_C0F8 != 0x8080_80F0 || c > 0xF4 {
                return false;
            }
            let c1 = (w >> 8) as u8;
            if (c == 0xF0 && c1 < 0x90) || (c == 0xF4 && c1 > 0x8F) {
                return false;
            }
            i += 4;
        }
    }
    std::str::from_utf8(&b[i.min(n)..]).is_ok()
}

#[cfg(test)]
mod tests {
    use super::is_valid;

    fn same(b: &[u8]) {
        assert_eq!(is_valid(b), std::str::from_utf8(b).is_ok(), "{b:02x?}");
    }

    #[test]
    fn agrees_with_std_on_every_sequence_of_up_to_three_bytes_in_context() {
        // Every 1-, 2- and 3-byte input, alone and between ASCII and
        // multi-byte neighbours (so the four-byte reads see it too).
        for x in 0..=0xFF_FFFFu32 {
            let [a, b, c, _] = x.to_le_bytes();
            same(&[a, b, c]);
            if x % 7 == 0 {
                same(&[b'a', a, b, c, b'z', b'z']);
                same(&[0xE6, 0x97, 0xA5, a, b, c, 0xC3, 0xA9]);
            }
        }
        for x in 0..=0xFFFFu32 {
            let [a, b, _, _] = x.to_le_bytes();
            same(&[a]);
            same(&[a, b]);
            same(&[b'x', a, b, b'x', b'x', b'x']);
        }
    }

    #[test]
    fn agrees_with_std_on_four_byte_sequences() {
        for lead in 0xF0..=0xFFu8 {
            for c1 in 0..=0xFFu8 {
                for c2 in [0x00, 0x7F, 0x80, 0x9F, 0xA0, 0xBF, 0xC0, 0xFF] {
                    for c3 in [0x00, 0x80, 0xBF, 0xC0] {
                        same(&[lead, c1, c2, c3]);
                        same(&[lead, c1, c2, c3, b'a', b'b', b'c', b'd']);
                        same(&[b'a', lead, c1, c2, c3]);
                    }
                }
            }
        }
    }

    #[test]
    fn agrees_with_std_on_random_mixed_text() {
        // A small deterministic generator: mixes valid characters of every
        // width with random bytes.
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let samples = ["a", "é", "日本", "😀", "\u{10FFFF}", "\u{FFFF}", "\u{800}", "\u{80}", " "];
        for _ in 0..20_000 {
            let mut v = Vec::new();
            for _ in 0..(next() % 24) {
                let r = next();
                if r % 5 == 0 {
                    v.push((r >> 8) as u8);
                } else {
                    v.extend_from_slice(samples[(r >> 8) as usize % samples.len()].as_bytes());
                }
            }
            same(&v);
        }
    }
}
