//! Map keys: strings as they are; integers, bools and chars as their text
//! (Go and serde_json both write integer map keys as strings).

use serde::ser::{Impossible, Serialize, Serializer};

use crate::error::{Error, ErrorKind, Result};
use crate::writer::{Sink, SortedObject, Writer};

pub(super) enum KeyTarget<'a> {
    /// Written in place, with its separators.
    Direct { first: bool },
    /// Recorded for sorting.
    Sorted(&'a mut SortedObject),
}

pub(super) struct MapKeySerializer<'a, 'b, S: Sink> {
    pub w: &'a mut Writer<S>,
    pub target: KeyTarget<'b>,
}

impl<S: Sink> MapKeySerializer<'_, '_, S> {
    fn emit(self, key: &[u8]) -> Result<()> {
        match self.target {
            KeyTarget::Direct { first } => match std::str::from_utf8(key) {
                Ok(k) => self.w.key(k, first),
                Err(_) => self.w.bytes_key(key, first),
            },
            KeyTarget::Sorted(obj) => self.w.sorted_bytes_key(obj, key),
        }
    }

    fn emit_str(self, key: &str) -> Result<()> {
        match self.target {
            KeyTarget::Direct { first } => self.w.key(key, first),
            KeyTarget::Sorted(obj) => self.w.sorted_key(obj, key),
        }
    }
}

fn not_a_string() -> Error {
    Error::new(ErrorKind::KeyMustBeString)
}

macro_rules! integer_keys {
    ($($method:ident($t:ty);)*) => {$(
        fn $method(self, v: $t) -> Result<()> {
            let mut digits = itoa::Buffer::new();
            let digits = digits.format(v).as_bytes();
            match self.target {
                // Digits and '-' need no escaping in any profile.
                KeyTarget::Direct { first } => {
                    self.w.clean_key(digits, first);
                    Ok(())
                }
                KeyTarget::Sorted(obj) => self.w.sorted_key(obj, std::str::from_utf8(digits).expect("digits are ASCII")),
            }
        }
    )*};
}

macro_rules! refused_keys {
    ($($method:ident($($arg:ty),*) -> $ret:ty;)*) => {$(
        fn $method(self, $(_: $arg),*) -> Result<$ret> {
            Err(not_a_string())
        }
    )*};
}

impl<S: Sink> Serializer for MapKeySerializer<'_, '_, S> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Impossible<(), Error>;
    type SerializeTuple = Impossible<(), Error>;
    type SerializeTupleStruct = Impossible<(), Error>;
    type SerializeTupleVariant = Impossible<(), Error>;
    type SerializeMap = Impossible<(), Error>;
    type SerializeStruct = Impossible<(), Error>;
    type SerializeStructVariant = Impossible<(), Error>;

    #[inline]
    fn serialize_str(self, v: &str) -> Result<()> {
        self.emit_str(v)
    }
    fn serialize_char(self, v: char) -> Result<()> {
        self.emit_str(v.encode_utf8(&mut [0; 4]))
    }
    fn serialize_bool(self, v: bool) -> Result<()> {
        self.emit_str(if v { "true" } else { "false" })
    }
    /// Byte-string keys (`ByteStr`) follow the profile's invalid-text policy.
    fn serialize_bytes(self, v: &[u8]) -> Result<()> {
        self.emit(v)
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Result<()> {
        self.emit_str(variant)
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(self, _: &'static str, value: &T) -> Result<()> {
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
    /// `Some(k)` as `k`, as serde_json writes it (`None` is refused).
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<()> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(self, _: &'static str, _: u32, _: &'static str, _: &T) -> Result<()> {
        Err(not_a_string())
    }
    refused_keys! {
        serialize_f32(f32) -> ();
        serialize_f64(f64) -> ();
        serialize_none() -> ();
        serialize_unit() -> ();
        serialize_unit_struct(&'static str) -> ();
        serialize_seq(Option<usize>) -> Self::SerializeSeq;
        serialize_tuple(usize) -> Self::SerializeTuple;
        serialize_tuple_struct(&'static str, usize) -> Self::SerializeTupleStruct;
        serialize_tuple_variant(&'static str, u32, &'static str, usize) -> Self::SerializeTupleVariant;
        serialize_map(Option<usize>) -> Self::SerializeMap;
        serialize_struct(&'static str, usize) -> Self::SerializeStruct;
        serialize_struct_variant(&'static str, u32, &'static str, usize) -> Self::SerializeStructVariant;
    }
}
