//! The visitor that builds typed values: the core parser drives it, and it
//! follows the plan (`plan.rs`), creating each Python object once, with its
//! final value.
//!
//! Finished values wait on one stack of owned references, as in `loads`.
//! A record reserves one slot per JSON member when its object opens; each
//! member's value goes straight into its slot (names matched by their raw
//! bytes, `names.rs`), so no dict is made for an object that becomes a
//! dataclass. When the object closes, missing members get their defaults
//! and the instance is made and filled (`finish_record`). Lists, tuples,
//! sets and dicts are made at their final size when they close. No
//! recursion: the parser's `max_depth` bounds the frames.
//!
//! Python code can run in the middle of a decode: `__post_init__`, a
//! `default_factory`, a custom `__init__`, a `pattern`'s search, a
//! `Decimal` constructor, a finalizer when a reference is released. The
//! builder holds a reference of its own to every value on its stack, the
//! plan holds everything it names (and is itself held by the caller for
//! the whole call), and the input is immutable (`bytes`, `str`) or a copy.
//! Nothing read from a Python object is trusted for size or shape.

use crate::fallible::{name, room_for_one};
use jetjson::parse::{NumberToken, NumberValue, ReadOptions, Visitor};
use jetjson::{DuplicateKeys, Error, ErrorKind};
use pyo3::ffi::{self, PyObject};
use pyo3::prelude::*;

use super::plan::{object_new, Build, Choices, Default, KeyKind, Node, Plan, Record, Rules, Store, TaggedNode, UnionNode};
use super::text;
use crate::loads::keys::{self, KeyCache};
use crate::loads::{numbers, strings};
use crate::schema::Kind;
use std::sync::atomic::Ordering::Relaxed;

extern "C" {
    fn _PyDict_SetItem_KnownHash(mp: *mut PyObject, key: *mut PyObject, item: *mut PyObject, hash: ffi::Py_hash_t) -> std::ffi::c_int;
}

static SKIP: Node = Node::Skip;
static EXTRA: Node = Node::Extra;

/// Member index meaning "not read".
const NOT_READ: usize = usize::MAX;

/// Why the builder stopped the parse.
pub(crate) enum Failure {
    /// The value does not fit the type: a `ValidationError`.
    Invalid { msg: String, path: String, at: Option<usize> },
    /// A Python exception (from `__post_init__`, a factory, out of memory).
    Python { err: PyErr, path: String, at: Option<usize> },
    /// A parser error inside a nested walk (already located).
    Syntax { msg: String, at: Option<usize> },
    /// A dict came out smaller than its member count: a name was repeated
    /// (the caller finds the first repeat, with its position, by checking
    /// the input with the parser's own tracking).
    Duplicate,
}

/// The options of one decode.
#[derive(Clone, Copy)]
pub(crate) struct Settings {
    pub strict: bool,
    pub forbid_unknown: bool,
    pub policy: DuplicateKeys,
    pub max_depth: usize,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum FrameKind {
    Record,
    NamedTuple,
    List,
    Set,
    FrozenSet,
    TupleOf,
    Tuple,
    Dict,
    AnyList,
    AnyDict,
}

#[derive(Clone, Copy)]
struct Frame<'p> {
    kind: FrameKind,
    /// Where the container's items start on the stack.
    start: usize,
    /// The node of the next item (arrays and dicts).
    elem: &'p Node,
    rec: Option<&'p Record>,
    items: &'p [Node],
    key: KeyKind,
    /// Records: the member being read (`NOT_READ`); tuples: the next item.
    field: usize,
    /// Records: the member expected next.
    hint: usize,
    rules: Option<&'p Rules>,
    /// Absolute offset of the opening bracket.
    at: usize,
}

pub(crate) struct Builder<'p, 'i> {
    py: Python<'p>,
    plan: &'p Plan,
    set: Settings,
    /// Owned references (null in record slots not filled yet).
    stack: Vec<*mut PyObject>,
    frames: Vec<Frame<'p>>,
    /// What the next value must be.
    expect: &'p Node,
    keys: Option<KeyCache>,
    pub(crate) failure: Option<Failure>,
    /// The whole input, and where the text of this walk starts in it.
    input: &'i [u8],
    base: usize,
    /// The path of this walk's root (`$` at the top).
    prefix: std::borrow::Cow<'static, str>,
    /// The record a tagged union's object reads as (chosen in `take_raw`).
    selected: Option<u32>,
    /// Absolute offset of the container `take_raw` was last asked about.
    opened: usize,
    /// Time zones made for offsets seen (owned).
    zones: Vec<(i32, *mut PyObject)>,
    /// Under `DuplicateKeys::Error`: the names of open records that are
    /// not members (unknown, the tag), with the depth of their record.
    others: Others,
    /// Names were not all tracked (an object with very many unknown
    /// members): the input is checked for repeats once the walk is done.
    pub(crate) recheck: bool,
}

/// Unknown names tracked per object; past this the whole input is
/// checked at the end instead (so checking stays linear).
const TRACKED_OTHERS: usize = 32;

/// The names of open records that are not members: their bytes one after
/// another in `text`, and per name its record's depth and its place in
/// `text` (no allocation per name; the memory is pooled between calls).
#[derive(Default)]
struct Others {
    names: Vec<(usize, usize, usize)>,
    text: Vec<u8>,
}

impl Others {
    /// The names of the record at `depth` (the innermost), last first.
    fn of(&self, depth: usize) -> impl Iterator<Item = &[u8]> {
        self.names.iter().rev().take_while(move |(d, _, _)| *d == depth).map(|&(_, at, len)| &self.text[at..at + len])
    }

    fn push(&mut self, depth: usize, name: &[u8]) {
        self.names.push((depth, self.text.len(), name.len()));
        self.text.extend_from_slice(name);
    }

    /// Forgets the names of the record at `depth` (closed).
    fn close(&mut self, depth: usize) {
        while let Some(&(d, at, _)) = self.names.last() {
            if d != depth {
                break;
            }
            self.names.pop();
            self.text.truncate(at);
        }
    }
}

/// The value stack's and the frame stack's memory, kept between calls so
/// that a small document allocates nothing but its own objects (only
/// capacity is kept: both are empty in the pool). Guarded by the GIL: taken
/// and put back with no Python code in between; a nested call (a tagged
/// object's text, a `__post_init__` decoding) finds the slot empty and
/// starts afresh.
struct Pool {
    stack: Vec<*mut PyObject>,
    /// `frames` of a `Builder`, with its lifetimes erased (see `take`).
    frames: Vec<Frame<'static>>,
    others: Others,
}

struct PoolSlot(std::cell::Cell<Option<Pool>>);

// SAFETY: only touched with the GIL held (`Builder::new` and `Drop` run
// with it: the builder holds `py`), and the extension is not built for
// free-threaded CPython (lib.rs). A pooled `Pool` is empty: no object
// pointer or borrowed plan goes from one call to another, only capacity.
unsafe impl Sync for PoolSlot {}

static POOL: PoolSlot = PoolSlot(std::cell::Cell::new(None));

/// Stack entries (and frames) kept at most between calls.
const MAX_POOLED: usize = 1 << 16;
/// Frames kept at most between calls (deeper documents are rare).
const MAX_POOLED_FRAMES: usize = 1 << 10;

