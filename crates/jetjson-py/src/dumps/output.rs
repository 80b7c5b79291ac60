//! The result `bytes` object, written as the writer spills.
//!
//! The core writer keeps a small pooled buffer and hands it over in chunks
//! of about 32 KiB (`Sink`); each chunk is appended to a `bytes` object that
//! grows geometrically with `_PyBytes_Resize` (as orjson grows its output)
//! and is trimmed to size at the end. The document is therefore written to
//! its final memory once, from a buffer that stays in cache, instead of being
//! built whole in a second buffer and copied: for large documents the second
//! buffer's cache and memory traffic cost more than the writing itself.

use jetjson::{Error, ErrorKind, Sink};
use pyo3::ffi::{self, PyObject};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

extern "C" {
    // Part of CPython's C API (not the limited API), exported by every
    // CPython 3 build; pyo3-ffi keeps its declaration private.
    fn _PyBytes_Resize(bytes: *mut *mut PyObject, newsize: ffi::Py_ssize_t) -> std::os::raw::c_int;
}

/// Smallest first allocation.
const INITIAL: usize = 4096;

thread_local! {
    /// Length of this thread's previous output: the first allocation's size.
    /// Programs tend to write documents of similar size in a row, and one
    /// allocation of about the right size avoids a chain of resizes whose
    /// large steps go through fresh pages (page faults) every call. Exactly
    /// the previous size, not a little more: glibc raises its mmap threshold
    /// to the size of a freed mapping, so asking for no more than was freed
    /// keeps large outputs on the heap, whose pages are already mapped
    /// (asking 1/16 more mapped fresh pages on every call).
    static LAST_LEN: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

pub struct BytesSink {
    /// A bytes object owned by us alone (refcount 1), or null after a failure.
    obj: *mut PyObject,
    len: usize,
    cap: usize,
}

impl BytesSink {
    pub fn new(py: Python<'_>) -> PyResult<BytesSink> {
        let last = LAST_LEN.try_with(|c| c.get()).unwrap_or(0);
        let cap = INITIAL.max(last);
        // SAFETY: a null source asks CPython for an uninitialised bytes object
        // of `cap` bytes, which only we write to.
        let obj = unsafe { ffi::PyBytes_FromStringAndSize(std::ptr::null(), cap as ffi::Py_ssize_t) };
        if obj.is_null() {
            return Err(PyErr::fetch(py));
        }
        Ok(BytesSink { obj, len: 0, cap })
    }

    /// Resizes the object to its capacity or its final length.
    fn resize(&mut self, size: usize) -> Result<(), Error> {
        // SAFETY: `obj` is a bytes object we own alone (refcount 1, never
        // shared), which is what _PyBytes_Resize requires. On failure it frees
        // the object and sets `obj` to null (MemoryError is set).
        let rc = unsafe { _PyBytes_Resize(&mut self.obj, size as ffi::Py_ssize_t) };
        if rc != 0 {
            self.obj = std::ptr::null_mut();
            // SAFETY: clears the MemoryError; the core error replaces it.
            unsafe { ffi::PyErr_Clear() };
            return Err(Error::new(ErrorKind::Io(format!("out of memory growing the output to {size} bytes"))));
        }
        self.cap = size;
        Ok(())
    }

    /// The finished `bytes` object, trimmed to its length.
    pub fn into_bytes(mut self, py: Python<'_>) -> Result<Bound<'_, PyBytes>, Error> {
        if self.obj.is_null() {
            return Err(Error::new(ErrorKind::Io("output lost after an allocation failure".into())));
        }
        let _ = LAST_LEN.try_with(|c| c.set(self.len));
        if self.len != self.cap {
            self.resize(self.len)?;
        }
        let obj = std::mem::replace(&mut self.obj, std::ptr::null_mut());
        // SAFETY: `obj` is a valid bytes object whose one reference we own and
        // hand over to the Bound.
        Ok(unsafe { Bound::from_owned_ptr(py, obj).cast_into_unchecked::<PyBytes>() })
    }
}

impl Sink for BytesSink {
    fn spill(&mut self, bytes: &[u8]) -> Result<(), Error> {
        if self.obj.is_null() {
            return Err(Error::new(ErrorKind::Io("output lost after an allocation failure".into())));
        }
        let need = self.len + bytes.len();
        if need > self.cap {
            self.resize(need.max(self.cap.saturating_mul(2)))?;
        }
        // SAFETY: the object holds `cap >= len + bytes.len()` bytes at
        // PyBytes_AS_STRING; the source is our own buffer, which cannot
        // overlap the bytes object.
        unsafe {
            let dst = (ffi::PyBytes_AS_STRING(self.obj) as *mut u8).add(self.len);
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), dst, bytes.len());
        }
        self.len = need;
        Ok(())
    }
}

impl Drop for BytesSink {
    fn drop(&mut self) {
        if !self.obj.is_null() {
            // SAFETY: we own the only reference to `obj` (the GIL is held:
            // a sink lives only inside a dumps call).
            unsafe { ffi::Py_DECREF(self.obj) };
        }
    }
}
