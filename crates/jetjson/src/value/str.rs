//! `Str`, the string type of `Value`: inline up to 22 bytes, otherwise an
//! owned heap string or (in a parsed tree) a string in the parse arena.

use std::borrow::Borrow;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;
use std::ptr::NonNull;

use super::arena::ArenaBuilder;
use crate::escape::swar::load_le;

/// The longest string stored inline (in the 24 bytes of the `Str` itself).
pub(crate) const INLINE_CAPACITY: usize = 22;
/// `Repr::Inline`'s tag.
const INLINE_TAG: u8 = 0;

/// An immutable string: strings up to 22 bytes live inline, so most keys
/// and short values need no allocation of their own; longer ones are on the
/// heap or, in a parsed document, in the document's arena.
pub struct Str(Repr);

/// `repr(u8)` fixes the layout (RFC 2195: each variant a `repr(C)` struct
/// after the `u8` tag), so an inline string can be put together in three
/// registers and stored whole (`Str::inline`).
#[repr(u8)]
enum Repr {
    /// `buf[..len]` is the UTF-8 text, the rest of `buf` zero.
    Inline {
        len: u8,
        buf: [u8; INLINE_CAPACITY],
    } = INLINE_TAG,
    Heap(Box<str>),
    /// `len` bytes of UTF-8 text in a parse arena. Uncounted (see
    /// `arena.rs`): such a `Str` only lives in arena memory or on the
    /// builder's stack, so the arena outlives every borrow of it.
    Arena(NonNull<u8>, usize),
}

// SAFETY: inline and heap strings are plain owned data. An arena string is
// a shared reference to bytes that are never written after the builder
// placed them, inside an arena kept alive by whoever can reach this `Str`
// (see `Repr::Arena`); reading them from any thread is sound.
unsafe impl Send for Str {}
// SAFETY: as above; `&Str` only reads.
unsafe impl Sync for Str {}

impl Str {
    /// A string with the text of `s`.
    #[inline]
    pub fn new(s: &str) -> Str {
        Str::inline(s).unwrap_or_else(|| Str(Repr::Heap(s.into())))
    }

    /// `s` inline if it fits.
    ///
    /// Made as three words in registers from loads of `s`'s bytes only:
    /// copying into a zeroed buffer (a call to `memcpy` of variable length)
    /// and then moving that buffer reads it back with loads that straddle
    /// the copy's stores, which the CPU cannot forward (in profiles of
    /// github_events.json, an eighth of the parse went to it).
    #[inline(always)]
    fn inline(s: &str) -> Option<Str> {
        let words = Str::inline_words_of(s)?;
        // SAFETY: `Repr` is `repr(u8)`: `Inline` is laid out as the struct
        // `{ tag: u8, len: u8, buf: [u8; 22] }`, 24 bytes, no padding, the
        // size of `Str`; `inline_words_of` gives in memory order the inline
        // tag, `n <= 22`, and `s`'s bytes followed by zeros: a valid inline
        // `Str` of the text of `s` (valid UTF-8 as `s` is).
        Some(unsafe { std::mem::transmute::<[u64; 3], Str>(words) })
    }

    /// The three words of `s` as an inline `Str` (see `inline`), if it fits.
    #[inline(always)]
    pub(crate) fn inline_words_of(s: &str) -> Option<[u64; 3]> {
        let n = s.len();
        if n > INLINE_CAPACITY {
            return None;
        }
        let p = s.as_ptr();
        let read8 = |at: usize| {
            // SAFETY: callers pass `at + 8 <= n`: bytes of `s` only.
            u64::from_le_bytes(unsafe { p.add(at).cast::<[u8; 8]>().read_unaligned() })
        };
        // `text[k]`: bytes 8k.. of the text, little-endian, zero past `n`.
        // Lengths 8 to 22 (most names and short values) take one path of
        // three overlapping loads and shifts, with no branch on the length
        // (a tree of branches by length mispredicted on names of mixed
        // lengths).
        let text = if n >= 8 {
            let big = n >= 16;
            // Bytes 0..8, 8..16 (or n-8..n if shorter) and n-8..n.
            let (first, mid, last) = (read8(0), read8(if big { 8 } else { n - 8 }), read8(n - 8));
            // Shifts of 64 give zero: `last` moved past its word.
            let shr = |x: u64, by: usize| x.checked_shr(by as u32).unwrap_or(0);
            [first, shr(mid, if big { 0 } else { 128 - 8 * n }), shr(last, if big { 192 - 8 * n } else { 64 })]
        } else {
            // SAFETY: `n <= 8` bytes of `s`.
            [unsafe { load_le(p, n) }, 0, 0]
        };
        // The `Str`'s bytes: tag, length, then the text (`Repr`'s layout).
        Some([
            (INLINE_TAG as u64 | (n as u64) << 8 | text[0] << 16).to_le(),
            (text[0] >> 48 | text[1] << 16).to_le(),
            (text[1] >> 48 | text[2] << 16).to_le(),
        ])
    }

