//! The escape scan, written once over `Vector` and const-generic over the
//! set's flags (`H`tml, `L`ine separators, `A`scii only), so every
//! (ISA, set) pair compiles to its own loop with the flag tests resolved.
//!
//! Per chunk the loop builds a "needs escape" mask in-vector, stores the
//! whole chunk to the output speculatively and advances by the clean prefix:
//! clean text costs one load, a few compares and one store per chunk. At the
//! first flagged byte it writes escapes from the table until it reaches a
//! byte that needs none, then resumes vector scanning.
//!
//! Stages, widest first: `W` (the ISA's vector), `N` (a narrower vector for
//! remainders, e.g. SSE2 under AVX2), SWAR for 8..15-byte remainders, and
//! finally one partially loaded SWAR register for the last bytes. Strings
//! of up to two `W` chunks first try a loop-free path that checks and
//! copies them with two overlapping chunks, since most keys and values are
//! short and clean. No path reads past the end of the input.

use super::scalar::{needs_at, write_escape};
use super::swar::Swar;
use super::vector::{MoveMask, Vector};

/// Room beyond `MAX_EXPANSION` per input byte left to escape. Each step
/// starts at a position `i < end`, consumes `n` bytes and keeps at most
/// `MAX_EXPANSION * n` of what it writes, so the room left never drops below
/// `MAX_EXPANSION * (end - i) + SLACK`; what a step writes past the bytes it
/// keeps (a speculative 32-byte vector store, padded 8-byte escape stores
/// reaching 14 bytes) therefore always fits.
pub(super) const SLACK: usize = 64;

/// The worst case: a control byte becomes `\u00XX`. (A 2-, 3- or 4-byte
/// character becomes at most 6, 6 or 12 bytes: no more per input byte.)
pub(super) const MAX_EXPANSION: usize = 6;

/// Whether the set escapes U+2028/U+2029 by matching their three bytes
/// (under ascii_only every non-ASCII byte is flagged anyway). A chunk's
/// masks then first flag every 0xE2 byte as a candidate, and a chunk with
/// candidates is settled exactly: with loads at +1 and +2 when the string
/// goes on that far, otherwise lane by lane (`settle_last_chunk`). The
/// scan itself never looks past a chunk, so strings without 0xE2 (almost
/// all) cost what they cost without the line separators.
const fn matches_separators(line_separators: bool, ascii_only: bool) -> bool {
    line_separators && !ascii_only
}

/// The loads at +1 and +2 of the exact line-separator test.
const SEPARATOR_TAIL: usize = 2;

/// Nibble tables of the HTML set for `Vector::lookup16`: a byte is flagged
/// when `LO[low nibble] & HI[high nibble] != 0`. Bit 1: controls (high
/// nibble 0 or 1); bit 2: `"` and `&` (0x22, 0x26); bit 4: `\\` and `<`
/// (0x5C, 0x3C); bit 8: `>` (0x3E); bit 16, with `e2` only: the byte 0xE2
/// that starts U+2028/U+2029 (a candidate, checked exactly afterwards);
/// with `rest` only (the writer's short-string check, which leaves these to
/// the escaper): bit 32, every byte >= 0x80, and bit 64, DEL (0x7F). No
/// other byte matches: each bit pairs exactly the nibbles listed, and
/// otherwise bytes >= 0x80 have a zero high-nibble entry.
const fn html_tables(e2: bool, rest: bool) -> ([u8; 16], [u8; 16]) {
    let mut lo = [1u8; 16];
    lo[0x2] |= 2;
    lo[0x6] |= 2;
    lo[0xC] |= 4;
    lo[0xE] |= 8;
    let mut hi = [0u8; 16];
    hi[0x0] = 1;
    hi[0x1] = 1;
    hi[0x2] = 2;
    hi[0x3] = 4 | 8;
    hi[0x5] = 4;
    if e2 {
        lo[0x2] |= 16;
        hi[0xE] |= 16;
    }
    if rest {
        let mut i = 0;
        while i < 16 {
            lo[i] |= 32;
            i += 1;
        }
        let mut h = 0x8;
        while h < 16 {
            hi[h] |= 32;
            h += 1;
        }
        lo[0xF] |= 64;
        hi[0x7] |= 64;
    }
    (lo, hi)
}

const HTML: ([u8; 16], [u8; 16]) = html_tables(false, false);
const HTML_E2: ([u8; 16], [u8; 16]) = html_tables(true, false);
/// For the writer's short-string check (`writer::dirty`): the HTML set,
/// DEL and every non-ASCII byte.
#[cfg(target_arch = "x86_64")]
pub(crate) const HTML_SHORT_CHECK: ([u8; 16], [u8; 16]) = html_tables(false, true);

