//! The driver's place in the input's 64-byte blocks: the start of the
//! current block and its masks, and the scans that walk them (whitespace,
//! the end of a run of string text), loading the next block when one is
//! used up.
//!
//! A value of its own (copied, not borrowed), so that the out-of-line
//! decoder of strings with escapes (`escaped.rs`) walks the same blocks and
//! hands its place back, while the driver's copy stays in registers: a
//! pointer to the driver's fields handed to a call kept them in memory
//! through the whole parse.

use super::super::blocks::{tail_masks, Classify, Masks};

/// `Cursor::base` before the first block: `i - NO_BLOCK` (wrapping) is
/// `i + 64`, never below 64, so no position is taken for inside it.
const NO_BLOCK: usize = usize::MAX & !63;

#[derive(Clone, Copy)]
pub(super) struct Cursor {
    /// Start of the block whose masks are in `m` (a multiple of 64), or
    /// `NO_BLOCK` before the first.
    pub(super) base: usize,
    pub(super) m: Masks,
}

impl Cursor {
    /// Before the first block.
    pub(super) const START: Cursor = Cursor { base: NO_BLOCK, m: Masks { ws: 0, special: 0, high: 0 } };

    /// Makes the masks of the block of `b` holding `i` current.
    #[inline(always)]
    pub(super) fn load<C: Classify>(&mut self, b: &[u8], i: usize) {
        let base = i & !63;
        self.base = base;
        self.m = if base + 64 <= b.len() {
            // SAFETY: `base + 64 <= len`: the block is inside the input; the
            // caller (`drive`) runs with `C`'s ISA enabled.
            unsafe { C::block(b.as_ptr().add(base)) }
        } else {
            tail_masks(b, base)
        };
    }

    /// The first byte of `b` at or after `i` that is not whitespace (the
    /// length of the input, or beyond it, at the end).
    #[inline(always)]
    pub(super) fn skip_ws<C: Classify>(&mut self, b: &[u8], mut i: usize) -> usize {
        // Compact input: the byte there is no whitespace (every whitespace
        // byte is <= ' ').
        if b.get(i).is_some_and(|&c| c > b' ') {
            return i;
        }
        loop {
            let off = i.wrapping_sub(self.base);
            if off < 64 {
                let rest = !self.m.ws & (u64::MAX << off);
                if rest != 0 {
                    return self.base + rest.trailing_zeros() as usize;
                }
                // A whole block of whitespace after `i`: on to the next.
                i = self.base + 64;
                if i >= b.len() {
                    return b.len();
                }
            }
            self.load::<C>(b, i);
        }
    }

    /// The first `"`, `\` or control byte at or after `i` in the current
    /// block, and whether a byte >= 0x80 comes before; `None` if `i` is not
    /// in the block or no such byte follows it there.
    #[inline(always)]
    pub(super) fn stop_in_block(&self, i: usize) -> Option<(usize, bool)> {
        let off = i.wrapping_sub(self.base);
        if off >= 64 {
            return None;
        }
        let from = u64::MAX << off;
        let special = self.m.special & from;
        if special == 0 {
            return None;
        }
        let k = special.trailing_zeros();
        Some((self.base + k as usize, self.m.high & from & !(u64::MAX << k) != 0))
    }

    /// The first `"`, `\` or control byte of `b` at or after `i` (at or
    /// beyond the end of the input if none), and whether a byte >= 0x80
    /// comes before.
    #[inline(always)]
    pub(super) fn string_stop<C: Classify>(&mut self, b: &[u8], mut i: usize) -> (usize, bool) {
        let mut high = false;
        loop {
            let off = i.wrapping_sub(self.base);
            if off < 64 {
                let from = u64::MAX << off;
                let special = self.m.special & from;
                if special != 0 {
                    let k = special.trailing_zeros();
                    // Non-ASCII bytes from `i` up to the stop.
                    high |= self.m.high & from & !(u64::MAX << k) != 0;
                    return (self.base + k as usize, high);
                }
                high |= self.m.high & from != 0;
                i = self.base + 64;
            }
            self.load::<C>(b, i);
        }
    }
}
