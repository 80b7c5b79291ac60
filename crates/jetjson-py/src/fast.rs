//! C entry points that take their most common calls without pyo3's
//! trampoline.
//!
//! pyo3's trampoline (the C function every `#[pyfunction]` gets, and the
//! one `loads`, `dumps` and `Decoder.decode` used) counts the thread as
//! attached in a thread-local (a call into the dynamic linker from a shared
//! library), looks at its pool of deferred reference releases and converts
//! the result: about 70 instructions, a fifth of a `loads(b'1')`.
//!
//! Here the C function CPython calls runs a *quick* body first, with a
//! `Python` token it assumes (CPython calls a C function with the thread
//! attached and the GIL held, which is what the token stands for). pyo3
//! does not count the thread as attached meanwhile, and a `Py<T>` dropped
//! by a thread pyo3 does not count as attached is not released but queued
//! until the next pyo3 entry. So a quick body must drop no `Py<T>` and no
//! `PyErr` (which holds `Py<T>`s): it works with raw pointers and `Bound`s
//! (whose drop releases at once), and leaves every call it cannot finish
//! that way, failures included, to the *slow* function: pyo3's trampoline
//! over the general body, given the call's arguments as they came, which
//! does the whole call again (a quick body must have no effect visible to
//! Python when it declines, and no exception set). A panic in a quick body
//! (a bug: nothing in them should panic) is caught and raised as
//! `SystemError`.

use std::panic::{catch_unwind, AssertUnwindSafe};

use pyo3::ffi::{self, PyObject};
use pyo3::Python;

/// A `METH_FASTCALL | METH_KEYWORDS` C function (pyo3's trampoline over a
/// general body).
pub(crate) type Slow = unsafe extern "C" fn(*mut PyObject, *const *mut PyObject, ffi::Py_ssize_t, *mut PyObject) -> *mut PyObject;

/// Runs `quick`, and `slow` with the same arguments if it declines (`None`).
///
/// # Safety
/// Called only as (or from) a `METH_FASTCALL | METH_KEYWORDS` C function,
/// with its arguments: the GIL held by this thread; `quick` follows the
/// rules above (returns a new reference, or null with an exception set when
/// it raised the call's error itself, or `None` with no exception set and
/// no `Py<T>` or `PyErr` dropped).
#[inline(always)]
pub(crate) unsafe fn run(
    quick: impl FnOnce(Python<'_>) -> Option<*mut PyObject>,
    slow: Slow,
    slf: *mut PyObject,
    args: *const *mut PyObject,
    nargs: ffi::Py_ssize_t,
    kwnames: *mut PyObject,
) -> *mut PyObject {
    // SAFETY: the arguments as CPython gave them to this call.
    unsafe { run_or(quick, || slow(slf, args, nargs, kwnames)) }
}

/// `run`, with `otherwise` (another quick body, or the slow function over
/// the call's arguments) called when `quick` declines.
///
/// # Safety
/// As `run`; `otherwise` completes the call as `slow` would.
#[inline(always)]
pub(crate) unsafe fn run_or(
    quick: impl FnOnce(Python<'_>) -> Option<*mut PyObject>,
    otherwise: impl FnOnce() -> *mut PyObject,
) -> *mut PyObject {
    // SAFETY: CPython calls a C function with this thread attached and the
    // GIL held (the caller's contract); the token does not outlive the call.
    let py = unsafe { Python::assume_attached() };
    match catch_unwind(AssertUnwindSafe(|| quick(py))) {
        Ok(Some(result)) => result,
        Ok(None) => otherwise(),
        Err(_) => {
            // SAFETY: GIL held; the message is a NUL-terminated literal.
            unsafe { ffi::PyErr_SetString(ffi::PyExc_SystemError, c"jetjson: internal error (a panic) in a quick call path".as_ptr()) };
            std::ptr::null_mut()
        }
    }
}
