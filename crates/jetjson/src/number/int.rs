//! Integers written straight into the output buffer.
//!
//! Formatting into a separate digit buffer and copying (what `itoa` plus a
//! copy does) stalls: the copy reads the digits back with wider loads than
//! the byte and pair stores that wrote them, which defeats store forwarding.
//! Here the digit count comes first (from comparisons, or from the bit
//! length) and the digits are stored in place: up to four from the pair
//! table, longer ones in blocks of eight made in a register (`put_u64`, the
//! writer's path), or two at a time from a table, right to left
//! (`write_u64`).

const PAIRS: &[u8; 200] = b"\
0001020304050607080910111213141516171819\
2021222324252627282930313233343536373839\
4041424344454647484950515253545556575859\
6061626364656667686970717273747576777879\
8081828384858687888990919293949596979899";

/// Appends the decimal digits of `v`.
#[inline]
pub fn write_u64(dst: &mut Vec<u8>, v: u64) {
    let n = digit_count(v);
    dst.reserve(n);
    let len = dst.len();
    // SAFETY: `n` bytes are reserved after `len`; `put_digits` writes exactly
    // the `n` bytes of that range before `set_len` exposes them.
    unsafe {
        put_digits(dst.as_mut_ptr().add(len), n, v);
        dst.set_len(len + n);
    }
}

/// Writes the decimal digits of `v` at `out`; returns their count.
///
/// Up to four digits come from the pair table (one or two lookups, one
/// store); longer numbers in blocks of eight made in a register
/// (`eight_digits`), each stored with one 8-byte store: the leading block
/// shifted past its leading zeros, the others whole. Below 2^32 the digit
/// count is a few comparisons rather than `digit_count`'s table load.
///
/// # Safety
/// `out` must be valid for 20 bytes of writes.
#[inline(always)]
pub(crate) unsafe fn put_u64(out: *mut u8, v: u64) -> usize {
    const E8: u64 = 100_000_000;
    // SAFETY (whole block): the stores end at `out + 2` (up to two
    // digits), `out + 4` (three or four), `out + 8` (five to eight), at
    // `out + n` (9 to 16 digits: the leading pair or block of n - 8 digits,
    // then eight), or at `out + n` (17 to 20: the leading block of n - 16,
    // then sixteen); every store is inside the 20 bytes of room. A shorter
    // number's store ends with zero bytes past the length returned.
    unsafe {
        if v < 100 {
            // Counts, quantities, flags, small ids: one or two digits from
            // the pair table.
            let n = 1 + usize::from(v >= 10);
            out.cast::<u16>().write_unaligned(((pair(v) >> (8 * (2 - n))) as u16).to_le());
            return n;
        }
        if v < 10_000 {
            // Three or four digits: two pairs, half the work of a block.
            let n = 3 + usize::from(v >= 1_000);
            out.cast::<u32>().write_unaligned(((four_digits(v as u32) >> (8 * (4 - n))) as u32).to_le());
            return n;
        }
        if v < E8 {
            let n = 5 + usize::from(v >= 100_000) + usize::from(v >= 1_000_000) + usize::from(v >= 10_000_000);
            out.cast::<u64>().write_unaligned((eight_digits(v as u32) >> (8 * (8 - n))).to_le());
            return n;
        }
        if v <= u64::from(u32::MAX) {
            // 9 or 10 digits (ids, timestamps): the top one or two from the
            // pair table, then eight.
            let k = 1 + usize::from(v >= 1_000_000_000);
            let top = (v * 1_441_151_881) >> 57; // v / 10^8, exact for u32
            let rest = (v - top * E8) as u32;
            out.cast::<u16>().write_unaligned(((pair(top) >> (8 * (2 - k))) as u16).to_le());
            out.add(k).cast::<u64>().write_unaligned(eight_digits(rest).to_le());
            return k + 8;
        }
        let n = digit_count(v);
        if v < E8 * E8 {
            let (hi, lo) = ((v / E8) as u32, (v % E8) as u32);
            let k = n - 8;
            out.cast::<u64>().write_unaligned((eight_digits(hi) >> (8 * (8 - k))).to_le());
            out.add(k).cast::<u64>().write_unaligned(eight_digits(lo).to_le());
        } else {
            let (top, rest) = ((v / (E8 * E8)) as u32, v % (E8 * E8));
            let (mid, lo) = ((rest / E8) as u32, (rest % E8) as u32);
            let k = n - 16;
            out.cast::<u64>().write_unaligned((eight_digits(top) >> (8 * (8 - k))).to_le());
            out.add(k).cast::<u64>().write_unaligned(eight_digits(mid).to_le());
            out.add(k + 8).cast::<u64>().write_unaligned(eight_digits(lo).to_le());
        }
        n
    }
}

