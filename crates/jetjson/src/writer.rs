//! The one writer every front end goes through.
//!
//! `Writer` appends tokens to a growable byte buffer following a resolved
//! `Style`. Callers (the serde serializer, `Value`, the CLI, the Python
//! binding) say *what* to write; the style decides the bytes. Output that
//! goes somewhere other than a `Vec` (an `io::Write`, a hash) is spilled from
//! the buffer in large chunks between tokens, never one call per token.

use crate::error::{Error, ErrorKind, Result};
#[cfg(target_arch = "x86_64")]
use crate::escape::vector::Vector;
use crate::escape::{escape_bytes_replacing_invalid, escape_room};
use crate::keys::{self, NameFacts};
use crate::number;
use crate::number::{EsPlan, FloatLayout};
use crate::options::{BytesPolicy, IntegerPolicy, InvalidText, KeyOrder, NonFinite, RawPolicy, Style, WriteOptions, MAX_INDENT};
use crate::pool::Buffer;
use crate::pool::OutputMemory;
use crate::shape::{PooledSortMemory, ShapeHash, SortMemory};

/// Where output goes once the buffer holds enough of it.
#[doc(hidden)]
pub trait Sink {
    /// False for sinks that never take output: the buffer is the result.
    const SPILLS: bool = true;
    fn spill(&mut self, bytes: &[u8]) -> Result<()>;
}

/// The buffer is the output (`to_vec`, `to_string`).
#[doc(hidden)]
pub struct NoSink;

impl Sink for NoSink {
    const SPILLS: bool = false;
    #[inline]
    fn spill(&mut self, _: &[u8]) -> Result<()> {
        Ok(())
    }
}

/// Output goes to an `io::Write` in chunks.
#[doc(hidden)]
pub struct IoSink<W: std::io::Write>(pub W);

impl<W: std::io::Write> Sink for IoSink<W> {
    fn spill(&mut self, bytes: &[u8]) -> Result<()> {
        self.0.write_all(bytes).map_err(Error::from)
    }
}

/// Buffered output is handed to the sink once it reaches this size.
const SPILL_AT: usize = 32 * 1024;

/// Strings longer than this are escaped in pieces, so the worst-case
/// reservation (6 output bytes per input byte) stays bounded.
const ESCAPE_PIECE: usize = 64 * 1024;

/// Spaces and tabs for indentation, copied in slices rather than pushed one
/// by one.
const SPACES: &[u8; 128] = &[b' '; 128];
const TABS: &[u8; 128] = &[b'\t'; 128];

/// Indentation up to this many bytes (`depth * indent`) is written with its
/// newline and separators in one fixed-size move (`Writer::indented_name`).
const INDENT_WINDOW: usize = 64;

/// The one writer every output goes through (internal: the bindings
/// drive it token by token).
#[doc(hidden)]
pub struct Writer<S: Sink = NoSink> {
    buf: Buffer,
    style: Style,
    depth: usize,
    /// While positive, buffered bytes may still be reordered (a map being
    /// sorted), so nothing is spilled.
    holds: usize,
    /// `NameFacts` bits that make a field name need escaping in this style.
    name_mask: u8,
    /// Members of the objects being sorted, shared by all nesting levels.
    sorting: SortStacks,
    /// (sort prefix, member index) of the objects being sorted, and the
    /// sorted orders of recently seen object shapes.
    order: PooledSortMemory,
    /// Scratch for text laid out before it is copied to the output (floats
    /// in the go and jcs layouts, repaired invalid text).
    num: Vec<u8>,
    /// The indent asked for when it is over `MAX_INDENT` (0 otherwise). Such
    /// a writer writes without indentation, so its memory stays bounded,
    /// and hands nothing out: the sink gets no bytes and every way of
    /// taking the output fails with `IndentLimit`.
    refused_indent: u16,
    /// The short-string check and copy for this style and CPU (`ShortCopy`).
    short: ShortCopy,
    /// The stack floor of a serde write (`serde_write`); 0 outside one.
    stack_floor: usize,
    sink: S,
}

/// Capacity the number scratch keeps after holding something larger.
const NUM_SCRATCH: usize = 64;

/// Storage for sorted objects, used as a stack: an inner object always ends
/// before its parent, so one set of vectors serves any nesting without an
/// allocation per object.
///
/// The vectors are taken from the thread's pool when the writer's first
/// sorted object starts and given back when it is dropped (unless they grew
/// large, or the writer zeroes its buffers: they hold keys and moved
/// output). A document written per call then does not allocate them again
/// and again while its output grows: those allocations, between the output
/// buffer's, kept the allocator from growing the buffer in place, so each
/// doubling copied it (a sorted map of 1264 members in a 3.3 MB go output).
struct SortStacks {
    members: Vec<Member>,
    /// Keys that are not `&'static str`, back to back.
    keys: Vec<u8>,
    /// Members moved aside while their object is reordered.
    scratch: Vec<u8>,
    /// Taken from, and given back to, the thread's pool: writers that do
    /// not zero their buffers. A zeroing writer's vectors hold output text:
    /// `keys` is grown and freed zeroed (`reserve_wiping`, `Drop`).
    pooled: bool,
}

/// Members, key bytes and scratch bytes a pooled `SortStacks` may keep.
const POOLED_SORT_MEMBERS: usize = 2048;
const POOLED_SORT_BYTES: usize = 64 * 1024;

type StackParts = (Vec<Member>, Vec<u8>, Vec<u8>);

thread_local! {
    static SORT_STACKS: std::cell::Cell<Option<StackParts>> = const { std::cell::Cell::new(None) };
}

impl SortStacks {
    fn new(pooled: bool) -> SortStacks {
        SortStacks { members: Vec::new(), keys: Vec::new(), scratch: Vec::new(), pooled }
    }

    /// Before a sorted object: the pooled vectors, if none are held yet.
    #[inline]
    fn ready(&mut self) {
        if self.pooled && self.members.capacity() == 0 {
            self.take_pooled();
        }
    }

    #[cold]
    fn take_pooled(&mut self) {
        if let Some((members, keys, scratch)) = SORT_STACKS.try_with(std::cell::Cell::take).ok().flatten() {
            (self.members, self.keys, self.scratch) = (members, keys, scratch);
        }
    }
}

impl Drop for SortStacks {
    fn drop(&mut self) {
        if !self.pooled {
            crate::pool::wipe(&mut self.keys);
            crate::pool::wipe(&mut self.scratch);
            return;
        }
        if self.members.capacity() == 0
            || self.members.capacity() > POOLED_SORT_MEMBERS
            || self.keys.capacity() > POOLED_SORT_BYTES
            || self.scratch.capacity() > POOLED_SORT_BYTES
        {
            return;
        }
        self.members.clear();
        self.keys.clear();
        self.scratch.clear();
        let parts = (std::mem::take(&mut self.members), std::mem::take(&mut self.keys), std::mem::take(&mut self.scratch));
        let _ = SORT_STACKS.try_with(|c| c.set(Some(parts)));
    }
}

impl Writer<NoSink> {
    /// A writer whose result is its buffer.
    pub fn new(options: &WriteOptions) -> Writer<NoSink> {
        Writer::with_buffer(options.style(), NoSink, Buffer::take_for_vec(options.zeroes_buffers()))
    }
}

impl Writer<NoSink> {
    /// A writer that writes straight into `memory` (for example the storage
    /// of a language binding's result object), so the output is never
    /// copied; `finish_into_memory` hands the memory back with the length.
    pub fn with_memory(options: &WriteOptions, memory: Box<dyn OutputMemory>) -> Writer<NoSink> {
        Writer::with_buffer(options.style(), NoSink, Buffer::external(memory))
    }

    /// `with_memory` with the options already resolved (`WriteOptions::style`,
    /// kept by the caller): a binding writing many small documents with the
    /// same options resolves them once, not at every call.
    #[doc(hidden)]
    pub fn with_style_and_memory(style: Style, memory: Box<dyn OutputMemory>) -> Writer<NoSink> {
        Writer::with_buffer(style, NoSink, Buffer::external(memory))
    }

    /// A writer with the options already resolved, into a pooled buffer (as
    /// `new`): for a binding that keeps one writer for many small documents
    /// (`as_bytes`, then `restart`).
    #[doc(hidden)]
    pub fn with_style(style: Style) -> Writer<NoSink> {
        Writer::with_buffer(style, NoSink, Buffer::take_zeroing(false))
    }

    /// Makes a writer whose document is complete ready for the next one:
    /// the output is emptied, the buffer's capacity and the caches kept.
    /// False (and nothing changed) when a container is still open or a
    /// sorted object pending, as after a failed write: such a writer is
    /// dropped, not reused.
    #[doc(hidden)]
    pub fn restart(&mut self) -> bool {
        if self.depth != 0 || self.holds != 0 || !self.sorting.members.is_empty() {
            return false;
        }
        self.buf.clear();
        true
    }

    /// Makes a writer ready for the next document whatever state the last
    /// one was left in, as after a write that failed or was given up part
    /// way (the Python binding's quick walk hands such an object to its
    /// general path): the output, open containers and pending sorted members
    /// are dropped; the buffer's capacity and the caches are kept. False
    /// (and nothing changed) for a writer that zeroes its buffers: such a
    /// writer is dropped, which wipes them.
    #[doc(hidden)]
    pub fn discard_document(&mut self) -> bool {
        if self.buf.zeroes() {
            return false;
        }
        self.depth = 0;
        self.holds = 0;
        self.sorting.members.clear();
        self.sorting.keys.clear();
        self.sorting.scratch.clear();
        self.order.clear_pending();
        self.buf.clear();
        true
    }

    /// The memory given to `with_memory`, holding the output in its first
    /// `len` bytes: `(memory, len)`.
    ///
    /// # Panics
    /// If the writer was not made by `with_memory`.
    pub fn finish_into_memory(self) -> Result<(Box<dyn OutputMemory>, usize)> {
        debug_assert_eq!(self.depth, 0, "finish_into_memory inside an open container");
        self.check_refused()?;
        Ok(self.buf.into_memory().expect("finish_into_memory on a writer made by with_memory"))
    }
}

impl<S: Sink> Writer<S> {
    /// A writer whose output goes to `sink` in chunks.
    pub fn with_sink(options: &WriteOptions, sink: S) -> Writer<S> {
        Writer::with_buffer(options.style(), sink, Buffer::take_zeroing(options.zeroes_buffers()))
    }

    pub(crate) fn with_buffer(mut style: Style, sink: S, buf: Buffer) -> Writer<S> {
        let name_mask = NameFacts::mask(style.escaper.set());
        let refused_indent = if style.indent > MAX_INDENT { std::mem::take(&mut style.indent) } else { 0 };
        let order = PooledSortMemory::new(!buf.zeroes());
        let sorting = SortStacks::new(!buf.zeroes());
        let short = ShortCopy::new(style.escaper.set().html);
        Writer { buf, style, depth: 0, holds: 0, name_mask, sorting, order, num: Vec::new(), refused_indent, short, stack_floor: 0, sink }
    }

    pub fn style(&self) -> &Style {
        &self.style
    }

    /// The order pairs of the objects being sorted, and the shape cache
    /// that sorts them.
    #[inline(always)]
    pub(crate) fn sort_memory(&mut self) -> &mut SortMemory {
        self.order.get()
    }

    /// How many containers are open.
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// Fails with [`ErrorKind::WriteDepthLimit`] when one more container
    /// would nest deeper than the options' `max_write_depth`. Everything
    /// that opens containers (the `Value` and serde writers, the Python and
    /// C front ends) calls it first.
    #[inline]
    pub fn check_nesting(&self) -> Result<()> {
        if self.depth >= self.style.max_write_depth {
            return Err(self.too_deep());
        }
        Ok(())
    }

    /// Runs `write(self)`, a serde write (`value.serialize(&mut writer)`),
    /// with its levels' room on the stack checked: the recursion is in the
    /// values' own `Serialize`, whose frames may be of any size, so when
    /// each container opens the stack pointer is compared with a floor
    /// taken here (`stack_room`, `ser/compound.rs`), and below it the
    /// container's items and members are written on a new stack (as typed
    /// reads do, `parse/de.rs`).
    pub(crate) fn serde_write<R>(&mut self, write: impl FnOnce(&mut Self) -> R) -> R {
        let outer = std::mem::replace(&mut self.stack_floor, crate::stack::floor());
        let r = write(self);
        self.stack_floor = outer;
        r
    }

    /// Whether the next level may be written on this stack
    /// (`serde_write`): else `write_on_new_stack`. Always true outside a
    /// serde write (the floor is 0).
    #[inline(always)]
    pub(crate) fn stack_room(&self) -> bool {
        crate::stack::above(self.stack_floor)
    }

    /// Runs `write(self, value, first)`, the next level of a serde write,
    /// on a new stack, with that stack's floor while it runs (`write` a
    /// function pointer: the caller's own call of it stays its only
    /// inlined one).
    #[cold]
    #[inline(never)]
    pub(crate) fn write_on_new_stack<T: ?Sized>(
        &mut self,
        value: &T,
        first: bool,
        write: fn(&mut Self, &T, bool) -> Result<()>,
    ) -> Result<()> {
        crate::stack::on_new_stack(|| self.serde_write(|w| write(w, value, first)))
    }

    #[cold]
    pub(crate) fn too_deep(&self) -> Error {
        Error::new(ErrorKind::WriteDepthLimit { limit: self.style.max_write_depth })
    }

    /// The bytes written so far (for `NoSink`, the whole output); empty
    /// when the options were refused (see `WriteOptions::indent`).
    pub fn as_bytes(&self) -> &[u8] {
        if self.refused_indent != 0 {
            return &[];
        }
        self.buf.as_slice()
    }

    /// How many bytes the buffer holds (for `NoSink`, the output so far;
    /// with refused options, what `as_bytes` would hold were they not).
    #[inline(always)]
    pub fn buffered(&self) -> usize {
        self.buf.len()
    }

    /// Whether bytes already written may still move: an object being
    /// sorted in place (`begin_sorted_object`) is open, whose members'
    /// bytes its end permutes. Bytes written while this is false stay
    /// where they are, whatever comes after them.
    #[inline(always)]
    pub fn reordering(&self) -> bool {
        self.holds != 0
    }

