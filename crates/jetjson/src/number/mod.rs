//! Number formatting: shortest round-trip float digits laid out per profile.
//!
//! CONTRACT (used by `writer.rs`; keep these signatures):
//!
//! ```ignore
//! pub enum FloatLayout { Go, Jcs, Compact }
//! pub fn write_f64(dst: &mut Vec<u8>, v: f64, layout: FloatLayout); // v finite
//! pub fn write_f32(dst: &mut Vec<u8>, v: f32, layout: FloatLayout); // v finite
//! ```
//!
//! # Digits
//!
//! Every layout uses the same digits: the shortest decimal string that parses
//! back to the same float, and among several shortest ones the closest to the
//! exact binary value (Ryu / Schubfach semantics, ECMA-262 `Number::toString`
//! Note 2). They come from the `zmij` crate, whose own output *is* the
//! [`FloatLayout::Compact`] layout. The other layouts re-lay that output.
//!
//! # Layouts
//!
//! Write the shortest digits as `d1 d2 .. dk` with decimal exponent `n`, so
//! that the value is `0.d1d2..dk × 10^n`. The ECMAScript layout
//! (`Number::toString`, used by RFC 8785) is
//!
//! | condition        | output                                   | example              |
//! |------------------|------------------------------------------|----------------------|
//! | `k <= n <= 21`   | digits, then `n - k` zeros               | `100`, `1e20` → `100000000000000000000` |
//! | `0 < n <= 21`    | point inside the digits                  | `123.456`            |
//! | `-6 < n <= 0`    | `0.`, `-n` zeros, digits                 | `0.000001`           |
//! | otherwise        | `d1[.d2..dk]e±(n-1)`, no zero padding    | `1e+21`, `5e-324`    |
//!
//! and `-0` prints as `0`. Go's `encoding/json` (1.22+) prints exactly the same
//! bytes, except that `-0` stays `-0`: it uses `'e'` format when
//! `abs < 1e-6 || abs >= 1e21` and `'f'` otherwise, then rewrites `e-0X` to
//! `e-X`. Since `1e21` is exactly representable and a shortest digit string
//! always lies inside the rounding interval of its own float, those
//! comparisons on the value agree with the conditions on `n` above. For
//! `float32`, Go uses float32 shortest digits and does the comparisons in
//! float32 (against `float32(1e-6)` and `float32(1e21)`); the same interval
//! argument makes them agree with the conditions on `n` of the float32
//! digits, so the same re-layout applies to zmij's `f32` output.
//!
//! zmij's layout differs from the ECMAScript one in only three ways, which is
//! all the re-layout has to handle:
//!
//! * integral values in fixed notation end in `.0` (`100.0`);
//! * zmij's fixed range is narrower (decimal exponent `n - 1` in `-5..=15` for
//!   `f64` and `-6..=12` for `f32`, against `-6..=20`), so some values it
//!   prints as `1e-6` or `1.5e+20` must come out in fixed notation;
//! * zero is `0.0` / `-0.0`.
//!
//! Everything else (fixed notation with a fraction, exponent notation with an
//! explicit exponent sign and no padding) is already byte-identical, so it is
//! copied through.

/// How a float's shortest round-trip digits are laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FloatLayout {
    /// Go `encoding/json` (Go 1.22+): the ECMAScript layout, except that
    /// negative zero prints as `-0`. `f32` values use float32 shortest digits,
    /// as Go's `json.Marshal(float32)` does.
    Go,
    /// RFC 8785 (JCS) / ECMAScript `Number::toString`: `100`, `1.5`,
    /// `0.000001`, `1e-7`, `1e+21`; negative zero prints as `0`. `f32` values
    /// are widened exactly to `f64` first (JCS numbers are IEEE doubles).
    Jcs,
    /// zmij's layout, as written by serde_json (>= 1.0.147) and orjson
    /// (>= 3.11.7): `100.0`, `1e+16`, `0.00001`, `1e-6`, `-0.0`.
    Compact,
}

