//! Python objects the binding makes for itself outside the hot paths (names
//! of attributes, modules and keywords; a dict of keywords) made with the C
//! API, so that an allocation that fails is a `MemoryError` raised by the
//! call, not a pyo3 panic: pyo3's `intern!`, `getattr("...")`,
//! `import("...")`, `PyString::new` and `PyDict::new` panic ("PyObject
//! pointer is null") when CPython cannot make the object (SECURITY.md,
//! "Allocation failure"). Plans (a `Decoder`'s type, a dataclass's fields)
//! are made with these.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

/// An interned Python string for a name written in the code, made once per
/// process: `name!(py, "fields")?` is a `&Bound<PyString>` (pyo3's
/// `intern!`, fallible).
macro_rules! name {
    ($py:expr, $text:literal) => {{
        static CELL: pyo3::sync::PyOnceLock<pyo3::Py<pyo3::types::PyString>> = pyo3::sync::PyOnceLock::new();
        let py: pyo3::Python<'_> = $py;
        CELL.get_or_try_init(py, || $crate::fallible::interned(py, $text).map(pyo3::Bound::unbind)).map(|n| n.bind(py))
    }};
}
pub(crate) use name;

/// A new Python string holding `text` (`PyString::new`, fallible).
pub(crate) fn new_str<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyString>> {
    // SAFETY: GIL held (we have `py`); the pointer and length are those of
    // `text`, valid UTF-8; the new reference (null with an exception set
    // when the allocation fails) goes to the `Bound`.
    unsafe {
        let p = pyo3::ffi::PyUnicode_FromStringAndSize(text.as_ptr().cast(), text.len() as pyo3::ffi::Py_ssize_t);
        if p.is_null() {
            return Err(PyErr::fetch(py));
        }
        Ok(Bound::from_owned_ptr(py, p).cast_into_unchecked::<PyString>())
    }
}

/// An interned str of `text` (`PyString::intern`, fallible). Left
/// uninterned if interning itself fails (callers compare by address, then
/// by text).
pub(crate) fn interned<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyString>> {
    let s = new_str(py, text)?;
    let mut p = s.into_ptr();
    // SAFETY: GIL held; `p` is the new reference `new_str` made, handed
    // over here; interning swaps it for the interned one (a new reference
    // too), which goes to the `Bound`.
    unsafe {
        pyo3::ffi::PyUnicode_InternInPlace(&mut p);
        Ok(Bound::from_owned_ptr(py, p).cast_into_unchecked::<PyString>())
    }
}

/// A new empty dict (`PyDict::new`, fallible).
pub(crate) fn new_dict(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    // SAFETY: GIL held (we have `py`); the new reference (null with an
    // exception set when the allocation fails) goes to the `Bound`.
    unsafe {
        let p = pyo3::ffi::PyDict_New();
        if p.is_null() {
            return Err(PyErr::fetch(py));
        }
        Ok(Bound::from_owned_ptr(py, p).cast_into_unchecked::<PyDict>())
    }
}

/// A new list of a dict's `(key, value)` pairs, its keys or its values: a
/// snapshot, so Python code run while it is read cannot change it
/// (`PyDict::items`, `keys`, `values`, fallible).
pub(crate) fn dict_items<'py>(dict: &Bound<'py, PyDict>) -> PyResult<Bound<'py, PyList>> {
    snapshot(dict, pyo3::ffi::PyDict_Items)
}

/// See `dict_items`.
pub(crate) fn dict_keys<'py>(dict: &Bound<'py, PyDict>) -> PyResult<Bound<'py, PyList>> {
    snapshot(dict, pyo3::ffi::PyDict_Keys)
}

/// See `dict_items`.
pub(crate) fn dict_values<'py>(dict: &Bound<'py, PyDict>) -> PyResult<Bound<'py, PyList>> {
    snapshot(dict, pyo3::ffi::PyDict_Values)
}

fn snapshot<'py>(
    dict: &Bound<'py, PyDict>,
    make: unsafe extern "C" fn(*mut pyo3::ffi::PyObject) -> *mut pyo3::ffi::PyObject,
) -> PyResult<Bound<'py, PyList>> {
    let py = dict.py();
    // SAFETY: GIL held; `dict` is a live dict (its `Bound` holds a
    // reference); `make` is one of the three PyDict_ snapshots, which
    // return a new list or null with an exception set.
    unsafe {
        let p = make(dict.as_ptr());
        if p.is_null() {
            return Err(PyErr::fetch(py));
        }
        Ok(Bound::from_owned_ptr(py, p).cast_into_unchecked::<PyList>())
    }
}

