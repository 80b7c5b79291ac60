//! `from_value`: a `Value` as a serde `Deserializer`, so any `Deserialize`
//! type can be read out of a tree (`jetjson::from_value::<T>(v)`,
//! `T::deserialize(&v)`).
//!
//! One walker serves both forms. Through `&'de Value` strings are lent to
//! the visitor (`visit_borrowed_str`, so `&str` fields borrow from the
//! tree); through an owned `Value` they are handed over as `visit_str`.
//! Errors name the path to the value they are about (`$.items[3].price`).

use super::MAX_CONVERT_DEPTH;
use std::marker::PhantomData;

use serde::de::{self, DeserializeSeed, IntoDeserializer, Visitor};

use super::{Number, Str, Value};
use crate::error::{Error, ErrorKind, Result};

/// How a string of the tree reaches a visitor.
pub(crate) trait Lend<'a, 'de> {
    fn text<V: Visitor<'de>>(text: &'a str, visitor: V) -> Result<V::Value>;
}

/// Strings lent for `'de` (the tree is borrowed for `'de`).
pub(crate) struct Borrow;

impl<'de> Lend<'de, 'de> for Borrow {
    fn text<V: Visitor<'de>>(text: &'de str, visitor: V) -> Result<V::Value> {
        visitor.visit_borrowed_str(text)
    }
}

/// Strings shown for the call only (the tree is owned by the caller).
pub(crate) struct Copy;

impl<'a, 'de> Lend<'a, 'de> for Copy {
    fn text<V: Visitor<'de>>(text: &'a str, visitor: V) -> Result<V::Value> {
        visitor.visit_str(text)
    }
}

/// One value of the tree, `depth` containers deep.
pub(crate) struct De<'a, L> {
    v: &'a Value,
    depth: usize,
    /// The conversion's stack floor (`stack::level`): set anew when the
    /// levels below move to a new stack, so the children made there
    /// take it.
    floor: std::cell::Cell<usize>,
    lend: PhantomData<L>,
}

impl<'a, L> De<'a, L> {
    pub(crate) fn new(v: &'a Value) -> De<'a, L> {
        De { v, depth: 0, floor: std::cell::Cell::new(crate::stack::floor()), lend: PhantomData }
    }

    fn child(&self, v: &'a Value) -> De<'a, L> {
        De { v, depth: self.depth + 1, floor: self.floor.clone(), lend: PhantomData }
    }

    /// Runs `read`, the recursion into the container here, with room on
    /// the stack for it.
    #[inline(always)]
    fn inside<R>(&self, read: impl FnOnce() -> R) -> R {
        crate::stack::level(self.floor.get(), |floor| {
            self.floor.set(floor);
            read()
        })
    }

    /// Refuses a container opened deeper than a `Value` can be written.
    fn enter(&self) -> Result<()> {
        if self.depth >= MAX_CONVERT_DEPTH {
            return Err(Error::new(ErrorKind::RecursionCeiling { ceiling: MAX_CONVERT_DEPTH, max_depth: None }));
        }
        Ok(())
    }
}

/// A number kept as text: integers up to 128 bits go to the 128-bit
/// visitors, anything else as its nearest double; a literal beyond the
/// double range is refused (as the parser's serde path refuses it).
fn big_number<'de, V: Visitor<'de>>(text: &str, visitor: V) -> Result<V::Value> {
    if let Ok(i) = text.parse::<i128>() {
        return visitor.visit_i128(i);
    }
    if let Ok(u) = text.parse::<u128>() {
        return visitor.visit_u128(u);
    }
    float_number(text, visitor)
}

/// A number kept as text, as its nearest double; a literal beyond the
/// double range is refused.
fn float_number<'de, V: Visitor<'de>>(text: &str, visitor: V) -> Result<V::Value> {
    match crate::parse::literal_to_f64(text.as_bytes()) {
        Some(f) => visitor.visit_f64(f),
        None => Err(crate::parse::out_of_range(text)),
    }
}

fn number<'de, V: Visitor<'de>>(n: &Number, visitor: V) -> Result<V::Value> {
    match n {
        Number::Int(i) => visitor.visit_i64(*i),
        Number::UInt(u) => visitor.visit_u64(*u),
        Number::Float(f) => visitor.visit_f64(*f),
        Number::Big(text) => big_number(text, visitor),
    }
}

/// What a value is, for serde's "invalid type" messages.
fn unexpected(v: &Value) -> de::Unexpected<'_> {
    match v {
        Value::Null => de::Unexpected::Unit,
        Value::Bool(b) => de::Unexpected::Bool(*b),
        Value::Number(Number::Int(i)) => de::Unexpected::Signed(*i),
        Value::Number(Number::UInt(u)) => de::Unexpected::Unsigned(*u),
        Value::Number(Number::Float(f)) => de::Unexpected::Float(*f),
        Value::Number(Number::Big(_)) => de::Unexpected::Other("number"),
        Value::String(s) => de::Unexpected::Str(s),
        Value::Array(_) => de::Unexpected::Seq,
        Value::Object(_) => de::Unexpected::Map,
    }
}

impl<'a, 'de, L: Lend<'a, 'de>> de::Deserializer<'de> for De<'a, L> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.v {
            Value::Null => visitor.visit_unit(),
            Value::Bool(b) => visitor.visit_bool(*b),
            Value::Number(n) => number(n, visitor),
            Value::String(s) => L::text(s.as_str(), visitor),
            Value::Array(items) => {
                self.enter()?;
                let mut seq = Items { de: &self, items: items.iter(), next: 0 };
                let value = self.inside(|| visitor.visit_seq(&mut seq))?;
                match seq.items.len() {
                    0 => Ok(value),
                    left => Err(de::Error::invalid_length(seq.next + left, &"fewer items in the array")),
                }
            }
            Value::Object(map) => {
                self.enter()?;
                let mut members = Members { de: &self, members: map.members().iter(), value: None };
                let value = self.inside(|| visitor.visit_map(&mut members))?;
                match members.members.len() {
                    0 => Ok(value),
                    _ => Err(de::Error::invalid_length(map.len(), &"fewer members in the object")),
                }
            }
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.v {
            Value::Null => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, _name: &'static str, visitor: V) -> Result<V::Value> {
        visitor.visit_newtype_struct(self)
    }

