//! `to_value`: any `Serialize` type as a `Value`, through a serializer
//! that builds the tree instead of writing bytes.
//!
//! The tree holds what the writer would write, minus what only a profile
//! decides: numbers keep their exact value (128-bit integers and number
//! text included), raw JSON is parsed, and objects keep their order (a
//! `Value` does not remember which objects were structs, so in `go` all
//! of its objects are written sorted, as Go writes maps).

use super::MAX_CONVERT_DEPTH;
use serde::ser::{self, Impossible, Serialize};

use super::{Array, Map, Number, Str, Value};
use crate::bytestr::BYTESTR_TOKEN;
use crate::error::{Error, ErrorKind, Result};
use crate::parse::{DuplicateKeys, ReadOptions};
use crate::raw::RAW_TOKEN;
use crate::ser::compound::private_struct_error;
use crate::ser::{SERDE_JSON_NUMBER, SERDE_JSON_RAW};
use crate::value::NUMBER_TOKEN;

/// Builds a `Value`; `depth` is the number of containers open around it,
/// `floor` the stack floor of the conversion (`stack::level`).
#[derive(Clone, Copy)]
pub(crate) struct ValueSerializer {
    pub(crate) depth: usize,
    pub(crate) floor: usize,
}

impl ValueSerializer {
    /// The serializer of a conversion that starts here.
    pub(crate) fn new() -> ValueSerializer {
        ValueSerializer { depth: 0, floor: crate::stack::floor() }
    }

    /// The serializer for the items of a container opened here.
    fn inner(self) -> Result<ValueSerializer> {
        if self.depth >= MAX_CONVERT_DEPTH {
            return Err(Error::new(ErrorKind::RecursionCeiling { ceiling: MAX_CONVERT_DEPTH, max_depth: None }));
        }
        Ok(ValueSerializer { depth: self.depth + 1, floor: self.floor })
    }

    /// `value` made one level down, with room on the stack for it.
    #[inline(always)]
    fn below<T: ?Sized + Serialize>(self, value: &T) -> Result<Value> {
        crate::stack::level(self.floor, |floor| value.serialize(ValueSerializer { floor, ..self }))
    }
}

/// A text that is not UTF-8 where a `Value` needs a string.
fn not_utf8() -> Error {
    Error::new(ErrorKind::Unsupported { what: "a string that is not valid UTF-8 (a Value holds UTF-8 text)".into() })
}

/// `f32` as the double nearest to its shortest decimal form (`0.1f32` is
/// `0.1`, not `0.10000000149011612`): the digits the writer gives the
/// `f32` itself (its tie-breaking, which is Go's and serde_json's; Rust's
/// `Display` breaks some ties the other way), and at most 9 significant
/// digits, which a double keeps and gives back when written.
fn f32_as_f64(v: f32) -> f64 {
    if !v.is_finite() {
        return f64::from(v);
    }
    let mut digits = Vec::with_capacity(24);
    crate::number::write_f32(&mut digits, v, crate::number::FloatLayout::Compact);
    std::str::from_utf8(&digits).ok().and_then(|t| t.parse().ok()).unwrap_or(f64::from(v))
}

impl ser::Serializer for ValueSerializer {
    type Ok = Value;
    type Error = Error;
    type SerializeSeq = Items;
    type SerializeTuple = Items;
    type SerializeTupleStruct = Items;
    type SerializeTupleVariant = Items;
    type SerializeMap = Members;
    type SerializeStruct = Members;
    type SerializeStructVariant = Members;

