//! One error type for reading and writing.
//!
//! Write errors say *what* went wrong and *where* in the value (a JSONPath-like
//! `$.items[3].price`); read errors say what and where in the input (byte offset,
//! line, column). The path is built while the error unwinds, so the success path
//! pays nothing for it.

use std::fmt;

use crate::parse::BOM;

/// What went wrong (for a coarser grouping, see [`Error::classify`]).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// NaN or ±Infinity in a profile that forbids them.
    NonFiniteFloat {
        /// `"NaN"`, `"Infinity"` or `"-Infinity"`.
        value: &'static str,
        /// The profile's name.
        profile: &'static str,
    },
    /// A number the profile cannot represent (`jcs` with strict integers
    /// beyond ±2^53, or a literal beyond the double range in `jcs`); with
    /// `profile` "read", a literal read beyond the double range (`1e400`,
    /// refused unless numbers are read losslessly); with "read f32", a
    /// literal read into an `f32` beyond its range (`3.5e38`).
    NumberOutOfRange {
        /// The number (long literals shortened).
        text: String,
        /// The profile's name, `"read"` or `"read f32"`.
        profile: &'static str,
    },
    /// A number literal that is not valid JSON number syntax.
    InvalidNumber {
        /// The text given as a number.
        text: String,
    },
    /// Text that is not valid UTF-8 (or holds a lone surrogate) where the
    /// profile does not repair it.
    InvalidText {
        /// The profile's name.
        profile: &'static str,
    },
    /// A map key that is not a string (or a type that can be written as one).
    KeyMustBeString,
    /// A value the profile cannot write (e.g. bytes in `jcs`).
    Unsupported {
        /// What could not be written, and why.
        what: String,
    },
    /// Syntax error while reading JSON (also used for invalid raw JSON).
    Syntax {
        /// What was expected or found.
        msg: String,
    },
    /// Nesting deeper than the configured limit.
    DepthLimit {
        /// The deepest nesting allowed.
        limit: usize,
    },
    /// Nesting deeper than a serde conversion goes, as it recurses on the
    /// stack: deserializing a type from text with a
    /// [`ReadOptions::max_depth`](crate::ReadOptions::max_depth) above
    /// 10,000 (which is lowered to that; `Value` and `RawJson` are read
    /// under `max_depth` itself), or [`to_value`](crate::to_value) and
    /// [`from_value`](crate::from_value) past 2048 levels.
    RecursionCeiling {
        /// The deepest nesting the conversion takes.
        ceiling: usize,
        /// The `max_depth` set and lowered to `ceiling`, when reading text.
        max_depth: Option<usize>,
    },
    /// An object with the same key twice where that is an error.
    DuplicateKey {
        /// The repeated name.
        key: String,
    },
    /// Input larger than the configured limit.
    SizeLimit {
        /// The largest input allowed, in bytes.
        limit: usize,
    },
    /// A value nested deeper than
    /// [`WriteOptions::max_write_depth`](crate::WriteOptions::max_write_depth)
    /// allows, found while writing (no path: it would be `limit` steps long).
    WriteDepthLimit {
        /// The deepest nesting allowed.
        limit: usize,
    },
    /// A `max_write_depth` of 0 or over
    /// [`MAX_WRITE_DEPTH`](crate::MAX_WRITE_DEPTH).
    WriteDepthOption {
        /// The depth asked for.
        depth: usize,
        /// The largest allowed.
        ceiling: usize,
    },
    /// An indent wider than [`MAX_INDENT`](crate::MAX_INDENT) spaces.
    IndentLimit {
        /// The indent asked for.
        indent: u16,
        /// [`MAX_INDENT`](crate::MAX_INDENT).
        limit: u16,
    },
    /// Memory for reading could not be had: the working memory of a parse
    /// (a string's decoded text) could not grow. The input may be fine;
    /// `max_size` bounds what a parse can ask for.
    OutOfMemory,
    /// An I/O error from a reader or writer.
    Io(String),
    /// A message from a `Serialize`/`Deserialize` implementation.
    Custom(String),
}