/// Lanes holding a byte that needs escaping on its own (everything except
/// the line separators, which span three bytes), plus, with `E2`, every
/// 0xE2 byte (a possible line separator, to be checked exactly).
///
/// With a byte shuffle (AVX2) the HTML set is two table lookups rather
/// than six compares; the base set alone is cheaper by compares.
#[inline(always)]
unsafe fn flags<V: Vector, const H: bool, const A: bool, const E2: bool>(v: V) -> V {
    // SAFETY: lane-wise arithmetic only; the caller runs with V's ISA, and
    // the lookups are only reached when V implements them.
    unsafe {
        let mut mask = if V::HAS_LOOKUP && H {
            let (lo, hi) = if E2 { &HTML_E2 } else { &HTML };
            v.low_nibble().lookup16(lo).and(v.high_nibble().lookup16(hi)).nonzero()
        } else {
            let mut mask = v.lt(0x20).or(v.cmpeq(V::splat(b'\\')));
            mask = if H {
                // `"` (0x22) and `&` (0x26) differ only in bit 2, `<` (0x3C) and
                // `>` (0x3E) only in bit 1: forcing that bit on matches each pair
                // with a single compare.
                mask.or(v.or(V::splat(0x04)).cmpeq(V::splat(b'&'))).or(v.or(V::splat(0x02)).cmpeq(V::splat(b'>')))
            } else {
                mask.or(v.cmpeq(V::splat(b'"')))
            };
            if E2 {
                // Candidates only, settled by `chunk_bits`: where a compare
                // costs several instructions (SWAR), every non-ASCII byte
                // (one AND) rather than exactly the 0xE2 bytes.
                mask = mask.or(if V::CHEAP_COMPARE { v.cmpeq(V::splat(0xE2)) } else { v.high_bit() });
            }
            mask
        };
        if A {
            // Every non-ASCII byte, and DEL (0x7F), which Python's
            // ensure_ascii writes as \u007f too.
            mask = mask.or(v.high_bit()).or(v.cmpeq(V::splat(0x7F)));
        }
        mask
    }
}

/// Lanes holding a byte that needs escaping on its own (everything except
/// the line separators, which span three bytes).
#[inline(always)]
unsafe fn byte_mask<V: Vector, const H: bool, const A: bool>(v: V) -> V {
    // SAFETY: as for `flags`.
    unsafe { flags::<V, H, A, false>(v) }
}

/// Lanes where U+2028 or U+2029 (`E2 80 A8` / `E2 80 A9`) starts, given the
/// chunk and the same chunk shifted by one and two bytes. Matching all three
/// bytes exactly keeps text full of other U+2xxx characters (dashes, curly
/// quotes, arrows) on the vector path.
#[inline(always)]
unsafe fn line_separator_mask<V: Vector>(v: V, v1: V, v2: V) -> V {
    // SAFETY: lane-wise arithmetic only; the caller runs with V's ISA.
    unsafe {
        v.cmpeq(V::splat(0xE2))
            .and(v1.cmpeq(V::splat(0x80)))
            // A8 | 1 == A9: one compare for both.
            .and(v2.or(V::splat(0x01)).cmpeq(V::splat(0xA9)))
    }
}

/// The chunk at `p` and a mask of candidates: every lane that needs
/// escaping, and (when the set matches line separators) every 0xE2 lane
/// too, so a clean chunk costs one mask; `chunk_bits` settles candidates.
///
/// # Safety
/// `p..p + V::BYTES` is readable; the CPU supports `V`.
#[inline(always)]
unsafe fn chunk_mask<V: Vector, const H: bool, const L: bool, const A: bool>(p: *const u8) -> (V, V) {
    // SAFETY: the load stays within the readable range of the contract.
    unsafe {
        let v = V::load_unaligned(p);
        let mask = if matches_separators(L, A) { flags::<V, H, A, true>(v) } else { byte_mask::<V, H, A>(v) };
        (v, mask)
    }
}

