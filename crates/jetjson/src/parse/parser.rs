//! The strict RFC 8259 parser core and its push driver.
//!
//! `Parser` knows the grammar's pieces (whitespace, strings, numbers,
//! literals, duplicate names) and where it is in the input. Two drivers use
//! it: `parse` below walks a document iteratively (an explicit stack, no
//! recursion) and reports tokens to a `Visitor`; the serde deserializer in
//! `de.rs` pulls the same pieces on demand.
//!
//! UTF-8 is checked only where it can go wrong: outside strings the grammar
//! admits only ASCII, and a string body is validated only when the scan saw
//! a byte >= 0x80 in it.

use super::drive::{self, Stop};
use super::number::{out_of_range, plain_integer, scan_general, scan_number, scan_window, NumberValue, WINDOW, WINDOW_LITERAL_MAX};
use super::options::{DuplicateKeys, ReadOptions};
use super::scan::string_stop;
use super::text_out::TextOut;
use super::visitor::{NumberToken, Visitor};
use crate::error::{Error, ErrorKind, Position, Result};

pub(crate) const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Parses one JSON text from `input`, reporting its tokens to `visitor`.
pub fn parse<V: Visitor + ?Sized>(input: &[u8], options: &ReadOptions, visitor: &mut V) -> Result<()> {
    // The working memory is kept per thread between documents: grown from
    // nothing for every small document, its vectors' allocations were a
    // tenth of the time of a 1 KB document.
    with_pooled(input.len(), |buffers| parse_with_buffers(input, options, visitor, buffers))
}

/// The parser's working memory, kept by a caller that parses many
/// documents in a row under its own lock (a language binding holding its
/// interpreter's lock): `parse_with_memory` then needs no thread-local
/// access and moves nothing in and out of the thread's pool.
#[doc(hidden)]
#[derive(Default)]
pub struct ParseMemory(Buffers);

/// `parse` with the caller's kept working memory (trimmed afterwards as
/// the thread's is, after any input longer than `UNTRIMMED_UP_TO`).
#[doc(hidden)]
pub fn parse_with_memory<V: Visitor + ?Sized>(
    input: &[u8],
    options: &ReadOptions,
    visitor: &mut V,
    memory: &mut ParseMemory,
) -> Result<()> {
    let result = parse_with_buffers(input, options, visitor, &mut memory.0);
    if input.len() > UNTRIMMED_UP_TO {
        memory.0.trim();
    }
    result
}

/// `parse` of a document whose value is no container (a string, number or
/// literal): the same walk, accepting exactly what `parse` accepts and
/// failing with its error, but inlined into the caller and with no working
/// memory (`drive::scalar_document`). `None`, with nothing reported to
/// `visitor`, when the value is a container: parse it with `parse` or
/// `parse_with_memory` then. For bindings whose per-call cost matters
/// (`loads(b'1')` in Python).
#[doc(hidden)]
#[inline(always)]
pub fn parse_scalar<V: Visitor + ?Sized>(input: &[u8], options: &ReadOptions, visitor: &mut V) -> Option<Result<()>> {
    Some(match drive::scalar_document(input, options, visitor)? {
        Ok(_) => Ok(()),
        Err(Stop::Visitor(e)) => Err(e),
        Err(Stop::Syntax) => Err(explain(input, options)),
    })
}

/// Inputs up to this size leave the kept memory untrimmed: each of its
/// vectors holds at most one entry per input byte, so such a parse grows
/// none of them past twice that (a few KiB at most), and every longer
/// input's parse trims them again. The capacity compares were a tenth of
/// a `loads(b'1')` (Python) outside the driver.
const UNTRIMMED_UP_TO: usize = 256;

/// Runs `f` with this thread's kept working memory (fresh memory when it is
/// already lent out, or the thread is ending), then trims it if `f` read
/// more than `POOLED_UNTRIMMED_UP_TO` of the `input_len` bytes of its input.
///
/// The memory is lent where it lies in the thread-local, not moved out and
/// back: moving `Buffers` both ways, and the trim's capacity checks (one
/// wide load over fields the parse had just stored to), cost
/// store-forwarding stalls, 4% of the time of a 1 KiB `Value` parse
/// (bench/results/value-small-2026-11-28.md).
#[inline]
fn with_pooled<R>(input_len: usize, f: impl FnOnce(&mut Buffers) -> R) -> R {
    let mut f = Some(f);
    let lent = POOLED.try_with(|cell| {
        let mut buffers = cell.try_borrow_mut().ok()?;
        let result = f.take()?(&mut buffers);
        if input_len > POOLED_UNTRIMMED_UP_TO {
            buffers.trim();
        }
        Some(result)
    });
    if let Ok(Some(result)) = lent {
        return result;
    }
    // Lent already (a parse inside a visitor's call) or the thread is
    // ending: memory of this call's own.
    let f = f.take().expect("`f` runs only where the memory was lent, and then returns");
    f(&mut Buffers::default())
}

/// Inputs up to this size leave the thread's kept memory untrimmed. A parse
/// grows no vector of it past twice the entries the input can make (one
/// per byte at most, far fewer for names and open objects), so after such
/// parses the thread keeps a few dozen KiB more at worst than `Buffers::trim`
/// leaves, and the next longer input's parse trims it again.
const POOLED_UNTRIMMED_UP_TO: usize = 4096;

thread_local! {
    static POOLED: std::cell::RefCell<Buffers> = const { std::cell::RefCell::new(Buffers::EMPTY) };
}

/// `parse` with working memory lent by the caller and handed back.
///
/// The fast driver (`drive.rs`) walks the text; if it finds the text
/// invalid, the reference driver below walks it again, reporting to no
/// visitor, to say what is wrong and where.
pub(crate) fn parse_with_buffers<V: Visitor + ?Sized>(
    input: &[u8],
    options: &ReadOptions,
    visitor: &mut V,
    buffers: &mut Buffers,
) -> Result<()> {
    parse_at_level(input, options, visitor, buffers, drive::parse_level())
}

/// Checks that `input` is one JSON text, building nothing: the validator
/// (`validate.rs`), with this thread's kept working memory.
pub(crate) fn check(input: &[u8], options: &ReadOptions) -> Result<()> {
    with_pooled(input.len(), |buffers| check_with_buffers(input, options, buffers, drive::level()))
}

/// `check` with working memory lent by the caller and the validator built
/// for `level`; what it refuses, the reference driver explains.
pub(crate) fn check_with_buffers(input: &[u8], options: &ReadOptions, buffers: &mut Buffers, level: drive::Level) -> Result<()> {
    let work = buffers.check.get_or_insert_with(Box::default);
    if super::validate::validate(input, options, work, level) {
        Ok(())
    } else {
        Err(explain(input, options))
    }
}

/// `parse_with_buffers` with the fast driver built for `level` (tests).
pub(crate) fn parse_at_level<V: Visitor + ?Sized>(
    input: &[u8],
    options: &ReadOptions,
    visitor: &mut V,
    buffers: &mut Buffers,
    level: drive::Level,
) -> Result<()> {
    match drive::drive(input, drive::Span::Document, options, visitor, buffers, level) {
        Ok(_) => Ok(()),
        Err(Stop::Visitor(e)) => Err(e),
        Err(Stop::Syntax) => Err(explain(input, options)),
    }
}

/// Walks the one value that starts at `from` in `input` (after whitespace)
/// into `visitor`, and no further: the offset after it. `Ok(None)` if the
/// text is not valid there (nothing says why: the caller reads it again its
/// own way); `Err` if the visitor failed.
pub(crate) fn walk_value_at<V: Visitor + ?Sized>(
    input: &[u8],
    from: usize,
    options: &ReadOptions,
    visitor: &mut V,
) -> Result<Option<usize>> {
    // Kept memory as `parse` does: a `Value` field of a typed struct comes
    // here once per message.
    match with_pooled(input.len(), |buffers| {
        drive::drive(input, drive::Span::ValueAt(from), options, visitor, buffers, drive::parse_level())
    }) {
        Ok(end) => Ok(Some(end)),
        Err(Stop::Visitor(e)) => Err(e),
        Err(Stop::Syntax) => Ok(None),
    }
}

/// `walk_value_at` with no visitor, for a value taken as text (`RawJson`):
/// a container there is checked by the validator
/// (`validate::container_end`), and walked only if it does not accept it.
pub(crate) fn check_value_at(input: &[u8], from: usize, options: &ReadOptions) -> Result<Option<usize>> {
    with_pooled(input.len(), |buffers| {
        let level = drive::level();
        if matches!(input.get(from), Some(b'{' | b'[')) {
            let nested = super::validate::Nested {
                depth: 0,
                max_depth: options.max_depth,
                track_names: options.duplicate_keys == DuplicateKeys::Error,
                lossless: options.lossless_numbers,
            };
            let work = buffers.check.get_or_insert_with(Box::default);
            if let Some(end) = super::validate::container_end(input, from, nested, work, level) {
                return Ok(Some(end));
            }
        }
        match drive::drive(input, drive::Span::ValueAt(from), options, &mut super::visitor::Ignore, buffers, level) {
            Ok(end) => Ok(Some(end)),
            Err(Stop::Visitor(e)) => Err(e),
            Err(Stop::Syntax) => Ok(None),
        }
    })
}

/// The error for text after the document's value (both drivers).
pub(crate) const TRAILING: &str = "trailing characters after the JSON value";

/// What is wrong with `input`, which the fast driver refused: the
/// reference driver's error.
#[cold]
#[inline(never)]
fn explain(input: &[u8], options: &ReadOptions) -> Error {
    let found = Parser::new(input, options).and_then(|mut p| {
        p.drive(&mut super::visitor::Ignore)?;
        p.finish()
    });
    match found {
        Err(e) => e,
        // The two drivers accept the same texts (tested); should they ever
        // disagree, the input is refused with this, not accepted half-built.
        Ok(()) => Error::syntax("internal error: the parser's two drivers disagree on this input (please report it)")
            .at(Position::locate(input, 0)),
    }
}

/// A string just parsed: its body as written, and its decoded text when that
/// is the same slice of the input (no escapes); otherwise the decoded text
/// is in `Parser::scratch` until the next string.
#[derive(Clone, Copy)]
pub(crate) struct Str<'a> {
    pub borrowed: Option<&'a str>,
    pub raw: &'a str,
    /// No escapes and no byte >= 0x80: the text is `raw` and pure ASCII
    /// (known from the scan, so builders need not check again).
    pub ascii: bool,
}

/// The parser's working memory, kept between documents by `Validator` so
/// validating many small documents allocates nothing per document.
#[derive(Default)]
pub(crate) struct Buffers {
    pub(super) scratch: String,
    pub(super) dups: DuplicateNames,
    pub(super) stack: Vec<bool>,
    /// The validator's (`validate.rs`), made the first time it runs and
    /// boxed: `Buffers` moves in and out of the thread's pool on every
    /// parse, and a second `DuplicateNames` inline doubled what each move
    /// copies (`loads(b'1')` +150 instructions).
    pub(super) check: Option<Box<super::validate::Work>>,
}

impl Buffers {
    /// No memory yet (the thread-local's start).
    const EMPTY: Buffers = Buffers { scratch: String::new(), dups: DuplicateNames::EMPTY, stack: Vec::new(), check: None };

    /// Capacity beyond what a thread keeps between documents (a few dozen
    /// KiB) is given back: one huge document pins no memory.
    ///
    /// Inline, a few capacity compares (nearly always nothing to give
    /// back); the shrinking itself is out of line.
    #[inline]
    fn trim(&mut self) {
        const KEEP: usize = 4096;
        if self.scratch.capacity() > KEEP * 4
            || self.stack.capacity() > KEEP
            || self.dups.above(KEEP)
            || self.check.as_ref().is_some_and(|work| work.above(KEEP))
        {
            self.shrink(KEEP);
        }
    }

