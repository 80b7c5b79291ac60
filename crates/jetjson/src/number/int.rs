//! Integers written straight into the output buffer.
//!
//! Formatting into a separate digit buffer and copying (what `itoa` plus a
//! copy does) stalls: the copy reads the digits back with wider loads than
//! the byte and pair stores that wrote them, which defeats store forwarding.
//! Here the digit count comes first (`ilog10`) and the digits are stored in
//! place, two at a time from a table, right to left.

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
/// # Safety
/// `out` must be valid for 20 bytes of writes.
#[inline]
pub(crate) unsafe fn put_u64(out: *mut u8, v: u64) -> usize {
    let n = digit_count(v);
    if v <= u64::from(u32::MAX) {
        // SAFETY: at most 10 digits, stored within the 20 bytes of room.
        unsafe { put_u32_digits(out, n, v as u32) };
        return n;
    }
    // SAFETY: `n <= 20` digits fit the room the caller gives.
    unsafe { put_digits(out, n, v) };
    n
}

/// The eight decimal digits of `v < 10^8`, zero-padded, as the bytes of a
/// little-endian u64 (first digit in the lowest byte). The two halves and
/// their pairs come from multiplications by reciprocals (exact in these
/// ranges), not a chain of dependent divisions, and the four pair lookups
/// are independent.
#[inline(always)]
fn eight_digits(v: u32) -> u64 {
    debug_assert!(v < 100_000_000);
    // v / 10^4 for v < 10^8: 2^40 / 10^4 rounded up; the excess stays below
    // 10^8 * 0.23 / 2^40, far less than the 1/10^4 step between quotients.
    let hi = ((u64::from(v) * 109_951_163) >> 40) as u32;
    let lo = v - hi * 10_000;
    // x / 100 for x < 10^4: 2^19 / 100 rounded up (exact below 43,699).
    let split = |x: u32| {
        let h = (x * 5243) >> 19;
        (h as usize, (x - h * 100) as usize)
    };
    let pair = |i: usize| u64::from(u16::from_le_bytes([PAIRS[2 * i], PAIRS[2 * i + 1]]));
    let ((a, b), (c, d)) = (split(hi), split(lo));
    pair(a) | pair(b) << 16 | pair(c) << 32 | pair(d) << 48
}

/// Writes the `n` digits of `v` (at most 10) to `out[0..n]`.
///
/// # Safety
/// `out` must be valid for 16 bytes of writes (the 8-byte stores may pass
/// the last digit), and `n` must be the number of decimal digits of `v`.
#[inline(always)]
unsafe fn put_u32_digits(out: *mut u8, n: usize, v: u32) {
    // SAFETY (whole block): each store writes 8 bytes at `out` or at
    // `out + n - 8` with `n >= 9`, all below `out + 16`.
    unsafe {
        if n <= 8 {
            // The zero-padded block moved down past its leading zeros: the
            // low `n` bytes are the digits (the rest is zeros, overwritten
            // by whatever follows).
            let block = eight_digits(v) >> (8 * (8 - n));
            out.cast::<u64>().write_unaligned(block.to_le());
        } else {
            // 9 or 10 digits: the top one or two, then eight.
            let top = ((u64::from(v) * 1_441_151_881) >> 57) as u32; // v / 10^8
            let rest = v - top * 100_000_000;
            let head = u16::from_le_bytes([PAIRS[2 * top as usize], PAIRS[2 * top as usize + 1]]);
            // Two digits of `top` (a leading zero when `n == 9`): write both
            // and start the block one byte earlier in that case.
            let skip = 10 - n;
            out.cast::<u16>().write_unaligned((head >> (8 * skip)).to_le());
            out.add(2 - skip).cast::<u64>().write_unaligned(eight_digits(rest).to_le());
        }
    }
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
    let bits = 64 - (v | 1).leading_zeros() as usize;
    let guess = (bits * 1233) >> 12;
    // `v | 1` makes 0 count as one digit; it never crosses a power of ten.
    guess + usize::from((v | 1) >= super::POW10_U64[guess])
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

    #[test]
    fn matches_std_formatting_at_every_digit_count() {
        let mut cases = vec![0u64, 1, 9, 10, 99, 100, 101, u64::MAX, u64::MAX - 1];
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
