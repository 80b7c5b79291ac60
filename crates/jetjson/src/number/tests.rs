//! Unit tests for `number`: fixed examples, cut-off boundaries, random round
//! trips, `Compact` against serde_json, and `Go`/`Jcs` against an independent
//! reference built from Rust's own shortest formatting (`{:e}`).

use super::*;
use FloatLayout::{Compact, Go, Jcs};

fn s64(v: f64, layout: FloatLayout) -> String {
    let mut out = Vec::new();
    write_f64(&mut out, v, layout);
    String::from_utf8(out).unwrap()
}

fn s32(v: f32, layout: FloatLayout) -> String {
    let mut out = Vec::new();
    write_f32(&mut out, v, layout);
    String::from_utf8(out).unwrap()
}

/// The next float towards +∞ / -∞ (`f64::next_up` needs Rust 1.86; the
/// crate's MSRV is older).
trait Step: Copy {
    fn up(self) -> Self;
    fn down(self) -> Self;
}

impl Step for f64 {
    fn up(self) -> f64 {
        let b = self.to_bits();
        if self == 0.0 {
            f64::from_bits(1)
        } else if b >> 63 == 0 {
            f64::from_bits(b + 1)
        } else {
            f64::from_bits(b - 1)
        }
    }
    fn down(self) -> f64 {
        -(-self).up()
    }
}

impl Step for f32 {
    fn up(self) -> f32 {
        let b = self.to_bits();
        if self == 0.0 {
            f32::from_bits(1)
        } else if b >> 31 == 0 {
            f32::from_bits(b + 1)
        } else {
            f32::from_bits(b - 1)
        }
    }
    fn down(self) -> f32 {
        -(-self).up()
    }
}

fn up<T: Step>(v: T) -> T {
    v.up()
}

fn down<T: Step>(v: T) -> T {
    v.down()
}

/// SplitMix64: a small deterministic generator, enough for test inputs.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn finite_f64(&mut self) -> f64 {
        loop {
            let v = f64::from_bits(self.next());
            if v.is_finite() {
                return v;
            }
        }
    }

    fn finite_f32(&mut self) -> f32 {
        loop {
            let v = f32::from_bits(self.next() as u32);
            if v.is_finite() {
                return v;
            }
        }
    }

    /// A value with few digits and a decimal exponent near the layouts'
    /// cut-offs, or a bit-neighbour of one: exercises every layout branch.
    fn decimalish_f64(&mut self) -> f64 {
        let r = self.next();
        let digits = 1 + (r % 17) as u32;
        let mant = self.next() % 10u64.pow(digits);
        let exp = (self.next() % 60) as i32 - 30;
        let neg = r & (1 << 40) != 0;
        let v: f64 = format!("{}{}e{}", if neg { "-" } else { "" }, mant, exp).parse().unwrap();
        match (r >> 41) % 4 {
            0 => v,
            1 => up(v),
            2 => down(v),
            _ => f64::from_bits(v.to_bits() ^ (self.next() & 0xFF)),
        }
    }

    fn decimalish_f32(&mut self) -> f32 {
        let r = self.next();
        let digits = 1 + (r % 9) as u32;
        let mant = self.next() % 10u64.pow(digits);
        let exp = (self.next() % 60) as i32 - 30;
        let neg = r & (1 << 40) != 0;
        let v: f32 = format!("{}{}e{}", if neg { "-" } else { "" }, mant, exp).parse().unwrap();
        match (r >> 41) % 4 {
            0 => v,
            1 => up(v),
            2 => down(v),
            _ => f32::from_bits(v.to_bits() ^ (self.next() as u32 & 0xF)),
        }
    }
}

/// Splits Rust's `{:e}` output into (negative, significant digits without
/// trailing zeros, scientific exponent).
fn split_sci(sci: &str) -> (bool, String, i32) {
    let (neg, sci) = match sci.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, sci),
    };
    let (mant, exp) = sci.split_once('e').unwrap();
    let digits: String = mant.chars().filter(|&c| c != '.').collect();
    (neg, digits.trim_end_matches('0').to_string(), exp.parse().unwrap())
}

