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
//! `e-X`. Those comparisons are against the floats nearest `1e-6` and `1e21`,
//! whose own shortest digits are `1e-6` and `1e21`; since a shortest digit
//! string lies inside the rounding interval of its own float, and distinct
//! floats' intervals do not overlap, `abs < B` holds exactly when the
//! shortest digits are `< B`, so the comparisons on the value agree with the
//! conditions on `n` above. For `float32`, Go uses float32 shortest digits
//! and compares in float32 (against `float32(1e-6)` and `float32(1e21)`); the
//! same argument applies, so the same layout applies to float32 digits.
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

mod int;
pub(crate) use int::{put_i64, put_u64};

/// `10^n` for every `n` a `u64` holds (up to 10^19): digit counts when
/// writing integers, digit runs when parsing them.
pub(crate) const POW10_U64: [u64; 20] = {
    let mut t = [1u64; 20];
    let mut i = 1;
    while i < 20 {
        t[i] = t[i - 1] * 10;
        i += 1;
    }
    t
};
pub use int::{write_i64, write_u64};

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

/// Bytes `put_zmij` may write: zmij's whole buffer.
pub(crate) const ZMIJ_ROOM: usize = std::mem::size_of::<zmij::Buffer>();
const _: () = assert!(std::mem::align_of::<zmij::Buffer>() == 1 && ZMIJ_ROOM <= 32);

/// Writes zmij's shortest text of the finite `v` at `p` and returns its
/// length. zmij formats straight into the output: formatting into its own
/// stack buffer and copying from there costs a stalled load per number (the
/// copy reads bytes zmij's many small stores have not yet committed), about
/// a third of the time of writing a float array.
///
/// # Safety
/// `p` is valid for writes of `ZMIJ_ROOM` bytes.
#[inline(always)]
pub(crate) unsafe fn put_zmij(p: *mut u8, v: f64) -> usize {
    // SAFETY: `zmij::Buffer` is `ZMIJ_ROOM` bytes of `MaybeUninit<u8>` with
    // alignment 1 (asserted above), so any `ZMIJ_ROOM` writable bytes we own
    // are a valid one, and zmij writes only inside it.
    let buffer = unsafe { &mut *(p as *mut zmij::Buffer) };
    zmij_fresh_eax();
    let text = buffer.format_finite(v);
    let (at, len) = (text.as_ptr(), text.len());
    if !std::ptr::eq(at, p) {
        // The text starts further into the buffer (zmij does not lay it out
        // so today): move it to the front.
        // SAFETY: the text lies inside the buffer; `copy` allows overlap.
        unsafe { std::ptr::copy(at, p, len) };
    }
    len
}

/// Zeroes `eax` just before a call into zmij, so that the call does not
/// wait for whatever the caller last computed in `rax`.
///
/// Built with BMI2 (`-C target-cpu=native` on any recent x86-64), zmij's
/// `f64` formatter starts with `mov $0x34, %al; bzhi %rax, %rsi, %rax`
/// (LLVM's choice for the significand mask). Writing `al` merges into the
/// old `rax`, so every number's whole computation depends on the value `rax`
/// held at the call, and in a loop writing floats that is the previous
/// call's return value (the end of its text): consecutive numbers, which are
/// independent, run one after the other instead of overlapping. canada's
/// 111k doubles took 1.9x the time (2.37 ms against 1.20 ms with this zero
/// idiom, `bench/results/float-writes-2026-11-29.md`). `xor eax, eax` is a
/// zero idiom: the CPU resolves it at rename, with no input and no cost.
/// Without BMI2 zmij masks with `and` and needs nothing.
#[inline(always)]
fn zmij_fresh_eax() {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    // SAFETY: the instruction only writes `eax` (declared as a discarded
    // output, so the compiler keeps nothing there across it) and the flags
    // (not declared preserved); it touches no memory and not the stack.
    unsafe {
        std::arch::asm!("xor eax, eax", out("eax") _, options(nomem, nostack));
    }
}

/// Copies zmij's output straight into `dst` (the `Compact` layout).
#[inline]
fn write_zmij<F: zmij::Float>(dst: &mut Vec<u8>, v: F) {
    let mut buf = zmij::Buffer::new();
    zmij_fresh_eax();
    crate::pool::append_short(dst, buf.format_finite(v).as_bytes());
}

