//! Small outputs: one writer per profile for calls with its default
//! options, and a few for other options (`sort_keys=True`, an indent, ...),
//! kept between calls.
//!
//! Making a writer for every call (its fields, the boxed output memory,
//! moving it into `finish_into_memory`, handing the memory back) was about
//! half of what a `dumps` of a small value cost. A kept writer is only
//! emptied (`Writer::restart`); it writes into its own buffer, and the
//! result `bytes` is made from it at its exact size, as the staging buffer
//! of `output.rs` does for small outputs. Large outputs (expected from the
//! last output, of any thread, `fits`) still go straight into the result
//! object (`output.rs`): copying them would cost more than the writer's
//! set-up.

use std::cell::UnsafeCell;
use std::ptr::NonNull;

use jetjson::{NoSink, OutputMemory, Profile, Style, Writer};
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use super::fail::Fail;
use super::holes::{Holes, DEFER_AT};
use super::{output, write_object_in, Walking};

/// Outputs expected to be at most this long (from the last output, of any
/// thread, plus a quarter) are written in a kept writer and copied; longer
/// ones straight into the result object. The copy costs less than making a
/// writer up to here: an envelope around a 1.6 KiB `Raw.unchecked` payload
/// took 1.16x less time than written in place.
pub const EXPECTED_UP_TO: usize = 8192;

/// Whether the next output is expected small enough for a kept writer.
pub fn fits() -> bool {
    output::expects_at_most(EXPECTED_UP_TO)
}

/// A writer whose output was longer than this is not kept (its buffer
/// would stay that large).
const KEEP_UP_TO: usize = 64 * 1024;

/// A kept writer's output moves into a result `bytes` object
/// (`output::BytesMemory`) when its memory would grow beyond this: an
/// output expected small that turns out large (the first call of a process,
/// or one after small ones) is then written in place like any large one,
/// instead of being copied whole into the result at the end, which made
/// the peak memory twice the output (300 MB written, 600 MB held). The move
/// copies at most this much, once.
const MOVE_AT: usize = 1024 * 1024;

/// A kept writer's memory: a `Vec` that grows with `try_reserve`, and
/// unwinds with `output::OutOfMemory` when it cannot (a Rust allocation
/// failure would abort the process), to be caught where the call writes
/// (`write`, `write_with_holes`; the quick paths grow it before they write,
/// `reserve`) and raised as MemoryError. Beyond `MOVE_AT` bytes the output
/// moves into `large` and grows there (a writer whose memory moved is not
/// kept: `moved`).
#[derive(Default)]
struct KeptMemory {
    vec: Vec<u8>,
    large: Option<output::BytesMemory>,
}

// SAFETY: the storage returned is the Vec's allocation, of the returned
// capacity (at least `min_capacity`); growing keeps its first `len` bytes
// (the Vec's length is set to them first), and moving them into `large`
// copies them there first (`BytesMemory::holding`), whose own growth keeps
// them (its `OutputMemory` contract); only the writer that owns this memory
// touches it.
unsafe impl OutputMemory for KeptMemory {
    fn grow(&mut self, len: usize, min_capacity: usize) -> (NonNull<u8>, usize) {
        if let Some(large) = &mut self.large {
            return large.grow(len, min_capacity);
        }
        debug_assert!(len <= self.vec.capacity() && len <= min_capacity);
        // SAFETY: the writer wrote the first `len` bytes of this storage
        // (`OutputMemory::grow`'s contract), within the capacity.
        unsafe { self.vec.set_len(len) };
        if min_capacity > MOVE_AT {
            return self.move_out(min_capacity);
        }
        if self.vec.try_reserve_exact(min_capacity - len).is_err() {
            output::unwind_out_of_memory(min_capacity);
        }
        let cap = self.vec.capacity();
        // A Vec's pointer is never null.
        (NonNull::new(self.vec.as_mut_ptr()).unwrap_or(NonNull::dangling()), cap)
    }

    fn into_any(self: Box<Self>) -> Box<dyn std::any::Any> {
        self
    }
}

impl KeptMemory {
    /// Moves the output (the Vec's length) into a result object with room
    /// for `min_capacity` bytes, which the writer goes on in (`MOVE_AT`).
    #[cold]
    #[inline(never)]
    fn move_out(&mut self, min_capacity: usize) -> (NonNull<u8>, usize) {
        let (large, at, cap) = output::BytesMemory::holding(&self.vec, min_capacity);
        self.vec = Vec::new();
        self.large = Some(large);
        (at, cap)
    }
}

