//! The module's exception types and how core errors become Python ones.
//!
//! `JSONDecodeError` subclasses `json.JSONDecodeError` (so `except ValueError`
//! and `except json.JSONDecodeError` keep working); `JSONEncodeError`
//! subclasses `TypeError`, as `json.dumps` raises `TypeError` for objects it
//! cannot serialize.

use pyo3::exceptions::PyTypeError;
use pyo3::ffi;

// Dict insertion with the key's hash supplied (declared once, with the
// builder's other uses).
use crate::loads::builder::_PyDict_SetItem_KnownHash;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyString, PyType};

static DECODE_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();

/// `e` with its exception object made now, in the caller's frame, for a
/// function body that pyo3's trampoline raises from.
///
/// A pyo3 error is lazy: its message string and instance are made when it
/// is raised, which pyo3's trampoline does after its own `catch_unwind`; if
/// that allocation fails, pyo3 panics there ("PyObject pointer is null")
/// and the process aborts ("panic at ffi boundary"). Made here, such a
/// failure is caught and the call raises `MemoryError` instead. (pyo3's
/// own argument errors, made before the body runs, still go the lazy way.)
#[cold]
#[inline(never)]
pub(crate) fn made_now(py: Python<'_>, e: PyErr) -> PyErr {
    let made = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let value = e.into_value(py);
        PyErr::from_value(value.into_bound(py).into_any())
    }));
    match made {
        Ok(e) => e,
        Err(_) => {
            // The failed allocation left MemoryError set (else it is set
            // here, from CPython's preallocated instances).
            if let Some(e) = PyErr::take(py) {
                return e;
            }
            // SAFETY: the GIL is held (we have `py`).
            unsafe { ffi::PyErr_NoMemory() };
            PyErr::take(py).unwrap_or_else(|| pyo3::exceptions::PyMemoryError::new_err("out of memory"))
        }
    }
}

/// `JSONDecodeError` if it was made (module set-up makes it), with no
/// initialisation: for quick calls (fast.rs).
pub(crate) fn decode_error_type_if_made(py: Python<'_>) -> Option<*mut ffi::PyTypeObject> {
    DECODE_ERROR.get(py).map(|t| t.as_ptr().cast::<ffi::PyTypeObject>())
}
static ENCODE_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();

pub fn decode_error_type(py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
    DECODE_ERROR
        .get_or_try_init(py, || {
            let base = py
                .import(crate::fallible::name!(py, "json")?)?
                .getattr(crate::fallible::name!(py, "JSONDecodeError")?)?
                .cast_into::<PyType>()?;
            let ty = PyErr::new_type(
                py,
                c"jetjson.JSONDecodeError",
                Some(c"Invalid JSON input: msg, pos (offset in the input), lineno and colno (1-based) say what and where."),
                Some(&base),
                None,
            )?;
            Ok(ty)
        })
        .map(|t| t.bind(py))
}

pub fn encode_error_type(py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
    ENCODE_ERROR
        .get_or_try_init(py, || {
            let base = py.get_type::<PyTypeError>();
            let ty = PyErr::new_type(
                py,
                c"jetjson.JSONEncodeError",
                Some(c"An object that cannot be written in the chosen profile; the message starts with its path ($.items[3].price)."),
                Some(&base),
                None,
            )?;
            Ok(ty)
        })
        .map(|t| t.bind(py))
}

/// A `JSONEncodeError` with `message` (which should start with the path).
pub fn encode_error(py: Python<'_>, message: String) -> PyErr {
    match encode_error_type(py) {
        Ok(ty) => PyErr::from_type(ty.clone(), message),
        Err(e) => e,
    }
}

