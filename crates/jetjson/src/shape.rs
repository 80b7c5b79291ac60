//! Remembering the sorted order of object shapes.
//!
//! Documents repeat shapes: every `user` of a timeline, every descriptor of
//! an OCI index, every record of an export has the same keys in the same
//! order. Sorting them again for each object is most of the cost of a sorted
//! profile, so the writer remembers recent shapes and their sorted order.
//!
//! A shape is the list of 16-byte key prefixes (`keys::sort_prefix`) in
//! member order. A remembered order is only a proposal: it is checked with
//! one comparison per adjacent pair (prefixes first, full keys only where
//! prefixes tie) and used only if it is sorted, so the output never depends
//! on the cache; a failed check falls back to sorting.

use std::cmp::Ordering;

const SLOTS: usize = 64;
/// Objects larger than this are sorted every time (rare, and the cache
/// would hold too much).
const MAX_MEMBERS: usize = 256;

#[derive(Default)]
pub(crate) struct ShapeCache {
    slots: Vec<Shape>,
}

#[derive(Default)]
struct Shape {
    prefixes: Vec<u128>,
    order: Vec<u32>,
}

impl ShapeCache {
    /// Sorts `(prefix, member index)` pairs by prefix, then by the full key
    /// (`full`), then by index: from the cache when this shape was seen.
    pub(crate) fn sort(&mut self, pairs: &mut [(u128, u32)], full: impl Fn(u32, u32) -> Ordering) {
        let n = pairs.len();
        if n < 2 {
            return;
        }
        if n > MAX_MEMBERS {
            sort_pairs(pairs, &full);
            return;
        }
        if self.slots.is_empty() {
            self.slots.resize_with(SLOTS, Shape::default);
        }
        let mut h = n as u64;
        for &(p, _) in pairs.iter() {
            h = (h ^ (p as u64) ^ ((p >> 64) as u64)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
        let slot = &mut self.slots[(h >> 58) as usize % SLOTS];
        if slot.prefixes.len() == n && slot.prefixes.iter().zip(pairs.iter()).all(|(a, b)| *a == b.0) {
            for (pair, &i) in pairs.iter_mut().zip(&slot.order) {
                *pair = (slot.prefixes[i as usize], i);
            }
            if pairs.windows(2).all(|w| in_order(w[0], w[1], &full)) {
                return;
            }
            // Same prefixes, different keys beyond them: start over.
            for (k, pair) in pairs.iter_mut().enumerate() {
                *pair = (slot.prefixes[k], k as u32);
            }
        }
        slot.prefixes.clear();
        slot.prefixes.extend(pairs.iter().map(|p| p.0));
        sort_pairs(pairs, &full);
        slot.order.clear();
        slot.order.extend(pairs.iter().map(|p| p.1));
    }
}

/// The order `sort_pairs` produces, for one adjacent pair.
#[inline]
fn in_order(a: (u128, u32), b: (u128, u32), full: &impl Fn(u32, u32) -> Ordering) -> bool {
    a.0 < b.0 || (a.0 == b.0 && full(a.1, b.1).then(a.1.cmp(&b.1)) == Ordering::Less)
}

fn sort_pairs(pairs: &mut [(u128, u32)], full: &impl Fn(u32, u32) -> Ordering) {
    pairs.sort_unstable_by(|a, b| a.0.cmp(&b.0).then_with(|| full(a.1, b.1)).then(a.1.cmp(&b.1)));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(prefixes: &[u128]) -> Vec<(u128, u32)> {
        prefixes.iter().enumerate().map(|(i, &p)| (p, i as u32)).collect()
    }

    #[test]
    fn cached_order_equals_a_fresh_sort() {
        let mut cache = ShapeCache::default();
        let shape = [5u128, 3, 9, 1, 7];
        for _ in 0..3 {
            let mut p = pairs(&shape);
            cache.sort(&mut p, |_, _| Ordering::Equal);
            assert_eq!(p.iter().map(|x| x.1).collect::<Vec<_>>(), vec![3, 1, 0, 4, 2]);
            assert_eq!(p.iter().map(|x| x.0).collect::<Vec<_>>(), vec![1, 3, 5, 7, 9]);
        }
    }

    #[test]
    fn ties_on_a_prefix_use_the_full_keys_every_time() {
        let mut cache = ShapeCache::default();
        // Members 0 and 1 share a prefix; the full comparison decides, and
        // may decide differently for two objects with the same prefixes.
        for flip in [false, true, false] {
            let mut p = pairs(&[4, 4, 2]);
            cache.sort(&mut p, |a, b| if flip { b.cmp(&a) } else { a.cmp(&b) });
            let want = if flip { vec![2, 1, 0] } else { vec![2, 0, 1] };
            assert_eq!(p.iter().map(|x| x.1).collect::<Vec<_>>(), want);
        }
    }
}