/// Whether `w`'s output moved into a result object (`MOVE_AT`): its
/// capacity is beyond what a kept writer's Vec grows to.
#[inline(always)]
fn moved(w: &Writer<NoSink>) -> bool {
    w.as_bytes().len() + w.spare() > MOVE_AT
}

/// The result of a writer whose memory moved (`moved`): the object it was
/// written in, made to size (`BytesMemory::take_bytes`), with no copy. The
/// writer is dropped, not kept.
#[cold]
#[inline(never)]
fn take_large(py: Python<'_>, w: Box<Writer<NoSink>>) -> Result<Bound<'_, PyBytes>, Fail> {
    let (memory, len) = (*w).finish_into_memory().map_err(Fail::core)?;
    let Ok(mut kept) = memory.into_any().downcast::<KeptMemory>() else {
        return Err(Fail::msg("jetjson.dumps: the writer's memory is not the one given"));
    };
    match kept.large.take() {
        Some(mut large) => large.take_bytes(py, len).map_err(Fail::py),
        // Never moved after all (the Vec grew beyond `MOVE_AT` by itself):
        // copied, as for any kept writer.
        None => {
            // SAFETY: the writer wrote `len` bytes at the start of the Vec's
            // allocation (within its capacity), initialised.
            let out = unsafe { std::slice::from_raw_parts(kept.vec.as_ptr(), len) };
            let bytes = bytes_of(py, out)?;
            output::wrote(len);
            // SAFETY: a new bytes object whose one reference we hand over.
            Ok(unsafe { Bound::from_owned_ptr(py, bytes).cast_into_unchecked::<PyBytes>() })
        }
    }
}

/// A new bytes object holding a copy of `out`; when it cannot be made,
/// the error says the size asked for (`no_memory_for`).
#[inline(always)]
fn bytes_of(py: Python<'_>, out: &[u8]) -> Result<*mut ffi::PyObject, Fail> {
    // SAFETY: `out` is `out.len()` initialised bytes; CPython copies them
    // into a new bytes object of that size (null with MemoryError set on
    // failure). No Python code runs.
    let bytes = unsafe { ffi::PyBytes_FromStringAndSize(out.as_ptr().cast(), out.len() as ffi::Py_ssize_t) };
    if bytes.is_null() {
        return Err(no_memory_for(py, out.len()));
    }
    Ok(bytes)
}

/// The result object of `len` bytes could not be made: CPython's bare
/// MemoryError replaced by one that says what was asked for.
#[cold]
#[inline(never)]
fn no_memory_for(py: Python<'_>, len: usize) -> Fail {
    drop(PyErr::take(py));
    Fail::no_memory(len)
}

/// A new writer for a kept slot, writing into a `KeptMemory`; `Err` with
/// the size asked for when its first memory cannot be made (the writer
/// grows it as it is made, and that growth unwinds: caught here, because
/// callers make it before their own catch, or in a quick path, which no
/// unwind may leave).
#[cold]
#[inline(never)]
fn new_writer(style: Style) -> Result<Box<Writer<NoSink>>, usize> {
    output::catching_growth(|| Box::new(Writer::with_style_and_memory(style, Box::new(KeptMemory::default()))))
}

/// Grows `w`'s buffer, if needed, so that `room` more bytes fit; false
/// (with the writer dropped, and no exception set) when memory runs out.
/// The quick paths call it before they write, so that no growth unwinds
/// out of them (they run inside a C function, `fast.rs`, which an unwind
/// must not cross).
#[inline(always)]
fn reserve(w: &mut Box<Writer<NoSink>>, room: usize) -> bool {
    w.spare() >= room || reserve_slow(w, room)
}

#[cold]
#[inline(never)]
fn reserve_slow(w: &mut Box<Writer<NoSink>>, room: usize) -> bool {
    output::catching_growth(|| w.reserve(room)).is_ok()
}

/// Which kept writer a call uses: the one of a profile's default options,
/// or one of a few kept for other options, found by the options' key
/// (`entry::option_key`: every option that makes the `Style`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    Plain(Profile),
    Custom(u64),
}

/// How many writers are kept for options other than a profile's defaults
/// (the least recently made one makes room for a new set of options).
const CUSTOM: usize = 4;

