//! `Value` as a serde `Serialize` type, so it works with any serializer.

use super::{Number, Value};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};

/// The newtype name under which a number's literal text travels through
/// serde; jetjson's serializer writes it as a number, others as a string.
pub(crate) const NUMBER_TOKEN: &str = "$jetjson::private::Number";

impl Serialize for Value {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Value::Null => s.serialize_unit(),
            Value::Bool(b) => s.serialize_bool(*b),
            Value::Number(n) => n.serialize(s),
            Value::String(v) => s.serialize_str(v),
            Value::Array(items) => {
                let mut seq = s.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Value::Object(map) => {
                let mut m = s.serialize_map(Some(map.len()))?;
                for (k, v) in map.iter() {
                    m.serialize_entry(k, v)?;
                }
                m.end()
            }
        }
    }
}

impl Serialize for Number {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Number::Int(i) => s.serialize_i64(*i),
            Number::UInt(u) => s.serialize_u64(*u),
            Number::Float(f) => s.serialize_f64(*f),
            Number::Big(text) => s.serialize_newtype_struct(NUMBER_TOKEN, &**text),
        }
    }
}
