//! `digest`: the hash of an object's bytes in a profile ("sha256:<hex>"),
//! hashed while they are written: the output is never held whole.

use jetjson::{Algorithm, Hasher, Writer};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::dumps::{write_object, OutputOptions};

/// The digest of `obj`'s bytes in a profile, as "sha256:<hex>" (or sha512),
/// hashed while they are written. Options as for dumps.
#[pyfunction]
#[pyo3(signature = (obj, profile="go", algorithm="sha256", *, sort_keys=false, escape_html=None, ascii_only=false, indent=None, default=None, nan="error"))]
#[allow(clippy::too_many_arguments)]
pub fn digest<'py>(
    obj: &Bound<'py, PyAny>,
    profile: &str,
    algorithm: &str,
    sort_keys: bool,
    escape_html: Option<bool>,
    ascii_only: bool,
    indent: Option<i64>,
    default: Option<&Bound<'py, PyAny>>,
    nan: &str,
) -> PyResult<String> {
    let options = OutputOptions { profile, sort_keys, escape_html, ascii_only, indent, nan }.resolve()?;
    let algorithm: Algorithm = algorithm.parse().map_err(PyValueError::new_err)?;
    let mut w = Writer::with_sink(&options, Hasher::new(algorithm));
    write_object(&mut w, obj, default)?;
    let hasher = w.finish().map_err(|e| crate::errors::encode_error(obj.py(), e.to_string()))?;
    Ok(hasher.finish())
}
