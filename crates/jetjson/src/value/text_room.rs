//! Room in the `Value` builder's arena that the parser decodes a string
//! with escapes into (`Visitor::text_room`), so that the decoded text is
//! written once, where it stays: decoded into the parser's scratch buffer,
//! a long string was copied again into the arena (gsoc-2018.json has 2 MB
//! of such strings: a sixth of the parse went to the decode and the copies).
//!
//! The room is the arena's current region (`ArenaBuilder::region`): nothing
//! is allocated from the arena while the parser writes into it, and the
//! builder then keeps the text (`ValueBuilder::placed_string`): inline if
//! it fits, otherwise placed where it was decoded (`commit_region`).
//!
//! A text that outgrows the region (it meets the end of the arena's current
//! chunk, or is huge) moves to a heap buffer that grows as the scratch
//! buffer does, and is copied into the arena from there, as before: regions
//! grown in the arena would each leave the last one unused in its chunk,
//! up to twice the text's size kept for as long as the document lives.

use std::marker::PhantomData;
use std::ptr::NonNull;

use super::arena::ArenaBuilder;
use crate::parse::TextOut;

/// The arena's free room lent to the parser for one string's decoded text.
/// Made only by the `Value` builder (its fields are the crate's): a
/// visitor of another crate cannot lend room (`Visitor::text_room`'s
/// default lends none).
pub struct TextRoom<'a> {
    /// The arena lent from, held for as long as the room is in use.
    _arena: PhantomData<&'a mut ArenaBuilder>,
    /// The region's start, the bytes written from it, and its capacity.
    start: NonNull<u8>,
    len: usize,
    cap: usize,
    /// The text's buffer once it outgrew the region (`start` then points
    /// to it; its length is brought up to `len` when it grows).
    heap: Vec<u8>,
}

/// The decoded text of a string, in the room a `TextRoom` lent: handed
/// back to the builder that lent it (`Visitor::placed_string`,
/// `Visitor::placed_key`).
pub struct Placed {
    start: NonNull<u8>,
    len: usize,
    /// The buffer holding the text if it is not in the arena.
    heap: Vec<u8>,
}

impl<'a> TextRoom<'a> {
    /// The arena's current region, at least `min` bytes; `None` when out
    /// of memory.
    ///
    /// # Safety
    /// The builder allocates nothing from `arena` until the text is
    /// placed (`Placed::commit`) or the room abandoned, and writes nothing
    /// to the region meanwhile (no array is written in place in it).
    pub(crate) unsafe fn new(arena: &'a mut ArenaBuilder, min: usize) -> Option<TextRoom<'a>> {
        let (start, cap) = arena.region(min)?;
        Some(TextRoom { _arena: PhantomData, start, len: 0, cap, heap: Vec::new() })
    }

    /// The text written.
    pub(crate) fn placed(self) -> Placed {
        Placed { start: self.start, len: self.len, heap: self.heap }
    }
}

impl TextOut for TextRoom<'_> {
    #[inline(always)]
    fn len(&self) -> usize {
        self.len
    }
    #[inline(always)]
    fn spare(&self) -> usize {
        self.cap - self.len
    }
    #[inline(always)]
    fn as_mut_ptr(&mut self) -> *mut u8 {
        self.start.as_ptr()
    }
    #[inline(always)]
    unsafe fn set_len(&mut self, len: usize) {
        debug_assert!(len <= self.cap);
        self.len = len;
    }
    /// Moves the text to the heap buffer (at least twice its length), or
    /// grows that buffer.
    #[cold]
    #[inline(never)]
    fn grow(&mut self, n: usize) -> bool {
        let Some(need) = self.len.checked_add(n) else {
            return false;
        };
        if self.heap.capacity() == 0 {
            let mut heap = Vec::new();
            if heap.try_reserve_exact(need.max(2 * self.len)).is_err() {
                return false;
            }
            // SAFETY: `len` bytes written at `start` (in the arena's
            // region); the fresh buffer has room for them, and holds them
            // after the copy.
            unsafe {
                std::ptr::copy_nonoverlapping(self.start.as_ptr(), heap.as_mut_ptr(), self.len);
                heap.set_len(self.len);
            }
            self.heap = heap;
        } else {
            // SAFETY: the text's `len` bytes are written in the buffer
            // (`start` is its start), within its capacity.
            unsafe { self.heap.set_len(self.len) };
            if self.heap.try_reserve(n).is_err() {
                return false;
            }
        }
        self.start = NonNull::new(self.heap.as_mut_ptr()).expect("an allocated buffer");
        self.cap = self.heap.capacity();
        true
    }
}

impl Placed {
    /// The text.
    ///
    /// # Safety
    /// The arena whose room it was is alive, and nothing was written to
    /// that room since the text was decoded (`TextRoom::new`'s terms).
    #[inline(always)]
    pub(crate) unsafe fn as_str<'t>(&self) -> &'t str {
        // SAFETY: `len` bytes decoded from `start` (caller: still there);
        // the decoder writes only UTF-8 text (runs checked as UTF-8, the
        // characters of escapes).
        unsafe { std::str::from_utf8_unchecked(std::slice::from_raw_parts(self.start.as_ptr(), self.len)) }
    }

    /// Whether the text is in the arena's region (not in a heap buffer:
    /// then it is copied into the arena, `Str::long_in_arena`).
    #[inline(always)]
    pub(crate) fn in_arena(&self) -> bool {
        self.heap.capacity() == 0
    }

    /// Keeps the text where it was decoded (it is at least one byte, in the
    /// arena: `in_arena`): moves the arena's bump pointer past it. Its
    /// address.
    ///
    /// # Safety
    /// `arena` is the one whose room it was, and nothing was allocated
    /// from it since (`TextRoom::new`'s terms).
    #[inline(always)]
    pub(crate) unsafe fn commit(self, arena: &mut ArenaBuilder) -> NonNull<u8> {
        debug_assert!(self.in_arena());
        // SAFETY: the start of the arena's current region, nothing
        // allocated since (caller); `len` is within its capacity.
        unsafe { arena.commit_region(self.start, self.len) };
        self.start
    }
}
