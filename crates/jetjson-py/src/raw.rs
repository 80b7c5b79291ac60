//! `Raw`: pre-serialized JSON embedded in `dumps` output.
use pyo3::prelude::*;

#[pyclass(module = "jetjson", frozen)]
pub struct Raw {}
