//! The result `bytes` object, written in place.
//!
//! The core writer writes straight into the storage of the `bytes` object
//! that `dumps` returns (`OutputMemory`): the object grows geometrically
//! with `_PyBytes_Resize` (a `realloc`) and is trimmed to size at the end,
//! so every output byte is written once, into its final memory, as orjson
//! does. No intermediate buffer, no copy.
//!
//! Except for small outputs: when the last output was small, the writer
//! starts in a staging buffer kept between calls, and the result is made at
//! its exact size from it at the end (an allocation and a copy of a
//! few hundred bytes at most). Making a `bytes` object big enough for the
//! writer's worst-case reservations and shrinking it afterwards costs more
//! than that (a shrink in CPython's small-object allocator is a new block
//! and a copy anyway), and keeping the slack would make small results larger
//! than they need to be. An output that outgrows the stage moves into a
//! `bytes` object once and carries on there. (Calls with a profile's
//! default options write small outputs in a writer kept between calls
//! instead, `kept.rs`, which is made from its buffer the same way.)

use std::cell::Cell;
use std::ptr::NonNull;

use jetjson::OutputMemory;
use pyo3::ffi::{self, PyObject};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

extern "C" {
    // Part of CPython's C API (not the limited API), exported by every
    // CPython 3 build; pyo3-ffi keeps its declaration private.
    fn _PyBytes_Resize(bytes: *mut *mut PyObject, newsize: ffi::Py_ssize_t) -> std::os::raw::c_int;
}

/// Smallest first allocation: small enough that a small result is a
/// pymalloc block (objects up to 512 bytes), which is much cheaper to make,
/// shrink and free than a malloc'd one.
const INITIAL: usize = 256;

/// Outputs expected to be at most this long (from the last one, whichever
/// thread wrote it: `Shared` is one process-wide record) start in the
/// staging buffer.
const SMALL_OUTPUT: usize = 2048;

/// Capacity of the staging buffer: room for the writer's reservations
/// around a small output (a string reserves six bytes per byte of text).
const STAGE: usize = 4096;

/// What calls leave for the next ones: the size of the next first
/// allocation (`next_first_capacity`; programs tend to write documents of
/// similar size in a row, and one allocation of the right size avoids a
/// chain of resizes whose large steps copy the output), an empty
/// `BytesMemory` box (`recycle`), and the staging buffer while no call uses
/// it (a call that fails gives it back too, when its memory is dropped).
///
/// Guarded by the GIL: a `BytesMemory` lives only inside a `dumps` call,
/// which holds the GIL from start to end, and nothing here runs Python
/// code, so no two threads touch these at once. (Statics rather than
/// thread-locals: in a shared library each thread-local access is a call.)
struct Shared {
    next_cap: Cell<usize>,
    spare: Cell<Option<Box<BytesMemory>>>,
    stage: Cell<Vec<u8>>,
}

struct GilGuarded(Shared);

// SAFETY: every access holds the GIL (see `Shared`); the extension is not
// built for free-threaded CPython (lib.rs).
unsafe impl Sync for GilGuarded {}

static SHARED: GilGuarded = GilGuarded(Shared { next_cap: Cell::new(0), spare: Cell::new(None), stage: Cell::new(Vec::new()) });

/// Unused capacity a result may keep rather than be reallocated to size:
/// up to a quarter. Keeping it also keeps the allocation the same size from
/// call to call, which glibc serves from the heap (its mmap threshold rises
/// to the size of a freed mapping): a shrink to the exact length would make
/// the next call's allocation larger than anything freed, and map fresh
/// pages every time.
fn keeps_slack(len: usize, cap: usize) -> bool {
    cap - len <= cap / 4
}

/// The first allocation of the next call (on any thread), after one that
/// wrote `len` bytes into an object of capacity `cap`, first made with
/// `first_cap`.
///
/// When the output fit, the next call gets its length plus a quarter: room
/// for a similar document and for the writer's worst-case reservations near
/// the end (a string reserves room for its every byte escaped), little
/// enough that the result keeps its slack (`keeps_slack`) instead of being
/// shrunk. Sizing by the length, not by the capacity a chain of doublings
/// reached, is what keeps large outputs off fresh pages: glibc serves a
/// large request from the heap once it has freed an mmapped block at least
/// as large (its mmap threshold rises to that size), and a result shrunk
/// from 512 KiB to 350 KiB raised it to 350 KiB only, so every later 512 KiB
/// request was a fresh mapping (mmap, page faults on every page, mremap,
/// munmap: a third of the time of a 350 KiB citm_catalog output). When the
/// output outgrew its first allocation, the capacity it reached covers its
/// largest reservation, so the next call starts there.
fn next_first_capacity(len: usize, cap: usize, first_cap: usize) -> usize {
    if cap > first_cap {
        cap
    } else {
        len + len / 4
    }
}

