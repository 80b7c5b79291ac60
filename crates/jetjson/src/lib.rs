//! jetjson: a JSON codec with byte-exact output profiles at SIMD speed.
//!
//! One writer writes every output; a [`Profile`] (chosen once per call)
//! decides the bytes:
//!
//! * `compact`: minimal JSON, identical to serde_json and orjson output for
//!   the values they share;
//! * `go`: the bytes Go's `encoding/json` `Marshal` writes (OCI digests).
//!   serde cannot tell a byte vector from a list of numbers, so a
//!   `Vec<u8>` is written `[1,2,3]`; mark it
//!   `#[serde(with = "jetjson::base64")]` (see [`base64`]) to get the
//!   base64 string Go writes for a `[]byte`;
//! * `jcs`: RFC 8785 canonical JSON (signatures).
//!
//! ```
//! use jetjson::{Profile, WriteOptions};
//! use std::collections::BTreeMap;
//!
//! let mut annotations = BTreeMap::new();
//! annotations.insert("org.opencontainers.image.title", "<app> & co");
//! assert_eq!(
//!     jetjson::to_string_with(&annotations, &WriteOptions::go()).unwrap(),
//!     r#"{"org.opencontainers.image.title":"\u003capp\u003e \u0026 co"}"#
//! );
//! assert_eq!(jetjson::to_string(&1e21f64).unwrap(), "1e+21");
//! assert_eq!(jetjson::to_string_with(&-0.0f64, &WriteOptions::jcs()).unwrap(), "0");
//! ```
//!
//! # Coming from serde_json
//!
//! The same calls work: [`to_vec`], [`to_string`], [`to_writer`] and their
//! `_pretty` forms, [`from_slice`], [`from_str`], [`from_reader`],
//! [`to_value`], [`from_value`], the [`json!`] macro, [`Value`] with
//! `v["a"]["b"]` (reading and writing), [`Value::pointer`], the `is_*` and
//! `as_*` methods, comparisons such as `v["name"] == "jet"`, `"[1]".parse::<Value>()`,
//! several documents with [`Deserializer::from_slice`]`(b).into_iter::<T>()`,
//! and [`Error::line`], [`Error::column`], [`Error::classify`]. Options go
//! in [`WriteOptions`] and [`ReadOptions`] (`*_with` functions). What
//! differs: reading refuses repeated names by default
//! ([`DuplicateKeys::Error`]), `Value` objects keep insertion order, and
//! numbers keep their exact value (128-bit integers and, on request, the
//! literal text).
//!
//! ```
//! use jetjson::{json, Value};
//!
//! let mut v: Value = r#"{"name": "jet", "tags": ["fast"]}"#.parse().unwrap();
//! v["version"] = json!([1, 2]);
//! v["tags"].as_array_mut().unwrap().push(json!("exact"));
//! assert_eq!(v["name"], "jet");
//! assert_eq!(v.pointer("/version/1"), Some(&json!(2)));
//! assert_eq!(jetjson::to_string(&v).unwrap(), r#"{"name":"jet","tags":["fast","exact"],"version":[1,2]}"#);
//! ```

#![warn(missing_docs)]

#[macro_use]
mod macros;

/// The crate README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
#[allow(dead_code)]
struct ReadmeDoctests;

// Internals the Python and C bindings use. Not part of the stable API:
// hidden from the documentation, reachable through `__private` (and, for
// the bindings' existing code, at these old paths).
#[doc(hidden)]
pub mod escape;
#[doc(hidden)]
pub mod number;
#[doc(hidden)]
pub mod parse;

pub mod base64;
mod bytestr;
mod digest;
mod error;
mod keys;
mod lines;
mod name_keys;
mod opaque;
mod options;
mod pool;
mod raw;
mod ser;
mod shape;
mod stack;
pub mod stream;
mod value;
mod writer;