/// The exact needs-escape bit mask of the chunk at `p` (ending by `end`,
/// the end of the string), and the chunk.
///
/// # Safety
/// `p..end` is readable, valid UTF-8 from `p`'s string start on, and holds
/// at least `V::BYTES` bytes; the CPU supports `V`.
#[inline(always)]
unsafe fn chunk_bits<V: Vector, const H: bool, const L: bool, const A: bool>(p: *const u8, end: *const u8) -> (V, V::Mask) {
    // SAFETY: as the caller guarantees.
    unsafe {
        let (v, candidates) = chunk_mask::<V, H, L, A>(p);
        let mut bits = candidates.movemask();
        // Most chunks that get here hold a real escape (a newline, a quote)
        // and no 0xE2 at all: they skip the three-byte match.
        if matches_separators(L, A) && bits.has_any() {
            let leads = v.cmpeq(V::splat(0xE2)).movemask();
            if !leads.has_any() {
                if !V::CHEAP_COMPARE {
                    // The candidates held every non-ASCII byte.
                    bits = byte_mask::<V, H, A>(v).movemask();
                }
            } else {
                let singles = byte_mask::<V, H, A>(v);
                bits = if end as usize - p as usize >= V::BYTES + SEPARATOR_TAIL {
                    // SAFETY: both loads end by `end`.
                    let (v1, v2) = (V::load_unaligned(p.add(1)), V::load_unaligned(p.add(2)));
                    singles.or(line_separator_mask(v, v1, v2)).movemask()
                } else {
                    singles.movemask().union(settle_last_chunk(leads, p, end))
                };
            }
        }
        (v, bits)
    }
}

/// The lanes of `leads` (0xE2 bytes of the chunk at `p`) that start U+2028
/// or U+2029, for a chunk too near the string's end for the loads at +1
/// and +2: lane by lane, within the string. Each lead's character is
/// complete (the string is valid UTF-8), so its bytes lie before `end`.
/// Only a string's last chunk with a 0xE2 byte comes here.
///
/// # Safety
/// `p + lane..end` is readable for every lane of `leads`.
#[cold]
#[inline(never)]
unsafe fn settle_last_chunk<M: MoveMask>(leads: M, p: *const u8, end: *const u8) -> M {
    leads.keep_lanes(|lane| {
        // SAFETY: the lane lies in the chunk, which lies before `end`.
        let rest = unsafe { core::slice::from_raw_parts(p.add(lane), end as usize - p as usize - lane) };
        matches!(rest, [0xE2, 0x80, third, ..] if *third | 1 == 0xA9)
    })
}

/// The needs-escape mask of a register that holds all the remaining input
/// (lanes past it padded by `Swar::load_partial`), so that shifting it is
/// an exact stand-in for the loads at +1 and +2.
#[inline(always)]
fn last_register_mask<const H: bool, const L: bool, const A: bool>(v: Swar) -> Swar {
    // SAFETY: `Swar` is plain integer arithmetic, valid on every CPU.
    unsafe {
        let mut mask = byte_mask::<Swar, H, A>(v);
        // Skipping the exact test for ASCII text (one AND) is cheaper on
        // average: SWAR compares cost several instructions each.
        if matches_separators(L, A) && v.high_bit().movemask().has_any() {
            mask = mask.or(line_separator_mask(v, v.shift_down(1), v.shift_down(2)));
        }
        mask
    }
}

/// Escapes the flagged character at `i` and every directly following one
/// that needs escaping too, up to `end`; returns the new positions.
///
/// # Safety
/// `needs_at(src, len, i)` holds, `i < end <= len`, `src..src + len` is
/// valid UTF-8, and `out` has room for `MAX_EXPANSION * (end - i) + SLACK`.
#[inline(always)]
unsafe fn escape_run<const H: bool, const L: bool, const A: bool>(
    src: *const u8,
    len: usize,
    end: usize,
    mut i: usize,
    mut out: *mut u8,
) -> (usize, *mut u8) {
    // SAFETY: `i < end <= len` per the contract.
    debug_assert!(i < end && unsafe { needs_at::<H, L, A>(src, len, i) }, "vector mask and table disagree");
    loop {
        // SAFETY: the character at `i` needs escaping (checked by the caller
        // on entry, by `needs_at` below afterwards) and `out` has at least
        // `MAX_EXPANSION` bytes per input byte left before `end`, plus SLACK.
        (i, out) = unsafe { write_escape::<A>(src, i, out) };
        // SAFETY: `i < end <= len` is checked first.
        if i >= end || !unsafe { needs_at::<H, L, A>(src, len, i) } {
            return (i, out);
        }
    }
}

/// Escapes the character at the first flagged lane of `mask` (lanes from
/// `base`), whose clean bytes from `i` on are already at `out`: returns the
/// positions after its escape.
///
/// # Safety
/// `mask` is not empty and its first flagged lane, at or after `i`, starts
/// a character that `needs_at` flags, complete in the valid UTF-8 at
/// `src`; the bytes from `i` up to it were stored at `out`, which has room
/// for them and the escape's padded store (`write_escape`).
#[inline(always)]
unsafe fn escape_first_lane<const A: bool, M: MoveMask>(src: *const u8, base: usize, mask: M, i: usize, out: *mut u8) -> (usize, *mut u8) {
    let k = base + mask.first_offset();
    // SAFETY: per the contract.
    unsafe { write_escape::<A>(src, k, out.add(k - i)) }
}