    /// The three words of the inline `Str` of `around[2..2 + n]` (`n <=
    /// INLINE_CAPACITY`, those bytes UTF-8 text), as `inline_words_of`
    /// makes them: `around` loaded as three whole words (the first two
    /// bytes where the tag and length go), masked to the text by a window
    /// of a constant (no branch on the length: names of mixed lengths took
    /// two or three unpredictable branches of `inline_words_of`'s and
    /// `load_le`'s).
    #[inline(always)]
    pub(crate) fn inline_words_around(n: usize, around: &[u8; 24]) -> [u64; 3] {
        /// Bytes `24 - (n + 2)..` of this: `0xff` for the tag, the length
        /// and the `n` bytes of text, then zeros.
        static ONES_THEN_ZEROS: [u8; 48] = {
            let mut t = [0u8; 48];
            let mut k = 0;
            while k < 24 {
                t[k] = 0xff;
                k += 1;
            }
            t
        };
        debug_assert!(n <= INLINE_CAPACITY);
        let mask = &ONES_THEN_ZEROS[INLINE_CAPACITY - n..INLINE_CAPACITY - n + 24];
        let word = |bytes: &[u8], k: usize| u64::from_le_bytes(bytes[8 * k..8 * k + 8].try_into().expect("8 bytes"));
        [
            (word(around, 0) & word(mask, 0) & !0xffff | INLINE_TAG as u64 | (n as u64) << 8).to_le(),
            (word(around, 1) & word(mask, 1)).to_le(),
            (word(around, 2) & word(mask, 2)).to_le(),
        ]
    }

    /// The inline `Str` of `words` (from `inline_words_around`).
    ///
    /// # Safety
    /// `words` came from `inline_words_around` (or `inline_words_of`).
    #[inline(always)]
    pub(crate) unsafe fn from_inline_words(words: [u64; 3]) -> Str {
        // SAFETY: as in `inline`: the words are a valid inline `Str`.
        unsafe { std::mem::transmute::<[u64; 3], Str>(words) }
    }

    /// Writes the inline string of `words` (from `inline_words_of`) at
    /// `dst` as three whole words. A `Str` stored as a value goes out in
    /// the pieces of its fields (a byte, then 4, 2 and 1 bytes of the
    /// first word), and a later load of a whole word of it (the names'
    /// checks, the moves into the arena) cannot be forwarded from those
    /// while they wait to reach the cache.
    ///
    /// # Safety
    /// `dst` is valid for writing a `Str` (aligned); what it held is not
    /// dropped. `words` came from `inline_words_of` or `inline_words_around`.
    #[inline(always)]
    pub(crate) unsafe fn write_inline_words(dst: *mut Str, words: [u64; 3]) {
        // SAFETY: `Str` is 24 bytes, 8-aligned (it holds pointers), and
        // `words` are a valid inline `Str` (see `inline`).
        unsafe { dst.cast::<[u64; 3]>().write(words) }
    }

    /// `s`, which fits inline (at most `INLINE_CAPACITY` bytes).
    #[inline(always)]
    pub(crate) fn short(s: &str) -> Str {
        debug_assert!(s.len() <= INLINE_CAPACITY);
        Str::inline(s).unwrap_or_else(|| Str::new(s))
    }

    /// `s` inline, or copied into the arena (an uncounted handle). Out of
    /// memory, see `copy_to_arena`.
    ///
    /// # Safety
    /// The result lives only in the arena's memory or on the builder's
    /// stack (the invariant of uncounted handles in `arena.rs`).
    ///
    /// Always inlined, with the copy out of line: a `Str` returned from a
    /// call comes back through stack memory, stored in parts and read
    /// back whole by the caller (a store-forwarding stall per name).
    #[inline(always)]
    pub(crate) unsafe fn in_arena<const RECOVER: bool>(s: &str, arena: &mut ArenaBuilder) -> Str {
        match Str::inline(s) {
            Some(inline) => inline,
            None => Str(Repr::Arena(copy_to_arena::<RECOVER>(s, arena), s.len())),
        }
    }