/// Appends `v` to `dst` in the given layout.
///
/// Precondition: `v` is finite (checked by a `debug_assert!`; in release builds
/// a non-finite value prints as some unspecified number).
#[inline]
pub fn write_f64(dst: &mut Vec<u8>, v: f64, layout: FloatLayout) {
    debug_assert!(v.is_finite(), "write_f64 called with a non-finite value");
    match layout {
        FloatLayout::Compact => write_zmij(dst, v),
        FloatLayout::Jcs => write_es_f64(dst, v, false),
        FloatLayout::Go => write_es_f64(dst, v, true),
    }
}

/// Appends `v` to `dst` in the given layout.
///
/// `Go` and `Compact` use float32 shortest digits (`0.1f32` → `0.1`); `Jcs`
/// widens to `f64` first (`0.1f32` → `0.10000000149011612`).
///
/// Precondition: `v` is finite (checked by a `debug_assert!`).
#[inline]
pub fn write_f32(dst: &mut Vec<u8>, v: f32, layout: FloatLayout) {
    debug_assert!(v.is_finite(), "write_f32 called with a non-finite value");
    match layout {
        FloatLayout::Compact => write_zmij(dst, v),
        // Widening f32 -> f64 is exact.
        FloatLayout::Jcs => write_es_f64(dst, f64::from(v), false),
        FloatLayout::Go => write_go_f32(dst, v),
    }
}

// Integer -> double conversions.
//
// ECMAScript `Number(bigint)` (and so JCS for an integer source) takes "the
// Number value for ℝ(prim)", i.e. the double nearest to the integer, ties to
// even. Rust's `as` cast from an integer type to a float type is specified the
// same way (The Rust Reference, "Numeric cast": "Casting from an integer to
// float will produce the closest possible float", rounding per IEEE 754
// roundTiesToEven). It can only overflow for `u128 as f32`; every `i64`, `u64`,
// `i128` and `u128` is below `f64::MAX`, so these are total. The unit tests
// check tie cases (2^53 + 1 -> 2^53, 2^53 + 3 -> 2^53 + 4, and the 128-bit
// analogues).

/// The double nearest to `v`, ties to even (ECMAScript `Number(bigint)`).
#[inline]
pub fn i64_to_f64_nearest(v: i64) -> f64 {
    v as f64
}

/// The double nearest to `v`, ties to even (ECMAScript `Number(bigint)`).
#[inline]
pub fn u64_to_f64_nearest(v: u64) -> f64 {
    v as f64
}

/// The double nearest to `v`, ties to even (ECMAScript `Number(bigint)`).
#[inline]
pub fn i128_to_f64_nearest(v: i128) -> f64 {
    v as f64
}

/// The double nearest to `v`, ties to even (ECMAScript `Number(bigint)`).
#[inline]
pub fn u128_to_f64_nearest(v: u128) -> f64 {
    v as f64
}

// ---------------------------------------------------------------------------
// Implementation
// ---------------------------------------------------------------------------

/// Copies zmij's output straight into `dst` (the `Compact` layout).
#[inline]
fn write_zmij<F: zmij::Float>(dst: &mut Vec<u8>, v: F) {
    let mut buf = zmij::Buffer::new();
    dst.extend_from_slice(buf.format_finite(v).as_bytes());
}

/// 2^53: every integer of smaller magnitude is a double, and its shortest
/// round-trip digits are its own decimal digits (the rounding interval is at
/// most ±0.5 wide, so no other integer, and in particular no shorter multiple
/// of ten, lies in it). Such values can be printed with `itoa`.
const F64_EXACT_INT_LIMIT: f64 = 9_007_199_254_740_992.0;

/// 2^24: the same for `f32` and float32 shortest digits.
const F32_EXACT_INT_LIMIT: f32 = 16_777_216.0;

