//! `Raw`: pre-serialized JSON embedded in `dumps` output.
//!
//! The text is validated once, when the `Raw` is made (`Raw.unchecked`
//! trusts it). Each profile then embeds it by its own rule (the core's
//! `RawPolicy`): `compact` copies it, `go` compacts it as Go does a
//! `json.RawMessage`, `jcs` canonicalizes it.

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString, PyType};

use crate::json_text::json_text;

#[pyclass(module = "jetjson", frozen)]
pub struct Raw {
    json: Py<PyBytes>,
}

impl Raw {
    pub fn json<'a>(&'a self, py: Python<'_>) -> &'a [u8] {
        self.json.as_bytes(py)
    }
}

/// The input as a bytes object (the same object for bytes input).
fn as_bytes_object<'py>(data: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyBytes>> {
    if let Ok(b) = data.cast::<PyBytes>() {
        return Ok(b.clone());
    }
    let text = json_text(data)?;
    Ok(PyBytes::new(data.py(), &text.bytes))
}

#[pymethods]
impl Raw {
    /// Raw(json: bytes | str | bytearray | memoryview): checks that `json` is
    /// one valid JSON value (JSONDecodeError otherwise).
    #[new]
    fn new(data: &Bound<'_, PyAny>) -> PyResult<Raw> {
        let py = data.py();
        let text = json_text(data)?;
        if let Err(e) = jetjson::RawJson::from_slice(&text.bytes) {
            return Err(text.error(py, &e, data));
        }
        Ok(Raw { json: as_bytes_object(data)?.unbind() })
    }

    /// A Raw that trusts `data` without checking it: compact output copies
    /// it as is (invalid JSON in, invalid JSON out); go and jcs still parse it.
    #[classmethod]
    fn unchecked(_cls: &Bound<'_, PyType>, data: &Bound<'_, PyAny>) -> PyResult<Raw> {
        Ok(Raw { json: as_bytes_object(data)?.unbind() })
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