    /// `s`, longer than `INLINE_CAPACITY`, copied into the arena (an
    /// uncounted handle); made in the caller, as `in_arena` is. Out of
    /// memory, see `copy_to_arena`.
    ///
    /// # Safety
    /// As for `in_arena`.
    #[inline(always)]
    pub(crate) unsafe fn long_in_arena<const RECOVER: bool>(s: &str, arena: &mut ArenaBuilder) -> Str {
        debug_assert!(s.len() > INLINE_CAPACITY);
        match arena.alloc_str(s) {
            Some(p) => Str(Repr::Arena(p, s.len())),
            None if RECOVER => Str(Repr::Arena(NonNull::from(s.as_bytes()).cast(), s.len())),
            None => arena.alloc_failed(),
        }
    }

    /// The text decoded in place in the arena (`text_room.rs`), longer than
    /// `INLINE_CAPACITY`, as an uncounted handle.
    ///
    /// # Safety
    /// `p..p + len` is UTF-8 text placed in the arena (never written
    /// again); as for `in_arena`.
    #[inline(always)]
    pub(crate) unsafe fn placed_in_arena(p: NonNull<u8>, len: usize) -> Str {
        debug_assert!(len > INLINE_CAPACITY);
        Str(Repr::Arena(p, len))
    }

    /// The 24 bytes of an inline string as three words (every byte is set:
    /// the tag, the length, the text and zeros after it, so two inline
    /// strings have the same words exactly when they have the same text);
    /// `None` for other strings.
    #[inline(always)]
    pub(crate) fn inline_words(&self) -> Option<[u64; 3]> {
        match self.0 {
            // SAFETY: `Str` is 24 bytes, 8-aligned (it holds pointers), and
            // an inline one has all 24 bytes initialised (see `Repr`).
            Repr::Inline { .. } => Some(unsafe { std::ptr::from_ref(self).cast::<[u64; 3]>().read() }),
            _ => None,
        }
    }

    /// The first of the three words of an inline string (tag, length and
    /// the first six bytes of text); for any other string, a word with its
    /// length and a low byte (1) that no inline string has. Two strings of
    /// the same text have the same head word, so strings whose head words
    /// differ differ (`names.rs` compares these first).
    #[inline(always)]
    pub(crate) fn head_word(&self) -> u64 {
        match self.0 {
            // SAFETY: `Str` is 8-aligned (it holds pointers), and an inline
            // one has all its bytes initialised (see `Repr`).
            Repr::Inline { .. } => unsafe { std::ptr::from_ref(self).cast::<u64>().read() },
            _ => (self.len() as u64) << 8 | 1,
        }
    }

    /// A bitwise copy of a string that owns no memory (inline or arena).
    ///
    /// # Safety
    /// `self` is not an owned heap string, and the copy is subject to the
    /// same lifetime as `self` (it lives where an uncounted handle may).
    pub(crate) unsafe fn dup_unowned(&self) -> Str {
        match self.0 {
            Repr::Inline { len, buf } => Str(Repr::Inline { len, buf }),
            Repr::Arena(p, n) => Str(Repr::Arena(p, n)),
            Repr::Heap(_) => unreachable!("only inline or arena strings are duplicated"),
        }
    }

    /// The text.
    #[inline]
    pub fn as_str(&self) -> &str {
        match &self.0 {
            // SAFETY: `buf[..len]` was copied from a whole `&str` (`len`
            // is at most the capacity), so it is valid UTF-8.
            Repr::Inline { len, buf } => unsafe { std::str::from_utf8_unchecked(buf.get_unchecked(..*len as usize)) },
            Repr::Heap(b) => b,
            // SAFETY: the builder copied `n` bytes of a `&str` there, never
            // written again; the arena outlives this borrow of `self` (see
            // `Repr::Arena`).
            Repr::Arena(p, n) => unsafe { std::str::from_utf8_unchecked(std::slice::from_raw_parts(p.as_ptr(), *n)) },
        }
    }

    /// `keys::sort_prefix(order, self.as_bytes())`: for an inline string,
    /// straight from its zero-padded buffer.
    #[inline(always)]
    pub(crate) fn sort_prefix(&self, order: crate::options::KeyOrder) -> u128 {
        match &self.0 {
            Repr::Inline { buf, .. } => {
                // `buf[len..]` is zero, so its first 16 bytes are the text's
                // first 16 bytes zero-padded.
                let head: [u8; 16] = buf[..16].try_into().expect("16 bytes");
                crate::keys::order_prefix(order, u128::from_be_bytes(head))
            }
            _ => crate::keys::sort_prefix(order, self.as_bytes()),
        }
    }

    /// Whether the text is stored inside the `Str` itself.
    pub fn is_inline(&self) -> bool {
        matches!(self.0, Repr::Inline { .. })
    }
}

