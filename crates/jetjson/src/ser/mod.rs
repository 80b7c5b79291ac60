//! serde front end: `&mut Writer` is a `serde::Serializer`.
//!
//! Every token goes through the writer, so profiles apply to serde types
//! exactly as to `Value`. Maps follow the style's map order and structs its
//! struct order (Go: maps sorted, structs in declaration order). Three private
//! newtype names carry text that must not be written as a plain string: raw
//! JSON, a number's literal text and byte strings that may be invalid UTF-8.

pub(crate) mod compound;
mod item;
mod key;

use serde::ser::{Serialize, Serializer};

use crate::bytestr::BYTESTR_TOKEN;
use crate::error::{Error, ErrorKind, Result};
use crate::raw::RAW_TOKEN;
use crate::value::{door_value, write_value, NUMBER_TOKEN, VALUE_WRITE_TOKEN};
use crate::writer::{Sink, Writer};

pub use compound::Compound;

impl<'a, S: Sink> Serializer for &'a mut Writer<S> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Compound<'a, S>;
    type SerializeTuple = Compound<'a, S>;
    type SerializeTupleStruct = Compound<'a, S>;
    type SerializeTupleVariant = Compound<'a, S>;
    type SerializeMap = Compound<'a, S>;
    type SerializeStruct = Compound<'a, S>;
    type SerializeStructVariant = Compound<'a, S>;

    #[inline]
    fn serialize_bool(self, v: bool) -> Result<()> {
        self.bool(v);
        Ok(())
    }
    #[inline]
    fn serialize_i8(self, v: i8) -> Result<()> {
        self.i64(i64::from(v))
    }
    #[inline]
    fn serialize_i16(self, v: i16) -> Result<()> {
        self.i64(i64::from(v))
    }
    #[inline]
    fn serialize_i32(self, v: i32) -> Result<()> {
        self.i64(i64::from(v))
    }
    #[inline]
    fn serialize_i64(self, v: i64) -> Result<()> {
        self.i64(v)
    }
    fn serialize_i128(self, v: i128) -> Result<()> {
        self.i128(v)
    }
    #[inline]
    fn serialize_u8(self, v: u8) -> Result<()> {
        self.u64(u64::from(v))
    }
    #[inline]
    fn serialize_u16(self, v: u16) -> Result<()> {
        self.u64(u64::from(v))
    }
    #[inline]
    fn serialize_u32(self, v: u32) -> Result<()> {
        self.u64(u64::from(v))
    }
    #[inline]
    fn serialize_u64(self, v: u64) -> Result<()> {
        self.u64(v)
    }
    fn serialize_u128(self, v: u128) -> Result<()> {
        self.u128(v)
    }
    #[inline]
    fn serialize_f32(self, v: f32) -> Result<()> {
        self.f32(v)
    }
    #[inline]
    fn serialize_f64(self, v: f64) -> Result<()> {
        self.lean_f64(v)
    }
    fn serialize_char(self, v: char) -> Result<()> {
        self.str(v.encode_utf8(&mut [0; 4]))
    }
    #[inline]
    fn serialize_str(self, v: &str) -> Result<()> {
        self.str(v)
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<()> {
        self.bytes(v)
    }
    #[inline]
    fn serialize_none(self) -> Result<()> {
        self.null();
        Ok(())
    }
    #[inline]
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<()> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<()> {
        self.null();
        Ok(())
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<()> {
        self.null();
        Ok(())
    }
    fn serialize_unit_variant(self, _name: &'static str, _index: u32, variant: &'static str) -> Result<()> {
        self.str(variant)
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(self, name: &'static str, value: &T) -> Result<()> {
        // Private tokens start with '$', which no Rust type name can.
        if name.starts_with('$') {
            let target = match name {
                RAW_TOKEN => TextTarget::Raw,
                NUMBER_TOKEN => TextTarget::Number,
                BYTESTR_TOKEN => TextTarget::ByteStr,
                // A `Value`: written by the `Value` writer (value/ser.rs).
                VALUE_WRITE_TOKEN => match door_value(value) {
                    Some(v) => return write_value(self, v),
                    None => return value.serialize(self),
                },
                _ => return value.serialize(self),
            };
            return value.serialize(TextSerializer { w: self, target });
        }
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<()> {
        self.check_nesting()?;
        self.begin_object();
        self.static_key(variant, true)?;
        compound::member(self, !self.stack_room(), value).map_err(|e| e.in_key(variant))?;
        self.end_object(false);
        Ok(())
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Compound<'a, S>> {
        self.check_nesting()?;
        self.begin_array();
        Ok(Compound::array(self, false))
    }
    fn serialize_tuple(self, len: usize) -> Result<Compound<'a, S>> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(self, _name: &'static str, len: usize) -> Result<Compound<'a, S>> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(self, _name: &'static str, _index: u32, variant: &'static str, _len: usize) -> Result<Compound<'a, S>> {
        self.check_nesting()?;
        self.begin_object();
        self.static_key(variant, true)?;
        self.check_nesting()?;
        self.begin_array();
        Ok(Compound::array(self, true))
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Compound<'a, S>> {
        self.check_nesting()?;
        let order = self.style().map_order;
        Ok(Compound::object(self, order, false))
    }
    fn serialize_struct(self, name: &'static str, _len: usize) -> Result<Compound<'a, S>> {
        if name.starts_with('$') {
            // serde_json's `arbitrary_precision` numbers and its `RawValue`
            // are private structs with one field of the same name holding
            // their text: written as the number or raw text they stand for
            // (else `{"$serde_json::private::Number":"1.5"}`).
            let target = match name {
                SERDE_JSON_NUMBER => Some(TextTarget::Number),
                SERDE_JSON_RAW => Some(TextTarget::Raw),
                _ => None,
            };
            if let Some(target) = target {
                return Ok(Compound::text(self, target, name));
            }
        }
        self.check_nesting()?;
        let order = self.style().struct_order;
        Ok(Compound::object(self, order, false))
    }
    fn serialize_struct_variant(self, _name: &'static str, _index: u32, variant: &'static str, _len: usize) -> Result<Compound<'a, S>> {
        self.check_nesting()?;
        self.begin_object();
        self.static_key(variant, true)?;
        self.check_nesting()?;
        let order = self.style().struct_order;
        Ok(Compound::object(self, order, true))
    }
}

/// The names serde_json gives the private structs of an
/// `arbitrary_precision` number and of a `RawValue` (and their one field).
pub(crate) const SERDE_JSON_NUMBER: &str = "$serde_json::private::Number";
pub(crate) const SERDE_JSON_RAW: &str = "$serde_json::private::RawValue";

/// What text inside a private newtype stands for.
#[derive(Clone, Copy)]
enum TextTarget {
    Raw,
    Number,
    ByteStr,
}

/// Receives the single `str`/`bytes` inside a private newtype.
struct TextSerializer<'a, S: Sink> {
    w: &'a mut Writer<S>,
    target: TextTarget,
}

impl<S: Sink> TextSerializer<'_, S> {
    fn text(self, bytes: &[u8]) -> Result<()> {
        match self.target {
            TextTarget::Raw => self.w.raw(bytes),
            TextTarget::ByteStr => self.w.bytes_str(bytes),
            TextTarget::Number => match std::str::from_utf8(bytes) {
                Ok(t) => self.w.number_text(t),
                Err(_) => Err(Error::new(ErrorKind::InvalidNumber { text: String::from_utf8_lossy(bytes).into_owned() })),
            },
        }
    }
}

