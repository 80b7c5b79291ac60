//! The `jetjson` command line tool: canonical bytes, digests, strict
//! validation and pretty-printing of JSON and NDJSON.
//!
//! One entry point, [`run`], is the whole tool: the `jetjson` binary calls
//! it with its arguments, and so does the Python package (`python -m
//! jetjson`, its `jetjson` script), so there is one implementation.
//!
//! This file holds the dispatch; the command line (clap) is in `args.rs`,
//! each command in `commands/`, reading in `input.rs`, parallel NDJSON in
//! `ndjson.rs`, error reports in `report.rs`, exit codes in `fail.rs`.
//!
//! Nothing here prints with `print!`/`eprint!` (which panic when the stream
//! cannot be written, e.g. `2>/dev/full`): stdout goes through checked
//! writes, stderr through `report::print`. The lint below keeps it so.
#![deny(clippy::print_stdout, clippy::print_stderr)]

mod args;
mod commands;
mod fail;
mod input;
mod ndjson;
mod progress;
mod report;

use std::ffi::OsString;
use std::io::{BufWriter, Write};

use clap::Parser;

use crate::args::{Cli, Command};
use crate::fail::Fail;

pub(crate) use crate::args::{threads, CanonArgs, CheckArgs, DigestArgs, FmtArgs};

/// Runs the tool with `args` (the first being the program's name, as in
/// `std::env::args_os()`) on the process's stdin, stdout and stderr, and
/// returns its exit status: 0 success, 1 invalid input, 2 usage or I/O
/// error (`jetjson --help` lists them).
///
/// It never panics on bad input or on streams that cannot be written, and
/// never exits the process itself: the caller does, with the status.
pub fn run<I, T>(args: I) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => return clap_exit(&e),
    };
    // One lock and one large buffer for all output: NDJSON output is many
    // small writes, and stdout is otherwise line-buffered.
    let mut out = BufWriter::with_capacity(256 << 10, std::io::stdout().lock());
    let result = match &cli.command {
        Command::Canon(args) => commands::canon::run(args, &mut out),
        Command::Digest(args) => commands::digest::run(args, &mut out),
        Command::Check(args) => commands::check::run(args),
        Command::Fmt(args) => commands::fmt::run(args, &mut out),
    };
    // Flush even after a failure: canon --lines has written the good lines
    // before the bad one, and they must come out.
    let flushed = out.flush().map_err(Fail::write);
    match result.and(flushed) {
        Ok(()) => 0,
        Err(fail) => {
            if let Fail::Io(msg) | Fail::Usage(msg) = &fail {
                report::print(&format!("jetjson: {msg}\n"));
            }
            fail.exit_code()
        }
    }
}

/// Ends a run that clap stopped: --help and --version (text on stdout, 0)
/// or a usage error (text on stderr, 2). clap's own `exit` ignores a failed
/// write; here help that cannot be written (`--help >/dev/full`) exits 2,
/// as any other output that cannot be written does, and a closed pipe
/// (`--help | head -1`) still ends quietly with 0.
fn clap_exit(e: &clap::Error) -> u8 {
    let printed = e.print().and_then(|()| if e.use_stderr() { Ok(()) } else { std::io::stdout().flush() });
    let code = u8::try_from(e.exit_code()).unwrap_or(2);
    match printed {
        Err(err) if code == 0 && err.kind() != std::io::ErrorKind::BrokenPipe => {
            report::print(&format!("jetjson: writing output: {err}\n"));
            2
        }
        _ => code,
    }
}
