//! Remembering the sorted order of object shapes.
//!
//! Documents repeat shapes: every `user` of a timeline, every descriptor of
//! an OCI index, every record of an export has the same keys in the same
//! order. Sorting them again for each object is most of the cost of a sorted
//! profile, so the writer remembers recent shapes and their sorted order.
//!
//! A shape is the list of 16-byte key prefixes (`keys::sort_prefix`) in
//! member order. Prefixes decide the order wherever they differ (the full
//! keys only break ties between equal prefixes, the member index only ties
//! between equal keys), so for an object with the same prefixes in the same
//! member order the remembered order is right everywhere except between
//! neighbours with equal prefixes: those pairs (remembered with the shape)
//! are checked with the full keys, and a failed check falls back to
//! sorting. The output never depends on the cache.

use std::cell::Cell;
use std::cmp::Ordering;

/// Cache slots, indexed by the top bits of the shape's hash. 64 slots
/// left a third of github_events' unsorted objects (48 of 150, its 24
/// shapes colliding) to be sorted again on every write; 256 leave 2.
const SLOTS: usize = 256;
const SLOT_BITS: u32 = SLOTS.trailing_zeros();
/// Objects larger than this do not go in the slots (rare, and the slots
/// would hold too much).
const MAX_MEMBERS: usize = 256;
/// One larger shape, of up to this many members, is remembered apart from
/// the slots (and kept in the pool, at most about 80 KiB): a document with
/// one large top object, written again and again (gsoc-2018's 1,264
/// members, radix-sorted on every write before), then only compares its
/// prefixes. Larger objects are sorted every time.
const MAX_LARGE: usize = 4096;
/// Objects up to this size are sorted by insertion (fewer comparisons and
/// no set-up for the few members objects usually have).
const INSERTION_SORT: usize = 16;

#[derive(Default)]
pub(crate) struct ShapeCache {
    slots: Vec<Shape>,
    /// The last shape of more than `MAX_MEMBERS` members (up to `MAX_LARGE`).
    large: Shape,
    /// (prefix, member index) pairs of an object sorted by insertion too
    /// large: sorted in place, without an indirection per comparison.
    pairs: Vec<(u128, u32)>,
    /// Some slot holds a shape of more than `POOLED_SHAPE` members.
    holds_large: bool,
    /// The writer zeroes buffers: nothing is remembered (the slots would
    /// keep names' prefixes), and `pairs` is grown and freed zeroed.
    zero: bool,
}

#[derive(Default)]
struct Shape {
    prefixes: Vec<u128>,
    order: Vec<u32>,
    /// The positions `j` of `order` whose member's prefix equals the next
    /// one's: only there may another object of this shape need another order.
    ties: Vec<u32>,
}

/// A hash of an object's prefixes, fed one prefix at a time while they are
/// computed (`ShapeCache::sort_into` takes the result).
#[derive(Clone, Copy, Default)]
pub(crate) struct ShapeHash(u64);

impl ShapeHash {
    #[inline(always)]
    pub(crate) fn new() -> ShapeHash {
        ShapeHash(0)
    }

    #[inline(always)]
    pub(crate) fn add(self, p: u128) -> ShapeHash {
        ShapeHash((self.0 ^ (p as u64) ^ ((p >> 64) as u64)).wrapping_mul(0x9E37_79B9_7F4A_7C15))
    }
}

impl ShapeCache {
    /// Appends to `order` the member indices of an object whose keys have
    /// the sort prefixes `prefixes` (in member order, hashed into `hash`),
    /// sorted by prefix, then by full key (`full`), then by index: from the
    /// cache when this shape was seen.
    pub(crate) fn sort_into(&mut self, prefixes: &[u128], hash: ShapeHash, order: &mut Vec<u32>, full: impl Fn(u32, u32) -> Ordering) {
        let n = prefixes.len();
        if !(2..=MAX_LARGE).contains(&n) || self.zero {
            sort_fresh(prefixes, order, &full, &mut self.pairs, self.zero);
            return;
        }
        if n > MAX_MEMBERS {
            self.large.sort_into(prefixes, order, &full, &mut self.pairs);
            return;
        }
        if self.slots.is_empty() {
            self.slots.resize_with(SLOTS, Shape::default);
        }
        let h = hash.0 ^ (n as u64).wrapping_mul(0xD6E8_FEB8_6659_FD93);
        let slot = &mut self.slots[(h >> (64 - SLOT_BITS)) as usize];
        slot.sort_into(prefixes, order, &full, &mut self.pairs);
        self.holds_large |= slot.prefixes.capacity() > POOLED_SHAPE;
    }
}