/// The two decimal digits of `v < 100` as the bytes of a little-endian
/// u16 (tens first), widened.
#[inline(always)]
fn pair(v: u64) -> u64 {
    let i = 2 * v as usize;
    u64::from(u16::from_le_bytes([PAIRS[i], PAIRS[i + 1]]))
}

/// The four decimal digits of `v < 10^4`, zero-padded, as the bytes of a
/// little-endian u32 (first digit lowest), widened: two pairs.
#[inline(always)]
fn four_digits(v: u32) -> u64 {
    debug_assert!(v < 10_000);
    // v / 100 for v < 10^4: 2^19 / 100 rounded up, exact below 43,699.
    let hi = (u64::from(v) * 5_243) >> 19;
    pair(hi) | (pair(u64::from(v) - hi * 100) << 16)
}

/// The eight decimal digits of `v < 10^8`, zero-padded, as the bytes of a
/// little-endian u64 (first digit in the lowest byte).
///
/// On x86-64, with SSE2 (part of the baseline): the halves `v / 10^4` and
/// `v % 10^4` each fill four 16-bit lanes, which are divided at once by
/// 1000, 100, 10 and 1 (a high multiplication by a reciprocal, then one
/// by a power of two for the lane's shift); each lane less ten times the
/// lane before it is that digit. Fewer instructions than the lane
/// arithmetic in general registers (`eight_digits_swar`, the other
/// targets' way), and off the general registers the writer uses:
/// `put_u64` took a third of `dumps`' time on citm_catalog's ids with it
/// (bench/results/int-writes-2026-11-29.md).
#[inline(always)]
fn eight_digits(v: u32) -> u64 {
    debug_assert!(v < 100_000_000);
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::*;
        // v / 10^4 for v < 10^8: 2^40 / 10^4 rounded up (see the SWAR form).
        let hi = (u64::from(v) * 109_951_163) >> 40;
        let lo = u64::from(v) - hi * 10_000;
        // SAFETY: SSE2 is part of the x86-64 baseline, so these intrinsics
        // are available on every x86-64 target; they touch registers only.
        unsafe {
            // 16-bit lanes: hi in lanes 0-3, lo in lanes 4-7.
            let x = _mm_cvtsi64_si128((hi | (lo << 32)) as i64);
            let x = _mm_shuffle_epi32::<0b10_10_00_00>(_mm_unpacklo_epi16(x, x));
            // (4x * m) >> 16 = (x * m) >> 14 (4x < 40,000 fits a lane), then
            // >> 9, 5, 5 and 0 more by a high multiplication by 2^(16 - s):
            // x / 1000 = (x * 8389) >> 23, x / 100 = (x * 5243) >> 19,
            // x / 10 = (x * 52429) >> 19, exact for x < 10^4; x itself as
            // (4x * 2^15) >> 16 >> 1.
            let m = _mm_set_epi16(-32768, 52429u16 as i16, 5243, 8389, -32768, 52429u16 as i16, 5243, 8389);
            let s = _mm_set_epi16(1 << 15, 1 << 11, 1 << 11, 1 << 7, 1 << 15, 1 << 11, 1 << 11, 1 << 7);
            let q = _mm_mulhi_epu16(_mm_mulhi_epu16(_mm_slli_epi16::<2>(x), m), s);
            // Each lane's digit: its quotient less ten times the lane
            // before it (shifted in from the left within each 64-bit half,
            // zero for the first lane).
            let d = _mm_sub_epi16(q, _mm_slli_epi64::<16>(_mm_mullo_epi16(q, _mm_set1_epi16(10))));
            let bytes = _mm_add_epi8(_mm_packus_epi16(d, d), _mm_set1_epi8(b'0' as i8));
            _mm_cvtsi128_si64(bytes) as u64
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        eight_digits_swar(v)
    }
}

