//! serde front end for reading: a `serde::Deserializer` over the parser core.
//!
//! serde pulls values (`deserialize_*` calls), so this walks the document by
//! recursion, which `max_depth` bounds. Strings without escapes are lent to
//! the visitor straight from the input (`visit_borrowed_str`), so `&str`
//! fields and `Cow` borrow instead of copying.

use serde::de::{self, DeserializeSeed, IntoDeserializer, Visitor};

use super::number::NumberValue;
use super::parser::Parser;
use super::{DuplicateKeys, ReadOptions};
use crate::error::{Error, Result};

/// The deepest recursion serde deserialization accepts whatever `max_depth`
/// says: each level is a few stack frames of the target type's code. A
/// `Value` or `RawJson` taking the door (`door.rs`) is read without
/// recursion, under the caller's `max_depth` (`Parser::asked_depth`).
pub(crate) const SERDE_DEPTH_CEILING: usize = 10_000;

pub struct Deserializer<'de> {
    pub(super) p: Parser<'de>,
    pub(super) depth: usize,
    /// Whether a `Value` or `RawJson` may take the door (`door.rs`): not
    /// while one that the driver refused is read again the generic way.
    pub(super) door: bool,
    /// Where the member name most recently handed out started (`None`
    /// once an object ran out of members): errors a struct raises right
    /// after a name ("duplicate field") belong there.
    name_at: Option<usize>,
    /// The stack's floor for the recursion (`stack::floor`), set when the
    /// outermost container opens.
    floor: usize,
}

impl<'de> Deserializer<'de> {
    pub fn from_slice(input: &'de [u8], options: &ReadOptions) -> Result<Deserializer<'de>> {
        let mut options = options.clone();
        let asked = options.max_depth;
        options.max_depth = asked.min(SERDE_DEPTH_CEILING);
        let mut p = Parser::new(input, &options)?;
        p.asked_depth = asked;
        // serde types see every member, so `First` is applied here by
        // skipping repeats; `Last` is what maps do when keys repeat.
        p.track_names = options.duplicate_keys != DuplicateKeys::Last;
        Ok(Deserializer { p, depth: 0, door: true, name_at: None, floor: 0 })
    }

    /// The value at the start, as `T`; an error the type raises after
    /// reading it (an untagged enum that matched no variant) gets the
    /// position where the value starts.
    pub fn value<T: de::Deserialize<'de>>(&mut self) -> Result<T> {
        self.p.skip_ws();
        let at = self.p.i;
        T::deserialize(&mut *self).map_err(|e| self.p.locate(at, e))
    }

    /// After the value: only whitespace may follow.
    pub fn end(&mut self) -> Result<()> {
        self.p.finish()
    }

    /// The offset reading has reached (past the last value read).
    pub(crate) fn offset(&self) -> usize {
        self.p.i
    }

