//! JSON numbers (RFC 8259 §6): syntax, and values computed during the scan.
//!
//! Integers up to 19 digits are accumulated exactly while scanning. Floats
//! take the first of four correctly rounded routes that applies:
//! 1. digits below 2^53 and a decimal exponent within ±22: one IEEE
//!    multiplication or division of exact operands (Clinger's fast path);
//! 2. up to 19 digits and an exponent in -22..=-1: the digits times a
//!    128-bit reciprocal of 5^k, rounded from the top bits of the product
//!    whenever the product's error cannot change the rounding (almost
//!    always; see `reciprocal_value`);
//! 3. up to 19 digits and an exponent in -21..=19: exact 128-bit integer
//!    arithmetic, rounded once (below);
//! 4. anything else: the standard library's correctly rounded parser,
//!    through `decimal.rs` for literals it would misread (exponents of
//!    65,536 or more, very long digit runs).

use super::decimal::{literal_to_f64, std_f64, std_reads_whole};
use crate::error::{shown_literal, Error, ErrorKind};
use crate::number::POW10_U64;
use crate::opaque::in_register;

/// What a number literal stands for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum NumberValue {
    I64(i64),
    U64(u64),
    F64(f64),
    /// An integer beyond 64 bits, or a literal beyond the double range
    /// (`1e400`): only its text stands for it. The parser refuses the
    /// latter unless numbers are read losslessly
    /// (`ReadOptions::lossless_numbers`), so builders see it only then.
    Big,
}

/// Scans the number at the start of `b`: its length and value, or the
/// offset of the byte that breaks the grammar.
#[inline(always)]
pub(crate) fn scan_number(b: &[u8]) -> Result<(usize, NumberValue, bool), usize> {
    // Almost every number lies wholly inside the 32 bytes that start it,
    // with room to spare; only near the end of the input, or for forms the
    // window does not handle (exponents, long runs, bad syntax), does the
    // byte-by-byte scan run.
    if let Some(window) = b.first_chunk::<WINDOW>() {
        if let Some(scanned) = scan_window(window) {
            return Ok(scanned);
        }
    }
    scan_general(b)
}

/// The bytes `scan_window` looks at: a literal it accepts (sign, at most 16
/// integer digits, '.', at most 16 fraction digits, one byte after) ends
/// within them, and every 8-byte word it reads lies inside.
pub(crate) const WINDOW: usize = 32;

/// The longest literal `scan_window` accepts: a sign, 19 digits and '.'.
/// The bytes after it up to the window's end can be looked at without a
/// bounds check (the number runs in `parser.rs` read three of them).
pub(crate) const WINDOW_LITERAL_MAX: usize = 21;

/// The number at the start of `w`, when it is a plain integer or decimal
/// (no exponent) of at most 16 integer and 16 fraction digits and 19 in
/// all; `None` for anything else, valid or not, which `scan_general`
/// decides instead (and reports errors for).
///
/// Every byte is classified at once, so the literal's end comes from two
/// trailing-zero counts over one mask instead of a chain of byte tests,
/// and the digits are converted eight at a time.
#[inline(always)]
pub(crate) fn scan_window(w: &[u8; WINDOW]) -> Option<(usize, NumberValue, bool)> {
    let stops = non_digit_mask(w);
    let negative = w[0] == b'-';
    let int_start = usize::from(negative);
    let int_digits = (stops >> int_start).trailing_zeros() as usize;
    // No digit (an error), or too many for two words.
    if int_digits.wrapping_sub(1) >= 16 {
        return None;
    }
    // A leading zero stands alone: "0" followed by more digits is left to
    // the general scan, which ends the number after the zero.
    if w[int_start] == b'0' && int_digits > 1 {
        return None;
    }
    let int_end = int_start + int_digits;
    let after_int = w[int_end];
    if after_int == b'.' {
        let frac_start = int_end + 1;
        let frac_digits = (stops >> frac_start).trailing_zeros() as usize;
        let digits = int_digits + frac_digits;
        // No fraction digit (an error), more than two words of them, or
        // more than 19 digits in all (not exact in u64, and beyond every
        // fast route anyway).
        if frac_digits.wrapping_sub(1) >= 16 || digits > 19 {
            return None;
        }
        let end = frac_start + frac_digits;
        if w[end] | 0x20 == b'e' {
            return None;
        }
        let mantissa = if digits <= 7 {
            // Seven digits in all (prices, readings, short coordinates):
            // the digits and the '.' fit in one word. The '.' is taken out
            // by moving the fraction down a byte, then all the digits are
            // converted at once: no branch on how many integer digits there
            // are (which varies from number to number in such arrays), no
            // conversion per part and multiplication to join them.
            let v = word_at(w, int_start);
            // At most 6 integer digits here (a fraction digit follows).
            let int_bytes = (1u64 << (8 * int_digits)) - 1;
            partial_word((v & int_bytes) | ((v >> 8) & !int_bytes), digits)
        } else {
            short_run_value(w, int_start, int_digits) * POW10_U64[frac_digits] + run_value(w, frac_start, frac_digits)
        };
        let value = float_value(negative, mantissa, digits, -(frac_digits as i64), w, end);
        return Some((end, value, false));
    }
    if after_int | 0x20 == b'e' {
        return None;
    }
    let value = run_value(w, int_start, int_digits);
    Some((int_end, integer_value(negative, value, int_digits, w, int_start, int_end), true))
}

/// The non-negative integer of at most 16 digits at the start of `w`
/// (its length and value), exactly where `scan_window` would give
/// `NumberValue::I64` of it; `None` for anything else (which
/// `scan_window` and `scan_general` then take). For typed reads of
/// integers (the serde door), which need neither the sign, the fraction
/// nor the float machinery in the way.
#[inline(always)]
pub(crate) fn plain_integer(w: &[u8; WINDOW]) -> Option<(usize, i64)> {
    let stops = non_digit_mask(w);
    let digits = stops.trailing_zeros() as usize;
    if digits.wrapping_sub(1) >= 16 || (w[0] == b'0' && digits > 1) {
        return None;
    }
    let after = w[digits];
    if after == b'.' || after | 0x20 == b'e' {
        return None;
    }
    // At most 16 digits: below 10^16, well inside i64.
    Some((digits, run_value(w, 0, digits) as i64))
}