pub struct BytesMemory {
    /// A bytes object owned by us alone (refcount 1), null before the first
    /// `grow` and while the output is in the stage.
    obj: *mut PyObject,
    /// The capacity the object was made with (0 before the first `grow`):
    /// a larger capacity at the end means the output outgrew it.
    first_cap: usize,
    /// The staging buffer while this memory uses it (taken from, and given
    /// back to, `Shared::stage`).
    stage: Vec<u8>,
    /// The output is in `stage`.
    staged: bool,
}

// SAFETY: a `BytesMemory` lives inside one `dumps` call, which holds the
// GIL from start to end; the object it owns is touched by nobody else.
unsafe impl Send for BytesMemory {}

/// Whether the last output (of any thread: `Shared` is process-wide) was at
/// most about `len` bytes (or there was none yet): the next one is then
/// expected as small.
pub fn expects_at_most(len: usize) -> bool {
    SHARED.0.next_cap.get() <= len
}

/// Records the length of an output made without a `BytesMemory` (written
/// in a kept writer and copied, `kept.rs`), for the next call's choice.
pub fn wrote(len: usize) {
    SHARED.0.next_cap.set(len + len / 4);
}

impl BytesMemory {
    pub fn new() -> BytesMemory {
        BytesMemory { obj: std::ptr::null_mut(), first_cap: 0, stage: Vec::new(), staged: false }
    }

    /// A memory for one `dumps` call: the box the previous call gave back
    /// (`recycle`), or a new one. The writer takes its memory boxed; reusing
    /// the box saves an allocation and a free per call, which is a tenth
    /// of the cost of writing a small document.
    pub fn boxed() -> Box<BytesMemory> {
        SHARED.0.spare.take().unwrap_or_else(|| Box::new(BytesMemory::new()))
    }

    /// A memory holding a copy of `data`, with room for `min_capacity`
    /// bytes, and where its storage starts and its capacity: where a kept
    /// writer's output moves when it grows large (`kept.rs`). Unwinds as
    /// `grow` does when the object cannot be made.
    pub fn holding(data: &[u8], min_capacity: usize) -> (BytesMemory, NonNull<u8>, usize) {
        debug_assert!(data.len() <= min_capacity);
        let mut memory = BytesMemory::new();
        // Not staged: `min_capacity` is beyond the stage's (the caller's).
        let (at, cap) = memory.grow(0, min_capacity.max(STAGE + 1));
        // SAFETY: the new object has room for `cap >= min_capacity >=
        // data.len()` bytes; `data` is another allocation.
        unsafe { std::ptr::copy_nonoverlapping(data.as_ptr(), at.as_ptr(), data.len()) };
        (memory, at, cap)
    }

    /// Keeps an emptied box for the next call (on any thread).
    pub fn recycle(mut boxed: Box<BytesMemory>) {
        if !boxed.obj.is_null() {
            // SAFETY: we own the only reference (GIL held, inside dumps).
            unsafe { ffi::Py_DECREF(boxed.obj) };
            boxed.obj = std::ptr::null_mut();
        }
        boxed.staged = false;
        boxed.give_back_stage();
        SHARED.0.spare.set(Some(boxed));
    }