    /// The number at the position, to the visitor, for a target that asked
    /// for `hint`. Its text is only looked at for numbers beyond 64 bits.
    #[inline(always)]
    fn number<V: Visitor<'de>>(&mut self, visitor: V, hint: Hint) -> Result<V::Value> {
        let at = self.p.i;
        let (len, value, is_integer) = self.p.number_value()?;
        if hint == Hint::Float32 {
            return f32_number(self.p.number_text(at, len), visitor);
        }
        match value {
            NumberValue::I64(i) => visitor.visit_i64(i),
            NumberValue::U64(u) => visitor.visit_u64(u),
            // The integer literal `-0` (the double -0.0 otherwise, as
            // serde_json reads it) is 0 to an integer type.
            NumberValue::F64(f) if is_integer && hint == Hint::Integer && f == 0.0 => visitor.visit_i64(0),
            NumberValue::F64(f) => visitor.visit_f64(f),
            NumberValue::Big => big_number(self.p.number_text(at, len), is_integer && hint != Hint::Float64, visitor),
        }
    }

    /// `deserialize_{i,u}{8..128}` and `deserialize_f{32,64}`: a number
    /// goes straight to the visitor; anything else takes the general route
    /// (so the type's own error names what was found).
    #[inline(always)]
    fn deserialize_number<V: Visitor<'de>>(&mut self, visitor: V, hint: Hint) -> Result<V::Value> {
        self.p.skip_ws();
        match self.p.peek() {
            Some(b'-' | b'0'..=b'9') => {
                let at = self.p.i;
                // Errors from the target type ("invalid value: integer
                // `300`, expected u8") get the number's position.
                if let Some(value) = self.p.plain_integer() {
                    // What `number` gives such an integer, without its
                    // sign, fraction and float routes.
                    return visitor.visit_i64(value).map_err(|e| self.p.locate(at, e));
                }
                self.number(visitor, hint).map_err(|e| self.p.locate(at, e))
            }
            _ => de::Deserializer::deserialize_any(self, visitor),
        }
    }

    /// Runs `read`, the recursion into the container just opened, with
    /// room on the stack for it: checked at every level against the
    /// floor (a type's level may take any stack: a large field, an
    /// unoptimised build), below which the levels go on on a new stack.
    /// The floor is taken when the outermost container opens, so each
    /// document starts from the stack it runs on (also after a `read`
    /// that unwound from a new stack, which left its floor behind).
    #[inline(always)]
    fn inside<R>(&mut self, read: impl FnOnce(&mut Self) -> R) -> R {
        if self.depth == 1 {
            self.floor = crate::stack::floor();
        }
        if crate::stack::above(self.floor) {
            return read(self);
        }
        self.inside_new_stack(read)
    }

    #[cold]
    #[inline(never)]
    fn inside_new_stack<R>(&mut self, read: impl FnOnce(&mut Self) -> R) -> R {
        crate::stack::on_new_stack(|| {
            let outer = std::mem::replace(&mut self.floor, crate::stack::floor());
            let r = read(self);
            self.floor = outer;
            r
        })
    }

    #[inline(always)]
    fn open(&mut self) -> Result<()> {
        self.p.enter(self.depth)?;
        self.depth += 1;
        self.p.i += 1;
        Ok(())
    }

    #[inline(always)]
    fn close(&mut self, byte: u8, what: &str) -> Result<()> {
        self.depth -= 1;
        if self.p.eat(byte) {
            Ok(())
        } else {
            Err(self.p.unexpected(what))
        }
    }
}

/// What the target asked the deserializer for: a number's route to its
/// visitor depends on it where the JSON text alone does not decide.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Hint {
    /// `deserialize_any` (untyped targets: `Value`, untagged enums...).
    Any,
    /// `deserialize_{i,u}{8..128}`.
    Integer,
    /// `deserialize_f64`: every number as its nearest double (an integer
    /// beyond 64 bits too, which serde's float types would refuse as a
    /// 128-bit integer).
    Float64,
    /// `deserialize_f32`: every number as its nearest `f32`, rounded once
    /// from its text (through a double it could round twice).
    Float32,
}

/// A number for an `f32` target (`number::f32_of`).
#[inline(never)]
fn f32_number<'de, V: Visitor<'de>>(text: &str, visitor: V) -> Result<V::Value> {
    visitor.visit_f32(super::number::f32_of(text)?)
}

/// Integers beyond 64 bits that fit 128 go to the 128-bit visitors (when
/// `as_integer`); anything else becomes the nearest double, as serde_json
/// does.
#[cold]
fn big_number<'de, V: Visitor<'de>>(text: &str, as_integer: bool, visitor: V) -> Result<V::Value> {
    if as_integer {
        if let Ok(i) = text.parse::<i128>() {
            return visitor.visit_i128(i);
        }
        if let Ok(u) = text.parse::<u128>() {
            return visitor.visit_u128(u);
        }
    }
    match super::literal_to_f64(text.as_bytes()) {
        Some(f) => visitor.visit_f64(f),
        // No double stands for 1e400; an infinity would be a silent
        // change of the data.
        None => Err(super::number::out_of_range(text)),
    }
}

macro_rules! numbers {
    ($hint:expr => $($method:ident),*) => {$(
        #[inline]
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            self.deserialize_number(visitor, $hint)
        }
    )*};
}

