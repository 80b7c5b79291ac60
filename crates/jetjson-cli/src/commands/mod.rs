//! One module per subcommand; shared pieces of the per-line work live here.

pub mod canon;
pub mod check;
pub mod digest;
pub mod fmt;

use jetjson::{ReadOptions, Value};

use crate::fail::Fail;
use crate::input::Source;
use crate::report;

/// What went wrong with one NDJSON line. Kept as data (not text) because the
/// line's number in the file is known only when blocks are put back in order.
pub enum LineProblem {
    Blank(Vec<u8>),
    Parse(jetjson::Error, Vec<u8>),
    /// The value parsed but the profile cannot write it (no position).
    Write(jetjson::Error),
}

impl LineProblem {
    pub fn render(&self, name: &str, line_no: u64) -> String {
        match self {
            LineProblem::Blank(line) => report::located(name, report::At { line: line_no, column: 1 }, "empty line", line),
            LineProblem::Parse(err, line) => report::line_error(name, line_no, line, err),
            LineProblem::Write(err) => report::unlocated(name, Some(line_no), &err.to_string()),
        }
    }
}

/// Parses one whole document, reporting a syntax error on stderr.
pub fn parse_document(source: &Source, read: &ReadOptions, input: &[u8]) -> Result<Value, Fail> {
    Value::from_slice_with(input, read).map_err(|e| {
        report::print(&report::parse_error(&source.name(), input, &e));
        Fail::Invalid
    })
}
