//! Repeated member names, found by the `Value` builder when an object ends.
//!
//! Under `DuplicateKeys::Error` the parser can check every name as it reads
//! it (`parse/parser.rs`, `DuplicateNames`); `Value::from_slice` instead
//! lets the parser skip that and checks each object's names here, where
//! they already sit side by side as `Str`s: an inline name (most names) is
//! three words whose equality is the equality of the text, so a name is
//! compared with a few word comparisons instead of hashing its bytes, and
//! no per-object bookkeeping is kept while the object is read.
//!
//! Each name's first word (its length and first bytes, `Str::head_word`)
//! is compared before the whole name. In an object of more than eight
//! names, each name marks one of 1024 slots by a hash of its words (`Seen`:
//! marks stamped per object, kept between objects); only a name whose slot
//! this object had already marked is compared with the names before it.
//! The hash is not keyed, so a document can make every name collide: the
//! comparisons are counted, and past a budget linear in the number of
//! names (or in objects with many names) the check goes to a randomly
//! keyed hash set, so it stays linear in the size of the object whatever
//! the names are.

use std::collections::HashSet;

use super::Str;

/// Objects with at most this many names (most objects) compare every pair.
const PAIRWISE_MAX_NAMES: usize = 8;
/// Objects with more names than this go to the table directly.
const FILTER_MAX_NAMES: usize = 64;
/// Slots of the filter (`Seen`): 1024, picked by the top 10 bits of
/// `filter_hash`. With 64 names, about 2 of them find their slot marked,
/// whose comparisons cost about 85 in all (the sum over names of
/// i * i / 1024; 340 with the 256 slots this had, over the budget of
/// 4n + 16 = 272 then, so a typical object of 64 names went to SipHash).
const FILTER_SLOTS: usize = 1 << 10;

/// Comparisons (or probes) allowed in an object of `n` names before the
/// keyed hash set takes over: far above what unequal names cost by chance
/// (see `FILTER_SLOTS`), still linear in `n` whatever the names are.
#[inline(always)]
fn budget(n: usize) -> usize {
    8 * n + 16
}

#[cfg(test)]
thread_local! {
    /// Tests: how many objects went to the keyed hash set.
    static HASHED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    /// Tests: how many objects of 9 to 64 names no remembered shape
    /// answered for.
    static UNREMEMBERED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// The index of the first name of `names` that repeats an earlier one.
pub(super) fn first_repeat(names: &[Str]) -> Option<usize> {
    let n = names.len();
    if n < 2 {
        return None;
    }
    if n == 2 {
        // The commonest size after one: no table of head words.
        return (names[0].head_word() == names[1].head_word() && same(&names[0], &names[1])).then_some(1);
    }
    if n <= PAIRWISE_MAX_NAMES {
        // Every pair: fewer word comparisons than hashing each name. The
        // head words (length and first bytes) tell almost every pair apart
        // with one comparison of registers; only if two share one are the
        // names compared whole (`first_repeat_pairwise`).
        return if distinct_heads(names) { None } else { first_repeat_pairwise(names) };
    }
    if n > FILTER_MAX_NAMES {
        return first_repeat_table(names);
    }
    first_repeat_marked(names)
}

/// Whether the head words of `names` (3 to `PAIRWISE_MAX_NAMES` of them)
/// are all different, so that no name repeats another.
///
/// Only the `n (n - 1) / 2` pairs are compared, each name's head word
/// against the earlier ones' as it is loaded (one branch per name, on the
/// OR of its comparisons). The loading already took a branch per name on
/// `n`, so this adds no branch that is harder to predict; all 28 pairs of
/// eight slots compared with no branch (the slots past `n` holding unequal
/// words) cost 28 comparisons for every object, and github_events.json
/// (objects of 3, 5 and 7 names) 1.2% more instructions and 2% more time
/// than this (bench/results/vbuild42-2026-11-30.md). The loop's bound is the
/// constant `PAIRWISE_MAX_NAMES`, so it is unrolled, heads in registers.
#[inline(always)]
fn distinct_heads(names: &[Str]) -> bool {
    const SLOTS: usize = PAIRWISE_MAX_NAMES;
    let n = names.len();
    debug_assert!((3..=SLOTS).contains(&n));
    let mut heads = [0u64; SLOTS];
    for j in 0..SLOTS {
        if j == n {
            break;
        }
        let head = names[j].head_word();
        let mut equal = false;
        for earlier in &heads[..j] {
            equal |= *earlier == head;
        }
        if equal {
            return false;
        }
        heads[j] = head;
    }
    true
}

/// `first_repeat` for up to `PAIRWISE_MAX_NAMES` names by comparing every
/// pair (when two share a head word).
#[cold]
#[inline(never)]
fn first_repeat_pairwise(names: &[Str]) -> Option<usize> {
    let n = names.len();
    (1..n).find(|&i| (0..i).any(|j| names[j].head_word() == names[i].head_word() && same(&names[j], &names[i])))
}

/// The filter's memory for objects of 9 to 64 names: one mark per value of
/// a name's 10-bit hash, kept by the thread between objects (`SEEN`). A
/// slot is set in the current object when it holds the object's stamp, so
/// nothing is cleared per object. (Not a field of the builder: passing it
/// down cost every `end_object` a few instructions, objects of two names
/// too.)
///
/// A mark per hash value, not a bit: a name's load of its mark depends on
/// an earlier name's store only when their hashes are equal (rare), so the
/// CPU runs the names' loads ahead of the stores; with bits in words, a
/// load waits for the previous name's store to the same word (one in 16
/// with 1024 bits, one in 4 with the 256 bits this first had), and the
/// words were zeroed per object. From the unmerged branch wip-valueparse
/// (4d04db9, with 256 slots), here with 1024: twitter.json 1.7% fewer
/// instructions (bench/results/value-small-2026-11-28.md).
struct Seen {
    marks: [u32; FILTER_SLOTS],
    stamp: u32,
}

thread_local! {
    static SEEN: std::cell::RefCell<Seen> = const { std::cell::RefCell::new(Seen::NEW) };
}

impl Seen {
    const NEW: Seen = Seen { marks: [0; FILTER_SLOTS], stamp: 0 };

    /// A stamp no slot holds: the next one, or (when the stamps wrap
    /// around) 1 after clearing every slot.
    #[inline(always)]
    fn next_stamp(&mut self) -> u32 {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.wrap();
        }
        self.stamp
    }

    /// Once in 2^32 objects (out of line: the clearing is 4 KiB of stores).
    #[cold]
    #[inline(never)]
    fn wrap(&mut self) {
        self.marks = [0; FILTER_SLOTS];
        self.stamp = 1;
    }
}

