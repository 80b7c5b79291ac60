//! `jetjson digest`: the digest of a document's canonical bytes, or of its
//! raw bytes (`--raw`, the OCI content address).

use std::io::{Read, Write};

use jetjson::Hasher;

use super::parse_document;
use crate::fail::Fail;
use crate::input::Source;
use crate::progress::Progress;
use crate::{report, DigestArgs};

pub fn run(args: &DigestArgs, out: &mut impl Write) -> Result<(), Fail> {
    let source = Source::from_arg(args.file.as_deref());
    let digest = if args.raw {
        raw(&source, args.algorithm.into(), args.read.max_size)?
    } else {
        let write = args.write.options(crate::args::required_profile(args.profile, "digest")?)?;
        let read = args.read.options();
        let input = source.read_all(args.read.read_limit())?;
        let value = parse_document(&source, &read, &input)?;
        jetjson::digest_value(&value, &write, args.algorithm.into()).map_err(|e| {
            // (A write-depth error placed in the input, as a read error is.)
            report::print(&report::parse_error(&source.name(), &input, &jetjson::__private::write_error_in(e, &input)));
            Fail::Invalid
        })?
    };
    writeln!(out, "{digest}").map_err(Fail::write)
}

/// Hashes the input as it streams by: no parsing, and never held whole.
/// With `max_size`, at most one byte past it is read: an input that has it
/// is refused (an endless one, such as `/dev/zero`, included).
fn raw(source: &Source, algorithm: jetjson::Algorithm, max_size: Option<usize>) -> Result<String, Fail> {
    let (reader, size) = source.open()?;
    let limit = max_size.map(|m| m as u64);
    let mut reader = reader.take(limit.map_or(u64::MAX, |l| l.saturating_add(1)));
    let progress = Progress::new(size);
    let mut hasher = Hasher::new(algorithm);
    let mut buf = vec![0u8; 1 << 20];
    let mut total = 0u64;
    loop {
        let n = match reader.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(Fail::read(&source.name(), e)),
        };
        total += n as u64;
        if let Some(limit) = limit.filter(|&l| total > l) {
            progress.finish();
            let message = format!("input larger than --max-size {limit} bytes (reading stopped at byte offset {limit})");
            report::print(&report::unlocated(&source.name(), None, &message));
            return Err(Fail::Invalid);
        }
        hasher.update(&buf[..n]);
        progress.advance(n as u64);
    }
    progress.finish();
    Ok(hasher.finish())
}
