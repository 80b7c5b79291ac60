//! The bytes to parse, from each accepted input type.
//!
//! `bytes` and `str` are immutable, so their buffers are parsed in place
//! (a `str` through its UTF-8 form, which CPython caches in the object).
//! `bytearray` and memoryviews (whose underlying object may be mutable
//! even when the view is read-only) can change under the parser: from
//! another thread on a free-threaded build, or from Python code run by an
//! allocation (a finalizer). Bytes changing after the parser checked them
//! would break its guarantees (a checked `&str` that is no longer UTF-8),
//! so they are copied first.

use pyo3::exceptions::PyTypeError;
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyString};

pub(crate) enum Input<'a> {
    Borrowed(&'a [u8]),
    Owned(Vec<u8>),
}

impl Input<'_> {
    pub(crate) fn bytes(&self) -> &[u8] {
        match self {
            Input::Borrowed(b) => b,
            Input::Owned(v) => v,
        }
    }
}

/// What the caller passed, as bytes; `Err` for unsupported types and for
/// `str` that cannot be UTF-8 (lone surrogates), which the caller reports.
pub(crate) enum Source<'a> {
    Bytes(Input<'a>),
    Str(&'a [u8]),
    /// A `str` with a lone surrogate at this character index.
    BadStr(usize),
}

/// After CPython failed to make a str's UTF-8 form: the character index
/// of its lone surrogate (the pending UnicodeEncodeError's `start`, taken);
/// any other pending error (MemoryError) as it is.
pub(crate) fn lone_surrogate(py: Python<'_>) -> PyResult<usize> {
    let err = PyErr::fetch(py);
    if !err.is_instance_of::<pyo3::exceptions::PyUnicodeEncodeError>(py) {
        return Err(err);
    }
    err.value(py).getattr(crate::fallible::name!(py, "start")?)?.extract::<usize>()
}

/// The text of `data` as the function `caller` (`"loads()"`,
/// `"Decoder.decode()"`) reads it; its `TypeError` names `caller`.
pub(crate) fn source<'a>(data: &'a Bound<'_, PyAny>, caller: &str) -> PyResult<Source<'a>> {
    if let Ok(b) = data.cast::<PyBytes>() {
        return Ok(Source::Bytes(Input::Borrowed(b.as_bytes())));
    }
    if let Ok(s) = data.cast::<PyString>() {
        let mut len: ffi::Py_ssize_t = 0;
        // SAFETY: `s` is a str; PyUnicode_AsUTF8AndSize returns its UTF-8
        // form, owned by (and alive as long as) the str, or null with a
        // UnicodeEncodeError set.
        let ptr = unsafe { ffi::PyUnicode_AsUTF8AndSize(s.as_ptr(), &mut len) };
        if ptr.is_null() {
            return Ok(Source::BadStr(lone_surrogate(data.py())?));
        }
        // SAFETY: `len` bytes at `ptr` belong to the str, which outlives 'a
        // (borrowed from `data`) and is immutable.
        return Ok(Source::Str(unsafe { std::slice::from_raw_parts(ptr.cast::<u8>(), len as usize) }));
    }
    if let Ok(b) = data.cast::<PyByteArray>() {
        // SAFETY: `b` is a live bytearray; its bytes are read and copied
        // at once, with no Python code run in between (the copy's memory
        // is a Rust allocation) that could resize it.
        return Ok(Source::Bytes(Input::Owned(crate::fallible::copy_bytes(unsafe { b.as_bytes() })?)));
    }
    // Any other buffer of bytes (a memoryview, an array of "B", a
    // PickleBuffer), copied, as every function reads a buffer
    // (`json_text::buffer_bytes`).
    match crate::json_text::buffer_bytes(data) {
        Some(copy) => Ok(Source::Bytes(Input::Owned(copy?))),
        None => Err(PyTypeError::new_err(crate::json_text::not_bytes(
            &format!("{caller} argument must be bytes, bytearray, memoryview or str"),
            data,
        ))),
    }
}
