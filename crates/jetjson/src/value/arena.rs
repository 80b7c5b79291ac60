//! The per-document arena a parsed `Value` tree lives in.
//!
//! Parsing copies every finished container's items, and every string too
//! long to be inline, into a few large chunks from the global allocator
//! instead of one heap block each. The chunks form one *arena*, freed as a
//! whole when its reference count (kept in the first chunk's header) drops
//! to zero, so dropping a parsed tree does not walk it.
//!
//! # The ownership invariant
//!
//! Every container handle (`Array`, `Map`, through their shared `Seq`) and
//! every `Str` is one of:
//!
//! * **owned** (heap): ordinary Rust ownership of a `Vec` or a `Box<str>`,
//!   or a value that owns no memory at all (an inline string, an empty
//!   container);
//! * **counted** (arena, containers only): points into an arena and holds
//!   one reference on it; dropping it gives the reference back;
//! * **uncounted** (arena): points into an arena and holds no reference.
//!   Such a handle only ever lives *inside arena memory* (or on the
//!   builder's stack while the builder holds a reference), so the container
//!   holding it — and through it some counted handle or the builder — keeps
//!   the arena alive for as long as the handle can be reached.
//!
//! Arena memory is written only by the builder, before any handle to it is
//! handed out, and it holds only uncounted handles and plain values (no
//! owned heap memory), so freeing it runs no destructor. Users reach arena
//! memory through `&` (borrowing from the counted handle at the top) or
//! through `&mut` methods, which first copy the container out into owned
//! form (copy-on-write), turning each child container into a counted handle
//! and each arena string into an owned copy. No `&mut` into arena memory
//! ever exists, so the arena is immutable once shared and the handles can
//! be `Send + Sync` (the count is atomic).
//!
//! # Layout
//!
//! Each chunk starts with a [`ChunkHeader`]; the first chunk's header is the
//! arena's identity (its count and the list of the other chunks). Every
//! container's items are preceded by one pointer to that first header, so a
//! handle to the items can find its arena (to take a reference when cloned
//! or give one back when dropped) without storing it.

use std::alloc::{alloc, dealloc, Layout};
use std::ptr::NonNull;
use std::sync::atomic::{fence, AtomicUsize, Ordering};

/// The start of every chunk.
#[repr(C)]
pub(crate) struct ChunkHeader {
    /// References on the arena (meaningful in the first chunk only).
    refs: AtomicUsize,
    /// The next chunk of the same arena (the first chunk heads the list).
    next: *mut ChunkHeader,
    /// Bytes of this chunk, header included (its allocation's size).
    size: usize,
}

const HEADER: usize = std::mem::size_of::<ChunkHeader>();
/// Alignment of chunks and of containers' items (that of `Value`, `Str`,
/// pointers).
const ALIGN: usize = 8;
/// The arena pointer before a container's items.
const PREFIX: usize = std::mem::size_of::<*const ChunkHeader>();
/// Bounds of the size of a regular chunk (larger requests get a chunk of
/// their own).
const MIN_CHUNK: usize = 512;
const MAX_CHUNK: usize = 16 << 20;
/// Bytes of the first chunk per byte of input. A parsed document takes 1.1
/// (gsoc-2018.json, mostly text) to 3.4 (mesh.json, numbers) times its
/// input's size, and an array that outgrows its chunk is copied to the
/// next one: sized for the densest documents, the first chunk holds them
/// whole. The part never written costs address space only (a chunk this
/// large is mapped, not taken from the heap, on first use).
const FIRST_CHUNK_PER_INPUT_BYTE: usize = 4;

/// A reference count past this is a leak of counted handles (like `Arc`,
/// abort rather than wrap around).
const MAX_REFS: usize = isize::MAX as usize;

fn chunk_layout(size: usize) -> Layout {
    Layout::from_size_align(size, ALIGN).expect("an arena chunk size fits isize")
}

/// Takes one more reference on the arena headed by `arena`.
///
/// # Safety
/// `arena` is the first chunk of a live arena (one on which the caller can
/// show a reference is held for the duration of the call).
pub(crate) unsafe fn retain(arena: NonNull<ChunkHeader>) {
    // SAFETY: the caller guarantees the header is live; `refs` is atomic,
    // so a shared reference to it is sound while other threads use it too.
    let old = unsafe { arena.as_ref() }.refs.fetch_add(1, Ordering::Relaxed);
    if old > MAX_REFS {
        std::process::abort();
    }
}

