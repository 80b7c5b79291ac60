//! The double nearest a JSON number literal, for literals of any length.
//!
//! The standard library's float parser rounds correctly, but it stops
//! reading an exponent once its value passes 65,535 (the digits after that
//! are skipped), which is harmless unless the literal's own digits move the
//! value back into range: `0.` followed by 655,359 zeros, `1`, then
//! `e655360` is 1, and the standard library reads it as 0. It also counts
//! a literal's digits in 32 bits on its slowest route.
//!
//! So a literal with an exponent of 65,536 or more, or with more digits
//! than any rounding can depend on, is first reduced to a short one with
//! the same rounding: its significant digits (the first `KEPT` of them, and
//! one `1` standing for any non-zero digit dropped after those) and the
//! decimal exponent of the first one, computed in 128-bit arithmetic. A
//! value at or above 10^309 overflows (`None`), one below 10^-324 (under
//! half the smallest subnormal, 4.9e-324) rounds to zero, and anything
//! between goes to the standard library as `0.<digits>e<exponent>`, an
//! exponent it reads whole.
//!
//! Why dropping digits keeps the rounding: the value lies strictly between
//! the kept prefix and the prefix plus one unit in its last place, and so
//! does the reduced literal. A rounding boundary (a point halfway between
//! two adjacent doubles) has at most 768 significant digits, so it lies on
//! that grid of `KEPT` digits and never strictly inside one of its steps:
//! both numbers are on the same side of every boundary and round alike.

/// Significant digits kept (more than the 768 a halfway point can have).
const KEPT: usize = 800;

/// Exponents at or beyond this are not read whole by the standard library.
const STD_EXPONENT_LIMIT: u64 = 65_536;

/// Where an exponent's value stops growing: far beyond any digit count a
/// literal in memory can have, so the exponent of the first significant
/// digit (this plus or minus a digit count) keeps its sign and size class.
const EXPONENT_CEILING: i128 = 1 << 100;

/// The double nearest the JSON number literal `text`, ties to even
/// (correctly rounded for any number of digits and any exponent length);
/// ±0.0 when it underflows. `None` when the literal is beyond the double
/// range (it would round to ±infinity) or is not JSON number syntax.
pub fn literal_to_f64(text: &[u8]) -> Option<f64> {
    let lit = Literal::split(text)?;
    if lit.exponent.unsigned_abs() < u128::from(STD_EXPONENT_LIMIT) && lit.int.len() + lit.frac.len() <= KEPT {
        // A JSON number literal is ASCII.
        return std_f64(std::str::from_utf8(text).ok()?);
    }
    lit.reduced_f64()
}

/// The standard library's value for a literal it reads whole; `None` when
/// that is an infinity.
#[inline]
pub(crate) fn std_f64(text: &str) -> Option<f64> {
    // Valid JSON number syntax is valid Rust float syntax.
    let v: f64 = text.parse().ok()?;
    v.is_finite().then_some(v)
}

/// Whether the standard library reads a literal of `digits` digits (all of
/// them, fraction included, counted with any leading zeros) whose value is
/// `m × 10^exp10` correctly: yes when the exponent written in the literal
/// (`exp10` plus the fraction's digits, at most `digits` away) is below
/// its limit, and the digits are few.
#[inline]
pub(crate) fn std_reads_whole(digits: usize, exp10: i64) -> bool {
    digits <= KEPT && exp10.unsigned_abs().saturating_add(digits as u64) < STD_EXPONENT_LIMIT
}

/// A literal cut into its parts.
struct Literal<'a> {
    negative: bool,
    int: &'a [u8],
    frac: &'a [u8],
    /// The exponent written after `e`/`E` (0 without one), saturated at
    /// `±EXPONENT_CEILING`.
    exponent: i128,
}

impl<'a> Literal<'a> {
    /// Splits `text` by RFC 8259 §6; `None` if it is not a number literal.
    fn split(text: &'a [u8]) -> Option<Literal<'a>> {
        let digits_from = |mut i: usize| {
            while text.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
            i
        };
        let negative = text.first() == Some(&b'-');
        let start = usize::from(negative);
        let int_end = match text.get(start) {
            Some(b'0') => start + 1,
            Some(b'1'..=b'9') => digits_from(start),
            _ => return None,
        };
        let int = &text[start..int_end];
        let mut i = int_end;
        let mut frac: &[u8] = &[];
        if text.get(i) == Some(&b'.') {
            let end = digits_from(i + 1);
            if end == i + 1 {
                return None;
            }
            frac = &text[i + 1..end];
            i = end;
        }
        let mut exponent: i128 = 0;
        if matches!(text.get(i), Some(b'e' | b'E')) {
            i += 1;
            let exp_negative = text.get(i) == Some(&b'-');
            if matches!(text.get(i), Some(b'+' | b'-')) {
                i += 1;
            }
            let end = digits_from(i);
            if end == i {
                return None;
            }
            for &d in &text[i..end] {
                exponent = (exponent * 10 + i128::from(d - b'0')).min(EXPONENT_CEILING);
            }
            if exp_negative {
                exponent = -exponent;
            }
            i = end;
        }
        (i == text.len()).then_some(Literal { negative, int, frac, exponent })
    }

    /// The digits of the integer part, then those of the fraction.
    fn digits(&self) -> impl Iterator<Item = u8> + '_ {
        self.int.iter().chain(self.frac).copied()
    }

