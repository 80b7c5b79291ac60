//! Sorted key orders, and encoded names, of recently seen dict shapes.
//!
//! Documents repeat shapes: every status of a timeline, every row of a
//! table, has the same keys in the same order, and `json.loads` even shares
//! the key objects between them. When a dict's keys are the very same str
//! objects, in the same order, as a dict sorted before, its sorted order is
//! the same, and sorting is replaced by a comparison of pointers. The shape
//! also keeps each name quoted and escaped as the writer's style writes it,
//! so a member of a cached shape costs one copy for its name.
//!
//! Shapes hold references to their key objects, so an address in the cache
//! always means the same string (it cannot be freed and reused while cached).
//! The cache outlives the call (walk.rs keeps it between calls, under the
//! GIL): a service writing the same shapes again and again (keys that are
//! constants in its source are the same objects every time) sorts each shape
//! once. Each shape records the key order and escape set it was made for.
//!
//! Dicts written in insertion order use the cache too, for the encoded
//! names alone (their order is the table's): a shape is kept for such keys
//! the second time they are seen, so a document of one-off dicts pays for
//! no shapes it never reuses.
//!
//! Shapes are shared (`Rc`) so that a dict being written keeps its shape
//! alive even if a nested dict's shape takes over its slot meanwhile.

use std::rc::Rc;

use jetjson::escape::EscapeSet;
use jetjson::KeyOrder;
use pyo3::ffi::{self, PyObject};

/// Slots; each shape may sit in one of two. A document has tens of shapes
/// per profile, and a program may use several profiles.
const SLOTS: usize = 256;
/// Dicts with up to this many keys are kept the first time they are sorted.
const MAX_SMALL_KEYS: usize = 64;
/// Larger dicts, up to this many keys, are kept only when the same keys
/// come again (a big map written again and again): a one-off big dict
/// would pay for references and encoded names it never uses.
const MAX_KEYS: usize = 1 << 16;
/// Keys held by kept large shapes, at most: bounds the cache's memory.
const LARGE_BUDGET: usize = 1 << 16;
/// Bytes of encoded names a kept shape may have, at most: with `SLOTS`, it
/// bounds what the cache keeps alive after a call (its keys and their
/// encoded copies), whatever the size of the keys written.
pub const MAX_NAME_BYTES: usize = 16 << 10;

/// What a shape's order and names depend on besides the keys.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Tag {
    pub by: KeyOrder,
    pub set: EscapeSet,
}

pub struct Shape {
    tag: Tag,
    /// The key objects in the dict's order, each holding a reference.
    keys: Vec<*mut PyObject>,
    /// Member indexes (into `keys`) in sorted order.
    pub order: Vec<u32>,
    /// The encoded names (`,"name":`, as `Writer::encode_name` writes them)
    /// in sorted order, back to back, then `NAME_WINDOW` spare bytes so that
    /// every short name is written with one fixed-size move.
    names: Vec<u8>,
    /// Where each name of `names` starts, and where the last one ends
    /// (`usize`: names of huge keys may pass 4 GiB together).
    starts: Vec<usize>,
}