/// A position in the input text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Position {
    /// 0-based byte offset.
    pub offset: usize,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, counted in bytes.
    pub column: usize,
}

impl Position {
    /// Computes line and column of `offset` in `input`.
    pub fn locate(input: &[u8], offset: usize) -> Position {
        let offset = offset.min(input.len());
        let before = &input[..offset];
        let (count, last) = crate::lines::newlines(before);
        let line_start = last.map_or(0, |i| i + 1);
        Position { offset, line: 1 + count, column: offset - line_start + 1 }
    }
}

/// One step of a path into a value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathSegment {
    /// An array item, by position.
    Index(usize),
    /// An object member, by name.
    Key(String),
}

/// The broad class of an error, for deciding what to do about it (retry
/// with more input, report bad data, raise a limit, ...). See
/// [`Error::classify`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Category {
    /// Reading from or writing to an I/O stream failed.
    Io,
    /// The input is not JSON (bad syntax, invalid UTF-8, a lone surrogate
    /// escape, trailing characters).
    Syntax,
    /// The input ended in the middle of a JSON value: the text so far is
    /// the start of a valid document (more input could complete it).
    Eof,
    /// Well-formed JSON or a Rust value that does not fit what was asked:
    /// a type mismatch or missing field (from `Deserialize`), a repeated
    /// name, a number out of range, a value the output profile cannot
    /// write (NaN, invalid text, a non-string map key, ...).
    Data,
    /// A configured limit was exceeded (`max_depth`, `max_size`, the write
    /// depth, `MAX_INDENT`), or the memory a parse needed could not be had.
    Limit,
}

/// The error type of every jetjson operation.
#[derive(Clone, PartialEq, Eq)]
pub struct Error {
    /// One pointer, so `Result<f64, Error>` and the like come back in
    /// registers: serde deserialization returns one per value.
    inner: Box<ErrorInner>,
}

#[derive(Clone, PartialEq, Eq)]
struct ErrorInner {
    kind: ErrorKind,
    position: Option<Position>,
    /// A syntax error found where the input ended (see `Category::Eof`).
    eof: bool,
    /// Innermost segment first (pushed while unwinding); displayed reversed.
    path: Vec<PathSegment>,
}

/// The offset of the first `[` or `{` of `input` that opens a container
/// more than `limit` levels deep, if any: the parser's own depth check
/// finds it (a read with `max_depth = limit` fails at that bracket), so
/// strings, escapes and a byte order mark are skipped as reading does.
fn first_deeper_than(input: &[u8], limit: usize) -> Option<usize> {
    let options = crate::ReadOptions::new().max_depth(limit).duplicate_keys(crate::DuplicateKeys::Last).allow_bom(true);
    match crate::parse::validate(input, &options) {
        Err(e) if matches!(e.kind(), ErrorKind::DepthLimit { .. } | ErrorKind::RecursionCeiling { .. }) => e.position().map(|p| p.offset),
        _ => None,
    }
}