    #[cold]
    #[inline(never)]
    fn shrink(&mut self, keep: usize) {
        self.scratch.shrink_to(keep * 4);
        self.stack.shrink_to(keep);
        self.dups.shrink_to(keep);
        if let Some(work) = &mut self.check {
            work.trim(keep);
        }
    }
}

pub(crate) struct Parser<'a> {
    pub(crate) b: &'a [u8],
    pub(crate) i: usize,
    /// Decoded text of the last string that had escapes.
    pub(crate) scratch: String,
    pub(crate) max_depth: usize,
    /// The `max_depth` the caller set, when the serde path lowered
    /// `max_depth` below it (its recursion ceiling; else equal): a depth
    /// error then names the ceiling, not a limit the caller never set.
    pub(crate) asked_depth: usize,
    /// Whether member names are tracked, and what a repeated one means.
    pub(crate) duplicates: DuplicateKeys,
    pub(crate) track_names: bool,
    /// Names of the open objects (when duplicates are errors).
    pub(crate) dups: DuplicateNames,
    /// Open containers of the push driver, innermost last: true for arrays.
    stack: Vec<bool>,
    /// Literals beyond the double range go to the builder as text
    /// (`NumberValue::Big`) instead of being refused.
    pub(crate) lossless_numbers: bool,
    /// Containers open around a container being checked for `Visitor::raw`
    /// (its walk counts depth from zero, against `max_depth` less these).
    raw_depth: usize,
    /// Which bytes of the `WS_SPAN` (128) from `ws_at` are not whitespace
    /// (bit k for `b[ws_at + k]`; bytes past the end of the input count as
    /// not whitespace): pretty-printed input has a run of whitespace every
    /// few dozen bytes, and most of those runs are skipped from this mask,
    /// computed once per block, instead of from loads at each run.
    /// `ws_at` is `NO_BLOCK` until the first run longer than one space.
    ws_at: usize,
    ws_bits: u128,
    /// Whether whitespace blocks are classified with AVX2 (`skip_ws_blocks`):
    /// set when the CPU level, probed once per process, has it, so a build
    /// with no target flags classifies as one built for the machine.
    #[cfg(target_arch = "x86_64")]
    ws_avx2: bool,
}

/// `Parser::ws_at` before any block is classified: no offset is within
/// `WS_SPAN` bytes after it.
const NO_BLOCK: usize = usize::MAX >> 1;

impl<'a> Parser<'a> {
    pub(crate) fn new(input: &'a [u8], options: &ReadOptions) -> Result<Parser<'a>> {
        Parser::with_buffers(input, options, Buffers::default())
    }

    pub(crate) fn with_buffers(input: &'a [u8], options: &ReadOptions, buffers: Buffers) -> Result<Parser<'a>> {
        if let Some(limit) = options.max_size {
            if input.len() > limit {
                return Err(Error::new(ErrorKind::SizeLimit { limit }).at(Position::locate(input, limit)));
            }
        }
        let mut p = Parser {
            b: input,
            i: 0,
            scratch: buffers.scratch,
            max_depth: options.max_depth,
            asked_depth: options.max_depth,
            duplicates: options.duplicate_keys,
            // Builders over the push driver apply `First`/`Last` themselves.
            track_names: options.duplicate_keys == DuplicateKeys::Error,
            dups: buffers.dups,
            stack: buffers.stack,
            lossless_numbers: options.lossless_numbers,
            raw_depth: 0,
            ws_at: NO_BLOCK,
            ws_bits: 0,
            #[cfg(target_arch = "x86_64")]
            ws_avx2: drive::level() >= drive::Level::Avx2,
        };
        if input.starts_with(BOM) {
            if !options.allow_bom {
                return Err(p.error_at(0, "unexpected byte order mark (enable allow_bom to skip it)"));
            }
            p.i = BOM.len();
        }
        Ok(p)
    }

    /// After the value: only whitespace may follow.
    /// After the value, only whitespace; else `TRAILING` where the rest
    /// starts.
    pub(crate) fn finish(&mut self) -> Result<()> {
        self.skip_ws();
        if self.i < self.b.len() {
            return Err(self.error_at(self.i, TRAILING));
        }
        Ok(())
    }

    // ---- errors --------------------------------------------------------

    /// A syntax error at `at` (marked as `Category::Eof` when the input
    /// ended inside a value: `Error::note_input_end`).
    #[cold]
    pub(crate) fn error_at(&self, at: usize, msg: &str) -> Error {
        Error::syntax(msg).at(Position::locate(self.b, at)).note_input_end(self.b)
    }

    /// Attaches the current position to an error that has none.
    #[cold]
    pub(crate) fn locate(&self, at: usize, e: Error) -> Error {
        if e.position().is_some() {
            e
        } else {
            e.at(Position::locate(self.b, at))
        }
    }

    #[cold]
    pub(crate) fn unexpected(&self, what: &str) -> Error {
        match self.b.get(self.i) {
            None => self.error_at(self.i, &format!("unexpected end of input: expected {what}")),
            Some(_) => self.error_at(self.i, &format!("expected {what}")),
        }
    }

    // ---- pieces --------------------------------------------------------

    #[inline(always)]
    pub(crate) fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    #[inline(always)]
    pub(crate) fn skip_ws(&mut self) {
        // Most tokens are followed by no whitespace (compact input): one
        // comparison, since every whitespace byte is <= ' '.
        match self.b.get(self.i) {
            Some(&c) if c > b' ' => {}
            // Pretty-printed input has one space after each ':' (and
            // after ',' in some styles), and a lone newline between
            // members when it is not indented: skipped here, without the
            // mask.
            Some(&c) if is_ws(c) && self.b.get(self.i + 1).is_some_and(|&c| c > b' ') => self.i += 1,
            Some(_) => self.skip_ws_run(),
            None => {}
        }
    }

    /// Whitespace runs of pretty-printed input: a newline and indentation.
    /// From the mask of the block classified last when the run starts in
    /// it; otherwise (and when the run reaches that block's end) the next
    /// `WS_SPAN` bytes are classified.
    #[inline(always)]
    fn skip_ws_run(&mut self) {
        let off = self.i.wrapping_sub(self.ws_at);
        if off < WS_SPAN {
            let rest = self.ws_bits >> off;
            if rest != 0 {
                self.i += rest.trailing_zeros() as usize;
                return;
            }
            self.i = self.ws_at + WS_SPAN;
        }
        self.skip_ws_blocks();
    }

    /// Classifies `WS_SPAN` bytes from the position at a time until one is not
    /// whitespace (or the input ends), keeping the last block's mask: the
    /// loop built for AVX2 when the CPU has it (`ws_avx2`), else for the
    /// baseline.
    #[inline(never)]
    fn skip_ws_blocks(&mut self) {
        #[cfg(target_arch = "x86_64")]
        if self.ws_avx2 {
            // SAFETY: `ws_avx2` is only set when the CPU has AVX2
            // (`drive::level()` probed it).
            return unsafe { self.skip_ws_blocks_avx2() };
        }
        self.skip_ws_blocks_with::<BaseWs>();
    }

    /// `skip_ws_blocks` with the AVX2 classifier.
    ///
    /// # Safety
    /// The CPU supports AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn skip_ws_blocks_avx2(&mut self) {
        self.skip_ws_blocks_with::<Avx2Ws>();
    }

    #[inline(always)]
    fn skip_ws_blocks_with<C: NonWs>(&mut self) {
        loop {
            let bits = non_ws_block::<C>(self.b, self.i);
            self.ws_at = self.i;
            self.ws_bits = bits;
            if bits != 0 {
                self.i += bits.trailing_zeros() as usize;
                return;
            }
            self.i += WS_SPAN;
        }
    }

    /// Skips whitespace and consumes `byte` if it is next.
    #[inline(always)]
    pub(crate) fn eat(&mut self, byte: u8) -> bool {
        self.skip_ws();
        if self.peek() == Some(byte) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    pub(crate) fn literal(&mut self, word: &'static [u8]) -> Result<()> {
        let at = self.i;
        let got = &self.b[at..(at + word.len()).min(self.b.len())];
        if got != word {
            let k = got.iter().zip(word).take_while(|(a, b)| a == b).count();
            return Err(self.error_at(at + k, "invalid literal (expected true, false or null)"));
        }
        self.i += word.len();
        Ok(())
    }

    /// The number at the current position, read byte by byte: for the end
    /// of the input and the forms `scan_window` leaves alone (exponents,
    /// long literals, errors).
    #[inline(never)]
    fn number_general(&mut self) -> Result<NumberToken<'a>> {
        let at = self.i;
        let (len, value, is_integer) = scan_general(&self.b[at..]).map_err(|k| self.error_at(at + k, "invalid number"))?;
        let text = self.number_text(at, len);
        // Only this route meets such literals (the window's have no
        // exponent and at most 19 digits).
        if value == NumberValue::Big && !is_integer && !self.lossless_numbers {
            return Err(self.locate(at, out_of_range(text)));
        }
        self.i = at + len;
        Ok(NumberToken { text, is_integer, value })
    }

    /// The number at the current position, moved past: its length, value
    /// and whether it is an integer.
    #[inline(always)]
    pub(crate) fn number_value(&mut self) -> Result<(usize, NumberValue, bool)> {
        let at = self.i;
        let scanned = scan_number(&self.b[at..]).map_err(|k| self.error_at(at + k, "invalid number"))?;
        self.i += scanned.0;
        Ok(scanned)
    }

    /// `number_value` for the common case of a non-negative integer of at
    /// most 16 digits with the whole window after it inside the input: its
    /// value (what `number_value` gives as `NumberValue::I64`), moved past;
    /// `None` (nothing moved) for anything else.
    #[inline(always)]
    pub(crate) fn plain_integer(&mut self) -> Option<i64> {
        let w = self.b.get(self.i..)?.first_chunk::<WINDOW>()?;
        let (len, value) = plain_integer(w)?;
        self.i += len;
        Some(value)
    }

    /// The text of the number `number_value` found at `at`, `len` bytes.
    #[inline(always)]
    pub(crate) fn number_text(&self, at: usize, len: usize) -> &'a str {
        let b: &'a [u8] = self.b;
        // SAFETY: a number literal is ASCII.
        unsafe { std::str::from_utf8_unchecked(&b[at..at + len]) }
    }

    /// Opens a container, enforcing `max_depth` (`depth` is the number of
    /// containers already open).
    #[inline(always)]
    pub(crate) fn enter(&self, depth: usize) -> Result<()> {
        if depth >= self.max_depth {
            return Err(self.too_deep());
        }
        Ok(())
    }

    /// Kept out of line so `enter`, run for every container, is one
    /// comparison where it is inlined.
    #[cold]
    #[inline(never)]
    fn too_deep(&self) -> Error {
        let limit = self.max_depth + self.raw_depth;
        let kind = if self.asked_depth > limit {
            ErrorKind::RecursionCeiling { ceiling: limit, max_depth: Some(self.asked_depth) }
        } else {
            ErrorKind::DepthLimit { limit }
        };
        Error::new(kind).at(Position::locate(self.b, self.i))
    }