/// `eight_digits` with no table and no division: the halves go into two
/// 32-bit lanes of one register, each
/// lane is split into two 16-bit lanes of pairs, and those into bytes, each
/// split a multiplication by a reciprocal, applied to all lanes at once.
/// The products stay inside their lanes (and what a shift brings down from
/// the lane above is masked off), so the lanes do not disturb each other.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
#[inline(always)]
fn eight_digits_swar(v: u32) -> u64 {
    debug_assert!(v < 100_000_000);
    // v / 10^4 for v < 10^8: 2^40 / 10^4 rounded up; the excess stays below
    // 10^8 * 0.23 / 2^40, far less than the 1/10^4 step between quotients.
    let hi = (u64::from(v) * 109_951_163) >> 40;
    let lo = u64::from(v) - hi * 10_000;
    // Lanes of 32 bits: the first four digits low, the last four high.
    let x = hi | (lo << 32);
    // x / 100 per lane (each below 10^4): 2^20 / 100 rounded up, exact
    // below 43,699; the products stay below 2^27, inside their lane.
    let q = ((x * 10_486) >> 20) & 0x0000_007F_0000_007F;
    // Lanes of 16 bits: the first pair of each half low, the second high.
    let y = q | ((x - q * 100) << 16);
    // y / 10 per lane (each below 100): 2^10 / 10 rounded up, exact below
    // 179; the products stay below 2^14, inside their lane.
    let t = ((y * 103) >> 10) & 0x000F_000F_000F_000F;
    // Bytes: the tens digit low, the units high, then ASCII.
    let z = t | ((y - t * 10) << 8);
    z + 0x3030_3030_3030_3030
}

/// Writes `v` in decimal (with its sign) at `out`; returns the length.
///
/// # Safety
/// `out` must be valid for 20 bytes of writes (`-` and at most 19 digits).
#[inline]
pub(crate) unsafe fn put_i64(out: *mut u8, v: i64) -> usize {
    let sign = usize::from(v < 0);
    // SAFETY: the sign byte and at most 19 digits fit in 20 bytes.
    unsafe {
        *out = b'-';
        sign + put_u64(out.add(sign), v.unsigned_abs())
    }
}

/// Decimal digits of `v`: the bit length gives the count to within one
/// (log10(2) ~ 1233/4096), and one comparison settles it.
#[inline(always)]
fn digit_count(v: u64) -> usize {
    let bits = bit_length(v | 1);
    let guess = (bits * 1233) >> 12;
    // `v | 1` makes 0 count as one digit; it never crosses a power of ten.
    guess + usize::from((v | 1) >= super::POW10_U64[guess])
}

/// The bit length of the non-zero `x` (its highest set bit's index + 1).
///
/// x86-64 builds without LZCNT (the portable build) get this from `bsr`,
/// which leaves its destination unchanged for a zero input and so, on
/// Intel cores, waits for that register's old value: a false dependency
/// that chained each integer's digit count to whatever the register held
/// before, often the previous integer's length (`put_u64` returns it), so
/// integers written in a row could not overlap. `leading_zeros` of a value
/// known to be non-zero compiles to a bare `bsr`; here its destination is
/// zeroed first with a zero idiom, which the core resolves at rename
/// (the same cure as `zmij_fresh_eax` for zmij's `bzhi`).
#[inline(always)]
fn bit_length(x: u64) -> usize {
    debug_assert!(x != 0);
    #[cfg(all(target_arch = "x86_64", not(target_feature = "lzcnt")))]
    {
        let top: u64;
        // SAFETY: `bsr` reads a register and writes a register and the
        // flags, nothing else (no memory, no stack). `x` is non-zero, so the
        // result is defined: the index of its highest set bit.
        unsafe {
            core::arch::asm!("xor {top:e}, {top:e}", "bsr {top}, {x}", x = in(reg) x, top = out(reg) top, options(pure, nomem, nostack));
        }
        top as usize + 1
    }
    #[cfg(not(all(target_arch = "x86_64", not(target_feature = "lzcnt"))))]
    {
        64 - x.leading_zeros() as usize
    }
}

#[inline]
pub fn write_i64(dst: &mut Vec<u8>, v: i64) {
    if v < 0 {
        dst.push(b'-');
    }
    write_u64(dst, v.unsigned_abs());
}

