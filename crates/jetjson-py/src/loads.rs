use pyo3::prelude::*;

#[pyfunction]
pub fn loads(_data: &Bound<'_, PyAny>) -> PyResult<()> {
    Err(pyo3::exceptions::PyNotImplementedError::new_err("loads"))
}
