//! Validation only: whether a text is one strict JSON value, building
//! nothing (checked `Raw` in Python, `RawJson::from_slice`, `parse::validate`).
//!
//! The push driver (`drive.rs`) finds the structure token by token, for
//! builders that need every token's value. A validator needs none of them,
//! so this one finds the structure of 64 bytes at a time from bit masks
//! (`blocks.rs`), as simdjson's first stage does:
//!
//! 1. **Masks to structure.** Which quotes are escaped (a sequential walk
//!    over the block's backslashes, only in blocks that have any), which
//!    bytes are inside strings (a prefix xor of the unescaped quotes: one
//!    carry-less multiplication with AVX2), and from those: the
//!    structural characters outside strings, the opening
//!    quotes, and the first byte of each run of other bytes outside strings
//!    (a number or a literal, or garbage). A control byte inside a string is
//!    refused here; each escape is checked where it starts.
//! 2. **The grammar over those positions**, one block's positions at a
//!    time (stage 1 runs ahead of the walk when it needs the next block,
//!    out of line, over up to `AHEAD` blocks, keeping only their positions
//!    (one word a block), so that the walk holds none of its vector
//!    constants and state), in a loop per container kind with a
//!    stack of open containers, a value followed by `,` or the close in the
//!    same loop: numbers are checked for their grammar only (one that ends
//!    within 8 bytes without an exponent, nearly every one, from one word:
//!    `short_number`; the others digits 8 at a time, converted only when
//!    they might be beyond the double range, which loads refuses), literals
//!    compared, member names compared with the names before them in their
//!    object:
//!    * each name goes in a slot of `Names` (a stack of slots: an
//!      object's names are the slots from its first to the cursor; a closed
//!      object's stay in the slots until written over). A name of up to 15
//!      bytes without escapes (its closing quote the first quote of its
//!      first 16 bytes, no backslash before it: one 16-byte compare,
//!      `Classify::quotes16`) is one word there, its bytes and closing
//!      quote, compared linearly behind a 2-bit bloom with the object's
//!      names before it, up to `LINEAR_NAMES` names;
//!    * past those, or at a longer name without escapes, the object's names
//!      go to the name table of the open objects (`name_table.rs`: one
//!      hash, nearly always one probe, whatever the size of the object), a
//!      long name by its keyed hash and its offset;
//!    * **shapes**: an object that opens at the slot where the object
//!      closed last began (the next object of an array, with nothing
//!      written since) compares each name first with that object's name
//!      in the same slot, one masked compare with no search and no write,
//!      as long as they agree: those names are all different, and the
//!      quote in the word says this name ends where that one did. The
//!      first name that differs, or any name after an object closed inside
//!      it (whose names were written over the slots), takes the way above,
//!      the bloom first made of the names taken so far;
//!    * objects with a name with escapes, or more names than the table
//!      takes, by the parser's hashed `DuplicateNames`, escaped names
//!      decoded, so `"a"` and `"\u0061"` are one name.
//! 3. **UTF-8** of the whole text at the end, only if a byte >= 0x80 was
//!    seen: outside strings such a byte is refused by the grammar, and UTF-8
//!    split by ASCII quotes is valid exactly when every piece is.
//!
//! Both stages are built once per ISA (`validate_avx2` and
//! `run_ahead_avx2`, and the baseline).
//!
//! This only answers valid or not. Whatever it refuses, the reference
//! driver (`Parser::drive`) walks again to say what is wrong and where, so
//! the errors are `loads`' errors; the two are tested to accept the same
//! texts (the tests below, over the JSONTestSuite and generated documents).

use super::blocks::{tail_structure, tail_structure_with, Classify, Structure};
use super::drive::Level;
use super::name_table::NameTable;
use super::number::{scan_general, NumberValue};
use super::options::{DuplicateKeys, ReadOptions};
use super::parser::{decode_escape, DuplicateNames, BOM};

/// The validator's working memory, kept between documents.
#[derive(Default)]
pub(crate) struct Work {
    /// Open containers, innermost last: `ARRAY` and 0, or for an object
    /// its first slot in `names.words` shifted left by `FIRST_SHIFT`, with
    /// the bit `SHAPED` while it takes its names from a shape, `TABLED`
    /// once its names are in `names.table`, `HASHED` once they are in
    /// `names.dups`; and its tag: the bloom of its names while they are in
    /// its words only, its stamp in `names.table` once there.
    stack: Vec<(usize, u64)>,
    names: Names,
    /// Decoded escapes.
    scratch: String,
    /// Stage 1's positions ahead of the walk (kept, so that they are not
    /// cleared for each document).
    ahead: Ahead,
}

impl Work {
    /// Whether `trim(keep)` would give anything back.
    #[inline]
    pub(crate) fn above(&self, keep: usize) -> bool {
        self.stack.capacity() > keep
            || self.names.words.capacity() > keep
            || self.scratch.capacity() > keep
            || self.names.dups.above(keep)
            || self.names.table.above(keep / 4)
    }

    pub(crate) fn trim(&mut self, keep: usize) {
        self.stack.shrink_to(keep);
        self.names.words.shrink_to(keep);
        self.scratch.shrink_to(keep);
        self.names.dups.shrink_to(keep);
        self.names.table.shrink_to(keep / 4);
    }
}

/// The names of the open objects.
#[derive(Default)]
struct Names {
    /// Names of the open objects in order, one per slot, for the shapes: a
    /// name of up to 15 bytes as its bytes and closing quote, a
    /// zero-padded word (no name has a zero byte, a control character, so
    /// equal words are equal names), and the mask of its bytes; a longer
    /// name as `LONG`; past `cursor`, the names of objects closed before.
    words: Vec<(u128, u128)>,
    /// The slot the innermost object's next name goes to (its names are
    /// the slots from its first to here).
    cursor: usize,
    /// The innermost object's names from `cursor` up to here are those
    /// of the object before it at the same slots (a shape).
    shape_end: usize,
    /// The first slot and the number of names of the object closed last
    /// (no names if they were hashed).
    last_first: usize,
    last_len: usize,
    /// The names of the open objects that are `TABLED` (their stamps are
    /// their tags in the stack).
    table: NameTable,
    /// Names of the open objects that are hashed.
    dups: DuplicateNames,
}

impl Names {
    fn clear(&mut self) {
        // (The table needs no clearing: with the stack empty, none of its
        // names is live.)
        self.words.clear();
        self.dups.clear();
        (self.cursor, self.shape_end, self.last_first, self.last_len) = (0, 0, 0, 0);
    }
}

const ARRAY: usize = usize::MAX;
const HASHED: usize = 1;
/// An object entry takes its names from a shape (`Walker::shape_end`): its
/// bloom does not hold them yet.
const SHAPED: usize = 2;
/// An object entry's names are in `names.table`, and its tag is its stamp
/// there (else, while linear, its tag is the bloom of its names).
const TABLED: usize = 4;
/// An object entry's first slot in `names` is its entry shifted right by this.
const FIRST_SHIFT: u32 = 3;
/// Names an object compares linearly (behind its bloom) before they go to
/// the name table.
const LINEAR_NAMES: usize = 16;
/// The bits of a name's word in its object's bloom (the tag of its entry in
/// `Work::stack`): a hash of the word, so that a name that is not yet in a
/// small object (nearly every name) is known so from one bit, without
/// comparing it with the others. Never the top bit, which only stamps
/// have (`NameTable::stamp`): a bloom is never taken for a stamp.
#[inline(always)]
fn name_bit(word: u128) -> u64 {
    let folded = (word as u64) ^ ((word >> 64) as u64).rotate_left(29);
    let h = folded.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    (1 << (h >> 58) | 1 << ((h >> 46) & 63)) & (u64::MAX >> 1)
}
/// A long name's entry in `Names::words`: no name's 16 bytes match it (it
/// would take 16 bytes 0xFF, which are not UTF-8: a text with them is
/// refused anyway), so a shape never takes a long name.
const LONG: (u128, u128) = (u128::MAX, u128::MAX);

/// For a name of `n` bytes (up to 16), the mask of its bytes in a
/// little-endian word read from its first byte.
const NAME_MASKS: [u128; 17] = {
    let mut t = [0u128; 17];
    let mut n = 1;
    while n <= 16 {
        t[n] = u128::MAX >> (8 * (16 - n));
        n += 1;
    }
    t
};

