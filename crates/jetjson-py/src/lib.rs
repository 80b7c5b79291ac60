//! The Python module `jetjson._jetjson`.
//!
//! Everything goes through the core crate: `dumps` walks Python objects and
//! drives the core `Writer` (dumps/), `loads` is a builder over the core
//! parser that creates Python objects directly (loads/), and `canonicalize`
//! and `digest` reuse the core's `Value` path and hashing sink (canon.rs).
//! Hot paths use the raw CPython API (`pyo3::ffi`); pyo3's safe API is used
//! for module set-up, argument parsing and cold paths.

use pyo3::prelude::*;

// The extension relies on the GIL to serialize its process-wide caches and
// the objects it reads in place (SECURITY.md): it is not built for
// free-threaded CPython.
#[cfg(Py_GIL_DISABLED)]
compile_error!("jetjson's extension needs the GIL: free-threaded CPython is not supported");

mod canon;
mod cli;
mod decode;
mod digest;
mod dumps;
mod errors;
mod fallible;
mod fast;
mod json_text;
mod loads;
mod raw;
mod rules;
mod schema;

#[pymodule]
fn _jetjson(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    errors::init_names(py)?;
    m.add("JSONDecodeError", errors::decode_error_type(py)?)?;
    m.add("JSONEncodeError", errors::encode_error_type(py)?)?;
    m.add_class::<raw::Raw>()?;
    raw::install_quick_new(py);
    m.add("ValidationError", decode::validation_error_type(py)?)?;
    m.add_class::<decode::Decoder>()?;
    decode::register_decode(m)?;
    dumps::register(m)?;
    loads::register(m)?;
    m.add_function(wrap_pyfunction!(canon::canonicalize, m)?)?;
    m.add_function(wrap_pyfunction!(digest::digest, m)?)?;
    m.add_function(wrap_pyfunction!(digest::digest_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(json_text::buffer_bytes_of, m)?)?;
    m.add_function(wrap_pyfunction!(cli::run_cli, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