/// Escapes every flagged lane of the chunk at `base`, whose bytes were
/// stored verbatim at `out` and whose exact needs-escape mask is `mask`
/// (not empty): the clean bytes before each flagged character are already
/// in place, each escape is written from the table, and the rest of the
/// chunk is stored again after it, from the input, while another flagged
/// lane follows. Returns the positions after the last escape.
///
/// # Safety
/// `src..src + base + 2 * V::BYTES` is readable valid UTF-8 with `base` at
/// a character boundary; `mask` flags exactly the lanes of the chunk that
/// `needs_at` flags and that start a character; `out` has room for
/// `MAX_EXPANSION * (len - base) + SLACK` bytes (the caller's contract,
/// `len >= base + 2 * V::BYTES`); the CPU supports `V`.
#[inline(always)]
unsafe fn escape_masked<V: Vector, const A: bool>(src: *const u8, base: usize, mut mask: V::Mask, mut out: *mut u8) -> (usize, *mut u8) {
    let end = base + V::BYTES;
    let mut i = base;
    loop {
        // SAFETY: bytes `i..` up to the first flagged lane are clean and
        // were stored at `out` (with the chunk, or again after the last
        // escape); the mask is exact; each step keeps at most
        // `MAX_EXPANSION` bytes per input byte, so the room left covers the
        // escape's padded store and a whole chunk.
        (i, out) = unsafe { escape_first_lane::<A, V::Mask>(src, base, mask, i, out) };
        if i >= end {
            return (i, out);
        }
        mask = mask.clear_below(i - base);
        if !mask.has_any() {
            // The rest of the chunk is clean: the caller's scan goes on
            // from here.
            return (i, out);
        }
        // SAFETY: `i < base + V::BYTES`, so the load ends before
        // `base + 2 * V::BYTES`, inside the input; the store is within the
        // room left (at least `SLACK >= V::BYTES` bytes).
        unsafe { V::load_unaligned(src.add(i)).store_unaligned(out) };
    }
}

/// Escapes every flagged lane of the pair of chunks at `base` (`2 *
/// V::BYTES` bytes, stored verbatim at `out`), whose exact needs-escape
/// masks are joined in `mask` (not empty), as `escape_masked` does for one
/// chunk: after each escape the rest of the pair is stored again, from the
/// input, as two whole chunks (bytes past the pair are garbage in spare
/// room, overwritten by what follows). Returns the positions after the
/// pair, or after the last escape when that ends past it.
///
/// # Safety
/// `src..src + base + 4 * V::BYTES` is readable valid UTF-8 with `base` at
/// a character boundary; `mask` (`2 * V::BYTES` lanes, `MoveMask::joins`)
/// flags exactly the lanes of the pair that `needs_at` flags and that start
/// a character; `out` has room for `MAX_EXPANSION * (len - base) + SLACK`
/// bytes, where `len >= base + 4 * V::BYTES`; the CPU supports `V`.
#[inline(always)]
unsafe fn escape_pair_masked<V: Vector, const A: bool>(
    src: *const u8,
    base: usize,
    mut mask: V::Mask,
    mut out: *mut u8,
) -> (usize, *mut u8) {
    let end = base + 2 * V::BYTES;
    let mut i = base;
    loop {
        // SAFETY: bytes `i..` up to the first flagged lane are clean and
        // were stored at `out` (with the pair, or again after the last
        // escape); the mask is exact; each step keeps at most
        // `MAX_EXPANSION` bytes per input byte, so the room left covers the
        // escape's padded store.
        (i, out) = unsafe { escape_first_lane::<A, V::Mask>(src, base, mask, i, out) };
        if i >= end {
            return (i, out);
        }
        // SAFETY: `i < base + 2 * BYTES`, so both loads end before
        // `base + 4 * BYTES <= len`; the stores write `2 * BYTES` bytes,
        // within the room left for the `len - i > 2 * BYTES` input bytes.
        unsafe {
            V::load_unaligned(src.add(i)).store_unaligned(out);
            V::load_unaligned(src.add(i + V::BYTES)).store_unaligned(out.add(V::BYTES));
        }
        // `i - base < 2 * BYTES`, the joined mask's lane count.
        mask = mask.clear_below(i - base);
        if !mask.has_any() {
            // SAFETY: the rest of the pair, `end - i` bytes, was just
            // stored at `out`.
            return (end, unsafe { out.add(end - i) });
        }
    }
}

