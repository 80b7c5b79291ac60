//! The module's exception types and how core errors become Python ones.
//!
//! `JSONDecodeError` subclasses `json.JSONDecodeError` (so `except ValueError`
//! and `except json.JSONDecodeError` keep working); `JSONEncodeError`
//! subclasses `TypeError`, as `json.dumps` raises `TypeError` for objects it
//! cannot serialize.

use pyo3::exceptions::PyTypeError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyType;

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
        let text = format!("{msg}: line {lineno} column {colno} (char {pos})");
        Ok(PyErr::from_value(json_error(decode_error_type(py)?, text, msg, doc, pos, lineno, colno)?))
    };
    build().unwrap_or_else(|e| e)
}

/// An instance of `ty` (`JSONDecodeError` or a subclass) whose text is
/// `text`, with the attributes `json.JSONDecodeError.__init__` sets:
/// `BaseException.__new__` with the text as args, then `msg`, `doc`, `pos`,
/// `lineno` and `colno` (interned names: a service rejecting bad bodies
/// raises these often).
pub fn json_error<'py>(
    ty: &Bound<'py, PyType>,
    text: String,
    msg: &str,
    doc: &Bound<'py, PyAny>,
    pos: usize,
    lineno: usize,
    colno: usize,
) -> PyResult<Bound<'py, PyAny>> {
    let py = ty.py();
    let exc = ty.call_method1(intern!(py, "__new__"), (ty, text))?;
    exc.setattr(intern!(py, "msg"), msg)?;
    exc.setattr(intern!(py, "doc"), doc)?;
    exc.setattr(intern!(py, "pos"), pos)?;
    exc.setattr(intern!(py, "lineno"), lineno)?;
    exc.setattr(intern!(py, "colno"), colno)?;
    Ok(exc)
}
