//! A JSON number as it was read or built.

use super::Str;

/// A JSON number. Integers that fit 64 bits are exact integers, other
/// integers (and, in lossless mode, every number) keep their literal text.
#[derive(Clone, Debug)]
pub enum Number {
    Int(i64),
    UInt(u64),
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

    /// A number from its literal text; `None` if the text is not a JSON number.
    pub fn from_literal(text: &str) -> Option<Number> {
        crate::parse::is_json_number(text.as_bytes()).then(|| Number::Big(text.into()))
    }

    pub fn as_i64(&self) -> Option<i64> {
        match *self {
            Number::Int(i) => Some(i),
            Number::UInt(u) => i64::try_from(u).ok(),
            Number::Float(_) => None,
            Number::Big(ref t) => t.parse().ok(),
        }
    }

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