/// `first_repeat` for 9 to 64 names, with the thread's marks (the keyed
/// hash set if they are in use, which nothing here does, or the thread is
/// ending). Out of line, so that the builder's `end_object` is as it was
/// for smaller objects.
#[inline(never)]
fn first_repeat_marked(names: &[Str]) -> Option<usize> {
    SHAPES
        .try_with(|shapes| match shapes.try_borrow_mut() {
            Ok(mut shapes) => shapes.first_repeat(names),
            Err(_) => first_repeat_unremembered(names),
        })
        .unwrap_or_else(|_| first_repeat_unremembered(names))
}

/// Slots of remembered object shapes (`Shapes`), picked by a hash of an
/// object's size and its first and last names' head words.
const SHAPE_SLOTS: usize = 16;
/// Pairs of names with equal head words a remembered shape may have.
const MAX_SHAPE_PAIRS: usize = 16;

/// What is known of the objects whose size and first and last head words
/// pick a slot and match its key.
#[derive(Clone, Copy, PartialEq, Eq)]
enum ShapeState {
    /// Seen once: only the key is kept.
    Once,
    /// `heads` are the head words of an object of these names without a
    /// repeat, and `pairs` every pair of places whose head words are equal.
    Known,
    /// Too many equal head words to remember.
    GaveUp,
}

/// One remembered shape of object (objects of 9 to 64 names): records in
/// an array have the same names in the same order, object after object.
#[derive(Clone, Copy)]
struct Shape {
    n: usize,
    first: u64,
    last: u64,
    state: ShapeState,
    heads: [u64; FILTER_MAX_NAMES],
    pairs: [(u8, u8); MAX_SHAPE_PAIRS],
    npairs: usize,
    /// `Shapes::clock` when the slot was last used.
    used: u32,
}

/// The thread's remembered shapes (`first_repeat_marked`).
///
/// An object whose names have the head words of a remembered object that
/// had no repeat, place by place, can repeat a name only at a pair of
/// places whose head words are equal (equal names have equal head words),
/// and the shape lists all such pairs: comparing those names is the whole
/// check. Comparing head words is one load and one comparison a name,
/// without branches, instead of a hash and a mark.
struct Shapes {
    slots: [Shape; SHAPE_SLOTS],
    /// Counts the objects checked (for `Shape::used`).
    clock: u32,
}

thread_local! {
    static SHAPES: std::cell::RefCell<Shapes> = const { std::cell::RefCell::new(Shapes::NEW) };
}