    /// The string at `"`.
    #[inline(always)]
    pub(crate) fn string(&mut self) -> Result<Str<'a>> {
        let start = self.i + 1;
        let stop = match short_string_stop(self.b, start) {
            Some(stop) => stop,
            None => string_stop(self.b, start),
        };
        if self.b.get(stop.at) == Some(&b'"') {
            let body = self.body(start, stop.at, stop.non_ascii)?;
            self.i = stop.at + 1;
            return Ok(Str { borrowed: Some(body), raw: body, ascii: !stop.non_ascii });
        }
        self.string_with_escapes(start, stop.at, stop.non_ascii)
    }

    /// The decoded text of `s`.
    #[inline(always)]
    pub(crate) fn text<'s>(&'s self, s: &Str<'a>) -> &'s str {
        s.borrowed.unwrap_or(&self.scratch)
    }

    /// `b[from..to]` as text, checking UTF-8 if non-ASCII bytes were seen.
    #[inline(always)]
    fn body(&self, from: usize, to: usize, non_ascii: bool) -> Result<&'a str> {
        let bytes = &self.b[from..to];
        if non_ascii {
            if simdutf8::basic::from_utf8(bytes).is_ok() {
                // SAFETY: simdutf8's `basic::from_utf8` accepts exactly what
                // `std::str::from_utf8` accepts (its documented contract,
                // and checked against it by the JSONTestSuite tables and
                // fuzz `differential`): `bytes` is valid UTF-8.
                return Ok(unsafe { std::str::from_utf8_unchecked(bytes) });
            }
            return std::str::from_utf8(bytes).map_err(|e| self.error_at(from + e.valid_up_to(), "invalid UTF-8 in string"));
        }
        // SAFETY: the scan saw no byte >= 0x80 in this range: it is ASCII.
        Ok(unsafe { std::str::from_utf8_unchecked(bytes) })
    }

    /// The rest of a string whose scan stopped at `at` (a backslash, a
    /// control byte or the end of the input), decoded into `scratch`.
    #[cold]
    fn string_with_escapes(&mut self, start: usize, at: usize, non_ascii: bool) -> Result<Str<'a>> {
        let end = decode_string(self.b, start, at, non_ascii, &mut self.scratch).map_err(|(at, msg)| {
            if msg == OUT_OF_MEMORY {
                out_of_memory_at(self.b, at)
            } else {
                self.error_at(at, msg)
            }
        })?;
        // SAFETY: `decode_string` accepted `start..end`: every byte outside
        // the escapes was checked as UTF-8 in its run; escapes are ASCII.
        let raw = unsafe { std::str::from_utf8_unchecked(&self.b[start..end]) };
        self.i = end + 1;
        Ok(Str { borrowed: None, raw, ascii: false })
    }

    // ---- duplicate names -----------------------------------------------

    #[inline]
    pub(crate) fn open_object_names(&mut self) {
        if self.track_names {
            self.dups.open();
        }
    }

    #[inline]
    pub(crate) fn close_object_names(&mut self) {
        if self.track_names {
            self.dups.close();
        }
    }

    /// Records a member name (in `s`, which may be in `scratch`). Returns
    /// whether it is new in the open object; a repeat is an error under
    /// `DuplicateKeys::Error`.
    #[inline(always)]
    pub(crate) fn check_name(&mut self, s: &Str<'a>, at: usize) -> Result<bool> {
        if !self.track_names {
            return Ok(true);
        }
        let (name, in_input) = match s.borrowed {
            // A slice of the input: where it starts there.
            Some(text) => (text, Some(text.as_ptr() as usize - self.b.as_ptr() as usize)),
            None => (self.scratch.as_str(), None),
        };
        if self.dups.insert(self.b, name.as_bytes(), in_input) {
            return Ok(true);
        }
        self.repeated_name(name, at)
    }

    /// A name seen before in its object: an error, or `false` (skip it)
    /// under the `first`/`last` policies.
    #[cold]
    #[inline(never)]
    fn repeated_name(&self, name: &str, at: usize) -> Result<bool> {
        if self.duplicates == DuplicateKeys::Error {
            let key = name.to_owned();
            return Err(Error::new(ErrorKind::DuplicateKey { key }).at(Position::locate(self.b, at)));
        }
        Ok(false)
    }

    // ---- the push driver -----------------------------------------------

    /// Walks one value iteratively, reporting tokens to `v`: the reference
    /// driver, byte by byte, with a precise message for every error. Texts
    /// are walked by the fast driver (`drive.rs`); this one says what is
    /// wrong with those it refuses, and is its oracle in the tests.
    pub(crate) fn drive<V: Visitor + ?Sized>(&mut self, v: &mut V) -> Result<()> {
        let mut stack = std::mem::take(&mut self.stack);
        let result = self.drive_with(v, &mut stack);
        self.stack = stack;
        result
    }

    fn drive_with<V: Visitor + ?Sized>(&mut self, v: &mut V, stack: &mut Vec<bool>) -> Result<()> {
        'value: loop {
            self.skip_ws();
            let at = self.i;
            match self.peek() {
                // Only builders that ever want text ask (the default answer,
                // `false`, removes this arm).
                Some(b'{' | b'[') if v.take_raw(&self.b[at..]) => {
                    self.raw_container(v, stack.len())?;
                }
                Some(b'{') => {
                    self.enter(stack.len())?;
                    self.i += 1;
                    if self.eat(b'}') {
                        v.empty_object().map_err(|e| self.locate(at, e))?;
                    } else {
                        stack.push(false);
                        self.open_object_names();
                        v.begin_object().map_err(|e| self.locate(at, e))?;
                        self.member_name(v)?;
                        continue 'value;
                    }
                }
                Some(b'[') => {
                    self.enter(stack.len())?;
                    self.i += 1;
                    if self.eat(b']') {
                        v.empty_array().map_err(|e| self.locate(at, e))?;
                    } else {
                        stack.push(true);
                        v.begin_array().map_err(|e| self.locate(at, e))?;
                        continue 'value;
                    }
                }
                Some(b'"') => {
                    let s = self.string()?;
                    let r = if s.ascii { v.ascii_string(s.raw) } else { v.string(self.text(&s), s.raw) };
                    r.map_err(|e| self.locate(at, e))?;
                }
                Some(b'-' | b'0'..=b'9') => {
                    // Arrays of numbers (coordinates, vertex data) are most
                    // of some documents: a number followed by ',' and
                    // another number in the same array loops here, without
                    // the dispatch on the next byte and the look at the
                    // stack of open containers that other elements take.
                    let in_array = stack.last() == Some(&true);
                    // `],[` goes on in the parent only when that is an array.
                    let parent_is_array = stack.len() >= 2 && stack[stack.len() - 2];
                    let mut at = at;
                    loop {
                        // Away from the end of the input, the number and what
                        // follows it lie in one 32-byte window: in an array,
                        // a ',' and the next number (in compact input or
                        // after one space) are found there, with no bounds
                        // checks and no whitespace call. A number starts
                        // `next` bytes on when `another` (in this array) or
                        // `reopen` (after `],[`, in the next array of the
                        // same parent) says so.
                        //
                        // The position of each next number is the chain
                        // that limits arrays of numbers. So `next` is an
                        // offset chosen by branches and the two flags are
                        // tested by branches: predicted, the next number's
                        // scan starts before the separator's bytes are
                        // loaded and compared. (As one offset that is 0 when
                        // no number follows, the compiler made a select
                        // that waits for those loads: 5% slower on mesh;
                        // the two flags as one three-state value, selects
                        // again: 6% more instructions on mesh.)
                        let window = self.b.get(at..).and_then(<[u8]>::first_chunk::<WINDOW>);
                        let (token, next, another, reopen) = match window.and_then(|w| Some((w, scan_window(w)?))) {
                            Some((w, (len, value, is_integer))) => {
                                // SAFETY: `scan_window` accepts literals of at
                                // most `WINDOW_LITERAL_MAX` bytes. Told so, the
                                // compiler drops the bounds checks of the three
                                // reads after the literal below (all inside the
                                // window by that bound).
                                unsafe { std::hint::assert_unchecked(len <= WINDOW_LITERAL_MAX) };
                                self.i = at + len;
                                // SAFETY: the `len` bytes are the literal just
                                // scanned (ASCII), inside the window.
                                let text = unsafe { std::str::from_utf8_unchecked(w.get_unchecked(..len)) };
                                let mut next = 0;
                                let mut another = false;
                                let mut reopen = false;
                                if in_array {
                                    if w[len] == b',' {
                                        if w[len + 1] == b' ' {
                                            next = len + 2;
                                            another = starts_number(w[len + 2]);
                                        } else {
                                            next = len + 1;
                                            another = starts_number(w[len + 1]);
                                        }
                                    } else if parent_is_array
                                        && w[len] == b']'
                                        && w[len + 1] == b','
                                        && w[len + 2] == b'['
                                        && starts_number(w[len + 3])
                                    {
                                        // The last number of a small array,
                                        // and the next array of the same
                                        // parent starts with a number: the
                                        // rings of points of GeoJSON, the
                                        // rows of a matrix.
                                        next = len + 3;
                                        reopen = true;
                                    }
                                }
                                (NumberToken { text, is_integer, value }, next, another, reopen)
                            }
                            // Near the end of the input, or a form the window
                            // leaves alone (exponents, long literals, errors).
                            None => (self.number_general()?, 0, false, false),
                        };
                        // One call site, so the builder's `number` is inlined
                        // here once.
                        v.number(token).map_err(|e| self.locate(at, e))?;
                        if another {
                            at += next;
                            self.i = at;
                            continue;
                        }
                        if reopen {
                            // `]`, `,` and `[` at the same depth: the open
                            // containers stay as they are.
                            let close = self.i;
                            v.end_array().map_err(|e| self.locate(close, e))?;
                            if v.take_raw(&self.b[close + 2..]) {
                                // The next array is wanted whole: the one
                                // just closed leaves the stack, and the
                                // parent goes on after the text.
                                stack.pop();
                                self.i = close + 2;
                                self.raw_container(v, stack.len())?;
                                break;
                            }
                            v.begin_array().map_err(|e| self.locate(close + 2, e))?;
                            at += next;
                            self.i = at;
                            continue;
                        }
                        if !in_array {
                            break;
                        }
                        self.skip_ws();
                        if self.peek() != Some(b',') {
                            break;
                        }
                        self.i += 1;
                        self.skip_ws();
                        at = self.i;
                        if !self.peek().is_some_and(starts_number) {
                            // Past the ',': the next element is parsed in
                            // general (a ']' there is reported as such).
                            continue 'value;
                        }
                    }
                }
                Some(b't') => {
                    self.literal(b"true")?;
                    v.bool(true).map_err(|e| self.locate(at, e))?;
                }
                Some(b'f') => {
                    self.literal(b"false")?;
                    v.bool(false).map_err(|e| self.locate(at, e))?;
                }
                Some(b'n') => {
                    self.literal(b"null")?;
                    v.null().map_err(|e| self.locate(at, e))?;
                }
                Some(b']') if stack.last() == Some(&true) => return Err(self.error_at(at, "expected a value after ','")),
                _ => return Err(self.unexpected("a JSON value")),
            }

            // After a value: close containers or move to the next member.
            loop {
                let Some(&is_array) = stack.last() else { return Ok(()) };
                self.skip_ws();
                let at = self.i;
                match (is_array, self.peek()) {
                    (_, Some(b',')) => {
                        self.i += 1;
                        if !is_array {
                            self.skip_ws();
                            self.member_name(v)?;
                        }
                        continue 'value;
                    }
                    (true, Some(b']')) => {
                        self.i += 1;
                        stack.pop();
                        v.end_array().map_err(|e| self.locate(at, e))?;
                    }
                    (false, Some(b'}')) => {
                        self.i += 1;
                        stack.pop();
                        self.close_object_names();
                        v.end_object().map_err(|e| self.locate(at, e))?;
                    }
                    (true, _) => return Err(self.unexpected("',' or ']' after array element")),
                    (false, _) => return Err(self.unexpected("',' or '}' after object member")),
                }
            }
        }
    }

    /// The container at the current position, checked by a walk of its own
    /// (`depth` containers are open around it; repeated names refused under
    /// `DuplicateKeys::Error` or when `v.refuses_repeats_in_raw()`) and
    /// handed to `v` as text.
    #[cold]
    #[inline(never)]
    fn raw_container<V: Visitor + ?Sized>(&mut self, v: &mut V, depth: usize) -> Result<()> {
        let at = self.i;
        self.enter(depth)?;
        // The walk starts at depth zero: it may go `max_depth - depth` deep.
        // Its own stack is the one the push driver left in `self.stack`
        // (taken while it runs), so no allocation after the first time.
        let (max_depth, raw_depth) = (self.max_depth, self.raw_depth);
        let (track_names, duplicates) = (self.track_names, self.duplicates);
        self.max_depth -= depth;
        self.raw_depth += depth;
        if v.refuses_repeats_in_raw() {
            self.track_names = true;
            self.duplicates = DuplicateKeys::Error;
        }
        let mut stack = std::mem::take(&mut self.stack);
        stack.clear();
        let walked = self.drive_with(&mut super::visitor::Ignore, &mut stack);
        self.stack = stack;
        self.max_depth = max_depth;
        self.raw_depth = raw_depth;
        (self.track_names, self.duplicates) = (track_names, duplicates);
        walked?;
        // SAFETY: the walk accepted `at..self.i` as one JSON value: ASCII
        // outside strings and valid UTF-8 inside them (every string body
        // was checked by `body`).
        let text = unsafe { std::str::from_utf8_unchecked(&self.b[at..self.i]) };
        v.raw(text).map_err(|e| self.locate(at, e))
    }

    /// A member name and its ':' (whitespace before it already skipped).
    fn member_name<V: Visitor + ?Sized>(&mut self, v: &mut V) -> Result<()> {
        let at = self.i;
        match self.peek() {
            Some(b'"') => {}
            Some(b'}') => return Err(self.error_at(at, "expected an object member name after ','")),
            _ => return Err(self.unexpected("'\"' to start an object member name")),
        }
        let s = self.string()?;
        self.check_name(&s, at)?;
        let r = if s.ascii { v.ascii_key(s.raw) } else { v.key(self.text(&s), s.raw) };
        r.map_err(|e| self.locate(at, e))?;
        if !self.eat(b':') {
            return Err(self.unexpected("':' after object member name"));
        }
        Ok(())
    }
}

