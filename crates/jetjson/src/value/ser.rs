//! `Value` as a serde `Serialize` type, so it works with any serializer.
//!
//! The write door: a `Value` handed to jetjson's own serializer
//! (`jetjson::to_vec(&value)`, a `Value` field of a typed struct, an
//! envelope's `data`) is written by the `Value` writer (`write.rs`: sorted
//! members straight from the map, the per-CPU-level build, places in its
//! errors), not call by call through serde, which took 1.1-1.3x its time
//! in `compact` and 1.8x in `go` (sorted) on twitter and github_events.
//!
//! `Value::serialize` passes a private `Door` around itself as a newtype
//! struct named `VALUE_WRITE_TOKEN`. Any other serializer sees an ordinary
//! newtype and serializes what is inside, member by member (`Plain`).
//! jetjson's serializer, given that name, asks `door_value` for the
//! `Value`: serde's calls carry the door only as a generic `&T`, and a cast
//! from it would be unsound whenever someone else's type sent that name,
//! so `Value::serialize` records the address of the door it made in a
//! per-thread slot for the length of the call, and the cast is made only
//! for that very door (same address, same size: no other live object of
//! that size can start there).

use std::cell::Cell;

use super::{Number, Value};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};

/// The newtype name under which a `Value` reaches a serializer.
pub(crate) const VALUE_WRITE_TOKEN: &str = "$jetjson::private::ValueRef";

/// What `Value::serialize` hands the serializer.
struct Door<'v>(&'v Value);

thread_local! {
    /// The address of the `Door` whose `serialize_newtype_struct` call is
    /// running on this thread (null when none is).
    static LIVE_DOOR: Cell<*const ()> = const { Cell::new(std::ptr::null()) };
}

/// Closes the door when its call ends, by return or unwind: the slot is
/// emptied if it still holds this door. It never puts an earlier door
/// back, so it never holds a door that has ended, whatever order calls
/// end in (stackful coroutines switching on one thread can end them out
/// of order): only a live door sets the slot, and each clears its own. A
/// door whose slot a nested `Value::serialize` took over (a serializer
/// between `Value::serialize` and jetjson's that writes another value
/// first) is then written member by member: the same bytes.
struct Close(*const ());

impl Drop for Close {
    fn drop(&mut self) {
        let _ = LIVE_DOOR.try_with(|slot| {
            if slot.get() == self.0 {
                slot.set(std::ptr::null());
            }
        });
    }
}

/// The `Value` behind `inner`, the argument of a `serialize_newtype_struct`
/// call named `VALUE_WRITE_TOKEN`, if it is the door `Value::serialize`
/// made on this thread and is still in the middle of handing over; `None`
/// for anything else (the caller then serializes `inner` as it is).
pub(crate) fn door_value<T: ?Sized>(inner: &T) -> Option<&Value> {
    let at = (inner as *const T).cast::<()>();
    if std::mem::size_of_val(inner) != std::mem::size_of::<Door<'static>>() || at.is_null() {
        return None;
    }
    // Not the door's address and size alone: a `#[repr(transparent)]`
    // wrapper of the door (`ref_cast::RefCast::ref_cast(door)` in a
    // serializer between `Value::serialize` and this one) has both, and
    // serializes as whatever it likes. Its type's name is its own (the
    // names compare as constants once `T` is known).
    if std::any::type_name::<T>() != std::any::type_name::<Door<'static>>() {
        return None;
    }
    if LIVE_DOOR.try_with(Cell::get).ok()? != at {
        return None;
    }
    // SAFETY: the slot holds the address of a `Door` that is alive: it is a
    // local of a `Value::serialize` call now running on this thread (the
    // slot is set just before that call hands `&door` over and emptied
    // when the call ends, by return or unwind, if it still holds that
    // door, see `Close`, so it never holds a door that has ended). `inner` is a live reference of the same size at the same
    // address, of the door's type (a transparent wrapper of the door,
    // which has its address and size, is refused above), so it is a
    // reference to that door: another object would have to overlap it,
    // which no safe code can make of a private local it was never lent
    // but as `&Door`. The `Value` it points to outlives
    // the door, and so the borrow `inner` (which borrows the door).
    Some(unsafe { (*at.cast::<Door<'_>>()).0 })
}

/// Through jetjson's serializer, as `Value::to_vec_with` writes it. Through
/// any other serializer (serde_json's, `serde_json::to_value`), a
/// `Number::Big` (an integer beyond 64 bits, or a literal read losslessly)
/// is written as a string of its digits, since serde has no call for a
/// number's text: `[18446744073709551616]` comes out as
/// `["18446744073709551616"]`.
impl Serialize for Value {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let door = Door(self);
        let at = (&door as *const Door<'_>).cast::<()>();
        if LIVE_DOOR.try_with(|slot| slot.set(at)).is_err() {
            // The thread's slots are being torn down: no door.
            return Plain(self).serialize(s);
        }
        let _close = Close(at);
        s.serialize_newtype_struct(VALUE_WRITE_TOKEN, &door)
    }
}

impl Serialize for Door<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        Plain(self.0).serialize(s)
    }
}

