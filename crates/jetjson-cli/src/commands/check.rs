//! `jetjson check`: strict validation of files or NDJSON lines, reporting
//! every error with its position and a caret.

use jetjson::parse::Validator;
use jetjson::ReadOptions;

use super::LineProblem;
use crate::fail::Fail;
use crate::input::Source;
use crate::{ndjson, report, CheckArgs};

pub fn run(args: &CheckArgs) -> Result<(), Fail> {
    let read = args.read.options();
    let sources: Vec<Source> =
        if args.files.is_empty() { vec![Source::Stdin] } else { args.files.iter().map(|f| Source::from_arg(Some(f))).collect() };
    // Every file is checked whatever happened to the ones before, so one run
    // reports everything; the exit code is the worst outcome.
    let mut unreadable = false;
    let mut invalid = false;
    for source in &sources {
        let outcome = if args.lines {
            check_lines(source, &read, args.read.max_size, crate::threads(args.threads))
        } else {
            check_document(source, &read, args.read.read_limit())
        };
        match outcome {
            Ok(()) => {}
            Err(Fail::Invalid) => invalid = true,
            Err(Fail::Io(msg) | Fail::Usage(msg)) => {
                report::print(&format!("jetjson: {msg}\n"));
                unreadable = true;
            }
            Err(Fail::Unreadable) => unreadable = true,
            Err(Fail::BrokenPipe) => return Err(Fail::BrokenPipe),
        }
    }
    if unreadable {
        Err(Fail::Unreadable)
    } else if invalid {
        Err(Fail::Invalid)
    } else {
        Ok(())
    }
}

fn check_document(source: &Source, read: &ReadOptions, limit: Option<u64>) -> Result<(), Fail> {
    let input = source.read_all(limit)?;
    Validator::new(read).validate(&input).map_err(|e| super::reading_failed(source, &input, &e))
}

/// The problems of one block, by line index within the block.
struct Block {
    lines: u64,
    /// The block's length in bytes.
    bytes: u64,
    problems: Vec<(u64, LineProblem)>,
}

fn check_lines(source: &Source, read: &ReadOptions, max_line: Option<usize>, threads: usize) -> Result<(), Fail> {
    let name = source.name();
    let work = |block: &[u8]| {
        // One validator per block: its working memory serves every line.
        let mut validator = Validator::new(read);
        let mut problems = Vec::new();
        let mut lines = 0;
        for line in ndjson::lines(block) {
            if let Some(problem) = super::too_long(block, line, max_line) {
                // The input ends here (see `LineProblem::TooLong`).
                problems.push((lines, problem));
                break;
            } else if ndjson::is_blank(line) {
                problems.push((lines, LineProblem::Blank(line.to_vec())));
            } else if let Err(e) = validator.validate(line) {
                problems.push((lines, LineProblem::Parse(e, line.to_vec())));
            }
            lines += 1;
        }
        Block { lines, bytes: block.len() as u64, problems }
    };
    let mut lines_before = 0u64;
    let mut bytes_before = 0u64;
    let mut invalid = false;
    ndjson::run_ordered(source, threads, max_line, work, |block, progress| {
        for (index, problem) in &block.problems {
            progress.suspend(|| report::print(&problem.render(&name, lines_before + index + 1, bytes_before)));
            invalid = true;
            if problem.ends_input() {
                return Err(Fail::Invalid);
            }
        }
        lines_before += block.lines;
        bytes_before += block.bytes;
        Ok(())
    })?;
    if invalid {
        Err(Fail::Invalid)
    } else {
        Ok(())
    }
}