impl<'de> de::Deserializer<'de> for &mut Deserializer<'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.p.skip_ws();
        let at = self.p.i;
        let value = match self.p.peek() {
            Some(b'"') => {
                let s = self.p.string()?;
                match s.borrowed {
                    Some(text) => visitor.visit_borrowed_str(text),
                    None => visitor.visit_str(&self.p.scratch),
                }
            }
            Some(b'-' | b'0'..=b'9') => self.number(visitor, Hint::Any),
            Some(b'{') => {
                self.open()?;
                self.p.open_object_names();
                let value = self.inside(|de| visitor.visit_map(Members { de, first: true, track: true }));
                self.p.close_object_names();
                match value {
                    Ok(value) => self.close(b'}', "',' or '}' after object member").map(|_| value),
                    Err(e) => Err(e),
                }
            }
            Some(b'[') => {
                self.open()?;
                let mut start = self.p.i;
                match self.inside(|de| visitor.visit_seq(Elements { de, first: true, start: &mut start })) {
                    Ok(value) => self.close(b']', "',' or ']' after array element").map(|_| value),
                    Err(e) => Err(self.p.locate(start, e)),
                }
            }
            Some(b't') => {
                self.p.literal(b"true")?;
                visitor.visit_bool(true)
            }
            Some(b'f') => {
                self.p.literal(b"false")?;
                visitor.visit_bool(false)
            }
            Some(b'n') => {
                self.p.literal(b"null")?;
                visitor.visit_unit()
            }
            _ => return Err(self.p.unexpected("a JSON value")),
        };
        // Errors from the target type ("invalid type", "missing field")
        // get the position of the value they are about.
        value.map_err(|e| self.p.locate(at, e))
    }

    /// Arrays into sequences and tuples (`Vec<T>`, `[f64; 2]`) without the
    /// general dispatch; anything else takes it (for the type's error).
    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.p.skip_ws();
        if self.p.peek() != Some(b'[') {
            return self.deserialize_any(visitor);
        }
        let at = self.p.i;
        self.open()?;
        let mut start = at;
        let value = match self.inside(|de| visitor.visit_seq(Elements { de, first: true, start: &mut start })) {
            Ok(value) => self.close(b']', "',' or ']' after array element").map(|_| value),
            Err(e) => Err(self.p.locate(start, e)),
        };
        value.map_err(|e| self.p.locate(at, e))
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.p.skip_ws();
        if self.p.peek() == Some(b'n') {
            self.p.literal(b"null")?;
            visitor.visit_none()
        } else {
            visitor.visit_some(self)
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, name: &'static str, visitor: V) -> Result<V::Value> {
        match name {
            // `Value` and `RawJson` straight to the builder and the driver.
            super::door::VALUE_TOKEN if self.door => super::door::value(self, visitor),
            crate::raw::RAW_TOKEN if self.door => super::door::raw(self, visitor),
            _ => visitor.visit_newtype_struct(self),
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(self, _name: &'static str, _variants: &'static [&'static str], visitor: V) -> Result<V::Value> {
        self.p.skip_ws();
        let at = self.p.i;
        match self.p.peek() {
            // A unit variant as a string.
            Some(b'"') => {
                let s = self.p.string()?;
                let name: String = self.p.text(&s).to_owned();
                visitor.visit_enum(IntoDeserializer::<'de, Error>::into_deserializer(name)).map_err(|e: Error| self.p.locate(at, e))
            }
            // Any other variant as {"Variant": value}.
            Some(b'{') => {
                self.open()?;
                let value = self.inside(|de| visitor.visit_enum(VariantAccess { de }))?;
                self.close(b'}', "'}' after the single member of an enum variant object")?;
                Ok(value)
            }
            _ => Err(self.p.unexpected("a string or an object for an enum")),
        }
    }

    /// Structs check their own fields: serde's derive refuses a repeated
    /// field ("duplicate field"), and unknown members are skipped whether or
    /// not they repeat. So the parser does not track this object's names
    /// (objects nested in it are tracked as usual).
    fn deserialize_struct<V: Visitor<'de>>(self, _name: &'static str, _fields: &'static [&'static str], visitor: V) -> Result<V::Value> {
        self.p.skip_ws();
        if self.p.peek() != Some(b'{') {
            return self.deserialize_any(visitor);
        }
        let at = self.p.i;
        self.open()?;
        match self.inside(|de| visitor.visit_map(Members { de, first: true, track: false })) {
            Ok(value) => self.close(b'}', "',' or '}' after object member").map(|_| value).map_err(|e| self.p.locate(at, e)),
            // After a name: that member; after the last one ("missing
            // field"): the object.
            Err(e) => Err(self.p.locate(self.name_at.unwrap_or(at), e)),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_any(de::IgnoredAny)?;
        visitor.visit_unit()
    }

    numbers! {
        Hint::Integer =>
        deserialize_i8, deserialize_i16, deserialize_i32, deserialize_i64, deserialize_i128,
        deserialize_u8, deserialize_u16, deserialize_u32, deserialize_u64, deserialize_u128
    }
    numbers! { Hint::Float64 => deserialize_f64 }
    numbers! { Hint::Float32 => deserialize_f32 }

    serde::forward_to_deserialize_any! {
        bool char str string bytes byte_buf unit unit_struct tuple_struct map identifier
    }
}

/// The elements of an array.
struct Elements<'a, 'de> {
    de: &'a mut Deserializer<'de>,
    first: bool,
    /// Where the element being read starts (a store per element, in the
    /// caller's frame: an error its type raises after reading it, an
    /// untagged or internally tagged enum that matched no variant, is
    /// placed there, not at the array's `[`; a position kept across the
    /// element's call cost typed parses 2-3%).
    start: &'a mut usize,
}

impl<'de> Elements<'_, 'de> {
    /// Moves to the next element: true if there is one (the position is
    /// then at its first byte or at whitespace before it), false at ']'.
    ///
    /// The first element usually follows the '[' at once, and the others
    /// their ',' at once or after one space (number arrays): these are
    /// answered from the bytes at the position, read with one bounds
    /// check. Other whitespace
    /// after the ',' (pretty-printed arrays) goes to the whitespace skip;
    /// whitespace before a ',', the end of the array and errors take
    /// `advance_slow`.
    #[inline(always)]
    fn advance(&mut self) -> Result<bool> {
        let p = &mut self.de.p;
        if self.first {
            // Right after '[': a value's first byte (never whitespace or
            // ']') starts the first element (pairs of coordinates).
            if let Some(&c) = p.b.get(p.i) {
                if c > b' ' && c != b']' {
                    self.first = false;
                    return Ok(true);
                }
                // `[]` (8,685 of citm_catalog's arrays): no call.
                if c == b']' {
                    return Ok(false);
                }
            }
        } else if let Some(&[b',', next, after]) = p.b.get(p.i..p.i + 3) {
            // A value's first byte is never whitespace (<= ' ') or ']'.
            if next > b' ' && next != b']' {
                p.i += 1;
                return Ok(true);
            }
            if next == b' ' && after > b' ' && after != b']' {
                p.i += 2;
                return Ok(true);
            }
            p.i += 1;
            p.skip_ws();
            if p.peek() == Some(b']') {
                return Err(p.error_at(p.i, "expected a value after ','"));
            }
            return Ok(true);
        }
        self.advance_slow()
    }

    /// Inlined into each sequence's loop (out of line, its call was most
    /// of the cost of each array's end and of the first element of a
    /// pretty-printed one: typed canada 3.6% slower, citm_catalog 2%).
    #[inline(always)]
    fn advance_slow(&mut self) -> Result<bool> {
        let p = &mut self.de.p;
        p.skip_ws();
        match p.peek() {
            Some(b']') => return Ok(false),
            Some(b',') if !self.first => {
                p.i += 1;
                p.skip_ws();
                if p.peek() == Some(b']') {
                    return Err(p.error_at(p.i, "expected a value after ','"));
                }
            }
            Some(_) if self.first => {}
            // The input ends before the first element: as the builder says it.
            None if self.first => return Err(p.unexpected("a JSON value")),
            _ => return Err(p.unexpected("',' or ']' after array element")),
        }
        self.first = false;
        Ok(true)
    }
}

impl<'de> de::SeqAccess<'de> for Elements<'_, 'de> {
    type Error = Error;

    #[inline(always)]
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if !self.advance()? {
            return Ok(None);
        }
        *self.start = self.de.p.i;
        seed.deserialize(&mut *self.de).map(Some)
    }

    /// As the provided method, but inlined into the sequence's loop (with
    /// the element's own `deserialize`), so an element of a number array
    /// costs no call.
    #[inline(always)]
    fn next_element<T: de::Deserialize<'de>>(&mut self) -> Result<Option<T>> {
        if !self.advance()? {
            return Ok(None);
        }
        *self.start = self.de.p.i;
        T::deserialize(&mut *self.de).map(Some)
    }
}

