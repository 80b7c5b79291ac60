//! Small outputs of calls with a profile's default options: one writer per
//! profile, kept between calls.
//!
//! Making a writer for every call (its fields, the boxed output memory,
//! moving it into `finish_into_memory`, handing the memory back) was about
//! half of what a `dumps` of a small value cost. A kept writer is only
//! emptied (`Writer::restart`); it writes into its own buffer, and the
//! result `bytes` is made from it at its exact size, as the staging buffer
//! of `output.rs` does for small outputs. Large outputs (expected from the
//! last output, of any thread, `fits`) still go straight into the result
//! object (`output.rs`): copying them would cost more than the writer's
//! set-up.

use std::cell::UnsafeCell;

use jetjson::{NoSink, Profile, Style, Writer};
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use super::{output, write_object_with, Walking};

/// Outputs expected to be at most this long (from the last output, of any
/// thread, plus a quarter) are written in a kept writer and copied; longer
/// ones straight into the result object. The copy costs less than making a
/// writer up to here: an envelope around a 1.6 KiB `Raw.unchecked` payload
/// took 1.16x less time than written in place.
pub const EXPECTED_UP_TO: usize = 8192;

/// Whether the next output is expected small enough for a kept writer.
pub fn fits() -> bool {
    output::expects_at_most(EXPECTED_UP_TO)
}

/// A writer whose output was longer than this is not kept (its buffer
/// would stay that large).
const KEEP_UP_TO: usize = 64 * 1024;

/// The kept writers, one per profile, guarded by the GIL: a slot is only
/// touched by `write`, which holds the GIL and runs no Python code between
/// taking a writer out and putting one back (the object is written in
/// between, with the writer out of its slot: a nested call, from a
/// `default` callback or another thread the callback let run, finds the
/// slot empty and makes its own). A writer holds no Python objects.
struct Slots(UnsafeCell<[Option<Box<Writer<NoSink>>>; 3]>);

// SAFETY: every access holds the GIL (see `Slots`); the extension is not
// built for free-threaded CPython (lib.rs).
unsafe impl Sync for Slots {}

static KEPT: Slots = Slots(UnsafeCell::new([None, None, None]));

fn index(profile: Profile) -> usize {
    match profile {
        Profile::Compact => 0,
        Profile::Go => 1,
        Profile::Jcs => 2,
    }
}

/// `obj` written with `profile`'s default options (`style` makes them, for
/// a new writer) as a new `bytes` object.
pub fn write<'py>(
    obj: &Bound<'py, PyAny>,
    profile: Profile,
    style: impl FnOnce() -> Style,
    default: Option<&Bound<'py, PyAny>>,
    how: Walking,
) -> PyResult<Bound<'py, PyBytes>> {
    let py = obj.py();
    let i = index(profile);
    // SAFETY: the GIL is held (we have `py`) and no Python code runs
    // before the borrow ends (see `Slots`).
    let kept = unsafe { (*KEPT.0.get())[i].take() };
    let mut w = kept.unwrap_or_else(|| Box::new(Writer::with_style(style())));
    // On failure the writer is dropped: it may hold a partial document.
    write_object_with(&mut w, obj, default, how)?;
    let out = w.as_bytes();
    // SAFETY: `out` is the writer's output, `out.len()` initialised bytes;
    // CPython copies them into a new bytes object of that size (null with
    // MemoryError set on failure). No Python code runs.
    let bytes = unsafe { ffi::PyBytes_FromStringAndSize(out.as_ptr().cast(), out.len() as ffi::Py_ssize_t) };
    output::wrote(out.len());
    if bytes.is_null() {
        return Err(PyErr::fetch(py));
    }
    if out.len() <= KEEP_UP_TO && w.restart() {
        // SAFETY: as above: GIL held, no Python code ran since `take`
        // other than what ran while the writer was out (which may have
        // filled the slot: then this writer is dropped).
        let slot = unsafe { &mut (*KEPT.0.get())[i] };
        if slot.is_none() {
            *slot = Some(w);
        }
    }
    // SAFETY: a new bytes object whose one reference we hand over.
    Ok(unsafe { Bound::from_owned_ptr(py, bytes).cast_into_unchecked::<PyBytes>() })
}
