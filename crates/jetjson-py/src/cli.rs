//! The `jetjson` command line tool inside the Python package
//! (`python -m jetjson`, and the `jetjson` script pip installs): the CLI
//! crate's `run`, the very code of the `jetjson` binary, on the process's
//! own stdin, stdout and stderr.

use std::ffi::OsString;

use pyo3::prelude::*;

/// Runs the jetjson command line tool with `argv` (program name first, as
/// `sys.argv`) and returns its exit status. Called by `jetjson.__main__`,
/// which flushes Python's own streams first and exits with the status.
#[pyfunction]
pub fn run_cli(py: Python<'_>, argv: Vec<OsString>) -> u8 {
    // The tool may read stdin for a long time and runs worker threads:
    // other Python threads go on meanwhile.
    py.detach(|| jetjson_cli::run(argv))
}
