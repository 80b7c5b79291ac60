//! Output buffers: a small per-thread pool, and an opt-in mode that zeroes
//! buffers before they are reused or freed.
//!
//! Repeated calls (request bodies, messages) reuse one buffer per thread
//! instead of growing a fresh `Vec` each time. Buffers that grew beyond the
//! cap (default 64 KiB) are dropped rather than kept, so one huge document
//! does not pin memory forever. With zeroing on, every byte a buffer ever
//! held is overwritten before the memory goes back to the pool or allocator,
//! including the old allocation when the buffer grows.

use std::cell::RefCell;
use std::sync::atomic::{AtomicUsize, Ordering};

static MAX_POOLED_CAPACITY: AtomicUsize = AtomicUsize::new(64 * 1024);

/// Buffers kept per thread: enough for nested calls (a raw value being
/// canonicalized inside a document) without hoarding memory.
const POOLED_PER_THREAD: usize = 4;

thread_local! {
    static POOL: RefCell<Vec<Vec<u8>>> = const { RefCell::new(Vec::new()) };
}

/// Buffers whose capacity exceeds this many bytes are freed instead of pooled.
pub fn set_max_pooled_capacity(bytes: usize) {
    MAX_POOLED_CAPACITY.store(bytes, Ordering::Relaxed);
}

pub fn max_pooled_capacity() -> usize {
    MAX_POOLED_CAPACITY.load(Ordering::Relaxed)
}

fn take_pooled() -> Vec<u8> {
    POOL.try_with(|p| p.borrow_mut().pop()).ok().flatten().unwrap_or_default()
}

fn give_back(mut v: Vec<u8>) {
    if v.capacity() == 0 || v.capacity() > max_pooled_capacity() {
        return;
    }
    v.clear();
    let _ = POOL.try_with(|p| {
        let mut p = p.borrow_mut();
        if p.len() < POOLED_PER_THREAD {
            p.push(v);
        }
    });
}

/// Overwrites the whole allocation (length and spare capacity) with zeros.
fn zero_all(v: &mut Vec<u8>) {
    let cap = v.capacity();
    // SAFETY: the pointer is valid for `cap` bytes of writes (it is the
    // allocation of `v`), and zeros are a valid `u8` value for every byte.
    unsafe { std::ptr::write_bytes(v.as_mut_ptr(), 0, cap) };
    // Keep the compiler from treating the stores as dead before the free.
    std::hint::black_box(v.as_mut_ptr());
    v.clear();
}

/// Copies `src` to `dst` without calling `memcpy` for short inputs: keys and
/// small tokens are a few bytes, where a library call costs more than the copy.
/// Overlapping pairs of loads and stores cover every length exactly.
///
/// # Safety
/// `dst` must be valid for `src.len()` bytes of writes and not overlap `src`.
#[inline(always)]
pub(crate) unsafe fn copy_bytes(dst: *mut u8, src: &[u8]) {
    let n = src.len();
    let s = src.as_ptr();
    // SAFETY (whole block): every read is within `src[0..n]` and every write
    // within `dst[0..n]`; unaligned accesses are used throughout.
    unsafe {
        use std::ptr::{read_unaligned as rd, write_unaligned as wr};
        if n >= 32 {
            std::ptr::copy_nonoverlapping(s, dst, n);
        } else if n >= 16 {
            let (a, b) = (rd(s as *const u128), rd(s.add(n - 16) as *const u128));
            wr(dst as *mut u128, a);
            wr(dst.add(n - 16) as *mut u128, b);
        } else if n >= 8 {
            let (a, b) = (rd(s as *const u64), rd(s.add(n - 8) as *const u64));
            wr(dst as *mut u64, a);
            wr(dst.add(n - 8) as *mut u64, b);
        } else if n >= 4 {
            let (a, b) = (rd(s as *const u32), rd(s.add(n - 4) as *const u32));
            wr(dst as *mut u32, a);
            wr(dst.add(n - 4) as *mut u32, b);
        } else if n > 0 {
            *dst = *s;
            *dst.add(n / 2) = *s.add(n / 2);
            *dst.add(n - 1) = *s.add(n - 1);
        }
    }
}

/// Appends a short byte string (a number, a token) to `dst` without a
/// `memcpy` call.
#[inline(always)]
pub(crate) fn append_short(dst: &mut Vec<u8>, s: &[u8]) {
    dst.reserve(s.len());
    let len = dst.len();
    // SAFETY: `reserve` made room for `s.len()` bytes after `len`, which
    // `copy_bytes` initialises exactly before `set_len` exposes them.
    unsafe {
        copy_bytes(dst.as_mut_ptr().add(len), s);
        dst.set_len(len + s.len());
    }
}

/// A growable output buffer taken from the pool and given back on drop.
pub struct Buffer {
    vec: Vec<u8>,
    zero: bool,
}

impl Buffer {
    #[cfg(test)]
    pub fn take() -> Buffer {
        Buffer { vec: take_pooled(), zero: false }
    }

    pub fn take_zeroing(zero: bool) -> Buffer {
        Buffer { vec: take_pooled(), zero }
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.vec.len()
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.vec.is_empty()
    }

    #[inline]
    pub fn as_slice(&self) -> &[u8] {
        &self.vec
    }

    #[inline]
    pub fn clear(&mut self) {
        if self.zero {
            let n = self.vec.len();
            self.vec.iter_mut().take(n).for_each(|b| *b = 0);
            std::hint::black_box(self.vec.as_mut_ptr());
        }
        self.vec.clear();
    }

    #[inline]
    pub fn reserve(&mut self, additional: usize) {
        if self.vec.capacity() - self.vec.len() < additional {
            self.grow(additional);
        }
    }