/// Adds one unit in the last place to a digit string (no carry out).
fn increment(digits: &str) -> Option<String> {
    let mut d = digits.as_bytes().to_vec();
    for i in (0..d.len()).rev() {
        if d[i] == b'9' {
            d[i] = b'0';
        } else {
            d[i] += 1;
            return Some(String::from_utf8(d).unwrap());
        }
    }
    None
}

/// Independent reference for the ECMAScript layout. Rust's `{:e}` gives the
/// shortest round-trip digits as `d[.ddd]e[-]N`; when two shortest strings
/// are equally close to the exact value, ECMA-262 (Number::toString, Note 2)
/// takes the even one, while Rust may take the upper one, so exact ties are
/// detected from the exact expansion `exact_sci` (`{:.800e}`) and resolved to
/// even. Then the digits are laid out with plain string operations.
fn es_reference(sci: &str, exact_sci: &str, keep_neg_zero: bool) -> String {
    let (neg, mut digits, exp) = split_sci(sci);
    let (_, exact, exact_exp) = split_sci(exact_sci);
    let k = digits.len();
    if exact_exp == exp && exact.len() == k + 1 && exact.ends_with('5') {
        let lower = &exact[..k];
        if lower.as_bytes()[k - 1] % 2 == 0 && increment(lower).as_deref() == Some(digits.as_str()) {
            digits = lower.trim_end_matches('0').to_string();
        }
    }
    let digits = digits.as_str();
    if digits.is_empty() {
        return if neg && keep_neg_zero { "-0".into() } else { "0".into() };
    }
    let k = digits.len() as i32;
    let n = exp + 1;
    let body = if k <= n && n <= 21 {
        format!("{}{}", digits, "0".repeat((n - k) as usize))
    } else if 0 < n && n <= 21 {
        format!("{}.{}", &digits[..n as usize], &digits[n as usize..])
    } else if -6 < n && n <= 0 {
        format!("0.{}{}", "0".repeat((-n) as usize), digits)
    } else {
        let frac = if k > 1 { format!(".{}", &digits[1..]) } else { String::new() };
        format!("{}{}e{}{}", &digits[..1], frac, if n - 1 < 0 { '-' } else { '+' }, (n - 1).abs())
    };
    if neg {
        format!("-{}", body)
    } else {
        body
    }
}

/// The byte-inspecting re-layout applied to every value, bypassing the
/// magnitude bands of the hot path (which claim zmij's bytes need no change
/// in them). Zero is the callers' business, so it is handled here.
fn relaid(s: &str, is_zero: bool, neg: bool, keep_neg_zero: bool) -> String {
    if is_zero {
        return if neg && keep_neg_zero { "-0" } else { "0" }.into();
    }
    let mut out = Vec::new();
    relay_zmij_as_es(&mut out, s.as_bytes());
    String::from_utf8(out).unwrap()
}

fn general_f64(v: f64, keep_neg_zero: bool) -> String {
    let mut buf = zmij::Buffer::new();
    let s = buf.format_finite(v);
    relaid(s, v == 0.0, v.is_sign_negative(), keep_neg_zero)
}

fn general_f32(v: f32, keep_neg_zero: bool) -> String {
    let mut buf = zmij::Buffer::new();
    let s = buf.format_finite(v);
    relaid(s, v == 0.0, v.is_sign_negative(), keep_neg_zero)
}

/// Checks one f64 in every layout against every oracle we have.
fn check_f64(v: f64) {
    let compact = s64(v, Compact);
    let jcs = s64(v, Jcs);
    let go = s64(v, Go);
    assert_eq!(compact, serde_json::to_string(&v).unwrap(), "compact {:?}", v);
    let sci = format!("{:e}", v);
    // The exact expansion is only needed (and slow to make) for ties.
    let mut exact = String::from("0e0");
    if go != es_reference(&sci, &exact, true) {
        exact = format!("{:.800e}", v);
    }
    assert_eq!(jcs, es_reference(&sci, &exact, false), "jcs {:?}", v);
    assert_eq!(go, es_reference(&sci, &exact, true), "go {:?}", v);
    assert_eq!(jcs, general_f64(v, false), "jcs general {:?}", v);
    assert_eq!(go, general_f64(v, true), "go general {:?}", v);
    for (layout, text) in [(Compact, &compact), (Jcs, &jcs), (Go, &go)] {
        let back: f64 = text.parse().unwrap();
        if layout == Jcs && v == 0.0 {
            assert_eq!(back.to_bits(), 0, "{:?} {:?}", layout, v);
        } else {
            assert_eq!(back.to_bits(), v.to_bits(), "{:?} {:?} -> {}", layout, v, text);
        }
    }
}