/// Whether `input` is one JSON text under `options`, its structure found
/// by the build of stage 1 for `level` (one this CPU runs:
/// `drive::level()`, or `Baseline`).
pub(crate) fn validate(input: &[u8], options: &ReadOptions, work: &mut Work, level: Level) -> bool {
    if options.max_size.is_some_and(|limit| input.len() > limit) {
        return false;
    }
    let b = match input.strip_prefix(BOM) {
        Some(rest) if options.allow_bom => rest,
        Some(_) => return false,
        None => input,
    };
    match level {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `Level::Avx2` is only produced when the CPU has every
        // feature `validate_avx2` enables (see `drive::level`).
        Level::Avx2 => unsafe { validate_avx2(b, options, work) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as `Level::Avx2`, for `validate_avx512`'s features.
        Level::Avx512 => unsafe { validate_avx512(b, options, work) },
        #[cfg(target_arch = "x86_64")]
        Level::Baseline => validate_with::<super::blocks::Sse2>(b, options, work),
        #[cfg(not(target_arch = "x86_64"))]
        Level::Baseline => validate_with::<super::blocks::Portable>(b, options, work),
    }
}

/// `validate_with` built for AVX2 (the walk; stage 1 is `run_ahead_avx2`).
///
/// # Safety
/// The CPU supports AVX2, BMI1, BMI2, LZCNT, POPCNT and PCLMULQDQ.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt,pclmulqdq")]
unsafe fn validate_avx2(b: &[u8], options: &ReadOptions, work: &mut Work) -> bool {
    validate_with::<super::blocks::Avx2>(b, options, work)
}

/// `validate_with` built for AVX-512 (stage 1 is `run_ahead_avx512`).
///
/// # Safety
/// The CPU supports what `Level::Avx512` needs (`drive::cpu_level`).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx2,bmi1,bmi2,lzcnt,popcnt,pclmulqdq")]
unsafe fn validate_avx512(b: &[u8], options: &ReadOptions, work: &mut Work) -> bool {
    validate_with::<super::blocks::Avx512>(b, options, work)
}

/// `validate` after the size limit and the BOM, with stage 1 by `C`
/// (whose ISA the caller runs with).
#[inline(always)]
fn validate_with<C: RunAhead>(b: &[u8], options: &ReadOptions, work: &mut Work) -> bool {
    let Work { stack, names, scratch, ahead } = work;
    let mut scan = Scan::new();
    let mut w = Walker::<C> {
        b,
        bits: 0,
        block: 0,
        next_block: 0,
        ahead: ahead.start(AHEAD),
        taken: 0,
        failed: false,
        end: 0,
        scan: &mut scan,
        stack,
        names,
        scratch,
        max_depth: options.max_depth,
        track_names: options.duplicate_keys == DuplicateKeys::Error,
        lossless: options.lossless_numbers,
        classify: std::marker::PhantomData,
    };
    let ok = w.document() && !w.failed;
    let ok = ok && scan.carry_string == 0 && (scan.high == 0 || simdutf8::basic::from_utf8(b).is_ok());
    stack.clear();
    names.clear();
    ok
}

/// What a container taken whole (`container_end`) is checked against: the
/// limits of the parse it is part of.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Nested {
    /// Containers open around it (they count toward `max_depth`).
    pub depth: usize,
    pub max_depth: usize,
    /// Names repeated in one of its objects are refused.
    pub track_names: bool,
    /// Literals beyond the double range are accepted (kept as text).
    pub lossless: bool,
}