/// A `JSONDecodeError` built the way `json.JSONDecodeError.__init__` does,
/// but with our line and column (computed by the parser, not re-counted
/// over `doc`). `pos` is a character offset for `str` input and a byte
/// offset for bytes-like input; `lineno` and `colno` are 1-based.
pub fn decode_error(py: Python<'_>, msg: &str, doc: &Bound<'_, PyAny>, pos: usize, lineno: usize, colno: usize) -> PyErr {
    let ty = match decode_error_type(py) {
        Ok(ty) => ty,
        Err(e) => return e,
    };
    let at = Place { pos, lineno, colno };
    // SAFETY: `ty` is a live exception type and `doc` a live object, both
    // held for the call; GIL held (the token). The result is a new
    // reference or null with an exception set.
    let exc = unsafe { decode_error_raw(ty.as_type_ptr(), msg, doc.as_ptr(), at) };
    // SAFETY: as above.
    match unsafe { Bound::from_owned_ptr_or_err(py, exc) } {
        Ok(exc) => PyErr::from_value(exc),
        Err(e) => e,
    }
}

/// The `JSONDecodeError` of `decode_error`, made with the C API only (no
/// `Py<T>` or `PyErr` made or dropped, no pyo3 API that attaches: callable
/// from a quick call, fast.rs): a new reference, or null with an exception
/// set. Its text is `{msg}: line {lineno} column {colno} (char {pos})`, as
/// json words it.
///
/// # Safety
/// GIL held; `ty` is a live exception type (`JSONDecodeError` or a
/// subclass) and `doc` a live object, both held by the caller for the call.
pub(crate) unsafe fn decode_error_raw(ty: *mut ffi::PyTypeObject, msg: &str, doc: *mut ffi::PyObject, at: Place) -> *mut ffi::PyObject {
    let tail = Tail::place(at);
    // SAFETY: per the contract.
    unsafe {
        let (text, msg_obj) = if msg.is_ascii() {
            // The text and msg as compact ASCII strs filled in place: no
            // Rust `String` and no UTF-8 decoder.
            let text = concat_ascii(msg.as_bytes(), tail.bytes());
            if text.is_null() {
                return std::ptr::null_mut();
            }
            (text, crate::loads::strings::new_ascii(msg.as_bytes()))
        } else {
            let mut text = String::with_capacity(msg.len() + tail.len);
            text.push_str(msg);
            // The tail is ASCII (digits and punctuation).
            text.push_str(tail.as_str());
            let text = crate::loads::strings::new_str(&text);
            if text.is_null() {
                return std::ptr::null_mut();
            }
            (text, crate::loads::strings::new_str(msg))
        };
        if msg_obj.is_null() {
            ffi::Py_DECREF(text);
            return std::ptr::null_mut();
        }
        json_error_from(ty, text, msg_obj, doc, at, std::ptr::null_mut())
    }
}

/// ASCII text built on the stack (an error text's tail: at most three
/// numbers of 20 digits and 23 bytes of words; the size limit's message),
/// with no allocation and no formatting machinery.
pub(crate) struct Tail {
    buf: [u8; 96],
    len: usize,
}

impl Tail {
    pub(crate) fn new() -> Tail {
        Tail { buf: [0; 96], len: 0 }
    }

    pub(crate) fn push(&mut self, b: &[u8]) {
        // Never more than the buffer holds (see the type); a push that
        // would not fit is cut rather than panicking.
        let n = b.len().min(self.buf.len() - self.len);
        self.buf[self.len..self.len + n].copy_from_slice(&b[..n]);
        self.len += n;
    }

    pub(crate) fn number(&mut self, n: usize) {
        self.push(itoa::Buffer::new().format(n).as_bytes());
    }

    /// `: line {lineno} column {colno} (char {pos})`, as json words where
    /// an error is.
    pub(crate) fn place(at: Place) -> Tail {
        let mut tail = Tail::new();
        tail.push(b": line ");
        tail.number(at.lineno);
        tail.push(b" column ");
        tail.number(at.colno);
        tail.push(b" (char ");
        tail.number(at.pos);
        tail.push(b")");
        tail
    }