/// Checks one f32 in every layout against every oracle we have.
fn check_f32(v: f32) {
    let compact = s32(v, Compact);
    let jcs = s32(v, Jcs);
    let go = s32(v, Go);
    assert_eq!(compact, serde_json::to_string(&v).unwrap(), "compact {:?}", v);
    assert_eq!(jcs, s64(f64::from(v), Jcs), "jcs {:?}", v);
    let sci = format!("{:e}", v);
    let mut exact = String::from("0e0");
    if go != es_reference(&sci, &exact, true) {
        exact = format!("{:.800e}", v);
    }
    assert_eq!(go, es_reference(&sci, &exact, true), "go {:?}", v);
    assert_eq!(go, general_f32(v, true), "go general {:?}", v);
    for text in [&compact, &go] {
        let back: f32 = text.parse().unwrap();
        assert_eq!(back.to_bits(), v.to_bits(), "{:?} -> {}", v, text);
    }
    let back: f64 = jcs.parse().unwrap();
    if v == 0.0 {
        assert_eq!(back.to_bits(), 0);
    } else {
        assert_eq!(back.to_bits(), f64::from(v).to_bits(), "{:?} -> {}", v, jcs);
    }
}

// --- fixed examples --------------------------------------------------------

#[test]
fn compact_f64_examples() {
    let cases: &[(f64, &str)] = &[
        (1e15, "1000000000000000.0"),
        (1e16, "1e+16"),
        (1e20, "1e+20"),
        (1e21, "1e+21"),
        (0.00001, "0.00001"),
        (1e-6, "1e-6"),
        (1e-7, "1e-7"),
        (1.5e300, "1.5e+300"),
        (100.0, "100.0"),
        (-0.0, "-0.0"),
        (0.0, "0.0"),
        (9007199254740993.0, "9007199254740992.0"),
        (0.1 + 0.2, "0.30000000000000004"),
        (5e-324, "5e-324"),
        (f64::MAX, "1.7976931348623157e+308"),
    ];
    for &(v, want) in cases {
        assert_eq!(s64(v, Compact), want, "{:?}", v);
    }
}

#[test]
fn compact_f32_examples() {
    let cases: &[(f32, &str)] = &[
        (1e12, "1000000000000.0"),
        (1e13, "1e+13"),
        (1e-6, "0.000001"),
        (1e-7, "1e-7"),
        (0.1, "0.1"),
        (-0.0, "-0.0"),
        (f32::MAX, "3.4028235e+38"),
    ];
    for &(v, want) in cases {
        assert_eq!(s32(v, Compact), want, "{:?}", v);
    }
}

