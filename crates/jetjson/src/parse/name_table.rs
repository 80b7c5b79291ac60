//! The member names of the validator's open objects (`validate.rs`), in
//! one open-addressing table, so that a name repeated in its object is
//! found with one hash and, nearly always, one probe, whatever the size of
//! the object.
//!
//! * **Whose name.** Every object whose names the validator puts here
//!   gets a stamp, a number never given before, with its top bit set (kept
//!   in its entry of the validator's stack, where other entries hold
//!   values without that bit); a slot holds a name with its object's stamp
//!   and depth. A slot is live
//!   while that object is open (the stack holds that stamp at that depth),
//!   and free as soon as it closes: nothing is cleared, between objects or
//!   between documents.
//! * **Insert or find.** A name is looked for from its hash's slot on, up to
//!   the first free slot, where it is put. This finds an earlier name of
//!   the same object: it went to the first free slot of the same run, and
//!   every slot before it was then live, held by this object or one around
//!   it, all of which are still open.
//! * **The name as a key.** A name of up to 15 bytes is its bytes and
//!   closing quote as one zero-padded word: equal words are equal names. A
//!   longer one is its keyed hash and its offset in the input, and a hash
//!   that matches is checked byte by byte. Names with escapes are not kept
//!   here (the validator hashes their object's names, decoded, in the
//!   parser's `DuplicateNames`).
//! * **Bounded.** The table holds at most half as many names as it has
//!   slots (the callers ask `reserve` first), so a free slot is always
//!   found; it grows up to `MAX_SLOTS`, and an object that would need more
//!   goes to `DuplicateNames`. The hashes are keyed per process (the
//!   parser's `hash_seed`): input cannot choose the slots, and even so a
//!   probe costs at most the table's size.

use super::parser::{folded_multiply, hash_seed, name_hash};

/// A name of an open object, or a free slot.
#[derive(Clone, Copy)]
struct Slot {
    /// A name of up to 15 bytes: its bytes and closing quote, zero-padded.
    /// A longer one: its keyed hash (low half) and its offset in the input
    /// (high half).
    word: u128,
    /// The stamp of the object it belongs to (0: none; stamps have their
    /// top bit set).
    stamp: u64,
    /// That object's index in the validator's stack (`u32::MAX`: none).
    depth: u32,
    /// The name's length in bytes.
    len: u32,
}

const FREE: Slot = Slot { word: 0, stamp: 0, depth: u32::MAX, len: 0 };

/// The table's first size, in slots.
const FIRST_SLOTS: usize = 64;
/// Its largest size (32 KiB).
pub(crate) const MAX_SLOTS: usize = 1024;

/// A name longer than this is kept by its hash.
const SHORT: u32 = 15;

/// The names of the open objects.
#[derive(Default)]
pub(crate) struct NameTable {
    /// A power of two long (or empty, before the first name).
    slots: Vec<Slot>,
    seed: [u64; 2],
    /// The last stamp given.
    stamp: u64,
}

impl NameTable {
    /// A stamp for an object (never given before; its top bit set, which
    /// the other tags of the validator's stack never have).
    #[inline(always)]
    pub(crate) fn stamp(&mut self) -> u64 {
        self.stamp += 1;
        self.stamp | 1 << 63
    }

    /// How many names the open objects may hold in the table without a
    /// call to `reserve`.
    #[inline(always)]
    pub(crate) fn room(&self) -> usize {
        self.slots.len() / 2
    }

    /// Makes room for `names` names (the names of the open objects, the
    /// new one included), growing the table if need be: false if that
    /// would take more than `MAX_SLOTS` slots.
    #[cold]
    pub(crate) fn reserve(&mut self, names: usize, stack: &[(usize, u64)]) -> bool {
        if names <= self.room() {
            return true;
        }
        let mut size = self.slots.len().max(FIRST_SLOTS);
        while size / 2 < names {
            size *= 4;
        }
        if size > MAX_SLOTS {
            return false;
        }
        if self.seed[1] == 0 {
            self.seed = hash_seed();
        }
        let old = std::mem::replace(&mut self.slots, vec![FREE; size]);
        let mask = size - 1;
        for s in old.into_iter().filter(|s| live(s, stack)) {
            let mut k = self.hash(&s) as usize & mask;
            while self.slots[k].depth != u32::MAX {
                k = (k + 1) & mask;
            }
            self.slots[k] = s;
        }
        true
    }