impl Shapes {
    const NEW: Shapes = Shapes {
        slots: [Shape {
            n: 0,
            first: 0,
            last: 0,
            state: ShapeState::Once,
            heads: [0; FILTER_MAX_NAMES],
            pairs: [(0, 0); MAX_SHAPE_PAIRS],
            npairs: 0,
            used: 0,
        }; SHAPE_SLOTS],
        clock: 0,
    };

    /// `first_repeat` for 9 to 64 names, by a remembered shape when one
    /// matches; otherwise with the marks, and the shape is remembered when
    /// its key is seen a second time (so objects of shapes seen once cost
    /// only the key's store).
    ///
    /// A key may be kept in either of two slots (its hash picks both), so
    /// that two shapes of one key (objects of one size between the same
    /// first and last names, the names in between differing: the users
    /// and organisations of github_events.json, in turns) are both
    /// remembered: with one slot the second was never learned, and its
    /// objects took the marks every time (5 of the 15 large objects of
    /// each parse of github_events.json). A new key goes to the slot of
    /// the two used longer ago.
    fn first_repeat(&mut self, names: &[Str]) -> Option<usize> {
        const K: u64 = 0x9e37_79b9_7f4a_7c15;
        let n = names.len();
        debug_assert!((PAIRWISE_MAX_NAMES + 1..=FILTER_MAX_NAMES).contains(&n));
        let (first, last) = (names[0].head_word(), names[n - 1].head_word());
        let h = (first ^ last.rotate_left(29) ^ n as u64).wrapping_mul(K);
        let a = (h >> 60) as usize % SHAPE_SLOTS;
        let b = match (h >> 56) as usize % SHAPE_SLOTS {
            same if same == a => a ^ 1,
            other => other,
        };
        self.clock = self.clock.wrapping_add(1);
        let clock = self.clock;
        let keyed = |shape: &Shape| shape.n == n && shape.first == first && shape.last == last;
        for slot in [a, b] {
            let shape = &mut self.slots[slot];
            // A branch per name, not the OR of all the differences: that
            // loop was vectorised for AVX-512 (`-C target-cpu=native`) with
            // gathers of the names' tags and words, and took twice the time
            // of the scalar loop (twitter.json: this function 6.7% of the
            // parse against 3.2% in the portable build).
            if keyed(shape)
                && shape.state == ShapeState::Known
                && shape.heads.iter().zip(names).all(|(head, name)| *head == name.head_word())
            {
                shape.used = clock;
                let mut repeat = false;
                for &(i, j) in &shape.pairs[..shape.npairs] {
                    repeat |= same(&names[usize::from(i)], &names[usize::from(j)]);
                }
                if !repeat {
                    return None;
                }
                // A repeat: the marks say where.
                return first_repeat_unremembered(names);
            }
        }
        let found = first_repeat_unremembered(names);
        // The key seen once before (learned now, if it has no repeat) or
        // given up on: kept where it is.
        for slot in [a, b] {
            let shape = &mut self.slots[slot];
            if keyed(shape) && shape.state != ShapeState::Known {
                shape.used = clock;
                if shape.state == ShapeState::Once && found.is_none() {
                    shape.learn(names);
                }
                return found;
            }
        }
        // A new key, or another shape of a remembered one: seen once, in
        // the slot used longer ago.
        let older = |slot: usize| clock.wrapping_sub(self.slots[slot].used);
        let slot = if older(a) >= older(b) { a } else { b };
        let shape = &mut self.slots[slot];
        (shape.n, shape.first, shape.last, shape.state, shape.used) = (n, first, last, ShapeState::Once, clock);
        found
    }
}

impl Shape {
    /// Remembers `names` (at most 64, no repeat): their head words and
    /// every pair of places whose head words are equal.
    #[cold]
    #[inline(never)]
    fn learn(&mut self, names: &[Str]) {
        let n = names.len();
        for (head, name) in self.heads.iter_mut().zip(names) {
            *head = name.head_word();
        }
        self.npairs = 0;
        for j in 1..n {
            for i in 0..j {
                if self.heads[i] == self.heads[j] {
                    if self.npairs == MAX_SHAPE_PAIRS {
                        self.state = ShapeState::GaveUp;
                        return;
                    }
                    // Places below 64 fit a byte.
                    self.pairs[self.npairs] = (i as u8, j as u8);
                    self.npairs += 1;
                }
            }
        }
        self.state = ShapeState::Known;
    }
}

/// `first_repeat` for 9 to 64 names with the thread's marks (the keyed
/// hash set if they are in use, which nothing here does, or the thread is
/// ending).
fn first_repeat_unremembered(names: &[Str]) -> Option<usize> {
    #[cfg(test)]
    UNREMEMBERED.with(|c| c.set(c.get() + 1));
    SEEN.try_with(|seen| match seen.try_borrow_mut() {
        Ok(mut seen) => first_repeat_filtered(names, &mut seen),
        Err(_) => first_repeat_hashed(names),
    })
    .unwrap_or_else(|_| first_repeat_hashed(names))
}

