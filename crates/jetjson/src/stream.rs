//! Several JSON documents in one input: NDJSON (one document per line),
//! concatenated JSON (`{"a":1}{"a":2}`), or any whitespace-separated run
//! of values, from a slice or lazily from an `io::Read`.
//!
//! ```
//! use serde::Deserialize;
//! #[derive(Deserialize, Debug, PartialEq)]
//! struct Event<'a> { id: u32, kind: &'a str }
//!
//! let input = b"{\"id\":1,\"kind\":\"push\"}\n{\"id\":2,\"kind\":\"fork\"}\n";
//! let events: Vec<Event> = jetjson::Deserializer::from_slice(input)
//!     .into_iter::<Event>()
//!     .collect::<jetjson::Result<_>>()
//!     .unwrap();
//! assert_eq!(events[1], Event { id: 2, kind: "fork" });
//! ```
//!
//! Each document is read with the stream's [`ReadOptions`]: `max_depth`
//! and `duplicate_keys` per document, and `max_size` as the largest
//! document (counted from its first byte), so one huge line fails as soon
//! as it passes the limit while the stream as a whole may be any size. A
//! leading byte order mark is skipped only at the very start of the input
//! and only with `allow_bom`. Errors carry their position in the whole
//! input (byte offset, line, column); after an error the iterator ends.
//!
//! Documents are separated by whitespace; arrays, objects and strings may
//! also follow each other directly (`[1][2]`), but a number or literal
//! must be followed by whitespace or the end (`1 2` is two documents,
//! `1"a"` is an error).

use std::io;
use std::marker::PhantomData;

use serde::de::{Deserialize, DeserializeOwned};

use crate::error::{Error, ErrorKind, Position, Result};
use crate::parse::{self, ReadOptions};

const BOM: &[u8] = b"\xEF\xBB\xBF";
/// Bytes the read buffer grows by when the room after its data runs low.
const CHUNK: usize = 64 * 1024;
/// The least room after the data a `read` call is given.
const MIN_ROOM: usize = 8 * 1024;

/// The bytes read from a reader and not yet dropped, in a vector kept
/// initialised (zeroed once) past them, so that a `read` call needs no
/// clearing: a reader that returns a few bytes per call (a pipe fed line
/// by line, TLS records) would otherwise pay for zeroing a whole chunk per
/// call.
#[derive(Default)]
struct ReadBuf {
    /// The data, then room (all initialised).
    bytes: Vec<u8>,
    /// The data's end.
    end: usize,
}

impl ReadBuf {
    fn data(&self) -> &[u8] {
        &self.bytes[..self.end]
    }

    /// Drops the first `n` bytes of the data.
    fn drop_front(&mut self, n: usize) {
        self.bytes.copy_within(n..self.end, 0);
        self.end -= n;
    }

    /// One `read` call into the room after the data (`Interrupted` calls
    /// again); the bytes read.
    fn read_from(&mut self, reader: &mut impl io::Read) -> io::Result<usize> {
        if self.bytes.len() - self.end < MIN_ROOM {
            self.bytes.resize(self.end + CHUNK, 0);
        }
        let room = &mut self.bytes[self.end..];
        let n = loop {
            match reader.read(room) {
                Ok(n) => break n.min(room.len()),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
        };
        self.end += n;
        Ok(n)
    }
}

/// A source of several JSON documents; [`into_iter`](Deserializer::into_iter)
/// reads them one by one as values of a `Deserialize` type.
///
/// ```
/// use jetjson::{Deserializer, Value};
/// let docs: Vec<Value> = Deserializer::from_str("1 [2] {\"three\":3}")
///     .into_iter()
///     .collect::<Result<_, _>>()
///     .unwrap();
/// assert_eq!(docs.len(), 3);
/// assert_eq!(docs[2]["three"], 3);
/// ```
pub struct Deserializer<R> {
    read: R,
    options: ReadOptions,
}

/// The documents are in a byte slice (strings can be borrowed from it).
pub struct SliceRead<'a> {
    input: &'a [u8],
    /// The parser of a single document read through `&mut Deserializer`
    /// (made on first use).
    single: Option<parse::Deserializer<'a>>,
}