/// ECMAScript layout of an `f64` (`Jcs`, or `Go` when `keep_neg_zero`).
#[inline]
fn write_es_f64(dst: &mut Vec<u8>, v: f64, keep_neg_zero: bool) {
    // Fast path: integral values below 2^53 (`100`, `-3`, `0`).
    if v.abs() < F64_EXACT_INT_LIMIT {
        let i = v as i64; // exact truncation in this range
        if i as f64 == v {
            write_int(dst, i, keep_neg_zero && v.is_sign_negative());
            return;
        }
    }
    write_es_shortest(dst, v);
}

/// Go layout of an `f32`: float32 shortest digits, ECMAScript layout, `-0`.
#[inline]
fn write_go_f32(dst: &mut Vec<u8>, v: f32) {
    if v.abs() < F32_EXACT_INT_LIMIT {
        let i = v as i32; // exact truncation in this range
        if i as f32 == v {
            write_int(dst, i64::from(i), v.is_sign_negative());
            return;
        }
    }
    write_es_shortest(dst, v);
}

/// Writes an integer; `neg_zero` asks for `-0` when `i == 0`.
#[inline]
fn write_int(dst: &mut Vec<u8>, i: i64, neg_zero: bool) {
    if i == 0 {
        dst.extend_from_slice(if neg_zero { b"-0" } else { b"0" });
    } else {
        let mut buf = itoa::Buffer::new();
        dst.extend_from_slice(buf.format(i).as_bytes());
    }
}

/// Shortest digits from zmij, re-laid in the ECMAScript layout.
///
/// `v` must not be zero (the callers' integer fast paths take zeros).
#[inline]
fn write_es_shortest<F: zmij::Float>(dst: &mut Vec<u8>, v: F) {
    let mut buf = zmij::Buffer::new();
    relay_zmij_as_es(dst, buf.format_finite(v).as_bytes());
}

/// Re-lays one zmij output string (for a non-zero value) in the ECMAScript
/// layout. See the module docs for why these three cases are all there is.
#[inline]
fn relay_zmij_as_es(dst: &mut Vec<u8>, s: &[u8]) {
    let len = s.len();
    debug_assert!(len >= 3, "zmij output is at least 3 bytes");
    // Fixed notation of an integral value: `1234000.0` -> `1234000`. (A fixed
    // string with a fraction never ends in `0`: the digits are shortest.)
    if s[len - 1] == b'0' && s[len - 2] == b'.' {
        dst.extend_from_slice(&s[..len - 2]);
        return;
    }
    // Exponent notation: `e+N` / `e-N`, N of 1 to 3 digits, so the `e` is one
    // of the last five bytes but never the last two.
    let e_pos = if s[len - 3] == b'e' {
        Some(len - 3)
    } else if len >= 4 && s[len - 4] == b'e' {
        Some(len - 4)
    } else if len >= 5 && s[len - 5] == b'e' {
        Some(len - 5)
    } else {
        None
    };
    if let Some(e_pos) = e_pos {
        // ECMAScript uses fixed notation for scientific exponents -6..=20;
        // zmij printed exponent notation, so one of those needs re-laying.
        let exp = parse_exp(&s[e_pos + 1..]);
        if (-6..=20).contains(&exp) {
            relay_cold(dst, s);
            return;
        }
    }
    dst.extend_from_slice(s);
}

/// Parses zmij's exponent field: `+N` or `-N`.
#[inline]
fn parse_exp(s: &[u8]) -> i32 {
    let mut e: i32 = 0;
    for &c in &s[1..] {
        e = e * 10 + i32::from(c.wrapping_sub(b'0'));
    }
    if s[0] == b'-' {
        -e
    } else {
        e
    }
}

/// The general path: decompose, then lay out. Rare (exponents -6 and 16..=20
/// for `f64`, 13..=20 for `f32`), so kept out of line.
#[cold]
#[inline(never)]
fn relay_cold(dst: &mut Vec<u8>, s: &[u8]) {
    let d = Decimal::parse(s);
    d.write_es(dst, false);
}

/// A decimal `(-1)^neg × 0.d1d2..dk × 10^n` with no leading or trailing zero
/// digit; `len == 0` means zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Decimal {
    neg: bool,
    digits: [u8; Decimal::CAP],
    len: usize,
    n: i32,
}