/// The container that opens at `b[at]` (`{` or `[`), checked as `validate`
/// checks a document, inside a larger text (`nested` says how): the offset
/// after its closing bracket. `None` when it is not valid there, and also
/// when stage 1 refuses something in the rest of the block the container
/// ends in (a control byte or a bad escape in a later string): so a caller
/// that needs to know walks it again its own way; what this accepts, the
/// push driver accepts, ending at the same offset (tested below).
pub(crate) fn container_end(b: &[u8], at: usize, nested: Nested, work: &mut Work, level: Level) -> Option<usize> {
    if !matches!(b.get(at), Some(b'{' | b'[')) {
        return None;
    }
    match level {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `Level::Avx2` is only produced when the CPU has every
        // feature `container_end_avx2` enables (see `drive::level`).
        Level::Avx2 => unsafe { container_end_avx2(b, at, nested, work) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as `Level::Avx2`, for `container_end_avx512`'s features.
        Level::Avx512 => unsafe { container_end_avx512(b, at, nested, work) },
        #[cfg(target_arch = "x86_64")]
        Level::Baseline => container_end_with::<super::blocks::Sse2>(b, at, nested, work),
        #[cfg(not(target_arch = "x86_64"))]
        Level::Baseline => container_end_with::<super::blocks::Portable>(b, at, nested, work),
    }
}

/// `container_end_with` built for AVX2.
///
/// # Safety
/// The CPU supports AVX2, BMI1, BMI2, LZCNT, POPCNT and PCLMULQDQ.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt,pclmulqdq")]
unsafe fn container_end_avx2(b: &[u8], at: usize, nested: Nested, work: &mut Work) -> Option<usize> {
    container_end_with::<super::blocks::Avx2>(b, at, nested, work)
}

/// `container_end_with` built for AVX-512.
///
/// # Safety
/// The CPU supports what `Level::Avx512` needs (`drive::cpu_level`).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx2,bmi1,bmi2,lzcnt,popcnt,pclmulqdq")]
unsafe fn container_end_avx512(b: &[u8], at: usize, nested: Nested, work: &mut Work) -> Option<usize> {
    container_end_with::<super::blocks::Avx512>(b, at, nested, work)
}

/// `container_end` with stage 1 by `C` (whose ISA the caller runs with);
/// `b[at]` is `{` or `[`.
#[inline(always)]
fn container_end_with<C: RunAhead>(b: &[u8], at: usize, nested: Nested, work: &mut Work) -> Option<usize> {
    let Work { stack, names, scratch, ahead } = work;
    let mut scan = Scan::new();
    // The block `at` is in, with every byte before `at` dropped from the
    // masks: stage 1 starts at the bracket, outside any string, as at the
    // start of a document.
    let first = at & !63;
    let keep = u64::MAX << (at - first);
    let (m, within) = if first + 64 <= b.len() {
        // SAFETY: `first + 64 <= len`: the block is inside the input; the
        // caller runs with `C`'s ISA enabled.
        (unsafe { C::structure(b.as_ptr().add(first)) }, u64::MAX)
    } else {
        (tail_structure(b, first), u64::MAX >> (64 - (b.len() - first)))
    };
    let m = Structure {
        quote: m.quote & keep,
        backslash: m.backslash & keep,
        op: m.op & keep,
        ws: m.ws,
        control: m.control & keep,
        high: m.high & keep,
    };
    let bits = scan.block::<C>(m, b, first, scratch).map(|bits| bits & keep & within);
    let mut w = Walker::<C> {
        b,
        bits: bits.unwrap_or(0),
        block: first,
        next_block: first + 64,
        ahead: ahead.start(1),
        taken: 0,
        failed: bits.is_none(),
        end: 0,
        scan: &mut scan,
        stack,
        names,
        scratch,
        max_depth: nested.max_depth.saturating_sub(nested.depth),
        track_names: nested.track_names,
        lossless: nested.lossless,
        classify: std::marker::PhantomData,
    };
    let (p, c) = w.next();
    debug_assert!(w.failed || p == at);
    let ok = p == at && w.containers(c) && !w.failed;
    let end = w.end;
    let ok = ok && (scan.high == 0 || simdutf8::basic::from_utf8(&b[at..end]).is_ok());
    stack.clear();
    names.clear();
    ok.then_some(end)
}

/// Stage 1 for the block of `b` at `at`: the positions of its structure
/// (bit `k` for byte `at + k`, only bytes of `b`), `None` if the block
/// shows the text invalid.
#[inline(always)]
fn stage1<C: Classify>(b: &[u8], at: usize, scan: &mut Scan, scratch: &mut String) -> Option<u64> {
    if at + 64 <= b.len() {
        // SAFETY: `at + 64 <= len`: the block is inside the input; the
        // caller runs with `C`'s ISA enabled.
        let m = unsafe { C::structure(b.as_ptr().add(at)) };
        scan.block::<C>(m, b, at, scratch)
    } else {
        // Bits past the end of the input are cleared (`Walker::next`
        // relies on it; `tail_structure` may set some).
        // SAFETY: the caller runs with `C`'s ISA enabled.
        let m = unsafe { tail_structure_with::<C>(b, at) };
        Some(scan.block::<C>(m, b, at, scratch)? & (u64::MAX >> (64 - (b.len() - at))))
    }
}

/// The most blocks stage 1 runs ahead of the walk: 16 KiB of text, the
/// whole of a small document at once. (Runs of 1 or 4 KiB made
/// gsoc-2018.json 5 to 10% slower to validate than stage 1 inside the walk
/// was; 16 and 64 KiB were as fast.)
const AHEAD: usize = 256;

/// Stage 1's positions for the blocks ahead of the walk (`Walker::load`).
struct Ahead {
    /// Bit `k` of `bits[i]` is byte `k` of the `i`th block ahead.
    bits: [u64; AHEAD],
    /// Blocks in `bits`.
    len: usize,
    /// Stage 1 refused the block after them.
    failed: bool,
    /// How many blocks to run next time (doubled each time up to `AHEAD`:
    /// a container taken whole from a larger text, `container_end`, is
    /// often small, and the blocks after it are not stage 1's to read; so
    /// it reads at most about as many blocks past the container as the
    /// container has).
    grow: usize,
}

impl Default for Ahead {
    fn default() -> Ahead {
        Ahead { bits: [0; AHEAD], len: 0, failed: false, grow: AHEAD }
    }
}

impl Ahead {
    /// Nothing ahead; stage 1 runs `grow` blocks first.
    fn start(&mut self, grow: usize) -> &mut Ahead {
        (self.len, self.failed, self.grow) = (0, false, grow);
        self
    }
}

/// Stage 1 run ahead of the walk, built once per ISA and called out of
/// line (its vector constants and state are then nobody else's registers).
trait RunAhead: Classify {
    /// Runs stage 1 over up to `ahead.grow` blocks of `b` from `at` (at least
    /// one: `at < b.len()`) into `ahead`, stopping before one it refuses.
    ///
    /// # Safety
    /// The CPU supports the implementation's ISA.
    unsafe fn run_ahead(b: &[u8], at: usize, scan: &mut Scan, scratch: &mut String, ahead: &mut Ahead);
}

/// `RunAhead::run_ahead` with stage 1 by `C` (whose ISA the caller runs
/// with).
#[inline(always)]
fn run_ahead_with<C: Classify>(b: &[u8], at: usize, scan: &mut Scan, scratch: &mut String, ahead: &mut Ahead) {
    let n = ahead.grow.min(AHEAD);
    ahead.grow = (n * 2).min(AHEAD);
    let mut at = at;
    let mut k = 0;
    ahead.failed = false;
    let mut s = *scan;
    while k < n && at < b.len() {
        match stage1::<C>(b, at, &mut s, scratch) {
            Some(bits) => ahead.bits[k] = bits,
            None => {
                ahead.failed = true;
                break;
            }
        }
        k += 1;
        at += 64;
    }
    *scan = s;
    ahead.len = k;
}

#[cfg(target_arch = "x86_64")]
impl RunAhead for super::blocks::Avx2 {
    unsafe fn run_ahead(b: &[u8], at: usize, scan: &mut Scan, scratch: &mut String, ahead: &mut Ahead) {
        // SAFETY: the CPU supports AVX2 and the rest (this method's
        // contract).
        unsafe { run_ahead_avx2(b, at, scan, scratch, ahead) }
    }
}

/// `run_ahead_with` built for AVX2.
///
/// # Safety
/// The CPU supports AVX2, BMI1, BMI2, LZCNT, POPCNT and PCLMULQDQ.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt,pclmulqdq")]
#[inline(never)]
unsafe fn run_ahead_avx2(b: &[u8], at: usize, scan: &mut Scan, scratch: &mut String, ahead: &mut Ahead) {
    run_ahead_with::<super::blocks::Avx2>(b, at, scan, scratch, ahead);
}

#[cfg(target_arch = "x86_64")]
impl RunAhead for super::blocks::Avx512 {
    unsafe fn run_ahead(b: &[u8], at: usize, scan: &mut Scan, scratch: &mut String, ahead: &mut Ahead) {
        // SAFETY: the CPU supports AVX-512 and the rest (this method's
        // contract).
        unsafe { run_ahead_avx512(b, at, scan, scratch, ahead) }
    }
}

/// `run_ahead_with` built for AVX-512.
///
/// # Safety
/// The CPU supports what `Level::Avx512` needs (`drive::cpu_level`).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx2,bmi1,bmi2,lzcnt,popcnt,pclmulqdq")]
#[inline(never)]
unsafe fn run_ahead_avx512(b: &[u8], at: usize, scan: &mut Scan, scratch: &mut String, ahead: &mut Ahead) {
    run_ahead_with::<super::blocks::Avx512>(b, at, scan, scratch, ahead);
}

#[cfg(target_arch = "x86_64")]
impl RunAhead for super::blocks::Sse2 {
    #[inline(never)]
    unsafe fn run_ahead(b: &[u8], at: usize, scan: &mut Scan, scratch: &mut String, ahead: &mut Ahead) {
        run_ahead_with::<Self>(b, at, scan, scratch, ahead);
    }
}

#[cfg(not(target_arch = "x86_64"))]
impl RunAhead for super::blocks::Portable {
    #[inline(never)]
    unsafe fn run_ahead(b: &[u8], at: usize, scan: &mut Scan, scratch: &mut String, ahead: &mut Ahead) {
        run_ahead_with::<Self>(b, at, scan, scratch, ahead);
    }
}

/// Stage 1's state between blocks. (Copied into the run-ahead's own
/// registers while it runs: the part the out-of-line escape check writes,
/// `Escapes`, apart.)
#[derive(Clone, Copy)]
struct Scan {
    esc: Escapes,
    /// All ones if the previous block ended inside a string.
    carry_string: u64,
    /// 1 if the previous block ended in a byte of a scalar (number,
    /// literal, garbage) outside strings.
    carry_scalar: u64,
    /// Any byte >= 0x80 seen.
    high: u64,
}

impl Scan {
    fn new() -> Scan {
        Scan { esc: Escapes { carry: false, backslash: false, to: 0 }, carry_string: 0, carry_scalar: 0, high: 0 }
    }
}

/// Stage 1's state about escapes.
#[derive(Clone, Copy)]
struct Escapes {
    /// The last byte of the previous block was a backslash that escapes
    /// the first byte of this one.
    carry: bool,
    /// Any backslash seen (until then, no name has escapes).
    backslash: bool,
    /// Escapes are checked from here on (an escape already checked, such
    /// as the second half of a surrogate pair, ends before it).
    to: usize,
}

impl Scan {
    /// The structure of the block at `at`, `None` if the block shows the
    /// text invalid.
    #[inline(always)]
    fn block<C: Classify>(&mut self, m: Structure, b: &[u8], at: usize, scratch: &mut String) -> Option<u64> {
        let escaped = if m.backslash == 0 && !self.esc.carry { 0 } else { self.esc.escaped(m.backslash, b, at, scratch)? };
        let quote = m.quote & !escaped;
        // From each opening quote (included) to its closing quote (not).
        // SAFETY: the caller runs with `C`'s ISA enabled.
        let in_string = unsafe { C::prefix_xor(quote) } ^ self.carry_string;
        self.carry_string = ((in_string as i64) >> 63) as u64;
        if m.control & in_string != 0 {
            return None;
        }
        let outside = !(in_string | quote);
        let scalar = outside & !(m.ws | m.op);
        let starts = scalar & !(scalar << 1 | self.carry_scalar);
        self.carry_scalar = scalar >> 63;
        self.high |= m.high;
        Some((m.op & outside) | (quote & in_string) | starts)
    }
}

impl Escapes {
    /// Which bytes of the block at `at` are escaped (the byte after a
    /// backslash that is not itself escaped), checking each escape that
    /// starts there: `None` if one is invalid.
    #[cold]
    #[inline(never)]
    fn escaped(&mut self, backslash: u64, b: &[u8], at: usize, scratch: &mut String) -> Option<u64> {
        self.backslash = true;
        let mut escaped = u64::from(self.carry);
        self.carry = false;
        let mut left = backslash;
        while left != 0 {
            let k = left.trailing_zeros();
            left &= left - 1;
            if escaped >> k & 1 != 0 {
                continue;
            }
            if k == 63 {
                self.carry = true;
            } else {
                escaped |= 1 << (k + 1);
            }
            let p = at + k as usize;
            if p >= self.to {
                scratch.clear();
                self.to = decode_escape(b, p, scratch).ok()?;
            }
        }
        Some(escaped)
    }
}

/// Bytes that may end a number or a literal: whitespace, structural
/// characters, a quote (which the grammar then refuses).
const ENDS_SCALAR: [bool; 256] = {
    let mut t = [false; 256];
    let ends = b" \t\n\r{}[]:,\"";
    let mut i = 0;
    while i < ends.len() {
        t[ends[i] as usize] = true;
        i += 1;
    }
    t
};

/// `Walker::next` at the end of the input.
const END: usize = usize::MAX;

/// Stage 2: the grammar over the positions stage 1 finds, a chunk at a
/// time.
struct Walker<'a, 'w, C> {
    b: &'a [u8],
    /// The positions of structure of the block at `block` not yet walked.
    bits: u64,
    block: usize,
    /// The offset of the block the walk takes next (from `ahead`, or stage
    /// 1 reads it).
    next_block: usize,
    /// Stage 1's positions of the blocks from `next_block` on: `ahead.bits[taken..len]`.
    ahead: &'w mut Ahead,
    taken: usize,
    /// Stage 1 found the text invalid (the walk reached the block it
    /// refused).
    failed: bool,
    /// The offset after the outermost container, once it is closed.
    end: usize,
    scan: &'w mut Scan,
    stack: &'w mut Vec<(usize, u64)>,
    names: &'w mut Names,
    scratch: &'w mut String,
    max_depth: usize,
    track_names: bool,
    lossless: bool,
    /// Stage 1's classifier (the ISA the walk is built for).
    classify: std::marker::PhantomData<C>,
}

impl<C: RunAhead> Walker<'_, '_, C> {
    /// The next position of structure and its byte (`END` and 0 at the end
    /// of the input, or when stage 1 failed).
    #[inline(always)]
    fn next(&mut self) -> (usize, u8) {
        while self.bits == 0 {
            if !self.load() {
                return (END, 0);
            }
        }
        let p = self.block + self.bits.trailing_zeros() as usize;
        self.bits &= self.bits - 1;
        debug_assert!(p < self.b.len());
        // SAFETY: stage 1 sets bits only for bytes of `b` (`stage1` clears
        // those past the end of the last block).
        (p, unsafe { *self.b.get_unchecked(p) })
    }

    /// The next block's positions, stage 1 run over the blocks ahead when
    /// none are left (out of line, so that the walk does not hold stage 1's
    /// vector constants and state): false at the end of the input or if
    /// stage 1 failed.
    #[inline(always)]
    fn load(&mut self) -> bool {
        if self.taken >= self.ahead.len {
            if self.failed || self.ahead.failed || self.next_block >= self.b.len() {
                self.failed |= self.ahead.failed;
                return false;
            }
            // SAFETY: the walk is built for `C`'s ISA and runs only on a CPU
            // with it (`validate` and `container_end` are entered at a
            // `Level` this CPU runs).
            unsafe { C::run_ahead(self.b, self.next_block, self.scan, self.scratch, self.ahead) };
            self.taken = 0;
            if self.ahead.len == 0 {
                self.failed = true;
                return false;
            }
        }
        // (`taken < len <= AHEAD`.)
        self.bits = self.ahead.bits[self.taken];
        self.taken += 1;
        self.block = self.next_block;
        self.next_block += 64;
        true
    }

    /// One value, then the end of the input.
    #[inline(always)]
    fn document(&mut self) -> bool {
        let (p, c) = self.next();
        let ok = match c {
            b'{' | b'[' => self.containers(c),
            b'"' => true,
            _ => self.scalar(p, c),
        };
        ok && self.next().0 == END
    }

    /// Opens a container (`c` is `{` or `[`): false if too deep.
    #[inline(always)]
    fn open(&mut self, c: u8) -> bool {
        if self.stack.len() >= self.max_depth {
            return false;
        }
        if c == b'[' {
            self.stack.push((ARRAY, 0));
            return true;
        }
        // An object where the object closed last began, with nothing
        // written since (writes move the cursor on, and only a close
        // moves it back): its names are still in the slots, all
        // different, and this object's names are compared with them
        // first.
        let first = self.names.cursor;
        if first == self.names.last_first && self.names.last_len != 0 {
            self.names.shape_end = first + self.names.last_len;
            self.stack.push((first << FIRST_SHIFT | SHAPED, 0));
        } else {
            self.names.shape_end = 0;
            self.stack.push((first << FIRST_SHIFT, 0));
        }
        true
    }

    /// Closes the innermost container: `Some(true)` if its parent is an
    /// array, `Some(false)` an object, `None` if it was the outermost.
    #[inline(always)]
    fn close(&mut self) -> Option<bool> {
        let (top, _) = self.stack.pop().unwrap_or((ARRAY, 0));
        if top != ARRAY {
            let first = top >> FIRST_SHIFT;
            if top & HASHED != 0 {
                self.names.dups.close();
                self.names.last_len = 0;
            } else {
                self.names.last_len = self.names.cursor - first;
            }
            self.names.last_first = first;
            self.names.cursor = first;
            // The object around it (if any) may have had a shape: this
            // one's names were written over it.
            self.names.shape_end = 0;
        }
        self.stack.last().map(|&(t, _)| t == ARRAY)
    }

    /// The container that `c` (`{` or `[`, just read) opens, and everything
    /// in it.
    ///
    /// A loop per container kind, as the push driver's: inside an array,
    /// what may come is known without a state to look up. `after` says a
    /// value of the innermost container has just ended.
    #[inline(always)]
    fn containers(&mut self, c: u8) -> bool {
        if !self.open(c) {
            return false;
        }
        let mut in_array = c == b'[';
        let mut after = false;
        // Each turn walks the innermost container from where it is (just
        // opened, or after one of its values: `after`) until it opens or
        // closes one; inside, a value is followed by `,` or the close.
        'container: loop {
            macro_rules! close {
                ($p:expr) => {
                    match self.close() {
                        None => {
                            self.end = $p + 1;
                            return true;
                        }
                        Some(kind) => {
                            in_array = kind;
                            after = true;
                            continue 'container;
                        }
                    }
                };
            }
            macro_rules! open {
                ($c:expr) => {{
                    if !self.open($c) {
                        return false;
                    }
                    in_array = $c == b'[';
                    after = false;
                    continue 'container;
                }};
            }
            if in_array {
                let (mut p, mut c) = self.next();
                if after {
                    match c {
                        b',' => (p, c) = self.next(),
                        b']' => close!(p),
                        _ => return false,
                    }
                } else if c == b']' {
                    close!(p);
                }
                loop {
                    match c {
                        b'"' => {}
                        b'[' | b'{' => open!(c),
                        _ => {
                            if !self.scalar(p, c) {
                                return false;
                            }
                        }
                    }
                    (p, c) = self.next();
                    match c {
                        b',' => (p, c) = self.next(),
                        b']' => close!(p),
                        _ => return false,
                    }
                }
            } else {
                let (mut p, mut c) = self.next();
                if after {
                    match c {
                        b',' => (p, c) = self.next(),
                        b'}' => close!(p),
                        _ => return false,
                    }
                } else if c == b'}' {
                    close!(p);
                }
                loop {
                    // A name, ':', and the value.
                    if c != b'"' {
                        return false;
                    }
                    let (colon, sep) = self.next();
                    if sep != b':' || (self.track_names && !self.name(p, colon)) {
                        return false;
                    }
                    let (at, value) = self.next();
                    match value {
                        b'"' => {}
                        b'[' | b'{' => open!(value),
                        _ => {
                            if !self.scalar(at, value) {
                                return false;
                            }
                        }
                    }
                    (p, c) = self.next();
                    match c {
                        b',' => (p, c) = self.next(),
                        b'}' => close!(p),
                        _ => return false,
                    }
                }
            }
        }
    }

    /// A number or literal starting with `c` at `p` (or anything else
    /// there, which is not valid).
    #[inline(always)]
    fn scalar(&self, p: usize, c: u8) -> bool {
        match c {
            b'-' | b'0'..=b'9' => self.number(p),
            b't' => self.literal(p, b"true"),
            b'f' => self.literal(p, b"false"),
            b'n' => self.literal(p, b"null"),
            _ => false,
        }
    }

    /// The literal `word` at `p`, ended as a scalar ends.
    #[inline(always)]
    fn literal(&self, p: usize, word: &[u8]) -> bool {
        self.b[p..].starts_with(word) && self.ends_scalar(p + word.len())
    }

    #[inline(always)]
    fn ends_scalar(&self, at: usize) -> bool {
        self.b.get(at).is_none_or(|&c| ENDS_SCALAR[c as usize])
    }

    /// The number at `p`: its grammar, then (only if it might be beyond
    /// the double range, which is refused unless numbers are lossless) its
    /// value.
    #[inline(always)]
    fn number(&self, p: usize) -> bool {
        let b = self.b;
        if let Some(bytes) = b.get(p..p + 8) {
            if let Some(ok) = short_number(u64::from_le_bytes(bytes.try_into().expect("8 bytes"))) {
                return ok;
            }
        }
        long_number(b, p, self.lossless)
    }

    /// The name whose opening quote is at `open`, before the `:` at
    /// `colon`: false if its object has it already.
    ///
    /// A name of up to 16 bytes without escapes (nearly all) is its bytes
    /// as one zero-padded word: no name has a zero byte (a control
    /// character), so equal words are equal names, whatever their length.
    /// Small objects keep such words in `names` and compare them all.
    #[inline(always)]
    fn name(&mut self, open: usize, colon: usize) -> bool {
        let b = self.b;
        let start = open + 1;
        let i = self.names.cursor;
        let bytes = b[start..].first_chunk::<16>();
        // The name of the object before this one at the same slot, with
        // its closing quote (so this name ends there too): a name
        // different from those before it, as this one is.
        if i < self.names.shape_end {
            if let (Some(bytes), Some(&(word, mask))) = (bytes, self.names.words.get(i)) {
                // (As one xor and one test of the masked difference.)
                if (u128::from_le_bytes(*bytes) ^ word) & mask == 0 {
                    self.names.cursor = i + 1;
                    return true;
                }
            }
        }
        let Some(&mut (top, ref mut tag)) = self.stack.last_mut() else { return false };
        let first = top >> FIRST_SHIFT;
        // The name's length if it is below 16 bytes and without escapes.
        let mut short = None;
        if let Some(bytes) = bytes {
            // The closing quote is the first quote, unless a backslash
            // comes before it (a name with escapes: `general_name`).
            let (quotes, backslashes) = C::quotes16(bytes);
            let len = quotes.trailing_zeros();
            if len < 16 && backslashes & ((1 << len) - 1) == 0 {
                let mask = NAME_MASKS[len as usize + 1];
                let word = u128::from_le_bytes(*bytes) & mask;
                if top & (HASHED | SHAPED | TABLED) == 0 && i - first < LINEAR_NAMES {
                    // (`tag` is the object's bloom.)
                    let bit = name_bit(word);
                    if *tag & bit == bit && self.names.words[first..i].iter().any(|&(w, _)| w == word) {
                        return false;
                    }
                    *tag |= bit;
                    put(&mut self.names.words, i, (word, mask));
                    self.names.cursor = i + 1;
                    return true;
                }
                // (The open objects hold at most `i` names in the table.)
                if top & (HASHED | SHAPED) == 0 && top & TABLED != 0 && i < self.names.table.room() {
                    if !self.names.table.insert_short(word, len, self.stack) {
                        return false;
                    }
                    put(&mut self.names.words, i, (word, mask));
                    self.names.cursor = i + 1;
                    return true;
                }
                short = Some(len as usize);
            } else if quotes == 0 && backslashes == 0 && top & (HASHED | SHAPED) == 0 && top & TABLED != 0 && i < self.names.table.room() {
                // A longer name, its first 16 bytes plain: it ends at the
                // quote just before the ':' when there is one there (stage 1
                // found nothing but whitespace between them).
                let close = colon - 1;
                let len = close - start;
                let plain = || !self.scan.esc.backslash || !has_backslash_in(b, start + 16, len - 16);
                if b[close] == b'"' && len < u32::MAX as usize && self.stack.len() <= u32::MAX as usize && plain() {
                    if !self.names.table.insert_long(b, start, len, self.stack) {
                        return false;
                    }
                    put(&mut self.names.words, i, LONG);
                    self.names.cursor = i + 1;
                    return true;
                }
            }
        }
        general_name(self.b, self.names, self.scratch, self.stack, (open, colon, short), self.scan.esc.backslash)
    }
}