pub use bytestr::ByteStr;
pub use digest::{digest, digest_bytes, digest_value, Algorithm};
pub use error::{Category, Error, ErrorKind, PathSegment, Position, Result};
pub use options::{Inapplicable, NonFinite, Profile, WriteOption, WriteOptions, DEFAULT_MAX_WRITE_DEPTH, MAX_INDENT, MAX_WRITE_DEPTH};
pub use parse::{DuplicateKeys, ReadOptions};
pub use pool::{max_pooled_capacity, set_max_pooled_capacity};
pub use raw::{OwnedRawJson, RawJson, RawText};
pub use stream::{Deserializer, StreamDeserializer};
pub use value::{Array, Map, Number, Str, Value, ValueIndex};

// The old paths of the internals (hidden; see `__private`).
#[doc(hidden)]
pub use digest::Hasher;
#[doc(hidden)]
pub use keys::{compare_utf16, sort_prefix};
#[doc(hidden)]
pub use options::{BytesPolicy, IntegerPolicy, InvalidText, KeyOrder, RawPolicy, Style};
#[doc(hidden)]
pub use pool::OutputMemory;
#[doc(hidden)]
pub use ser::Compound;
#[doc(hidden)]
pub use writer::{IoSink, ItemRun, Literal, NoSink, Sink, SortedObject, Writer, NAME_WINDOW};

/// Not part of the public API: what jetjson's own bindings (Python, C, the
/// CLI) and macros use. Anything here may change in any release.
#[doc(hidden)]
pub mod __private {
    pub use crate::digest::Hasher;
    pub use crate::keys::{compare_utf16, sort_prefix};
    pub use crate::options::{BytesPolicy, IntegerPolicy, InvalidText, KeyOrder, RawPolicy, Style};
    pub use crate::pool::OutputMemory;
    pub use crate::ser::Compound;
    pub use crate::writer::{IoSink, ItemRun, Literal, NoSink, Sink, SortedObject, Writer, NAME_WINDOW};
    pub use crate::{escape, number, parse};

    /// Standard base64 decoded as Go decodes a `[]byte` (`base64`): the
    /// Python binding's typed `bytes` reads it the same way.
    pub fn base64_decode(text: &[u8]) -> Option<Vec<u8>> {
        crate::base64::decode(text).ok()
    }

    /// `Value::from_slice_with`, except that running out of memory while
    /// reading is the error `ErrorKind::OutOfMemory` (at the end of the
    /// container being read) rather than the end of the process: for the
    /// bindings, which read documents from outside and must carry on.
    pub fn value_from_slice_recovering(input: &[u8], options: &crate::ReadOptions) -> crate::Result<crate::Value> {
        crate::value::from_json_recovering(input, options)
    }

    /// `e`, from writing a value read from `input` (canonicalizing): a
    /// write-depth error placed at the first container of `input` nested
    /// deeper than the limit (the written value carries no positions), so
    /// the front ends say where, as for a read error.
    pub fn write_error_in(e: crate::Error, input: &[u8]) -> crate::Error {
        e.located_in(input)
    }

    /// A `json!` interpolation: the expression's value as a `Value`.
    #[track_caller]
    pub fn json_expr<T: ?Sized + serde::Serialize>(value: &T) -> crate::Value {
        match crate::to_value(value) {
            Ok(v) => v,
            Err(e) => panic!("json!: a value that cannot be represented as JSON: {e}"),
        }
    }
}

use serde::de::{Deserialize, DeserializeOwned};
use serde::Serialize;

/// Compact JSON bytes of `value`.
///
/// ```
/// assert_eq!(jetjson::to_vec(&[1, 2]).unwrap(), b"[1,2]");
/// ```
pub fn to_vec<T: ?Sized + Serialize>(value: &T) -> Result<Vec<u8>> {
    to_vec_with(value, &WriteOptions::compact())
}

/// Compact JSON text of `value`.
///
/// ```
/// assert_eq!(jetjson::to_string(&("a", 1.5)).unwrap(), r#"["a",1.5]"#);
/// ```
pub fn to_string<T: ?Sized + Serialize>(value: &T) -> Result<String> {
    to_string_with(value, &WriteOptions::compact())
}