    /// A unit variant as a string, any other variant as `{"Variant": value}`.
    fn deserialize_enum<V: Visitor<'de>>(self, _name: &'static str, _variants: &'static [&'static str], visitor: V) -> Result<V::Value> {
        match self.v {
            Value::String(s) => visitor.visit_enum(Variant { de: &self, name: s, value: None }),
            Value::Object(map) if map.len() == 1 => {
                self.enter()?;
                let (name, value) = &map.members()[0];
                self.inside(|| visitor.visit_enum(Variant { de: &self, name, value: Some(value) }))
            }
            other => Err(de::Error::invalid_type(unexpected(other), &"a string or an object of one member for an enum")),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_unit()
    }

    /// A float type takes every number as its nearest double: an integer
    /// beyond 64 bits too (which it would refuse as a 128-bit integer).
    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.v {
            Value::Number(Number::Big(text)) => float_number(text, visitor),
            _ => self.deserialize_any(visitor),
        }
    }

    /// An `f32` takes a number's nearest `f32`; one beyond its range is an
    /// error (serde's `f32` would cast the double to an infinity).
    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.v {
            Value::Number(Number::Big(text)) => visitor.visit_f32(crate::parse::f32_of(text)?),
            Value::Number(Number::Float(f)) if f.is_finite() && (*f as f32).is_infinite() => {
                Err(crate::parse::out_of_range(&f.to_string()))
            }
            _ => self.deserialize_any(visitor),
        }
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 char str string
        bytes byte_buf unit unit_struct seq tuple tuple_struct map struct identifier
    }
}

/// The items of an array.
struct Items<'s, 'a, L> {
    de: &'s De<'a, L>,
    items: std::slice::Iter<'a, Value>,
    next: usize,
}

impl<'a, 'de, L: Lend<'a, 'de>> de::SeqAccess<'de> for Items<'_, 'a, L> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        let Some(item) = self.items.next() else { return Ok(None) };
        let i = self.next;
        self.next += 1;
        seed.deserialize(self.de.child(item)).map(Some).map_err(|e| e.in_index(i))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.items.len())
    }
}

/// The members of an object.
struct Members<'s, 'a, L> {
    de: &'s De<'a, L>,
    members: std::slice::Iter<'a, (Str, Value)>,
    /// The member whose name was handed out last.
    value: Option<&'a (Str, Value)>,
}

impl<'a, 'de, L: Lend<'a, 'de>> de::MapAccess<'de> for Members<'_, 'a, L> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        let Some(member) = self.members.next() else { return Ok(None) };
        self.value = Some(member);
        seed.deserialize(Name::<L> { name: &member.0, lend: PhantomData }).map(Some).map_err(|e| e.in_key(&member.0))
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        let Some((name, value)) = self.value.take() else {
            return Err(Error::new(ErrorKind::Custom("a member's value was asked for before its name".into())));
        };
        seed.deserialize(self.de.child(value)).map_err(|e| e.in_key(name))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.members.len())
    }
}

/// A member name: a string, or the digits of an integer-keyed map's key
/// (`{"1": ...}` into a map of `u32`), or a unit variant's name.
struct Name<'a, L> {
    name: &'a Str,
    lend: PhantomData<L>,
}

impl<'a, 'de, L: Lend<'a, 'de>> de::Deserializer<'de> for Name<'a, L> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        L::text(self.name.as_str(), visitor)
    }

    crate::name_keys::typed_name_methods!(|name| name.name.as_str());

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, _name: &'static str, visitor: V) -> Result<V::Value> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(self, _name: &'static str, _variants: &'static [&'static str], visitor: V) -> Result<V::Value> {
        visitor.visit_enum(IntoDeserializer::<Error>::into_deserializer(self.name.as_str()))
    }

    serde::forward_to_deserialize_any! {
        f32 f64 char str string bytes byte_buf option unit unit_struct seq tuple
        tuple_struct map struct identifier ignored_any
    }
}

