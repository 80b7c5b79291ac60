//! Sorted key orders of recently seen dict shapes, for one `dumps` call.
//!
//! Documents repeat shapes: every status of a timeline, every row of a
//! table, has the same keys in the same order, and `json.loads` even shares
//! the key objects between them. When a dict's keys are the very same str
//! objects, in the same order, as a dict sorted before, its sorted order is
//! the same, and sorting is replaced by a comparison of pointers.
//!
//! Entries hold references to their key objects, so an address in the cache
//! always means the same string (it cannot be freed and reused while cached).
//! The cache outlives the call (walk.rs keeps it between calls, under the
//! GIL): a service writing the same shapes again and again (keys that are
//! constants in its source are the same objects every time) sorts each shape
//! once. Each entry records the key order it was sorted in.

use jetjson::KeyOrder;
use pyo3::ffi::{self, PyObject};

/// Direct-mapped slots; small, since the shapes of one document are few.
const SLOTS: usize = 32;
/// Dicts with more keys than this are sorted each time (and not kept).
const MAX_KEYS: usize = 64;

struct Shape {
    by: KeyOrder,
    keys: Vec<*mut PyObject>,
    order: Vec<u32>,
}

#[derive(Default)]
pub struct Shapes {
    slots: Vec<Option<Shape>>,
}

impl Shapes {
    fn slot(keys: &[*mut PyObject]) -> usize {
        let mut h = keys.len() as u64;
        for &k in keys {
            h = (h ^ (k as u64 >> 4)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
        (h >> 32) as usize % SLOTS
    }

    /// The cached order (in `by`) for exactly these key objects, if any.
    pub fn get(&self, keys: &[*mut PyObject], by: KeyOrder) -> Option<&[u32]> {
        if keys.len() > MAX_KEYS || self.slots.is_empty() {
            return None;
        }
        match &self.slots[Self::slot(keys)] {
            Some(s) if s.by == by && s.keys == keys => Some(&s.order),
            _ => None,
        }
    }

    /// Remembers `order` for these key objects (taking a reference to each).
    ///
    /// # Safety
    /// Every pointer in `keys` is a live object; GIL held.
    pub unsafe fn put(&mut self, keys: &[*mut PyObject], by: KeyOrder, order: &[u32]) {
        if keys.len() > MAX_KEYS {
            return;
        }
        if self.slots.is_empty() {
            self.slots.resize_with(SLOTS, || None);
        }
        for &k in keys {
            // SAFETY: `k` is live (caller); the reference is dropped in `release`.
            unsafe { ffi::Py_INCREF(k) };
        }
        let slot = &mut self.slots[Self::slot(keys)];
        match slot {
            // Reuse the slot's vectors: no allocation once the cache is warm.
            Some(old) => {
                release(&old.keys);
                old.by = by;
                old.keys.clear();
                old.keys.extend_from_slice(keys);
                old.order.clear();
                old.order.extend_from_slice(order);
            }
            None => *slot = Some(Shape { by, keys: keys.to_vec(), order: order.to_vec() }),
        }
    }
}

fn release(keys: &[*mut PyObject]) {
    for &k in keys {
        // SAFETY: each cached key holds one reference taken in `put`; the
        // GIL is held for the whole dumps call that owns the cache.
        unsafe { ffi::Py_DECREF(k) };
    }
}

impl Drop for Shapes {
    fn drop(&mut self) {
        for s in self.slots.iter().flatten() {
            release(&s.keys);
        }
    }
}
