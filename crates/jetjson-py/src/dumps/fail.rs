//! Why a `dumps` call failed, and where in the object it happened.
//!
//! The walker returns `Result<(), Fail>`; `Fail` is one pointer wide, so the
//! success path moves nothing but a null. Each container adds its segment
//! (`[3]`, `.price`) only while an error unwinds through it.

use pyo3::prelude::*;

use crate::errors::encode_error;

pub struct Fail(Box<Inner>);

struct Inner {
    kind: Kind,
    /// Innermost segment first (pushed while unwinding).
    path: Vec<Seg>,
    /// For a depth limit: the container being entered when it was reached
    /// (an address, only compared), and the path lengths at which that same
    /// container was met again while unwinding (a cycle).
    probe: usize,
    cycle: Vec<(usize, &'static str)>,
}

enum Kind {
    /// A rule of the profile (NaN in go, an int beyond int64, ...).
    Core(jetjson::Error),
    /// A Python exception (raised by `default`, a property, `utcoffset`...):
    /// it propagates unchanged.
    Py(PyErr),
    /// An object jetjson cannot write (unsupported type, non-str key, ...).
    Msg(String),
    /// A dict or list changed (by Python code run while one of its values
    /// was written) before all of it was written: a RuntimeError, as Python
    /// raises for a dict that changes size during iteration. The text says
    /// what changed ("dict changed", "list changed size").
    Changed(&'static str),
    /// The thread's stack has no room for another level (see
    /// `Walker::stack_check`); like a depth limit, it may be a cycle.
    Deep(String),
    /// The output's memory could not grow to this many bytes (a kept
    /// writer's `KeptMemory`): a MemoryError, made only when raised, so
    /// that a quick walk's discarded failure makes no Python object.
    NoMemory(usize),
    /// A quick walk (`Walker::quick`) met an object it leaves to the
    /// general path (one whose writing may run Python code): not an error
    /// of the call, which the general path then makes from the start.
    Declined,
}

enum Seg {
    Index(usize),
    /// A key's text, its first `SHOWN_TEXT_BYTES` bytes at most, and its whole
    /// length in bytes.
    Key(String, usize),
}

/// The most bytes of a key or other text of the object that an error
/// message copies: a message held the whole text before (a 300 MB key
/// copied four times over on the way to an error's message, each copy a
/// Rust allocation, which aborts the process when it fails).
pub const SHOWN_TEXT_BYTES: usize = 256;

/// The first `SHOWN_TEXT_BYTES` bytes of `text` at most, cut at a character
/// boundary.
pub fn head(text: &str) -> &str {
    if text.len() <= SHOWN_TEXT_BYTES {
        return text;
    }
    let mut end = SHOWN_TEXT_BYTES;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// `text` for a message, JSON-like quoted as `{:?}` quotes it; a text
/// longer than `SHOWN_TEXT_BYTES` bytes as its head and its length:
/// `"abc..."...(300000 bytes)`.
pub fn quoted(text: &str) -> String {
    let h = head(text);
    if h.len() == text.len() {
        format!("{text:?}")
    } else {
        format!("{h:?}...({} bytes)", text.len())
    }
}

pub type Walk = Result<(), Fail>;

impl Fail {
    #[cold]
    pub fn core(e: jetjson::Error) -> Fail {
        Fail(Box::new(Inner { kind: Kind::Core(e), path: Vec::new(), probe: 0, cycle: Vec::new() }))
    }

    #[cold]
    pub fn py(e: PyErr) -> Fail {
        Fail(Box::new(Inner { kind: Kind::Py(e), path: Vec::new(), probe: 0, cycle: Vec::new() }))
    }

    #[cold]
    pub fn msg(m: impl Into<String>) -> Fail {
        Fail(Box::new(Inner { kind: Kind::Msg(m.into()), path: Vec::new(), probe: 0, cycle: Vec::new() }))
    }

    /// No stack left to go deeper (see `Kind::Deep`).
    #[cold]
    #[inline(never)]
    pub fn deep(m: String) -> Fail {
        Fail(Box::new(Inner { kind: Kind::Deep(m), path: Vec::new(), probe: 0, cycle: Vec::new() }))
    }

    /// A container changed while it was being written (see `Kind::Changed`).
    #[cold]
    #[inline(never)]
    pub fn changed(what: &'static str) -> Fail {
        Fail(Box::new(Inner { kind: Kind::Changed(what), path: Vec::new(), probe: 0, cycle: Vec::new() }))
    }

    /// The output's memory could not grow (see `Kind::NoMemory`).
    #[cold]
    #[inline(never)]
    pub fn no_memory(bytes: usize) -> Fail {
        Fail(Box::new(Inner { kind: Kind::NoMemory(bytes), path: Vec::new(), probe: 0, cycle: Vec::new() }))
    }

    /// A quick walk leaves this object to the general path (see `Kind::Declined`).
    #[cold]
    #[inline(never)]
    pub fn declined() -> Fail {
        Fail(Box::new(Inner { kind: Kind::Declined, path: Vec::new(), probe: 0, cycle: Vec::new() }))
    }

    /// Ends a quick walk's failure without raising it (the general path
    /// meets it again, or declined it): a Python exception it holds is
    /// handed to CPython and cleared there, so that no `Py<T>` is dropped
    /// (a quick body runs with the thread not counted as attached by pyo3,
    /// `fast.rs`) and no exception is left set.
    pub fn discard(self, py: Python<'_>) {
        let inner = *self.0;
        if let Kind::Py(e) = inner.kind {
            e.restore(py);
            // SAFETY: GIL held (the caller's `py`); clears what was just set.
            unsafe { pyo3::ffi::PyErr_Clear() };
        }
    }

    /// The pending Python exception (after a C API call returned an error).
    #[cold]
    pub fn fetch(py: Python<'_>) -> Fail {
        Fail::py(PyErr::fetch(py))
    }

    /// Notes that the error unwinds out of `container` (a list, dict,
    /// tuple or object written as one): for a depth limit, the first such
    /// container is the one that could not be entered, and meeting it again
    /// further out means the document contains itself.
    ///
    /// # Safety
    /// `container` is a live object (the caller holds it while its error
    /// unwinds); GIL held.
    #[cold]
    #[inline(never)]
    pub unsafe fn seen_in(mut self, container: *mut pyo3::ffi::PyObject) -> Fail {
        let at = container as usize;
        let deep = match &self.0.kind {
            Kind::Core(e) => matches!(e.kind(), jetjson::ErrorKind::DepthLimit { .. } | jetjson::ErrorKind::WriteDepthLimit { .. }),
            Kind::Deep(_) => true,
            _ => false,
        };
        if deep {
            if self.0.probe == 0 {
                self.0.probe = at;
            }
            if self.0.probe == at {
                // SAFETY: `container` is live (the caller holds it while its
                // error unwinds); only its type's name is read.
                let name = unsafe { std::ffi::CStr::from_ptr((*pyo3::ffi::Py_TYPE(container)).tp_name) };
                let name = match name.to_bytes() {
                    b"list" => "list",
                    b"dict" => "dict",
                    b"tuple" => "tuple",
                    _ => "object",
                };
                self.0.cycle.push((self.0.path.len(), name));
            }
        }
        self
    }

    #[cold]
    #[inline(never)]
    pub fn in_index(mut self, i: usize) -> Fail {
        // A quick walk's refusal is never shown: no path for it.
        if !matches!(self.0.kind, Kind::Declined) {
            self.0.path.push(Seg::Index(i));
        }
        self
    }

    #[cold]
    #[inline(never)]
    pub fn in_key(mut self, key: &str) -> Fail {
        if !matches!(self.0.kind, Kind::Declined) {
            self.0.path.push(Seg::Key(head(key).to_owned(), key.len()));
        }
        self
    }

    /// The Python exception to raise: Python exceptions as they are, others as
    /// `JSONEncodeError("<path>: <message>")`.
    pub fn into_pyerr(self, py: Python<'_>) -> PyErr {
        let inner = *self.0;
        // A container met twice on the way out of a depth limit: a cycle,
        // named by its outermost occurrence and the next one inside it.
        if let [.., (inside, _), (outer, kind)] = inner.cycle[..] {
            let at = |n: usize| path_string(&inner.path[n..]);
            return encode_error(py, format!("{}: circular reference (the {kind} at {} contains itself here)", at(inside), at(outer)));
        }
        let path = path_string(&inner.path);
        match inner.kind {
            // A Python exception propagates as it is, with a note saying
            // where (`e.add_note`, Python 3.11+): "while writing $.a[3]".
            Kind::Py(e) => {
                if !inner.path.is_empty() {
                    add_note(py, &e, &format!("while jetjson wrote {path}"));
                }
                e
            }
            Kind::Msg(m) | Kind::Deep(m) => encode_error(py, format!("{path}: {m}")),
            Kind::NoMemory(bytes) => super::output::out_of_memory(py, bytes),
            Kind::Changed(what) => pyo3::exceptions::PyRuntimeError::new_err(format!("{path}: {what} while dumps was writing it")),
            // Only quick walks decline, and their failures are discarded,
            // never raised: reaching this is a bug.
            Kind::Declined => pyo3::exceptions::PySystemError::new_err(format!("{path}: jetjson.dumps: a quick walk's refusal was raised")),
            // Working memory the core could not get (raw JSON read whole to
            // sort its keys): not the object's fault.
            Kind::Core(e) if *e.kind() == jetjson::ErrorKind::OutOfMemory => {
                pyo3::exceptions::PyMemoryError::new_err(format!("jetjson.dumps: out of memory at {path} (raw JSON read to be laid out)"))
            }
            Kind::Core(e) => {
                // A core error may carry its own path inside the value it was
                // writing (raw JSON being canonicalized): continue ours with it.
                let inner_path = e.path_string();
                let full = if inner_path.len() > 1 { format!("{path}{}", &inner_path[1..]) } else { path };
                // An error with a place is one in the text of raw JSON read
                // again (an unchecked `Raw` that does not read): where in
                // that text, as `loads` would place it.
                let place = e
                    .position()
                    .map(|p| format!(" in the raw JSON at line {} column {} (byte {})", p.line, p.column, p.offset))
                    .unwrap_or_default();
                encode_error(py, format!("{full}: {}{place}", e.message()))
            }
        }
    }
}

/// `e.add_note(note)`, at best: nothing when the note cannot be made. The
/// error is often a `MemoryError` raised by Python code the walk called
/// (a `default`, an `isoformat`) with the process out of memory, when
/// making the note's str (or interning its method's name) fails too: pyo3's
/// conversions panic on that failure, and the panic, met again when its
/// `PanicException` could not be made either, aborted the process.
fn add_note(py: Python<'_>, e: &PyErr, note: &str) {
    use pyo3::ffi;
    let value = e.value(py);
    // SAFETY: GIL held (we have `py`); `value` is a live exception object;
    // the two strs are new references released here; a call that fails
    // leaves its own exception set, which is cleared (`e` was taken out of
    // the thread's state, so nothing else is set meanwhile).
    unsafe {
        let text = ffi::PyUnicode_FromStringAndSize(note.as_ptr().cast(), note.len() as ffi::Py_ssize_t);
        if text.is_null() {
            ffi::PyErr_Clear();
            return;
        }
        let name = ffi::PyUnicode_FromStringAndSize(c"add_note".as_ptr(), 8);
        if name.is_null() {
            ffi::Py_DECREF(text);
            ffi::PyErr_Clear();
            return;
        }
        let r = ffi::PyObject_CallMethodOneArg(value.as_ptr(), name, text);
        if r.is_null() {
            ffi::PyErr_Clear();
        } else {
            ffi::Py_DECREF(r);
        }
        ffi::Py_DECREF(name);
        ffi::Py_DECREF(text);
    }
}

/// `$`, then `[i]` for indexes, `.key` for identifier keys and `["key"]`
/// (JSON-quoted) for others.
/// The path as `$.items[3].price`, innermost last. A path longer than
/// 64 steps (a depth limit, a stack running out) shows its first and last
/// 32 steps and how many were left out between them.
fn path_string(path: &[Seg]) -> String {
    const SHOWN: usize = 32;
    let n = path.len();
    let mut s = String::from("$");
    for (k, seg) in path.iter().rev().enumerate() {
        if n > 2 * SHOWN && (SHOWN..n - SHOWN).contains(&k) {
            if k == SHOWN {
                s.push_str(&format!("...({} more levels)...", n - 2 * SHOWN));
            }
            continue;
        }
        match seg {
            Seg::Index(i) => {
                s.push('[');
                s.push_str(&i.to_string());
                s.push(']');
            }
            Seg::Key(k, len) if k.len() == *len && is_identifier(k) => {
                s.push('.');
                s.push_str(k);
            }
            Seg::Key(k, len) => {
                s.push('[');
                s.push_str(&jetjson::to_string(k).unwrap_or_default());
                if k.len() != *len {
                    // Only the head of a long key was kept (`in_key`).
                    s.push_str(&format!("...({len} bytes)"));
                }
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