impl Decimal {
    /// zmij prints at most 17 significant digits.
    const CAP: usize = 24;

    fn digits(&self) -> &[u8] {
        &self.digits[..self.len]
    }

    /// Decomposes a plain decimal string (`[-]int[.frac][e±N]`, e.g. zmij's
    /// output) without allocating.
    fn parse(s: &[u8]) -> Decimal {
        let mut d = Decimal {
            neg: false,
            digits: [0; Decimal::CAP],
            len: 0,
            n: 0,
        };
        let mut i = 0;
        if s.first() == Some(&b'-') {
            d.neg = true;
            i = 1;
        }
        // Zeros seen after a significant digit, not yet known to be inner.
        let mut pending_zeros = 0usize;
        let mut after_point = false;
        while i < s.len() {
            let c = s[i];
            i += 1;
            match c {
                b'0' if d.len == 0 => {
                    // Leading zero: before the point it is nothing; after it,
                    // it scales the value down.
                    if after_point {
                        d.n -= 1;
                    }
                }
                b'0'..=b'9' => {
                    if c == b'0' {
                        pending_zeros += 1;
                    } else {
                        for _ in 0..pending_zeros {
                            d.digits[d.len] = b'0';
                            d.len += 1;
                        }
                        pending_zeros = 0;
                        d.digits[d.len] = c;
                        d.len += 1;
                    }
                    if !after_point {
                        d.n += 1;
                    }
                }
                b'.' => after_point = true,
                b'e' | b'E' => {
                    let rest = &s[i..];
                    let (neg, mag) = match rest.first() {
                        Some(b'-') => (true, &rest[1..]),
                        Some(b'+') => (false, &rest[1..]),
                        _ => (false, rest),
                    };
                    let mut e: i32 = 0;
                    for &c in mag {
                        e = e * 10 + i32::from(c - b'0');
                    }
                    d.n += if neg { -e } else { e };
                    break;
                }
                _ => unreachable!("unexpected byte in float text"),
            }
        }
        if d.len == 0 {
            d.n = 0;
        }
        d
    }

    /// Appends the ECMAScript `Number::toString` layout; zero prints as `0`,
    /// or `-0` when `keep_neg_zero` and the sign is negative.
    fn write_es(&self, dst: &mut Vec<u8>, keep_neg_zero: bool) {
        if self.len == 0 {
            dst.extend_from_slice(if keep_neg_zero && self.neg {
                b"-0"
            } else {
                b"0"
            });
            return;
        }
        // Longest outputs: sign + 21 digits; sign + "0.00000" + 17 digits;
        // sign + 17 digits + "." + "e-324".
        let mut out = [0u8; 48];
        let mut p = 0;
        let mut put = |bytes: &[u8], p: &mut usize| {
            out[*p..*p + bytes.len()].copy_from_slice(bytes);
            *p += bytes.len();
        };
        if self.neg {
            put(b"-", &mut p);
        }
        let digits = self.digits();
        let k = digits.len() as i32;
        let n = self.n;
        if k <= n && n <= 21 {
            put(digits, &mut p);
            for _ in 0..(n - k) {
                put(b"0", &mut p);
            }
        } else if 0 < n && n <= 21 {
            put(&digits[..n as usize], &mut p);
            put(b".", &mut p);
            put(&digits[n as usize..], &mut p);
        } else if -6 < n && n <= 0 {
            put(b"0.", &mut p);
            for _ in 0..(-n) {
                put(b"0", &mut p);
            }
            put(digits, &mut p);
        } else {
            put(&digits[..1], &mut p);
            if k > 1 {
                put(b".", &mut p);
                put(&digits[1..], &mut p);
            }
            let e = n - 1;
            put(if e < 0 { b"e-" } else { b"e+" }, &mut p);
            let mut buf = itoa::Buffer::new();
            put(buf.format(e.unsigned_abs()).as_bytes(), &mut p);
        }
        dst.extend_from_slice(&out[..p]);
    }
}

#[cfg(test)]
mod tests;
