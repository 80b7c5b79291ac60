//! `Str`, the string type of `Value`: 16 bytes, inline up to 15 bytes,
//! otherwise an owned heap string or (in a parsed tree) a string in the
//! parse arena.

use std::borrow::Borrow;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;
use std::ptr::NonNull;

use super::arena::ArenaBuilder;
use crate::escape::swar::load_le;

/// The longest string stored inline (in the 16 bytes of the `Str` itself,
/// after its tag byte).
pub(crate) const INLINE_CAPACITY: usize = 15;

/// An immutable string: strings up to 15 bytes live inline, so most keys
/// and short values need no allocation of their own; longer ones are on the
/// heap or, in a parsed document, in the document's arena.
///
/// Layout (16 bytes, 8-aligned): byte 0 is the tag, the length of an
/// inline string (0 to 15) or `ARENA` / `HEAP`. Inline, bytes 1 to 15 are
/// the text, zero after it. Otherwise bytes 1 to 7 are the length (56 bits,
/// little-endian) and bytes 8 to 15 the pointer to the text: in a parse
/// arena (uncounted, see `arena.rs`: such a `Str` only lives in arena
/// memory or on the builder's stack, so the arena outlives every borrow of
/// it), or a `Box<str>` this `Str` owns. The tag's unused values (18 to
/// 255) are a niche: `Number` (a `Str` or eight bytes at offset 8) is 16
/// bytes too, and `Value` 24.
#[repr(C, align(8))]
pub struct Str {
    tag: Tag,
    /// Inline: text bytes 0 to 6; otherwise the length's seven bytes.
    head: [u8; 7],
    /// Inline: text bytes 7 to 14; otherwise the pointer.
    tail: Tail,
}

/// The eight bytes after the head: text or a pointer. A union, so that a
/// pointer stored here keeps its provenance when the `Str` is moved.
#[derive(Clone, Copy)]
#[repr(C)]
union Tail {
    ptr: NonNull<u8>,
    text: [u8; 8],
}

/// The tag byte: an inline string's length, or where the text is.
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
#[allow(dead_code)] // inline tags are made by `Str::inline`'s transmute
enum Tag {
    L0 = 0, L1, L2, L3, L4, L5, L6, L7, L8, L9, L10, L11, L12, L13, L14, L15,
    /// The text is in a parse arena (not owned).
    Arena = 16,
    /// The text is a `Box<str>` owned by this `Str`.
    Heap = 17,
}

/// Strings are shorter than 2^56 bytes: that is more than the address space
/// of any machine (x86-64 and AArch64 have at most 57 bits, and an
/// allocation is at most `isize::MAX` bytes, half of it).
const MAX_LEN_BITS: u32 = 56;

// SAFETY: inline and heap strings are plain owned data. An arena string is
// a shared reference to bytes that are never written after the builder
// placed them, inside an arena kept alive by whoever can reach this `Str`
// (see the layout above); reading them from any thread is sound.
unsafe impl Send for Str {}
// SAFETY: as above; `&Str` only reads.
unsafe impl Sync for Str {}

impl Str {
    /// A string with the text of `s`.
    #[inline]
    pub fn new(s: &str) -> Str {
        Str::inline(s).unwrap_or_else(|| Str::heap(s.into()))
    }

    /// A long string that owns `b`.
    fn heap(b: Box<str>) -> Str {
        let n = b.len();
        let ptr = NonNull::from(Box::leak(b)).cast::<u8>();
        Str::long(Tag::Heap, ptr, n)
    }

    /// A string that is not inline: tag, length and pointer, made as two
    /// words (one store each: built field by field, the length's seven
    /// bytes were split and joined again with a dozen shifts, and stored
    /// in parts that a whole-word load of the `Str` cannot be forwarded).
    #[inline(always)]
    fn long(tag: Tag, ptr: NonNull<u8>, n: usize) -> Str {
        /// `Str`'s layout as a word and a pointer.
        #[repr(C)]
        struct Words {
            head: u64,
            ptr: NonNull<u8>,
        }
        assert!((n as u64) >> MAX_LEN_BITS == 0, "strings are shorter than 2^56 bytes");
        let words = Words { head: (tag as u64 | (n as u64) << 8).to_le(), ptr };
        // SAFETY: `Words` is 16 bytes, 8-aligned, no padding, as `Str`
        // (`repr(C)`); its first byte in memory is `tag`, a valid `Tag`,
        // bytes 1 to 7 the length (any bytes are valid in `head`), and the
        // pointer lands in `tail` (a union: it keeps its provenance).
        unsafe { std::mem::transmute::<Words, Str>(words) }
    }

