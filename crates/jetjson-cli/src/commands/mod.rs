//! One module per subcommand; shared pieces of the per-line work live here.

pub mod canon;
pub mod check;
pub mod digest;
pub mod fmt;

use std::io::{self, Write};

use jetjson::{ReadOptions, Sink, Value, WriteOptions, Writer};

use crate::fail::Fail;
use crate::input::Source;
use crate::report;

/// What went wrong with one NDJSON line. Kept as data (not text) because the
/// line's number in the file is known only when blocks are put back in order.
pub enum LineProblem {
    Blank(Vec<u8>),
    Parse(jetjson::Error, Vec<u8>),
    /// The value parsed but the profile cannot write it, and the line (for
    /// a write-depth error's place in it).
    Write(jetjson::Error, Vec<u8>),
    /// A line longer than `--max-size` (its first `limit + 1` bytes, which
    /// is all that was read of it), starting `at` bytes into its block.
    /// It ends the input: nothing after it is read.
    TooLong {
        limit: usize,
        line: Vec<u8>,
        at: usize,
    },
}

impl LineProblem {
    /// The report for the problem on line `line_no` of a block that starts
    /// `block_offset` bytes into the input.
    pub fn render(&self, name: &str, line_no: u64, block_offset: u64) -> String {
        match self {
            LineProblem::Blank(line) => report::located(name, report::At { line: line_no, column: 1 }, "empty line", line),
            LineProblem::Parse(err, line) => report::line_error(name, line_no, line, err),
            LineProblem::Write(err, line) => {
                report::line_error(name, line_no, line, &jetjson::__private::write_error_in(err.clone(), line))
            }
            LineProblem::TooLong { limit, line, at } => {
                let offset = block_offset + (*at + *limit) as u64;
                let message =
                    format!("input larger than --max-size {limit} bytes (a line longer than the limit; reading stopped at byte offset {offset} of the input)");
                report::located(name, report::At { line: line_no, column: limit + 1 }, &message, line)
            }
        }
    }

    /// True for a problem that ends the input (nothing after it was read).
    pub fn ends_input(&self) -> bool {
        matches!(self, LineProblem::TooLong { .. })
    }
}

/// The problem of `line` (a line of `block`) when it is longer than
/// `max_line`. The block reader cuts such a line one byte past the limit
/// and stops, but a line that ended inside a block arrives whole: both
/// end the input, so where blocks happen to be cut changes nothing.
pub fn too_long(block: &[u8], line: &[u8], max_line: Option<usize>) -> Option<LineProblem> {
    let limit = max_line.filter(|&max| line.len() > max)?;
    // `line` is a subslice of `block`: its offset is the distance between them.
    let at = line.as_ptr() as usize - block.as_ptr() as usize;
    Some(LineProblem::TooLong { limit, line: line[..=limit].to_vec(), at })
}

/// Parses one whole document, reporting a syntax error on stderr.
pub fn parse_document(source: &Source, read: &ReadOptions, input: &[u8]) -> Result<Value, Fail> {
    jetjson::__private::value_from_slice_recovering(input, read).map_err(|e| reading_failed(source, input, &e))
}

/// Reports an error reading a whole document: the input's fault (exit 1,
/// with its place), or the machine's when memory ran out (exit 2, with no
/// place: the input may be valid).
pub fn reading_failed(source: &Source, input: &[u8], e: &jetjson::Error) -> Fail {
    if matches!(e.kind(), jetjson::ErrorKind::OutOfMemory) {
        report::print(&report::unlocated(&source.name(), None, &report::message(e)));
        return Fail::Unreadable;
    }
    report::print(&report::parse_error(&source.name(), input, e));
    Fail::Invalid
}