/// The kept writers, guarded by the GIL: a slot is only touched by
/// `write`, which holds the GIL and runs no Python code between taking a
/// writer out and putting one back (the object is written in between, with
/// the writer out of its slot: a nested call, from a `default` callback or
/// another thread the callback let run, finds the slot empty and makes its
/// own). A writer holds no Python objects.
struct Writers {
    plain: [Option<Box<Writer<NoSink>>>; 3],
    /// (options key, its writer while not in use).
    custom: [(u64, Option<Box<Writer<NoSink>>>); CUSTOM],
    /// The custom slot the next new set of options takes.
    next: usize,
}

struct Slots(UnsafeCell<Writers>);

// SAFETY: every access holds the GIL (see `Writers`); the extension is not
// built for free-threaded CPython (lib.rs).
unsafe impl Sync for Slots {}

/// No options key is this (`entry::option_key` sets the top bit of every
/// key): an unused custom slot.
const NO_KEY: u64 = 0;

static KEPT: Slots = Slots(UnsafeCell::new(Writers {
    plain: [None, None, None],
    custom: [(NO_KEY, None), (NO_KEY, None), (NO_KEY, None), (NO_KEY, None)],
    next: 0,
}));

fn index(profile: Profile) -> usize {
    match profile {
        Profile::Compact => 0,
        Profile::Go => 1,
        Profile::Jcs => 2,
    }
}

/// The kept writer of `kind`, out of its slot (`None` if there is none,
/// or it is in use).
///
/// # Safety
/// The GIL is held, and no Python code runs while the slots are borrowed
/// (see `Writers`).
unsafe fn take(kind: Kind) -> Option<Box<Writer<NoSink>>> {
    // SAFETY: as the caller guarantees; the borrow ends in this function.
    let slots = unsafe { &mut *KEPT.0.get() };
    match kind {
        Kind::Plain(p) => slots.plain[index(p)].take(),
        Kind::Custom(key) => slots.custom.iter_mut().find(|(k, _)| *k == key).and_then(|(_, w)| w.take()),
    }
}

/// Puts a writer (emptied, between documents) back as the kept one of
/// `kind`, unless a nested call kept one there while this one was out.
///
/// # Safety
/// As for `take`.
#[inline(always)]
unsafe fn put_back(kind: Kind, w: Box<Writer<NoSink>>) {
    match kind {
        Kind::Plain(p) => {
            // SAFETY: as the caller guarantees; the borrow ends here.
            let slot = unsafe { &mut (*KEPT.0.get()).plain[index(p)] };
            if slot.is_none() {
                *slot = Some(w);
            } else {
                drop_writer(w);
            }
        }
        // SAFETY: as the caller guarantees.
        Kind::Custom(key) => unsafe { put_back_custom(key, w) },
    }
}

/// `put_back` of a writer for options other than a profile's defaults.
///
/// # Safety
/// As for `take`.
#[inline(never)]
unsafe fn put_back_custom(key: u64, w: Box<Writer<NoSink>>) {
    // SAFETY: as the caller guarantees; the borrow ends in this function.
    let slots = unsafe { &mut *KEPT.0.get() };
    if let Some((_, slot)) = slots.custom.iter_mut().find(|(k, _)| *k == key) {
        if slot.is_none() {
            *slot = Some(w);
        }
        return;
    }
    // New options: they take the oldest slot (its writer, if kept, is
    // dropped).
    let i = slots.next;
    slots.next = (i + 1) % CUSTOM;
    slots.custom[i] = (key, Some(w));
}

/// A writer not kept (a nested call kept one meanwhile): dropped out of line.
#[cold]
#[inline(never)]
fn drop_writer(w: Box<Writer<NoSink>>) {
    drop(w);
}

