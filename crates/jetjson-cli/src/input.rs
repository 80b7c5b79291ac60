//! Reading inputs: a named file or stdin, whole or as blocks of whole lines.
//!
//! Whole reads are for single documents (the parser needs one slice). NDJSON
//! is read in blocks that end at a line boundary, so inputs of any size stream
//! through a fixed amount of memory.

use std::ffi::OsStr;
use std::fs::File;
use std::io::{self, Read};
use std::path::PathBuf;

use crate::fail::Fail;
use crate::progress::Progress;

/// Where a document comes from.
#[derive(Clone, Debug)]
pub enum Source {
    Stdin,
    File(PathBuf),
}

impl Source {
    /// `None` and `-` mean stdin, as in most Unix tools.
    pub fn from_arg(arg: Option<&OsStr>) -> Source {
        match arg {
            None => Source::Stdin,
            Some(a) if a == "-" => Source::Stdin,
            Some(a) => Source::File(PathBuf::from(a)),
        }
    }

    /// The name used in messages (`FILE:LINE:COL: ...`).
    pub fn name(&self) -> String {
        match self {
            Source::Stdin => "<stdin>".to_owned(),
            Source::File(p) => p.display().to_string(),
        }
    }

    /// Opens the input; also returns its size when it is a regular file
    /// (for the progress bar and to allocate whole reads once).
    pub fn open(&self) -> Result<(Box<dyn Read + Send>, Option<u64>), Fail> {
        match self {
            Source::Stdin => Ok((Box::new(io::stdin()), stdin_size())),
            Source::File(path) => {
                let file = File::open(path).map_err(|e| Fail::read(&self.name(), e))?;
                let size = file.metadata().ok().filter(|m| m.is_file()).map(|m| m.len());
                Ok((Box::new(file), size))
            }
        }
    }

    /// Reads the whole input, or its first `limit` bytes.
    ///
    /// `limit` serves `--max-size`: reading one byte past the limit is enough
    /// for the parser to reject the document, so a huge file is refused
    /// without being read whole.
    pub fn read_all(&self, limit: Option<u64>) -> Result<Vec<u8>, Fail> {
        let (reader, size) = self.open()?;
        let progress = Progress::new(size);
        // Only a known file size sizes the buffer; a limit alone (a pipe
        // with --max-size 1G) is no reason to reserve that much.
        let wanted = size.map_or(0, |s| limit.map_or(s, |l| s.min(l)));
        // Capacity from the file size (+1 so the final read that sees EOF
        // does not make the vector grow by doubling). Every reservation is
        // fallible: out of memory is an error (exit 2), not the end of the
        // process (as it was for a pipe or a device that never ends).
        let mut buf = Vec::new();
        buf.try_reserve_exact(usize::try_from(wanted).unwrap_or(0).saturating_add(1).min(1 << 34))
            .map_err(|_| Fail::read(&self.name(), out_of_memory()))?;
        let mut reader = reader.take(limit.unwrap_or(u64::MAX));
        loop {
            // Each read asks for less than the room left, so `read_to_end`
            // never grows the buffer itself (its growth ends the process
            // when memory runs out); the room grows here, fallibly.
            if buf.capacity() - buf.len() < 2 {
                buf.try_reserve(CHUNK).map_err(|_| Fail::read(&self.name(), out_of_memory()))?;
            }
            let ask = (buf.capacity() - buf.len() - 1).min(CHUNK);
            // Chunked so the progress bar moves; read_to_end fills the
            // spare capacity without zeroing it first.
            let n = (&mut reader).take(ask as u64).read_to_end(&mut buf).map_err(|e| Fail::read(&self.name(), e))?;
            progress.advance(n as u64);
            if n < ask {
                break;
            }
        }
        progress.finish();
        Ok(buf)
    }
}

/// The error for memory running out while reading an input.
#[cold]
fn out_of_memory() -> io::Error {
    io::Error::new(io::ErrorKind::OutOfMemory, "out of memory while reading")
}

