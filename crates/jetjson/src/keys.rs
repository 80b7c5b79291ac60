//! Object keys: the three sort orders, and the once-per-type check of struct
//! field names.

use std::cmp::Ordering;
use std::sync::atomic::{AtomicU64, Ordering as AtomicOrdering};

use crate::escape::EscapeSet;
use crate::options::KeyOrder;

/// Compares two unescaped keys in `order` (`Insertion` compares equal, so a
/// stable sort keeps the given order).
#[inline]
pub fn compare(order: KeyOrder, a: &[u8], b: &[u8]) -> Ordering {
    match order {
        KeyOrder::Insertion => Ordering::Equal,
        KeyOrder::Utf8 => a.cmp(b),
        KeyOrder::Utf16 => compare_utf16(a, b),
    }
}

/// Orders UTF-8 strings by their UTF-16 code units (RFC 8785 §3.2.3).
///
/// UTF-8 byte order is code point order, and UTF-16 order differs from it in
/// exactly one case: a supplementary character (encoded as surrogates
/// D800..DBFF) sorts *before* a BMP character in E000..FFFF. So we compare
/// bytes and only look closer at the first difference.
pub fn compare_utf16(a: &[u8], b: &[u8]) -> Ordering {
    let common = a.iter().zip(b).position(|(x, y)| x != y);
    let Some(i) = common else { return a.len().cmp(&b.len()) };
    // Back up to the start of the character holding the first difference.
    let mut start = i;
    while start > 0 && (a[start] & 0xC0) == 0x80 {
        start -= 1;
    }
    let ca = lead_class(a[start]);
    let cb = lead_class(b[start]);
    // Only when one side is a 4-byte (supplementary) character and the other
    // a 3-byte character at or above U+E000 does UTF-16 disagree with bytes.
    match (ca, cb) {
        (4, 3) if at_or_above_e000(&b[start..]) => Ordering::Less,
        (3, 4) if at_or_above_e000(&a[start..]) => Ordering::Greater,
        _ => a[i].cmp(&b[i]),
    }
}

/// The first 16 bytes of a key as a big-endian integer, so that comparing
/// two prefixes is one integer comparison and agrees with `compare(order)`
/// whenever the prefixes differ (equal prefixes need the full comparison).
///
/// For UTF-16 order the lead bytes of 3-byte characters at or above U+E000
/// (EE, EF) are moved above those of 4-byte characters (F0..F4); with that
/// remapping byte order *is* UTF-16 order, because the two only disagree on
/// exactly those characters and continuation bytes compare the same in both.
#[inline]
pub fn sort_prefix(order: KeyOrder, key: &[u8]) -> u128 {
    order_prefix(order, load_prefix(key))
}

/// The sort prefix of a key whose first 16 bytes, zero-padded, are `prefix`
/// as a big-endian integer.
#[inline(always)]
pub(crate) fn order_prefix(order: KeyOrder, prefix: u128) -> u128 {
    const HIGH_BITS: u128 = u128::from_ne_bytes([0x80; 16]);
    if order == KeyOrder::Utf16 && prefix & HIGH_BITS != 0 {
        return remap_for_utf16(prefix);
    }
    prefix
}

/// `key[..16]` zero-padded, as a big-endian integer, built from overlapping
/// big-endian loads in registers (copying a short key into a stack buffer
/// and reading it back whole stalls on store forwarding).
#[inline(always)]
fn load_prefix(key: &[u8]) -> u128 {
    let n = key.len();
    let be64 = |at: usize| u64::from_be_bytes(key[at..at + 8].try_into().expect("8 bytes"));
    let be32 = |at: usize| u32::from_be_bytes(key[at..at + 4].try_into().expect("4 bytes"));
    if n >= 16 {
        return u128::from_be_bytes(key[..16].try_into().expect("16 bytes"));
    }
    // Bytes i..i+w placed at position i of a big-endian window of `size`
    // bytes shift left by (size - i - w) * 8; overlapping bytes OR equally.
    let (hi, lo) = if n >= 8 {
        let tail = if n > 8 { be64(n - 8) << ((16 - n) * 8) } else { 0 };
        (be64(0), tail)
    } else if n >= 4 {
        ((u64::from(be32(0)) << 32) | (u64::from(be32(n - 4)) << ((8 - n) * 8)), 0)
    } else {
        let mut hi = 0u64;
        for (i, &b) in key.iter().enumerate() {
            hi |= u64::from(b) << ((7 - i) * 8);
        }
        (hi, 0)
    };
    (u128::from(hi) << 64) | u128::from(lo)
}