/// (value, Jcs output); Go is the same except for -0.
// Tie cases below are written with their exact binary value on purpose.
#[allow(clippy::excessive_precision)]
const ES_F64_CASES: &[(f64, &str)] = &[
    (0.0, "0"),
    (100.0, "100"),
    (-3.0, "-3"),
    (1.5, "1.5"),
    (-1.5, "-1.5"),
    (123.456, "123.456"),
    (1e15, "1000000000000000"),
    (1e16, "10000000000000000"),
    (1e17, "100000000000000000"),
    (1e20, "100000000000000000000"),
    (1.5e20, "150000000000000000000"),
    (123456789012345680000.0, "123456789012345680000"),
    (1e21, "1e+21"),
    (1.5e21, "1.5e+21"),
    (-1e21, "-1e+21"),
    (1e22, "1e+22"),
    (0.1, "0.1"),
    (0.00001, "0.00001"),
    (0.000001, "0.000001"),
    (0.0000012345, "0.0000012345"),
    (-0.000001, "-0.000001"),
    (1e-7, "1e-7"),
    (1.2345e-7, "1.2345e-7"),
    (1.5e300, "1.5e+300"),
    (5e-324, "5e-324"),
    (-5e-324, "-5e-324"),
    (2.2250738585072014e-308, "2.2250738585072014e-308"),
    (f64::MAX, "1.7976931348623157e+308"),
    (f64::MIN, "-1.7976931348623157e+308"),
    (0.1 + 0.2, "0.30000000000000004"),
    (9007199254740991.0, "9007199254740991"),
    (-9007199254740991.0, "-9007199254740991"),
    (9007199254740992.0, "9007199254740992"),
    (-9007199254740992.0, "-9007199254740992"),
    (9007199254740993.0, "9007199254740992"),
    (9007199254740994.0, "9007199254740994"),
    (18014398509481984.0, "18014398509481984"),
    (9223372036854775808.0, "9223372036854776000"),
    (-9223372036854775808.0, "-9223372036854776000"),
    (18446744073709551616.0, "18446744073709552000"),
    (4294967295.0, "4294967295"),
    (4294967296.5, "4294967296.5"),
    (333333333.3333333, "333333333.3333333"),
    (1e-6 * 1.5, "0.0000015"),
    // Exact ties between two shortest candidates go to the even digit
    // (ECMA-262 Number::toString Note 2); the exact values end in .25 / .75.
    (612000000000008.25, "612000000000008.2"),
    (-612000000000008.25, "-612000000000008.2"),
    (612000000000008.75, "612000000000008.8"),
    (-2236729633436452.25, "-2236729633436452.2"),
    // The double just below 1e21: last fixed-notation value.
    (999999999999999900000.0, "999999999999999900000"),
    // The double just below the double nearest 1e-6.
    (9.999999999999997e-7, "9.999999999999997e-7"),
];

#[test]
fn es_f64_examples() {
    for &(v, want) in ES_F64_CASES {
        assert_eq!(s64(v, Jcs), want, "jcs {:?}", v);
        assert_eq!(s64(v, Go), want, "go {:?}", v);
        check_f64(v);
    }
    assert_eq!(s64(-0.0, Jcs), "0");
    assert_eq!(s64(-0.0, Go), "-0");
    check_f64(-0.0);
}

#[test]
fn es_f64_cutoff_neighbours() {
    // Both sides of both cut-offs, derived by bit stepping rather than literals.
    let one_e21 = 1e21f64;
    assert_eq!(s64(down(one_e21), Jcs), "999999999999999900000");
    assert_eq!(s64(one_e21, Jcs), "1e+21");
    assert_eq!(s64(up(one_e21), Jcs), "1.0000000000000001e+21");
    let one_e_6 = 1e-6f64;
    assert_eq!(s64(one_e_6, Jcs), "0.000001");
    assert_eq!(s64(up(one_e_6), Jcs), "0.0000010000000000000002");
    assert_eq!(s64(down(one_e_6), Jcs), "9.999999999999997e-7");
    assert_eq!(s64(-down(one_e_6), Go), "-9.999999999999997e-7");
    // zmij switches notation at 1e16 and 1e-5; ES does not.
    for v in [1e16f64, 1e-5, 1e-6, 1e20, 1e21] {
        for w in [down(v), v, up(v)] {
            check_f64(w);
            check_f64(-w);
        }
    }
    // Every power of ten and its neighbours.
    for e in -325..=308 {
        let v: f64 = format!("1e{}", e).parse().unwrap();
        for w in [down(v), v, up(v)] {
            if w.is_finite() {
                check_f64(w);
            }
        }
    }
}