/// The offset of the value at `path` (outermost segment first) in `input`,
/// a text that reads as JSON (the one a value that failed to write was read
/// from), if the path leads to one. A name given twice leads to its first
/// member. Only brackets, strings and separators are looked at (the text
/// was read whole before): a walk with no recursion and nothing kept.
fn value_at<'a>(input: &[u8], path: impl Iterator<Item = &'a PathSegment>) -> Option<usize> {
    let ws = |mut i: usize| {
        while input.get(i).is_some_and(|c| matches!(c, b' ' | b'\t' | b'\n' | b'\r')) {
            i += 1;
        }
        i
    };
    // After the closing quote of the string that opens at `q`.
    let string_end = |q: usize| {
        let mut i = q + 1;
        loop {
            match input.get(i)? {
                b'\\' => i += 2,
                b'"' => return Some(i + 1),
                _ => i += 1,
            }
        }
    };
    // After the value at `at`.
    let value_end = |at: usize| -> Option<usize> {
        match input.get(at)? {
            b'"' => string_end(at),
            b'[' | b'{' => {
                let (mut i, mut depth) = (at, 0usize);
                loop {
                    match input.get(i)? {
                        b'"' => {
                            i = string_end(i)?;
                            continue;
                        }
                        b'[' | b'{' => depth += 1,
                        b']' | b'}' => {
                            // (At least 1: the walk starts at an opening bracket.)
                            depth -= 1;
                            if depth == 0 {
                                return Some(i + 1);
                            }
                        }
                        _ => {}
                    }
                    i += 1;
                }
            }
            // A number or literal: up to a separator, a close or whitespace.
            _ => {
                let mut i = at;
                while input.get(i).is_some_and(|c| !matches!(c, b',' | b']' | b'}' | b' ' | b'\t' | b'\n' | b'\r')) {
                    i += 1;
                }
                Some(i)
            }
        }
    };
    let start = if input.starts_with(BOM) { BOM.len() } else { 0 };
    let mut at = ws(start);
    for segment in path {
        match (segment, input.get(at)?) {
            (PathSegment::Index(n), b'[') => {
                at = ws(at + 1);
                for _ in 0..*n {
                    at = ws(value_end(at)?);
                    if input.get(at) != Some(&b',') {
                        return None;
                    }
                    at = ws(at + 1);
                }
                // (An empty array has no item 0.)
                if input.get(at) == Some(&b']') {
                    return None;
                }
            }
            (PathSegment::Key(name), b'{') => {
                at = ws(at + 1);
                loop {
                    if input.get(at) != Some(&b'"') {
                        return None;
                    }
                    let end = string_end(at)?;
                    let raw = &input[at..end];
                    let colon = ws(end);
                    if input.get(colon) != Some(&b':') {
                        return None;
                    }
                    let value = ws(colon + 1);
                    let same = if raw.contains(&b'\\') {
                        crate::from_slice::<String>(raw).is_ok_and(|decoded| decoded == *name)
                    } else {
                        &raw[1..raw.len() - 1] == name.as_bytes()
                    };
                    if same {
                        at = value;
                        break;
                    }
                    at = ws(value_end(value)?);
                    if input.get(at) != Some(&b',') {
                        return None;
                    }
                    at = ws(at + 1);
                }
            }
            _ => return None,
        }
    }
    (at < input.len()).then_some(at)
}

/// `Result` with jetjson's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Messages of syntax errors that mean "the input stopped here" wherever
/// they are reported (an unterminated string is reported at its start).
const ENDED_EARLY: [&str; 3] = ["unexpected end of input", "unterminated string", "incomplete \\u escape"];
/// A high surrogate escape (`\ud83d`, reported at its `\`) not followed by
/// `\u`: a truncation if the input ends before the `\u` could start.
const LONE_HIGH_SURROGATE: &str = "lone surrogate escape (a high surrogate must be followed by a low one)";

impl Error {
    /// An error of this kind, with no position or path.
    pub fn new(kind: ErrorKind) -> Error {
        Error { inner: Box::new(ErrorInner { kind, position: None, eof: false, path: Vec::new() }) }
    }

    /// Whether this error from reading `input` says the input stopped
    /// inside a value (more bytes could make it valid), not at a bad byte.
    pub(crate) fn ended_early(&self, input: &[u8]) -> bool {
        let ErrorKind::Syntax { msg } = &self.inner.kind else { return false };
        let at = self.inner.position.map(|p| p.offset);
        if ENDED_EARLY.iter().any(|m| msg.starts_with(m)) || at.is_some_and(|at| at >= input.len()) {
            return true;
        }
        match at {
            // `\ud83d` then the end, or `\ud83d\` then the end.
            Some(at) if msg == LONE_HIGH_SURROGATE => input.get(at + 6..).is_some_and(|rest| rest.len() < 2 && b"\\u".starts_with(rest)),
            _ => false,
        }
    }

