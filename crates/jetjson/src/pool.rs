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

/// A growable output buffer taken from the pool and given back on drop.
pub struct Buffer {
    vec: Vec<u8>,
    zero: bool,
}

impl Buffer {
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
        self.reserve(1);
        self.vec.push(b);
    }

    #[inline]
    pub fn extend(&mut self, bytes: &[u8]) {
        self.reserve(bytes.len());
        self.vec.extend_from_slice(bytes);
    }

    /// The inner `Vec` with at least `additional` bytes of spare capacity, for
    /// code that appends directly (escaper, number formatting). Such code must
    /// stay within the reservation when zeroing matters.
    #[inline]
    pub fn vec_mut(&mut self, additional: usize) -> &mut Vec<u8> {
        self.reserve(additional);
        &mut self.vec
    }

    /// Moves `self[start..]` into a scratch vector and truncates `self` to `start`.
    pub fn split_off_scratch(&mut self, start: usize) -> Vec<u8> {
        let mut scratch = take_pooled();
        scratch.extend_from_slice(&self.vec[start..]);
        if self.zero {
            self.vec[start..].iter_mut().for_each(|b| *b = 0);
        }
        self.vec.truncate(start);
        scratch
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

/// Returns a scratch vector from `split_off_scratch` to the pool.
pub fn return_scratch(mut v: Vec<u8>) {
    // Scratch can hold secret bytes too; zeroing it is cheap next to copying it.
    zero_all(&mut v);
    give_back(v);
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
