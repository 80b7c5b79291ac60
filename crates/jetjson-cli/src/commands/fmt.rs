//! `jetjson fmt`: pretty-printing for people. Keys stay in input order and
//! numbers keep their kind (the compact profile), unlike `canon`'s profiles,
//! which exist for machines.

use std::io::Write;

use jetjson::WriteOptions;

use super::parse_document;
use crate::fail::Fail;
use crate::input::Source;
use crate::{report, FmtArgs};

pub fn run(args: &FmtArgs, out: &mut impl Write) -> Result<(), Fail> {
    let source = Source::from_arg(args.file.as_deref());
    let read = args.read.options();
    let input = source.read_all(args.read.read_limit())?;
    let value = parse_document(&source, &read, &input)?;
    let mut bytes = value.to_vec_with(&WriteOptions::compact().indent(args.indent)).map_err(|e| {
        report::print(&report::unlocated(&source.name(), None, &e.to_string()));
        Fail::Invalid
    })?;
    // A file for people (and for editors and `cat`) ends with a newline.
    bytes.push(b'\n');
    out.write_all(&bytes).map_err(Fail::write)
}