/// `Walker::number` byte by byte: the number at `b[p]`, its grammar, then
/// (only if it might be beyond the double range, which is refused unless
/// `lossless`) its value.
#[inline(never)]
fn long_number(b: &[u8], p: usize, lossless: bool) -> bool {
    let digit = |i: usize| b.get(i).is_some_and(u8::is_ascii_digit);
    let mut i = p + usize::from(b[p] == b'-');
    let int_start = i;
    match b.get(i) {
        Some(b'0') => i += 1,
        Some(b'1'..=b'9') => i += 1 + digits(b, i + 1),
        _ => return false,
    }
    let int_digits = i - int_start;
    if b.get(i) == Some(&b'.') {
        i += 1;
        if !digit(i) {
            return false;
        }
        i += digits(b, i);
    }
    let mut exponent = false;
    if matches!(b.get(i), Some(b'e' | b'E')) {
        exponent = true;
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if !digit(i) {
            return false;
        }
        i += digits(b, i);
    }
    if !b.get(i).is_none_or(|&c| ENDS_SCALAR[c as usize]) {
        return false;
    }
    // Without an exponent, a value of at most 300 integer digits is
    // far below the largest double (about 1.8e308).
    if (exponent || int_digits > 300) && !lossless {
        return in_range(b, p);
    }
    true
}

