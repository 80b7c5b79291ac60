//! The hot path of `dumps`: walking Python objects with the raw C API and
//! driving the core `Writer`.
//!
//! Dispatch compares the object's type pointer against the exact built-in
//! types first (str, int, float, bool, None, dict, list, tuple); everything
//! else (subclasses, dataclasses, datetimes, `default`...) is in `other.rs`.
//! Strings are read in place: compact ASCII data follows the object header,
//! other strings use CPython's cached UTF-8 form.
//!
//! Borrowed references and Python code (the rules of SECURITY.md, "Python
//! code in the middle of dumps"): an element borrowed from a list or dict
//! stays alive only as long as its container holds it. Scalars of exact
//! built-in types run no Python code while they are written, so they are
//! used borrowed; anything else (which may call `default`, a property,
//! `utcoffset`...) is held with a new reference while it is written, and a
//! dict member's key is held with it until the member's error, if any, has
//! copied the key's name (`element_in`). After a value that may have run
//! Python code, nothing read from its container before is trusted: a list
//! whose size changed, or a dict whose version tag changed, while it was
//! being written is an error (`Fail::changed`), whichever path writes it.

use std::ptr::addr_of_mut;
use std::rc::Rc;

use jetjson::{KeyOrder, Literal, Sink, Writer, NAME_WINDOW};
use pyo3::ffi::{self, PyObject};
use pyo3::prelude::*;

use super::dictiter::{self, Cursor};
use super::fail::{Fail, Walk};
use super::shapes::{Shape, Shapes, Tag};
use super::text;
pub(super) use super::text::utf8_of;
use super::types::Known;

extern "C" {
    // The number of bits of an int's absolute value; exported by every
    // CPython 3 build, and does not fail for an int.
    fn _PyLong_NumBits(obj: *mut PyObject) -> usize;
}

/// Bits of an int's absolute value.
///
/// # Safety
/// `obj` is a live int; GIL held.
pub(super) unsafe fn long_bits(obj: *mut PyObject) -> usize {
    // SAFETY: as the caller guarantees.
    unsafe { _PyLong_NumBits(obj) }
}

/// Stack the walker leaves free below the frame where it stops going
/// deeper: room for the frames between two checks (a container level, or
/// a call into Python and back into a nested `dumps`) and for raising the
/// error.
const STACK_RED_ZONE: usize = 64 << 10;

/// The lowest stack address the walker's frames may reach on this thread
/// (0 when the stack's extent is unknown: only the counted limits apply).
fn stack_floor() -> usize {
    let here = 0u8;
    let sp = std::hint::black_box(&here) as *const u8 as usize;
    match stacker::remaining_stack() {
        Some(left) => sp.saturating_sub(left).saturating_add(STACK_RED_ZONE),
        None => 0,
    }
}

/// Containers nested at most this deep, with no call into Python, are
/// written without a stack check: their frames fit in the red zone.
const SHALLOW: usize = 8;

/// How many values may stand for another in a row: `default` applied to its
/// own results, an `Enum` member's value that is a member again, and any
/// mix of the two. With `max_write_depth` (containers) and the stack check
/// it bounds every recursion of the walk.
pub const MAX_DETOURS: u32 = 255;

/// A member of a dict being sorted: the key's UTF-8 bytes, and owned
/// references to the key's text holder and to the value.
#[derive(Clone, Copy)]
struct Entry {
    key: *const u8,
    len: usize,
    /// A `str` (valid UTF-8) or, for go keys with lone surrogates, the
    /// `bytes` they were encoded to.
    holder: *mut PyObject,
    value: *mut PyObject,
    utf8: bool,
    /// The key is an exact `str` (only such keys go into shapes: the cache
    /// may release a key at any time, and releasing a str subclass can run
    /// its `__del__`).
    exact: bool,
}

pub struct Walker<'a, 'py, S: Sink> {
    pub(super) py: Python<'py>,
    pub(super) w: &'a mut Writer<S>,
    pub(super) default: Option<*mut PyObject>,
    /// Values standing for another being written now (`MAX_DETOURS`).
    pub(super) detours: u32,
    /// Dict keys that are not strs are written as text (`key_text`).
    pub(super) non_str_keys: bool,
    /// Dataclass fields equal to their defaults are left out.
    pub(super) omit_defaults: bool,
    /// `stack_floor()`, found the first time it is needed (0 until then):
    /// the walker refuses to go deeper when its frames reach it, whatever
    /// led there (`dumps` called from a `default` inside `dumps`, a thread
    /// with a small stack).
    stack_floor: std::cell::Cell<usize>,
    pub(super) known: &'static Known,
    map_order: KeyOrder,
    pub(super) struct_order: KeyOrder,
    /// Go repairs lone surrogates (as Go repairs invalid UTF-8); others fail.
    pub(super) repairs_text: bool,
    /// Working memory kept between calls (boxed, so taking it from and
    /// giving it back to the process-wide slot moves one pointer).
    scratch: std::mem::ManuallyDrop<Box<Scratch>>,
    /// Where large `Raw` texts are left out of the output, to be copied
    /// once into the result (`holes.rs`); only for a kept writer's output.
    pub(super) holes: Option<&'a mut super::holes::Holes>,
    /// A quick walk (`dumps(obj)`'s quick path, fast.rs): it runs no Python
    /// code and drops no `Py<T>`, so it writes only what needs neither
    /// (exact built-in containers with exact str keys, scalars, `Raw`,
    /// exact datetimes, dates and times with no `tzinfo` or UTC's, exact
    /// UUIDs, dataclasses found by `find_recent` whose fields are read in
    /// place) and declines (`Fail::declined`) where Python code would run
    /// next (`before_python`) or at any other object, before touching it;
    /// the general path then writes the call anew.
    pub(super) quick: bool,
}

/// Most keys of a shape `LastShape` remembers.
const LAST_KEYS: usize = 8;

/// The shape the last insertion-order dict (of up to `LAST_KEYS` keys) of
/// a list was written with, and its key objects inline. The dicts of a list
/// are usually records of one shape, so the next one usually has these
/// very keys: comparing its table with `keys` finds the shape without the
/// cache's hash and slot lookups, a chain of dependent loads that every
/// member's write waited on. Kept per list that starts with a dict (dicts
/// elsewhere, whose shapes vary, would only pay for remembering).
/// `keys` are compared as addresses only, and only while `shape` (which
/// holds a reference to each) is here, so an address always means the
/// same live str.
struct LastShape {
    /// Keys in `keys` (0 while `shape` is empty or taken out to be written).
    n: usize,
    /// The first `n` are set (left uninitialised otherwise: a list pays
    /// nothing for them unless it has dicts).
    keys: [std::mem::MaybeUninit<*mut PyObject>; LAST_KEYS],
    /// The shape whose keys `keys` holds: the shape put last, which is
    /// alive (here, or taken out by a writer that puts it back).
    keys_of: *const Shape,
    shape: Option<Rc<Shape>>,
}

impl LastShape {
    fn new() -> LastShape {
        LastShape { n: 0, keys: [std::mem::MaybeUninit::uninit(); LAST_KEYS], keys_of: std::ptr::null(), shape: None }
    }

    /// The remembered shape, taken out, if its keys are the `n` keys of the
    /// table `entries`.
    ///
    /// # Safety
    /// `entries` is the table of a live dict with `n` members, keys all exact str.
    #[inline(always)]
    unsafe fn take_if(&mut self, entries: *const *mut PyObject, n: usize) -> Option<Rc<Shape>> {
        if n != self.n {
            return None;
        }
        for i in 0..n.min(LAST_KEYS) {
            // SAFETY: `i < n`, inside the table's entries; `put` set the
            // first `n` keys.
            if unsafe { *entries.add(2 * i) != self.keys[i].assume_init() } {
                return None;
            }
        }
        self.n = 0;
        self.shape.take()
    }

    /// Remembers `shape` (this walker's key order and escape set).
    #[inline(always)]
    fn put(&mut self, shape: Rc<Shape>) {
        let n = shape.len();
        if n > LAST_KEYS {
            return;
        }
        // A shape put back after it was written (no other put since) still
        // has its keys here: the common case, a list of one shape.
        if !std::ptr::eq(self.keys_of, Rc::as_ptr(&shape)) {
            for i in 0..n {
                self.keys[i] = std::mem::MaybeUninit::new(shape.key(i));
            }
            self.keys_of = Rc::as_ptr(&shape);
        }
        self.n = n;
        self.shape = Some(shape);
    }
}

/// The walker's working memory, kept between calls: the vectors keep their
/// capacity and the shape cache its sorted orders, so a small document in a
/// sorted profile allocates nothing but its result. A nested call (`dumps`
/// inside a `default` callback) finds the slot empty and starts afresh.
#[derive(Default)]
struct Scratch {
    /// Members of dicts being sorted, shared by all nesting levels (an inner
    /// dict's members sit above its parent's and are gone before the parent
    /// continues).
    sorting: Vec<Entry>,
    /// Scratch for the dict being sorted: its key objects and its order.
    key_objs: Vec<*mut PyObject>,
    order: Vec<u32>,
    prefixes: Vec<(u128, u32)>,
    shapes: Shapes,
}

/// The process's spare `Scratch`, guarded by the GIL: it is only touched
/// by `Scratch::take` and `Walker::drop`, which run with the GIL held and
/// run no Python code in between reading and writing it, so no two threads
/// use it at once (a walker on another thread, or a nested `dumps` from a
/// callback, finds it empty and makes its own). `Scratch` holds raw object
/// pointers (the shape cache's keys, each with a reference of its own),
/// likewise only touched with the GIL. The static is never dropped, so no
/// reference is released without the GIL.
struct ScratchSlot(std::cell::UnsafeCell<Option<Box<Scratch>>>);

// SAFETY: as above: every access holds the GIL (this crate is not built
// for free-threaded CPython, where the GIL would not serialize them; see
// the compile-time check in lib.rs).
unsafe impl Sync for ScratchSlot {}

static SCRATCH: ScratchSlot = ScratchSlot(std::cell::UnsafeCell::new(None));

impl Scratch {
    /// The spare scratch, or a new one. GIL held (the walker's `py`).
    fn take(_py: Python<'_>) -> Box<Scratch> {
        // SAFETY: the GIL is held (we have `py`), so no other thread is in
        // here or in `Walker::drop`; nothing runs Python code meanwhile.
        unsafe { (*SCRATCH.0.get()).take() }.unwrap_or_default()
    }
}