#[cold]
fn remap_for_utf16(prefix: u128) -> u128 {
    let mut b = prefix.to_be_bytes();
    for x in &mut b {
        *x = match *x {
            0xEE | 0xEF => *x + 5,
            0xF0..=0xF4 => *x - 2,
            other => other,
        };
    }
    u128::from_be_bytes(b)
}

fn lead_class(b: u8) -> u8 {
    match b {
        0x00..=0x7F => 1,
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        _ => 4,
    }
}

fn at_or_above_e000(s: &[u8]) -> bool {
    // A 3-byte sequence EE/EF xx xx encodes U+E000..U+FFFF.
    s[0] >= 0xEE
}

/// Facts about a struct field name, computed once per name (per type):
/// which escape rules it touches. A name with none of the facts the current
/// escape set cares about is written with one copy, quotes and colon included.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NameFacts(u8);

impl NameFacts {
    const BASE: u8 = 1; // control bytes, '"', '\\'
    const HTML: u8 = 2; // '<', '>', '&'
    const LINE_SEP: u8 = 4; // U+2028, U+2029
    const NON_ASCII: u8 = 8;
    const KNOWN: u8 = 16;

    pub fn of(name: &str) -> NameFacts {
        let mut f = Self::KNOWN;
        let b = name.as_bytes();
        for (i, &c) in b.iter().enumerate() {
            match c {
                0x00..=0x1F | b'"' | b'\\' => f |= Self::BASE,
                b'<' | b'>' | b'&' => f |= Self::HTML,
                // DEL escapes with the non-ASCII bytes (under ascii_only).
                0x7F => f |= Self::NON_ASCII,
                0x80.. => {
                    f |= Self::NON_ASCII;
                    if c == 0xE2 && b.get(i + 1) == Some(&0x80) && matches!(b.get(i + 2), Some(0xA8 | 0xA9)) {
                        f |= Self::LINE_SEP;
                    }
                }
                _ => {}
            }
        }
        NameFacts(f)
    }

    /// True when the name is written unchanged under `set`.
    #[cfg(test)]
    pub fn is_clean(self, set: EscapeSet) -> bool {
        self.is_clean_under(NameFacts::mask(set))
    }

    /// The facts that make a name need escaping under `set` (computed once
    /// per writer, so the per-field test is one AND).
    pub fn mask(set: EscapeSet) -> u8 {
        let mut touched = Self::BASE;
        if set.html {
            touched |= Self::HTML;
        }
        if set.line_separators {
            touched |= Self::LINE_SEP;
        }
        if set.ascii_only {
            touched |= Self::NON_ASCII;
        }
        touched
    }

    #[inline]
    pub fn is_clean_under(self, mask: u8) -> bool {
        self.0 & mask == 0
    }
}

/// A process-wide, lock-free, two-way set-associative cache from a
/// `&'static str` field name (by address and length) to its `NameFacts`.
///
/// serde hands struct field names to the serializer as `&'static str`, the same
/// address for every value of a type, so one relaxed load replaces a scan of
/// the name on every call. Each slot packs address (48 bits), length (11 bits)
/// and facts (5 bits) into one `u64`, so a racing update can never tear: a
/// reader sees either a whole old entry or a whole new one.
/// 512 pairs of slots (8 KiB; a document's hot names touch one 16-byte
/// pair each, so what stays in L1 is what is used). A name may sit in
/// either slot of its pair (one cache line), the newest first, so two hot
/// names whose addresses hash alike do not evict each other on every field
/// (a direct-mapped cache rescanned names 1,300 times per gsoc-2018 write).
/// Three hot names in one pair still evict each other in turn, and which
/// names share a pair depends on where the linker put them: with 128 pairs
/// the twitter model's ~115 field names had several such triples in some
/// builds and not in others (the miss path went from 2% to 11% of a typed
/// twitter write after an unrelated change moved the names); 512 pairs
/// make a triple unlikely for a few hundred hot names.
static NAME_CACHE: [AtomicU64; 2 << NAME_SETS_LOG2] = [const { AtomicU64::new(0) }; 2 << NAME_SETS_LOG2];

/// log2 of the number of slot pairs in `NAME_CACHE`.
const NAME_SETS_LOG2: u32 = 9;