/// Decodes the escape at `b[i]` (a backslash) onto `out`: the index after
/// it, or where it is wrong and why.
pub(crate) fn decode_escape(b: &[u8], i: usize, out: &mut String) -> std::result::Result<usize, (usize, &'static str)> {
    let (c, next) = escape_char(b, i)?;
    out.push(c);
    Ok(next)
}

/// The character the escape at `b[i]` (a backslash) stands for, and the
/// index after it; or where it is wrong and why.
pub(crate) fn escape_char(b: &[u8], i: usize) -> std::result::Result<(char, usize), (usize, &'static str)> {
    let c = match b.get(i + 1) {
        Some(b'"') => '"',
        Some(b'\\') => '\\',
        Some(b'/') => '/',
        Some(b'b') => '\u{8}',
        Some(b'f') => '\u{c}',
        Some(b'n') => '\n',
        Some(b'r') => '\r',
        Some(b't') => '\t',
        Some(b'u') => {
            let hi = hex4(b, i + 2)?;
            let (cp, next) = match hi {
                0xD800..=0xDBFF => {
                    if b.get(i + 6) != Some(&b'\\') || b.get(i + 7) != Some(&b'u') {
                        return Err((i, "lone surrogate escape (a high surrogate must be followed by a low one)"));
                    }
                    let lo = hex4(b, i + 8)?;
                    if !(0xDC00..=0xDFFF).contains(&lo) {
                        return Err((i + 6, "lone surrogate escape (a high surrogate must be followed by a low one)"));
                    }
                    (0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00), i + 12)
                }
                0xDC00..=0xDFFF => return Err((i, "lone surrogate escape (a low surrogate without a high one)")),
                _ => (hi, i + 6),
            };
            return Ok((char::from_u32(cp).expect("surrogates are handled above"), next));
        }
        Some(_) => return Err((i, "invalid escape in string")),
        None => return Err((i, "unterminated string")),
    };
    Ok((c, i + 2))
}

/// What each one-letter escape stands for (0: not one; `\\u` is not).
pub(crate) const SIMPLE_ESCAPES: [u8; 256] = {
    let mut t = [0u8; 256];
    t[b'"' as usize] = b'"';
    t[b'\\' as usize] = b'\\';
    t[b'/' as usize] = b'/';
    t[b'b' as usize] = 0x08;
    t[b'f' as usize] = 0x0C;
    t[b'n' as usize] = b'\n';
    t[b'r' as usize] = b'\r';
    t[b't' as usize] = b'\t';
    t
};

/// Decodes the body of a string that has escapes into `scratch` (cleared
/// first): `start` is the body's first byte, `at` the first stop the
/// caller's scan found there (a backslash, a control byte or the end of
/// the input) and `high` whether a byte >= 0x80 came before it. Returns the
/// index of the closing quote, or where the body is wrong and why, as the
/// reference driver has always said it: a run of text is checked as UTF-8
/// when the escape or quote that ends it is reached (so a bad escape after
/// bad UTF-8 reports the UTF-8), a control byte is reported as such, and an
/// input that ends inside the string is reported at its opening quote.
///
/// After each escape, the next 16 bytes of the input are stored into
/// `scratch` whether or not all of them belong to the run (the length then
/// stops at the run's end), so a text dense in escapes (JSON embedded in a
/// string) costs no copy call and no scanner call per escape; longer runs
/// go to the dispatched scanner and one copy.
#[inline(never)]
pub(crate) fn decode_string(
    b: &[u8],
    start: usize,
    at: usize,
    high: bool,
    scratch: &mut String,
) -> std::result::Result<usize, (usize, &'static str)> {
    decode_string_with(b, start, at, high, scratch, |b, from, to| simdutf8::basic::from_utf8(&b[from..to]).is_ok())
}

/// `decode_string`, with the runs of text that have bytes >= 0x80 checked
/// by `utf8_run(b, from, to)`, which says whether `b[from..to]` (followed by
/// an ASCII byte) is UTF-8, exactly (the push driver's check with its ISA,
/// `drive.rs`).
#[inline(always)]
pub(crate) fn decode_string_with<U: Fn(&[u8], usize, usize) -> bool>(
    b: &[u8],
    start: usize,
    at: usize,
    high: bool,
    scratch: &mut String,
    utf8_run: U,
) -> std::result::Result<usize, (usize, &'static str)> {
    let mut out = std::mem::take(scratch).into_bytes();
    out.clear();
    let result = decode_into(b, start, at, high, &mut out, &utf8_run);
    if result.is_err() {
        out.clear();
    }
    // SAFETY: on success `out` holds the runs of the body, each checked as
    // UTF-8 (or ASCII, as the scans saw), and the characters of its escapes;
    // no run crosses an escape (escapes are ASCII), so the whole is UTF-8.
    // On failure it is empty.
    *scratch = unsafe { String::from_utf8_unchecked(out) };
    result
}

///
/// The decoded text is appended to `out` (the scratch buffer, or room the
/// builder lends where the text ends up: `text_out.rs`).
#[inline(always)]
pub(crate) fn decode_into<O: TextOut>(
    b: &[u8],
    start: usize,
    mut at: usize,
    mut high: bool,
    out: &mut O,
    utf8_run: &impl Fn(&[u8], usize, usize) -> bool,
) -> std::result::Result<usize, (usize, &'static str)> {
    if !out.put(&b[start..at]) {
        return Err((at, OUT_OF_MEMORY));
    }
    let mut run = start;
    loop {
        match b.get(at) {
            Some(b'"') => {
                check_run(b, run, at, high, utf8_run)?;
                return Ok(at);
            }
            Some(b'\\') => {
                check_run(b, run, at, high, utf8_run)?;
                // Runs of one-letter escapes and ASCII text between them
                // (JSON embedded in a string) in 32-byte windows; what they
                // leave (a `\u`, a run with bytes >= 0x80 or past a window,
                // the input's last 32 bytes) goes on below.
                let done = escape_runs(b, at, out);
                at = if done != at {
                    done
                } else {
                    // At most four bytes for the escape's character.
                    let (bytes, next) = match b.get(at + 1).map(|&c| SIMPLE_ESCAPES[c as usize]) {
                        Some(c) if c != 0 => (out.put(&[c]), at + 2),
                        _ => {
                            let (c, next) = escape_char(b, at)?;
                            (out.put(c.encode_utf8(&mut [0; 4]).as_bytes()), next)
                        }
                    };
                    if !bytes {
                        return Err((at, OUT_OF_MEMORY));
                    }
                    next
                };
                run = at;
                (at, high) = copy_to_stop(b, at, out)?;
            }
            Some(_) => return Err((at, "control character in string (must be escaped)")),
            None => return Err((start - 1, "unterminated string")),
        }
    }
}

/// `b[run..at]`, a run of string text between escapes, checked as UTF-8
/// when it has bytes >= 0x80 (`high`).
#[inline(always)]
fn check_run(
    b: &[u8],
    run: usize,
    at: usize,
    high: bool,
    utf8_run: &impl Fn(&[u8], usize, usize) -> bool,
) -> std::result::Result<(), (usize, &'static str)> {
    if high && !utf8_run(b, run, at) {
        return Err(utf8_error(b, run, at));
    }
    Ok(())
}

#[cold]
fn utf8_error(b: &[u8], run: usize, at: usize) -> (usize, &'static str) {
    let valid = std::str::from_utf8(&b[run..at]).map_or_else(|e| e.valid_up_to(), |_| at - run);
    (run + valid, "invalid UTF-8 in string")
}

