//! jetjson: a JSON codec with byte-exact output profiles at SIMD speed.
//!
//! One [`Writer`] writes every output; a [`Profile`] (chosen once per call)
//! decides the bytes:
//!
//! * `compact`: minimal JSON, identical to serde_json and orjson output for
//!   the values they share;
//! * `go`: the bytes Go's `encoding/json` `Marshal` writes (OCI digests);
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

pub mod escape;
pub mod number;
pub mod parse;

mod bytestr;
mod digest;
mod error;
mod keys;
mod options;
mod pool;
mod raw;
mod ser;
mod shape;
mod stack;
mod value;
mod writer;

pub use bytestr::ByteStr;
pub use digest::{digest, digest_bytes, digest_value, Algorithm, Hasher};
pub use error::{Error, ErrorKind, PathSegment, Position, Result};
pub use keys::{compare_utf16, sort_prefix};
pub use options::{
    BytesPolicy, Inapplicable, IntegerPolicy, InvalidText, KeyOrder, NonFinite, Profile, RawPolicy, Style, WriteOption, WriteOptions,
    DEFAULT_MAX_WRITE_DEPTH, MAX_INDENT, MAX_WRITE_DEPTH,
};
pub use parse::{DuplicateKeys, ReadOptions};
pub use pool::{max_pooled_capacity, set_max_pooled_capacity, OutputMemory};
pub use raw::{OwnedRawJson, RawJson};
pub use ser::Compound;
pub use value::{Array, Map, Number, Str, Value, ValueIndex};
pub use writer::{IoSink, ItemRun, Literal, NoSink, Sink, SortedObject, Writer, NAME_WINDOW};

use serde::de::{Deserialize, DeserializeOwned};
use serde::Serialize;

/// Compact JSON bytes of `value`.
pub fn to_vec<T: ?Sized + Serialize>(value: &T) -> Result<Vec<u8>> {
    to_vec_with(value, &WriteOptions::compact())
}

/// Compact JSON text of `value`.
pub fn to_string<T: ?Sized + Serialize>(value: &T) -> Result<String> {
    to_string_with(value, &WriteOptions::compact())
}

/// Compact JSON of `value` into an `io::Write`, in large chunks.
pub fn to_writer<W: std::io::Write, T: ?Sized + Serialize>(writer: W, value: &T) -> Result<()> {
    to_writer_with(writer, value, &WriteOptions::compact())
}

/// Compact JSON indented by two spaces.
pub fn to_string_pretty<T: ?Sized + Serialize>(value: &T) -> Result<String> {
    to_string_with(value, &WriteOptions::compact().indent(2))
}

/// The bytes of `value` in the profile and options given.
pub fn to_vec_with<T: ?Sized + Serialize>(value: &T, options: &WriteOptions) -> Result<Vec<u8>> {
    options.check()?;
    let mut w = Writer::new(options);
    stack::with_room_for(options.write_depth_limit(), || value.serialize(&mut w))?;
    Ok(w.into_buffer()?.into_vec())
}

pub fn to_string_with<T: ?Sized + Serialize>(value: &T, options: &WriteOptions) -> Result<String> {
    into_string(to_vec_with(value, options)?)
}

pub fn to_writer_with<W: std::io::Write, T: ?Sized + Serialize>(writer: W, value: &T, options: &WriteOptions) -> Result<()> {
    options.check()?;
    let mut w = Writer::with_sink(options, IoSink(writer));
    stack::with_room_for(options.write_depth_limit(), || value.serialize(&mut w))?;
    w.finish()?;
    Ok(())
}

/// Output is UTF-8 except when unchecked raw JSON smuggled other bytes in.
fn into_string(bytes: Vec<u8>) -> Result<String> {
    String::from_utf8(bytes).map_err(|_| Error::new(ErrorKind::InvalidText { profile: "compact" }))
}

/// Parses one strict JSON text into any `Deserialize` type, borrowing
/// strings from `input` where the type allows.
pub fn from_slice<'a, T: Deserialize<'a>>(input: &'a [u8]) -> Result<T> {
    from_slice_with(input, &ReadOptions::default())
}

pub fn from_slice_with<'a, T: Deserialize<'a>>(input: &'a [u8], options: &ReadOptions) -> Result<T> {
    let mut de = parse::Deserializer::from_slice(input, options)?;
    let value = T::deserialize(&mut de)?;
    de.end()?;
    Ok(value)
}

pub fn from_str<'a, T: Deserialize<'a>>(input: &'a str) -> Result<T> {
    from_slice(input.as_bytes())
}

pub fn from_str_with<'a, T: Deserialize<'a>>(input: &'a str, options: &ReadOptions) -> Result<T> {
    from_slice_with(input.as_bytes(), options)
}

/// Reads all of `reader` (into a pooled buffer) and parses it.
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

    /// Parses one strict JSON text (see [`ReadOptions`] for the defaults).
    pub fn from_slice(input: &[u8]) -> Result<Value> {
        parse::from_slice_with(input, &ReadOptions::default())
    }

    pub fn from_slice_with(input: &[u8], options: &ReadOptions) -> Result<Value> {
        parse::from_slice_with(input, options)
    }

    /// The bytes of this value in the profile and options given. Faster than
    /// `to_vec_with(&value, ..)` for sorted profiles: members are written in
    /// order straight from the value instead of being collected and moved.
    pub fn to_vec_with(&self, options: &WriteOptions) -> Result<Vec<u8>> {
        options.check()?;
        let mut w = Writer::new(options);
        stack::with_room_for(options.write_depth_limit(), || value::write_value(&mut w, self))?;
        Ok(w.into_buffer()?.into_vec())
    }

    pub fn to_string_with(&self, options: &WriteOptions) -> Result<String> {
        into_string(self.to_vec_with(options)?)
    }

    /// Writes this value through `writer` (for front ends driving the
    /// writer), within the writer's `max_write_depth`.
    pub fn write_to<S: Sink>(&self, writer: &mut Writer<S>) -> Result<()> {
        let limit = writer.style().max_write_depth;
        stack::with_room_for(limit, || value::write_value(writer, self))
    }
}

impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let bytes = self.to_vec_with(&WriteOptions::compact()).map_err(|_| std::fmt::Error)?;
        f.write_str(&String::from_utf8_lossy(&bytes))
    }
}