// Magnitude bands. A shortest digit string lies in the rounding interval of
// its own float, and the intervals of distinct floats do not overlap. So for
// a bound `B` that is the float nearest a decimal `b` whose shortest digits
// are `b` itself (2^53, 1e-5, 1e-6, 1e21 all are), `|v| < B` implies that the
// shortest digits of `v` are `< b`, and `|v| >= B` that they are `>= b`. That
// lets the value (in registers) pick the layout branch instead of the printed
// bytes:
//
// * `|v| < 2^53` and integral: the shortest digits are the integer's own
//   digits (the interval is at most ±0.5 wide, so no other integer, and in
//   particular no shorter multiple of ten, lies in it): print with `itoa`.
// * `1e-5 <= |v| < 2^53`, not integral: zmij prints fixed notation with a
//   fraction (decimal exponent -5..=15), exactly as ECMAScript does.
// * `|v| < 1e-6` or `|v| >= 1e21`: both print exponent notation, identically.
// * The rest (`1e-6 <= |v| < 1e-5` and `2^53 <= |v| < 1e21`) is rare; the
//   printed bytes decide there (see `relay_zmij_as_es`).
//
// For `f32` the bands are `2^24`, `1e-6` and `1e21` (zmij's f32 fixed range
// is -6..=12, so only `2^24 <= |v| < 1e21` needs looking at). The bounds are
// Rust literals, i.e. the floats nearest to them, exactly as Go's
// `float32(abs) < 1e-6` compares against `float32(1e-6)`.

/// 2^53 (see the bands above).
const F64_EXACT_INT_LIMIT: f64 = 9_007_199_254_740_992.0;

/// 2^24 (see the bands above).
const F32_EXACT_INT_LIMIT: f32 = 16_777_216.0;

/// How a finite `f64` is laid out in the ECMAScript layout: an integer, or
/// zmij's output as it is, or zmij's output re-laid (the rare bands).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum EsPlan {
    /// The integer `i`; `-0` when `i == 0` and the flag is set.
    Int(i64, bool),
    Zmij,
    Relaid,
}

/// The plan for `v` (finite) in `Jcs`, or `Go` when `keep_neg_zero`.
#[inline(always)]
pub(crate) fn es_plan(v: f64, keep_neg_zero: bool) -> EsPlan {
    let a = v.abs();
    if a < F64_EXACT_INT_LIMIT {
        let i = v as i64; // exact truncation in this range
        if i as f64 == v {
            return EsPlan::Int(i, keep_neg_zero && v.is_sign_negative());
        }
        if a >= 1e-5 {
            return EsPlan::Zmij;
        }
    } else if a >= 1e21 {
        return EsPlan::Zmij;
    }
    if a < 1e-6 {
        return EsPlan::Zmij;
    }
    EsPlan::Relaid
}

/// ECMAScript layout of an `f64` (`Jcs`, or `Go` when `keep_neg_zero`).
#[inline]
fn write_es_f64(dst: &mut Vec<u8>, v: f64, keep_neg_zero: bool) {
    match es_plan(v, keep_neg_zero) {
        EsPlan::Int(i, neg_zero) => write_int(dst, i, neg_zero),
        EsPlan::Zmij => write_zmij(dst, v),
        EsPlan::Relaid => write_es_relaid(dst, v),
    }
}

/// Go layout of an `f32`: float32 shortest digits, ECMAScript layout, `-0`.
#[inline]
fn write_go_f32(dst: &mut Vec<u8>, v: f32) {
    let a = v.abs();
    if a < F32_EXACT_INT_LIMIT {
        let i = v as i32; // exact truncation in this range
        if i as f32 == v {
            write_int(dst, i64::from(i), v.is_sign_negative());
            return;
        }
        // Below 1e-6 both layouts use exponent notation, above it both use
        // fixed notation with a fraction.
        return write_zmij(dst, v);
    }
    if a >= 1e21 {
        return write_zmij(dst, v);
    }
    write_es_relaid(dst, v);
}

/// Writes an integer; `neg_zero` asks for `-0` when `i == 0`.
#[inline]
fn write_int(dst: &mut Vec<u8>, i: i64, neg_zero: bool) {
    if i == 0 {
        crate::pool::append_short(dst, if neg_zero { b"-0" } else { b"0" });
    } else {
        let mut buf = itoa::Buffer::new();
        crate::pool::append_short(dst, buf.format(i).as_bytes());
    }
}

/// Shortest digits from zmij, re-laid from zmij's layout to the ECMAScript
/// one by looking at the printed bytes. Correct for every non-zero value; the
/// callers only send the bands where the two layouts may differ.
#[cold]
#[inline(never)]
fn write_es_relaid<F: zmij::Float>(dst: &mut Vec<u8>, v: F) {
    let mut buf = zmij::Buffer::new();
    zmij_fresh_eax();
    relay_zmij_as_es(dst, buf.format_finite(v).as_bytes());
}