    /// Fails when the options were refused (an indent over `MAX_INDENT`).
    #[cold]
    fn check_refused(&self) -> Result<()> {
        if self.refused_indent != 0 {
            return Err(Error::new(ErrorKind::IndentLimit { indent: self.refused_indent, limit: MAX_INDENT }));
        }
        Ok(())
    }

    /// Hands any buffered bytes to the sink and returns it.
    pub fn finish(mut self) -> Result<S> {
        debug_assert_eq!(self.holds, 0);
        self.check_refused()?;
        if S::SPILLS && !self.buf.is_empty() {
            self.sink.spill(self.buf.as_slice())?;
            self.buf.clear();
        }
        Ok(self.sink)
    }

    /// Hands buffered output to the sink once enough has accumulated, for
    /// front ends to call between values that do not spill by themselves
    /// (numbers, literals, closing brackets): a long array of numbers then
    /// goes out in chunks too instead of piling up in the buffer.
    #[inline]
    pub fn spill_if_full(&mut self) -> Result<()> {
        self.maybe_spill()
    }

    /// Spills at a token boundary once enough output is buffered.
    #[inline]
    fn maybe_spill(&mut self) -> Result<()> {
        if S::SPILLS && self.holds == 0 && self.buf.len() >= SPILL_AT {
            self.check_refused()?;
            self.sink.spill(self.buf.as_slice())?;
            self.buf.clear();
        }
        Ok(())
    }

    // ---- scalars -------------------------------------------------------

    #[inline]
    pub fn null(&mut self) {
        self.buf.extend(b"null");
    }

    #[inline]
    pub fn bool(&mut self, v: bool) {
        self.buf.extend(if v { b"true" as &[u8] } else { b"false" });
    }

    #[inline(always)]
    pub fn i64(&mut self, v: i64) -> Result<()> {
        match self.style.integers {
            IntegerPolicy::Double | IntegerPolicy::DoubleStrict if v.unsigned_abs() > MAX_SAFE => {
                self.integer_as_double(number::i64_to_f64_nearest(v), || v.to_string())
            }
            _ => {
                // SAFETY: `put_i64` writes at most 20 bytes.
                unsafe { self.buf.append_raw(20, |p| number::put_i64(p, v)) };
                Ok(())
            }
        }
    }

    #[inline]
    pub fn u64(&mut self, v: u64) -> Result<()> {
        match self.style.integers {
            IntegerPolicy::Double | IntegerPolicy::DoubleStrict if v > MAX_SAFE => {
                self.integer_as_double(number::u64_to_f64_nearest(v), || v.to_string())
            }
            _ => {
                // SAFETY: `put_u64` writes at most 20 bytes.
                unsafe { self.buf.append_raw(20, |p| number::put_u64(p, v)) };
                Ok(())
            }
        }
    }

    pub fn i128(&mut self, v: i128) -> Result<()> {
        if let Ok(small) = i64::try_from(v) {
            return self.i64(small);
        }
        match self.style.integers {
            IntegerPolicy::Exact => {
                self.buf.extend(itoa::Buffer::new().format(v).as_bytes());
                Ok(())
            }
            IntegerPolicy::Double | IntegerPolicy::DoubleStrict => self.integer_as_double(number::i128_to_f64_nearest(v), || v.to_string()),
        }
    }

    pub fn u128(&mut self, v: u128) -> Result<()> {
        if let Ok(small) = u64::try_from(v) {
            return self.u64(small);
        }
        match self.style.integers {
            IntegerPolicy::Exact => {
                self.buf.extend(itoa::Buffer::new().format(v).as_bytes());
                Ok(())
            }
            IntegerPolicy::Double | IntegerPolicy::DoubleStrict => self.integer_as_double(number::u128_to_f64_nearest(v), || v.to_string()),
        }
    }

    /// An integer beyond ±2^53 in a profile whose numbers are doubles.
    #[cold]
    fn integer_as_double(&mut self, nearest: f64, text: impl FnOnce() -> String) -> Result<()> {
        if self.style.integers == IntegerPolicy::DoubleStrict {
            return Err(self.integer_out_of_range(text()));
        }
        self.finite_f64(nearest);
        Ok(())
    }

    #[cold]
    fn integer_out_of_range(&self, text: String) -> Error {
        Error::new(ErrorKind::NumberOutOfRange { text: crate::error::shown_literal(&text), profile: self.style.profile.name() })
    }

    #[inline]
    pub fn f64(&mut self, v: f64) -> Result<()> {
        if !v.is_finite() {
            return self.non_finite(v.is_nan(), v > 0.0);
        }
        self.finite_f64(v);
        Ok(())
    }

    /// A finite double in the style's layout. The compact layout is zmij's
    /// own output, formatted in place; the others are laid out in the
    /// writer's number scratch first when they differ from it.
    #[inline]
    fn finite_f64(&mut self, v: f64) {
        self.finite_f64_after(v, false);
    }

    /// A finite double in the style's layout, after a `,` when `comma`:
    /// zmij's own output and integers are written in one reservation with
    /// the separator; the rare re-laid bands go through the number scratch.
    #[inline(always)]
    fn finite_f64_after(&mut self, v: f64, comma: bool) {
        let plan = match self.style.float_layout {
            FloatLayout::Compact => EsPlan::Zmij,
            layout => number::es_plan(v, layout == FloatLayout::Go),
        };
        match plan {
            EsPlan::Zmij => {
                // SAFETY: `put_zmij` writes at most `ZMIJ_ROOM` bytes.
                unsafe { self.append_separated(comma, number::ZMIJ_ROOM, |p| number::put_zmij(p, v)) };
            }
            EsPlan::Int(i, neg_zero) => {
                // SAFETY: at most 20 bytes: `-0`, or what `put_i64` writes.
                unsafe {
                    self.append_separated(comma, 20, |p| {
                        if i == 0 && neg_zero {
                            *p = b'-';
                            *p.add(1) = b'0';
                            2
                        } else {
                            number::put_i64(p, i)
                        }
                    })
                };
            }
            EsPlan::Relaid => {
                if comma {
                    self.buf.push(b',');
                }
                self.num.clear();
                number::write_f64(&mut self.num, v, self.style.float_layout);
                self.buf.extend(&self.num);
                if self.buf.zeroes() {
                    crate::pool::wipe(&mut self.num);
                }
            }
        }
    }

    /// Appends `,` when `comma`, then what `put` writes (it returns the
    /// count) in one reservation: the separator and a small token together.
    ///
    /// # Safety
    /// `put` writes at most `max` bytes from the pointer it gets and returns
    /// how many it initialised.
    #[inline(always)]
    unsafe fn append_separated(&mut self, comma: bool, max: usize, put: impl FnOnce(*mut u8) -> usize) {
        // SAFETY: one separator byte, then at most `max` from `put` (caller).
        unsafe {
            self.buf.append_raw(max + 1, |p| {
                *p = b',';
                let c = usize::from(comma);
                c + put(p.add(c))
            })
        }
    }

    /// Empties the scratch after it held text, zeroing it when the output
    /// is to be zeroed, and gives back what it grew beyond its usual size.
    #[cold]
    fn release_num(&mut self) {
        if self.buf.zeroes() {
            crate::pool::wipe(&mut self.num);
        }
        self.num.clear();
        self.num.shrink_to(NUM_SCRATCH);
    }

    #[inline]
    pub fn f32(&mut self, v: f32) -> Result<()> {
        if !v.is_finite() {
            return self.non_finite(v.is_nan(), v > 0.0);
        }
        self.num.clear();
        number::write_f32(&mut self.num, v, self.style.float_layout);
        self.buf.extend(&self.num);
        if self.buf.zeroes() {
            crate::pool::wipe(&mut self.num);
        }
        Ok(())
    }

    #[cold]
    fn non_finite(&mut self, nan: bool, positive: bool) -> Result<()> {
        if self.style.non_finite == NonFinite::Null {
            self.null();
            return Ok(());
        }
        let value = match (nan, positive) {
            (true, _) => "NaN",
            (false, true) => "Infinity",
            (false, false) => "-Infinity",
        };
        Err(Error::new(ErrorKind::NonFiniteFloat { value, profile: self.style.profile.name() }))
    }

    /// A number given as its JSON literal text (an integer beyond 64 bits,
    /// a number kept losslessly, a `json.Number`-like value). `go` and
    /// `compact` write the literal as it is (integers are exact at any
    /// size, and Go writes a `json.Number` or a `*big.Int` so); `jcs`
    /// writes the nearest double.
    pub fn number_text(&mut self, text: &str) -> Result<()> {
        if !crate::parse::is_json_number(text.as_bytes()) {
            return Err(Error::new(ErrorKind::InvalidNumber { text: text.to_owned() }));
        }
        match self.style.integers {
            IntegerPolicy::Double | IntegerPolicy::DoubleStrict => {
                // Correctly rounded, as ECMAScript's conversion is. A literal
                // like 1e400 has no finite double to stand for it, and RFC
                // 8785 forbids non-finite numbers.
                let Some(v) = crate::parse::literal_to_f64(text.as_bytes()) else {
                    return Err(self.integer_out_of_range(text.to_owned()));
                };
                let integral = !text.bytes().any(|b| matches!(b, b'.' | b'e' | b'E'));
                if integral && v.abs() > MAX_SAFE as f64 && self.style.integers == IntegerPolicy::DoubleStrict {
                    return Err(self.integer_out_of_range(text.to_owned()));
                }
                self.finite_f64(v);
            }
            IntegerPolicy::Exact => self.buf.extend(text.as_bytes()),
        }
        Ok(())
    }

    // ---- strings -------------------------------------------------------

    /// A string value.
    #[inline(always)]
    pub fn str(&mut self, s: &str) -> Result<()> {
        // Short strings that need no escaping (most keys and many values) are
        // copied with their quotes in one step, without the call into the
        // escape kernel, whose set-up costs more than such a string.
        let b = s.as_bytes();
        if b.len() <= SHORT_STR {
            let short = self.short;
            let mut clean = false;
            // SAFETY: `short.put` writes within b.len() + 2 bytes and counts
            // them only when it wrote the string (else 0).
            unsafe {
                self.buf.append_raw(b.len() + 2, |p| {
                    short.put(p, b).map_or(0, |n| {
                        clean = true;
                        n
                    })
                })
            };
            if clean {
                return self.maybe_spill();
            }
        }
        self.escaped_str(s)
    }

    /// A string value whose text `f` writes straight into the output, at
    /// the pointer it is given, and whose length it returns: for a text made
    /// of pieces (a date, by the Python binding), which a buffer of its own
    /// would make, return and copy, and so read back right after its
    /// narrow stores (a wide load of bytes several narrower stores wrote
    /// waits for them to reach the cache).
    ///
    /// # Safety
    /// `f` writes only within `max` bytes from its pointer, only ASCII that
    /// needs no escaping in any profile (no `"`, `\`, control characters,
    /// `<`, `>` or `&`), and returns the count it wrote.
    #[doc(hidden)]
    #[inline(always)]
    pub unsafe fn str_in_place(&mut self, max: usize, f: impl FnOnce(*mut u8) -> usize) -> Result<()> {
        // SAFETY: `max + 2` bytes are reserved: the quotes around what `f`
        // writes (at most `max`, the caller's contract).
        unsafe {
            self.buf.append_raw(max + 2, |p| {
                *p = b'"';
                let n = f(p.add(1));
                debug_assert!(n <= max);
                *p.add(n + 1) = b'"';
                n + 2
            })
        };
        self.maybe_spill()
    }

    /// `str` with the clean short string's check and copy inlined into the
    /// caller, closure and all (in `str` the optimiser keeps that closure
    /// out of line), compiled for `I`. For the `Value` writer, whose
    /// recursion is compiled once per CPU level (`value::write`): out of
    /// line, the check would run as compiled for the baseline whatever the
    /// level.
    ///
    /// # Safety
    /// The CPU runs `I`'s level, which the caller is compiled for.
    #[inline(always)]
    pub(crate) unsafe fn str_inlined<I: ShortIsa>(&mut self, s: &str) -> Result<()> {
        let b = s.as_bytes();
        if b.len() <= SHORT_STR {
            let html = self.style.escaper.set().html;
            let mut clean = false;
            // SAFETY: as in `str`; the level per this function's contract.
            unsafe {
                self.buf.append_raw(
                    b.len() + 2,
                    #[inline(always)]
                    |p| {
                        put_quoted_if_clean_in::<I>(p, b, html, None).map_or(0, |n| {
                            clean = true;
                            n
                        })
                    },
                )
            };
            if clean {
                return self.maybe_spill();
            }
        }
        self.escaped_str(s)
    }

    /// A string that goes through the escape kernel (kept out of line so
    /// that `str`, the clean short case, stays small enough to inline).
    #[inline(never)]
    fn escaped_str(&mut self, s: &str) -> Result<()> {
        if s.len() <= ESCAPE_PIECE {
            let escaper = self.style.escaper;
            // The quotes and the escaped text in one reservation.
            // SAFETY: the opening quote takes the first reserved byte;
            // `escape_raw` writes within `escape_room(s.len())` bytes after
            // it and reports `n <= MAX_EXPANSION * s.len()`, so the closing
            // quote at `1 + n` is within the `escape_room(s.len()) + 2`.
            unsafe {
                self.buf.append_raw(escape_room(s.len()) + 2, |p| {
                    *p = b'"';
                    let n = escaper.escape_raw(p.add(1), s);
                    *p.add(1 + n) = b'"';
                    n + 2
                })
            };
        } else {
            self.buf.push(b'"');
            self.escape_in_pieces(s)?;
            self.buf.push(b'"');
        }
        self.maybe_spill()
    }

