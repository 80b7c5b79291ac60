//! A JSON number as it was read or built.

use super::Str;

/// A JSON number. Integers that fit 64 bits are exact integers, other
/// integers (and, in lossless mode, every number) keep their literal text.
#[derive(Clone, Debug)]
pub enum Number {
    /// An integer in the range of `i64`.
    Int(i64),
    /// An integer above `i64::MAX` (values built with
    /// [`Number::from_u64`] and the parser use `Int` whenever it fits).
    UInt(u64),
    /// A double.
    Float(f64),
    /// The literal text of a number, valid JSON number syntax.
    Big(Str),
}

impl Number {
    /// An integer, as `Int` when it fits `i64`, else `UInt`.
    pub fn from_u64(v: u64) -> Number {
        match i64::try_from(v) {
            Ok(i) => Number::Int(i),
            Err(_) => Number::UInt(v),
        }
    }

    /// A double, or `None` for NaN and ±Infinity (which JSON has no
    /// literal for), as in serde_json.
    ///
    /// ```
    /// use jetjson::Number;
    /// assert_eq!(Number::from_f64(0.5).unwrap().to_string(), "0.5");
    /// assert!(Number::from_f64(f64::NAN).is_none());
    /// ```
    pub fn from_f64(v: f64) -> Option<Number> {
        v.is_finite().then_some(Number::Float(v))
    }

    /// A 128-bit integer, exact: as `Int`/`UInt` when it fits 64 bits, else
    /// as its digits (`Big`). Always `Some` (serde_json returns `None`
    /// beyond 64 bits; jetjson keeps the digits, and writes them exactly in
    /// `compact` and `go`).
    ///
    /// ```
    /// use jetjson::Number;
    /// let n = Number::from_i128(-(1i128 << 100)).unwrap();
    /// assert_eq!(n.to_string(), "-1267650600228229401496703205376");
    /// assert_eq!(n.as_i128(), Some(-(1i128 << 100)));
    /// ```
    pub fn from_i128(v: i128) -> Option<Number> {
        Some(Number::from(v))
    }

    /// As [`from_i128`](Number::from_i128), for `u128` (always `Some`).
    pub fn from_u128(v: u128) -> Option<Number> {
        Some(Number::from(v))
    }

    /// A number from its literal text, kept as that text (`Big`); `None` if
    /// the text is not a JSON number. (`text.parse::<Number>()` reads the
    /// value instead, as the parser does.)
    ///
    /// ```
    /// let n = jetjson::Number::from_literal("1.50").unwrap();
    /// assert_eq!(n.to_string(), "1.50");
    /// assert!(jetjson::Number::from_literal("01").is_none());
    /// ```
    pub fn from_literal(text: &str) -> Option<Number> {
        crate::parse::is_json_number(text.as_bytes()).then(|| Number::Big(text.into()))
    }

    /// The integer as an `i64`, if it is one in range (a double, even a
    /// whole one, is not converted).
    pub fn as_i64(&self) -> Option<i64> {
        match *self {
            Number::Int(i) => Some(i),
            Number::UInt(u) => i64::try_from(u).ok(),
            Number::Float(_) => None,
            Number::Big(ref t) => t.parse().ok(),
        }
    }

    /// The integer as a `u64`, if it is one in range.
    pub fn as_u64(&self) -> Option<u64> {
        match *self {
            Number::Int(i) => u64::try_from(i).ok(),
            Number::UInt(u) => Some(u),
            Number::Float(_) => None,
            Number::Big(ref t) => t.parse().ok(),
        }
    }

    /// The nearest double (exact for integers up to 2^53); `None` for
    /// literal text beyond the double range.
    pub fn as_f64(&self) -> Option<f64> {
        match *self {
            Number::Int(i) => Some(i as f64),
            Number::UInt(u) => Some(u as f64),
            Number::Float(f) => Some(f),
            Number::Big(ref t) => crate::parse::literal_to_f64(t.as_bytes()),
        }
    }

    /// The integer as an `i128`, if it is one in range.
    ///
    /// ```
    /// assert_eq!(jetjson::Number::from(u64::MAX).as_i128(), Some(u64::MAX as i128));
    /// ```
    pub fn as_i128(&self) -> Option<i128> {
        match *self {
            Number::Int(i) => Some(i128::from(i)),
            Number::UInt(u) => Some(i128::from(u)),
            Number::Float(_) => None,
            Number::Big(ref t) => t.parse().ok(),
        }
    }

    /// The integer as a `u128`, if it is one in range.
    pub fn as_u128(&self) -> Option<u128> {
        match *self {
            Number::Int(i) => u128::try_from(i).ok(),
            Number::UInt(u) => Some(u128::from(u)),
            Number::Float(_) => None,
            Number::Big(ref t) => t.parse().ok(),
        }
    }

