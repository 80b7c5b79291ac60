//! One error type for reading and writing.
//!
//! Write errors say *what* went wrong and *where* in the value (a JSONPath-like
//! `$.items[3].price`); read errors say what and where in the input (byte offset,
//! line, column). The path is built while the error unwinds, so the success path
//! pays nothing for it.

use std::fmt;

/// What went wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// NaN or ±Infinity in a profile that forbids them.
    NonFiniteFloat { value: &'static str, profile: &'static str },
    /// A number the profile cannot represent (`jcs` with strict integers
    /// beyond ±2^53 or a literal beyond the double range, a 128-bit integer
    /// beyond 64 bits in `go`).
    NumberOutOfRange { text: String, profile: &'static str },
    /// A number literal that is not valid JSON number syntax.
    InvalidNumber { text: String },
    /// Text that is not valid UTF-8 (or holds a lone surrogate) where the
    /// profile does not repair it.
    InvalidText { profile: &'static str },
    /// A map key that is not a string (or a type that can be written as one).
    KeyMustBeString,
    /// A value the profile cannot write (e.g. bytes in `jcs`).
    Unsupported { what: String },
    /// Syntax error while reading JSON (also used for invalid raw JSON).
    Syntax { msg: String },
    /// Nesting deeper than the configured limit.
    DepthLimit { limit: usize },
    /// An object with the same key twice where that is an error.
    DuplicateKey { key: String },
    /// Input larger than the configured limit.
    SizeLimit { limit: usize },
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
        let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
        let line_start = before.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        Position { offset, line, column: offset - line_start + 1 }
    }
}

/// One step of a path into a value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathSegment {
    Index(usize),
    Key(String),
}

/// The error type of every jetjson operation.
#[derive(Clone, PartialEq, Eq)]
pub struct Error {
    kind: Box<ErrorKind>,
    position: Option<Position>,
    /// Innermost segment first (pushed while unwinding); displayed reversed.
    path: Vec<PathSegment>,
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    pub fn new(kind: ErrorKind) -> Error {
        Error { kind: Box::new(kind), position: None, path: Vec::new() }
    }

    pub(crate) fn syntax(msg: impl Into<String>) -> Error {
        Error::new(ErrorKind::Syntax { msg: msg.into() })
    }

    pub(crate) fn at(mut self, position: Position) -> Error {
        self.position = Some(position);
        self
    }

    /// Adds an enclosing path segment (called while the error unwinds).
    pub(crate) fn in_index(mut self, index: usize) -> Error {
        self.path.push(PathSegment::Index(index));
        self
    }

    pub(crate) fn in_key(mut self, key: &str) -> Error {
        self.path.push(PathSegment::Key(key.to_owned()));
        self
    }

    pub fn kind(&self) -> &ErrorKind {
        &self.kind
    }

    /// Where in the input a read error happened.
    pub fn position(&self) -> Option<Position> {
        self.position
    }

    /// The path to the offending value, outermost first, for write errors.
    pub fn path(&self) -> impl Iterator<Item = &PathSegment> {
        self.path.iter().rev()
    }

    /// The path as text: `$.items[3].price`, or `$` at the top level.
    pub fn path_string(&self) -> String {
        let mut s = String::from("$");
        for seg in self.path() {
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

    /// The message without position or path.
    pub fn message(&self) -> String {
        match &*self.kind {
            ErrorKind::NonFiniteFloat { value, profile } => {
                format!("{value} is not allowed in profile \"{profile}\"")
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
            ErrorKind::DuplicateKey { key } => format!("duplicate object key {key:?}"),
            ErrorKind::SizeLimit { limit } => format!("input larger than max_size {limit} bytes"),
            ErrorKind::Io(msg) => format!("I/O error: {msg}"),
            ErrorKind::Custom(msg) => msg.clone(),
        }
    }
}

fn is_identifier(k: &str) -> bool {
    let mut chars = k.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_') && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(p) = self.position {
            write!(f, "line {} column {} (byte {}): ", p.line, p.column, p.offset)?;
        } else if !self.path.is_empty() {
            write!(f, "{}: ", self.path_string())?;
        }
        f.write_str(&self.message())
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Error({:?}, \"{}\")", self.kind, self)
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
