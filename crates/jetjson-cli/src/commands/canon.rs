//! `jetjson canon`: a document, or each NDJSON line, in a profile's bytes.

use std::io::Write;

use jetjson::{ReadOptions, WriteOptions};

use super::{parse_document, write_document, LineProblem};
use crate::fail::Fail;
use crate::input::Source;
use crate::{ndjson, report, CanonArgs};

pub fn run(args: &CanonArgs, out: &mut impl Write) -> Result<(), Fail> {
    let write = args.write.options(crate::args::required_profile(args.profile, "canon")?)?;
    let read = args.read.options();
    let source = Source::from_arg(args.file.as_deref());
    if args.lines {
        if write.indent_width() > 0 {
            return Err(Fail::Usage("--indent cannot be used with --lines (each output document must stay on one line)".into()));
        }
        return lines(&source, &read, args.read.max_size, &write, crate::threads(args.threads), out);
    }
    let input = source.read_all(args.read.read_limit())?;
    let value = parse_document(&source, &read, &input)?;
    // The input is no longer needed (unless writing can fail on depth):
    // free it before the output is made.
    let input = super::keep_input(args.read.max_depth, &write).then_some(input);
    write_document(&source, input.as_deref(), &value, &write, out)
}

/// The output of one block: the lines that went well, and where it stopped.
struct Block {
    out: Vec<u8>,
    /// Lines in `out`.
    done: u64,
    /// The block's length in bytes.
    bytes: u64,
    /// The problem at line `done` of the block, which ends it (fail fast).
    problem: Option<LineProblem>,
}

fn lines(
    source: &Source,
    read: &ReadOptions,
    max_line: Option<usize>,
    write: &WriteOptions,
    threads: usize,
    out: &mut impl Write,
) -> Result<(), Fail> {
    let name = source.name();
    let work = |block: &[u8]| {
        // Canonical output is about as long as compact input.
        let mut buf = Vec::with_capacity(block.len() + block.len() / 8);
        let mut done = 0;
        let bytes = block.len() as u64;
        for line in ndjson::lines(block) {
            let canon = match super::too_long(block, line, max_line) {
                Some(problem) => Err(problem),
                None => canon_line(line, read, write),
            };
            match canon {
                Ok(line) => {
                    buf.extend_from_slice(&line);
                    buf.push(b'\n');
                    done += 1;
                }
                Err(problem) => return Block { out: buf, done, bytes, problem: Some(problem) },
            }
        }
        Block { out: buf, done, bytes, problem: None }
    };
    let mut lines_before = 0u64;
    let mut bytes_before = 0u64;
    ndjson::run_ordered(source, threads, max_line, work, |block, progress| {
        out.write_all(&block.out).map_err(Fail::write)?;
        if let Some(problem) = block.problem {
            progress.suspend(|| report::print(&problem.render(&name, lines_before + block.done + 1, bytes_before)));
            return Err(Fail::Invalid);
        }
        lines_before += block.done;
        bytes_before += block.bytes;
        Ok(())
    })
}

fn canon_line(line: &[u8], read: &ReadOptions, write: &WriteOptions) -> Result<Vec<u8>, LineProblem> {
    if ndjson::is_blank(line) {
        return Err(LineProblem::Blank(line.to_vec()));
    }
    let value = jetjson::__private::value_from_slice_recovering(line, read).map_err(|e| LineProblem::Parse(e, line.to_vec()))?;
    value.to_vec_with(write).map_err(|e| LineProblem::Write(e, line.to_vec()))
}