/// The number that starts the 8 bytes of `word` (little-endian), if it
/// ends inside them and has no exponent (nearly every number): whether it
/// is valid (and so in the double range), ended as a scalar ends. `None`:
/// one to read byte by byte (`Walker::number`).
#[inline(always)]
fn short_number(word: u64) -> Option<bool> {
    const ONES: u64 = u64::MAX / 255;
    // The top bit of each byte that is not a digit (as in `digits`): the
    // digits from byte `k` on are `(other >> 8 * k).trailing_zeros() / 8`
    // (8 when they reach the end of the word).
    let x = word ^ (ONES * 0x30);
    let other = (((x & (ONES * 0x7f)) + ONES * 0x76) | x) & (ONES * 0x80);
    let byte = |k: u32| (word >> (8 * k)) as u8;
    let sign = u32::from(byte(0) == b'-');
    // Integer digits: at least one, no leading zero. (A run that reaches
    // the end of the word: read byte by byte.)
    let int = (other >> (8 * sign)).trailing_zeros() / 8;
    let mut end = sign + int;
    if int == 0 {
        return Some(false);
    }
    if end >= 8 {
        return None;
    }
    if byte(sign) == b'0' && int > 1 {
        return Some(false);
    }
    if byte(end) == b'.' {
        // (Two shifts: the fraction may start at byte 8, past the word.)
        let fraction = ((other >> (8 * end)) >> 8).trailing_zeros() / 8;
        if fraction == 0 {
            return Some(false);
        }
        end += 1 + fraction;
        if end >= 8 {
            return None;
        }
    }
    match byte(end) {
        b'e' | b'E' => None,
        c => Some(ENDS_SCALAR[c as usize]),
    }
}

