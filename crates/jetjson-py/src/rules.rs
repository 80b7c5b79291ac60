//! The rules the Python functions share with the CLI and the C library
//! (issue 22, "one behaviour in every front end"), spelled as Python
//! keywords:
//!
//! - a function whose output is hashed or signed (`canonicalize`,
//!   `digest`) takes its profile explicitly: no default;
//! - an output keyword that cannot change the profile's bytes is refused
//!   (the core's rule, `WriteOptions::inapplicable`);
//! - the write depth limit is `max_write_depth`, with the core's default
//!   and range.
//!
//! `dumps` keeps its default profile (compact) and follows the other two
//! rules through `refuse_inapplicable` and `write_depth`.

use jetjson::{NonFinite, Profile, WriteOption, WriteOptions, MAX_WRITE_DEPTH};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt};

use crate::dumps::OutputOptions;

/// The profile of a function that has no default one, or a TypeError that
/// lists the profiles (as a missing argument is a TypeError in Python).
pub fn required_profile<'a>(function: &str, profile: Option<&'a str>) -> PyResult<&'a str> {
    profile.ok_or_else(|| {
        PyTypeError::new_err(format!(
            "{function}() needs a profile: \"compact\", \"go\" or \"jcs\", e.g. {function}(x, \"jcs\") or \
             {function}(x, profile=\"go\") (there is no default: compact is minimal JSON in input key order, \
             go is Go's json.Marshal bytes, jcs is RFC 8785)"
        ))
    })
}

/// Refuses a keyword that cannot change the output of `options.profile`
/// (an unknown profile is left to `OutputOptions::resolve`, which names it).
pub fn refuse_inapplicable(options: &OutputOptions<'_>) -> PyResult<()> {
    let Ok(profile) = options.profile.parse::<Profile>() else { return Ok(()) };
    // The keywords as the core sees them: set, or left to the profile.
    let mut probe = WriteOptions::new(profile).ascii_only(options.ascii_only);
    if let Some(n) = options.indent.filter(|&n| n > 0) {
        probe = probe.indent(u16::try_from(n).unwrap_or(u16::MAX));
    }
    if let Some(on) = options.escape_html {
        probe = probe.escape_html(on);
    }
    // (`sort_keys=False` with compact, which keeps the order already, is
    // let through: it is json.dumps' own default, passed out of habit.)
    match (options.sort_keys, profile) {
        (Some(false), Profile::Compact) | (None, _) => {}
        (Some(sort), _) => probe = probe.sort_keys(sort),
    }
    if options.nan == "null" {
        probe = probe.non_finite(NonFinite::Null);
    }
    match probe.inapplicable() {
        Some(refused) => Err(PyValueError::new_err(format!(
            "{} cannot be used with profile \"{}\": {}",
            keyword(refused.option, options.indent, options.tabs),
            profile.name(),
            refused.reason
        ))),
        None => Ok(()),
    }
}

/// How Python spells an output option.
fn keyword(option: WriteOption, indent: Option<i64>, tabs: bool) -> String {
    match option {
        WriteOption::EscapeHtml(on) => format!("escape_html={}", if on { "True" } else { "False" }),
        WriteOption::SortKeys(sort) => format!("sort_keys={}", if sort { "True" } else { "False" }),
        WriteOption::Indent if tabs => format!("indent={:?}", "\t".repeat(indent.unwrap_or_default().clamp(0, 16) as usize)),
        WriteOption::Indent => format!("indent={}", indent.unwrap_or_default()),
        WriteOption::AsciiOnly => "ascii_only=True".to_owned(),
        _ => "nan=\"null\"".to_owned(),
    }
}

/// `max_write_depth` as every function takes it: an int (not a bool) in
/// the core's range, checked before anything is written; the error shows
/// the value as given, however large.
pub fn write_depth(depth: &Bound<'_, PyAny>) -> PyResult<usize> {
    if depth.cast::<PyBool>().is_ok() || depth.cast::<PyInt>().is_err() {
        return Err(crate::loads::wrong_type("max_write_depth", "an int", depth));
    }
    match depth.extract::<i64>().ok().and_then(|d| usize::try_from(d).ok()) {
        Some(d) if (1..=MAX_WRITE_DEPTH).contains(&d) => Ok(d),
        _ => Err(crate::loads::out_of_range("max_write_depth", &format!("an int from 1 to {MAX_WRITE_DEPTH}"), depth)),
    }
}

/// `max_write_depth` as a pyo3 argument (`write_depth`).
pub struct WriteDepth(pub usize);

impl<'a, 'py> FromPyObject<'a, 'py> for WriteDepth {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<WriteDepth> {
        write_depth(&obj).map(WriteDepth)
    }
}