/// The documents come from an `io::Read`, read as needed in chunks (so a
/// stream of any length is read in memory bounded by its largest
/// document).
pub struct IoRead<R> {
    reader: R,
}

impl<'a> Deserializer<SliceRead<'a>> {
    /// Documents in `input`.
    pub fn from_slice(input: &'a [u8]) -> Self {
        Deserializer { read: SliceRead { input, single: None }, options: ReadOptions::default() }
    }

    /// Documents in `input`.
    #[allow(clippy::should_implement_trait)] // serde_json's name for it
    pub fn from_str(input: &'a str) -> Self {
        Deserializer::from_slice(input.as_bytes())
    }
}

/// One document read through `&mut Deserializer` as a serde
/// `Deserializer` (for tools that take one, such as `serde_path_to_error`),
/// then [`end`](Deserializer::end).
///
/// ```
/// use serde::Deserialize;
/// let mut de = jetjson::Deserializer::from_str(" [1, 2] ");
/// let v = Vec::<u8>::deserialize(&mut de).unwrap();
/// de.end().unwrap();
/// assert_eq!(v, [1, 2]);
///
/// let mut de = jetjson::Deserializer::from_str("[1] [2]");
/// Vec::<u8>::deserialize(&mut de).unwrap();
/// assert_eq!(de.end().unwrap_err().column(), 5); // more than one document
/// ```
impl<'a> Deserializer<SliceRead<'a>> {
    /// After a single document: only whitespace may follow.
    pub fn end(&mut self) -> Result<()> {
        self.single()?.end()
    }

    /// The single-document parser, made with the options on first use.
    fn single(&mut self) -> Result<&mut parse::Deserializer<'a>> {
        let input = self.read.input;
        match &mut self.read.single {
            Some(de) => Ok(de),
            slot => Ok(slot.insert(parse::Deserializer::from_slice(input, &self.options)?)),
        }
    }
}

/// Every `deserialize_*` method, handed to the single-document parser.
macro_rules! forward_single {
    ($($method:ident($($arg:ident: $ty:ty),*);)*) => {$(
        fn $method<V: serde::de::Visitor<'de>>(self, $($arg: $ty,)* visitor: V) -> Result<V::Value> {
            serde::Deserializer::$method(self.single()?, $($arg,)* visitor)
        }
    )*};
}