    /// `true` if [`as_i64`](Number::as_i64) reads this number.
    ///
    /// ```
    /// use jetjson::Number;
    /// assert!(Number::from(-1).is_i64());
    /// assert!(!Number::from(u64::MAX).is_i64());
    /// ```
    pub fn is_i64(&self) -> bool {
        self.as_i64().is_some()
    }

    /// `true` if [`as_u64`](Number::as_u64) reads this number.
    pub fn is_u64(&self) -> bool {
        self.as_u64().is_some()
    }

    /// `true` for a number that is neither an `i64` nor a `u64` but has a
    /// double: any `Float`, and literal text such as `1.5` or `1e30`
    /// (serde_json's rule: for ints of 64-bit range it is `false`).
    ///
    /// ```
    /// use jetjson::Number;
    /// assert!(Number::from_f64(2.0).unwrap().is_f64());
    /// assert!(!Number::from(2).is_f64());
    /// ```
    pub fn is_f64(&self) -> bool {
        match self {
            Number::Float(_) => true,
            Number::Int(_) | Number::UInt(_) => false,
            Number::Big(_) => !self.is_i64() && !self.is_u64() && self.as_f64().is_some(),
        }
    }

    /// `true` for an integer (`Int`, `UInt`, or literal text without a
    /// fraction or exponent); `false` for every double.
    pub fn is_integer(&self) -> bool {
        match self {
            Number::Int(_) | Number::UInt(_) => true,
            Number::Float(_) => false,
            Number::Big(t) => !t.bytes().any(|b| matches!(b, b'.' | b'e' | b'E')),
        }
    }
}

/// Integers compare by value whatever their variant; floats by bits' value
/// (`NaN != NaN`); literal text by text.
impl PartialEq for Number {
    fn eq(&self, other: &Number) -> bool {
        use Number::*;
        match (self, other) {
            (Int(a), Int(b)) => a == b,
            (UInt(a), UInt(b)) => a == b,
            (Int(a), UInt(b)) | (UInt(b), Int(a)) => u64::try_from(*a).is_ok_and(|a| a == *b),
            (Float(a), Float(b)) => a == b,
            (Big(a), Big(b)) => a == b,
            _ => false,
        }
    }
}

impl std::fmt::Display for Number {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Number::Int(i) => write!(f, "{i}"),
            Number::UInt(u) => write!(f, "{u}"),
            Number::Float(x) => {
                let mut v = Vec::new();
                crate::number::write_f64(&mut v, *x, crate::number::FloatLayout::Compact);
                f.write_str(std::str::from_utf8(&v).unwrap_or("?"))
            }
            Number::Big(t) => f.write_str(t),
        }
    }
}

macro_rules! from_signed {
    ($($t:ty)*) => {$(
        /// An exact integer.
        impl From<$t> for Number {
            fn from(v: $t) -> Number {
                Number::Int(v as i64)
            }
        }
    )*};
}
macro_rules! from_unsigned {
    ($($t:ty)*) => {$(
        /// An exact integer.
        impl From<$t> for Number {
            fn from(v: $t) -> Number {
                Number::from_u64(v as u64)
            }
        }
    )*};
}
from_signed!(i8 i16 i32 i64 isize);
from_unsigned!(u8 u16 u32 u64 usize);

/// Exact: 64-bit variants when the value fits, else its digits.
impl From<i128> for Number {
    fn from(v: i128) -> Number {
        match (i64::try_from(v), u64::try_from(v)) {
            (Ok(i), _) => Number::Int(i),
            (_, Ok(u)) => Number::UInt(u),
            _ => Number::Big(v.to_string().into()),
        }
    }
}

/// Exact: 64-bit variants when the value fits, else its digits.
impl From<u128> for Number {
    fn from(v: u128) -> Number {
        match u64::try_from(v) {
            Ok(u) => Number::from_u64(u),
            Err(_) => Number::Big(v.to_string().into()),
        }
    }
}

/// Reads a number literal as the parser reads one into a `Value` (an
/// integer of 64-bit range, a double, or the digits of a bigger integer).
/// Leading or trailing whitespace is accepted, as around any JSON text.
///
/// ```
/// use jetjson::Number;
/// assert_eq!("12".parse::<Number>().unwrap(), Number::from(12));
/// assert_eq!("1.5e3".parse::<Number>().unwrap().as_f64(), Some(1500.0));
/// assert!("1.".parse::<Number>().is_err());
/// assert!("\"1\"".parse::<Number>().is_err());
/// ```
impl std::str::FromStr for Number {
    type Err = crate::Error;
    fn from_str(s: &str) -> crate::Result<Number> {
        match super::Value::from_slice(s.as_bytes())? {
            super::Value::Number(n) => Ok(n),
            other => Err(crate::Error::new(crate::ErrorKind::InvalidNumber { text: crate::error::shown_literal(&other.to_string()) })),
        }
    }
}