    /// A long string, escaped piece by piece; with a sink, each piece is
    /// spilled once enough is buffered, so the escaped string (up to 6x
    /// the text) is never held whole.
    #[cold]
    fn escape_in_pieces(&mut self, mut s: &str) -> Result<()> {
        while !s.is_empty() {
            let mut end = s.len().min(ESCAPE_PIECE);
            // Cut at a character boundary so a multi-byte sequence (and
            // U+2028/9 detection) never spans two pieces.
            while !s.is_char_boundary(end) {
                end -= 1;
            }
            let (piece, rest) = s.split_at(end);
            let escaper = self.style.escaper;
            // SAFETY: `escape_raw` writes within `escape_room(piece.len())` bytes.
            unsafe { self.buf.append_raw(escape_room(piece.len()), |p| escaper.escape_raw(p, piece)) };
            s = rest;
            self.maybe_spill()?;
        }
        Ok(())
    }

    /// A string given as bytes that may not be valid UTF-8. `go` replaces
    /// each invalid byte with `\ufffd`, as Go does; other profiles fail.
    pub fn bytes_str(&mut self, s: &[u8]) -> Result<()> {
        if let Ok(valid) = std::str::from_utf8(s) {
            return self.str(valid);
        }
        match self.style.invalid_text {
            InvalidText::ReplacePerByte => {
                self.buf.push(b'"');
                for piece in s.chunks(ESCAPE_PIECE) {
                    self.num.clear();
                    escape_bytes_replacing_invalid(&self.style.escaper, &mut self.num, piece);
                    self.buf.extend(&self.num);
                    self.maybe_spill()?;
                }
                self.release_num();
                self.buf.push(b'"');
                self.maybe_spill()
            }
            InvalidText::Error => Err(Error::new(ErrorKind::InvalidText { profile: self.style.profile.name() })),
        }
    }

    /// A byte slice: base64 in `go` (as Go writes `[]byte`), an array of
    /// numbers elsewhere (as serde_json does).
    pub fn bytes(&mut self, v: &[u8]) -> Result<()> {
        match self.style.bytes {
            BytesPolicy::Base64 => {
                use base64::Engine as _;
                // Whole groups of three bytes per block, so padding can only
                // come at the very end, as in one encoding of the whole.
                let mut block = [0u8; 4096];
                self.buf.push(b'"');
                for chunk in v.chunks(3 * 1024) {
                    let n = base64::engine::general_purpose::STANDARD
                        .encode_slice(chunk, &mut block)
                        .expect("4096 bytes hold the encoding of 3072");
                    self.buf.extend(&block[..n]);
                    self.maybe_spill()?;
                }
                self.buf.push(b'"');
            }
            BytesPolicy::Array => {
                self.begin_array();
                for (i, b) in v.iter().enumerate() {
                    self.array_item(i == 0);
                    self.buf.extend(itoa::Buffer::new().format(*b).as_bytes());
                }
                self.end_array(v.is_empty());
            }
        }
        self.maybe_spill()
    }

    // ---- containers ----------------------------------------------------

    #[inline]
    pub fn begin_array(&mut self) {
        self.buf.push(b'[');
        self.depth += 1;
    }

    /// An integer array element with its separator, in one reservation
    /// (the separator and the digits in one write, not two).
    #[inline(always)]
    pub fn item_i64(&mut self, v: i64, first: bool) -> Result<()> {
        let exact = !matches!(self.style.integers, IntegerPolicy::Double | IntegerPolicy::DoubleStrict) || v.unsigned_abs() <= MAX_SAFE;
        if self.style.indent == 0 && exact {
            // SAFETY: `put_i64` writes at most 20 bytes.
            unsafe { self.append_separated(!first, 20, |p| number::put_i64(p, v)) };
            return Ok(());
        }
        self.array_item(first);
        self.i64(v)
    }

    /// A float array element with its separator, in one reservation.
    #[inline(always)]
    pub fn item_f64(&mut self, v: f64, first: bool) -> Result<()> {
        if self.style.indent == 0 && v.is_finite() {
            self.finite_f64_after(v, !first);
            return Ok(());
        }
        self.array_item(first);
        self.f64(v)
    }

    /// A float value for the serde path: the usual case, zmij's digits in
    /// one reservation, in line and small, so that its callers (one per
    /// float field or element type) stay small enough to be inlined
    /// themselves; integers in the go layout, the re-laid bands and
    /// non-finite values out of line.
    #[inline(always)]
    pub(crate) fn lean_f64(&mut self, v: f64) -> Result<()> {
        if self.lean_zmij(v, false) {
            return Ok(());
        }
        self.other_f64(v)
    }

    /// A float array element for the serde path, with its separator (as
    /// `lean_f64`).
    #[inline(always)]
    pub(crate) fn lean_item_f64(&mut self, v: f64, first: bool) -> Result<()> {
        if self.lean_zmij(v, !first) {
            return Ok(());
        }
        self.other_item_f64(v, first)
    }

    /// Writes `v` (after a `,` when `comma`) when it is finite, unindented
    /// and laid out as zmij writes it; false, having written nothing,
    /// otherwise.
    #[inline(always)]
    fn lean_zmij(&mut self, v: f64, comma: bool) -> bool {
        if self.style.indent != 0 || !v.is_finite() {
            return false;
        }
        let zmij = match self.style.float_layout {
            FloatLayout::Compact => true,
            layout => matches!(number::es_plan(v, layout == FloatLayout::Go), EsPlan::Zmij),
        };
        if zmij {
            // SAFETY: `put_zmij` writes at most `ZMIJ_ROOM` bytes.
            unsafe { self.append_separated(comma, number::ZMIJ_ROOM, |p| number::put_zmij(p, v)) };
        }
        zmij
    }

    #[inline(never)]
    fn other_f64(&mut self, v: f64) -> Result<()> {
        self.f64(v)
    }

    #[inline(never)]
    fn other_item_f64(&mut self, v: f64, first: bool) -> Result<()> {
        self.item_f64(v, first)
    }

    /// A string array element with its separator: short clean strings in
    /// one reservation, others as `array_item` then `str`.
    #[inline(always)]
    pub fn item_str(&mut self, s: &str, first: bool) -> Result<()> {
        let b = s.as_bytes();
        if self.style.indent == 0 && b.len() <= SHORT_STR {
            let short = self.short;
            let mut clean = false;
            // SAFETY: `short.put` writes within b.len() + 2 bytes and counts
            // them only when it wrote the string; a declined one counts
            // nothing, not even the separator.
            unsafe {
                self.buf.append_raw(b.len() + 3, |p| {
                    *p = b',';
                    let c = usize::from(!first);
                    short.put(p.add(c), b).map_or(0, |n| {
                        clean = true;
                        c + n
                    })
                })
            };
            if clean {
                return self.maybe_spill();
            }
            self.array_item(first);
            return self.escaped_str(s);
        }
        self.array_item(first);
        self.str(s)
    }

    /// A literal array element (`null`, `true`, `false`, `[]`, `{}`) with its
    /// separator, in one reservation: one update of the output length
    /// instead of two. Each update waits for the one before it (the length
    /// lives in memory, behind the writer reference), so in a long array of
    /// such elements the count of updates, not the bytes, sets the pace.
    #[inline(always)]
    pub fn item_literal(&mut self, literal: Literal, first: bool) {
        let (bytes, len) = literal.padded();
        if self.style.indent == 0 {
            // SAFETY: eight bytes are stored, of which the first `len` (at
            // most five) are the literal; the rest is overwritten by what
            // follows.
            unsafe {
                self.append_separated(!first, 8, |p| {
                    p.cast::<[u8; 8]>().write_unaligned(bytes);
                    len
                })
            };
            return;
        }
        self.array_item(first);
        self.buf.extend(&bytes[..len]);
    }

    /// How many more bytes of output fit before the buffer must grow.
    #[doc(hidden)]
    #[inline(always)]
    pub fn spare(&self) -> usize {
        self.buf.spare()
    }

    /// The most room in the buffer that `str` of a `len`-byte string asks
    /// for, all its pieces together (for `reserve`).
    #[doc(hidden)]
    pub const fn str_room(len: usize) -> usize {
        escape_room(len).saturating_add(2)
    }

    /// Grows the buffer now, if needed, so that `additional` more bytes of
    /// output fit without growing it: a binding whose `OutputMemory`
    /// unwinds when it cannot grow catches that once, here, around this
    /// call, instead of around every write (`spare` says when to).
    #[doc(hidden)]
    pub fn reserve(&mut self, additional: usize) {
        self.buf.reserve(additional);
    }

    /// True when array items may be written through an `ItemRun`: no
    /// indentation, and integers written as they are (not as doubles).
    #[inline(always)]
    pub fn runs_items(&self) -> bool {
        self.style.indent == 0 && !matches!(self.style.integers, IntegerPolicy::Double | IntegerPolicy::DoubleStrict)
    }