/// `s` copied into the arena.
///
/// Out of memory, a builder that recovers (`RECOVER`, see `build.rs`) gets
/// `s`'s own address (the arena's allocation has marked the build out of
/// memory: `arena::out_of_memory`). The builder then reports the error at
/// the end of the current container and reads no string of the failed
/// build, so the handle is never read (a valid pointer to the text while
/// it lives, it would read `s`). The same kind of handle either way keeps
/// the name's route as short as before. Other builders end the process,
/// as the global allocator does.
#[inline(never)]
fn copy_to_arena<const RECOVER: bool>(s: &str, arena: &mut ArenaBuilder) -> NonNull<u8> {
    match arena.alloc_str(s) {
        Some(p) => p,
        None if RECOVER => NonNull::from(s.as_bytes()).cast(),
        None => arena.alloc_failed(),
    }
}

impl Default for Str {
    fn default() -> Str {
        Str(Repr::Inline { len: 0, buf: [0; INLINE_CAPACITY] })
    }
}

impl Clone for Str {
    /// An arena string is copied out into an owned one.
    fn clone(&self) -> Str {
        match &self.0 {
            Repr::Inline { len, buf } => Str(Repr::Inline { len: *len, buf: *buf }),
            _ => Str::new(self.as_str()),
        }
    }
}

impl Deref for Str {
    type Target = str;
    #[inline]
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Str {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<[u8]> for Str {
    fn as_ref(&self) -> &[u8] {
        self.as_bytes()
    }
}

impl Borrow<str> for Str {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

#[cfg(test)]
impl Str {
    /// Test support: a `Str` reading `s` where it is (an uncounted arena
    /// handle), so that its bytes can sit against a guard page.
    ///
    /// # Safety
    /// `s` outlives the result and every copy of it.
    pub(crate) unsafe fn borrowing(s: &str) -> Str {
        Str(Repr::Arena(NonNull::from(s.as_bytes()).cast::<u8>(), s.len()))
    }
}

impl From<&str> for Str {
    fn from(s: &str) -> Str {
        Str::new(s)
    }
}

impl From<&String> for Str {
    fn from(s: &String) -> Str {
        Str::new(s)
    }
}

impl From<String> for Str {
    fn from(s: String) -> Str {
        Str::inline(&s).unwrap_or_else(|| Str(Repr::Heap(s.into_boxed_str())))
    }
}

impl From<Box<str>> for Str {
    fn from(s: Box<str>) -> Str {
        Str::inline(&s).unwrap_or(Str(Repr::Heap(s)))
    }
}

impl From<char> for Str {
    fn from(c: char) -> Str {
        Str::new(c.encode_utf8(&mut [0; 4]))
    }
}

impl From<Str> for String {
    fn from(s: Str) -> String {
        match s.0 {
            Repr::Heap(b) => b.into_string(),
            _ => s.as_str().to_owned(),
        }
    }
}

impl FromIterator<char> for Str {
    fn from_iter<I: IntoIterator<Item = char>>(iter: I) -> Str {
        Str::from(iter.into_iter().collect::<String>())
    }
}

impl PartialEq for Str {
    fn eq(&self, other: &Str) -> bool {
        self.as_str() == other.as_str()
    }
}
impl Eq for Str {}

impl PartialEq<str> for Str {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}
impl PartialEq<&str> for Str {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}
impl PartialEq<String> for Str {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other.as_str()
    }
}
impl PartialEq<Str> for str {
    fn eq(&self, other: &Str) -> bool {
        self == other.as_str()
    }
}
impl PartialEq<Str> for &str {
    fn eq(&self, other: &Str) -> bool {
        *self == other.as_str()
    }
}
impl PartialEq<Str> for String {
    fn eq(&self, other: &Str) -> bool {
        self.as_str() == other.as_str()
    }
}

impl PartialOrd for Str {
    fn partial_cmp(&self, other: &Str) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Str {
    fn cmp(&self, other: &Str) -> std::cmp::Ordering {
        self.as_str().cmp(other.as_str())
    }
}

/// Hashes as the `str` does, so lookups by `&str` through `Borrow` work.
impl Hash for Str {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.as_str().hash(h)
    }
}

impl fmt::Debug for Str {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for Str {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.as_str(), f)
    }
}

impl serde::Serialize for Str {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> serde::Deserialize<'de> for Str {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Str, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = Str;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_str<E>(self, v: &str) -> Result<Str, E> {
                Ok(Str::new(v))
            }
            fn visit_string<E>(self, v: String) -> Result<Str, E> {
                Ok(Str::from(v))
            }
        }
        d.deserialize_str(V)
    }
}
