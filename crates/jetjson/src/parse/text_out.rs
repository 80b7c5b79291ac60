//! Where the decoder of a string with escapes (`parser::decode_into`)
//! writes the decoded text: the parser's scratch buffer, or room that the
//! builder lends in the place the text ends up (`Visitor::text_room`, the
//! `Value` builder's arena), so that a long decoded string is not copied a
//! second time from the scratch buffer.

/// A growable byte buffer the decoder writes into: `len` bytes written
/// from `as_mut_ptr()`, `spare()` more writable after them.
pub(crate) trait TextOut {
    fn len(&self) -> usize;
    /// Bytes writable past `len`.
    fn spare(&self) -> usize;
    fn as_mut_ptr(&mut self) -> *mut u8;
    /// # Safety
    /// `len <= self.len() + self.spare()`, and the bytes up to `len` are
    /// written.
    unsafe fn set_len(&mut self, len: usize);
    /// Makes `spare() >= n`, keeping the `len` bytes written; `false` when
    /// there is no memory for it (nothing changed).
    fn grow(&mut self, n: usize) -> bool;

    /// Whether there is room for `n` more bytes, growing if not: `false`
    /// when it cannot grow. A string's decoded text grows with the input
    /// (one string can be most of it), and its growth failing aborted the
    /// process (SECURITY.md, "Allocation failure").
    #[inline(always)]
    fn room(&mut self, n: usize) -> bool {
        self.spare() >= n || self.grow(n)
    }

    /// Appends `s` (`false`, nothing written, when there is no memory).
    #[inline(always)]
    fn put(&mut self, s: &[u8]) -> bool {
        if !self.room(s.len()) {
            return false;
        }
        let len = self.len();
        // SAFETY: `spare() >= s.len()` (above): the bytes from `len` are
        // writable, and they are not `s` (the input or the text of an
        // escape, never the buffer's own room).
        unsafe {
            std::ptr::copy_nonoverlapping(s.as_ptr(), self.as_mut_ptr().add(len), s.len());
            self.set_len(len + s.len());
        }
        true
    }
}

impl TextOut for Vec<u8> {
    #[inline(always)]
    fn len(&self) -> usize {
        Vec::len(self)
    }
    #[inline(always)]
    fn spare(&self) -> usize {
        self.capacity() - Vec::len(self)
    }
    #[inline(always)]
    fn as_mut_ptr(&mut self) -> *mut u8 {
        Vec::as_mut_ptr(self)
    }
    #[inline(always)]
    unsafe fn set_len(&mut self, len: usize) {
        // SAFETY: passed on (`len <= capacity`, the bytes written).
        unsafe { Vec::set_len(self, len) }
    }
    #[inline]
    fn grow(&mut self, n: usize) -> bool {
        self.try_reserve(n).is_ok()
    }
}