/// Writes one document to `out`, all or nothing: a value the profile cannot
/// write (a number out of `jcs`'s range, nesting past `max_write_depth`)
/// leaves `out` untouched.
///
/// An output of up to `HOLD_BACK` bytes is made in memory and written once
/// whole. A larger one (pretty-printing a deep document multiplies its
/// size by depth x indent) is never held whole: the document is first
/// written into a sink that only counts, which finds any such value, then
/// again to `out` in chunks as it is made.
///
/// A value the profile cannot write is reported like any invalid input
/// (exit 1); a failed write is an I/O error (exit 2, or a quiet stop on a
/// closed pipe), which can still cut the output short: the run then fails,
/// and the report says how much of it went out.
///
/// `input`: the text `value` was read from, when it is kept (`keep_input`),
/// so that a write-depth error says where in it the too-deep container is.
pub fn write_document(
    source: &Source,
    input: Option<&[u8]>,
    value: &Value,
    options: &WriteOptions,
    out: &mut impl Write,
) -> Result<(), Fail> {
    let mut held = Vec::new();
    let mut overflowed = false;
    let first = {
        let mut w = Writer::with_sink(options, Held { held: &mut held, overflowed: &mut overflowed });
        value.write_to(&mut w).and_then(|()| w.finish().map(drop))
    };
    match first {
        Ok(()) => return out.write_all(&held).map_err(Fail::write),
        Err(e) if !overflowed => return Err(write_failed(source, input, e, 0)),
        Err(_) => {}
    }
    drop(held);
    // Too large to hold: look for a value the profile refuses first.
    {
        let mut w = Writer::with_sink(options, Discard);
        if let Err(e) = value.write_to(&mut w).and_then(|()| w.finish().map(drop)) {
            return Err(write_failed(source, input, e, 0));
        }
    }
    let mut failed = None;
    let mut spilled = 0;
    let written = {
        let mut w = Writer::with_sink(options, Output { out, failed: &mut failed, spilled: &mut spilled });
        value.write_to(&mut w).and_then(|()| w.finish().map(drop))
    };
    match (written, failed) {
        (Ok(()), _) => Ok(()),
        (Err(_), Some(io)) => Err(Fail::write(io)),
        (Err(e), None) => Err(write_failed(source, input, e, spilled)),
    }
}

/// The largest output `write_document` makes in memory before writing it.
const HOLD_BACK: usize = 16 << 20;

/// Reports a value the profile cannot write, `spilled` bytes into the output.
fn write_failed(source: &Source, input: Option<&[u8]>, e: jetjson::Error, spilled: u64) -> Fail {
    // A text not kept (`keep_input`) is read again from its file, on this
    // path only, to place the value in it (stdin cannot be read twice: the
    // report then has the value's path alone). Any failure to read it
    // leaves the report as it was.
    let again;
    let input = match (input, source) {
        (None, Source::File(_)) if e.position().is_none() => {
            again = source.read_all(None).ok();
            again.as_deref()
        }
        _ => input,
    };
    let e = match input {
        Some(input) => jetjson::__private::write_error_in(e, input),
        None => e,
    };
    let mut message = report::message(&e);
    if spilled > 0 {
        message.push_str(&format!(" (output incomplete: {spilled} bytes were written before the error)"));
    }
    match (e.position(), input) {
        (Some(p), Some(input)) => report::print(&report::located(
            &source.name(),
            report::At { line: p.line as u64, column: p.column },
            &message,
            report::line_around(input, p.offset),
        )),
        _ => report::print(&report::unlocated(&source.name(), None, &message)),
    }
    Fail::Invalid
}

/// The first sink of `write_document`: output held in memory, up to
/// `HOLD_BACK` bytes (then `overflowed`, and the write stops).
struct Held<'a> {
    held: &'a mut Vec<u8>,
    overflowed: &'a mut bool,
}

impl Sink for Held<'_> {
    fn spill(&mut self, bytes: &[u8]) -> jetjson::Result<()> {
        if self.held.len() + bytes.len() > HOLD_BACK || self.held.try_reserve(bytes.len()).is_err() {
            *self.overflowed = true;
            return Err(jetjson::Error::new(jetjson::ErrorKind::Io("output larger than is held in memory".into())));
        }
        self.held.extend_from_slice(bytes);
        Ok(())
    }
}

/// A sink that drops what it is given: writing into it finds whether the
/// profile can write a value, at the cost of making its bytes.
struct Discard;

impl Sink for Discard {
    fn spill(&mut self, _: &[u8]) -> jetjson::Result<()> {
        Ok(())
    }
}

/// Whether to keep a document's text while it is written: only when the
/// write-depth limit is below the read one, the one case where writing can
/// fail on depth, so that the error can say where (`write_document`).
pub fn keep_input(read_max_depth: usize, write: &WriteOptions) -> bool {
    write.write_depth_limit() < read_max_depth
}

/// The writer's sink for stdout. It keeps the `io::Error` of a failed write
/// (the core error carries only its text), so that a closed pipe can still
/// be told from a full disk.
struct Output<'a, W: Write> {
    out: &'a mut W,
    failed: &'a mut Option<io::Error>,
    spilled: &'a mut u64,
}

impl<W: Write> Sink for Output<'_, W> {
    fn spill(&mut self, bytes: &[u8]) -> jetjson::Result<()> {
        match self.out.write_all(bytes) {
            Ok(()) => {
                *self.spilled += bytes.len() as u64;
                Ok(())
            }
            Err(e) => {
                let err = jetjson::Error::new(jetjson::ErrorKind::Io(e.to_string()));
                *self.failed = Some(e);
                Err(err)
            }
        }
    }
}
