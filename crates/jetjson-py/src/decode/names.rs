//! Member names of a record, matched by their bytes.
//!
//! A JSON object's member names are matched against the record's names
//! as they come from the parser (raw bytes, no `str` made). Objects usually
//! list members in declaration order, so the name after the last one
//! matched is compared first; otherwise a table decides: each name is kept
//! as its length and its first and last eight bytes (which settle names of
//! up to 16 bytes without reading them again), and records of more than
//! `SCAN` names add a perfect hash (a seed chosen when the record is
//! compiled so that every name has a slot of its own): one probe, one
//! comparison. The table never changes after compiling, so no input can
//! make a lookup cost more than that.

/// Records with at most this many names are scanned.
const SCAN: usize = 8;

#[derive(Clone, Copy, PartialEq, Eq)]
struct Key {
    len: usize,
    first: u64,
    last: u64,
}

impl Key {
    #[inline(always)]
    fn of(b: &[u8]) -> Key {
        let n = b.len();
        // Overlapping reads, never past the name: with the length they
        // determine any name of up to 16 bytes.
        let (first, last) = if n >= 8 {
            (word(b, 0), word(b, n - 8))
        } else if n >= 4 {
            (u64::from(half(b, 0)), u64::from(half(b, n - 4)))
        } else if n > 0 {
            (u64::from(b[0]) | u64::from(b[n / 2]) << 8 | u64::from(b[n - 1]) << 16, 0)
        } else {
            (0, 0)
        };
        Key { len: n, first, last }
    }
}

#[inline(always)]
fn half(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}

#[inline(always)]
fn word(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"))
}

pub(crate) struct Names {
    names: Vec<Box<[u8]>>,
    keys: Vec<Key>,
    /// Perfect hash: slot -> name index + 1 (0: empty).
    table: Vec<u16>,
    seed: u64,
    shift: u32,
}

impl Names {
    pub(crate) fn new(names: Vec<Box<[u8]>>) -> Names {
        let keys: Vec<Key> = names.iter().map(|n| Key::of(n)).collect();
        let mut out = Names { names, keys, table: Vec::new(), seed: 0, shift: 64 };
        if out.names.len() > SCAN {
            out.build_table();
        }
        out
    }

    /// Tries seeds (and then larger tables) until no two names share a slot.
    /// Two long names with the same length and ends have the same key and
    /// can never be separated: such records (and absurdly large ones) are
    /// scanned.
    fn build_table(&mut self) {
        let mut bits = (self.names.len() * 2).next_power_of_two().trailing_zeros().max(4);
        while bits <= 16 {
            for attempt in 0..64u64 {
                let seed = 0x9E37_79B9_7F4A_7C15u64.wrapping_mul(attempt * 2 + 1);
                let shift = 64 - bits;
                let mut table = vec![0u16; 1 << bits];
                let ok = self.keys.iter().enumerate().all(|(i, k)| {
                    let slot = slot(k, seed, shift);
                    if table[slot] != 0 {
                        return false;
                    }
                    table[slot] = (i + 1) as u16;
                    true
                });
                if ok {
                    self.table = table;
                    self.seed = seed;
                    self.shift = shift;
                    return;
                }
            }
            bits += 1;
        }
    }

    /// The index of `name`, trying `hint` first. Inline only the hint's
    /// match by key (names of up to 16 bytes, which the key settles), a
    /// path with no call in it; the rest out of line.
    #[inline(always)]
    pub(crate) fn find(&self, name: &[u8], hint: usize) -> Option<usize> {
        let key = Key::of(name);
        if key.len <= 16 && self.keys.get(hint) == Some(&key) {
            return Some(hint);
        }
        self.find_other(name, key, hint)
    }

    #[inline(never)]
    fn find_other(&self, name: &[u8], key: Key, hint: usize) -> Option<usize> {
        if key.len > 16 && self.keys.get(hint) == Some(&key) && *self.names[hint] == *name {
            return Some(hint);
        }
        if self.table.is_empty() {
            return self.keys.iter().zip(&self.names).position(|(k, n)| *k == key && (key.len <= 16 || **n == *name));
        }
        let i = usize::from(self.table[slot(&key, self.seed, self.shift)]).checked_sub(1)?;
        (self.keys[i] == key && (key.len <= 16 || *self.names[i] == *name)).then_some(i)
    }
}

#[inline(always)]
fn slot(k: &Key, seed: u64, shift: u32) -> usize {
    let h = (k.first ^ k.last.rotate_left(29) ^ (k.len as u64).rotate_left(47)).wrapping_mul(seed);
    let h = (h ^ (h >> 31)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    (h >> shift) as usize
}
