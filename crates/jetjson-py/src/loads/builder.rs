//! The visitor that turns parser tokens into Python objects.
//!
//! Finished values wait on one stack of owned references (object members
//! as key, value pairs); when a container ends, its items are moved off the
//! stack into a list or dict created at its final size (PyList_New(n) with
//! the pointers copied in; a presized dict). No recursion: nesting depth is
//! bounded by the parser's `max_depth`, not by the C stack.
//!
//! Anything still on the stack when the builder is dropped (an error
//! stopped the parse) is released, so error paths leak nothing.

use jetjson::parse::{NumberToken, Visitor};
use jetjson::{DuplicateKeys, Error, ErrorKind};
use pyo3::ffi;
use pyo3::prelude::*;

use super::keys::{self, KeyCache};
use super::{numbers, strings};
use crate::fallible::room_for_one;

extern "C" {
    // Dict insertion with the key's hash supplied (exported by CPython
    // 3.x; pyo3-ffi leaves private names out). Our keys are exact strs,
    // which carry their hash once computed.
    pub(crate) fn _PyDict_SetItem_KnownHash(
        mp: *mut ffi::PyObject,
        key: *mut ffi::PyObject,
        item: *mut ffi::PyObject,
        hash: ffi::Py_hash_t,
    ) -> std::ffi::c_int;
}

/// The hash of the exact str `key`, computing (and caching) it if needed.
///
/// # Safety
/// `key` is a live exact `str`.
#[inline(always)]
pub(crate) unsafe fn str_hash(key: *mut ffi::PyObject) -> ffi::Py_hash_t {
    let cached = (*(key as *mut ffi::PyASCIIObject)).hash;
    if cached != -1 {
        cached
    } else {
        // Cannot fail for a str.
        ffi::PyObject_Hash(key)
    }
}

/// Why the builder stopped the parse.
pub(crate) enum Failure {
    /// A Python exception (out of memory, an int beyond CPython's digit
    /// limit) raised while creating an object. Boxed: the builder's
    /// `Option<Failure>` is taken out after every parse, and a `PyErr` held
    /// inline made that a copy of eight words.
    Python(Box<PyErr>),
    /// The same, left set in CPython, neither fetched nor formatted: a
    /// builder made for a quick call (fast.rs), which runs with the thread
    /// not counted as attached by pyo3, where fetching or formatting a
    /// `PyErr` would attach through `PyGILState_Ensure`. The quick call
    /// clears it and declines; the general path meets it again.
    Pending,
    /// An object had the same key twice under `DuplicateKeys::Error` (the
    /// caller asks the parser for the exact error and position).
    DuplicateKey,
}

pub(crate) struct Builder<'py> {
    py: Python<'py>,
    /// The two stacks, in the box the pool keeps (only its pointer moves
    /// in and out of the pool: moving the stacks themselves, six words
    /// each way, was a good part of a tiny document's `loads`). Given back
    /// in `drop`, after which it is not used.
    s: std::mem::ManuallyDrop<Box<Stacks>>,
    policy: DuplicateKeys,
    keys: Option<KeyCache>,
    pub(crate) failure: Option<Failure>,
    /// `decimal.Decimal` when non-integers are read as Decimals (`loads(...,
    /// decimal=True)`, with the parser keeping every literal's text).
    pub(crate) decimal: Option<*mut ffi::PyObject>,
    /// Made for a quick call: a Python exception is left pending
    /// (`Failure::Pending`), not fetched.
    quick: bool,
}

pub(crate) struct Stacks {
    /// Owned references: finished values, and keys of open objects.
    stack: Vec<*mut ffi::PyObject>,
    /// Where each open container's items start on `stack`.
    frames: Vec<usize>,
}