    /// A run of array items (or object members) written through the
    /// returned `ItemRun`'s own cursor into `room` bytes reserved once; the
    /// output length is updated once, when the run is dropped, instead of
    /// once per item: in a long array of small items each length update
    /// waits on the one before it, and those waits, not the bytes, set the
    /// pace. The run is a plain value (not a closure's argument) so that its
    /// cursor stays in a register when its writes are inlined into a large
    /// caller. Only for a writer that `runs_items`.
    #[inline(always)]
    pub fn run(&mut self, room: usize) -> ItemRun<'_> {
        debug_assert!(self.runs_items());
        let html = self.style.escaper.set().html;
        let zmij = self.style.float_layout == FloatLayout::Compact;
        // SAFETY: every `ItemRun` write checks the room left first, so the
        // run writes only inside the `room` bytes reserved, and on drop it
        // advances the length by what it wrote from the start.
        let (p, len) = unsafe { self.buf.reserve_raw(room) };
        // SAFETY: `room` bytes are reserved from `p`.
        let end = unsafe { p.add(room) };
        ItemRun { start: p, at: p, end, html, zmij, short: self.short, nesting: 0, len, depth: &mut self.depth }
    }

    /// `f` with a `run` of `room` bytes (see `run`).
    #[inline(always)]
    pub fn item_run<R>(&mut self, room: usize, f: impl FnOnce(&mut ItemRun) -> R) -> R {
        let mut run = self.run(room);
        f(&mut run)
    }

    /// `{}`: what `begin_object` then `end_object(true)` write, in one step.
    #[inline]
    pub fn empty_object(&mut self) {
        self.buf.extend(b"{}");
    }

    /// `[]`: what `begin_array` then `end_array(true)` write, in one step.
    #[inline]
    pub fn empty_array(&mut self) {
        self.buf.extend(b"[]");
    }

    /// Before each element: the separator and, when indenting, the newline.
    #[inline]
    pub fn array_item(&mut self, first: bool) {
        if self.style.indent != 0 {
            self.indented_name(!first, None);
        } else if !first {
            self.buf.push(b',');
        }
    }

    #[inline]
    pub fn end_array(&mut self, empty: bool) {
        self.depth -= 1;
        if !empty && self.style.indent != 0 {
            self.indented_name(false, None);
        }
        self.buf.push(b']');
    }

    #[inline]
    pub fn begin_object(&mut self) {
        self.buf.push(b'{');
        self.depth += 1;
    }

    /// A member key with its separators (`,` before, `:` after).
    #[inline(always)]
    pub fn key(&mut self, key: &str, first: bool) -> Result<()> {
        // SAFETY: `BuildIsa` is what this build runs.
        unsafe { self.key_in::<BuildIsa>(key, first) }
    }

    /// `key` with its check compiled for `I` (the `Value` writer's
    /// per-level recursion).
    ///
    /// # Safety
    /// The CPU runs `I`'s level, which the caller is compiled for.
    #[inline(always)]
    pub(crate) unsafe fn key_in<I: ShortIsa>(&mut self, key: &str, first: bool) -> Result<()> {
        // SAFETY: the level per this function's contract.
        if self.style.indent == 0 && unsafe { short_and_clean_in::<I>(key.as_bytes(), self.style.escaper.set().html) } {
            // SAFETY: `put_clean_name` writes at most key.len() + 4 bytes.
            unsafe { self.buf.append_raw(key.len() + 4, |p| put_clean_name(p, key.as_bytes(), !first)) };
            return Ok(());
        }
        self.escaped_key(key, first)
    }

    /// Appends `key` to `out` as this writer writes a member name after
    /// another member: `,"key":` (quoted and escaped), for callers that
    /// encode a name once and write it many times with `encoded_key` (a
    /// writer of the same style only). Returns the encoded length.
    pub fn encode_name(&self, key: &str, out: &mut Vec<u8>) -> usize {
        let start = out.len();
        out.extend_from_slice(b",\"");
        self.style.escaper.escape(out, key);
        out.extend_from_slice(b"\":");
        out.len() - start
    }

    /// A member name encoded by `encode_name`: `names[at..at + len]`, with
    /// its separators, as one copy instead of an escape check per member.
    /// When `names` has `NAME_WINDOW` bytes to spare after the name (pad the
    /// buffer once), a name of up to `NAME_WINDOW` bytes is one fixed-size
    /// move with no length-dependent branch.
    #[inline(always)]
    pub fn encoded_key(&mut self, names: &[u8], at: usize, len: usize, first: bool) {
        let name = &names[at..at + len];
        if self.style.indent != 0 {
            // `,"name":` as encoded: the name between the quotes is escaped.
            if len > 4 {
                self.indented_name(!first, Some(&name[2..len - 2]));
            } else {
                self.array_item(first);
                self.buf.extend(&name[1..len - 1]);
                self.colon();
            }
            return;
        }
        let (from, n, windowed) = name_span(names, at, len, first);
        if windowed {
            let window = &names[from..from + NAME_WINDOW];
            // SAFETY: `NAME_WINDOW` bytes are reserved and written; only the
            // first `n` (the name) are counted as output, the rest is
            // overwritten by what follows.
            unsafe {
                self.buf.append_raw(NAME_WINDOW, |p| {
                    std::ptr::copy_nonoverlapping(window.as_ptr(), p, NAME_WINDOW);
                    n
                })
            };
        } else {
            // SAFETY: `n` bytes reserved and written.
            unsafe {
                self.buf.append_raw(n, |p| {
                    crate::pool::copy_bytes(p, &names[from..from + n]);
                    n
                })
            };
        }
    }

    /// A key that needs escaping or indentation (out of line, as `escaped_str`).
    #[inline(never)]
    fn escaped_key(&mut self, key: &str, first: bool) -> Result<()> {
        if self.style.indent != 0 && !key.is_empty() && short_and_clean(key.as_bytes(), self.style.escaper.set().html) {
            self.indented_name(!first, Some(key.as_bytes()));
            return Ok(());
        }
        self.array_item(first);
        self.str(key)?;
        self.colon();
        Ok(())
    }

    /// A member key that is a `&'static str` field name: its escaping is
    /// looked up once per name, and clean names are copied whole together
    /// with their quotes and separators.
    ///
    /// Inlined into every field's serialization: the out-of-line call cost
    /// more than the rest (saving and restoring registers around a few
    /// instructions); the other cases are out of line.
    #[inline(always)]
    pub fn static_key(&mut self, key: &'static str, first: bool) -> Result<()> {
        if self.style.indent == 0 && keys::static_name_facts(key).is_clean_under(self.name_mask) {
            // SAFETY: `put_clean_name` writes at most k.len() + 4 bytes.
            unsafe { self.buf.append_raw(key.len() + 4, |p| put_clean_name(p, key.as_bytes(), !first)) };
            return Ok(());
        }
        self.static_key_other(key, first)
    }

    /// A field name that needs escaping, or in an indented layout.
    #[inline(never)]
    fn static_key_other(&mut self, key: &'static str, first: bool) -> Result<()> {
        if self.style.indent != 0 && !key.is_empty() && keys::static_name_facts(key).is_clean_under(self.name_mask) {
            self.indented_name(!first, Some(key.as_bytes()));
            return Ok(());
        }
        self.array_item(first);
        self.static_key_body(key)
    }

    /// The name, quotes and colon of a field name (no separator).
    #[inline]
    fn static_key_body(&mut self, key: &'static str) -> Result<()> {
        if !keys::static_name_facts(key).is_clean_under(self.name_mask) {
            return self.key_in_place(key);
        }
        if self.style.indent == 0 {
            // SAFETY: `put_clean_name` writes at most k.len() + 4 bytes.
            unsafe { self.buf.append_raw(key.len() + 4, |p| put_clean_name(p, key.as_bytes(), false)) };
        } else {
            self.buf.push(b'"');
            self.buf.extend(key.as_bytes());
            self.buf.push(b'"');
            self.colon();
        }
        Ok(())
    }

    /// A key whose bytes need no escaping in any profile (the digits of an
    /// integer map key).
    #[inline]
    pub(crate) fn clean_key(&mut self, key: &[u8], first: bool) {
        self.array_item(first);
        self.buf.reserve(key.len() + 4);
        self.buf.push(b'"');
        self.buf.extend(key);
        self.buf.push(b'"');
        self.colon();
    }

    /// A key given as bytes that may be invalid UTF-8 (see `bytes_str`).
    pub fn bytes_key(&mut self, key: &[u8], first: bool) -> Result<()> {
        self.array_item(first);
        self.bytes_str(key)?;
        self.colon();
        Ok(())
    }

    #[inline]
    pub(crate) fn colon(&mut self) {
        if self.style.indent == 0 {
            self.buf.push(b':');
        } else {
            self.buf.extend(b": ");
        }
    }

    #[inline]
    pub fn end_object(&mut self, empty: bool) {
        self.depth -= 1;
        if !empty && self.style.indent != 0 {
            self.indented_name(false, None);
        }
        self.buf.push(b'}');
    }

    /// In an indented layout, before an element: the separator (when
    /// `comma`), the newline and the indentation of the current depth, then
    /// for a member `name` (its bytes as written between the quotes, so
    /// needing no escaping) the quoted name and `": "`, all in one
    /// reservation: the indentation is one fixed move of `INDENT_WINDOW`
    /// bytes of which the output counts the depth's share. Deeper
    /// indentation goes the long way (`newline`).
    #[inline]
    fn indented_name(&mut self, comma: bool, name: Option<&[u8]>) {
        let n = self.depth * usize::from(self.style.indent);
        if n > INDENT_WINDOW {
            return self.indented_name_wide(comma, name);
        }
        let fill = if self.style.indent_byte == b'\t' { TABS } else { SPACES };
        let name = name.unwrap_or(&[]);
        let quoted = !name.is_empty() as usize;
        let room = 2 + INDENT_WINDOW + name.len() + 4;
        // SAFETY: `room` bytes are reserved from `p`: the comma (1), the
        // newline (1), `INDENT_WINDOW` fill bytes from `p + at + 1`, then from
        // `p + at + 1 + n` (`n <= INDENT_WINDOW`) at most `name.len() + 4`
        // bytes (quotes, colon, space); the count returned is exactly the
        // bytes meant as output, all written (the fill past `n` is either
        // overwritten by the name or not counted).
        unsafe {
            self.buf.append_raw(room, |p| {
                let at = comma as usize;
                *p = b',';
                *p.add(at) = b'\n';
                std::ptr::copy_nonoverlapping(fill.as_ptr(), p.add(at + 1), INDENT_WINDOW);
                let mut end = at + 1 + n;
                if quoted == 1 {
                    *p.add(end) = b'"';
                    crate::pool::copy_bytes(p.add(end + 1), name);
                    end += 1 + name.len();
                    p.add(end).cast::<[u8; 3]>().write_unaligned(*b"\": ");
                    end += 3;
                }
                end
            })
        };
    }

    /// `indented_name` for an indentation wider than `INDENT_WINDOW`.
    #[cold]
    #[inline(never)]
    fn indented_name_wide(&mut self, comma: bool, name: Option<&[u8]>) {
        if comma {
            self.buf.push(b',');
        }
        self.newline();
        if let Some(name) = name.filter(|n| !n.is_empty()) {
            self.buf.push(b'"');
            self.buf.extend(name);
            self.buf.extend(b"\": ");
        }
    }

    fn newline(&mut self) {
        let mut n = self.depth * usize::from(self.style.indent);
        let fill = if self.style.indent_byte == b'\t' { TABS } else { SPACES };
        self.buf.push(b'\n');
        while n > 0 {
            let k = n.min(fill.len());
            self.buf.extend(&fill[..k]);
            n -= k;
        }
    }

    // ---- sorted objects ------------------------------------------------

    /// Starts an object whose member order is decided at its end. Members
    /// are written in place as they come (key escaped once, value as usual,
    /// nesting allowed); `end_sorted_object` leaves them where they are when
    /// they already are in order, and otherwise permutes their bytes.
    pub fn begin_sorted_object(&mut self) -> SortedObject {
        self.sorting.ready();
        self.begin_object();
        self.holds += 1;
        SortedObject { start: self.buf.len(), first_member: self.sorting.members.len(), first_key: self.sorting.keys.len() }
    }

    /// Writes the key of the next member of a sorted object.
    pub fn sorted_key(&mut self, obj: &SortedObject, key: &str) -> Result<()> {
        let k = key.as_bytes();
        if self.style.indent == 0 && short_and_clean(k, self.style.escaper.set().html) {
            // As `key`: separator, quoted name and colon in one step (a map
            // of many members, such as a `BTreeMap` of records, pays this
            // per member). The member's span starts at its opening quote.
            let first = self.sorting.members.len() == obj.first_member;
            // SAFETY: `put_clean_name` writes at most `k.len() + 4` bytes.
            unsafe { self.buf.append_raw(k.len() + 4, |p| put_clean_name(p, k, !first)) };
            let span = self.buf.len() - (k.len() + 3);
            self.push_owned_member(k, span);
            return Ok(());
        }
        let span = self.member_span_start(obj);
        self.key_in_place(key)?;
        self.push_owned_member(k, span);
        Ok(())
    }

    /// Writes a key given as bytes that may be invalid UTF-8.
    pub fn sorted_bytes_key(&mut self, obj: &SortedObject, key: &[u8]) -> Result<()> {
        let span = self.member_span_start(obj);
        self.bytes_str(key)?;
        self.colon();
        self.push_owned_member(key, span);
        Ok(())
    }

    /// Writes a field name as the key of the next member (recorded, not copied).
    #[inline]
    pub fn sorted_static_key(&mut self, obj: &SortedObject, key: &'static str) -> Result<()> {
        let span = self.member_span_start(obj);
        self.static_key_body(key)?;
        self.sorting.members.push(Member { key: MemberKey::Static(key), span: span..span });
        Ok(())
    }

    /// Marks the end of the value of the member written last.
    #[inline]
    pub fn sorted_value_done(&mut self, _obj: &SortedObject) {
        if let Some(m) = self.sorting.members.last_mut() {
            m.span.end = self.buf.len();
        }
    }

    /// Separator before a member; returns where the member's own bytes start.
    #[inline]
    fn member_span_start(&mut self, obj: &SortedObject) -> usize {
        let first = self.sorting.members.len() == obj.first_member;
        self.array_item(first);
        self.buf.len()
    }

    #[inline]
    fn key_in_place(&mut self, key: &str) -> Result<()> {
        self.str(key)?;
        self.colon();
        Ok(())
    }

    fn push_owned_member(&mut self, key: &[u8], span: usize) {
        let at = self.sorting.keys.len();
        if !self.sorting.pooled {
            crate::pool::reserve_wiping(&mut self.sorting.keys, key.len());
        }
        let keys = &mut self.sorting.keys;
        keys.reserve(key.len());
        // SAFETY: room for `key.len()` bytes after `at` was just reserved;
        // `copy_bytes` writes exactly those (short keys without a `memcpy`
        // call), which are then counted.
        unsafe {
            crate::pool::copy_bytes(keys.as_mut_ptr().add(at), key);
            keys.set_len(at + key.len());
        }
        self.sorting.members.push(Member { key: MemberKey::Owned { at, len: key.len() }, span: span..span });
    }

    pub fn end_sorted_object(&mut self, obj: SortedObject, order: KeyOrder) -> Result<()> {
        let count = self.sorting.members.len() - obj.first_member;
        let sm = self.order.get();
        let (pb, ob) = (sm.prefixes.len(), sm.order.len());
        let mut moved = false;
        {
            let st = &self.sorting;
            let keys = &st.keys;
            let members = &st.members[obj.first_member..];
            // Maps from ordered containers (BTreeMap) arrive sorted: kept
            // as they are, found so by comparing neighbours' prefixes
            // (their full keys when those are equal) with nothing stored.
            let bytes = |i: usize| members[i].key.bytes(keys);
            let mut prev = 0u128;
            let mut in_order = true;
            for i in 0..count {
                let p = keys::sort_prefix(order, bytes(i));
                if i > 0 && (p < prev || (p == prev && keys::compare(order, bytes(i - 1), bytes(i)).is_gt())) {
                    in_order = false;
                    break;
                }
                prev = p;
            }
            let mut hash = ShapeHash::new();
            if !in_order && sm.zero() {
                crate::pool::reserve_wiping(&mut sm.prefixes, count);
            }
            if !in_order {
                sm.prefixes.extend(members.iter().map(|m| {
                    let p = keys::sort_prefix(order, m.key.bytes(keys));
                    hash = hash.add(p);
                    p
                }));
                let full = |a: u32, b: u32| keys::compare(order, members[a as usize].key.bytes(keys), members[b as usize].key.bytes(keys));
                sm.shapes.sort_into(&sm.prefixes[pb..], hash, &mut sm.order, full);
                moved = true;
            }
        }
        if moved {
            let mut scratch = std::mem::take(&mut self.sorting.scratch);
            let base = scratch.len();
            self.buf.move_tail_to(obj.start, &mut scratch);
            for i in 0..count {
                let span = self.sorting.members[obj.first_member + self.order.get().order[ob + i] as usize].span.clone();
                self.array_item(i == 0);
                self.buf.extend(&scratch[base + span.start - obj.start..base + span.end - obj.start]);
            }
            if self.buf.zeroes() {
                crate::pool::wipe(&mut scratch);
            }
            scratch.truncate(base);
            self.sorting.scratch = scratch;
        }
        let sm = self.order.get();
        sm.prefixes.truncate(pb);
        sm.order.truncate(ob);
        self.sorting.members.truncate(obj.first_member);
        self.sorting.keys.truncate(obj.first_key);
        self.end_object(count == 0);
        self.holds -= 1;
        self.maybe_spill()
    }

    // ---- raw JSON ------------------------------------------------------

    /// Already-serialized JSON, embedded as the profile says (`RawPolicy`).
    pub fn raw(&mut self, json: &[u8]) -> Result<()> {
        match self.style.raw {
            RawPolicy::Verbatim => {
                if S::SPILLS && json.len() > SPILL_AT {
                    // A long text reaches a spilling sink in pieces, not
                    // whole through the buffer.
                    for piece in json.chunks(SPILL_AT) {
                        self.buf.extend(piece);
                        self.maybe_spill()?;
                    }
                    return Ok(());
                }
                self.buf.extend(json);
                self.maybe_spill()
            }
            RawPolicy::Relaid { sort_keys } => crate::raw::write_relaid(self, json, sort_keys),
            RawPolicy::Canonicalize => {
                // Read again under the write limit, not the read default: the
                // text may nest as deep as the room left below
                // `max_write_depth` (deeper is that limit's error).
                let room = self.style.max_write_depth.saturating_sub(self.depth);
                let options = crate::ReadOptions::lossless().max_depth(room);
                let value = match crate::parse::from_slice_with::<crate::Value>(json, &options) {
                    Ok(value) => value,
                    Err(e) if matches!(e.kind(), ErrorKind::DepthLimit { .. }) => return Err(self.too_deep()),
                    Err(e) => return Err(e),
                };
                // Writing a `Value` recurses: with room on the
                // stack for the levels it may have, whatever the thread's
                // stack and the callers above (a C writer, Python's `dumps`
                // on a small thread stack crashed at a 300-deep raw value).
                crate::stack::with_room_for(room, move || crate::value::write_value(self, &value))
            }
        }
    }

    /// Appends bytes the caller has already made valid for this position.
    #[inline]
    pub(crate) fn verbatim(&mut self, bytes: &[u8]) {
        self.buf.extend(bytes);
    }

    pub(crate) fn into_buffer(self) -> Result<Buffer> {
        debug_assert!(!S::SPILLS);
        self.check_refused()?;
        Ok(self.buf)
    }
}