/// The value of the `n` (1..=16) ASCII digits at `w[at..]`, which end
/// before the window does, with a word's room after the eighth.
#[inline(always)]
fn run_value(w: &[u8; WINDOW], at: usize, n: usize) -> u64 {
    debug_assert!((1..=16).contains(&n));
    let lo = word_at(w, at);
    if n <= 8 {
        return partial_word(lo, n);
    }
    let hi = word_at(w, at + 8);
    combine_eight(lo.wrapping_sub(ZEROS)) * POW10_U64[n - 8] + partial_word(hi, n - 8)
}

/// `run_value` for the integer part of a decimal, usually one or two
/// digits (coordinates, vertex data): those are read as bytes, the count
/// choosing between them without a branch, instead of the word
/// conversion's three dependent multiplications.
#[inline(always)]
fn short_run_value(w: &[u8; WINDOW], at: usize, n: usize) -> u64 {
    if n > 2 {
        return run_value(w, at, n);
    }
    // `at + 1` is inside the window: the literal goes on past `at` (with
    // '.' at least).
    let first = u64::from(w[at].wrapping_sub(b'0'));
    let second = u64::from(w[at + 1].wrapping_sub(b'0'));
    if n == 2 {
        first * 10 + second
    } else {
        first
    }
}

/// The value of the first `n` (1..=8) ASCII digits of `v`.
#[inline(always)]
fn partial_word(v: u64, n: usize) -> u64 {
    // Subtracting '0' from every byte borrows only out of bytes below '0',
    // none of them among the first n, so those bytes hold their digits;
    // the shift drops whatever lies above them and leaves zeros (leading
    // zeros of the number) below.
    combine_eight(v.wrapping_sub(ZEROS) << (64 - 8 * n as u32))
}

/// The eight bytes at `w[at..]` as a little-endian word.
#[inline(always)]
fn word_at(w: &[u8; WINDOW], at: usize) -> u64 {
    u64::from_le_bytes(*w[at..].first_chunk::<8>().expect("callers keep words inside the window"))
}

/// Bit k set when `w[k]` is not an ASCII digit.
#[inline(always)]
fn non_digit_mask(w: &[u8; WINDOW]) -> u32 {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{__m128i, _mm_add_epi8, _mm_cmplt_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_set1_epi8};
        // SAFETY: SSE2 is part of the x86_64 baseline; both 16-byte loads
        // lie inside the 32-byte array (unaligned loads are allowed).
        unsafe {
            let lo = _mm_loadu_si128(w.as_ptr().cast::<__m128i>());
            let hi = _mm_loadu_si128(w.as_ptr().add(16).cast::<__m128i>());
            // Moving '0'..='9' to the bottom of the signed byte range (by
            // adding 0x80 - 0x30) makes "is a digit" one signed comparison.
            let bias = _mm_set1_epi8(0x50);
            let limit = _mm_set1_epi8(i8::MIN + 10);
            let lo_digits = _mm_movemask_epi8(_mm_cmplt_epi8(_mm_add_epi8(lo, bias), limit)) as u32;
            let hi_digits = _mm_movemask_epi8(_mm_cmplt_epi8(_mm_add_epi8(hi, bias), limit)) as u32;
            !(lo_digits | hi_digits << 16)
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        non_digit_mask_portable(w)
    }
}

/// `non_digit_mask`, one byte at a time (other targets, and the reference
/// the vector version is tested against).
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
#[inline]
fn non_digit_mask_portable(w: &[u8; WINDOW]) -> u32 {
    w.iter().enumerate().fold(0, |mask, (k, byte)| mask | u32::from(!byte.is_ascii_digit()) << k)
}

/// `scan_number` one byte at a time: the end of the input, and every form
/// `scan_window` leaves alone.
#[inline(never)]
pub(crate) fn scan_general(b: &[u8]) -> Result<(usize, NumberValue, bool), usize> {
    let negative = b.first() == Some(&b'-');
    let int_start = usize::from(negative);
    let mut i = int_start;
    let mut mantissa: u64 = 0;
    match b.get(i) {
        Some(b'0') => i += 1,
        // Wraps past 19 digits; `digits` below tells when to distrust it.
        Some(b'1'..=b'9') => (mantissa, i) = integer_run(b, i),
        _ => return Err(i),
    }
    let int_digits = i - int_start;
    let mut frac_digits = 0;
    let mut is_integer = true;
    if b.get(i) == Some(&b'.') {
        is_integer = false;
        let start = i + 1;
        (mantissa, i) = digit_run(b, start, mantissa);
        frac_digits = i - start;
        if frac_digits == 0 {
            return Err(i);
        }
    }
    let mut exp: i64 = 0;
    if matches!(b.get(i), Some(b'e' | b'E')) {
        is_integer = false;
        (exp, i) = exponent(b, i + 1)?;
    }
    let digits = int_digits + frac_digits;
    // The literal's text is only needed on rare routes: passed as its
    // bounds, sliced there.
    let value = if is_integer {
        integer_value(negative, mantissa, digits, b, int_start, i)
    } else {
        float_value(negative, mantissa, digits, exp - frac_digits as i64, b, i)
    };
    Ok((i, value, is_integer))
}

/// The exponent's digits after `e`/`E` (at `i`, sign included): its value,
/// saturated far beyond every double, and the index after it.
#[inline]
fn exponent(b: &[u8], mut i: usize) -> Result<(i64, usize), usize> {
    let exp_negative = match b.get(i) {
        Some(b'-') => {
            i += 1;
            true
        }
        Some(b'+') => {
            i += 1;
            false
        }
        _ => false,
    };
    let start = i;
    let mut exp: i64 = 0;
    while let Some(&d @ b'0'..=b'9') = b.get(i) {
        // Saturate: any exponent this large is beyond every fast path.
        exp = (exp * 10 + i64::from(d - b'0')).min(1 << 40);
        i += 1;
    }
    if i == start {
        return Err(i);
    }
    Ok((if exp_negative { -exp } else { exp }, i))
}

