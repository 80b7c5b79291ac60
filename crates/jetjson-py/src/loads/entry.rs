//! `loads` as CPython calls it: a `METH_FASTCALL | METH_KEYWORDS` function
//! written against the C API, so that a call without options costs no
//! argument parsing and no option resolution.
//!
//! `loads(data)` (one positional argument, no keywords: nearly every call)
//! goes straight to the read with the default options. Any other call
//! (keywords, a wrong number of arguments) is handed, arguments as they
//! came, to the `#[pyfunction]` in mod.rs, kept in a static: pyo3 parses
//! and checks its options there, with its own messages. The C function
//! (`loads_entry`) reads a small `bytes` or `str` without pyo3's trampoline
//! (fast.rs) and hands every other call to the trampoline over
//! `loads_fast` (the thread known to be attached, no panic crossing the C
//! boundary).

use std::cell::UnsafeCell;

use pyo3::ffi::{self, PyObject};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyString;

/// The text `help(jetjson.loads)` shows; its first line is the signature
/// CPython gives `inspect.signature` (`__text_signature__`).
const DOC: &std::ffi::CStr = c"loads($module, data, /, *, max_depth=512, max_size=None, duplicate_keys='error', allow_bom=False, decimal=False, type=None, strict=True, forbid_unknown_fields=False)
--

Parses one JSON text from bytes, bytearray, memoryview or str.

Integers of any size come back exact as int (-0 is the int 0, as in
json); floats are correctly rounded, whatever the literal's length or
exponent (1e-400 is 0.0). A literal beyond the float range (1e400) is
refused with its position, where json.loads would give inf. An int
longer than sys.get_int_max_str_digits() is refused, as int() refuses
it. max_depth bounds the nesting of arrays and objects; max_size
bounds the input's size in bytes (of its UTF-8 form for str), checked
before parsing; duplicate_keys is \"error\" (raise), \"first\" or \"last\";
allow_bom skips a leading UTF-8 byte order mark. decimal=True reads
every number with a fraction or an exponent as a decimal.Decimal of its
exact text (then no literal is refused for the float range); flags take
any object's truth value. Invalid input raises
JSONDecodeError (a ValueError) with msg, pos, lineno and colno (in
characters for str input, in bytes otherwise).

With type=T, reads the text as T (typed decode, see jetjson.Decoder):
strict and forbid_unknown_fields apply there; the decoder of T is
compiled once and kept.";

/// A `PyMethodDef` in a static: CPython keeps a pointer to it for as long
/// as the function object lives.
pub(crate) struct MethodDef(pub(crate) UnsafeCell<ffi::PyMethodDef>);

// SAFETY: the definition is never written after it is made; CPython only
// reads it (under the GIL).
unsafe impl Sync for MethodDef {}

static LOADS: MethodDef = MethodDef(UnsafeCell::new(ffi::PyMethodDef {
    ml_name: c"loads".as_ptr(),
    ml_meth: ffi::PyMethodDefPointer { PyCFunctionFastWithKeywords: loads_entry },
    ml_flags: ffi::METH_FASTCALL | ffi::METH_KEYWORDS,
    ml_doc: DOC.as_ptr(),
}));

/// The `#[pyfunction]` that takes every call with options (a strong
/// reference, made when the module is set up).
static WITH_OPTIONS: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

/// Adds `loads` to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    super::numbers::make_small_ints(py);
    let general = pyo3::wrap_pyfunction!(super::loads, m)?;
    WITH_OPTIONS.get_or_init(py, || general.into_any().unbind());
    // SAFETY: `LOADS` lives for the whole program; the module and its name
    // are live objects; the new function is owned by the Bound.
    let f = unsafe {
        let name = PyString::new(py, "jetjson._jetjson");
        let f = ffi::PyCFunction_NewEx(LOADS.0.get(), m.as_ptr(), name.as_ptr());
        if f.is_null() {
            return Err(PyErr::fetch(py));
        }
        Bound::from_owned_ptr(py, f)
    };
    m.add("loads", f)
}