    fn serialize_bool(self, v: bool) -> Result<Value> {
        Ok(Value::Bool(v))
    }
    fn serialize_i8(self, v: i8) -> Result<Value> {
        Ok(Value::from(v))
    }
    fn serialize_i16(self, v: i16) -> Result<Value> {
        Ok(Value::from(v))
    }
    fn serialize_i32(self, v: i32) -> Result<Value> {
        Ok(Value::from(v))
    }
    fn serialize_i64(self, v: i64) -> Result<Value> {
        Ok(Value::from(v))
    }
    fn serialize_i128(self, v: i128) -> Result<Value> {
        Ok(Value::from(v))
    }
    fn serialize_u8(self, v: u8) -> Result<Value> {
        Ok(Value::from(v))
    }
    fn serialize_u16(self, v: u16) -> Result<Value> {
        Ok(Value::from(v))
    }
    fn serialize_u32(self, v: u32) -> Result<Value> {
        Ok(Value::from(v))
    }
    fn serialize_u64(self, v: u64) -> Result<Value> {
        Ok(Value::from(v))
    }
    fn serialize_u128(self, v: u128) -> Result<Value> {
        Ok(Value::from(v))
    }
    /// NaN and ±Infinity become `null`, as in serde_json (`From<f64>`).
    fn serialize_f32(self, v: f32) -> Result<Value> {
        Ok(Value::from(f32_as_f64(v)))
    }
    fn serialize_f64(self, v: f64) -> Result<Value> {
        Ok(Value::from(v))
    }
    fn serialize_char(self, v: char) -> Result<Value> {
        Ok(Value::String(Str::from(v)))
    }
    fn serialize_str(self, v: &str) -> Result<Value> {
        Ok(Value::String(Str::new(v)))
    }
    /// An array of numbers, as serde_json's `to_value` makes (the `go`
    /// profile's base64 is a choice of the writer; see `jetjson::base64`
    /// for a field that is base64 everywhere).
    fn serialize_bytes(self, v: &[u8]) -> Result<Value> {
        Ok(Value::Array(v.iter().map(|&b| Value::from(b)).collect()))
    }
    fn serialize_none(self) -> Result<Value> {
        Ok(Value::Null)
    }
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<Value> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<Value> {
        Ok(Value::Null)
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<Value> {
        Ok(Value::Null)
    }
    fn serialize_unit_variant(self, _name: &'static str, _index: u32, variant: &'static str) -> Result<Value> {
        Ok(Value::String(Str::new(variant)))
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(self, name: &'static str, value: &T) -> Result<Value> {
        let target = match name {
            RAW_TOKEN => Text::Raw,
            NUMBER_TOKEN => Text::Number,
            BYTESTR_TOKEN => Text::ByteStr,
            _ => return value.serialize(self),
        };
        value.serialize(TextSerializer(target))
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<Value> {
        let inner = self.inner()?;
        let inner = inner.below(value).map_err(|e| e.in_key(variant))?;
        let mut map = Map::with_capacity(1);
        map.push(variant, inner);
        Ok(Value::Object(map))
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<Items> {
        Ok(Items { items: Vec::with_capacity(len.unwrap_or(0).min(4096)), variant: None, inner: self.inner()? })
    }
    fn serialize_tuple(self, len: usize) -> Result<Items> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(self, _name: &'static str, len: usize) -> Result<Items> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(self, _name: &'static str, _index: u32, variant: &'static str, len: usize) -> Result<Items> {
        let mut items = self.serialize_seq(Some(len))?;
        items.variant = Some(variant);
        Ok(items)
    }
    fn serialize_map(self, len: Option<usize>) -> Result<Members> {
        Ok(Members { map: Map::with_capacity(len.unwrap_or(0).min(4096)), key: None, variant: None, text: None, inner: self.inner()? })
    }
    fn serialize_struct(self, name: &'static str, len: usize) -> Result<Members> {
        // serde_json's `arbitrary_precision` numbers and its `RawValue`:
        // private structs whose one field holds their text, made into the
        // number or value they stand for, as `to_vec` writes them.
        let text = match name {
            SERDE_JSON_NUMBER => Some(Text::Number),
            SERDE_JSON_RAW => Some(Text::Raw),
            _ => None,
        };
        let mut members = self.serialize_map(Some(len))?;
        members.text = text.map(|t| PrivateText { target: t, name, value: None });
        Ok(members)
    }
    fn serialize_struct_variant(self, _name: &'static str, _index: u32, variant: &'static str, len: usize) -> Result<Members> {
        let mut members = self.serialize_map(Some(len))?;
        members.variant = Some(variant);
        Ok(members)
    }
}

/// `{variant: value}` for the variant forms of enums.
fn wrap(variant: Option<&'static str>, value: Value) -> Value {
    match variant {
        None => value,
        Some(name) => {
            let mut map = Map::with_capacity(1);
            map.push(name, value);
            Value::Object(map)
        }
    }
}

/// The items of an array being built.
pub(crate) struct Items {
    items: Vec<Value>,
    variant: Option<&'static str>,
    inner: ValueSerializer,
}

impl Items {
    fn push<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        let i = self.items.len();
        let inner = self.inner;
        let v = inner.below(value).map_err(|e| e.in_index(i))?;
        self.items.push(v);
        Ok(())
    }

    fn done(self) -> Result<Value> {
        let value = Value::Array(Array::from(self.items));
        Ok(wrap(self.variant, value))
    }
}

impl ser::SerializeSeq for Items {
    type Ok = Value;
    type Error = Error;
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.push(value)
    }
    fn end(self) -> Result<Value> {
        self.done()
    }
}

impl ser::SerializeTuple for Items {
    type Ok = Value;
    type Error = Error;
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.push(value)
    }
    fn end(self) -> Result<Value> {
        self.done()
    }
}

impl ser::SerializeTupleStruct for Items {
    type Ok = Value;
    type Error = Error;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.push(value)
    }
    fn end(self) -> Result<Value> {
        self.done()
    }
}