/// How many ASCII digits `b[from..]` starts with: 8 bytes at a time while
/// 8 are left, then byte by byte.
#[inline(always)]
fn digits(b: &[u8], from: usize) -> usize {
    const ONES: u64 = u64::MAX / 255;
    let mut i = from;
    while let Some(chunk) = b.get(i..i + 8) {
        // Digits become 0..=9; a byte is not a digit exactly when that is
        // above 9: the top bit of its byte in `(x & 0x7f..) + 0x76..` (no
        // carry between bytes) or of `x` itself.
        let x = u64::from_le_bytes(chunk.try_into().expect("8 bytes")) ^ (ONES * 0x30);
        let other = (((x & (ONES * 0x7f)) + ONES * 0x76) | x) & (ONES * 0x80);
        if other != 0 {
            return i - from + (other.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while b.get(i).is_some_and(u8::is_ascii_digit) {
        i += 1;
    }
    i - from
}

/// Whether a byte of `word` is a backslash.
#[inline(always)]
fn has_backslash(word: u128) -> bool {
    const ONES: u128 = u128::MAX / 255;
    let x = word ^ (ONES * u128::from(b'\\'));
    // A zero byte of `x` (exactly: no false positive without one).
    x.wrapping_sub(ONES) & !x & (ONES << 7) != 0
}

/// `Walker::name` for the rest: names at the very end of the input,
/// objects leaving their shape (back to their bloom), objects moving to the
/// name table (past `LINEAR_NAMES` names, or at a long name), names past the
/// table's room (it grows), and hashed objects: those with a name with
/// escapes, or too many names for the table (their names in `dups`).
#[inline(never)]
fn general_name(
    b: &[u8],
    names: &mut Names,
    scratch: &mut String,
    stack: &mut [(usize, u64)],
    (open, colon, short): (usize, usize, Option<usize>),
    backslash_seen: bool,
) -> bool {
    let start = open + 1;
    let len = short.unwrap_or_else(|| {
        // The closing quote: the last byte before the ':' that is not
        // whitespace (stage 1 found nothing else between them).
        let mut close = colon - 1;
        while close > open && matches!(b[close], b' ' | b'\t' | b'\n' | b'\r') {
            close -= 1;
        }
        close.saturating_sub(start)
    });
    // (A short name has no escapes.)
    let backslash_seen = backslash_seen && short.is_none();
    let Some(depth) = stack.len().checked_sub(1) else { return false };
    let first = stack[depth].0 >> FIRST_SHIFT;
    if stack[depth].0 & SHAPED != 0 {
        // Leaving the shape: the bloom made of the names taken from it (all
        // short: a shape takes no long name).
        stack[depth].1 = names.words[first..names.cursor].iter().fold(0, |m, &(w, _)| m | name_bit(w));
        stack[depth].0 &= !SHAPED;
    }
    names.shape_end = 0;
    let (top, tag) = stack[depth];
    if top & HASHED == 0 {
        let i = names.cursor;
        let escaped = backslash_seen && has_backslash_in(b, start, len);
        let word = (len < 16).then(|| {
            let mut bytes = [0u8; 16];
            bytes[..len].copy_from_slice(&b[start..start + len]);
            bytes[len] = b'"';
            u128::from_le_bytes(bytes)
        });
        match word {
            Some(word) if !escaped && top & TABLED == 0 && i - first < LINEAR_NAMES => {
                let bit = name_bit(word);
                if tag & bit == bit && names.words[first..i].iter().any(|&(w, _)| w == word) {
                    return false;
                }
                stack[depth].1 |= bit;
                put(&mut names.words, i, (word, NAME_MASKS[len + 1]));
                names.cursor = i + 1;
                return true;
            }
            _ => {}
        }
        let fits = depth < u32::MAX as usize && len < u32::MAX as usize;
        if !escaped && fits && names.table.reserve(i + 1, stack) {
            if top & TABLED == 0 {
                // Into the table: a stamp for the object (its bloom no
                // longer needed), and its names so far (all short: a long
                // name moves its object here).
                stack[depth] = (top | TABLED, names.table.stamp());
                for &(w, _) in &names.words[first..i] {
                    names.table.insert_short(w, short_len(w), stack);
                }
            }
            let new = match word {
                Some(word) => names.table.insert_short(word, len as u32, stack),
                None => names.table.insert_long(b, start, len, stack),
            };
            if !new {
                return false;
            }
            put(&mut names.words, i, word.map_or(LONG, |w| (w, NAME_MASKS[len + 1])));
            names.cursor = i + 1;
            return true;
        }
        // On to hashing: the object's names so far into `dups` (those in
        // the table, or its words), and no stamp, which frees its slots in
        // the table.
        let Names { words, table, dups, .. } = names;
        dups.open();
        if top & TABLED != 0 {
            table.names_of(depth, tag, b, |name, at| {
                dups.insert(b, name, at);
            });
        } else {
            for &(w, _) in &words[first..i] {
                dups.insert(b, &w.to_le_bytes()[..short_len(w) as usize], None);
            }
        }
        stack[depth] = (top & !TABLED | HASHED, 0);
        names.cursor = first;
    }
    hashed_name(b, &mut names.dups, scratch, start, len, backslash_seen)
}

/// The length of a short name from its word (bytes, closing quote, zeros).
#[inline(always)]
fn short_len(word: u128) -> u32 {
    15 - word.leading_zeros() / 8
}

/// Writes `word` to slot `i` of `names`, which has at least `i` slots.
#[inline(always)]
fn put(names: &mut Vec<(u128, u128)>, i: usize, word: (u128, u128)) {
    if let Some(slot) = names.get_mut(i) {
        *slot = word;
    } else {
        names.push(word);
    }
}

/// Whether the number at `p` is not beyond the double range (integers
/// always are: they are kept as text).
#[cold]
#[inline(never)]
fn in_range(b: &[u8], p: usize) -> bool {
    !matches!(scan_general(&b[p..]), Ok((_, NumberValue::Big, false)) | Err(_))
}

/// Whether a byte of `b[start..start + len]` is a backslash: 16 bytes at a
/// time (the last 16 overlapping), a short name as a masked word of the
/// 16 bytes from its start while they are in the input. (`contains` was a
/// byte loop: 9% of validating twitter.json.)
#[inline(always)]
fn has_backslash_in(b: &[u8], start: usize, len: usize) -> bool {
    let body = &b[start..start + len];
    let word = |t: &[u8]| u128::from_le_bytes(t.try_into().expect("16 bytes"));
    if len >= 16 {
        let mut chunks = body.chunks_exact(16);
        chunks.any(|c| has_backslash(word(c))) || has_backslash(word(&body[len - 16..]))
    } else if let Some(bytes) = b.get(start..start + 16) {
        has_backslash(word(bytes) & NAME_MASKS[len])
    } else {
        body.contains(&b'\\')
    }
}

/// A name of a hashed object: false if the object has it already.
/// `backslash_seen`: stage 1 has seen a backslash (until then, no name has
/// one).
#[inline(never)]
fn hashed_name(b: &[u8], dups: &mut DuplicateNames, scratch: &mut String, start: usize, len: usize, backslash_seen: bool) -> bool {
    let body = &b[start..start + len];
    if !backslash_seen || !has_backslash_in(b, start, len) {
        return dups.insert(b, body, Some(start));
    }
    scratch.clear();
    let mut run = 0;
    while let Some(k) = body[run..].iter().position(|&c| c == b'\\') {
        let Ok(piece) = std::str::from_utf8(&body[run..run + k]) else { return false };
        scratch.push_str(piece);
        let Ok(next) = decode_escape(body, run + k, scratch) else { return false };
        run = next;
    }
    let Ok(piece) = std::str::from_utf8(&body[run..]) else { return false };
    scratch.push_str(piece);
    dups.insert(b, scratch.as_bytes(), None)
}

#[cfg(test)]
mod tests {
    use super::super::parser::Parser;
    use super::super::visitor::Ignore;
    use super::*;

    use super::super::test_documents::{levels, options};
    use crate::DuplicateKeys;

    /// The validator accepts `input` exactly when the reference driver does,
    /// at every level, with every set of options, with fresh and with
    /// reused working memory.
    fn agree(input: &[u8], work: &mut Work) {
        for options in options() {
            let want = Parser::new(input, &options).and_then(|mut p| {
                p.drive(&mut Ignore)?;
                p.finish()
            });
            for level in levels() {
                let got = validate(input, &options, work, level);
                assert_eq!(got, want.is_ok(), "{:?} at {level:?} with {options:?}: reference {want:?}", String::from_utf8_lossy(input));
                assert_eq!(validate(input, &options, &mut Work::default(), level), got);
            }
        }
        agree_nested(input, work);
    }

    /// `container_end` at every `{` and `[` of `input` (in strings too: it
    /// starts wherever it is asked), with 0 to 2 containers open around it
    /// and names tracked or not, ends where the reference driver ends the
    /// one value there under the same limits, or refuses; and whenever the
    /// reference accepts it, accepts it with nothing after it.
    fn agree_nested(input: &[u8], work: &mut Work) {
        let sets = [
            ReadOptions::default(),
            ReadOptions::default().duplicate_keys(DuplicateKeys::Last),
            ReadOptions::lossless(),
            ReadOptions::default().max_depth(3),
        ];
        for (at, _) in input.iter().enumerate().filter(|&(_, &c)| c == b'{' || c == b'[') {
            for options in &sets {
                for depth in [0, 2] {
                    let nested = Nested {
                        depth,
                        max_depth: options.max_depth,
                        track_names: options.duplicate_keys == DuplicateKeys::Error,
                        lossless: options.lossless_numbers,
                    };
                    let limited = options.clone().max_depth(options.max_depth.saturating_sub(depth)).allow_bom(true);
                    let want = Parser::new(input, &limited).and_then(|mut p| {
                        p.i = at;
                        p.drive(&mut Ignore)?;
                        Ok(p.i)
                    });
                    for level in levels() {
                        let what = || format!("{:?} at {at}, {level:?}, {nested:?}: reference {want:?}", String::from_utf8_lossy(input));
                        if let Some(end) = container_end(input, at, nested, work, level) {
                            assert_eq!(want.as_ref().ok(), Some(&end), "{}", what());
                        }
                        if let Ok(end) = want {
                            assert_eq!(container_end(&input[..end], at, nested, work, level), Some(end), "cut after it: {}", what());
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn the_test_suite_is_judged_as_the_reference_judges_it() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/corpus/jsontestsuite/test_parsing");
        let mut work = Work::default();
        for e in std::fs::read_dir(dir).expect("JSONTestSuite") {
            agree(&std::fs::read(e.unwrap().path()).unwrap(), &mut work);
        }
    }

    /// Names repeated in every spelling (escaped or not, short and long,
    /// in small and large objects, nested), at every offset of a block.
    #[test]
    fn repeated_names_in_every_spelling() {
        let spellings: &[(&str, &str)] = &[
            ("a", "\\u0061"),
            ("a", "a"),
            ("ab", "a\\u0062"),
            ("é", "\\u00e9"),
            ("😀", "\\ud83d\\ude00"),
            ("longer than eight", "longer than eigh\\u0074"),
            ("longer than eight", "longer than eight"),
            ("q\\\"", "q\\u0022"),
            ("x", "y"),
            ("\\n", "\\u000a"),
        ];
        let mut work = Work::default();
        for &(first, second) in spellings {
            for filler in [0usize, 3, 15, 16, 40] {
                let mut members: Vec<String> = (0..filler).map(|k| format!("\"f{k}\":{k}")).collect();
                members.insert(filler / 2, format!("\"{first}\":1"));
                members.push(format!("\"{second}\":2"));
                let object = format!("{{{}}}", members.join(","));
                for doc in
                    [object.clone(), format!("[{object}]"), format!("{{\"outer\":{object},\"{second}\":3}}"), object.replace(',', " ,\n ")]
                {
                    for pad in 0..64 {
                        agree(format!("{}{doc}", " ".repeat(pad)).as_bytes(), &mut work);
                    }
                }
            }
        }
    }

    /// Small documents from a grammar of pieces, most valid, some cut
    /// short or with one byte changed, placed at every offset of a block.
    #[test]
    fn random_documents_are_judged_as_the_reference_judges_them() {
        let pieces: &[&[u8]] = &[
            b"{",
            b"}",
            b"[",
            b"]",
            b",",
            b":",
            b" ",
            b"\n  ",
            b"\t",
            b"\"a\"",
            b"\"key\"",
            b"\"\\u0061\"",
            b"\"\\n\\u00e9\\ud83d\\ude00\"",
            "\"é€😀\"".as_bytes(),
            b"\"\\\"\"",
            b"\"\\\\\"",
            b"\"x\\",
            b"\"",
            b"0",
            b"-1",
            b"1.5",
            b"12345678901234567890",
            b"1e400",
            b"-1e-400",
            b"1E+2",
            b"-0",
            b"01",
            b"1.",
            b"true",
            b"false",
            b"null",
            b"nul",
            b"tru",
            b"\x01",
            b"\xff",
            b"\"\xc3\"",
            b"\"\\ud800\"",
            b"\"\\udc00\"",
            b"\"\\x\"",
            b"[1,2,3]",
            b"{\"a\":1,\"b\":[true]}",
            b"{\"a\":1,\"a\":2}",
            b"{\"a\":1,\"\\u0061\":2}",
            b"\xEF\xBB\xBF",
        ];
        let mut work = Work::default();
        super::super::test_documents::random_documents(pieces, 4000, 6, " : ", |doc| agree(doc, &mut work));
    }

    /// Documents whose last byte (structure, a quote, a scalar) falls at
    /// every offset of the last block, whole, cut one byte short and with
    /// one byte too many: the last, partial block is read from a copy and
    /// its bits past the end are dropped.
    #[test]
    fn documents_end_at_every_offset_of_a_block() {
        let mut work = Work::default();
        let shapes: &[(&str, &str, &str)] =
            &[("[", "0,", "0]"), ("{\"k\":[", "1,", "2]}"), ("[", "\"a\",", "\"b\"]"), ("[", "true,", "null]"), ("", " ", "12")];
        for &(open, item, close) in shapes {
            for pad in 0..2 {
                for n in 0..100 {
                    let doc = format!("{}{open}{}{close}", " ".repeat(pad), item.repeat(n));
                    agree(doc.as_bytes(), &mut work);
                    agree(&doc.as_bytes()[..doc.len() - 1], &mut work);
                    agree(format!("{doc}]").as_bytes(), &mut work);
                }
            }
        }
    }

    /// Numbers whose digit runs (integer, fraction, exponent) are of every
    /// length up to 20, followed by every kind of byte, inside a document
    /// and at its very end: the fraction and exponent digits are counted 8
    /// bytes at a time.
    #[test]
    fn digit_runs_of_every_length_and_what_follows_them() {
        let mut work = Work::default();
        // Around the digits' byte values too ('/' and ':' ';' '?' '@',
        // and 0xb0..0xb9, the digits with the top bit set).
        let after: &[&[u8]] =
            &[b"", b",", b"]", b" ", b"/", b":", b";", b"?", b"@", b"a", b"e5", b".5", b"\x00", b"\x80", b"\xb5", b"\"", b"0"];
        for n in 1..=20 {
            let run = "1234567890".repeat(2)[..n].to_string();
            for shape in [format!("-{run}"), format!("0.{run}"), format!("1.5e{run}"), format!("-2.{run}E-{run}"), format!("3e+{run}")] {
                for &tail in after {
                    let mut doc = shape.clone().into_bytes();
                    doc.extend_from_slice(tail);
                    agree(&doc, &mut work);
                    let mut inside = b"[".to_vec();
                    inside.extend_from_slice(&doc);
                    inside.extend_from_slice(b",1]");
                    agree(&inside, &mut work);
                }
            }
        }
    }

    /// Names with an escape at every position of a name of up to 18 bytes,
    /// repeated in their decoded spelling or not, after a backslash elsewhere in
    /// the text (from then on each short name is checked for one), and
    /// names without escapes repeated after it.
    #[test]
    fn names_with_and_without_escapes_after_a_backslash() {
        let mut work = Work::default();
        for len in 1..=18 {
            for at in 0..len {
                let plain: String = (0..len).map(|k| if k == at { 'n' } else { (b'a' + k as u8) as char }).collect();
                let escaped: String =
                    (0..len).map(|k| if k == at { "\\u006e".to_string() } else { ((b'a' + k as u8) as char).to_string() }).collect();
                // One letter different: not a repeat.
                let other = plain.to_uppercase();
                let pairs = [
                    (&plain, &escaped),
                    (&escaped, &plain),
                    (&plain, &plain),
                    (&escaped, &escaped),
                    (&escaped, &other),
                    (&other, &escaped),
                ];
                for (first, second) in pairs {
                    for before in ["", "\"x\\ty\",", "\"\\\\\","] {
                        let doc = format!("[{before}{{\"{first}\":1,\"z\":2,\"{second}\":3}}]");
                        agree(doc.as_bytes(), &mut work);
                    }
                }
            }
        }
    }

    /// Every text of up to 8 bytes over the bytes of numbers (and some
    /// that end them or not), padded with each kind of byte: `short_number`
    /// judges every number it takes as the byte-by-byte `long_number`
    /// does, and takes the short ones without an exponent.
    #[test]
    fn short_numbers_are_judged_as_byte_by_byte() {
        let alphabet = b"-0159.eE+,]\" a";
        let mut taken = 0;
        let mut text = [0u8; 8];
        for len in 1..=6 {
            let n = alphabet.len().pow(len as u32);
            for code in 0..n {
                let mut rest = code;
                for byte in &mut text[..len] {
                    *byte = alphabet[rest % alphabet.len()];
                    rest /= alphabet.len();
                }
                for &pad in b"0,. e-" {
                    text[len..].fill(pad);
                    let want = long_number(&text, 0, false);
                    if let Some(got) = short_number(u64::from_le_bytes(text)) {
                        taken += 1;
                        assert_eq!(got, want, "{:?}", String::from_utf8_lossy(&text));
                    } else if text.iter().take_while(|c| !b", ]\"a".contains(c)).count() < 8
                        && !text.contains(&b'e')
                        && !text.contains(&b'E')
                        && want
                    {
                        panic!("a short number read byte by byte: {:?}", String::from_utf8_lossy(&text));
                    }
                }
            }
        }
        assert!(taken > 1_000_000, "{taken}");
    }

    /// Objects in a row whose names are those of the object before them
    /// (a shape), in part or with one changed, repeated, escaped, or too
    /// long or too many for the words; with objects inside them between
    /// their names (whose names are written over the shape's slots), in
    /// arrays, at every nesting: judged as the reference judges them.
    #[test]
    fn objects_that_repeat_the_names_before_them() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move |n: usize| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 11) as usize % n
        };
        // Few names, so that objects share them and repeat them.
        let names = [
            "a",
            "b",
            "c",
            "\\u0061",
            "b ",
            "sixteen-bytes-ab",
            "sixteen-bytes-abc",
            "fifteen-bytes-a",
            "a-name-of-forty-bytes-which-is-long-ish!",
            "a-name-of-forty-bytes-which-is-long-ish\\u0021",
        ];
        fn object(next: &mut impl FnMut(usize) -> usize, names: &[&str], shape: &[usize], depth: usize, out: &mut String) {
            out.push('{');
            let count = if next(3) == 0 { next(5) } else { shape.len() };
            for k in 0..count {
                if k > 0 {
                    out.push(',');
                }
                // Mostly the name the shape has here.
                let name = match shape.get(k) {
                    Some(&n) if next(5) != 0 => n,
                    _ => next(names.len()),
                };
                out.push('"');
                out.push_str(names[name]);
                out.push('"');
                out.push_str(if next(8) == 0 { " : " } else { ":" });
                value(next, names, shape, depth + 1, out);
            }
            if next(20) == 0 {
                // Too many names for the words, and for the name table
                // (`name_table::MAX_SLOTS`), some long, and at times one
                // of them again, or a name of the shape again.
                let many = [17, 40, 700][next(3)];
                let long = if next(2) == 0 { "-a-long-tail-for-a-long-name" } else { "" };
                for k in 0..many {
                    out.push_str(&format!(",\"m{k}{long}\":{k}"));
                }
                match next(4) {
                    0 => out.push_str(&format!(",\"m{}{long}\":0", next(many))),
                    1 => out.push_str(&format!(",\"{}\":0", names[next(names.len())])),
                    _ => {}
                }
            }
            out.push('}');
        }
        fn value(next: &mut impl FnMut(usize) -> usize, names: &[&str], shape: &[usize], depth: usize, out: &mut String) {
            match if depth > 3 { 0 } else { next(6) } {
                0 | 1 => out.push_str(["1", "\"s\"", "[]", "true"][next(4)]),
                2 | 3 => object(next, names, shape, depth, out),
                _ => array(next, names, depth, out),
            }
        }
        fn array(next: &mut impl FnMut(usize) -> usize, names: &[&str], depth: usize, out: &mut String) {
            // Objects of one shape, mostly.
            let shape: Vec<usize> = (0..1 + next(4)).map(|_| next(names.len())).collect();
            out.push('[');
            for k in 0..1 + next(4) {
                if k > 0 {
                    out.push(',');
                }
                if next(4) == 0 {
                    value(next, names, &shape, depth + 1, out);
                } else {
                    object(next, names, &shape, depth + 1, out);
                }
            }
            out.push(']');
        }
        let mut work = Work::default();
        let (mut valid, mut invalid) = (0, 0);
        for round in 0..3000 {
            let mut doc = String::new();
            if round % 2 == 0 {
                array(&mut next, &names, 0, &mut doc);
            } else {
                object(&mut next, &names, &[0, 1, 2], 0, &mut doc);
            }
            let opts = ReadOptions::default();
            if Parser::new(doc.as_bytes(), &opts).and_then(|mut p| p.drive(&mut Ignore)).is_ok() {
                valid += 1;
            } else {
                invalid += 1;
            }
            // Long enough for the names to be read as words (16 bytes from
            // their start in the input), and not.
            agree(format!("{doc}{}", " ".repeat(next(2) * 20)).as_bytes(), &mut work);
        }
        assert!(valid > 500 && invalid > 500, "{valid} valid, {invalid} invalid");
    }

    /// The cases the shapes must not be fooled by, one by one: a name
    /// repeated after names taken from the shape; an object inside one
    /// that writes its names over the outer object's slots (whose next
    /// names then match the slots written), itself with a shape or not.
    #[test]
    fn shapes_do_not_hide_repeated_names() {
        let mut work = Work::default();
        let pad = " ".repeat(20);
        for doc in [
            r#"[{"a":1,"b":2,"c":3},{"a":1,"b":2,"a":3}]"#,
            r#"[{"a":1,"b":2},{"a":1,"a":2}]"#,
            r#"[{"p":1,"q":2,"r":3},{"p":{"q":1,"p":0},"q":2,"p":3}]"#,
            r#"[{"p":1,"q":2,"r":3},{"p":[{"q":1,"p":0}],"q":2,"p":3}]"#,
            r#"{"p":[{"q":1,"p":0},{"q":1,"p":0}],"q":2,"p":3}"#,
            r#"[{"x":1,"y":2,"b":3},[{"a":1,"b":2}],{"b":1,"b":2}]"#,
            r#"[{"a":1,"b":2},{"a":1,"\u0061":2}]"#,
            r#"[{"a":1,"b":2},{"a":1,"b" :2,"b":3}]"#,
            r#"[{"a":1,"b":2},{"a":1,"b":2},{"a":1,"b":2,"a":3}]"#,
            r#"[{"sixteen-bytes-ab":1},{"sixteen-bytes-abc":1,"sixteen-bytes-abc":2}]"#,
        ] {
            for padded in [doc.to_string(), format!("{doc}{pad}")] {
                agree(padded.as_bytes(), &mut work);
                assert!(!validate(padded.as_bytes(), &ReadOptions::default(), &mut work, Level::Baseline), "{padded}");
            }
        }
    }

    /// Documents longer than stage 1 runs ahead at once (`AHEAD` blocks),
    /// with what stage 1 refuses (a control byte in a string, a bad escape)
    /// in blocks on both sides of each run's end, inside the value or in a
    /// string after a complete one (the walk stops before that block: the
    /// refusal must still count), and names repeated across a run's end.
    #[test]
    fn documents_longer_than_a_run_ahead() {
        let mut work = Work::default();
        let padding = "x".repeat(57);
        for items in [AHEAD - 2, AHEAD, AHEAD + 1, 2 * AHEAD + 3, 3 * AHEAD + 9] {
            // Items of 64 bytes: `"` 57 bytes `",` and 4 spaces, so item
            // `i` fills block `i` (after the 1-byte `[` and 3 spaces).
            let item = format!("\"{padding}\",    ");
            let body = item.repeat(items);
            let valid = format!("[   {body}1]");
            assert_eq!(valid.len(), 64 * items + 6);
            agree(valid.as_bytes(), &mut work);
            for bad in [&b"\x01"[..], b"\\q", b"\\u12", b"\\ud800"] {
                for at in [0, AHEAD - 1, AHEAD, AHEAD + 1, 2 * AHEAD - 1, 2 * AHEAD, 2 * AHEAD + 1, items - 1] {
                    if at >= items {
                        continue;
                    }
                    let mut doc = valid.clone().into_bytes();
                    let p = 4 + 64 * at + 20;
                    doc.splice(p..p + bad.len(), bad.iter().copied());
                    agree(&doc, &mut work);
                }
                // After a complete value: the walk ends before the block.
                let mut doc = valid.clone().into_bytes();
                doc.extend(std::iter::repeat_n(b' ', 64 * items));
                doc.extend_from_slice(b"\"");
                doc.extend_from_slice(bad);
                doc.extend_from_slice(b"\"");
                agree(&doc, &mut work);
            }
            // An object whose names are spread over the runs, repeated at
            // the end (in its escaped spelling too).
            for last in ["\"k1\"", "\"\\u006b1\"", "\"k9999\""] {
                let mut doc = String::from("{");
                for k in 0..items {
                    doc.push_str(&format!("\"k{k}\":\"{}\",", "y".repeat(50)));
                }
                doc.push_str(&format!("{last}:0}}"));
                agree(doc.as_bytes(), &mut work);
            }
            // Small objects of one shape over the runs, the last with a
            // name twice.
            let mut doc = String::from("[");
            for _ in 0..items {
                doc.push_str(&format!("{{\"a\":\"{}\",\"b\":1}},", "y".repeat(40)));
            }
            for last in ["{\"a\":1,\"b\":2}]", "{\"a\":1,\"a\":2}]", "{\"b\":1,\"\\u0062\":2}]"] {
                agree(format!("{doc}{last}").as_bytes(), &mut work);
            }
        }
    }

    /// Strings, escapes and whitespace across block ends.
    #[test]
    fn strings_across_blocks() {
        let mut work = Work::default();
        for len in 0..140 {
            for special in [&b""[..], b"\"", b"\\", b"\\\\", b"\\\"", b"\x1f", "é".as_bytes(), b"\\u00e9", b"\\ud83d\\ude00"] {
                let mut doc = b"[\"".to_vec();
                doc.extend(std::iter::repeat_n(b'a', len));
                doc.extend_from_slice(special);
                doc.extend_from_slice(b"\",");
                doc.extend(std::iter::repeat_n(b' ', len));
                doc.extend_from_slice(b"1]");
                agree(&doc, &mut work);
                doc.truncate(doc.len() - 1);
                agree(&doc, &mut work);
            }
        }
    }
}