/// Compact JSON of `value` into an `io::Write`, in large chunks.
///
/// ```
/// let mut out = Vec::new();
/// jetjson::to_writer(&mut out, &vec!["x"]).unwrap();
/// assert_eq!(out, br#"["x"]"#);
/// ```
pub fn to_writer<W: std::io::Write, T: ?Sized + Serialize>(writer: W, value: &T) -> Result<()> {
    to_writer_with(writer, value, &WriteOptions::compact())
}

/// Compact JSON indented by two spaces (serde_json's pretty layout).
///
/// ```
/// assert_eq!(jetjson::to_string_pretty(&[1, 2]).unwrap(), "[\n  1,\n  2\n]");
/// ```
pub fn to_string_pretty<T: ?Sized + Serialize>(value: &T) -> Result<String> {
    to_string_with(value, &pretty())
}

/// As [`to_string_pretty`], as bytes.
///
/// ```
/// assert_eq!(jetjson::to_vec_pretty(&jetjson::json!({"a": []})).unwrap(), b"{\n  \"a\": []\n}");
/// ```
pub fn to_vec_pretty<T: ?Sized + Serialize>(value: &T) -> Result<Vec<u8>> {
    to_vec_with(value, &pretty())
}

/// As [`to_string_pretty`], into an `io::Write`.
///
/// ```
/// let mut out = Vec::new();
/// jetjson::to_writer_pretty(&mut out, &jetjson::json!({"a": 1})).unwrap();
/// assert_eq!(out, b"{\n  \"a\": 1\n}");
/// ```
pub fn to_writer_pretty<W: std::io::Write, T: ?Sized + Serialize>(writer: W, value: &T) -> Result<()> {
    to_writer_with(writer, value, &pretty())
}

/// The options of the `_pretty` functions.
fn pretty() -> WriteOptions {
    WriteOptions::compact().indent(2)
}

/// The bytes of `value` in the profile and options given.
///
/// ```
/// use jetjson::WriteOptions;
/// let v = jetjson::json!({"b": "<", "a": 1e21});
/// assert_eq!(jetjson::to_vec_with(&v, &WriteOptions::go()).unwrap(), br#"{"a":1e+21,"b":"\u003c"}"#);
/// ```
pub fn to_vec_with<T: ?Sized + Serialize>(value: &T, options: &WriteOptions) -> Result<Vec<u8>> {
    options.check()?;
    let mut w = Writer::new(options);
    stack::with_room_for(options.write_depth_limit(), || w.serde_write(|w| value.serialize(w)))?;
    Ok(w.into_buffer()?.into_vec())
}

/// The text of `value` in the profile and options given.
///
/// ```
/// use jetjson::WriteOptions;
/// assert_eq!(jetjson::to_string_with(&-0.0, &WriteOptions::jcs()).unwrap(), "0");
/// ```
pub fn to_string_with<T: ?Sized + Serialize>(value: &T, options: &WriteOptions) -> Result<String> {
    into_string(to_vec_with(value, options)?)
}

/// `value` in the profile and options given, into an `io::Write` in large
/// chunks (the output is never held whole).
pub fn to_writer_with<W: std::io::Write, T: ?Sized + Serialize>(writer: W, value: &T, options: &WriteOptions) -> Result<()> {
    options.check()?;
    let mut w = Writer::with_sink(options, IoSink(writer));
    stack::with_room_for(options.write_depth_limit(), || w.serde_write(|w| value.serialize(w)))?;
    w.finish()?;
    Ok(())
}

/// Output is UTF-8 except when unchecked raw JSON smuggled other bytes in.
fn into_string(bytes: Vec<u8>) -> Result<String> {
    String::from_utf8(bytes).map_err(|_| Error::new(ErrorKind::InvalidText { profile: "compact" }))
}

