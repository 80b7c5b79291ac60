//! JSON text handed in from Python (bytes, bytearray, memoryview or str) as
//! bytes for the core parser, and parser errors as `JSONDecodeError`s whose
//! `pos`/`colno` count characters for str input and bytes otherwise.

use std::borrow::Cow;

use pyo3::buffer::PyBuffer;
use pyo3::exceptions::PyTypeError;
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

use crate::errors::decode_error;

pub struct JsonText<'a> {
    pub bytes: Cow<'a, [u8]>,
    /// Offsets in errors count characters (the input was a str).
    pub chars: bool,
}

/// Reads `data` without copying where CPython allows (bytes, a str's cached
/// UTF-8 form); a str with a lone surrogate is refused as `loads` refuses it
/// (`lone surrogate in str input`, at its character index).
pub fn json_text<'a>(data: &'a Bound<'_, PyAny>) -> PyResult<JsonText<'a>> {
    if let Ok(b) = data.cast::<PyBytes>() {
        return Ok(JsonText { bytes: Cow::Borrowed(b.as_bytes()), chars: false });
    }
    if let Ok(s) = data.cast::<PyString>() {
        let mut size: ffi::Py_ssize_t = 0;
        // SAFETY: `s` is a live str; the returned buffer is owned by it and
        // lives as long as `data`, which outlives the borrow we return.
        let p = unsafe { ffi::PyUnicode_AsUTF8AndSize(s.as_ptr(), &mut size) };
        if !p.is_null() {
            // SAFETY: CPython's UTF-8 cache holds `size` bytes at `p`.
            let bytes = unsafe { std::slice::from_raw_parts(p as *const u8, size as usize) };
            return Ok(JsonText { bytes: Cow::Borrowed(bytes), chars: true });
        }
        // No UTF-8 form: a lone surrogate (a UnicodeEncodeError, reported
        // where it is, as `loads` does), or a MemoryError, raised as it is.
        let start = crate::loads::input::lone_surrogate(data.py())?;
        return Err(crate::loads::location::surrogate_error(data.py(), data, start));
    }
    match buffer_bytes(data) {
        Some(copy) => Ok(JsonText { bytes: Cow::Owned(copy?), chars: false }),
        None => Err(PyTypeError::new_err(not_bytes("expected bytes, bytearray, memoryview or str", data))),
    }
}

/// A buffer's bytes as every function reads them (`loads`, `Raw`,
/// `canonicalize`, `digest_bytes`): its items must be unsigned bytes
/// (format `B` or `c`, with or without a byte-order prefix: a ctypes
/// `c_ubyte` array says `<B`), and a view that is not contiguous is read in C order, as
/// `bytes(view)` reads it. Copied (the exporter may change it while it is
/// read), into memory reserved fallibly (`PyBuffer::to_vec` aborts when it
/// cannot allocate). `None` when `data` exports no such buffer.
pub(crate) fn buffer_bytes(data: &Bound<'_, PyAny>) -> Option<PyResult<Vec<u8>>> {
    let Ok(buf) = PyBuffer::<u8>::get(data) else {
        return prefixed_bytes(data);
    };
    Some((|| {
        let mut copy = crate::fallible::zeroed_bytes(buf.item_count())?;
        buf.copy_to_slice(data.py(), &mut copy)?;
        Ok(copy)
    })())
}