impl Shape {
    /// `ShapeCache::sort_into` with this slot: its order when it holds
    /// these prefixes (and the ties check out), otherwise a fresh sort,
    /// which the slot then holds.
    fn sort_into(&mut self, prefixes: &[u128], order: &mut Vec<u32>, full: &impl Fn(u32, u32) -> Ordering, pairs: &mut Vec<(u128, u32)>) {
        let n = prefixes.len();
        let start = order.len();
        let slot = self;
        if same_prefixes(&slot.prefixes, prefixes) {
            order.extend_from_slice(&slot.order);
            let proposed = &order[start..];
            if slot.ties.iter().all(|&j| in_order(prefixes, proposed[j as usize], proposed[j as usize + 1], full)) {
                return;
            }
            // Same prefixes, different keys beyond them: start over.
            order.truncate(start);
        }
        sort_fresh(prefixes, order, full, pairs, false);
        let sorted = &order[start..];
        slot.prefixes.clear();
        slot.prefixes.extend_from_slice(prefixes);
        slot.order.clear();
        slot.order.extend_from_slice(sorted);
        slot.ties.clear();
        slot.ties.extend((0..n - 1).filter(|&j| prefixes[sorted[j] as usize] == prefixes[sorted[j + 1] as usize]).map(|j| j as u32));
    }
}

/// The working memory of key sorting, stacks shared by all nesting levels
/// (an inner object ends before its parent): the sort prefixes of the
/// members of the objects being sorted, their sorted orders, and the shape
/// cache.
#[derive(Default)]
pub(crate) struct SortMemory {
    pub(crate) prefixes: Vec<u128>,
    /// The hash of the prefixes pushed last (handed from the pass that
    /// computes them to `ShapeCache::sort_into`).
    pub(crate) hash: ShapeHash,
    pub(crate) order: Vec<u32>,
    pub(crate) shapes: ShapeCache,
}

impl SortMemory {
    /// Whether the writer zeroes buffers (see `ShapeCache::zero`): the
    /// prefix stack is then grown with `pool::reserve_wiping`.
    #[inline(always)]
    pub(crate) fn zero(&self) -> bool {
        self.shapes.zero
    }
}

/// Members kept in a pooled `SortMemory`'s stacks: more are freed, not kept.
const POOLED_MEMBERS: usize = 1024;
/// Members of a shape kept in a pooled cache: larger shapes are forgotten.
const POOLED_SHAPE: usize = 64;

thread_local! {
    static POOL: Cell<Option<SortMemory>> = const { Cell::new(None) };
}

/// A writer's `SortMemory`, taken from the thread's pool when its first
/// sorted object starts and given back when the writer is dropped: small
/// documents written one per call then neither allocate it (256 cache slots,
/// the stacks) every time nor forget the shapes of the last document.
/// Writers that zero their buffers keep their own and drop it (the stacks
/// and the cache hold key prefixes).
pub(crate) struct PooledSortMemory {
    memory: Option<SortMemory>,
    pooled: bool,
}

impl PooledSortMemory {
    pub(crate) fn new(pooled: bool) -> PooledSortMemory {
        PooledSortMemory { memory: None, pooled }
    }

    /// Empties the stacks of the objects being sorted (left over by a
    /// document given up part way); the shape cache is kept.
    pub(crate) fn clear_pending(&mut self) {
        if let Some(memory) = &mut self.memory {
            memory.prefixes.clear();
            memory.order.clear();
        }
    }

    /// The memory, made (or taken from the pool) on the first call: in
    /// line it is one test, as the `Value` writer asks for it per member of
    /// a sorted object.
    #[inline(always)]
    pub(crate) fn get(&mut self) -> &mut SortMemory {
        if self.memory.is_none() {
            self.fill();
        }
        self.memory.as_mut().expect("filled just above")
    }