/// Gives back one reference on the arena headed by `arena`, freeing every
/// chunk when it was the last.
///
/// # Safety
/// The caller holds a reference on the arena and does not use it, nor any
/// pointer into the arena derived through it, after this call.
pub(crate) unsafe fn release(arena: NonNull<ChunkHeader>) {
    // SAFETY: the caller's reference keeps the header alive until the
    // decrement below.
    let refs = &unsafe { arena.as_ref() }.refs;
    // The last reference (a parsed tree dropped whole, the usual case):
    // no other holder exists, and none can appear (taking a reference
    // needs one), so the count needs no atomic decrement. The Acquire load
    // orders every other holder's uses (before their Release decrements)
    // before the freeing, as the fence below does.
    if refs.load(Ordering::Acquire) != 1 {
        if refs.fetch_sub(1, Ordering::Release) != 1 {
            return;
        }
        // Every other holder's uses happen-before their decrements
        // (Release); this fence orders them before the memory is freed
        // (as `Arc` does).
        fence(Ordering::Acquire);
    }
    // SAFETY: the count reached zero, so no handle to the arena remains
    // (uncounted ones live only inside it and are unreachable now). Each
    // chunk was allocated by `ArenaBuilder::new_chunk` with the layout its
    // header records, and the list visits each once; `next` is read before
    // the chunk holding it is freed; the first chunk, read before the
    // others and freed (or kept by `spare::put`) after them, is no longer
    // used by anything. Arena memory holds no owned heap memory, so nothing
    // needs dropping.
    unsafe {
        let mut chunk = (*arena.as_ptr()).next;
        while !chunk.is_null() {
            let next = (*chunk).next;
            dealloc(chunk.cast::<u8>(), chunk_layout((*chunk).size));
            chunk = next;
        }
        // The first chunk last: kept for this thread's next arena if it is
        // small enough and the thread keeps none yet.
        spare::put(arena.as_ptr());
    }
}

/// One freed first chunk kept per thread for the next arena, so that
/// parsing small documents one after another does not take a chunk from
/// the allocator and give it back every time (a `malloc` and a `free` of a
/// few KiB were 2-3% of the instructions of parsing a 1 KiB document).
mod spare {
    use super::{chunk_layout, ChunkHeader};
    use std::alloc::dealloc;
    use std::cell::Cell;

    /// The largest chunk kept (the first chunk of a document of up to
    /// 256 KiB): what a thread pins at most when it parses no more.
    pub(super) const MAX_SPARE: usize = 1 << 20;

    /// A chunk owned by the thread (null if none), freed when the thread
    /// ends.
    struct Slot(Cell<*mut ChunkHeader>);

    impl Drop for Slot {
        fn drop(&mut self) {
            let chunk = self.0.replace(std::ptr::null_mut());
            if !chunk.is_null() {
                // SAFETY: a kept chunk was allocated with the layout its
                // header records (`put`) and is owned by this slot alone.
                unsafe { dealloc(chunk.cast::<u8>(), chunk_layout((*chunk).size)) }
            }
        }
    }

    thread_local! {
        static SLOT: Slot = const { Slot(Cell::new(std::ptr::null_mut())) };
    }

    /// Keeps `chunk` for this thread, or frees it.
    ///
    /// # Safety
    /// `chunk` is a chunk no arena uses any more (nothing refers to it),
    /// allocated with the layout of the size its header records.
    pub(super) unsafe fn put(chunk: *mut ChunkHeader) {
        // SAFETY: the header is readable (caller).
        let size = unsafe { (*chunk).size };
        let kept = size <= MAX_SPARE
            && SLOT
                .try_with(|slot| {
                    if slot.0.get().is_null() {
                        slot.0.set(chunk);
                        true
                    } else {
                        false
                    }
                })
                .unwrap_or(false);
        if !kept {
            // SAFETY: the caller's promise; nothing else holds it.
            unsafe { dealloc(chunk.cast::<u8>(), chunk_layout(size)) }
        }
    }

