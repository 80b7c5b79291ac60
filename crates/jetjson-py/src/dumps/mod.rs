//! `dumps`: Python objects to the bytes of a profile.
//!
//! `walk.rs` is the hot path (exact built-in types through the raw C API),
//! `other.rs` the cold one (subclasses, dataclasses, dates, UUID, Decimal,
//! Enum, Raw, `default`); `config.rs` turns keyword options into the core's
//! `WriteOptions`; `fail.rs` carries errors and their paths.
//!
//! Output: the core writer fills its pooled per-thread buffer and the result
//! is copied once into a new `bytes` object (see the report in
//! bench/python/README.md for what that copy costs).

pub mod config;
mod dataclass;
mod fail;
mod other;
mod time;
mod types;
mod walk;

use jetjson::{Sink, Writer};
use pyo3::exceptions::PyTypeError;
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

/// Lets each thread keep an output buffer of up to 16 MiB between calls (the
/// core's default is 64 KiB): without it, every large document regrows its
/// buffer from scratch, page faults included, which costs more than writing
/// it. The price is up to 16 MiB held per thread that wrote such a document.
fn keep_large_buffers() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        if jetjson::max_pooled_capacity() < POOLED_OUTPUT {
            jetjson::set_max_pooled_capacity(POOLED_OUTPUT);
        }
    });
}

const POOLED_OUTPUT: usize = 16 << 20;

/// Serialize `obj` to JSON bytes in a profile ("compact", "go", "jcs").
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
    keep_large_buffers();
    let mut w = Writer::new(&options);
    write_object(&mut w, obj, default)?;
    Ok(PyBytes::new(obj.py(), w.as_bytes()))
}