impl<S: Sink> Drop for Walker<'_, '_, S> {
    fn drop(&mut self) {
        // Dict members are released as each sorted dict ends (also on
        // errors), so the stacks are empty here; keep their capacity. Not
        // after an out-of-memory unwind (`output::catching_out_of_memory`)
        // out of a sorted dict: its members are released here.
        if !self.scratch.sorting.is_empty() {
            self.release_sorting();
        }
        // Likewise the orders of the sorted dicts such an unwind left open
        // (each dict truncates its own on every return): kept, they would
        // pile up under every later call's (a 200,000-member dict left
        // 0.8 MB per failed call).
        self.scratch.order.clear();
        // SAFETY: `drop` runs once and nothing uses the field afterwards.
        let scratch = unsafe { std::mem::ManuallyDrop::take(&mut self.scratch) };
        // SAFETY: the walker holds the GIL (see `Scratch::take`); a spare
        // left by another walker meanwhile keeps its place, and ours is
        // dropped (releasing exact strs only, which runs no Python code).
        let slot = unsafe { &mut *SCRATCH.0.get() };
        if slot.is_none() {
            *slot = Some(scratch);
        }
    }
}

/// A reference the walker holds on an object while writing it, released
/// when the guard goes: at the end of the write, and also when an
/// out-of-memory failure unwinds past it (`output::catching_out_of_memory`),
/// so that such a failure leaves no container it was writing alive.
pub(super) struct Hold(*mut PyObject);

impl Hold {
    /// # Safety
    /// `obj` is a live object; GIL held (also wherever the guard is dropped).
    #[inline(always)]
    pub(super) unsafe fn new(obj: *mut PyObject) -> Hold {
        // SAFETY: as the caller guarantees.
        unsafe { ffi::Py_INCREF(obj) };
        Hold(obj)
    }

    /// A guard for a reference the caller owns (a new reference).
    ///
    /// # Safety
    /// `obj` is a live object whose one reference the caller hands over;
    /// GIL held (also wherever the guard is dropped).
    #[inline(always)]
    pub(super) unsafe fn owned(obj: *mut PyObject) -> Hold {
        Hold(obj)
    }

    /// The object held.
    #[inline(always)]
    pub(super) fn as_ptr(&self) -> *mut PyObject {
        self.0
    }
}

impl Drop for Hold {
    #[inline(always)]
    fn drop(&mut self) {
        // SAFETY: the reference `new` took; the walker holds the GIL for as
        // long as it runs, and no guard outlives its walk.
        unsafe { ffi::Py_DECREF(self.0) };
    }
}

impl<S: Sink> Walker<'_, '_, S> {
    #[cold]
    #[inline(never)]
    fn release_sorting(&mut self) {
        // The entries are taken out first: releasing a value may run Python
        // code (its `__del__`), which must find the stack consistent.
        let entries = std::mem::take(&mut self.scratch.sorting);
        for e in &entries {
            // SAFETY: every entry holds one reference to its holder and its
            // value (`collect_and_write`); the walker holds the GIL.
            unsafe {
                ffi::Py_DECREF(e.holder);
                ffi::Py_DECREF(e.value);
            }
        }
    }
}

/// `str`'s type object.
#[inline(always)]
pub(super) fn ty_str() -> *mut ffi::PyTypeObject {
    // Taking the address of an extern static does not read it.
    addr_of_mut!(ffi::PyUnicode_Type)
}

impl<'a, 'py, S: Sink> Walker<'a, 'py, S> {
    pub fn new(py: Python<'py>, w: &'a mut Writer<S>, default: Option<&Bound<'py, PyAny>>, known: &'static Known) -> Self {
        let style = w.style();
        let (map_order, struct_order) = (style.map_order, style.struct_order);
        let repairs_text = style.invalid_text == jetjson::InvalidText::ReplacePerByte;
        let scratch = Scratch::take(py);
        Walker {
            py,
            w,
            default: default.map(|d| d.as_ptr()),
            detours: 0,
            non_str_keys: false,
            omit_defaults: false,
            stack_floor: std::cell::Cell::new(0),
            known,
            map_order,
            struct_order,
            repairs_text,
            scratch: std::mem::ManuallyDrop::new(scratch),
            holes: None,
            quick: false,
        }
    }

    /// Writes `obj` (a live object the caller keeps alive for the call).
    #[inline(always)]
    pub fn write(&mut self, obj: &Bound<'py, PyAny>) -> Walk {
        // SAFETY: `obj` is a valid object kept alive by the caller's reference,
        // and the GIL is held (we have `py`).
        unsafe { self.element(obj.as_ptr()) }
    }

    /// Writes one value. Scalars are written borrowed; other objects are
    /// held while written.
    ///
    /// # Safety
    /// `obj` must be a valid object, alive at least until this call starts,
    /// and the GIL must be held.
    #[inline(always)]
    pub(super) unsafe fn element(&mut self, obj: *mut PyObject) -> Walk {
        // SAFETY: as the caller guarantees.
        unsafe { self.element_in(obj, None) }
    }

    /// Writes one value, the value of a dict member when `name` gives the
    /// member's key object and its text: the key is then held with the value
    /// (Python code run meanwhile may drop the dict's references to both),
    /// and an error is given the key's name while the key is still held.
    ///
    /// # Safety
    /// `obj` and the key must be valid objects, alive at least until this
    /// call starts, the text the key's own; GIL held.
    #[inline(always)]
    unsafe fn element_in(&mut self, obj: *mut PyObject, name: Option<(*mut PyObject, &str)>) -> Walk {
        // The name of a failed member: scalars run no Python code, so the
        // key is alive whenever this runs for them.
        let named = |e: Fail| match name {
            Some((_, key)) => e.in_key(key),
            None => e,
        };
        // SAFETY (whole body): the caller guarantees `obj` and the key are
        // live objects under the GIL; type pointers of built-in types are static.
        unsafe {
            let ty = ffi::Py_TYPE(obj);
            if ty == ty_str() {
                return self.str(obj).map_err(named);
            }
            // Ints within 64 bits here; wider ones take the held path below
            // (`other` -> `int` -> `big_int`, which asks CPython for their
            // digits and may raise).
            if ty == addr_of_mut!(ffi::PyLong_Type) {
                if let Some(v) = self.int64(obj) {
                    return self.w.i64(v).map_err(|e| named(Fail::core(e)));
                }
            } else if ty == addr_of_mut!(ffi::PyFloat_Type) {
                return self.w.f64(ffi::PyFloat_AS_DOUBLE(obj)).map_err(|e| named(Fail::core(e)));
            }
            if ty == addr_of_mut!(ffi::PyBool_Type) {
                self.w.bool(obj == ffi::Py_True());
                return Ok(());
            }
            if obj == ffi::Py_None() {
                self.w.null();
                return Ok(());
            }
            // Empty lists are common (a field with no items): no reference
            // and no walk for them.
            if ty == addr_of_mut!(ffi::PyList_Type) && ffi::PyList_GET_SIZE(obj) == 0 {
                self.enter().map_err(named)?;
                self.w.empty_array();
                return Ok(());
            }
            let _obj = Hold::new(obj);
            let Some((key, text)) = name else {
                return self.compound(obj, ty).map_err(|e| {
                    // SAFETY: `obj` is the live container being written
                    // (held by `_obj`); GIL held.
                    e.seen_in(obj)
                });
            };
            // `text` is the held key's: valid while `_key` lives.
            let _key = Hold::new(key);
            self.compound(obj, ty).map_err(|e| {
                // SAFETY: as above: `obj` is live while its error unwinds.
                e.seen_in(obj).in_key(text)
            })
        }
    }

    /// An array element with its separator: the common scalars (str, int,
    /// float, None, bool) and empty lists and dicts write both in one step;
    /// anything else writes the separator, then the element (a dict with
    /// the list's `last` shape, in lists of records).
    ///
    /// # Safety
    /// As for `element`.
    #[inline(always)]
    unsafe fn item(&mut self, obj: *mut PyObject, first: bool, last: Option<&mut LastShape>) -> Walk {
        // SAFETY (whole body): `obj` is a live object (caller); the
        // type pointers of built-in types are only compared.
        unsafe {
            let ty = ffi::Py_TYPE(obj);
            if ty == ty_str() {
                if let Some(s) = utf8_of(obj) {
                    return self.w.item_str(s, first).map_err(Fail::core);
                }
                self.w.array_item(first);
                return self.surrogate_str(obj);
            }
            if ty == addr_of_mut!(ffi::PyLong_Type) && self.known.ints_311 {
                if let Some(v) = small_int_311(obj) {
                    return self.w.item_i64(v, first).map_err(Fail::core);
                }
            }
            if ty == addr_of_mut!(ffi::PyFloat_Type) {
                return self.w.item_f64(ffi::PyFloat_AS_DOUBLE(obj), first).map_err(Fail::core);
            }
            // Lists and dicts go straight to `list` and `dict` (held, as in
            // `element`), past the scalar checks `element` would repeat;
            // empty ones are a literal.
            if ty == addr_of_mut!(ffi::PyList_Type) {
                if ffi::PyList_GET_SIZE(obj) == 0 {
                    self.enter()?;
                    self.w.item_literal(Literal::EmptyArray, first);
                    return Ok(());
                }
                self.w.array_item(first);
                let _obj = Hold::new(obj);
                return self.list(obj).map_err(|e| {
                    // SAFETY: `obj` is the live container being written
                    // (held by `_obj`); GIL held.
                    e.seen_in(obj)
                });
            }
            if ty == addr_of_mut!(ffi::PyDict_Type) {
                if self.known.direct_dicts && dictiter::len(obj) == 0 {
                    self.enter()?;
                    self.w.item_literal(Literal::EmptyObject, first);
                    return Ok(());
                }
                let _obj = Hold::new(obj);
                return self.dict_in(obj, last, Some(first)).map_err(|e| {
                    // SAFETY: `obj` is the live container being written
                    // (held by `_obj`); GIL held.
                    e.seen_in(obj)
                });
            }
            if obj == ffi::Py_None() {
                self.w.item_literal(Literal::Null, first);
                return Ok(());
            }
            if ty == addr_of_mut!(ffi::PyBool_Type) {
                self.w.item_literal(if obj == ffi::Py_True() { Literal::True } else { Literal::False }, first);
                return Ok(());
            }
            self.w.array_item(first);
            self.element(obj)
        }
    }