    /// The finished `bytes` object of the `len` bytes written; the memory is
    /// left empty.
    pub fn take_bytes<'py>(&mut self, py: Python<'py>, len: usize) -> PyResult<Bound<'py, PyBytes>> {
        if self.staged {
            self.staged = false;
            SHARED.0.next_cap.set(len + len / 4);
            debug_assert!(len <= self.stage.capacity());
            // SAFETY: the writer wrote `len` bytes at the start of the stage
            // (its capacity is at least `len`); CPython copies them into a new
            // bytes object of exactly that size.
            let obj = unsafe { ffi::PyBytes_FromStringAndSize(self.stage.as_ptr() as *const _, len as ffi::Py_ssize_t) };
            if obj.is_null() {
                drop(PyErr::take(py));
                return Err(out_of_memory(py, len));
            }
            self.give_back_stage();
            // SAFETY: a new bytes object whose one reference we hand over.
            return Ok(unsafe { Bound::from_owned_ptr(py, obj).cast_into_unchecked::<PyBytes>() });
        }
        if self.obj.is_null() {
            return Ok(PyBytes::new(py, b""));
        }
        // SAFETY: `obj` is a live bytes object that we own alone.
        let cap = unsafe { ffi::Py_SIZE(self.obj) } as usize;
        SHARED.0.next_cap.set(next_first_capacity(len, cap, self.first_cap));
        if keeps_slack(len, cap) {
            // SAFETY: nobody else has seen the object yet (refcount 1), so
            // its size may still change; CPython allocated `cap + 1` bytes
            // of data, so the terminating NUL at `len <= cap` is inside it.
            unsafe {
                (*(self.obj as *mut ffi::PyVarObject)).ob_size = len as ffi::Py_ssize_t;
                *(ffi::PyBytes_AS_STRING(self.obj) as *mut u8).add(len) = 0;
            }
        } else {
            // SAFETY: `obj` is a bytes object we own alone (refcount 1), as
            // _PyBytes_Resize requires; shrinking keeps its first `len`
            // bytes. On failure it frees the object, sets `obj` to null and
            // leaves a MemoryError set, which `fetch` takes.
            if unsafe { _PyBytes_Resize(&mut self.obj, len as ffi::Py_ssize_t) } != 0 {
                drop(PyErr::take(py));
                return Err(out_of_memory(py, len));
            }
        }
        let obj = std::mem::replace(&mut self.obj, std::ptr::null_mut());
        // SAFETY: `obj` is a valid bytes object whose one reference we own and
        // hand over to the Bound.
        Ok(unsafe { Bound::from_owned_ptr(py, obj).cast_into_unchecked::<PyBytes>() })
    }
}

// SAFETY: every returned pointer is the data of the bytes object we own,
// valid for its size (the returned capacity, at least `min_capacity`);
// _PyBytes_Resize keeps the first bytes across a resize. Nobody else sees
// the object until `into_bytes` hands it over, after the writer is done.
unsafe impl OutputMemory for BytesMemory {
    fn grow(&mut self, len: usize, min_capacity: usize) -> (NonNull<u8>, usize) {
        let cap = if self.obj.is_null() {
            let next = SHARED.0.next_cap.get();
            if len == 0 && !self.staged && next <= SMALL_OUTPUT && min_capacity <= STAGE {
                // A small output is expected: write it in the stage.
                if self.stage.capacity() < STAGE {
                    self.stage = SHARED.0.stage.take();
                    if self.stage.capacity() < STAGE {
                        self.stage = Vec::with_capacity(STAGE);
                    }
                }
                self.staged = true;
                let cap = self.stage.capacity();
                // A Vec's pointer is never null.
                return (NonNull::new(self.stage.as_mut_ptr()).unwrap_or(NonNull::dangling()), cap);
            }
            let cap = min_capacity.max(INITIAL).max(next);
            self.first_cap = cap;
            // SAFETY: a null source asks CPython for an uninitialised bytes
            // object of `cap` bytes, which only we write to.
            self.obj = unsafe { ffi::PyBytes_FromStringAndSize(std::ptr::null(), cap as ffi::Py_ssize_t) };
            if self.staged && !self.obj.is_null() {
                // The output outgrew the stage: it moves here, once.
                debug_assert!(len <= self.stage.capacity() && len <= cap);
                // SAFETY: `len` bytes were written at the start of the stage;
                // the new object has room for `cap >= len` bytes; the two
                // allocations are distinct.
                unsafe { std::ptr::copy_nonoverlapping(self.stage.as_ptr(), ffi::PyBytes_AS_STRING(self.obj) as *mut u8, len) };
                self.staged = false;
            }
            cap
        } else {
            debug_assert!(len <= min_capacity);
            // SAFETY: as in `into_bytes`; growing keeps the first `len` bytes.
            if unsafe { _PyBytes_Resize(&mut self.obj, min_capacity as ffi::Py_ssize_t) } != 0 {
                self.obj = std::ptr::null_mut();
            }
            min_capacity
        };
        if self.obj.is_null() {
            // Out of memory (CPython has set MemoryError). The writer has no
            // error return here: unwind to `catching_out_of_memory`, which
            // raises it (not a panic: `resume_unwind` runs no panic hook and
            // prints nothing).
            unwind_out_of_memory(cap);
        }
        // SAFETY: `obj` is a live bytes object of `cap` bytes.
        let data = unsafe { ffi::PyBytes_AS_STRING(self.obj) } as *mut u8;
        (NonNull::new(data).expect("bytes data is never null"), cap)
    }

