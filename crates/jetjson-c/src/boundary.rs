//! The rules every exported function follows at the boundary: no panic
//! crosses it (each body runs under `catch_unwind`), every failure becomes a
//! status and, when the caller passed one, a filled `jetjson_error`.

use std::os::raw::c_char;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr::addr_of_mut;

use jetjson::{ErrorKind, Position};

use crate::types::{self, Error, Status};

/// A failure on its way to the caller's `jetjson_error`.
#[derive(Debug, Clone)]
pub(crate) struct Failure {
    pub status: Status,
    pub message: String,
    pub position: Option<Position>,
}

pub(crate) type Outcome = Result<(), Failure>;

impl Failure {
    pub fn new(status: Status, message: impl Into<String>) -> Failure {
        Failure { status, message: message.into(), position: None }
    }

    pub fn argument(message: impl Into<String>) -> Failure {
        Failure::new(types::ERR_ARGUMENT, message)
    }

    pub fn state(message: impl Into<String>) -> Failure {
        Failure::new(types::ERR_STATE, message)
    }

    pub fn at(mut self, position: Position) -> Failure {
        self.position = Some(position);
        self
    }

    /// A core error: its status by kind; its message with the position
    /// (read errors) in the error's fields, or with the path into the value
    /// (`$.items[3]: ...`, write errors) in front of the message.
    pub fn from_core(e: &jetjson::Error) -> Failure {
        let status = match e.kind() {
            ErrorKind::Syntax { .. } | ErrorKind::InvalidNumber { .. } => types::ERR_SYNTAX,
            ErrorKind::DepthLimit { .. } | ErrorKind::SizeLimit { .. } | ErrorKind::WriteDepthLimit { .. } => types::ERR_LIMIT,
            ErrorKind::DuplicateKey { .. } => types::ERR_DUPLICATE_KEY,
            ErrorKind::Io(_) => types::ERR_CALLBACK,
            ErrorKind::OutOfMemory => types::ERR_NO_MEMORY,
            _ => types::ERR_VALUE,
        };
        // The path of a write error, also when it was placed in the text
        // read (`write_error_in`: a position too).
        let message = if e.path().next().is_some() { format!("{}: {}", e.path_string(), e.message()) } else { e.message() };
        Failure { status, message, position: e.position() }
    }
}

/// Runs one exported function's body: a panic becomes `JETJSON_ERR_INTERNAL`,
/// and the outcome is written to `err` (when not NULL).
///
/// # Safety
/// `err` is NULL or valid for writes of one `jetjson_error`.
pub(crate) unsafe fn run(err: *mut Error, body: impl FnOnce() -> Outcome) -> Status {
    let outcome = match catch_unwind(AssertUnwindSafe(body)) {
        Ok(outcome) => outcome,
        Err(payload) => {
            Err(Failure::new(types::ERR_INTERNAL, format!("internal error in jetjson (please report): {}", panic_text(&*payload))))
        }
    };
    // SAFETY: the caller's contract on `err`.
    unsafe { report(err, &outcome) };
    match outcome {
        Ok(()) => types::OK,
        Err(f) => f.status,
    }
}

fn panic_text(payload: &(dyn std::any::Any + Send)) -> &str {
    if let Some(s) = payload.downcast_ref::<&str>() {
        s
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s
    } else {
        "panic"
    }
}

/// Fills `err` from `outcome` (an empty message and no position on success).
///
/// # Safety
/// `err` is NULL or valid for writes of one `jetjson_error`; it may be
/// uninitialised (only written, never read).
pub(crate) unsafe fn report(err: *mut Error, outcome: &Outcome) {
    if err.is_null() {
        return;
    }
    let (status, message, position) = match outcome {
        Ok(()) => (types::OK, "", None),
        Err(f) => (f.status, f.message.as_str(), f.position),
    };
    let n = truncated_len(message, types::MESSAGE_MAX - 1);
    // SAFETY: `err` is valid for writes (caller); fields are written through
    // place expressions on the raw pointer, never through a reference to the
    // possibly uninitialised struct; `n < MESSAGE_MAX`, so the copy and the
    // NUL stay inside `message`.
    unsafe {
        (*err).status = status;
        (*err).has_position = i32::from(position.is_some());
        let p = position.unwrap_or(Position { offset: 0, line: 0, column: 0 });
        (*err).offset = p.offset;
        (*err).line = p.line;
        (*err).column = p.column;
        (*err).message_len = n;
        let dst = addr_of_mut!((*err).message) as *mut u8;
        std::ptr::copy_nonoverlapping(message.as_ptr(), dst, n);
        *dst.add(n) = 0;
    }
}

/// The longest prefix of `s` of at most `max` bytes that ends on a
/// character boundary.
fn truncated_len(s: &str, max: usize) -> usize {
    if s.len() <= max {
        return s.len();
    }
    let mut n = max;
    while !s.is_char_boundary(n) {
        n -= 1;
    }
    n
}

/// The `len` bytes at `p` (a pointer-and-length argument named `what`).
/// NULL is accepted for an empty input.
///
/// # Safety
/// Unless NULL, `p` is valid for reads of `len` bytes that nobody writes for
/// the lifetime `'a`.
pub(crate) unsafe fn input<'a>(p: *const u8, len: usize, what: &str) -> Result<&'a [u8], Failure> {
    if len == 0 {
        return Ok(&[]);
    }
    if p.is_null() {
        return Err(Failure::argument(format!("{what} is NULL with a length of {len}")));
    }
    if len > isize::MAX as usize {
        return Err(Failure::argument(format!("{what} length {len} is larger than any object")));
    }
    // SAFETY: non-NULL, at most isize::MAX bytes, readable (caller).
    Ok(unsafe { std::slice::from_raw_parts(p, len) })
}

/// `input` for `const char *` arguments.
///
/// # Safety
/// As `input`.
pub(crate) unsafe fn text<'a>(p: *const c_char, len: usize, what: &str) -> Result<&'a [u8], Failure> {
    // SAFETY: forwarded contract.
    unsafe { input(p as *const u8, len, what) }
}

/// A required output pointer.
pub(crate) fn required<T>(p: *mut T, what: &str) -> Result<*mut T, Failure> {
    if p.is_null() {
        Err(Failure::argument(format!("{what} is NULL")))
    } else {
        Ok(p)
    }
}

#[cfg(test)]
mod tests {
    use super::{run, truncated_len, Failure};
    use crate::types;

    #[test]
    fn a_panic_becomes_an_internal_error() {
        // SAFETY: an all-zero `jetjson_error` is a valid value to overwrite.
        let mut err: types::Error = unsafe { std::mem::zeroed() };
        // SAFETY: `err` is a valid, writable `jetjson_error`.
        let status = unsafe { run(&mut err, || -> Result<(), Failure> { panic!("boom {}", 7) }) };
        assert_eq!(status, types::ERR_INTERNAL);
        assert_eq!(err.status, types::ERR_INTERNAL);
        let msg: Vec<u8> = err.message[..err.message_len].iter().map(|&c| c as u8).collect();
        assert!(String::from_utf8(msg).unwrap().ends_with("boom 7"));
        assert_eq!(err.message[err.message_len], 0);
    }

    #[test]
    fn truncation_keeps_whole_characters() {
        assert_eq!(truncated_len("abc", 5), 3);
        assert_eq!(truncated_len("abcdef", 4), 4);
        // "é" is two bytes: a cut inside it backs off to before it.
        assert_eq!(truncated_len("aé", 2), 1);
        assert_eq!(truncated_len("aé", 3), 3);
    }
}
