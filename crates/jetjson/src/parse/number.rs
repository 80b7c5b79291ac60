//! JSON numbers (RFC 8259 §6): syntax, and values computed during the scan.
//!
//! Integers up to 19 digits are accumulated exactly while scanning. Floats
//! whose digits fit 2^53 and whose decimal exponent is within ±22 are exact
//! after one IEEE multiplication or division (Clinger's fast path), so they
//! are correctly rounded; every other float goes to the standard library's
//! correctly rounded parser.

/// What a number literal stands for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum NumberValue {
    I64(i64),
    U64(u64),
    F64(f64),
    /// An integer beyond 64 bits, or a float beyond the double range: only
    /// its text stands for it.
    Big,
}

/// Scans the number at the start of `b`: its length and value, or the
/// offset of the byte that breaks the grammar.
#[inline]
pub(crate) fn scan_number(b: &[u8]) -> Result<(usize, NumberValue, bool), usize> {
    let mut i = 0;
    let negative = b.first() == Some(&b'-');
    if negative {
        i += 1;
    }
    let int_start = i;
    let mut mantissa: u64 = 0;
    match b.get(i) {
        Some(b'0') => i += 1,
        Some(&d @ b'1'..=b'9') => {
            mantissa = u64::from(d - b'0');
            i += 1;
            while let Some(&d @ b'0'..=b'9') = b.get(i) {
                // Wraps past 19 digits; `digits` below tells when to distrust it.
                mantissa = mantissa.wrapping_mul(10).wrapping_add(u64::from(d - b'0'));
                i += 1;
            }
        }
        _ => return Err(i),
    }
    let int_digits = i - int_start;
    let mut frac_digits = 0;
    let mut is_integer = true;
    if b.get(i) == Some(&b'.') {
        is_integer = false;
        i += 1;
        let start = i;
        while let Some(&d @ b'0'..=b'9') = b.get(i) {
            mantissa = mantissa.wrapping_mul(10).wrapping_add(u64::from(d - b'0'));
            i += 1;
        }
        frac_digits = i - start;
        if frac_digits == 0 {
            return Err(i);
        }
    }
    let mut exp: i64 = 0;
    if matches!(b.get(i), Some(b'e' | b'E')) {
        is_integer = false;
        i += 1;
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
        while let Some(&d @ b'0'..=b'9') = b.get(i) {
            // Saturate: any exponent this large is beyond every fast path.
            exp = (exp * 10 + i64::from(d - b'0')).min(1 << 40);
            i += 1;
        }
        if i == start {
            return Err(i);
        }
        if exp_negative {
            exp = -exp;
        }
    }
    let digits = int_digits + frac_digits;
    let value = if is_integer {
        integer_value(negative, mantissa, digits, &b[int_start..i])
    } else {
        float_value(negative, mantissa, digits, exp - frac_digits as i64, &b[..i])
    };
    Ok((i, value, is_integer))
}

fn integer_value(negative: bool, mantissa: u64, digits: usize, text: &[u8]) -> NumberValue {
    let exact = if digits <= 19 {
        Some(mantissa)
    } else if digits == 20 {
        // 20 digits may still fit u64 (up to 18446744073709551615).
        std::str::from_utf8(text).ok().and_then(|t| t.parse::<u64>().ok())
    } else {
        None
    };
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

const POW10: [f64; 23] =
    [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22];

fn float_value(negative: bool, mantissa: u64, digits: usize, exp10: i64, text: &[u8]) -> NumberValue {
    // Clinger: an integer below 2^53 and a power of ten up to 1e22 are both
    // exact doubles, so one correctly rounded operation gives the answer.
    if digits <= 19 && mantissa <= 1 << 53 && (-22..=22).contains(&exp10) {
        let m = mantissa as f64;
        let v = if exp10 >= 0 { m * POW10[exp10 as usize] } else { m / POW10[(-exp10) as usize] };
        return NumberValue::F64(if negative { -v } else { v });
    }
    // SAFETY: the grammar admits only ASCII digits, signs, '.', 'e', 'E'.
    let text = unsafe { std::str::from_utf8_unchecked(text) };
    match text.parse::<f64>() {
        Ok(v) if v.is_finite() => NumberValue::F64(v),
        _ => NumberValue::Big,
    }
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