/// The size of stdin when it is redirected from a regular file.
#[cfg(unix)]
fn stdin_size() -> Option<u64> {
    use std::os::fd::AsFd;
    let fd = io::stdin().as_fd().try_clone_to_owned().ok()?;
    let meta = File::from(fd).metadata().ok()?;
    meta.is_file().then_some(meta.len())
}

#[cfg(not(unix))]
fn stdin_size() -> Option<u64> {
    None
}

/// Unit of reads from the OS.
const CHUNK: usize = 8 << 20;

/// Cuts an input into blocks of whole lines (each ends with `\n`, except the
/// last block of an input without a final newline).
pub struct BlockReader {
    reader: Box<dyn Read + Send>,
    /// The start of a line that did not fit in the previous block.
    carry: Vec<u8>,
    eof: bool,
    /// A block is cut at the first `\n` at or after this many bytes.
    target: usize,
    /// `--max-size` per line: a longer line is cut two bytes past the limit
    /// (room for a `\r\n`'s `\r`) and ends the input (its rest is never
    /// read: it may never end).
    max_line: Option<usize>,
    progress: Progress,
}

impl BlockReader {
    pub fn new(reader: Box<dyn Read + Send>, target: usize, max_line: Option<usize>, progress: Progress) -> BlockReader {
        BlockReader { reader, carry: Vec::new(), eof: false, target: target.max(1), max_line, progress }
    }

    /// Changes the size of the blocks that follow.
    pub fn set_target(&mut self, target: usize) {
        self.target = target.max(1);
    }

    /// Fills `buf` with the next block; `false` when the input is exhausted.
    ///
    /// `buf` is a recycled buffer: clearing it keeps its capacity, so after
    /// the first few blocks no memory is allocated or page-faulted any more.
    pub fn next_block(&mut self, buf: &mut Vec<u8>) -> io::Result<bool> {
        buf.clear();
        buf.try_reserve(self.carry.len()).map_err(|_| out_of_memory())?;
        buf.extend_from_slice(&self.carry);
        self.carry.clear();
        // Bytes before `scanned` hold no `\n` (searched on a previous round).
        let mut scanned = 0;
        loop {
            if !self.eof && buf.len() < self.target {
                self.fill(buf, self.target - buf.len())?;
                continue;
            }
            if let Some(i) = crate::ndjson::last_newline(&buf[scanned..]) {
                let cut = scanned + i + 1;
                self.carry.try_reserve(buf.len() - cut).map_err(|_| out_of_memory())?;
                self.carry.extend_from_slice(&buf[cut..]);
                buf.truncate(cut);
                return Ok(true);
            }
            if self.eof {
                return Ok(!buf.is_empty());
            }
            // `buf` is one unfinished line. Past the line limit and the
            // `\r` of a `\r\n` that may end it, it is cut there (longer
            // than the limit however it ends: the commands report it on its
            // own line number) and the input ends here: skipping the rest
            // of the line could take forever (`/dev/zero`), and reading it
            // whole is what the limit is there to prevent.
            if let Some(max) = self.max_line.filter(|&max| buf.len() > max.saturating_add(1)) {
                buf.truncate(max + 2);
                buf.push(b'\n');
                self.eof = true;
                return Ok(true);
            }
            // One line longer than the block: keep reading until it ends,
            // or until past the limit and a `\r`.
            scanned = buf.len();
            let want = self.max_line.map_or(CHUNK, |max| CHUNK.min(max.saturating_add(2) - buf.len()));
            self.fill(buf, want)?;
        }
    }

    fn fill(&mut self, buf: &mut Vec<u8>, want: usize) -> io::Result<()> {
        // Room for more than `want` bytes, reserved fallibly, so that
        // `read_to_end` never grows the buffer itself (its growth ends the
        // process when memory runs out: a line that never ends).
        buf.try_reserve(want.saturating_add(1)).map_err(|_| out_of_memory())?;
        let n = (&mut self.reader).take(want as u64).read_to_end(buf)?;
        self.progress.advance(n as u64);
        if n < want {
            self.eof = true;
        }
        Ok(())
    }
}
