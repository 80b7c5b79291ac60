//! How a command ends when it does not succeed, and the exit code for each way.
//!
//! Exit codes are part of the interface (scripts branch on them):
//! 0 = success (also when stdout was closed early, as `head` does),
//! 1 = the input is not valid JSON (or cannot be written in the profile),
//! 2 = usage errors and I/O errors (a file that cannot be read, a failed write).

use std::io;

#[derive(Debug)]
pub enum Fail {
    /// The input was invalid; the report is already on stderr.
    Invalid,
    /// An input could not be read or the output not written; the message is
    /// printed by `main`.
    Io(String),
    /// Some inputs could not be read and that was reported already (check
    /// goes on with the other files and only sets the exit code).
    Unreadable,
    /// A combination of flags clap cannot rule out by itself.
    Usage(String),
    /// The reader of stdout went away (`jetjson canon --lines big | head`).
    /// Not an error: stop quietly, as Unix filters do.
    BrokenPipe,
}

impl Fail {
    /// A failed write to stdout.
    pub fn write(e: io::Error) -> Fail {
        if e.kind() == io::ErrorKind::BrokenPipe {
            Fail::BrokenPipe
        } else {
            Fail::Io(format!("writing output: {e}"))
        }
    }

    /// A failed read of the input called `name`.
    pub fn read(name: &str, e: io::Error) -> Fail {
        Fail::Io(format!("{name}: {e}"))
    }

    pub fn exit_code(&self) -> u8 {
        match self {
            Fail::Invalid => 1,
            Fail::Io(_) | Fail::Unreadable | Fail::Usage(_) => 2,
            Fail::BrokenPipe => 0,
        }
    }
}