/// `go` and `jcs` layouts are the same for integers; exactness ends at 2^53.
const MAX_SAFE: u64 = 1 << 53;

/// Writes `[,]"name":` for a name that needs no escaping; returns the count.
///
/// # Safety
/// `p` must be valid for `name.len() + 4` bytes of writes.
#[inline(always)]
unsafe fn put_clean_name(p: *mut u8, name: &[u8], comma: bool) -> usize {
    // SAFETY: at most 1 + 1 + name.len() + 1 + 1 bytes are written from `p`,
    // which the caller guarantees are writable.
    unsafe {
        let mut n = 0;
        if comma {
            *p = b',';
            n = 1;
        }
        *p.add(n) = b'"';
        crate::pool::copy_bytes(p.add(n + 1), name);
        n += 1 + name.len();
        *p.add(n) = b'"';
        *p.add(n + 1) = b':';
        n + 2
    }
}

/// Longest string `short_and_clean` looks at: long enough for the strings
/// small documents are made of (ids, dates, UUIDs, media types, a sha256
/// digest with its prefix: 71 bytes), short enough that checking them costs
/// less than the escaper's call and its worst-case reservation.
const SHORT_STR: usize = 96;

/// The CPU level a build of the short-string check and copy is compiled
/// for: which registers and instructions it may use. The check is inlined
/// into its callers, so it runs as compiled for theirs: `BuildIsa` where
/// they are compiled for the crate's own target features, `Avx2Isa` inside
/// code compiled for AVX2 and chosen at run time (the `Value` writer's AVX2
/// recursion, `ShortCopy`'s AVX2 entries). In a build without target flags
/// `BuildIsa` is SSE2, with compares for the HTML set and 16-byte blocks.
///
/// Code naming `Avx2Isa` must be compiled with AVX2 and run only on a CPU
/// that has it (the unsafe `_in` functions below say so in their contract).
pub(crate) trait ShortIsa {
    /// 32-byte blocks (AVX2).
    const WIDE: bool;
    /// SSSE3's byte shuffle for the HTML set's nibble lookups.
    const LOOKUP: bool;
}

/// What the crate is compiled for (`-C target-cpu=native` or none).
pub(crate) struct BuildIsa;

impl ShortIsa for BuildIsa {
    const WIDE: bool = cfg!(all(target_arch = "x86_64", target_feature = "avx2"));
    const LOOKUP: bool = cfg!(all(target_arch = "x86_64", target_feature = "ssse3"));
}

/// Code compiled for AVX2 (every CPU with AVX2 has SSSE3).
#[cfg(target_arch = "x86_64")]
pub(crate) struct Avx2Isa;

#[cfg(target_arch = "x86_64")]
impl ShortIsa for Avx2Isa {
    const WIDE: bool = true;
    const LOOKUP: bool = true;
}

/// `put_quoted_if_clean` for one set (HTML-safe or not) as compiled for
/// one CPU level: chosen once per writer (`ShortCopy::new`), called per
/// short string by `str` and `item_str`, the serde writer's strings.
///
/// Their callers, the program's `Serialize` impls, are compiled once, for
/// the build's target: inlined there, the check ran as compiled for the
/// baseline in a build without target flags (SSE2: 16-byte blocks in a
/// loop, five compares for the HTML set), and even in an AVX2 build as one
/// copy for both sets, testing `html` on the way. Out of line, one call
/// per short string (the optimiser kept `str`'s closure out of line
/// anyway), the entry is the level's code with the set fixed.
#[derive(Clone, Copy)]
pub(crate) struct ShortCopy(unsafe fn(*mut u8, &[u8]) -> Option<usize>);

impl ShortCopy {
    /// The entry for `html` at the best level this CPU runs.
    #[inline]
    fn new(html: bool) -> ShortCopy {
        let (build, avx2) = Self::levels(html);
        avx2.unwrap_or(build)
    }

    /// The entries for `html`: the build's own, and the AVX2 one when this
    /// CPU runs it.
    #[inline]
    fn levels(html: bool) -> (ShortCopy, Option<ShortCopy>) {
        let build = ShortCopy(if html { short_copy_build::<true> } else { short_copy_build::<false> });
        #[cfg(target_arch = "x86_64")]
        if crate::parse::level() >= crate::parse::Level::Avx2 {
            return (build, Some(ShortCopy(if html { short_copy_avx2::<true> } else { short_copy_avx2::<false> })));
        }
        (build, None)
    }

    /// `put_quoted_if_clean(p, b, html)` for the `html` of `new`.
    ///
    /// # Safety
    /// As `put_quoted_if_clean`.
    #[inline(always)]
    pub(crate) unsafe fn put(self, p: *mut u8, b: &[u8]) -> Option<usize> {
        // SAFETY: the caller's contract; the entry was chosen for this CPU.
        unsafe { (self.0)(p, b) }
    }
}

/// # Safety
/// As `put_quoted_if_clean`.
unsafe fn short_copy_build<const HTML: bool>(p: *mut u8, b: &[u8]) -> Option<usize> {
    // SAFETY: the caller's contract.
    unsafe { put_quoted_if_clean(p, b, HTML) }
}

/// # Safety
/// As `put_quoted_if_clean`, and the CPU supports AVX2 (`Level::Avx2`).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
unsafe fn short_copy_avx2<const HTML: bool>(p: *mut u8, b: &[u8]) -> Option<usize> {
    // SAFETY: the caller's contract; this function is compiled for AVX2.
    unsafe { put_quoted_if_clean_in::<Avx2Isa>(p, b, HTML, None) }
}

/// True when `b` is at most `SHORT_STR` bytes of ASCII that no profile
/// escapes: no control bytes, `"` or `\\`, and (with `html`) no `<`, `>`, `&`.
/// Non-ASCII text is left to the escaper (U+2028/9, ascii_only).
///
/// Every load stays inside `b`: words overlap rather than read past its end.
#[inline(always)]
fn short_and_clean(b: &[u8], html: bool) -> bool {
    // SAFETY: `BuildIsa` is what this build runs.
    unsafe { short_and_clean_in::<BuildIsa>(b, html) }
}

/// `short_and_clean` as compiled for `I` (inlined into code built for it).
///
/// # Safety
/// The CPU runs `I`'s level, which the code this is inlined into is
/// compiled for.
#[inline(always)]
unsafe fn short_and_clean_in<I: ShortIsa>(b: &[u8], html: bool) -> bool {
    let n = b.len();
    if n > SHORT_STR {
        return false;
    }
    let word = |at: usize| u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"));
    #[cfg(target_arch = "x86_64")]
    {
        if n >= 16 {
            // Whole blocks, then one overlapping the end: every lane is a
            // byte of `b`.
            let block = |at: usize| u128::from_le_bytes(b[at..at + 16].try_into().expect("16 bytes"));
            let mut at = 0;
            while at + 16 < n {
                if !sse2_is_clean::<I>(block(at), html) {
                    return false;
                }
                at += 16;
            }
            return sse2_is_clean::<I>(block(n - 16), html);
        }
        if n >= 8 {
            return sse2_is_clean::<I>(u128::from(word(0)) | (u128::from(word(n - 8)) << 64), html);
        }
    }
    if n >= 8 {
        // Whole words, then one overlapping the end: every lane is a byte of `b`.
        let mut at = 0;
        while at + 8 < n {
            if !word_is_clean(word(at), html) {
                return false;
            }
            at += 8;
        }
        return word_is_clean(word(n - 8), html);
    }
    if n >= 4 {
        let half = |at: usize| u64::from(u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes")));
        return short_word_is_clean::<I>(half(0) | (half(n - 4) << 32), html);
    }
    if n == 0 {
        return true;
    }
    // 1 to 3 bytes, repeated to fill the word.
    let x = u64::from(b[0]) | (u64::from(b[n / 2]) << 8) | (u64::from(b[n - 1]) << 16);
    short_word_is_clean::<I>(x | (x << 24) | (x << 48), html)
}

/// `"` + `b` + `"` written at `p` when `b` is what `short_and_clean`
/// accepts, checked and copied in one pass: each block is stored as soon as
/// it is checked (the same overlapping loads, no second read of `b`), so a
/// clean string costs no separate copy, and no `memcpy` call with its
/// length-dependent dispatch for strings of 32 bytes and up (digests, media
/// types). Returns the count written (`b.len() + 2`), or `None` for any
/// other string, having written nothing past `p + b.len() + 2` (possibly
/// some bytes before it, which the caller does not count as output).
///
/// # Safety
/// When `b.len() <= SHORT_STR`, `p` must be valid for `b.len() + 2` bytes
/// of writes (nothing is written otherwise).
#[inline(always)]
unsafe fn put_quoted_if_clean(p: *mut u8, b: &[u8], html: bool) -> Option<usize> {
    // SAFETY: the caller's contract; `BuildIsa` is what this build runs.
    unsafe { put_quoted_if_clean_in::<BuildIsa>(p, b, html, None) }
}

/// `put_quoted_if_clean`, but a string of more than 32 bytes goes to
/// `long` (the writer's `ShortCopy`: AVX2's three 32-byte blocks on a CPU
/// that has it) when the build has no 32-byte blocks of its own: the code
/// inlined into the caller is the short cases' alone.
///
/// # Safety
/// As `put_quoted_if_clean`; `long` is for the same `html`.
#[inline(always)]
unsafe fn put_quoted_if_clean_or(p: *mut u8, b: &[u8], html: bool, long: ShortCopy) -> Option<usize> {
    // SAFETY: the caller's contract; `BuildIsa` is what this build runs.
    unsafe { put_quoted_if_clean_in::<BuildIsa>(p, b, html, Some(long)) }
}

/// `put_quoted_if_clean` as compiled for `I`: inlined into code built for
/// `I`'s level (the `Value` writer's per-level recursion, the per-level
/// entries of `ShortCopy`). With `long`, strings of more than 32 bytes go
/// to it where `I` has no 32-byte blocks.
///
/// # Safety
/// As `put_quoted_if_clean`, and the CPU runs `I`'s level, which the code
/// this is inlined into is compiled for; `long` is an entry for the same
/// `html`.
#[inline(always)]
unsafe fn put_quoted_if_clean_in<I: ShortIsa>(p: *mut u8, b: &[u8], html: bool, long: Option<ShortCopy>) -> Option<usize> {
    use std::ptr::{read_unaligned as rd, write_unaligned as wr};
    let n = b.len();
    if n > SHORT_STR {
        return None;
    }
    if let (false, true, Some(long)) = (I::WIDE, n > 32, long) {
        // SAFETY: the caller's contract, which is the entry's.
        return unsafe { long.put(p, b) };
    }
    let s = b.as_ptr();
    // SAFETY (whole block): every load reads bytes of `b` (blocks overlap
    // rather than read past its end, as in `short_and_clean`), and every
    // store lands at the same offset in `p + 1 ..= p + n` or is one of the
    // two quotes at `p` and `p + n + 1`: all inside the `n + 2` writable
    // bytes the caller guarantees.
    unsafe {
        let d = p.add(1);
        #[cfg(target_arch = "x86_64")]
        if I::WIDE && n >= 32 {
            // Code compiled for AVX2 (`-C target-cpu=native`, or the AVX2
            // build of a caller chosen at run time): 32 to 96 bytes as
            // three 32-byte blocks at 0, `min(32, n - 32)` and `n - 32`
            // (the middle one repeats the last when `n <= 64`), checked
            // together and then stored: one test and no loop, where 16-byte
            // blocks took up to six tests and a loop whose trip count
            // varies with the length.
            let mid = (n - 32).min(32);
            if !wide_blocks_are_clean::<I>(s, mid, n, html) {
                return None;
            }
            copy_wide_blocks(s, d, mid, n);
            *p = b'"';
            *d.add(n) = b'"';
            return Some(n + 2);
        }
        if (16..=32).contains(&n) {
            // Two overlapping blocks, checked together.
            let (a, z) = (rd(s as *const u128), rd(s.add(n - 16) as *const u128));
            if !blocks_are_clean::<I>(a, z, html) {
                return None;
            }
            wr(d as *mut u128, a);
            wr(d.add(n - 16) as *mut u128, z);
        } else if n >= 16 {
            // 33 to 96 bytes in 16-byte blocks: six of them at 0, 16, `m`,
            // `m + 16`, `n - 32` and `n - 16`, with `m = min(32, n - 32)`
            // (up to 64 bytes the middle two repeat the last two), checked
            // together and then stored: one test and no loop, where a
            // loop's trip count varies with the length from one string to
            // the next (a digest, then a media type).
            if n <= 64 {
                let at = [0, 16, n - 32, n - 16];
                let blocks = at.map(|o| rd(s.add(o) as *const u128));
                if !all_blocks_clean::<I, 4>(blocks, html) {
                    return None;
                }
                for (o, block) in at.into_iter().zip(blocks) {
                    wr(d.add(o) as *mut u128, block);
                }
            } else {
                let at = [0, 16, 32, 48, n - 32, n - 16];
                let blocks = at.map(|o| rd(s.add(o) as *const u128));
                if !all_blocks_clean::<I, 6>(blocks, html) {
                    return None;
                }
                for (o, block) in at.into_iter().zip(blocks) {
                    wr(d.add(o) as *mut u128, block);
                }
            }
        } else if n >= 8 {
            let (a, z) = (rd(s as *const u64), rd(s.add(n - 8) as *const u64));
            if !block_is_clean::<I>(u128::from(a) | (u128::from(z) << 64), html) {
                return None;
            }
            wr(d as *mut u64, a);
            wr(d.add(n - 8) as *mut u64, z);
        } else if n >= 4 {
            let (a, z) = (rd(s as *const u32), rd(s.add(n - 4) as *const u32));
            if !short_word_is_clean::<I>(u64::from(a) | (u64::from(z) << 32), html) {
                return None;
            }
            wr(d as *mut u32, a);
            wr(d.add(n - 4) as *mut u32, z);
        } else if n > 0 {
            let (x0, x1, x2) = (*s, *s.add(n / 2), *s.add(n - 1));
            // 1 to 3 bytes, repeated to fill the word.
            let x = u64::from(x0) | (u64::from(x1) << 8) | (u64::from(x2) << 16);
            if !short_word_is_clean::<I>(x | (x << 24) | (x << 48), html) {
                return None;
            }
            *d = x0;
            *d.add(n / 2) = x1;
            *d.add(n - 1) = x2;
        }
        *p = b'"';
        *d.add(n) = b'"';
    }
    Some(n + 2)
}

/// Sixteen bytes (all of them bytes of the string) need no escaping.
#[inline(always)]
fn block_is_clean<I: ShortIsa>(block: u128, html: bool) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        sse2_is_clean::<I>(block, html)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        word_is_clean(block as u64, html) && word_is_clean((block >> 64) as u64, html)
    }
}