    /// `s` inline if it fits.
    ///
    /// Made as two words in registers from loads of `s`'s bytes only:
    /// copying into a zeroed buffer (a call to `memcpy` of variable length)
    /// and then moving that buffer reads it back with loads that straddle
    /// the copy's stores, which the CPU cannot forward (in profiles of
    /// github_events.json, an eighth of the parse went to it).
    #[inline(always)]
    fn inline(s: &str) -> Option<Str> {
        let n = s.len();
        if n > INLINE_CAPACITY {
            return None;
        }
        let p = s.as_ptr();
        let read8 = |at: usize| {
            // SAFETY: callers pass `at + 8 <= n`: bytes of `s` only.
            u64::from_le_bytes(unsafe { p.add(at).cast::<[u8; 8]>().read_unaligned() })
        };
        // The text as two little-endian words, zero past `n`. Lengths 8 to
        // 15 take one path of two overlapping loads and shifts, with no
        // branch on the length (a tree of branches by length mispredicted
        // on names of mixed lengths).
        let (lo, hi) = if n >= 8 {
            // Bytes 0..8 and n-8..n; the second shifted right past the
            // bytes the first has (by 8 to 64 bits, in two shifts so that
            // 64 gives zero).
            (read8(0), read8(n - 8) >> (127 - 8 * n) >> 1)
        } else {
            // SAFETY: `n <= 8` bytes of `s`.
            (unsafe { load_le(p, n) }, 0)
        };
        // The `Str`'s bytes: tag (the length), then the text.
        let words = [(n as u64 | lo << 8).to_le(), (lo >> 56 | hi << 8).to_le()];
        // SAFETY: `Str` is `repr(C)`, 16 bytes with no padding: a tag byte
        // then 15 bytes that may hold any value (`head` is bytes, `tail` a
        // union with a byte array). `words` hold in memory order `n <= 15`
        // (a valid tag: an inline length), `s`'s bytes and zeros: a valid
        // inline `Str` of the text of `s` (valid UTF-8 as `s` is).
        Some(unsafe { std::mem::transmute::<[u64; 2], Str>(words) })
    }

    /// `s`, which fits inline (at most `INLINE_CAPACITY` bytes).
    #[inline(always)]
    pub(crate) fn short(s: &str) -> Str {
        debug_assert!(s.len() <= INLINE_CAPACITY);
        Str::inline(s).unwrap_or_else(|| Str::new(s))
    }

    /// `s` inline, or copied into the arena (an uncounted handle).
    ///
    /// # Safety
    /// The result lives only in the arena's memory or on the builder's
    /// stack (the invariant of uncounted handles in `arena.rs`).
    ///
    /// Always inlined, with the copy out of line: a `Str` returned from a
    /// call comes back through stack memory, stored in parts and read
    /// back whole by the caller (a store-forwarding stall per name).
    #[inline(always)]
    pub(crate) unsafe fn in_arena(s: &str, arena: &mut ArenaBuilder) -> Str {
        match Str::inline(s) {
            Some(inline) => inline,
            None => Str::arena(copy_to_arena(s, arena), s.len()),
        }
    }

    /// `s`, longer than `INLINE_CAPACITY`, copied into the arena (an
    /// uncounted handle); made in the caller, as `in_arena` is.
    ///
    /// # Safety
    /// As for `in_arena`.
    #[inline(always)]
    pub(crate) unsafe fn long_in_arena(s: &str, arena: &mut ArenaBuilder) -> Str {
        debug_assert!(s.len() > INLINE_CAPACITY);
        Str::arena(arena.alloc_str(s), s.len())
    }

    /// The arena string of the `n > INLINE_CAPACITY` bytes of UTF-8 at `ptr`.
    #[inline(always)]
    fn arena(ptr: NonNull<u8>, n: usize) -> Str {
        Str::long(Tag::Arena, ptr, n)
    }

    /// Bytes 0 to 7 as a little-endian word: for an inline string the tag
    /// (its length) in the low byte and the first seven bytes of text; for
    /// another, the tag and the length shifted left by 8.
    #[inline(always)]
    fn word0(&self) -> u64 {
        // SAFETY: `Str` is 8-aligned and its first 8 bytes (tag and head)
        // are always initialised integers.
        u64::from_le(unsafe { std::ptr::from_ref(self).cast::<u64>().read() })
    }

    /// The 16 bytes of an inline string as two words (every byte is set:
    /// the tag, the text and zeros after it, so two inline strings have the
    /// same words exactly when they have the same text); `None` for other
    /// strings.
    #[inline(always)]
    pub(crate) fn inline_words(&self) -> Option<[u64; 2]> {
        if self.is_inline() {
            // SAFETY: `Str` is 16 bytes, 8-aligned, and an inline one has
            // all 16 bytes initialised as integers (see `Str::inline`).
            Some(unsafe { std::ptr::from_ref(self).cast::<[u64; 2]>().read() })
        } else {
            None
        }
    }

    /// The first of the two words of an inline string (length and the
    /// first seven bytes of text); for any other string (longer than 15
    /// bytes), its first eight bytes of text mixed with its length. Two
    /// strings of the same text have the same head word, so strings whose
    /// head words differ differ (`names.rs` compares these first; a long
    /// name's head word may equal a short one's, which only costs a
    /// comparison).
    #[inline(always)]
    pub(crate) fn head_word(&self) -> u64 {
        let w = self.word0();
        if self.is_inline() {
            w
        } else {
            let t = self.as_bytes();
            // A long string has more than 8 bytes.
            let first = t.first_chunk::<8>().map_or(0, |b| u64::from_le_bytes(*b));
            first ^ (w >> 8).rotate_left(32)
        }
    }

