use pyo3::prelude::*;

#[pyfunction]
pub fn dumps(_obj: &Bound<'_, PyAny>) -> PyResult<()> {
    Err(pyo3::exceptions::PyNotImplementedError::new_err("dumps"))
}