    pub(crate) fn bytes(&self) -> &[u8] {
        &self.buf[..self.len]
    }

    /// The text (only ASCII is ever pushed; empty if that were not so).
    pub(crate) fn as_str(&self) -> &str {
        std::str::from_utf8(self.bytes()).unwrap_or_default()
    }
}

/// The core's message for `ErrorKind::SizeLimit { limit }` ("input larger
/// than max_size {limit} bytes"), without `format!` (a service refusing
/// oversized bodies makes it on every refusal; `test_loads.py` checks the
/// words against the core's through `bytearray` input too).
pub(crate) fn size_limit_message(limit: usize) -> Tail {
    let mut t = Tail::new();
    t.push(b"input larger than max_size ");
    t.number(limit);
    t.push(b" bytes");
    t
}

/// A compact ASCII `str` of `a` then `b` (both ASCII): a new reference, or
/// null with an exception set.
///
/// # Safety
/// GIL held; `a` and `b` are ASCII.
unsafe fn concat_ascii(a: &[u8], b: &[u8]) -> *mut ffi::PyObject {
    // SAFETY: PyUnicode_New with maxchar 127 makes a compact ASCII str
    // whose data (the bytes right after its header) holds `len` bytes and
    // a NUL, written below before the str is used; ASCII is what it says.
    unsafe {
        let len = a.len() + b.len();
        let s = ffi::PyUnicode_New(len as ffi::Py_ssize_t, 127);
        if s.is_null() {
            return s;
        }
        let data = s.cast::<ffi::PyASCIIObject>().add(1).cast::<u8>();
        std::ptr::copy_nonoverlapping(a.as_ptr(), data, a.len());
        std::ptr::copy_nonoverlapping(b.as_ptr(), data.add(a.len()), b.len());
        s
    }
}

/// A `str` of `text`: made and filled as compact ASCII when it is ASCII
/// (messages nearly always are), which skips the UTF-8 decoder.
fn new_str<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyString>> {
    if !text.is_ascii() {
        return Ok(PyString::new(py, text));
    }
    // SAFETY: `text` is ASCII, as `new_ascii` requires; it returns a new
    // reference to an exact str, or null with an exception set.
    unsafe { Ok(Bound::from_owned_ptr_or_err(py, crate::loads::strings::new_ascii(text.as_bytes()))?.cast_into_unchecked()) }
}

/// Where a `JSONDecodeError` points: `pos` (characters for `str` input,
/// bytes otherwise), `lineno` and `colno` (1-based).
#[derive(Clone, Copy)]
pub struct Place {
    pub pos: usize,
    pub lineno: usize,
    pub colno: usize,
}

/// The attribute names of a `JSONDecodeError`, interned (so their hashes
/// are computed and kept), and the keyword name `max_size`: made when the
/// module is set up (`init_names`), then only read, with the GIL held, so
/// a quick call (fast.rs) can use them with no pyo3 `PyOnceLock` to
/// initialise. Strong references, never released.
pub(crate) struct Names {
    pub msg: *mut ffi::PyObject,
    pub doc: *mut ffi::PyObject,
    pub pos: *mut ffi::PyObject,
    pub lineno: *mut ffi::PyObject,
    pub colno: *mut ffi::PyObject,
    pub path: *mut ffi::PyObject,
    pub max_size: *mut ffi::PyObject,
}

// SAFETY: the pointers are strong references to immutable (interned) strs
// that are never released; they are only read, and used with the GIL held.
unsafe impl Sync for Names {}
// SAFETY: as above.
unsafe impl Send for Names {}

static NAMES: std::sync::OnceLock<Names> = std::sync::OnceLock::new();