    /// Marks an error from reading `input` as [`Category::Eof`] if it is
    /// one (see `ended_early`).
    pub(crate) fn note_input_end(mut self, input: &[u8]) -> Error {
        if self.ended_early(input) {
            self.inner.eof = true;
        }
        self
    }

    /// For an error from writing a value read from `input` (a
    /// canonicalization: `input` parsed, then written in a profile): a
    /// write-depth error ([`ErrorKind::WriteDepthLimit`]) placed at the
    /// first container of `input` nested deeper than the limit, so that it
    /// says where, as a read error does; any other error as it is.
    pub(crate) fn located_in(self, input: &[u8]) -> Error {
        match (&self.inner.kind, self.inner.position) {
            (ErrorKind::WriteDepthLimit { limit }, None) => match first_deeper_than(input, *limit) {
                Some(at) => self.at(Position::locate(input, at)),
                None => self,
            },
            // A value the profile cannot write (a number beyond its range,
            // say): its path leads to it in the text it was read from.
            (_, None) if self.classify() == Category::Data => match value_at(input, self.path()) {
                Some(at) => self.at(Position::locate(input, at)),
                None => self,
            },
            _ => self,
        }
    }

    /// The error with its position replaced.
    pub(crate) fn relocated(mut self, position: Position) -> Error {
        self.inner.position = Some(position);
        self
    }

    /// The broad class of this error.
    ///
    /// ```
    /// use jetjson::{Category, Value};
    /// let class = |text: &str| text.parse::<Value>().unwrap_err().classify();
    /// assert_eq!(class(r#"{"a": [1, 2"#), Category::Eof);
    /// assert_eq!(class(r#"{"a": [1, 2}"#), Category::Syntax);
    /// assert_eq!(class(r#"{"a": 1, "a": 2}"#), Category::Data);
    /// assert_eq!(class(&"[".repeat(1000)), Category::Limit);
    /// let e = jetjson::from_str::<u8>("300").unwrap_err();
    /// assert_eq!(e.classify(), Category::Data);
    /// ```
    pub fn classify(&self) -> Category {
        match &self.inner.kind {
            ErrorKind::Io(_) => Category::Io,
            ErrorKind::Syntax { .. } if self.inner.eof => Category::Eof,
            ErrorKind::Syntax { .. } | ErrorKind::InvalidNumber { .. } => Category::Syntax,
            ErrorKind::DepthLimit { .. }
            | ErrorKind::RecursionCeiling { .. }
            | ErrorKind::SizeLimit { .. }
            | ErrorKind::IndentLimit { .. }
            | ErrorKind::WriteDepthLimit { .. }
            | ErrorKind::OutOfMemory => Category::Limit,
            ErrorKind::WriteDepthOption { .. } => Category::Data,
            ErrorKind::NonFiniteFloat { .. }
            | ErrorKind::NumberOutOfRange { .. }
            | ErrorKind::InvalidText { .. }
            | ErrorKind::KeyMustBeString
            | ErrorKind::Unsupported { .. }
            | ErrorKind::DuplicateKey { .. }
            | ErrorKind::Custom(_) => Category::Data,
        }
    }

    /// `classify() == Category::Io`.
    pub fn is_io(&self) -> bool {
        self.classify() == Category::Io
    }

    /// `classify() == Category::Syntax`.
    pub fn is_syntax(&self) -> bool {
        self.classify() == Category::Syntax
    }

    /// `classify() == Category::Eof`: the input ended inside a value.
    pub fn is_eof(&self) -> bool {
        self.classify() == Category::Eof
    }

    /// `classify() == Category::Data`.
    pub fn is_data(&self) -> bool {
        self.classify() == Category::Data
    }

    /// `classify() == Category::Limit`.
    pub fn is_limit(&self) -> bool {
        self.classify() == Category::Limit
    }

