//! A small cache of object keys, shared by all `loads` calls.
//!
//! Documents repeat the same few keys thousands of times; creating each
//! `str` once and handing out new references to it saves the allocation,
//! the copy and, above all, the hash: the cached `str` carries its hash, so
//! dict insertion never rehashes it; and each key is one object wherever it
//! appears, as with `json.loads`. The cache is two-way set-associative
//! (a key's entry sits in one of the two slots of its set; a new one
//! replaces the less recently used of the two) and holds only
//! ASCII keys of at most `MAX_LEN` bytes, so a hit is confirmed by the
//! length and first and last eight bytes kept in the slot (plus the
//! cached string's own bytes for keys longer than 16).
//!
//! A second, smaller table does the same for short ASCII string values
//! (languages, types, states, flags repeat as much as keys do); their
//! hashes are not computed, since values are rarely hashed.
//!
//! Thread safety: one caller at a time holds the cache (`KeyCache::acquire`,
//! a flag read and set under the GIL: the extension refuses to build for
//! free-threaded CPython, lib.rs). A call that finds it taken (a nested
//! `loads` from a callback, or another thread that ran while a holder let
//! the GIL go) simply creates its strings without the cache.

use std::cell::UnsafeCell;
use std::sync::atomic::{AtomicBool, Ordering};

use pyo3::ffi;

use super::strings;

/// 2048 sets of two: timelines and catalogs have a few hundred distinct
/// keys, which then rarely put three in one set.
const SLOTS: usize = 4096;
/// Longer keys are rarely repeated, and comparing them costs more.
pub(crate) const MAX_LEN: usize = 64;
const VALUE_SLOTS: usize = 512;
/// Values up to 16 bytes are decided by their length and end words alone.
pub(crate) const MAX_VALUE_LEN: usize = 16;

/// A cached key: its length and its first and last eight bytes (which
/// decide equality without touching the str for keys up to 16 bytes), and
/// a strong reference to the compact ASCII `str` (null when empty).
#[derive(Clone, Copy)]
struct Slot {
    len: usize,
    first: u64,
    last: u64,
    obj: *mut ffi::PyObject,
}

const EMPTY: Slot = Slot { len: 0, first: 0, last: 0, obj: std::ptr::null_mut() };

struct Shared {
    busy: AtomicBool,
    slots: UnsafeCell<[Slot; SLOTS]>,
    values: UnsafeCell<[Slot; VALUE_SLOTS]>,
}

// SAFETY: `slots` and `values` are only touched through a `KeyCache`, and at
// most one `KeyCache` exists at a time: `busy` is read and set by `acquire`
// with the GIL held (its `Python` token) and nothing in between can let
// another thread run, so no two threads both see it clear; the GIL's own
// handoff orders the accesses of successive holders. (An atomic only so the
// static is `Sync`: relaxed loads and stores, plain moves, where a swap was
// a locked instruction on every `loads` call.)
unsafe impl Sync for Shared {}

static SHARED: Shared =
    Shared { busy: AtomicBool::new(false), slots: UnsafeCell::new([EMPTY; SLOTS]), values: UnsafeCell::new([EMPTY; VALUE_SLOTS]) };

/// Exclusive use of the shared cache for one `loads` call.
pub(crate) struct KeyCache {
    slots: *mut [Slot; SLOTS],
    values: *mut [Slot; VALUE_SLOTS],
}

impl KeyCache {
    /// The cache, unless another call is using it. The GIL is held (`_py`).
    pub(crate) fn acquire(_py: pyo3::Python<'_>) -> Option<KeyCache> {
        if SHARED.busy.load(Ordering::Relaxed) {
            return None;
        }
        SHARED.busy.store(true, Ordering::Relaxed);
        Some(KeyCache { slots: SHARED.slots.get(), values: SHARED.values.get() })
    }

    /// A new reference to the `str` for the ASCII key `k` (at most
    /// `MAX_LEN` bytes), or null with a Python exception set.
    #[inline(always)]
    pub(crate) fn get(&mut self, k: &[u8]) -> *mut ffi::PyObject {
        debug_assert!(k.len() <= MAX_LEN && k.is_ascii());
        // SAFETY: this `KeyCache` is the only one (see `acquire`), so the
        // table is ours.
        unsafe { lookup(&mut *self.slots, k, true) }
    }

    /// A new reference to a `str` holding the ASCII string value `s` (at
    /// most `MAX_VALUE_LEN` bytes), or null with a Python exception set.
    /// Short values repeat a lot (languages, types, states, flags): equal
    /// strs are immutable, so one object serves every occurrence.
    #[inline(always)]
    pub(crate) fn get_value(&mut self, s: &[u8]) -> *mut ffi::PyObject {
        debug_assert!(s.len() <= MAX_VALUE_LEN && s.is_ascii());
        // SAFETY: as in `get`.
        unsafe { lookup(&mut *self.values, s, false) }
    }
}