impl Shape {
    /// A shape for `keys` (live str objects, GIL held) in `order`, taking a
    /// reference to each, with the name of each member in `order` (given by
    /// `name_of`) encoded as `w` writes it. `None` when a name has no text
    /// or the names are longer than `max_text` bytes together (the cache
    /// passes `MAX_NAME_BYTES`).
    ///
    /// # Safety
    /// Every pointer in `keys` is a live object; GIL held.
    pub unsafe fn new<'k, S: jetjson::Sink>(
        tag: Tag,
        keys: &[*mut PyObject],
        order: &[u32],
        w: &jetjson::Writer<S>,
        max_text: usize,
        mut name_of: impl FnMut(u32) -> Option<&'k str>,
    ) -> Option<Shape> {
        for &k in keys {
            // SAFETY: `k` is live (caller); the reference is dropped in `Drop`.
            unsafe { ffi::Py_INCREF(k) };
        }
        let mut starts = Vec::with_capacity(order.len() + 1);
        starts.push(0);
        let mut shape = Shape { tag, keys: keys.to_vec(), order: order.to_vec(), names: Vec::new(), starts };
        let mut text = 0usize;
        for &i in order {
            let name = name_of(i)?;
            text = text.saturating_add(name.len());
            if text > max_text {
                return None;
            }
            w.encode_name(name, &mut shape.names);
            shape.starts.push(shape.names.len());
        }
        // The spare bytes `Writer::encoded_key` reads past the last name.
        shape.names.resize(shape.names.len() + jetjson::NAME_WINDOW, 0);
        Some(shape)
    }

    /// The key object at member index `i`.
    #[inline(always)]
    pub fn key(&self, i: usize) -> *mut PyObject {
        self.keys[i]
    }

    /// All encoded names, and where the `pos`-th (in sorted order) starts
    /// and how long it is, as `Writer::encoded_key` takes them.
    #[inline(always)]
    pub fn name(&self, pos: usize) -> (&[u8], usize, usize) {
        let (start, end) = (self.starts[pos], self.starts[pos + 1]);
        (&self.names, start, end - start)
    }

    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// The member index (into the dict's table) of position `pos` in this
    /// shape's order, without a bounds check: the hot loops of a dict's
    /// members call this and `name_at` for every member, and the checks
    /// were a tenth of their instructions.
    ///
    /// # Safety
    /// `pos < self.len()`.
    #[inline(always)]
    pub unsafe fn index_at(&self, pos: usize) -> usize {
        debug_assert!(pos < self.order.len());
        // SAFETY: `order` has one entry per key (caller: `pos < len`).
        unsafe { *self.order.get_unchecked(pos) as usize }
    }

    /// `name(pos)` without bounds checks.
    ///
    /// # Safety
    /// `pos < self.len()`.
    #[inline(always)]
    pub unsafe fn name_at(&self, pos: usize) -> (&[u8], usize, usize) {
        debug_assert!(pos + 1 < self.starts.len());
        // SAFETY: `starts` has one entry per key and one more (caller:
        // `pos < len`).
        let (start, end) = unsafe { (*self.starts.get_unchecked(pos), *self.starts.get_unchecked(pos + 1)) };
        (&self.names, start, end - start)
    }

    /// What the order and names were made for.
    pub fn tag(&self) -> Tag {
        self.tag
    }
}

impl Drop for Shape {
    fn drop(&mut self) {
        for &k in &self.keys {
            // SAFETY: each key holds one reference taken in `new`; shapes
            // live in the walker's scratch, only touched with the GIL held.
            unsafe { ffi::Py_DECREF(k) };
        }
    }
}

#[derive(Default)]
pub struct Shapes {
    slots: Vec<Option<Rc<Shape>>>,
    evictions: usize,
    /// Hashes of the last large key sets seen but not kept.
    large_seen: [u64; 4],
    large_next: usize,
    /// Keys held by the large shapes kept.
    large_held: usize,
    /// Hashes of insertion-order key sets seen once but not kept, by hash.
    insertion_seen: Vec<u64>,
}

/// Entries of the filter of insertion-order key sets seen once.
const INSERTION_SEEN: usize = 128;

