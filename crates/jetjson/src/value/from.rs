//! Conversions into `Value`.

use super::{Array, Map, Number, Str, Value};

macro_rules! from_signed {
    ($($t:ty)*) => {$(
        impl From<$t> for Value {
            fn from(v: $t) -> Value { Value::Number(Number::Int(v as i64)) }
        }
    )*};
}
macro_rules! from_unsigned {
    ($($t:ty)*) => {$(
        impl From<$t> for Value {
            fn from(v: $t) -> Value { Value::Number(Number::from_u64(v as u64)) }
        }
    )*};
}
from_signed!(i8 i16 i32 i64 isize);
from_unsigned!(u8 u16 u32 u64 usize);

/// Exact at any size (the digits of a value beyond 64 bits are kept).
impl From<i128> for Value {
    fn from(v: i128) -> Value {
        Value::Number(Number::from(v))
    }
}
/// Exact at any size (the digits of a value beyond 64 bits are kept).
impl From<u128> for Value {
    fn from(v: u128) -> Value {
        Value::Number(Number::from(v))
    }
}

/// A double; NaN and ±Infinity, which JSON has no literal for, become
/// `Value::Null`, as in serde_json (and so in `json!` and `to_value`).
///
/// ```
/// assert_eq!(jetjson::Value::from(0.5), 0.5);
/// assert!(jetjson::Value::from(f64::NAN).is_null());
/// assert_eq!(jetjson::json!({"r": f64::INFINITY}).to_string(), r#"{"r":null}"#);
/// ```
impl From<f64> for Value {
    fn from(v: f64) -> Value {
        Number::from_f64(v).map_or(Value::Null, Value::Number)
    }
}
/// As `From<f64>` (NaN and ±Infinity become `Value::Null`).
impl From<f32> for Value {
    fn from(v: f32) -> Value {
        Value::from(f64::from(v))
    }
}
impl From<bool> for Value {
    fn from(v: bool) -> Value {
        Value::Bool(v)
    }
}
impl From<String> for Value {
    fn from(v: String) -> Value {
        Value::String(v.into())
    }
}
impl From<Str> for Value {
    fn from(v: Str) -> Value {
        Value::String(v)
    }
}
impl From<&str> for Value {
    fn from(v: &str) -> Value {
        Value::String(Str::new(v))
    }
}
impl From<Number> for Value {
    fn from(v: Number) -> Value {
        Value::Number(v)
    }
}
impl From<Map> for Value {
    fn from(v: Map) -> Value {
        Value::Object(v)
    }
}
impl<T: Into<Value>> From<Vec<T>> for Value {
    fn from(v: Vec<T>) -> Value {
        Value::Array(v.into_iter().map(Into::into).collect())
    }
}
impl From<Array> for Value {
    fn from(v: Array) -> Value {
        Value::Array(v)
    }
}
impl<T: Into<Value>> From<Option<T>> for Value {
    fn from(v: Option<T>) -> Value {
        v.map_or(Value::Null, Into::into)
    }
}
impl<K: Into<Str>, V: Into<Value>> FromIterator<(K, V)> for Value {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Value {
        Value::Object(iter.into_iter().map(|(k, v)| (k.into(), v.into())).collect())
    }
}
