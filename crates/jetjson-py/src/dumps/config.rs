//! Keyword options of `dumps`, `digest` and `canonicalize`, resolved into the
//! core's `WriteOptions` once per call.

use jetjson::{NonFinite, Profile, WriteOptions, MAX_INDENT};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt, PyString};

pub struct OutputOptions<'a> {
    pub profile: &'a str,
    /// None: the profile's order; True sorts every object; False keeps
    /// insertion order (what go does with `--keep-order` in the CLI).
    pub sort_keys: Option<bool>,
    pub escape_html: Option<bool>,
    pub ascii_only: bool,
    pub indent: Option<i64>,
    /// The indent is `indent` tabs (it was given as a str of tabs).
    pub tabs: bool,
    pub nan: &'a str,
}

/// `indent` as `dumps`, `canonicalize` and `digest` take it, as `json` does:
/// None, an int (spaces) or a str of spaces or of tabs; its width and
/// whether it is tabs. `bool` is refused (`indent=True` is a mistake).
/// The width's range is checked by `OutputOptions::resolve`.
pub fn parse_indent(v: &Bound<'_, PyAny>) -> PyResult<(Option<i64>, bool)> {
    if v.is_none() {
        return Ok((None, false));
    }
    if let Ok(s) = v.cast::<PyString>() {
        let t = s.to_str()?;
        let tabs = !t.is_empty() && t.bytes().all(|b| b == b'\t');
        if !(tabs || t.bytes().all(|b| b == b' ')) {
            return Err(PyValueError::new_err(format!("indent must be an int, a str of spaces or a str of tabs, got {t:?}")));
        }
        if t.len() > usize::from(MAX_INDENT) {
            let what = if tabs { "tabs" } else { "spaces" };
            return Err(PyValueError::new_err(format!(
                "indent must be a str of at most {MAX_INDENT} spaces or tabs, got {} {what}",
                t.len()
            )));
        }
        return Ok((Some(t.len() as i64), tabs));
    }
    if v.cast::<PyBool>().is_ok() || v.cast::<PyInt>().is_err() {
        let name = v.get_type().name().map(|n| n.to_string()).unwrap_or_else(|_| "?".to_owned());
        return Err(PyTypeError::new_err(format!("indent must be an int, a str of spaces or tabs, or None, not {name}")));
    }
    // The range here, with the value as given (however large).
    match v.extract::<i64>() {
        Ok(n) if (0..=i64::from(MAX_INDENT)).contains(&n) => Ok((Some(n), false)),
        _ => Err(PyValueError::new_err(format!("indent must be None or an int from 0 to {MAX_INDENT}, got {v}"))),
    }
}

pub fn parse_profile(name: &str) -> PyResult<Profile> {
    name.parse::<Profile>().map_err(PyValueError::new_err)
}

impl OutputOptions<'_> {
    /// The core options. `sort_keys=None` leaves the order to the profile
    /// (Go sorts map keys, as `json.Marshal` does); `True` sorts every object,
    /// dataclasses included; `False` keeps every object's order (go's maps
    /// too, as the CLI's `--keep-order`). `jcs` refuses options that would make its output
    /// something other than RFC 8785, as the CLI does.
    pub fn resolve(&self) -> PyResult<WriteOptions> {
        let profile = parse_profile(self.profile)?;
        let indent = match self.indent {
            None => 0,
            // The core's cap (16 spaces), refused here before anything is written.
            Some(n) if (0..=i64::from(MAX_INDENT)).contains(&n) => n as u16,
            Some(n) => return Err(PyValueError::new_err(format!("indent must be None or an int from 0 to {MAX_INDENT}, got {n}"))),
        };
        let non_finite = match self.nan {
            "error" => NonFinite::Error,
            "null" => NonFinite::Null,
            other => return Err(PyValueError::new_err(format!("nan must be \"error\" or \"null\", got {other:?}"))),
        };
        if profile == Profile::Jcs {
            let refused = [(indent > 0, "indent"), (self.ascii_only, "ascii_only"), (self.escape_html == Some(true), "escape_html")];
            if let Some((_, name)) = refused.iter().find(|(on, _)| *on) {
                return Err(PyValueError::new_err(format!("{name} cannot be used with profile \"jcs\" (RFC 8785 fixes the layout)")));
            }
        }
        let mut w = WriteOptions::new(profile).indent(indent).ascii_only(self.ascii_only).non_finite(non_finite);
        if let Some(html) = self.escape_html {
            w = w.escape_html(html);
        }
        if let Some(sort) = self.sort_keys {
            w = w.sort_keys(sort);
        }
        if self.tabs {
            w = w.indent_tabs(indent);
        }
        Ok(w)
    }
}