/// Writes the `n` digits of `v` to `out[0..n]`, right to left.
///
/// # Safety
/// `out` must be valid for `n` bytes of writes, and `n` must be the number
/// of decimal digits of `v` (1 for 0).
#[inline(always)]
unsafe fn put_digits(out: *mut u8, n: usize, mut v: u64) {
    let mut end = n;
    // SAFETY (whole block): every store is at an index below `end`, which
    // starts at `n` and never drops below 0 because `v` has exactly `n` digits.
    unsafe {
        // Four digits per step: the two pair lookups are independent, which
        // halves the chain of dependent divisions of a pair-at-a-time loop.
        while v >= 10_000 {
            let quad = (v % 10_000) as usize;
            v /= 10_000;
            let (hi, lo) = (quad / 100 * 2, quad % 100 * 2);
            end -= 4;
            out.add(end).write(PAIRS[hi]);
            out.add(end + 1).write(PAIRS[hi + 1]);
            out.add(end + 2).write(PAIRS[lo]);
            out.add(end + 3).write(PAIRS[lo + 1]);
        }
        if v >= 100 {
            let pair = (v % 100) as usize * 2;
            v /= 100;
            end -= 2;
            out.add(end).write(PAIRS[pair]);
            out.add(end + 1).write(PAIRS[pair + 1]);
        }
        if v >= 10 {
            let pair = v as usize * 2;
            out.add(end - 2).write(PAIRS[pair]);
            out.add(end - 1).write(PAIRS[pair + 1]);
        } else {
            out.add(end - 1).write(b'0' + v as u8);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lane arithmetic of `eight_digits` (SSE2 on x86-64) and
    /// `eight_digits_swar`, and the pairs of `four_digits`, against plain
    /// division: every
    /// value below 10^5 (every pair and quad, with carries between lanes),
    /// then a stride over the rest up to 10^8 - 1.
    #[test]
    fn eight_digits_are_the_zero_padded_decimal_digits() {
        let check = |v: u32| {
            let mut want = [0u8; 8];
            let mut x = v;
            for d in want.iter_mut().rev() {
                *d = b'0' + (x % 10) as u8;
                x /= 10;
            }
            assert_eq!(eight_digits(v).to_le_bytes(), want, "{v}");
            assert_eq!(eight_digits_swar(v).to_le_bytes(), want, "{v}");
            if v < 10_000 {
                assert_eq!(four_digits(v).to_le_bytes()[..4], want[4..], "{v}");
                assert_eq!(four_digits(v) >> 32, 0, "{v}");
            }
        };
        (0..100_000).for_each(check);
        (100_000..100_000_000).step_by(997).for_each(check);
        check(99_999_999);
    }

    /// `bit_length` (a `bsr` in builds without LZCNT) at every bit
    /// position, and either side of it.
    #[test]
    fn bit_length_is_the_index_of_the_top_bit_plus_one() {
        for k in 0..64 {
            let p = 1u64 << k;
            for x in [p, p | (p >> 1), p | 1, (p - 1) | p, p.wrapping_mul(3) | p] {
                if x.leading_zeros() == 63 - k {
                    assert_eq!(bit_length(x), k as usize + 1, "{x:#x}");
                }
            }
        }
        assert_eq!(bit_length(u64::MAX), 64);
    }

    #[test]
    fn matches_std_formatting_at_every_digit_count() {
        // Every value of the one- and two-digit path and past it.
        let mut cases: Vec<u64> = (0..=1000).chain([u64::MAX, u64::MAX - 1]).collect();
        let mut p = 1u64;
        while let Some(next) = p.checked_mul(10) {
            cases.extend([p - 1, p, p + 1]);
            p = next;
        }
        cases.extend([p - 1, p, p + 1]);
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..10_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            cases.push(x >> (x % 64));
        }
        cases.extend([u64::from(u32::MAX) - 1, u64::from(u32::MAX), u64::from(u32::MAX) + 1]);
        for v in cases {
            let mut out = b"prefix".to_vec();
            write_u64(&mut out, v);
            assert_eq!(out, format!("prefix{v}").into_bytes());
            // In place (the writer's path): the digits, and nothing written
            // past the 20 bytes of room.
            for s in [v as i64, (v as i64).wrapping_neg()] {
                let mut room = [0xA5u8; 28];
                // SAFETY: 20 bytes of room.
                let n = unsafe { put_u64(room.as_mut_ptr(), v) };
                assert_eq!(&room[..n], v.to_string().as_bytes());
                assert!(room[20..].iter().all(|&b| b == 0xA5));
                let mut room = [0xA5u8; 28];
                // SAFETY: as above.
                let n = unsafe { put_i64(room.as_mut_ptr(), s) };
                assert_eq!(&room[..n], s.to_string().as_bytes());
                assert!(room[20..].iter().all(|&b| b == 0xA5));
            }
            for s in [v as i64, (v as i64).wrapping_neg(), i64::MIN, i64::MAX] {
                let mut out = Vec::new();
                write_i64(&mut out, s);
                assert_eq!(out, s.to_string().into_bytes());
            }
        }
    }
}
