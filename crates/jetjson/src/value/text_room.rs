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

use std::ptr::NonNull;

use super::arena::ArenaBuilder;
use crate::parse::TextOut;

/// The arena's free room lent to the parser for one string's decoded text.
/// Made only by the `Value` builder (its fields are the crate's): a
/// visitor of another crate cannot lend room (`Visitor::text_room`'s
/// default lends none).
pub struct TextRoom<'a> {
    arena: &'a mut ArenaBuilder,
    /// The region's start, the bytes written from it, and its capacity.
    start: NonNull<u8>,
    len: usize,
    cap: usize,
}

/// The decoded text of a string, in the room a `TextRoom` lent: handed
/// back to the builder that lent it (`Visitor::placed_string`,
/// `Visitor::placed_key`).
pub struct Placed {
    start: NonNull<u8>,
    len: usize,
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
        Some(TextRoom { arena, start, len: 0, cap })
    }

    /// The text written.
    pub(crate) fn placed(self) -> Placed {
        Placed { start: self.start, len: self.len }
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
    /// Moves the text to a region of twice its length (at least `len + n`)
    /// in a fresh chunk, as an array written in place grows.
    #[cold]
    #[inline(never)]
    fn grow(&mut self, n: usize) -> bool {
        let Some(min) = self.len.checked_add(n).map(|need| need.max(2 * self.len)) else {
            return false;
        };
        // SAFETY: `start` is the region last returned by the arena, with
        // `len` bytes written, and nothing was allocated since (`new`).
        match unsafe { self.arena.grow_region(self.start, self.len, min) } {
            Some((start, cap)) => {
                (self.start, self.cap) = (start, cap);
                true
            }
            None => false,
        }
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

    /// Keeps the text where it was decoded (it is at least one byte):
    /// moves the arena's bump pointer past it. Its address.
    ///
    /// # Safety
    /// `arena` is the one whose room it was, and nothing was allocated
    /// from it since (`TextRoom::new`'s terms).
    #[inline(always)]
    pub(crate) unsafe fn commit(self, arena: &mut ArenaBuilder) -> NonNull<u8> {
        // SAFETY: the start of the arena's current region, nothing
        // allocated since (caller); `len` is within its capacity.
        unsafe { arena.commit_region(self.start, self.len) };
        self.start
    }
}