impl ser::SerializeTupleVariant for Items {
    type Ok = Value;
    type Error = Error;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.push(value)
    }
    fn end(self) -> Result<Value> {
        self.done()
    }
}

/// The members of an object being built. A name given twice keeps its
/// first place and takes the later value (as a `Value` read with
/// `DuplicateKeys::Last` does).
pub(crate) struct Members {
    map: Map,
    key: Option<Str>,
    variant: Option<&'static str>,
    /// Set for serde_json's private structs (`serialize_struct`).
    text: Option<PrivateText>,
    inner: ValueSerializer,
}

/// A private struct of serde_json: what its one field's text stands for,
/// the struct's (and field's) name, and the value once the field is given.
struct PrivateText {
    target: Text,
    name: &'static str,
    value: Option<Value>,
}

impl Members {
    fn member<T: ?Sized + Serialize>(&mut self, key: Str, value: &T) -> Result<()> {
        let inner = self.inner;
        let v = inner.below(value).map_err(|e| e.in_key(&key))?;
        self.map.insert(key, v);
        Ok(())
    }

    fn done(self) -> Result<Value> {
        Ok(wrap(self.variant, Value::Object(self.map)))
    }
}

impl ser::SerializeMap for Members {
    type Ok = Value;
    type Error = Error;
    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<()> {
        self.key = Some(key.serialize(KeySerializer)?);
        Ok(())
    }
    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        let key = self.key.take().ok_or_else(|| Error::new(ErrorKind::Custom("serialize_value called before serialize_key".into())))?;
        self.member(key, value)
    }
    fn end(self) -> Result<Value> {
        self.done()
    }
}

impl ser::SerializeStruct for Members {
    type Ok = Value;
    type Error = Error;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, key: &'static str, value: &T) -> Result<()> {
        match &mut self.text {
            None => self.member(Str::new(key), value),
            Some(p) if key == p.name && p.value.is_none() => {
                p.value = Some(value.serialize(TextSerializer(p.target))?);
                Ok(())
            }
            Some(p) => Err(private_struct_error(p.name)),
        }
    }
    fn end(self) -> Result<Value> {
        match self.text {
            None => self.done(),
            Some(p) => p.value.ok_or_else(|| private_struct_error(p.name)),
        }
    }
}

impl ser::SerializeStructVariant for Members {
    type Ok = Value;
    type Error = Error;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, key: &'static str, value: &T) -> Result<()> {
        self.member(Str::new(key), value)
    }
    fn end(self) -> Result<Value> {
        self.done()
    }
}

/// Map keys, as the writer takes them: strings, chars, booleans, integers
/// (as their digits) and unit variants; anything else is
/// [`ErrorKind::KeyMustBeString`].
struct KeySerializer;

fn key_must_be_string() -> Error {
    Error::new(ErrorKind::KeyMustBeString)
}

macro_rules! integer_keys {
    ($($method:ident($t:ty);)*) => {$(
        fn $method(self, v: $t) -> Result<Str> {
            Ok(Str::new(itoa::Buffer::new().format(v)))
        }
    )*};
}

macro_rules! refused {
    ($error:ident; $($method:ident($($arg:ty),*) -> $ret:ty;)*) => {$(
        fn $method(self, $(_: $arg),*) -> Result<$ret> {
            Err($error())
        }
    )*};
}

impl ser::Serializer for KeySerializer {
    type Ok = Str;
    type Error = Error;
    type SerializeSeq = Impossible<Str, Error>;
    type SerializeTuple = Impossible<Str, Error>;
    type SerializeTupleStruct = Impossible<Str, Error>;
    type SerializeTupleVariant = Impossible<Str, Error>;
    type SerializeMap = Impossible<Str, Error>;
    type SerializeStruct = Impossible<Str, Error>;
    type SerializeStructVariant = Impossible<Str, Error>;