/// Makes `NAMES` (module set-up, with the GIL held, before any call can
/// use them).
pub(crate) fn init_names(py: Python<'_>) -> PyResult<()> {
    if NAMES.get().is_some() {
        return Ok(());
    }
    let intern = |s: &str| -> *mut ffi::PyObject { PyString::intern(py, s).into_any().unbind().into_ptr() };
    let names = Names {
        msg: intern("msg"),
        doc: intern("doc"),
        pos: intern("pos"),
        lineno: intern("lineno"),
        colno: intern("colno"),
        path: intern("path"),
        max_size: intern("max_size"),
    };
    // Made under the GIL by the module's set-up, which runs once; the
    // names are immortal in effect (never released).
    let _ = NAMES.set(names);
    Ok(())
}

/// The interned names, once the module is set up.
#[inline]
pub(crate) fn names() -> Option<&'static Names> {
    NAMES.get()
}

/// An instance of `ty` (`JSONDecodeError` or a subclass) whose text is
/// `text`, with the attributes `json.JSONDecodeError.__init__` sets, in
/// its order: `msg`, `doc`, `pos`, `lineno`, `colno`, then `path` when
/// given (`ValidationError`). No Python code runs: the type's `tp_new`
/// (`BaseException`'s) makes the instance with `(text,)` as its args, and
/// the attributes go into a dict made for them, installed as the
/// instance's `__dict__` (what five `setattr` calls would leave, without
/// their lookups: a service refusing bad bodies raises these often).
pub fn json_error<'py>(
    ty: &Bound<'py, PyType>,
    text: &str,
    msg: &str,
    doc: &Bound<'py, PyAny>,
    at: Place,
    path: Option<&str>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = ty.py();
    let text = new_str(py, text)?;
    let msg = new_str(py, msg)?;
    let path = path.map(|p| new_str(py, p)).transpose()?;
    let path_ptr = path.as_ref().map_or(std::ptr::null_mut(), |p| p.as_ptr());
    // SAFETY: every object is live and held for the call; `json_error_from`
    // takes over the new references it is given (text and msg: ours,
    // handed over by `into_ptr`), borrows `doc` and `path`.
    unsafe {
        let exc = json_error_from(ty.as_type_ptr(), text.into_ptr(), msg.into_ptr(), doc.as_ptr(), at, path_ptr);
        Bound::from_owned_ptr_or_err(py, exc)
    }
}

/// `json_error` with the C API only: `text` and `msg` are new references
/// to strs, taken over (released on every path); `doc` and `path` (a str,
/// or null for none) are borrowed. A new reference, or null with an
/// exception set.
///
/// # Safety
/// GIL held; `ty` is a live exception type whose instances have a
/// `__dict__`; every pointer but `path` is a live object.
unsafe fn json_error_from(
    ty: *mut ffi::PyTypeObject,
    text: *mut ffi::PyObject,
    msg: *mut ffi::PyObject,
    doc: *mut ffi::PyObject,
    at: Place,
    path: *mut ffi::PyObject,
) -> *mut ffi::PyObject {
    // SAFETY: per the contract; every new reference made here is released
    // exactly once, after `json_error_parts` (which takes its own).
    unsafe {
        let numbers = [ffi::PyLong_FromSize_t(at.pos), ffi::PyLong_FromSize_t(at.lineno), ffi::PyLong_FromSize_t(at.colno)];
        let exc =
            if numbers.iter().any(|n| n.is_null()) { std::ptr::null_mut() } else { json_error_parts(ty, text, msg, doc, numbers, path) };
        for n in numbers {
            if !n.is_null() {
                ffi::Py_DECREF(n);
            }
        }
        ffi::Py_DECREF(text);
        ffi::Py_DECREF(msg);
        exc
    }
}

