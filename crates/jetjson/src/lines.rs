//! Newlines in a byte slice: how many, and where the last one is. This is
//! what an error's line and column cost (`Position::locate`), and error
//! paths locate offsets deep into large inputs: a size limit refuses a
//! body at byte `max_size`, a syntax error can come late. A service that
//! refuses oversized bodies pays it on every refusal, so the count is one
//! pass of vector compares whose matches are summed in the vector (no
//! per-chunk mask, popcount or branch), with AVX2 when the CPU has it;
//! the last newline is then searched from the end, and only when there is
//! one.

/// The newlines in `b`: how many, and the index of the last.
pub(crate) fn newlines(b: &[u8]) -> (usize, Option<usize>) {
    let count = count(b);
    (count, if count == 0 { None } else { last(b) })
}

/// How many bytes of `b` are `\n`.
fn count(b: &[u8]) -> usize {
    #[cfg(target_arch = "x86_64")]
    {
        if b.len() >= 128 && std::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU was just probed for AVX2.
            return unsafe { x86::count_avx2(b) };
        }
        x86::count_sse2(b)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        portable::count(b)
    }
}

/// The index of the last `\n` in `b`.
fn last(b: &[u8]) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    {
        x86::last_sse2(b)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        portable::last(b)
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use core::arch::x86_64::*;

    /// Steps of `count_sse2` summed per lane before the lane sums are
    /// added up: a compare gives -1 (0xFF) per match, so a byte lane holds
    /// at most 255 matches. Four compares are summed per step, so 63 steps
    /// (252).
    const STEPS: usize = 63;

    /// `count` with 32-byte vectors: four accumulators, each taking the sum
    /// of two compares per 256-byte step (a compare gives -1 per match, so
    /// a byte lane gains at most 2 a step: 127 steps fit in a byte), so no
    /// step waits on the previous one's sum (one accumulator made a chain
    /// of dependent subtractions, half the speed). The steps between
    /// flushes are counted in advance, so the loop tests one counter: 19
    /// instructions per 256 bytes where a 128-byte step with two tests took
    /// 14 per 128 (a size limit's refusal counts the newlines before the
    /// limit, 16 KiB for a common one, on every refused body).
    ///
    /// # Safety
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn count_avx2(b: &[u8]) -> usize {
        const STEPS: usize = 127;
        const STEP: usize = 256;
        let (mut total, mut i) = (0usize, 0usize);
        // SAFETY: every load reads 32 bytes at `q + k` with `k <= 224`,
        // where `q = p + i + s * STEP` for a step `s < n` and
        // `i + n * STEP <= b.len()` (`n` is at most the whole steps left);
        // AVX2 is enabled by the attribute.
        unsafe {
            let nl = _mm256_set1_epi8(b'\n' as i8);
            let zero = _mm256_setzero_si256();
            while i + STEP <= b.len() {
                let n = ((b.len() - i) / STEP).min(STEPS);
                let (mut a, mut c, mut d, mut e) = (zero, zero, zero, zero);
                let mut q = b.as_ptr().add(i);
                for _ in 0..n {
                    let m = |k: usize| _mm256_cmpeq_epi8(_mm256_loadu_si256(q.add(k).cast()), nl);
                    // A match is -1 (0xFF): subtracting it adds one.
                    a = _mm256_sub_epi8(a, _mm256_add_epi8(m(0), m(128)));
                    c = _mm256_sub_epi8(c, _mm256_add_epi8(m(32), m(160)));
                    d = _mm256_sub_epi8(d, _mm256_add_epi8(m(64), m(192)));
                    e = _mm256_sub_epi8(e, _mm256_add_epi8(m(96), m(224)));
                    q = q.add(STEP);
                }
                i += n * STEP;
                // Four 64-bit sums of eight lanes each, per accumulator.
                let sums = _mm256_add_epi64(
                    _mm256_add_epi64(_mm256_sad_epu8(a, zero), _mm256_sad_epu8(c, zero)),
                    _mm256_add_epi64(_mm256_sad_epu8(d, zero), _mm256_sad_epu8(e, zero)),
                );
                let half = _mm_add_epi64(_mm256_castsi256_si128(sums), _mm256_extracti128_si256::<1>(sums));
                total += (_mm_cvtsi128_si64(half) + _mm_cvtsi128_si64(_mm_unpackhi_epi64(half, half))) as usize;
            }
        }
        total + count_sse2(&b[i..])
    }

    /// `count` with 16-byte vectors (SSE2 is baseline on x86_64).
    pub(super) fn count_sse2(b: &[u8]) -> usize {
        let (mut total, mut i) = (0usize, 0usize);
        let p = b.as_ptr();
        // SAFETY: every load reads 16 bytes at `p + i + k` with
        // `i + k + 16 <= b.len()` (a step covers 64 bytes and runs only
        // while `i + 64 <= b.len()`); SSE2 is part of x86_64.
        unsafe {
            let nl = _mm_set1_epi8(b'\n' as i8);
            let zero = _mm_setzero_si128();
            while i + 64 <= b.len() {
                let mut acc = zero;
                let mut steps = 0;
                while steps < STEPS && i + 64 <= b.len() {
                    let a = _mm_cmpeq_epi8(_mm_loadu_si128(p.add(i).cast()), nl);
                    let c = _mm_cmpeq_epi8(_mm_loadu_si128(p.add(i + 16).cast()), nl);
                    let d = _mm_cmpeq_epi8(_mm_loadu_si128(p.add(i + 32).cast()), nl);
                    let e = _mm_cmpeq_epi8(_mm_loadu_si128(p.add(i + 48).cast()), nl);
                    acc = _mm_sub_epi8(acc, _mm_add_epi8(_mm_add_epi8(a, c), _mm_add_epi8(d, e)));
                    i += 64;
                    steps += 1;
                }
                let sums = _mm_sad_epu8(acc, zero);
                total += (_mm_cvtsi128_si64(sums) + _mm_cvtsi128_si64(_mm_unpackhi_epi64(sums, sums))) as usize;
            }
            while i + 16 <= b.len() {
                total += _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(p.add(i).cast()), nl)).count_ones() as usize;
                i += 16;
            }
        }
        total + b[i..].iter().filter(|&&c| c == b'\n').count()
    }

    /// The last `\n` in `b`, searched from the end 16 bytes at a time.
    pub(super) fn last_sse2(b: &[u8]) -> Option<usize> {
        let tail = b.len() % 16;
        if let Some(j) = b[b.len() - tail..].iter().rposition(|&c| c == b'\n') {
            return Some(b.len() - tail + j);
        }
        let mut end = b.len() - tail;
        // SAFETY: every load reads the 16 bytes before `end`, with
        // `16 <= end <= b.len()`; SSE2 is part of x86_64.
        unsafe {
            let nl = _mm_set1_epi8(b'\n' as i8);
            while end >= 16 {
                let bits = _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(b.as_ptr().add(end - 16).cast()), nl)) as u32;
                if bits != 0 {
                    return Some(end - 16 + (31 - bits.leading_zeros() as usize));
                }
                end -= 16;
            }
        }
        None
    }
}