impl Shapes {
    /// The hash of `n` keys given by `key_at`, for `tag`: the count and at
    /// most eight keys spread over the dict (each step of the hash waits for
    /// the one before, so hashing every key of a 40-key dict would cost more
    /// than comparing them all, which `find` does anyway).
    #[inline(always)]
    fn hash(tag: Tag, n: usize, key_at: impl Fn(usize) -> *mut PyObject) -> u64 {
        let mut h = (n as u64) ^ ((tag.by as u64) << 8) ^ (u64::from(tag.set.html) << 16) ^ (u64::from(tag.set.ascii_only) << 17);
        let step = n.div_ceil(8).max(1);
        let mut i = 0;
        while i < n {
            h = (h ^ (key_at(i) as u64 >> 4)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            i += step;
        }
        h
    }

    /// The two slots `n` keys given by `key_at` may sit in, for `tag`.
    #[inline(always)]
    fn slots_of(tag: Tag, n: usize, key_at: impl Fn(usize) -> *mut PyObject) -> (usize, usize) {
        Self::slots_at(Self::hash(tag, n, key_at))
    }

    #[inline(always)]
    fn slots_at(h: u64) -> (usize, usize) {
        ((h >> 32) as usize % SLOTS, (h >> 48) as usize % SLOTS)
    }

    /// Whether a shape of these keys is worth keeping: always for small
    /// dicts, for large ones only the second time their keys are seen.
    pub fn wants(&mut self, tag: Tag, keys: &[*mut PyObject]) -> bool {
        if keys.len() <= MAX_SMALL_KEYS {
            return true;
        }
        if keys.len() > MAX_KEYS || self.large_held + keys.len() > LARGE_BUDGET {
            return false;
        }
        let h = Self::hash(tag, keys.len(), |i| keys[i]);
        if self.large_seen.contains(&h) {
            return true;
        }
        self.large_seen[self.large_next % self.large_seen.len()] = h;
        self.large_next += 1;
        false
    }

    /// For keys written in insertion order: their shape if cached, else
    /// `Err(true)` when the same keys were seen once before (keep a shape
    /// now) or `Err(false)` (remembered; a shape is kept if they come again).
    #[inline(always)]
    pub fn find_or_note(&mut self, tag: Tag, n: usize, key_at: impl Fn(usize) -> *mut PyObject + Copy) -> Result<&Rc<Shape>, bool> {
        if n > MAX_KEYS {
            return Err(false);
        }
        let h = Self::hash(tag, n, key_at);
        if let Some(i) = self.find_hashed(h, tag, n, key_at) {
            return Ok(self.slots[i].as_ref().expect("found in a full slot"));
        }
        if n > MAX_SMALL_KEYS && self.large_held + n > LARGE_BUDGET {
            return Err(false);
        }
        if self.insertion_seen.is_empty() {
            self.insertion_seen.resize(INSERTION_SEEN, 0);
        }
        let seen = &mut self.insertion_seen[(h >> 20) as usize % INSERTION_SEEN];
        let again = *seen == h;
        *seen = h;
        Err(again)
    }

    /// The shape for exactly the `n` key objects `key_at(0..n)`, if cached.
    #[inline(always)]
    pub fn find(&self, tag: Tag, n: usize, key_at: impl Fn(usize) -> *mut PyObject + Copy) -> Option<&Rc<Shape>> {
        if n > MAX_KEYS || self.slots.is_empty() {
            return None;
        }
        let i = self.find_hashed(Self::hash(tag, n, key_at), tag, n, key_at)?;
        self.slots[i].as_ref()
    }

    /// The slot holding the shape of these keys, whose hash is `h`.
    #[inline(always)]
    fn find_hashed(&self, h: u64, tag: Tag, n: usize, key_at: impl Fn(usize) -> *mut PyObject + Copy) -> Option<usize> {
        if self.slots.is_empty() {
            return None;
        }
        let (a, b) = Self::slots_at(h);
        // A plain loop: the `(0..n).all(..)` it replaces was outlined by
        // LLVM into a `try_fold` that every cached dict, compact ones
        // included, called (+0.37M instructions per call on gsoc-2018
        // compact) once `dict_in` changed around it.
        for i in [a, b] {
            if let Some(s) = self.slots[i].as_ref() {
                if s.tag == tag && s.keys.len() == n {
                    let mut j = 0;
                    while j < n && s.keys[j] == key_at(j) {
                        j += 1;
                    }
                    if j == n {
                        return Some(i);
                    }
                }
            }
        }
        None
    }

    /// Keeps `shape` in a free one of its two slots, or else in place of
    /// one of the two shapes there (alternating), so two shapes that hash
    /// alike do not evict each other on every dict. Returns the kept shape.
    pub fn put(&mut self, shape: Shape) -> Option<Rc<Shape>> {
        if shape.keys.len() > MAX_KEYS {
            return None;
        }
        if self.slots.is_empty() {
            self.slots.resize_with(SLOTS, || None);
        }
        let keys = &shape.keys;
        let (a, b) = Self::slots_of(shape.tag, keys.len(), |i| keys[i]);
        let at = if self.slots[a].is_none() {
            a
        } else if self.slots[b].is_none() {
            b
        } else {
            self.evictions += 1;
            if self.evictions.is_multiple_of(2) {
                a
            } else {
                b
            }
        };
        let large = |s: &Shape| if s.keys.len() > MAX_SMALL_KEYS { s.keys.len() } else { 0 };
        self.large_held += large(&shape);
        let shape = Rc::new(shape);
        if let Some(old) = self.slots[at].replace(Rc::clone(&shape)) {
            self.large_held -= large(&old);
        }
        Some(shape)
    }
}