/// The builder's two stacks, kept between calls so that a small document
/// allocates nothing but its own objects. Only capacity is kept: the
/// stacks are empty whenever they are in the pool. Guarded by the GIL
/// (taken in `Builder::new`, which has the token, and put back in `drop`,
/// both without running Python code in between; a nested or concurrent
/// call finds the pool empty).
struct PooledStacks(std::cell::Cell<Option<Box<Stacks>>>);

// SAFETY: only touched with the GIL held, and the extension is not built
// for free-threaded CPython (lib.rs); pooled stacks hold no object pointers.
unsafe impl Sync for PooledStacks {}

static STACKS: PooledStacks = PooledStacks(std::cell::Cell::new(None));

/// Stack entries kept at most between calls (512 KiB of pointers): a huge
/// document does not pin its peak forever.
const MAX_POOLED_ENTRIES: usize = 1 << 16;

impl<'py> Builder<'py> {
    #[inline(always)]
    pub(crate) fn new(py: Python<'py>, policy: DuplicateKeys) -> Builder<'py> {
        // A nested or concurrent call finds the pool empty and starts afresh.
        let s = STACKS.0.take().unwrap_or_else(|| Box::new(Stacks { stack: Vec::with_capacity(64), frames: Vec::with_capacity(16) }));
        Builder { py, s: std::mem::ManuallyDrop::new(s), policy, keys: KeyCache::acquire(py), failure: None, decimal: None, quick: false }
    }

    /// A builder for a quick call (fast.rs): a Python exception raised
    /// while creating an object is left set (`Failure::Pending`).
    #[inline(always)]
    pub(crate) fn new_quick(py: Python<'py>, policy: DuplicateKeys) -> Builder<'py> {
        let mut builder = Builder::new(py, policy);
        builder.quick = true;
        builder
    }

    /// The finished document (after a successful parse).
    ///
    /// By reference: taking the builder by value moved all of it (a call
    /// to memcpy on every `loads`).
    pub(crate) fn finish(&mut self) -> Option<Py<PyAny>> {
        let obj = self.s.stack.pop()?;
        // SAFETY: `obj` is an owned reference taken off the stack.
        Some(unsafe { Bound::from_owned_ptr(self.py, obj) }.unbind())
    }

    /// `finish` as an owned pointer (for fast.rs, where no `Py<T>` may be
    /// made and dropped).
    pub(crate) fn finish_raw(&mut self) -> Option<*mut ffi::PyObject> {
        self.s.stack.pop()
    }

    #[inline(always)]
    fn push(&mut self, obj: *mut ffi::PyObject) -> jetjson::Result<()> {
        if obj.is_null() {
            return Err(self.python_error());
        }
        if !room_for_one(&mut self.s.stack) {
            return Err(self.no_room_for(obj));
        }
        self.s.stack.push(obj);
        Ok(())
    }

    /// The stack could not grow for `obj` (MemoryError is set): releases
    /// `obj`, which is not on the stack, and stops the parse.
    #[cold]
    #[inline(never)]
    fn no_room_for(&mut self, obj: *mut ffi::PyObject) -> Error {
        // SAFETY: `obj` is an owned reference the caller made and did not
        // push; released once here.
        unsafe { ffi::Py_DECREF(obj) };
        self.python_error()
    }

    /// Opens a container's frame (`frames` grows with the nesting depth).
    #[inline(always)]
    fn open(&mut self) -> jetjson::Result<()> {
        if !room_for_one(&mut self.s.frames) {
            return Err(self.python_error());
        }
        let n = self.s.stack.len();
        self.s.frames.push(n);
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn python_error(&mut self) -> Error {
        // The parse is over: what the stack holds is released now, not in
        // `drop`, so that the memory it took is free for what follows (a
        // MemoryError raised because the objects filled memory left no
        // room for the error's own few allocations, and one failing
        // aborted the process).
        self.release_stack();
        if self.quick {
            self.failure = Some(Failure::Pending);
            return Error::new(ErrorKind::Custom("a Python exception (left pending)".to_owned()));
        }
        let err = PyErr::fetch(self.py);
        // Not `to_string()`: the exception's str() can itself fail (out of
        // memory), and `to_string` panics on a formatting error.
        let mut msg = String::new();
        let _ = std::fmt::Write::write_fmt(&mut msg, format_args!("{err}"));
        self.failure = Some(Failure::Python(Box::new(err)));
        Error::new(ErrorKind::Custom(msg))
    }

    #[cold]
    #[inline(never)]
    fn duplicate_key(&mut self) -> Error {
        self.failure = Some(Failure::DuplicateKey);
        Error::new(ErrorKind::Custom("duplicate object key".to_owned()))
    }

    /// The start of the innermost open container's items.
    #[inline(always)]
    fn close(&mut self) -> usize {
        // The parser balances containers; an empty frame stack cannot
        // happen, and 0 (the whole stack) would still be memory-safe.
        self.s.frames.pop().unwrap_or(0)
    }

    /// Moves `stack[start..]` (key, value pairs) into a new dict.
    fn build_dict(&mut self, start: usize) -> jetjson::Result<*mut ffi::PyObject> {
        let n = (self.s.stack.len() - start) / 2;
        // SAFETY: `stack[start..]` holds owned references in key, value
        // order (the parser reports a key before each member value), keys
        // being exact strs. Each
        // pair is inserted (the dict takes its own references) and then
        // released exactly once, after which the slots are dropped from
        // the stack without another release.
        unsafe {
            // PyDict_New's table is the str-keyed kind (16-byte entries),
            // which a table of the final size from _PyDict_NewPresized is
            // not (CPython makes those general: 24-byte entries); the
            // str-keyed kind is smaller, what `json.loads` makes, what
            // Python code looks names up in fastest and what `dumps` writes
            // from its cached shapes (a general one took its slow path:
            // dumps(loads(x)) of records of 7 members cost 2.2x). It grows
            // as it fills: once for 6-10 members, twice for 11-21.
            let dict = ffi::PyDict_New();
            if dict.is_null() {
                return Err(self.python_error());
            }
            let mut failed = false;
            for pair in self.s.stack[start..].chunks_exact(2) {
                let (k, v) = (pair[0], pair[1]);
                if !failed {
                    failed = match self.policy {
                        DuplicateKeys::First => ffi::PyDict_SetDefault(dict, k, v).is_null(),
                        _ => _PyDict_SetItem_KnownHash(dict, k, v, str_hash(k)) != 0,
                    };
                }
                ffi::Py_DECREF(k);
                ffi::Py_DECREF(v);
            }
            self.s.stack.truncate(start);
            if failed {
                ffi::Py_DECREF(dict);
                return Err(self.python_error());
            }
            // (One member cannot be repeated.)
            if self.policy == DuplicateKeys::Error && n > 1 && ffi::PyDict_Size(dict) as usize != n {
                ffi::Py_DECREF(dict);
                return Err(self.duplicate_key());
            }
            Ok(dict)
        }
    }
}

impl Drop for Builder<'_> {
    fn drop(&mut self) {
        if !self.s.stack.is_empty() {
            self.release_stack();
        }
        self.s.frames.clear();
        if self.s.stack.capacity() > MAX_POOLED_ENTRIES || self.s.frames.capacity() > MAX_POOLED_ENTRIES / 8 {
            self.s.stack.shrink_to(MAX_POOLED_ENTRIES);
            self.s.frames.shrink_to(MAX_POOLED_ENTRIES / 8);
        }
        // SAFETY: the box is taken once, here, and the builder is not used
        // after its drop.
        let s = unsafe { std::mem::ManuallyDrop::take(&mut self.s) };
        // The GIL is held: a builder lives inside one `loads` call. Another
        // call's stacks that came back meanwhile are kept, these freed.
        let kept = STACKS.0.take().unwrap_or(s);
        STACKS.0.set(Some(kept));
    }
}

impl Builder<'_> {
    /// Releases what an error left on the stack.
    #[cold]
    #[inline(never)]
    fn release_stack(&mut self) {
        for &obj in &self.s.stack {
            // SAFETY: every pointer on the stack is an owned reference.
            unsafe { ffi::Py_DECREF(obj) };
        }
        self.s.stack.clear();
    }
}

impl Visitor for Builder<'_> {
    #[inline(always)]
    fn null(&mut self) -> jetjson::Result<()> {
        // SAFETY: Py_None is immortal in spirit; we take a new reference.
        let none = unsafe { ffi::Py_None() };
        // SAFETY: `none` is a valid object.
        unsafe { ffi::Py_INCREF(none) };
        self.push(none)
    }