/// Escapes whole `V` chunks while one fits before `len`; returns the new
/// positions.
///
/// # Safety
/// `src..src + len` is valid UTF-8, `i <= len`, the CPU supports `V`, and
/// `out` has room for `MAX_EXPANSION * (len - i) + SLACK` bytes.
#[inline(always)]
unsafe fn escape_chunks<V: Vector, const H: bool, const L: bool, const A: bool>(
    src: *const u8,
    len: usize,
    mut i: usize,
    mut out: *mut u8,
) -> (usize, *mut u8) {
    let end = src.wrapping_add(len);
    while i + V::BYTES <= len {
        // Clean text two chunks at a time: one branch per pair, on the
        // candidate masks alone. A pair with any candidate (a byte to
        // escape, or, when the set matches line separators, any 0xE2) leaves
        // for the chunk-by-chunk step below, which settles candidates
        // exactly; settling them here as well would do that work twice for
        // every chunk holding a real escape (text with newlines or quotes).
        while i + 2 * V::BYTES <= len {
            // SAFETY: both chunks end by `len`; the two
            // stores write 2 * BYTES bytes at `out`, within the room promised
            // for the `2 * BYTES <= len - i` input bytes they stand for.
            let (v0, v1, first, second) = unsafe {
                let (v0, candidates0) = chunk_mask::<V, H, L, A>(src.add(i));
                let (v1, candidates1) = chunk_mask::<V, H, L, A>(src.add(i + V::BYTES));
                v0.store_unaligned(out);
                v1.store_unaligned(out.add(V::BYTES));
                (v0, v1, candidates0, candidates1)
            };
            // SAFETY: lane-wise on masks of V's ISA.
            let both = unsafe { first.or(second).movemask() };
            if both.has_any() {
                // SAFETY: lane-wise on masks of V's ISA.
                let (mut first, mut second) = unsafe { (first.movemask(), second.movemask()) };
                // With line separators, a chunk's candidates are exact too
                // when it holds no 0xE2 byte and compares are exact (`flags`
                // added only the 0xE2 lanes): the usual case for a quote or
                // a newline in go profile text. A chunk with 0xE2 bytes
                // (curly quotes, dashes: U+2xxx) is settled here, from its
                // candidates: the 0xE2 lanes are replaced by those that
                // start U+2028/U+2029 (loads at +1 and +2), rather than
                // leaving for the chunk-by-chunk step, which classified
                // the chunk again (and the rest of the pair after it).
                let (mut exact0, mut exact1) = (!matches_separators(L, A), !matches_separators(L, A));
                if matches_separators(L, A) && V::CHEAP_COMPARE {
                    // SAFETY: lane-wise on vectors of V's ISA.
                    let (leads0, leads1) = unsafe { (v0.cmpeq(V::splat(0xE2)).movemask(), v1.cmpeq(V::splat(0xE2)).movemask()) };
                    (exact0, exact1) = (true, true);
                    if leads0.union(leads1).has_any() {
                        // SAFETY: the loads at +1 and +2 of the first chunk
                        // end by `i + BYTES + 2 <= i + 2 * BYTES <= len`.
                        first = first.without(leads0).union(unsafe {
                            line_separator_mask(v0, V::load_unaligned(src.add(i + 1)), V::load_unaligned(src.add(i + 2))).movemask()
                        });
                        if leads1.has_any() {
                            if i + 2 * V::BYTES + SEPARATOR_TAIL <= len {
                                // SAFETY: those of the second end by `len`,
                                // as just checked.
                                second = second.without(leads1).union(unsafe {
                                    let at = i + V::BYTES;
                                    line_separator_mask(v1, V::load_unaligned(src.add(at + 1)), V::load_unaligned(src.add(at + 2)))
                                        .movemask()
                                });
                            } else {
                                // Settled by the chunk-by-chunk step.
                                exact1 = false;
                            }
                        }
                        if exact1 && !first.has_any() && !second.has_any() {
                            // Only other U+2xxx characters: the pair is clean.
                            i += 2 * V::BYTES;
                            // SAFETY: stays within the room promised for `i < len`.
                            out = unsafe { out.add(2 * V::BYTES) };
                            continue;
                        }
                    }
                }
                if exact0 && exact1 && V::Mask::joins(V::BYTES) && i + 4 * V::BYTES <= len {
                    // Both masks exact: the pair's flagged lanes are
                    // escaped from one joined mask, whichever chunk they
                    // lie in. Prose with a newline or a quote here and
                    // there has it in the first chunk or the second at
                    // random, which the steps below branch on (and
                    // mispredict about half the time).
                    // SAFETY: both chunks were stored verbatim at `out`,
                    // the masks are exact, `i` is at a character boundary
                    // (the pair loop only moves between characters), and
                    // `i + 4 * BYTES <= len`; the room is that promised
                    // for `i`.
                    unsafe { (i, out) = escape_pair_masked::<V, A>(src, i, first.join(second, V::BYTES), out) };
                    continue;
                }
                if !first.has_any() {
                    // A first chunk without candidates is clean and already
                    // written: the second is escaped from its own mask when
                    // that is exact (as the first below) and a further
                    // chunk follows it, for `escape_masked`'s loads;
                    // otherwise it is scanned again as the next first chunk.
                    if i + 3 * V::BYTES <= len && exact1 {
                        // SAFETY: the second chunk was stored verbatim at
                        // `out + BYTES`, its mask is exact, the chunk after
                        // it ends by `len`, and the room promised for `i`
                        // covers that promised for `i + BYTES`. It may start
                        // inside a character (one straddling the chunks),
                        // but its flagged lanes all start characters: with
                        // `A` the clean first chunk is all ASCII, and
                        // otherwise only ASCII bytes and 0xE2 leads are
                        // flagged.
                        unsafe { (i, out) = escape_masked::<V, A>(src, i + V::BYTES, second, out.add(V::BYTES)) };
                        continue;
                    }
                    i += V::BYTES;
                    // SAFETY: `i + BYTES < len`: within the room promised.
                    out = unsafe { out.add(V::BYTES) };
                } else if exact0 {
                    // The candidates are exact: every flagged lane of
                    // the first chunk is escaped from this one mask, with
                    // no second scan of the chunk (text dense in escapes,
                    // such as JSON inside a string, has several a chunk).
                    let base = i;
                    // SAFETY: the chunk was stored verbatim at `out`, its
                    // mask is exact, and the second chunk ends by `len`.
                    unsafe { (i, out) = escape_masked::<V, A>(src, i, first, out) };
                    if !second.has_any() && i <= base + V::BYTES {
                        // The rest of the pair is clean, as its masks
                        // showed: copied now rather than classified again
                        // (an escape every few hundred bytes of prose).
                        // SAFETY: the load ends by `i + BYTES <= base +
                        // 2 * BYTES <= len`; the stores write the `base + 2 *
                        // BYTES - i` bytes left of the pair (the first one
                        // up to BYTES, overlapped by the second), within the
                        // room promised for them.
                        unsafe {
                            V::load_unaligned(src.add(i)).store_unaligned(out);
                            v1.store_unaligned(out.add(base + V::BYTES - i));
                            out = out.add(base + 2 * V::BYTES - i);
                        }
                        i = base + 2 * V::BYTES;
                    }
                    continue;
                }
                break;
            }
            i += 2 * V::BYTES;
            // SAFETY: stays within the room promised for `i < len`.
            out = unsafe { out.add(2 * V::BYTES) };
        }
        if i + V::BYTES > len {
            break;
        }
        // SAFETY: `i + BYTES <= len`, so the chunk is in bounds.
        // The store writes BYTES <= SLACK bytes at `out`, within the room
        // promised for `i < len`; bytes past the clean prefix are garbage in
        // spare capacity, overwritten by whatever comes next.
        let mask = unsafe {
            let (v, bits) = chunk_bits::<V, H, L, A>(src.add(i), end);
            v.store_unaligned(out);
            bits
        };
        if !mask.has_any() {
            i += V::BYTES;
            // SAFETY: stays within the room promised for `i < len`.
            out = unsafe { out.add(V::BYTES) };
            continue;
        }
        let clean = mask.first_offset();
        i += clean;
        // SAFETY: the clean prefix was just stored, within the room.
        out = unsafe { out.add(clean) };
        // SAFETY: the mask flagged the byte at `i`, so `needs_at` holds
        // there (the vector and table tests agree by construction, which
        // the differential tests check); `i < len`, as the flagged lane lies
        // in the chunk, which ends by `len`.
        (i, out) = unsafe { escape_run::<H, L, A>(src, len, len, i, out) };
    }
    (i, out)
}