    fn into_any(self: Box<Self>) -> Box<dyn std::any::Any> {
        self
    }
}

/// What a write that cannot get memory unwinds with (`unwind_out_of_memory`:
/// the result object, the kept writers' memory, a str's UTF-8 form, the
/// walker's sort memory): the size it asked for.
struct OutOfMemory {
    bytes: usize,
}

/// Runs `f` and catches the unwinding of an output memory's failed growth
/// (an `OutOfMemory` payload): `Err` with the size asked for. Any other
/// panic carries on.
///
/// What the unwinding passes through is dropped: the writer and its
/// memory, the walker (which gives back its working memory and releases
/// the members of a dict being sorted) and its guards (`walk::Hold`: each
/// container, member value and callback result being written), so no
/// object is left with a reference too many. No Python code is running
/// when a growth fails (the writer writes only between calls into Python).
#[inline]
pub fn catching_growth<T>(f: impl FnOnce() -> T) -> Result<T, usize> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(r) => Ok(r),
        Err(payload) => match payload.downcast::<OutOfMemory>() {
            Ok(oom) => Err(oom.bytes),
            Err(other) => std::panic::resume_unwind(other),
        },
    }
}

/// Unwinds with `OutOfMemory { bytes }` to the catch around the walk
/// (`catching_growth`), where memory of that size could not be had: the
/// one way out of a write that cannot go on for want of memory.
#[cold]
#[inline(never)]
pub fn unwind_out_of_memory(bytes: usize) -> ! {
    std::panic::resume_unwind(Box::new(OutOfMemory { bytes }))
}

/// Makes room in `v` for `additional` more items (amortized, as `push`
/// grows), unwinding with `OutOfMemory` when it cannot, to the catch around
/// the walk (`catching_growth`): for the walker's working memory whose size
/// the object sets (the members of a dict being sorted), where a `Vec`'s
/// own growth would abort the process.
#[inline(always)]
pub fn room_or_unwind<T>(v: &mut Vec<T>, additional: usize) {
    if v.capacity() - v.len() < additional {
        grow_or_unwind(v, additional);
    }
}

#[cold]
#[inline(never)]
fn grow_or_unwind<T>(v: &mut Vec<T>, additional: usize) {
    if v.try_reserve(additional).is_err() {
        unwind_out_of_memory(v.len().saturating_add(additional).saturating_mul(std::mem::size_of::<T>()));
    }
}

/// Runs `write` (the writing of one output into a `BytesMemory`) and turns
/// the unwinding of a failed growth into `MemoryError`, instead of the
/// abort an allocation failure is in Rust (`catching_growth`).
pub fn catching_out_of_memory<T>(py: Python<'_>, write: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    catching_growth(write).unwrap_or_else(|bytes| {
        // The MemoryError CPython set when the allocation failed has no
        // message: ours says what was asked for (or is that bare one when
        // even the message cannot be made). Another exception passes.
        match PyErr::take(py) {
            Some(e) if !e.is_instance_of::<pyo3::exceptions::PyMemoryError>(py) => Err(e),
            _ => Err(out_of_memory(py, bytes)),
        }
    })
}

/// The MemoryError of an output of `bytes` that could not be made, made
/// through the C API with nothing allocated by Rust (pyo3's conversions
/// panic when CPython cannot allocate, and a Rust allocation failure
/// aborts): a plain MemoryError if even its message cannot be made.
#[cold]
#[inline(never)]
pub fn out_of_memory(py: Python<'_>, bytes: usize) -> PyErr {
    // SAFETY: GIL held (`py`); a NUL-terminated format whose one `%zu`
    // takes the one `size_t` given. CPython sets MemoryError with the
    // message, or, when the message cannot be made, the MemoryError of
    // that failure.
    unsafe { ffi::PyErr_Format(ffi::PyExc_MemoryError, c"jetjson.dumps: out of memory for an output of %zu bytes".as_ptr(), bytes) };
    PyErr::fetch(py)
}

impl BytesMemory {
    /// Returns the staging buffer to `Shared` (for the next call).
    fn give_back_stage(&mut self) {
        if self.stage.capacity() != 0 {
            let stage = std::mem::take(&mut self.stage);
            SHARED.0.stage.set(stage);
        }
    }
}

impl Drop for BytesMemory {
    fn drop(&mut self) {
        self.give_back_stage();
        if !self.obj.is_null() {
            // SAFETY: we own the only reference to `obj` (the GIL is held:
            // the memory lives only inside a dumps call).
            unsafe { ffi::Py_DECREF(self.obj) };
        }
    }
}
