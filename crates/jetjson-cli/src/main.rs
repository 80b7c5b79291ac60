//! The `jetjson` binary: the command line of the `jetjson_cli` library,
//! which the Python package runs too (`python -m jetjson`, its `jetjson`
//! script), so both are one implementation.

fn main() -> std::process::ExitCode {
    std::process::ExitCode::from(jetjson_cli::run(std::env::args_os()))
}
