//! The serde door: a `Value` (or `RawJson`) read through jetjson's own
//! serde `Deserializer` (`jetjson::from_slice::<Value>`, a `Value` field of
//! a typed struct) is built by the direct builder (or checked by the
//! driver), not assembled call by call through serde's `Visitor`.
//!
//! `Value`'s `Deserialize` asks for a newtype struct named `VALUE_TOKEN`
//! (any other deserializer hands it over as a newtype struct, or as the
//! value itself, and the generic visitor builds it as before). Here the
//! deserializer answers by walking the value with the push driver into the
//! `Value` builder (`value/build.rs`), at the deserializer's position, and
//! hands the finished value to the visitor through a per-thread slot:
//! serde has no visitor call that takes a `Value`, and a cast between the
//! visitor's type and `Value` would be unsound whenever someone else's
//! visitor asked for that name. The slot is filled just before the
//! visitor's `visit_newtype_struct` and emptied just after; any visitor
//! other than `Value`'s finds in its argument a deserializer that says the
//! name is private.
//!
//! `RawJson` asks for `RAW_TOKEN`: the value is checked by the driver and
//! lent to the visitor as the text of the input it spans (a map with one
//! private key, as serde_json does for `RawValue`; text, so that the
//! `RawJson` knows its bytes are UTF-8 and writes them without a check).
//!
//! When the driver finds the value invalid, the deserializer reads it again
//! the generic way, which says what is wrong and where, as before.

use std::cell::Cell;

use serde::de::{self, Visitor};

use super::de::Deserializer;
use super::ReadOptions;
use crate::error::{Error, Result};
use crate::value::Value;

/// The newtype name `Value`'s `Deserialize` asks for.
pub(crate) const VALUE_TOKEN: &str = "$jetjson::private::Value";

thread_local! {
    /// The value built for the visitor being called (see the module docs).
    static HANDED: Cell<Option<Value>> = const { Cell::new(None) };
}

/// The value the deserializer built for the `Value` visitor now running,
/// if any (taken: a second call finds none).
pub(crate) fn take_handed() -> Option<Value> {
    HANDED.try_with(Cell::take).ok().flatten()
}

/// The options of the deserializer's parser for a walk of one value, nested
/// `depth` containers deep. The walk does not recurse, so it takes the
/// `max_depth` the caller set, not the serde path's lower ceiling
/// (`SERDE_DEPTH_CEILING`).
fn nested_options(de: &Deserializer<'_>) -> ReadOptions {
    let p = &de.p;
    ReadOptions::new().duplicate_keys(p.duplicates).max_depth(p.asked_depth.saturating_sub(de.depth))
}

/// `deserialize_newtype_struct(VALUE_TOKEN, visitor)`.
pub(super) fn value<'de, V: Visitor<'de>>(de: &mut Deserializer<'de>, visitor: V) -> Result<V::Value> {
    // Numbers kept as text have no place in serde's calls: lossless reading
    // keeps the generic way and its rules (see `ReadOptions::lossless_numbers`).
    if !de.p.lossless_numbers {
        de.p.skip_ws();
        let start = de.p.i;
        let whole = de.depth == 0;
        if let Some((value, end)) = crate::value::value_at(de.p.b, start, whole, &nested_options(de))? {
            de.p.i = end;
            let _ = HANDED.try_with(|slot| slot.set(Some(value)));
            let result = visitor.visit_newtype_struct(Handed);
            // Emptied whatever the visitor did with it.
            drop(take_handed());
            return result;
        }
        de.p.i = start;
    }
    generic(de, visitor)
}

/// The generic way (`Value`'s and `RawJson`'s visitors read the
/// deserializer themselves), with the door closed for the values inside:
/// the driver already refused this one, and trying it again at every level
/// of nesting would cost the size of the value times its depth.
fn generic<'de, V: Visitor<'de>>(de: &mut Deserializer<'de>, visitor: V) -> Result<V::Value> {
    let door = std::mem::replace(&mut de.door, false);
    let result = visitor.visit_newtype_struct(&mut *de);
    de.door = door;
    result
}

/// `deserialize_newtype_struct(RAW_TOKEN, visitor)`.
pub(super) fn raw<'de, V: Visitor<'de>>(de: &mut Deserializer<'de>, visitor: V) -> Result<V::Value> {
    de.p.skip_ws();
    let start = de.p.i;
    let b: &'de [u8] = de.p.b;
    if let Some(end) = super::parser::check_value_at(b, start, &nested_options(de))? {
        de.p.i = end;
        // SAFETY: the driver accepted `start..end` as one JSON value: ASCII
        // outside strings, and every string body checked as UTF-8.
        let text = unsafe { std::str::from_utf8_unchecked(&b[start..end]) };
        return visitor.visit_map(RawAccess { raw: Some(text) });
    }
    // Invalid there: the generic way says what is wrong.
    generic(de, visitor)
}

/// What the `Value` visitor's argument is when the value was built here.
struct Handed;

impl<'de> de::Deserializer<'de> for Handed {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value> {
        Err(de::Error::custom(format!("{VALUE_TOKEN} is private to jetjson::Value")))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

/// The one member `{RAW_TOKEN: <the raw text>}`.
struct RawAccess<'de> {
    raw: Option<&'de str>,
}

impl<'de> de::MapAccess<'de> for RawAccess<'de> {
    type Error = Error;

    fn next_key_seed<K: de::DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if self.raw.is_none() {
            return Ok(None);
        }
        seed.deserialize(de::value::BorrowedStrDeserializer::new(crate::raw::RAW_TOKEN)).map(Some)
    }

    fn next_value_seed<S: de::DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value> {
        let raw = self.raw.take().ok_or_else(|| <Error as de::Error>::custom("raw JSON read twice"))?;
        seed.deserialize(de::value::BorrowedStrDeserializer::new(raw))
    }
}