    /// Whether the table may shrink to `keep` slots.
    pub(crate) fn above(&self, keep: usize) -> bool {
        self.slots.capacity() > keep
    }

    /// Gives the memory back if the table is larger than `keep` slots (no
    /// object is open: between documents).
    pub(crate) fn shrink_to(&mut self, keep: usize) {
        if self.slots.len() > keep {
            self.slots = Vec::new();
        }
    }

    #[inline(always)]
    fn hash(&self, s: &Slot) -> u64 {
        if s.len <= SHORT {
            short_hash(s.word, self.seed)
        } else {
            s.word as u64
        }
    }

    /// Puts the name of up to 15 bytes whose word (bytes, closing quote,
    /// zero-padded) is `word` in the innermost object of `stack` (the last
    /// entry, an object): false if that object has it already. The caller
    /// has made room (`room`, `reserve`).
    #[inline(always)]
    pub(crate) fn insert_short(&mut self, word: u128, len: u32, stack: &[(usize, u64)]) -> bool {
        let h = short_hash(word, self.seed);
        self.insert(h, Slot { word, stamp: 0, depth: 0, len }, stack, |_| true)
    }

    /// Puts the name `b[start..start + len]` (more than 15 bytes, no
    /// escapes) in the innermost object of `stack`: false if that object
    /// has it already. The caller has made room.
    #[inline(always)]
    pub(crate) fn insert_long(&mut self, b: &[u8], start: usize, len: usize, stack: &[(usize, u64)]) -> bool {
        let name = &b[start..start + len];
        let h = name_hash(name, self.seed);
        let word = u128::from(h) | (start as u128) << 64;
        // `len` fits: the caller checked it against `u32::MAX`.
        self.insert(h, Slot { word, stamp: 0, depth: 0, len: len as u32 }, stack, |s| {
            let at = (s.word >> 64) as usize;
            s.word as u64 == h && b.get(at..at + len) == Some(name)
        })
    }

    /// `insert_*` once the key is made: `same` says whether a slot of the
    /// innermost object with the name's length holds the name (for short
    /// names, the equal word already says so).
    #[inline(always)]
    fn insert(&mut self, h: u64, new: Slot, stack: &[(usize, u64)], same: impl Fn(&Slot) -> bool) -> bool {
        let depth = stack.len() - 1;
        let stamp = stack[depth].1;
        let mask = self.slots.len() - 1;
        let mut k = h as usize & mask;
        loop {
            let s = &mut self.slots[k];
            if s.stamp == stamp {
                if s.len == new.len && (new.len <= SHORT && s.word == new.word || new.len > SHORT && same(s)) {
                    return false;
                }
            } else if !live(s, stack) {
                // (`depth` fits: the caller checked it against `u32::MAX`.)
                *s = Slot { stamp, depth: depth as u32, ..new };
                return true;
            }
            k = (k + 1) & mask;
        }
    }

    /// Calls `each` with every name the object at `depth` with `stamp`
    /// holds here (its bytes, and their offset in `b` for a long one), in
    /// no particular order; they stay (the caller then gives the object a
    /// new stamp, which frees them).
    pub(crate) fn names_of(&self, depth: usize, stamp: u64, b: &[u8], mut each: impl FnMut(&[u8], Option<usize>)) {
        for s in self.slots.iter().filter(|s| s.stamp == stamp && s.depth as usize == depth) {
            let len = s.len as usize;
            if s.len <= SHORT {
                each(&s.word.to_le_bytes()[..len], None);
            } else {
                let at = (s.word >> 64) as usize;
                each(&b[at..at + len], Some(at));
            }
        }
    }
}

