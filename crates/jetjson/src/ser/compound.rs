//! The state of an array or object being written by serde.

use serde::ser::{
    Serialize, SerializeMap, SerializeSeq, SerializeStruct, SerializeStructVariant, SerializeTuple, SerializeTupleStruct,
    SerializeTupleVariant,
};

use super::item::ItemSerializer;
use super::key::{KeyTarget, MapKeySerializer};
use super::{TextSerializer, TextTarget};
use crate::error::{Error, ErrorKind, Result};
use crate::options::KeyOrder;
use crate::writer::{Sink, SortedObject, Writer};

#[doc(hidden)]
pub struct Compound<'a, S: Sink> {
    w: &'a mut Writer<S>,
    state: State,
    /// Tuple and struct variants sit inside `{"Variant": ...}`.
    close_variant: bool,
    /// The stack was below the serde write's floor when the container
    /// opened (`Writer::serde_write`): its items and members are written
    /// on a new stack.
    low: bool,
}

enum State {
    Array {
        len: usize,
    },
    Object {
        len: usize,
    },
    Sorted {
        obj: SortedObject,
        order: KeyOrder,
    },
    /// A private struct (`name`) whose one field, of the same name, is
    /// text written as `target` says; `done` once it is.
    Text {
        target: TextTarget,
        name: &'static str,
        done: bool,
    },
}

impl<'a, S: Sink> Compound<'a, S> {
    /// After `begin_array`.
    #[inline]
    pub(super) fn array(w: &'a mut Writer<S>, close_variant: bool) -> Self {
        let low = !w.stack_room();
        Compound { w, state: State::Array { len: 0 }, close_variant, low }
    }

    /// Opens an object whose members come in `order`.
    #[inline]
    pub(super) fn object(w: &'a mut Writer<S>, order: KeyOrder, close_variant: bool) -> Self {
        let state = if order == KeyOrder::Insertion {
            w.begin_object();
            State::Object { len: 0 }
        } else {
            State::Sorted { obj: w.begin_sorted_object(), order }
        };
        let low = !w.stack_room();
        Compound { w, state, close_variant, low }
    }

    /// A private struct standing for text (serde_json's numbers and raw
    /// values): nothing written until its field comes.
    pub(super) fn text(w: &'a mut Writer<S>, target: TextTarget, name: &'static str) -> Self {
        Compound { w, state: State::Text { target, name, done: false }, close_variant: false, low: false }
    }

    #[inline(always)]
    fn element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        let State::Array { len } = &mut self.state else { unreachable!("element in an object") };
        let index = *len;
        *len += 1;
        if !self.low { write_item(self.w, value, index == 0) } else { self.w.write_on_new_stack(value, index == 0, write_item::<S, T>) }
            .map_err(|e| e.in_index(index))?;
        // Numbers and literals do not spill by themselves (see `Writer::spill_if_full`).
        self.w.spill_if_full()
    }

    #[inline]
    fn field<T: ?Sized + Serialize>(&mut self, key: &'static str, value: &T) -> Result<()> {
        match &mut self.state {
            State::Object { len } => {
                self.w.static_key(key, *len == 0)?;
                *len += 1;
                member(self.w, self.low, value).map_err(|e| e.in_key(key))?;
                self.w.spill_if_full()
            }
            State::Sorted { obj, .. } => {
                self.w.sorted_static_key(obj, key)?;
                member(self.w, self.low, value).map_err(|e| e.in_key(key))?;
                self.w.sorted_value_done(obj);
                Ok(())
            }
            State::Array { .. } => unreachable!("field in an array"),
            State::Text { target, name, done } => {
                if key != *name || *done {
                    return Err(private_struct_error(name));
                }
                *done = true;
                value.serialize(TextSerializer { w: &mut *self.w, target: *target })
            }
        }
    }

    /// Closes the container: arrays and objects in line (a tuple such as a
    /// coordinate pair ends once per few elements, where a call cost more
    /// than the bracket), sorted objects and variants out of line.
    #[inline(always)]
    fn finish(self) -> Result<()> {
        match self.state {
            State::Array { len } if !self.close_variant => self.w.end_array(len == 0),
            State::Object { len } if !self.close_variant => self.w.end_object(len == 0),
            _ => return self.finish_other(),
        }
        Ok(())
    }

    #[inline(never)]
    fn finish_other(self) -> Result<()> {
        match self.state {
            State::Array { len } => self.w.end_array(len == 0),
            State::Object { len } => self.w.end_object(len == 0),
            State::Sorted { obj, order } => self.w.end_sorted_object(obj, order)?,
            State::Text { done: true, .. } => {}
            State::Text { name, .. } => return Err(private_struct_error(name)),
        }
        if self.close_variant {
            self.w.end_object(false);
        }
        Ok(())
    }
}

