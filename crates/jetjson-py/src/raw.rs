//! `Raw`: pre-serialized JSON embedded in `dumps` output.
//!
//! The text is validated once, when the `Raw` is made (`Raw.unchecked`
//! trusts it). Each profile then embeds it by its own rule (the core's
//! `RawPolicy`): `compact` copies it, `go` compacts it as Go does a
//! `json.RawMessage`, `jcs` canonicalizes it.

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString, PyType};

use crate::json_text::{json_text, JsonText};
use crate::loads::Policy;

#[pyclass(module = "jetjson", frozen)]
pub struct Raw {
    json: Py<PyBytes>,
}

impl Raw {
    pub fn json<'a>(&'a self, py: Python<'_>) -> &'a [u8] {
        self.json.as_bytes(py)
    }

    /// A new `Raw` holding `json`, which the caller has checked (typed
    /// decode: a member's text as the parser accepted it).
    pub(crate) fn checked(py: Python<'_>, json: &[u8]) -> PyResult<Py<Raw>> {
        Py::new(py, Raw { json: PyBytes::new(py, json).unbind() })
    }
}

/// The input as a bytes object: the same object for bytes input (immutable),
/// else a new one made from `text`, the bytes read from `data` once (a
/// bytearray or a buffer may change after it was read; what was read, and
/// checked, is what is kept).
fn as_bytes_object<'py>(data: &Bound<'py, PyAny>, text: &JsonText<'_>) -> Bound<'py, PyBytes> {
    match data.cast::<PyBytes>() {
        Ok(b) => b.clone(),
        Err(_) => PyBytes::new(data.py(), &text.bytes),
    }
}

#[pymethods]
impl Raw {
    /// Raw(json: bytes | str | bytearray | memoryview, *, duplicate_keys="error"):
    /// checks that `json` is one valid JSON value, as `loads` reads it
    /// (JSONDecodeError otherwise, with its position). A name twice in one
    /// object is an error, as in `loads`, unless `duplicate_keys` is "first"
    /// or "last". The bytes are read once: those checked are those kept.
    #[new]
    #[pyo3(signature = (data, *, duplicate_keys=Policy(jetjson::DuplicateKeys::Error)))]
    fn new(data: &Bound<'_, PyAny>, duplicate_keys: Policy) -> PyResult<Raw> {
        let py = data.py();
        let options = jetjson::ReadOptions::new().duplicate_keys(duplicate_keys.0);
        let text = json_text(data)?;
        if let Err(e) = jetjson::RawJson::from_slice_with(&text.bytes, &options) {
            return Err(text.error(py, &e, data));
        }
        Ok(Raw { json: as_bytes_object(data, &text).unbind() })
    }

    /// A Raw that trusts `data` without checking it: compact output copies
    /// it as is (invalid JSON in, invalid JSON out); go and jcs still parse it.
    #[classmethod]
    fn unchecked(_cls: &Bound<'_, PyType>, data: &Bound<'_, PyAny>) -> PyResult<Raw> {
        let text = json_text(data)?;
        Ok(Raw { json: as_bytes_object(data, &text).unbind() })
    }

    fn __bytes__(&self, py: Python<'_>) -> Py<PyBytes> {
        self.json.clone_ref(py)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let bytes = self.json.bind(py);
        let shown = match std::str::from_utf8(bytes.as_bytes()) {
            Ok(s) => PyString::new(py, s).repr()?,
            Err(_) => bytes.repr()?,
        };
        Ok(format!("Raw({shown})"))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let py = other.py();
        match other.cast::<Raw>() {
            Ok(o) => Ok(pyo3::types::PyBool::new(py, self.json(py) == o.get().json(py)).to_owned().into_any().unbind()),
            Err(_) => Ok(py.NotImplemented()),
        }
    }

    fn __hash__(&self, py: Python<'_>) -> PyResult<isize> {
        self.json.bind(py).hash()
    }
}
