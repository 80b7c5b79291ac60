//! Object members in insertion order.
//!
//! A `Vec` of pairs, not a hash map: building and writing (the hot paths of a
//! codec) are a push and a walk, and most objects are small. Lookups are a
//! linear scan; build a `HashMap` from `iter()` for heavy random access.
//!
//! A map from `Value::from_slice` shares its members with the rest of the
//! parsed document (in one arena): `clone` is a reference count, and the
//! first `&mut` access copies the members out (copy-on-write, shallow).

use super::seq::Seq;
use super::{Str, Value};

/// The members of a JSON object, in insertion order (see the module notes:
/// a vector of pairs, looked up by a linear scan).
///
/// ```
/// let mut m = jetjson::Map::new();
/// m.insert("b", jetjson::json!(1));
/// m.insert("a", jetjson::json!(2));
/// assert_eq!(m.keys().map(|k| k.as_str()).collect::<Vec<_>>(), ["b", "a"]);
/// assert_eq!(m.get("a"), Some(&jetjson::json!(2)));
/// ```
#[derive(Clone, Default)]
pub struct Map {
    pub(crate) members: Seq<(Str, Value)>,
}

impl std::fmt::Debug for Map {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Map").field("members", &self.members()).finish()
    }
}

impl PartialEq for Map {
    fn eq(&self, other: &Map) -> bool {
        self.members() == other.members()
    }
}

impl Map {
    /// An empty map (allocates nothing).
    pub fn new() -> Map {
        Map::default()
    }
    /// An empty map with room for `n` members.
    pub fn with_capacity(n: usize) -> Map {
        Map { members: Seq::Owned(Vec::with_capacity(n)) }
    }
    /// The number of members.
    pub fn len(&self) -> usize {
        self.members.len()
    }
    /// `true` when there are no members.
    pub fn is_empty(&self) -> bool {
        self.members.len() == 0
    }
    /// The value of the first member named `key`.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.members().iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }
    /// The value of `key`, mutable (copies the members out of an arena
    /// first, if `key` is there).
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Value> {
        let i = self.members().iter().position(|(k, _)| k == key)?;
        Some(&mut self.members.make_mut()[i].1)
    }
    /// `true` if a member is named `key`.
    pub fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }
    /// Sets `key`, replacing (in place) and returning an earlier value.
    pub fn insert(&mut self, key: impl Into<Str>, value: Value) -> Option<Value> {
        let key = key.into();
        match self.get_mut(&key) {
            Some(slot) => Some(std::mem::replace(slot, value)),
            None => {
                self.members.make_mut().push((key, value));
                None
            }
        }
    }
    /// Appends without looking for an earlier member of the same name (the
    /// parser checks duplicates itself).
    pub fn push(&mut self, key: impl Into<Str>, value: Value) {
        self.members.make_mut().push((key.into(), value));
    }
    /// Removes the first member named `key` (later members keep their
    /// order) and returns its value.
    pub fn remove(&mut self, key: &str) -> Option<Value> {
        let i = self.members().iter().position(|(k, _)| k == key)?;
        Some(self.members.make_mut().remove(i).1)
    }
    /// Removes every member.
    pub fn clear(&mut self) {
        self.members.clear()
    }
    /// The members in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&Str, &Value)> {
        self.members().iter().map(|(k, v)| (k, v))
    }
    /// Members' values, mutable (copies the members out of an arena first).
    pub fn iter_mut(&mut self) -> impl ExactSizeIterator<Item = (&Str, &mut Value)> {
        self.members.make_mut().iter_mut().map(|(k, v)| (&*k, v))
    }
    /// The names in order.
    pub fn keys(&self) -> impl ExactSizeIterator<Item = &Str> {
        self.members().iter().map(|(k, _)| k)
    }
    /// The values in order.
    pub fn values(&self) -> impl ExactSizeIterator<Item = &Value> {
        self.members().iter().map(|(_, v)| v)
    }
    /// The values in order, mutable (copies the members out of an arena first).
    pub fn values_mut(&mut self) -> impl ExactSizeIterator<Item = &mut Value> {
        self.members.make_mut().iter_mut().map(|(_, v)| v)
    }
    /// The value of `key`, inserted as `null` at the end if missing
    /// (what `value[key] = ...` writes to).
    pub(crate) fn get_or_insert_null(&mut self, key: &str) -> &mut Value {
        let i = match self.members().iter().position(|(k, _)| k == key) {
            Some(i) => i,
            None => {
                self.members.make_mut().push((Str::new(key), Value::Null));
                self.len() - 1
            }
        };
        &mut self.members.make_mut()[i].1
    }
    pub(crate) fn from_members(members: Vec<(Str, Value)>) -> Map {
        Map { members: Seq::Owned(members) }
    }
    #[inline]
    pub(crate) fn members(&self) -> &[(Str, Value)] {
        self.members.as_slice()
    }
}

impl FromIterator<(Str, Value)> for Map {
    fn from_iter<I: IntoIterator<Item = (Str, Value)>>(iter: I) -> Map {
        Map { members: Seq::Owned(iter.into_iter().collect()) }
    }
}

impl IntoIterator for Map {
    type Item = (Str, Value);
    type IntoIter = std::vec::IntoIter<(Str, Value)>;
    fn into_iter(self) -> Self::IntoIter {
        self.members.into_vec().into_iter()
    }
}

impl<'a> IntoIterator for &'a Map {
    type Item = (&'a Str, &'a Value);
    type IntoIter = std::iter::Map<std::slice::Iter<'a, (Str, Value)>, fn(&'a (Str, Value)) -> (&'a Str, &'a Value)>;
    fn into_iter(self) -> Self::IntoIter {
        self.members().iter().map(|(k, v)| (k, v))
    }
}

/// As a JSON object, members in order.
impl serde::Serialize for Map {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(self.len()))?;
        for (k, v) in self.iter() {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

/// From a JSON object (anything else is an "invalid type" error).
impl<'de> serde::Deserialize<'de> for Map {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Map, D::Error> {
        match Value::deserialize(d)? {
            Value::Object(map) => Ok(map),
            other => Err(serde::de::Error::invalid_type(serde::de::Unexpected::Other(other.type_name()), &"a JSON object")),
        }
    }
}
