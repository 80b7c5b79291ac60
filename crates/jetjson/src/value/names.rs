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
//! names, each name sets one bit of a 1024-bit filter by a hash of its
//! words; only a name whose bit was already set is compared with the names
//! before it.
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
/// Words of the filter: 1024 bits. With 64 names, about 2 of them find
/// their bit set, whose comparisons cost about 85 in all (the sum over
/// names of i * i / 1024; 340 with the 256 bits this had, over the budget
/// of 4n + 16 = 272 then, so a typical object of 64 names went to SipHash).
const FILTER_WORDS: usize = 16;

/// Comparisons (or probes) allowed in an object of `n` names before the
/// keyed hash set takes over: far above what unequal names cost by chance
/// (see `FILTER_WORDS`), still linear in `n` whatever the names are.
#[inline(always)]
fn budget(n: usize) -> usize {
    8 * n + 16
}

#[cfg(test)]
thread_local! {
    /// Tests: how many objects went to the keyed hash set.
    static HASHED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
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
        // with one comparison of registers; only pairs that share one are
        // compared whole.
        let mut heads = [0u64; PAIRWISE_MAX_NAMES];
        for (head, name) in heads.iter_mut().zip(names) {
            *head = name.head_word();
        }
        return (1..n).find(|&i| (0..i).any(|j| heads[j] == heads[i] && same(&names[j], &names[i])));
    }
    if n > FILTER_MAX_NAMES {
        return first_repeat_table(names);
    }
    let mut filter = [0u64; FILTER_WORDS];
    // Comparisons allowed before the hash set takes over.
    let mut budget = budget(n);
    for (i, name) in names.iter().enumerate() {
        let h = filter_hash(name);
        let (word, bit) = ((h >> 60) as usize, 1u64 << ((h >> 54) & 63));
        if filter[word] & bit != 0 {
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
        filter[word] |= bit;
    }
    None
}

/// Whether two names have the same text.
#[inline(always)]
fn same(a: &Str, b: &Str) -> bool {
    match (a.inline_words(), b.inline_words()) {
        (Some(x), Some(y)) => x == y,
        // An inline name is shorter than any other.
        (None, None) => a.as_str() == b.as_str(),
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
    let mut table = vec![0u32; mask + 1];
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
    let mut seen: HashSet<&str> = HashSet::with_capacity(names.len());
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

    /// Names that all fall on one bit of the filter spend the budget and
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