/// The error made of its parts, all borrowed: `text` (its args), `msg`,
/// `doc`, `numbers` (`pos`, `lineno`, `colno`: ints) and `path` (a str, or
/// null for none). A new reference, or null with an exception set.
///
/// # Safety
/// GIL held; `ty` is a live exception type whose instances have a
/// `__dict__`; every pointer but `path` is a live object.
unsafe fn json_error_parts(
    ty: *mut ffi::PyTypeObject,
    text: *mut ffi::PyObject,
    msg: *mut ffi::PyObject,
    doc: *mut ffi::PyObject,
    numbers: [*mut ffi::PyObject; 3],
    path: *mut ffi::PyObject,
) -> *mut ffi::PyObject {
    // SAFETY: per the contract; every new reference made here is released
    // exactly once (the dict and the tuple take their own).
    unsafe {
        let Some(names) = names() else {
            ffi::PyErr_SetString(ffi::PyExc_SystemError, c"jetjson: the module was not set up".as_ptr());
            return std::ptr::null_mut();
        };
        // `(text,)`: the tuple's own reference to `text`.
        let args = ffi::PyTuple_New(1);
        if args.is_null() {
            return args;
        }
        ffi::PyTuple_SET_ITEM(args, 0, ffi::Py_NewRef(text));
        // `tp_new` is the type's slot, called as CPython calls it: the
        // type, an args tuple and no keywords; a new reference or null
        // with an exception set.
        let exc = match (*ty).tp_new {
            Some(new) => new(ty, args, std::ptr::null_mut()),
            None => {
                ffi::PyErr_SetString(ffi::PyExc_TypeError, c"jetjson: the error type cannot be instantiated".as_ptr());
                std::ptr::null_mut()
            }
        };
        ffi::Py_DECREF(args);
        if exc.is_null() {
            return exc;
        }
        let dict = ffi::PyDict_New();
        if dict.is_null() {
            ffi::Py_DECREF(exc);
            return dict;
        }
        // Keys interned, so their hashes are at hand; the dict takes its
        // own reference to each value.
        let [pos, lineno, colno] = numbers;
        let mut ok = set(dict, names.msg, msg, false);
        ok = ok && set(dict, names.doc, doc, false);
        ok = ok && set(dict, names.pos, pos, false);
        ok = ok && set(dict, names.lineno, lineno, false);
        ok = ok && set(dict, names.colno, colno, false);
        if !path.is_null() {
            ok = ok && set(dict, names.path, path, false);
        }
        // PyObject_GenericSetDict takes its own reference to the dict and
        // releases the previous one (none: a new instance), returning -1
        // with an exception set on failure.
        if !ok || ffi::PyObject_GenericSetDict(exc, dict, std::ptr::null_mut()) != 0 {
            ffi::Py_DECREF(dict);
            ffi::Py_DECREF(exc);
            return std::ptr::null_mut();
        }
        ffi::Py_DECREF(dict);
        exc
    }
}

/// The parts of the last size-limit refusal's error (`size_limit_error_raw`),
/// kept for the next refusal with the same limit and place: compact bodies
/// (no newline before the limit) refused by one service's limit all have
/// the same text, msg and numbers. Strong references to immutable objects
/// (strs and ints), released when a refusal with other parts replaces them.
struct Refusal {
    key: (usize, usize, usize, usize),
    text: *mut ffi::PyObject,
    msg: *mut ffi::PyObject,
    numbers: [*mut ffi::PyObject; 3],
}

impl Refusal {
    /// New parts for `limit` at `at` (`None`, with an exception set and
    /// nothing kept, if an allocation fails).
    ///
    /// # Safety
    /// GIL held.
    unsafe fn make(limit: usize, at: Place) -> Option<Refusal> {
        let msg = size_limit_message(limit);
        let tail = Tail::place(at);
        // SAFETY: GIL held; the message and tail are ASCII; every object
        // made is released if another fails.
        unsafe {
            let parts = Refusal {
                key: (limit, at.pos, at.lineno, at.colno),
                text: concat_ascii(msg.bytes(), tail.bytes()),
                msg: crate::loads::strings::new_ascii(msg.bytes()),
                numbers: [ffi::PyLong_FromSize_t(at.pos), ffi::PyLong_FromSize_t(at.lineno), ffi::PyLong_FromSize_t(at.colno)],
            };
            if parts.text.is_null() || parts.msg.is_null() || parts.numbers.iter().any(|n| n.is_null()) {
                parts.release();
                return None;
            }
            Some(parts)
        }
    }