    /// The value, through a short literal with the same rounding (see the
    /// module's comment).
    fn reduced_f64(&self) -> Option<f64> {
        let signed_zero = if self.negative { -0.0 } else { 0.0 };
        let Some(lead) = self.digits().position(|d| d != b'0') else {
            return Some(signed_zero);
        };
        // value = 0.d(lead)d(lead+1)... × 10^point
        let point = self.exponent + self.int.len() as i128 - lead as i128;
        if point >= 310 {
            // At least 10^309: beyond f64::MAX (1.8e308).
            return None;
        }
        if point <= -324 {
            // Below 10^-324: less than half of 5e-324, so zero.
            return Some(signed_zero);
        }
        // "-0." + KEPT digits + a sticky digit + "e-324": 811 bytes.
        let mut short = Vec::with_capacity(KEPT + 16);
        if self.negative {
            short.push(b'-');
        }
        short.extend_from_slice(b"0.");
        let mut significant = self.digits().skip(lead);
        short.extend(significant.by_ref().take(KEPT));
        if significant.any(|d| d != b'0') {
            short.push(b'1');
        }
        short.push(b'e');
        short.extend_from_slice(itoa::Buffer::new().format(point as i64).as_bytes());
        std_f64(std::str::from_utf8(&short).ok()?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(text: &str) -> Option<f64> {
        literal_to_f64(text.as_bytes())
    }

    /// xorshift64, for generated literals.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
    }

    #[test]
    fn the_issue_literal_reads_as_one() {
        let text = format!("0.{}1e655360", "0".repeat(655_359));
        assert_eq!(f(&text), Some(1.0));
        // What the standard library alone reads (the reason for this file).
        assert_eq!(text.parse::<f64>().ok(), Some(0.0));
    }

    #[test]
    fn padded_literals_keep_their_value() {
        // A literal's value does not change when its point moves by k places
        // and its exponent by -k, or when zeros are added at either end; the
        // unpadded literal is short, so the standard library reads it right.
        let mut rng = Rng(0x2545_F491_4F6C_DD1D);
        let mut checked = 0;
        for _ in 0..3000 {
            let bits = rng.next();
            let v = f64::from_bits(bits);
            if !v.is_finite() {
                continue;
            }
            // Shortest digits, or 17 digits, or one digit past a tie.
            let base = match rng.below(3) {
                0 => format!("{v:e}"),
                1 => format!("{v:.16e}"),
                _ => format!("{:.20e}", v / 2.0 + f64::from_bits(bits ^ 1) / 2.0),
            };
            let want: f64 = base.parse().unwrap();
            let (mantissa, exp) = base.split_once('e').unwrap();
            let exp: i64 = exp.parse().unwrap();
            let (negative, mantissa) = match mantissa.strip_prefix('-') {
                Some(m) => (true, m),
                None => (false, mantissa),
            };
            let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
            // mantissa is d.ddd: value = 0.digits × 10^(exp + 1)
            let sign = if negative { "-" } else { "" };
            // Past the standard library's exponent limit, and (now and then)
            // past the length where it reads the issue's literal as 0.
            let ks: &[u64] = if checked % 100 == 0 { &[70_000, 655_360, 1_000_003] } else { &[65_536 + rng.below(5000)] };
            for &k in ks {
                // Zeros before the digits, the exponent raised to match.
                let lead = format!("{sign}0.{}{digits}e{}", "0".repeat(k as usize), exp + 1 + k as i64);
                assert_eq!(f(&lead).map(f64::to_bits), Some(want.to_bits()), "{base} with {k} leading zeros");
                // Zeros after the digits in the integer part, exponent lowered.
                let trail = format!("{sign}{digits}{}e-{}", "0".repeat(k as usize), digits.len() as i64 - 1 - exp + k as i64);
                assert_eq!(f(&trail).map(f64::to_bits), Some(want.to_bits()), "{base} with {k} trailing zeros");
                checked += 2;
            }
        }
        assert!(checked > 5_000, "{checked}");
    }

    #[test]
    fn long_exponents_overflow_and_underflow() {
        for e in ["400", "65536", "655360", "2147483648", "99999999999999999999999999999999999999999"] {
            assert_eq!(f(&format!("1e{e}")), None, "1e{e}");
            assert_eq!(f(&format!("-1.5E+{e}")), None, "-1.5E+{e}");
            assert_eq!(f(&format!("1e-{e}")).map(f64::to_bits), Some(0.0f64.to_bits()), "1e-{e}");
            assert_eq!(f(&format!("-1e-{e}")).map(f64::to_bits), Some((-0.0f64).to_bits()), "-1e-{e}");
        }
        // Exponents with leading zeros are read whole.
        assert_eq!(f(&format!("1e{}5", "0".repeat(100_000))), Some(1e5));
        // Zero stays zero whatever the exponent.
        assert_eq!(f("0e99999999999999999999").map(f64::to_bits), Some(0.0f64.to_bits()));
        assert_eq!(f("-0.000e-99999999999999999999").map(f64::to_bits), Some((-0.0f64).to_bits()));
    }

    /// The decimal digits of `start × factor^times` (no leading zero).
    fn big_digits(start: u64, factor: u8, times: usize) -> String {
        // Little-endian decimal digits.
        let mut d: Vec<u8> = start.to_string().bytes().rev().map(|c| c - b'0').collect();
        for _ in 0..times {
            let mut carry = 0u32;
            for x in d.iter_mut() {
                let v = u32::from(*x) * u32::from(factor) + carry;
                *x = (v % 10) as u8;
                carry = v / 10;
            }
            while carry > 0 {
                d.push((carry % 10) as u8);
                carry /= 10;
            }
        }
        d.iter().rev().map(|x| char::from(b'0' + x)).collect()
    }

    /// `digits` (an integer) plus or minus one in its last place.
    fn nudge(digits: &str, up: bool) -> String {
        let mut d: Vec<u8> = digits.bytes().collect();
        let mut i = d.len();
        loop {
            i -= 1;
            match (up, d[i]) {
                (true, b'9') => d[i] = b'0',
                (false, b'0') => d[i] = b'9',
                (true, c) | (false, c) => {
                    d[i] = if up { c + 1 } else { c - 1 };
                    break;
                }
            }
        }
        String::from_utf8(d).unwrap()
    }

    #[test]
    fn the_edges_of_the_range() {
        let pad = "0".repeat(70_000);
        // Halfway between f64::MAX and 2^1024, 2^970 × (2^54 - 1), rounds
        // to even: infinity. One unit below it (in its last digit, or far
        // down a long run of digits) is MAX.
        let halfway = big_digits((1 << 54) - 1, 2, 970);
        assert_eq!(halfway.len(), 309);
        let n = halfway.len() as i64;
        for (digits, want) in [(halfway.clone(), None), (nudge(&halfway, false), Some(f64::MAX)), (nudge(&halfway, true), None)] {
            assert_eq!(f(&digits), want, "{digits}");
            assert_eq!(f(&format!("0.{pad}{digits}e{}", n + 70_000)), want, "padded {digits}");
            assert_eq!(f(&format!("{digits}{pad}e-70000")), want, "trailing zeros {digits}");
        }
        let below_far = format!("{}.{pad}1", nudge(&halfway, false));
        assert_eq!(f(&below_far), Some(f64::MAX));
        assert_eq!(f(&format!("{halfway}.{pad}1")), None);
        // Half the smallest subnormal, 2^-1075 = 5^1075 × 10^-1075, rounds
        // to even: zero. Anything above it, however little, is 5e-324.
        let half = big_digits(1, 5, 1075);
        let point = half.len() as i64 - 1075;
        assert_eq!(f(&format!("0.{half}e{point}")).map(f64::to_bits), Some(0.0f64.to_bits()));
        assert_eq!(f(&format!("0.{half}{pad}e{point}")).map(f64::to_bits), Some(0.0f64.to_bits()));
        assert_eq!(f(&format!("0.{half}{pad}1e{point}")), Some(5e-324));
        assert_eq!(f(&format!("-0.{pad}{half}{pad}1e{}", point + 70_000)), Some(-5e-324));
        assert_eq!(f(&format!("0.{}e{point}", nudge(&half, true))), Some(5e-324));
        assert_eq!(f(&format!("0.{}e{point}", nudge(&half, false))).map(f64::to_bits), Some(0.0f64.to_bits()));
    }

    #[test]
    fn long_digit_runs_round_with_the_dropped_digits() {
        // 1 + 2^-53 is halfway between 1 and the next double: exactly that
        // rounds to 1 (even); anything above it, however far down the
        // digits, rounds up.
        let tie = "1.00000000000000011102230246251565404236316680908203125";
        assert_eq!(f(tie), Some(1.0));
        let next = f64::from_bits(1.0f64.to_bits() + 1);
        for zeros in [1000usize, 100_000] {
            let above = format!("{tie}{}1", "0".repeat(zeros));
            assert_eq!(f(&above), Some(next), "{zeros} zeros then 1");
            let exact = format!("{tie}{}", "0".repeat(zeros));
            assert_eq!(f(&exact), Some(1.0), "{zeros} zeros");
        }
    }

    #[test]
    fn not_a_literal_is_none() {
        for t in ["", "-", "+1", "01", "1.", ".5", "1e", "1e+", "1x", "1.5.2", "0x10", "inf", "NaN", " 1"] {
            assert_eq!(f(t), None, "{t:?}");
        }
    }
}