/// The members of an object.
struct Members<'a, 'de> {
    de: &'a mut Deserializer<'de>,
    first: bool,
    /// Whether this object's names go through the duplicate check.
    track: bool,
}

impl<'de> de::MapAccess<'de> for Members<'_, 'de> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        loop {
            let p = &mut self.de.p;
            p.skip_ws();
            match p.peek() {
                Some(b'}') => {
                    self.de.name_at = None;
                    return Ok(None);
                }
                Some(b',') if !self.first => {
                    p.i += 1;
                    p.skip_ws();
                }
                Some(_) if self.first => {}
                // The input ends before the first member: as the builder says it.
                None if self.first => return Err(p.unexpected("'\"' to start an object member name")),
                _ => return Err(p.unexpected("',' or '}' after object member")),
            }
            self.first = false;
            let at = p.i;
            match p.peek() {
                Some(b'"') => {}
                // After a ',' (a `}` first ended the object above): as the
                // parser says it.
                Some(b'}') => return Err(p.error_at(at, "expected an object member name after ','")),
                _ => return Err(p.unexpected("'\"' to start an object member name")),
            }
            let s = p.string()?;
            if self.track && !p.check_name(&s, at)? {
                // `DuplicateKeys::First`: the repeat and its value are skipped.
                if !p.eat(b':') {
                    return Err(p.unexpected("':' after object member name"));
                }
                de::Deserializer::deserialize_ignored_any(&mut *self.de, de::IgnoredAny)?;
                continue;
            }
            let key = seed.deserialize(MemberName { p: &*p, s });
            let key = key.map_err(|e| self.de.p.locate(at, e))?;
            if !self.de.p.eat(b':') {
                return Err(self.de.p.unexpected("':' after object member name"));
            }
            self.de.name_at = Some(at);
            return Ok(Some(key));
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        seed.deserialize(&mut *self.de)
    }
}