    /// The 1-based line of a read error, or 0 for an error with no position
    /// in the input (write errors, I/O errors). The whole position, with
    /// the byte offset, is [`position`](Error::position).
    ///
    /// ```
    /// let e = jetjson::from_str::<Vec<u32>>("[1,\n 2,\n x]").unwrap_err();
    /// assert_eq!((e.line(), e.column()), (3, 2));
    /// assert_eq!(e.position().unwrap().offset, 9);
    /// ```
    pub fn line(&self) -> usize {
        self.inner.position.map_or(0, |p| p.line)
    }

    /// The 1-based column (counted in bytes) of a read error, or 0 for an
    /// error with no position.
    pub fn column(&self) -> usize {
        self.inner.position.map_or(0, |p| p.column)
    }

    pub(crate) fn syntax(msg: impl Into<String>) -> Error {
        Error::new(ErrorKind::Syntax { msg: msg.into() })
    }

    pub(crate) fn at(mut self, position: Position) -> Error {
        self.inner.position = Some(position);
        self
    }

    /// Adds an enclosing path segment (called while the error unwinds).
    pub(crate) fn in_index(mut self, index: usize) -> Error {
        if self.has_path() {
            self.inner.path.push(PathSegment::Index(index));
        }
        self
    }

    pub(crate) fn in_key(mut self, key: &str) -> Error {
        if self.has_path() {
            self.inner.path.push(PathSegment::Key(key.to_owned()));
        }
        self
    }

    /// False for errors about the options, not the value (an indent over
    /// the cap is found wherever the writer happens to be, which says
    /// nothing about the value), for I/O errors (the sink failed, wherever
    /// the writer was), and for the write depth limit, whose path would be
    /// as long as the limit.
    fn has_path(&self) -> bool {
        !matches!(
            self.inner.kind,
            ErrorKind::IndentLimit { .. } | ErrorKind::WriteDepthLimit { .. } | ErrorKind::WriteDepthOption { .. } | ErrorKind::Io(_)
        )
    }

    /// What went wrong, in detail.
    pub fn kind(&self) -> &ErrorKind {
        &self.inner.kind
    }

    /// Where in the input a read error happened.
    pub fn position(&self) -> Option<Position> {
        self.inner.position
    }

    /// The path to the offending value, outermost first, for write errors.
    pub fn path(&self) -> impl Iterator<Item = &PathSegment> {
        self.inner.path.iter().rev()
    }

    /// The path as text: `$.items[3].price`, or `$` at the top level.
    pub fn path_string(&self) -> String {
        path_text(self.path())
    }

    /// The path as the message shows it: whole, or for a deep one (a depth
    /// error's path is as long as the limit) its first and last
    /// `SHOWN_PATH_ENDS` segments with `...` between.
    fn shown_path(&self) -> String {
        let n = self.inner.path.len();
        if n <= 2 * SHOWN_PATH_ENDS {
            return self.path_string();
        }
        let mut s = path_text(self.path().take(SHOWN_PATH_ENDS));
        s.push_str("...");
        s.push_str(&path_text(self.path().skip(n - SHOWN_PATH_ENDS))[1..]);
        s
    }