/// From the backslash at `b[at]`: decodes one-letter escapes and the
/// ASCII text between them onto `out`, and returns how far it got (`at`
/// itself when it took nothing). Everything before the returned position
/// is decoded onto `out`; the position is a stop byte, the start of a run
/// of text that is left to the caller, or a place inside an ASCII run
/// after an escape (the end of the window that saw its start, the run's
/// bytes before it copied), where the caller goes on with the run.
///
/// In text dense in escapes the position of each escape was a chain of a
/// load, compares and a mask per escape (`copy_to_stop` from the byte after
/// it). Here one 32-byte window is classified once, and the escapes and
/// runs inside it are taken from its masks: each next stop is a bit
/// operation away; the loads and stores that copy the runs are off that
/// chain. The output's length stays in a register (no call in the loop).
///
/// It stops, leaving the rest to the exact byte-by-byte path, at a quote or
/// control byte, a `\u` or unknown escape, a run with a byte >= 0x80 (to
/// be checked as UTF-8 there), and within 32 bytes of the input's end.
#[inline(always)]
fn escape_runs<O: TextOut>(b: &[u8], at: usize, out: &mut O) -> usize {
    #[cfg(target_arch = "x86_64")]
    {
        use crate::escape::vector::Vector;
        use core::arch::x86_64::{__m128i, _mm_movemask_epi8};
        // How far `out` is complete, as a position in `b`.
        let mut r = at;
        'window: while r + WINDOW_SPAN <= b.len() {
            if !out.room(2 * WINDOW_SPAN) {
                // The caller's byte-by-byte path reports it.
                return r;
            }
            let base = r;
            // SAFETY: `base + 32 <= b.len()` (loop condition); SSE2 is part
            // of the x86_64 baseline.
            let (special, high) = unsafe {
                let p = b.as_ptr().add(base);
                let (lo, hi) = (__m128i::load_unaligned(p), __m128i::load_unaligned(p.add(16)));
                let stops = |v: __m128i| v.cmpeq(__m128i::splat(b'"')).or(v.cmpeq(__m128i::splat(b'\\'))).or(v.lt(0x20));
                let mask = |v: __m128i| _mm_movemask_epi8(v) as u32;
                (mask(stops(lo)) | mask(stops(hi)) << 16, mask(lo) | mask(hi) << 16)
            };
            let dst = out.as_mut_ptr();
            let mut len = out.len();
            // `r - base`: the window's bytes before it are done.
            let mut off = 0u32;
            loop {
                let m = special & (u32::MAX << off);
                if m == 0 {
                    // No stop in the rest of the window: a run that goes on
                    // past it. Its part here is copied (unless it has a byte
                    // >= 0x80, to be checked as UTF-8 by the caller) and the
                    // caller's copy takes the rest from the window's end:
                    // a new window from the run's start would classify its
                    // bytes again, and most such runs are long text (prose
                    // between line breaks), which the caller's scan takes
                    // faster.
                    if off == 0 {
                        // A run that fills a whole window: long text.
                        // SAFETY: `len` bytes of `out` are written.
                        unsafe { out.set_len(len) };
                        return base;
                    }
                    let from = base + off as usize;
                    // SAFETY: `out` had `2 * WINDOW_SPAN` bytes free at the
                    // window's start and has grown by at most 31 bytes
                    // since, so 32 more are allocated.
                    if !unsafe { copy_run(b, from, high & (u32::MAX << off) == 0, dst.add(len)) } {
                        // SAFETY: `len` bytes of `out` are written.
                        unsafe { out.set_len(len) };
                        return from;
                    }
                    len += 32 - off as usize;
                    // SAFETY: `len` bytes of `out` are written.
                    unsafe { out.set_len(len) };
                    return base + 32;
                }
                // The run from `off` to the next stop.
                let end = m.trailing_zeros();
                if end > off {
                    let run = (u32::MAX << off) & !(u32::MAX << end);
                    let from = base + off as usize;
                    // SAFETY: `out` had `2 * WINDOW_SPAN` bytes free at the
                    // window's start and has grown by at most the 32 bytes
                    // of the window since, so 32 bytes from `len` are
                    // allocated. Only the run's bytes count (`len` grows by
                    // its length), the rest is overwritten or left unused.
                    if !unsafe { copy_run(b, from, high & run == 0, dst.add(len)) } {
                        // SAFETY: `len` bytes of `out` are written.
                        unsafe { out.set_len(len) };
                        return from;
                    }
                    len += (end - off) as usize;
                }
                let p = base + end as usize;
                // The stop (in the window: `p < base + 32 <= b.len()`): a
                // backslash whose letter is one of the simple escapes goes
                // on here (its letter may be the window's next byte);
                // anything else is the caller's.
                let c = match (b[p], b.get(p + 1)) {
                    (b'\\', Some(&letter)) => SIMPLE_ESCAPES[letter as usize],
                    _ => 0,
                };
                if c == 0 {
                    // SAFETY: `len` bytes of `out` are written.
                    unsafe { out.set_len(len) };
                    return p;
                }
                // SAFETY: at most 31 bytes were added since the window's
                // start (its bytes before `end`, one or two per byte), so
                // `len` is inside the reserved room.
                unsafe { dst.add(len).write(c) };
                len += 1;
                off = end + 2;
                if off >= 32 {
                    // SAFETY: `len` bytes of `out` are written.
                    unsafe { out.set_len(len) };
                    r = base + off as usize;
                    continue 'window;
                }
            }
        }
        r
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (b, out);
        at
    }
}

/// Stores the 32 bytes of `b` from `from` (a run of the window of
/// `escape_runs` and what follows it) at `d`, if the run is ASCII and the 32
/// bytes are in `b`; `false`, nothing stored, otherwise (the caller's exact
/// path takes the run: a run with a byte >= 0x80 is checked as UTF-8
/// there).
///
/// # Safety
/// `d..d + 32` is writable.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn copy_run(b: &[u8], from: usize, ascii: bool, d: *mut u8) -> bool {
    use crate::escape::vector::Vector;
    use core::arch::x86_64::__m128i;
    if !ascii || from + WINDOW_SPAN > b.len() {
        return false;
    }
    // SAFETY: 32 bytes from `from` are in `b` (checked above), 32 from `d`
    // writable (the caller's contract); SSE2 is part of the x86_64 baseline.
    unsafe {
        let s = b.as_ptr().add(from);
        __m128i::load_unaligned(s).store_unaligned(d);
        __m128i::load_unaligned(s.add(16)).store_unaligned(d.add(16));
    }
    true
}

/// The window of `escape_runs`.
const WINDOW_SPAN: usize = 32;

/// Copies string text from `b[i..]` onto `out` up to the next quote,
/// backslash or control byte (or the end of the input): where that is, and
/// whether a byte >= 0x80 came before it.
#[inline(always)]
fn copy_to_stop<O: TextOut>(b: &[u8], mut i: usize, out: &mut O) -> std::result::Result<(usize, bool), (usize, &'static str)> {
    #[cfg(target_arch = "x86_64")]
    {
        use crate::escape::vector::{MoveMask, Vector};
        use core::arch::x86_64::__m128i;
        if i + 16 <= b.len() {
            if !out.room(16) {
                return Err((i, OUT_OF_MEMORY));
            }
            // SAFETY: 16 bytes from `i` are in bounds (checked above) and 16
            // bytes from `out`'s length are allocated (reserved above); SSE2
            // is part of the x86_64 baseline.
            let (special, non_ascii) = unsafe {
                let v = __m128i::load_unaligned(b.as_ptr().add(i));
                v.store_unaligned(out.as_mut_ptr().add(out.len()));
                let special = v.cmpeq(__m128i::splat(b'"')).or(v.cmpeq(__m128i::splat(b'\\'))).or(v.lt(0x20)).movemask();
                (special, v.high_bit().movemask())
            };
            if special.has_any() {
                let k = special.first_offset();
                // SAFETY: the `k` bytes past the length were written above.
                unsafe { out.set_len(out.len() + k) };
                return Ok((i + k, non_ascii.below(k).has_any()));
            }
            // SAFETY: the 16 bytes past the length were written above.
            unsafe { out.set_len(out.len() + 16) };
            // A longer run: the dispatched scanner and one copy.
            let stop = string_stop(b, i + 16);
            if !out.put(&b[i + 16..stop.at]) {
                return Err((i + 16, OUT_OF_MEMORY));
            }
            return Ok((stop.at, non_ascii.has_any() || stop.non_ascii));
        }
        // The last bytes of the input (fewer than 16), one by one.
        let from = i;
        let mut high = false;
        while let Some(&c) = b.get(i) {
            if c == b'"' || c == b'\\' || c < 0x20 {
                break;
            }
            high |= c >= 0x80;
            i += 1;
        }
        if !out.put(&b[from..i]) {
            return Err((from, OUT_OF_MEMORY));
        }
        Ok((i, high))
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let stop = string_stop(b, i);
        if !out.put(&b[i..stop.at]) {
            return Err((i, OUT_OF_MEMORY));
        }
        Ok((stop.at, stop.non_ascii))
    }
}

/// The message of a string whose decoded text found no memory to grow
/// into: not a syntax error. Both drivers turn it into
/// `ErrorKind::OutOfMemory` (`out_of_memory_at`).
pub(crate) const OUT_OF_MEMORY: &str = "out of memory for a string's decoded text";

/// The error of a parse whose working memory could not grow, at `at`.
#[cold]
#[inline(never)]
pub(crate) fn out_of_memory_at(b: &[u8], at: usize) -> Error {
    Error::new(ErrorKind::OutOfMemory).at(Position::locate(b, at))
}

/// The four hex digits of a `\u` escape at `b[at..]`.
fn hex4(b: &[u8], at: usize) -> std::result::Result<u32, (usize, &'static str)> {
    let Some(digits) = b.get(at..at + 4) else { return Err((at, "incomplete \\u escape")) };
    let mut v = 0;
    for (k, &d) in digits.iter().enumerate() {
        let n = match d {
            b'0'..=b'9' => d - b'0',
            b'a'..=b'f' => d - b'a' + 10,
            b'A'..=b'F' => d - b'A' + 10,
            _ => return Err((at + k, "invalid hex digit in \\u escape")),
        };
        v = v * 16 + u32::from(n);
    }
    Ok(v)
}

/// Whether `c` can start a number.
#[inline(always)]
fn starts_number(c: u8) -> bool {
    c == b'-' || c.is_ascii_digit()
}

/// Most strings (keys, ids, short values) end within 16 or 32 bytes: one
/// or two SSE2 registers, checked inline (SSE2 is baseline on x86_64),
/// answer them without the call into the dispatched scanner.
#[inline(always)]
fn short_string_stop(b: &[u8], start: usize) -> Option<super::scan::Stop> {
    #[cfg(target_arch = "x86_64")]
    {
        use crate::escape::vector::{MoveMask, Vector};
        use core::arch::x86_64::__m128i;
        if start + 16 > b.len() {
            return None;
        }
        // SAFETY: 16 bytes from `start` are in bounds (checked above), and
        // SSE2 is part of the x86_64 baseline.
        unsafe {
            let v = __m128i::load_unaligned(b.as_ptr().add(start));
            let special = v.cmpeq(__m128i::splat(b'"')).or(v.cmpeq(__m128i::splat(b'\\'))).or(v.lt(0x20)).movemask();
            if !special.has_any() {
                // Dates, names and short sentences end within 32 bytes: a
                // second register, still without the call.
                if start + 32 > b.len() {
                    return None;
                }
                // SAFETY: 32 bytes from `start` are in bounds (checked above).
                let w = __m128i::load_unaligned(b.as_ptr().add(start + 16));
                let special = w.cmpeq(__m128i::splat(b'"')).or(w.cmpeq(__m128i::splat(b'\\'))).or(w.lt(0x20)).movemask();
                if !special.has_any() {
                    return None;
                }
                let k = special.first_offset();
                // Non-ASCII lanes: all of the first register, and those
                // below the stop in the second.
                let non_ascii = v.high_bit().movemask().has_any() || w.high_bit().movemask().below(k).has_any();
                return Some(super::scan::Stop { at: start + 16 + k, non_ascii });
            }
            let k = special.first_offset();
            // Non-ASCII lanes below the stop.
            let non_ascii = v.high_bit().movemask().below(k).has_any();
            Some(super::scan::Stop { at: start + k, non_ascii })
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (b, start);
        None
    }
}

/// Whether `c`, at most `' '`, is JSON whitespace (space, tab, line feed,
/// carriage return), by one bit test.
#[inline(always)]
fn is_ws(c: u8) -> bool {
    const WS: u64 = 1 << b' ' | 1 << b'\n' | 1 << b'\r' | 1 << b'\t';
    c <= b' ' && (WS >> c) & 1 != 0
}

/// How many bytes one whitespace mask covers: 128 left fewer runs to
/// classify again than 64 (typed twitter 8% faster, citm_catalog and
/// github_events 1-2%).
const WS_SPAN: usize = 128;

/// Bit k set when `b[at + k]` is not JSON whitespace (space, tab, line
/// feed, carriage return) or lies past the end of `b`.
#[inline(always)]
fn non_ws_block<C: NonWs>(b: &[u8], at: usize) -> u128 {
    match b.get(at..).and_then(<[u8]>::first_chunk::<WS_SPAN>) {
        // SAFETY: `C` is a classifier this CPU runs (the callers' contract:
        // `Avx2Ws` only inside `skip_ws_blocks_avx2`).
        Some(block) => unsafe { C::non_ws(block) },
        None => non_ws_tail::<C>(b, at),
    }
}

/// `non_ws_block` of the input's last bytes, padded with bytes that stop a run.
#[cold]
#[inline(never)]
fn non_ws_tail<C: NonWs>(b: &[u8], at: usize) -> u128 {
    let mut pad = [b'!'; WS_SPAN];
    let rest = b.get(at..).unwrap_or(&[]);
    pad[..rest.len()].copy_from_slice(rest);
    // SAFETY: as in `non_ws_block`.
    unsafe { C::non_ws(&pad) }
}

/// A whitespace classifier of one ISA: bit k of `non_ws` set when
/// `block[k]` is not JSON whitespace.
trait NonWs {
    /// # Safety
    /// The CPU supports the classifier's ISA.
    unsafe fn non_ws(block: &[u8; WS_SPAN]) -> u128;
}

/// The baseline's classifier: SSE2 on x86_64, byte by byte elsewhere.
struct BaseWs;

impl NonWs for BaseWs {
    #[inline(always)]
    unsafe fn non_ws(block: &[u8; WS_SPAN]) -> u128 {
        #[cfg(target_arch = "x86_64")]
        {
            non_ws_sse2(block)
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            non_ws_scalar(block)
        }
    }
}

/// The AVX2 classifier, for `skip_ws_blocks_avx2`.
#[cfg(target_arch = "x86_64")]
struct Avx2Ws;

#[cfg(target_arch = "x86_64")]
impl NonWs for Avx2Ws {
    #[inline(always)]
    unsafe fn non_ws(block: &[u8; WS_SPAN]) -> u128 {
        // SAFETY: the caller's contract (the CPU supports AVX2).
        unsafe { non_ws_avx2(block) }
    }
}

/// The AVX2 classifier: each byte looked up by its low nibble in a table
/// of the whitespace byte with that nibble (0 elsewhere, and the lookup
/// gives 0 for bytes >= 0x80) and compared with itself, two operations per
/// 32 bytes.
///
/// # Safety
/// The CPU supports AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn non_ws_avx2(block: &[u8; WS_SPAN]) -> u128 {
    use core::arch::x86_64::*;
    const T: i8 = b'\t' as i8;
    const N: i8 = b'\n' as i8;
    const R: i8 = b'\r' as i8;
    const S: i8 = b' ' as i8;
    let table = _mm256_setr_epi8(S, 0, 0, 0, 0, 0, 0, 0, 0, T, N, 0, 0, R, 0, 0, S, 0, 0, 0, 0, 0, 0, 0, 0, T, N, 0, 0, R, 0, 0);
    let mut ws = 0u128;
    for k in 0..WS_SPAN / 32 {
        // SAFETY: `block` is `WS_SPAN` readable bytes, so 32 from `32 k`
        // are in bounds.
        let v = unsafe { _mm256_loadu_si256(block.as_ptr().add(32 * k).cast()) };
        let lanes = _mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_shuffle_epi8(table, v), v)) as u32;
        ws |= u128::from(lanes) << (32 * k);
    }
    !ws
}

