//! `jetjson_buffer`: the caller's growable output. Its memory comes from the
//! C library's `malloc`/`realloc`, so a C program may hand in a block it
//! allocated itself and may release the result with `free` as well as with
//! `jetjson_buffer_free`. The library only ever appends after `len` and
//! grows the block with `realloc`.

use std::os::raw::c_void;

use crate::boundary::{self, Failure, Outcome};
use crate::types::{self, Buffer, Error, Status};

extern "C" {
    fn realloc(p: *mut c_void, size: usize) -> *mut c_void;
    fn free(p: *mut c_void);
}

/// Smallest capacity a buffer grows to.
const MIN_CAP: usize = 64;

/// A checked handle on the caller's `jetjson_buffer` for one call (or for
/// a writer's life).
#[derive(Clone, Copy)]
pub(crate) struct Out {
    buf: *mut Buffer,
}

impl Out {
    /// Checks that `buf` is non-NULL and consistent (`len <= cap`, and a
    /// NULL `data` has `cap == 0`).
    ///
    /// # Safety
    /// `buf` is NULL or valid for reads and writes of one `jetjson_buffer`,
    /// whose `data` is NULL or a block from `malloc`/`realloc` of `cap`
    /// bytes; nobody else touches it while the `Out` is in use.
    pub unsafe fn new(buf: *mut Buffer, what: &str) -> Result<Out, Failure> {
        let buf = boundary::required(buf, what)?;
        // SAFETY: valid for reads (caller).
        let (data, len, cap) = unsafe { ((*buf).data, (*buf).len, (*buf).cap) };
        if len > cap || (data.is_null() && cap != 0) {
            return Err(Failure::argument(format!("{what} is inconsistent (data {data:?}, len {len}, cap {cap})")));
        }
        Ok(Out { buf })
    }

    pub fn len(&self) -> usize {
        // SAFETY: checked valid at construction (contract of `new`).
        unsafe { (*self.buf).len }
    }

    /// Gives the buffer back its length from before this call's output.
    pub fn truncate(&mut self, len: usize) {
        if len < self.len() {
            // SAFETY: as in `len`; a shorter length keeps `len <= cap`.
            unsafe { (*self.buf).len = len };
        }
    }

    /// Makes room for `additional` bytes after `len` (at least doubling, so
    /// appends in a loop cost amortised constant time).
    pub fn reserve(&mut self, additional: usize) -> Outcome {
        // SAFETY: as in `len`.
        let (data, len, cap) = unsafe { ((*self.buf).data, (*self.buf).len, (*self.buf).cap) };
        let Some(need) = len.checked_add(additional).filter(|&n| n <= isize::MAX as usize) else {
            return Err(Failure::new(types::ERR_NO_MEMORY, format!("a buffer of {len} + {additional} bytes is larger than any object")));
        };
        if need <= cap {
            return Ok(());
        }
        let new_cap = need.max(cap.saturating_mul(2)).max(MIN_CAP).min(isize::MAX as usize);
        // SAFETY: `data` is NULL or a block from malloc/realloc (contract of
        // `new`); realloc keeps its first `len` bytes.
        let grown = unsafe { realloc(data as *mut c_void, new_cap) } as *mut u8;
        if grown.is_null() {
            return Err(Failure::new(types::ERR_NO_MEMORY, format!("realloc of {new_cap} bytes failed")));
        }
        // SAFETY: as in `len`.
        unsafe {
            (*self.buf).data = grown;
            (*self.buf).cap = new_cap;
        }
        Ok(())
    }

    /// Where the next byte goes: valid for `cap - len` bytes of writes.
    pub fn spare(&mut self) -> *mut u8 {
        // SAFETY: `data + len` is inside (or one past) the block of `cap`
        // bytes; when `data` is NULL, `len` is 0 and so is the offset.
        unsafe { (*self.buf).data.wrapping_add((*self.buf).len) }
    }

    /// Counts `n` more bytes, written at `spare()`, as part of the buffer.
    ///
    /// # Safety
    /// `n` bytes at `spare()` were initialised, within the reserved room.
    pub unsafe fn commit(&mut self, n: usize) {
        // SAFETY: caller's contract keeps `len + n <= cap`.
        unsafe { (*self.buf).len += n };
    }

    pub fn append(&mut self, bytes: &[u8]) -> Outcome {
        self.reserve(bytes.len())?;
        // SAFETY: `reserve` made room for `bytes.len()` bytes at `spare()`;
        // the caller's buffer cannot overlap a Rust slice we were handed
        // (library memory, or input the caller promised nobody writes).
        unsafe {
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), self.spare(), bytes.len());
            self.commit(bytes.len());
        }
        Ok(())
    }
}

/// `jetjson_buffer_reserve`.
///
/// # Safety
/// See `jetjson.h`: `buf` is a consistent `jetjson_buffer`; `err` is NULL or
/// writable.
#[no_mangle]
pub unsafe extern "C" fn jetjson_buffer_reserve(buf: *mut Buffer, additional: usize, err: *mut Error) -> Status {
    // SAFETY: the caller's contract, forwarded.
    unsafe { boundary::run(err, || Out::new(buf, "buf")?.reserve(additional)) }
}

/// `jetjson_buffer_free`.
///
/// # Safety
/// See `jetjson.h`: `buf` is NULL or a consistent `jetjson_buffer`.
#[no_mangle]
pub unsafe extern "C" fn jetjson_buffer_free(buf: *mut Buffer) {
    if buf.is_null() {
        return;
    }
    // SAFETY: `buf` is valid (caller); `data` is NULL or from malloc/realloc.
    unsafe {
        free((*buf).data as *mut c_void);
        (*buf).data = std::ptr::null_mut();
        (*buf).len = 0;
        (*buf).cap = 0;
    }
}