/// After whole chunks of a string written verbatim so far, the rest as
/// one chunk ending at the string's end, which overlaps bytes
/// already written: it is stored back over their identical copies, and its
/// mask ignores their lanes. One chunk instead of the narrower stages for
/// the last bytes of a long clean string. Returns the new positions (at the
/// first byte to escape, if any; the narrower stages take it from there).
///
/// # Safety
/// As for `escape_chunks`; `out - i .. out` holds exactly
/// the bytes `src[0..i]` (nothing escaped yet), and `len - i` is less than
/// `V::BYTES` (what `escape_chunks` leaves).
#[inline(always)]
unsafe fn last_window<V: Vector, const H: bool, const L: bool, const A: bool>(
    src: *const u8,
    len: usize,
    i: usize,
    out: *mut u8,
) -> (usize, *mut u8) {
    if len < V::BYTES || i >= len {
        return (i, out);
    }
    let start = len - V::BYTES;
    // `i > start`: a whole chunk from `i` no longer fit.
    let back = i - start;
    debug_assert!(back >= 1 && back < V::BYTES);
    // SAFETY: the chunk ends at `len`; the store starts `back <= i` bytes
    // before `out`, inside what was written for `src[0..i]` and rewrites
    // those bytes with their own values (they were copied verbatim), and
    // ends `len - i` bytes after `out`, within the room promised for
    // `i < len`.
    unsafe {
        let (v, bits) = chunk_bits::<V, H, L, A>(src.add(start), src.add(len));
        v.store_unaligned(out.sub(back));
        let bits = bits.skip(back);
        let done = len - i;
        if !bits.has_any() {
            return (i + done, out.add(done));
        }
        let clean = bits.first_offset();
        (i + clean, out.add(clean))
    }
}