macro_rules! only_text {
    ($($method:ident($($arg:ty),*) -> $ret:ty;)*) => {$(
        fn $method(self, $(_: $arg),*) -> Result<$ret> {
            Err(Error::new(ErrorKind::Custom("expected text inside a jetjson private newtype".into())))
        }
    )*};
}

impl<S: Sink> Serializer for TextSerializer<'_, S> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = serde::ser::Impossible<(), Error>;
    type SerializeTuple = serde::ser::Impossible<(), Error>;
    type SerializeTupleStruct = serde::ser::Impossible<(), Error>;
    type SerializeTupleVariant = serde::ser::Impossible<(), Error>;
    type SerializeMap = serde::ser::Impossible<(), Error>;
    type SerializeStruct = serde::ser::Impossible<(), Error>;
    type SerializeStructVariant = serde::ser::Impossible<(), Error>;

    fn serialize_str(self, v: &str) -> Result<()> {
        self.text(v.as_bytes())
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<()> {
        self.text(v)
    }
    fn serialize_some<T: ?Sized + Serialize>(self, _: &T) -> Result<()> {
        Err(Error::new(ErrorKind::Custom("expected text inside a jetjson private newtype".into())))
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(self, _: &'static str, _: &T) -> Result<()> {
        Err(Error::new(ErrorKind::Custom("expected text inside a jetjson private newtype".into())))
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(self, _: &'static str, _: u32, _: &'static str, _: &T) -> Result<()> {
        Err(Error::new(ErrorKind::Custom("expected text inside a jetjson private newtype".into())))
    }
    only_text! {
        serialize_bool(bool) -> ();
        serialize_i8(i8) -> ();
        serialize_i16(i16) -> ();
        serialize_i32(i32) -> ();
        serialize_i64(i64) -> ();
        serialize_u8(u8) -> ();
        serialize_u16(u16) -> ();
        serialize_u32(u32) -> ();
        serialize_u64(u64) -> ();
        serialize_f32(f32) -> ();
        serialize_f64(f64) -> ();
        serialize_char(char) -> ();
        serialize_none() -> ();
        serialize_unit() -> ();
        serialize_unit_struct(&'static str) -> ();
        serialize_unit_variant(&'static str, u32, &'static str) -> ();
        serialize_seq(Option<usize>) -> Self::SerializeSeq;
        serialize_tuple(usize) -> Self::SerializeTuple;
        serialize_tuple_struct(&'static str, usize) -> Self::SerializeTupleStruct;
        serialize_tuple_variant(&'static str, u32, &'static str, usize) -> Self::SerializeTupleVariant;
        serialize_map(Option<usize>) -> Self::SerializeMap;
        serialize_struct(&'static str, usize) -> Self::SerializeStruct;
        serialize_struct_variant(&'static str, u32, &'static str, usize) -> Self::SerializeStructVariant;
    }
}
