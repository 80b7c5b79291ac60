//! `dumps`: Python objects to the bytes of a profile.
//!
//! `walk.rs` is the hot path (exact built-in types through the raw C API),
//! `other.rs` the cold one (subclasses, dataclasses, dates, UUID, Decimal,
//! Enum, Raw, `default`); `config.rs` turns keyword options into the core's
//! `WriteOptions`; `fail.rs` carries errors and their paths.
//!
//! Output: the core writer writes straight into the result `bytes` object
//! (`output.rs`).

pub mod config;
mod dataclass;
mod dictiter;
mod fail;
mod other;
mod output;
mod shapes;
mod text;
mod time;
mod types;
mod walk;

use jetjson::{Sink, Writer};
use pyo3::exceptions::{PyMemoryError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

pub use config::OutputOptions;

/// Serializes `obj` into `w` (any sink: the buffer, or a hash).
pub fn write_object<'py, S: Sink>(w: &mut Writer<S>, obj: &Bound<'py, PyAny>, default: Option<&Bound<'py, PyAny>>) -> PyResult<()> {
    let py = obj.py();
    if let Some(d) = default {
        if !d.is_callable() {
            return Err(PyTypeError::new_err("default must be callable or None"));
        }
    }
    let known = types::known(py)?;
    let mut walker = walk::Walker::new(py, w, default, known);
    walker.write(obj).map_err(|f| f.into_pyerr(py))
}

/// Serialize `obj` to JSON bytes in a profile.
///
/// profile: "compact" (serde_json/orjson bytes), "go" (Go json.Marshal bytes:
/// HTML-safe escapes, U+2028/9 escaped, dict keys sorted by UTF-8 bytes,
/// dataclasses in field order like Go structs, bytes as base64) or "jcs"
/// (RFC 8785: keys in UTF-16 order, numbers as doubles).
///
/// Numbers: ints are exact at any size in compact and go (as Go writes a
/// *big.Int); jcs writes every number as an IEEE double (ints beyond 2^53
/// rounded as JavaScript rounds them; an int beyond 1.8e308 is an error).
/// Floats use their shortest round-trip digits; -0.0 is -0.0 in compact,
/// -0 in go, 0 in jcs; NaN and infinities follow `nan`. Together with
/// loads this is the model canonicalize follows:
/// canonicalize(x, p) == dumps(loads(x), profile=p) for every profile.
///
/// sort_keys=True sorts every object (dataclasses too);
/// False leaves the order to the profile. escape_html: None = the profile's
/// default. ascii_only escapes non-ASCII as \uXXXX. indent: None/0 = compact,
/// n = n spaces, at most 16 (Go MarshalIndent / json.dumps layout). nan: "error" or
/// "null" (null in compact only; go and jcs always refuse NaN/Infinity).
/// default(obj) converts other objects; its result is serialized (up to 254
/// nested applications) and its exceptions propagate.
///
/// Also handled: str/int/float/dict/list subclasses, tuple, dataclasses,
/// enum.Enum (its value), datetime/date/time (isoformat; go writes datetimes
/// as Go's time.Time: RFC 3339, "Z" for UTC, trimmed fraction), uuid.UUID,
/// decimal.Decimal (its number text) and jetjson.Raw.
/// Errors: JSONEncodeError (a TypeError) starting with the path, e.g.
/// `$.items[3].price: NaN is not allowed in profile "go"`.
#[pyfunction]
#[pyo3(signature = (obj, *, profile="compact", sort_keys=false, escape_html=None, ascii_only=false, indent=None, default=None, nan="error"))]
#[allow(clippy::too_many_arguments)]
pub fn dumps<'py>(
    obj: &Bound<'py, PyAny>,
    profile: &str,
    sort_keys: bool,
    escape_html: Option<bool>,
    ascii_only: bool,
    indent: Option<i64>,
    default: Option<&Bound<'py, PyAny>>,
    nan: &str,
) -> PyResult<Bound<'py, PyBytes>> {
    let options = OutputOptions { profile, sort_keys, escape_html, ascii_only, indent, nan }.resolve()?;
    let py = obj.py();
    let mut w = Writer::with_memory(&options, output::BytesMemory::boxed());
    write_object(&mut w, obj, default)?;
    let (memory, len) = w.finish_into_memory().map_err(|e| PyMemoryError::new_err(e.message()))?;
    let mut memory = memory.into_any().downcast::<output::BytesMemory>().expect("the memory given above");
    let bytes = memory.take_bytes(py, len);
    output::BytesMemory::recycle(memory);
    bytes
}