    #[cold]
    #[inline(never)]
    fn fill(&mut self) {
        self.memory = Some(if self.pooled {
            POOL.try_with(Cell::take).ok().flatten().unwrap_or_default()
        } else {
            let mut memory = SortMemory::default();
            memory.shapes.zero = true;
            memory
        });
    }
}

impl Drop for PooledSortMemory {
    fn drop(&mut self) {
        let Some(mut memory) = self.memory.take() else { return };
        if !self.pooled {
            // A writer that zeroes buffers: the prefixes are names' text.
            crate::pool::wipe_plain(&mut memory.prefixes);
            crate::pool::wipe_plain(&mut memory.shapes.pairs);
            return;
        }
        // Stacks grown past the limit are freed; the shapes stay (a large
        // object's writer is the one that gains most from its shapes).
        if memory.prefixes.capacity() > POOLED_MEMBERS {
            memory.prefixes = Vec::new();
        }
        if memory.order.capacity() > POOLED_MEMBERS {
            memory.order = Vec::new();
        }
        memory.prefixes.clear();
        memory.order.clear();
        let shapes = &mut memory.shapes;
        if shapes.large.prefixes.capacity() > MAX_LARGE {
            shapes.large = Shape::default();
        }
        if shapes.pairs.capacity() > POOLED_MEMBERS {
            shapes.pairs = Vec::new();
        }
        if shapes.holds_large {
            for slot in &mut shapes.slots {
                if slot.prefixes.capacity() > POOLED_SHAPE {
                    *slot = Shape::default();
                }
            }
            shapes.holds_large = false;
        }
        let _ = POOL.try_with(|p| p.set(Some(memory)));
    }
}

/// Objects with at least this many members are sorted by radix (no
/// comparison branches: a comparison sort of the 1,264 members of
/// gsoc-2018's top object mispredicts about every other comparison).
const RADIX_FROM: usize = 128;

/// Sorts the (prefix, index) pairs of `pairs` (in index order, each index
/// once) by prefix then index, as `sort_unstable` would, and returns them:
/// an LSD radix sort by bytes, stable (so equal prefixes keep index order),
/// which skips the byte positions where every prefix has the same byte
/// (most of them: short keys are zero-padded, and keys share their first
/// bytes). `pairs` is extended to twice its length for the second copy;
/// the result is one of its halves.
#[inline(never)]
fn radix_sort(pairs: &mut Vec<(u128, u32)>) -> &mut [(u128, u32)] {
    let n = pairs.len();
    let (mut all, mut any) = (!0u128, 0u128);
    for p in pairs.iter() {
        all &= p.0;
        any |= p.0;
    }
    let varying = all ^ any;
    pairs.extend_from_within(..);
    let (mut from, mut to) = pairs.split_at_mut(n);
    for shift in (0..128).step_by(8) {
        if (varying >> shift) as u8 == 0 {
            continue;
        }
        let digit = |p: &(u128, u32)| usize::from((p.0 >> shift) as u8);
        let mut at = [0u32; 256];
        for p in from.iter() {
            at[digit(p)] += 1;
        }
        let mut sum = 0;
        for a in at.iter_mut() {
            (*a, sum) = (sum, sum + *a);
        }
        for p in from.iter() {
            let d = digit(p);
            to[at[d] as usize] = *p;
            at[d] += 1;
        }
        std::mem::swap(&mut from, &mut to);
    }
    from
}

/// `a == b`, in line: most shapes are a few to a few dozen prefixes, for
/// which the slice comparison's `memcmp` call (and its dispatch on the
/// length) cost more than the comparison (2% of gsoc-2018's `go` writes,
/// 4% of twitter's, in `perf`). Two prefixes per step, their differences
/// OR-ed, so a step is one branch.
#[inline(always)]
fn same_prefixes(a: &[u128], b: &[u128]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut pairs_a = a.chunks_exact(2);
    let mut pairs_b = b.chunks_exact(2);
    for (x, y) in (&mut pairs_a).zip(&mut pairs_b) {
        if (x[0] ^ y[0]) | (x[1] ^ y[1]) != 0 {
            return false;
        }
    }
    // Equal lengths: both remainders are empty, or one prefix each.
    pairs_a.remainder().first() == pairs_b.remainder().first()
}