const ZEROS: u64 = u64::from_le_bytes([b'0'; 8]);

/// Reads the run of ASCII digits at `b[i..]` into `mantissa` (wrapping past
/// 19 digits) and returns it with the index after the run.
///
/// Eight bytes at a time: each word's digit prefix (found with SWAR, no
/// per-byte branch) is shifted to the top of the word, where the zero
/// bytes below it read as leading zeros, and converted in one go. Only a
/// run of eight digits or more loops; the last seven bytes of the input
/// are read one at a time, never past the end.
#[inline(always)]
fn digit_run(b: &[u8], mut i: usize, mut mantissa: u64) -> (u64, usize) {
    // Runs of 9 to 16 digits (most fractions of coordinates) in one step:
    // both words are classified and converted independently, so neither
    // waits on the other and no loop branch sits between them.
    if let Some(chunk) = b.get(i..i + 16) {
        let lo = u64::from_le_bytes(chunk[..8].try_into().expect("8 bytes"));
        let hi = u64::from_le_bytes(chunk[8..].try_into().expect("8 bytes"));
        let hi_stops = non_digit_bytes(hi);
        if non_digit_bytes(lo) == 0 && hi_stops != 0 {
            let n = (hi_stops.trailing_zeros() / 8) as usize;
            let shift = 63 - 8 * n as u32;
            let top = (hi << shift) << 1;
            let zeros = (ZEROS << shift) << 1;
            let scale = POW10_U64[n & 7];
            // combine_eight(lo) < 10^8 and scale <= 10^7: no overflow.
            mantissa = mantissa
                .wrapping_mul(scale.wrapping_mul(100_000_000))
                .wrapping_add(combine_eight(lo - ZEROS) * scale)
                .wrapping_add(combine_eight(top - zeros));
            return (mantissa, i + 8 + n);
        }
    }
    while let Some(chunk) = b.get(i..i + 8) {
        let v = u64::from_le_bytes(chunk.try_into().expect("8 bytes"));
        let stops = non_digit_bytes(v);
        if stops == 0 {
            mantissa = mantissa.wrapping_mul(100_000_000).wrapping_add(combine_eight(v - ZEROS));
            i += 8;
            continue;
        }
        // Digits before the first non-digit byte (byte k holds b[i + k]).
        let n = (stops.trailing_zeros() / 8) as usize;
        // Shifting by 64 - 8n (up to 64, so in two steps) keeps those n
        // digits as the top bytes; with n = 0 everything shifts out.
        let shift = 63 - 8 * n as u32;
        let top = (v << shift) << 1;
        let zeros = (ZEROS << shift) << 1;
        mantissa = mantissa.wrapping_mul(POW10_U64[n & 7]).wrapping_add(combine_eight(top - zeros));
        return (mantissa, i + n);
    }
    while let Some(&d @ b'0'..=b'9') = b.get(i) {
        mantissa = mantissa.wrapping_mul(10).wrapping_add(u64::from(d - b'0'));
        i += 1;
    }
    (mantissa, i)
}

/// The digits of an integer part (at `b[i]`, a digit): most are short
/// (indices, counts, the degrees of a coordinate), and a byte loop reads
/// them with its end predicted from earlier numbers, so the next token's
/// position does not wait on a load. Runs of eight or more continue with
/// `digit_run`.
#[inline(always)]
fn integer_run(b: &[u8], start: usize) -> (u64, usize) {
    let mut mantissa = 0u64;
    let mut i = start;
    while let Some(&d @ b'0'..=b'9') = b.get(i) {
        mantissa = mantissa * 10 + u64::from(d - b'0');
        i += 1;
        if i - start == 7 {
            return digit_run(b, i, mantissa);
        }
    }
    (mantissa, i)
}

/// A word with a non-zero byte exactly where `v` has a byte that is not an
/// ASCII digit, up to and including its first such byte (bytes above it
/// may be marked wrongly by a carry, and are not looked at).
#[inline(always)]
fn non_digit_bytes(v: u64) -> u64 {
    const HIGH_NIBBLES: u64 = 0xF0F0_F0F0_F0F0_F0F0;
    // A digit is 0x30..=0x39: high nibble 3, and still 3 after adding 6.
    // Adding 6 carries out of a byte only from 0xFA..=0xFF, which the
    // first test already marks; the carry lands in the bytes above it.
    ((v & HIGH_NIBBLES) ^ ZEROS) | ((v.wrapping_add(0x0606_0606_0606_0606) & HIGH_NIBBLES) ^ ZEROS)
}

/// The value of eight decimal digits, one per byte (0..=9, not ASCII), the
/// first (most significant) in the lowest byte.
#[inline(always)]
fn combine_eight(v: u64) -> u64 {
    // Combine neighbours into pairs, pairs into quads, quads into the
    // eight-digit value (each stage kept scalar: `in_register`).
    let pairs = in_register((v.wrapping_mul(10) + (v >> 8)) & 0x00FF_00FF_00FF_00FF);
    let quads = in_register((pairs.wrapping_mul(100) + (pairs >> 16)) & 0x0000_FFFF_0000_FFFF);
    (quads.wrapping_mul(10_000) + (quads >> 32)) & 0xFFFF_FFFF
}

/// The value of the eight bytes at `b[i..]` if all are ASCII digits.
#[cfg(test)]
fn eight_digits(b: &[u8], i: usize) -> Option<u64> {
    let chunk: [u8; 8] = b.get(i..i + 8)?.try_into().ok()?;
    let v = u64::from_le_bytes(chunk);
    (non_digit_bytes(v) == 0).then(|| combine_eight(v - ZEROS))
}

/// The error for a literal beyond the double range (`1e400`), which no
/// double stands for: reading it as an infinity, or writing its text back
/// as a value nothing else reads (serde_json, Go and orjson refuse it),
/// would change the data.
#[cold]
pub(crate) fn out_of_range(text: &str) -> Error {
    Error::new(ErrorKind::NumberOutOfRange { text: shown_literal(text), profile: "read" })
}