/// (value, Go output) for float32.
#[allow(clippy::excessive_precision)]
const GO_F32_CASES: &[(f32, &str)] = &[
    (0.0, "0"),
    (0.1, "0.1"),
    (-0.1, "-0.1"),
    (1.5, "1.5"),
    (100.0, "100"),
    (f32::MAX, "3.4028235e+38"),
    (f32::MIN, "-3.4028235e+38"),
    (1e21, "1e+21"),
    (1e-7, "1e-7"),
    (1e-6, "0.000001"),
    (16777216.0, "16777216"),
    (16777215.0, "16777215"),
    (16777218.0, "16777218"),
    (-16777216.0, "-16777216"),
    (1e12, "1000000000000"),
    (1e13, "10000000000000"),
    (1.5e20, "150000000000000000000"),
    (1e-45, "1e-45"),
    (1.1754944e-38, "1.1754944e-38"),
    (3.3333333, "3.3333333"),
    (2147483648.0, "2147483600"),
    (4294967296.0, "4294967300"),
    // Exact ties between two shortest float32 candidates go to the even digit.
    (3342033.25, "3342033.2"),
    (-2109016.25, "-2109016.2"),
    (2109016.75, "2109016.8"),
    // Largest float32 below float32(1e21): fixed notation, float32 digits.
    (999999950000000000000.0, "999999950000000000000"),
    // Largest float32 below float32(1e-6): exponent notation.
    (9.999999e-7, "9.999999e-7"),
];

#[test]
fn go_f32_examples() {
    for &(v, want) in GO_F32_CASES {
        assert_eq!(s32(v, Go), want, "go {:?}", v);
        check_f32(v);
    }
    assert_eq!(s32(-0.0, Go), "-0");
    assert_eq!(s32(-0.0, Jcs), "0");
    check_f32(-0.0);
}

#[test]
fn go_f32_cutoff_neighbours() {
    // The comparisons Go makes, done in float32: float32(1e21) and float32(1e-6).
    let big = 1e21f32;
    assert_eq!(s32(big, Go), "1e+21");
    assert_eq!(s32(down(big), Go), "999999950000000000000");
    assert_eq!(s32(up(big), Go), "1.0000001e+21");
    let small = 1e-6f32;
    assert_eq!(s32(small, Go), "0.000001");
    assert_eq!(s32(up(small), Go), "0.0000010000001");
    assert_eq!(s32(down(small), Go), "9.999999e-7");
    assert_eq!(s32(-down(small), Go), "-9.999999e-7");
    for e in -45..=38 {
        let v: f32 = format!("1e{}", e).parse().unwrap();
        for w in [down(v), v, up(v)] {
            if w.is_finite() {
                check_f32(w);
                check_f32(-w);
            }
        }
    }
}

#[test]
fn jcs_f32_widens() {
    assert_eq!(s32(0.1, Jcs), "0.10000000149011612");
    assert_eq!(s32(1e21, Jcs), "1.0000000200408773e+21");
    assert_eq!(s32(16777216.0, Jcs), "16777216");
    assert_eq!(s32(f32::MAX, Jcs), "3.4028234663852886e+38");
    assert_eq!(s32(1e-45, Jcs), "1.401298464324817e-45");
}

#[test]
fn appends_without_clobbering() {
    let mut out = b"[".to_vec();
    write_f64(&mut out, 1.5, Jcs);
    out.push(b',');
    write_f64(&mut out, 1e21, Go);
    out.push(b',');
    write_f32(&mut out, 0.1, Compact);
    out.push(b',');
    write_f64(&mut out, 1e17, Go);
    out.push(b']');
    assert_eq!(out, b"[1.5,1e+21,0.1,100000000000000000]");
}

// --- random ------------------------------------------------------------------

#[test]
fn random_bits_f64() {
    let mut rng = Rng(0x1234_5678);
    for _ in 0..100_000 {
        check_f64(rng.finite_f64());
    }
}

#[test]
fn random_decimalish_f64() {
    let mut rng = Rng(0xDEC1_3A15);
    for _ in 0..100_000 {
        check_f64(rng.decimalish_f64());
    }
}

#[test]
fn random_integers_f64() {
    let mut rng = Rng(42);
    for _ in 0..100_000 {
        let r = rng.next();
        let bits = r % 64;
        let i = (rng.next() >> (63 - bits)) as i64 * if r & (1 << 20) != 0 { -1 } else { 1 };
        check_f64(i as f64);
    }
}