/// A member name, already parsed: lent to the key's type as a string, or
/// read as a number for integer-keyed maps (`{"1": ...}` into a map of u32).
struct MemberName<'a, 'de> {
    p: &'a Parser<'de>,
    s: super::parser::Str<'de>,
}

impl<'de> de::Deserializer<'de> for MemberName<'_, 'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.s.borrowed {
            Some(text) => visitor.visit_borrowed_str(text),
            None => visitor.visit_str(&self.p.scratch),
        }
    }

    crate::name_keys::typed_name_methods!(|name| name.p.text(&name.s));

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, _name: &'static str, visitor: V) -> Result<V::Value> {
        visitor.visit_newtype_struct(self)
    }

    serde::forward_to_deserialize_any! {
        f32 f64 char str string bytes byte_buf option unit unit_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

/// `{"Variant": value}`.
struct VariantAccess<'a, 'de> {
    de: &'a mut Deserializer<'de>,
}

impl<'de> de::EnumAccess<'de> for VariantAccess<'_, 'de> {
    type Error = Error;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self)> {
        let p = &mut self.de.p;
        p.skip_ws();
        let at = p.i;
        if p.peek() != Some(b'"') {
            return Err(p.unexpected("a variant name"));
        }
        let s = p.string()?;
        let variant = seed.deserialize(MemberName { p: &*p, s }).map_err(|e| self.de.p.locate(at, e))?;
        if !self.de.p.eat(b':') {
            return Err(self.de.p.unexpected("':' after the variant name"));
        }
        Ok((variant, self))
    }
}

impl<'de> de::VariantAccess<'de> for VariantAccess<'_, 'de> {
    type Error = Error;

    fn unit_variant(self) -> Result<()> {
        de::Deserialize::deserialize(&mut *self.de)
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value> {
        seed.deserialize(&mut *self.de)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        de::Deserializer::deserialize_seq(&mut *self.de, visitor)
    }

    fn struct_variant<V: Visitor<'de>>(self, _fields: &'static [&'static str], visitor: V) -> Result<V::Value> {
        de::Deserializer::deserialize_map(&mut *self.de, visitor)
    }
}