/// The C function: `loads(data)` of a small `bytes` or `str` without
/// pyo3's trampoline (fast.rs), everything else through it (`loads_fast`).
///
/// # Safety
/// CPython's `METH_FASTCALL | METH_KEYWORDS` convention, as `loads_fast`.
unsafe extern "C" fn loads_entry(
    module: *mut PyObject,
    args: *const *mut PyObject,
    nargs: ffi::Py_ssize_t,
    kwnames: *mut PyObject,
) -> *mut PyObject {
    let slow: crate::fast::Slow = pyo3::impl_::trampoline::get_trampoline_function!(fastcall_cfunction_with_keywords, loads_fast);
    let quick = |py: Python<'_>| {
        if nargs != 1 {
            return None;
        }
        if !kwnames.is_null() {
            // SAFETY: `kwnames` is the call's tuple of keyword names and
            // `args` holds one value per name after the positional one,
            // all held by the caller for the call.
            return unsafe { refuse_oversized(py, args, kwnames) };
        }
        let (options, parse) = super::defaults();
        // SAFETY: one positional argument, held by the caller for the call.
        unsafe { super::quick(py, *args, options, parse) }
    };
    // SAFETY: called by CPython as a C function of this convention; `quick`
    // makes and drops no `Py<T>` or `PyErr` and declines with no exception
    // set (`loads::quick`).
    unsafe { crate::fast::run(quick, slow, module, args, nargs, kwnames) }
}

/// `loads(data, max_size=n)` of an exact `bytes` longer than `n` (an exact
/// non-negative `int`), the keyword name the interned `max_size`: the
/// `JSONDecodeError` the general path raises for it (`super::oversized`:
/// message, `pos` at byte `n`, its line and column, `doc` the input),
/// raised here, with the C API only (quick-call rules, fast.rs): `Some`
/// of null with the error set. `None`, with nothing done and no exception
/// set, for every other call.
///
/// # Safety
/// GIL held; `kwnames` is a live tuple of keyword names and `args[..2]`
/// the positional argument and one live value per name.
unsafe fn refuse_oversized(py: Python<'_>, args: *const *mut PyObject, kwnames: *mut PyObject) -> Option<*mut PyObject> {
    let names = crate::errors::names()?;
    // SAFETY: per the contract, `kwnames` is a tuple; its item 0 exists
    // when its size is 1, and then `args[1]` is that keyword's value;
    // `args[0]` is the positional argument.
    unsafe {
        if ffi::PyTuple_GET_SIZE(kwnames) != 1 || ffi::PyTuple_GET_ITEM(kwnames, 0) != names.max_size {
            return None;
        }
        let (data, value) = (*args, *args.add(1));
        if ffi::PyBytes_CheckExact(data) == 0 || ffi::PyLong_CheckExact(value) == 0 {
            return None;
        }
        let len = ffi::Py_SIZE(data) as usize;
        let limit = ffi::PyLong_AsSsize_t(value);
        if limit < 0 {
            // Negative, or beyond a Py_ssize_t (OverflowError set): the
            // general path's business; the error cleared as `only_max_size`
            // clears it.
            if !ffi::PyErr_Occurred().is_null() {
                ffi::PyErr_Clear();
            }
            return None;
        }
        let limit = limit as usize;
        if len <= limit {
            return None;
        }
        refuse_oversized_bytes(py, data, limit)
    }
}

/// The `JSONDecodeError` for the exact `bytes` `data`, longer than `limit`
/// bytes, that the general path raises for it (`super::oversized`), raised
/// with the C API only (quick-call rules, fast.rs): `Some` of null with the
/// error set, or `None` with nothing done and no exception set (the error
/// type not made yet, a `__new__` replaced by Python code). Also the typed
/// decoder's (decode/entry.rs), whose general path refuses the same input
/// with the same error.
///
/// # Safety
/// GIL held; `data` is a live exact `bytes` of more than `limit` bytes,
/// held by the caller for the call.
pub(crate) unsafe fn refuse_oversized_bytes(py: Python<'_>, data: *mut PyObject, limit: usize) -> Option<*mut PyObject> {
    // SAFETY: per the contract.
    unsafe {
        let len = ffi::Py_SIZE(data) as usize;
        debug_assert!(len > limit);
        let ty = crate::errors::decode_error_type_if_made(py)?;
        // The buffer of an exact bytes object: `len` bytes, immutable, held
        // by the caller for the call.
        let bytes = std::slice::from_raw_parts(ffi::PyBytes_AS_STRING(data).cast::<u8>(), len);
        let at = jetjson::Position::locate(bytes, limit);
        let place = crate::errors::Place { pos: at.offset, lineno: at.line, colno: at.column };
        let exc = crate::errors::size_limit_error_raw(ty, limit, data, place);
        if !exc.is_null() {
            if ffi::PyExceptionInstance_Check(exc) == 0 {
                // A `__new__` replaced by Python code gave no exception:
                // declined (the reference released, no exception set), so
                // the general path makes the call again and reports it in
                // its own words, as it always did.
                ffi::Py_DECREF(exc);
                return None;
            }
            // As pyo3 raises an error made in full (`PyErr::from_value`,
            // then `PyErr_Restore` of type, value and no traceback): no
            // implicit chaining, as before. Steals the three references.
            ffi::PyErr_Restore(ffi::Py_NewRef(ty.cast::<PyObject>()), exc, std::ptr::null_mut());
        }
        // Null: with the error set, or with what its creation raised.
        Some(std::ptr::null_mut())
    }
}