#[test]
fn random_bits_f32() {
    let mut rng = Rng(0x8765_4321);
    for _ in 0..100_000 {
        check_f32(rng.finite_f32());
    }
}

#[test]
fn random_decimalish_f32() {
    let mut rng = Rng(0xF10A_7320);
    for _ in 0..100_000 {
        check_f32(rng.decimalish_f32());
    }
}

#[test]
fn compact_matches_serde_json_many() {
    let mut rng = Rng(7);
    for _ in 0..200_000 {
        let v = rng.finite_f64();
        assert_eq!(s64(v, Compact), serde_json::to_string(&v).unwrap());
        let v = rng.finite_f32();
        assert_eq!(s32(v, Compact), serde_json::to_string(&v).unwrap());
    }
}

// --- re-layout ---------------------------------------------------------------

#[test]
fn relay_zmij_strings() {
    let r = |s: &str| {
        let mut out = Vec::new();
        relay_zmij_as_es(&mut out, s.as_bytes());
        String::from_utf8(out).unwrap()
    };
    // Copied through.
    assert_eq!(r("123.456"), "123.456");
    assert_eq!(r("-0.001234"), "-0.001234");
    assert_eq!(r("1e-7"), "1e-7");
    assert_eq!(r("1.5e+300"), "1.5e+300");
    assert_eq!(r("-5e-324"), "-5e-324");
    assert_eq!(r("1e+21"), "1e+21");
    assert_eq!(r("1.2345e-7"), "1.2345e-7");
    assert_eq!(r("1.7976931348623157e+308"), "1.7976931348623157e+308");
    // Integral fixed notation loses its `.0`.
    assert_eq!(r("1000.0"), "1000");
    assert_eq!(r("-9007199254740994.0"), "-9007199254740994");
    // Exponent notation inside the ECMAScript fixed range.
    assert_eq!(r("1e-6"), "0.000001");
    assert_eq!(r("-1.2345e-6"), "-0.0000012345");
    assert_eq!(r("9.999999999999997e-6"), "0.000009999999999999997");
    assert_eq!(r("1e-1"), "0.1");
    assert_eq!(r("1.5e-1"), "0.15");
    assert_eq!(r("1e+0"), "1");
    assert_eq!(r("1.5e+0"), "1.5");
    assert_eq!(r("1.2345e+2"), "123.45");
    assert_eq!(r("1.2345e+4"), "12345");
    assert_eq!(r("1e+16"), "10000000000000000");
    assert_eq!(r("-1.5e+20"), "-150000000000000000000");
    assert_eq!(r("1.2345678901234567e+20"), "123456789012345670000");
    assert_eq!(r("-1.2345678901234567e+16"), "-12345678901234567");
    assert_eq!(r("1.2345678901234567e+15"), "1234567890123456.7");
}

#[test]
fn decimal_from_sci() {
    let p = |s: &str| {
        let e_pos = s.find('e').unwrap();
        let d = Decimal::from_sci(s.as_bytes(), e_pos, s[e_pos + 1..].parse().unwrap());
        (d.neg, String::from_utf8(d.digits().to_vec()).unwrap(), d.n)
    };
    assert_eq!(p("1e-7"), (false, "1".into(), -6));
    assert_eq!(p("1.5e+300"), (false, "15".into(), 301));
    assert_eq!(p("-5e-324"), (true, "5".into(), -323));
    assert_eq!(p("1.7976931348623157e+308"), (false, "17976931348623157".into(), 309));
}

// --- integer -> double ---------------------------------------------------------

