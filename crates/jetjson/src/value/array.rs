//! `Array`, the items of a JSON array: an owned vector, or (in a parsed
//! document) items shared in the document's arena and copied out on the
//! first mutation.

use std::fmt;
use std::ops::{Deref, DerefMut, Index, IndexMut};

use super::seq::Seq;
use super::Value;

/// The items of a JSON array, with a `Vec`-like API.
///
/// An array from `Value::from_slice` shares its items with the rest of the
/// parsed document (in one arena); `clone` is then cheap (a reference
/// count), and the first `&mut` access copies the items out into a vector
/// of their own (copy-on-write, shallow: nested containers stay shared).
#[derive(Default)]
pub struct Array(pub(crate) Seq<Value>);

impl Array {
    /// An empty array (allocates nothing).
    pub fn new() -> Array {
        Array(Seq::Owned(Vec::new()))
    }
    /// An empty array with room for `n` items.
    pub fn with_capacity(n: usize) -> Array {
        Array(Seq::Owned(Vec::with_capacity(n)))
    }
    /// The number of items.
    #[inline]
    pub fn len(&self) -> usize {
        self.0.len()
    }
    /// `true` when there are no items.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.len() == 0
    }
    /// The items.
    #[inline]
    pub fn as_slice(&self) -> &[Value] {
        self.0.as_slice()
    }
    /// The items, mutable (copies them out of an arena first).
    pub fn as_mut_slice(&mut self) -> &mut [Value] {
        self.0.make_mut()
    }
    /// The item at `i`.
    #[inline]
    pub fn get(&self, i: usize) -> Option<&Value> {
        self.as_slice().get(i)
    }
    /// The item at `i`, mutable (copies the items out of an arena first).
    pub fn get_mut(&mut self, i: usize) -> Option<&mut Value> {
        self.as_mut_slice().get_mut(i)
    }
    /// The first item.
    #[inline]
    pub fn first(&self) -> Option<&Value> {
        self.as_slice().first()
    }
    /// The last item.
    #[inline]
    pub fn last(&self) -> Option<&Value> {
        self.as_slice().last()
    }
    /// The items in order.
    #[inline]
    pub fn iter(&self) -> std::slice::Iter<'_, Value> {
        self.as_slice().iter()
    }
    /// The items in order, mutable (copies them out of an arena first).
    pub fn iter_mut(&mut self) -> std::slice::IterMut<'_, Value> {
        self.as_mut_slice().iter_mut()
    }
    /// Appends an item.
    pub fn push(&mut self, v: Value) {
        self.0.make_mut().push(v)
    }
    /// Removes and returns the last item.
    pub fn pop(&mut self) -> Option<Value> {
        self.0.make_mut().pop()
    }
    /// Inserts at `i`, shifting later items; panics if `i > len`.
    pub fn insert(&mut self, i: usize, v: Value) {
        self.0.make_mut().insert(i, v)
    }
    /// Removes and returns the item at `i`; panics if `i >= len`.
    pub fn remove(&mut self, i: usize) -> Value {
        self.0.make_mut().remove(i)
    }
    /// Keeps the first `n` items.
    pub fn truncate(&mut self, n: usize) {
        if n < self.len() {
            self.0.make_mut().truncate(n)
        }
    }
    /// Removes every item.
    pub fn clear(&mut self) {
        self.0.clear()
    }
    /// Appends clones of `items`.
    pub fn extend_from_slice(&mut self, items: &[Value]) {
        self.0.make_mut().extend_from_slice(items)
    }
    /// The items as a vector (copied out of an arena if they are there).
    pub fn into_vec(self) -> Vec<Value> {
        self.0.into_vec()
    }
}

impl Clone for Array {
    fn clone(&self) -> Array {
        Array(self.0.clone())
    }
}

impl fmt::Debug for Array {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl PartialEq for Array {
    fn eq(&self, other: &Array) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl PartialEq<Vec<Value>> for Array {
    fn eq(&self, other: &Vec<Value>) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl PartialEq<[Value]> for Array {
    fn eq(&self, other: &[Value]) -> bool {
        self.as_slice() == other
    }
}

impl Deref for Array {
    type Target = [Value];
    #[inline]
    fn deref(&self) -> &[Value] {
        self.as_slice()
    }
}

/// Copies the items out of an arena first (see the type's documentation).
impl DerefMut for Array {
    fn deref_mut(&mut self) -> &mut [Value] {
        self.as_mut_slice()
    }
}

impl Index<usize> for Array {
    type Output = Value;
    #[inline]
    fn index(&self, i: usize) -> &Value {
        &self.as_slice()[i]
    }
}

impl IndexMut<usize> for Array {
    fn index_mut(&mut self, i: usize) -> &mut Value {
        &mut self.as_mut_slice()[i]
    }
}

impl From<Vec<Value>> for Array {
    fn from(v: Vec<Value>) -> Array {
        Array(Seq::Owned(v))
    }
}

impl From<Array> for Vec<Value> {
    fn from(a: Array) -> Vec<Value> {
        a.into_vec()
    }
}

impl FromIterator<Value> for Array {
    fn from_iter<I: IntoIterator<Item = Value>>(iter: I) -> Array {
        Array(Seq::Owned(iter.into_iter().collect()))
    }
}

impl Extend<Value> for Array {
    fn extend<I: IntoIterator<Item = Value>>(&mut self, iter: I) {
        self.0.make_mut().extend(iter)
    }
}

impl IntoIterator for Array {
    type Item = Value;
    type IntoIter = std::vec::IntoIter<Value>;
    fn into_iter(self) -> Self::IntoIter {
        self.into_vec().into_iter()
    }
}

impl<'a> IntoIterator for &'a Array {
    type Item = &'a Value;
    type IntoIter = std::slice::Iter<'a, Value>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<'a> IntoIterator for &'a mut Array {
    type Item = &'a mut Value;
    type IntoIter = std::slice::IterMut<'a, Value>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter_mut()
    }
}

/// As a JSON array.
impl serde::Serialize for Array {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

/// From a JSON array (anything else is an "invalid type" error).
impl<'de> serde::Deserialize<'de> for Array {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Array, D::Error> {
        match Value::deserialize(d)? {
            Value::Array(items) => Ok(items),
            other => Err(serde::de::Error::invalid_type(serde::de::Unexpected::Other(other.type_name()), &"a JSON array")),
        }
    }
}