/// Escapes the last bytes of the input, fewer than a SWAR chunk, through a
/// partially loaded register.
///
/// # Safety
/// As for `escape_chunks`.
#[inline(always)]
unsafe fn escape_tail<const H: bool, const L: bool, const A: bool>(
    src: *const u8,
    len: usize,
    mut i: usize,
    mut out: *mut u8,
) -> (usize, *mut u8) {
    while i < len {
        let rest = len - i;
        if rest > Swar::BYTES {
            // Not reached (the SWAR chunks leave fewer bytes than a
            // register), but kept exact: one byte at a time.
            // SAFETY: `i < len`; room as promised.
            (i, out) = unsafe {
                if needs_at::<H, L, A>(src, len, i) {
                    escape_run::<H, L, A>(src, len, len, i, out)
                } else {
                    *out = *src.add(i);
                    (i + 1, out.add(1))
                }
            };
            continue;
        }
        // SAFETY: `load_partial` reads exactly `src + i .. src + len`; the
        // 8-byte store stays within SLACK.
        let mask = unsafe {
            let v = Swar::load_partial(src.add(i), rest);
            v.store_unaligned(out);
            last_register_mask::<H, L, A>(v).movemask()
        };
        if !mask.has_any() {
            // SAFETY: the `rest` real bytes were just stored.
            return (len, unsafe { out.add(rest) });
        }
        // Padding lanes are never flagged, so the hit is a real byte.
        let clean = mask.first_offset();
        // SAFETY: as in `escape_chunks`.
        (i, out) = unsafe { escape_run::<H, L, A>(src, len, len, i + clean, out.add(clean)) };
    }
    (i, out)
}

/// Whether the `len` bytes at `src`, `V::BYTES <= len <= 2 * V::BYTES`,
/// are all clean; if so they are also copied to `out` with two overlapping
/// stores. No loop and no per-length branches: the common case for keys
/// and short values. A string with a 0xE2 byte, when the set matches line
/// separators, counts as not clean here: the general path settles it.
///
/// # Safety
/// `src..src + len` is readable, `out..out + len` writable, and the CPU
/// supports `V`.
#[inline(always)]
unsafe fn copy_if_clean_pair<V: Vector, const H: bool, const L: bool, const A: bool>(src: *const u8, len: usize, out: *mut u8) -> bool {
    let last = len - V::BYTES;
    // SAFETY: both loads lie within `src..src + len` given the bounds on
    // `len`; the stores cover exactly `out..out + len`.
    unsafe {
        let (head, head_mask) = chunk_mask::<V, H, L, A>(src);
        let (tail, tail_mask) = chunk_mask::<V, H, L, A>(src.add(last));
        if head_mask.or(tail_mask).movemask().has_any() {
            return false;
        }
        head.store_unaligned(out);
        tail.store_unaligned(out.add(last));
        true
    }
}