/// Two blocks of sixteen bytes (all of them bytes of the string) need no
/// escaping: one test for both.
#[inline(always)]
fn blocks_are_clean<I: ShortIsa>(a: u128, z: u128, html: bool) -> bool {
    all_blocks_clean::<I, 2>([a, z], html)
}

/// `K` blocks of sixteen bytes (all of them bytes of the string) need no
/// escaping: one test for all.
#[inline(always)]
fn all_blocks_clean<I: ShortIsa, const K: usize>(blocks: [u128; K], html: bool) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::{_mm_movemask_epi8, _mm_or_si128, _mm_setzero_si128};
        // A loop over the blocks by reference (unrolled: `K` is a
        // constant), not the array's `into_iter().fold`, which the compiler
        // left out of line with the blocks passed through memory (stored as
        // two words, loaded as one vector: a stall on every call).
        // SAFETY: SSE2 is part of the x86-64 baseline.
        unsafe {
            let mut bad = _mm_setzero_si128();
            for &b in &blocks {
                bad = _mm_or_si128(bad, sse2_dirty::<I>(b, html));
            }
            _mm_movemask_epi8(bad) == 0
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        blocks.into_iter().all(|b| block_is_clean::<I>(b, html))
    }
}

/// Sixteen bytes at once with SSE2 (part of the x86-64 baseline).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn sse2_is_clean<I: ShortIsa>(bytes: u128, html: bool) -> bool {
    // SAFETY: SSE2 is part of the x86-64 baseline.
    unsafe { core::arch::x86_64::_mm_movemask_epi8(sse2_dirty::<I>(bytes, html)) == 0 }
}

/// The lanes of a vector of string bytes that a profile may escape (all
/// ones), written once over the escape module's `Vector` (SSE2 and AVX2).
///
/// Control bytes, DEL and every byte >= 0x80 (left to the escaper: U+2028/9,
/// ascii_only) are the bytes `b` whose `b + 1` (wrapping) is below 0x21 as a
/// signed byte: one add and one compare. `"`/`&` (0x22, 0x26) differ only in
/// bit 2 and `<`/`>` (0x3C, 0x3E) only in bit 1, so forcing that bit on
/// matches each pair with one compare.
///
/// # Safety
/// The CPU supports `V`'s ISA and `I`'s level, and the caller is compiled
/// with them.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn dirty<V: Vector, I: ShortIsa>(v: V, html: bool) -> V {
    // SAFETY: lane-wise arithmetic only, with `V`'s ISA (the contract);
    // the lookups only where `V` has them or `I`'s level (SSSE3) does.
    unsafe {
        if html && (V::HAS_LOOKUP || I::LOOKUP) {
            // Two nibble lookups and their test: fewer operations than the
            // five compares of the HTML set (go and the HTML-safe profiles).
            let (lo, hi) = &crate::escape::HTML_SHORT_CHECK;
            return v.low_nibble().lookup16(lo).and(v.high_nibble().lookup16(hi)).nonzero();
        }
        let mut bad = V::splat(0x21).gt_signed(v.add(V::splat(1)));
        bad = bad.or(v.cmpeq(V::splat(b'\\')));
        if html {
            bad = bad.or(v.or(V::splat(0x04)).cmpeq(V::splat(b'&')));
            bad.or(v.or(V::splat(0x02)).cmpeq(V::splat(b'>')))
        } else {
            bad.or(v.cmpeq(V::splat(b'"')))
        }
    }
}

/// `dirty` for sixteen bytes, with SSE2 (and SSSE3's lookups where `I`
/// has them).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn sse2_dirty<I: ShortIsa>(bytes: u128, html: bool) -> core::arch::x86_64::__m128i {
    // SAFETY: SSE2 is part of the x86-64 baseline, and SSSE3 is only used
    // where `I` says the code is compiled for it (`ShortIsa`'s contract);
    // `transmute` between `u128` and `__m128i` (both 16 plain bytes) is a
    // register move.
    unsafe { dirty::<_, I>(core::mem::transmute::<u128, core::arch::x86_64::__m128i>(bytes), html) }
}

/// Whether the 32-byte blocks of `s` at 0, `mid` and `n - 32` are clean.
///
/// # Safety
/// `32 <= n`, `mid <= n - 32`, and `s..s + n` is readable; the code this
/// is inlined into is compiled for AVX2 (`I::WIDE`).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn wide_blocks_are_clean<I: ShortIsa>(s: *const u8, mid: usize, n: usize, html: bool) -> bool {
    use core::arch::x86_64::{_mm256_loadu_si256, _mm256_movemask_epi8, _mm256_or_si256};
    // SAFETY: AVX2 per the contract; each load reads 32 bytes starting at
    // most `n - 32` bytes into `s`, inside `s..s + n`.
    unsafe {
        let (a, m, z) = (_mm256_loadu_si256(s.cast()), _mm256_loadu_si256(s.add(mid).cast()), _mm256_loadu_si256(s.add(n - 32).cast()));
        let bad = _mm256_or_si256(_mm256_or_si256(dirty::<_, I>(a, html), dirty::<_, I>(m, html)), dirty::<_, I>(z, html));
        _mm256_movemask_epi8(bad) == 0
    }
}

/// Copies the 32-byte blocks of `s` at 0, `mid` and `n - 32` to the same
/// offsets at `d` (together all of `s[..n]`, when `mid >= n - 64`).
///
/// # Safety
/// `32 <= n`, `mid <= n - 32`, `s..s + n` is readable and `d..d + n`
/// writable; the code this is inlined into is compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn copy_wide_blocks(s: *const u8, d: *mut u8, mid: usize, n: usize) {
    use core::arch::x86_64::{_mm256_loadu_si256, _mm256_storeu_si256};
    // SAFETY: AVX2 per the contract; every block lies within the first `n`
    // bytes of both ranges.
    unsafe {
        for at in [0, mid, n - 32] {
            _mm256_storeu_si256(d.add(at).cast(), _mm256_loadu_si256(s.add(at).cast()));
        }
    }
}

/// Eight bytes (all of them bytes of the string) need no escaping: on
/// x86-64 the word twice in one SSE2 register (fewer instructions than
/// SWAR's per-character compares), elsewhere SWAR.
#[inline(always)]
fn short_word_is_clean<I: ShortIsa>(w: u64, html: bool) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        sse2_is_clean::<I>(u128::from(w) | (u128::from(w) << 64), html)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        word_is_clean(w, html)
    }
}

/// Eight bytes at once (SWAR, exact per lane: no carry crosses lanes).
#[inline(always)]
fn word_is_clean(w: u64, html: bool) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // A lane below 0x80 reaches the top bit when 0x60 is added iff it is >= 0x20.
    let control = !(((w & LOW7) + ONES * 0x60) | w) & HIGH;
    let eq = |c: u8| {
        let x = w ^ (ONES * u64::from(c));
        !(((x & LOW7) + LOW7) | x) & HIGH
    };
    // DEL is left to the escaper (ascii_only escapes it).
    let mut bad = (w & HIGH) | control | eq(b'"') | eq(b'\\') | eq(0x7F);
    if html {
        bad |= eq(b'<') | eq(b'>') | eq(b'&');
    }
    bad == 0
}

/// Array items written through a local cursor into room reserved once
/// (`Writer::run`): each write checks the room left and declines
/// (returns false, writing nothing) when it is short or when the item needs
/// the general path.
#[doc(hidden)]
pub struct ItemRun<'w> {
    start: *mut u8,
    at: *mut u8,
    end: *mut u8,
    html: bool,
    /// Floats are written as zmij writes them (the compact layout).
    zmij: bool,
    /// The writer's short-string entry for this CPU (`ShortCopy`), for
    /// strings longer than one 32-byte block when the build has none.
    short: ShortCopy,
    /// Objects opened less objects closed by the run (`begin_object`,
    /// `end_object`), added to the writer's depth when the run ends.
    nesting: isize,
    /// The writer's output length and depth, updated on drop.
    len: &'w mut usize,
    depth: &'w mut usize,
}

impl Drop for ItemRun<'_> {
    #[inline(always)]
    fn drop(&mut self) {
        *self.len += self.written();
        // Objects the run opened and left open stay counted.
        *self.depth = self.depth.wrapping_add_signed(self.nesting);
    }
}

impl ItemRun<'_> {
    /// The longest string `str` writes (longer ones go to the general path).
    pub const MAX_STR: usize = SHORT_STR;

    /// Bytes left.
    #[inline(always)]
    fn left(&self) -> usize {
        // SAFETY: `at` and `end` point into (or one past) the same reserved
        // range, with `at <= end`.
        unsafe { self.end.offset_from(self.at) as usize }
    }

    /// Bytes written so far.
    #[inline(always)]
    pub fn written(&self) -> usize {
        // SAFETY: as in `left`, with `start <= at`.
        unsafe { self.at.offset_from(self.start) as usize }
    }

    /// An integer item, after a `,` unless `first`.
    #[inline(always)]
    pub fn i64(&mut self, v: i64, first: bool) -> bool {
        if self.left() < 21 {
            return false;
        }
        // SAFETY: 21 bytes are left: the separator and at most 20 from `put_i64`.
        unsafe {
            *self.at = b',';
            let c = usize::from(!first);
            self.at = self.at.add(c + number::put_i64(self.at.add(c), v));
        }
        true
    }

    /// A finite float item in the compact layout, after a `,` unless
    /// `first`; false for non-finite floats and other layouts.
    #[inline(always)]
    pub fn f64(&mut self, v: f64, first: bool) -> bool {
        if self.left() < number::ZMIJ_ROOM + 1 || !self.zmij || !v.is_finite() {
            return false;
        }
        // SAFETY: `ZMIJ_ROOM + 1` bytes are left: the separator and what
        // `put_zmij` writes.
        unsafe {
            *self.at = b',';
            let c = usize::from(!first);
            self.at = self.at.add(c + number::put_zmij(self.at.add(c), v));
        }
        true
    }

    /// A string item that needs no escaping (at most `SHORT_STR` bytes of
    /// clean ASCII), after a `,` unless `first`; false for any other string.
    #[inline(always)]
    pub fn str(&mut self, s: &str, first: bool) -> bool {
        let b = s.as_bytes();
        if self.left() < SHORT_STR + 3 {
            return false;
        }
        // SAFETY: `SHORT_STR + 3` bytes are left: the separator and the
        // quoted string of at most `SHORT_STR` bytes (a declined string
        // writes within them too, and is not counted).
        unsafe {
            *self.at = b',';
            let c = usize::from(!first);
            // Past 32 bytes, a build without 32-byte blocks calls the
            // CPU's entry (AVX2: three blocks where SSE2 takes up to six);
            // shorter strings are checked in line.
            match put_quoted_if_clean_or(self.at.add(c), b, self.html, self.short) {
                Some(n) => {
                    self.at = self.at.add(c + n);
                    true
                }
                None => false,
            }
        }
    }

    /// A member name that needs no escaping (at most `SHORT_STR` bytes of
    /// clean ASCII) with its separators, `,"name":` (no `,` when `first`),
    /// as `Writer::key` writes it in an unindented layout; its value follows
    /// as an item written `first`. False, counting nothing written, for any
    /// other name or when the run is short of room.
    #[inline(always)]
    pub fn key(&mut self, name: &str, first: bool) -> bool {
        if self.left() < SHORT_STR + 4 {
            return false;
        }
        // SAFETY: `SHORT_STR + 4` bytes are left: the separator, the quoted
        // name of at most `SHORT_STR` bytes and the colon (a declined name
        // writes within them too, and is not counted).
        unsafe {
            *self.at = b',';
            let c = usize::from(!first);
            match put_quoted_if_clean(self.at.add(c), name.as_bytes(), self.html) {
                Some(n) => {
                    *self.at.add(c + n) = b':';
                    self.at = self.at.add(c + n + 1);
                    true
                }
                None => false,
            }
        }
    }

    /// `{`, after a `,` when `comma`: an object whose members follow as
    /// `name` and value pairs, closed by `end_object` in this run or, when
    /// the run ends first, by the writer's `end_object`. The caller checks
    /// the depth limit, as `Writer::begin_object`'s callers do.
    #[inline(always)]
    pub fn begin_object(&mut self, comma: bool) -> bool {
        if self.left() < 2 {
            return false;
        }
        // SAFETY: two bytes are left: the separator (kept when `comma`) and `{`.
        unsafe {
            *self.at = b',';
            let c = usize::from(comma);
            *self.at.add(c) = b'{';
            self.at = self.at.add(c + 1);
        }
        self.nesting += 1;
        true
    }

    /// `}`: ends an object (opened by this run's `begin_object` or by the
    /// writer's).
    #[inline(always)]
    pub fn end_object(&mut self) -> bool {
        if self.left() < 1 {
            return false;
        }
        // SAFETY: one byte is left.
        unsafe {
            *self.at = b'}';
            self.at = self.at.add(1);
        }
        self.nesting -= 1;
        true
    }

    /// A member name encoded by `Writer::encode_name` (`names[at..at + len]`,
    /// its separator left out when `first`), as `Writer::encoded_key`
    /// writes it; its value follows as an item written `first` (no
    /// separator). With `NAME_WINDOW` spare bytes after the name in `names`,
    /// a short name is one fixed-size move.
    #[inline(always)]
    pub fn name(&mut self, names: &[u8], at: usize, len: usize, first: bool) -> bool {
        let (from, n, windowed) = name_span(names, at, len, first);
        if windowed {
            if self.left() < NAME_WINDOW {
                return false;
            }
            // SAFETY: `NAME_WINDOW` bytes are left and `names` has them
            // from `from`; only the first `n` (the name) count as written,
            // the rest is overwritten by what follows or lies past the
            // length the run reports.
            unsafe {
                std::ptr::copy_nonoverlapping(names.as_ptr().add(from), self.at, NAME_WINDOW);
                self.at = self.at.add(n);
            }
            return true;
        }
        let name = &names[from..from + n];
        if self.left() < n {
            return false;
        }
        // SAFETY: `n` bytes are left.
        unsafe {
            crate::pool::copy_bytes(self.at, name);
            self.at = self.at.add(n);
        }
        true
    }

    /// A literal item, after a `,` unless `first`.
    #[inline(always)]
    pub fn literal(&mut self, literal: Literal, first: bool) -> bool {
        if self.left() < 9 {
            return false;
        }
        let (bytes, len) = literal.padded();
        // SAFETY: 9 bytes are left: the separator and eight stored bytes, of
        // which the first `len` are the literal (the rest is overwritten by
        // what follows, or lies past the length the run reports).
        unsafe {
            *self.at = b',';
            let c = usize::from(!first);
            self.at.add(c).cast::<[u8; 8]>().write_unaligned(bytes);
            self.at = self.at.add(c + len);
        }
        true
    }
}