    /// Containers by exact type, then the cold path.
    ///
    /// # Safety
    /// `obj` is a live object of type `ty`, held by the caller; GIL held.
    #[inline(always)]
    unsafe fn compound(&mut self, obj: *mut PyObject, ty: *mut ffi::PyTypeObject) -> Walk {
        // SAFETY: as the caller guarantees; the type statics are only compared.
        unsafe {
            if ty == addr_of_mut!(ffi::PyDict_Type) {
                self.dict(obj)
            } else if ty == addr_of_mut!(ffi::PyList_Type) {
                self.list(obj)
            } else if ty == addr_of_mut!(ffi::PyTuple_Type) {
                self.tuple(obj)
            } else {
                self.other(obj)
            }
        }
    }

    /// Fails when one more container would nest deeper than the options'
    /// `max_write_depth`, or the thread's stack is nearly used up.
    #[inline(always)]
    pub(super) fn enter(&self) -> Walk {
        // The options' `max_write_depth` (512 by default, as `loads`).
        self.w.check_nesting().map_err(Fail::core)?;
        self.room()
    }

    /// Fails when the thread's stack is nearly used up. Checked before
    /// every level of recursion past the first few containers, and before
    /// every call into Python (`default`, `Enum` values), after which a
    /// nested `dumps` may start: so a chain of nested calls is checked at
    /// every link, however shallow each call is.
    #[inline(always)]
    pub(super) fn room(&self) -> Walk {
        // Every call into Python goes through `other`, which checks the stack
        // itself: here only the containers' own depth matters.
        if self.w.depth() < SHALLOW {
            return Ok(());
        }
        self.stack_check()
    }

    /// Before anything that may run Python code (a getattr, a `tzinfo`'s
    /// `utcoffset`, a `default`, an equality test...): a quick walk, which
    /// runs none, declines there; the general path checks the stack (a
    /// nested `dumps` may start in that code).
    #[inline(always)]
    pub(super) fn before_python(&self) -> Walk {
        if self.quick {
            return Err(Fail::declined());
        }
        self.stack_check()
    }