    /// This thread's kept chunk and its size, if it has one of at least
    /// `size` bytes; the caller then owns it.
    #[inline]
    pub(super) fn take(size: usize) -> Option<(*mut ChunkHeader, usize)> {
        SLOT.try_with(|slot| {
            let chunk = slot.0.get();
            if chunk.is_null() {
                return None;
            }
            // SAFETY: the slot owns a chunk whose header is initialised.
            let have = unsafe { (*chunk).size };
            if have < size {
                return None;
            }
            slot.0.set(std::ptr::null_mut());
            Some((chunk, have))
        })
        .ok()
        .flatten()
    }
}

/// The arena of a container whose items start at `items` (non-empty, placed
/// by [`ArenaBuilder::alloc_items`]).
///
/// # Safety
/// `items` points at the items of a container placed in an arena by
/// `alloc_items`, and that arena is live.
pub(crate) unsafe fn arena_of<T>(items: NonNull<T>) -> NonNull<ChunkHeader> {
    // SAFETY: `alloc_items` wrote the arena pointer in the `PREFIX` bytes
    // right before the items, in the same chunk (so the read stays within
    // that allocation), aligned for a pointer; the arena is live.
    unsafe { NonNull::new_unchecked(items.cast::<u8>().as_ptr().sub(PREFIX).cast::<*mut ChunkHeader>().read()) }
}

/// Copies `n` bytes from `src` to `dst` (not overlapping). The sizes of
/// most strings too long to be inline (up to 128 bytes: digests, URLs,
/// media types) are copied with two to eight overlapping 16-byte moves, not
/// a call to `memcpy` (a call and its size dispatch were half the cost of
/// such a string; `sha256:` digests are 71 bytes).
///
/// # Safety
/// `src..src + n` is readable and `dst..dst + n` writable.
#[inline(always)]
unsafe fn copy_bytes(src: *const u8, dst: *mut u8, n: usize) {
    type Chunk = [u8; 16];
    if (65..=128).contains(&n) {
        // SAFETY: offsets `0..64` step 16 and `n - 64..n` step 16 are at
        // most `n - 16` (as `n > 64`), so each 16-byte move lies within the
        // `n` bytes of both.
        unsafe {
            let head: [Chunk; 4] = std::array::from_fn(|k| src.add(16 * k).cast::<Chunk>().read_unaligned());
            let tail: [Chunk; 4] = std::array::from_fn(|k| src.add(n - 64 + 16 * k).cast::<Chunk>().read_unaligned());
            for k in 0..4 {
                dst.add(16 * k).cast::<Chunk>().write_unaligned(head[k]);
                dst.add(n - 64 + 16 * k).cast::<Chunk>().write_unaligned(tail[k]);
            }
        }
    } else if (16..=64).contains(&n) {
        // SAFETY: every offset below is at most `n - 16` (as `n >= 16`, and
        // `n > 32` for the middle pair), so each 16-byte move lies within
        // the `n` bytes of both.
        unsafe {
            let (head, tail) = (src.cast::<Chunk>().read_unaligned(), src.add(n - 16).cast::<Chunk>().read_unaligned());
            if n > 32 {
                let (a, b) = (src.add(16).cast::<Chunk>().read_unaligned(), src.add(n - 32).cast::<Chunk>().read_unaligned());
                dst.add(16).cast::<Chunk>().write_unaligned(a);
                dst.add(n - 32).cast::<Chunk>().write_unaligned(b);
            }
            dst.cast::<Chunk>().write_unaligned(head);
            dst.add(n - 16).cast::<Chunk>().write_unaligned(tail);
        }
    } else {
        // SAFETY: passed on from the caller.
        unsafe { std::ptr::copy_nonoverlapping(src, dst, n) };
    }
}

/// The longest string `ArenaBuilder::alloc_str_here` copies.
pub(crate) const HERE_MAX: usize = 128;

/// The builder's view of an arena: a bump allocator over its current chunk,
/// holding one reference on the arena (taken when the first chunk is
/// allocated).
pub(crate) struct ArenaBuilder {
    /// The first chunk (null until something is allocated).
    first: *mut ChunkHeader,
    /// The chunk being filled, and the used and total bytes of it.
    chunk: *mut u8,
    used: usize,
    cap: usize,
    /// Size of the next regular chunk.
    next_size: usize,
    /// Bytes of the last chunk the allocator refused (for `alloc_failed`).
    refused: usize,
}