    #[inline(always)]
    fn bool(&mut self, v: bool) -> jetjson::Result<()> {
        // SAFETY: the bool singletons are valid objects; we take a new
        // reference.
        let obj = unsafe {
            let obj = if v { ffi::Py_True() } else { ffi::Py_False() };
            ffi::Py_INCREF(obj);
            obj
        };
        self.push(obj)
    }

    #[inline(always)]
    fn number(&mut self, n: NumberToken<'_>) -> jetjson::Result<()> {
        let obj = match self.decimal {
            Some(cls) if !n.is_integer => numbers::new_decimal(cls, &n),
            _ => numbers::new_number(&n),
        };
        self.push(obj)
    }

    #[inline]
    fn string(&mut self, s: &str, _raw: &str) -> jetjson::Result<()> {
        let obj = strings::new_str(s);
        self.push(obj)
    }

    #[inline(always)]
    fn ascii_string(&mut self, s: &str) -> jetjson::Result<()> {
        let obj = match &mut self.keys {
            Some(cache) if s.len() <= keys::MAX_VALUE_LEN => cache.get_value(s.as_bytes()),
            _ => strings::new_ascii(s.as_bytes()),
        };
        self.push(obj)
    }

    #[inline(always)]
    fn ascii_key(&mut self, k: &str) -> jetjson::Result<()> {
        let obj = match &mut self.keys {
            Some(cache) if k.len() <= keys::MAX_LEN => cache.get(k.as_bytes()),
            _ => strings::new_ascii(k.as_bytes()),
        };
        self.push(obj)
    }