const ADDR_BITS: u32 = 48;
const LEN_BITS: u32 = 11;

/// The first slot of the pair a name may sit in.
#[inline(always)]
fn name_set(addr: u64, len: u64) -> usize {
    ((addr ^ len).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - NAME_SETS_LOG2)) as usize * 2
}

#[inline(always)]
pub fn static_name_facts(name: &'static str) -> NameFacts {
    let addr = name.as_ptr() as u64;
    let len = name.len() as u64;
    let set = name_set(addr, len);
    let first = NAME_CACHE[set].load(AtomicOrdering::Relaxed);
    // Only addresses of 48 bits and lengths of 11 bits fit an entry.
    if (addr >> ADDR_BITS) | (len >> LEN_BITS) == 0 {
        // An entry holds its facts in the low 5 bits, KNOWN always among
        // them (an empty slot, 0, never matches).
        let known = (addr << (64 - ADDR_BITS)) | (len << 5) | u64::from(NameFacts::KNOWN);
        if first & !0x0F == known {
            return NameFacts(first as u8 & 0x1F);
        }
        let second = NAME_CACHE[set + 1].load(AtomicOrdering::Relaxed);
        if second & !0x0F == known {
            return NameFacts(second as u8 & 0x1F);
        }
    }
    name_facts_missed(name, set, first)
}