/// Eight bytes at a time, off x86_64 (and the reference the x86 code is
/// tested against).
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
mod portable {
    const WORD: usize = 8;
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    const NEWLINES: u64 = 0x0A0A_0A0A_0A0A_0A0A;

    /// The high bit of each byte of `w` that equals `\n`, exactly (no
    /// borrow between bytes, unlike the usual "has a zero byte" test).
    #[inline]
    fn newline_bits(w: u64) -> u64 {
        let x = w ^ NEWLINES;
        !(((x & LOW7) + LOW7) | x | LOW7)
    }

    fn word(b: &[u8]) -> u64 {
        let mut w = [0u8; WORD];
        w.copy_from_slice(b);
        u64::from_le_bytes(w)
    }

    pub(super) fn count(b: &[u8]) -> usize {
        let mut words = b.chunks_exact(WORD);
        let mut n = 0;
        for w in &mut words {
            n += newline_bits(word(w)).count_ones() as usize;
        }
        n + words.remainder().iter().filter(|&&c| c == b'\n').count()
    }

    pub(super) fn last(b: &[u8]) -> Option<usize> {
        let tail = b.len() % WORD;
        if let Some(i) = b[b.len() - tail..].iter().rposition(|&c| c == b'\n') {
            return Some(b.len() - tail + i);
        }
        let mut end = b.len() - tail;
        while end >= WORD {
            let bits = newline_bits(word(&b[end - WORD..end]));
            if bits != 0 {
                // Little-endian: the last byte in memory is the most significant.
                return Some(end - WORD + (63 - bits.leading_zeros() as usize) / 8);
            }
            end -= WORD;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slow(b: &[u8]) -> (usize, Option<usize>) {
        (b.iter().filter(|&&c| c == b'\n').count(), b.iter().rposition(|&c| c == b'\n'))
    }

    fn check(b: &[u8]) {
        let want = slow(b);
        assert_eq!(newlines(b), want, "len {}", b.len());
        assert_eq!((portable::count(b), portable::last(b)), want, "portable, len {}", b.len());
        #[cfg(target_arch = "x86_64")]
        {
            assert_eq!((x86::count_sse2(b), x86::last_sse2(b)), want, "sse2, len {}", b.len());
            if std::is_x86_feature_detected!("avx2") {
                // SAFETY: probed just above.
                assert_eq!(unsafe { x86::count_avx2(b) }, want.0, "avx2, len {}", b.len());
            }
        }
    }

    #[test]
    fn every_length_and_mix_agrees_with_a_byte_loop() {
        // Newlines next to bytes that trip naive word tricks (0x0B, 0x8A,
        // 0x09, 0xFF), at every length through several vector steps.
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for len in 0..600 {
            for density in [0u64, 1, 4, 8] {
                let input: Vec<u8> = (0..len)
                    .map(|_| {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        if density > 0 && x % 8 < density {
                            b'\n'
                        } else {
                            [0x0B, 0x8A, 0x09, 0xFF, b'a', 0x00, 0x0A ^ 0x80, b' '][(x >> 8) as usize % 8]
                        }
                    })
                    .collect();
                check(&input);
                // The same bytes at an odd alignment.
                if len > 1 {
                    check(&input[1..]);
                }
            }
        }
    }

    #[test]
    fn lanes_never_overflow() {
        // Every byte a newline, far past the point where a byte lane would
        // wrap (255 matches) if the sums were not flushed in time.
        // (The AVX2 count flushes every 127 steps of 256 bytes.)
        for len in [255 * 32, 255 * 128, 63 * 128 + 1, 64 * 128, 127 * 256 - 1, 127 * 256, 127 * 256 + 1, 255 * 256, 70_000, 1 << 20] {
            check(&vec![b'\n'; len]);
        }
        // A single newline at the very start or end of a long input.
        let mut v = vec![b'x'; 100_000];
        v[0] = b'\n';
        check(&v);
        v[0] = b'x';
        v[99_999] = b'\n';
        check(&v);
    }
}