/// The order `sort_fresh` produces, for one adjacent pair.
#[inline]
fn in_order(prefixes: &[u128], a: u32, b: u32, full: &impl Fn(u32, u32) -> Ordering) -> bool {
    let (pa, pb) = (prefixes[a as usize], prefixes[b as usize]);
    pa < pb || (pa == pb && full(a, b).then(a.cmp(&b)) == Ordering::Less)
}

/// Appends the indices of `prefixes`, sorted by prefix, full key, index:
/// by insertion when they are few, otherwise as (prefix, index) pairs in
/// `pairs` (one integer comparison each, no indirection; by radix when
/// they are many), then each run of equal prefixes (rare) again by full
/// key and index.
fn sort_fresh(prefixes: &[u128], order: &mut Vec<u32>, full: &impl Fn(u32, u32) -> Ordering, pairs: &mut Vec<(u128, u32)>, zero: bool) {
    let n = prefixes.len();
    if n > INSERTION_SORT {
        pairs.clear();
        // Room for the radix sort's second copy too (after the first).
        if zero {
            crate::pool::reserve_wiping(pairs, 2 * n);
        }
        pairs.extend(prefixes.iter().enumerate().map(|(i, &p)| (p, i as u32)));
        let sorted = if n >= RADIX_FROM {
            radix_sort(pairs)
        } else {
            pairs.sort_unstable();
            &mut pairs[..]
        };
        let mut run = 0;
        while run < n {
            let end = run + sorted[run..].iter().take_while(|p| p.0 == sorted[run].0).count();
            if end - run > 1 {
                sorted[run..end].sort_unstable_by(|a, b| full(a.1, b.1).then(a.1.cmp(&b.1)));
            }
            run = end;
        }
        order.extend(sorted.iter().map(|p| p.1));
        return;
    }
    let start = order.len();
    order.extend(0..n as u32);
    let idx = &mut order[start..];
    for i in 1..idx.len() {
        let x = idx[i];
        let mut j = i;
        while j > 0 && in_order(prefixes, x, idx[j - 1], full) {
            idx[j] = idx[j - 1];
            j -= 1;
        }
        idx[j] = x;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sorted(cache: &mut ShapeCache, prefixes: &[u128], full: impl Fn(u32, u32) -> Ordering) -> Vec<u32> {
        let hash = prefixes.iter().fold(ShapeHash::new(), |h, &p| h.add(p));
        let mut order = vec![99];
        cache.sort_into(prefixes, hash, &mut order, full);
        assert_eq!(order.remove(0), 99, "what was on the stack stays");
        order
    }

    #[test]
    fn radix_sort_is_the_pairs_sort() {
        // A small xorshift, so the test needs no crate.
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for n in [RADIX_FROM, RADIX_FROM + 1, 300, 1264] {
            // Prefixes varying in one byte position only (each of the 16),
            // in every position, in few values (many equal prefixes), and
            // the keys "0", "1", ... as gsoc-2018's top object has.
            let mut cases: Vec<Vec<u128>> = (0..16).map(|b| (0..n).map(|_| u128::from(next() as u8) << (8 * b) | 7).collect()).collect();
            cases.push((0..n).map(|_| u128::from(next()) << 64 | u128::from(next())).collect());
            cases.push((0..n).map(|_| u128::from(next() % 3) << 120 | u128::from(next() % 2)).collect());
            cases.push((0..n).map(|i| crate::keys::sort_prefix(crate::options::KeyOrder::Utf8, i.to_string().as_bytes())).collect());
            cases.push(vec![42; n]);
            for prefixes in cases {
                let mut pairs: Vec<(u128, u32)> = prefixes.iter().enumerate().map(|(i, &p)| (p, i as u32)).collect();
                let mut expected = pairs.clone();
                expected.sort_unstable();
                assert_eq!(radix_sort(&mut pairs), &expected[..], "n={n}");
            }
        }
    }

    #[test]
    fn large_objects_sort_as_below_the_radix_size() {
        // Equal prefixes decided by the full keys (here: by the index in
        // reverse), around the radix threshold.
        let full = |a: u32, b: u32| b.cmp(&a);
        for n in [INSERTION_SORT + 1, RADIX_FROM - 1, RADIX_FROM, 2 * RADIX_FROM] {
            let prefixes: Vec<u128> = (0..n as u128).map(|i| (i * 7919 % 13) << 64).collect();
            let mut order = vec![5];
            let mut pairs = Vec::new();
            sort_fresh(&prefixes, &mut order, &full, &mut pairs, false);
            let mut expected: Vec<u32> = (0..n as u32).collect();
            expected.sort_by(|&a, &b| prefixes[a as usize].cmp(&prefixes[b as usize]).then(full(a, b)));
            assert_eq!(order[0], 5);
            assert_eq!(order[1..], expected[..], "n={n}");
            // Zeroing writers take the same path.
            let mut zeroed = vec![5];
            sort_fresh(&prefixes, &mut zeroed, &full, &mut Vec::new(), true);
            assert_eq!(zeroed, order);
        }
    }

    #[test]
    fn same_prefixes_is_slice_equality() {
        for n in 0..12usize {
            let a: Vec<u128> = (0..n as u128).map(|i| i << 100 | i).collect();
            assert!(same_prefixes(&a, &a.clone()));
            // One prefix differing (in its low or high half), at every position.
            for at in 0..n {
                for flip in [1u128, 1 << 64, 1 << 127] {
                    let mut b = a.clone();
                    b[at] ^= flip;
                    assert!(!same_prefixes(&a, &b), "n={n} at={at}");
                    assert!(!same_prefixes(&b, &a), "n={n} at={at}");
                }
            }
            // Other lengths, sharing the common part.
            let mut longer = a.clone();
            longer.push(7);
            assert!(!same_prefixes(&a, &longer));
            assert!(!same_prefixes(&longer, &a));
        }
    }

    /// The memory made on first use (`PooledSortMemory::fill`): a zeroing
    /// writer's remembers no shapes, and a pooled one's does.
    #[test]
    fn first_use_makes_memory_that_zeroes_as_the_writer_does() {
        for pooled in [false, true] {
            let mut memory = PooledSortMemory::new(pooled);
            assert_eq!(memory.get().zero(), !pooled, "pooled={pooled}");
            // Asked again: the same memory, not a new one.
            memory.get().prefixes.push(7);
            assert_eq!(memory.get().prefixes, [7], "pooled={pooled}");
            memory.get().prefixes.clear();
        }
    }

    #[test]
    fn cached_order_equals_a_fresh_sort() {
        let mut cache = ShapeCache::default();
        let shape = [5u128, 3, 9, 1, 7];
        for _ in 0..3 {
            assert_eq!(sorted(&mut cache, &shape, |_, _| Ordering::Equal), vec![3, 1, 0, 4, 2]);
        }
    }

    #[test]
    fn large_shapes_cached_or_not_sort_as_a_fresh_sort() {
        // Sizes around the slots' limit and the large slot's; two shapes
        // of each size, one after the other (the second replaces the first
        // in the large slot), with ties decided by a full order that flips
        // between writes, so that a stale cached order shows.
        let mut cache = ShapeCache::default();
        for n in [MAX_MEMBERS, MAX_MEMBERS + 1, 1264, MAX_LARGE, MAX_LARGE + 1] {
            let shapes: Vec<Vec<u128>> =
                [7919u128, 104_729].iter().map(|&m| (0..n as u128).map(|i| (i * m % 97) << 64).collect()).collect();
            // Per shape: a fresh sort, a cached one, the ties flipped, back.
            for round in 0..8 {
                let prefixes = &shapes[round / 4];
                let flip = round % 4 == 2;
                let full = |a: u32, b: u32| if flip { b.cmp(&a) } else { a.cmp(&b) };
                let mut expected: Vec<u32> = (0..n as u32).collect();
                expected.sort_by(|&a, &b| prefixes[a as usize].cmp(&prefixes[b as usize]).then(full(a, b)));
                assert_eq!(sorted(&mut cache, prefixes, full), expected, "n={n} round={round}");
            }
        }
    }

    #[test]
    fn ties_on_a_prefix_use_the_full_keys_every_time() {
        let mut cache = ShapeCache::default();
        // Members 0 and 1 share a prefix; the full comparison decides, and
        // may decide differently for two objects with the same prefixes.
        for flip in [false, true, false, true] {
            let got = sorted(&mut cache, &[4, 4, 2], |a, b| if flip { b.cmp(&a) } else { a.cmp(&b) });
            let want = if flip { vec![2, 1, 0] } else { vec![2, 0, 1] };
            assert_eq!(got, want);
        }
    }
}
