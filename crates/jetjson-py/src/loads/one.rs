//! The builder of a document that is one scalar (`loads(b'1')`,
//! `loads(b'"ok"')`, `loads(b' null ')`), for the quick path (fast.rs).
//!
//! The core walks such a document with the parser's own methods inlined
//! here (`jetjson::parse::parse_scalar`: the same rules and errors as any
//! parse, none of the container machinery), and this builder keeps the one
//! object it reports. It needs no stacks, no key cache and no pause of the
//! cyclic GC (a str, int or float is not tracked by the collector, so
//! creating one never starts a collection): a scalar call takes none of
//! them. A Python exception raised while creating the object (an int
//! beyond CPython's digit limit, out of memory) is left set, as the quick
//! `Builder` leaves it (`Failure::Pending`): the quick path clears it and
//! declines.

use jetjson::parse::{NumberToken, Visitor};
use jetjson::{Error, ErrorKind};
use pyo3::ffi;

use super::{numbers, strings};

/// Holds the value reported (an owned reference, or null).
pub(crate) struct One {
    obj: *mut ffi::PyObject,
    /// A Python exception is set (creating the value failed).
    pub(crate) pending: bool,
}

impl One {
    #[inline(always)]
    pub(crate) fn new() -> One {
        One { obj: std::ptr::null_mut(), pending: false }
    }

    /// The value (an owned reference), or null if none was reported.
    #[inline(always)]
    pub(crate) fn take(&mut self) -> *mut ffi::PyObject {
        std::mem::replace(&mut self.obj, std::ptr::null_mut())
    }

    #[inline(always)]
    fn keep(&mut self, obj: *mut ffi::PyObject) -> jetjson::Result<()> {
        if obj.is_null() {
            return Err(self.python_error());
        }
        if !self.obj.is_null() {
            // The parser reports one value for a scalar document; should a
            // second come, the first is released, never leaked.
            // SAFETY: an owned reference this builder holds.
            unsafe { ffi::Py_DECREF(self.obj) };
        }
        self.obj = obj;
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn python_error(&mut self) -> Error {
        self.pending = true;
        Error::new(ErrorKind::Custom("a Python exception (left pending)".to_owned()))
    }

    /// A container reached this builder: `parse_scalar` reports none (it
    /// returns before any), so this never happens; an error, not a panic.
    #[cold]
    #[inline(never)]
    fn not_a_scalar() -> Error {
        Error::new(ErrorKind::Custom("internal error: a container in a scalar document".to_owned()))
    }
}

impl Drop for One {
    #[inline(always)]
    fn drop(&mut self) {
        if !self.obj.is_null() {
            // SAFETY: an owned reference this builder holds (not taken).
            unsafe { ffi::Py_DECREF(self.obj) };
        }
    }
}

impl Visitor for One {
    #[inline(always)]
    fn null(&mut self) -> jetjson::Result<()> {
        // SAFETY: a new reference to None.
        self.keep(unsafe { ffi::Py_NewRef(ffi::Py_None()) })
    }

    #[inline(always)]
    fn bool(&mut self, v: bool) -> jetjson::Result<()> {
        // SAFETY: a new reference to a bool singleton.
        self.keep(unsafe { ffi::Py_NewRef(if v { ffi::Py_True() } else { ffi::Py_False() }) })
    }

    #[inline(always)]
    fn number(&mut self, n: NumberToken<'_>) -> jetjson::Result<()> {
        self.keep(numbers::new_number(&n))
    }

    #[inline(always)]
    fn string(&mut self, s: &str, _raw: &str) -> jetjson::Result<()> {
        self.keep(strings::new_str(s))
    }

    #[inline(always)]
    fn ascii_string(&mut self, s: &str) -> jetjson::Result<()> {
        self.keep(strings::new_ascii(s.as_bytes()))
    }

    fn begin_array(&mut self) -> jetjson::Result<()> {
        Err(One::not_a_scalar())
    }

    fn end_array(&mut self) -> jetjson::Result<()> {
        Err(One::not_a_scalar())
    }

    fn begin_object(&mut self) -> jetjson::Result<()> {
        Err(One::not_a_scalar())
    }

    fn key(&mut self, _k: &str, _raw: &str) -> jetjson::Result<()> {
        Err(One::not_a_scalar())
    }

    fn end_object(&mut self) -> jetjson::Result<()> {
        Err(One::not_a_scalar())
    }
}