    /// `room` without the shortcut (`before_python` calls it before Python
    /// code). Out of line: the containers' hot paths only test the depth.
    #[inline(never)]
    pub(super) fn stack_check(&self) -> Walk {
        let mut floor = self.stack_floor.get();
        if floor == 0 {
            floor = stack_floor().max(1);
            self.stack_floor.set(floor);
        }
        let here = 0u8;
        if (std::hint::black_box(&here) as *const u8 as usize) < floor {
            return Err(self.no_room());
        }
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn no_room(&self) -> Fail {
        Fail::deep(format!(
            "not enough stack left to nest deeper (at depth {} of this call): dumps walks the objects on the \
             thread's own stack, which holds no more levels here, whatever max_write_depth allows; a thread started \
             after threading.stack_size(n) goes deeper, and canonicalize of JSON text does not use this stack (a dumps \
             inside a default or property of another dumps has less room)",
            self.w.depth()
        ))
    }

    // ---- scalars -------------------------------------------------------

    /// # Safety
    /// `obj` is a live `str` (or subclass); GIL held.
    #[inline(always)]
    pub(super) unsafe fn str(&mut self, obj: *mut PyObject) -> Walk {
        // SAFETY: `obj` is a live str; the text stays valid while it lives.
        match unsafe { utf8_of(obj) } {
            Some(s) => self.w.str(s).map_err(Fail::core),
            None => self.surrogate_str(obj),
        }
    }

    /// A `str` with lone surrogates (no UTF-8 form): its `surrogatepass`
    /// bytes, repaired as Go repairs invalid UTF-8, in profiles that repair
    /// text; the core's error in the others. Runs no Python code.
    #[cold]
    #[inline(never)]
    fn surrogate_str(&mut self, obj: *mut PyObject) -> Walk {
        if !self.repairs_text || self.quick {
            // SAFETY: `obj` is a live str (caller).
            return Err(unsafe { self.lone_surrogate(obj) });
        }
        // SAFETY: `obj` is a live str (caller).
        let bytes = unsafe { text::surrogatepass(obj) };
        self.w.bytes_str(&bytes).map_err(Fail::core)
    }

    /// The error of a str with a lone surrogate in a profile that does not
    /// repair text: where the surrogate is, as `loads` says it of str input.
    ///
    /// # Safety
    /// `obj` is a live str with no UTF-8 form; GIL held.
    #[cold]
    unsafe fn lone_surrogate(&self, obj: *mut PyObject) -> Fail {
        // SAFETY: `obj` is a live str (caller), read once ready (a no-op
        // for a str made ready already, as every str since 3.12 is).
        let at = unsafe {
            if ffi::PyUnicode_READY(obj) == 0 {
                text::first_surrogate(obj)
            } else {
                None
            }
        }
        .unwrap_or(0);
        let profile = self.w.style().profile.name();
        Fail::msg(format!("lone surrogate in str at index {at} (not valid Unicode text; profile \"{profile}\" does not repair text)"))
    }

    /// The `surrogatepass` bytes of a str with lone surrogates as a new
    /// bytes object (not tracked by the garbage collector, so making it
    /// runs no Python code), in profiles that repair text; otherwise the
    /// core's error.
    #[cold]
    fn surrogate_bytes(&mut self, obj: *mut PyObject) -> Result<*mut PyObject, Fail> {
        if !self.repairs_text || self.quick {
            // SAFETY: `obj` is a live str (caller).
            return Err(unsafe { self.lone_surrogate(obj) });
        }
        // SAFETY: `obj` is a live str (caller).
        let bytes = unsafe { text::surrogatepass(obj) };
        // SAFETY: copies `bytes` into a new bytes object.
        let obj = unsafe { ffi::PyBytes_FromStringAndSize(bytes.as_ptr() as *const _, bytes.len() as ffi::Py_ssize_t) };
        if obj.is_null() {
            return Err(Fail::fetch(self.py));
        }
        Ok(obj)
    }

    /// # Safety
    /// `obj` is a live `int` (or subclass); GIL held.
    #[inline(always)]
    pub(super) unsafe fn int(&mut self, obj: *mut PyObject) -> Walk {
        // SAFETY: as the caller guarantees.
        if let Some(v) = unsafe { self.int64(obj) } {
            return self.w.i64(v).map_err(Fail::core);
        }
        let mut overflow = 0;
        // SAFETY: `obj` is a live int that does not fit an i64 (it overflows
        // again, setting no error); the out-parameter is a local.
        unsafe { ffi::PyLong_AsLongLongAndOverflow(obj, &mut overflow) };
        self.big_int(obj, overflow > 0)
    }

    /// The value of an int that fits an i64, read without raising.
    ///
    /// # Safety
    /// `obj` is a live `int` (or subclass); GIL held.
    #[inline(always)]
    unsafe fn int64(&self, obj: *mut PyObject) -> Option<i64> {
        if self.known.ints_311 {
            // SAFETY: `obj` is a live int and the interpreter is 3.11.
            if let Some(v) = unsafe { small_int_311(obj) } {
                return Some(v);
            }
        }
        let mut overflow = 0;
        // SAFETY: `obj` is a live int (not an object with `__index__`, so
        // nothing is called); the out-parameter is a local. It reports a
        // value outside i64 through `overflow`, without an error.
        let v = unsafe { ffi::PyLong_AsLongLongAndOverflow(obj, &mut overflow) };
        (overflow == 0).then_some(v)
    }

    /// An int outside int64: uint64 where it fits, otherwise its decimal
    /// text (exact in compact and go, the nearest double in jcs).
    #[cold]
    #[inline(never)]
    fn big_int(&mut self, obj: *mut PyObject, positive: bool) -> Walk {
        // Only asked of CPython when it fits (an OverflowError would be a
        // new object the garbage collector tracks, whose making can run
        // Python code: see text.rs).
        // SAFETY: `obj` is a live int; `_PyLong_NumBits` does not fail for one.
        if positive && unsafe { _PyLong_NumBits(obj) } <= 64 {
            // SAFETY: a positive int of at most 64 bits converts without error.
            let u = unsafe { ffi::PyLong_AsUnsignedLongLong(obj) };
            return self.w.u64(u).map_err(Fail::core);
        }
        // SAFETY: `obj` is a live int; base 10 gives plain decimal digits.
        let text = unsafe { ffi::PyNumber_ToBase(obj, 10) };
        if text.is_null() {
            return Err(int_text_failed(self.py, obj));
        }
        // SAFETY: `text` is a new, live str of ASCII digits.
        let digits = unsafe { utf8_of(text) }.unwrap_or("").to_owned();
        // SAFETY: we own `text`.
        unsafe { ffi::Py_DECREF(text) };
        self.w.number_text(&digits).map_err(Fail::core)
    }

    // ---- containers ----------------------------------------------------

    /// # Safety
    /// `list` is a live list (or subclass), held by the caller; GIL held.
    pub(super) unsafe fn list(&mut self, list: *mut PyObject) -> Walk {
        self.enter()?;
        // SAFETY: `list` is live; item 0 is read only when it exists.
        unsafe {
            if ffi::PyList_GET_SIZE(list) > 1 && ffi::Py_TYPE(ffi::PyList_GET_ITEM(list, 0)) == addr_of_mut!(ffi::PyDict_Type) {
                return self.list_of_records(list);
            }
        }
        // SAFETY: `list` is live; item 0 is read only when it exists.
        unsafe {
            if ffi::PyList_GET_SIZE(list) >= RUN_MIN
                && self.known.ints_311
                && self.w.runs_items()
                && runs_type(ffi::PyList_GET_ITEM(list, 0))
            {
                return self.list_of_scalars(list);
            }
        }
        self.w.begin_array();
        let mut i = 0;
        // SAFETY: `list` is live; its length is compared with `n` after
        // every item (Python code run for an item may resize the list: an
        // error, `list_changed`), so every index is in bounds, and each item
        // is a live object owned by the list at that moment.
        unsafe {
            let n = ffi::PyList_GET_SIZE(list);
            while i < n {
                // Start loading an item a few steps ahead (its header is the
                // first thing writing it reads); the index is in bounds.
                if i + 4 < n {
                    dictiter::prefetch(ffi::PyList_GET_ITEM(list, i + 4));
                }
                let item = ffi::PyList_GET_ITEM(list, i);
                self.item(item, i == 0, None).map_err(|e| e.in_index(i as usize))?;
                list_changed(list, n)?;
                i += 1;
            }
        }
        self.w.end_array(i == 0);
        self.w.spill_if_full().map_err(Fail::core)
    }

    /// A list of at least `RUN_MIN` items that starts with a str, int,
    /// float, None or bool, in a writer that `runs_items`: as `list`, with
    /// runs of such items written through a local cursor (`run_items`), the
    /// output length stored once per run rather than once per item. Kept
    /// out of `list`, whose loop also serves short lists (the 56k pairs of
    /// floats of canada.json took 9% longer with the run code in that loop,
    /// even where no run started).
    ///
    /// # Safety
    /// As `list`, whose depth check this follows; `Known::ints_311`.
    #[inline(never)]
    unsafe fn list_of_scalars(&mut self, list: *mut PyObject) -> Walk {
        self.w.begin_array();
        let mut i = 0;
        // SAFETY: as in `list`.
        unsafe {
            let n = ffi::PyList_GET_SIZE(list);
            while i < n {
                let item = ffi::PyList_GET_ITEM(list, i);
                if runs_type(item) {
                    // Strs, ints, floats, None and bools through a run; an
                    // item the run declines (a long or non-ASCII str, a
                    // large int, a non-finite float) goes to `item` below.
                    // Room for every item left at its largest, up to
                    // `RUN_ROOM`: a small document's output stays small.
                    let room = ((n - i) as usize).saturating_mul(RUN_ITEM_ROOM).min(RUN_ROOM);
                    let next = self.w.item_run(room, |run| run_items(run, list, i));
                    if next > i {
                        i = next;
                        self.w.spill_if_full().map_err(Fail::core)?;
                        continue;
                    }
                }
                if i + 4 < n {
                    dictiter::prefetch(ffi::PyList_GET_ITEM(list, i + 4));
                }
                self.item(item, i == 0, None).map_err(|e| e.in_index(i as usize))?;
                list_changed(list, n)?;
                i += 1;
            }
        }
        self.w.end_array(i == 0);
        self.w.spill_if_full().map_err(Fail::core)
    }

    /// A list that starts with a dict, likely of records of one shape: as
    /// `list`, with a `LastShape` for its dicts (kept out of `list` so that
    /// other lists, such as the many short lists of numbers of a geometry,
    /// carry none).
    ///
    /// # Safety
    /// As `list`, whose depth check this follows.
    #[inline(never)]
    unsafe fn list_of_records(&mut self, list: *mut PyObject) -> Walk {
        self.w.begin_array();
        let mut last = LastShape::new();
        let mut i = 0;
        // SAFETY: as in `list`.
        unsafe {
            let n = ffi::PyList_GET_SIZE(list);
            while i < n {
                if i + 4 < n {
                    dictiter::prefetch(ffi::PyList_GET_ITEM(list, i + 4));
                }
                let item = ffi::PyList_GET_ITEM(list, i);
                self.item(item, i == 0, Some(&mut last)).map_err(|e| e.in_index(i as usize))?;
                list_changed(list, n)?;
                i += 1;
            }
        }
        self.w.end_array(i == 0);
        self.w.spill_if_full().map_err(Fail::core)
    }

    /// # Safety
    /// `tuple` is a live tuple (or subclass), held by the caller; GIL held.
    pub(super) unsafe fn tuple(&mut self, tuple: *mut PyObject) -> Walk {
        self.enter()?;
        self.w.begin_array();
        // SAFETY: tuples are immutable, so the length and items stay valid
        // while the (held) tuple lives.
        let n = unsafe { ffi::PyTuple_GET_SIZE(tuple) };
        for i in 0..n {
            // SAFETY: `i < n`, the tuple's length.
            unsafe {
                let item = ffi::PyTuple_GET_ITEM(tuple, i);
                self.item(item, i == 0, None).map_err(|e| e.in_index(i as usize))?;
            }
        }
        self.w.end_array(n == 0);
        self.w.spill_if_full().map_err(Fail::core)
    }

    /// # Safety
    /// `dict` is a live dict (or subclass), held by the caller; GIL held.
    #[inline(always)]
    pub(super) unsafe fn dict(&mut self, dict: *mut PyObject) -> Walk {
        // SAFETY: as the caller guarantees.
        unsafe { self.dict_in(dict, None, None) }
    }

    /// The separator (and, when indenting, the newline) before an array
    /// item: `item` is `Some(first)` for an array item, `None` otherwise.
    #[inline(always)]
    fn item_sep(&mut self, item: Option<bool>) {
        if let Some(first) = item {
            self.w.array_item(first);
        }
    }

    /// A dict, an item of the list whose `last` shape is given, if any;
    /// `item` is `Some(first)` when the dict is an array item, whose
    /// separator is then written here (with the dict, for a cached shape).
    ///
    /// One copy, out of line, for a dict anywhere (an array item, a member's
    /// value): inlined into `dict` and into each list's `item`, the shape
    /// lookup was laid out, and touched, once per caller
    /// (bench/results/py-footprint-2026-11-28.md).
    ///
    /// # Safety
    /// As `dict`.
    #[inline(never)]
    unsafe fn dict_in(&mut self, dict: *mut PyObject, last: Option<&mut LastShape>, item: Option<bool>) -> Walk {
        self.enter()?;
        // SAFETY: `dict` is live and the interpreter has the layout.
        if self.known.direct_dicts && unsafe { dictiter::len(dict) } == 0 {
            self.item_sep(item);
            self.w.empty_object();
            return Ok(());
        }
        if self.map_order != KeyOrder::Insertion {
            // SAFETY: as the caller guarantees.
            return unsafe { self.dict_sorted_in(dict, last, item) };
        }
        if self.known.direct_dicts {
            // SAFETY: `dict` is live and the interpreter has the layout.
            if let Some((entries, n)) = unsafe { dictiter::str_key_table(dict) } {
                // SAFETY: as the caller guarantees; `entries` is the table
                // just read.
                return unsafe { self.dict_table_in::<false>(dict, entries, n, last, item) };
            }
            // SAFETY: as above.
            if unsafe { dictiter::general_keys(dict) } {
                // SAFETY: as the caller guarantees.
                return unsafe { self.dict_general_in(dict, last, item) };
            }
        }
        self.item_sep(item);
        // SAFETY: as the caller guarantees.
        unsafe { self.dict_members(dict) }
    }

    /// `dict_in` and `dict_sorted_in` for a dict whose table is of the
    /// general kind (entries with their hash; `orjson.loads` makes its dicts
    /// of more than eight members so): its members copied as (key, value)
    /// pairs (`dictiter::general_str_pairs`), then written as a table of
    /// the unicode kind is, or member by member (collected, when sorted)
    /// when its keys are not all exact strs. Out of line, so that the
    /// common path carries no copy.
    ///
    /// # Safety
    /// As `dict_in`.
    #[cold]
    #[inline(never)]
    unsafe fn dict_general_in(&mut self, dict: *mut PyObject, last: Option<&mut LastShape>, item: Option<bool>) -> Walk {
        let mut copy = Vec::new();
        let sorted = self.map_order != KeyOrder::Insertion;
        // SAFETY (the call and each arm): `dict` is live and the
        // interpreter has the layout; as the caller guarantees; `entries` is
        // the copy just made, which lives until the dict is written.
        unsafe {
            match dictiter::general_str_pairs(dict, &mut copy, ty_str()) {
                Some((entries, n)) if sorted => self.dict_table_in::<true>(dict, entries, n, last, item),
                Some((entries, n)) => self.dict_table_in::<false>(dict, entries, n, last, item),
                None if sorted => self.dict_uncached::<true>(dict, item),
                None => self.dict_uncached::<false>(dict, item),
            }
        }
    }

    /// `dict_in` (`SORTED` false) or `dict_sorted_in` (true) from a table of
    /// `n` members whose keys are all exact strs, read just now (`entries`:
    /// the table, or a copy of its pairs): from a cached shape of the
    /// walker's key order where one fits (the list's last shape first),
    /// else member by member (collected and sorted, when sorted).
    ///
    /// # Safety
    /// As `dict_in`; `entries` is the current table of `dict` (or a copy of
    /// its pairs made with no Python code run since), of `n >= 1` members.
    #[inline(always)]
    unsafe fn dict_table_in<const SORTED: bool>(
        &mut self,
        dict: *mut PyObject,
        entries: *const *mut PyObject,
        n: usize,
        last: Option<&mut LastShape>,
        item: Option<bool>,
    ) -> Walk {
        // The table is this version's: `write_shape` checks that it still
        // is before reading it (nothing between here and there should run
        // Python code, and nothing may rely on that).
        // SAFETY: `dict` is live and the interpreter has the layout.
        let version = unsafe { dictiter::version(dict) };
        if !SORTED && n == 1 {
            // SAFETY: as the caller guarantees; `entries` is the
            // table just read, of one member, at `version`.
            return unsafe { self.dict_one(dict, entries, version, item) };
        }
        if n >= 2 {
            let Some(last) = last else {
                // SAFETY: `entries` is the table just read, of `n` str keys.
                return match unsafe { self.table_shape::<SORTED>(entries, n) } {
                    // SAFETY: as the caller guarantees; `entries` is the table just read.
                    Some(shape) => unsafe { self.write_shape(dict, &shape, entries, version, item) },
                    // SAFETY: as the caller guarantees.
                    None => unsafe { self.dict_uncached::<SORTED>(dict, item) },
                };
            };
            // SAFETY: `entries` is the table just read, of `n` str keys
            // (the list's last shape has this walker's order and set).
            let found = match unsafe { last.take_if(entries, n) } {
                Some(shape) => Some(shape),
                // SAFETY: as above.
                None => unsafe { self.table_shape::<SORTED>(entries, n) },
            };
            if let Some(shape) = found {
                // SAFETY: as the caller guarantees; `entries` is the table just read.
                let r = unsafe { self.write_shape(dict, &shape, entries, version, item) };
                last.put(shape);
                return r;
            }
        }
        // SAFETY: as the caller guarantees.
        unsafe { self.dict_uncached::<SORTED>(dict, item) }
    }

    /// A dict no cached shape fits: member by member in insertion order, or
    /// collected and sorted (`dict_sorted`).
    ///
    /// # Safety
    /// As `dict_in`.
    #[inline(always)]
    unsafe fn dict_uncached<const SORTED: bool>(&mut self, dict: *mut PyObject, item: Option<bool>) -> Walk {
        self.item_sep(item);
        // SAFETY (both arms): as the caller guarantees.
        if SORTED {
            unsafe { self.dict_sorted(dict, self.map_order) }
        } else {
            unsafe { self.dict_members(dict) }
        }
    }

    /// The cached shape of the `n` keys of the table `entries` in the
    /// walker's order: sorted (found only), or insertion order (found, or
    /// made the second time the same keys come).
    ///
    /// # Safety
    /// As `insertion_shape` and `sorted_shape`.
    #[inline(always)]
    unsafe fn table_shape<const SORTED: bool>(&mut self, entries: *const *mut PyObject, n: usize) -> Option<Rc<Shape>> {
        // SAFETY: as the caller guarantees.
        unsafe {
            if SORTED {
                self.sorted_shape(entries, n)
            } else {
                self.insertion_shape(entries, n)
            }
        }
    }

    /// A dict of one member in insertion order, whose table (`entries`, its
    /// key an exact str) was read at `version` just now: the member written
    /// straight from the table, without `dict_members`' cursor or a cached
    /// shape (both cost more code per call than such a dict is worth). As
    /// on every path, the key is held with the value while it is written
    /// (`element_in`), and a dict changed meanwhile is an error.
    ///
    /// # Safety
    /// As `dict`; `entries` is the table of `dict` at `version`, of one member.
    unsafe fn dict_one(&mut self, dict: *mut PyObject, entries: *const *mut PyObject, version: u64, item: Option<bool>) -> Walk {
        // SAFETY: the table holds one member: its key, then its value.
        let (k, v) = unsafe { (*entries, *entries.add(1)) };
        // SAFETY: `k` is a live exact str, held by the dict.
        let Some(key) = (unsafe { utf8_of(k) }) else {
            // Lone surrogates: repaired or reported member by member.
            self.item_sep(item);
            // SAFETY: as the caller guarantees.
            return unsafe { self.dict_members(dict) };
        };
        self.item_sep(item);
        self.w.begin_object();
        self.w.key(key, true).map_err(Fail::core)?;
        // SAFETY: `v` and `k` are live members of the held dict, borrowed;
        // `element_in` holds both while Python code may run, and `key` is
        // `k`'s own text.
        unsafe { self.element_in(v, Some((k, key))) }?;
        // SAFETY: `dict` is live (held by the caller), with the layout.
        if unsafe { dictiter::version(dict) } != version {
            return Err(Fail::changed("dict changed"));
        }
        self.w.end_object(false);
        self.w.spill_if_full().map_err(Fail::core)
    }

    /// A dict written member by member, in insertion order: read from its
    /// table where the interpreter's layout is known (its version tag then
    /// tells whether Python code changed it meanwhile), otherwise collected
    /// with a reference to every member first (`dict_collected`).
    ///
    /// # Safety
    /// As `dict`.
    unsafe fn dict_members(&mut self, dict: *mut PyObject) -> Walk {
        // Keys other than exact strs (str subclasses may be distinct keys
        // with the same text) are collected too, where names written twice
        // are looked for.
        // SAFETY: the layout is read only where the interpreter has it.
        if !self.known.direct_dicts || unsafe { dictiter::general_keys(dict) } {
            // SAFETY: as the caller guarantees.
            return unsafe { self.dict_collected(dict, KeyOrder::Insertion) };
        }
        self.w.begin_object();
        let cursor = DictCursor::new(dict, true);
        // SAFETY: as the caller guarantees.
        unsafe { self.members_from(dict, cursor, true) }
    }

    /// The cached shape of a dict written in insertion order whose table
    /// (`entries`, `n` members, keys all exact str) was read just now: found,
    /// or made the second time the same keys come.
    ///
    /// # Safety
    /// `entries` is the current table of a live dict, held by the caller; GIL held.
    #[inline(always)]
    unsafe fn insertion_shape(&mut self, entries: *const *mut PyObject, n: usize) -> Option<Rc<Shape>> {
        let tag = Tag { by: KeyOrder::Insertion, set: self.w.style().escaper.set() };
        // SAFETY: `i < n`, inside the table's entries.
        let key_at = |i: usize| unsafe { *entries.add(2 * i) };
        match self.scratch.shapes.find_or_note(tag, n, key_at) {
            Ok(shape) => Some(Rc::clone(shape)),
            Err(false) => None,
            // SAFETY: as the caller guarantees.
            Err(true) => unsafe { self.make_insertion_shape(tag, entries, n) },
        }
    }

    /// # Safety
    /// As `insertion_shape`.
    #[cold]
    #[inline(never)]
    unsafe fn make_insertion_shape(&mut self, tag: Tag, entries: *const *mut PyObject, n: usize) -> Option<Rc<Shape>> {
        let sc: &mut Scratch = &mut self.scratch;
        sc.key_objs.clear();
        // SAFETY: `i < n`, inside the table's entries.
        sc.key_objs.extend((0..n).map(|i| unsafe { *entries.add(2 * i) }));
        let order: Vec<u32> = (0..n as u32).collect();
        let keys = &sc.key_objs;
        // SAFETY: the keys are live exact strs (the held dict holds them).
        let shape = unsafe {
            // Lone surrogates (no text): such keys take the member-by-member
            // path (which repairs or reports them).
            Shape::new(tag, keys, &order, self.w, super::shapes::MAX_NAME_BYTES, |i| utf8_of(keys[i as usize]))
        }?;
        sc.shapes.put(shape)
    }

    /// Writes the members `cursor` has still to give, then ends the object.
    /// The dict must not change meanwhile (its version tag is compared after
    /// every member): a change is `Fail::changed`, never a member written
    /// twice or a key paired with another's value.
    ///
    /// # Safety
    /// `dict` is the live dict the cursor walks, held by the caller, on an
    /// interpreter with `dictiter`'s layout; GIL held.
    unsafe fn members_from(&mut self, dict: *mut PyObject, mut cursor: DictCursor, mut first: bool) -> Walk {
        // SAFETY: `dict` is live, with the layout (caller).
        let version = unsafe { dictiter::version(dict) };
        // SAFETY: the cursor hands out borrowed, live key and value pointers
        // of the current table, unchanged since the version was read (checked
        // after each member, before the cursor reads on).
        unsafe {
            while let Some((k, v)) = cursor.next(dict) {
                match utf8_key(k) {
                    Some(key) => {
                        self.w.key(key, first).map_err(Fail::core)?;
                        self.element_in(v, Some((k, key)))?;
                    }
                    None => self.odd_key_member(dict, k, v, first)?,
                }
                if dictiter::version(dict) != version {
                    return Err(Fail::changed("dict changed"));
                }
                first = false;
            }
        }
        self.w.end_object(first);
        self.w.spill_if_full().map_err(Fail::core)
    }

    /// A member whose key is not a UTF-8-encodable str: a str with lone
    /// surrogates (repaired in go), or not a str at all (an error).
    ///
    /// # Safety
    /// GIL held; `dict` is the live dict being walked and `k`, `v` one of
    /// its members, borrowed from it and live when this is called.
    #[cold]
    #[inline(never)]
    unsafe fn odd_key_member(&mut self, dict: *mut PyObject, k: *mut PyObject, v: *mut PyObject, first: bool) -> Walk {
        if self.quick {
            return Err(Fail::declined());
        }
        let bytes = self.key_bytes(k)?;
        // SAFETY: `bytes` is a new reference to a live bytes object (owned
        // by `_bytes` from here); `k` and `v` are live (borrowed from the
        // dict being walked), as is `dict`.
        unsafe {
            let _bytes = Hold::owned(bytes);
            let key = String::from_utf8_lossy(bytes_of(bytes)).into_owned();
            // Repaired, this key may write the name another key writes.
            self.repaired_key_is_unique(dict, k, bytes_of(bytes))?;
            self.w.bytes_key(bytes_of(bytes), first).map_err(Fail::core)?;
            self.element_in(v, Some((k, &key)))
        }
    }

    /// Fails when a key of `dict` other than `k` writes the same name as
    /// `k`'s `surrogatepass` bytes repaired (as go repairs them). Keys of a
    /// dict read in place are exact strs, distinct by text, so only keys
    /// with lone surrogates can collide: this runs for those alone, and
    /// compares every key's written name (runs no Python code).
    ///
    /// # Safety
    /// `dict` is a live dict with `dictiter`'s layout, `k` one of its keys; GIL held.
    #[cold]
    unsafe fn repaired_key_is_unique(&mut self, dict: *mut PyObject, k: *mut PyObject, bytes: &[u8]) -> Walk {
        let name = text::go_repaired(bytes);
        let mut cursor = DictCursor::new(dict, true);
        // SAFETY: the cursor gives live borrowed keys of the current table;
        // nothing below runs Python code.
        unsafe {
            while let Some((other, _)) = cursor.next(dict) {
                if other == k || ffi::PyUnicode_Check(other) == 0 {
                    continue;
                }
                let same = match utf8_of(other) {
                    Some(text) => text == name,
                    None => text::go_repaired(&text::surrogatepass(other)) == name,
                };
                if same {
                    return Err(Fail::msg(format!("two keys of this dict write the same name {}", super::fail::quoted(&name))));
                }
            }
        }
        Ok(())
    }

    /// The surrogatepass bytes of a key that has no UTF-8 form, or the error
    /// for a key that is not a str.
    #[cold]
    fn key_bytes(&mut self, k: *mut PyObject) -> Result<*mut PyObject, Fail> {
        // SAFETY: `k` is a live object; the type name is a NUL-terminated C string.
        unsafe {
            if ffi::PyUnicode_Check(k) == 0 {
                let name = std::ffi::CStr::from_ptr((*ffi::Py_TYPE(k)).tp_name).to_string_lossy();
                return Err(Fail::msg(format!("dict keys must be str, not {name} (non_str_keys=True writes ints, floats, bools, None, Enums, UUIDs, dates and Decimals as text)")));
            }
        }
        self.surrogate_bytes(k)
    }

    /// A non-empty dict in a sorted key order (the walker's `map_order`),
    /// an item of the list whose `last` shape is given, if any: the dict
    /// whose keys are the same objects as a dict sorted before is written
    /// straight from its table in the cached order, with the cached encoded
    /// names, exactly as `dict_in` writes a cached insertion-order shape
    /// (the list's last shape first, then the cache). Everything else goes
    /// to `dict_sorted`, out of line. `item` as for `dict_in`.
    ///
    /// # Safety
    /// `dict` is a live dict, held by the caller; GIL held.
    #[inline(never)]
    unsafe fn dict_sorted_in(&mut self, dict: *mut PyObject, last: Option<&mut LastShape>, item: Option<bool>) -> Walk {
        if self.known.direct_dicts {
            // SAFETY: `dict` is live and the interpreter has the layout.
            if let Some((entries, n)) = unsafe { dictiter::str_key_table(dict) } {
                // SAFETY: as the caller guarantees; `entries` is the table
                // just read.
                return unsafe { self.dict_table_in::<true>(dict, entries, n, last, item) };
            }
            // SAFETY: as above.
            if unsafe { dictiter::general_keys(dict) } {
                // SAFETY: as the caller guarantees.
                return unsafe { self.dict_general_in(dict, last, item) };
            }
        }
        self.item_sep(item);
        // SAFETY: as the caller guarantees.
        unsafe { self.dict_sorted(dict, self.map_order) }
    }

    /// The cached sorted shape (the walker's order and escape set) of the
    /// `n` keys of the table `entries`, if any.
    ///
    /// # Safety
    /// `entries` is the current table of a live dict of `n` members, keys all
    /// exact str, held by the caller.
    #[inline(always)]
    unsafe fn sorted_shape(&self, entries: *const *mut PyObject, n: usize) -> Option<Rc<Shape>> {
        let tag = Tag { by: self.map_order, set: self.w.style().escaper.set() };
        // SAFETY: `i < n`, inside the table's entries.
        let key_at = |i: usize| unsafe { *entries.add(2 * i) };
        self.scratch.shapes.find(tag, n, key_at).cloned()
    }

    /// A dict written in the style's key order, cold path (`dict_sorted_in`
    /// found no cached shape): a dict of one member is written as it is; a
    /// dict whose keys are the same objects as a dict sorted before (keys
    /// the table cannot be read for) gets the cached order; any other is
    /// collected (members held), sorted, written and released.
    ///
    /// # Safety
    /// `dict` is a live dict, held by the caller; GIL held.
    #[inline(never)]
    unsafe fn dict_sorted(&mut self, dict: *mut PyObject, order: KeyOrder) -> Walk {
        // SAFETY: `dict` is a live dict.
        if unsafe { ffi::PyDict_Size(dict) } <= 1 {
            // SAFETY: as the caller guarantees.
            return unsafe { self.dict_members(dict) };
        }
        // SAFETY: as the caller guarantees.
        unsafe { self.dict_collected(dict, order) }
    }

    /// A dict whose members are first collected, each key and value held
    /// by a reference of its own, then written in `order` (sorted, or as
    /// collected) and released: what is written is what the dict held when
    /// the walk began, whatever Python code run meanwhile does to it, and
    /// where the interpreter's layout gives the dict's version tag, a change
    /// before the end is an error, as on the other paths.
    ///
    /// # Safety
    /// `dict` is a live dict, held by the caller; GIL held.
    unsafe fn dict_collected(&mut self, dict: *mut PyObject, order: KeyOrder) -> Walk {
        if self.quick {
            // Keys other than exact strs: left to the general path.
            return Err(Fail::declined());
        }
        let tag = Tag { by: order, set: self.w.style().escaper.set() };
        let base = self.scratch.sorting.len();
        // SAFETY: `dict` is live; the tag is read only with the layout.
        let version = self.known.direct_dicts.then(|| unsafe { dictiter::version(dict) });
        let r = self.collect_and_write(dict, tag, base, version);
        for e in self.scratch.sorting.drain(base..) {
            // SAFETY: every entry holds one reference to its holder and value.
            unsafe {
                ffi::Py_DECREF(e.holder);
                ffi::Py_DECREF(e.value);
            }
        }
        r
    }

    /// Writes a dict whose keys are `shape`'s, reading each member from the
    /// table as it is written: nothing is collected or held but the value
    /// being written (as for any dict). `item` is `Some(first)` for an
    /// array item (its separator is written here).
    ///
    /// # Safety
    /// `dict` is a live dict, held by the caller, whose current table
    /// `entries` matched `shape`; GIL held.
    unsafe fn write_shape(
        &mut self,
        dict: *mut PyObject,
        shape: &Shape,
        entries: *const *mut PyObject,
        version: u64,
        item: Option<bool>,
    ) -> Walk {
        let n = shape.len();
        // `entries` and `shape` hold for the table of `version`, the one
        // the caller read them from.
        // SAFETY: `dict` is live (held by the caller).
        if unsafe { dictiter::version(dict) } != version {
            return Err(Fail::changed("dict changed"));
        }
        // Start loading the values (each another object in memory, whose
        // header is the first thing writing it reads) all at once, so their
        // misses overlap instead of each member waiting for its own.
        for i in 0..n.min(PREFETCH_VALUES) {
            // SAFETY: `i < n`, inside the table.
            dictiter::prefetch(unsafe { *entries.add(2 * i + 1) });
        }
        // Members whose values are small scalars go through runs (the
        // brackets, names and values written through a local cursor, the
        // output length stored once per run); the others one by one below.
        let runs = self.known.ints_311 && self.w.runs_items();
        // An empty list value opens a container: only below the depth limit.
        let nest_ok = self.w.depth() + 1 < self.w.style().max_write_depth;
        let mut open = false;
        if !runs {
            self.item_sep(item);
            self.w.begin_object();
            open = true;
        }
        let mut pos = 0;
        loop {
            // After a member that took the general path, a run starts only
            // if the next value is one it writes (a dict's long strings and
            // nested containers would each cost a run that declines at once).
            // SAFETY: `pos < n` (the loop ends when it reaches `n`).
            let next = unsafe { shape.index_at(pos) };
            // SAFETY: `entries` is the current table (checked below after
            // any Python code ran) and `next < n`.
            if runs && (!open || unsafe { run_takes(*entries.add(2 * next + 1)) }) {
                let room = (n - pos).saturating_mul(NAME_WINDOW + RUN_ITEM_ROOM).saturating_add(3).min(RUN_ROOM);
                let comma = item == Some(false);
                let mut run = self.w.run(room);
                // SAFETY: `entries` is the current table of the held dict,
                // which no Python code changes during the run.
                let end = unsafe { run_members(&mut run, shape, entries, pos, &mut open, comma, nest_ok) };
                drop(run);
                if end.closed {
                    return self.w.spill_if_full().map_err(Fail::core);
                }
                if !open {
                    // No room even for the bracket (not with `RUN_ROOM`).
                    self.item_sep(item);
                    self.w.begin_object();
                    open = true;
                }
                pos = end.pos;
                if pos == n {
                    break;
                }
                self.member(shape, entries, pos, end.named)?;
            } else {
                self.member(shape, entries, pos, false)?;
            }
            // Python code run for that value (a `default`) may have changed
            // the dict, which CPython marks by a new version tag: then the
            // table, and `shape`'s claim on it, are stale (a key replaced by
            // another, a member moved): an error, as changing a dict while
            // iterating it is in Python.
            // SAFETY: `dict` is live (held by the caller).
            if unsafe { dictiter::version(dict) } != version {
                return Err(Fail::changed("dict changed"));
            }
            pos += 1;
            if pos == n {
                break;
            }
        }
        self.w.end_object(n == 0);
        self.w.spill_if_full().map_err(Fail::core)
    }

    /// Member `pos` (in `shape`'s order) of a dict written by `write_shape`
    /// through the general path, its name unless `named` (a run wrote it).
    ///
    /// # Safety
    /// As `write_shape`; `entries` is the dict's current table; `pos < shape.len()`.
    #[inline(always)]
    unsafe fn member(&mut self, shape: &Shape, entries: *const *mut PyObject, pos: usize, named: bool) -> Walk {
        let n = shape.len();
        // SAFETY: `pos < n` (caller).
        let idx = unsafe { shape.index_at(pos) };
        // Start loading a value two members ahead (members are visited
        // in key order, not memory order), past those `write_shape`
        // started loading.
        if pos + 2 < n && pos + 2 >= PREFETCH_VALUES {
            // SAFETY: the index is below `n`, inside the table.
            dictiter::prefetch(unsafe { *entries.add(2 * shape.index_at(pos + 2) + 1) });
        }
        // SAFETY: `idx < n`, inside the table.
        let (k, v) = unsafe { (*entries.add(2 * idx), *entries.add(2 * idx + 1)) };
        debug_assert!(k == shape.key(idx) && !v.is_null());
        if !named {
            // SAFETY: `pos < n` (caller).
            let (names, at, len) = unsafe { shape.name_at(pos) };
            self.w.encoded_key(names, at, len, pos == 0);
        }
        // SAFETY: `v` is a live member of the held dict (`element` holds it
        // while it is written); `k` is held by the shape, which outlives
        // this call, so its text is read after any Python code safely.
        unsafe { self.element(v) }.map_err(|e| e.in_key(unsafe { key_name(k) }.as_deref().unwrap_or("")))
    }

    fn collect_and_write(&mut self, dict: *mut PyObject, tag: Tag, base: usize, version: Option<u64>) -> Walk {
        let mut cursor = DictCursor::new(dict, self.known.direct_dicts);
        // SAFETY: the dict is live (caller); the cursor gives live borrowed
        // pointers, which each entry then holds with its own reference.
        unsafe {
            while let Some((k, v)) = cursor.next(dict) {
                let entry = match utf8_key(k) {
                    Some(key) => {
                        ffi::Py_INCREF(k);
                        Entry { key: key.as_ptr(), len: key.len(), holder: k, value: v, utf8: true, exact: ffi::Py_TYPE(k) == ty_str() }
                    }
                    None if self.non_str_keys && ffi::PyUnicode_Check(k) == 0 => {
                        // Held while its text is made: that may run Python
                        // code (an Enum's value, a tzinfo), after which the
                        // cursor reads on from the current table, and the
                        // dict's version is checked before anything is written.
                        ffi::Py_INCREF(k);
                        ffi::Py_INCREF(v);
                        let text = self.key_text(k);
                        ffi::Py_DECREF(k);
                        ffi::Py_DECREF(v);
                        let text = text?;
                        // The text of a str we made (never lone surrogates),
                        // `text` released if making its UTF-8 form unwinds
                        // (out of memory) before the entry holds it.
                        let guard = Hold::owned(text);
                        let t = utf8_of(text).unwrap_or("");
                        std::mem::forget(guard);
                        Entry { key: t.as_ptr(), len: t.len(), holder: text, value: v, utf8: true, exact: false }
                    }
                    None => {
                        let bytes = self.key_bytes(k)?;
                        let b = bytes_of(bytes);
                        Entry { key: b.as_ptr(), len: b.len(), holder: bytes, value: v, utf8: false, exact: false }
                    }
                };
                // Room first (a dict's worth of entries is a Rust
                // allocation, which would abort when it fails): out of
                // memory unwinds to the walk's catch, and the walker's drop
                // releases the entries already held. `entry` holds its key
                // (or the text made of it): released by its guard if so.
                if self.scratch.sorting.len() == self.scratch.sorting.capacity() {
                    let guard = Hold::owned(entry.holder);
                    super::output::room_or_unwind(&mut self.scratch.sorting, 1);
                    std::mem::forget(guard);
                }
                ffi::Py_INCREF(v);
                self.scratch.sorting.push(entry);
            }
        }
        let key_of = |e: &Entry| -> &[u8] {
            // SAFETY: the holder (held by the entry) owns these bytes.
            unsafe { std::slice::from_raw_parts(e.key, e.len) }
        };
        let sc: &mut Scratch = &mut self.scratch;
        let end = sc.sorting.len();
        // The order as member indexes: from the shape cache when these are
        // the same key objects as a dict sorted earlier, else by sorting.
        sc.key_objs.clear();
        // The order's scratch, grown as the entries' was (room_or_unwind).
        let members = end - base;
        super::output::room_or_unwind(&mut sc.key_objs, members);
        super::output::room_or_unwind(&mut sc.order, members);
        super::output::room_or_unwind(&mut sc.prefixes, members);
        let all_str = sc.sorting[base..].iter().all(|e| e.exact);
        if all_str {
            sc.key_objs.extend(sc.sorting[base..].iter().map(|e| e.holder));
        }
        // This dict's order sits at the top of the shared order stack; nested
        // dicts push theirs above it and pop them before we read on.
        let obase = sc.order.len();
        let key_objs = &sc.key_objs;
        let cached =
            if all_str && tag.by != KeyOrder::Insertion { sc.shapes.find(tag, key_objs.len(), |i| key_objs[i]).cloned() } else { None };
        match cached {
            // As collected: the table's order.
            None if tag.by == KeyOrder::Insertion => sc.order.extend(0..(end - base) as u32),
            Some(shape) => sc.order.extend_from_slice(&shape.order),
            None => {
                let members = &sc.sorting[base..];
                // Sort by the keys' first 16 bytes as one integer (laid out so
                // that integer order is the key order), and compare whole keys
                // only when those are equal.
                sc.prefixes.clear();
                sc.prefixes.extend(members.iter().enumerate().map(|(i, e)| (jetjson::sort_prefix(tag.by, key_of(e)), i as u32)));
                let k = |i: u32| key_of(&members[i as usize]);
                match tag.by {
                    KeyOrder::Utf16 => {
                        sc.prefixes.sort_unstable_by(|a, b| a.0.cmp(&b.0).then_with(|| jetjson::compare_utf16(k(a.1), k(b.1))))
                    }
                    _ => sc.prefixes.sort_unstable_by(|a, b| a.0.cmp(&b.0).then_with(|| k(a.1).cmp(k(b.1)))),
                }
                sc.order.extend(sc.prefixes.iter().map(|p| p.1));
                if all_str && sc.shapes.wants(tag, &sc.key_objs) {
                    // SAFETY: the key objects are held by the entries; the
                    // bytes came from CPython's UTF-8 form of a str.
                    let shape = unsafe {
                        Shape::new(tag, &sc.key_objs, &sc.order[obase..], self.w, super::shapes::MAX_NAME_BYTES, |i| {
                            Some(std::str::from_utf8_unchecked(k(i)))
                        })
                    };
                    if let Some(shape) = shape {
                        let _ = sc.shapes.put(shape);
                    }
                }
            }
        }
        // Keys that are not exact strs, or that go repairs, may write the
        // same name twice: never written.
        if !self.scratch.sorting[base..end].iter().all(|e| e.exact) {
            if let Err(e) = self.names_are_unique(base, end) {
                self.scratch.order.truncate(obase);
                return Err(e);
            }
        }
        // Written from the stack by index: nested dicts may grow it meanwhile.
        let r = self.write_sorted(base, end, obase, dict, version);
        self.scratch.order.truncate(obase);
        r
    }

    /// Fails when two of the collected members `base..end` write the same
    /// name (their text, or for keys with lone surrogates, the name go
    /// repairs them to).
    #[cold]
    fn names_are_unique(&self, base: usize, end: usize) -> Walk {
        let mut names: Vec<std::borrow::Cow<'_, str>> = self.scratch.sorting[base..end]
            .iter()
            .map(|e| {
                // SAFETY: the holder (held by the entry) owns these bytes.
                let bytes = unsafe { std::slice::from_raw_parts(e.key, e.len) };
                text::go_repaired(bytes)
            })
            .collect();
        names.sort_unstable();
        match names.windows(2).find(|w| w[0] == w[1]) {
            Some(w) => Err(Fail::msg(format!("two keys of this dict write the same name {}", super::fail::quoted(&w[0])))),
            None => Ok(()),
        }
    }

    /// Writes the collected members `base..end` in the order at `obase`;
    /// with the dict's `version`, fails as soon as the dict has another.
    fn write_sorted(&mut self, base: usize, end: usize, obase: usize, dict: *mut PyObject, version: Option<u64>) -> Walk {
        let key_of = |e: &Entry| -> &[u8] {
            // SAFETY: the holder (held by the entry) owns these bytes.
            unsafe { std::slice::from_raw_parts(e.key, e.len) }
        };
        self.w.begin_object();
        for n in 0..end - base {
            let idx = self.scratch.order[obase + n];
            let e = self.scratch.sorting[base + idx as usize];
            let key = key_of(&e);
            if e.utf8 {
                // SAFETY: the bytes came from CPython's UTF-8 form of a str.
                let key = unsafe { std::str::from_utf8_unchecked(key) };
                self.w.key(key, n == 0).map_err(Fail::core)?;
            } else {
                self.w.bytes_key(key, n == 0).map_err(Fail::core)?;
            }
            // SAFETY: the entry holds the value and the key's text; nested
            // dicts push their entries above `end` and release them before
            // returning.
            unsafe { self.element(e.value) }.map_err(|err| err.in_key(&String::from_utf8_lossy(key)))?;
            if let Some(version) = version {
                // SAFETY: `dict` is live (held by the caller), with the layout.
                if unsafe { dictiter::version(dict) } != version {
                    return Err(Fail::changed("dict changed"));
                }
            }
        }
        self.w.end_object(end == base);
        self.w.spill_if_full().map_err(Fail::core)
    }
}

/// `Err` when `list` no longer has `n` items: Python code run for an item
/// resized it, so the items left are not those there were (and an item
/// inserted before the current one would be met again, for ever).
///
/// # Safety
/// `list` is a live list; GIL held.
#[inline(always)]
unsafe fn list_changed(list: *mut PyObject, n: ffi::Py_ssize_t) -> Walk {
    // SAFETY: `list` is live.
    if unsafe { ffi::PyList_GET_SIZE(list) } != n {
        return Err(Fail::changed("list changed size"));
    }
    Ok(())
}

/// The value of an int of at most two 30-bit digits, read from CPython
/// 3.11's layout (`ob_size` = signed digit count, then the digits), which
/// covers |v| < 2^60 without a call; `None` for wider ints.
///
/// # Safety
/// `obj` is a live int (or subclass) on CPython 3.11.
#[inline(always)]
pub(super) unsafe fn small_int_311(obj: *mut PyObject) -> Option<i64> {
    // SAFETY: a 3.11 int is a PyVarObject followed by |ob_size| u32 digits
    // (at least one allocated); only digits below |ob_size| are read.
    unsafe {
        let size = ffi::Py_SIZE(obj);
        let digits = (obj as *const u8).add(std::mem::size_of::<ffi::PyVarObject>()) as *const u32;
        let magnitude = match size.unsigned_abs() {
            0 => 0,
            1 => i64::from(*digits),
            2 => i64::from(*digits) | (i64::from(*digits.add(1)) << 30),
            _ => return None,
        };
        Some(if size < 0 { -magnitude } else { magnitude })
    }
}

/// Room reserved for one run of list items (`run_items`).
const RUN_ROOM: usize = 1024;

/// Most bytes a run writes for one item: a separator and a quoted str of
/// `ItemRun::MAX_STR` bytes (`ItemRun::str`), more than an int, a float or a
/// literal takes.
const RUN_ITEM_ROOM: usize = jetjson::ItemRun::MAX_STR + 3;

/// Fewest items of a list written with runs (`list_of_scalars`).
const RUN_MIN: ffi::Py_ssize_t = 4;

/// True for the types `run_items` writes: exact str, int and float, None,
/// bool.
///
/// # Safety
/// `obj` is a live object; GIL held.
#[inline(always)]
pub(super) unsafe fn runs_type(obj: *mut PyObject) -> bool {
    // SAFETY: `obj` is live; the type pointers are only compared.
    unsafe {
        let ty = ffi::Py_TYPE(obj);
        ty == ty_str()
            || ty == addr_of_mut!(ffi::PyLong_Type)
            || ty == addr_of_mut!(ffi::PyFloat_Type)
            || obj == ffi::Py_None()
            || ty == addr_of_mut!(ffi::PyBool_Type)
    }
}

/// Writes `obj` through `run` (after a `,` unless `first`) if it is a
/// compact ASCII str that needs no escaping, an int of up to 60 bits, a
/// finite float (compact layout), None, a bool or, when `nest_ok` (one more
/// container is within the depth limit), an empty list; returns false,
/// writing nothing, for anything else or when the run is short of room.
/// Runs no Python code and sets no Python error.
///
/// # Safety
/// `obj` is a live object; GIL held; the interpreter has 3.11's int layout
/// (`Known::ints_311`).
#[inline(always)]
pub(super) unsafe fn run_value(run: &mut jetjson::ItemRun, obj: *mut PyObject, first: bool, nest_ok: bool) -> bool {
    // SAFETY: `obj` is live; the type pointers are only compared, and the
    // str and int layouts are read only for exact strs and ints.
    unsafe {
        let ty = ffi::Py_TYPE(obj);
        if ty == addr_of_mut!(ffi::PyLong_Type) {
            match small_int_311(obj) {
                Some(v) => run.i64(v, first),
                None => false,
            }
        } else if ty == addr_of_mut!(ffi::PyFloat_Type) {
            run.f64(ffi::PyFloat_AS_DOUBLE(obj), first)
        } else if ty == ty_str() {
            ffi::PyUnicode_IS_COMPACT_ASCII(obj) != 0 && {
                let header = obj as *mut ffi::PyASCIIObject;
                let len = (*header).length as usize;
                let data = header.add(1) as *const u8;
                run.str(std::str::from_utf8_unchecked(std::slice::from_raw_parts(data, len)), first)
            }
        } else if obj == ffi::Py_None() {
            run.literal(Literal::Null, first)
        } else if ty == addr_of_mut!(ffi::PyBool_Type) {
            run.literal(if obj == ffi::Py_True() { Literal::True } else { Literal::False }, first)
        } else if ty == addr_of_mut!(ffi::PyList_Type) {
            nest_ok && ffi::PyList_GET_SIZE(obj) == 0 && run.literal(Literal::EmptyArray, first)
        } else {
            false
        }
    }
}

/// Whether `run_value` would likely write `obj`: a str, int, float, None,
/// bool or empty list, strs only when short (a long one is escaped by the
/// general path). A cheap guess, not a promise.
///
/// # Safety
/// `obj` is a live object; GIL held.
#[inline(always)]
unsafe fn run_takes(obj: *mut PyObject) -> bool {
    // SAFETY: `obj` is live; a str's length is read only for a str.
    unsafe {
        let ty = ffi::Py_TYPE(obj);
        if ty == ty_str() {
            return (*(obj as *mut ffi::PyASCIIObject)).length as usize <= jetjson::ItemRun::MAX_STR;
        }
        runs_type(obj) || (ty == addr_of_mut!(ffi::PyList_Type) && ffi::PyList_GET_SIZE(obj) == 0)
    }
}

/// Values of a cached-shape dict whose loading `write_shape` starts before
/// writing the first member.
const PREFETCH_VALUES: usize = 16;

/// Writes the items of `list` from index `i` on through `run` while they
/// are compact ASCII strs that need no escaping, ints of up to 60 bits,
/// finite floats (compact layout), None or bools, and the run has room; returns the index of the first
/// item not written. Runs no Python code and sets no Python error, so the
/// list cannot change meanwhile.
///
/// # Safety
/// `list` is a live list, `i` at most its length; GIL held; the
/// interpreter has 3.11's int layout (`Known::ints_311`).
#[inline(always)]
unsafe fn run_items(run: &mut jetjson::ItemRun, list: *mut PyObject, mut i: ffi::Py_ssize_t) -> ffi::Py_ssize_t {
    // SAFETY: `list` is live and `i < n`, its length, which no Python code
    // changes during the run; each item is live, owned by the list.
    unsafe {
        let n = ffi::PyList_GET_SIZE(list);
        while i < n {
            if i + 4 < n {
                dictiter::prefetch(ffi::PyList_GET_ITEM(list, i + 4));
            }
            let obj = ffi::PyList_GET_ITEM(list, i);
            let done = run_value(run, obj, i == 0, false);
            if !done {
                break;
            }
            i += 1;
        }
        i
    }
}

/// Where `run_members` stopped.
struct RunEnd {
    /// The first member not written.
    pos: usize,
    /// Whether that member's name was written (its value was not).
    named: bool,
    /// Whether the object was closed (every member written).
    closed: bool,
}

/// Writes the members of a dict of `shape` from position `pos` on (in the
/// shape's order) through `run` while their values are what `run_value`
/// writes and the run has room, opening the object first (after a `,` when
/// `comma`) unless `open`, and closing it after the last member. Runs no
/// Python code.
///
/// # Safety
/// `entries` is the current table of a live dict whose keys are `shape`'s;
/// GIL held; `Known::ints_311`.
#[inline(always)]
unsafe fn run_members(
    run: &mut jetjson::ItemRun,
    shape: &Shape,
    entries: *const *mut PyObject,
    mut pos: usize,
    open: &mut bool,
    comma: bool,
    nest_ok: bool,
) -> RunEnd {
    let n = shape.len();
    if !*open {
        if !run.begin_object(comma) {
            return RunEnd { pos, named: false, closed: false };
        }
        *open = true;
    }
    while pos < n {
        // SAFETY: `pos < n`; `idx < n`, inside the table (caller).
        let (v, (names, at, len)) = unsafe { (*entries.add(2 * shape.index_at(pos) + 1), shape.name_at(pos)) };
        if !run.name(names, at, len, pos == 0) {
            return RunEnd { pos, named: false, closed: false };
        }
        // SAFETY: `v` is a live value of the dict (caller).
        if !unsafe { run_value(run, v, true, nest_ok) } {
            return RunEnd { pos, named: true, closed: false };
        }
        pos += 1;
    }
    RunEnd { pos, named: false, closed: run.end_object() }
}

/// A dict's members in order: read from the entry table where the layout
/// is known (`dictiter.rs`), otherwise through `PyDict_Next`.
enum DictCursor {
    Direct(Cursor),
    Api(ffi::Py_ssize_t),
}

impl DictCursor {
    #[inline(always)]
    fn new(dict: *mut PyObject, direct: bool) -> DictCursor {
        // SAFETY: `dict` is a live dict; the layout is only read when `direct`
        // says the interpreter has it.
        if direct && unsafe { dictiter::readable(dict) } {
            DictCursor::Direct(Cursor::new())
        } else {
            DictCursor::Api(0)
        }
    }