    fn serialize_str(self, v: &str) -> Result<Str> {
        Ok(Str::new(v))
    }
    fn serialize_char(self, v: char) -> Result<Str> {
        Ok(Str::from(v))
    }
    fn serialize_bool(self, v: bool) -> Result<Str> {
        Ok(Str::new(if v { "true" } else { "false" }))
    }
    /// Byte-string keys (`ByteStr`) must be UTF-8 here.
    fn serialize_bytes(self, v: &[u8]) -> Result<Str> {
        std::str::from_utf8(v).map(Str::new).map_err(|_| not_utf8())
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Result<Str> {
        Ok(Str::new(variant))
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(self, _: &'static str, value: &T) -> Result<Str> {
        value.serialize(self)
    }
    integer_keys! {
        serialize_i8(i8);
        serialize_i16(i16);
        serialize_i32(i32);
        serialize_i64(i64);
        serialize_i128(i128);
        serialize_u8(u8);
        serialize_u16(u16);
        serialize_u32(u32);
        serialize_u64(u64);
        serialize_u128(u128);
    }
    /// `Some(k)` as `k`, as serde_json's `to_value` takes it (`None` is refused).
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<Str> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(self, _: &'static str, _: u32, _: &'static str, _: &T) -> Result<Str> {
        Err(key_must_be_string())
    }
    refused! { key_must_be_string;
        serialize_f32(f32) -> Str;
        serialize_f64(f64) -> Str;
        serialize_none() -> Str;
        serialize_unit() -> Str;
        serialize_unit_struct(&'static str) -> Str;
        serialize_seq(Option<usize>) -> Self::SerializeSeq;
        serialize_tuple(usize) -> Self::SerializeTuple;
        serialize_tuple_struct(&'static str, usize) -> Self::SerializeTupleStruct;
        serialize_tuple_variant(&'static str, u32, &'static str, usize) -> Self::SerializeTupleVariant;
        serialize_map(Option<usize>) -> Self::SerializeMap;
        serialize_struct(&'static str, usize) -> Self::SerializeStruct;
        serialize_struct_variant(&'static str, u32, &'static str, usize) -> Self::SerializeStructVariant;
    }
}

/// What the text inside a private newtype stands for.
#[derive(Clone, Copy)]
enum Text {
    Raw,
    Number,
    ByteStr,
}

/// Receives the single `str`/`bytes` inside a private newtype.
struct TextSerializer(Text);

impl TextSerializer {
    fn text(self, bytes: &[u8]) -> Result<Value> {
        match self.0 {
            Text::Raw => {
                // Raw JSON was validated when it was made (unless made
                // unchecked); here it is read as `Value::from_slice` reads,
                // with a repeated name keeping its last value.
                let options = ReadOptions::default().duplicate_keys(DuplicateKeys::Last);
                crate::parse::from_slice_with(bytes, &options)
            }
            Text::ByteStr => std::str::from_utf8(bytes).map(|s| Value::String(Str::new(s))).map_err(|_| not_utf8()),
            Text::Number => match std::str::from_utf8(bytes).ok().and_then(Number::from_literal) {
                Some(n) => Ok(Value::Number(n)),
                None => Err(Error::new(ErrorKind::InvalidNumber { text: String::from_utf8_lossy(bytes).into_owned() })),
            },
        }
    }
}

fn refusal() -> Error {
    Error::new(ErrorKind::Custom("expected text inside a jetjson private newtype".into()))
}

impl ser::Serializer for TextSerializer {
    type Ok = Value;
    type Error = Error;
    type SerializeSeq = Impossible<Value, Error>;
    type SerializeTuple = Impossible<Value, Error>;
    type SerializeTupleStruct = Impossible<Value, Error>;
    type SerializeTupleVariant = Impossible<Value, Error>;
    type SerializeMap = Impossible<Value, Error>;
    type SerializeStruct = Impossible<Value, Error>;
    type SerializeStructVariant = Impossible<Value, Error>;

    fn serialize_str(self, v: &str) -> Result<Value> {
        self.text(v.as_bytes())
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<Value> {
        self.text(v)
    }
    fn serialize_some<T: ?Sized + Serialize>(self, _: &T) -> Result<Value> {
        Err(refusal())
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(self, _: &'static str, _: &T) -> Result<Value> {
        Err(refusal())
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(self, _: &'static str, _: u32, _: &'static str, _: &T) -> Result<Value> {
        Err(refusal())
    }
    refused! { refusal;
        serialize_bool(bool) -> Value;
        serialize_i8(i8) -> Value;
        serialize_i16(i16) -> Value;
        serialize_i32(i32) -> Value;
        serialize_i64(i64) -> Value;
        serialize_u8(u8) -> Value;
        serialize_u16(u16) -> Value;
        serialize_u32(u32) -> Value;
        serialize_u64(u64) -> Value;
        serialize_f32(f32) -> Value;
        serialize_f64(f64) -> Value;
        serialize_char(char) -> Value;
        serialize_none() -> Value;
        serialize_unit() -> Value;
        serialize_unit_struct(&'static str) -> Value;
        serialize_unit_variant(&'static str, u32, &'static str) -> Value;
        serialize_seq(Option<usize>) -> Self::SerializeSeq;
        serialize_tuple(usize) -> Self::SerializeTuple;
        serialize_tuple_struct(&'static str, usize) -> Self::SerializeTupleStruct;
        serialize_tuple_variant(&'static str, u32, &'static str, usize) -> Self::SerializeTupleVariant;
        serialize_map(Option<usize>) -> Self::SerializeMap;
        serialize_struct(&'static str, usize) -> Self::SerializeStruct;
        serialize_struct_variant(&'static str, u32, &'static str, usize) -> Self::SerializeStructVariant;
    }
}