impl Pool {
    /// The pooled memory, or new vectors.
    fn take<'p>() -> (Vec<*mut PyObject>, Vec<Frame<'p>>, Others) {
        match POOL.0.take() {
            Some(pool) => {
                let mut frames = std::mem::ManuallyDrop::new(pool.frames);
                debug_assert!(frames.is_empty());
                let (ptr, cap) = (frames.as_mut_ptr(), frames.capacity());
                // SAFETY: an empty vector's allocation (`ptr`, `cap`) taken
                // over as a vector of the same type but for its lifetimes
                // (same size and alignment, so the same layout); it holds
                // no element, so no reference outlives what it borrowed.
                let frames = unsafe { Vec::from_raw_parts(ptr.cast::<Frame<'p>>(), 0, cap) };
                (pool.stack, frames, pool.others)
            }
            None => (Vec::with_capacity(64), Vec::with_capacity(16), Others::default()),
        }
    }

    /// Keeps the memory of `stack` and `frames` (emptied) for the next call.
    fn put(mut stack: Vec<*mut PyObject>, frames: Vec<Frame<'_>>, mut others: Others) {
        stack.clear();
        stack.shrink_to(MAX_POOLED);
        others.names.clear();
        others.names.shrink_to(MAX_POOLED_FRAMES);
        others.text.clear();
        others.text.shrink_to(MAX_POOLED);
        // `Frame` holds references and plain data: nothing to drop.
        const _: () = assert!(!std::mem::needs_drop::<Frame<'static>>());
        let mut frames = std::mem::ManuallyDrop::new(frames);
        frames.clear();
        frames.shrink_to(MAX_POOLED_FRAMES);
        let (ptr, cap) = (frames.as_mut_ptr(), frames.capacity());
        // SAFETY: as in `take`: an empty vector's allocation, lifetimes
        // erased; no element is ever read through the erased type.
        let frames = unsafe { Vec::from_raw_parts(ptr.cast::<Frame<'static>>(), 0, cap) };
        let pool = Pool { stack, frames, others };
        // A nested call's pool, put back first, is replaced (and freed).
        POOL.0.set(Some(pool));
    }
}

impl<'p, 'i> Builder<'p, 'i> {
    pub(crate) fn new(
        py: Python<'p>,
        plan: &'p Plan,
        root: &'p Node,
        set: Settings,
        input: &'i [u8],
        text: &'i [u8],
        prefix: std::borrow::Cow<'static, str>,
    ) -> Builder<'p, 'i> {
        let base = text.as_ptr() as usize - input.as_ptr() as usize;
        let (stack, frames, others) = Pool::take();
        Builder {
            py,
            plan,
            set,
            stack,
            frames,
            expect: root,
            keys: KeyCache::acquire(py),
            failure: None,
            input,
            base,
            prefix,
            selected: None,
            opened: base,
            zones: Vec::new(),
            others,
            recheck: false,
        }
    }

    /// The finished value (after a successful parse), taken off the stack.
    pub(crate) fn finish(&mut self) -> Option<*mut PyObject> {
        self.stack.pop()
    }

    // ---- failures ------------------------------------------------------

    #[cold]
    #[inline(never)]
    fn invalid(&mut self, msg: String) -> Error {
        let path = self.path(self.frames.len(), true);
        self.invalid_at(msg, path, None)
    }

    #[cold]
    fn invalid_at(&mut self, msg: String, path: String, at: Option<usize>) -> Error {
        let e = Error::new(ErrorKind::Custom(msg.clone()));
        self.failure = Some(Failure::Invalid { msg, path, at });
        e
    }

    #[cold]
    #[inline(never)]
    fn python_error(&mut self) -> Error {
        // SAFETY: GIL held (the builder runs with it); asks about the
        // exception set, runs no Python code.
        if unsafe { ffi::PyErr_ExceptionMatches(ffi::PyExc_MemoryError) } != 0 {
            // Out of memory, the parse is over: what the stack holds is
            // released now, not in `drop`, so that the memory it took is
            // free for the error's own few allocations (one failing aborted
            // the process); the path, which reads keys off the stack, is
            // left out.
            for obj in std::mem::take(&mut self.stack) {
                // SAFETY: every non-null entry is an owned reference, taken
                // off the stack here (released once).
                unsafe { ffi::Py_XDECREF(obj) };
            }
            return self.python_error_at(String::new(), None);
        }
        let path = self.path(self.frames.len(), true);
        self.python_error_at(path, None)
    }

    #[cold]
    fn python_error_at(&mut self, path: String, at: Option<usize>) -> Error {
        let err = PyErr::take(self.py).unwrap_or_else(|| pyo3::exceptions::PySystemError::new_err("error without an exception"));
        let e = Error::new(ErrorKind::Custom(err.to_string()));
        self.failure = Some(Failure::Python { err, path, at });
        e
    }

    #[cold]
    #[inline(never)]
    fn mismatch(&mut self, node: &Node, got: &str) -> Error {
        if let Node::Extra = node {
            let n = self.frames.last().map_or(0, |f| match f.kind {
                FrameKind::NamedTuple => f.rec.map_or(0, |r| r.fields.len()),
                _ => f.items.len(),
            });
            return self.invalid(format!("Expected an array of at most {n} items"));
        }
        let what = self.what(node);
        self.invalid(format!("Expected {what}, got {got}"))
    }

    /// How a node is named in messages.
    fn what(&self, node: &Node) -> String {
        match node {
            Node::Any => "any value".into(),
            Node::Null => "null".into(),
            Node::Bool => "bool".into(),
            Node::Int => "int".into(),
            Node::Float => "float".into(),
            Node::Str => "str".into(),
            Node::Bytes => "bytes (base64 str)".into(),
            Node::DateTime => "datetime (RFC 3339 str)".into(),
            Node::Date => "date (YYYY-MM-DD str)".into(),
            Node::Time => "time (HH:MM:SS str)".into(),
            Node::Uuid => "UUID (str)".into(),
            Node::Decimal => "decimal (number or str)".into(),
            Node::Raw => "any value".into(),
            Node::Choice(c) => c.what.clone(),
            Node::List(_) | Node::Set(_) | Node::FrozenSet(_) | Node::TupleOf(_) | Node::Tuple(_) => "array".into(),
            Node::Record(i) if self.plan.record(*i).kind == Kind::NamedTuple => "array".into(),
            Node::Dict(_) | Node::Record(_) | Node::Tagged(_) => "object".into(),
            Node::Optional(inner) => format!("{} or null", self.what(inner)),
            Node::Union(u) => u.what.clone(),
            Node::Checked(b) => self.what(&b.0),
            Node::Skip | Node::Extra => "nothing".into(),
        }
    }

    /// The path to the value being read: the frames below `depth`, each
    /// with the item it is reading (the innermost one's too if `last`).
    fn path(&self, depth: usize, last: bool) -> String {
        use std::fmt::Write as _;
        let mut s = String::from(&*self.prefix);
        for (i, f) in self.frames[..depth].iter().enumerate() {
            if i + 1 == depth && !last {
                break;
            }
            let child = self.frames.get(i + 1).map_or(self.stack.len(), |c| c.start);
            match f.kind {
                FrameKind::Record => {
                    if let Some(rec) = f.rec {
                        if f.field < rec.members {
                            push_key(&mut s, &rec.fields[f.field].json);
                        } else if let (true, Some((tag, _))) = (f.field == rec.members, &rec.tag) {
                            push_key(&mut s, &String::from_utf8_lossy(tag));
                        }
                    }
                }
                FrameKind::NamedTuple | FrameKind::Tuple => {
                    let _ = write!(s, "[{}]", child.saturating_sub(f.start));
                }
                FrameKind::List | FrameKind::Set | FrameKind::FrozenSet | FrameKind::TupleOf | FrameKind::AnyList => {
                    let _ = write!(s, "[{}]", child.saturating_sub(f.start));
                }
                FrameKind::Dict | FrameKind::AnyDict => {
                    // The key of the member being read is the last one pushed.
                    let k = if child > f.start && (child - f.start) % 2 == 1 { self.stack.get(child - 1).copied() } else { None };
                    if let Some(k) = k.filter(|k| !k.is_null()) {
                        // SAFETY: `k` is a live key we own (str or int);
                        // PyObject_Str of either runs no Python code.
                        let text = unsafe { Bound::from_borrowed_ptr(self.py, k) }.str().map(|t| t.to_string()).unwrap_or_default();
                        push_key(&mut s, &text);
                    }
                }
            }
        }
        s
    }

    /// The stack could not grow for `obj` (MemoryError is set): releases
    /// `obj`, which is not on the stack, and stops the parse.
    #[cold]
    #[inline(never)]
    fn no_room_for(&mut self, obj: *mut PyObject) -> Error {
        // SAFETY: `obj` is an owned reference the caller made and did not
        // push; released once here.
        unsafe { ffi::Py_DECREF(obj) };
        self.python_error()
    }

    /// Pushes the owned reference `obj` (not null) onto the stack.
    #[inline(always)]
    fn push_owned(&mut self, obj: *mut PyObject) -> jetjson::Result<()> {
        if !room_for_one(&mut self.stack) {
            return Err(self.no_room_for(obj));
        }
        self.stack.push(obj);
        Ok(())
    }

    // ---- delivering values ---------------------------------------------

    /// Puts a finished value where the innermost container wants it.
    #[inline(always)]
    fn deliver(&mut self, obj: *mut PyObject) -> jetjson::Result<()> {
        if obj.is_null() {
            return Err(self.python_error());
        }
        // Room first, for the pushes below (the frame is borrowed there).
        if !room_for_one(&mut self.stack) {
            return Err(self.no_room_for(obj));
        }
        match self.frames.last_mut() {
            Some(f) if f.kind == FrameKind::Record => {
                if f.field < f.rec.map_or(0, |r| r.members) {
                    let slot = &mut self.stack[f.start + f.field];
                    if slot.is_null() {
                        *slot = obj;
                    } else {
                        // A repeat under "first" (`repeated`; under "last"
                        // the slot was emptied there), read and dropped.
                        // SAFETY: we own `obj`.
                        unsafe { ffi::Py_DECREF(obj) };
                    }
                } else {
                    // The tag member's value (checked) is not kept.
                    // SAFETY: we own `obj`.
                    unsafe { ffi::Py_DECREF(obj) };
                }
            }
            Some(f) if f.kind == FrameKind::Tuple || f.kind == FrameKind::NamedTuple => {
                self.stack.push(obj);
                f.field += 1;
                self.expect = next_item(f);
            }
            _ => self.stack.push(obj),
        }
        Ok(())
    }

    /// After a container closes: what the one around it expects next.
    #[inline(always)]
    fn resume(&mut self) {
        self.expect = match self.frames.last() {
            None => &SKIP,
            Some(f) => match f.kind {
                FrameKind::Record => &SKIP,
                FrameKind::Tuple | FrameKind::NamedTuple => next_item(f),
                _ => f.elem,
            },
        };
    }

    // ---- scalars -------------------------------------------------------

    /// `node` unwrapped for a value of JSON kind `got`: the union member
    /// for it, and the rules to check.
    #[inline]
    fn member<'n>(&self, mut node: &'n Node, got: Got, rules: &mut Option<&'n Rules>) -> &'n Node {
        loop {
            match node {
                Node::Optional(inner) => node = inner,
                Node::Checked(b) => {
                    *rules = Some(&b.1);
                    node = &b.0;
                }
                Node::Union(u) => match union_member(u, got) {
                    Some(m) => node = m,
                    None => return node,
                },
                _ => return node,
            }
        }
    }

    /// A value made for `node` checked against `rules`.
    fn checked(&mut self, obj: *mut PyObject, rules: Option<&Rules>, node: &Node) -> jetjson::Result<()> {
        if let (Some(r), false) = (rules, obj.is_null()) {
            let what = self.what(node);
            if let Err(e) = self.check(r, obj, what, None) {
                // SAFETY: we own `obj`.
                unsafe { ffi::Py_DECREF(obj) };
                return Err(e);
            }
        }
        self.deliver(obj)
    }

    /// `obj`, a `what`, checked against `r`; a container's failure is
    /// placed `at` its opening bracket (a scalar's at the current value).
    #[cold]
    fn check(&mut self, r: &Rules, obj: *mut PyObject, what: String, at: Option<usize>) -> jetjson::Result<()> {
        let invalid = |b: &mut Self, msg: String| {
            let path = b.path(b.frames.len(), true);
            b.invalid_at(msg, path, at)
        };
        let python_error = |b: &mut Self| {
            let path = b.path(b.frames.len(), true);
            b.python_error_at(path, at)
        };
        // SAFETY: `obj` is a live value we own; comparisons of ints,
        // floats and Decimals and len() of built-in containers run no
        // Python code; `search` of a compiled pattern is C code. Errors
        // are turned into failures.
        let any = unsafe { Bound::from_borrowed_ptr(self.py, obj) };
        let cmp = |bound: &Option<Py<PyAny>>, op: pyo3::basic::CompareOp| -> PyResult<bool> {
            match bound {
                Some(b) => any.rich_compare(b.bind(self.py), op)?.is_truthy(),
                None => Ok(true),
            }
        };
        use pyo3::basic::CompareOp::*;
        let tests: [(&Option<Py<PyAny>>, pyo3::basic::CompareOp, &str); 4] =
            [(&r.ge, Ge, ">="), (&r.gt, Gt, ">"), (&r.le, Le, "<="), (&r.lt, Lt, "<")];
        for (bound, op, sign) in tests {
            match cmp(bound, op) {
                Ok(true) => {}
                Ok(false) => {
                    let b = bound.as_ref().map(|b| b.bind(self.py).repr().map(|r| r.to_string()).unwrap_or_default()).unwrap_or_default();
                    return Err(invalid(self, format!("Expected {what} {sign} {b}")));
                }
                Err(e) => {
                    e.restore(self.py);
                    return Err(python_error(self));
                }
            }
        }
        if r.min_length.is_some() || r.max_length.is_some() {
            let n = match any.len() {
                Ok(n) => n,
                Err(e) => {
                    e.restore(self.py);
                    return Err(python_error(self));
                }
            };
            if let Some(min) = r.min_length.filter(|&m| n < m) {
                return Err(invalid(self, format!("Expected {what} of length >= {min}, got {n}")));
            }
            if let Some(max) = r.max_length.filter(|&m| n > m) {
                return Err(invalid(self, format!("Expected {what} of length <= {max}, got {n}")));
            }
        }
        if let Some(p) = &r.pattern {
            let py = self.py;
            match name!(py, "search").and_then(|n| p.bind(py).call_method1(n, (&any,))) {
                Ok(m) if !m.is_none() => {}
                Ok(_) => {
                    let pat = name!(py, "pattern")
                        .and_then(|n| p.bind(py).getattr(n))
                        .and_then(|p| p.repr())
                        .map(|r| r.to_string())
                        .unwrap_or_default();
                    return Err(invalid(self, format!("Expected {what} matching {pat}")));
                }
                Err(e) => {
                    e.restore(self.py);
                    return Err(python_error(self));
                }
            }
        }
        Ok(())
    }

    /// A number read as `node` (anything but the common cases).
    #[inline(never)]
    fn number_as(&mut self, node: &'p Node, n: &NumberToken<'_>) -> jetjson::Result<()> {
        let got = if n.is_integer { Got::Int } else { Got::Float };
        let mut rules = None;
        let m = self.member(node, got, &mut rules);
        let obj = match m {
            Node::Int => self.int(n)?,
            Node::Float => self.float(n)?,
            Node::Any => numbers::new_number(n),
            Node::Decimal => self.decimal(n.text)?,
            Node::Raw => self.raw_object(n.text.as_bytes())?,
            Node::Choice(c) if n.is_integer => {
                let member = match n.value {
                    NumberValue::I64(i) => c.ints.iter().find(|(v, _)| *v == i),
                    // The integer literal `-0`, which `int` reads as 0.
                    NumberValue::F64(_) => c.ints.iter().find(|(v, _)| *v == 0),
                    _ => None,
                };
                match (member, &c.flag) {
                    (Some((_, obj)), _) => new_ref(obj.as_ptr()),
                    (None, Some(flag)) => self.flag(c, flag, n)?,
                    (None, None) => return Err(self.invalid(format!("Expected {}, got {}", c.what, shorten(n.text)))),
                }
            }
            Node::Bool if !self.set.strict && matches!(n.value, NumberValue::I64(0 | 1)) => {
                bool_obj(matches!(n.value, NumberValue::I64(1)))
            }
            Node::DateTime if !self.set.strict => self.unix_datetime(n)?,
            Node::Skip => return Ok(()),
            _ => return Err(self.mismatch(node, if n.is_integer { "int" } else { "float" })),
        };
        self.checked(obj, rules, m)
    }

    /// `flag(n)`: an integer that is no member's value, read as a
    /// combination of the `enum.Flag` class's members. Runs Python code
    /// (the class's `_missing_`); a `ValueError` (bits the class does not
    /// have) is the validation error "Expected F, got n", any other
    /// exception goes as class code's do (`errors.rs`: a `TypeError` as a
    /// validation error with it as the cause, the rest raised as they are).
    #[inline(never)]
    fn flag(&mut self, c: &Choices, flag: &Py<PyAny>, n: &NumberToken<'_>) -> jetjson::Result<*mut PyObject> {
        let int = self.int(n)?;
        if int.is_null() {
            return Err(self.python_error());
        }
        // SAFETY: the class is held by the plan, `int` is ours; GIL held.
        let obj = unsafe {
            let obj = ffi::PyObject_CallOneArg(flag.as_ptr(), int);
            ffi::Py_DECREF(int);
            obj
        };
        if obj.is_null() {
            // SAFETY: an exception is set (the call failed); GIL held.
            if unsafe { ffi::PyErr_ExceptionMatches(ffi::PyExc_ValueError) } == 0 {
                return Err(self.python_error());
            }
            // SAFETY: as above: our message replaces the ValueError's.
            unsafe { ffi::PyErr_Clear() };
            return Err(self.invalid(format!("Expected {}, got {}", c.what, shorten(n.text))));
        }
        Ok(obj)
    }

    fn int(&mut self, n: &NumberToken<'_>) -> jetjson::Result<*mut PyObject> {
        // SAFETY: CPython constructors; null results are reported by `deliver`.
        unsafe {
            Ok(match n.value {
                NumberValue::I64(i) => numbers::new_int(i),
                NumberValue::U64(u) => ffi::PyLong_FromUnsignedLongLong(u),
                NumberValue::Big if n.is_integer => numbers::new_number(n),
                // The integer literal `-0`.
                NumberValue::F64(_) if n.is_integer => ffi::PyLong_FromLongLong(0),
                // Lax: a literal whose value is an integer (`3.0`, `1e300`),
                // made from its text, exactly (never through the double).
                NumberValue::F64(_) if !self.set.strict => match integral_digits(n.text) {
                    Some(digits) => {
                        let digits = std::ffi::CString::new(digits).unwrap_or_default();
                        // SAFETY: a NUL-terminated ASCII integer literal.
                        ffi::PyLong_FromString(digits.as_ptr(), std::ptr::null_mut(), 10)
                    }
                    None => return Err(self.mismatch(&Node::Int, "float")),
                },
                _ => return Err(self.mismatch(&Node::Int, "float")),
            })
        }
    }

    fn float(&mut self, n: &NumberToken<'_>) -> jetjson::Result<*mut PyObject> {
        let f = match n.value {
            NumberValue::I64(i) => i as f64,
            NumberValue::U64(u) => u as f64,
            NumberValue::F64(f) => f,
            NumberValue::Big => match jetjson::parse::literal_to_f64(n.text.as_bytes()) {
                Some(f) => f,
                None => return Err(self.invalid(format!("Number {} is out of range for float", shorten(n.text)))),
            },
        };
        // SAFETY: plain constructor.
        Ok(unsafe { ffi::PyFloat_FromDouble(f) })
    }

    /// `Decimal(text)`: exact. Runs the decimal module's C code (which can
    /// fail, e.g. a context that traps `Inexact`).
    fn decimal(&mut self, text: &str) -> jetjson::Result<*mut PyObject> {
        let s = strings::new_str(text);
        if s.is_null() {
            return Err(self.python_error());
        }
        // SAFETY: the Decimal type is held by the plan; `s` is ours.
        let obj = unsafe {
            let obj = ffi::PyObject_CallOneArg(self.plan.known.decimal.as_ptr(), s);
            ffi::Py_DECREF(s);
            obj
        };
        if obj.is_null() {
            // SAFETY: an exception is set; clear it for our message.
            unsafe { ffi::PyErr_Clear() };
            return Err(self.invalid(format!("Invalid decimal {:?}", shorten(text))));
        }
        // Only finite values: "NaN" and "Infinity" strings are not numbers.
        // SAFETY: `obj` is a live Decimal we own.
        if !unsafe { numbers::decimal_is_finite(obj) } {
            // SAFETY: ours.
            unsafe { ffi::Py_DECREF(obj) };
            return Err(self.invalid(format!("Invalid decimal {:?} (not finite)", shorten(text))));
        }
        Ok(obj)
    }

    fn raw_object(&mut self, json: &[u8]) -> jetjson::Result<*mut PyObject> {
        if self.plan.exact_numbers {
            // The lossless parse let literals beyond the double range
            // through, which a `Raw` may not hold (`Raw(text)` refuses
            // them, and go and jcs could not write them).
            let strict = ReadOptions::new().max_depth(usize::MAX).duplicate_keys(DuplicateKeys::Last);
            if let Err(e) = jetjson::parse::validate(json, &strict) {
                return Err(self.invalid(e.message()));
            }
        }
        match crate::raw::Raw::checked(self.py, json) {
            Ok(r) => Ok(r.into_ptr()),
            Err(e) => {
                e.restore(self.py);
                Err(self.python_error())
            }
        }
    }

    /// A string read as `node` (anything but the common cases).
    #[inline(never)]
    fn string_as(&mut self, node: &'p Node, s: &str, raw: &str) -> jetjson::Result<()> {
        let mut rules = None;
        let m = self.member(node, Got::Str, &mut rules);
        let b = s.as_bytes();
        let obj = match m {
            Node::Str | Node::Any => self.new_str(s),
            Node::DateTime => match text::datetime(b) {
                Some(dt) => self.datetime(dt)?,
                None => return Err(self.invalid(format!("Invalid datetime (RFC 3339) {:?}", shorten(s)))),
            },
            Node::Date => match text::date(b) {
                // SAFETY: the datetime C API was imported (`decode::api`); values checked.
                Some(d) => unsafe {
                    ((*ffi::PyDateTimeAPI()).Date_FromDate)(d.year, d.month.into(), d.day.into(), (*ffi::PyDateTimeAPI()).DateType)
                },
                None => return Err(self.invalid(format!("Invalid date (YYYY-MM-DD) {:?}", shorten(s)))),
            },
            Node::Time => match text::time(b) {
                Some(t) => {
                    let tz = self.zone(t.offset)?;
                    // SAFETY: as above; `tz` is a borrowed zone we hold (or None).
                    unsafe {
                        ((*ffi::PyDateTimeAPI()).Time_FromTime)(
                            t.hour.into(),
                            t.minute.into(),
                            t.second.into(),
                            t.microsecond as i32,
                            tz,
                            (*ffi::PyDateTimeAPI()).TimeType,
                        )
                    }
                }
                None => return Err(self.invalid(format!("Invalid time (HH:MM:SS) {:?}", shorten(s)))),
            },
            Node::Uuid => match text::uuid(b) {
                Some(v) => self.uuid(v)?,
                None => return Err(self.invalid(format!("Invalid UUID {:?}", shorten(s)))),
            },
            Node::Bytes => match text::base64(b) {
                // SAFETY: copies `v` into a new bytes object.
                Some(v) => unsafe { ffi::PyBytes_FromStringAndSize(v.as_ptr().cast(), v.len() as ffi::Py_ssize_t) },
                None => return Err(self.invalid(format!("Invalid base64 {:?}", shorten(s)))),
            },
            Node::Decimal => self.decimal(s)?,
            Node::Raw => {
                let mut json = Vec::with_capacity(raw.len() + 2);
                json.push(b'"');
                json.extend_from_slice(raw.as_bytes());
                json.push(b'"');
                self.raw_object(&json)?
            }
            Node::Choice(c) if !c.strs.is_empty() => match c.strs.iter().find(|(v, _)| **v == *b) {
                Some((_, obj)) => new_ref(obj.as_ptr()),
                None => return Err(self.invalid(format!("Expected {}, got {:?}", c.what, shorten(s)))),
            },
            Node::Int if !self.set.strict && is_integer_text(b) => {
                let n = NumberToken { text: s, is_integer: true, value: NumberValue::Big };
                numbers::new_number(&n)
            }
            Node::Float if !self.set.strict && jetjson::parse::is_json_number(b) => match jetjson::parse::literal_to_f64(b) {
                // SAFETY: plain constructor.
                Some(f) => unsafe { ffi::PyFloat_FromDouble(f) },
                None => return Err(self.invalid(format!("Number {} is out of range for float", shorten(s)))),
            },
            Node::Bool if !self.set.strict && (s == "true" || s == "false") => bool_obj(s == "true"),
            Node::Null if !self.set.strict && s == "null" => new_ref(none()),
            Node::Skip => return Ok(()),
            _ => return Err(self.mismatch(node, "str")),
        };
        self.checked(obj, rules, m)
    }

    #[inline(always)]
    fn new_str(&mut self, s: &str) -> *mut PyObject {
        if s.is_ascii() {
            match &mut self.keys {
                Some(cache) if s.len() <= keys::MAX_VALUE_LEN => cache.get_value(s.as_bytes()),
                _ => strings::new_ascii(s.as_bytes()),
            }
        } else {
            strings::new_str(s)
        }
    }

    /// The `tzinfo` for an offset (borrowed; kept in `zones`), or None.
    fn zone(&mut self, offset: Option<i32>) -> jetjson::Result<*mut PyObject> {
        let Some(secs) = offset else { return Ok(none()) };
        // SAFETY: the datetime C API is imported; UTC is a static object.
        if secs == 0 {
            return Ok(unsafe { ffi::PyDateTime_TimeZone_UTC() });
        }
        if let Some(&(_, z)) = self.zones.iter().find(|(s, _)| *s == secs) {
            return Ok(z);
        }
        // SAFETY: C API constructors; |secs| < 24 h, so both are valid.
        let z = unsafe {
            let api = ffi::PyDateTimeAPI();
            let delta = ((*api).Delta_FromDelta)(0, secs, 0, 1, (*api).DeltaType);
            if delta.is_null() {
                return Err(self.python_error());
            }
            let z = ((*api).TimeZone_FromTimeZone)(delta, std::ptr::null_mut());
            ffi::Py_DECREF(delta);
            z
        };
        if z.is_null() {
            return Err(self.python_error());
        }
        self.zones.push((secs, z));
        Ok(z)
    }

    fn datetime(&mut self, dt: text::DateTime) -> jetjson::Result<*mut PyObject> {
        let tz = self.zone(dt.time.offset)?;
        let (d, t) = (dt.date, dt.time);
        // SAFETY: the datetime C API is imported; fields are in range
        // (checked by `text::datetime`); `tz` is None or a zone we hold.
        Ok(unsafe {
            let api = ffi::PyDateTimeAPI();
            ((*api).DateTime_FromDateAndTime)(
                d.year,
                d.month.into(),
                d.day.into(),
                t.hour.into(),
                t.minute.into(),
                t.second.into(),
                t.microsecond as i32,
                tz,
                (*api).DateTimeType,
            )
        })
    }

    /// Lax mode: a number as seconds since the Unix epoch, in UTC.
    fn unix_datetime(&mut self, n: &NumberToken<'_>) -> jetjson::Result<*mut PyObject> {
        let py = self.py;
        let r = (|| -> PyResult<Py<PyAny>> {
            let dt = py.import(name!(py, "datetime")?)?;
            let utc = dt.getattr(name!(py, "timezone")?)?.getattr(name!(py, "utc")?)?;
            let secs: f64 = n.text.parse().unwrap_or(f64::NAN);
            Ok(dt.getattr(name!(py, "datetime")?)?.call_method1(name!(py, "fromtimestamp")?, (secs, utc))?.unbind())
        })();
        match r {
            Ok(o) => Ok(o.into_ptr()),
            Err(_) => Err(self.invalid(format!("Invalid timestamp {}", shorten(n.text)))),
        }
    }

    /// A `uuid.UUID` made as `UUID(int=v)` makes it: `int` and `is_safe`
    /// stored in its slots (msgspec's method), without running its
    /// Python `__init__`.
    fn uuid(&mut self, v: u128) -> jetjson::Result<*mut PyObject> {
        let k = &self.plan.known;
        let int = int_of_u128(v);
        if int.is_null() {
            return Err(self.python_error());
        }
        // SAFETY: `uuid.UUID` is held by the plan; its tp_new is object's
        // (a plain class); the slots were checked when the plan was made
        // (member descriptors of UUID itself, inside the object).
        unsafe {
            let ty = k.uuid.as_ptr() as *mut ffi::PyTypeObject;
            let obj = object_new(ty, k.empty_tuple.as_ptr());
            if obj.is_null() {
                ffi::Py_DECREF(int);
                return Err(self.python_error());
            }
            match k.uuid_slots {
                Some((int_at, safe_at)) => {
                    store_slot(obj, int_at, int);
                    store_slot(obj, safe_at, new_ref(k.safe_unknown.as_ptr()));
                }
                None => {
                    let a = ffi::PyObject_GenericSetAttr(obj, k.int_name.as_ptr(), int);
                    ffi::Py_DECREF(int);
                    if a != 0 || ffi::PyObject_GenericSetAttr(obj, k.is_safe_name.as_ptr(), k.safe_unknown.as_ptr()) != 0 {
                        ffi::Py_DECREF(obj);
                        return Err(self.python_error());
                    }
                }
            }
            Ok(obj)
        }
    }

    // ---- containers ----------------------------------------------------

    /// `node` unwrapped for a container (`object`: `{`), with its rules.
    fn container<'n>(&self, node: &'n Node, object: bool) -> (&'n Node, Option<&'n Rules>) {
        let mut rules = None;
        let m = self.member(node, if object { Got::Object } else { Got::Array }, &mut rules);
        (m, rules)
    }

    fn push_frame(&mut self, kind: FrameKind, elem: &'p Node, rules: Option<&'p Rules>) -> jetjson::Result<()> {
        if !room_for_one(&mut self.frames) {
            return Err(self.python_error());
        }
        self.frames.push(Frame {
            kind,
            start: self.stack.len(),
            elem,
            rec: None,
            items: &[],
            key: KeyKind::Str,
            field: 0,
            hint: 0,
            rules,
            at: self.opened,
        });
        self.expect = elem;
        Ok(())
    }

    fn open_record(&mut self, index: u32, rules: Option<&'p Rules>) -> jetjson::Result<()> {
        let plan: &'p Plan = self.plan;
        let rec = plan.record(index);
        let start = self.stack.len();
        self.stack.resize(start + rec.members, std::ptr::null_mut());
        if !room_for_one(&mut self.frames) {
            return Err(self.python_error());
        }
        self.frames.push(Frame {
            kind: FrameKind::Record,
            start,
            elem: &SKIP,
            rec: Some(rec),
            items: &[],
            key: KeyKind::Str,
            field: NOT_READ,
            hint: 0,
            rules,
            at: self.opened,
        });
        self.expect = &SKIP;
        Ok(())
    }

    /// A member name of the innermost object. A record's member is matched
    /// here; a dict's key is made out of line (`dict_key`), so that the
    /// record path, the common one, needs few registers to save.
    #[inline(always)]
    fn name(&mut self, k: &str) -> jetjson::Result<()> {
        let Some(f) = self.frames.last_mut() else { return Ok(()) };
        if f.kind != FrameKind::Record {
            return self.dict_key(k);
        }
        let rec = f.rec.expect("record frames have their record");
        match rec.names.find(k.as_bytes(), f.hint) {
            Some(i) => {
                f.field = i;
                f.hint = i + 1;
                self.expect = &rec.fields[i].node;
                let slot = f.start + i;
                if !self.stack[slot].is_null() {
                    return self.repeated(slot, k);
                }
                Ok(())
            }
            None => self.other_name(k),
        }
    }

    /// A key of the innermost object when that is not a record (a dict's:
    /// made and pushed).
    #[inline(never)]
    fn dict_key(&mut self, k: &str) -> jetjson::Result<()> {
        let Some(f) = self.frames.last_mut() else { return Ok(()) };
        match f.kind {
            FrameKind::AnyDict => {
                let obj = match &mut self.keys {
                    Some(cache) if k.len() <= keys::MAX_LEN && k.is_ascii() => cache.get(k.as_bytes()),
                    _ => strings::new_str(k),
                };
                if obj.is_null() {
                    return Err(self.python_error());
                }
                self.push_owned(obj)
            }
            FrameKind::Dict => {
                let obj = match f.key {
                    KeyKind::Str => match &mut self.keys {
                        Some(cache) if k.len() <= keys::MAX_LEN && k.is_ascii() => cache.get(k.as_bytes()),
                        _ => strings::new_str(k),
                    },
                    KeyKind::Int if is_int_key(k.as_bytes()) => {
                        numbers::new_number(&NumberToken { text: k, is_integer: true, value: NumberValue::Big })
                    }
                    KeyKind::Int => {
                        // The key is part of the path: pushed first (as text).
                        let key = strings::new_str(k);
                        if !room_for_one(&mut self.stack) {
                            // SAFETY: `key` is ours (or null), not pushed.
                            unsafe { ffi::Py_XDECREF(key) };
                            return Err(self.python_error());
                        }
                        self.stack.push(key);
                        return Err(self.invalid(format!("Expected an int key, got {:?}", shorten(k))));
                    }
                };
                if obj.is_null() {
                    return Err(self.python_error());
                }
                let elem = f.elem;
                self.push_owned(obj)?;
                self.expect = elem;
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// A member read twice: an error (located at the name by the parser),
    /// or the first value kept, or the last.
    #[cold]
    fn repeated(&mut self, slot: usize, k: &str) -> jetjson::Result<()> {
        match self.set.policy {
            DuplicateKeys::Error => return Err(Error::new(ErrorKind::DuplicateKey { key: k.to_owned() })),
            // The repeat is read as its member's type says (`expect`, set
            // by `name`; its errors name the member), then dropped by
            // `deliver`, which finds the slot taken: every value is read as
            // its type under every policy, as under "last", whose earlier
            // values are read before they are known to be dropped, and as a
            // dict's repeated keys are.
            DuplicateKeys::First => {}
            DuplicateKeys::Last => {
                let old = std::mem::replace(&mut self.stack[slot], std::ptr::null_mut());
                // SAFETY: an owned reference, released once.
                unsafe { ffi::Py_DECREF(old) };
            }
        }
        Ok(())
    }

    /// Tracks a name of the innermost record that is not a member (under
    /// "error"): a repeat is refused like a repeated member.
    fn other_seen(&mut self, k: &str) -> jetjson::Result<()> {
        if self.set.policy != DuplicateKeys::Error || self.recheck {
            return Ok(());
        }
        let depth = self.frames.len();
        let mut count = 0;
        for name in self.others.of(depth) {
            if name == k.as_bytes() {
                return Err(Error::new(ErrorKind::DuplicateKey { key: k.to_owned() }));
            }
            count += 1;
        }
        if count >= TRACKED_OTHERS {
            self.recheck = true;
        } else {
            self.others.push(depth, k.as_bytes());
        }
        Ok(())
    }

    /// A name that is not one of the record's members: the tag, or unknown.
    #[cold]
    #[inline(never)]
    fn other_name(&mut self, k: &str) -> jetjson::Result<()> {
        self.other_seen(k)?;
        let f = self.frames.last_mut().expect("a record frame");
        let rec = f.rec.expect("record frames have their record");
        f.field = NOT_READ;
        if let Some((tag, _)) = &rec.tag {
            if **tag == *k.as_bytes() {
                f.field = rec.members;
                self.expect = &rec.tag_node;
                return Ok(());
            }
        }
        self.expect = &SKIP;
        if self.set.forbid_unknown {
            let path = self.path(self.frames.len(), false);
            return Err(self.invalid_at(format!("Object has an unknown field {:?}", shorten(k)), path, None));
        }
        Ok(())
    }

    /// The innermost object closed.
    fn close_object(&mut self) -> jetjson::Result<()> {
        let Some(&f) = self.frames.last() else { return Ok(()) };
        let obj = match f.kind {
            FrameKind::Record => {
                let depth = self.frames.len();
                self.others.close(depth);
                self.finish_record(&f)?
            }
            FrameKind::Dict | FrameKind::AnyDict => self.finish_dict(&f)?,
            _ => return Ok(()),
        };
        self.frames.pop();
        if let Some(r) = f.rules {
            if let Err(e) = self.check(r, obj, "object".into(), Some(f.at)) {
                // SAFETY: ours.
                unsafe { ffi::Py_DECREF(obj) };
                return Err(e);
            }
        }
        self.resume();
        self.deliver(obj)
    }

    fn finish_dict(&mut self, f: &Frame<'p>) -> jetjson::Result<*mut PyObject> {
        let n = (self.stack.len() - f.start) / 2;
        // SAFETY: `stack[start..]` holds owned key, value pairs (str keys
        // for `str` dicts, int keys otherwise). Each pair is inserted (the
        // dict takes its own references) and released once; the slots are
        // then dropped without another release.
        unsafe {
            // The str-keyed table kind, as `loads` makes (see there).
            let dict = ffi::PyDict_New();
            if dict.is_null() {
                return Err(self.python_error());
            }
            let mut failed = false;
            let str_keys = f.kind == FrameKind::AnyDict || f.key == KeyKind::Str;
            for pair in self.stack[f.start..].chunks_exact(2) {
                let (k, v) = (pair[0], pair[1]);
                if !failed {
                    failed = match self.set.policy {
                        DuplicateKeys::First => ffi::PyDict_SetDefault(dict, k, v).is_null(),
                        _ if str_keys => _PyDict_SetItem_KnownHash(dict, k, v, str_hash(k)) != 0,
                        _ => ffi::PyDict_SetItem(dict, k, v) != 0,
                    };
                }
                ffi::Py_DECREF(k);
                ffi::Py_DECREF(v);
            }
            self.stack.truncate(f.start);
            if failed {
                ffi::Py_DECREF(dict);
                return Err(self.python_error());
            }
            if self.set.policy == DuplicateKeys::Error && ffi::PyDict_Size(dict) as usize != n {
                ffi::Py_DECREF(dict);
                self.failure = Some(Failure::Duplicate);
                return Err(Error::new(ErrorKind::Custom("duplicate object key".to_owned())));
            }
            Ok(dict)
        }
    }

    /// Makes the record's instance from its slots.
    fn finish_record(&mut self, f: &Frame<'p>) -> jetjson::Result<*mut PyObject> {
        let rec = f.rec.expect("record frames have their record");
        let slots = f.start..f.start + rec.members;
        if let Some(i) =
            self.stack[slots.clone()].iter().zip(&rec.fields).position(|(v, fl)| v.is_null() && matches!(fl.default, Default::Required))
        {
            let path = self.path(self.frames.len(), false);
            let msg = format!("Object missing required field {:?}", rec.fields[i].json);
            return Err(self.invalid_at(msg, path, Some(f.at)));
        }
        let obj = match (rec.kind, &rec.build) {
            (Kind::TypedDict, _) => self.build_typed_dict(rec, f.start),
            (_, Build::New) => self.build_new(rec, f.start),
            (_, Build::Call) => self.build_call(rec, f.start),
        };
        self.stack.truncate(f.start);
        match obj {
            Ok(obj) => Ok(obj),
            Err(()) => {
                let path = self.path(self.frames.len(), false);
                Err(self.python_error_at(path, Some(f.at)))
            }
        }
    }

    /// Takes slot `i` of the record at `start` (null if absent), or its default.
    /// `Err` with a Python exception set.
    fn value_of(&mut self, rec: &Record, start: usize, i: usize) -> Result<*mut PyObject, ()> {
        let v = if i < rec.members { std::mem::replace(&mut self.stack[start + i], std::ptr::null_mut()) } else { std::ptr::null_mut() };
        if !v.is_null() {
            return Ok(v);
        }
        // SAFETY: defaults and factories are held by the plan; a factory
        // may run Python code, which cannot reach our stack.
        unsafe {
            match &rec.fields[i].default {
                Default::Value(d) => Ok(new_ref(d.as_ptr())),
                Default::Factory(f) => {
                    let v = ffi::PyObject_CallNoArgs(f.as_ptr());
                    if v.is_null() {
                        Err(())
                    } else {
                        Ok(v)
                    }
                }
                Default::Required | Default::Absent => Ok(std::ptr::null_mut()),
            }
        }
    }

    fn build_new(&mut self, rec: &Record, start: usize) -> Result<*mut PyObject, ()> {
        let py = self.py;
        // SAFETY: the class is held by the plan and its tp_new is object's
        // (checked when planned). Each value is an owned reference moved
        // into the instance (slot) or released after `setattr` took its own.
        unsafe {
            let cls = rec.class.as_ptr() as *mut ffi::PyTypeObject;
            let obj = object_new(cls, self.plan.known.empty_tuple.as_ptr());
            if obj.is_null() {
                return Err(());
            }
            let owned = Bound::from_owned_ptr(py, obj);
            if let Some(values) = inline_values(rec, obj, self.plan.known.empty_tuple.as_ptr()) {
                // CPython 3.11, class unchanged since the indexes were
                // learned: each value goes to its index in the instance's
                // inline values, as STORE_ATTR_INSTANCE_VALUE stores it
                // (the value, then its index appended to the insertion order).
                let index = &rec.inline.as_ref().expect("inline_values checked it").index;
                for i in 0..rec.fields.len() {
                    let v = self.value_of(rec, start, i)?;
                    if v.is_null() {
                        continue;
                    }
                    let ix = index[i].load(Relaxed);
                    let slot = values.add(usize::from(ix));
                    let old = std::ptr::replace(slot, v);
                    if old.is_null() {
                        let size = (values as *mut u8).sub(2);
                        let n = *size + 1;
                        *size.sub(usize::from(n)) = ix;
                        *size = n;
                    } else {
                        ffi::Py_DECREF(old);
                    }
                }
                return self.post_init(rec, owned);
            }
            for i in 0..rec.fields.len() {
                let v = self.value_of(rec, start, i)?;
                if v.is_null() {
                    continue;
                }
                match rec.fields[i].store {
                    Store::Slot(at) => store_slot(obj, at, v),
                    Store::Attr => {
                        let r = ffi::PyObject_GenericSetAttr(obj, rec.fields[i].name.as_ptr(), v);
                        ffi::Py_DECREF(v);
                        if r != 0 {
                            return Err(());
                        }
                    }
                }
            }
            self.post_init(rec, owned)
        }
    }

    /// Runs the record's `__post_init__`, if any, on the new instance.
    fn post_init(&mut self, rec: &Record, obj: Bound<'_, PyAny>) -> Result<*mut PyObject, ()> {
        if let Some(name) = &rec.post_init {
            let mut args: Vec<*mut PyObject> = Vec::with_capacity(1 + rec.post_args.len());
            args.push(obj.as_ptr());
            args.extend(rec.post_args.iter().map(|a| a.as_ptr()));
            // `obj.__post_init__(*post_args)`, looked up now, as the
            // generated `__init__` does (one replaced since the plan was
            // made is the one called).
            // SAFETY: the name, `obj` and the arguments are held (the plan,
            // `obj`) for the call; `args[0]` is the object the method is
            // looked up on.
            let r = unsafe { ffi::PyObject_VectorcallMethod(name.as_ptr(), args.as_ptr(), args.len(), std::ptr::null_mut()) };
            if r.is_null() {
                return Err(());
            }
            // SAFETY: the call's result, ours.
            unsafe { ffi::Py_DECREF(r) };
        }
        Ok(obj.into_ptr())
    }

    /// A class with its own `__init__`: called with the fields it takes
    /// (as keywords); fields it does not take are set afterwards.
    fn build_call(&mut self, rec: &Record, start: usize) -> Result<*mut PyObject, ()> {
        let py = self.py;
        let kwargs = pyo3::types::PyDict::new(py);
        let mut later = Vec::new();
        // Only the members present: the class's `__init__` applies its own
        // defaults.
        for i in 0..rec.members {
            let v = std::mem::replace(&mut self.stack[start + i], std::ptr::null_mut());
            if v.is_null() {
                continue;
            }
            // SAFETY: `v` is an owned reference, handed to a Bound.
            let v = unsafe { Bound::from_owned_ptr(py, v) };
            if rec.fields[i].init {
                kwargs.set_item(rec.fields[i].name.bind(py), v).map_err(|e| e.restore(py))?;
            } else {
                later.push((i, v));
            }
        }
        let obj = rec.class.bind(py).call((), Some(&kwargs)).map_err(|e| e.restore(py))?;
        for (i, v) in later {
            // SAFETY: both live; GenericSetAttr as the dataclass would.
            if unsafe { ffi::PyObject_GenericSetAttr(obj.as_ptr(), rec.fields[i].name.as_ptr(), v.as_ptr()) } != 0 {
                return Err(());
            }
        }
        Ok(obj.into_ptr())
    }

    fn build_typed_dict(&mut self, rec: &Record, start: usize) -> Result<*mut PyObject, ()> {
        // SAFETY: names are interned strs held by the plan (hash cached);
        // values owned and released after the dict took its reference.
        unsafe {
            let dict = ffi::PyDict_New();
            if dict.is_null() {
                return Err(());
            }
            for i in 0..rec.fields.len() {
                let v = match self.value_of(rec, start, i) {
                    Ok(v) => v,
                    Err(()) => {
                        ffi::Py_DECREF(dict);
                        return Err(());
                    }
                };
                if v.is_null() {
                    continue;
                }
                let k = rec.fields[i].name.as_ptr();
                let r = _PyDict_SetItem_KnownHash(dict, k, v, str_hash(k));
                ffi::Py_DECREF(v);
                if r != 0 {
                    ffi::Py_DECREF(dict);
                    return Err(());
                }
            }
            Ok(dict)
        }
    }

    /// The innermost array closed.
    fn close_array(&mut self) -> jetjson::Result<()> {
        let Some(&f) = self.frames.last() else { return Ok(()) };
        let n = self.stack.len() - f.start;
        let items = f.start..self.stack.len();
        // SAFETY (all arms): `stack[items]` are owned references, moved
        // into the new container (list/tuple steal) or added to a set and
        // released; the stack is then truncated without releasing them again.
        let obj = unsafe {
            match f.kind {
                FrameKind::List | FrameKind::AnyList => {
                    let list = ffi::PyList_New(n as ffi::Py_ssize_t);
                    if list.is_null() {
                        return Err(self.python_error());
                    }
                    if n > 0 {
                        let dst = (*(list as *mut ffi::PyListObject)).ob_item;
                        std::ptr::copy_nonoverlapping(self.stack.as_ptr().add(f.start), dst, n);
                    }
                    self.stack.truncate(f.start);
                    list
                }
                FrameKind::TupleOf | FrameKind::Tuple => {
                    if f.kind == FrameKind::Tuple && n != f.items.len() {
                        let path = self.path(self.frames.len(), false);
                        return Err(self.invalid_at(format!("Expected an array of {} items, got {n}", f.items.len()), path, Some(f.at)));
                    }
                    let t = self.tuple_of(items)?;
                    self.stack.truncate(f.start);
                    t
                }
                FrameKind::Set | FrameKind::FrozenSet => {
                    let set = if f.kind == FrameKind::Set {
                        ffi::PySet_New(std::ptr::null_mut())
                    } else {
                        ffi::PyFrozenSet_New(std::ptr::null_mut())
                    };
                    if set.is_null() {
                        return Err(self.python_error());
                    }
                    let mut failed = false;
                    for &v in &self.stack[items] {
                        if !failed {
                            failed = ffi::PySet_Add(set, v) != 0;
                        }
                        ffi::Py_DECREF(v);
                    }
                    self.stack.truncate(f.start);
                    if failed {
                        ffi::Py_DECREF(set);
                        return Err(self.python_error());
                    }
                    set
                }
                FrameKind::NamedTuple => self.finish_named_tuple(&f)?,
                _ => return Ok(()),
            }
        };
        self.frames.pop();
        if let Some(r) = f.rules {
            if let Err(e) = self.check(r, obj, "array".into(), Some(f.at)) {
                // SAFETY: ours.
                unsafe { ffi::Py_DECREF(obj) };
                return Err(e);
            }
        }
        self.resume();
        self.deliver(obj)
    }

    /// A tuple of the owned references in `items` (moved).
    ///
    /// # Safety
    /// `stack[items]` are owned references; the caller drops them from the
    /// stack without releasing them.
    unsafe fn tuple_of(&mut self, items: std::ops::Range<usize>) -> jetjson::Result<*mut PyObject> {
        // SAFETY: PyTuple_New(n) has n empty slots, each filled once.
        unsafe {
            let t = ffi::PyTuple_New(items.len() as ffi::Py_ssize_t);
            if t.is_null() {
                return Err(self.python_error());
            }
            for (k, i) in items.enumerate() {
                ffi::PyTuple_SET_ITEM(t, k as ffi::Py_ssize_t, self.stack[i]);
            }
            Ok(t)
        }
    }

    fn finish_named_tuple(&mut self, f: &Frame<'p>) -> jetjson::Result<*mut PyObject> {
        let rec = f.rec.expect("named tuple frames have their record");
        let got = self.stack.len() - f.start;
        for i in got..rec.fields.len() {
            let v = match &rec.fields[i].default {
                Default::Value(d) => new_ref(d.as_ptr()),
                _ => {
                    let need = rec.fields.iter().filter(|x| matches!(x.default, Default::Required)).count();
                    let path = self.path(self.frames.len(), false);
                    return Err(self.invalid_at(format!("Expected an array of at least {need} items, got {got}"), path, Some(f.at)));
                }
            };
            self.stack.push(v);
        }
        // SAFETY: the items are owned and moved into `values`; the class
        // (a tuple subclass held by the plan) is made by tuple's own
        // `__new__` from them, as `cls._make(values)` does.
        unsafe {
            let values = self.tuple_of(f.start..self.stack.len())?;
            self.stack.truncate(f.start);
            let args = ffi::PyTuple_Pack(1, values);
            ffi::Py_DECREF(values);
            if args.is_null() {
                return Err(self.python_error());
            }
            let tuple_type = std::ptr::addr_of_mut!(ffi::PyTuple_Type);
            let obj = match (*tuple_type).tp_new {
                Some(new) => new(rec.class.as_ptr() as *mut ffi::PyTypeObject, args, std::ptr::null_mut()),
                None => std::ptr::null_mut(),
            };
            ffi::Py_DECREF(args);
            if obj.is_null() {
                return Err(self.python_error());
            }
            Ok(obj)
        }
    }

    // ---- tagged unions and nested walks ---------------------------------

    /// The record whose tag is the value of the tag member, if that member
    /// comes first in `ahead` (an object) in its simplest spelling.
    fn peek_tag(t: &TaggedNode, ahead: &[u8]) -> Option<u32> {
        let mut i = 1;
        let ws = |b: &[u8], mut i: usize| {
            while matches!(b.get(i), Some(b' ' | b'\n' | b'\r' | b'\t')) {
                i += 1;
            }
            i
        };
        i = ws(ahead, i);
        let (name, next) = simple_string(ahead, i)?;
        if name != &*t.field {
            return None;
        }
        i = ws(ahead, next);
        if ahead.get(i) != Some(&b':') {
            return None;
        }
        i = ws(ahead, i + 1);
        if let Some((value, _)) = simple_string(ahead, i) {
            return t.strs.iter().find(|(s, _)| **s == *value).map(|(_, r)| *r);
        }
        let end = i + ahead.get(i..)?.iter().take_while(|c| c.is_ascii_digit() || **c == b'-').count();
        let n: i64 = std::str::from_utf8(&ahead[i..end]).ok()?.parse().ok()?;
        if !matches!(ahead.get(end), Some(b',' | b'}' | b' ' | b'\n' | b'\r' | b'\t')) {
            return None;
        }
        t.ints.iter().find(|(v, _)| *v == n).map(|(_, r)| *r)
    }

    /// A tagged union's object whose tag is not first: its text was
    /// checked; the tag is found in it, then it is read as that record by a
    /// walk of its own.
    fn tagged_text(&mut self, t: &TaggedNode, json: &str) -> jetjson::Result<*mut PyObject> {
        let mut finder = TagFinder { field: &t.field, depth: 0, armed: false, found: None };
        let _ = jetjson::parse::parse(
            json.as_bytes(),
            &ReadOptions::new().duplicate_keys(DuplicateKeys::Last).lossless_numbers(self.plan.exact_numbers),
            &mut finder,
        );
        let (index, got) = match &finder.found {
            Some(Found::Str(s)) => {
                (t.strs.iter().find(|(v, _)| **v == **s).map(|(_, r)| *r), format!("{:?}", shorten(&String::from_utf8_lossy(s))))
            }
            Some(Found::Int(n)) => (t.ints.iter().find(|(v, _)| v == n).map(|(_, r)| *r), n.to_string()),
            Some(Found::Other) => (None, "neither a str nor an int".to_owned()),
            None => {
                return Err(self.invalid(format!("Object missing the tag field {:?} (to choose among {})", t.field_text, t.what)));
            }
        };
        let Some(index) = index else {
            return Err(self.invalid(format!("Invalid value of the tag field {:?} for {}: {got}", t.field_text, t.what)));
        };
        self.nested(json, index)
    }

    /// Reads `json` (a slice of the input) as record `index`.
    fn nested(&mut self, json: &str, index: u32) -> jetjson::Result<*mut PyObject> {
        if stacker::remaining_stack().is_some_and(|left| left < super::STACK_RED_ZONE) {
            return Err(self.invalid("Nesting too deep for the thread's stack".to_owned()));
        }
        let plan: &'p Plan = self.plan;
        let prefix = self.path(self.frames.len(), true);
        let set = Settings { max_depth: self.set.max_depth.saturating_sub(self.frames.len()), ..self.set };
        let mut sub = Builder::new(self.py, plan, &plan.record_nodes[index as usize], set, self.input, json.as_bytes(), prefix.into());
        let options =
            ReadOptions::new().max_depth(set.max_depth).duplicate_keys(parser_policy(set.policy)).lossless_numbers(self.plan.exact_numbers);
        let r = jetjson::parse::parse(json.as_bytes(), &options, &mut sub);
        let base = sub.base;
        self.recheck |= sub.recheck;
        match r {
            Ok(()) => match sub.stack.pop() {
                Some(obj) => Ok(obj),
                None => Err(self.invalid("Empty nested value".to_owned())),
            },
            Err(e) => {
                let at = e.position().map(|p| base + p.offset);
                let failure = match sub.failure.take() {
                    Some(Failure::Invalid { msg, path, at: a }) => Failure::Invalid { msg, path, at: a.or(at) },
                    Some(Failure::Python { err, path, at: a }) => Failure::Python { err, path, at: a.or(at) },
                    Some(Failure::Syntax { msg, at: a }) => Failure::Syntax { msg, at: a.or(at) },
                    Some(Failure::Duplicate) => Failure::Duplicate,
                    None => Failure::Syntax { msg: e.message(), at },
                };
                self.failure = Some(failure);
                Err(Error::new(ErrorKind::Custom(e.message())))
            }
        }
    }
}

/// The duplicate-name policy the parser is given: it lets repeats
/// through, and the builder handles them (records see a filled slot, dicts
/// come out smaller, unknown names are tracked per object, text taken
/// whole is checked), which costs nothing per member.
pub(crate) fn parser_policy(_policy: DuplicateKeys) -> DuplicateKeys {
    DuplicateKeys::Last
}

impl Drop for Builder<'_, '_> {
    fn drop(&mut self) {
        for &obj in &self.stack {
            // SAFETY: every non-null entry is an owned reference.
            unsafe { ffi::Py_XDECREF(obj) };
        }
        Pool::put(std::mem::take(&mut self.stack), std::mem::take(&mut self.frames), std::mem::take(&mut self.others));
        for &(_, z) in &self.zones {
            // SAFETY: owned zones.
            unsafe { ffi::Py_DECREF(z) };
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Got {
    Bool,
    Int,
    Float,
    Str,
    Array,
    Object,
}

fn union_member(u: &UnionNode, got: Got) -> Option<&Node> {
    match got {
        Got::Bool => u.boolean.as_ref(),
        Got::Int => u.int.as_ref().or(u.float.as_ref()),
        Got::Float => u.float.as_ref().or(u.int.as_ref()),
        Got::Str => u.string.as_ref(),
        Got::Array => u.array.as_ref(),
        Got::Object => u.object.as_ref(),
    }
}

/// `T` for `T | None` (a value that is not null reads as `T`), else `node`.
#[inline(always)]
fn optional_inner(node: &Node) -> &Node {
    match node {
        Node::Optional(inner) => inner,
        n => n,
    }
}

fn next_item<'p>(f: &Frame<'p>) -> &'p Node {
    match f.kind {
        FrameKind::NamedTuple => f.rec.and_then(|r| r.fields.get(f.field)).map_or(&EXTRA, |fl| &fl.node),
        _ => f.items.get(f.field).unwrap_or(&EXTRA),
    }
}

fn push_key(s: &mut String, k: &str) {
    let ident =
        k.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_') && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if ident {
        s.push('.');
        s.push_str(k);
    } else {
        s.push('[');
        s.push_str(&format!("{k:?}"));
        s.push(']');
    }
}

/// At most 60 characters of `s`, for messages.
fn shorten(s: &str) -> String {
    if s.len() <= 60 {
        return s.to_owned();
    }
    let mut end = 48;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}... ({} bytes)", &s[..end], s.len())
}

/// The digits (with a `-` for a negative value) of a JSON number literal
/// whose value is an integer (`3.0`, `1.5e1`, `100e-2`), or `None` when it
/// has a fraction. Only for literals within the double range (as the parser
/// gives them as doubles): the result then has at most 309 digits.
fn integral_digits(text: &str) -> Option<String> {
    let (negative, rest) = match text.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, text),
    };
    let (mantissa, exp) = match rest.find(['e', 'E']) {
        Some(i) => (&rest[..i], rest[i + 1..].parse::<i64>().ok()?),
        None => (rest, 0),
    };
    let (int_part, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let all: String = [int_part, frac].concat();
    let digits = all.trim_start_matches('0');
    if digits.is_empty() {
        return Some("0".to_owned());
    }
    // The value is digits * 10^shift.
    let shift = exp.checked_sub(frac.len() as i64)?;
    let mut out = String::with_capacity(digits.len() + 2);
    if negative {
        out.push('-');
    }
    if shift >= 0 {
        if digits.len() as i64 + shift > 400 {
            return None;
        }
        out.push_str(digits);
        out.extend(std::iter::repeat_n('0', shift as usize));
    } else {
        let cut = usize::try_from(-shift).ok()?;
        if cut >= digits.len() || !digits[digits.len() - cut..].bytes().all(|b| b == b'0') {
            return None;
        }
        out.push_str(&digits[..digits.len() - cut]);
    }
    Some(out)
}

fn is_integer_text(b: &[u8]) -> bool {
    let digits = b.strip_prefix(b"-").unwrap_or(b);
    !digits.is_empty() && digits.iter().all(u8::is_ascii_digit) && (digits.len() == 1 || digits[0] != b'0')
}

/// A JSON name read as an int key: an int's own text (`str(n)`), so that
/// no two distinct names are one key (`"0"` and `"-0"`, `"1"` and `"01"`:
/// otherwise the second would silently replace the first, or be reported
/// as the same name twice).
fn is_int_key(b: &[u8]) -> bool {
    is_integer_text(b) && b != b"-0"
}

/// A string at `b[i]` without escapes: its body and the index after it.
fn simple_string(b: &[u8], i: usize) -> Option<(&[u8], usize)> {
    if b.get(i) != Some(&b'"') {
        return None;
    }
    let body = b.get(i + 1..)?;
    let end = body.iter().position(|&c| c == b'"' || c == b'\\')?;
    (body[end] == b'"').then(|| (&body[..end], i + 2 + end))
}

#[inline(always)]
fn none() -> *mut PyObject {
    // SAFETY: the None singleton.
    unsafe { ffi::Py_None() }
}

#[inline(always)]
fn new_ref(obj: *mut PyObject) -> *mut PyObject {
    // SAFETY: `obj` is live (held by the plan or a singleton).
    unsafe { ffi::Py_INCREF(obj) };
    obj
}

#[inline(always)]
fn bool_obj(v: bool) -> *mut PyObject {
    // SAFETY: the bool singletons.
    new_ref(unsafe {
        if v {
            ffi::Py_True()
        } else {
            ffi::Py_False()
        }
    })
}

/// The hash of the exact str `key` (computed and cached if needed).
///
/// # Safety
/// `key` is a live exact `str`.
#[inline(always)]
unsafe fn str_hash(key: *mut PyObject) -> ffi::Py_hash_t {
    // SAFETY: per the contract.
    unsafe {
        let cached = (*(key as *mut ffi::PyASCIIObject)).hash;
        if cached != -1 {
            cached
        } else {
            ffi::PyObject_Hash(key)
        }
    }
}

/// The inline values array of the new instance `obj` of `rec`'s class, if
/// the record's learned indexes apply to it: CPython 3.11 with the
/// managed-dict layout (checked when the plan was made), indexes learned
/// under the class's current version tag (learned again here if the tag
/// changed), and the instance has its values (no dict made).
///
/// # Safety
/// GIL held; `obj` is a new instance of `rec`'s class, made by
/// `object.__new__`; `empty` is the empty tuple.
#[inline(always)]
unsafe fn inline_values(rec: &Record, obj: *mut PyObject, empty: *mut PyObject) -> Option<*mut *mut PyObject> {
    let inline = rec.inline.as_ref()?;
    // SAFETY: per the contract: `inline` exists only for classes whose
    // instances have the 3.11 managed-dict layout, where the values
    // pointer is 4 words and the dict 3 words before the object.
    unsafe {
        let ty = ffi::Py_TYPE(obj);
        let tag = (*ty).tp_version_tag;
        // The field itself, not `PyType_GetFlags` (a call per record).
        let valid = (*ty).tp_flags & ffi::Py_TPFLAGS_VALID_VERSION_TAG != 0;
        if !valid || tag != inline.version.load(Relaxed) {
            relearn(rec, inline, ty, empty)?;
        }
        let values = *(obj as *mut *mut *mut PyObject).sub(4);
        let dict = *(obj as *mut *mut PyObject).sub(3);
        (!values.is_null() && dict.is_null()).then_some(values)
    }
}

/// Learns the record's inline indexes under the class's current tag.
///
/// # Safety
/// As `inline_values`: GIL held; `ty` is the live class of a new instance
/// of `rec`'s class (which has `rec.inline`), `empty` the empty tuple.
#[cold]
#[inline(never)]
unsafe fn relearn(rec: &Record, inline: &super::plan::Inline, ty: *mut ffi::PyTypeObject, empty: *mut PyObject) -> Option<()> {
    // SAFETY: per `inline_values`' contract.
    unsafe {
        let valid = ffi::PyType_GetFlags(ty) & ffi::Py_TPFLAGS_VALID_VERSION_TAG != 0;
        if valid && (*ty).tp_version_tag == inline.refused.load(Relaxed) {
            return None;
        }
        let names: Vec<*mut PyObject> = rec.fields.iter().map(|f| f.name.as_ptr()).collect();
        match super::compile::learn_inline(ty, &names, empty) {
            Some((version, index)) => {
                for (slot, ix) in inline.index.iter().zip(index) {
                    slot.store(ix, Relaxed);
                }
                inline.version.store(version, Relaxed);
                Some(())
            }
            None => {
                inline.version.store(0, Relaxed);
                if ffi::PyType_GetFlags(ty) & ffi::Py_TPFLAGS_VALID_VERSION_TAG != 0 {
                    inline.refused.store((*ty).tp_version_tag, Relaxed);
                }
                None
            }
        }
    }
}

/// Moves `v` into the object slot at `offset` of the new object `obj`.
///
/// # Safety
/// `offset` is a `T_OBJECT_EX` member of `obj`'s class, inside the object
/// (checked when the plan was made); `v` is an owned reference.
#[inline(always)]
unsafe fn store_slot(obj: *mut PyObject, offset: isize, v: *mut PyObject) {
    // SAFETY: per the contract; a new object's slots are null, but any
    // previous value is released all the same.
    unsafe {
        let slot = (obj as *mut u8).offset(offset) as *mut *mut PyObject;
        let old = std::ptr::replace(slot, v);
        if !old.is_null() {
            ffi::Py_DECREF(old);
        }
    }
}

/// A Python int of the 128-bit unsigned `v`.
fn int_of_u128(v: u128) -> *mut PyObject {
    // SAFETY: CPython constructors and number protocol on ints we own.
    unsafe {
        if let Ok(small) = u64::try_from(v) {
            return ffi::PyLong_FromUnsignedLongLong(small);
        }
        #[cfg(not(Py_3_13))]
        {
            let bytes = v.to_le_bytes();
            ffi::_PyLong_FromByteArray(bytes.as_ptr(), 16, 1, 0)
        }
        #[cfg(Py_3_13)]
        {
            let hi = ffi::PyLong_FromUnsignedLongLong((v >> 64) as u64);
            let lo = ffi::PyLong_FromUnsignedLongLong(v as u64);
            let sixty_four = ffi::PyLong_FromLong(64);
            let r = if hi.is_null() || lo.is_null() || sixty_four.is_null() {
                std::ptr::null_mut()
            } else {
                let shifted = ffi::PyNumber_Lshift(hi, sixty_four);
                let r = if shifted.is_null() { std::ptr::null_mut() } else { ffi::PyNumber_Or(shifted, lo) };
                ffi::Py_XDECREF(shifted);
                r
            };
            ffi::Py_XDECREF(hi);
            ffi::Py_XDECREF(lo);
            ffi::Py_XDECREF(sixty_four);
            r
        }
    }
}

impl Visitor for Builder<'_, '_> {
    #[inline]
    fn null(&mut self) -> jetjson::Result<()> {
        let obj = match self.expect {
            Node::Optional(_) | Node::Null | Node::Any => new_ref(none()),
            Node::Skip => return Ok(()),
            node => match node {
                Node::Union(u) if u.null => new_ref(none()),
                Node::Checked(b) if matches!(b.0, Node::Optional(_) | Node::Null) => new_ref(none()),
                Node::Choice(c) if c.null.is_some() => new_ref(c.null.as_ref().expect("checked").as_ptr()),
                Node::Raw => self.raw_object(b"null")?,
                other => return Err(self.mismatch(other, "null")),
            },
        };
        self.deliver(obj)
    }

    #[inline]
    fn bool(&mut self, v: bool) -> jetjson::Result<()> {
        let obj = match optional_inner(self.expect) {
            Node::Bool | Node::Any => bool_obj(v),
            Node::Skip => return Ok(()),
            node => {
                let mut rules = None;
                let m = self.member(node, Got::Bool, &mut rules);
                match m {
                    Node::Bool | Node::Any => bool_obj(v),
                    Node::Choice(c) if c.bools[usize::from(v)].is_some() => {
                        new_ref(c.bools[usize::from(v)].as_ref().expect("checked").as_ptr())
                    }
                    Node::Raw => self.raw_object(if v { b"true" } else { b"false" })?,
                    _ => return Err(self.mismatch(self.expect, "bool")),
                }
            }
        };
        self.deliver(obj)
    }

    #[inline]
    fn number(&mut self, n: NumberToken<'_>) -> jetjson::Result<()> {
        let obj = match optional_inner(self.expect) {
            Node::Int if n.is_integer => match n.value {
                NumberValue::I64(i) => numbers::new_int(i),
                _ => self.int(&n)?,
            },
            Node::Float => self.float(&n)?,
            Node::Any => numbers::new_number(&n),
            Node::Skip => return Ok(()),
            _ => return self.number_as(self.expect, &n),
        };
        self.deliver(obj)
    }

    #[inline]
    fn string(&mut self, s: &str, raw: &str) -> jetjson::Result<()> {
        match optional_inner(self.expect) {
            Node::Str | Node::Any => {
                let obj = strings::new_str(s);
                self.deliver(obj)
            }
            Node::Skip => Ok(()),
            _ => self.string_as(self.expect, s, raw),
        }
    }

    #[inline]
    fn ascii_string(&mut self, s: &str) -> jetjson::Result<()> {
        match optional_inner(self.expect) {
            Node::Str | Node::Any => {
                let obj = match &mut self.keys {
                    Some(cache) if s.len() <= keys::MAX_VALUE_LEN => cache.get_value(s.as_bytes()),
                    _ => strings::new_ascii(s.as_bytes()),
                };
                self.deliver(obj)
            }
            Node::Skip => Ok(()),
            _ => self.string_as(self.expect, s, s),
        }
    }

    fn begin_array(&mut self) -> jetjson::Result<()> {
        let (node, rules) = self.container(self.expect, false);
        match node {
            Node::List(e) => self.push_frame(FrameKind::List, e, rules)?,
            Node::Set(e) => self.push_frame(FrameKind::Set, e, rules)?,
            Node::FrozenSet(e) => self.push_frame(FrameKind::FrozenSet, e, rules)?,
            Node::TupleOf(e) => self.push_frame(FrameKind::TupleOf, e, rules)?,
            Node::Tuple(items) => {
                self.push_frame(FrameKind::Tuple, items.first().unwrap_or(&EXTRA), rules)?;
                if let Some(f) = self.frames.last_mut() {
                    f.items = items;
                }
            }
            Node::Record(i) if self.plan.record(*i).kind == Kind::NamedTuple => {
                let plan: &Plan = self.plan;
                let rec = plan.record(*i);
                self.push_frame(FrameKind::NamedTuple, rec.fields.first().map_or(&EXTRA, |f| &f.node), rules)?;
                if let Some(f) = self.frames.last_mut() {
                    f.rec = Some(rec);
                }
            }
            Node::Any => self.push_frame(FrameKind::AnyList, &Node::Any, rules)?,
            _ => return Err(self.mismatch(self.expect, "array")),
        }
        Ok(())
    }

    fn end_array(&mut self) -> jetjson::Result<()> {
        self.close_array()
    }

    fn begin_object(&mut self) -> jetjson::Result<()> {
        let (node, rules) = self.container(self.expect, true);
        match node {
            Node::Record(i) if self.plan.record(*i).kind != Kind::NamedTuple => self.open_record(*i, rules),
            Node::Tagged(_) => match self.selected.take() {
                Some(i) => self.open_record(i, rules),
                None => Err(self.invalid("Tagged object without a tag".to_owned())),
            },
            Node::Dict(d) => {
                self.push_frame(FrameKind::Dict, &d.value, rules)?;
                if let Some(f) = self.frames.last_mut() {
                    f.key = d.key;
                }
                Ok(())
            }
            Node::Any => self.push_frame(FrameKind::AnyDict, &Node::Any, rules),
            _ => Err(self.mismatch(self.expect, "object")),
        }
    }

    #[inline]
    fn key(&mut self, k: &str, _raw: &str) -> jetjson::Result<()> {
        self.name(k)
    }

    #[inline]
    fn ascii_key(&mut self, k: &str) -> jetjson::Result<()> {
        self.name(k)
    }

    fn end_object(&mut self) -> jetjson::Result<()> {
        self.close_object()
    }

    fn takes_raw(&self) -> bool {
        true
    }

    #[inline]
    fn take_raw(&mut self, ahead: &[u8]) -> bool {
        self.opened = ahead.as_ptr() as usize - self.input.as_ptr() as usize;
        match self.expect {
            Node::Skip | Node::Raw => true,
            Node::Int | Node::Float | Node::Str | Node::Bool | Node::Any | Node::List(_) | Node::Dict(_) => false,
            Node::Record(_) => false,
            node => {
                let (node, _) = self.container(node, ahead.first() == Some(&b'{'));
                match node {
                    Node::Skip | Node::Raw => true,
                    Node::Tagged(t) if ahead.first() == Some(&b'{') => match Self::peek_tag(t, ahead) {
                        Some(i) => {
                            self.selected = Some(i);
                            false
                        }
                        None => true,
                    },
                    _ => false,
                }
            }
        }
    }

    /// Text taken whole (a `Raw` member, a skipped one, a tagged object):
    /// the parser runs under "last" (records and dicts apply the policy
    /// themselves), so under "error" it is asked to refuse repeated names
    /// inside such text, with its own message and place.
    #[inline]
    fn refuses_repeats_in_raw(&self) -> bool {
        self.set.policy == DuplicateKeys::Error
    }

    fn raw(&mut self, json: &str) -> jetjson::Result<()> {
        let (node, rules) = self.container(self.expect, json.starts_with('{'));
        let obj = match node {
            Node::Skip => return Ok(()),
            Node::Raw => self.raw_object(json.as_bytes())?,
            Node::Tagged(t) => self.tagged_text(t, json)?,
            other => return Err(self.mismatch(other, if json.starts_with('{') { "object" } else { "array" })),
        };
        self.checked(obj, rules, node)
    }
}

/// Finds the value of one member of the top-level object (stops there).
struct TagFinder<'a> {
    field: &'a [u8],
    depth: usize,
    armed: bool,
    found: Option<Found>,
}

enum Found {
    Str(Vec<u8>),
    Int(i64),
    Other,
}

impl TagFinder<'_> {
    fn value(&mut self, v: Option<Found>) -> jetjson::Result<()> {
        if self.armed && self.depth == 1 {
            self.found = Some(v.unwrap_or(Found::Other));
            // Stop the walk: the rest does not matter.
            return Err(Error::new(ErrorKind::Custom(String::new())));
        }
        Ok(())
    }
}

impl Visitor for TagFinder<'_> {
    fn null(&mut self) -> jetjson::Result<()> {
        self.value(None)
    }
    fn bool(&mut self, _: bool) -> jetjson::Result<()> {
        self.value(None)
    }
    fn number(&mut self, n: NumberToken<'_>) -> jetjson::Result<()> {
        let v = match n.value {
            NumberValue::I64(i) if n.is_integer => Some(Found::Int(i)),
            _ => None,
        };
        self.value(v)
    }
    fn string(&mut self, s: &str, _: &str) -> jetjson::Result<()> {
        self.value(Some(Found::Str(s.as_bytes().to_vec())))
    }
    fn begin_array(&mut self) -> jetjson::Result<()> {
        self.value(None)?;
        self.depth += 1;
        Ok(())
    }
    fn end_array(&mut self) -> jetjson::Result<()> {
        self.depth -= 1;
        Ok(())
    }
    fn begin_object(&mut self) -> jetjson::Result<()> {
        self.value(None)?;
        self.depth += 1;
        Ok(())
    }
    fn key(&mut self, k: &str, _: &str) -> jetjson::Result<()> {
        self.armed = self.depth == 1 && k.as_bytes() == self.field;
        Ok(())
    }
    fn end_object(&mut self) -> jetjson::Result<()> {
        self.depth -= 1;
        Ok(())
    }
}

#[allow(dead_code)]
fn _choices_used(_: &Choices) {}