thread_local! {
    /// Memory ran out during the build running on this thread: the
    /// allocator refused an arena chunk, or one of the builder's stacks
    /// could not grow (`mark_out_of_memory`). Sticky for the build: no
    /// chunk is asked for again (a document that ran out of memory would
    /// otherwise ask once per value until its container ends), and the
    /// builder reports the error at the next container's end. A flag of
    /// the thread rather than of the builder so that the cold paths that
    /// set it take no more arguments than before (more made every parse
    /// 2-3% slower); `begin_build` and `end_build` keep an enclosing
    /// build's flag.
    static OUT_OF_MEMORY: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// A build that recovers from running out of memory is running on this
    /// thread (`begin_build`): what the builder's helpers outside the
    /// arena and the stacks (the name check of large objects, `dedupe`)
    /// do when the allocator refuses them (`refused`).
    static RECOVERING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// The allocator refused room for `n` items of `T` to a helper of the
/// builder. In a build that recovers, marks the build out of memory and
/// returns (the helper returns something memory-safe, and the builder
/// reports the error before using it); otherwise ends the process, as the
/// global allocator does, saying the size refused.
#[cold]
#[inline(never)]
pub(crate) fn refused<T>(n: usize) {
    if !RECOVERING.get() {
        std::alloc::handle_alloc_error(Layout::array::<T>(n).unwrap_or(Layout::new::<T>()));
    }
    mark_out_of_memory();
}

/// Whether memory ran out during the current build (see `OUT_OF_MEMORY`).
#[inline(always)]
pub(crate) fn out_of_memory() -> bool {
    OUT_OF_MEMORY.get()
}

/// Records that memory ran out during the current build.
#[cold]
#[inline(never)]
pub(crate) fn mark_out_of_memory() {
    OUT_OF_MEMORY.set(true);
}

/// Starts a build that recovers from running out of memory: clears the
/// flag, returning an enclosing build's state (for `end_build`).
pub(crate) fn begin_build() -> (bool, bool) {
    (OUT_OF_MEMORY.replace(false), RECOVERING.replace(true))
}

/// Ends a build: whether it ran out of memory; the enclosing build's state
/// (from `begin_build`) is back.
pub(crate) fn end_build(outer: (bool, bool)) -> bool {
    RECOVERING.set(outer.1);
    OUT_OF_MEMORY.replace(outer.0)
}

impl ArenaBuilder {
    /// An arena sized for a document of `input_len` bytes (nothing is
    /// allocated until the first request).
    pub(crate) const fn new(input_len: usize) -> ArenaBuilder {
        let size = input_len.saturating_mul(FIRST_CHUNK_PER_INPUT_BYTE);
        ArenaBuilder {
            first: std::ptr::null_mut(),
            chunk: std::ptr::null_mut(),
            used: 0,
            cap: 0,
            // `clamp(MIN_CHUNK, MAX_CHUNK)`, in a `const fn`.
            next_size: if size < MIN_CHUNK {
                MIN_CHUNK
            } else if size > MAX_CHUNK {
                MAX_CHUNK
            } else {
                size
            },
            refused: 0,
        }
    }

    /// Ends the process as the global allocator's failure does (for
    /// builders that do not recover: `build.rs`, `RECOVER`), saying how
    /// large the refused chunk was.
    #[cold]
    #[inline(never)]
    pub(crate) fn alloc_failed(&self) -> ! {
        std::alloc::handle_alloc_error(Layout::from_size_align(self.refused, ALIGN).unwrap_or(Layout::new::<u8>()))
    }

    /// The arena's identity, if anything was allocated.
    #[cfg(test)]
    pub(crate) fn arena(&self) -> Option<NonNull<ChunkHeader>> {
        NonNull::new(self.first)
    }

    /// Gives the builder's reference to the caller (who becomes responsible
    /// for releasing it); the builder then forgets the arena.
    pub(crate) fn into_reference(mut self) -> Option<NonNull<ChunkHeader>> {
        let first = NonNull::new(self.first);
        self.first = std::ptr::null_mut();
        first
    }

    /// `n` bytes (at an 8-byte boundary if `aligned`), valid until the
    /// arena is freed; `None` when the allocator has no memory for a new
    /// chunk (the arena stays as it was, and usable).
    #[inline]
    fn alloc(&mut self, n: usize, aligned: bool) -> Option<NonNull<u8>> {
        let start = if aligned { (self.used + (ALIGN - 1)) & !(ALIGN - 1) } else { self.used };
        if n <= self.cap.saturating_sub(start) && !self.chunk.is_null() {
            self.used = start + n;
            // SAFETY: `start + n <= cap`, so the range lies in the current
            // chunk, which is non-null (checked).
            return Some(unsafe { NonNull::new_unchecked(self.chunk.add(start)) });
        }
        self.alloc_slow(n)
    }

    #[cold]
    #[inline(never)]
    fn alloc_slow(&mut self, n: usize) -> Option<NonNull<u8>> {
        let Some(need) = n.checked_add(HEADER) else {
            mark_out_of_memory();
            return None;
        };
        if need > self.next_size / 4 && need > MIN_CHUNK {
            // A chunk of its own; the current chunk stays in use.
            let (chunk, _) = self.new_chunk(need)?;
            // SAFETY: the chunk has at least `HEADER + n` bytes.
            return Some(unsafe { NonNull::new_unchecked(chunk.add(HEADER)) });
        }
        let size = self.next_size.max(need);
        let (chunk, size) = self.new_chunk(size)?;
        self.next_size = (self.next_size * 2).min(MAX_CHUNK);
        self.chunk = chunk;
        self.cap = size;
        self.used = HEADER + n;
        // SAFETY: the chunk has `size >= HEADER + n` bytes.
        Some(unsafe { NonNull::new_unchecked(self.chunk.add(HEADER)) })
    }

    /// Allocates a chunk of at least `size` bytes (header included) and
    /// links it into the arena (creating the arena if this is the first:
    /// then the thread's spare chunk is taken if it is large enough).
    /// Returns it and its size; `None` (nothing changed) when the
    /// allocator refuses: a document too large for the memory left is an
    /// error for the caller to report, not an abort.
    fn new_chunk(&mut self, size: usize) -> Option<(*mut u8, usize)> {
        if out_of_memory() {
            return None;
        }
        let (p, size) = match self.first.is_null().then(|| spare::take(size)).flatten() {
            Some((chunk, have)) => (chunk.cast::<u8>(), have),
            None => {
                self.refused = size;
                let Ok(layout) = Layout::from_size_align(size, ALIGN) else {
                    mark_out_of_memory();
                    return None;
                };
                // SAFETY: `size >= HEADER > 0`.
                let p = unsafe { alloc(layout) };
                if p.is_null() {
                    mark_out_of_memory();
                    return None;
                }
                (p, size)
            }
        };
        let header = p.cast::<ChunkHeader>();
        if self.first.is_null() {
            // SAFETY: `p` is an aligned block of `size >= HEADER` bytes
            // allocated with `chunk_layout(size)`, fresh or the thread's
            // spare (which nothing else refers to once taken).
            unsafe { header.write(ChunkHeader { refs: AtomicUsize::new(1), next: std::ptr::null_mut(), size }) };
            self.first = header;
        } else {
            // SAFETY: as above for `header`; `first` is the live first
            // chunk, written only by this builder (no handle to the arena
            // has been handed out while building).
            unsafe {
                header.write(ChunkHeader { refs: AtomicUsize::new(0), next: (*self.first).next, size });
                (*self.first).next = header;
            }
        }
        Some((p, size))
    }

    /// `s` copied into the current chunk, if it has room and `s` has 16
    /// to `HERE_MAX` bytes (copied by a few vector moves, `copy_bytes`):
    /// no new chunk and no `memcpy` (`alloc_str` may take either), so the
    /// caller's usual path calls nothing (`build.rs`, `long_string`).
    #[inline(always)]
    pub(crate) fn alloc_str_here(&mut self, s: &str) -> Option<NonNull<u8>> {
        let n = s.len();
        if !(16..=HERE_MAX).contains(&n) || n > self.cap.saturating_sub(self.used) || self.chunk.is_null() {
            return None;
        }
        let start = self.used;
        self.used = start + n;
        // SAFETY: `used + n <= cap`, so the range lies in the current
        // chunk, which is non-null (checked); fresh memory, so it does not
        // overlap `s`.
        unsafe {
            let p = self.chunk.add(start);
            copy_bytes(s.as_ptr(), p, n);
            Some(NonNull::new_unchecked(p))
        }
    }

    /// Copies `s` into the arena (`s` non-empty); `None` when out of
    /// memory.
    #[inline]
    pub(crate) fn alloc_str(&mut self, s: &str) -> Option<NonNull<u8>> {
        let p = self.alloc(s.len(), false)?;
        // SAFETY: `p` has room for `s.len()` bytes, freshly allocated, so
        // it does not overlap `s`.
        unsafe { copy_bytes(s.as_ptr(), p.as_ptr(), s.len()) };
        Some(p)
    }

    /// Room at the end of the current chunk for the items of a container
    /// whose length is not known yet (see `build.rs`, `DirectArray`): the
    /// items can be written at the returned address, up to the returned
    /// number of bytes (at least `min`), and are placed with
    /// [`commit_region`](Self::commit_region) once the container ends.
    /// Nothing is allocated from the arena in between; a region that is
    /// not committed is simply abandoned. The address leaves room for the
    /// arena pointer before it, as [`alloc_items`](Self::alloc_items) does.
    /// `None` when out of memory.
    #[inline]
    pub(crate) fn region(&mut self, min: usize) -> Option<(NonNull<u8>, usize)> {
        let start = ((self.used + (ALIGN - 1)) & !(ALIGN - 1)) + PREFIX;
        if !self.chunk.is_null() && min <= self.cap.saturating_sub(start) {
            // SAFETY: `start <= cap`, so the address lies in (or at the end
            // of) the current chunk, which is non-null (checked).
            return Some((unsafe { NonNull::new_unchecked(self.chunk.add(start)) }, self.cap - start));
        }
        self.region_in_new_chunk(min)
    }

    /// A region at the start of a fresh regular chunk, which becomes the
    /// current one (the old one's unused tail is left, as `alloc_slow` does).
    #[cold]
    #[inline(never)]
    fn region_in_new_chunk(&mut self, min: usize) -> Option<(NonNull<u8>, usize)> {
        let Some(need) = min.checked_add(HEADER + PREFIX) else {
            mark_out_of_memory();
            return None;
        };
        let size = self.next_size.max(need);
        let (chunk, size) = self.new_chunk(size)?;
        self.next_size = (self.next_size * 2).min(MAX_CHUNK);
        self.chunk = chunk;
        self.cap = size;
        self.used = HEADER;
        // SAFETY: the chunk has `size >= HEADER + PREFIX + min` bytes;
        // `HEADER` is a multiple of `ALIGN`, so the address is aligned.
        Some((unsafe { NonNull::new_unchecked(self.chunk.add(HEADER + PREFIX)) }, size - HEADER - PREFIX))
    }

    /// Moves the `len` bytes written so far at a region's start `items` to a
    /// new region of at least `min` bytes in a fresh chunk, and returns it.
    /// The old region is abandoned (its bytes stay unused in their chunk).
    /// `None` when out of memory (the old region is then still the current
    /// one, untouched).
    ///
    /// # Safety
    /// `items` is the start of the region last returned by this builder,
    /// with at least `len` bytes written, and nothing was allocated since.
    pub(crate) unsafe fn grow_region(&mut self, items: NonNull<u8>, len: usize, min: usize) -> Option<(NonNull<u8>, usize)> {
        debug_assert!(min >= len);
        let (p, cap) = self.region_in_new_chunk(min)?;
        // SAFETY: the old region holds `len` written bytes (caller); the new
        // one is in a different, fresh chunk with room for `min >= len`.
        unsafe { std::ptr::copy_nonoverlapping(items.as_ptr(), p.as_ptr(), len) };
        Some((p, cap))
    }

    /// Places the `len` bytes written at the start `items` of the current
    /// region as a container's items: writes the arena pointer before them
    /// and moves the bump pointer past them.
    ///
    /// # Safety
    /// `items` is the start of the region last returned by `region` or
    /// `grow_region`, nothing was allocated since, and `len` is at most its
    /// capacity.
    pub(crate) unsafe fn commit_region(&mut self, items: NonNull<u8>, len: usize) {
        // SAFETY: the region lies in the current chunk (caller), so both
        // addresses are in the same allocation.
        let start = unsafe { items.as_ptr().offset_from(self.chunk) } as usize;
        debug_assert!(start >= self.used + PREFIX && start + len <= self.cap);
        // SAFETY: `region` left `PREFIX` aligned bytes before the items, in
        // the chunk and past the bump pointer (unused by anything else).
        unsafe { items.as_ptr().sub(PREFIX).cast::<*mut ChunkHeader>().write(self.first) };
        self.used = start + len;
    }

    /// Room for `n > 0` items of `T` (8-byte alignment at most), preceded by
    /// the arena pointer that [`arena_of`] reads. The items are
    /// uninitialised; the caller writes all `n` before any handle to them
    /// is used. `None` when out of memory.
    #[inline]
    pub(crate) fn alloc_items<T>(&mut self, n: usize) -> Option<NonNull<T>> {
        const { assert!(std::mem::align_of::<T>() <= ALIGN) };
        debug_assert!(n > 0);
        let Some(bytes) = std::mem::size_of::<T>().checked_mul(n).and_then(|b| b.checked_add(PREFIX)) else {
            mark_out_of_memory();
            return None;
        };
        let p = self.alloc(bytes, true)?;
        // SAFETY: `p` is 8-aligned with room for the prefix and the items;
        // `first` is non-null since `alloc` made at least one chunk.
        unsafe {
            p.cast::<*mut ChunkHeader>().as_ptr().write(self.first);
            Some(NonNull::new_unchecked(p.as_ptr().add(PREFIX).cast::<T>()))
        }
    }
}

impl Drop for ArenaBuilder {
    fn drop(&mut self) {
        if let Some(first) = NonNull::new(self.first) {
            // SAFETY: the builder holds the reference taken at creation,
            // and is not used after this.
            unsafe { release(first) }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `alloc_str_here` copies a string of 16 to `HERE_MAX` bytes when the
    /// current chunk has room for it, up to the chunk's last byte, and
    /// otherwise takes nothing (so a string one byte longer than the room
    /// is never written past the chunk).
    #[test]
    fn strings_are_copied_here_only_where_they_fit() {
        let text: String = (0..200u8).map(|k| char::from(b'a' + k % 26)).collect();
        for n in [1usize, 15, 16, 17, 22, 23, 64, 65, 100, 127, 128, 129, 200] {
            for room in n.saturating_sub(3)..=n + 3 {
                let mut b = ArenaBuilder::new(0);
                // The first chunk, then `room` bytes left in it.
                b.alloc(1, false).unwrap();
                b.used = b.cap - room;
                let before = b.used;
                let got = b.alloc_str_here(&text[..n]);
                let fits = (16..=HERE_MAX).contains(&n) && n <= room;
                assert_eq!(got.is_some(), fits, "{n} bytes, room {room}");
                match got {
                    Some(p) => {
                        assert_eq!(b.used, before + n, "{n} bytes, room {room}");
                        // SAFETY: `n` bytes were copied at `p`, in the live arena.
                        let copied = unsafe { std::slice::from_raw_parts(p.as_ptr(), n) };
                        assert_eq!(copied, &text.as_bytes()[..n], "{n} bytes, room {room}");
                    }
                    None => assert_eq!(b.used, before, "{n} bytes, room {room}"),
                }
                assert!(b.used <= b.cap);
            }
        }
    }

    #[test]
    fn counts_and_frees() {
        let mut b = ArenaBuilder::new(0);
        assert!(b.arena().is_none());
        let s = b.alloc_str("hello, arena").unwrap();
        let items = b.alloc_items::<u64>(3).unwrap();
        // SAFETY: three items were allocated.
        unsafe {
            for i in 0..3 {
                items.as_ptr().add(i).write(i as u64 * 7);
            }
        }
        // Enough bytes to need further chunks, and one of its own.
        for _ in 0..100 {
            b.alloc_str(&"x".repeat(100)).unwrap();
        }
        let big = b.alloc_items::<u64>(10_000).unwrap();
        // SAFETY: as above.
        unsafe { big.as_ptr().add(9_999).write(5) };
        let arena = b.arena().expect("allocated");
        // SAFETY: the arena is live (the builder's reference).
        unsafe {
            assert_eq!(arena_of(items), arena);
            assert_eq!(arena_of(big), arena);
            retain(arena);
        }
        let held = b.into_reference().expect("allocated");
        // SAFETY: two references are held (`retain` and the builder's);
        // the data is read before the last release.
        unsafe {
            release(held);
            assert_eq!(std::slice::from_raw_parts(s.as_ptr(), 12), b"hello, arena");
            assert_eq!(*items.as_ptr().add(2), 14);
            assert_eq!(*big.as_ptr().add(9_999), 5);
            release(arena);
        }
    }

    /// The first chunk of a freed arena is the thread's spare, and the next
    /// arena starts in it (once: two arenas never share it); a chunk past
    /// `MAX_SPARE` is not kept.
    #[test]
    fn spare_first_chunk_is_reused_once() {
        // Whatever an earlier test left in this thread's slot goes.
        let _ = spare::take(0).map(|(chunk, size)| {
            // SAFETY: the slot gave the chunk to us, allocated with `size`.
            unsafe { dealloc(chunk.cast::<u8>(), chunk_layout(size)) }
        });
        let first_of = |b: &mut ArenaBuilder| {
            b.alloc_str("x").unwrap();
            b.arena().expect("allocated")
        };
        let mut a = ArenaBuilder::new(100);
        let chunk_a = first_of(&mut a);
        drop(a);
        let mut b = ArenaBuilder::new(100);
        let chunk_b = first_of(&mut b);
        assert_eq!(chunk_b, chunk_a, "the spare chunk is reused");
        let mut c = ArenaBuilder::new(100);
        let chunk_c = first_of(&mut c);
        assert_ne!(chunk_c, chunk_b, "a spare chunk is handed out once");
        drop(b);
        drop(c);
        // Only one is kept: the slot holds `b`'s, `c`'s was freed.
        assert!(spare::take(0).is_some_and(|(chunk, size)| {
            // SAFETY: as above.
            unsafe { dealloc(chunk.cast::<u8>(), chunk_layout(size)) };
            chunk == chunk_b.as_ptr()
        }));
        assert!(spare::take(0).is_none());
        // Too large to keep.
        let mut big = ArenaBuilder::new(spare::MAX_SPARE);
        first_of(&mut big);
        drop(big);
        assert!(spare::take(0).is_none(), "a chunk past MAX_SPARE is freed");
    }

    /// `copy_bytes` at every length up to past the longest copied by
    /// overlapping 16-byte moves, at several source and destination
    /// offsets: the `n` bytes arrive and not one byte around them is
    /// written. (The test below cannot see a write past the end: the
    /// string after it is placed later and covers it.) Around the copy, two
    /// fillings (0x00, 0xff), so that no stray byte can pass for one. The
    /// source is a block of exactly `n` bytes, so under ASan a read past it
    /// is a report.
    #[test]
    fn copies_write_exactly_their_bytes() {
        const GUARD: usize = 32;
        for n in 0..=200usize {
            let src: Box<[u8]> = (0..n).map(|i| (i * 7 + n) as u8).collect();
            for at in [0, 1, 7, 8, 13] {
                for fill in [0x00u8, 0xff] {
                    let mut dst = vec![fill; GUARD + at + n + GUARD];
                    let start = GUARD + at;
                    // SAFETY: `src` has `n` readable bytes, `dst[start..]`
                    // at least `n` writable ones; two allocations.
                    unsafe { copy_bytes(src.as_ptr(), dst.as_mut_ptr().add(start), n) };
                    assert_eq!(&dst[start..start + n], &src[..], "length {n} at {at}");
                    assert!(dst[..start].iter().all(|&b| b == fill), "length {n} at {at}: written before the start");
                    assert!(dst[start + n..].iter().all(|&b| b == fill), "length {n} at {at}: written past the end");
                }
            }
        }
    }

    /// Strings of every length up to past the longest copied without
    /// `memcpy` keep their bytes, from sources at every alignment, with
    /// nothing written past their end.
    #[test]
    fn copies_of_every_length_keep_their_bytes() {
        let text: String = (0..300).map(|i| (b'!' + (i * 7 % 90) as u8) as char).collect();
        let mut b = ArenaBuilder::new(1 << 16);
        for len in 1..=200 {
            for from in [0, 1, 5, 8, 13] {
                let s = &text[from..from + len];
                let p = b.alloc_str(s).unwrap();
                // The next allocation follows right after (no alignment
                // for strings): a byte written past `len` would be in it.
                let guard = b.alloc_str("#").unwrap();
                // SAFETY: `len` bytes and one were placed there; the
                // builder's reference keeps the arena alive.
                unsafe {
                    assert_eq!(std::slice::from_raw_parts(p.as_ptr(), len), s.as_bytes(), "length {len}");
                    assert_eq!(*guard.as_ptr(), b'#', "length {len}");
                }
            }
        }
    }
}