    /// Releases the kept references.
    ///
    /// # Safety
    /// GIL held.
    unsafe fn release(self) {
        for p in [self.text, self.msg, self.numbers[0], self.numbers[1], self.numbers[2]] {
            if !p.is_null() {
                // SAFETY: a strong reference this value owns; releasing an
                // exact str or int runs no Python code.
                unsafe { ffi::Py_DECREF(p) };
            }
        }
    }
}

/// The kept `Refusal`, touched only with the GIL held; out of the slot
/// while an error is made from it (see `size_limit_error_raw` for what
/// Python code run meanwhile finds).
struct LastRefusal(std::cell::Cell<Option<Refusal>>);

// SAFETY: every access holds the GIL (`size_limit_error_raw`'s contract);
// the extension is not built for free-threaded CPython (lib.rs).
unsafe impl Sync for LastRefusal {}

static LAST_REFUSAL: LastRefusal = LastRefusal(std::cell::Cell::new(None));

/// The `JSONDecodeError` of an input refused for being longer than
/// `limit` (the message `size_limit_message(limit)`, at `at`, `doc` the
/// input), as `decode_error_raw` makes it but with the text, msg and
/// numbers of the last such refusal when they are the same (`Refusal`).
/// A new reference, or null with an exception set.
///
/// # Safety
/// GIL held; `ty` is `JSONDecodeError` (live), `doc` a live object held by
/// the caller for the call.
pub(crate) unsafe fn size_limit_error_raw(
    ty: *mut ffi::PyTypeObject,
    limit: usize,
    doc: *mut ffi::PyObject,
    at: Place,
) -> *mut ffi::PyObject {
    let key = (limit, at.pos, at.lineno, at.colno);
    // SAFETY: per the contract. The parts are out of the slot while the
    // error is made, then put back. Python code may run meanwhile (a
    // `__new__` set by Python code, a finalizer the allocations trigger),
    // and a nested refusal then finds the slot empty and makes parts of
    // its own; whichever parts `replace` displaces are released, so none
    // leak and none are released twice (tests/python/test_reject_review.py).
    unsafe {
        let parts = match LAST_REFUSAL.0.take() {
            Some(kept) if kept.key == key => kept,
            other => {
                if let Some(old) = other {
                    old.release();
                }
                match Refusal::make(limit, at) {
                    Some(parts) => parts,
                    None => return std::ptr::null_mut(),
                }
            }
        };
        let exc = json_error_parts(ty, parts.text, parts.msg, doc, parts.numbers, std::ptr::null_mut());
        if let Some(other) = LAST_REFUSAL.0.replace(Some(parts)) {
            other.release();
        }
        exc
    }
}

/// `dict[key] = value` for an interned `key`; `value` null (its creation
/// failed, an exception set) is a failure. An owned `value` is released
/// whatever happens. False on failure, with an exception set.
///
/// # Safety
/// GIL held; `dict` a live dict, `key` a live interned str, `value` null
/// or a live object (a new reference when `owned`).
#[inline]
unsafe fn set(dict: *mut ffi::PyObject, key: *mut ffi::PyObject, value: *mut ffi::PyObject, owned: bool) -> bool {
    if value.is_null() {
        return false;
    }
    // SAFETY: per the contract; an interned str's hash was computed when
    // it was interned (read from its header; -1 only if never computed,
    // then computed here).
    unsafe {
        let mut hash = (*key.cast::<ffi::PyASCIIObject>()).hash;
        if hash == -1 {
            hash = ffi::PyObject_Hash(key);
        }
        let r = _PyDict_SetItem_KnownHash(dict, key, value, hash);
        if owned {
            ffi::Py_DECREF(value);
        }
        r == 0
    }
}