    /// A bitwise copy of a string that owns no memory (inline or arena).
    ///
    /// # Safety
    /// `self` is not an owned heap string, and the copy is subject to the
    /// same lifetime as `self` (it lives where an uncounted handle may).
    pub(crate) unsafe fn dup_unowned(&self) -> Str {
        assert!(self.tag != Tag::Heap, "only inline or arena strings are duplicated");
        // SAFETY: an inline or arena string owns nothing (no `Drop` work),
        // so two bitwise copies of it are as good as one.
        unsafe { std::ptr::read(self) }
    }

    /// The length in bytes.
    #[inline(always)]
    fn byte_len(&self) -> usize {
        let w = self.word0();
        if self.is_inline() {
            w as u8 as usize
        } else {
            (w >> 8) as usize
        }
    }

    /// The text.
    #[inline]
    pub fn as_str(&self) -> &str {
        let n = self.byte_len();
        let p = if self.is_inline() {
            // Bytes 1 to 15 of `self`.
            std::ptr::from_ref(self).cast::<u8>().wrapping_add(1)
        } else {
            // SAFETY: not inline, so the tail is the pointer.
            unsafe { self.tail.ptr.as_ptr().cast_const() }
        };
        // SAFETY: inline, `n <= 15` bytes from byte 1 of `self` (within it,
        // borrowed with it), copied from a whole `&str`. Otherwise `n` bytes
        // of UTF-8 at the pointer: an owned `Box<str>`, or text the builder
        // copied into the arena from a `&str` and never wrote again, the
        // arena outliving this borrow of `self` (see `Str`).
        unsafe { std::str::from_utf8_unchecked(std::slice::from_raw_parts(p, n)) }
    }

    /// `keys::sort_prefix(order, self.as_bytes())`: for an inline string,
    /// straight from its zero-padded bytes.
    #[inline(always)]
    pub(crate) fn sort_prefix(&self, order: crate::options::KeyOrder) -> u128 {
        match self.inline_words() {
            Some([a, b]) => {
                // The text, zero-padded to 16 bytes, as a little-endian
                // integer (past the tag byte); its bytes in memory order,
                // read big-endian, are the prefix.
                let text = (u64::from_le(a) as u128 | (u64::from_le(b) as u128) << 64) >> 8;
                crate::keys::order_prefix(order, u128::from_be_bytes(text.to_le_bytes()))
            }
            None => crate::keys::sort_prefix(order, self.as_bytes()),
        }
    }

    /// Whether the text is stored inside the `Str` itself.
    #[inline(always)]
    pub fn is_inline(&self) -> bool {
        (self.tag as u8) <= INLINE_CAPACITY as u8
    }
}

impl Drop for Str {
    #[inline]
    fn drop(&mut self) {
        if self.tag == Tag::Heap {
            let n = self.byte_len();
            // SAFETY: a heap string's tail is the pointer of the `Box<str>`
            // of `n` bytes it owns (`Str::heap`), given back once here.
            unsafe {
                let text = std::ptr::slice_from_raw_parts_mut(self.tail.ptr.as_ptr(), n) as *mut str;
                drop(Box::from_raw(text));
            }
        }
    }
}

#[inline(never)]
fn copy_to_arena(s: &str, arena: &mut ArenaBuilder) -> NonNull<u8> {
    arena.alloc_str(s)
}

impl Default for Str {
    fn default() -> Str {
        Str { tag: Tag::L0, head: [0; 7], tail: Tail { text: [0; 8] } }
    }
}

impl Clone for Str {
    /// An arena string is copied out into an owned one.
    fn clone(&self) -> Str {
        if self.is_inline() {
            // SAFETY: an inline string owns nothing: a bitwise copy is a
            // second string of the same text.
            unsafe { std::ptr::read(self) }
        } else {
            Str::heap(self.as_str().into())
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
        Str::inline(&s).unwrap_or_else(|| Str::heap(s.into_boxed_str()))
    }
}

impl From<Box<str>> for Str {
    fn from(s: Box<str>) -> Str {
        Str::inline(&s).unwrap_or_else(|| Str::heap(s))
    }
}

impl From<char> for Str {
    fn from(c: char) -> Str {
        Str::new(c.encode_utf8(&mut [0; 4]))
    }
}

impl From<Str> for String {
    fn from(s: Str) -> String {
        if s.tag != Tag::Heap {
            return s.as_str().to_owned();
        }
        let s = std::mem::ManuallyDrop::new(s);
        let text = std::ptr::slice_from_raw_parts_mut(
            // SAFETY: a heap string's tail is its pointer.
            unsafe { s.tail.ptr.as_ptr() },
            s.byte_len(),
        ) as *mut str;
        // SAFETY: the `Box<str>` this heap string owns (`Str::heap`); the
        // `Str` is not dropped (`ManuallyDrop`), so it is given back once.
        unsafe { Box::from_raw(text) }.into_string()
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
