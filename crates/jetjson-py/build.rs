//! Interpreter cfgs (`Py_3_10`, `Py_GIL_DISABLED`, ...) for this crate's own
//! code, as pyo3 sets them for itself.
fn main() {
    pyo3_build_config::use_pyo3_cfgs();
}
