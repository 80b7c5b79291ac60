//! One array element: its separator goes out with its first token.
//!
//! `Compound::element` hands each element to an `ItemSerializer` instead of
//! writing the `,` itself: a number, a short clean string or a literal is
//! then written together with its separator in one reservation of the
//! output (`Writer::item_f64` and friends), one update of the output length
//! instead of two. In a long array of small values (coordinates, ids)
//! those updates, each waiting on the one before, set the pace. Anything
//! else gets its separator first and is written as the writer writes it.

use serde::ser::{Serialize, Serializer};

use super::compound::Compound;
use crate::error::{Error, Result};
use crate::writer::{Literal, Sink, Writer};

pub(super) struct ItemSerializer<'a, S: Sink> {
    pub w: &'a mut Writer<S>,
    /// No separator before the first element.
    pub first: bool,
}

impl<'a, S: Sink> ItemSerializer<'a, S> {
    /// The separator alone, then the writer itself for what follows.
    #[inline(always)]
    fn separated(self) -> &'a mut Writer<S> {
        self.w.array_item(self.first);
        self.w
    }

    #[inline]
    fn literal(self, literal: Literal) -> Result<()> {
        self.w.item_literal(literal, self.first);
        Ok(())
    }
}

impl<'a, S: Sink> Serializer for ItemSerializer<'a, S> {
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
        self.literal(if v { Literal::True } else { Literal::False })
    }
    #[inline]
    fn serialize_i8(self, v: i8) -> Result<()> {
        self.w.item_i64(i64::from(v), self.first)
    }
    #[inline]
    fn serialize_i16(self, v: i16) -> Result<()> {
        self.w.item_i64(i64::from(v), self.first)
    }
    #[inline]
    fn serialize_i32(self, v: i32) -> Result<()> {
        self.w.item_i64(i64::from(v), self.first)
    }
    #[inline]
    fn serialize_i64(self, v: i64) -> Result<()> {
        self.w.item_i64(v, self.first)
    }
    fn serialize_i128(self, v: i128) -> Result<()> {
        self.separated().i128(v)
    }
    #[inline]
    fn serialize_u8(self, v: u8) -> Result<()> {
        self.w.item_i64(i64::from(v), self.first)
    }
    #[inline]
    fn serialize_u16(self, v: u16) -> Result<()> {
        self.w.item_i64(i64::from(v), self.first)
    }
    #[inline]
    fn serialize_u32(self, v: u32) -> Result<()> {
        self.w.item_i64(i64::from(v), self.first)
    }
    #[inline]
    fn serialize_u64(self, v: u64) -> Result<()> {
        match i64::try_from(v) {
            Ok(small) => self.w.item_i64(small, self.first),
            Err(_) => self.separated().u64(v),
        }
    }
    fn serialize_u128(self, v: u128) -> Result<()> {
        self.separated().u128(v)
    }
    #[inline]
    fn serialize_f32(self, v: f32) -> Result<()> {
        self.separated().f32(v)
    }
    #[inline]
    fn serialize_f64(self, v: f64) -> Result<()> {
        self.w.lean_item_f64(v, self.first)
    }
    fn serialize_char(self, v: char) -> Result<()> {
        self.w.item_str(v.encode_utf8(&mut [0; 4]), self.first)
    }
    #[inline]
    fn serialize_str(self, v: &str) -> Result<()> {
        self.w.item_str(v, self.first)
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<()> {
        self.separated().serialize_bytes(v)
    }
    #[inline]
    fn serialize_none(self) -> Result<()> {
        self.literal(Literal::Null)
    }
    #[inline]
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<()> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<()> {
        self.literal(Literal::Null)
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<()> {
        self.literal(Literal::Null)
    }
    fn serialize_unit_variant(self, _name: &'static str, _index: u32, variant: &'static str) -> Result<()> {
        self.w.item_str(variant, self.first)
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(self, name: &'static str, value: &T) -> Result<()> {
        // The private tokens (raw JSON, number text, byte strings) go to
        // the writer's own serializer, which knows them.
        if name.starts_with('$') {
            return self.separated().serialize_newtype_struct(name, value);
        }
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<()> {
        self.separated().serialize_newtype_variant(name, index, variant, value)
    }
    #[inline(always)]
    fn serialize_seq(self, len: Option<usize>) -> Result<Compound<'a, S>> {
        self.separated().serialize_seq(len)
    }
    #[inline(always)]
    fn serialize_tuple(self, len: usize) -> Result<Compound<'a, S>> {
        self.separated().serialize_tuple(len)
    }
    fn serialize_tuple_struct(self, name: &'static str, len: usize) -> Result<Compound<'a, S>> {
        self.separated().serialize_tuple_struct(name, len)
    }
    fn serialize_tuple_variant(self, name: &'static str, index: u32, variant: &'static str, len: usize) -> Result<Compound<'a, S>> {
        self.separated().serialize_tuple_variant(name, index, variant, len)
    }
    #[inline]
    fn serialize_map(self, len: Option<usize>) -> Result<Compound<'a, S>> {
        self.separated().serialize_map(len)
    }
    #[inline]
    fn serialize_struct(self, name: &'static str, len: usize) -> Result<Compound<'a, S>> {
        self.separated().serialize_struct(name, len)
    }
    fn serialize_struct_variant(self, name: &'static str, index: u32, variant: &'static str, len: usize) -> Result<Compound<'a, S>> {
        self.separated().serialize_struct_variant(name, index, variant, len)
    }
}