/// `value`, a member of an object, written with room on the stack for its
/// levels (`Writer::serde_write`): when its container opened `low`, on a
/// new stack, through a function pointer (one call site of the value's
/// `serialize` here, so that it is inlined as before).
#[inline(always)]
pub(super) fn member<S: Sink, T: ?Sized + Serialize>(w: &mut Writer<S>, low: bool, value: &T) -> Result<()> {
    if !low {
        write_member(w, value, false)
    } else {
        w.write_on_new_stack(value, false, write_member::<S, T>)
    }
}

#[inline(always)]
fn write_member<S: Sink, T: ?Sized + Serialize>(w: &mut Writer<S>, value: &T, _first: bool) -> Result<()> {
    value.serialize(w)
}

#[inline(always)]
fn write_item<S: Sink, T: ?Sized + Serialize>(w: &mut Writer<S>, value: &T, first: bool) -> Result<()> {
    value.serialize(ItemSerializer { w, first })
}

/// A private struct of serde_json's without its one field, or with others.
#[cold]
pub(crate) fn private_struct_error(name: &str) -> Error {
    Error::new(ErrorKind::Custom(format!("{name} must have one field, {name}, holding its text")))
}

impl<S: Sink> SerializeSeq for Compound<'_, S> {
    type Ok = ();
    type Error = Error;
    #[inline(always)]
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.element(value)
    }
    #[inline(always)]
    fn end(self) -> Result<()> {
        self.finish()
    }
}

impl<S: Sink> SerializeTuple for Compound<'_, S> {
    type Ok = ();
    type Error = Error;
    #[inline(always)]
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.element(value)
    }
    #[inline(always)]
    fn end(self) -> Result<()> {
        self.finish()
    }
}

impl<S: Sink> SerializeTupleStruct for Compound<'_, S> {
    type Ok = ();
    type Error = Error;
    #[inline]
    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.element(value)
    }
    #[inline(always)]
    fn end(self) -> Result<()> {
        self.finish()
    }
}

impl<S: Sink> SerializeTupleVariant for Compound<'_, S> {
    type Ok = ();
    type Error = Error;
    #[inline]
    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.element(value)
    }
    #[inline(always)]
    fn end(self) -> Result<()> {
        self.finish()
    }
}

impl<S: Sink> SerializeMap for Compound<'_, S> {
    type Ok = ();
    type Error = Error;

    #[inline]
    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<()> {
        let target = match &mut self.state {
            State::Object { len } => {
                *len += 1;
                KeyTarget::Direct { first: *len == 1 }
            }
            State::Sorted { obj, .. } => KeyTarget::Sorted(obj),
            State::Array { .. } | State::Text { .. } => unreachable!("key in an array or a private struct"),
        };
        key.serialize(MapKeySerializer { w: &mut *self.w, target })
    }

    #[inline]
    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        member(self.w, self.low, value)?;
        if let State::Sorted { obj, .. } = &mut self.state {
            self.w.sorted_value_done(obj);
        }
        // Nothing is spilled inside a sorted object (its bytes may move).
        self.w.spill_if_full()
    }

    /// As `serialize_key` then `serialize_value`, with the key in the path
    /// of an error from the value (a `Value` under a typed map: the
    /// `Value` writer's path below it, `$.m.a[1]`, would otherwise hang
    /// under the map as `$.a[1]`, a place that does not exist). The key's
    /// text is made only on the error path.
    #[inline]
    fn serialize_entry<K: ?Sized + Serialize, V: ?Sized + Serialize>(&mut self, key: &K, value: &V) -> Result<()> {
        self.serialize_key(key)?;
        self.serialize_value(value).map_err(|e| key_in_path(e, key))
    }

    #[inline(always)]
    fn end(self) -> Result<()> {
        self.finish()
    }
}

/// `e` with the text of the map key `key` (a string, integer, bool or
/// char, as the key serializer writes it) in front of its path.
#[cold]
fn key_in_path<K: ?Sized + Serialize>(e: Error, key: &K) -> Error {
    match crate::to_value(key) {
        Ok(crate::Value::String(k)) => e.in_key(&k),
        Ok(crate::Value::Number(n)) => e.in_key(&n.to_string()),
        Ok(crate::Value::Bool(b)) => e.in_key(if b { "true" } else { "false" }),
        _ => e,
    }
}

impl<S: Sink> SerializeStruct for Compound<'_, S> {
    type Ok = ();
    type Error = Error;
    #[inline]
    fn serialize_field<T: ?Sized + Serialize>(&mut self, key: &'static str, value: &T) -> Result<()> {
        self.field(key, value)
    }
    #[inline(always)]
    fn end(self) -> Result<()> {
        self.finish()
    }
}

impl<S: Sink> SerializeStructVariant for Compound<'_, S> {
    type Ok = ();
    type Error = Error;
    #[inline]
    fn serialize_field<T: ?Sized + Serialize>(&mut self, key: &'static str, value: &T) -> Result<()> {
        self.field(key, value)
    }
    #[inline(always)]
    fn end(self) -> Result<()> {
        self.finish()
    }
}
