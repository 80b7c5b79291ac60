//! Large `Raw` texts left out of a kept writer's buffer and copied once,
//! straight into the result.
//!
//! A kept writer (`kept.rs`) writes into its own buffer, and the result
//! `bytes` is made from that buffer at the end: every output byte is copied
//! twice. For most outputs that second copy is cheap, but an envelope
//! around a large `Raw` is mostly the Raw's text, copied into the buffer and
//! then out of it again. So, where the profile embeds Raw text as it is
//! (`RawPolicy::Verbatim`), a Raw of at least `DEFER_AT` bytes is not
//! written: its `bytes` object is held (a new reference) with the offset in
//! the writer's output where its text belongs, and `assemble` makes the
//! result from the pieces: the buffer up to the first hole, the first Raw's
//! text, the buffer up to the next hole, and so on.
//!
//! Offsets stay right because nothing the walker writes after a hole moves
//! bytes written before it: the buffer is only appended to, and a hole is
//! only made while no object being sorted in place is open
//! (`Writer::reordering`), the one thing that moves bytes already written.
//! The held `bytes` objects are immutable, so the text copied at the end is
//! the text the walk met, whatever Python code ran since (a `default` that
//! dropped the `Raw`: the reference held here keeps its text alive).

use std::mem::MaybeUninit;

use pyo3::ffi::{self, PyObject};
use pyo3::prelude::*;

/// The smallest Raw text left to be copied at the end: below it, the
/// extra pieces cost more than the copy they save.
pub const DEFER_AT: usize = 512;

/// Most holes one output has; later large Raws are written as usual.
const MAX_HOLES: usize = 4;

/// The Raw texts left out of one output, in output order. Lives inside one
/// `kept::write` call, with the GIL held from start to end (its references
/// are released when it is dropped, with the GIL).
pub struct Holes {
    n: usize,
    /// The writer's output length when each hole was made (the first `n`
    /// are set; the rest is left uninitialised, so that an output without
    /// holes, nearly every one, pays for nothing but `n`).
    at: [MaybeUninit<usize>; MAX_HOLES],
    /// A strong reference to each hole's `bytes` object (the first `n`).
    text: [MaybeUninit<*mut PyObject>; MAX_HOLES],
}

impl Holes {
    #[inline(always)]
    pub fn new() -> Holes {
        Holes { n: 0, at: [MaybeUninit::uninit(); MAX_HOLES], text: [MaybeUninit::uninit(); MAX_HOLES] }
    }

    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// Leaves the text of `bytes` (an exact `bytes` object) out of the
    /// output at offset `at`, holding a reference to it; false (nothing
    /// held) when there is no room for another hole, or `at` is before
    /// the last hole (the caller then writes the text itself).
    ///
    /// # Safety
    /// `bytes` is a live `bytes` object; GIL held.
    pub unsafe fn push(&mut self, at: usize, bytes: *mut PyObject) -> bool {
        if self.n == MAX_HOLES || (self.n > 0 && at < self.at(self.n - 1)) {
            return false;
        }
        // SAFETY: `bytes` is live (caller); the new reference is released
        // by `drop`.
        unsafe { ffi::Py_INCREF(bytes) };
        self.at[self.n] = MaybeUninit::new(at);
        self.text[self.n] = MaybeUninit::new(bytes);
        self.n += 1;
        true
    }

    /// The offset of hole `i < n`.
    fn at(&self, i: usize) -> usize {
        debug_assert!(i < self.n);
        // SAFETY: `push` set the first `n` offsets, and callers ask for `i < n`.
        unsafe { self.at[i].assume_init() }
    }

    /// The text of hole `i`.
    ///
    /// # Safety
    /// `i < self.n`; GIL held.
    unsafe fn text(&self, i: usize) -> &[u8] {
        // SAFETY: the held reference keeps the bytes object, which is
        // immutable, alive for as long as `self`.
        unsafe { super::walk::bytes_of(self.text[i].assume_init()) }
    }

    /// A new `bytes` object of `out` (the writer's output) with every
    /// hole's text in its place, and its length.
    #[inline(never)]
    pub fn assemble(&self, py: Python<'_>, out: &[u8]) -> PyResult<(*mut PyObject, usize)> {
        let mut total = out.len();
        for i in 0..self.n {
            // SAFETY: `i < n`; GIL held (we have `py`).
            total = total.saturating_add(unsafe { self.text(i) }.len());
            // Offsets never pass the output and never go back (`push`);
            // checked anyway, so that no slice below can be out of range.
            if self.at(i) > out.len() || (i > 0 && self.at(i) < self.at(i - 1)) {
                return Err(pyo3::exceptions::PySystemError::new_err("jetjson.dumps: a Raw's place is past the output"));
            }
        }
        let Ok(size) = ffi::Py_ssize_t::try_from(total) else {
            return Err(pyo3::exceptions::PyMemoryError::new_err("jetjson.dumps: output too large"));
        };
        // SAFETY: a null source asks CPython for an uninitialised bytes
        // object of `total` bytes (null with MemoryError set on failure),
        // which only we write to, before anyone else sees it.
        let obj = unsafe { ffi::PyBytes_FromStringAndSize(std::ptr::null(), size) };
        if obj.is_null() {
            return Err(PyErr::fetch(py));
        }
        // SAFETY: `obj` has `total` bytes of data; the pieces copied are
        // `out` split at the holes' offsets (nondecreasing, each at most
        // `out.len()`: `push` and the check above) and the holes' texts,
        // whose lengths add up to `total` exactly; the sources are other
        // allocations than the new object.
        unsafe {
            let dst = ffi::PyBytes_AS_STRING(obj) as *mut u8;
            let mut d = 0;
            let mut from = 0;
            for i in 0..self.n {
                let piece = &out[from..self.at(i)];
                std::ptr::copy_nonoverlapping(piece.as_ptr(), dst.add(d), piece.len());
                d += piece.len();
                let text = self.text(i);
                std::ptr::copy_nonoverlapping(text.as_ptr(), dst.add(d), text.len());
                d += text.len();
                from = self.at(i);
            }
            let rest = &out[from..];
            std::ptr::copy_nonoverlapping(rest.as_ptr(), dst.add(d), rest.len());
            debug_assert_eq!(d + rest.len(), total);
        }
        Ok((obj, total))
    }
}

impl Default for Holes {
    fn default() -> Holes {
        Holes::new()
    }
}

impl Drop for Holes {
    #[inline(always)]
    fn drop(&mut self) {
        if self.n != 0 {
            self.release();
        }
    }
}

impl Holes {
    #[inline(never)]
    fn release(&mut self) {
        for t in &self.text[..self.n] {
            // SAFETY: one of the first `n`, set by `push` with a reference
            // it took; holes live only inside a `kept::write` call, which
            // holds the GIL; releasing a bytes object runs no Python code.
            unsafe { ffi::Py_DECREF(t.assume_init()) };
        }
        self.n = 0;
    }
}