/// Marks where an object being sorted starts in the buffer and the stacks.
#[derive(Clone, Copy, Debug)]
#[doc(hidden)]
pub struct SortedObject {
    start: usize,
    first_member: usize,
    first_key: usize,
}

struct Member {
    key: MemberKey,
    /// The member's bytes in the buffer: key, colon and value (no separator).
    span: std::ops::Range<usize>,
}

enum MemberKey {
    Static(&'static str),
    /// Unescaped key bytes in `SortStacks::keys`.
    Owned {
        at: usize,
        len: usize,
    },
}

impl MemberKey {
    #[inline]
    fn bytes<'a>(&'a self, arena: &'a [u8]) -> &'a [u8] {
        match *self {
            MemberKey::Static(k) => k.as_bytes(),
            MemberKey::Owned { at, len, .. } => &arena[at..at + len],
        }
    }
}

/// A JSON literal written whole (`Writer::item_literal`).
#[doc(hidden)]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Literal {
    Null,
    True,
    False,
    EmptyArray,
    EmptyObject,
}

impl Literal {
    /// The literal's bytes padded to eight, and its length.
    #[inline(always)]
    fn padded(self) -> ([u8; 8], usize) {
        match self {
            Literal::Null => (*b"null\0\0\0\0", 4),
            Literal::True => (*b"true\0\0\0\0", 4),
            Literal::False => (*b"false\0\0\0", 5),
            Literal::EmptyArray => (*b"[]\0\0\0\0\0\0", 2),
            Literal::EmptyObject => (*b"{}\0\0\0\0\0\0", 2),
        }
    }
}

#[cfg(test)]
mod short_str_tests {
    use super::{put_quoted_if_clean, put_quoted_if_clean_or, short_and_clean, ShortCopy, SHORT_STR};
    use crate::escape::{EscapeSet, Escaper};

    #[test]
    fn short_and_clean_agrees_with_the_escaper() {
        for html in [false, true] {
            let reference = Escaper::scalar(EscapeSet { html, line_separators: true, ascii_only: false });
            for n in 0usize..=SHORT_STR + 2 {
                for byte in 0u8..=0xFF {
                    for pos in [0, n / 3, n / 2, n.saturating_sub(17), n.saturating_sub(16), n.saturating_sub(9), n.saturating_sub(1)] {
                        let mut v = vec![b'a'; n];
                        if n > 0 {
                            v[pos] = byte;
                        }
                        // Every byte >= 0x80 (of any character or none) is
                        // left to the escaper, as is DEL (ascii_only escapes it).
                        let expected = n <= SHORT_STR
                            && std::str::from_utf8(&v).is_ok_and(|s| s.is_ascii() && !reference.needs_escape(s) && !s.contains('\x7f'));
                        assert_eq!(short_and_clean(&v, html), expected, "html={html} {v:?}");
                    }
                }
                if n > 0 {
                    // Non-ASCII text always goes to the escaper.
                    let s = "é".repeat(n.div_ceil(2));
                    assert!(!short_and_clean(s.as_bytes(), html));
                }
            }
        }
    }

    /// A short-string check and copy: `put_quoted_if_clean` for one set.
    type Put = Box<dyn Fn(*mut u8, &[u8]) -> Option<usize>>;