/// `first_repeat` for 9 to 64 names, with the filter's marks `seen`.
fn first_repeat_filtered(names: &[Str], seen: &mut Seen) -> Option<usize> {
    let n = names.len();
    let stamp = seen.next_stamp();
    // Comparisons allowed before the hash set takes over.
    let mut budget = budget(n);
    for (i, name) in names.iter().enumerate() {
        let slot = (filter_hash(name) >> 54) as usize;
        if std::mem::replace(&mut seen.marks[slot], stamp) == stamp {
            // Maybe seen: compared with every earlier name.
            if budget < i {
                return first_repeat_hashed(names);
            }
            budget -= i;
            let head = name.head_word();
            if names[..i].iter().any(|earlier| earlier.head_word() == head && same(earlier, name)) {
                return Some(i);
            }
        }
    }
    None
}

/// Whether two names have the same text.
#[inline(always)]
fn same(a: &Str, b: &Str) -> bool {
    match (a.inline_words(), b.inline_words()) {
        (Some(x), Some(y)) => x == y,
        // An inline name is shorter than any other. Long names of one
        // length often share their first bytes (`profile_..._color`): their
        // last eight are compared before the call to compare them all.
        (None, None) => {
            let (x, y) = (a.as_bytes(), b.as_bytes());
            x.len() == y.len() && (x.len() < 8 || x[x.len() - 8..] == y[y.len() - 8..]) && x == y
        }
        _ => false,
    }
}

/// A hash of a name for the filter (top 10 bits used): of its words if
/// inline, else of its length and first and last eight bytes (it is longer
/// than 16 bytes).
#[inline(always)]
fn filter_hash(name: &Str) -> u64 {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let [a, b, c] = name.inline_words().unwrap_or_else(|| {
        let t = name.as_bytes();
        let word = |i: usize| u64::from_le_bytes(t[i..i + 8].try_into().expect("8 bytes"));
        [t.len() as u64, word(0), word(t.len() - 8)]
    });
    (a ^ b.rotate_left(21) ^ c.rotate_left(42)).wrapping_mul(K)
}

/// `first_repeat` for a large object: a table of name indices by
/// `filter_hash` (open addressing), with each probe compared by head word
/// first. The hash is not keyed, so the probes are counted, and past a
/// budget linear in the number of names the randomly keyed hash set takes
/// over. SipHash alone was 245 instructions a name (gsoc-2018.json's root
/// object of 1,264 names: 2.7% of its parse).
#[cold]
#[inline(never)]
fn first_repeat_table(names: &[Str]) -> Option<usize> {
    let n = names.len();
    // At most half full; indices fit `u32` below this size.
    if n > (u32::MAX as usize) / 4 {
        return first_repeat_hashed(names);
    }
    let bits = (2 * n).next_power_of_two().trailing_zeros();
    let mask = (1usize << bits) - 1;
    // Slot values: name index + 1 (0 is empty).
    let mut table = Vec::new();
    if table.try_reserve_exact(mask + 1).is_err() {
        // Out of memory: see `arena::refused` (the builder reports it).
        super::arena::refused::<u32>(mask + 1);
        return None;
    }
    table.resize(mask + 1, 0u32);
    let mut budget = budget(n);
    for (i, name) in names.iter().enumerate() {
        let head = name.head_word();
        // The top bits of the multiplicative hash (its best mixed).
        let mut slot = (filter_hash(name) >> (64 - bits)) as usize & mask;
        loop {
            let held = table[slot];
            if held == 0 {
                table[slot] = i as u32 + 1;
                break;
            }
            let earlier = &names[held as usize - 1];
            if earlier.head_word() == head && same(earlier, name) {
                return Some(i);
            }
            if budget == 0 {
                return first_repeat_hashed(names);
            }
            budget -= 1;
            slot = (slot + 1) & mask;
        }
    }
    None
}