/// `buffer_bytes` for the byte formats pyo3's `PyBuffer::<u8>` refuses: a
/// byte-order or size prefix (`@ = < > !`, all the same for one-byte
/// items) before `B` or `c`. `None` for any other buffer, or none.
#[cold]
#[inline(never)]
fn prefixed_bytes(data: &Bound<'_, PyAny>) -> Option<PyResult<Vec<u8>>> {
    let py = data.py();
    let mut view = std::mem::MaybeUninit::<ffi::Py_buffer>::uninit();
    // SAFETY: `data` is live and the GIL is held; on success the view is
    // filled and released below, on failure it is left untouched.
    if unsafe { ffi::PyObject_GetBuffer(data.as_ptr(), view.as_mut_ptr(), ffi::PyBUF_RECORDS_RO) } != 0 {
        // Not a buffer (or not one readable with strides): the caller's TypeError.
        drop(PyErr::take(py));
        return None;
    }
    // SAFETY: filled by the successful call above.
    let mut view = unsafe { view.assume_init() };
    // SAFETY: PyBUF_FORMAT was asked, so `format` is a NUL-terminated
    // string the view owns (checked for NULL anyway).
    let format = (!view.format.is_null()).then(|| unsafe { std::ffi::CStr::from_ptr(view.format) }.to_bytes());
    let bytes = view.itemsize == 1 && view.ndim >= 1 && matches!(format, Some([b'@' | b'=' | b'<' | b'>' | b'!', b'B' | b'c']));
    let out = bytes.then(|| {
        let mut copy = crate::fallible::zeroed_bytes(usize::try_from(view.len).unwrap_or(0))?;
        // SAFETY: `copy` has `view.len` bytes; the view is live until released below.
        if unsafe { ffi::PyBuffer_ToContiguous(copy.as_mut_ptr().cast(), &view, view.len, b'C' as std::os::raw::c_char) } != 0 {
            return Err(PyErr::fetch(py));
        }
        Ok(copy)
    });
    // SAFETY: the view was filled by PyObject_GetBuffer and is released once.
    unsafe { ffi::PyBuffer_Release(&mut view) };
    out
}

/// `expected, not <what data is>`, where a buffer whose items are not
/// bytes (a `memoryview.cast('I')`) is named by its format.
pub(crate) fn not_bytes(expected: &str, data: &Bound<'_, PyAny>) -> String {
    let name = data.get_type().name().map(|n| n.to_string()).unwrap_or_default();
    if let Ok(view) = data.cast::<pyo3::types::PyMemoryView>() {
        let py = data.py();
        return match view.getattr(pyo3::intern!(py, "format")) {
            // Every attribute of a released view raises.
            Err(_) => format!("{expected}, not a released memoryview"),
            Ok(format) if view.getattr(pyo3::intern!(py, "ndim")).and_then(|n| n.extract::<usize>()).is_ok_and(|n| n == 0) => {
                format!("{expected}, not a memoryview of no dimensions (format {format}, one item)")
            }
            Ok(format) => format!("{expected}, not a memoryview of format {format} (a view of bytes has format B: memoryview.cast('B'))"),
        };
    }
    format!("{expected}, not {name}")
}

impl JsonText<'_> {
    /// The `JSONDecodeError` for a core read error.
    pub fn error(&self, py: Python<'_>, e: &jetjson::Error, doc: &Bound<'_, PyAny>) -> PyErr {
        self.error_saying(py, e, &e.message(), doc)
    }

    /// As `error`, with the message `msg` (the caller's wording of `e`).
    pub fn error_saying(&self, py: Python<'_>, e: &jetjson::Error, msg: &str, doc: &Bound<'_, PyAny>) -> PyErr {
        let (pos, line, col) = crate::loads::location::python_position(e.position(), &self.bytes, self.chars);
        if *e.kind() == jetjson::ErrorKind::OutOfMemory {
            // The parse's working memory could not grow: not the input's fault.
            return pyo3::exceptions::PyMemoryError::new_err(format!("{msg}: line {line} column {col} (char {pos})"));
        }
        decode_error(py, msg, doc, pos, line, col)
    }
}

/// `_buffer_bytes(data)`: a buffer's bytes as `loads` reads them
/// (`buffer_bytes`), for the NDJSON readers written in Python; the same
/// `TypeError` as `loads` for anything else.
#[pyfunction]
#[pyo3(name = "_buffer_bytes")]
pub fn buffer_bytes_of<'py>(data: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyBytes>> {
    match buffer_bytes(data) {
        Some(copy) => Ok(PyBytes::new(data.py(), &copy?)),
        None => Err(PyTypeError::new_err(not_bytes("expected bytes, bytearray, memoryview or str", data))),
    }
}