    /// The fused check-and-copy writes exactly what `short_and_clean` and a
    /// quoted copy would, declines exactly what it declines, and never
    /// writes past the quoted string: in line as the build compiles it, and
    /// every `ShortCopy` entry this CPU runs.
    #[test]
    fn put_quoted_if_clean_agrees_with_short_and_clean() {
        for html in [false, true] {
            let (build, avx2) = ShortCopy::levels(html);
            // The build's own check in line, then every `ShortCopy` entry
            // this CPU runs (the writer's `str` calls the best).
            // SAFETY (every closure): every call below passes an `out` with
            // room for `v.len() + 2` bytes and more, the entries' contract;
            // `levels` offers only entries this CPU runs.
            let inline = move |p: *mut u8, v: &[u8]| unsafe { put_quoted_if_clean(p, v, html) };
            // The run's inline check with the best entry for long strings.
            let best = ShortCopy::new(html);
            let inline_or = move |p: *mut u8, v: &[u8]| unsafe { put_quoted_if_clean_or(p, v, html, best) };
            let mut entries: Vec<(&str, Put)> = vec![("inline", Box::new(inline)), ("inline_or", Box::new(inline_or))];
            for (name, entry) in [("build", Some(build)), ("avx2", avx2)] {
                if let Some(e) = entry {
                    entries.push((name, Box::new(move |p: *mut u8, v: &[u8]| unsafe { e.put(p, v) })));
                }
            }
            for (entry, put) in &entries {
                for n in 0usize..=SHORT_STR + 2 {
                    for byte in
                        [b'a', 0x00, 0x1F, b'"', b'\\', b'<', b'>', b'&', 0x7F, 0x20, b'~', b'#', b'\'', b'=', b'?', 0x80, 0xE2, 0xFF]
                    {
                        // Every position: the blocks overlap differently
                        // at each length.
                        for pos in 0..n.max(1) {
                            let mut v: Vec<u8> = (0..n).map(|i| b'a' + (i % 26) as u8).collect();
                            if n > 0 {
                                v[pos] = byte;
                            }
                            let mut out = vec![0xEEu8; n + 2 + 40];
                            // `out` has n + 2 bytes and more (the entries' contract).
                            let got = put(out.as_mut_ptr(), &v);
                            assert!(out[n + 2..].iter().all(|&b| b == 0xEE), "wrote past the end: {entry} n={n} html={html}");
                            if short_and_clean(&v, html) {
                                assert_eq!(got, Some(n + 2), "{entry} n={n} html={html} {v:?}");
                                assert_eq!(out[0], b'"');
                                assert_eq!(&out[1..n + 1], &v[..]);
                                assert_eq!(out[n + 1], b'"');
                            } else {
                                assert_eq!(got, None, "{entry} n={n} html={html} {v:?}");
                            }
                        }
                    }
                    if n > 0 {
                        let s = "é".repeat(n.div_ceil(2));
                        let mut out = vec![0u8; s.len() + 2];
                        // `out` has s.len() + 2 bytes.
                        assert_eq!(put(out.as_mut_ptr(), s.as_bytes()), None, "{entry}");
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod restart_tests {
    use super::Writer;
    use crate::options::{KeyOrder, Profile, WriteOptions};

    #[test]
    fn a_restarted_writer_writes_the_next_document_alone() {
        for profile in [Profile::Compact, Profile::Go, Profile::Jcs] {
            let mut w = Writer::with_style(WriteOptions::new(profile).style());
            for round in 0..3 {
                let obj = w.begin_sorted_object();
                w.sorted_key(&obj, "b").unwrap();
                w.i64(round).unwrap();
                w.sorted_value_done(&obj);
                w.sorted_key(&obj, "a").unwrap();
                w.bool(true);
                w.sorted_value_done(&obj);
                w.end_sorted_object(obj, KeyOrder::Utf8).unwrap();
                let want = format!("{{\"a\":true,\"b\":{round}}}");
                assert_eq!(w.as_bytes(), want.as_bytes(), "{profile:?}");
                assert!(w.restart());
                assert_eq!(w.as_bytes(), b"");
            }
        }
    }

    #[test]
    fn an_unfinished_document_is_not_restarted() {
        let mut w = Writer::with_style(WriteOptions::new(Profile::Compact).style());
        w.begin_array();
        w.array_item(true);
        w.null();
        assert!(!w.restart(), "an open array");
        assert_eq!(w.as_bytes(), b"[null");
        let mut w = Writer::with_style(WriteOptions::new(Profile::Go).style());
        let obj = w.begin_sorted_object();
        w.sorted_key(&obj, "k").unwrap();
        w.null();
        w.sorted_value_done(&obj);
        assert!(!w.restart(), "a sorted object pending");
    }

    #[test]
    fn a_discarded_document_leaves_nothing_behind() {
        for profile in [Profile::Compact, Profile::Go, Profile::Jcs] {
            let mut w = Writer::with_style(WriteOptions::new(profile).style());
            // Given up inside a sorted object inside an array.
            w.begin_array();
            w.array_item(true);
            let obj = w.begin_sorted_object();
            w.sorted_key(&obj, "z").unwrap();
            w.i64(1).unwrap();
            w.sorted_value_done(&obj);
            w.sorted_key(&obj, "y").unwrap();
            let _ = obj; // given up: never ended
            assert!(w.depth() == 2 && !w.restart());
            assert!(w.discard_document(), "{profile:?}");
            assert_eq!((w.as_bytes(), w.depth()), (&b""[..], 0));
            // The next document is written alone, and may nest to the limit.
            let obj = w.begin_sorted_object();
            w.sorted_key(&obj, "b").unwrap();
            w.i64(2).unwrap();
            w.sorted_value_done(&obj);
            w.sorted_key(&obj, "a").unwrap();
            w.null();
            w.sorted_value_done(&obj);
            w.end_sorted_object(obj, KeyOrder::Utf8).unwrap();
            assert_eq!(w.as_bytes(), b"{\"a\":null,\"b\":2}", "{profile:?}");
            assert!(w.restart());
            let limit = w.style().max_write_depth;
            for _ in 0..limit {
                w.check_nesting().unwrap();
                w.begin_array();
            }
            assert!(w.check_nesting().is_err());
        }
    }
}

/// The width of the fixed-size move `Writer::encoded_key` uses for short names.
#[doc(hidden)]
pub const NAME_WINDOW: usize = 32;

/// Where an encoded name (`names[at..at + len]`, from `Writer::encode_name`)
/// is written from and how many bytes: its separator left out when
/// `first`. The third value says whether it is short enough, with
/// `NAME_WINDOW` bytes of `names` from there, to be one fixed-size move
/// (`Writer::encoded_key`, `ItemRun::name`).
#[inline(always)]
fn name_span(names: &[u8], at: usize, len: usize, first: bool) -> (usize, usize, bool) {
    let from = at + usize::from(first);
    let n = at + len - from;
    (from, n, n <= NAME_WINDOW && from + NAME_WINDOW <= names.len())
}

#[cfg(test)]
mod encoded_key_tests {
    use super::Writer;
    use crate::options::WriteOptions;

    /// An object of `keys` (values 1) written with `key`.
    fn with_key(options: &WriteOptions, keys: &[&str]) -> Vec<u8> {
        let mut w = Writer::new(options);
        w.begin_object();
        for (i, k) in keys.iter().enumerate() {
            w.key(k, i == 0).unwrap();
            w.i64(1).unwrap();
        }
        w.end_object(keys.is_empty());
        w.as_bytes().to_vec()
    }

    /// The same object with names encoded once by `encode_name` and written
    /// by `encoded_key` (`pad` spare bytes after the last name: with none,
    /// the last names take the exact-length copy).
    fn with_encoded_names(options: &WriteOptions, keys: &[&str], pad: usize) -> Vec<u8> {
        let mut w = Writer::new(options);
        let mut names = Vec::new();
        let spans: Vec<(usize, usize)> = keys
            .iter()
            .map(|k| {
                let at = names.len();
                (at, w.encode_name(k, &mut names))
            })
            .collect();
        names.resize(names.len() + pad, b'#');
        w.begin_object();
        for (i, &(at, len)) in spans.iter().enumerate() {
            w.encoded_key(&names, at, len, i == 0);
            w.i64(1).unwrap();
        }
        w.end_object(keys.is_empty());
        w.as_bytes().to_vec()
    }

    #[test]
    fn encoded_names_write_what_key_writes() {
        // Names around the window's width: 28 bytes encode to 32 with their
        // separators, 29 to 33 (32 as the first member, which has no comma).
        let (w28, w29) = ("n".repeat(28), "m".repeat(29));
        let keys = [
            w29.as_str(),
            "a",
            "",
            "<tag>&",
            w28.as_str(),
            "quote\"back\\slash",
            "ctl\u{1}",
            "é\u{2028}😂",
            "a-rather-long-member-name-over-32-bytes",
            &w29,
            &w28,
        ];
        for options in [
            WriteOptions::compact(),
            WriteOptions::go(),
            WriteOptions::jcs(),
            WriteOptions::go().indent(2),
            WriteOptions::compact().ascii_only(true),
        ] {
            for n in 0..=keys.len() {
                let plain = with_key(&options, &keys[..n]);
                for pad in [0, 5, super::NAME_WINDOW] {
                    let cached = with_encoded_names(&options, &keys[..n], pad);
                    assert_eq!(String::from_utf8_lossy(&plain), String::from_utf8_lossy(&cached), "{n} names, pad {pad}");
                }
                assert!(n < 4 || plain.windows(6).any(|w| w == b"\\u003c") == options.style().escaper.set().html);
            }
        }
    }
}

#[cfg(test)]
mod item_tests {
    use super::Writer;
    use crate::options::{NonFinite, WriteOptions};

    #[test]
    fn fused_items_write_what_separate_calls_write() {
        let ints = [0i64, -1, 7, 1 << 53, (1 << 53) + 1, i64::MIN, i64::MAX];
        let floats = [0.0, -0.0, 1.5, 1e21, 1e-7, f64::NAN, 123456.789];
        let strs = ["", "a", "<&>", "quote\"", "é", "a string well over thirty-two bytes long"];
        for options in [
            WriteOptions::compact(),
            WriteOptions::compact().non_finite(NonFinite::Null),
            WriteOptions::go(),
            WriteOptions::jcs(),
            WriteOptions::compact().indent(2),
        ] {
            let (mut fused, mut plain) = (Writer::new(&options), Writer::new(&options));
            fused.begin_array();
            plain.begin_array();
            let mut first = true;
            for &v in &ints {
                let (a, b) = (fused.item_i64(v, first), {
                    plain.array_item(first);
                    plain.i64(v)
                });
                assert_eq!(a.is_ok(), b.is_ok());
                first = false;
            }
            for &v in &floats {
                let (a, b) = (fused.item_f64(v, first), {
                    plain.array_item(first);
                    plain.f64(v)
                });
                assert_eq!(a.is_ok(), b.is_ok(), "{v}");
            }
            for s in strs {
                fused.item_str(s, first).unwrap();
                plain.array_item(first);
                plain.str(s).unwrap();
            }
            fused.end_array(false);
            plain.end_array(false);
            assert_eq!(String::from_utf8_lossy(fused.as_bytes()), String::from_utf8_lossy(plain.as_bytes()));
        }
    }
}

#[cfg(test)]
mod literal_item_tests {
    use super::{Literal, Writer};
    use crate::options::WriteOptions;

    fn literal_bytes(l: Literal) -> &'static [u8] {
        match l {
            Literal::Null => b"null",
            Literal::True => b"true",
            Literal::False => b"false",
            Literal::EmptyArray => b"[]",
            Literal::EmptyObject => b"{}",
        }
    }

    #[test]
    fn literal_items_write_what_separator_and_literal_write() {
        for options in [WriteOptions::compact(), WriteOptions::go(), WriteOptions::compact().indent(3)] {
            let all = [Literal::Null, Literal::True, Literal::False, Literal::EmptyArray, Literal::EmptyObject];
            let mut fused = Writer::new(&options);
            let mut plain = Writer::new(&options);
            fused.begin_array();
            plain.begin_array();
            for i in 0..40 {
                let l = all[(i * 7 + i / 5) % all.len()];
                fused.item_literal(l, i == 0);
                plain.array_item(i == 0);
                plain.verbatim(literal_bytes(l));
            }
            fused.end_array(false);
            plain.end_array(false);
            assert_eq!(String::from_utf8_lossy(fused.as_bytes()), String::from_utf8_lossy(plain.as_bytes()));
        }
    }
}

#[cfg(test)]
mod item_run_tests {
    use super::{IntegerPolicy, Literal, Writer, NAME_WINDOW};
    use crate::options::WriteOptions;

    #[derive(Clone, Copy, Debug)]
    enum Item {
        Int(i64),
        Float(f64),
        Str(&'static str),
        Lit(Literal),
    }

    /// One item written by the general calls, after a `,` unless `first`
    /// (a member value is an item written `first`: no separator).
    fn plain_item(w: &mut Writer, item: Item, first: bool) {
        let _ = match item {
            Item::Int(v) => w.item_i64(v, first),
            Item::Float(v) => w.item_f64(v, first),
            Item::Str(s) => w.item_str(s, first),
            Item::Lit(l) => {
                w.item_literal(l, first);
                Ok(())
            }
        };
    }

    /// Items written through runs of `room` bytes (a declined item through
    /// the general calls) give what the general calls alone give, and a
    /// run never reports more than its room.
    #[test]
    fn runs_write_what_item_calls_write() {
        let pool = [
            Item::Int(0),
            Item::Int(-7),
            Item::Int(337_184_262),
            Item::Int(i64::MIN),
            Item::Int(i64::MAX),
            Item::Float(1.5),
            Item::Float(-0.0),
            Item::Float(1e300),
            Item::Float(f64::NAN),
            Item::Str(""),
            Item::Str("a"),
            Item::Str("<&>"),
            Item::Str("quote\""),
            Item::Str("é"),
            Item::Str("exactly thirty-two bytes long..."),
            Item::Str("a string well over thirty-two bytes long"),
            Item::Lit(Literal::Null),
            Item::Lit(Literal::True),
            Item::Lit(Literal::False),
        ];
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        for options in [WriteOptions::compact(), WriteOptions::go(), WriteOptions::go().escape_html(false), WriteOptions::jcs()] {
            for room in [0usize, 9, 21, 34, 35, 36, 64, 1024] {
                let items: Vec<Item> = (0..300)
                    .map(|_| {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        pool[(x % pool.len() as u64) as usize]
                    })
                    .collect();
                let (mut runs, mut plain) = (Writer::new(&options), Writer::new(&options));
                // jcs writes integers as doubles: no runs.
                assert_eq!(runs.runs_items(), options.style().integers != IntegerPolicy::Double);
                if !runs.runs_items() {
                    continue;
                }
                runs.begin_array();
                plain.begin_array();
                let mut i = 0;
                while i < items.len() {
                    let next = runs.item_run(room, |run| {
                        let mut j = i;
                        while j < items.len() {
                            let ok = match items[j] {
                                Item::Int(v) => run.i64(v, j == 0),
                                Item::Float(v) => run.f64(v, j == 0),
                                Item::Str(s) => run.str(s, j == 0),
                                Item::Lit(l) => run.literal(l, j == 0),
                            };
                            if !ok {
                                break;
                            }
                            j += 1;
                        }
                        assert!(run.written() <= room);
                        j
                    });
                    if next > i {
                        i = next;
                        continue;
                    }
                    plain_item(&mut runs, items[i], i == 0);
                    i += 1;
                }
                for (j, &item) in items.iter().enumerate() {
                    plain_item(&mut plain, item, j == 0);
                }
                runs.end_array(false);
                plain.end_array(false);
                assert_eq!(String::from_utf8_lossy(runs.as_bytes()), String::from_utf8_lossy(plain.as_bytes()), "room {room}");
            }
        }
    }

    /// Objects written through runs (`begin_object`, `name`, values,
    /// `end_object`; whatever a run declines, and the rest of the object
    /// when it runs out of room, through the general calls, as the Python
    /// binding does) give what `begin_object`, `encoded_key`, the values
    /// and `end_object` give, and leave the depth as it was.
    #[test]
    fn object_runs_write_what_member_calls_write() {
        let values = [
            Item::Int(205_705_999),
            Item::Int(-3),
            Item::Float(2.5),
            Item::Float(f64::NAN),
            Item::Str("short"),
            Item::Str("<&>"),
            Item::Str("a string well over thirty-two bytes long"),
            Item::Lit(Literal::Null),
            Item::Lit(Literal::EmptyArray),
        ];
        let long = "k".repeat(40);
        let keys = ["areaId", "blockIds", "", "<tag>", long.as_str(), "é"];
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = |m: usize| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % m as u64) as usize
        };
        for options in [WriteOptions::compact(), WriteOptions::go()] {
            for room in [0usize, 1, 2, 9, 40, 80, 1024] {
                for _ in 0..40 {
                    let n = 1 + next(keys.len());
                    let members: Vec<(&str, Item)> = (0..n).map(|i| (keys[i], values[next(values.len())])).collect();
                    let comma = next(2) == 1;
                    let (mut runs, mut plain) = (Writer::new(&options), Writer::new(&options));
                    let mut names = Vec::new();
                    let spans: Vec<(usize, usize)> = members.iter().map(|(k, _)| (names.len(), runs.encode_name(k, &mut names))).collect();
                    names.resize(names.len() + NAME_WINDOW, 0);
                    for w in [&mut runs, &mut plain] {
                        w.begin_array();
                        w.item_literal(Literal::Null, true);
                    }
                    // The general calls.
                    plain.array_item(!comma);
                    plain.begin_object();
                    for (i, &(at, len)) in spans.iter().enumerate() {
                        plain.encoded_key(&names, at, len, i == 0);
                        plain_item(&mut plain, members[i].1, true);
                    }
                    plain.end_object(false);
                    // Runs, restarted after each declined member.
                    let (mut pos, mut open, mut closed) = (0, false, false);
                    while !closed {
                        let mut run = runs.run(room);
                        let mut named = false;
                        if !open && run.begin_object(comma) {
                            open = true;
                        }
                        while open && pos < n {
                            let (at, len) = spans[pos];
                            if !run.name(&names, at, len, pos == 0) {
                                break;
                            }
                            let ok = match members[pos].1 {
                                Item::Int(v) => run.i64(v, true),
                                Item::Float(v) => run.f64(v, true),
                                Item::Str(s) => run.str(s, true),
                                Item::Lit(l) => run.literal(l, true),
                            };
                            if !ok {
                                named = true;
                                break;
                            }
                            pos += 1;
                        }
                        if open && pos == n {
                            closed = run.end_object();
                        }
                        assert!(run.written() <= room);
                        drop(run);
                        if closed {
                            break;
                        }
                        if !open {
                            runs.array_item(!comma);
                            runs.begin_object();
                            open = true;
                        }
                        if pos == n {
                            runs.end_object(false);
                            break;
                        }
                        if !named {
                            let (at, len) = spans[pos];
                            runs.encoded_key(&names, at, len, pos == 0);
                        }
                        plain_item(&mut runs, members[pos].1, true);
                        pos += 1;
                    }
                    assert_eq!(runs.depth(), plain.depth(), "room {room}");
                    assert_eq!(String::from_utf8_lossy(runs.as_bytes()), String::from_utf8_lossy(plain.as_bytes()), "room {room}");
                }
            }
        }
    }

    /// A name written by a run's `key` is what `Writer::key` writes, with
    /// and without the separator; a declined name (one that needs escaping,
    /// is not ASCII or is too long, or a run short of room) counts nothing.
    #[test]
    fn run_keys_write_what_key_writes() {
        let long = "k".repeat(super::SHORT_STR);
        let longer = "k".repeat(super::SHORT_STR + 1);
        let keys = [
            "",
            "a",
            "areaId",
            "<tag>",
            "a&b",
            "quote\"",
            "back\\slash",
            "tab\t",
            "del\x7f",
            "é",
            "line\u{2028}",
            long.as_str(),
            longer.as_str(),
        ];
        for options in [WriteOptions::compact(), WriteOptions::go(), WriteOptions::go().escape_html(false)] {
            for room in [0usize, 3, super::SHORT_STR + 3, super::SHORT_STR + 4, 1024] {
                for key in keys {
                    for first in [true, false] {
                        let (mut runs, mut plain) = (Writer::new(&options), Writer::new(&options));
                        runs.begin_object();
                        plain.begin_object();
                        plain.key(key, first).unwrap();
                        let (ok, written) = {
                            let mut run = runs.run(room);
                            let ok = run.key(key, first);
                            (ok, run.written())
                        };
                        assert!(written <= room);
                        if ok {
                            assert_eq!(
                                String::from_utf8_lossy(runs.as_bytes()),
                                String::from_utf8_lossy(plain.as_bytes()),
                                "{key:?} room {room}"
                            );
                        } else {
                            assert_eq!(written, 0, "{key:?} room {room}");
                            assert_eq!(runs.as_bytes(), b"{");
                            // Only names the general path escapes, or runs
                            // short of room, are declined.
                            let clean = key.len() <= super::SHORT_STR
                                && key.bytes().all(|b| (0x20..0x7f).contains(&b) && b != b'"' && b != b'\\')
                                && !(options.style().escaper.set().html && key.contains(['<', '>', '&']));
                            assert!(!clean || room < super::SHORT_STR + 4, "{key:?} declined, room {room}");
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod pooled_stack_tests {
    use super::Writer;
    use crate::options::WriteOptions;
    use std::collections::{BTreeMap, HashMap};

    /// The sorted-object stacks are taken from the thread's pool and given
    /// back when a writer is dropped, also one dropped in the middle of a
    /// sorted object by a failed write: every later write starts from empty
    /// stacks and gives the bytes a fresh thread would.
    #[test]
    fn pooled_sort_stacks_start_empty_after_any_write() {
        let go = WriteOptions::go();
        let ok: HashMap<String, Vec<BTreeMap<&str, f64>>> =
            (0..300).map(|i| (format!("k{}", (i * 7919) % 300), vec![[("b", 1.5), ("a", i as f64)].into_iter().collect()])).collect();
        let want = {
            let sorted: BTreeMap<&String, _> = ok.iter().collect();
            crate::to_vec_with(&sorted, &go).unwrap()
        };
        let bad: HashMap<&str, f64> = [("z", 1.0), ("y", f64::NAN), ("x", 2.0)].into_iter().collect();
        for round in 0..4 {
            assert!(crate::to_vec_with(&ok, &go).unwrap() == want, "round {round}");
            assert!(crate::to_vec_with(&bad, &go).is_err());
            // Nested inside a larger sorted map, failing deep inside.
            let nested: HashMap<&str, &HashMap<&str, f64>> = [("p", &bad), ("q", &bad)].into_iter().collect();
            assert!(crate::to_vec_with(&nested, &go).is_err());
            // A writer that takes the pooled stacks finds them empty.
            let mut w = Writer::new(&go);
            let obj = w.begin_sorted_object();
            w.sorted_key(&obj, "b").unwrap();
            w.null();
            w.sorted_value_done(&obj);
            w.sorted_key(&obj, "a").unwrap();
            w.bool(false);
            w.sorted_value_done(&obj);
            w.end_sorted_object(obj, crate::options::KeyOrder::Utf8).unwrap();
            assert_eq!(w.as_bytes(), br#"{"a":false,"b":null}"#);
            assert!(w.restart(), "round {round}: the pooled stacks held members");
            assert!(crate::to_vec_with(&ok, &go.clone().zero_buffers(true)).unwrap() == want, "round {round}, zeroing");
        }
    }
}
