//! `Value` as a serde `Deserialize` type, so it can be read by any serde
//! format and embedded in typed structs. (`Value::from_slice` builds it
//! straight from the parser instead, which also keeps big numbers' text.)

use std::collections::HashMap;

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

use super::{Array, Map, Number, Str, Value};

/// Asks for a newtype struct with a private name: jetjson's deserializer
/// then builds the value with the direct builder (`parse/door.rs`); any
/// other deserializer hands it over as a newtype struct or as the value
/// itself, and the visitor below builds it.
impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Value, D::Error> {
        d.deserialize_newtype_struct(crate::parse::VALUE_TOKEN, ValueVisitor)
    }
}

struct ValueVisitor;

impl<'de> Visitor<'de> for ValueVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        Value::deserialize(d)
    }
    /// The value jetjson's deserializer built, or (from any other
    /// deserializer, or when jetjson's reads it the generic way) the value
    /// inside, read as any value.
    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        match crate::parse::take_handed() {
            Some(value) => Ok(value),
            None => d.deserialize_any(ValueVisitor),
        }
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Number(Number::Int(v)))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Number(Number::from_u64(v)))
    }
    fn visit_i128<E>(self, v: i128) -> Result<Value, E> {
        Ok(Value::Number(Number::Big(v.to_string().into())))
    }
    fn visit_u128<E>(self, v: u128) -> Result<Value, E> {
        Ok(Value::Number(Number::Big(v.to_string().into())))
    }
    /// NaN and ±Infinity (from another format) become `null`, as in serde_json.
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(Str::new(v)))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v.into()))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items: Vec<Value> = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Value::Array(Array::from(items)))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        // A repeated name (reachable with `DuplicateKeys::Last`) keeps its
        // first position and takes the later value, as the direct builder
        // does. Small objects look names up by a scan; larger ones through an
        // index, so a big object costs linear time, not quadratic.
        let mut members: Vec<(Str, Value)> = Vec::with_capacity(map.size_hint().unwrap_or(0));
        let mut index: Option<HashMap<Str, usize>> = None;
        while let Some((k, v)) = map.next_entry::<Str, Value>()? {
            if members.len() == SCAN_LIMIT && index.is_none() {
                index = Some(members.iter().enumerate().map(|(i, (k, _))| (k.clone(), i)).collect());
            }
            let earlier = match &mut index {
                None => members.iter().position(|(name, _)| *name == k),
                Some(index) => match index.get(&k) {
                    Some(&i) => Some(i),
                    None => {
                        index.insert(k.clone(), members.len());
                        None
                    }
                },
            };
            match earlier {
                Some(i) => members[i].1 = v,
                None => members.push((k, v)),
            }
        }
        Ok(Value::Object(Map::from_members(members)))
    }
}

/// Members looked up by a linear scan before an object gets an index.
const SCAN_LIMIT: usize = 16;