/// Any `Serialize` value as a [`Value`] tree.
///
/// Numbers keep their exact value (128-bit integers included), an `f32`
/// becomes the double of its shortest decimal form (`0.1f32` is `0.1`, not
/// serde_json's `0.10000000149011612`; the digits are those written for
/// the `f32`, though `compact` may lay a double out differently),
/// [`RawJson`] is parsed, byte slices become arrays of numbers (as in
/// serde_json), and objects keep their order. A `Value` does not remember
/// which of its objects were structs: written in `go`, all of them are
/// sorted, as Go sorts maps.
///
/// Fails where the writer would fail for any profile: a map key that is
/// not a string or integer, a `Serialize` error, nesting deeper than 2048.
///
/// ```
/// use serde::Serialize;
/// #[derive(Serialize)]
/// struct Item { name: String, price: f32, big: u128 }
/// let v = jetjson::to_value(&Item { name: "jet".into(), price: 0.1, big: u128::MAX }).unwrap();
/// assert_eq!(v["name"], "jet");
/// assert_eq!(v["price"], 0.1);
/// assert_eq!(v.to_string(), r#"{"name":"jet","price":0.1,"big":340282366920938463463374607431768211455}"#);
/// ```
pub fn to_value<T: ?Sized + Serialize>(value: &T) -> Result<Value> {
    value.serialize(value::ValueSerializer::new())
}

/// Reads any `Deserialize` type out of a [`Value`] (to borrow strings from
/// the tree instead, use `T::deserialize(&value)`).
///
/// Errors name the path to the value they are about.
///
/// ```
/// use serde::Deserialize;
/// #[derive(Deserialize, Debug, PartialEq)]
/// struct Item { name: String, sizes: Vec<u8> }
/// let v = jetjson::json!({"name": "jet", "sizes": [1, 2]});
/// let item: Item = jetjson::from_value(v).unwrap();
/// assert_eq!(item, Item { name: "jet".into(), sizes: vec![1, 2] });
///
/// let e = jetjson::from_value::<Item>(jetjson::json!({"name": "jet", "sizes": [1, 300]})).unwrap_err();
/// assert_eq!(e.path_string(), "$.sizes[1]");
/// ```
pub fn from_value<T: DeserializeOwned>(value: Value) -> Result<T> {
    T::deserialize(value)
}

/// Parses one strict JSON text into any `Deserialize` type, borrowing
/// strings from `input` where the type allows.
///
/// ```
/// let (name, n): (&str, u8) = jetjson::from_slice(br#"["jet", 7]"#).unwrap();
/// assert_eq!((name, n), ("jet", 7));
/// ```
pub fn from_slice<'a, T: Deserialize<'a>>(input: &'a [u8]) -> Result<T> {
    from_slice_with(input, &ReadOptions::default())
}

/// As [`from_slice`], with limits and leniencies.
///
/// ```
/// use jetjson::{DuplicateKeys, ReadOptions};
/// use std::collections::HashMap;
/// let opts = ReadOptions::new().duplicate_keys(DuplicateKeys::Last);
/// let m: HashMap<String, u8> = jetjson::from_slice_with(br#"{"a":1,"a":2}"#, &opts).unwrap();
/// assert_eq!(m["a"], 2);
/// ```
pub fn from_slice_with<'a, T: Deserialize<'a>>(input: &'a [u8], options: &ReadOptions) -> Result<T> {
    let mut de = parse::Deserializer::from_slice(input, options)?;
    let value = de.value()?;
    de.end()?;
    Ok(value)
}

/// As [`from_slice`], for text.
pub fn from_str<'a, T: Deserialize<'a>>(input: &'a str) -> Result<T> {
    from_slice(input.as_bytes())
}

/// As [`from_slice_with`], for text.
pub fn from_str_with<'a, T: Deserialize<'a>>(input: &'a str, options: &ReadOptions) -> Result<T> {
    from_slice_with(input.as_bytes(), options)
}