/// A `Value` member by member, for serializers other than jetjson's (and
/// jetjson's when the door is not open). Its members are `Plain` too: the
/// door is only at the top.
#[derive(Clone, Copy)]
struct Plain<'v>(&'v Value);

/// The newtype name under which a number's literal text travels through
/// serde; jetjson's serializer writes it as a number, others as a string.
pub(crate) const NUMBER_TOKEN: &str = "$jetjson::private::Number";

impl Serialize for Plain<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Value::Null => s.serialize_unit(),
            Value::Bool(b) => s.serialize_bool(*b),
            Value::Number(n) => n.serialize(s),
            Value::String(v) => s.serialize_str(v),
            // (Another serializer recurses with us, with no depth limit of
            // its own: room on the stack at each level.)
            Value::Array(items) => crate::stack::deeper(|| {
                let mut seq = s.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(&Plain(item))?;
                }
                seq.end()
            }),
            Value::Object(map) => crate::stack::deeper(|| {
                let mut m = s.serialize_map(Some(map.len()))?;
                for (k, v) in map.iter() {
                    m.serialize_entry(k, &Plain(v))?;
                }
                m.end()
            }),
        }
    }
}

impl Serialize for Number {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Number::Int(i) => s.serialize_i64(*i),
            Number::UInt(u) => s.serialize_u64(*u),
            Number::Float(f) => s.serialize_f64(*f),
            Number::Big(text) => s.serialize_newtype_struct(NUMBER_TOKEN, &**text),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::WriteOptions;

    /// Every profile, sorted and unsorted, and limits that some documents
    /// below exceed.
    fn options() -> Vec<WriteOptions> {
        vec![
            WriteOptions::compact(),
            WriteOptions::go(),
            WriteOptions::jcs(),
            WriteOptions::compact().sort_keys(true).ascii_only(true),
            WriteOptions::compact().indent(2),
            WriteOptions::go().max_write_depth(3),
            WriteOptions::compact().sort_keys(true).max_write_depth(2),
            WriteOptions::jcs().jcs_strict_integers(true),
        ]
    }