/// `obj` written with the options of `kind` (`style` makes them, for a
/// new writer) as a new `bytes` object; as a quick walk when `quick`
/// (`Walker::quick`), whose failures the caller discards.
pub fn write<'py>(
    obj: &Bound<'py, PyAny>,
    kind: Kind,
    style: impl FnOnce() -> Style,
    default: Option<&Bound<'py, PyAny>>,
    how: Walking,
    quick: bool,
) -> Result<Bound<'py, PyBytes>, Fail> {
    // After an output of `DEFER_AT` bytes or more, large Raw texts may come
    // again: they are left out of the writer's buffer and copied once,
    // straight into the result (`holes.rs`). Smaller outputs, which cannot
    // hold such a text, pay nothing for that.
    if !output::expects_at_most(DEFER_AT) {
        return write_with_holes(obj, kind, style, default, how, quick);
    }
    let py = obj.py();
    let mut w = take_or_make(py, kind, style).map_err(Fail::no_memory)?;
    // A growth of the writer's memory that fails unwinds out of the walk
    // (`KeptMemory`): the writer is then dropped, not kept.
    match output::catching_growth(|| write_object_in(&mut w, obj, default, how, None, quick)) {
        Ok(Ok(())) => {}
        Ok(Err(fail)) => {
            failed(kind, w);
            return Err(fail);
        }
        Err(bytes) => return Err(Fail::no_memory(bytes)),
    }
    if moved(&w) {
        return take_large(py, w);
    }
    let out = w.as_bytes();
    // (On failure not recorded as the last output: a quick walk's retry on
    // the general path must take this same way (and raise MemoryError),
    // not the large-output `BytesMemory`, whose failed growth unwinds past
    // the walker's hand-held references (output.rs).)
    let bytes = bytes_of(py, out)?;
    output::wrote(out.len());
    Ok(finish(py, kind, w, bytes))
}

/// The kept writer of `kind`, or a new one (when it is in use further up
/// the stack, or none was kept yet); `Err` when a new one's memory cannot
/// be made (`new_writer`).
#[inline(always)]
fn take_or_make(_py: Python<'_>, kind: Kind, style: impl FnOnce() -> Style) -> Result<Box<Writer<NoSink>>, usize> {
    // SAFETY: the GIL is held (the caller's `py`); `take` runs no Python code.
    let kept = unsafe { take(kind) };
    match kept {
        Some(w) => Ok(w),
        None => new_writer(style()),
    }
}

/// A writer whose document failed (or a quick walk gave up): its partial
/// document discarded and the writer put back (when it may be kept), so
/// that the next call, often the general path writing the same object,
/// does not make a writer anew.
#[cold]
#[inline(never)]
fn failed(kind: Kind, mut w: Box<Writer<NoSink>>) {
    if w.as_bytes().len() <= KEEP_UP_TO && !moved(&w) && w.discard_document() {
        // SAFETY: the GIL is held (every caller holds it); `put_back` runs
        // no Python code.
        unsafe { put_back(kind, w) };
    }
}

/// The writer put back (when it may be kept) and the result handed over.
/// A writer whose memory moved (`moved`) never comes here: `write` and
/// `write_with_holes` hand it over themselves, and the quick paths'
/// reservations (a scalar of at most `KEEP_UP_TO` bytes, a small dict)
/// stay below `MOVE_AT`.
#[inline(always)]
fn finish(py: Python<'_>, kind: Kind, mut w: Box<Writer<NoSink>>, bytes: *mut ffi::PyObject) -> Bound<'_, PyBytes> {
    if w.as_bytes().len() <= KEEP_UP_TO && w.restart() {
        // SAFETY: as above: GIL held; what ran while the writer was out
        // may have filled the slot (then this writer is dropped).
        unsafe { put_back(kind, w) };
    }
    // SAFETY: a new bytes object whose one reference we hand over.
    unsafe { Bound::from_owned_ptr(py, bytes).cast_into_unchecked::<PyBytes>() }
}

/// `write`, leaving Raw texts of `DEFER_AT` bytes or more out of the
/// writer's buffer, to be copied once into the result (`holes.rs`).
#[inline(never)]
fn write_with_holes<'py>(
    obj: &Bound<'py, PyAny>,
    kind: Kind,
    style: impl FnOnce() -> Style,
    default: Option<&Bound<'py, PyAny>>,
    how: Walking,
    quick: bool,
) -> Result<Bound<'py, PyBytes>, Fail> {
    let py = obj.py();
    let mut w = take_or_make(py, kind, style).map_err(Fail::no_memory)?;
    // The texts left out, held (released on every way out of this
    // function, with the GIL).
    let mut holes = Holes::new();
    // As in `write`.
    match output::catching_growth(|| write_object_in(&mut w, obj, default, how, Some(&mut holes), quick)) {
        Ok(Ok(())) => {}
        Ok(Err(fail)) => {
            failed(kind, w);
            return Err(fail);
        }
        Err(bytes) => return Err(Fail::no_memory(bytes)),
    }
    if holes.is_empty() && moved(&w) {
        return take_large(py, w);
    }
    let out = w.as_bytes();
    let (bytes, len) = if holes.is_empty() { (bytes_of(py, out)?, out.len()) } else { holes.assemble(py, out).map_err(Fail::py)? };
    output::wrote(len);
    drop(holes);
    if moved(&w) {
        // Not kept: its memory is a result object's (see `finish`).
        drop(w);
        // SAFETY: a new bytes object whose one reference we hand over.
        return Ok(unsafe { Bound::from_owned_ptr(py, bytes).cast_into_unchecked::<PyBytes>() });
    }
    Ok(finish(py, kind, w, bytes))
}

