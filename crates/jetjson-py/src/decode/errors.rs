//! `jetjson.ValidationError`: valid JSON that does not fit the type.
//!
//! A subclass of `jetjson.JSONDecodeError` (so of `json.JSONDecodeError`
//! and `ValueError`): handlers written for bad input keep working. Its text
//! says what, where in the value and where in the input:
//! `Expected int, got str at $.items[3].qty (line 5 column 14)`; `msg`
//! is the first part, `path` the second, and `pos`, `lineno`, `colno` the
//! place of the offending value (characters for `str` input, bytes
//! otherwise), as for any `JSONDecodeError`.

use jetjson::Position;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyType;

use super::builder::Failure;
use crate::errors::decode_error_type;
use crate::loads::location;

static VALIDATION_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();

pub(crate) fn validation_error_type(py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
    VALIDATION_ERROR
        .get_or_try_init(py, || {
            let base = decode_error_type(py)?;
            PyErr::new_type(
                py,
                c"jetjson.ValidationError",
                Some(c"JSON that does not fit the type it is decoded into: msg says what, path where in the value ($.items[3].qty), pos, lineno and colno where in the input."),
                Some(base),
                None,
            )
        })
        .map(|t| t.bind(py))
}

/// A `ValidationError` saying `msg` about the value at `path`, found at
/// byte `offset` of `input`.
pub(crate) fn validation_error(
    py: Python<'_>,
    msg: &str,
    path: &str,
    offset: Option<usize>,
    input: &[u8],
    is_str: bool,
    doc: &Bound<'_, PyAny>,
) -> PyErr {
    let build = || -> PyResult<PyErr> {
        let position = offset.map(|at| Position::locate(input, at));
        let (pos, lineno, colno) = location::python_position(position, input, is_str);
        let text = format!("{msg} at {path} (line {lineno} column {colno})");
        let at = crate::errors::Place { pos, lineno, colno };
        Ok(PyErr::from_value(crate::errors::json_error(validation_error_type(py)?, &text, msg, doc, at, Some(path))?))
    };
    build().unwrap_or_else(|e| e)
}

/// The first repeated member name of `input`, found by the parser's own
/// tracking (with its message and position), as a `JSONDecodeError`.
pub(crate) fn repeated_name(py: Python<'_>, input: &[u8], is_str: bool, doc: &Bound<'_, PyAny>) -> Option<PyErr> {
    let options = jetjson::ReadOptions::new().max_depth(usize::MAX).duplicate_keys(jetjson::DuplicateKeys::Error).lossless_numbers(true); // the decode was lossless, or the text has no such literal
    let e = jetjson::parse::validate(input, &options).err()?;
    Some(location::decode_error_from(py, &e, input, is_str, doc))
}

/// The Python exception for a failed decode: the builder's failure if it
/// recorded one (its position, else the parser's), else the parser's
/// error as a `JSONDecodeError`.
pub(crate) fn decode_failure(
    py: Python<'_>,
    failure: Option<Failure>,
    e: &jetjson::Error,
    input: &[u8],
    is_str: bool,
    doc: &Bound<'_, PyAny>,
) -> PyErr {
    let here = e.position().map(|p| p.offset);
    match failure {
        Some(Failure::Invalid { msg, path, at }) => validation_error(py, &msg, &path, at.or(here), input, is_str, doc),
        // ValueError and TypeError from the class's own code
        // (`__post_init__`, `__init__`, a factory) say the value is not
        // acceptable: a ValidationError at the object, caused by them.
        // Anything else (MemoryError, RecursionError, ...) goes through.
        Some(Failure::Python { err, path, at }) if err.is_instance_of::<PyValueError>(py) || err.is_instance_of::<PyTypeError>(py) => {
            let msg = err.value(py).str().map(|s| s.to_string()).unwrap_or_default();
            let v = validation_error(py, &msg, &path, at.or(here), input, is_str, doc);
            v.set_cause(py, Some(err));
            v
        }
        Some(Failure::Python { err, .. }) => err,
        Some(Failure::Syntax { msg, at }) => {
            location::decode_error_at(py, &msg, at.or(here).map(|a| Position::locate(input, a)), input, is_str, doc)
        }
        Some(Failure::Duplicate) => {
            repeated_name(py, input, is_str, doc).unwrap_or_else(|| location::decode_error_from(py, e, input, is_str, doc))
        }
        None => location::decode_error_from(py, e, input, is_str, doc),
    }
}