    fn documents() -> Vec<Value> {
        let mut deep = json!(1);
        for i in 0..6 {
            deep = if i % 2 == 0 { json!([0, deep]) } else { json!({"z": 1, "a": deep}) };
        }
        vec![
            json!(null),
            json!({"b": "<&>\u{2028}", "a": [1, -2.5, 1e21, "\u{1}"], "c": {"y": true, "x": null}}),
            json!([{"k": [[[[1]]]]}, {"j": {}}]),
            // Two members too deep: a sorted writer meets "a" first.
            json!({"z": [[[[1]]]], "a": [[[[2]]]]}),
            deep,
            // Number text kept as read: 1e400 has no double (an error in
            // jcs), 2^53 + 1 is no exact one (an error under strict
            // integers); in two members, met in a different order sorted.
            lossless(br#"{"z":[1e400],"a":{"b":1e400}}"#),
            lossless(br#"{"y":[9007199254740993],"x":[0,9007199254740993]}"#),
            Value::from_slice(br#"{"n":123456789012345678901234567890,"s":"\ud800x"}"#).unwrap_or(json!(0)),
        ]
    }

    fn lossless(text: &[u8]) -> Value {
        crate::parse::from_slice_with(text, &crate::ReadOptions::lossless()).unwrap()
    }

    /// The outcome as text: the bytes, or the error with its place.
    fn outcome(r: crate::Result<Vec<u8>>) -> String {
        match r {
            Ok(b) => String::from_utf8_lossy(&b).into_owned(),
            Err(e) => format!("error at {}: {e}", e.path_string()),
        }
    }

    /// `to_vec_with(&value)` goes through the door to the `Value` writer:
    /// the same bytes as `Value::to_vec_with`, and the same errors, places
    /// included (which the member-by-member path does not give).
    #[test]
    fn the_serde_path_writes_through_the_value_writer() {
        let mut places = 0;
        for v in documents() {
            for o in options() {
                let direct = outcome(v.to_vec_with(&o));
                assert_eq!(outcome(crate::to_vec_with(&v, &o)), direct, "{o:?}");
                let mut sink = Vec::new();
                let streamed = crate::to_writer_with(&mut sink, &v, &o).map(|()| sink);
                assert_eq!(outcome(streamed), direct, "{o:?}");
                let plain = outcome(crate::to_vec_with(&Plain(&v), &o));
                if direct.starts_with("error") {
                    assert!(plain.starts_with("error"), "{plain}");
                    places += usize::from(plain != direct);
                } else {
                    assert_eq!(plain, direct, "{o:?}");
                }
            }
        }
        // The door is what makes them agree: in sorted profiles the
        // member-by-member path meets a document's errors in insertion
        // order, the `Value` writer in sorted order.
        assert!(places >= 2, "{places}");
    }

    #[derive(serde::Serialize)]
    struct Envelope<V> {
        id: &'static str,
        data: V,
        list: Vec<V>,
        maybe: Option<V>,
        map: std::collections::BTreeMap<&'static str, V>,
    }

    fn envelope<V: Clone>(v: V) -> Envelope<V> {
        Envelope { id: "e1", data: v.clone(), list: vec![v.clone(), v.clone()], maybe: Some(v.clone()), map: [("m", v)].into() }
    }

    /// `Value`s inside typed structs (a field, elements, an option, a map
    /// value) are written as the member-by-member path writes them, and the
    /// depth limit counts the levels of the struct around them.
    #[test]
    fn values_inside_typed_structs() {
        let mut errors = 0;
        for v in documents() {
            for o in options() {
                let door = outcome(crate::to_vec_with(&envelope(&v), &o));
                let plain = outcome(crate::to_vec_with(&envelope(Plain(&v)), &o));
                if plain.starts_with("error") {
                    assert!(door.starts_with("error"), "{door}");
                    errors += 1;
                } else {
                    assert_eq!(door, plain, "{o:?}");
                }
            }
        }
        assert!(errors > 5, "{errors}");
        // Depth: the envelope is one level, its map two: a value two deep
        // in `map` is four, over a limit of three.
        let o = WriteOptions::compact().max_write_depth(3);
        assert!(crate::to_vec_with(&envelope(json!([1])), &o).is_ok());
        assert!(crate::to_vec_with(&envelope(json!([[1]])), &o).is_err());
    }

    /// Other serializers see an ordinary newtype and get the members.
    #[test]
    fn other_serializers_get_the_members() {
        let v = json!({"b": [1, "x", null, true, {"c": -3}], "a": 2.5});
        assert_eq!(serde_json::to_string(&v).unwrap(), r#"{"b":[1,"x",null,true,{"c":-3}],"a":2.5}"#);
        assert_eq!(serde_json::to_vec(&v).unwrap(), crate::to_vec(&v).unwrap());
        assert_eq!(crate::to_value(&v).unwrap(), v);
        assert_eq!(crate::to_value(&envelope(&v)).unwrap()["map"]["m"], v);
    }

    /// Something else sent under the door's name, of the door's size or
    /// not, while a door is open or not, is written as what it is.
    #[test]
    fn the_name_alone_opens_nothing() {
        struct Spoof<T>(T);
        impl<T: Serialize> Serialize for Spoof<T> {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_newtype_struct(VALUE_WRITE_TOKEN, &self.0)
            }
        }
        assert_eq!(crate::to_vec(&Spoof(7u64)).unwrap(), b"7");
        assert_eq!(crate::to_vec(&Spoof(&7u8)).unwrap(), b"7");
        assert_eq!(crate::to_vec(&Spoof("text")).unwrap(), br#""text""#);
        assert_eq!(crate::to_vec(&Spoof(())).unwrap(), b"null");
        // Inside a value's own serialization (its door open): a struct
        // holding a spoof next to a real value.
        #[derive(serde::Serialize)]
        struct Both {
            v: Value,
            s: Spoof<u64>,
        }
        let both = Both { v: json!([1, 2]), s: Spoof(9) };
        assert_eq!(crate::to_vec(&both).unwrap(), br#"{"v":[1,2],"s":9}"#);
        assert!(LIVE_DOOR.with(Cell::get).is_null());
    }

    /// A serializer that unwinds out of the door leaves it closed.
    #[test]
    fn an_unwinding_serializer_leaves_the_door_closed() {
        struct Panics;
        impl std::io::Write for Panics {
            fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
                panic!("writer gave up")
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let v = json!({"a": [1, 2, 3]});
        let r = std::panic::catch_unwind(|| serde_json::to_writer(Panics, &v));
        assert!(r.is_err());
        assert!(LIVE_DOOR.with(Cell::get).is_null());
        assert_eq!(crate::to_vec(&v).unwrap(), br#"{"a":[1,2,3]}"#);
    }
}