/// A top-level scalar, read before a writer is taken.
enum Scalar<'s> {
    Int(i64),
    Str(&'s str),
    Bool(bool),
}

/// `dumps(obj)` with a profile's default options when `obj` is an exact
/// str, int of up to 64 bits or bool: the kept writer writes it directly,
/// without the walker, whose set-up (its working memory, the type table)
/// was most of the cost of such a call. `None` for anything else (found
/// by one test of the type's flags, so that other objects pay next to
/// nothing) and for what the walker reports or repairs (a str with lone
/// surrogates, a wider int, a writer error): the caller then takes the
/// general path, which writes it from the start.
///
/// # Safety
/// `obj` is a live object, held by the caller for the call; GIL held.
#[inline(always)]
pub unsafe fn write_scalar<'py>(py: Python<'py>, obj: *mut ffi::PyObject, profile: Profile) -> Option<Bound<'py, PyBytes>> {
    use std::ptr::addr_of_mut;
    // SAFETY: `obj` is live and its type a live type object, whose flags
    // are read; the type statics are only compared; an int's digits and a
    // str's text are read only for exact ints and strs. No Python code
    // runs from here to the end.
    let scalar = unsafe {
        let ty = ffi::Py_TYPE(obj);
        if (*ty).tp_flags & (ffi::Py_TPFLAGS_LONG_SUBCLASS | ffi::Py_TPFLAGS_UNICODE_SUBCLASS) == 0 {
            return None;
        }
        if ty == addr_of_mut!(ffi::PyUnicode_Type) {
            // A str whose UTF-8 form cannot be made (out of memory)
            // declines: no unwind may leave this path (`reserve`).
            Scalar::Str(super::text::utf8_caught(obj).ok()??)
        } else if ty == addr_of_mut!(ffi::PyLong_Type) {
            let small = match super::types::known(py) {
                Ok(k) if k.ints_311 => super::walk::small_int_311(obj),
                _ => None,
            };
            match small {
                Some(v) => Scalar::Int(v),
                None => {
                    let mut overflow = 0;
                    // An exact int (nothing is called); a value outside
                    // i64 is reported through `overflow`, not an error.
                    let v = ffi::PyLong_AsLongLongAndOverflow(obj, &mut overflow);
                    if overflow != 0 {
                        return None;
                    }
                    if v == -1 && !ffi::PyErr_Occurred().is_null() {
                        // Not expected of an exact int; a caller that
                        // declines must leave no exception set.
                        ffi::PyErr_Clear();
                        return None;
                    }
                    Scalar::Int(v)
                }
            }
        } else if ty == addr_of_mut!(ffi::PyBool_Type) {
            Scalar::Bool(obj == ffi::Py_True())
        } else {
            return None;
        }
    };
    // The room it can take, grown before it is written (no growth may
    // unwind out of this path, `reserve`): an int or bool takes at most 64
    // bytes in every profile (an int as a double in `jcs` included).
    let room = match scalar {
        // A long str (whose room, six times its length, would be reserved
        // at once) goes the general way, which grows piece by piece.
        Scalar::Str(s) if s.len() > KEEP_UP_TO => return None,
        Scalar::Str(s) => Writer::<NoSink>::str_room(s.len()),
        Scalar::Int(_) | Scalar::Bool(_) => 64,
    };
    let kind = Kind::Plain(profile);
    // SAFETY: GIL held; `take` runs no Python code.
    let kept = unsafe { take(kind) };
    let mut w = match kept {
        Some(w) => w,
        // (Declined when its memory cannot be made.)
        None => new_writer(super::entry::plain(py, profile)).ok()?,
    };
    if !reserve(&mut w, room) {
        return None;
    }
    let written = match scalar {
        Scalar::Int(v) => w.i64(v),
        Scalar::Str(s) => w.str(s),
        Scalar::Bool(b) => {
            w.bool(b);
            Ok(())
        }
    };
    if written.is_err() {
        // The general path writes it again, and reports what failed.
        return None;
    }
    let out = w.as_bytes();
    // SAFETY: as in `bytes_of`.
    let bytes = unsafe { ffi::PyBytes_FromStringAndSize(out.as_ptr().cast(), out.len() as ffi::Py_ssize_t) };
    if bytes.is_null() {
        // (Not recorded by `output::wrote`: the general path's retry takes
        // this same way, as in `write`.)
        // Out of memory: cleared, and the general path writes it again and
        // raises what it meets (no `PyErr` is made here: `dumps(obj)`'s
        // quick path runs this with the thread not counted as attached by
        // pyo3, fast.rs).
        // SAFETY: GIL held.
        unsafe { ffi::PyErr_Clear() };
        return None;
    }
    output::wrote(out.len());
    Some(finish(py, kind, w, bytes))
}