/// The body pyo3's trampoline calls, attached to the interpreter.
///
/// # Safety
/// CPython's `METH_FASTCALL | METH_KEYWORDS` convention: `args` holds
/// `nargs` positional arguments, then one value per name in `kwnames`.
unsafe fn loads_fast(
    py: Python<'_>,
    module: *mut PyObject,
    args: *const *mut PyObject,
    nargs: ffi::Py_ssize_t,
    kwnames: *mut PyObject,
) -> PyResult<*mut PyObject> {
    // SAFETY: as the caller guarantees.
    unsafe { loads_body(py, module, args, nargs, kwnames) }.map_err(|e| crate::errors::made_now(py, e))
}

/// `loads_fast`'s body.
///
/// # Safety
/// As `loads_fast`.
unsafe fn loads_body(
    py: Python<'_>,
    _module: *mut PyObject,
    args: *const *mut PyObject,
    nargs: ffi::Py_ssize_t,
    kwnames: *mut PyObject,
) -> PyResult<*mut PyObject> {
    if nargs == 1 && kwnames.is_null() {
        // SAFETY: one positional argument, held by the caller for the call.
        let data = unsafe { Bound::from_borrowed_ptr(py, *args) };
        return super::plain(py, &data).map(Py::into_ptr);
    }
    if nargs == 1 && !kwnames.is_null() {
        // SAFETY: `kwnames` is the call's tuple of keyword names and `args`
        // holds one value per name after the positional one; all are held
        // by the caller for the call.
        if let Some(limit) = unsafe { only_max_size(py, args, kwnames) } {
            // SAFETY: as above.
            let data = unsafe { Bound::from_borrowed_ptr(py, *args) };
            return super::limited(py, &data, limit).map(Py::into_ptr);
        }
    }
    let Some(general) = WITH_OPTIONS.get(py) else {
        return Err(pyo3::exceptions::PySystemError::new_err("jetjson.loads: the module was not set up"));
    };
    // SAFETY: the arguments as they came (the same convention, which
    // `PyObject_Vectorcall` takes); `general` is a live function object.
    // Returns a new reference or null with an exception set.
    let r = unsafe { ffi::PyObject_Vectorcall(general.as_ptr(), args, nargs as usize, kwnames) };
    if r.is_null() {
        Err(PyErr::fetch(py))
    } else {
        Ok(r)
    }
}

/// The limit of a call whose only keyword is `max_size`, given an exact
/// non-negative `int` that fits a `Py_ssize_t` (`loads(body,
/// max_size=16384)`: how services call it), without pyo3's argument
/// parsing; `None` for every other call, which the general function
/// takes (and whose checks and messages then apply).
///
/// # Safety
/// `kwnames` is a live tuple of keyword names and `args[1..]` holds one
/// live value per name.
unsafe fn only_max_size(py: Python<'_>, args: *const *mut PyObject, kwnames: *mut PyObject) -> Option<usize> {
    // SAFETY: per the contract, `kwnames` is a tuple; its item 0 exists
    // when its size is 1, and then `args[1]` is that keyword's value.
    unsafe {
        if ffi::PyTuple_GET_SIZE(kwnames) != 1 {
            return None;
        }
        // Keyword names in compiled calls are interned, so the name is
        // this very object; a name built at run time takes the general path.
        if ffi::PyTuple_GET_ITEM(kwnames, 0) != pyo3::intern!(py, "max_size").as_ptr() {
            return None;
        }
        let value = *args.add(1);
        if ffi::PyLong_CheckExact(value) == 0 {
            return None;
        }
        let limit = ffi::PyLong_AsSsize_t(value);
        if limit < 0 {
            // Negative (a ValueError there) or too large (-1 with
            // OverflowError set: cleared, "no limit" there).
            if !ffi::PyErr_Occurred().is_null() {
                ffi::PyErr_Clear();
            }
            return None;
        }
        Some(limit as usize)
    }
}