#[test]
fn int_to_f64_nearest_ties_to_even() {
    let two53: i64 = 1 << 53;
    assert_eq!(i64_to_f64_nearest(two53 + 1), 9007199254740992.0);
    assert_eq!(i64_to_f64_nearest(two53 + 3), 9007199254740996.0);
    assert_eq!(i64_to_f64_nearest(-(two53 + 1)), -9007199254740992.0);
    assert_eq!(i64_to_f64_nearest(-(two53 + 3)), -9007199254740996.0);
    assert_eq!(i64_to_f64_nearest(two53 + 2), 9007199254740994.0);
    // Not a tie: rounds to the nearer one.
    assert_eq!(i64_to_f64_nearest((1 << 54) + 3), 18014398509481988.0);
    assert_eq!(i64_to_f64_nearest(i64::MAX), 9223372036854775808.0);
    assert_eq!(i64_to_f64_nearest(i64::MIN), -9223372036854775808.0);
    assert_eq!(u64_to_f64_nearest((1 << 53) + 1), 9007199254740992.0);
    assert_eq!(u64_to_f64_nearest((1 << 53) + 3), 9007199254740996.0);
    assert_eq!(u64_to_f64_nearest(u64::MAX), 18446744073709551616.0);
    // At 2^64 the spacing is 2^12; halfway points are ties.
    let two64: u128 = 1 << 64;
    assert_eq!(u128_to_f64_nearest(two64 + (1 << 11)), 18446744073709551616.0);
    assert_eq!(u128_to_f64_nearest(two64 + 3 * (1 << 11)), (two64 + (1 << 13)) as f64);
    assert_eq!(u128_to_f64_nearest(two64 + 3 * (1 << 11)).to_bits(), 18446744073709551616.0f64.to_bits() + 2);
    assert_eq!(u128_to_f64_nearest(two64 + (1 << 11) + 1).to_bits(), 18446744073709551616.0f64.to_bits() + 1);
    assert_eq!(u128_to_f64_nearest(u128::MAX), 2f64.powi(128));
    assert_eq!(i128_to_f64_nearest(-((two64 + (1 << 11)) as i128)), -18446744073709551616.0);
    assert_eq!(i128_to_f64_nearest(-((two64 + 3 * (1 << 11)) as i128)).to_bits(), (-18446744073709551616.0f64).to_bits() + 2);
    assert_eq!(i128_to_f64_nearest(i128::MIN), -(2f64.powi(127)));
    assert_eq!(i128_to_f64_nearest(i128::MAX), 2f64.powi(127));
    // And as JCS text, as ES `String(Number(2n**53n + 1n))` gives.
    assert_eq!(s64(i64_to_f64_nearest(two53 + 1), Jcs), "9007199254740992");
    assert_eq!(s64(u64_to_f64_nearest(u64::MAX), Jcs), "18446744073709552000");
}

/// zmij formatting in place (`put_zmij`, the writer's float path) gives
/// zmij's own text and writes nothing past `ZMIJ_ROOM`.
#[test]
fn put_zmij_writes_zmij_text_in_place() {
    let mut rng = Rng(0x5EED_F10A);
    let mut values: Vec<f64> = (0..100_000).map(|i| if i % 2 == 0 { rng.finite_f64() } else { rng.decimalish_f64() }).collect();
    values.extend([0.0, -0.0, 1.0, -1.5, 5e-324, f64::MAX, f64::MIN_POSITIVE, 1e21, 1e-7, 123456789012345680.0]);
    for v in values {
        let mut out = [0xA5u8; ZMIJ_ROOM + 16];
        // SAFETY: `out` has room for `ZMIJ_ROOM` bytes.
        let n = unsafe { put_zmij(out.as_mut_ptr(), v) };
        let mut reference = zmij::Buffer::new();
        assert_eq!(std::str::from_utf8(&out[..n]).unwrap(), reference.format_finite(v), "{v:?}");
        assert!(out[ZMIJ_ROOM..].iter().all(|&b| b == 0xA5), "{v:?} wrote past the room");
    }
}

/// The writer's float items (in place, after separators) equal serde_json's
/// text of the same array.
#[test]
fn writer_float_arrays_match_serde_json() {
    let mut rng = Rng(0xF10A_7A11);
    let values: Vec<f64> = (0..20_000).map(|_| rng.decimalish_f64()).collect();
    let mut w = crate::Writer::new(&crate::WriteOptions::compact());
    w.begin_array();
    for (i, &v) in values.iter().enumerate() {
        w.item_f64(v, i == 0).unwrap();
    }
    w.end_array(values.is_empty());
    assert_eq!(std::str::from_utf8(w.as_bytes()).unwrap(), serde_json::to_string(&values).unwrap());
}