    /// The message without position or path.
    pub fn message(&self) -> String {
        match &self.inner.kind {
            ErrorKind::NonFiniteFloat { value, profile } => {
                format!("{value} is not allowed in profile \"{profile}\"")
            }
            ErrorKind::NumberOutOfRange { text, profile: "read" } => {
                format!("number {text} is out of range (beyond the largest double, ~1.8e308)")
            }
            ErrorKind::NumberOutOfRange { text, profile: "read f32" } => {
                format!("number {text} is out of range for an f32 (beyond its largest, ~3.4e38)")
            }
            ErrorKind::NumberOutOfRange { text, profile } => {
                format!("number {text} is out of range for profile \"{profile}\"")
            }
            ErrorKind::InvalidNumber { text } => format!("invalid number literal {text:?}"),
            ErrorKind::InvalidText { profile } => {
                format!("string is not valid UTF-8 (profile \"{profile}\" does not repair text)")
            }
            ErrorKind::KeyMustBeString => "object key must be a string".to_owned(),
            ErrorKind::Unsupported { what } => what.clone(),
            ErrorKind::Syntax { msg } => msg.clone(),
            ErrorKind::DepthLimit { limit } => format!("nesting deeper than max_depth {limit}"),
            ErrorKind::RecursionCeiling { ceiling, max_depth: Some(asked) } => format!(
                "nesting deeper than {ceiling}, the most serde deserialization reads (max_depth {asked} is lowered to it: serde types recurse on the stack)"
            ),
            ErrorKind::RecursionCeiling { ceiling, max_depth: None } => {
                format!("nesting deeper than {ceiling}, the most to_value and from_value convert (they recurse on the stack)")
            }
            ErrorKind::DuplicateKey { key } => format!("duplicate object key {key:?}"),
            ErrorKind::SizeLimit { limit } => format!("input larger than max_size {limit} bytes"),
            ErrorKind::WriteDepthLimit { limit } => format!("nesting deeper than max_write_depth {limit}"),
            ErrorKind::WriteDepthOption { depth, ceiling } => format!("max_write_depth must be from 1 to {ceiling}, got {depth}"),
            ErrorKind::IndentLimit { indent, limit } => format!("indent {indent} is wider than the limit of {limit} spaces"),
            ErrorKind::OutOfMemory => "out of memory while reading".to_owned(),
            ErrorKind::Io(msg) => format!("I/O error: {msg}"),
            ErrorKind::Custom(msg) => msg.clone(),
        }
    }
}

/// A number literal as an error message shows it: whole when short, else
/// its ends and its length (a literal can be megabytes of digits).
pub(crate) fn shown_literal(text: &str) -> String {
    const WHOLE: usize = 40;
    match (text.get(..24), text.get(text.len().saturating_sub(12)..)) {
        (Some(head), Some(tail)) if text.len() > WHOLE => format!("{head}...{tail} ({} bytes)", text.len()),
        _ => text.to_owned(),
    }
}

/// How many segments a deep path shows at each end in messages.
const SHOWN_PATH_ENDS: usize = 8;

/// `segments` (outermost first) as text after a `$`.
fn path_text<'a>(segments: impl Iterator<Item = &'a PathSegment>) -> String {
    let mut s = String::from("$");
    for seg in segments {
        match seg {
            PathSegment::Index(i) => {
                s.push('[');
                s.push_str(itoa::Buffer::new().format(*i));
                s.push(']');
            }
            PathSegment::Key(k) if is_identifier(k) => {
                s.push('.');
                s.push_str(k);
            }
            PathSegment::Key(k) => {
                s.push('[');
                s.push_str(&crate::to_string(k).unwrap_or_default());
                s.push(']');
            }
        }
    }
    s
}

fn is_identifier(k: &str) -> bool {
    let mut chars = k.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_') && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(p) = self.inner.position {
            write!(f, "line {} column {} (byte {}): ", p.line, p.column, p.offset)?;
            // A write error placed in the text read (`located_in`).
            if !self.inner.path.is_empty() {
                write!(f, "{}: ", self.shown_path())?;
            }
        } else if !self.inner.path.is_empty() {
            write!(f, "{}: ", self.shown_path())?;
        }
        f.write_str(&self.message())
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Error({:?}, \"{}\")", self.inner.kind, self)
    }
}

impl std::error::Error for Error {}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Error {
        Error::new(ErrorKind::Io(e.to_string()))
    }
}

impl serde::ser::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Error {
        Error::new(ErrorKind::Custom(msg.to_string()))
    }
}

