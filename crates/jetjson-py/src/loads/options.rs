//! The keyword options of `loads`, checked as pyo3 extracts them: a wrong
//! type is a TypeError, a value of the right type out of range a ValueError,
//! each naming the option as Python spells it (`wrong_type`, `out_of_range`).

use jetjson::DuplicateKeys;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt, PyString};

/// Which keyword option a `Limit` is (its const parameter): the index of
/// its name in `LIMIT_NAMES`, so that its errors name it.
pub(crate) const MAX_DEPTH: u8 = 0;
pub(crate) const MAX_SIZE: u8 = 1;
const LIMIT_NAMES: [&str; 2] = ["max_depth", "max_size"];

/// A non-negative size or depth (`max_depth`, `max_size`: `OPTION`).
#[derive(Clone, Copy)]
pub(crate) struct Limit<const OPTION: u8>(pub usize);

impl<'a, 'py, const OPTION: u8> FromPyObject<'a, 'py> for Limit<OPTION> {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Limit<OPTION>> {
        let name = LIMIT_NAMES[OPTION as usize];
        // bool is an int subclass, but `max_depth=True` is a mistake.
        if obj.cast::<PyBool>().is_ok() || obj.cast::<PyInt>().is_err() {
            return Err(wrong_type(name, "an int", &obj));
        }
        match obj.extract::<i128>() {
            Ok(v) if v < 0 => Err(out_of_range(name, "an int >= 0", &obj)),
            Ok(v) => Ok(Limit(usize::try_from(v).unwrap_or(usize::MAX))),
            // Beyond 128 bits: no input is that large, so it means "no limit".
            Err(_) if obj.lt(0i32).unwrap_or(false) => Err(out_of_range(name, "an int >= 0", &obj)),
            Err(_) => Ok(Limit(usize::MAX)),
        }
    }
}

/// The TypeError of keyword option `option` given `obj`, which is not
/// `expected` (`max_size must be an int, not float`): every option's
/// wrong type is worded by this, naming the option as Python spells it.
pub(crate) fn wrong_type(option: &str, expected: &str, obj: &Bound<'_, PyAny>) -> PyErr {
    let name = obj.get_type().name().map(|n| n.to_string()).unwrap_or_else(|_| "an unknown type".to_owned());
    PyTypeError::new_err(format!("{option} must be {expected}, not {name}"))
}

/// A str option's text (`profile`, `nan`), or the TypeError naming it
/// (`profile must be a str, not int`, as `dumps` words it).
pub(crate) fn str_option<'a>(option: &str, obj: &'a Bound<'_, PyAny>) -> PyResult<&'a str> {
    match obj.cast::<PyString>() {
        Ok(s) => s.to_str(),
        Err(_) => Err(wrong_type(option, "a str", obj)),
    }
}

/// The ValueError of keyword option `option` given `obj`, of the right
/// type but not `expected` (`max_size must be an int >= 0, got -1`); the
/// value as given, its head when its text is long.
pub(crate) fn out_of_range(option: &str, expected: &str, obj: &Bound<'_, PyAny>) -> PyErr {
    let shown = obj.repr().map(|r| r.to_string()).unwrap_or_else(|_| "?".to_owned());
    let shown =
        if shown.len() > 80 { format!("{}...", &shown[..shown.char_indices().nth(60).map_or(shown.len(), |(i, _)| i)]) } else { shown };
    PyValueError::new_err(format!("{option} must be {expected}, got {shown}"))
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
            return Err(wrong_type("duplicate_keys", "\"error\", \"first\" or \"last\"", &obj));
        };
        match s.to_str()? {
            "error" => Ok(Policy(DuplicateKeys::Error)),
            "first" => Ok(Policy(DuplicateKeys::First)),
            "last" => Ok(Policy(DuplicateKeys::Last)),
            other => Err(PyValueError::new_err(format!("duplicate_keys must be \"error\", \"first\" or \"last\", not {other:?}"))),
        }
    }
}