/// The nearest `f32` to a number literal, rounded once from its text, or
/// an error when that is beyond the `f32` range (an infinity would be a
/// silent change of the data; serde's `f32` casts a double, so 1e39 would
/// become one).
pub(crate) fn f32_of(text: &str) -> crate::Result<f32> {
    match text.parse::<f32>() {
        Ok(f) if f.is_finite() => Ok(f),
        _ => Err(Error::new(ErrorKind::NumberOutOfRange { text: shown_literal(text), profile: "read f32" })),
    }
}

/// The value of an integer literal whose digits are `b[from..to]`.
#[inline(always)]
fn integer_value(negative: bool, mantissa: u64, digits: usize, b: &[u8], from: usize, to: usize) -> NumberValue {
    let exact = if digits <= 19 { Some(mantissa) } else { long_integer(&b[from..to]) };
    match (exact, negative) {
        (Some(0), true) => NumberValue::F64(-0.0),
        (Some(m), false) => match i64::try_from(m) {
            Ok(i) => NumberValue::I64(i),
            Err(_) => NumberValue::U64(m),
        },
        (Some(m), true) if m <= 1 << 63 => NumberValue::I64((m as i64).wrapping_neg()),
        _ => NumberValue::Big,
    }
}

/// An integer of 20 digits or more, when it still fits u64 (up to
/// 18446744073709551615).
#[cold]
fn long_integer(digits: &[u8]) -> Option<u64> {
    std::str::from_utf8(digits).ok().and_then(|t| t.parse::<u64>().ok())
}

const POW10: [f64; 23] =
    [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22];

/// The value of a float literal `b[..end]`.
#[inline(always)]
fn float_value(negative: bool, mantissa: u64, digits: usize, exp10: i64, b: &[u8], end: usize) -> NumberValue {
    if digits <= 19 {
        // Up to 15 digits (mesh vertices, prices) the mantissa is below
        // 10^15 < 2^53: Clinger's route below, one division. Testing the
        // digit count (not the mantissa) keeps documents of long
        // coordinates, with an occasional short one, on the next route.
        if digits <= 15 && (-22..=22).contains(&exp10) {
            // Below 2^53, so the signed conversion (one instruction) is exact.
            let m = mantissa as i64 as f64;
            let v = if exp10 >= 0 { m * POW10[exp10 as usize] } else { m / POW10[(-exp10) as usize] };
            return NumberValue::F64(with_sign(v, negative));
        }
        // Longer decimals (coordinates): the reciprocal route.
        if (-22..0).contains(&exp10) && mantissa != 0 {
            if let Some(v) = reciprocal_value(mantissa, (-exp10) as usize) {
                return NumberValue::F64(with_sign(v, negative));
            }
        }
        // Clinger: an integer below 2^53 and a power of ten up to 1e22 are
        // both exact doubles, so one correctly rounded operation gives the
        // answer.
        if mantissa <= 1 << 53 && (-22..=22).contains(&exp10) {
            let m = mantissa as f64;
            let v = if exp10 >= 0 { m * POW10[exp10 as usize] } else { m / POW10[(-exp10) as usize] };
            return NumberValue::F64(with_sign(v, negative));
        }
    }
    float_value_slow(negative, mantissa, digits, exp10, &b[..end])
}

/// `v` (not negative) with the sign bit set when `negative`, without a
/// branch (signs of coordinates alternate with no pattern to predict).
#[inline(always)]
fn with_sign(v: f64, negative: bool) -> f64 {
    f64::from_bits(v.to_bits() | (u64::from(negative) << 63))
}

/// The routes of `float_value` that most documents never take.
#[inline(never)]
fn float_value_slow(negative: bool, mantissa: u64, digits: usize, exp10: i64, text: &[u8]) -> NumberValue {
    if digits <= 19 {
        if let Some(v) = wide_value(mantissa, exp10) {
            return NumberValue::F64(if negative { -v } else { v });
        }
    }
    // The standard library, unless the literal is one it misreads (a long
    // exponent) or counts in 32 bits (a long run of digits).
    let value = if std_reads_whole(digits, exp10) {
        // SAFETY: the grammar admits only ASCII digits, signs, '.', 'e', 'E'.
        std_f64(unsafe { std::str::from_utf8_unchecked(text) })
    } else {
        literal_to_f64(text)
    };
    match value {
        Some(v) => NumberValue::F64(v),
        None => NumberValue::Big,
    }
}

/// `mantissa × 10^exp10`, correctly rounded, for a mantissa of at most 19
/// digits, using exact 128-bit integer arithmetic; `None` outside the range
/// where that is possible.
///
/// * `exp10 >= 0`: `mantissa × 10^exp10` is an exact integer below 2^128
///   (19 + 19 digits), and `u128 as f64` rounds to nearest, ties to even.
/// * `exp10 < 0`: with `M = mantissa << s` filling 127 bits, the quotient
///   `q = M / 10^-exp10` keeps at least 56 significant bits (10^21 < 2^70).
///   The true value is `(q + r / 10^-exp10) × 2^-s`; folding "r != 0" into
///   the lowest bit of `q` (a sticky bit two or more places below the
///   rounding position) makes the one rounding of `q as f64` the correct
///   rounding of the true value. Scaling by `2^-s` is then exact, since the
///   result (at least 10^-21) is a normal double.
#[inline]
fn wide_value(mantissa: u64, exp10: i64) -> Option<f64> {
    const POW10_U128: [u128; 22] = {
        let mut t = [1u128; 22];
        let mut i = 1;
        while i < 22 {
            t[i] = t[i - 1] * 10;
            i += 1;
        }
        t
    };
    if mantissa == 0 {
        return Some(0.0);
    }
    if (0..=19).contains(&exp10) {
        return Some(u128_to_f64(u128::from(mantissa) * POW10_U128[exp10 as usize]));
    }
    if !(-21..0).contains(&exp10) {
        return None;
    }
    let shift = 127 - (64 - mantissa.leading_zeros());
    let wide = u128::from(mantissa) << shift;
    let divisor = POW10_U128[(-exp10) as usize];
    let (q, r) = (wide / divisor, wide % divisor);
    let q = q | u128::from(r != 0);
    Some(u128_to_f64(q) * pow2(-(shift as i32)))
}