    /// # Safety
    /// `dict` is the live dict this cursor was made for; GIL held.
    #[inline(always)]
    unsafe fn next(&mut self, dict: *mut PyObject) -> Option<(*mut PyObject, *mut PyObject)> {
        // SAFETY: as the caller guarantees.
        unsafe {
            match self {
                // A table that stops being readable mid-walk ends the walk.
                DictCursor::Direct(c) => c.next(dict).unwrap_or(None),
                DictCursor::Api(pos) => {
                    let (mut k, mut v) = (std::ptr::null_mut(), std::ptr::null_mut());
                    (ffi::PyDict_Next(dict, pos, &mut k, &mut v) != 0).then_some((k, v))
                }
            }
        }
    }
}

/// A dict key's UTF-8 text: exact str first, then str subclasses.
/// `None` for non-str keys and for strs with lone surrogates.
///
/// # Safety
/// `k` is a live object; GIL held.
#[inline(always)]
unsafe fn utf8_key<'s>(k: *mut PyObject) -> Option<&'s str> {
    // SAFETY: `k` is live; it is only read as a str once its type says so.
    unsafe {
        if ffi::Py_TYPE(k) == ty_str() || ffi::PyUnicode_Check(k) != 0 {
            utf8_of(k)
        } else {
            None
        }
    }
}

/// The contents of a bytes object.
///
/// # Safety
/// `b` must be a live `bytes` (or subclass); the slice lives as long as it.
pub(super) unsafe fn bytes_of<'s>(b: *mut PyObject) -> &'s [u8] {
    // SAFETY: a bytes object stores `ob_size` bytes at PyBytes_AS_STRING.
    unsafe { std::slice::from_raw_parts(ffi::PyBytes_AS_STRING(b) as *const u8, ffi::Py_SIZE(b) as usize) }
}

/// A key's text for an error path, borrowed from the key (the caller holds
/// it), or for one with lone surrogates the head of it, replaced; `None`
/// for a key that is not a str.
///
/// # Safety
/// `k` is a live object; GIL held.
#[cold]
unsafe fn key_name<'s>(k: *mut PyObject) -> Option<std::borrow::Cow<'s, str>> {
    // SAFETY: `k` is live; `utf8_of` only for strs.
    unsafe {
        if ffi::PyUnicode_Check(k) == 0 {
            return None;
        }
        // (Only the head of a long key: `Fail::in_key` keeps no more.)
        Some(match utf8_of(k) {
            Some(text) => std::borrow::Cow::Borrowed(text),
            None => {
                let bytes = text::surrogatepass(k);
                let mut end = bytes.len().min(super::fail::SHOWN_TEXT_BYTES);
                while end > 0 && end < bytes.len() && (bytes[end] & 0xC0) == 0x80 {
                    end -= 1;
                }
                std::borrow::Cow::Owned(String::from_utf8_lossy(&bytes[..end]).into_owned())
            }
        })
    }
}

/// Why an int's decimal text could not be made: beyond CPython's int digit
/// limit (`sys.get_int_max_str_digits()`), a ValueError there, is the
/// profile's error with the int's place, as `loads` refuses such an int
/// with its position; anything else (MemoryError) is CPython's own.
#[cold]
#[inline(never)]
pub(super) fn int_text_failed(py: Python<'_>, obj: *mut PyObject) -> Fail {
    let e = PyErr::fetch(py);
    if !e.is_instance_of::<pyo3::exceptions::PyValueError>(py) {
        return Fail::py(e);
    }
    // SAFETY: `obj` is a live int (the caller's); `_PyLong_NumBits` does not fail for one.
    let bits = unsafe { _PyLong_NumBits(obj) };
    let digits = (bits as f64 * std::f64::consts::LOG10_2).ceil() as u64;
    Fail::msg(format!(
        "int of about {digits} digits is longer than Python's int digit limit allows (sys.get_int_max_str_digits(), 4300 by default; sys.set_int_max_str_digits raises it)"
    ))
}
