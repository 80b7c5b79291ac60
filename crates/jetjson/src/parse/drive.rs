//! The push driver: walks one JSON text and reports its tokens to a
//! `Visitor`, as fast as this CPU allows.
//!
//! * **One build per ISA, chosen once per call.** The whole loop (with the
//!   visitor's inlined methods: the `Value` builder's pushes) is compiled
//!   once for AVX2 (with BMI1/2, LZCNT, POPCNT) and once for the x86_64
//!   baseline (SSE2) by `#[target_feature]` entry points, and `parse` picks
//!   one per call from a CPU level probed once per process. A build with no
//!   target flags so runs the same code as one built for the machine.
//! * **The input as bit masks** (`blocks.rs`): the driver keeps the
//!   whitespace, string-end and non-ASCII masks of the 64-byte block it is
//!   in, so indentation is skipped and keys are found with a shift and a
//!   trailing-zero count, each block classified once.
//! * **A loop per container kind.** Inside an array the loop knows it is in
//!   an array, and inside an object that it is in an object: what may come
//!   after a value is tested where it is known, not looked up on the stack
//!   for every value; only opening and closing a container switch loops.
//!
//! This driver only answers "valid" or "invalid": at the first byte that
//! breaks the grammar or a limit (depth, a repeated name, a number out of
//! range, ...) it stops with `Stop::Syntax`, and `parser::parse` runs the
//! reference driver (`Parser::drive`, byte by byte, with its messages) with
//! no visitor to say what is wrong and where. Both accept exactly the same
//! texts (tested differentially: this file's tests, against the reference
//! on generated documents, the test suite and the corpus; the conformance
//! suites; fuzz `parse`, `differential`), and both report tokens in the
//! same order, so a visitor sees the same calls up to the error either way.

use std::marker::PhantomData;

use super::blocks::Classify;
use super::number::{scan_general, scan_window, NumberValue, WINDOW};
use super::options::{DuplicateKeys, ReadOptions};
use super::parser::{out_of_memory_at, Buffers, DuplicateNames, BOM, OUT_OF_MEMORY};
use super::validate::{Nested, Work};
use super::visitor::{Ignore, NumberToken, Visitor};
use crate::error::{Error, Position};
use crate::value::Placed;

mod cursor;
mod escaped;
mod numbers;

use cursor::Cursor;

/// Why the driver stopped before the end.
pub(crate) enum Stop {
    /// The text is not accepted (the reference driver says why).
    Syntax,
    /// The visitor failed; the error carries its position.
    Visitor(Error),
}

type Flow<T> = std::result::Result<T, Stop>;

/// The CPU levels the driver is built for, in order: each later one runs
/// only where the earlier ones do.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub(crate) enum Level {
    /// The ISA's baseline (SSE2 on x86_64; byte by byte elsewhere).
    Baseline,
    /// x86_64 with AVX2, BMI1, BMI2, LZCNT, POPCNT and PCLMULQDQ.
    #[cfg(target_arch = "x86_64")]
    Avx2,
    /// `Avx2` and AVX-512 F, BW and VL: the block classifier with one
    /// 64-byte register per block (the writer, which has no AVX-512 build,
    /// runs its AVX2 one).
    #[cfg(target_arch = "x86_64")]
    Avx512,
}

/// The variable that sets the level (`baseline`, `avx2` or `avx512`), read
/// once by the probe: for measuring the levels side by side in one build
/// (as simdjson's `SIMDJSON_FORCE_IMPLEMENTATION`). It never raises the
/// level above what this CPU runs; `avx512` also picks AVX-512 on a CPU
/// that splits 512-bit operations (see `capped`). Any other value is
/// ignored.
pub const LEVEL_VAR: &str = "JETJSON_LEVEL";