/// `2^e` for `e` in the normal exponent range.
#[inline]
fn pow2(e: i32) -> f64 {
    debug_assert!((-1022..=1023).contains(&e));
    f64::from_bits(((1023 + e) as u64) << 52)
}

/// `q as f64`, correctly rounded, without the software 128-bit conversion:
/// the top 64 bits with the rest folded into a sticky lowest bit (eleven
/// places below the rounding position) round exactly as `q` does, and
/// `u64 as f64` rounds to nearest, ties to even.
#[inline]
fn u128_to_f64(q: u128) -> f64 {
    if q >> 64 == 0 {
        return q as u64 as f64;
    }
    let lz = q.leading_zeros();
    let shifted = q << lz;
    let top = (shifted >> 64) as u64 | u64::from(shifted as u64 != 0);
    top as f64 * pow2(64 - lz as i32)
}

/// `(R_k, e_k)` with `R_k = floor(2^(127 + e_k) / 5^k)` and `e_k` the bit
/// length of `5^k`, so that `2^127 <= R_k < 2^128`; index `k` = 1..=22.
/// `e_k` is stored as `1024 - e_k - k`: the biased exponent of the result,
/// less the normalising shift, plus the cut's position.
const RECIPROCALS: [(u128, u32); 23] = reciprocals();

const fn reciprocals() -> [(u128, u32); 23] {
    let mut table = [(0u128, 0u32); 23];
    let mut p5: u64 = 1;
    let mut k = 1;
    while k <= 22 {
        p5 *= 5;
        let e = 64 - p5.leading_zeros();
        // Long division of 2^(127 + e) (three 64-bit limbs, at most 180
        // bits) by 5^k, one limb at a time.
        let bit = 127 + e;
        let mut limbs = [0u64; 3];
        limbs[(bit / 64) as usize] = 1 << (bit % 64);
        let mut quotient = [0u64; 3];
        let mut rem: u128 = 0;
        let mut i = 3;
        while i > 0 {
            i -= 1;
            let cur = (rem << 64) | limbs[i] as u128;
            quotient[i] = (cur / p5 as u128) as u64;
            rem = cur % p5 as u128;
        }
        table[k] = (((quotient[1] as u128) << 64) | quotient[0] as u128, 1024 - e - k as u32);
        k += 1;
    }
    table
}

/// `mantissa × 10^-k` correctly rounded for `k` in 1..=22 and a non-zero
/// mantissa, or `None` in the rare cases the fast product cannot decide.
///
/// With `m = mantissa << s` (top bit set), the exact value is
/// `T × 2^-(127 + e + s + k)` where `T = m × 2^(127 + e) / 5^k`. The product
/// `P = m × R_k` underestimates `T` by less than `m < 2^64`, so `T / 2^64`
/// lies in `[X, X + 2)` for `X = P >> 64`. Rounding `X` to 53 significant
/// bits (cut at bit 74 or 75) is then the correct rounding of `T`
/// unless the bits below the cut sit within 2 of the halfway point. The
/// result is at least 1e-22 and below 2^61: always a normal double.
#[inline(always)]
fn reciprocal_value(mantissa: u64, k: usize) -> Option<f64> {
    let (r, exponent_base) = RECIPROCALS[k];
    let s = mantissa.leading_zeros();
    let m = mantissa << s;
    // X = (m × R_k) >> 64 from two 64×64->128 products.
    let x = u128::from(m) * u128::from((r >> 64) as u64) + ((u128::from(m) * u128::from(r as u64)) >> 64);
    let hi = (x >> 64) as u64;
    // m >= 2^63 and R_k >= 2^127, so X >= 2^126: its top bit is bit 127 or
    // 126, and the cut (74 or 75) lies in the high word, at bit `c` of it.
    let c = 10 + (hi >> 63) as u32;
    let digits = hi >> c;
    // The bits of X below the cut, and halfway between two cuts.
    let below = x & ((1u128 << (64 + c)) - 1);
    let half = 1u128 << (63 + c);
    // At halfway or one below it, X + [0, 2) may round either way: the
    // product cannot decide (rare: a branch predicted never taken).
    if half.wrapping_sub(below) <= 1 {
        return None;
    }
    // Rounding up is a coin toss on real data: one comparison whose result
    // is added, not branched on.
    let rounded = digits + u64::from(below > half);
    // `rounded` is below 2^54: a signed conversion, one instruction.
    // 2^(c + 1 - e - s - k) as a double: biased exponent 1023 + c + 1 - e
    // - s - k, between 1023 - 140 and 1023 + 20.
    let scale = f64::from_bits(u64::from(exponent_base + c - s) << 52);
    Some(rounded as i64 as f64 * scale)
}

