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

/// Output of at least this many bytes leaves `Buffer::into_vec` in the
/// buffer's own allocation instead of a copy.
const HAND_OVER: usize = 4096;

/// Buffers kept per thread: enough for nested calls (a raw value being
/// canonicalized inside a document) without hoarding memory.
const POOLED_PER_THREAD: usize = 4;

thread_local! {
    static POOL: RefCell<Vec<Vec<u8>>> = const { RefCell::new(Vec::new()) };
    /// The capacity the thread's next `to_vec` output starts with: set by
    /// `into_vec` after an output too large for the pool (a quarter more
    /// than it, so the same document again needs no growth), 0 otherwise.
    /// A large document written again and again (a feed, a report) then
    /// takes its room once instead of growing by doubling, where each
    /// step that cannot grow in place copies everything written so far.
    static NEXT_CAPACITY: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Buffers whose capacity exceeds this many bytes are freed instead of pooled.
pub fn set_max_pooled_capacity(bytes: usize) {
    MAX_POOLED_CAPACITY.store(bytes, Ordering::Relaxed);
}

/// The current cap set by [`set_max_pooled_capacity`] (default 64 KiB).
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

/// Memory owned by someone else that a writer writes into directly, such
/// as the storage of the result object of a language binding, so that the
/// output is written once, in place, and never copied.
///
/// # Safety
/// `grow` must return a pointer valid for reads and writes of the returned
/// capacity, which must be at least `min_capacity`, and whose first `len`
/// bytes are the first `len` bytes of the previous storage. The storage must
/// stay valid, and be touched by nobody else, until the next `grow` or until
/// the writer hands the memory back (`Writer::finish_into_memory`).
#[doc(hidden)]
pub unsafe trait OutputMemory: std::any::Any + Send {
    /// Storage of at least `min_capacity` bytes keeping the first `len`
    /// (the first call has `len == 0`): its start and capacity. There is no
    /// error return: like a `Vec`, an implementation aborts when memory runs
    /// out (`std::alloc::handle_alloc_error`).
    fn grow(&mut self, len: usize, min_capacity: usize) -> (std::ptr::NonNull<u8>, usize);

    /// For taking the concrete type back from a `Box<dyn OutputMemory>`.
    fn into_any(self: Box<Self>) -> Box<dyn std::any::Any>;
}

/// Whose memory a `Buffer` writes into.
enum Memory {
    /// A `Vec<u8>`'s allocation (taken apart into the buffer's fields),
    /// from the pool and given back to it.
    Pooled,
    External(Box<dyn OutputMemory>),
}

/// A growable output buffer: pooled memory (given back on drop) or
/// external memory (`OutputMemory`). Kept as raw parts so that both kinds
/// are written by the same code.
pub struct Buffer {
    ptr: std::ptr::NonNull<u8>,
    len: usize,
    cap: usize,
    zero: bool,
    memory: Memory,
}

// SAFETY: a `Buffer` owns its memory exclusively (a pooled allocation, or
// external storage that the `OutputMemory` contract reserves for it), like
// a `Vec<u8>`, and `OutputMemory` requires `Send`.
unsafe impl Send for Buffer {}

impl Buffer {
    #[cfg(test)]
    pub fn take() -> Buffer {
        Buffer::from_vec(take_pooled(), false)
    }

    pub fn take_zeroing(zero: bool) -> Buffer {
        Buffer::from_vec(take_pooled(), zero)
    }

    /// A buffer for an output handed over whole (`into_vec`): pooled, with
    /// the room the thread's last large output suggests (see
    /// `NEXT_CAPACITY`; not when zeroing, whose growth copies anyway).
    pub fn take_for_vec(zero: bool) -> Buffer {
        let mut v = take_pooled();
        if !zero {
            let hint = NEXT_CAPACITY.try_with(std::cell::Cell::get).unwrap_or(0);
            if hint > v.capacity() {
                v.reserve(hint);
            }
        }
        Buffer::from_vec(v, zero)
    }

    /// A buffer writing straight into `memory`.
    pub fn external(mut memory: Box<dyn OutputMemory>) -> Buffer {
        let (ptr, cap) = memory.grow(0, 256);
        Buffer { ptr, len: 0, cap, zero: false, memory: Memory::External(memory) }
    }

    fn from_vec(v: Vec<u8>, zero: bool) -> Buffer {
        let mut v = std::mem::ManuallyDrop::new(v);
        let ptr = std::ptr::NonNull::new(v.as_mut_ptr()).expect("a Vec's pointer is never null");
        Buffer { ptr, len: v.len(), cap: v.capacity(), zero, memory: Memory::Pooled }
    }

    /// The pooled allocation as a `Vec` again, leaving this buffer empty.
    fn take_vec(&mut self) -> Vec<u8> {
        debug_assert!(matches!(self.memory, Memory::Pooled));
        // SAFETY: for pooled memory the fields are the parts of a Vec<u8>
        // taken apart in `from_vec` (or put back by `put_vec`), with the
        // first `len` bytes initialised; the buffer forgets them at once.
        let v = unsafe { Vec::from_raw_parts(self.ptr.as_ptr(), self.len, self.cap) };
        self.ptr = std::ptr::NonNull::dangling();
        (self.len, self.cap) = (0, 0);
        v
    }

    fn put_vec(&mut self, v: Vec<u8>) {
        let zero = self.zero;
        let empty = std::mem::replace(self, Buffer::from_vec(v, zero));
        // Nothing to give back: `empty` holds no allocation.
        std::mem::forget(empty);
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub fn as_slice(&self) -> &[u8] {
        // SAFETY: the first `len` bytes at `ptr` are initialised (or `len`
        // is 0 and `ptr` dangling but aligned).
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }

    #[inline]
    pub fn clear(&mut self) {
        if self.zero {
            // SAFETY: the first `len` bytes are ours to write.
            unsafe { std::ptr::write_bytes(self.ptr.as_ptr(), 0, self.len) };
            std::hint::black_box(self.ptr.as_ptr());
        }
        self.len = 0;
    }

    /// How many more bytes fit before the storage must grow.
    #[inline(always)]
    pub fn spare(&self) -> usize {
        self.cap - self.len
    }

    #[inline]
    pub fn reserve(&mut self, additional: usize) {
        if self.cap - self.len < additional {
            self.grow(additional);
        }
    }

    #[cold]
    #[inline(never)]
    fn grow(&mut self, additional: usize) {
        let need = self.len.checked_add(additional).expect("output size overflows usize");
        let want = need.max(self.cap.saturating_mul(2)).max(256);
        match &mut self.memory {
            Memory::External(memory) => {
                let (ptr, cap) = memory.grow(self.len, want);
                assert!(cap >= need, "OutputMemory::grow returned too little room");
                (self.ptr, self.cap) = (ptr, cap);
            }
            Memory::Pooled if !self.zero => {
                let mut v = self.take_vec();
                v.reserve(want - v.len());
                self.put_vec(v);
            }
            Memory::Pooled => {
                // Growing a Vec in place would free the old allocation unzeroed.
                let mut old = self.take_vec();
                let mut bigger = Vec::with_capacity(want);
                bigger.extend_from_slice(&old);
                zero_all(&mut old);
                self.put_vec(bigger);
            }
        }
    }

    #[inline]
    pub fn push(&mut self, b: u8) {
        if self.len == self.cap {
            self.grow(1);
        }
        // SAFETY: len < cap was ensured just above, so the byte at `len`
        // is inside the storage and becomes initialised before it counts.
        unsafe { self.ptr.as_ptr().add(self.len).write(b) };
        self.len += 1;
    }

    #[inline]
    pub fn extend(&mut self, bytes: &[u8]) {
        self.reserve(bytes.len());
        // SAFETY: `reserve` guaranteed `bytes.len()` bytes of room after
        // `len`; `copy_bytes` writes exactly those, and `bytes` cannot
        // overlap storage only this buffer writes.
        unsafe { copy_bytes(self.ptr.as_ptr().add(self.len), bytes) };
        self.len += bytes.len();
    }

    /// Appends up to `max` bytes through a raw pointer: `f` writes into the
    /// reserved space and returns how many bytes it wrote.
    ///
    /// # Safety
    /// `f` must write only within `[ptr, ptr + max)` and return the number of
    /// bytes it initialised from the start of that range (at most `max`).
    #[inline(always)]
    pub unsafe fn append_raw(&mut self, max: usize, f: impl FnOnce(*mut u8) -> usize) {
        self.reserve(max);
        // SAFETY: `max` bytes are reserved after `len`; the caller promises `f`
        // stays inside them and reports what it initialised.
        let n = f(unsafe { self.ptr.as_ptr().add(self.len) });
        debug_assert!(n <= max);
        self.len += n;
    }

    /// Reserves `max` bytes and returns where they start, with the length
    /// to advance by the count written there (for a writer that keeps its
    /// own cursor: `Writer::run`).
    ///
    /// # Safety
    /// The caller writes only within `[ptr, ptr + max)` and advances the
    /// length by at most the count of bytes it initialised from `ptr`.
    #[inline(always)]
    pub(crate) unsafe fn reserve_raw(&mut self, max: usize) -> (*mut u8, &mut usize) {
        self.reserve(max);
        // SAFETY: `max` bytes are reserved after `len`.
        (unsafe { self.ptr.as_ptr().add(self.len) }, &mut self.len)
    }

    /// Moves `self[start..]` to the end of `scratch` and truncates `self` to `start`.
    pub fn move_tail_to(&mut self, start: usize, scratch: &mut Vec<u8>) {
        scratch.extend_from_slice(&self.as_slice()[start..]);
        if self.zero {
            // SAFETY: bytes `start..len` are ours to write.
            unsafe { std::ptr::write_bytes(self.ptr.as_ptr().add(start), 0, self.len - start) };
        }
        self.len = start;
    }

    pub fn zeroes(&self) -> bool {
        self.zero
    }

    /// The contents as an exactly sized `Vec`, leaving a pooled buffer of
    /// the same capacity for the next call; a buffer too large to be pooled
    /// is handed over as is.
    ///
    /// Small contents are copied out (cheaper than an allocation). From
    /// `HAND_OVER` bytes the buffer's own allocation is handed over, shrunk
    /// to its length (in place with most allocators), and a new one of the
    /// same capacity goes to the pool: a second copy of the whole output was
    /// most of the time of writing an envelope around a 13 KB `RawJson`.
    ///
    /// A large output also sets the room the thread's next output starts
    /// with (`NEXT_CAPACITY`); a buffer that started with such room and was
    /// left more than half empty is shrunk to its length (in place), so the
    /// `Vec` handed over holds no more spare room than doubling leaves.
    pub fn into_vec(mut self) -> Vec<u8> {
        if matches!(self.memory, Memory::Pooled) && !self.zero {
            let cap_limit = max_pooled_capacity();
            let len = self.len;
            let next = if len > cap_limit { len.saturating_add(len / 4) } else { 0 };
            let _ = NEXT_CAPACITY.try_with(|c| c.set(next));
            if self.cap > cap_limit {
                let mut v = self.take_vec();
                if v.capacity() / 2 > len {
                    v.shrink_to_fit();
                }
                return v;
            }
            if self.len >= HAND_OVER {
                let cap = self.cap;
                let mut v = self.take_vec();
                v.shrink_to_fit();
                give_back(Vec::with_capacity(cap));
                return v;
            }
        }
        self.as_slice().to_vec()
    }

    /// The external memory back, with the length written into it; `None`
    /// (and the buffer dropped) for pooled memory.
    pub fn into_memory(mut self) -> Option<(Box<dyn OutputMemory>, usize)> {
        let len = self.len;
        match std::mem::replace(&mut self.memory, Memory::Pooled) {
            Memory::External(memory) => {
                // The fields described the external storage: forget them so
                // that dropping `self` gives nothing back to the pool.
                self.ptr = std::ptr::NonNull::dangling();
                (self.len, self.cap) = (0, 0);
                Some((memory, len))
            }
            Memory::Pooled => None,
        }
    }
}

impl Drop for Buffer {
    fn drop(&mut self) {
        if let Memory::Pooled = self.memory {
            let mut v = self.take_vec();
            if self.zero {
                zero_all(&mut v);
            }
            give_back(v);
        }
        // External memory is its owner's to release (the box drops it).
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

/// Overwrites the whole allocation of a vector of plain data (length and
/// spare capacity) with zeros and empties it: for working memory that held
/// text of the output (object names, their sort prefixes) in a writer that
/// zeroes buffers.
pub(crate) fn wipe_plain<T: Copy>(v: &mut Vec<T>) {
    let bytes = v.capacity() * std::mem::size_of::<T>();
    // SAFETY: the pointer is valid for `capacity * size_of::<T>()` bytes of
    // writes (the allocation of `v`); `v` is emptied before anyone could
    // read an element, and `T: Copy` has no destructor to run.
    unsafe { std::ptr::write_bytes(v.as_mut_ptr().cast::<u8>(), 0, bytes) };
    std::hint::black_box(v.as_mut_ptr());
    v.clear();
}

/// `v.reserve(additional)` that, when the allocation must move, copies the
/// elements into a new one itself and zeroes the old one before it is
/// freed (a `Vec`'s own growth frees it as it is).
pub(crate) fn reserve_wiping<T: Copy>(v: &mut Vec<T>, additional: usize) {
    if v.capacity() - v.len() >= additional {
        return;
    }
    let want = v.len().checked_add(additional).expect("capacity overflow").max(v.capacity() * 2).max(4);
    let mut grown = Vec::with_capacity(want);
    grown.extend_from_slice(v);
    let mut old = std::mem::replace(v, grown);
    wipe_plain(&mut old);
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
        assert!(again.cap <= max_pooled_capacity());
    }

    /// After an output too large for the pool, the thread's next output
    /// buffer starts with room for it and a quarter more; an output smaller
    /// than that room is handed over shrunk to its length, and the one after
    /// it starts small again. Zeroing buffers never take the room.
    #[test]
    fn a_large_output_gives_the_next_one_its_room() {
        let big = 3 * max_pooled_capacity();
        let content: Vec<u8> = (0..big).map(|k| (k % 253) as u8).collect();
        let mut b = Buffer::take_for_vec(false);
        b.extend(&content);
        assert_eq!(b.into_vec(), content);

        let zeroing = Buffer::take_for_vec(true);
        assert!(zeroing.cap <= max_pooled_capacity(), "a zeroing buffer took the room");
        drop(zeroing);

        let mut next = Buffer::take_for_vec(false);
        assert!(next.cap >= big + big / 4, "room {} after an output of {big}", next.cap);
        next.extend(b"small");
        let v = next.into_vec();
        assert_eq!(v, b"small");
        assert_eq!(v.capacity(), 5, "a small output keeps no spare room");

        let after = Buffer::take_for_vec(false);
        assert!(after.cap <= max_pooled_capacity(), "room {} after a small output", after.cap);
        drop(after);

        // An output a little larger than its room grows as usual.
        let mut b = Buffer::take_for_vec(false);
        b.extend(&content);
        drop(b.into_vec());
        let mut b = Buffer::take_for_vec(false);
        b.extend(&content);
        b.extend(&content);
        let v = b.into_vec();
        assert_eq!(v.len(), 2 * big);
        assert_eq!(&v[big..], &content[..]);
    }

    /// Output from `HAND_OVER` bytes leaves in the buffer's allocation
    /// (not a copy), exactly sized, and the pool gets a buffer as large;
    /// smaller output is copied and the buffer itself goes back.
    #[test]
    fn large_output_is_handed_over_small_output_copied() {
        POOL.with(|p| p.borrow_mut().clear());
        for len in [HAND_OVER - 1, HAND_OVER, 3 * HAND_OVER] {
            let content: Vec<u8> = (0..len).map(|k| (k % 251) as u8).collect();
            let mut b = Buffer::take();
            b.extend(&content);
            let (ptr, cap) = (b.as_slice().as_ptr(), b.cap);
            let v = b.into_vec();
            assert_eq!(v, content);
            assert_eq!(v.capacity(), len, "exactly sized");
            let next = Buffer::take();
            if len >= HAND_OVER {
                // The buffer's own block, shrunk: in place with allocators
                // that shrink in place (glibc's), as a probe shows;
                // AddressSanitizer's moves every reallocation.
                let mut probe: Vec<u8> = Vec::with_capacity(cap);
                probe.push(1);
                let before = probe.as_ptr();
                probe.shrink_to(len.min(cap));
                if probe.as_ptr() == before {
                    assert_eq!(v.as_ptr(), ptr, "len {len}: the allocation itself");
                }
                assert_eq!(next.cap, cap, "len {len}: a buffer as large for the next call");
            } else {
                assert_ne!(v.as_ptr(), ptr, "len {len}: a copy");
                assert_eq!(next.as_slice().as_ptr(), ptr, "len {len}: the buffer comes back");
            }
        }
    }

    #[test]
    fn zeroing_buffers_leave_zeros_behind_when_returned() {
        // Drain the pool so we know which buffer comes back.
        let drained: Vec<Buffer> = (0..POOLED_PER_THREAD).map(|_| Buffer::take()).collect();
        drop(drained);
        POOL.with(|p| p.borrow_mut().clear());

        let mut b = Buffer::take_zeroing(true);
        b.extend(b"secret-token-0123456789");
        let cap = b.cap;
        drop(b);
        let reused = take_pooled();
        assert_eq!(reused.capacity(), cap);
        // SAFETY: the allocation has `cap` bytes, all of which `zero_all`
        // wrote, so reading them as initialised u8 is sound.
        let bytes = unsafe { std::slice::from_raw_parts(reused.as_ptr(), cap) };
        assert!(bytes.iter().all(|&x| x == 0), "released buffer still holds data");
    }
}