/// Most members of a dict `write_small_dict` writes.
pub const SMALL_DICT: usize = 8;

/// Room a small dict's run reserves per member: the longest name a run
/// writes with its separators (`ItemRun::key`: `MAX_STR + 4`) and the
/// longest value (a str: `MAX_STR + 3`), so that only names and values a
/// run declines, never the room, end the run early.
const SMALL_MEMBER_ROOM: usize = 2 * jetjson::ItemRun::MAX_STR + 7;

/// `dumps(obj)` with a profile's default options when `dict` is an exact
/// dict of 1 to `SMALL_DICT` members whose keys are compact ASCII strs that
/// need no escaping and whose values are exact strs, ints, floats, None or
/// bools (as `walk::run_value` writes them, or, for a str it declines, up
/// to `LONG_STR` bytes of UTF-8, as the writer's string path does:
/// `declined_str`), and at most one `Raw` (an
/// envelope around a payload) where the profile embeds Raw text as it is:
/// the members written through `ItemRun`s of the kept writer, straight
/// from the dict's table, without the walker (whose set-up, depth and stack
/// checks, held references, shape lookup and type dispatch cost more than
/// writing such a dict). The Raw's text is not written into the writer: the
/// result is made at its exact size from the writer's output with the text
/// copied once into its place (as `holes.rs` does for the walker). `None`,
/// with nothing visible done and no exception set, for any other object,
/// for a name a run declines (one that needs escaping or is not ASCII), a
/// value neither a run nor the string path writes (an int over 60 bits, a
/// float that is not finite, a str beyond `LONG_STR`...), and when the interpreter's
/// layouts are not the ones read here: the caller then writes it through
/// its general path from the start.
///
/// No Python code runs from the first look at the dict to the end, so its
/// table cannot change meanwhile; the caller's argument holds the dict,
/// which holds its keys and values (and a Raw its text, which is held
/// besides while the result is made).
///
/// # Safety
/// `dict` is a live exact dict, held by the caller for the call; GIL held.
#[inline(always)]
pub unsafe fn write_small_dict<'py>(py: Python<'py>, dict: *mut ffi::PyObject, profile: Profile) -> Option<Bound<'py, PyBytes>> {
    let known = super::types::known_if_made(py)?;
    if !known.direct_dicts || !known.ints_311 {
        return None;
    }
    // SAFETY: `dict` is a live dict on an interpreter with the layout
    // `dictiter` reads (`direct_dicts`).
    let (entries, n) = unsafe { super::dictiter::str_key_table(dict) }?;
    if n == 0 || n > SMALL_DICT {
        return None;
    }
    // Every value of a type a run writes, or a Raw, before the writer is
    // taken: a dict holding a container or another object declines here,
    // having written nothing.
    let mut raws = 0;
    for i in 0..n {
        // SAFETY: `i < n`, inside the table; each value is live (the dict
        // holds it); its type is only compared.
        unsafe {
            let v = *entries.add(2 * i + 1);
            if !super::walk::runs_type(v) {
                if ffi::Py_TYPE(v) != known.raw {
                    return None;
                }
                raws += 1;
            }
        }
    }
    if raws > 1 {
        return None;
    }
    let kind = Kind::Plain(profile);
    // SAFETY: GIL held; `take` runs no Python code.
    let mut w = unsafe { take(kind) }?;
    if !w.runs_items() || (raws != 0 && w.style().raw != jetjson::RawPolicy::Verbatim) {
        // SAFETY: as above.
        unsafe { put_back(kind, w) };
        return None;
    }
    let room = 2 + n * SMALL_MEMBER_ROOM;
    // Grown first: no growth may unwind out of this path (`reserve`).
    if !reserve(&mut w, room) {
        return None;
    }
    let table = SmallTable { entries, n, raw: known.raw };
    // The Raw's place in the output and its text's `bytes` object.
    let mut hole: Option<(usize, *mut ffi::PyObject)> = None;
    let base = w.buffered();
    let (mut ok, stop) = {
        let mut run = w.run(room);
        let ok = run.begin_object(false);
        // SAFETY: the table of `dict`, live and unchanged while this runs.
        let (ok, stop) = if ok { unsafe { table.members(py, &mut run, 0, base, &mut hole) } } else { (false, None) };
        (ok && (stop.is_some() || run.end_object()), stop)
    };
    if let Some((i, text)) = stop.filter(|_| ok) {
        // SAFETY: as above.
        ok = unsafe { table.after_str(py, &mut w, room, i, text, &mut hole) };
    }
    if !ok {
        failed(kind, w);
        return None;
    }
    let out = w.as_bytes();
    let (bytes, len) = match hole {
        // SAFETY: as in `bytes_of`.
        None => (unsafe { ffi::PyBytes_FromStringAndSize(out.as_ptr().cast(), out.len() as ffi::Py_ssize_t) }, out.len()),
        // SAFETY: `text` is the live `bytes` object of a Raw of the dict.
        Some((at, text)) => unsafe { with_text(out, at, text) },
    };
    if bytes.is_null() {
        // Out of memory: cleared, and the caller's general path writes it
        // again and raises what it meets (as in `write_scalar`).
        // SAFETY: GIL held.
        unsafe { ffi::PyErr_Clear() };
        failed(kind, w);
        return None;
    }
    output::wrote(len);
    Some(finish(py, kind, w, bytes))
}

