//! `jetjson fmt`: pretty-printing for people. Keys stay in input order and
//! numbers keep their kind (the compact profile), unlike `canon`'s profiles,
//! which exist for machines.

use std::io::Write;

use jetjson::WriteOptions;

use super::{parse_document, write_document};
use crate::fail::Fail;
use crate::input::Source;
use crate::FmtArgs;

pub fn run(args: &FmtArgs, out: &mut impl Write) -> Result<(), Fail> {
    let source = Source::from_arg(args.file.as_deref());
    let read = args.read.options();
    let input = source.read_all(args.read.read_limit())?;
    let value = parse_document(&source, &read, &input)?;
    let write = WriteOptions::compact().indent(args.indent).max_write_depth(args.depth.max_write_depth);
    // The input is no longer needed (unless writing can fail on depth):
    // free it before the output is made.
    let input = super::keep_input(args.read.max_depth, &write).then_some(input);
    write_document(&source, input.as_deref(), &value, &write, out)?;
    // A file for people (and for editors and `cat`) ends with a newline.
    out.write_all(b"\n").map_err(Fail::write)
}