impl<'de> serde::Deserializer<'de> for &mut Deserializer<SliceRead<'de>> {
    type Error = Error;

    forward_single! {
        deserialize_any(); deserialize_bool(); deserialize_i8(); deserialize_i16(); deserialize_i32();
        deserialize_i64(); deserialize_i128(); deserialize_u8(); deserialize_u16(); deserialize_u32();
        deserialize_u64(); deserialize_u128(); deserialize_f32(); deserialize_f64(); deserialize_char();
        deserialize_str(); deserialize_string(); deserialize_bytes(); deserialize_byte_buf();
        deserialize_option(); deserialize_unit(); deserialize_unit_struct(name: &'static str);
        deserialize_newtype_struct(name: &'static str); deserialize_seq(); deserialize_tuple(len: usize);
        deserialize_tuple_struct(name: &'static str, len: usize); deserialize_map();
        deserialize_struct(name: &'static str, fields: &'static [&'static str]);
        deserialize_enum(name: &'static str, variants: &'static [&'static str]);
        deserialize_identifier(); deserialize_ignored_any();
    }
}

impl<R: io::Read> Deserializer<IoRead<R>> {
    /// Documents read from `reader` as they are needed (wrap a raw file or
    /// socket in nothing: reads are already 64 KiB at a time).
    ///
    /// ```
    /// let input = std::io::Cursor::new("{\"n\":1}\n{\"n\":2}\n");
    /// let sum: u64 = jetjson::Deserializer::from_reader(input)
    ///     .into_iter::<jetjson::Value>()
    ///     .map(|doc| doc.unwrap()["n"].as_u64().unwrap())
    ///     .sum();
    /// assert_eq!(sum, 3);
    /// ```
    pub fn from_reader(reader: R) -> Self {
        Deserializer { read: IoRead { reader }, options: ReadOptions::default() }
    }
}

impl<R> Deserializer<R> {
    /// Reads with `options` (see the module notes for what applies per
    /// document).
    ///
    /// ```
    /// use jetjson::{Deserializer, ErrorKind, ReadOptions, Value};
    /// let input = "[1]\n[1,2,3,4,5,6,7,8]\n";
    /// let mut docs = Deserializer::from_str(input)
    ///     .with_options(&ReadOptions::new().max_size(10))
    ///     .into_iter::<Value>();
    /// assert!(docs.next().unwrap().is_ok());
    /// let e = docs.next().unwrap().unwrap_err();
    /// assert_eq!(e.kind(), &ErrorKind::SizeLimit { limit: 10 });
    /// assert_eq!(e.line(), 2);
    /// assert!(docs.next().is_none());
    /// ```
    pub fn with_options(mut self, options: &ReadOptions) -> Self {
        self.options = options.clone();
        self
    }

    /// The documents, as values of `T`, one per `next()`.
    #[allow(clippy::should_implement_trait)] // serde_json's name; the item type is chosen here
    pub fn into_iter<T>(self) -> StreamDeserializer<R, T> {
        let inner = ReadOptions { max_size: None, allow_bom: false, ..self.options.clone() };
        StreamDeserializer {
            read: self.read,
            options: self.options,
            inner,
            buf: ReadBuf::default(),
            pos: 0,
            base: Base::START,
            eof: false,
            started: false,
            separator_due: false,
            done: false,
            offset: 0,
            pending: Pending::default(),
            item: PhantomData,
        }
    }
}

/// An iterator over the documents of a [`Deserializer`]: `Some(Ok(value))`
/// per document, `Some(Err(e))` once for the first error (then `None`),
/// `None` at the end of the input.
pub struct StreamDeserializer<R, T> {
    read: R,
    options: ReadOptions,
    /// The options each document is parsed with (size and BOM are the
    /// stream's business).
    inner: ReadOptions,
    /// Reader streams: the bytes read and not yet dropped.
    buf: ReadBuf,
    /// Where reading stands in the input (in `buf` for readers).
    pos: usize,
    /// Where `buf[0]` is in the whole input (readers).
    base: Base,
    /// The reader has no more bytes.
    eof: bool,
    started: bool,
    /// The last document ended with a number or literal: whitespace (or
    /// the end) must come next.
    separator_due: bool,
    done: bool,
    /// The end of the last document read, in the whole input.
    offset: usize,
    /// Readers: what is known of the document being read.
    pending: Pending,
    item: PhantomData<fn() -> T>,
}

impl<R, T> StreamDeserializer<R, T> {
    /// The offset in the whole input just past the last document read
    /// successfully (0 before the first).
    ///
    /// ```
    /// let mut docs = jetjson::Deserializer::from_str("[1]  [22]").into_iter::<Vec<u8>>();
    /// docs.next();
    /// assert_eq!(docs.byte_offset(), 3);
    /// docs.next();
    /// assert_eq!(docs.byte_offset(), 9);
    /// ```
    pub fn byte_offset(&self) -> usize {
        self.offset
    }

    fn fail<U>(&mut self, e: Error) -> Option<Result<U>> {
        self.done = true;
        Some(Err(e))
    }
}

/// JSON whitespace.
fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\n' | b'\r' | b'\t')
}

fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && is_ws(b[i]) {
        i += 1;
    }
    i
}

/// Values that end with their own closing byte may be followed by anything.
fn self_delimiting(last: u8) -> bool {
    matches!(last, b'}' | b']' | b'"')
}

/// A byte order mark anywhere but at the very start of the input: refused
/// (the parser's own message, for a mark at the start of its text, tells
/// the caller to enable `allow_bom`, which does not skip this one).
fn stray_bom() -> Error {
    Error::new(ErrorKind::Syntax { msg: "unexpected byte order mark (allow_bom skips one only at the start of the input)".into() })
}

fn missing_separator() -> Error {
    Error::new(ErrorKind::Syntax { msg: "expected whitespace or the end of the input after a JSON number or literal".into() })
}

/// What one try at reading a document gave.
enum Attempt<T> {
    /// The document, and the offset just past it.
    Value(T, usize),
    /// The input ended inside the document, and more may come.
    NeedMore,
    /// An error; its position is relative to the input given.
    Error(Error),
}

/// Reads the document at `input[start..]`. `complete`: no bytes will
/// follow `input`. `max_size` bounds the document's length.
fn attempt<'de, T: Deserialize<'de>>(
    input: &'de [u8],
    start: usize,
    complete: bool,
    max_size: Option<usize>,
    options: &ReadOptions,
) -> Attempt<T> {
    let cap = max_size.map_or(input.len(), |limit| input.len().min(start.saturating_add(limit)));
    let cut = cap < input.len();
    let too_big = |limit: Option<usize>| {
        let limit = limit.unwrap_or(0);
        Error::new(ErrorKind::SizeLimit { limit }).relocated(Position::locate(input, start + limit))
    };
    let slice = &input[start..cap];
    if !complete && slice.len() < BOM.len() && BOM.starts_with(slice) {
        // Maybe a byte order mark, which has its own error.
        return Attempt::NeedMore;
    }
    let mut de = match parse::Deserializer::from_slice(slice, options) {
        Ok(de) => de,
        Err(e) => return Attempt::Error(locate(e, input, start)),
    };
    match de.value::<T>() {
        Ok(value) => {
            let end = start + de.offset();
            if end == cap && !self_delimiting(input[end - 1]) {
                // A number or literal that reaches the end of what is
                // known may go on in the bytes after it.
                if cut && !is_ws(input[end]) {
                    return Attempt::Error(too_big(max_size));
                }
                if !cut && !complete {
                    return Attempt::NeedMore;
                }
            }
            Attempt::Value(value, end)
        }
        Err(e) if cut_short(&e, slice, de.offset()) && cut => Attempt::Error(too_big(max_size)),
        Err(e) if cut_short(&e, slice, de.offset()) && !complete => Attempt::NeedMore,
        Err(e) => Attempt::Error(locate(e, input, start)),
    }
}

/// Whether an error reading `slice` (the parse had reached `reached`) may
/// come from the end of the slice cutting the document short: a syntax
/// error there, and whatever the error, a parse that read to the end, or
/// an error about a number that runs to the end (a number read so far and
/// refused by its target: `123456789012345678901` before its `.5`, `1e40`
/// before its `0000`).
fn cut_short(e: &Error, slice: &[u8], reached: usize) -> bool {
    let number_to_end = || {
        let at = e.position().map_or(slice.len(), |p| p.offset);
        slice
            .get(at..)
            .is_some_and(|rest| !rest.is_empty() && rest.iter().all(|b| matches!(b, b'0'..=b'9' | b'+' | b'-' | b'.' | b'e' | b'E')))
    };
    e.ended_early(slice) || reached >= slice.len() || number_to_end()
}

/// An error of the document at `input[start..]`, placed in `input` (its
/// category was set by the parser, which saw where the document's bytes
/// ended).
fn locate(e: Error, input: &[u8], start: usize) -> Error {
    match e.position() {
        Some(p) => e.relocated(Position::locate(input, start + p.offset)),
        None => e,
    }
}

impl<'a, T: Deserialize<'a>> Iterator for StreamDeserializer<SliceRead<'a>, T> {
    type Item = Result<T>;

    fn next(&mut self) -> Option<Result<T>> {
        if self.done {
            return None;
        }
        let input = self.read.input;
        if !self.started {
            self.started = true;
            if self.options.allow_bom && input.starts_with(BOM) {
                self.pos = BOM.len();
            }
        }
        if std::mem::take(&mut self.separator_due) && self.pos < input.len() && !is_ws(input[self.pos]) {
            return self.fail(missing_separator().relocated(Position::locate(input, self.pos)));
        }
        self.pos = skip_ws(input, self.pos);
        if self.pos == input.len() {
            self.done = true;
            return None;
        }
        if self.pos > 0 && input[self.pos..].starts_with(BOM) {
            return self.fail(stray_bom().relocated(Position::locate(input, self.pos)));
        }
        match attempt(input, self.pos, true, self.options.max_size, &self.inner) {
            Attempt::Value(value, end) => {
                self.pos = end;
                self.offset = end;
                self.separator_due = !self_delimiting(input[end - 1]);
                Some(Ok(value))
            }
            Attempt::Error(e) => self.fail(e),
            Attempt::NeedMore => unreachable!("a slice is complete"),
        }
    }
}

/// Where the start of a reader's buffer is in the whole input.
#[derive(Clone, Copy)]
struct Base {
    offset: usize,
    /// The 1-based line of `buf[0]`.
    line: usize,
    /// Bytes between the start of that line and `buf[0]`.
    column: usize,
}

impl Base {
    const START: Base = Base { offset: 0, line: 1, column: 0 };

    /// The base after `dropped` bytes from the start of the buffer.
    fn after(self, dropped: &[u8]) -> Base {
        let end = Position::locate(dropped, dropped.len());
        Base {
            offset: self.offset + dropped.len(),
            line: self.line + end.line - 1,
            column: if end.line == 1 { self.column + dropped.len() } else { end.column - 1 },
        }
    }

    /// A position in the buffer as a position in the whole input.
    fn place(self, p: Position) -> Position {
        Position {
            offset: self.offset + p.offset,
            line: self.line + p.line - 1,
            column: if p.line == 1 { self.column + p.column } else { p.column },
        }
    }
}

/// The document being read from a reader: where a structural scan of its
/// bytes has got to, and how many bytes the last parse attempt had.
///
/// Parsing is tried again only when the scan finds the document's end,
/// when the bytes available have doubled since the last try, or at the
/// end of the input: a document that arrives in many small reads is not
/// parsed once per read (which would cost time quadratic in its size).
#[derive(Default)]
struct Pending {
    /// Bytes of the document scanned (from its first byte).
    scanned: usize,
    depth: usize,
    in_string: bool,
    escaped: bool,
    /// The scan found the end of the document.
    complete: bool,
    /// Bytes available at the last parse attempt (0: none yet).
    tried: usize,
}

impl Pending {
    /// Scans the new bytes of the document `doc` (its first byte on); true
    /// once its end is seen. Containers and strings end with their closing
    /// byte; a number or literal with the first byte that cannot be part
    /// of it. Malformed input may end the scan early or never: the parse
    /// that follows decides, and the doubling rule bounds the wait.
    fn scan(&mut self, doc: &[u8]) -> bool {
        if self.complete {
            return true;
        }
        let scalar = !matches!(doc[0], b'{' | b'[' | b'"');
        while self.scanned < doc.len() {
            let b = doc[self.scanned];
            self.scanned += 1;
            if scalar {
                if self.scanned > 1 && (is_ws(b) || matches!(b, b'{' | b'}' | b'[' | b']' | b'"' | b',' | b':')) {
                    self.complete = true;
                    return true;
                }
                continue;
            }
            if self.in_string {
                if self.escaped {
                    self.escaped = false;
                } else if b == b'\\' {
                    self.escaped = true;
                } else if b == b'"' {
                    self.in_string = false;
                    if self.depth == 0 {
                        self.complete = true;
                        return true;
                    }
                }
                continue;
            }
            match b {
                b'"' => self.in_string = true,
                b'{' | b'[' => self.depth += 1,
                b'}' | b']' => {
                    self.depth = self.depth.saturating_sub(1);
                    if self.depth == 0 {
                        self.complete = true;
                        return true;
                    }
                }
                _ => {}
            }
        }
        false
    }

    /// Whether to try parsing `available` bytes of the document now.
    fn worth_trying(&mut self, doc: &[u8], eof: bool, max_size: Option<usize>) -> bool {
        let available = doc.len();
        let ready = self.scan(doc) || eof || available >= 2 * self.tried || max_size.is_some_and(|limit| available > limit);
        if ready {
            // The scan's verdict is used once: if the parse still wants
            // more (malformed input the scan misjudged), doubling decides.
            self.complete = false;
            self.scanned = self.scanned.min(available);
            self.tried = available.max(1);
        }
        ready
    }
}

impl<R: io::Read, T> StreamDeserializer<IoRead<R>, T> {
    /// Reads once more from the reader (after dropping the bytes before
    /// `pos` when they are most of the buffer). Ok(false) at its end.
    fn fill(&mut self) -> Result<bool> {
        if self.pos > 0 && self.pos >= self.buf.end / 2 {
            self.base = self.base.after(&self.buf.data()[..self.pos]);
            self.buf.drop_front(self.pos);
            self.pos = 0;
        }
        let n = self.buf.read_from(&mut self.read.reader)?;
        if n == 0 {
            self.eof = true;
        }
        Ok(n > 0)
    }

    /// An error whose position is in the buffer, placed in the whole input.
    fn placed(&self, e: Error) -> Error {
        match e.position() {
            Some(p) => {
                let at = self.base.place(p);
                e.relocated(at)
            }
            None => e,
        }
    }
}

impl<R: io::Read, T: DeserializeOwned> Iterator for StreamDeserializer<IoRead<R>, T> {
    type Item = Result<T>;

    fn next(&mut self) -> Option<Result<T>> {
        if self.done {
            return None;
        }
        loop {
            // The first bytes, to see a byte order mark (waiting for more
            // only while they could still be one).
            if !self.started {
                if self.buf.end < BOM.len() && BOM.starts_with(self.buf.data()) && !self.eof {
                    if let Err(e) = self.fill() {
                        return self.fail(e);
                    }
                    continue;
                }
                self.started = true;
                if self.options.allow_bom && self.buf.data().starts_with(BOM) {
                    self.pos = BOM.len();
                }
            }
            if self.pos == self.buf.end && !self.eof {
                if let Err(e) = self.fill() {
                    return self.fail(e);
                }
                continue;
            }
            if std::mem::take(&mut self.separator_due) && self.pos < self.buf.end && !is_ws(self.buf.data()[self.pos]) {
                let e = missing_separator().relocated(Position::locate(self.buf.data(), self.pos));
                let e = self.placed(e);
                return self.fail(e);
            }
            let start = skip_ws(self.buf.data(), self.pos);
            if start > self.pos {
                self.pos = start;
                self.pending = Pending::default();
            }
            if self.pos == self.buf.end {
                if self.eof {
                    self.done = true;
                    return None;
                }
                continue;
            }
            if self.base.offset + self.pos > 0 && self.buf.data()[self.pos..].starts_with(BOM) {
                let e = stray_bom().relocated(Position::locate(self.buf.data(), self.pos));
                let e = self.placed(e);
                return self.fail(e);
            }
            if self.pending.worth_trying(&self.buf.data()[self.pos..], self.eof, self.options.max_size) {
                match attempt::<T>(self.buf.data(), self.pos, self.eof, self.options.max_size, &self.inner) {
                    Attempt::Value(value, end) => {
                        self.separator_due = !self_delimiting(self.buf.data()[end - 1]);
                        self.pos = end;
                        self.offset = self.base.offset + end;
                        self.pending = Pending::default();
                        return Some(Ok(value));
                    }
                    Attempt::Error(e) => {
                        let e = self.placed(e);
                        return self.fail(e);
                    }
                    Attempt::NeedMore => {}
                }
            }
            let start = self.pos;
            if let Err(e) = self.fill() {
                return self.fail(e);
            }
            // `fill` may have moved the document to the buffer's start.
            debug_assert!(self.pos <= start);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Pending, ReadBuf, CHUNK, MIN_ROOM};

    /// A reader returning one byte per call costs no clearing per call: the
    /// buffer is zeroed once per chunk of bytes read, and the bytes read
    /// are kept in order across dropping the front.
    #[test]
    fn reads_of_one_byte_zero_the_buffer_once_per_chunk() {
        struct OneByte(u8);
        impl std::io::Read for OneByte {
            fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                buf[0] = self.0;
                self.0 = self.0.wrapping_add(1);
                Ok(1)
            }
        }
        let mut buf = ReadBuf::default();
        let mut reader = OneByte(0);
        let mut grown = 0;
        let mut dropped = 0usize;
        for i in 0..200_000usize {
            let before = buf.bytes.len();
            assert_eq!(buf.read_from(&mut reader).unwrap(), 1);
            if buf.bytes.len() != before {
                grown += 1;
            }
            if buf.end > 3 * CHUNK {
                dropped += buf.end / 2;
                buf.drop_front(buf.end / 2);
            }
            assert_eq!(buf.data().last(), Some(&(i as u8)));
            assert_eq!(buf.data()[0], dropped as u8);
        }
        // Each growth zeroes CHUNK bytes and leaves room for at least
        // CHUNK - MIN_ROOM reads.
        assert!(grown <= 200_000 / (CHUNK - MIN_ROOM) + 1, "grown {grown} times");
    }

    /// The bytes at which the scan first says "complete" when `doc`
    /// arrives one byte at a time.
    fn scan_end(doc: &[u8]) -> Option<usize> {
        let mut p = Pending::default();
        (1..=doc.len()).find(|&n| p.scan(&doc[..n]))
    }

    #[test]
    fn the_scan_finds_where_a_document_ends() {
        assert_eq!(scan_end(br#"{"a":"]}\"}","b":[1,{}]} tail"#), Some(24));
        assert_eq!(scan_end(br#"[["\\"],"x"]"#), Some(12));
        assert_eq!(scan_end(br#""a\"b" 1"#), Some(6));
        assert_eq!(scan_end(b"12345 "), Some(6));
        assert_eq!(scan_end(b"true,"), Some(5));
        assert_eq!(scan_end(b"-1.5e3"), None);
        assert_eq!(scan_end(br#"{"open": [1, 2"#), None);
    }

    #[test]
    fn a_document_arriving_in_small_pieces_is_parsed_a_logarithmic_number_of_times() {
        // 1 MiB array arriving 4 KiB at a time: 256 reads. Tries happen when
        // what is buffered has doubled, and once more at the end.
        let mut doc = b"[".to_vec();
        while doc.len() < 1 << 20 {
            doc.extend_from_slice(b"1,");
        }
        doc.extend_from_slice(b"1]");
        let mut p = Pending::default();
        let mut tries = 0;
        let mut available = 0;
        while available < doc.len() {
            available = (available + 4096).min(doc.len());
            if p.worth_trying(&doc[..available], false, None) {
                tries += 1;
            }
        }
        assert!(p.scanned > 0);
        // 4 KiB, 8, 16, ... 1 MiB: 9 doublings, plus the end seen by the scan.
        assert!(tries <= 12, "{tries} tries");
        assert!(tries >= 9, "{tries} tries");
    }

    #[test]
    fn a_size_limit_makes_a_try_as_soon_as_it_is_passed() {
        let doc = vec![b'['; 10_000];
        let mut p = Pending::default();
        assert!(p.worth_trying(&doc[..100], false, Some(5000)));
        assert!(!p.worth_trying(&doc[..150], false, Some(5000)));
        assert!(p.worth_trying(&doc[..5001], false, Some(5000)));
    }
}