/// The members of a small dict (`write_small_dict`): its table of keys and
/// values (`dictiter::str_key_table`) and the `Raw` type.
struct SmallTable {
    entries: *const *mut ffi::PyObject,
    n: usize,
    raw: *mut ffi::PyTypeObject,
}

impl SmallTable {
    /// Writes members from `i` on through `run` (whose first byte is at
    /// `base` in the writer's output), a Raw's place and text into `hole`:
    /// whether all went well, and, when a str value the run declined
    /// (`declined_str`) stopped it, the index of the member after it and its
    /// text (its name written).
    ///
    /// # Safety
    /// The table is that of a live dict held by the caller, unchanged while
    /// this runs (no Python code runs); GIL held; `ints_311`.
    #[inline(always)]
    unsafe fn members<'a>(
        &self,
        py: Python<'_>,
        run: &mut jetjson::ItemRun,
        mut i: usize,
        base: usize,
        hole: &mut Option<(usize, *mut ffi::PyObject)>,
    ) -> (bool, Option<(usize, &'a str)>) {
        let mut ok = true;
        while ok && i < self.n {
            // SAFETY: `i < n`, inside the table; the key is an exact str (a
            // table of the unicode kind, `str_key_table`), read as a compact
            // ASCII str's text only when it is one; the value is a live
            // object of the dict (a Raw's text is held by the Raw, a str's
            // text by the str, which the dict holds while the caller
            // writes).
            unsafe {
                let (k, v) = (*self.entries.add(2 * i), *self.entries.add(2 * i + 1));
                ok = ffi::PyUnicode_IS_COMPACT_ASCII(k) != 0 && {
                    let header = k as *mut ffi::PyASCIIObject;
                    let text = std::slice::from_raw_parts(header.add(1) as *const u8, (*header).length as usize);
                    run.key(std::str::from_utf8_unchecked(text), i == 0)
                };
                i += 1;
                if !ok {
                    break;
                }
                if ffi::Py_TYPE(v) == self.raw {
                    *hole = Some((base + run.written(), crate::raw::text_object(py, v)));
                } else if !super::walk::run_value(run, v, true, false) {
                    return match declined_str(v) {
                        Some(text) => (true, Some((i, text))),
                        None => (false, None),
                    };
                }
            }
        }
        (ok, None)
    }

    /// The rest of a small dict after a str value that stopped a run
    /// (`members`): `text` written by the writer's string path, then the
    /// members from `i` on through new runs of `room` bytes, the object
    /// closed. Whether all went well. (Out of line: the dicts all of whose
    /// values a run writes do not carry its code.)
    ///
    /// # Safety
    /// As `members`.
    #[inline(never)]
    unsafe fn after_str(
        &self,
        py: Python<'_>,
        w: &mut Box<Writer<NoSink>>,
        room: usize,
        mut i: usize,
        mut text: &str,
        hole: &mut Option<(usize, *mut ffi::PyObject)>,
    ) -> bool {
        loop {
            // The quotes and the text escaped at most sixfold, then the
            // next run, reserved first (no growth may unwind out of this
            // path).
            if !reserve(w, 6 * text.len() + 2) || w.str(text).is_err() || !reserve(w, room) {
                return false;
            }
            let base = w.buffered();
            let mut run = w.run(room);
            // SAFETY: as this function's contract.
            match unsafe { self.members(py, &mut run, i, base, hole) } {
                (true, Some((next, t))) => (i, text) = (next, t),
                (true, None) => return run.end_object(),
                (false, _) => return false,
            }
        }
    }
}