/// The classifier with SSE2 (the x86_64 baseline): four comparisons per 16
/// bytes.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn non_ws_sse2(block: &[u8; WS_SPAN]) -> u128 {
    use crate::escape::vector::Vector;
    use core::arch::x86_64::__m128i;
    let mut ws = 0u128;
    for k in 0..WS_SPAN / 16 {
        // SAFETY: `block` is `WS_SPAN` readable bytes, so 16 from `16 k`
        // are in bounds; SSE2 is part of the x86_64 baseline.
        let lanes = unsafe {
            let v = __m128i::load_unaligned(block.as_ptr().add(16 * k));
            v.cmpeq(__m128i::splat(b' '))
                .or(v.cmpeq(__m128i::splat(b'\n')))
                .or(v.cmpeq(__m128i::splat(b'\r')))
                .or(v.cmpeq(__m128i::splat(b'\t')))
                .movemask()
        };
        ws |= u128::from(lanes.0 & 0xFFFF) << (16 * k);
    }
    !ws
}

/// The classifier byte by byte: other targets, and the tests' reference.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
fn non_ws_scalar(block: &[u8; WS_SPAN]) -> u128 {
    let mut bits = 0u128;
    for (k, &c) in block.iter().enumerate() {
        if !matches!(c, b' ' | b'\n' | b'\r' | b'\t') {
            bits |= 1 << k;
        }
    }
    bits
}

/// Names of the members seen so far in each open object.
///
/// One stack shared by all open objects, each name kept as a 64-bit hash
/// and where its bytes are: a name without escapes (nearly all) stays in
/// the input and is referred to by its offset; only decoded names are
/// copied, to an arena. Each object keeps a 256-bit filter of its names'
/// hashes: a name whose bit is clear is new without looking at the others
/// (most names of most objects). Otherwise small objects compare hashes
/// linearly (bytes only on a hash match); an object that grows past
/// `SCAN_LIMIT` names gets an open-addressing index of name positions, so
/// checking stays linear in the size of the document. All of it is reused
/// from object to object and (through `Buffers`) from document to
/// document: a name costs no allocation and no copy.
#[derive(Default)]
pub(crate) struct DuplicateNames {
    /// Decoded names (those with escapes), which are not in the input.
    bytes: Vec<u8>,
    names: Vec<Name>,
    frames: Vec<Frame>,
    /// The hash key, fetched when the first object opens (zero before:
    /// the second word is odd once set).
    seed: [u64; 2],
    /// Tests: every name gets this hash (all collide).
    #[cfg(test)]
    forced_hash: Option<u64>,
}

#[derive(Clone, Copy)]
struct Name {
    hash: u64,
    /// Offset of the name's bytes in the input, or (with `IN_ARENA` set)
    /// in `bytes`.
    start: usize,
    len: usize,
}

struct Frame {
    /// Index of the object's first name in `names`.
    first: usize,
    /// Length of the arena when the object opened.
    arena: usize,
    /// Slots of the object's names once it is large.
    index: Option<Vec<u32>>,
    /// One bit per name, chosen by the top 8 bits of its hash: a clear bit
    /// means no name of the object has that hash.
    filter: [u64; 4],
}

const SCAN_LIMIT: usize = 64;
const EMPTY: u32 = u32::MAX;
const IN_ARENA: usize = 1 << (usize::BITS - 1);

/// A fast keyed hash of a name: its bytes read as two words (overlapping
/// reads for names of 4 to 16 bytes, so every byte counts exactly once or
/// twice and no byte past the name is read), folded in with a 64x64->128-bit
/// multiply whose halves are xored (so every input bit reaches every output
/// bit); longer names fold sixteen bytes per step first.
///
/// Names come from the document, so the hash must not be predictable: with
/// a fixed function an attacker can craft thousands of names that share one
/// hash (or one table slot), and checking an object of n such names takes
/// O(n^2) time (a 2 MB document took 1.8 s). The key is random per process.
/// A collision still only costs a byte comparison, never a wrong answer.
#[inline(always)]
pub(super) fn name_hash(name: &[u8], [k0, k1]: [u64; 2]) -> u64 {
    let len = name.len();
    let word = |i: usize| u64::from_le_bytes(name[i..i + 8].try_into().expect("8 bytes"));
    let half = |i: usize| u64::from(u32::from_le_bytes(name[i..i + 4].try_into().expect("4 bytes")));
    let mut acc = k0;
    let (a, b) = if len >= 8 {
        let mut i = 0;
        while len - i > 16 {
            acc = folded_multiply(word(i) ^ acc, word(i + 8) ^ k1);
            i += 16;
        }
        // The last sixteen bytes (overlapping what the loop took), or all
        // of a name of 8 to 16 bytes.
        (word(len.max(16) - 16), word(len - 8))
    } else if len >= 4 {
        (half(0), half(len - 4))
    } else if len > 0 {
        (u64::from(name[0]) | u64::from(name[len / 2]) << 8 | u64::from(name[len - 1]) << 16, 0)
    } else {
        (0, 0)
    };
    folded_multiply(a ^ acc, b ^ k1 ^ len as u64)
}

#[inline(always)]
pub(super) fn folded_multiply(a: u64, b: u64) -> u64 {
    let p = u128::from(a) * u128::from(b);
    (p as u64) ^ ((p >> 64) as u64)
}

/// Two random words, drawn once per process from the standard library's
/// randomly keyed hasher (which the OS seeds).
pub(super) fn hash_seed() -> [u64; 2] {
    use std::hash::BuildHasher;
    static SEED: std::sync::OnceLock<[u64; 2]> = std::sync::OnceLock::new();
    *SEED.get_or_init(|| {
        let random = std::collections::hash_map::RandomState::new();
        // The second word is odd: never zero, which marks "not fetched".
        [random.hash_one(0u64), random.hash_one(1u64) | 1]
    })
}

impl DuplicateNames {
    /// No memory yet; the seed is fetched when the first object opens.
    pub(super) const EMPTY: DuplicateNames = DuplicateNames {
        bytes: Vec::new(),
        names: Vec::new(),
        frames: Vec::new(),
        seed: [0; 2],
        #[cfg(test)]
        forced_hash: None,
    };

    #[inline]
    pub(super) fn open(&mut self) {
        if self.seed[1] == 0 {
            self.seed = hash_seed();
        }
        self.frames.push(Frame { first: self.names.len(), arena: self.bytes.len(), index: None, filter: [0; 4] });
    }

    /// Whether `shrink_to(n)` would give anything back.
    #[inline]
    pub(super) fn above(&self, n: usize) -> bool {
        self.bytes.capacity() > n || self.names.capacity() > n || self.frames.capacity() > n / 16
    }

    pub(super) fn shrink_to(&mut self, n: usize) {
        self.bytes.shrink_to(n);
        self.names.shrink_to(n);
        self.frames.shrink_to(n / 16);
    }

    pub(super) fn clear(&mut self) {
        self.bytes.clear();
        self.names.clear();
        self.frames.clear();
    }

    #[inline]
    pub(super) fn close(&mut self) {
        if let Some(frame) = self.frames.pop() {
            self.names.truncate(frame.first);
            self.bytes.truncate(frame.arena);
        }
    }

    #[inline]
    fn same(&self, input: &[u8], n: Name, name: &[u8]) -> bool {
        let stored = if n.start & IN_ARENA == 0 {
            &input[n.start..n.start + n.len]
        } else {
            let s = n.start & !IN_ARENA;
            &self.bytes[s..s + n.len]
        };
        stored == name
    }

    /// False if the innermost object already has `name`. `at` is the
    /// name's offset in `input` when its bytes are there as they are (no
    /// escapes); otherwise they are copied.
    ///
    /// Inlined for the common case (a name whose filter bit is clear, in a
    /// small object, without escapes): a hash, a bit and a push. The rest
    /// is out of line, so the caller keeps a small frame.
    #[inline(always)]
    pub(super) fn insert(&mut self, input: &[u8], name: &[u8], at: Option<usize>) -> bool {
        let h = name_hash(name, self.seed);
        #[cfg(test)]
        let h = self.forced_hash.unwrap_or(h);
        let Some(frame) = self.frames.last_mut() else { return true };
        let bit = (h >> 56) as usize;
        let (word, mask) = (bit >> 6, 1u64 << (bit & 63));
        let maybe_seen = frame.filter[word] & mask != 0;
        frame.filter[word] |= mask;
        let first = frame.first;
        match at {
            Some(start) if !maybe_seen && self.names.len() - first < SCAN_LIMIT => {
                self.names.push(Name { hash: h, start, len: name.len() });
                true
            }
            _ => self.insert_general(input, name, at, h, maybe_seen),
        }
    }