/// Re-lays one zmij output string (of a non-zero value) in the ECMAScript
/// layout. zmij's output is `[-]int.frac` (fixed) or `[-]d[.ddd]e±N`
/// (exponent), with shortest digits; the layouts differ in only two ways:
///
/// * integral values in fixed notation end in `.0` (`1234000.0`);
/// * zmij's fixed range is narrower (scientific exponent -5..=15 for `f64`,
///   -6..=12 for `f32`, against -6..=20), so a value it prints as `1e-6` or
///   `1.5e+20` must come out as `0.000001` / `150000000000000000000`.
///
/// Anything else is already byte-identical and copied through.
fn relay_zmij_as_es(dst: &mut Vec<u8>, s: &[u8]) {
    let len = s.len();
    debug_assert!(len >= 3, "zmij output is at least 3 bytes");
    // Fixed notation of an integral value. (A fixed string with a fraction
    // never ends in `0`: the digits are shortest.)
    if s[len - 1] == b'0' && s[len - 2] == b'.' {
        crate::pool::append_short(dst, &s[..len - 2]);
        return;
    }
    // Exponent notation: `e+N` / `e-N` with N of 1 to 3 digits, so the `e` is
    // one of the last five bytes but never one of the last two.
    let e_pos = if s[len - 3] == b'e' {
        len - 3
    } else if len >= 4 && s[len - 4] == b'e' {
        len - 4
    } else if len >= 5 && s[len - 5] == b'e' {
        len - 5
    } else {
        crate::pool::append_short(dst, s);
        return;
    };
    let exp = parse_exp(&s[e_pos + 1..]);
    if (-6..=20).contains(&exp) {
        let d = Decimal::from_sci(s, e_pos, exp);
        d.write_fixed(dst);
    } else {
        crate::pool::append_short(dst, s);
    }
}

/// Parses zmij's exponent field: `+N` or `-N`.
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

/// A decimal `(-1)^neg × 0.d1d2..dk × 10^n`: sign, significant digits (no
/// leading or trailing zero), exponent. Lives on the stack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Decimal {
    neg: bool,
    digits: [u8; Decimal::CAP],
    len: usize,
    n: i32,
}

impl Decimal {
    /// zmij prints at most 17 significant digits.
    const CAP: usize = 17;

    fn digits(&self) -> &[u8] {
        &self.digits[..self.len]
    }

    /// Decomposes zmij's exponent notation `[-]d[.ddd]e±N`, given the
    /// position of the `e` and the parsed `N`.
    fn from_sci(s: &[u8], e_pos: usize, exp: i32) -> Decimal {
        let neg = s[0] == b'-';
        let mant = &s[usize::from(neg)..e_pos];
        let mut d = Decimal { neg, digits: [0; Decimal::CAP], len: 1, n: exp + 1 };
        d.digits[0] = mant[0];
        if mant.len() > 2 {
            // `d.ddd`
            let frac = &mant[2..];
            d.digits[1..1 + frac.len()].copy_from_slice(frac);
            d.len += frac.len();
            // zmij prints no trailing zero; keep the invariant regardless.
            while d.len > 1 && d.digits[d.len - 1] == b'0' {
                d.len -= 1;
            }
        }
        d
    }

    /// Appends the ECMAScript fixed layout (`-6 < n <= 21`): `ddd000`,
    /// `dd.ddd` or `0.000ddd`.
    fn write_fixed(&self, dst: &mut Vec<u8>) {
        debug_assert!(self.len > 0 && -6 < self.n && self.n <= 21);
        const ZEROS: &[u8; 21] = b"000000000000000000000";
        if self.neg {
            dst.push(b'-');
        }
        let digits = self.digits();
        let k = digits.len();
        if self.n <= 0 {
            dst.extend_from_slice(b"0.");
            dst.extend_from_slice(&ZEROS[..self.n.unsigned_abs() as usize]);
            dst.extend_from_slice(digits);
        } else {
            let int_len = self.n as usize;
            if k <= int_len {
                dst.extend_from_slice(digits);
                dst.extend_from_slice(&ZEROS[..int_len - k]);
            } else {
                dst.extend_from_slice(&digits[..int_len]);
                dst.push(b'.');
                dst.extend_from_slice(&digits[int_len..]);
            }
        }
    }
}

#[cfg(test)]
mod tests;
