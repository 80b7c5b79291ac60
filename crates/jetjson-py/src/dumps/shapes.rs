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
    /// The encoded names in sorted order, back to back.
    names: Vec<u8>,
    /// Where each name of `names` ends.
    ends: Vec<u32>,
}

impl Shape {
    /// A shape for `keys` (live str objects, GIL held), taking a reference
    /// to each; names are added in sorted order with `push_name`.
    ///
    /// # Safety
    /// Every pointer in `keys` is a live object; GIL held.
    pub unsafe fn new(tag: Tag, keys: &[*mut PyObject], order: &[u32]) -> Shape {
        for &k in keys {
            // SAFETY: `k` is live (caller); the reference is dropped in `Drop`.
            unsafe { ffi::Py_INCREF(k) };
        }
        Shape { tag, keys: keys.to_vec(), order: order.to_vec(), names: Vec::new(), ends: Vec::with_capacity(order.len()) }
    }

    /// The buffer the next name (in sorted order) is appended to; call
    /// `name_done` after appending it.
    pub fn names_mut(&mut self) -> &mut Vec<u8> {
        &mut self.names
    }

    pub fn name_done(&mut self) {
        self.ends.push(self.names.len() as u32);
    }

    /// The key object at member index `i`.
    #[inline(always)]
    pub fn key(&self, i: usize) -> *mut PyObject {
        self.keys[i]
    }

    /// The encoded name of the `pos`-th member in sorted order.
    #[inline(always)]
    pub fn name(&self, pos: usize) -> &[u8] {
        let start = if pos == 0 { 0 } else { self.ends[pos - 1] as usize };
        &self.names[start..self.ends[pos] as usize]
    }

    pub fn len(&self) -> usize {
        self.keys.len()
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
}

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
        let h = Self::hash(tag, n, key_at);
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

    /// The shape for exactly the `n` key objects `key_at(0..n)`, if cached.
    #[inline(always)]
    pub fn find(&self, tag: Tag, n: usize, key_at: impl Fn(usize) -> *mut PyObject + Copy) -> Option<&Rc<Shape>> {
        if n > MAX_KEYS || self.slots.is_empty() {
            return None;
        }
        let (a, b) = Self::slots_of(tag, n, key_at);
        let matches = |s: &Rc<Shape>| s.tag == tag && s.keys.len() == n && (0..n).all(|i| s.keys[i] == key_at(i));
        [a, b].into_iter().find_map(|i| self.slots[i].as_ref().filter(|s| matches(s)))
    }

    /// Keeps `shape` in a free one of its two slots, or else in place of
    /// one of the two shapes there (alternating), so two shapes that hash
    /// alike do not evict each other on every dict.
    pub fn put(&mut self, shape: Shape) {
        if shape.keys.len() > MAX_KEYS {
            return;
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
            if self.evictions % 2 == 0 {
                a
            } else {
                b
            }
        };
        let large = |s: &Shape| if s.keys.len() > MAX_SMALL_KEYS { s.keys.len() } else { 0 };
        self.large_held += large(&shape);
        if let Some(old) = self.slots[at].replace(Rc::new(shape)) {
            self.large_held -= large(&old);
        }
    }
}