impl serde::de::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Error {
        Error::new(ErrorKind::Custom(msg.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::{Error, ErrorKind, Position};

    fn slow(input: &[u8], offset: usize) -> Position {
        let before = &input[..offset];
        let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
        let start = before.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        Position { offset, line, column: offset - start + 1 }
    }

    #[test]
    fn a_write_depth_error_is_placed_at_the_first_container_too_deep() {
        let e = Error::new(ErrorKind::WriteDepthLimit { limit: 2 });
        let input = br#"{"a":"[[[","b":[{"c":[1]}]}"#;
        let at = e.clone().located_in(input).position().expect("placed").offset;
        assert_eq!(at, 16);
        assert_eq!(&input[at..at + 4], b"{\"c\"");
        // Escaped quotes inside strings do not end them.
        let input = br#"["\"[[", [[1]]]"#;
        assert_eq!(Error::new(ErrorKind::WriteDepthLimit { limit: 2 }).located_in(input).position().map(|p| p.offset), Some(10));
        // After a byte order mark, offsets count its three bytes.
        let input = "\u{feff}[[[1]]]".as_bytes();
        assert_eq!(Error::new(ErrorKind::WriteDepthLimit { limit: 2 }).located_in(input).position().map(|p| p.offset), Some(5));
        // Nothing that deep, or another error: as it was.
        assert_eq!(e.clone().located_in(b"[[1]]").position(), None);
        assert_eq!(Error::syntax("x").located_in(b"[[[[1]]]]").position(), None);
    }

    #[test]
    fn a_value_the_profile_cannot_write_is_placed_by_its_path() {
        // A number with no double, which jcs refuses, read from texts of
        // every layout: the error is placed at the number's first byte.
        let big = format!("1{}", "0".repeat(330));
        let read = crate::ReadOptions::new().allow_bom(true);
        for text in [
            big.clone(),
            format!("[1, 2,\n {big}]"),
            format!("\u{feff} {{\"a\": [\"x\", {{\"b\": {big}}}]}}"),
            // Brackets, commas, colons and escaped quotes inside strings;
            // a name with escapes; nested containers skipped whole.
            format!("{{\"s\": \"]}},:\\\"[{{\", \"n\": [[1, {{\"q\": \"}}\"}}], []], \"\\u0061b\": [{{}}, {big}]}}"),
            // A name given twice leads to its first member (the one kept
            // under the default policy is refused before writing).
            format!("{{\"k\" : {big} ,\"z\":0}}"),
        ] {
            let value = crate::Value::from_slice_with(text.as_bytes(), &read).expect("reads");
            let e = value.to_vec_with(&crate::WriteOptions::jcs()).expect_err("jcs refuses the number");
            let at = e.clone().located_in(text.as_bytes()).position().map(|p| p.offset);
            assert_eq!(at, text.find(&big), "{text}: {e}");
            let shown = e.located_in(text.as_bytes()).to_string();
            assert!(shown.starts_with("line ") && shown.contains("(byte "), "{shown}");
            // The path too, below the top level.
            assert_eq!(shown.contains("): $"), text != big, "{shown}");
        }
        // A path that leads nowhere in the text (another text), or an
        // error with no value: as it was.
        let e = crate::Value::from_slice_with(format!("[[{big}]]").as_bytes(), &read)
            .unwrap()
            .to_vec_with(&crate::WriteOptions::jcs())
            .unwrap_err();
        for other in [&b"[1]"[..], b"[[]]", b"[[], 1]", b"{\"a\":1}", b""] {
            assert_eq!(e.clone().located_in(other).position(), None, "{}", String::from_utf8_lossy(other));
        }
        assert_eq!(Error::new(ErrorKind::Io("x".into())).located_in(b"[1]").position(), None);
    }

    #[test]
    fn locate_equals_a_byte_by_byte_count() {
        // Newlines next to bytes that trip naive word tricks (0x0B, 0x8A,
        // 0x09, 0xFF), at every offset of inputs up to a few words long.
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for len in 0..80 {
            for _ in 0..20 {
                let input: Vec<u8> = (0..len)
                    .map(|_| {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        [b'\n', b'\n', 0x0B, 0x8A, 0x09, 0xFF, b'a', 0x00][(x % 8) as usize]
                    })
                    .collect();
                for offset in 0..=len {
                    let want = slow(&input, offset);
                    assert_eq!(Position::locate(&input, offset), want, "{input:?} at {offset}");
                }
            }
        }
    }
}