/// True when `b` is exactly one JSON number literal.
pub fn is_json_number(b: &[u8]) -> bool {
    matches!(scan_number(b), Ok((n, _, _)) if n == b.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grammar() {
        for ok in ["0", "-0", "1", "-12", "1.5", "1e5", "1E+5", "1.0e-05", "123456789012345678901234567890"] {
            assert!(is_json_number(ok.as_bytes()), "{ok}");
        }
        for bad in ["", "-", "01", "1.", ".5", "+1", "1e", "1e+", "0x1", "1 ", "NaN", "Infinity", "--1", "1.e5"] {
            assert!(!is_json_number(bad.as_bytes()), "{bad}");
        }
        assert!(matches!(scan_number(b"12,"), Ok((2, NumberValue::I64(12), true))));
        assert!(matches!(scan_number(b"1.5]"), Ok((3, NumberValue::F64(f), false)) if f == 1.5));
    }

    #[test]
    fn non_digit_mask_equals_a_byte_loop() {
        let mut x = 0x0DDB_1A5E_5BAD_5EEDu64;
        // Bytes at the edges of the digit range, with and without the high
        // bit, and anything else.
        let edges = [b'/', b'0', b'9', b':', 0xAF, 0xB0, 0xB9, 0xBA, 0x10, 0x19, 0x00, 0xFF, 0x7F, 0x80, b'.', b'e'];
        for _ in 0..100_000 {
            let mut w = [0u8; WINDOW];
            for byte in w.iter_mut() {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                *byte = match x % 3 {
                    0 => b'0' + (x >> 8) as u8 % 10,
                    1 => edges[(x >> 8) as usize % edges.len()],
                    _ => (x >> 8) as u8,
                };
            }
            let want = w.iter().enumerate().fold(0u32, |m, (k, &c)| if c.is_ascii_digit() { m } else { m | 1 << k });
            assert_eq!(non_digit_mask(&w), want, "{w:?}");
            assert_eq!(non_digit_mask_portable(&w), want, "{w:?}");
        }
    }

    /// The grammar of RFC 8259 §6 one byte at a time: the length of the
    /// number at the start of `b`, or where it breaks.
    fn reference_scan(b: &[u8]) -> Result<usize, usize> {
        let digits_from = |mut i: usize| {
            while b.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
            i
        };
        let mut i = usize::from(b.first() == Some(&b'-'));
        match b.get(i) {
            Some(b'0') => i += 1,
            Some(b'1'..=b'9') => i = digits_from(i),
            _ => return Err(i),
        }
        if b.get(i) == Some(&b'.') {
            let start = i + 1;
            i = digits_from(start);
            if i == start {
                return Err(i);
            }
        }
        if matches!(b.get(i), Some(b'e' | b'E')) {
            i += 1;
            if matches!(b.get(i), Some(b'+' | b'-')) {
                i += 1;
            }
            let start = i;
            i = digits_from(start);
            if i == start {
                return Err(i);
            }
        }
        Ok(i)
    }

    /// What the literal `text` stands for, from the standard library.
    fn reference_value(text: &str) -> NumberValue {
        if text.contains(['.', 'e', 'E']) {
            return match text.parse::<f64>() {
                Ok(v) if v.is_finite() => NumberValue::F64(v),
                _ => NumberValue::Big,
            };
        }
        if text == "-0" {
            return NumberValue::F64(-0.0);
        }
        if let Ok(i) = text.parse::<i64>() {
            return NumberValue::I64(i);
        }
        text.parse::<u64>().map_or(NumberValue::Big, NumberValue::U64)
    }

    #[test]
    fn scans_equal_a_byte_loop_and_std_at_every_distance_from_the_end() {
        let mut x = 0x6A09_E667_F3BC_C908u64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let digits = |n: usize, next: &mut dyn FnMut() -> u64| -> String {
            // Mostly random digits, some runs of 9s or 0s (carries, exact
            // powers of ten, trailing zeros).
            let style = next() % 4;
            (0..n)
                .map(|_| {
                    char::from(
                        b'0' + if style == 0 {
                            9
                        } else if style == 1 {
                            0
                        } else {
                            (next() % 10) as u8
                        },
                    )
                })
                .collect()
        };
        let ends: &[&[u8]] = &[b"", b",", b"]", b"}", b" ", b"\n", b"x", b".", b"-", b"e", b"E", b"+", b"0"];
        let mut window_runs = 0;
        let mut plain_runs = 0;
        for _ in 0..40_000 {
            let mut t = String::new();
            if next() % 2 == 0 {
                t.push('-');
            }
            let int_len = 1 + next() as usize % 21;
            if next() % 8 == 0 {
                t.push('0');
            } else {
                t.push(char::from(b'1' + (next() % 9) as u8));
                t += &digits(int_len - 1, &mut next);
            }
            if next() % 8 != 0 {
                t.push('.');
                let frac_len = next() as usize % 21;
                t += &digits(frac_len, &mut next);
            }
            if next() % 8 == 0 {
                t.push(if next() % 2 == 0 { 'e' } else { 'E' });
                t += ["", "+", "-"][next() as usize % 3];
                let exp_len = next() as usize % 4;
                t += &digits(exp_len, &mut next);
            }
            if next() % 16 == 0 {
                // Damage: a leading zero, a missing part, a stray byte.
                let at = next() as usize % (t.len() + 1);
                t.insert(at, ['0', '.', 'e', '-', '+', 'x'][next() as usize % 6]);
            }
            let end = ends[next() as usize % ends.len()];
            for pad in 0..=40 {
                let mut input = t.clone().into_bytes();
                input.extend_from_slice(end);
                input.extend((0..pad).map(|k| b"0123456789,.e]"[k % 14]));
                if let Some(w) = input.first_chunk::<WINDOW>() {
                    window_runs += 1;
                    // The parser relies on this bound (`assert_unchecked`
                    // in its number loop).
                    if let Some((len, _, _)) = scan_window(w) {
                        assert!(len <= WINDOW_LITERAL_MAX, "{:?}: {len}", String::from_utf8_lossy(&input));
                    }
                    // The typed reads' shortcut gives exactly what the
                    // window gives a non-negative integer, and nothing else.
                    match (plain_integer(w), scan_window(w)) {
                        (Some((len, v)), Some((n, NumberValue::I64(i), true))) => {
                            plain_runs += 1;
                            assert_eq!((len, v), (n, i), "{:?}", String::from_utf8_lossy(&input));
                        }
                        (Some(got), other) => panic!("{:?}: {got:?} where the window gives {other:?}", String::from_utf8_lossy(&input)),
                        (None, Some((_, NumberValue::I64(i), true))) => {
                            assert!(!(0..10_000_000_000_000_000).contains(&i), "{:?}: left to the window", String::from_utf8_lossy(&input))
                        }
                        (None, _) => {}
                    }
                }
                let got = scan_number(&input);
                assert_eq!(got, scan_general(&input), "{:?}", String::from_utf8_lossy(&input));
                match reference_scan(&input) {
                    Err(at) => assert_eq!(got, Err(at), "{:?}", String::from_utf8_lossy(&input)),
                    Ok(len) => {
                        let text = std::str::from_utf8(&input[..len]).unwrap();
                        let (n, value, is_integer) = got.unwrap_or_else(|e| panic!("{text}: error at {e}"));
                        assert_eq!((n, is_integer), (len, !text.contains(['.', 'e', 'E'])), "{text}");
                        match (value, reference_value(text)) {
                            (NumberValue::F64(a), NumberValue::F64(b)) => assert_eq!(a.to_bits(), b.to_bits(), "{text}"),
                            (a, b) => assert_eq!(a, b, "{text}"),
                        }
                    }
                }
            }
        }
        assert!(window_runs > 500_000, "the window path ran {window_runs} times");
        assert!(plain_runs > 10_000, "plain integers: {plain_runs}");
    }

    #[test]
    fn u128_to_f64_equals_the_generic_conversion() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for _ in 0..500_000 {
            let q = (u128::from(next()) << 64 | u128::from(next())) >> (next() % 128);
            assert_eq!(u128_to_f64(q).to_bits(), (q as f64).to_bits(), "{q}");
            // Halfway and near-halfway patterns around the 53-bit boundary.
            let lead = q | (1u128 << 100);
            for tail in [0u128, 1, 1 << 46, (1 << 47) - 1, 1 << 47, (1 << 47) + 1] {
                let v = (lead & !((1u128 << 48) - 1)) | tail;
                assert_eq!(u128_to_f64(v).to_bits(), (v as f64).to_bits(), "{v}");
            }
        }
        for q in [0u128, 1, u128::from(u64::MAX), u128::from(u64::MAX) + 1, u128::MAX, u128::MAX >> 1, 1 << 127] {
            assert_eq!(u128_to_f64(q).to_bits(), (q as f64).to_bits(), "{q}");
        }
    }

    #[test]
    fn eight_digits_at_a_time_equals_std() {
        let mut x = 0x1234_5678_9ABC_DEF1u64;
        for _ in 0..200_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let text = format!("{:08}", x % 100_000_000);
            assert_eq!(eight_digits(text.as_bytes(), 0), Some(text.parse().unwrap()), "{text}");
            // Any non-digit among the eight refuses the shortcut.
            let mut bad = text.clone().into_bytes();
            bad[(x >> 40) as usize % 8] = [b'/', b':', b'.', b'e', b' ', 0xB0, b'-', b'O'][(x >> 50) as usize % 8];
            assert_eq!(eight_digits(&bad, 0), None, "{:?}", String::from_utf8_lossy(&bad));
        }
        assert_eq!(eight_digits(b"1234567", 0), None, "fewer than eight bytes");
    }

    /// Every count of integer digits (1..=20) and fraction digits (0..=20)
    /// that the window and the general scan split between them, with
    /// digit patterns that set every byte of both words (all 9s, a 1 and
    /// zeros, a counting run), signed and not: the value equals std's, and
    /// a `Value` parsed from an array of them (the driver's number run,
    /// which is where a build for the machine (`scalar`) differs) holds
    /// the same numbers. Also run by `bench/results/value-parse-2026-11-29.md`
    /// with `-C target-cpu=native`.
    #[test]
    fn every_digit_count_equals_std_alone_and_in_arrays() {
        let run = |n: usize, style: usize| -> String {
            (0..n)
                .map(|k| match style {
                    0 => '9',
                    1 => {
                        if k == 0 {
                            '1'
                        } else {
                            '0'
                        }
                    }
                    _ => char::from(b'1' + ((k * 7 + n) % 9) as u8),
                })
                .collect()
        };
        for int_len in 1..=20 {
            for frac_len in 0..=20 {
                for style in 0..3 {
                    let mut texts = Vec::new();
                    for negative in [false, true] {
                        let mut t = String::from(if negative { "-" } else { "" });
                        t += &run(int_len, style);
                        if frac_len > 0 {
                            t.push('.');
                            t += &run(frac_len, (style + 1) % 3);
                        }
                        texts.push(t);
                    }
                    for t in &texts {
                        let mut input = t.clone().into_bytes();
                        input.extend_from_slice(b", 7]                                ");
                        let (len, value, _) = scan_number(&input).unwrap_or_else(|e| panic!("{t}: error at {e}"));
                        assert_eq!(len, t.len(), "{t}");
                        match (value, reference_value(t)) {
                            (NumberValue::F64(a), NumberValue::F64(b)) => assert_eq!(a.to_bits(), b.to_bits(), "{t}"),
                            (a, b) => assert_eq!(a, b, "{t}"),
                        }
                    }
                    let doc = format!("[{}, {}]", texts[0], texts[1]);
                    let parsed = crate::Value::from_slice(doc.as_bytes()).unwrap_or_else(|e| panic!("{doc}: {e}"));
                    let items = parsed.as_array().unwrap_or_else(|| panic!("{doc}"));
                    assert_eq!(items.len(), 2, "{doc}");
                    for (item, t) in items.iter().zip(&texts) {
                        let want: f64 = t.parse().unwrap();
                        let got = item.as_f64().unwrap_or_else(|| panic!("{t}: {item:?}"));
                        assert_eq!(got.to_bits(), want.to_bits(), "{t} in {doc}");
                        if frac_len == 0 {
                            if let Ok(i) = t.parse::<i64>() {
                                assert_eq!(item.as_i64(), Some(i), "{t}");
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn digit_runs_equal_a_byte_loop() {
        let mut x = 0x5DEE_CE66_D1CE_4E5Bu64;
        let ends = [b',', b']', b'.', b'e', b'E', b' ', b'/', b':', 0xFF, 0xFA, 0x00];
        for _ in 0..100_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let len = (x % 26) as usize;
            let mut text: Vec<u8> = (0..len).map(|k| b'0' + ((x >> (k % 60)) % 10) as u8).collect();
            // A terminator (or none: the run ends the input), then bytes
            // that must not be read as digits of this run.
            if x >> 62 != 0 {
                text.push(ends[(x >> 40) as usize % ends.len()]);
                text.extend_from_slice(&b"12345678"[..(x >> 33) as usize % 9]);
            }
            let start = (x >> 20) as usize % 3;
            let mut input = vec![b'1'; start];
            input.extend_from_slice(&text);
            let want_end = start + len;
            let want = input[start..want_end].iter().fold(7u64, |m, &d| m.wrapping_mul(10).wrapping_add(u64::from(d - b'0')));
            assert_eq!(digit_run(&input, start, 7), (want, want_end), "{:?}", String::from_utf8_lossy(&input));
        }
    }

    #[test]
    fn integer_runs_equal_a_byte_loop_at_every_length() {
        for len in 1..=24 {
            for tail in [&b""[..], b",", b"]", b".5", b"e3", b" 12345678901234567"] {
                let mut input: Vec<u8> = (0..len).map(|k| b'1' + (k * 7 % 9) as u8).collect();
                input.extend_from_slice(tail);
                let want = input[..len].iter().fold(0u64, |m, &d| m.wrapping_mul(10).wrapping_add(u64::from(d - b'0')));
                assert_eq!(integer_run(&input, 0), (want, len), "{:?}", String::from_utf8_lossy(&input));
                // Also after a sign, as scan_number calls it.
                let mut signed = vec![b'-'];
                signed.extend_from_slice(&input);
                assert_eq!(integer_run(&signed, 1), (want, len + 1));
            }
        }
    }

    #[test]
    fn integers_are_exact_to_the_edges_of_64_bits() {
        let v = |t: &str| scan_number(t.as_bytes()).unwrap().1;
        assert_eq!(v("9223372036854775807"), NumberValue::I64(i64::MAX));
        assert_eq!(v("-9223372036854775808"), NumberValue::I64(i64::MIN));
        assert_eq!(v("9223372036854775808"), NumberValue::U64(1 << 63));
        assert_eq!(v("18446744073709551615"), NumberValue::U64(u64::MAX));
        assert_eq!(v("18446744073709551616"), NumberValue::Big);
        assert_eq!(v("-9223372036854775809"), NumberValue::Big);
        assert_eq!(v("99999999999999999999"), NumberValue::Big);
        assert_eq!(v("-0"), NumberValue::F64(-0.0));
        assert_eq!(v("1e400"), NumberValue::Big);
    }

    #[test]
    fn near_halfway_points_round_like_std() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut checked = 0;
        for _ in 0..200_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // Doubles between 1e-21 and 1e19, the 128-bit route's range.
            let a = f64::from_bits((x & 0x000F_FFFF_FFFF_FFFF) | ((950 + (x >> 52) % 110) << 52));
            let b = f64::from_bits(a.to_bits() + 1);
            let mid = a / 2.0 + b / 2.0;
            for t in [format!("{mid:.18e}"), format!("{a:.18e}"), format!("{b:.17e}")] {
                let (_, value, _) = scan_number(t.as_bytes()).unwrap();
                let want: f64 = t.parse().unwrap();
                assert_eq!(value, NumberValue::F64(want), "{t}");
                checked += 1;
            }
        }
        assert_eq!(checked, 600_000);
    }

    #[test]
    fn reciprocal_route_agrees_with_std_and_declines_only_near_ties() {
        let mut x = 0xD1B5_4A32_D192_ED03u64;
        let mut declined = 0;
        let total = 300_000;
        for i in 0..total {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let k = 1 + (x >> 59) as usize % 22;
            // Mostly long mantissas (coordinates, prices), some short ones,
            // and exact ties (a multiple of 5^k that lands halfway).
            let mantissa = match i % 4 {
                0 => x >> (x % 40),
                3 => ((x >> 34) | 1) * 5u64.pow(k.min(13) as u32),
                _ => x % 10_000_000_000_000_000_000,
            };
            if mantissa == 0 {
                continue;
            }
            let text = format!("{mantissa}e-{k}");
            let want: f64 = text.parse().unwrap();
            match reciprocal_value(mantissa, k) {
                Some(v) => assert_eq!(v.to_bits(), want.to_bits(), "{text}"),
                None => declined += 1,
            }
        }
        // Ties: 2^52 + 1/2 and friends must be left to the exact route.
        assert_eq!(reciprocal_value(45_035_996_273_704_965, 1), None);
        assert!(declined < total / 1000, "declined {declined} of {total}");
    }

    #[test]
    fn u128_conversion_rounds_like_the_compiler() {
        let mut x = 0x0123_4567_89AB_CDEFu64;
        for _ in 0..200_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let y = x.rotate_left(17) ^ 0x5555;
            let q = (u128::from(x) << (x % 64)) ^ u128::from(y);
            assert_eq!(u128_to_f64(q).to_bits(), (q as f64).to_bits(), "{q}");
            // Exact halfway patterns.
            let tie = (u128::from(x | 1 << 63) << 11 | 1 << 10) << (y % 53);
            assert_eq!(u128_to_f64(tie).to_bits(), (tie as f64).to_bits(), "{tie}");
        }
    }

    #[test]
    fn floats_are_correctly_rounded() {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut texts: Vec<String> = [
            "0.1",
            "1e22",
            "1e23",
            "9007199254740993",
            "9007199254740993.0",
            "2.2250738585072011e-308",
            "5e-324",
            "1.7976931348623157e308",
            "0.30000000000000004",
            "123456789012345678e-5",
            "4.9406564584124654e-324",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        // Long mantissas in the 128-bit route's range, near halfway points.
        for _ in 0..50_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let digits = x % 10_000_000_000_000_000_000;
            let exp = (x >> 60) as i64 % 22 - 21 + (x >> 58 & 1) as i64 * 20;
            texts.push(format!("{digits}e{exp}"));
            texts.push(format!("{}.{:017}", x % 1000, (x >> 7) % 100_000_000_000_000_000));
        }
        for _ in 0..50_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let f = f64::from_bits(x);
            if f.is_finite() {
                texts.push(format!("{f:e}"));
                texts.push(format!("{}", (x % 100_000_000) as f64 / 10f64.powi((x % 15) as i32)));
            }
        }
        for t in texts {
            let (n, value, _) = scan_number(t.as_bytes()).unwrap();
            assert_eq!(n, t.len());
            let want: f64 = t.parse().unwrap();
            match value {
                NumberValue::F64(f) => assert_eq!(f.to_bits(), want.to_bits(), "{t}"),
                NumberValue::I64(i) => assert_eq!(i as f64, want, "{t}"),
                NumberValue::U64(u) => assert_eq!(u as f64, want, "{t}"),
                NumberValue::Big => panic!("{t} should be a double"),
            }
        }
    }
}