/// Longest str value a small dict writes outside its runs
/// (`write_small_dict`), in UTF-8 bytes: its escaping room, six bytes a
/// byte, stays far below `MOVE_AT` for a whole dict of them.
const LONG_STR: usize = 4096;

/// The text of `v` when it is an exact str that a run declined (one that
/// needs escaping, is longer than a run takes or is not ASCII) and the
/// writer's string path takes, at most `LONG_STR` bytes: as the walker reads
/// it (`text::utf8_caught`: compact ASCII in place, else the cached UTF-8
/// form, made only after the code points were checked for lone surrogates,
/// so CPython never raises and no object the GC tracks is made). `None` for
/// anything else: a str with lone surrogates (the general path raises its
/// error) or whose UTF-8 form could not be made, with no exception set.
///
/// # Safety
/// `v` is a live object; GIL held. The text lives as long as `v`.
#[inline(always)]
unsafe fn declined_str<'a>(v: *mut ffi::PyObject) -> Option<&'a str> {
    if ffi::Py_TYPE(v) != super::walk::ty_str() {
        return None;
    }
    // SAFETY: `v` is a live exact str (the caller's contract, type checked).
    match unsafe { super::text::utf8_caught(v) } {
        Ok(Some(text)) if text.len() <= LONG_STR => Some(text),
        _ => None,
    }
}

/// A new `bytes` object of `out` with the text of `text` (a `bytes` object)
/// at offset `at`, and its length; null with an exception set when it
/// cannot be made (a place past the output, which the caller never gives,
/// or out of memory).
///
/// # Safety
/// `text` is a live `bytes` object; GIL held.
#[inline(never)]
unsafe fn with_text(out: &[u8], at: usize, text: *mut ffi::PyObject) -> (*mut ffi::PyObject, usize) {
    // SAFETY: as the caller guarantees; the reference taken keeps the text
    // alive (and immutable) until it is copied, whatever the allocation does.
    let _held = unsafe { super::walk::Hold::new(text) };
    // SAFETY: `text` is a live bytes object, held.
    let t = unsafe { super::walk::bytes_of(text) };
    let Some((head, tail)) = out.split_at_checked(at) else {
        // SAFETY: GIL held; the message is a NUL-terminated literal.
        unsafe { ffi::PyErr_SetString(ffi::PyExc_SystemError, c"jetjson.dumps: a Raw's place is past the output".as_ptr()) };
        return (std::ptr::null_mut(), 0);
    };
    let total = out.len().saturating_add(t.len());
    let Ok(size) = ffi::Py_ssize_t::try_from(total) else {
        // SAFETY: as above.
        unsafe { ffi::PyErr_SetString(ffi::PyExc_MemoryError, c"jetjson.dumps: output too large".as_ptr()) };
        return (std::ptr::null_mut(), 0);
    };
    // SAFETY: a null source asks CPython for an uninitialised bytes object
    // of `total` bytes (null with MemoryError set on failure), which only we
    // write to, before anyone else sees it: `head`, the text and `tail`,
    // whose lengths add up to `total`, each from another allocation.
    unsafe {
        let obj = ffi::PyBytes_FromStringAndSize(std::ptr::null(), size);
        if !obj.is_null() {
            let dst = ffi::PyBytes_AS_STRING(obj) as *mut u8;
            std::ptr::copy_nonoverlapping(head.as_ptr(), dst, head.len());
            std::ptr::copy_nonoverlapping(t.as_ptr(), dst.add(head.len()), t.len());
            std::ptr::copy_nonoverlapping(tail.as_ptr(), dst.add(head.len() + t.len()), tail.len());
        }
        (obj, total)
    }
}
