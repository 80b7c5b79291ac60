//! `Value` as a builder over the parser.

use std::collections::HashSet;

use super::{Map, Number, Value};
use crate::error::{Error, ErrorKind, Result};
use crate::parse::{self, DuplicateKeys, FromJson, NumberToken, ReadOptions, Visitor};

impl FromJson for Value {
    fn from_json(input: &[u8], options: &ReadOptions) -> Result<Value> {
        let mut b = ValueBuilder { stack: Vec::new(), root: None, options };
        parse::parse(input, options, &mut b)?;
        Ok(b.root.unwrap_or(Value::Null))
    }
}

struct ValueBuilder<'o> {
    stack: Vec<Frame>,
    root: Option<Value>,
    options: &'o ReadOptions,
}

enum Frame {
    Array(Vec<Value>),
    Object(ObjectFrame),
}

struct ObjectFrame {
    map: Map,
    key: Option<String>,
    /// Hashes of the keys so far, built once an object grows past a handful
    /// of members, so duplicate checks stay linear overall.
    seen: Option<HashSet<u64>>,
}

/// Up to this many members, a duplicate check is a scan.
const SCAN_LIMIT: usize = 16;

fn key_hash(k: &str) -> u64 {
    use std::hash::{BuildHasher, BuildHasherDefault, DefaultHasher};
    BuildHasherDefault::<DefaultHasher>::default().hash_one(k)
}

impl ObjectFrame {
    fn insert(&mut self, key: String, value: Value, policy: DuplicateKeys) -> Result<()> {
        let members = self.map.members();
        let dup = if members.len() < SCAN_LIMIT {
            members.iter().position(|(k, _)| *k == key)
        } else {
            let seen = self.seen.get_or_insert_with(|| members.iter().map(|(k, _)| key_hash(k)).collect());
            if seen.insert(key_hash(&key)) {
                None
            } else {
                members.iter().position(|(k, _)| *k == key)
            }
        };
        match (dup, policy) {
            (None, _) => {
                if let Some(seen) = &mut self.seen {
                    seen.insert(key_hash(&key));
                }
                self.map.push(key, value);
            }
            (Some(_), DuplicateKeys::Error) => return Err(Error::new(ErrorKind::DuplicateKey { key })),
            (Some(_), DuplicateKeys::First) => {}
            (Some(i), DuplicateKeys::Last) => self.map.set_value_at(i, value),
        }
        Ok(())
    }
}

impl ValueBuilder<'_> {
    fn put(&mut self, v: Value) -> Result<()> {
        match self.stack.last_mut() {
            None => self.root = Some(v),
            Some(Frame::Array(items)) => items.push(v),
            Some(Frame::Object(obj)) => {
                let key = obj.key.take().expect("parser sends a key before each member value");
                obj.insert(key, v, self.options.duplicate_key_policy())?;
            }
        }
        Ok(())
    }
}

impl Visitor for ValueBuilder<'_> {
    fn null(&mut self) -> Result<()> {
        self.put(Value::Null)
    }
    fn bool(&mut self, v: bool) -> Result<()> {
        self.put(Value::Bool(v))
    }
    fn number(&mut self, n: NumberToken<'_>) -> Result<()> {
        let number = if self.options.keeps_numbers_lossless() {
            Number::Big(n.text.into())
        } else if n.is_integer {
            if n.text == "-0" {
                // An integer has no negative zero; keep the sign as a float,
                // as serde_json and Go (into float64) read it.
                Number::Float(-0.0)
            } else if let Ok(i) = n.text.parse::<i64>() {
                Number::Int(i)
            } else if let Ok(u) = n.text.parse::<u64>() {
                Number::UInt(u)
            } else {
                Number::Big(n.text.into())
            }
        } else {
            match n.text.parse::<f64>() {
                Ok(f) if f.is_finite() => Number::Float(f),
                // Beyond the double range (1e400): keep the text rather than
                // inventing an infinity.
                _ => Number::Big(n.text.into()),
            }
        };
        self.put(Value::Number(number))
    }
    fn string(&mut self, s: &str, _raw: &str) -> Result<()> {
        self.put(Value::String(s.to_owned()))
    }
    fn begin_array(&mut self) -> Result<()> {
        self.stack.push(Frame::Array(Vec::new()));
        Ok(())
    }
    fn end_array(&mut self) -> Result<()> {
        match self.stack.pop() {
            Some(Frame::Array(items)) => self.put(Value::Array(items)),
            _ => unreachable!("parser balances containers"),
        }
    }
    fn begin_object(&mut self) -> Result<()> {
        self.stack.push(Frame::Object(ObjectFrame { map: Map::new(), key: None, seen: None }));
        Ok(())
    }
    fn key(&mut self, k: &str, _raw: &str) -> Result<()> {
        match self.stack.last_mut() {
            Some(Frame::Object(obj)) => obj.key = Some(k.to_owned()),
            _ => unreachable!("parser sends keys only inside objects"),
        }
        Ok(())
    }
    fn end_object(&mut self) -> Result<()> {
        match self.stack.pop() {
            Some(Frame::Object(obj)) => self.put(Value::Object(obj.map)),
            _ => unreachable!("parser balances containers"),
        }
    }
}
