//! `Value`: any JSON document, keeping object insertion order and every
//! number as what it was (integer, float, or literal text).

mod arena;
mod array;
mod build;
mod de;
mod from;
mod map;
mod number;
mod seq;
mod ser;
mod str;
#[cfg(test)]
mod tests;
mod write;

pub use array::Array;
pub(crate) use build::value_at;
pub use map::Map;
pub use number::Number;
pub(crate) use ser::NUMBER_TOKEN;
/// The string type of `Value`: strings up to 22 bytes live inline, so most
/// keys and short values need no allocation of their own.
pub use str::Str;
pub(crate) use write::write_value;

use std::ops::Index;

/// Any JSON value.
///
/// A value from `Value::from_slice` keeps its containers and long strings in
/// one arena per document: parsing allocates a few large blocks instead of
/// one per container or string, and dropping the tree frees them without
/// walking it. The tree is still an ordinary owned, mutable, `Send + Sync`
/// value: `&mut` access to a container copies its items out of the arena
/// first (copy-on-write), and a child kept after the root is dropped keeps
/// the arena alive.
#[derive(Clone, Debug, PartialEq, Default)]
pub enum Value {
    #[default]
    Null,
    Bool(bool),
    Number(Number),
    String(Str),
    Array(Array),
    /// Members in insertion order (duplicates are possible only if built so).
    Object(Map),
}

impl Value {
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }
    pub fn as_number(&self) -> Option<&Number> {
        match self {
            Value::Number(n) => Some(n),
            _ => None,
        }
    }
    pub fn as_i64(&self) -> Option<i64> {
        self.as_number().and_then(Number::as_i64)
    }
    pub fn as_u64(&self) -> Option<u64> {
        self.as_number().and_then(Number::as_u64)
    }
    pub fn as_f64(&self) -> Option<f64> {
        self.as_number().and_then(Number::as_f64)
    }
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }
    pub fn as_array(&self) -> Option<&Array> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }
    pub fn as_array_mut(&mut self) -> Option<&mut Array> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }
    pub fn as_object(&self) -> Option<&Map> {
        match self {
            Value::Object(o) => Some(o),
            _ => None,
        }
    }
    pub fn as_object_mut(&mut self) -> Option<&mut Map> {
        match self {
            Value::Object(o) => Some(o),
            _ => None,
        }
    }
    /// Takes the value out, leaving `null`.
    pub fn take(&mut self) -> Value {
        std::mem::take(self)
    }
    /// The member `key` of an object, or the element at a numeric index of an array.
    pub fn get<I: ValueIndex>(&self, index: I) -> Option<&Value> {
        index.index_into(self)
    }
}

/// Types that can index into a `Value`: `&str` for objects, `usize` for arrays.
pub trait ValueIndex {
    fn index_into<'v>(&self, v: &'v Value) -> Option<&'v Value>;
}

impl ValueIndex for usize {
    fn index_into<'v>(&self, v: &'v Value) -> Option<&'v Value> {
        v.as_array().and_then(|a| a.get(*self))
    }
}

impl ValueIndex for &str {
    fn index_into<'v>(&self, v: &'v Value) -> Option<&'v Value> {
        v.as_object().and_then(|o| o.get(self))
    }
}

impl ValueIndex for String {
    fn index_into<'v>(&self, v: &'v Value) -> Option<&'v Value> {
        self.as_str().index_into(v)
    }
}

static NULL: Value = Value::Null;

/// `value["key"]` and `value[3]`; a missing member reads as `null`, like serde_json.
impl<I: ValueIndex> Index<I> for Value {
    type Output = Value;
    fn index(&self, index: I) -> &Value {
        index.index_into(self).unwrap_or(&NULL)
    }
}