/// Whether the slot holds a name of an open object.
#[inline(always)]
fn live(s: &Slot, stack: &[(usize, u64)]) -> bool {
    stack.get(s.depth as usize).is_some_and(|&(_, stamp)| stamp == s.stamp)
}

/// The keyed hash of a short name's word.
#[inline(always)]
fn short_hash(word: u128, [k0, k1]: [u64; 2]) -> u64 {
    folded_multiply(word as u64 ^ k0, (word >> 64) as u64 ^ k1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn word(name: &str) -> u128 {
        let mut bytes = [0u8; 16];
        bytes[..name.len()].copy_from_slice(name.as_bytes());
        bytes[name.len()] = b'"';
        u128::from_le_bytes(bytes)
    }

    /// Objects open and close around each other: each finds its own names
    /// again, never those of the objects around it or of those closed
    /// before it, through every growth of the table, with every name
    /// sent to one slot run (the worst the hash can do).
    #[test]
    fn each_object_finds_only_its_own_names() {
        for collide in [false, true] {
            let mut t = NameTable::default();
            let mut stack: Vec<(usize, u64)> = Vec::new();
            let open = |t: &mut NameTable, stack: &mut Vec<(usize, u64)>| {
                let s = t.stamp();
                stack.push((0, s));
            };
            let mut held = 0;
            let put = |t: &mut NameTable, stack: &[(usize, u64)], held: &mut usize, i: usize| {
                assert!(t.reserve(*held + 1, stack));
                *held += 1;
                let name = format!("n{i}");
                if collide {
                    // Every name in one run: the same hash for all.
                    t.insert(7, Slot { word: word(&name), stamp: 0, depth: 0, len: name.len() as u32 }, stack, |_| true)
                } else {
                    t.insert_short(word(&name), name.len() as u32, stack)
                }
            };
            // Outer object: names 0..50.
            open(&mut t, &mut stack);
            if collide {
                // No growth (which would move the names to their own hashes).
                assert!(t.reserve(200, &stack));
            }
            for i in 0..50 {
                assert!(put(&mut t, &stack, &mut held, i));
            }
            // Inner object: the same names, all new to it; then repeats.
            open(&mut t, &mut stack);
            for i in 0..50 {
                assert!(put(&mut t, &stack, &mut held, i), "inner {i}");
            }
            for i in 0..50 {
                assert!(!put(&mut t, &stack, &mut held, i), "inner repeat {i}");
                held -= 1;
            }
            stack.pop();
            held -= 50;
            // A sibling of the inner one: the inner one's names are free.
            open(&mut t, &mut stack);
            for i in 0..50 {
                assert!(put(&mut t, &stack, &mut held, i), "sibling {i}");
            }
            stack.pop();
            held -= 50;
            // The outer object still has its names.
            for i in 0..50 {
                assert!(!put(&mut t, &stack, &mut held, i), "outer repeat {i} collide {collide}");
                held -= 1;
            }
            // Long names: found by their bytes, not their hash alone.
            let long = "l".repeat(40);
            let at = 100;
            let b2 = format!("{}{long}{long}", " ".repeat(at));
            assert!(t.reserve(held + 2, &stack));
            assert!(t.insert_long(b2.as_bytes(), at, 40, &stack));
            assert!(!t.insert_long(b2.as_bytes(), at + 40, 40, &stack));
            assert!(t.insert_long(b2.as_bytes(), at + 1, 39, &stack));
            // Every name of the outer object is listed once.
            let mut seen = 0;
            let depth = stack.len() - 1;
            t.names_of(depth, stack[depth].1, b2.as_bytes(), |_, _| seen += 1);
            assert_eq!(seen, 52);
        }
    }

    #[test]
    fn the_table_stops_at_its_largest_size() {
        let mut t = NameTable::default();
        let stack = vec![(0usize, t.stamp())];
        assert!(t.reserve(MAX_SLOTS / 2, &stack));
        assert_eq!(t.slots.len(), MAX_SLOTS);
        assert!(!t.reserve(MAX_SLOTS / 2 + 1, &stack));
    }
}