/// `first_repeat` with a randomly keyed hash set (std's SipHash).
#[cold]
#[inline(never)]
fn first_repeat_hashed(names: &[Str]) -> Option<usize> {
    #[cfg(test)]
    HASHED.with(|c| c.set(c.get() + 1));
    let mut seen: HashSet<&str> = HashSet::new();
    if seen.try_reserve(names.len()).is_err() {
        // Out of memory: see `arena::refused` (the builder reports it).
        super::arena::refused::<&str>(names.len());
        return None;
    }
    names.iter().position(|name| !seen.insert(name.as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<Str> {
        list.iter().map(|s| Str::new(s)).collect()
    }

    #[test]
    fn finds_the_first_repeat_of_short_and_long_names() {
        let long = "a name longer than twenty-two bytes";
        assert_eq!(first_repeat(&names(&[])), None);
        assert_eq!(first_repeat(&names(&["a"])), None);
        assert_eq!(first_repeat(&names(&["a", "b", "c"])), None);
        assert_eq!(first_repeat(&names(&["a", "b", "a"])), Some(2));
        assert_eq!(first_repeat(&names(&["", "x", ""])), Some(2));
        assert_eq!(first_repeat(&names(&[long, "b", long])), Some(2));
        // Same length and first bytes, different last byte.
        assert_eq!(first_repeat(&names(&[&format!("{long}1"), &format!("{long}2")])), None);
        assert_eq!(first_repeat(&names(&["abcdefghijklmnopqrstu1", "abcdefghijklmnopqrstu2"])), None);
        assert_eq!(first_repeat(&names(&["abcdefghijklmnopqrstuv", "abcdefghijklmnopqrstuv"])), Some(1));
    }

    /// The small objects' check (`distinct_heads`): names
    /// of distinct head words at every size it takes, with a repeat at
    /// every place (every distance between the two, 1 to 7) and none. It
    /// says "distinct" exactly when there is no repeat, so the pairwise
    /// comparison after it is not run for objects without one.
    #[test]
    fn distinct_heads_at_every_size_and_distance() {
        let pool = ["a", "bb", "id", "url", "name", "type", "login", "avatar_url", "profile_text_color", "x"];
        for n in 3..=PAIRWISE_MAX_NAMES {
            let list: Vec<&str> = pool[..n].to_vec();
            assert!(distinct_heads(&names(&list)), "{n} distinct names");
            assert_eq!(first_repeat(&names(&list)), None);
            for at in 1..n {
                for of in 0..at {
                    let mut with = list.clone();
                    with[at] = list[of];
                    assert!(!distinct_heads(&names(&with)), "{n} names, {at} repeats {of}");
                    let want = {
                        let mut seen = HashSet::new();
                        with.iter().position(|k| !seen.insert(*k))
                    };
                    assert_eq!(first_repeat(&names(&with)), want, "{n} names, {at} repeats {of}");
                }
            }
        }
        // Same head word (length and first six bytes), different names:
        // not a repeat.
        let alike = names(&["profile_link_color", "a", "profile_text_color"]);
        assert!(!distinct_heads(&alike));
        assert_eq!(first_repeat(&alike), None);
    }

    /// Remembered shapes (`Shapes`): an object of 9 to 64 names seen twice
    /// is remembered with its pairs of equal head words (two inline names
    /// of one length and first six bytes, long names of one length); an
    /// object of the same head words that repeats a name at such a pair,
    /// at either end or in the middle, is refused where the marks refuse
    /// it; objects of the same key (size, first and last head words) but
    /// other names, and shapes with too many equal head words to remember,
    /// still get the right answer.
    #[test]
    fn remembered_shapes_still_find_every_repeat() {
        let long = |k: usize| format!("a-long-name-of-thirty-bytes-{k:02}");
        let mut base: Vec<String> = (0..24).map(|k| format!("k{k}")).collect();
        base[3] = "profile_link_color".into();
        base[9] = "profile_text_color".into();
        base[5] = long(1);
        base[12] = long(2);
        base[20] = long(3);
        base[0] = long(4);
        base[23] = long(5);
        let as_strs = |v: &[String]| -> Vec<Str> { v.iter().map(|k| Str::new(k)).collect() };
        let clean = as_strs(&base);
        let colliding = [(3, 9), (5, 12), (5, 20), (12, 20), (0, 5), (0, 23), (20, 23)];
        let mut shapes = Box::new(Shapes::NEW);
        for round in 0..3 {
            assert_eq!(shapes.first_repeat(&clean), None, "round {round}");
        }
        assert!(shapes.slots.iter().any(|s| s.state == ShapeState::Known && s.n == 24), "the shape is remembered");
        for (i, j) in colliding {
            let mut with = base.clone();
            with[j] = base[i].clone();
            assert_eq!(shapes.first_repeat(&as_strs(&with)), Some(j), "{j} repeats {i}");
            assert_eq!(shapes.first_repeat(&clean), None);
        }
        // Same key, other names in the middle (and a repeat among them).
        let mut other = base.clone();
        other[7] = "k4".into();
        assert_eq!(shapes.first_repeat(&as_strs(&other)), Some(7));
        other[7] = "another".into();
        assert_eq!(shapes.first_repeat(&as_strs(&other)), None);
        // Long names all of one length: more equal pairs than a shape keeps.
        let many: Vec<String> = (0..20).map(long).collect();
        for _ in 0..3 {
            assert_eq!(shapes.first_repeat(&as_strs(&many)), None);
        }
        let mut with = many.clone();
        with[17] = many[2].clone();
        assert_eq!(shapes.first_repeat(&as_strs(&with)), Some(17));
    }

    /// Two shapes of one key (size, first and last head words), in turns,
    /// as github_events.json has its users and organisations: after three
    /// turns, both are answered by their remembered shapes (no
    /// object goes to the marks), also with other keys' objects between
    /// them; a repeat in either is still found where it is.
    #[test]
    fn two_shapes_of_one_key_are_both_remembered() {
        let shape = |middle: &str| -> Vec<String> {
            let mut list: Vec<String> = vec!["url".into()];
            list.extend((0..13).map(|k| format!("{middle}_{k}")));
            list.push("following_url".into());
            list
        };
        let (user, org) = (shape("user"), shape("org"));
        // Other keys, in the two slots of `user`'s key among others.
        let others: Vec<Vec<String>> = (9..40).map(|n| (0..n).map(|k| format!("other{n}_{k}")).collect()).collect();
        let as_strs = |v: &[String]| -> Vec<Str> { v.iter().map(|k| Str::new(k)).collect() };
        let mut shapes = Box::new(Shapes::NEW);
        // The key's second object is learned (here `org`), then `user`
        // goes to the key's other slot once more, then is learned.
        for _ in 0..3 {
            assert_eq!(shapes.first_repeat(&as_strs(&user)), None);
            assert_eq!(shapes.first_repeat(&as_strs(&org)), None);
        }
        let before = UNREMEMBERED.with(std::cell::Cell::get);
        for _ in 0..4 {
            assert_eq!(shapes.first_repeat(&as_strs(&user)), None);
            assert_eq!(shapes.first_repeat(&as_strs(&org)), None);
        }
        assert_eq!(UNREMEMBERED.with(std::cell::Cell::get), before, "both shapes are remembered");
        // Other keys come and go; the two shapes are answered right.
        for other in &others {
            assert_eq!(shapes.first_repeat(&as_strs(other)), None);
            assert_eq!(shapes.first_repeat(&as_strs(&user)), None);
            assert_eq!(shapes.first_repeat(&as_strs(&org)), None);
        }
        for (list, at, of) in [(&user, 14, 0), (&org, 7, 3), (&user, 13, 12)] {
            let mut with = list.clone();
            with[at] = list[of].clone();
            let want = {
                let mut seen = HashSet::new();
                with.iter().position(|k| !seen.insert(k.clone()))
            };
            assert_eq!(shapes.first_repeat(&as_strs(&with)), want, "{at} repeats {of}");
            assert_eq!(shapes.first_repeat(&as_strs(list)), None);
        }
    }

    /// Every size up to past the filter's limit, with the repeat at every
    /// place (and none): the answer is the position of the first repeat.
    #[test]
    fn agrees_with_a_set_at_every_size() {
        for n in 0..FILTER_MAX_NAMES + 8 {
            let distinct: Vec<String> =
                (0..n).map(|i| if i % 3 == 0 { format!("name-{i}-{}", "x".repeat(20)) } else { format!("k{i}") }).collect();
            let list: Vec<&str> = distinct.iter().map(String::as_str).collect();
            assert_eq!(first_repeat(&names(&list)), None, "{n} distinct names");
            for at in 1..n {
                for of in 0..at {
                    let mut with = list.clone();
                    with[at] = list[of];
                    let want = {
                        let mut seen = HashSet::new();
                        with.iter().position(|k| !seen.insert(*k))
                    };
                    assert_eq!(first_repeat(&names(&with)), want, "{n} names, {at} repeats {of}");
                }
            }
        }
    }

    /// Marks are kept from object to object: a name marked by an earlier
    /// object is not taken for a repeat, also when the stamps wrap around,
    /// and a repeat is still found after. When they wrap, every mark is
    /// cleared (a mark left from 2^32 objects before would hold the new
    /// stamp). (From 4d04db9.)
    #[test]
    fn marks_of_earlier_objects_are_not_repeats() {
        let distinct = |prefix: &str| -> Vec<String> { (0..20).map(|i| format!("{prefix}{i}")).collect() };
        let (old, new) = (distinct("old"), distinct("k"));
        let old: Vec<&str> = old.iter().map(String::as_str).collect();
        let strs: Vec<&str> = new.iter().map(String::as_str).collect();
        let mut with = strs.clone();
        with[19] = strs[4];
        for start in [0, u32::MAX - 2] {
            let mut seen = Seen { stamp: start, ..Seen::NEW };
            // Marks of other names, before the wrap when there is one.
            assert_eq!(first_repeat_filtered(&names(&old), &mut seen), None);
            assert_eq!(first_repeat_filtered(&names(&old), &mut seen), None);
            for round in 0..4 {
                assert_eq!(first_repeat_filtered(&names(&strs), &mut seen), None, "start {start}, round {round}");
                if round == 0 && start != 0 {
                    assert_eq!(seen.stamp, 1);
                    assert!(seen.marks.iter().all(|&m| m <= 1), "marks left from before the stamps wrapped");
                }
                assert_eq!(first_repeat_filtered(&names(&with), &mut seen), Some(19), "start {start}, round {round}");
            }
        }
    }

    /// The same names in object after object (as records in an array have
    /// them), with and without a repeat: the marks of each object leave
    /// the next one's answer right.
    #[test]
    fn records_of_the_same_names_one_after_another() {
        let fields: Vec<String> = (0..30).map(|i| format!("field_{i}")).collect();
        let strs: Vec<&str> = fields.iter().map(String::as_str).collect();
        let clean = names(&strs);
        for at in 1..30 {
            assert_eq!(first_repeat(&clean), None, "before {at}");
            let mut with = strs.clone();
            with[at] = strs[at - 1];
            assert_eq!(first_repeat(&names(&with)), Some(at));
        }
    }

    /// Names that all fall on one slot of the filter spend the budget and
    /// go to the hash set: still the right answer.
    #[test]
    fn colliding_names_still_answer_right() {
        let mut list: Vec<String> = Vec::new();
        let mut i = 0u64;
        let target = filter_hash(&Str::new("seed")) >> 54;
        while list.len() < 60 {
            let s = format!("n{i}");
            if filter_hash(&Str::new(&s)) >> 54 == target {
                list.push(s);
            }
            i += 1;
        }
        let strs: Vec<&str> = list.iter().map(String::as_str).collect();
        let before = hashed();
        assert_eq!(first_repeat(&names(&strs)), None);
        assert_eq!(hashed(), before + 1, "the budget is spent");
        let mut with = strs.clone();
        with[59] = strs[3];
        assert_eq!(first_repeat(&names(&with)), Some(59));
    }

    fn hashed() -> usize {
        HASHED.with(std::cell::Cell::get)
    }

    /// Objects of 9 to 200 names as documents have them (field names of
    /// mixed length and shape, some past the inline size), none repeated:
    /// none goes to the keyed hash set by the luck of the unkeyed hash
    /// (with a 256-bit filter and a budget of 4n + 16, most objects of
    /// about 64 names did).
    #[test]
    fn objects_of_up_to_200_names_stay_on_the_fast_path() {
        let words = [
            "id",
            "name",
            "type",
            "created_at",
            "updated",
            "user",
            "url",
            "count",
            "value",
            "status",
            "items",
            "data",
            "profile_image_url_https",
            "x",
            "geo",
            "lang",
            "text",
            "entities",
            "retweet_count",
            "description",
        ];
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let before = hashed();
        let mut objects = 0;
        for n in (9..=200).chain(std::iter::repeat_n(64, 200)).chain(std::iter::repeat_n(48, 200)) {
            let mut seen = HashSet::new();
            let mut list = Vec::with_capacity(n);
            while list.len() < n {
                let r = next();
                let word = words[(r % words.len() as u64) as usize];
                let name = match (r >> 8) % 4 {
                    0 => format!("{word}{}", (r >> 16) % 1000),
                    1 => format!("{word}_{}", (r >> 16) % 100),
                    2 => format!("k{}", (r >> 16) % 100_000),
                    _ => format!("{word}.{word}.{}", (r >> 16) % 10),
                };
                if seen.insert(name.clone()) {
                    list.push(name);
                }
            }
            let strs: Vec<&str> = list.iter().map(String::as_str).collect();
            assert_eq!(first_repeat(&names(&strs)), None, "{n} names");
            objects += 1;
        }
        assert_eq!(hashed() - before, 0, "of {objects} objects");
    }

    /// Through the parser (arena names past the inline capacity), at every
    /// length around it: a name given twice is refused, and two names that
    /// differ only in their last byte (same length and head word) are not.
    #[test]
    fn parsed_repeats_are_found_at_every_length() {
        for len in 1..40 {
            let name: String = (0..len).map(|i| (b'a' + (i % 26) as u8) as char).collect();
            let other = format!("{}!", &name[..len - 1]);
            assert_eq!(Str::new(&name).head_word() == Str::new(&other).head_word(), len > 6);
            for count in [2, 5, 9] {
                // `count` members: the last repeats the first, or differs
                // from it in its last byte only.
                let members = |last: &str| {
                    let mut m: Vec<String> = (1..count - 1).map(|k| format!("\"m{k}\":{k}")).collect();
                    m.insert(0, format!("\"{name}\":0"));
                    m.push(format!("\"{last}\":1"));
                    format!("{{{}}}", m.join(","))
                };
                let repeated = crate::Value::from_slice(members(&name).as_bytes());
                assert!(repeated.is_err(), "length {len}, {count} members: {repeated:?}");
                let distinct = crate::Value::from_slice(members(&other).as_bytes());
                assert!(distinct.is_ok(), "length {len}, {count} members: {distinct:?}");
            }
        }
    }

    /// Large objects (the table): a repeat at the start, the middle and the
    /// end of 65 to 3,000 names, and none; with names past the inline size.
    #[test]
    fn large_objects_agree_with_a_set() {
        for n in [FILTER_MAX_NAMES + 1, 300, 3000] {
            let distinct: Vec<String> =
                (0..n).map(|i| if i % 5 == 0 { format!("{}-{i}", "long".repeat(7)) } else { format!("k{i}") }).collect();
            let list: Vec<&str> = distinct.iter().map(String::as_str).collect();
            assert_eq!(first_repeat(&names(&list)), None, "{n} distinct names");
            for (at, of) in [(1, 0), (n / 2, n / 3), (n - 1, 5), (n - 1, n - 2)] {
                let mut with = list.clone();
                with[at] = list[of];
                assert_eq!(first_repeat(&names(&with)), Some(at), "{n} names, {at} repeats {of}");
            }
        }
    }

    /// Names that all land on one slot of the table spend its budget and
    /// go to the keyed hash set: still the right answer.
    #[test]
    fn colliding_names_in_a_large_object_still_answer_right() {
        let n = 200;
        // The table for 200 names has 512 slots: the top 9 bits pick one.
        let top = |s: &str| filter_hash(&Str::new(s)) >> 55;
        let target = top("seed");
        let list: Vec<String> = (0u64..).map(|i| format!("n{i}")).filter(|s| top(s) == target).take(n).collect();
        let strs: Vec<&str> = list.iter().map(String::as_str).collect();
        let before = hashed();
        assert_eq!(first_repeat(&names(&strs)), None);
        assert_eq!(hashed(), before + 1, "the budget is spent");
        let mut with = strs.clone();
        with[n - 1] = strs[7];
        assert_eq!(first_repeat(&names(&with)), Some(n - 1));
    }
}

#[cfg(test)]
mod review_tests {
    use super::*;
    use crate::Value;

    /// Through the thread's real marks (`SEEN`) and `Value::from_slice`:
    /// the stamp is set just before its wrap-around and the marks filled
    /// with stamps that will come again (so stale marks look current), then
    /// documents of 9-64-name objects, with and without a repeat at every
    /// place, are parsed across the wrap: a repeat always refused, no
    /// other document refused.
    #[test]
    fn across_the_wrap_through_the_thread_local() {
        let keys: Vec<String> = (0..64).map(|i| format!("key{i}")).collect();
        let object = |n: usize, repeat: Option<(usize, usize)>| {
            let mut names: Vec<&str> = keys[..n].iter().map(String::as_str).collect();
            if let Some((at, of)) = repeat {
                names[at] = names[of];
            }
            let members: Vec<String> = names.iter().enumerate().map(|(i, k)| format!("\"{k}\":{i}")).collect();
            format!("{{{}}}", members.join(","))
        };
        for start in [u32::MAX - 70, 0x7fff_fff0] {
            SEEN.with(|cell| {
                let mut seen = cell.borrow_mut();
                seen.stamp = start;
                for (k, m) in seen.marks.iter_mut().enumerate() {
                    // Stamps of objects to come (before and after the wrap).
                    *m = start.wrapping_add(1 + (k as u32 % 140));
                }
            });
            let mut wrapped = false;
            for n in [9, 10, 31, 64] {
                let clean = object(n, None);
                assert!(Value::from_slice(clean.as_bytes()).is_ok(), "{clean}");
                for at in 1..n {
                    for of in [0, at - 1] {
                        let bad = object(n, Some((at, of)));
                        assert!(Value::from_slice(bad.as_bytes()).is_err(), "stamp near {start}: {bad}");
                        // Nested in a record of the same names.
                        let nested = format!("[{clean},{{\"x\":{bad}}},{clean}]");
                        assert!(Value::from_slice(nested.as_bytes()).is_err());
                    }
                    assert!(Value::from_slice(clean.as_bytes()).is_ok());
                }
                wrapped |= SEEN.with(|cell| cell.borrow().stamp) < start;
            }
            if start > u32::MAX - 100 {
                assert!(wrapped, "the stamps wrapped around");
            }
        }
    }
}