/// Reads all of `reader` (into a pooled buffer) and parses it. For a
/// stream of several documents, see [`Deserializer::from_reader`].
pub fn from_reader<R: std::io::Read, T: DeserializeOwned>(reader: R) -> Result<T> {
    from_reader_with(reader, &ReadOptions::default())
}

/// As `from_reader`, with limits: a body over `max_size` fails as soon as
/// the limit is crossed, without being read whole.
pub fn from_reader_with<R: std::io::Read, T: DeserializeOwned>(reader: R, options: &ReadOptions) -> Result<T> {
    pool::with_read_buffer(|buf| {
        parse::read_limited(reader, options.max_size, buf)?;
        from_slice_with(buf, options)
    })
}

impl Value {
    /// Reads all of `reader` (into a pooled buffer) and builds a `Value`.
    pub fn from_reader_with<R: std::io::Read>(reader: R, options: &ReadOptions) -> Result<Value> {
        pool::with_read_buffer(|buf| {
            parse::read_limited(reader, options.max_size, buf)?;
            Value::from_slice_with(buf, options)
        })
    }

    /// Parses one strict JSON text (see [`ReadOptions`] for the defaults),
    /// keeping object order and every number as it was (integers of 64-bit
    /// range, doubles, and the digits of bigger integers).
    ///
    /// ```
    /// let v = jetjson::Value::from_slice(br#"{"b": 1, "a": 2}"#).unwrap();
    /// assert_eq!(v.to_string(), r#"{"b":1,"a":2}"#);
    /// ```
    pub fn from_slice(input: &[u8]) -> Result<Value> {
        Value::from_slice_with(input, &ReadOptions::default())
    }

    /// As [`from_slice`](Value::from_slice), with limits and leniencies
    /// (for example [`ReadOptions::lossless`] to keep every number's text).
    ///
    /// ```
    /// use jetjson::{ReadOptions, Value};
    /// let v = Value::from_slice_with(b"[1.50, 1e400]", &ReadOptions::lossless()).unwrap();
    /// assert_eq!(v.to_string(), "[1.50,1e400]");
    /// ```
    pub fn from_slice_with(input: &[u8], options: &ReadOptions) -> Result<Value> {
        parse::from_slice_with(input, options)
    }

    /// The bytes of this value in the profile and options given. Faster than
    /// `to_vec_with(&value, ..)` for sorted profiles: members are written in
    /// order straight from the value instead of being collected and moved.
    ///
    /// ```
    /// let v = jetjson::json!({"b": 1, "a": [true]});
    /// assert_eq!(v.to_vec_with(&jetjson::WriteOptions::jcs()).unwrap(), br#"{"a":[true],"b":1}"#);
    /// ```
    pub fn to_vec_with(&self, options: &WriteOptions) -> Result<Vec<u8>> {
        options.check()?;
        let mut w = Writer::new(options);
        stack::with_room_for(options.write_depth_limit(), || value::write_value(&mut w, self))?;
        Ok(w.into_buffer()?.into_vec())
    }

    /// As [`to_vec_with`](Value::to_vec_with), as text.
    pub fn to_string_with(&self, options: &WriteOptions) -> Result<String> {
        into_string(self.to_vec_with(options)?)
    }

    /// Writes this value through `writer` (for front ends driving the
    /// writer), within the writer's `max_write_depth`.
    #[doc(hidden)]
    pub fn write_to<S: Sink>(&self, writer: &mut Writer<S>) -> Result<()> {
        let limit = writer.style().max_write_depth;
        stack::with_room_for(limit, || value::write_value(writer, self))
    }
}

/// `"[1, 2]".parse::<Value>()`: as [`Value::from_slice`].
///
/// ```
/// let v: jetjson::Value = "[1, 2]".parse().unwrap();
/// assert_eq!(v[1], 2);
/// assert!("[1, 2".parse::<jetjson::Value>().unwrap_err().is_eof());
/// ```
impl std::str::FromStr for Value {
    type Err = Error;
    fn from_str(s: &str) -> Result<Value> {
        Value::from_slice(s.as_bytes())
    }
}