/// A name not in the cache: its facts, cached in the newest slot of its
/// set (the entry there, `first`, moves to the older slot) when it fits.
#[cold]
#[inline(never)]
fn name_facts_missed(name: &'static str, set: usize, first: u64) -> NameFacts {
    let facts = NameFacts::of(name);
    let (addr, len) = (name.as_ptr() as u64, name.len() as u64);
    if (addr >> ADDR_BITS) | (len >> LEN_BITS) == 0 {
        NAME_CACHE[set + 1].store(first, AtomicOrdering::Relaxed);
        NAME_CACHE[set].store((addr << (64 - ADDR_BITS)) | (len << 5) | u64::from(facts.0), AtomicOrdering::Relaxed);
    }
    facts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_order_differs_from_bytes_only_for_supplementary_vs_high_bmp() {
        let emoji = "😂".as_bytes(); // U+1F602, D83D DE02 in UTF-16
        let hebrew = "\u{fb33}".as_bytes();
        assert_eq!(compare_utf16(emoji, hebrew), Ordering::Less);
        assert_eq!(emoji.cmp(hebrew), Ordering::Greater);
        // Below U+E000 the orders agree.
        let cjk = "\u{4e2d}".as_bytes();
        assert_eq!(compare_utf16(emoji, cjk), Ordering::Greater);
        assert_eq!(compare_utf16("\u{e000}".as_bytes(), "\u{10000}".as_bytes()), Ordering::Greater);
        assert_eq!(compare_utf16(b"a", b"ab"), Ordering::Less);
        assert_eq!(compare_utf16(b"ab", b"ab"), Ordering::Equal);
        assert_eq!(compare_utf16(b"B", b"a"), Ordering::Less);
    }

    #[test]
    fn utf16_order_matches_a_reference_on_many_pairs() {
        let alphabet = [
            "a",
            "b",
            "\u{7f}",
            "\u{80}",
            "\u{7ff}",
            "\u{800}",
            "\u{d7ff}",
            "\u{e000}",
            "\u{fb33}",
            "\u{ffff}",
            "\u{10000}",
            "😂",
            "\u{10ffff}",
        ];
        let mut words = Vec::new();
        for x in alphabet {
            for y in alphabet {
                words.push(format!("{x}{y}"));
                words.push(format!("k{x}"));
            }
        }
        for a in &words {
            for b in &words {
                let reference = a.encode_utf16().cmp(b.encode_utf16());
                assert_eq!(compare_utf16(a.as_bytes(), b.as_bytes()), reference, "{a:?} vs {b:?}");
            }
        }
    }

    #[test]
    fn prefix_is_the_zero_padded_first_16_bytes() {
        let text = b"abcdefghijklmnopqrstuvwxyz";
        for n in 0..=text.len() {
            let mut b = [0u8; 16];
            let k = n.min(16);
            b[..k].copy_from_slice(&text[..k]);
            assert_eq!(load_prefix(&text[..n]), u128::from_be_bytes(b), "length {n}");
        }
    }

    #[test]
    fn a_str_has_the_sort_prefix_of_its_text() {
        // Inline strings (up to 22 bytes) take theirs from the padded
        // buffer; longer ones from their text.
        for text in ["abcdefghijklmnopqrstuvwxyz0123", "é\u{e000}😂\u{ffff}\u{fb33}\u{10ffff}abcdefghijklmnop"] {
            for n in (0..=text.len()).filter(|&n| text.is_char_boundary(n)) {
                let s = crate::value::Str::new(&text[..n]);
                for order in [KeyOrder::Utf8, KeyOrder::Utf16] {
                    assert_eq!(s.sort_prefix(order), sort_prefix(order, &text.as_bytes()[..n]), "{order:?} {:?}", &text[..n]);
                }
            }
        }
    }

    #[test]
    fn sort_prefixes_agree_with_the_full_orders() {
        let alphabet =
            ["", "a", "b", "\u{7f}", "\u{80}", "\u{d7ff}", "\u{e000}", "\u{fb33}", "\u{ffff}", "\u{10000}", "😂", "\u{10ffff}", "profile_"];
        let mut words = Vec::new();
        for x in alphabet {
            for y in alphabet {
                for z in ["", "a", "\u{e000}", "😂"] {
                    words.push(format!("{x}{y}{z}"));
                    words.push(format!("{x}{x}{y}{y}{z}"));
                }
            }
        }
        for order in [KeyOrder::Utf8, KeyOrder::Utf16] {
            for a in &words {
                for b in &words {
                    let (pa, pb) = (sort_prefix(order, a.as_bytes()), sort_prefix(order, b.as_bytes()));
                    if pa != pb {
                        assert_eq!(pa.cmp(&pb), compare(order, a.as_bytes(), b.as_bytes()), "{order:?} {a:?} {b:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn name_facts_follow_the_escape_set() {
        let plain = EscapeSet::default();
        let go = EscapeSet { html: true, line_separators: true, ascii_only: false };
        let ascii = EscapeSet { ascii_only: true, ..plain };
        assert!(NameFacts::of("schemaVersion").is_clean(go));
        assert!(!NameFacts::of("a\"b").is_clean(plain));
        assert!(NameFacts::of("a<b").is_clean(plain));
        assert!(!NameFacts::of("a<b").is_clean(go));
        assert!(NameFacts::of("x\u{2028}").is_clean(plain));
        assert!(!NameFacts::of("x\u{2028}").is_clean(go));
        assert!(NameFacts::of("é").is_clean(go));
        assert!(!NameFacts::of("é").is_clean(ascii));
    }

    #[test]
    fn cached_facts_equal_fresh_facts_when_names_outnumber_the_slots() {
        // Far more names than slots, of every kind of facts, looked up in
        // turns: sets fill, entries move to the older slot and are evicted.
        let kinds = ["id", "a<b", "é", "x\u{2029}", "tab\t", "q\"", "plain_name"];
        let names: Vec<&'static str> = (0..1500).map(|i| &*Box::leak(format!("{}{i}", kinds[i % kinds.len()]).into_boxed_str())).collect();
        for round in 0..3 {
            for i in 0..names.len() {
                let name = names[(i * 7 + round) % names.len()];
                assert_eq!(static_name_facts(name), NameFacts::of(name), "{name:?}");
            }
        }
    }

    #[test]
    fn two_names_of_one_set_keep_their_own_facts() {
        // Two names with different facts that share a set, looked up in
        // turns: each is found in either slot with its own facts.
        let set = |n: &str| name_set(n.as_ptr() as u64, n.len() as u64);
        let a: &'static str = Box::leak("a<b".to_owned().into_boxed_str());
        let b = (0..)
            .map(|i| &*Box::leak(format!("plain{i}").into_boxed_str()))
            .find(|b: &&'static str| set(b) == set(a))
            .expect("a name of the same set");
        for name in [a, b, a, b, a, a, b, b, a] {
            assert_eq!(static_name_facts(name), NameFacts::of(name), "{name:?}");
        }
    }

    #[test]
    fn cached_facts_equal_fresh_facts() {
        for name in ["id", "a<b", "é", "x\u{2029}", "tab\t"] {
            let name: &'static str = Box::leak(name.to_owned().into_boxed_str());
            assert_eq!(static_name_facts(name), NameFacts::of(name));
            assert_eq!(static_name_facts(name), NameFacts::of(name));
        }
    }
}