/// An enum: the variant's name, and its value for the non-unit forms.
struct Variant<'s, 'a, L> {
    de: &'s De<'a, L>,
    name: &'a Str,
    value: Option<&'a Value>,
}

impl<'s, 'a, 'de, L: Lend<'a, 'de>> de::EnumAccess<'de> for Variant<'s, 'a, L> {
    type Error = Error;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self)> {
        let variant = seed.deserialize(Name::<L> { name: self.name, lend: PhantomData })?;
        Ok((variant, self))
    }
}

impl<'a, 'de, L: Lend<'a, 'de>> de::VariantAccess<'de> for Variant<'_, 'a, L> {
    type Error = Error;

    fn unit_variant(self) -> Result<()> {
        match self.value {
            None | Some(Value::Null) => Ok(()),
            Some(other) => Err(de::Error::invalid_type(unexpected(other), &"a unit variant")),
        }
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value> {
        match self.value {
            Some(value) => seed.deserialize(self.de.child(value)).map_err(|e| e.in_key(self.name)),
            None => Err(de::Error::invalid_type(de::Unexpected::UnitVariant, &"a newtype variant")),
        }
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        match self.value {
            Some(value @ Value::Array(_)) => {
                de::Deserializer::deserialize_any(self.de.child(value), visitor).map_err(|e| e.in_key(self.name))
            }
            Some(other) => Err(de::Error::invalid_type(unexpected(other), &"an array for a tuple variant")),
            None => Err(de::Error::invalid_type(de::Unexpected::UnitVariant, &"a tuple variant")),
        }
    }

    fn struct_variant<V: Visitor<'de>>(self, _fields: &'static [&'static str], visitor: V) -> Result<V::Value> {
        match self.value {
            Some(value @ Value::Object(_)) => {
                de::Deserializer::deserialize_any(self.de.child(value), visitor).map_err(|e| e.in_key(self.name))
            }
            Some(other) => Err(de::Error::invalid_type(unexpected(other), &"an object for a struct variant")),
            None => Err(de::Error::invalid_type(de::Unexpected::UnitVariant, &"a struct variant")),
        }
    }
}

/// Every `deserialize_*` method of a public deserializer, handed to `De`.
macro_rules! forward_to_de {
    ($lend:ty, $this:ident => $de:expr) => {
        fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            let $this = self;
            de::Deserializer::deserialize_any(De::<$lend>::new($de), visitor)
        }
        fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            let $this = self;
            de::Deserializer::deserialize_option(De::<$lend>::new($de), visitor)
        }
        fn deserialize_newtype_struct<V: Visitor<'de>>(self, name: &'static str, visitor: V) -> Result<V::Value> {
            let $this = self;
            de::Deserializer::deserialize_newtype_struct(De::<$lend>::new($de), name, visitor)
        }
        fn deserialize_enum<V: Visitor<'de>>(self, name: &'static str, variants: &'static [&'static str], visitor: V) -> Result<V::Value> {
            let $this = self;
            de::Deserializer::deserialize_enum(De::<$lend>::new($de), name, variants, visitor)
        }
        fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            visitor.visit_unit()
        }
        fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            let $this = self;
            de::Deserializer::deserialize_f64(De::<$lend>::new($de), visitor)
        }
        fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            let $this = self;
            de::Deserializer::deserialize_f32(De::<$lend>::new($de), visitor)
        }
        serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 char str string
            bytes byte_buf unit unit_struct seq tuple tuple_struct map struct identifier
        }
    };
}

/// `T::deserialize(&value)`: strings are lent from the tree, so `&str`
/// fields borrow from it.
///
/// ```
/// use serde::Deserialize;
/// let v = jetjson::json!({"name": "jet", "tags": ["a", "b"]});
/// #[derive(Deserialize)]
/// struct Item<'a> { name: &'a str, tags: Vec<&'a str> }
/// let item = Item::deserialize(&v).unwrap();
/// assert_eq!((item.name, item.tags), ("jet", vec!["a", "b"]));
/// ```
impl<'de> de::Deserializer<'de> for &'de Value {
    type Error = Error;
    forward_to_de!(Borrow, this => this);
}

/// `T::deserialize(value)`, as [`from_value`](crate::from_value) does.
impl<'de> de::Deserializer<'de> for Value {
    type Error = Error;
    forward_to_de!(Copy, this => &this);
}

/// A `Value` where serde asks for something that can become a deserializer
/// (for example inside another `Deserialize` implementation).
impl<'de> IntoDeserializer<'de, Error> for Value {
    type Deserializer = Value;
    fn into_deserializer(self) -> Value {
        self
    }
}

/// As for an owned value, with strings lent from the tree.
impl<'de> IntoDeserializer<'de, Error> for &'de Value {
    type Deserializer = &'de Value;
    fn into_deserializer(self) -> &'de Value {
        self
    }
}
