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
mod entry;
mod fail;
mod holes;
mod kept;
mod other;
mod output;
mod shapes;
pub(crate) mod text;
mod time;
mod types;
mod walk;

use jetjson::{Sink, Writer};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;

pub use config::{parse_indent, OutputOptions};
pub use entry::register;
pub(crate) use output::{catching_out_of_memory, BytesMemory};

/// What `dumps` does beyond the core's options (see its docstring).
#[derive(Clone, Copy, Default)]
pub struct Walking {
    /// Dict keys that are not strs are written as text.
    pub non_str_keys: bool,
    /// Dataclass fields equal to their defaults are left out.
    pub omit_defaults: bool,
}

/// Serializes `obj` into `w` (any sink: the buffer, or a hash), with
/// `Walking`'s options.
pub fn write_object_with<'py, S: Sink>(
    w: &mut Writer<S>,
    obj: &Bound<'py, PyAny>,
    default: Option<&Bound<'py, PyAny>>,
    how: Walking,
) -> PyResult<()> {
    write_object_in(w, obj, default, how, None, false).map_err(|f| f.into_pyerr(obj.py()))
}

/// `write_object_with`, leaving large `Raw` texts out of the output into
/// `holes` when given (a kept writer's output, `kept.rs`), as a quick walk
/// when `quick` (`Walker::quick`: its failures are the caller's to raise
/// or discard).
#[inline(always)]
fn write_object_in<'py, S: Sink>(
    w: &mut Writer<S>,
    obj: &Bound<'py, PyAny>,
    default: Option<&Bound<'py, PyAny>>,
    how: Walking,
    holes: Option<&mut holes::Holes>,
    quick: bool,
) -> Result<(), fail::Fail> {
    let py = obj.py();
    if let Some(d) = default {
        if !d.is_callable() {
            return Err(fail::Fail::py(PyTypeError::new_err("default must be callable or None")));
        }
    }
    let known = types::known(py).map_err(fail::Fail::py)?;
    let mut walker = walk::Walker::new(py, w, default, known);
    walker.non_str_keys = how.non_str_keys;
    walker.omit_defaults = how.omit_defaults;
    walker.holes = holes;
    walker.quick = quick;
    walker.write(obj)
}
