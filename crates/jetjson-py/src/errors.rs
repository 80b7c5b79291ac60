//! The module's exception types and how core errors become Python ones.
//!
//! `JSONDecodeError` subclasses `json.JSONDecodeError` (so `except ValueError`
//! and `except json.JSONDecodeError` keep working); `JSONEncodeError`
//! subclasses `TypeError`, as `json.dumps` raises `TypeError` for objects it
//! cannot serialize.

use pyo3::exceptions::PyTypeError;
use pyo3::ffi;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyString, PyTuple, PyType};

static DECODE_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static ENCODE_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();

pub fn decode_error_type(py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
    DECODE_ERROR
        .get_or_try_init(py, || {
            let base = py.import("json")?.getattr("JSONDecodeError")?.cast_into::<PyType>()?;
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
    let build = || -> PyResult<PyErr> {
        // `{msg}: line {lineno} column {colno} (char {pos})`, as json words it.
        let mut text = String::with_capacity(msg.len() + 48);
        text.push_str(msg);
        text.push_str(": line ");
        push_decimal(&mut text, lineno);
        text.push_str(" column ");
        push_decimal(&mut text, colno);
        text.push_str(" (char ");
        push_decimal(&mut text, pos);
        text.push(')');
        let at = Place { pos, lineno, colno };
        Ok(PyErr::from_value(json_error(decode_error_type(py)?, &text, msg, doc, at, None)?))
    };
    build().unwrap_or_else(|e| e)
}

/// Appends `n` in decimal (what `format!("{n}")` writes, without the
/// formatting machinery: error paths are hot for a service refusing
/// bodies).
pub fn push_decimal(out: &mut String, n: usize) {
    out.push_str(itoa::Buffer::new().format(n));
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
    let args = PyTuple::new(py, [new_str(py, text)?])?;
    let type_ptr = ty.as_type_ptr();
    // SAFETY: `type_ptr` is a live type object (held by `ty`); `tp_new` is
    // its slot, called as CPython calls it: the type, an args tuple (held
    // by `args` for the call) and no keywords. It returns a new reference
    // or null with an exception set.
    let exc = unsafe {
        let Some(new) = (*type_ptr).tp_new else {
            return Err(pyo3::exceptions::PyTypeError::new_err("jetjson: the error type cannot be instantiated"));
        };
        Bound::from_owned_ptr_or_err(py, new(type_ptr, args.as_ptr(), std::ptr::null_mut()))?
    };
    let dict = PyDict::new(py);
    dict.set_item(intern!(py, "msg"), new_str(py, msg)?)?;
    dict.set_item(intern!(py, "doc"), doc)?;
    dict.set_item(intern!(py, "pos"), at.pos)?;
    dict.set_item(intern!(py, "lineno"), at.lineno)?;
    dict.set_item(intern!(py, "colno"), at.colno)?;
    if let Some(path) = path {
        dict.set_item(intern!(py, "path"), path)?;
    }
    // SAFETY: `exc` is a live instance of an exception type (which has a
    // `__dict__` slot) and `dict` a live dict; PyObject_GenericSetDict
    // takes its own reference to the dict and releases the previous one
    // (none: a new instance), returning -1 with an exception set on failure.
    if unsafe { ffi::PyObject_GenericSetDict(exc.as_ptr(), dict.as_ptr(), std::ptr::null_mut()) } != 0 {
        return Err(PyErr::fetch(py));
    }
    Ok(exc)
}