    #[cold]
    #[inline(never)]
    fn grow(&mut self, additional: usize) {
        let want = (self.vec.len() + additional).max(self.vec.capacity() * 2).max(256);
        if !self.zero {
            self.vec.reserve(want - self.vec.len());
            return;
        }
        // Growing a Vec in place would free the old allocation unzeroed.
        let mut bigger = Vec::with_capacity(want);
        bigger.extend_from_slice(&self.vec);
        zero_all(&mut self.vec);
        self.vec = bigger;
    }

    #[inline]
    pub fn push(&mut self, b: u8) {
        let len = self.vec.len();
        if len == self.vec.capacity() {
            self.grow(1);
        }
        // SAFETY: len < capacity was ensured just above, so the byte at `len`
        // is inside the allocation and becomes initialised before `set_len`.
        unsafe {
            self.vec.as_mut_ptr().add(len).write(b);
            self.vec.set_len(len + 1);
        }
    }

    #[inline]
    pub fn extend(&mut self, bytes: &[u8]) {
        self.reserve(bytes.len());
        let len = self.vec.len();
        // SAFETY: `reserve` guaranteed `bytes.len()` bytes of spare capacity
        // after `len`; `copy_bytes` writes exactly `bytes.len()` bytes there,
        // and `bytes` cannot overlap our own spare capacity.
        unsafe {
            copy_bytes(self.vec.as_mut_ptr().add(len), bytes);
            self.vec.set_len(len + bytes.len());
        }
    }

    /// Appends up to `max` bytes through a raw pointer: `f` writes into the
    /// reserved space and returns how many bytes it wrote.
    ///
    /// # Safety
    /// `f` must write only within `[ptr, ptr + max)` and return the number of
    /// bytes it initialised from the start of that range (at most `max`).
    #[inline]
    pub unsafe fn append_raw(&mut self, max: usize, f: impl FnOnce(*mut u8) -> usize) {
        self.reserve(max);
        let len = self.vec.len();
        // SAFETY: `max` bytes are reserved after `len`; the caller promises `f`
        // stays inside them and reports what it initialised.
        unsafe {
            let n = f(self.vec.as_mut_ptr().add(len));
            debug_assert!(n <= max);
            self.vec.set_len(len + n);
        }
    }

    /// The inner `Vec` with at least `additional` bytes of spare capacity, for
    /// code that appends directly (escaper, number formatting). Such code must
    /// stay within the reservation when zeroing matters.
    #[inline]
    pub fn vec_mut(&mut self, additional: usize) -> &mut Vec<u8> {
        self.reserve(additional);
        &mut self.vec
    }

    /// Moves `self[start..]` to the end of `scratch` and truncates `self` to `start`.
    pub fn move_tail_to(&mut self, start: usize, scratch: &mut Vec<u8>) {
        scratch.extend_from_slice(&self.vec[start..]);
        if self.zero {
            self.vec[start..].iter_mut().for_each(|b| *b = 0);
        }
        self.vec.truncate(start);
    }

    pub fn zeroes(&self) -> bool {
        self.zero
    }

    /// The contents as an exactly sized `Vec`, leaving the pooled buffer for
    /// the next call; a buffer too large to be pooled is handed over as is.
    pub fn into_vec(mut self) -> Vec<u8> {
        if !self.zero && self.vec.capacity() > max_pooled_capacity() {
            return std::mem::take(&mut self.vec);
        }
        self.vec.as_slice().to_vec()
    }
}

impl Drop for Buffer {
    fn drop(&mut self) {
        let mut v = std::mem::take(&mut self.vec);
        if self.zero {
            zero_all(&mut v);
        }
        give_back(v);
    }
}

/// Runs `f` with a pooled, empty buffer for reading input (request bodies),
/// and returns the buffer to the pool afterwards under the same cap rule as
/// output buffers.
pub fn with_read_buffer<T>(f: impl FnOnce(&mut Vec<u8>) -> T) -> T {
    let mut buf = take_pooled();
    buf.clear();
    let result = f(&mut buf);
    give_back(buf);
    result
}

/// Zeroes a scratch vector that held output, when the writer zeroes buffers.
pub fn wipe(v: &mut Vec<u8>) {
    zero_all(v);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_buffers_are_reused_large_ones_dropped() {
        let mut b = Buffer::take();
        b.extend(b"hello");
        let ptr = b.as_slice().as_ptr();
        drop(b);
        let b2 = Buffer::take();
        assert_eq!(b2.as_slice().as_ptr(), ptr, "a small buffer comes back from the pool");
        assert!(b2.is_empty());
        drop(b2);

        let mut big = Buffer::take();
        big.extend(&vec![7u8; max_pooled_capacity() + 1]);
        drop(big);
        let again = Buffer::take();
        assert!(again.vec.capacity() <= max_pooled_capacity());
    }

    #[test]
    fn zeroing_buffers_leave_zeros_behind_when_returned() {
        // Drain the pool so we know which buffer comes back.
        let drained: Vec<Buffer> = (0..POOLED_PER_THREAD).map(|_| Buffer::take()).collect();
        drop(drained);
        POOL.with(|p| p.borrow_mut().clear());

        let mut b = Buffer::take_zeroing(true);
        b.extend(b"secret-token-0123456789");
        let cap = b.vec.capacity();
        drop(b);
        let reused = take_pooled();
        assert_eq!(reused.capacity(), cap);
        // SAFETY: the allocation has `cap` bytes, all of which `zero_all`
        // wrote, so reading them as initialised u8 is sound.
        let bytes = unsafe { std::slice::from_raw_parts(reused.as_ptr(), cap) };
        assert!(bytes.iter().all(|&x| x == 0), "released buffer still holds data");
    }
}
