//! Object members in insertion order.
//!
//! A `Vec` of pairs, not a hash map: building and writing (the hot paths of a
//! codec) are a push and a walk, and most objects are small. Lookups are a
//! linear scan; build a `HashMap` from `iter()` for heavy random access.

use super::{Str, Value};

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Map {
    members: Vec<(Str, Value)>,
}

impl Map {
    pub fn new() -> Map {
        Map::default()
    }
    pub fn with_capacity(n: usize) -> Map {
        Map { members: Vec::with_capacity(n) }
    }
    pub fn len(&self) -> usize {
        self.members.len()
    }
    pub fn is_empty(&self) -> bool {
        self.members.is_empty()
    }
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.members.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Value> {
        self.members.iter_mut().find(|(k, _)| k == key).map(|(_, v)| v)
    }
    pub fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }
    /// Sets `key`, replacing (in place) and returning an earlier value.
    pub fn insert(&mut self, key: impl Into<Str>, value: Value) -> Option<Value> {
        let key = key.into();
        match self.get_mut(&key) {
            Some(slot) => Some(std::mem::replace(slot, value)),
            None => {
                self.members.push((key, value));
                None
            }
        }
    }
    /// Appends without looking for an earlier member of the same name (the
    /// parser checks duplicates itself).
    pub fn push(&mut self, key: impl Into<Str>, value: Value) {
        self.members.push((key.into(), value));
    }
    pub fn remove(&mut self, key: &str) -> Option<Value> {
        let i = self.members.iter().position(|(k, _)| k == key)?;
        Some(self.members.remove(i).1)
    }
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&Str, &Value)> {
        self.members.iter().map(|(k, v)| (k, v))
    }
    pub fn keys(&self) -> impl ExactSizeIterator<Item = &Str> {
        self.members.iter().map(|(k, _)| k)
    }
    pub fn values(&self) -> impl ExactSizeIterator<Item = &Value> {
        self.members.iter().map(|(_, v)| v)
    }
    pub(crate) fn from_members(members: Vec<(Str, Value)>) -> Map {
        Map { members }
    }
    pub(crate) fn members(&self) -> &[(Str, Value)] {
        &self.members
    }
}

impl FromIterator<(Str, Value)> for Map {
    fn from_iter<I: IntoIterator<Item = (Str, Value)>>(iter: I) -> Map {
        Map { members: iter.into_iter().collect() }
    }
}

impl IntoIterator for Map {
    type Item = (Str, Value);
    type IntoIter = std::vec::IntoIter<(Str, Value)>;
    fn into_iter(self) -> Self::IntoIter {
        self.members.into_iter()
    }
}

impl<'a> IntoIterator for &'a Map {
    type Item = (&'a Str, &'a Value);
    type IntoIter = std::iter::Map<std::slice::Iter<'a, (Str, Value)>, fn(&'a (Str, Value)) -> (&'a Str, &'a Value)>;
    fn into_iter(self) -> Self::IntoIter {
        self.members.iter().map(|(k, v)| (k, v))
    }
}
