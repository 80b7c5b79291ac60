//! The keyword options of `loads`, checked as pyo3 extracts them: a wrong
//! type is a TypeError, a value of the right type out of range a ValueError.

use jetjson::DuplicateKeys;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt, PyString};

/// A non-negative size or depth (`max_depth`, `max_size`).
#[derive(Clone, Copy)]
pub(crate) struct Limit(pub usize);

impl<'a, 'py> FromPyObject<'a, 'py> for Limit {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Limit> {
        // bool is an int subclass, but `max_depth=True` is a mistake.
        if obj.cast::<PyBool>().is_ok() || obj.cast::<PyInt>().is_err() {
            return Err(PyTypeError::new_err(format!("expected an int, not {}", type_name(&obj))));
        }
        match obj.extract::<i128>() {
            Ok(v) if v < 0 => Err(PyValueError::new_err(format!("must be >= 0, not {v}"))),
            Ok(v) => Ok(Limit(usize::try_from(v).unwrap_or(usize::MAX))),
            // Beyond 128 bits: no input is that large, so it means "no limit".
            Err(_) if obj.lt(0i32).unwrap_or(false) => Err(PyValueError::new_err("must be >= 0")),
            Err(_) => Ok(Limit(usize::MAX)),
        }
    }
}

/// A flag: any object's truth value, as `json` reads its flags.
#[derive(Clone, Copy)]
pub(crate) struct Flag(pub bool);

impl<'a, 'py> FromPyObject<'a, 'py> for Flag {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Flag> {
        Ok(Flag(obj.is_truthy()?))
    }
}

/// `duplicate_keys`: "error", "first" or "last".
#[derive(Clone, Copy)]
pub(crate) struct Policy(pub DuplicateKeys);

impl<'a, 'py> FromPyObject<'a, 'py> for Policy {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Policy> {
        let Ok(s) = obj.cast::<PyString>() else {
            return Err(PyTypeError::new_err(format!("expected a str, not {}", type_name(&obj))));
        };
        match s.to_str()? {
            "error" => Ok(Policy(DuplicateKeys::Error)),
            "first" => Ok(Policy(DuplicateKeys::First)),
            "last" => Ok(Policy(DuplicateKeys::Last)),
            other => Err(PyValueError::new_err(format!("duplicate_keys must be \"error\", \"first\" or \"last\", not {other:?}"))),
        }
    }
}

fn type_name(obj: &Borrowed<'_, '_, PyAny>) -> String {
    obj.get_type().name().map(|n| n.to_string()).unwrap_or_else(|_| "an unknown type".to_owned())
}