/// Copies a clean string of at most `2 * W::BYTES` bytes to `out` with a
/// single check (one or two overlapping chunks of the fitting width, or one
/// partial SWAR register), returning false, with `out` partly written, if
/// it holds anything to escape (or a 0xE2 byte, see `copy_if_clean_pair`)
/// or has no fitting shape.
///
/// # Safety
/// As for `escape`; `out` has room for `len + SLACK` bytes.
#[inline(always)]
unsafe fn copy_if_clean<W: Vector, N: Vector, const H: bool, const L: bool, const A: bool>(
    src: *const u8,
    len: usize,
    out: *mut u8,
) -> bool {
    // SAFETY: each branch checks the length bounds its helper requires.
    unsafe {
        if W::BYTES > N::BYTES && len > 2 * N::BYTES {
            return len >= W::BYTES && len <= 2 * W::BYTES && copy_if_clean_pair::<W, H, L, A>(src, len, out);
        }
        if len >= N::BYTES {
            return len <= 2 * N::BYTES && copy_if_clean_pair::<N, H, L, A>(src, len, out);
        }
        if N::BYTES > Swar::BYTES && len >= Swar::BYTES {
            // `len < N::BYTES <= 2 * Swar::BYTES`.
            return copy_if_clean_pair::<Swar, H, L, A>(src, len, out);
        }
        if len == 0 {
            return true;
        }
        if len > Swar::BYTES {
            return false;
        }
        let v = Swar::load_partial(src, len);
        // The store writes 8 bytes, within `len + SLACK`.
        v.store_unaligned(out);
        !last_register_mask::<H, L, A>(v).movemask().has_any()
    }
}

/// Writes the escape of `s` at `out`, scanning with `W`, then `N`, then
/// SWAR; returns the number of bytes written.
///
/// # Safety
/// The CPU supports `W` and `N` (the caller is compiled with their target
/// features, so everything here inlines into it), and `out` is valid for
/// `MAX_EXPANSION * s.len() + SLACK` bytes of writes.
#[inline(always)]
pub(super) unsafe fn escape<W: Vector, N: Vector, const H: bool, const L: bool, const A: bool>(out: *mut u8, s: &str) -> usize {
    let src = s.as_ptr();
    let len = s.len();
    // SAFETY: `s` is a str and `out` has the room the stages need for
    // `0..len`; stages whose vector is no narrower than the one before are
    // skipped at compile time. On success `copy_if_clean` wrote exactly
    // `len` bytes.
    unsafe {
        if len <= 2 * W::BYTES && copy_if_clean::<W, N, H, L, A>(src, len, out) {
            return len;
        }
        let (mut i, mut o) = escape_chunks::<W, H, L, A>(src, len, 0, out);
        if i < len && o as usize - out as usize == i {
            (i, o) = last_window::<W, H, L, A>(src, len, i, o);
        }
        if N::BYTES < W::BYTES {
            (i, o) = escape_chunks::<N, H, L, A>(src, len, i, o);
        }
        if Swar::BYTES < N::BYTES {
            (i, o) = escape_chunks::<Swar, H, L, A>(src, len, i, o);
        }
        (i, o) = escape_tail::<H, L, A>(src, len, i, o);
        debug_assert_eq!(i, len);
        // The stages initialised every byte in `out..o` (escapes and clean
        // bytes, contiguous).
        o as usize - out as usize
    }
}

/// Whether any whole `V` chunk from `i` (while one fits) needs escaping;
/// also returns where the scan stopped.
///
/// # Safety
/// `src..src + len` is readable and the CPU supports `V`.
#[inline(always)]
unsafe fn any_chunk<V: Vector, const H: bool, const L: bool, const A: bool>(src: *const u8, len: usize, mut i: usize) -> (bool, usize) {
    while i + V::BYTES <= len {
        // SAFETY: `i + BYTES <= len`: the chunk is in bounds, and `src` is
        // a str (valid UTF-8) of `len` bytes.
        let mask = unsafe { chunk_bits::<V, H, L, A>(src.add(i), src.add(len)).1 };
        if mask.has_any() {
            return (true, i);
        }
        i += V::BYTES;
    }
    (false, i)
}

/// Whether `escape::<W, N, H, L, A>` would change `s`, by the same masks.
///
/// # Safety
/// As for `escape`.
#[inline(always)]
pub(super) unsafe fn needs_escape<W: Vector, N: Vector, const H: bool, const L: bool, const A: bool>(s: &str) -> bool {
    let src = s.as_ptr();
    let len = s.len();
    // SAFETY: `s` is readable for `len` bytes; the CPU supports the vectors.
    unsafe {
        let (found, mut i) = any_chunk::<W, H, L, A>(src, len, 0);
        if found {
            return true;
        }
        if N::BYTES < W::BYTES {
            let (found, next) = any_chunk::<N, H, L, A>(src, len, i);
            if found {
                return true;
            }
            i = next;
        }
        if Swar::BYTES < N::BYTES {
            let (found, next) = any_chunk::<Swar, H, L, A>(src, len, i);
            if found {
                return true;
            }
            i = next;
        }
        // Fewer bytes than a register holds are left (kept exact if not).
        while len - i > Swar::BYTES {
            if needs_at::<H, L, A>(src, len, i) {
                return true;
            }
            i += 1;
        }
        i < len && last_register_mask::<H, L, A>(Swar::load_partial(src.add(i), len - i)).movemask().has_any()
    }
}