/// The cached str for `k` in `table`, created (and, for keys, hashed) on a
/// miss, replacing the less recently used entry of its set.
///
/// # Safety
/// The caller has exclusive use of `table` (a `KeyCache`), and `k` is ASCII.
#[inline(always)]
unsafe fn lookup<const N: usize>(table: &mut [Slot; N], k: &[u8], hash: bool) -> *mut ffi::PyObject {
    let (first, last) = ends(k);
    let index = slot_index::<N>(k.len(), first, last);
    // The key's set is the pair of slots `way..way + 2`, the more recently
    // used entry first. Nothing below calls code that could re-enter
    // `loads` while the table is borrowed: creating and hashing an ASCII str
    // and freeing one run no Python code and trigger no garbage collection.
    let way = index & !1;
    // (`holds`: every slot's `obj`, when not null, is the live compact
    // ASCII str of `slot.len` characters it holds a reference to.)
    if holds(&table[way], k, first, last) {
        let obj = table[way].obj;
        ffi::Py_INCREF(obj);
        return obj;
    }
    if holds(&table[way + 1], k, first, last) {
        table.swap(way, way + 1);
        let obj = table[way].obj;
        ffi::Py_INCREF(obj);
        return obj;
    }
    let obj = strings::new_ascii(k);
    if obj.is_null() {
        return obj;
    }
    if hash {
        // Computes and stores the str's hash (it cannot fail for str).
        ffi::PyObject_Hash(obj);
    }
    ffi::Py_INCREF(obj);
    // The less recently used entry goes. Two keys of one set that come in
    // turn (`protected` and `profile_sidebar_fill_color` in every user of a
    // timeline) both stay: each key is then one str object wherever it
    // appears, which `dumps`'s cached shapes and memory depend on.
    let demoted = std::mem::replace(&mut table[way], Slot { len: k.len(), first, last, obj });
    let old = std::mem::replace(&mut table[way + 1], demoted);
    if !old.obj.is_null() {
        ffi::Py_DECREF(old.obj);
    }
    obj
}

impl Drop for KeyCache {
    fn drop(&mut self) {
        // Dropped with the GIL held: a `KeyCache` lives inside one call.
        SHARED.busy.store(false, Ordering::Relaxed);
    }
}

/// Whether `slot` holds the key `k` (whose ends are `first` and `last`).
/// Inlined into `lookup` (as a closure it was a call per probed slot, its
/// captures spilled to the stack).
///
/// # Safety
/// `slot.obj`, when not null, is a live compact ASCII str of `slot.len`
/// characters.
#[inline(always)]
unsafe fn holds(slot: &Slot, k: &[u8], first: u64, last: u64) -> bool {
    slot.len == k.len()
        && slot.first == first
        && slot.last == last
        && !slot.obj.is_null()
        // SAFETY: the caller's contract; same length.
        && (k.len() <= 16 || unsafe { same(slot.obj, k) })
}

/// Whether the cached compact ASCII str `obj` spells `k` (same length).
///
/// # Safety
/// `obj` is a live compact ASCII str of `k.len()` characters.
#[inline(always)]
unsafe fn same(obj: *mut ffi::PyObject, k: &[u8]) -> bool {
    let data = (obj as *mut ffi::PyASCIIObject).add(1) as *const u8;
    std::slice::from_raw_parts(data, k.len()) == k
}

/// The first and last eight bytes of `k` (overlapping when shorter than 16,
/// zero-padded when shorter than 8): with the length they determine any
/// key of up to 16 bytes.
#[inline(always)]
fn ends(k: &[u8]) -> (u64, u64) {
    let n = k.len();
    if n >= 8 {
        (word(k, 0), word(k, n - 8))
    } else if n >= 4 {
        (u64::from(half(k, 0)), u64::from(half(k, n - 4)))
    } else {
        // 0 to 3 bytes, without a call to memcpy.
        let mut w = 0u64;
        for (i, &c) in k.iter().enumerate() {
            w |= u64::from(c) << (8 * i);
        }
        (w, 0)
    }
}

/// One multiply over the ends and the length, the top bits taken: short
/// on the critical path of every key, and spread enough for real key sets
/// (a collision only costs a replaced entry).
#[inline(always)]
fn slot_index<const N: usize>(n: usize, first: u64, last: u64) -> usize {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let h = (first ^ last.rotate_left(29) ^ (n as u64).rotate_left(58)).wrapping_mul(K);
    (h >> (64 - N.trailing_zeros())) as usize
}

#[inline(always)]
fn word(k: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(k[at..at + 8].try_into().expect("8 bytes"))
}

#[inline(always)]
fn half(k: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(k[at..at + 4].try_into().expect("4 bytes"))
}