/// The best level this CPU runs (capped by `LEVEL_VAR`), probed once per
/// process (the probe out of line: inline, a level known is one load and
/// a compare).
#[inline(always)]
pub(crate) fn level() -> Level {
    #[cfg(target_arch = "x86_64")]
    {
        use std::sync::atomic::Ordering;
        match LEVEL.load(Ordering::Relaxed) {
            1 => Level::Baseline,
            2 => Level::Avx2,
            3 => Level::Avx512,
            _ => probe(),
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    Level::Baseline
}

/// The level the push driver runs at when it builds something: `level()`,
/// but AVX2 where that is AVX-512 in a build without AVX-512 enabled at
/// compile time (no target flags: the Python extension, a plain `cargo
/// build`). There the AVX-512 entry point also turns AVX-512 on for the
/// visitor's code inlined into the driver (the `Value` builder, Python's
/// object builder), which made some documents slower on a Zen 5: Python's
/// `loads` 2% on canada and 2-6% on a 1.5 KB envelope, `Value` 2% on mesh;
/// the validator (`level()`) is 3-9% faster on every document, and a build
/// for the machine (`-C target-cpu=native`), whose both entry points have
/// AVX-512, runs the AVX-512 driver level or faster on every document
/// (bench/results/avx512-42-2026-11-30.md).
#[inline(always)]
pub(crate) fn parse_level() -> Level {
    let level = level();
    #[cfg(all(target_arch = "x86_64", not(target_feature = "avx512bw")))]
    if level == Level::Avx512 {
        return Level::Avx2;
    }
    level
}

#[cfg(target_arch = "x86_64")]
static LEVEL: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(0);

/// `level` the first time: probes the CPU, applies `LEVEL_VAR` and keeps
/// the answer in `LEVEL`.
#[cfg(target_arch = "x86_64")]
#[cold]
#[inline(never)]
fn probe() -> Level {
    use std::sync::atomic::Ordering;
    let level = capped(cpu_level(), full_width_512(), std::env::var(LEVEL_VAR).ok().as_deref());
    LEVEL.store(
        match level {
            Level::Baseline => 1,
            Level::Avx2 => 2,
            Level::Avx512 => 3,
        },
        Ordering::Relaxed,
    );
    level
}

/// The level run on a CPU whose features allow `cpu`, given `var`, the
/// value of `LEVEL_VAR` (if set): never above `cpu`. With no level named,
/// AVX-512 only where 512-bit operations run at full width
/// (`full_width_512`): on a Zen 5 the AVX-512 build of the driver was 1-14%
/// faster than its AVX2 build, and of the validator 4-9%
/// (bench/results/avx512-42-2026-11-30.md); on a Zen 4, which splits them
/// in two, an AVX-512 build of the driver was 10-17% slower (commit
/// 6c44763).
#[cfg(target_arch = "x86_64")]
fn capped(cpu: Level, full_width_512: bool, var: Option<&str>) -> Level {
    let cap = match var {
        Some("baseline") => Level::Baseline,
        Some("avx2") => Level::Avx2,
        Some("avx512") => Level::Avx512,
        _ if full_width_512 => Level::Avx512,
        _ => Level::Avx2,
    };
    cpu.min(cap)
}

/// Whether this CPU runs 512-bit operations at full width, as far as
/// known: every CPU but AMD's family 0x19 (Zen 4, the only AMD family
/// with AVX-512 and 256-bit data paths). (Intel's AVX-512 CPUs have not
/// been measured.)
#[cfg(target_arch = "x86_64")]
fn full_width_512() -> bool {
    use std::arch::x86_64::__cpuid;
    // (Leaf 0: the vendor; leaf 1: the family. Both exist on every x86_64
    // CPU.)
    let (vendor, signature) = (__cpuid(0), __cpuid(1).eax);
    let amd = (vendor.ebx, vendor.edx, vendor.ecx) == (0x6874_7541, 0x6974_6e65, 0x444d_4163);
    // The family: the base family, plus the extended family when the base
    // is 0xf.
    let base = signature >> 8 & 0xf;
    let family = if base == 0xf { base + (signature >> 20 & 0xff) } else { base };
    !(amd && family == 0x19)
}

/// The best level this CPU runs, whatever `LEVEL_VAR` says (the tests run
/// every level up to it).
#[cfg(target_arch = "x86_64")]
pub(crate) fn cpu_level() -> Level {
    let avx2 = std::is_x86_feature_detected!("avx2")
        && std::is_x86_feature_detected!("bmi1")
        && std::is_x86_feature_detected!("bmi2")
        && std::is_x86_feature_detected!("lzcnt")
        && std::is_x86_feature_detected!("popcnt")
        // (For the validator's carry-less prefix xor, `blocks.rs`.)
        && std::is_x86_feature_detected!("pclmulqdq");
    let avx512 = avx2
        && std::is_x86_feature_detected!("avx512f")
        && std::is_x86_feature_detected!("avx512bw")
        && std::is_x86_feature_detected!("avx512vl");
    if avx512 {
        Level::Avx512
    } else if avx2 {
        Level::Avx2
    } else {
        Level::Baseline
    }
}

/// What to walk.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Span {
    /// The whole input: one JSON text (the size limit and byte order mark
    /// applied), and nothing after it but whitespace.
    Document,
    /// One value from this offset (after whitespace), and no further: the
    /// serde deserializer hands a `Value` inside a larger text to the
    /// builder this way (`door.rs`).
    ValueAt(usize),
}

/// Walks `input` into `v` with the driver built for `level`, which must be
/// one this CPU runs (`level()`, or `Baseline`: the tests drive each): the
/// offset after what was walked.
#[inline(always)]
pub(crate) fn drive<V: Visitor + ?Sized>(
    input: &[u8],
    span: Span,
    options: &ReadOptions,
    v: &mut V,
    buffers: &mut Buffers,
    level: Level,
) -> Flow<usize> {
    match level {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `Level::Avx2` is only produced when the CPU has every
        // feature `drive_avx2` enables (see `level`; the tests pass it only
        // then too).
        Level::Avx2 => unsafe { drive_avx2(input, span, options, v, buffers) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as `Level::Avx2`, for `drive_avx512`'s features.
        Level::Avx512 => unsafe { drive_avx512(input, span, options, v, buffers) },
        #[cfg(target_arch = "x86_64")]
        Level::Baseline => run::<super::blocks::Sse2, V>(input, span, options, v, buffers),
        #[cfg(not(target_arch = "x86_64"))]
        Level::Baseline => run::<super::blocks::Portable, V>(input, span, options, v, buffers),
    }
}

/// # Safety
/// The CPU supports AVX2, BMI1, BMI2, LZCNT and POPCNT.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
unsafe fn drive_avx2<V: Visitor + ?Sized>(
    input: &[u8],
    span: Span,
    options: &ReadOptions,
    v: &mut V,
    buffers: &mut Buffers,
) -> Flow<usize> {
    run::<super::blocks::Avx2, V>(input, span, options, v, buffers)
}

/// # Safety
/// The CPU supports what `Level::Avx512` needs (`cpu_level`).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx2,bmi1,bmi2,lzcnt,popcnt")]
unsafe fn drive_avx512<V: Visitor + ?Sized>(
    input: &[u8],
    span: Span,
    options: &ReadOptions,
    v: &mut V,
    buffers: &mut Buffers,
) -> Flow<usize> {
    run::<super::blocks::Avx512, V>(input, span, options, v, buffers)
}

#[inline(always)]
fn run<C: Classify, V: Visitor + ?Sized>(input: &[u8], span: Span, options: &ReadOptions, v: &mut V, buffers: &mut Buffers) -> Flow<usize> {
    let mut i = 0;
    match span {
        Span::Document => {
            if options.max_size.is_some_and(|limit| input.len() > limit) {
                return Err(Stop::Syntax);
            }
            if input.starts_with(BOM) {
                if !options.allow_bom {
                    return Err(Stop::Syntax);
                }
                i = BOM.len();
            }
        }
        Span::ValueAt(from) => i = from,
    }
    // The kept buffers are borrowed, not moved out and back: for a small
    // document the moves were a good part of a parse.
    let mut d = Driver::<C> {
        b: input,
        at: Cursor::START,
        scratch: &mut buffers.scratch,
        dups: &mut buffers.dups,
        track_names: options.duplicate_keys == DuplicateKeys::Error,
        raw_names: false,
        check: if v.takes_raw() { buffers.check.take() } else { None },
        raw_small: false,
        max_depth: options.max_depth,
        lossless: options.lossless_numbers,
        isa: PhantomData,
    };
    let stack = &mut buffers.stack;
    // Empty after every parse that returned; a visitor that panicked (the
    // panic caught) left its open containers here, which would count
    // against `max_depth` (`may_enter`) in this parse.
    stack.clear();
    let result = d.document(v, stack, i, span == Span::Document);
    d.scratch.clear();
    d.dups.clear();
    stack.clear();
    // Taken only for builders that take containers whole (the slot is then
    // empty): moved back without the drop of the slot's old value that an
    // assignment would make on every parse.
    if let Some(work) = d.check {
        buffers.check.get_or_insert(work);
    }
    result
}

/// The document `input` when its value is no container (a string, number
/// or literal, with whitespace around it): walked into `v` with the
/// baseline build of the driver's own methods (`Driver::scalar`,
/// `Driver::only_whitespace_after`), inlined into the caller, so a tiny
/// document pays no call into an ISA entry point and touches no container
/// stack, name tracker or kept memory. `None`, with nothing reported to `v`,
/// when the value is a container: the caller walks it with `drive`. The
/// size limit and byte order mark are applied first, as `run` applies them.
/// The scratch for a string with escapes is this call's own (allocated
/// only for such a string).
#[inline(always)]
pub(crate) fn scalar_document<V: Visitor + ?Sized>(input: &[u8], options: &ReadOptions, v: &mut V) -> Option<Flow<usize>> {
    #[cfg(target_arch = "x86_64")]
    type C = super::blocks::Sse2;
    #[cfg(not(target_arch = "x86_64"))]
    type C = super::blocks::Portable;
    let mut i = 0;
    if options.max_size.is_some_and(|limit| input.len() > limit) {
        return Some(Err(Stop::Syntax));
    }
    if input.starts_with(BOM) {
        if !options.allow_bom {
            return Some(Err(Stop::Syntax));
        }
        i = BOM.len();
    }
    let mut scratch = String::new();
    // Only containers touch the name tracker (`open`, and `name` with
    // `track_names`, false here), so it stays empty and owns no memory:
    // not dropped (its drop was a call on every tiny document).
    let mut dups = std::mem::ManuallyDrop::new(DuplicateNames::EMPTY);
    let mut d = Driver::<C> {
        b: input,
        at: Cursor::START,
        scratch: &mut scratch,
        dups: &mut dups,
        track_names: false,
        raw_names: false,
        check: None,
        raw_small: false,
        max_depth: options.max_depth,
        lossless: options.lossless_numbers,
        isa: PhantomData,
    };
    let i = d.skip_ws(i);
    if matches!(input.get(i), Some(b'{' | b'[')) {
        return None;
    }
    Some(d.scalar(v, i).and_then(|end| d.only_whitespace_after(end).map(|()| end)))
}

/// The number literal at `at` in `b`, read as the driver reads a number
/// outside an array (`Driver::number`, numbers not kept lossless): its
/// token and the offset after it. `None` wherever the driver would stop
/// (not a number there, bad syntax, a literal beyond the double range):
/// a caller that gets `None` parses the document with `parse` for the
/// error. What follows the literal is not looked at. For bindings' quick
/// walkers of small documents (Python's `loads` of a flat object).
#[doc(hidden)]
#[inline(always)]
pub fn number_at(b: &[u8], at: usize) -> Option<(NumberToken<'_>, usize)> {
    if at >= b.len() {
        return None;
    }
    if let Some((w, (len, value, is_integer))) =
        b.get(at..).and_then(<[u8]>::first_chunk::<WINDOW>).and_then(|w| Some((w, scan_window(w)?)))
    {
        // The literal's `len` bytes are inside the window and ASCII.
        let text = ascii(w.get(..len)?);
        return Some((NumberToken { text, is_integer, value }, at + len));
    }
    if let Some((len, value)) = b.get(at..).and_then(tail_integer) {
        return Some((NumberToken { text: ascii(b.get(at..at + len)?), is_integer: true, value }, at + len));
    }
    number_general(b, at, false).ok()
}

/// The reference driver's error for text after the value, at `at`.
#[cold]
#[inline(never)]
fn trailing(b: &[u8], at: usize) -> Error {
    Error::syntax(super::parser::TRAILING).at(Position::locate(b, at)).note_input_end(b)
}

/// Containers taken whole shorter than this (in bytes) are cheaper to walk
/// with the driver than to check with the validator (`Driver::raw_text`):
/// the validator costs about 250 instructions more to start (the masks of
/// the first block, its working memory) and about 1.8 fewer per byte of
/// typical records (callgrind, `examples/raw_loop.rs`: 1000 small members
/// taken whole, 430 instructions each walked, 600 each validated).
const RAW_SMALL: usize = 192;

struct Driver<'a, C> {
    b: &'a [u8],
    /// The current block and its masks.
    at: Cursor,
    /// Decoded text of the last string with escapes.
    scratch: &'a mut String,
    dups: &'a mut DuplicateNames,
    track_names: bool,
    /// Names are tracked only for the text the visitor takes whole, at its
    /// request (`Visitor::refuses_repeats_in_raw`).
    raw_names: bool,
    /// The validator's working memory, for containers taken whole (taken
    /// from the buffers only for builders that take any).
    check: Option<Box<Work>>,
    /// The last container taken whole was shorter than `RAW_SMALL`: the
    /// next one is walked here rather than checked by the validator.
    raw_small: bool,
    max_depth: usize,
    lossless: bool,
    isa: PhantomData<C>,
}

/// How a string ended.
enum Text<'a> {
    /// No escapes and no byte >= 0x80: the body as it is.
    Ascii(&'a str),
    /// No escapes: the body as it is.
    Plain(&'a str),
    /// With escapes: the decoded text is in `scratch`; the raw body.
    Decoded(&'a str),
    /// With escapes, decoded into the room the visitor lent
    /// (`Visitor::text_room`).
    Placed(Placed),
}

impl<'a, C: Classify> Driver<'a, C> {
    /// The first byte at or after `i` that is not whitespace (the length of
    /// the input, or beyond it, at the end).
    #[inline(always)]
    fn skip_ws(&mut self, i: usize) -> usize {
        self.at.skip_ws::<C>(self.b, i)
    }

    /// The first `"`, `\` or control byte at or after `i` (at or beyond the
    /// end of the input if none), and whether a byte >= 0x80 comes before.
    #[inline(always)]
    fn string_stop(&mut self, i: usize) -> (usize, bool) {
        self.at.string_stop::<C>(self.b, i)
    }

    /// The string whose opening quote is at `q`: its text, and the position
    /// after its closing quote.
    #[inline(always)]
    fn string<V: Visitor + ?Sized>(&mut self, v: &mut V, q: usize) -> Flow<(Text<'a>, usize)> {
        let b = self.b;
        let start = q + 1;
        let (stop, high) = self.string_stop(start);
        if b.get(stop) == Some(&b'"') {
            let body = &b[start..stop];
            if !high {
                // SAFETY: no byte >= 0x80 in the body: it is ASCII.
                return Ok((Text::Ascii(unsafe { std::str::from_utf8_unchecked(body) }), stop + 1));
            }
            return match plain_text::<C>(b, start, stop) {
                Some(text) => Ok((Text::Plain(text), stop + 1)),
                None => Err(Stop::Syntax),
            };
        }
        // Into the visitor's room when it lends one (the `Value` builder's
        // arena), unless the name tracker wants the text; one call either
        // way, so that none of the room's handling is in the driver.
        let (text, at) = escaped::string_with_escapes::<C, V>(b, self.at, start, stop, high, !self.track_names, self.scratch, v);
        self.at = at;
        text
    }

    /// Records the member name at `at`; if the open object has it already,
    /// `Syntax` (the reference driver explains it) or, when the names are
    /// tracked only because the visitor asked (`raw_names`), the error
    /// itself: the reference's explanation walks with no visitor, which
    /// would not ask.
    #[inline(always)]
    fn name(&mut self, text: &Text<'a>, at: usize) -> Flow<()> {
        if !self.track_names {
            return Ok(());
        }
        let fresh = match *text {
            Text::Ascii(s) | Text::Plain(s) => self.dups.insert(self.b, s.as_bytes(), Some(s.as_ptr() as usize - self.b.as_ptr() as usize)),
            Text::Decoded(_) => self.dups.insert(self.b, self.scratch.as_bytes(), None),
            // SAFETY: decoded just now into the visitor's room, which
            // nothing writes before the visitor gets it.
            Text::Placed(ref p) => self.dups.insert(self.b, unsafe { p.as_str() }.as_bytes(), None),
        };
        match (fresh, self.raw_names) {
            (true, _) => Ok(()),
            (false, false) => Err(Stop::Syntax),
            (false, true) => Err(Stop::Visitor(self.repeated(text, at))),
        }
    }

    /// The error for a repeat of the name `text`, at `at`, as the reference
    /// driver words it under `DuplicateKeys::Error`.
    #[cold]
    #[inline(never)]
    fn repeated(&self, text: &Text<'a>, at: usize) -> Error {
        let key = match *text {
            Text::Ascii(s) | Text::Plain(s) => s.to_owned(),
            Text::Decoded(_) => self.scratch.clone(),
            // SAFETY: as in `name`.
            Text::Placed(ref p) => unsafe { p.as_str() }.to_owned(),
        };
        Error::new(crate::error::ErrorKind::DuplicateKey { key }).at(Position::locate(self.b, at))
    }

    /// Reports a string value.
    #[inline(always)]
    fn visit_string<V: Visitor + ?Sized>(&self, v: &mut V, text: Text<'_>, at: usize) -> Flow<()> {
        let r = match text {
            Text::Ascii(s) => v.ascii_string(s),
            Text::Plain(s) => v.string(s, s),
            Text::Decoded(raw) => v.string(self.scratch, raw),
            Text::Placed(p) => v.placed_string(p),
        };
        r.map_err(|e| locate(self.b, at, e))
    }

    /// Reports a member name.
    #[inline(always)]
    fn visit_key<V: Visitor + ?Sized>(&self, v: &mut V, text: Text<'_>, at: usize) -> Flow<()> {
        let r = match text {
            // The body starts after the quote at `at` (after a `{` or `,`,
            // so at least 1).
            Text::Ascii(s) if v.takes_around() => match self.b.get(at.wrapping_sub(1)..).and_then(<[u8]>::first_chunk::<24>) {
                Some(around) => v.ascii_key_around(s, around),
                None => v.ascii_key(s),
            },
            Text::Ascii(s) => v.ascii_key(s),
            Text::Plain(s) => v.key(s, s),
            Text::Decoded(raw) => v.key(self.scratch, raw),
            Text::Placed(p) => v.placed_key(p),
        };
        r.map_err(|e| locate(self.b, at, e))
    }

    /// `true`, `false` or `null` at `at`: the position after it.
    #[inline(always)]
    fn literal<V: Visitor + ?Sized>(&self, v: &mut V, at: usize) -> Flow<usize> {
        let rest = &self.b[at..];
        // Compared as words, not with `memcmp` (a call, for slices).
        let (r, len) = match rest.first_chunk::<4>() {
            Some(b"true") => (v.bool(true), 4),
            Some(b"null") => (v.null(), 4),
            Some(b"fals") if rest.get(4) == Some(&b'e') => (v.bool(false), 5),
            _ => return Err(Stop::Syntax),
        };
        r.map_err(|e| locate(self.b, at, e))?;
        Ok(at + len)
    }

    /// A number outside an array: the position after it.
    ///
    /// Each way of reading it reports it on its own path: reported once
    /// where the ways met, the token of any was stored to the stack to
    /// meet the others' and read back through a jump table on its kind, on
    /// every number (as in `numbers.rs`).
    #[inline(always)]
    fn number<V: Visitor + ?Sized>(&self, v: &mut V, at: usize) -> Flow<usize> {
        let b = self.b;
        if let Some((w, (len, value, is_integer))) =
            b.get(at..).and_then(<[u8]>::first_chunk::<WINDOW>).and_then(|w| Some((w, scan_window(w)?)))
        {
            // SAFETY: the literal's `len` bytes are inside the window and
            // ASCII.
            let text = unsafe { std::str::from_utf8_unchecked(w.get_unchecked(..len)) };
            v.number(NumberToken { text, is_integer, value }).map_err(|e| locate(b, at, e))?;
            return Ok(at + len);
        }
        // Near the end of the input: a short integer read here, in line
        // (`1`, `{"a":1}`); anything else out of line.
        if let Some((len, value)) = b.get(at..).and_then(tail_integer) {
            v.number(NumberToken { text: ascii(&b[at..at + len]), is_integer: true, value }).map_err(|e| locate(b, at, e))?;
            return Ok(at + len);
        }
        number_general_reported(b, at, self.lossless, v)
    }

    /// Opens a container at `at` (`{` or `[`): false if the limit forbids.
    #[inline(always)]
    fn may_enter(&self, depth: usize) -> Flow<()> {
        if depth >= self.max_depth {
            return Err(Stop::Syntax);
        }
        Ok(())
    }

    /// One JSON value from `i`, then (if `whole`) only whitespace: the
    /// offset after the value.
    ///
    /// Inlined (as everything up to `drive_avx2` that uses `C`), so that
    /// it is built for the ISA of the entry point that runs it.
    #[inline(always)]
    fn document<V: Visitor + ?Sized>(&mut self, v: &mut V, stack: &mut Vec<bool>, i: usize, whole: bool) -> Flow<usize> {
        let i = self.skip_ws(i);
        let end = match self.b.get(i) {
            // Builders that take containers as text are asked at each one
            // (a build of the loop of its own: the others never ask).
            Some(b'{' | b'[') if v.takes_raw() => self.containers::<V, true>(v, stack, i)?,
            Some(b'{' | b'[') => self.containers::<V, false>(v, stack, i)?,
            _ => self.scalar(v, i)?,
        };
        if whole {
            self.only_whitespace_after(end)?;
        }
        Ok(end)
    }

    /// The value at `i` (after whitespace) when it is no container: a
    /// string, number or literal (anything else, a container included,
    /// is `Syntax`); the offset after it.
    #[inline(always)]
    fn scalar<V: Visitor + ?Sized>(&mut self, v: &mut V, i: usize) -> Flow<usize> {
        match self.b.get(i) {
            Some(b'"') => {
                let (text, end) = self.string(v, i)?;
                self.visit_string(v, text, i)?;
                Ok(end)
            }
            Some(b'-' | b'0'..=b'9') => self.number(v, i),
            Some(b't' | b'f' | b'n') => self.literal(v, i),
            _ => Err(Stop::Syntax),
        }
    }

    /// Nothing but whitespace from `end` (the offset after the document's
    /// value) to the end of the input.
    #[inline(always)]
    fn only_whitespace_after(&mut self, end: usize) -> Flow<()> {
        // (A value that ends the input needs no whitespace skip, nor the
        // last block's masks, which a scalar document never loaded.)
        if end < self.b.len() {
            let rest = self.skip_ws(end);
            if rest < self.b.len() {
                // The value was accepted whole, so this is the first error:
                // reported here, without the reference driver's second
                // parse of the whole document (a service refusing bodies
                // with trailing data pays for that on every refusal).
                return Err(Stop::Visitor(trailing(self.b, rest)));
            }
        }
        Ok(())
    }

    /// The container opening at `i` and everything in it: the position
    /// after its closing bracket.
    ///
    /// `stack` holds the open containers (true: array), innermost last,
    /// above those open around this one (a container taken as text is
    /// walked on top of its parents, so depth counts them); `in_array` is
    /// its last entry. `after` says the innermost container has just had a
    /// value (a separator or its end comes next) rather than just opened
    /// (its first item comes next).
    ///
    /// With `RAW`, `v.take_raw` is asked at every container, as the
    /// reference driver asks it, and a container it wants is walked with no
    /// visitor and handed over as text (`raw_text`).
    #[inline(always)]
    fn containers<V: Visitor + ?Sized, const RAW: bool>(&mut self, v: &mut V, stack: &mut Vec<bool>, mut i: usize) -> Flow<usize> {
        let b = self.b;
        if RAW && v.take_raw(&b[i..]) {
            return self.raw_text(v, stack, i);
        }
        // The root container.
        let base = stack.len();
        self.may_enter(base)?;
        let mut in_array = b[i] == b'[';
        let open = i;
        i = self.skip_ws(i + 1);
        if in_array {
            if b.get(i) == Some(&b']') {
                v.empty_array().map_err(|e| locate(self.b, open, e))?;
                return Ok(i + 1);
            }
            stack.push(true);
            v.begin_array().map_err(|e| locate(self.b, open, e))?;
        } else {
            if b.get(i) == Some(&b'}') {
                v.empty_object().map_err(|e| locate(self.b, open, e))?;
                return Ok(i + 1);
            }
            stack.push(false);
            if self.track_names {
                self.dups.open();
            }
            v.begin_object().map_err(|e| locate(self.b, open, e))?;
        }
        let mut after = false;
        'container: loop {
            if in_array {
                'array: loop {
                    if after {
                        // After an item: ',' and the next one, or the end.
                        i = self.skip_ws(i);
                        match b.get(i) {
                            Some(b',') => i = self.skip_ws(i + 1),
                            Some(b']') => {
                                v.end_array().map_err(|e| locate(self.b, i, e))?;
                                i += 1;
                                stack.pop();
                                match stack.last() {
                                    Some(&kind) if stack.len() > base => {
                                        in_array = kind;
                                        continue 'container;
                                    }
                                    _ => return Ok(i),
                                }
                            }
                            _ => return Err(Stop::Syntax),
                        }
                    }
                    after = true;
                    // An item at `i`.
                    let at = i;
                    match b.get(i) {
                        Some(b'"') => {
                            let (text, end) = self.string(v, i)?;
                            self.visit_string(v, text, at)?;
                            i = end;
                        }
                        Some(b'-' | b'0'..=b'9') => {
                            i = self.number_run::<V, RAW>(v, stack, base, at)?;
                        }
                        Some(b'{' | b'[') if RAW && v.take_raw(&b[i..]) => i = self.raw_text(v, stack, i)?,
                        Some(b'{') => {
                            self.may_enter(stack.len())?;
                            i = self.skip_ws(i + 1);
                            if b.get(i) == Some(&b'}') {
                                v.empty_object().map_err(|e| locate(self.b, at, e))?;
                                i += 1;
                                continue 'array;
                            }
                            stack.push(false);
                            if self.track_names {
                                self.dups.open();
                            }
                            v.begin_object().map_err(|e| locate(self.b, at, e))?;
                            in_array = false;
                            after = false;
                            continue 'container;
                        }
                        Some(b'[') => {
                            self.may_enter(stack.len())?;
                            i = self.skip_ws(i + 1);
                            if b.get(i) == Some(&b']') {
                                v.empty_array().map_err(|e| locate(self.b, at, e))?;
                                i += 1;
                                continue 'array;
                            }
                            stack.push(true);
                            v.begin_array().map_err(|e| locate(self.b, at, e))?;
                            after = false;
                        }
                        Some(b't' | b'f' | b'n') => i = self.literal(v, at)?,
                        _ => return Err(Stop::Syntax),
                    }
                }
            } else {
                loop {
                    if after {
                        // After a member: ',' and the next name, or the end.
                        i = self.skip_ws(i);
                        match b.get(i) {
                            Some(b',') => i = self.skip_ws(i + 1),
                            Some(b'}') => {
                                if self.track_names {
                                    self.dups.close();
                                }
                                v.end_object().map_err(|e| locate(self.b, i, e))?;
                                i += 1;
                                stack.pop();
                                match stack.last() {
                                    Some(&kind) if stack.len() > base => {
                                        in_array = kind;
                                        continue 'container;
                                    }
                                    _ => return Ok(i),
                                }
                            }
                            _ => return Err(Stop::Syntax),
                        }
                    }
                    after = true;
                    // A member name at `i`, then ':' and the value.
                    let at = i;
                    if b.get(i) != Some(&b'"') {
                        return Err(Stop::Syntax);
                    }
                    let (text, end) = self.string(v, i)?;
                    self.name(&text, at)?;
                    self.visit_key(v, text, at)?;
                    // `":"` then the value at once, or after one space (the
                    // common layouts), without the whitespace skip.
                    i = match b.get(end..end + 3) {
                        Some(&[b':', c, _]) if c > b' ' => end + 1,
                        Some(&[b':', b' ', c]) if c > b' ' => end + 2,
                        _ => {
                            let colon = self.skip_ws(end);
                            if b.get(colon) != Some(&b':') {
                                return Err(Stop::Syntax);
                            }
                            self.skip_ws(colon + 1)
                        }
                    };
                    let at = i;
                    match b.get(i) {
                        Some(b'"') => {
                            let (text, end) = self.string(v, i)?;
                            self.visit_string(v, text, at)?;
                            i = end;
                        }
                        Some(b'-' | b'0'..=b'9') => i = self.number(v, at)?,
                        Some(b'{' | b'[') if RAW && v.take_raw(&b[i..]) => i = self.raw_text(v, stack, i)?,
                        Some(b'{') => {
                            self.may_enter(stack.len())?;
                            i = self.skip_ws(i + 1);
                            if b.get(i) == Some(&b'}') {
                                v.empty_object().map_err(|e| locate(self.b, at, e))?;
                                i += 1;
                                continue;
                            }
                            stack.push(false);
                            if self.track_names {
                                self.dups.open();
                            }
                            v.begin_object().map_err(|e| locate(self.b, at, e))?;
                            after = false;
                        }
                        Some(b'[') => {
                            self.may_enter(stack.len())?;
                            i = self.skip_ws(i + 1);
                            if b.get(i) == Some(&b']') {
                                v.empty_array().map_err(|e| locate(self.b, at, e))?;
                                i += 1;
                                continue;
                            }
                            stack.push(true);
                            v.begin_array().map_err(|e| locate(self.b, at, e))?;
                            in_array = true;
                            after = false;
                            continue 'container;
                        }
                        Some(b't' | b'f' | b'n') => i = self.literal(v, at)?,
                        _ => return Err(Stop::Syntax),
                    }
                }
            }
        }
    }

    /// The container at `at`, which `v.take_raw` asked for: checked by a
    /// walk with no visitor (on top of `stack`, so depth counts the
    /// containers around it; names repeated inside it are refused under
    /// `DuplicateKeys::Error` or when `v.refuses_repeats_in_raw()`) and
    /// handed to `v.raw` as text. The position after it.
    ///
    ///
    /// The validator checks it (`validate::container_end`, built for this
    /// driver's ISA: fewer instructions per byte than this walk, but a few
    /// hundred more to start, the first block's masks among them); only
    /// what it does not accept is walked here, which finds the same error
    /// the walk always found (the first one: the validator accepts nothing
    /// the walk refuses, and stops its text where the walk does). After a
    /// container shorter than `RAW_SMALL`, the next is walked here at once
    /// (builders that skip many small members); after a longer one, the
    /// validator checks the next. (And one that cannot be as long, so
    /// near the end of the input, is walked here too.)
    #[inline(always)]
    fn raw_text<V: Visitor + ?Sized>(&mut self, v: &mut V, stack: &mut Vec<bool>, at: usize) -> Flow<usize> {
        let end = if self.raw_small || self.b.len() - at < RAW_SMALL {
            self.raw_walk(v, stack, at)?
        } else {
            let nested = Nested {
                depth: stack.len(),
                max_depth: self.max_depth,
                track_names: self.track_names || v.refuses_repeats_in_raw(),
                lossless: self.lossless,
            };
            let work = self.check.get_or_insert_with(Box::default);
            match super::validate::container_end(self.b, at, nested, work, C::LEVEL) {
                Some(end) => end,
                None => self.raw_walk(v, stack, at)?,
            }
        };
        self.raw_small = end - at < RAW_SMALL;
        // SAFETY: the validator accepted `at..end` as one JSON value (ASCII
        // outside strings, UTF-8 checked whenever a byte >= 0x80 was in
        // one of its blocks), or the walk did (every string body checked
        // as UTF-8).
        let text = unsafe { std::str::from_utf8_unchecked(&self.b[at..end]) };
        v.raw(text).map_err(|e| locate(self.b, at, e))?;
        Ok(end)
    }

    /// The container at `at` walked with no visitor, as `raw_text` checks
    /// it: the position after it, or the first error. (Inlined: out of
    /// line, it would not be built for the driver's ISA.)
    #[inline(always)]
    fn raw_walk<V: Visitor + ?Sized>(&mut self, v: &mut V, stack: &mut Vec<bool>, at: usize) -> Flow<usize> {
        let tracked = self.track_names;
        if !tracked && v.refuses_repeats_in_raw() {
            // The walk opens and closes its own objects' name sets, whether
            // or not the objects around it had any.
            self.track_names = true;
            self.raw_names = true;
        }
        let end = self.containers::<Ignore, false>(&mut Ignore, stack, at);
        self.track_names = tracked;
        self.raw_names = false;
        end
    }

    /// A number in an array at `at`, and the numbers that follow it in the
    /// same array (and, after `],[`, in the next array of the same parent):
    /// the position after the last one. Out of line (`numbers.rs`).
    #[inline(always)]
    fn number_run<V: Visitor + ?Sized, const RAW: bool>(&self, v: &mut V, stack: &[bool], base: usize, at: usize) -> Flow<usize> {
        // `],[` goes on in the parent only when that is an array of this
        // walk, and the builder need not be asked about the next array.
        let parent_is_array = !RAW && stack.len() >= base + 2 && stack[stack.len() - 2];
        numbers::number_run(self.b, self.lossless, parent_is_array, v, at, C::LEVEL)
    }
}

/// The body `b[start..stop]` (closing quote at `stop`) of a string with no
/// escapes and a byte >= 0x80, if it is UTF-8: checked by the driver's ISA
/// (`Classify::utf8_body`; with AVX2 a vector check in place, with no call
/// per body to a general validator, whose short-input path is branchy),
/// and if that cannot say yes, by the general validator alone, whose
/// verdict is exact. Out of line (returning an `Option`, in registers): the
/// driver's string paths stay as small as with a call per body.
#[inline(never)]
fn plain_text<C: Classify>(b: &[u8], start: usize, stop: usize) -> Option<&str> {
    // SAFETY: `C`'s ISA is the driver's, which this CPU runs (`drive`).
    if unsafe { C::utf8_body(b, start, stop) } {
        // SAFETY: `utf8_body` passes only UTF-8 bodies.
        return Some(unsafe { std::str::from_utf8_unchecked(&b[start..stop]) });
    }
    simdutf8::basic::from_utf8(&b[start..stop]).ok()
}

/// Whether `b[from..to]`, a run of text between escapes with a byte >=
/// 0x80, is UTF-8: checked as the bodies without escapes are
/// (`plain_text`), in place with the driver's ISA, and by the general
/// validator when that cannot say yes.
#[inline(always)]
fn utf8_run<C: Classify>(b: &[u8], from: usize, to: usize) -> bool {
    // SAFETY: `C`'s ISA is the driver's, which this CPU runs (`drive`).
    (unsafe { C::utf8_body(b, from, to) }) || simdutf8::basic::from_utf8(&b[from..to]).is_ok()
}

/// The decoder's error as the driver stops: out of memory is said (with
/// where); anything else is the reference driver's to explain.
#[cold]
fn decode_error(b: &[u8], (at, msg): (usize, &'static str)) -> Stop {
    if msg == OUT_OF_MEMORY {
        Stop::Visitor(out_of_memory_at(b, at))
    } else {
        Stop::Syntax
    }
}

/// `number_general`, reported to `v`: the position after the number.
#[inline(never)]
fn number_general_reported<V: Visitor + ?Sized>(b: &[u8], at: usize, lossless: bool, v: &mut V) -> Flow<usize> {
    let (token, end) = number_general(b, at, lossless)?;
    v.number(token).map_err(|e| locate(b, at, e))?;
    Ok(end)
}

/// A number the window does not take (near the end of the input, an
/// exponent, a long literal, an error), byte by byte.
///
/// Near the end of the input (fewer than `WINDOW` bytes left, as in every
/// small document) the window is tried first on a copy of what is left,
/// padded with spaces: a space ends a literal as the end of the input
/// does, so the window reads the same literal and value there, and
/// refuses what it would refuse in place.
#[inline(never)]
fn number_general(b: &[u8], at: usize, lossless: bool) -> Flow<(NumberToken<'_>, usize)> {
    let rest = &b[at..];
    if rest.len() < WINDOW {
        // A short integer near the end of the input (`1`, `{"a":1}`): read
        // byte by byte, without the padded window's copy and masks.
        if let Some((len, value)) = tail_integer(rest) {
            return Ok((NumberToken { text: ascii(&rest[..len]), is_integer: true, value }, at + len));
        }
        let mut w = [b' '; WINDOW];
        w[..rest.len()].copy_from_slice(rest);
        // The literal ends before the padding (a space is no part of one),
        // so it lies in `rest`; it is ASCII.
        if let Some((text, (len, value, is_integer))) = scan_window(&w).and_then(|t| Some((rest.get(..t.0)?, t))) {
            return Ok((NumberToken { text: ascii(text), is_integer, value }, at + len));
        }
    }
    let (len, value, is_integer) = scan_general(rest).map_err(|_| Stop::Syntax)?;
    if value == NumberValue::Big && !is_integer && !lossless {
        // Beyond the double range: refused (the reference says so).
        return Err(Stop::Syntax);
    }
    // SAFETY: a number literal is ASCII.
    let text = unsafe { std::str::from_utf8_unchecked(&b[at..at + len]) };
    Ok((NumberToken { text, is_integer, value }, at + len))
}

/// The integer literal of at most 18 digits at the start of `rest` (so
/// that it fits an `i64`) and its length, when it is one whole: a digit,
/// no leading zero before another digit, and no fraction, exponent or
/// 19th digit after it. `None` for anything else (`-0` too, which is
/// `F64(-0.0)`), valid or not, which the caller's general scans decide.
#[inline(always)]
fn tail_integer(rest: &[u8]) -> Option<(usize, NumberValue)> {
    let negative = rest.first() == Some(&b'-');
    let start = usize::from(negative);
    let mut i = start;
    let mut value: i64 = 0;
    while let Some(&c) = rest.get(i) {
        let d = c.wrapping_sub(b'0');
        if d > 9 {
            break;
        }
        if i - start == 18 {
            return None;
        }
        value = value * 10 + i64::from(d);
        i += 1;
    }
    let digits = i - start;
    if digits == 0 || (digits > 1 && rest[start] == b'0') || (negative && value == 0) {
        return None;
    }
    if matches!(rest.get(i), Some(b'.' | b'e' | b'E')) {
        return None;
    }
    Some((i, NumberValue::I64(if negative { -value } else { value })))
}

/// A visitor's error, with the position `at` if it has none. (Free
/// functions, not methods, for what is out of line: a call taking the
/// driver would keep all of its state in memory.)
#[cold]
#[inline(never)]
fn locate(b: &[u8], at: usize, e: Error) -> Stop {
    Stop::Visitor(if e.position().is_some() { e } else { e.at(Position::locate(b, at)) })
}

/// Whether `c` can start a number.
#[inline(always)]
fn starts_number(c: u8) -> bool {
    c == b'-' || c.is_ascii_digit()
}

/// `bytes`, known to be ASCII, as text.
#[inline(always)]
fn ascii(bytes: &[u8]) -> &str {
    debug_assert!(bytes.is_ascii());
    // SAFETY: the callers' scans saw no byte >= 0x80 in `bytes`.
    unsafe { std::str::from_utf8_unchecked(bytes) }
}

#[cfg(test)]
mod tests {
    /// `tail_integer` reads what the general scan reads, or declines: every
    /// string of up to 5 bytes over digits, signs, '.', 'e' and a space,
    /// and integers around the 18/19-digit edge.
    /// `JETJSON_LEVEL` lowers the level and never raises it.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_level_variable_never_raises_the_cpus_level() {
        use super::{capped, Level};
        let all = [Level::Baseline, Level::Avx2, Level::Avx512];
        for cpu in all {
            for full in [false, true] {
                let default = if full { cpu } else { cpu.min(Level::Avx2) };
                assert_eq!(capped(cpu, full, None), default);
                assert_eq!(capped(cpu, full, Some("")), default);
                assert_eq!(capped(cpu, full, Some("sse9")), default);
                assert_eq!(capped(cpu, full, Some("avx512")), cpu);
                assert_eq!(capped(cpu, full, Some("baseline")), Level::Baseline);
                assert_eq!(capped(cpu, full, Some("avx2")), cpu.min(Level::Avx2));
            }
        }
        assert_eq!(capped(Level::Avx512, true, None), Level::Avx512);
        assert_eq!(capped(Level::Avx512, false, None), Level::Avx2);
        assert_eq!(capped(Level::Avx512, false, Some("avx512")), Level::Avx512);
        assert_eq!(capped(Level::Avx512, true, Some("avx2")), Level::Avx2);
        assert_eq!(capped(Level::Avx2, true, Some("avx512")), Level::Avx2);
    }

    #[test]
    fn tail_integer_agrees_with_general_scan() {
        let alphabet = b"0123456789-.eE +x";
        let mut cases: Vec<Vec<u8>> = Vec::new();
        let mut frontier: Vec<Vec<u8>> = vec![Vec::new()];
        for _ in 0..4 {
            let mut next = Vec::new();
            for prefix in &frontier {
                for &c in alphabet {
                    let mut v = prefix.clone();
                    v.push(c);
                    next.push(v);
                }
            }
            cases.extend(next.iter().cloned());
            frontier = next;
        }
        for n in [17usize, 18, 19, 20] {
            for lead in [b"1", b"9", b"0"] {
                let mut v = lead.to_vec();
                v.extend(std::iter::repeat_n(b'9', n - 1));
                cases.push(v.clone());
                let mut neg = b"-".to_vec();
                neg.extend(&v);
                cases.push(neg.clone());
                neg.push(b'}');
                cases.push(neg);
            }
        }
        cases.push(b"-999999999999999999".to_vec());
        cases.push(b"123,".to_vec());
        cases.push(b"-0".to_vec());
        cases.push(b"-0]".to_vec());
        let mut taken = 0;
        for case in &cases {
            if let Some((len, value)) = tail_integer(case) {
                taken += 1;
                let general = scan_general(case);
                assert_eq!(general, Ok((len, value, true)), "{:?}", String::from_utf8_lossy(case));
                assert!(len <= case.len());
            }
        }
        assert!(taken > 1000, "{taken}");
        assert_eq!(tail_integer(b"-0"), None);
        assert_eq!(tail_integer(b"01"), None);
        assert_eq!(tail_integer(b"1.5"), None);
        assert_eq!(tail_integer(b"1e5"), None);
        assert_eq!(tail_integer(b"-"), None);
        assert_eq!(tail_integer(b"1234567890123456789"), None);
        assert_eq!(tail_integer(b"-123456789012345678}"), Some((19, NumberValue::I64(-123456789012345678))));
        assert_eq!(tail_integer(b"0}"), Some((1, NumberValue::I64(0))));
    }

    use super::super::parser::{parse_at_level, Parser};
    use super::super::visitor::NumberToken;
    use super::*;
    use crate::error::{ErrorKind, Result};

    use super::super::test_documents::Record;

    #[test]
    fn kept_memory_parses_every_document_as_the_threads_does() {
        // One `ParseMemory` through documents that use every part of it
        // (escaped strings, names checked for repeats, deep nesting) and
        // through failures that leave it mid-use: each result and every
        // call must be what `parse`, with the thread's memory, gives.
        let deep = format!("{}1{}", "[".repeat(300), "]".repeat(300));
        let wide = format!("{{{}}}", (0..500).map(|i| format!("\"k{i}\":{i}")).collect::<Vec<_>>().join(","));
        let docs: Vec<&[u8]> = vec![
            br#"{"a":"x\u00e9\n","b":[1,2.5,-3e2,true,null],"c":{"d":"\ud83d\ude00"}}"#,
            br#"{"a":1,"b":2,"a":3}"#,
            br#"[1,2,"#,
            deep.as_bytes(),
            br#"{"a":{"b":{"a":1,"b":2}},"b":"\"q\""}"#,
            wide.as_bytes(),
            br#"{"k1":1,"k1":2}"#,
            b"  12  ",
            br#""\ud800""#,
            br#"{"x":"caf\u00e9","x2":"plain"}"#,
        ];
        let mut memory = super::super::parser::ParseMemory::default();
        for policy in [DuplicateKeys::Error, DuplicateKeys::Last] {
            let options = ReadOptions::new().duplicate_keys(policy);
            for _ in 0..2 {
                for doc in &docs {
                    let (mut kept, mut pooled) = (Record::default(), Record::default());
                    let a = super::super::parser::parse_with_memory(doc, &options, &mut kept, &mut memory);
                    let b = super::super::parser::parse(doc, &options, &mut pooled);
                    assert_eq!(a.map_err(|e| e.to_string()), b.map_err(|e| e.to_string()), "{}", String::from_utf8_lossy(doc));
                    assert_eq!(kept.0, pooled.0, "{}", String::from_utf8_lossy(doc));
                }
            }
        }
    }

    /// A builder that takes some containers as text: those whose distance
    /// from the end of the input is a multiple of three (so some at every
    /// depth, the root included, empty or not), recording every call, every
    /// question and every text.
    #[derive(Default)]
    struct TakeSome(Record, bool);

    impl Visitor for TakeSome {
        fn null(&mut self) -> Result<()> {
            self.0.null()
        }
        fn bool(&mut self, v: bool) -> Result<()> {
            self.0.bool(v)
        }
        fn number(&mut self, n: NumberToken<'_>) -> Result<()> {
            self.0.number(n)
        }
        fn string(&mut self, s: &str, raw: &str) -> Result<()> {
            self.0.string(s, raw)
        }
        fn ascii_string(&mut self, s: &str) -> Result<()> {
            self.0.ascii_string(s)
        }
        fn begin_array(&mut self) -> Result<()> {
            self.0.begin_array()
        }
        fn end_array(&mut self) -> Result<()> {
            self.0.end_array()
        }
        fn begin_object(&mut self) -> Result<()> {
            self.0.begin_object()
        }
        fn key(&mut self, k: &str, raw: &str) -> Result<()> {
            self.0.key(k, raw)
        }
        fn ascii_key(&mut self, k: &str) -> Result<()> {
            self.0.ascii_key(k)
        }
        fn end_object(&mut self) -> Result<()> {
            self.0.end_object()
        }
        fn takes_raw(&self) -> bool {
            true
        }
        fn take_raw(&mut self, ahead: &[u8]) -> bool {
            assert!(matches!(ahead.first(), Some(b'{' | b'[')));
            self.0 .0.push(format!("take? {}", ahead.len()));
            ahead.len().is_multiple_of(3)
        }
        fn refuses_repeats_in_raw(&self) -> bool {
            self.1
        }
        fn raw(&mut self, json: &str) -> Result<()> {
            self.0 .0.push(format!("raw {json:?}"));
            // A builder's own refusal, part way: reported at the text.
            if json.len() == 7 {
                return Err(crate::error::Error::syntax("seven"));
            }
            Ok(())
        }
    }

    /// With a builder that takes containers as text (and, in turn, one that
    /// asks for repeated names in them to be refused under every policy),
    /// the fast driver at every level asks and reports what the reference
    /// does, in order, with its outcome.
    ///
    /// Each text also with `RAW_SMALL` spaces after it: the first container
    /// taken is then checked by the validator (one that ends within
    /// `RAW_SMALL` bytes of the end of the input, and each after a short
    /// one, is walked by the driver).
    fn agree_raw(input: &[u8]) {
        agree_raw_once(input);
        let mut spaced = input.to_vec();
        spaced.extend_from_slice(&[b' '; RAW_SMALL]);
        agree_raw_once(&spaced);
    }

    fn agree_raw_once(input: &[u8]) {
        for (options, refuse) in options().into_iter().flat_map(|o| [(o.clone(), false), (o, true)]) {
            let mut r = TakeSome(Record::default(), refuse);
            let want = Parser::new(input, &options).and_then(|mut p| {
                p.drive(&mut r)?;
                p.finish()
            });
            for level in levels() {
                let mut got_calls = TakeSome(Record::default(), refuse);
                let got = parse_at_level(input, &options, &mut got_calls, &mut Buffers::default(), level);
                let what = || format!("{:?} at {level:?} with {options:?}", String::from_utf8_lossy(input));
                assert_eq!(got_calls.0 .0, r.0 .0, "calls differ: {}", what());
                match (&got, &want) {
                    (Ok(()), Ok(())) => {}
                    (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "{}", what()),
                    _ => panic!("outcomes differ: fast {got:?}, reference {want:?}: {}", what()),
                }
            }
        }
    }

    use super::super::test_documents::{levels, options, reference};

    /// The fast driver at every level gives the reference's calls, in
    /// order, and its outcome (the same error, message and position).
    fn agree(input: &[u8]) {
        for options in options() {
            // The outcome is checked inside, against the reference.
            let _ = agree_with(input, &options);
        }
    }

    /// `agree` with one set of options; the reference's outcome.
    fn agree_with(input: &[u8], options: &ReadOptions) -> Result<()> {
        let (want_calls, want) = reference(input, options);
        for level in levels() {
            let mut r = Record::default();
            let got = parse_at_level(input, options, &mut r, &mut Buffers::default(), level);
            let what = || format!("{:?} at {level:?} with {options:?}", String::from_utf8_lossy(input));
            assert_eq!(r.0, want_calls, "calls differ: {}", what());
            match (&got, &want) {
                (Ok(()), Ok(())) => {}
                (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "{}", what()),
                _ => panic!("outcomes differ: fast {got:?}, reference {want:?}: {}", what()),
            }
        }
        want
    }

    fn suite() -> Vec<Vec<u8>> {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/corpus/jsontestsuite/test_parsing");
        let mut files: Vec<_> = std::fs::read_dir(dir).expect("JSONTestSuite").map(|e| e.unwrap().path()).collect();
        files.sort();
        files.into_iter().map(|p| std::fs::read(p).unwrap()).collect()
    }

    /// Numbers near the end of the input (read through a padded copy of
    /// the window): every literal, valid or not, alone, last in an array
    /// or an object, followed by 0 to 40 spaces, is read as the reference
    /// reads it (same token, text and value, or the same error).
    #[test]
    fn numbers_near_the_end_of_the_input() {
        let literals = [
            "0",
            "-0",
            "7",
            "-7",
            "10",
            "01",
            "-01",
            "1.5",
            "-0.25",
            "1.",
            "-",
            "-.5",
            ".5",
            "1e5",
            "1E+2",
            "1e-2",
            "1e",
            "2.5e3",
            "12345678901234567",
            "1234567890123456789",
            "12345678901234567890",
            "0.1234567890123456789",
            "1.00000000000000000001",
            "9007199254740993",
            "18446744073709551615",
            "18446744073709551616",
            "-9223372036854775808",
            "1e400",
            "-1e400",
            "1e-400",
            "123456789012345678901234567890",
            "1x",
            "1 2",
            "1,",
            "1]",
            "+1",
            "0x10",
            "1.5.5",
            "--1",
        ];
        for lit in literals {
            for wrap in ["{}", "[{}]", "[1,{}]", "[1, {}]", "{{\"a\":{}}}", "[[1],[{}]]"] {
                let doc = wrap.replace("{}", lit).replace("{{", "{").replace("}}", "}");
                for spaces in 0..=40 {
                    agree(format!("{doc}{}", " ".repeat(spaces)).as_bytes());
                    agree_raw(format!("{doc}{}", " ".repeat(spaces)).as_bytes());
                }
            }
        }
    }

    /// Runs of numbers in arrays (`numbers.rs`, out of line): runs of 1 to
    /// 5 numbers of every route (integers, short and long decimals, an
    /// exponent, `-0`, a 20-digit integer, an error) with every separator
    /// the run's window reads (`,`, `, `, a line break, a space before the
    /// comma), ending in `]`, in arrays of arrays that go on with `],[`
    /// (the next array of the same parent), and with what breaks that
    /// (`], [`, `],{`, `],[]`, `],["s"`; and `],[` in an object, an
    /// error), under an object or at the root, with 0 to 33 spaces after
    /// (the window near the end of the input): at every level, the
    /// reference's calls and outcome; and with a builder that takes some
    /// containers as text (`agree_raw`).
    #[test]
    fn number_runs_as_the_reference_reads_them() {
        let numbers = ["7", "-0", "12", "3.25", "-65.613616999999977", "43.420273000000009", "1e5", "12345678901234567890", "1.", "0.5"];
        let mut docs = Vec::new();
        for sep in [",", ", ", ",\n  ", " ,"] {
            for n in 1..=5 {
                for first in 0..numbers.len() {
                    let run = (0..n).map(|k| numbers[(first + 3 * k) % numbers.len()]).collect::<Vec<_>>().join(sep);
                    for wrap in [
                        "[R]",
                        "[[R],[R],[R]]",
                        "{\"k\":[[R],[R]]}",
                        "[[R], [R]]",
                        "[[R],{}]",
                        "[[R],[]]",
                        "[[R],[\"s\"]]",
                        "[[R],[R]],[R]",
                        "[\"s\",R]",
                        "{\"k\":[R],[R]}",
                    ] {
                        docs.push(wrap.replace('R', &run));
                    }
                }
            }
        }
        for doc in docs {
            for spaces in [0, 1, 2, 3, 5, 8, 13, 21, 33] {
                agree(format!("{doc}{}", " ".repeat(spaces)).as_bytes());
            }
            agree_raw(doc.as_bytes());
        }
    }

    #[test]
    fn the_test_suite_is_walked_as_the_reference_walks_it() {
        for doc in suite() {
            agree(&doc);
            agree_raw(&doc);
        }
    }

    #[test]
    fn the_corpus_is_walked_as_the_reference_walks_it() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/corpus/bench");
        for sub in ["nativejson-benchmark", "simdjson"] {
            for e in std::fs::read_dir(format!("{dir}/{sub}")).unwrap() {
                let p = e.unwrap().path();
                if p.extension().is_some_and(|x| x == "json") && std::fs::metadata(&p).unwrap().len() < 4_000_000 {
                    let doc = std::fs::read(&p).unwrap();
                    let options = ReadOptions::default();
                    let (want_calls, want) = reference(&doc, &options);
                    for level in levels() {
                        let mut r = Record::default();
                        let got = parse_at_level(&doc, &options, &mut r, &mut Buffers::default(), level);
                        assert_eq!(got.is_ok(), want.is_ok(), "{}", p.display());
                        assert!(r.0 == want_calls, "{} at {level:?}: calls differ", p.display());
                    }
                }
            }
        }
    }

    /// Small documents from a grammar of pieces, most of them valid, some
    /// cut short or with one byte changed; placed at every offset of a
    /// 64-byte block, so that tokens straddle block ends.
    #[test]
    fn random_documents_are_walked_as_the_reference_walks_them() {
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
            b"\r\n",
            b"\"a\"",
            b"\"key\"",
            b"\"\\n\\u00e9\\ud83d\\ude00\"",
            "\"é€😀\"".as_bytes(),
            b"\"\\\"\"",
            b"\"x\\",
            b"\"",
            b"0",
            b"-1",
            b"1.5",
            b"12345678901234567890",
            b"1e400",
            b"-0",
            b"2.5e-3",
            b"true",
            b"false",
            b"null",
            b"nul",
            b"tru",
            b"\x01",
            b"\xff",
            b"\"\xc3\"",
            b"\"long string with no escapes at all, 40+ bytes\"",
            b"[1,2,3]",
            b"[1, 2, 3]",
            b"[[1,2],[3,4]]",
            b"[[[1],[2,3]],[[4]],[5,6]]",
            b"{\"a\":1,\"b\":[true]}",
            b"{\"a\":1,\"a\":2}",
            b"\xEF\xBB\xBF",
        ];
        super::super::test_documents::random_documents(pieces, 6000, 8, ": ", |doc| {
            agree(doc);
            agree_raw(doc);
        });
    }

    /// Long strings and whitespace runs across many blocks, with the
    /// special byte at every position of the last block.
    /// `parse_scalar` (the walk `loads` of a tiny scalar takes) gives the
    /// reference's calls and outcome for every scalar document, and `None`
    /// with no call for every container, whatever comes before it.
    #[test]
    fn scalar_documents_are_walked_as_the_reference_walks_them() {
        let values: &[&[u8]] = &[
            b"1",
            b"-1",
            b"0",
            b"-0",
            b"01",
            b"1.5",
            b"1e400",
            b"-",
            b"1.",
            b"18446744073709551616",
            b"true",
            b"false",
            b"null",
            b"nul",
            b"tru",
            b"fals",
            b"nulll",
            b"\"\"",
            b"\"a\"",
            b"\"\\u00e9\"",
            b"\"\\ud800\"",
            b"\"\xc3\xa9\"",
            b"\"\xc3\"",
            b"\"\x01\"",
            b"\"abc",
            b"\"",
            b"",
            b"x",
            b"}",
            b"]",
            b",",
            b"1 2",
            b"1,",
            b"\"a\"\"b\"",
            b"\xef\xbb\xbf1",
            b"\xef\xbb\xbf",
        ];
        let spaces: &[&[u8]] = &[b"", b" ", b"\t\n\r ", b"    ", b"     \n"];
        let mut docs: Vec<Vec<u8>> = Vec::new();
        for v in values {
            for before in spaces {
                for after in spaces {
                    docs.push([*before, *v, *after].concat());
                }
            }
            // Long strings and padding (whole blocks, the size limit).
            docs.push([b"\"".as_slice(), &[b'a'; 90], b"\""].concat());
            docs.push([&[b' '; 70], *v, &[b' '; 70]].concat());
            docs.push([&[b' '; 310], *v].concat());
        }
        for doc in &docs {
            for options in options() {
                let (want_calls, want) = reference(doc, &options);
                let mut r = Record::default();
                let what = || format!("{:?} with {options:?}", String::from_utf8_lossy(doc));
                match super::super::parser::parse_scalar(doc, &options, &mut r) {
                    None => {
                        assert!(r.0.is_empty(), "calls before declining: {}", what());
                        let at = doc.iter().position(|c| !b" \t\n\r".contains(c));
                        let at = at.map(|i| if doc[i..].starts_with(BOM) && options.allow_bom { i + 3 } else { i });
                        assert!(at.is_some_and(|i| matches!(doc.get(i), Some(b'{' | b'['))), "declined a scalar: {}", what());
                    }
                    Some(got) => {
                        assert_eq!(r.0, want_calls, "calls differ: {}", what());
                        match (&got, &want) {
                            (Ok(()), Ok(())) => {}
                            (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "{}", what()),
                            _ => panic!("outcomes differ: scalar {got:?}, reference {want:?}: {}", what()),
                        }
                    }
                }
            }
        }
        for doc in [b"{}".as_slice(), b"[1]", b" {\"a\":1}", b"\n[", b"\xef\xbb\xbf[]"] {
            let mut r = Record::default();
            let got = super::super::parser::parse_scalar(doc, &ReadOptions::default().allow_bom(true), &mut r);
            assert!(got.is_none() && r.0.is_empty(), "{:?}", String::from_utf8_lossy(doc));
        }
    }

    /// Strings and runs of whitespace in the input's last, partial block
    /// (read through its padded masks; byte-by-byte scans before them were
    /// tried and taken out, see bench/results/python-tiny-2026-11-29.md):
    /// bodies of every length up to 16, with each kind of stop byte at every place, runs of
    /// whitespace of every length, at every offset of the last block, as
    /// member names and values, ending the input or not.
    #[test]
    fn strings_and_whitespace_in_the_last_block() {
        let stops: &[Option<&[u8]>] =
            &[None, Some(b"\""), Some(b"\\n"), Some(b"\\"), Some(b"\x1f"), Some(b"\xc3\xa9"), Some(b"\xe9"), Some(b"\x7f")];
        for pad in [0usize, 1, 30, 45, 50, 60, 63, 64, 65, 100, 127] {
            for len in 0usize..20 {
                for stop in stops {
                    for at in [0, len / 2, len.saturating_sub(1)] {
                        let mut body = vec![b'a'; len];
                        if let Some(c) = stop {
                            if len > 0 {
                                body.splice(at..at + 1, c.iter().copied());
                            }
                        }
                        let ws = &b"  \t\n\r   "[..len % 9];
                        let mut doc = vec![b' '; pad];
                        doc.extend_from_slice(b"{\"");
                        doc.extend_from_slice(&body);
                        doc.extend_from_slice(b"\"");
                        doc.extend_from_slice(ws);
                        doc.extend_from_slice(b":");
                        doc.extend_from_slice(ws);
                        doc.extend_from_slice(b"\"");
                        doc.extend_from_slice(&body);
                        doc.extend_from_slice(b"\"");
                        doc.extend_from_slice(ws);
                        doc.extend_from_slice(b"}");
                        doc.extend_from_slice(ws);
                        agree(&doc);
                        // Cut short anywhere in the last 24 bytes.
                        for cut in doc.len().saturating_sub(24)..doc.len() {
                            agree(&doc[..cut]);
                        }
                        // The same body as a scalar document.
                        let scalar = [&b" "[..pad % 2], b"\"", &body, b"\"", ws].concat();
                        agree(&scalar);
                    }
                }
            }
        }
    }

    #[test]
    fn strings_and_whitespace_across_blocks() {
        for len in 0..200 {
            for special in [None, Some(b'"'), Some(b'\\'), Some(0x1f), Some(0xe9)] {
                let mut body = vec![b'a'; len];
                if let (Some(c), Some(last)) = (special, body.last_mut()) {
                    *last = c;
                }
                let mut doc = b"[\"".to_vec();
                doc.extend_from_slice(&body);
                doc.extend_from_slice(b"\",");
                doc.extend(std::iter::repeat_n(b' ', len));
                doc.extend_from_slice(b"1]");
                agree(&doc);
                agree_raw(&doc);
                doc.truncate(doc.len() - 1);
                agree(&doc);
                agree_raw(&doc);
            }
        }
    }

    /// Strings of 2-, 3- and 4-byte characters starting at every offset of
    /// a block and crossing its end, whole, cut in a character, or with one
    /// byte changed (first, middle, last), as a whole body and between two
    /// escapes, after a valid string and before another: judged as the reference judges them, with the same calls
    /// before the error (`Classify::utf8_body` must find every error).
    #[test]
    fn utf8_in_strings_across_blocks() {
        let spoilers = [0x80u8, 0xbf, 0xc0, 0xe0, 0xed, 0xf4, 0xf5, b'a'];
        for pad in 0..70 {
            for ch in ["é", "ア", "😀"] {
                let body = ch.repeat(45 / ch.len()).into_bytes();
                let mut bodies = vec![body.clone(), body[..body.len() - 1].to_vec()];
                for at in [0, body.len() / 2 + 1, body.len() - 1] {
                    for &c in &spoilers {
                        let mut b = body.clone();
                        b[at] = c;
                        bodies.push(b);
                    }
                }
                for b in bodies {
                    // As the whole body, and as a run between escapes.
                    for (open, close) in [(&b""[..], &b""[..]), (b"\\t", b"\\n")] {
                        let mut doc = b"[".to_vec();
                        doc.resize(1 + pad, b' ');
                        doc.extend_from_slice("\"ü\",\"".as_bytes());
                        doc.extend_from_slice(open);
                        doc.extend_from_slice(&b);
                        doc.extend_from_slice(close);
                        doc.extend_from_slice("\",\"ß\"]".as_bytes());
                        agree(&doc);
                    }
                }
            }
        }
    }

    /// Runs of text after an escape of every length to 200 and some long
    /// ones (the decoder's buffer grown under them, from empty), with a
    /// character of 2 or 4 bytes or a byte that is no UTF-8 at the run's
    /// start, middle or end, another run after, the string at offsets all
    /// over a block (after a string that leaves the decoder room for about
    /// 3,000 bytes), after a short first run and after a long one (64
    /// bytes and more): read as the
    /// reference reads them at every level (the text, or the error and
    /// where).
    #[test]
    fn runs_after_escapes_of_every_length() {
        let puts: [Option<&[u8]>; 5] = [None, Some("é".as_bytes()), Some("😀".as_bytes()), Some(b"\x80"), Some(b"\xe9")];
        let long_first = "f".repeat(70);
        for len in (0..200).chain([255, 256, 257, 511, 512, 513, 1000, 4097, 20000]) {
            for (put, first) in puts.iter().flat_map(|&put| [(put, "ab"), (put, long_first.as_str())]) {
                for at in [0, len / 2, len] {
                    let mut run = vec![b'a' + (len % 26) as u8; len];
                    if let Some(c) = put {
                        run.splice(at..at, c.iter().copied());
                    }
                    // A string before, whose first run of 3,000 bytes leaves
                    // the decoder's buffer that much room (the one pass
                    // goes only as far as the room: beyond, the blocks'
                    // masks and the copy that grows it).
                    let mut doc = b"[\"".to_vec();
                    doc.resize(doc.len() + 3000, b'w');
                    doc.extend_from_slice(b"\\n\",");
                    doc.resize(doc.len() + len * 7 % 64, b' ');
                    doc.push(b'"');
                    doc.extend_from_slice(first.as_bytes());
                    doc.extend_from_slice(b"\\n");
                    doc.extend_from_slice(&run);
                    doc.extend_from_slice(b"\\t");
                    doc.extend(std::iter::repeat_n(b'z', len % 37));
                    doc.extend_from_slice(b"\",\"b\\\"\"]");
                    agree(&doc);
                }
            }
        }
    }

    /// Takes every container as text, and asks for repeated names in it to
    /// be refused when `.0` says so.
    struct TakeAll(bool, Vec<String>);

    impl Visitor for TakeAll {
        fn null(&mut self) -> Result<()> {
            Ok(())
        }
        fn bool(&mut self, _: bool) -> Result<()> {
            Ok(())
        }
        fn number(&mut self, _: NumberToken<'_>) -> Result<()> {
            Ok(())
        }
        fn string(&mut self, _: &str, _: &str) -> Result<()> {
            Ok(())
        }
        fn begin_array(&mut self) -> Result<()> {
            unreachable!("every container is taken as text")
        }
        fn end_array(&mut self) -> Result<()> {
            unreachable!("every container is taken as text")
        }
        fn begin_object(&mut self) -> Result<()> {
            unreachable!("every container is taken as text")
        }
        fn key(&mut self, _: &str, _: &str) -> Result<()> {
            unreachable!("every container is taken as text")
        }
        fn end_object(&mut self) -> Result<()> {
            unreachable!("every container is taken as text")
        }
        fn takes_raw(&self) -> bool {
            true
        }
        fn take_raw(&mut self, _: &[u8]) -> bool {
            true
        }
        fn refuses_repeats_in_raw(&self) -> bool {
            self.0
        }
        fn raw(&mut self, json: &str) -> Result<()> {
            self.1.push(json.to_owned());
            Ok(())
        }
    }

    /// `refuses_repeats_in_raw` turns on the name check inside text taken
    /// whole under every policy, in both drivers and at every level: a name
    /// repeated in one object is refused where the repeat starts; the same
    /// name in different objects, or in an object and one nested in it, is
    /// not. Without it, "last" lets every repeat through.
    #[test]
    fn repeats_in_text_taken_whole_are_refused_when_asked() {
        // Each document with its repeated name: refused at its last
        // spelling's opening quote.
        let refused = [
            (&b"{\"a\":1,\"a\":2}"[..], "\"a\""),
            (b"[{\"a\":{\"b\":1,\"b\":2}}]", "\"b\""),
            (b"[1,{\"x\":[],\"y\":{},\"x\":0}]", "\"x\""),
        ];
        let last =
            |doc: &[u8], name: &str| doc.windows(name.len()).rposition(|w| w == name.as_bytes()).expect("the name is in the document");
        let accepted: [&[u8]; 4] = [b"[{\"a\":1},{\"a\":2}]", b"{\"a\":{\"a\":1}}", b"{\"a\":{\"b\":1},\"b\":2}", b"[\"a\",\"a\"]"];
        let cases = refused.iter().map(|&(doc, name)| (doc, Some(last(doc, name)))).chain(accepted.iter().map(|&doc| (doc, None)));
        for (doc, at) in cases {
            for policy in [DuplicateKeys::Last, DuplicateKeys::First, DuplicateKeys::Error] {
                let options = ReadOptions::default().duplicate_keys(policy);
                for refuse in [false, true] {
                    let want_at = if refuse || policy == DuplicateKeys::Error { at } else { None };
                    let mut reference = TakeAll(refuse, Vec::new());
                    let r = Parser::new(doc, &options).and_then(|mut p| {
                        p.drive(&mut reference)?;
                        p.finish()
                    });
                    let mut outcomes = vec![("reference", r, reference.1)];
                    for level in levels() {
                        let mut fast = TakeAll(refuse, Vec::new());
                        let r = parse_at_level(doc, &options, &mut fast, &mut Buffers::default(), level);
                        outcomes.push(("fast", r, fast.1));
                    }
                    for (driver, r, texts) in outcomes {
                        let what = format!("{} with {policy:?}, refuse {refuse}, {driver}", String::from_utf8_lossy(doc));
                        match (want_at, r) {
                            (None, Ok(())) => assert_eq!(texts, [String::from_utf8_lossy(doc)], "{what}"),
                            (Some(at), Err(e)) => {
                                assert!(matches!(e.kind(), ErrorKind::DuplicateKey { .. }), "{what}: {e}");
                                assert_eq!(e.position().map(|p| p.offset), Some(at), "{what}: {e}");
                                assert!(texts.is_empty(), "{what}");
                            }
                            (want, got) => panic!("{what}: wanted a repeat at {want:?}, got {got:?}"),
                        }
                    }
                }
            }
        }
    }

    /// Text after the value is reported by the fast driver itself: the
    /// reference's error exactly (message, position, category), after
    /// values of every kind, at every offset across a block end, after
    /// whitespace or none, and before the end or right at it.
    #[test]
    fn trailing_text_is_the_references_error() {
        for value in [&b"1"[..], b"-2.5e3", b"\"s\"", b"true", b"null", b"[1,[2]]", b"{\"a\":{}}"] {
            for pad in [0, 1, 30, 60, 61, 62, 63, 64, 65, 127, 128] {
                for rest in [&b"x"[..], b" x", b"\n\n ]", b" 1", b" {", b"\"", b"\x01", b"\xff"] {
                    let mut doc = b" ".repeat(pad);
                    doc.extend_from_slice(value);
                    doc.extend_from_slice(rest);
                    agree(&doc);
                    let options = ReadOptions::default();
                    let (_, want) = reference(&doc, &options);
                    let want = want.expect_err("text after the value");
                    for level in levels() {
                        let got = parse_at_level(&doc, &options, &mut Record::default(), &mut Buffers::default(), level)
                            .expect_err("text after the value");
                        assert_eq!(format!("{got:?}"), format!("{want:?}"), "{:?} at {level:?}", String::from_utf8_lossy(&doc));
                    }
                }
            }
        }
    }

    /// Takes the containers that open `.0` containers deep as text (the
    /// root at 0), recording every call, and asks for repeated names in
    /// them to be refused when `.1` says so.
    struct TakeAt(usize, bool, usize, Record);

    impl Visitor for TakeAt {
        fn null(&mut self) -> Result<()> {
            self.3.null()
        }
        fn bool(&mut self, v: bool) -> Result<()> {
            self.3.bool(v)
        }
        fn number(&mut self, n: NumberToken<'_>) -> Result<()> {
            self.3.number(n)
        }
        fn string(&mut self, s: &str, raw: &str) -> Result<()> {
            self.3.string(s, raw)
        }
        fn begin_array(&mut self) -> Result<()> {
            self.2 += 1;
            self.3.begin_array()
        }
        fn end_array(&mut self) -> Result<()> {
            self.2 -= 1;
            self.3.end_array()
        }
        fn begin_object(&mut self) -> Result<()> {
            self.2 += 1;
            self.3.begin_object()
        }
        fn key(&mut self, k: &str, raw: &str) -> Result<()> {
            self.3.key(k, raw)
        }
        fn end_object(&mut self) -> Result<()> {
            self.2 -= 1;
            self.3.end_object()
        }
        fn takes_raw(&self) -> bool {
            true
        }
        fn take_raw(&mut self, _: &[u8]) -> bool {
            self.2 == self.0
        }
        fn refuses_repeats_in_raw(&self) -> bool {
            self.1
        }
        fn raw(&mut self, json: &str) -> Result<()> {
            self.3 .0.push(format!("raw {json:?}"));
            Ok(())
        }
    }

    /// With `TakeAt(depth, refuse)`, the fast driver at every level makes
    /// the reference's calls and ends as it does (the same error, message
    /// and position), under each of `sets`, after 0 to 63 spaces (so the
    /// text taken starts and ends at every offset of a block), and with
    /// `RAW_SMALL` spaces after it or none (so that the first text taken
    /// is checked by the validator, or walked by the driver).
    fn agree_taking_at(doc: &str, depth: usize, sets: &[ReadOptions]) {
        for (pad, after) in (0..64).flat_map(|pad| [(pad, 0), (pad, RAW_SMALL)]) {
            let input = format!("{}{doc}{}", " ".repeat(pad), " ".repeat(after));
            let input = input.as_bytes();
            for options in sets {
                for refuse in [false, true] {
                    let mut r = TakeAt(depth, refuse, 0, Record::default());
                    let want = Parser::new(input, options).and_then(|mut p| {
                        p.drive(&mut r)?;
                        p.finish()
                    });
                    for level in levels() {
                        let mut fast = TakeAt(depth, refuse, 0, Record::default());
                        let got = parse_at_level(input, options, &mut fast, &mut Buffers::default(), level);
                        let what = || {
                            format!(
                                "{doc:?} after {pad} spaces, {after} after it, taken at {depth}, refuse {refuse}, {level:?}, {options:?}"
                            )
                        };
                        assert_eq!(fast.3 .0, r.3 .0, "calls differ: {}", what());
                        match (&got, &want) {
                            (Ok(()), Ok(())) => {}
                            (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "{}", what()),
                            _ => panic!("outcomes differ: fast {got:?}, reference {want:?}: {}", what()),
                        }
                    }
                }
            }
        }
    }

    /// `depth` containers around `inner`, alternating objects and arrays.
    fn nest(depth: usize, inner: &str) -> String {
        let mut doc = inner.to_owned();
        for k in 0..depth {
            doc = if k % 2 == 0 { format!("{{\"d{k}\":{doc},\"z\":1}}") } else { format!("[0,{doc}]") };
        }
        doc
    }

    /// Text taken whole `outer` containers deep, itself `inner` deep, under
    /// limits just below, at and above the sum: the containers around it
    /// count toward the limit, as in the reference.
    #[test]
    fn depth_limits_count_across_text_taken_whole() {
        for outer in 0..4 {
            for inner in 1..5 {
                let taken = nest(inner - 1, "[1,{\"a\":[]}]");
                let doc = nest(outer, &taken);
                let total = outer + inner + 1;
                let sets: Vec<ReadOptions> =
                    (total.saturating_sub(2).max(1)..=total + 1).map(|m| ReadOptions::default().max_depth(m)).collect();
                agree_taking_at(&doc, outer, &sets);
            }
        }
    }

    /// Names repeated inside text taken whole, in an object at every
    /// nesting inside it (the taken container itself included), in every
    /// spelling (escaped, long, in objects of more than 16 names), with the
    /// text itself at every nesting: refused under `Error` or when the
    /// builder asks, where the reference refuses them.
    #[test]
    fn repeated_names_inside_text_taken_whole_at_every_nesting() {
        let sets = [
            ReadOptions::default(),
            ReadOptions::default().duplicate_keys(DuplicateKeys::Last),
            ReadOptions::default().duplicate_keys(DuplicateKeys::First),
        ];
        let spellings = [("a", "a"), ("a", "\\u0061"), ("longer than sixteen bytes", "longer than sixteen byte\\u0073"), ("x", "y")];
        for (first, second) in spellings {
            for filler in [0, 20] {
                let mut members: Vec<String> = (0..filler).map(|k| format!("\"f{k}\":{k}")).collect();
                members.insert(filler / 2, format!("\"{first}\":1"));
                members.push(format!("\"{second}\":[2]"));
                let object = format!("{{{}}}", members.join(","));
                for inside in 0..3 {
                    for outer in 0..3 {
                        agree_taking_at(&nest(outer, &nest(inside, &object)), outer, &sets);
                    }
                }
            }
        }
    }

    /// Literals beyond the double range (and just inside it) in text taken
    /// whole, as items and member values, at every offset of a block:
    /// refused as the reference refuses them, unless numbers are lossless.
    #[test]
    fn literals_beyond_the_double_range_in_text_taken_whole() {
        let long = format!("1{}", "0".repeat(400));
        let literals = [
            "1e400",
            "-1e400",
            "1E+400",
            "1e2147483648",
            "1.7976931348623157e308",
            "1.7976931348623159e308",
            "-1.8e308",
            "1e-400",
            long.as_str(),
            &format!("{long}.5"),
            &format!("-{long}e0"),
            &format!("0.{long}e-100"),
        ];
        let sets = [ReadOptions::default(), ReadOptions::lossless()];
        for lit in literals {
            for shape in [format!("[{lit}]"), format!("{{\"n\":{lit}}}"), format!("[1,[{lit},2],{{\"a\":{lit}}}]")] {
                for outer in 0..3 {
                    agree_taking_at(&nest(outer, &shape), outer, &sets);
                }
            }
        }
    }

    /// Hostile string bodies (multi-byte characters, escapes, invalid bytes
    /// after the opening quote, after escapes and before backslashes, bodies
    /// cut at the end of the input), placed flush against inaccessible pages
    /// on both sides: the fast driver at every level agrees with the
    /// reference (calls, outcome, error text and position), accepts a
    /// string document exactly when its body is UTF-8, and reads nothing
    /// outside the input.
    #[cfg(all(target_os = "linux", target_arch = "x86_64"))]
    #[test]
    fn hostile_utf8_bodies_against_guard_pages() {
        use super::super::guard::Guarded;
        let pieces: [&[u8]; 24] = [
            b"a",
            b"z",
            "é".as_bytes(),
            "ß".as_bytes(),
            "\u{7ff}".as_bytes(),
            "\u{800}".as_bytes(),
            "ア".as_bytes(),
            "\u{d7ff}".as_bytes(),
            "\u{e000}".as_bytes(),
            "\u{fffd}".as_bytes(),
            "\u{10000}".as_bytes(),
            "😀".as_bytes(),
            "\u{10ffff}".as_bytes(),
            b"\\n",
            b"\\\\",
            b"\\\"",
            b"\\u00e9",
            b"\\ud83d\\ude00",
            b"\\/",
            b"\\t",
            b"          ",
            "éééééééé".as_bytes(),
            "😀😀😀😀".as_bytes(),
            b"\\u0041",
        ];
        let bad: [&[u8]; 20] = [
            &[0x80],
            &[0xbf],
            &[0xc0, 0x80],
            &[0xc1, 0xbf],
            &[0xc2],
            &[0xe0, 0x80, 0x80],
            &[0xe0, 0x9f, 0xbf],
            &[0xed, 0xa0, 0x80],
            &[0xed, 0xbf, 0xbf],
            &[0xf4, 0x90, 0x80, 0x80],
            &[0xf5, 0x80, 0x80, 0x80],
            &[0xf0, 0x8f, 0xbf, 0xbf],
            &[0xe1, 0x80],
            &[0xf0, 0x90, 0x80],
            &[0xff],
            &[0xf8, 0x88, 0x80, 0x80, 0x80],
            &[0xe1],
            &[0xf1],
            &[0x80, 0x80],
            &[0xdf],
        ];
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let rounds: usize = std::env::var("HOSTILE_ROUNDS").ok().and_then(|s| s.parse().ok()).unwrap_or(20_000);
        let mut g = Guarded::new();
        let (mut ok_count, mut err_count) = (0usize, 0usize);
        for round in 0..rounds {
            let target = (next() % 300) as usize;
            let mut body = Vec::new();
            let bad_at = if next() % 2 == 0 { Some((next() % (target as u64 + 1)) as usize) } else { None };
            let mut placed_bad = false;
            while body.len() < target {
                if !placed_bad && bad_at.is_some_and(|k| body.len() >= k) {
                    body.extend_from_slice(bad[(next() % bad.len() as u64) as usize]);
                    placed_bad = true;
                    continue;
                }
                body.extend_from_slice(pieces[(next() % pieces.len() as u64) as usize]);
            }
            if bad_at.is_some() && !placed_bad {
                body.extend_from_slice(bad[(next() % bad.len() as u64) as usize]);
            }
            // Sometimes a bad byte right at the start or right before the end.
            match round % 5 {
                0 => body.insert(0, bad[(next() % bad.len() as u64) as usize][0]),
                1 => body.push(bad[(next() % bad.len() as u64) as usize][0]),
                _ => {}
            }
            let valid = std::str::from_utf8(&body).is_ok();
            let prefix: &[u8] = match round % 3 {
                0 => b"",
                1 => "[\"😀\",".as_bytes(),
                _ => "{\"é\":\"ア\",\"k".as_bytes(),
            };
            // Now and then a byte order mark before a string document.
            let bom = round % 7 == 0 && round % 3 == 0;
            let options = if bom { ReadOptions::default().allow_bom(true) } else { ReadOptions::default() };
            let mut doc = if bom { vec![0xef, 0xbb, 0xbf] } else { prefix.to_vec() };
            if round % 3 == 2 {
                doc.extend_from_slice(&body);
                doc.extend_from_slice(b"\":1}");
            } else {
                doc.push(b'"');
                doc.extend_from_slice(&body);
                doc.push(b'"');
                if round % 3 == 1 {
                    doc.push(b']');
                }
            }
            // The whole document, and cut short (inside or at the end of the body).
            let cut = doc.len().saturating_sub(1 + (next() % 4) as usize);
            for d in [&doc[..], &doc[..cut.max(1)]] {
                for place in 0..2 {
                    let input: &[u8] = if place == 0 { g.at_start(d) } else { g.at_end(d) };
                    let want = agree_with(input, &options);
                    if std::ptr::eq(d, &doc[..]) && round % 3 == 0 {
                        assert_eq!(want.is_ok(), valid, "verdict vs std::str::from_utf8: {:?}", String::from_utf8_lossy(input));
                    }
                    let v = crate::Value::from_slice(input);
                    let s = crate::from_slice::<String>(input);
                    if std::ptr::eq(d, &doc[..]) && round % 3 == 0 && !bom {
                        assert_eq!(v.is_ok(), valid, "Value::from_slice {:?}", String::from_utf8_lossy(input));
                        assert_eq!(s.is_ok(), valid, "from_slice::<String> {:?}", String::from_utf8_lossy(input));
                        if valid {
                            ok_count += 1
                        } else {
                            err_count += 1
                        }
                    }
                    if let (false, Err(a), Err(b)) = (bom, &v, &want) {
                        assert_eq!(a.to_string(), b.to_string(), "Value::from_slice error {:?}", String::from_utf8_lossy(input));
                    }
                }
            }
        }
        assert!(rounds < 1000 || (ok_count > rounds / 10 && err_count > rounds / 10), "{ok_count} valid, {err_count} invalid");
    }

    /// The last, partial block from outside: documents of every length 1 to
    /// 200 whose string ends 0 to 20 bytes before the input's end (the
    /// rest whitespace, or whitespace and a stray byte), plain, with an
    /// escape, a control byte or a lone byte >= 0x80 near its end, a
    /// two-byte character just before the last block, or never closed;
    /// alone (`parse_scalar` too) and inside an array. Each placed against
    /// a guard page (an over-read faults) and walked at every level and
    /// by `parse_scalar` as the reference walks it.
    #[cfg(all(target_os = "linux", target_arch = "x86_64"))]
    #[test]
    fn strings_ending_anywhere_in_the_last_block_against_guard_pages() {
        use super::super::guard::Guarded;
        let mut g = Guarded::new();
        let all = options();
        let mut docs = 0usize;
        for len in 1usize..=200 {
            for gap in 0usize..=20 {
                for kind in 0..7 {
                    for tail in 0..3 {
                        for wrap in [false, true] {
                            // `[` before and `]` after (inside the gap) when
                            // wrapped: the string still ends at `len - 1 - gap`.
                            let open = usize::from(wrap);
                            if len < 2 + gap + open || (wrap && gap == 0) {
                                continue;
                            }
                            let quote = len - 1 - gap;
                            let mut doc = vec![b'a'; len];
                            if wrap {
                                doc[0] = b'[';
                            }
                            doc[open] = b'"';
                            doc[quote] = b'"';
                            let body = open + 1..quote;
                            match kind {
                                1 if body.len() >= 2 => doc[quote - 2..quote].copy_from_slice(b"\\n"),
                                2 if !body.is_empty() => doc[quote - 1] = 0x01,
                                3 if !body.is_empty() => doc[quote - 1] = 0xe9,
                                4 => {
                                    // A two-byte character just before the
                                    // last block (or as late as fits).
                                    let at = ((len - 1) & !63).saturating_sub(2).clamp(body.start, body.end.max(body.start + 2) - 2);
                                    if at + 2 <= body.end {
                                        doc[at..at + 2].copy_from_slice("é".as_bytes());
                                    }
                                }
                                5 => doc[quote] = b'a',
                                6 if body.len() >= 8 => doc[quote - 8..quote].copy_from_slice(b"\\u00e9\\\\"),
                                _ => {}
                            }
                            let ws = b" \t\r\n";
                            for (k, at) in (quote + 1..len).enumerate() {
                                doc[at] = match tail {
                                    0 => b' ',
                                    _ => ws[k % 4],
                                };
                            }
                            if tail == 2 && gap > 0 {
                                doc[len - 1] = b'x';
                            }
                            if wrap {
                                // Right after the string, or at the end.
                                let at = if tail == 1 { quote + 1 } else { len - 1 };
                                doc[at] = b']';
                            }
                            docs += 1;
                            let placed = if docs.is_multiple_of(4) { g.at_start(&doc) } else { g.at_end(&doc) };
                            for options in &all {
                                let _ = agree_with(placed, options);
                                let (want_calls, want) = reference(placed, options);
                                let mut r = Record::default();
                                let what = || format!("{:?} with {options:?}", String::from_utf8_lossy(placed));
                                match super::super::parser::parse_scalar(placed, options, &mut r) {
                                    None => assert!(wrap && r.0.is_empty(), "declined: {}", what()),
                                    Some(got) => {
                                        assert!(!wrap, "a container walked as a scalar: {}", what());
                                        assert_eq!(r.0, want_calls, "calls differ: {}", what());
                                        match (&got, &want) {
                                            (Ok(()), Ok(())) => {}
                                            (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "{}", what()),
                                            _ => panic!("outcomes differ: scalar {got:?}, reference {want:?}: {}", what()),
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        assert!(docs > 100_000, "{docs}");
    }
}