    #[inline(always)]
    fn begin_array(&mut self) -> jetjson::Result<()> {
        self.open()
    }

    #[inline]
    fn end_array(&mut self) -> jetjson::Result<()> {
        let start = self.close();
        let n = self.s.stack.len() - start;
        // SAFETY: PyList_New(n) returns a list with `n` null slots (or null
        // with an exception set); the `n` owned references on top of the
        // stack move into them (the list now owns them) and leave the stack
        // without being released.
        unsafe {
            let list = ffi::PyList_New(n as ffi::Py_ssize_t);
            if list.is_null() {
                return Err(self.python_error());
            }
            if n > 0 {
                let items = (*(list as *mut ffi::PyListObject)).ob_item;
                std::ptr::copy_nonoverlapping(self.s.stack.as_ptr().add(start), items, n);
                self.s.stack.set_len(start);
            }
            self.push(list)
        }
    }

    #[inline(always)]
    fn begin_object(&mut self) -> jetjson::Result<()> {
        self.open()
    }

    #[inline]
    fn key(&mut self, k: &str, _raw: &str) -> jetjson::Result<()> {
        let obj = match &mut self.keys {
            Some(cache) if k.len() <= keys::MAX_LEN && k.is_ascii() => cache.get(k.as_bytes()),
            _ => strings::new_str(k),
        };
        self.push(obj)
    }

    #[inline]
    fn end_object(&mut self) -> jetjson::Result<()> {
        let start = self.close();
        let dict = self.build_dict(start)?;
        self.push(dict)
    }
}
