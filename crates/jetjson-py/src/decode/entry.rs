//! `Decoder.decode` as CPython calls it: a `METH_FASTCALL | METH_KEYWORDS`
//! method descriptor written against the C API and put in the class in
//! place of a `#[pymethods]` one, so that `decoder.decode(data)` costs no
//! argument parsing (pyo3's took as much as the rest of a small decode's
//! set-up). As for `loads` (loads/entry.rs), an untyped decoder reads a
//! small `bytes` or `str` without pyo3's trampoline (fast.rs); every other
//! call goes through it.

use std::cell::UnsafeCell;

use pyo3::exceptions::PyTypeError;
use pyo3::ffi::{self, PyObject};
use pyo3::prelude::*;

use super::Decoder;
use crate::loads::entry::MethodDef;

/// What `help(Decoder.decode)` shows; its first line is the signature
/// CPython gives `inspect.signature`.
const DOC: &std::ffi::CStr = c"decode($self, data, /)
--

The JSON text data (bytes, bytearray, memoryview or str) read as the
decoder's type.";

static DECODE: MethodDef = MethodDef(UnsafeCell::new(ffi::PyMethodDef {
    ml_name: c"decode".as_ptr(),
    ml_meth: ffi::PyMethodDefPointer { PyCFunctionFastWithKeywords: decode_entry },
    ml_flags: ffi::METH_FASTCALL | ffi::METH_KEYWORDS,
    ml_doc: DOC.as_ptr(),
}));

/// Puts `decode` in the `Decoder` class (after the class is added).
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    let ty = py.get_type::<Decoder>();
    // SAFETY: `DECODE` lives for the whole program; `ty` is the live
    // Decoder type; the new descriptor is owned by the Bound.
    let descr = unsafe {
        let d = ffi::PyDescr_NewMethod(ty.as_ptr().cast(), DECODE.0.get());
        if d.is_null() {
            return Err(PyErr::fetch(py));
        }
        Bound::from_owned_ptr(py, d)
    };
    ty.setattr("decode", descr)
}

/// The C function: `Decoder(Any).decode(data)` of a small `bytes` or
/// `str`, and the refusal of a `bytes` longer than any decoder's
/// `max_size`, without pyo3's trampoline (fast.rs, `loads::quick`,
/// `loads::entry::refuse_oversized_bytes`), everything else through it
/// (`decode_fast`).
///
/// # Safety
/// As `decode_fast`.
unsafe extern "C" fn decode_entry(
    slf: *mut PyObject,
    args: *const *mut PyObject,
    nargs: ffi::Py_ssize_t,
    kwnames: *mut PyObject,
) -> *mut PyObject {
    let slow: crate::fast::Slow = pyo3::impl_::trampoline::get_trampoline_function!(fastcall_cfunction_with_keywords, decode_fast);
    let quick = |py: Python<'_>| {
        if nargs != 1 || !kwnames.is_null() {
            return None;
        }
        // SAFETY: `slf` is the instance, held by the caller for the call
        // (borrowed: no reference taken or released).
        let instance = unsafe { pyo3::Borrowed::from_ptr(py, slf) };
        // Checked (a compare with the type pyo3 made when the module was
        // set up); a failed cast holds no `Py<T>`.
        let decoder = instance.cast::<Decoder>().ok()?.get();
        // SAFETY: one positional argument, held by the caller for the call.
        let data = unsafe { *args };
        if let Some(limit) = decoder.max_size {
            // SAFETY: `data` is live (held by the caller); an exact bytes
            // object's size is its length.
            if unsafe { ffi::PyBytes_CheckExact(data) != 0 && ffi::Py_SIZE(data) as usize > limit } {
                // An oversized body refused before anything is set up, as
                // `loads(data, max_size=n)` refuses it (the same error as
                // the general path's: `run`).
                // SAFETY: an exact bytes of more than `limit` bytes, held
                // by the caller for the call.
                return unsafe { crate::loads::entry::refuse_oversized_bytes(py, data, limit) };
            }
        }
        let options = decoder.untyped.as_deref()?;
        // SAFETY: one positional argument, held by the caller for the call.
        unsafe { crate::loads::quick(py, data, &options.0, &options.1) }
    };
    // SAFETY: called by CPython as a method of this convention; `quick`
    // makes and drops no `Py<T>` or `PyErr` and declines with no exception
    // set.
    unsafe { crate::fast::run(quick, slow, slf, args, nargs, kwnames) }
}

/// The body pyo3's trampoline calls, attached to the interpreter.
///
/// # Safety
/// CPython's `METH_FASTCALL | METH_KEYWORDS` convention for a method
/// descriptor: `slf` is the instance, `args` holds `nargs` positional
/// arguments, then one value per name in `kwnames`.
unsafe fn decode_fast(
    py: Python<'_>,
    slf: *mut PyObject,
    args: *const *mut PyObject,
    nargs: ffi::Py_ssize_t,
    kwnames: *mut PyObject,
) -> PyResult<*mut PyObject> {
    // SAFETY: as the caller guarantees.
    unsafe { decode_body(py, slf, args, nargs, kwnames) }.map_err(|e| crate::errors::made_now(py, e))
}

/// `decode_fast`'s body.
///
/// # Safety
/// As `decode_fast`.
unsafe fn decode_body(
    py: Python<'_>,
    slf: *mut PyObject,
    args: *const *mut PyObject,
    nargs: ffi::Py_ssize_t,
    kwnames: *mut PyObject,
) -> PyResult<*mut PyObject> {
    // SAFETY: `slf` is held by the caller for the call.
    let slf = unsafe { Bound::from_borrowed_ptr(py, slf) };
    // The descriptor has checked the instance's type; checked again here
    // at the cost of a compare.
    let decoder = slf.cast::<Decoder>()?;
    if nargs != 1 || !kwnames.is_null() {
        // SAFETY: `kwnames`, when not null, is the call's tuple of keyword names.
        let keywords = if kwnames.is_null() { 0 } else { unsafe { ffi::PyTuple_GET_SIZE(kwnames) } };
        return Err(PyTypeError::new_err(format!(
            "Decoder.decode() takes exactly one positional argument, data ({nargs} positional and {keywords} keyword given)"
        )));
    }
    // SAFETY: one positional argument, held by the caller for the call.
    let data = unsafe { Bound::from_borrowed_ptr(py, *args) };
    decoder.get().decode(py, &data).map(Py::into_ptr)
}
