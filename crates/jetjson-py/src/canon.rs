use pyo3::prelude::*;

#[pyfunction]
pub fn canonicalize(_data: &Bound<'_, PyAny>) -> PyResult<()> {
    Err(pyo3::exceptions::PyNotImplementedError::new_err("canonicalize"))
}

#[pyfunction]
pub fn digest(_obj: &Bound<'_, PyAny>) -> PyResult<()> {
    Err(pyo3::exceptions::PyNotImplementedError::new_err("digest"))
}
