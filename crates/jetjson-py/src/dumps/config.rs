//! Keyword options of `dumps`, `digest` and `canonicalize`, resolved into the
//! core's `WriteOptions` once per call.

use jetjson::{NonFinite, Profile, WriteOptions, MAX_INDENT};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

pub struct OutputOptions<'a> {
    pub profile: &'a str,
    pub sort_keys: bool,
    pub escape_html: Option<bool>,
    pub ascii_only: bool,
    pub indent: Option<i64>,
    pub nan: &'a str,
}

pub fn parse_profile(name: &str) -> PyResult<Profile> {
    name.parse::<Profile>().map_err(PyValueError::new_err)
}

impl OutputOptions<'_> {
    /// The core options. `sort_keys=False` leaves the order to the profile
    /// (Go sorts map keys, as `json.Marshal` does); `True` sorts every object,
    /// dataclasses included. `jcs` refuses options that would make its output
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
        if self.sort_keys {
            w = w.sort_keys(true);
        }
        Ok(w)
    }
}