/// The datetime C API (`PyDateTimeAPI()` after this returns), imported once.
/// `PyDateTime_IMPORT` reports any failure to import, an allocation that
/// failed included, as ImportError: the module and its capsule are looked
/// up first here, so that no memory for them is a MemoryError, and a
/// failure after they were found can only be one.
pub(crate) fn datetime_api(py: Python<'_>) -> PyResult<*mut pyo3::ffi::PyDateTime_CAPI> {
    // SAFETY: GIL held; `PyDateTime_IMPORT` only stores the capsule's
    // pointer, and `PyDateTimeAPI` reads it.
    unsafe {
        if pyo3::ffi::PyDateTimeAPI().is_null() {
            py.import(name!(py, "datetime")?)?.getattr(name!(py, "datetime_CAPI")?)?;
            pyo3::ffi::PyDateTime_IMPORT();
            if pyo3::ffi::PyDateTimeAPI().is_null() {
                let e = PyErr::fetch(py);
                if e.is_instance_of::<pyo3::exceptions::PyImportError>(py) {
                    return Err(pyo3::exceptions::PyMemoryError::new_err(()));
                }
                return Err(e);
            }
        }
        Ok(pyo3::ffi::PyDateTimeAPI())
    }
}

/// Whether `v` has room for one more entry, growing it (amortized) when it
/// is full; when it cannot grow, `MemoryError` is set and `false` returned.
/// For the builders' stacks, which grow with the input (one entry per value
/// of the largest container): their growth failing aborted the process
/// (SECURITY.md, "Allocation failure"). The caller holds the GIL (the
/// builders run with it) and, on `false`, releases what it was to push.
#[inline(always)]
pub(crate) fn room_for_one<T>(v: &mut Vec<T>) -> bool {
    v.len() < v.capacity() || grow_by_one(v)
}

#[cold]
#[inline(never)]
fn grow_by_one<T>(v: &mut Vec<T>) -> bool {
    if v.try_reserve(1).is_ok() {
        return true;
    }
    // SAFETY: the caller holds the GIL (see `room_for_one`); this sets
    // MemoryError and allocates nothing.
    unsafe { pyo3::ffi::PyErr_NoMemory() };
    false
}

/// A `Vec` of `len` zero bytes, or `MemoryError` when there is no room for
/// it. For the copies made of an input that may change while it is read
/// (a `bytearray`, a memoryview) or that is not UTF-8 as given (a str with
/// lone surrogates): a plain `Vec` copy of an input as large as the memory
/// left aborted the process.
pub(crate) fn zeroed_bytes(len: usize) -> PyResult<Vec<u8>> {
    let mut v = Vec::new();
    if v.try_reserve_exact(len).is_err() {
        return Err(pyo3::exceptions::PyMemoryError::new_err(format!("out of memory copying an input of {len} bytes")));
    }
    v.resize(len, 0);
    Ok(v)
}

/// A copy of `bytes` (`to_vec`, fallible as [`zeroed_bytes`]).
pub(crate) fn copy_bytes(bytes: &[u8]) -> PyResult<Vec<u8>> {
    let mut v = zeroed_bytes(bytes.len())?;
    v.copy_from_slice(bytes);
    Ok(v)
}

/// A new bytes object holding `bytes` (`PyBytes::new`, fallible: pyo3's
/// panics when CPython cannot make it).
pub(crate) fn new_bytes<'py>(py: Python<'py>, bytes: &[u8]) -> PyResult<Bound<'py, pyo3::types::PyBytes>> {
    // SAFETY: GIL held (we have `py`); the pointer and length are those of
    // `bytes`; the new reference (null with an exception set when the
    // allocation fails) goes to the `Bound`.
    unsafe {
        let p = pyo3::ffi::PyBytes_FromStringAndSize(bytes.as_ptr().cast(), bytes.len() as pyo3::ffi::Py_ssize_t);
        if p.is_null() {
            return Err(PyErr::fetch(py));
        }
        Ok(Bound::from_owned_ptr(py, p).cast_into_unchecked::<pyo3::types::PyBytes>())
    }
}