    /// `insert` past its fast path: looks for the name if its filter bit
    /// was set, then records it (copying escaped names, indexing large
    /// objects).
    #[inline(never)]
    fn insert_general(&mut self, input: &[u8], name: &[u8], at: Option<usize>, h: u64, maybe_seen: bool) -> bool {
        let frame = self.frames.last().expect("insert checked for an open object");
        let first = frame.first;
        match &frame.index {
            _ if !maybe_seen => {}
            None => {
                for &n in &self.names[first..] {
                    if n.hash == h && self.same(input, n, name) {
                        return false;
                    }
                }
            }
            Some(table) => {
                let mask = table.len() - 1;
                let mut slot = h as usize & mask;
                while table[slot] != EMPTY {
                    let n = self.names[first + table[slot] as usize];
                    if n.hash == h && self.same(input, n, name) {
                        return false;
                    }
                    slot = (slot + 1) & mask;
                }
            }
        }
        let start = match at {
            Some(at) => at,
            None => {
                let s = self.bytes.len();
                self.bytes.extend_from_slice(name);
                s | IN_ARENA
            }
        };
        self.names.push(Name { hash: h, start, len: name.len() });
        let count = self.names.len() - first;
        if count > SCAN_LIMIT {
            self.index_last(first, count, h);
        }
        true
    }

    /// Adds the newest name of a large object to its index, building or
    /// growing the index as needed.
    #[cold]
    fn index_last(&mut self, first: usize, count: usize, h: u64) {
        let frame = self.frames.last_mut().expect("an open object");
        if frame.index.as_ref().is_none_or(|t| count * 2 > t.len()) {
            // (Re)build at twice the size: a load factor of at most 1/2.
            let size = (count * 4).next_power_of_two();
            let mut table = vec![EMPTY; size];
            for (k, n) in self.names[first..].iter().enumerate() {
                let mut slot = n.hash as usize & (size - 1);
                while table[slot] != EMPTY {
                    slot = (slot + 1) & (size - 1);
                }
                table[slot] = k as u32;
            }
            frame.index = Some(table);
        } else if let Some(table) = &mut frame.index {
            let mask = table.len() - 1;
            let mut slot = h as usize & mask;
            while table[slot] != EMPTY {
                slot = (slot + 1) & mask;
            }
            table[slot] = (count - 1) as u32;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kept_memory_is_trimmed_after_long_inputs_only() {
        let deep = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n)).into_bytes();
        let options = ReadOptions::new().max_depth(100_000);
        let mut memory = ParseMemory::default();
        let mut visitor = super::super::visitor::Ignore;
        // 50,000 levels grow the stack far past what is kept; trimmed.
        parse_with_memory(&deep(50_000), &options, &mut visitor, &mut memory).unwrap();
        assert!(memory.0.stack.capacity() <= 4096, "{}", memory.0.stack.capacity());
        // An input of at most UNTRIMMED_UP_TO bytes leaves the memory as it
        // was (here: grown by a parse, then not trimmed) ...
        memory.0.stack.reserve(10_000);
        let grown = memory.0.stack.capacity();
        let small = deep(UNTRIMMED_UP_TO / 2);
        assert_eq!(small.len(), UNTRIMMED_UP_TO);
        parse_with_memory(&small, &options, &mut visitor, &mut memory).unwrap();
        assert_eq!(memory.0.stack.capacity(), grown);
        // ... and cannot grow any vector past twice its size.
        let mut fresh = ParseMemory::default();
        parse_with_memory(&small, &options, &mut visitor, &mut fresh).unwrap();
        assert!(fresh.0.stack.capacity() <= 2 * UNTRIMMED_UP_TO);
        // One byte more, and it is trimmed.
        let mut longer = deep(UNTRIMMED_UP_TO / 2);
        longer.push(b' ');
        parse_with_memory(&longer, &options, &mut visitor, &mut memory).unwrap();
        assert!(memory.0.stack.capacity() <= 4096);
    }

    /// The thread's kept memory (`with_pooled`) is trimmed after inputs
    /// longer than `POOLED_UNTRIMMED_UP_TO` only, and a parse of a shorter
    /// input cannot grow it much.
    #[test]
    fn pooled_memory_is_trimmed_after_long_inputs_only() {
        let deep = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n)).into_bytes();
        let options = ReadOptions::new().max_depth(100_000);
        let stack_capacity = || POOLED.with(|cell| cell.borrow().stack.capacity());
        parse(&deep(50_000), &options, &mut super::super::visitor::Ignore).unwrap();
        assert!(stack_capacity() <= 4096, "{}", stack_capacity());
        // Grown (as by an earlier parse), then a short input: left as it is.
        POOLED.with(|cell| cell.borrow_mut().stack.reserve(10_000));
        let grown = stack_capacity();
        let small = deep(POOLED_UNTRIMMED_UP_TO / 2);
        assert_eq!(small.len(), POOLED_UNTRIMMED_UP_TO);
        parse(&small, &options, &mut super::super::visitor::Ignore).unwrap();
        assert_eq!(stack_capacity(), grown);
        // One byte more, and it is trimmed.
        let mut longer = small.clone();
        longer.push(b' ');
        parse(&longer, &options, &mut super::super::visitor::Ignore).unwrap();
        assert!(stack_capacity() <= 4096, "{}", stack_capacity());
        // From nothing, the short input grows the stack to twice its depth
        // at most.
        POOLED.with(|cell| *cell.borrow_mut() = Buffers::EMPTY);
        parse(&small, &options, &mut super::super::visitor::Ignore).unwrap();
        assert!(stack_capacity() <= POOLED_UNTRIMMED_UP_TO, "{}", stack_capacity());
    }

    /// A visitor that parses another document from inside one of its calls
    /// (the thread's memory is lent to the outer parse then): the inner
    /// parse works with memory of its own, and both see their documents.
    #[test]
    fn a_parse_inside_a_parse_has_memory_of_its_own() {
        struct Nested {
            seen: Vec<String>,
        }
        impl Visitor for Nested {
            fn null(&mut self) -> Result<()> {
                self.seen.push("null".into());
                Ok(())
            }
            fn bool(&mut self, v: bool) -> Result<()> {
                self.seen.push(v.to_string());
                Ok(())
            }
            fn number(&mut self, n: NumberToken<'_>) -> Result<()> {
                self.seen.push(n.text.to_owned());
                Ok(())
            }
            fn string(&mut self, s: &str, _: &str) -> Result<()> {
                // The string is a document of its own: parsed here, while
                // the outer parse holds the thread's memory.
                assert!(POOLED.with(|cell| cell.try_borrow_mut().is_err()), "the outer parse holds the memory");
                let mut inner = Nested { seen: Vec::new() };
                parse(s.as_bytes(), &ReadOptions::new(), &mut inner)?;
                self.seen.push(format!("({})", inner.seen.join(" ")));
                Ok(())
            }
            fn begin_array(&mut self) -> Result<()> {
                self.seen.push("[".into());
                Ok(())
            }
            fn end_array(&mut self) -> Result<()> {
                self.seen.push("]".into());
                Ok(())
            }
            fn begin_object(&mut self) -> Result<()> {
                self.seen.push("{".into());
                Ok(())
            }
            fn key(&mut self, k: &str, _: &str) -> Result<()> {
                self.seen.push(format!("{k}:"));
                Ok(())
            }
            fn end_object(&mut self) -> Result<()> {
                self.seen.push("}".into());
                Ok(())
            }
        }
        let text = br#"[1, "[2, \"4\", {\"k\": null}]", {"a": "true"}, "[3"]"#;
        let mut outer = Nested { seen: Vec::new() };
        let e = parse(text, &ReadOptions::new(), &mut outer).unwrap_err();
        // The last inner document is cut short: its error is the outer
        // parse's (the visitor's), and everything before it was seen.
        assert!(e.is_syntax() || e.is_eof(), "{e}");
        assert_eq!(outer.seen.join(" "), "[ 1 ([ 2 (4) { k: null } ]) { a: (true) }");
        // The thread's memory is lent again afterwards.
        assert!(POOLED.with(|cell| cell.try_borrow_mut().is_ok()));
        let mut again = Nested { seen: Vec::new() };
        parse(br#"{"b": "[]"}"#, &ReadOptions::new(), &mut again).unwrap();
        assert_eq!(again.seen.join(" "), "{ b: ([ ]) }");
    }

    impl DuplicateNames {
        /// `insert` of a name that is not in the input (copied).
        fn insert_copied(&mut self, name: &str) -> bool {
            self.insert(&[], name.as_bytes(), None)
        }
    }

    /// Takes every container below the top one as text, and records what
    /// it sees.
    #[derive(Default)]
    struct TakeInner {
        depth: usize,
        seen: Vec<String>,
    }

    impl Visitor for TakeInner {
        fn null(&mut self) -> Result<()> {
            self.seen.push("null".into());
            Ok(())
        }
        fn bool(&mut self, v: bool) -> Result<()> {
            self.seen.push(v.to_string());
            Ok(())
        }
        fn number(&mut self, n: NumberToken<'_>) -> Result<()> {
            self.seen.push(n.text.to_owned());
            Ok(())
        }
        fn string(&mut self, s: &str, _: &str) -> Result<()> {
            self.seen.push(format!("s:{s}"));
            Ok(())
        }
        fn begin_array(&mut self) -> Result<()> {
            self.depth += 1;
            self.seen.push("[".into());
            Ok(())
        }
        fn end_array(&mut self) -> Result<()> {
            self.depth -= 1;
            self.seen.push("]".into());
            Ok(())
        }
        fn begin_object(&mut self) -> Result<()> {
            self.depth += 1;
            self.seen.push("{".into());
            Ok(())
        }
        fn key(&mut self, k: &str, _: &str) -> Result<()> {
            self.seen.push(format!("k:{k}"));
            Ok(())
        }
        fn end_object(&mut self) -> Result<()> {
            self.depth -= 1;
            self.seen.push("}".into());
            Ok(())
        }
        fn takes_raw(&self) -> bool {
            true
        }
        fn take_raw(&mut self, ahead: &[u8]) -> bool {
            assert!(ahead[0] == b'{' || ahead[0] == b'[');
            self.depth > 0
        }
        fn raw(&mut self, json: &str) -> Result<()> {
            self.seen.push(format!("raw:{json}"));
            Ok(())
        }
    }

    fn take_inner(input: &str, options: &ReadOptions) -> Result<Vec<String>> {
        let mut v = TakeInner::default();
        parse(input.as_bytes(), options, &mut v)?;
        Ok(v.seen)
    }

    #[test]
    fn containers_can_be_taken_as_text() {
        let o = ReadOptions::new();
        assert_eq!(
            take_inner(r#"{"a": [1, {"b":2}] , "c":{}, "d":[]}"#, &o).unwrap(),
            ["{", "k:a", r#"raw:[1, {"b":2}]"#, "k:c", "raw:{}", "k:d", "raw:[]", "}"]
        );
        // The number loop's `],[` shortcut still asks for the next array.
        assert_eq!(take_inner("[1,[2,3],[4,5],6]", &o).unwrap(), ["[", "1", "raw:[2,3]", "raw:[4,5]", "6", "]"]);
        let mut v = TakeInner { depth: 0, seen: Vec::new() };
        // A builder that wants only the second of two sibling arrays.
        struct Second(TakeInner, usize);
        impl Visitor for Second {
            fn null(&mut self) -> Result<()> {
                self.0.null()
            }
            fn bool(&mut self, b: bool) -> Result<()> {
                self.0.bool(b)
            }
            fn number(&mut self, n: NumberToken<'_>) -> Result<()> {
                self.0.number(n)
            }
            fn string(&mut self, s: &str, r: &str) -> Result<()> {
                self.0.string(s, r)
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
            fn key(&mut self, k: &str, r: &str) -> Result<()> {
                self.0.key(k, r)
            }
            fn end_object(&mut self) -> Result<()> {
                self.0.end_object()
            }
            fn takes_raw(&self) -> bool {
                true
            }
            fn take_raw(&mut self, _: &[u8]) -> bool {
                self.1 += 1;
                self.1 == 3
            }
            fn raw(&mut self, json: &str) -> Result<()> {
                self.0.raw(json)
            }
        }
        let mut second = Second(std::mem::take(&mut v), 0);
        // Trailing spaces: the number window (32 bytes) needs room, and
        // its `],[` shortcut is what this exercises.
        let input = format!("[[1,2],[3, 4 ],[5]]{}", " ".repeat(40));
        parse(input.as_bytes(), &o, &mut second).unwrap();
        assert_eq!(second.0.seen, ["[", "[", "1", "2", "]", "raw:[3, 4 ]", "[", "5", "]", "]"]);
        // Depth counts the containers around the text; names repeated
        // inside it are found; bad syntax inside it is reported there.
        let deep = "[".repeat(5) + &"]".repeat(5);
        assert!(take_inner(&deep, &ReadOptions::new().max_depth(5)).is_ok());
        let e = take_inner(&deep, &ReadOptions::new().max_depth(4)).unwrap_err();
        assert_eq!(e.kind(), &ErrorKind::DepthLimit { limit: 4 });
        assert_eq!(e.position().unwrap().offset, 4);
        let e = take_inner(r#"[{"a":1,"a":2}]"#, &o).unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::DuplicateKey { .. }), "{e}");
        assert_eq!(e.position().unwrap().offset, 8);
        let e = take_inner("[[1,]]", &o).unwrap_err();
        assert_eq!(e.position().unwrap().offset, 4);
    }

    /// The whitespace classifiers of every ISA this CPU runs agree with
    /// the byte-by-byte one on every byte value at every lane.
    #[test]
    fn whitespace_classifiers_agree() {
        let mut blocks = Vec::new();
        for x in 0..=255u8 {
            for fill in [b' ', b'\n', b'a', 0x80] {
                for at in [0, 1, 15, 16, 31, 32, 63, 64, 95, 127] {
                    let mut block = [fill; WS_SPAN];
                    block[at] = x;
                    blocks.push(block);
                }
            }
            // Every lane of a block of x.
            blocks.push([x; WS_SPAN]);
        }
        for block in &blocks {
            let want = non_ws_scalar(block);
            // SAFETY: the baseline classifier runs on every CPU.
            assert_eq!(unsafe { BaseWs::non_ws(block) }, want, "{block:?}");
            #[cfg(target_arch = "x86_64")]
            {
                assert_eq!(non_ws_sse2(block), want, "{block:?}");
                if std::is_x86_feature_detected!("avx2") {
                    // SAFETY: the CPU supports AVX2 (checked above).
                    assert_eq!(unsafe { non_ws_avx2(block) }, want, "{block:?}");
                }
            }
        }
    }

    /// The parser's whitespace skip, with the baseline classifier and (where
    /// the CPU has it) the AVX2 one, stops where a byte loop stops: runs of
    /// every length up to three blocks, starting at every offset of a block,
    /// ending in a token or at the end of the input, several runs per block
    /// (the kept mask answers the later ones).
    #[test]
    fn whitespace_skips_agree_with_a_byte_loop() {
        let mut levels = vec![false];
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx2") {
            levels.push(true);
        }
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let is_space = |c: u8| matches!(c, b' ' | b'\n' | b'\r' | b'\t');
        let mut inputs = Vec::new();
        for lead in 0..WS_SPAN + 2 {
            for run in (0..3 * WS_SPAN + 3).step_by(if lead % 16 == 0 { 1 } else { 7 }) {
                let mut b = vec![b'1'; lead];
                b.extend((0..run).map(|_| b" \n\r\t"[(next() % 4) as usize]));
                inputs.push(b.clone());
                b.push(b'}');
                inputs.push(b);
            }
        }
        // Many short runs between tokens.
        for _ in 0..200 {
            let n = (next() % 700) as usize;
            inputs.push((0..n).map(|_| if next() % 3 == 0 { b'x' } else { b" \n\r\t"[(next() % 4) as usize] }).collect());
        }
        for b in &inputs {
            for &wide in &levels {
                let mut p = Parser::new(b, &ReadOptions::default()).unwrap();
                #[cfg(target_arch = "x86_64")]
                {
                    p.ws_avx2 = wide;
                }
                #[cfg(not(target_arch = "x86_64"))]
                let _ = wide;
                let mut i = 0;
                loop {
                    while i < b.len() && is_space(b[i]) {
                        i += 1;
                    }
                    p.skip_ws();
                    assert_eq!(p.i, i, "avx2 {wide}, {:?}", String::from_utf8_lossy(b));
                    if i == b.len() {
                        break;
                    }
                    // Step over the token byte.
                    i += 1;
                    p.i = i;
                }
            }
        }
    }

    #[test]
    fn duplicate_names_are_found_in_small_large_and_nested_objects() {
        let mut d = DuplicateNames::default();
        d.open();
        for i in 0..1000 {
            assert!(d.insert_copied(&format!("k{i}")), "k{i} is new");
        }
        for i in (0..1000).step_by(37) {
            assert!(!d.insert_copied(&format!("k{i}")), "k{i} was seen");
        }
        d.open();
        assert!(d.insert_copied("k5"), "a nested object has its own names");
        assert!(!d.insert_copied("k5"));
        d.close();
        assert!(!d.insert_copied("k999"));
        assert!(d.insert_copied("fresh"));
        d.close();
        d.open();
        assert!(d.insert_copied("k1"), "a closed object's names are gone");
        d.close();
    }

    /// The unkeyed hash this parser used before (as it was for names of a
    /// multiple of 8 bytes): names colliding under it are easy to make
    /// (solve the multiply for the next chunk).
    fn unkeyed(name: &[u8]) -> u64 {
        const K: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut h = name.len() as u64;
        for c in name.chunks(8) {
            let mut w = [0u8; 8];
            w[..c.len()].copy_from_slice(c);
            h = (h.rotate_left(5) ^ u64::from_le_bytes(w)).wrapping_mul(K);
        }
        h = h.rotate_left(5).wrapping_mul(K);
        h ^ (h >> 29)
    }

    /// `n` ASCII names of 16 bytes that all share one unkeyed hash: for
    /// each first chunk, the second chunk that cancels it, kept when ASCII.
    fn crafted_collisions(n: usize) -> Vec<String> {
        const K: u64 = 0x9E37_79B9_7F4A_7C15;
        let target = 0x1234_5678_1234_5678u64;
        let mut out = Vec::new();
        let mut i = 0u64;
        while out.len() < n {
            i += 1;
            let c1 = u64::from_le_bytes(*format!("{i:08x}").as_bytes().first_chunk().expect("8 digits"));
            let h1 = (16u64.rotate_left(5) ^ c1).wrapping_mul(K);
            let c2 = h1.rotate_left(5) ^ target;
            if c2 & 0x8080_8080_8080_8080 == 0 {
                let bytes = [c1.to_le_bytes(), c2.to_le_bytes()].concat();
                out.push(String::from_utf8(bytes).expect("ASCII"));
            }
        }
        out
    }

    #[test]
    fn crafted_names_do_not_share_hashes_or_slots() {
        let names = crafted_collisions(2000);
        // The attack works on the unkeyed function...
        assert!(names.iter().all(|n| unkeyed(n.as_bytes()) == unkeyed(names[0].as_bytes())));
        // ...and not on the keyed one: hashes all distinct, and the table
        // slots (low bits) spread like random ones (2000 keys in 8192
        // slots: about 1770 distinct expected).
        let hashes: std::collections::HashSet<u64> = names.iter().map(|n| name_hash(n.as_bytes(), hash_seed())).collect();
        assert_eq!(hashes.len(), names.len());
        let slots: std::collections::HashSet<u64> = hashes.iter().map(|h| h & 8191).collect();
        assert!(slots.len() > 1600, "{} distinct slots", slots.len());
        // And duplicates among them are still found.
        let mut d = DuplicateNames::default();
        d.open();
        for n in &names {
            assert!(d.insert_copied(n));
        }
        for n in names.iter().step_by(97) {
            assert!(!d.insert_copied(n));
        }
    }

    /// Names read in place from the input and names copied (decoded
    /// escapes) are compared with each other, in small and large objects.
    fn check_in_place_and_copied(d: &mut DuplicateNames) {
        let names: Vec<String> = (0..140).map(|i| format!("name{i}")).collect();
        // The input: all names one after another, each at a known offset.
        let mut input = Vec::new();
        let mut at = Vec::new();
        for n in &names {
            at.push(input.len());
            input.extend_from_slice(n.as_bytes());
        }
        for size in [1, 2, 5, 31, 32, 33, 63, 64, 65, 80, 140] {
            d.open();
            for k in 0..size {
                let name = names[k].as_bytes();
                // Alternate where the first occurrence lives.
                let fresh = if k % 2 == 0 { d.insert(&input, name, Some(at[k])) } else { d.insert(&input, name, None) };
                assert!(fresh, "size {size}: {} is new", names[k]);
            }
            for k in 0..size {
                let name = names[k].as_bytes();
                assert!(!d.insert(&input, name, Some(at[k])), "size {size}: {} in place is a repeat", names[k]);
                assert!(!d.insert(&input, name, None), "size {size}: {} copied is a repeat", names[k]);
            }
            // A nested object sees none of them, and its copies go away.
            d.open();
            assert!(d.insert(&input, names[0].as_bytes(), None));
            assert!(d.insert(&input, b"nested", None));
            d.close();
            assert!(d.insert(&input, b"nested", None), "size {size}: the nested object's name is gone");
            assert!(!d.insert(&input, b"nested", None), "size {size}: now it is here");
            d.close();
        }
    }

    #[test]
    fn names_in_place_and_copied_are_compared() {
        let mut d = DuplicateNames::default();
        check_in_place_and_copied(&mut d);
    }

    /// With every hash equal, only the byte comparison tells names apart:
    /// in the linear scan, in the index (one long probe chain), across
    /// regrowth, in place and copied.
    #[test]
    fn colliding_hashes_are_told_apart_by_their_bytes() {
        let mut d = DuplicateNames { forced_hash: Some(0x5555), ..DuplicateNames::default() };
        check_in_place_and_copied(&mut d);
        d.open();
        for i in 0..300 {
            assert!(d.insert_copied(&format!("k{i}")), "k{i} is new");
            assert!(!d.insert_copied(&format!("k{}", i / 2)), "k{} was seen", i / 2);
        }
        d.close();
    }

    /// Names of every length up to 40 (each reading route of the hash):
    /// a name differing from another in one byte, at any position, is a
    /// different name; the same bytes are a repeat.
    #[test]
    fn names_of_every_length_differing_in_one_byte() {
        let mut d = DuplicateNames::default();
        for len in 0..=40usize {
            let base: Vec<u8> = (0..len).map(|k| b'a' + (k % 26) as u8).collect();
            d.open();
            assert!(d.insert(&[], &base, None), "len {len}");
            for pos in 0..len {
                for flip in [1u8, 0x20, 0x40] {
                    let mut other = base.clone();
                    other[pos] ^= flip;
                    assert!(d.insert(&[], &other, None), "len {len}: byte {pos} ^ {flip:#x} makes a new name");
                    assert!(!d.insert(&[], &other, None), "len {len}: byte {pos} ^ {flip:#x} repeated");
                }
            }
            assert!(!d.insert(&[], &base, None), "len {len}: the base repeated");
            // Longer by one trailing byte equal to the last: a new name.
            let mut longer = base.clone();
            longer.push(*base.last().unwrap_or(&b'a'));
            assert!(d.insert(&[], &longer, None), "len {len}: one byte longer");
            d.close();
        }
    }
}
