//! `dumps` as CPython calls it: a `METH_FASTCALL | METH_KEYWORDS` function
//! written against the C API, so that a call costs what its options need.
//!
//! The arguments arrive as a C array (no tuple, no keyword dict); keyword
//! names are compared by address with interned strs (CPython interns the
//! names written at call sites) before their text. A call with no options,
//! or with a profile only, takes its `WriteOptions` from a per-profile cache
//! instead of resolving them. `dumps(obj)` of a str, int or bool, of a
//! small exact dict of scalars (and at most one `Raw`: `dumps_dict`), and
//! of any other object (a quick walk, `dumps_quick`), is written
//! without pyo3's trampoline (fast.rs, `dumps_entry`); every other call,
//! and every one those decline, goes through it (the one `#[pyfunction]`s get): it tells pyo3 the thread is attached
//! (so references pyo3 drops are released at once, not queued), and runs
//! the body under `catch_unwind`, so no panic crosses the C boundary
//! (nothing in it should panic; a panic would be a bug).

use std::cell::UnsafeCell;

use jetjson::{Profile, Style, WriteOptions, Writer};
use pyo3::exceptions::{PyMemoryError, PySystemError, PyTypeError};
use pyo3::ffi::{self, PyObject};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyString};

use super::config::{parse_profile, OutputOptions};
use super::kept::Kind;
use super::output::BytesMemory;
use super::write_object_with;

/// The text `help(jetjson.dumps)` shows; its first line is the signature
/// CPython gives `inspect.signature` (`__text_signature__`).
const DOC: &std::ffi::CStr = c"dumps($module, obj, /, profile='compact', *, sort_keys=None, escape_html=None, ascii_only=False, indent=None, default=None, nan='error', non_str_keys=False, omit_defaults=False, max_write_depth=512)
--

Serialize `obj` to JSON bytes in a profile.

profile: \"compact\" (serde_json/orjson bytes), \"go\" (Go json.Marshal bytes:
HTML-safe escapes, U+2028/9 escaped, dict keys sorted by UTF-8 bytes,
dataclasses in field order like Go structs, bytes as base64) or \"jcs\"
(RFC 8785: keys in UTF-16 order, numbers as doubles).

Numbers: ints are exact at any size in compact and go (as Go writes a
*big.Int), up to Python's int digit limit (sys.get_int_max_str_digits(),
which loads applies too: a longer int is a JSONEncodeError at its place);
jcs writes every number as an IEEE double (ints beyond 2^53
rounded as JavaScript rounds them; an int beyond 1.8e308 is an error).
Floats use their shortest round-trip digits; -0.0 is -0.0 in compact,
-0 in go, 0 in jcs; NaN and infinities follow `nan`. Together with
loads this is the model canonicalize follows:
canonicalize(x, p) == dumps(loads(x), profile=p) for every profile.

sort_keys: None = the profile's order (go sorts dict keys, compact keeps
them, jcs sorts by UTF-16); True sorts every object (dataclasses too);
False keeps every object's order (go included; with jcs it is refused). escape_html: None = the profile's default.
ascii_only escapes non-ASCII as \\uXXXX. indent: None/0 = compact, n = n
spaces, or a str of spaces or of tabs as json takes it, at most 16 (Go
MarshalIndent / json.dumps layout; indent=True is refused). nan: \"error\"
or \"null\" (null in compact only; go and jcs always refuse NaN/Infinity).
An option that cannot change the profile's bytes is a ValueError, as in
canonicalize, digest, the CLI and C: with jcs every output option but
max_write_depth; with go escape_html=True and nan=\"null\"; with compact
escape_html=False.
non_str_keys=True writes dict keys that are not strs as text: ints as
their exact digits (in jcs too, where int values are doubles), floats in
the profile's float layout, bools as true/false, None as null, Enum
members by value, UUIDs, dates and times as the profile writes them,
Decimals as str() gives them; sorted as text in go and jcs; two keys that write the same name are an
error. Without it, such keys are an error.
omit_defaults=True leaves out dataclass fields whose value is their
default (equal to it; for list, dict, set and tuple factories, empty).
Dataclass fields are written under their JSON names, as typed decode
reads them: field(metadata={\"json\": ...}), the class's rename rule
(jetjson.config(rename=...)), a tag member first (in sorted place when the
style sorts); fields whose names start
with _ are left out unless given a JSON name.
max_write_depth (default 512, as loads' max_depth; 1 to 1,000,000): the
deepest nesting of lists, dicts and dataclasses written; deeper is a
JSONEncodeError naming it (a container that contains itself is named a
circular reference instead). Deep writes also stop, with an error, before
the thread's stack runs out: dumps walks Python objects on the calling
thread's stack, so the depth reached is also bounded by that stack (about
40,000 levels on an 8 MiB main thread; a thread started after
threading.stack_size(n) has n bytes); canonicalize of JSON text nests to
max_write_depth whatever the stack.
default(obj) converts other objects; its result is serialized (up to 255
nested applications) and its exceptions propagate. The boolean options
take any object and use its truth value, as json does.

Also handled: str/int/float/dict/list/tuple subclasses (namedtuples are
arrays; as json writes them, a dict subclass with its own items() is the
pairs it gives, and a list or tuple subclass with its own __iter__ what
that gives), dataclasses, enum.Enum (its value), datetime/date/time (ISO 8601;
go writes datetimes as Go's time.Time: RFC 3339, \"Z\" for UTC, trimmed
fraction, offsets in whole minutes; a naive datetime without a zone,
which Go's time.Time cannot read), uuid.UUID, decimal.Decimal (its
number text) and jetjson.Raw.

Errors: JSONEncodeError (a TypeError) starting with the path, e.g.
`$.items[3].price: NaN is not allowed in profile \"go\"`; RuntimeError
when a dict or list changes while it is written (by default, a property,
another thread).";

/// A `PyMethodDef` in a static: CPython keeps a pointer to it for as long
/// as the function object lives.
struct MethodDef(UnsafeCell<ffi::PyMethodDef>);

// SAFETY: the definition is never written after it is made; CPython only
// reads it (under the GIL).
unsafe impl Sync for MethodDef {}

static DUMPS: MethodDef = MethodDef(UnsafeCell::new(ffi::PyMethodDef {
    ml_name: c"dumps".as_ptr(),
    ml_meth: ffi::PyMethodDefPointer { PyCFunctionFastWithKeywords: dumps_entry },
    ml_flags: ffi::METH_FASTCALL | ffi::METH_KEYWORDS,
    ml_doc: DOC.as_ptr(),
}));

/// Adds `dumps` to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    super::dataclass::register(py);
    // SAFETY: `DUMPS` lives for the whole program; the module and its name
    // are live objects; the new function is owned by the Bound.
    let f = unsafe {
        let name = PyString::new(py, "jetjson._jetjson");
        let f = ffi::PyCFunction_NewEx(DUMPS.0.get(), m.as_ptr(), name.as_ptr());
        if f.is_null() {
            return Err(PyErr::fetch(py));
        }
        Bound::from_owned_ptr(py, f)
    };
    m.add("dumps", f)
}

/// The C function: `dumps(obj)` of an exact str, int or bool
/// (`kept::write_scalar`), or of any other object (a quick walk,
/// `dumps_quick`), without pyo3's trampoline (fast.rs); calls with
/// options, and what those decline, through it (`dumps_fast`).
///
/// # Safety
/// As `dumps_fast`.
unsafe extern "C" fn dumps_entry(
    module: *mut PyObject,
    args: *const *mut PyObject,
    nargs: ffi::Py_ssize_t,
    kwnames: *mut PyObject,
) -> *mut PyObject {
    let slow: crate::fast::Slow = pyo3::impl_::trampoline::get_trampoline_function!(fastcall_cfunction_with_keywords, dumps_fast);
    // Plans of dataclasses freed since the last call are freed first, where
    // nothing is borrowed yet.
    super::dataclass::bury_any();
    // Calls with options, or not of one argument, go straight to the
    // general path, before anything else is looked at.
    if nargs != 1 || !kwnames.is_null() {
        // SAFETY: the arguments as CPython gave them to this call.
        return unsafe { slow(module, args, nargs, kwnames) };
    }
    // SAFETY: one positional argument, a live object (held by the caller
    // for the call) whose type is compared and its flags read.
    let ty = unsafe { ffi::Py_TYPE(*args) };
    if ty == std::ptr::addr_of_mut!(ffi::PyDict_Type) {
        // SAFETY: as this function's contract.
        return unsafe { dumps_dict(slow, module, args, nargs, kwnames) };
    }
    if ty == std::ptr::addr_of_mut!(ffi::PyList_Type) {
        // SAFETY: as this function's contract.
        return unsafe { dumps_quick_or_slow(&QUICK_REST_LEFT, slow, module, args, nargs, kwnames) };
    }
    // SAFETY: as above.
    if unsafe { (*ty).tp_flags } & (ffi::Py_TPFLAGS_LONG_SUBCLASS | ffi::Py_TPFLAGS_UNICODE_SUBCLASS) == 0 {
        // Any other object (a dataclass, a datetime, a float...): a quick
        // walk too, with a count of its own, so that objects it declines
        // do not send the dict and list calls to the general path.
        // SAFETY: as this function's contract.
        return unsafe { dumps_quick_or_slow(&OTHER_REST_LEFT, slow, module, args, nargs, kwnames) };
    }
    // SAFETY: as this function's contract.
    unsafe { dumps_scalar(slow, module, args, nargs, kwnames) }
}

/// `dumps_entry` for one positional exact dict: a small dict of scalars
/// straight through the kept writer (`kept::write_small_dict`), any other
/// dict, and one that declines, as a list is.
///
/// # Safety
/// As `dumps_fast`, with `nargs == 1`, no keywords and an exact dict.
#[inline(never)]
unsafe fn dumps_dict(
    slow: crate::fast::Slow,
    module: *mut PyObject,
    args: *const *mut PyObject,
    nargs: ffi::Py_ssize_t,
    kwnames: *mut PyObject,
) -> *mut PyObject {
    // SAFETY: one positional argument, an exact dict held by the caller for
    // the call.
    let small = |py: Python<'_>| unsafe { super::kept::write_small_dict(py, *args, Profile::Compact) }.map(Bound::into_ptr);
    // SAFETY: called by CPython as a C function of this convention (through
    // `dumps_entry`); `small` makes and drops no `Py<T>` or `PyErr`, runs no
    // Python code and declines with no exception set; the fallback is the
    // rest of `dumps_entry` for a dict.
    unsafe { crate::fast::run_or(small, || dumps_quick_or_slow(&QUICK_REST_LEFT, slow, module, args, nargs, kwnames)) }
}

/// `dumps_entry` for one positional object but a str or int: a quick walk
/// (`dumps_quick`) unless one declined lately (`rest`: `QUICK_REST_LEFT`
/// for dicts and lists, `OTHER_REST_LEFT` for any other object).
///
/// # Safety
/// As `dumps_fast`, with `nargs == 1` and no keywords.
#[inline(always)]
unsafe fn dumps_quick_or_slow(
    rest: &'static QuickRest,
    slow: crate::fast::Slow,
    module: *mut PyObject,
    args: *const *mut PyObject,
    nargs: ffi::Py_ssize_t,
    kwnames: *mut PyObject,
) -> *mut PyObject {
    let left = rest.0.get();
    if left == 0 {
        // SAFETY: as this function's contract.
        return unsafe { dumps_quick(rest, slow, module, args, nargs, kwnames) };
    }
    rest.0.set(left - 1);
    // SAFETY: the arguments as CPython gave them to this call.
    unsafe { slow(module, args, nargs, kwnames) }
}

/// How many more `dumps(obj)` calls go straight to the general path after
/// a quick walk declined (`QUICK_REST` after each decline): a program
/// whose documents hold objects a quick walk leaves (a datetime with a
/// tzinfo of its own, an Enum, a big int...) then pays for the walk it
/// threw away once in `QUICK_REST + 1` calls, not on every call. One count
/// for dicts and lists, one for every other object, so that, say, Enum
/// members written alone do not send every dict to the general path.
/// Guarded by the GIL.
struct QuickRest(std::cell::Cell<u32>);

// SAFETY: only touched by `dumps_quick_or_slow` and `dumps_quick`, called
// by CPython with the GIL held; the extension is not built for
// free-threaded CPython (lib.rs).
unsafe impl Sync for QuickRest {}

static QUICK_REST_LEFT: QuickRest = QuickRest(std::cell::Cell::new(0));
static OTHER_REST_LEFT: QuickRest = QuickRest(std::cell::Cell::new(0));

/// Calls that skip the quick walk after it declines (see `QuickRest`).
const QUICK_REST: u32 = 64;

/// `dumps_entry` for one positional object, no options: the object written
/// by a quick walk (`Walker::quick`: what it writes with no Python code
/// run and no `Py<T>` dropped: exact built-in containers with exact str
/// keys, scalars, `Raw`, exact datetimes, dates and times without a
/// `tzinfo` or in UTC, exact UUIDs, dataclasses planned lately) through
/// the compact profile's kept writer, without pyo3's trampoline. At the
/// first object a quick walk leaves, or any failure, its work is discarded
/// (`rest` set) and the general path writes the call from the start (it
/// raises the error, if there is one).
///
/// # Safety
/// As `dumps_fast`, with `nargs == 1` and no keywords.
#[inline(never)]
unsafe fn dumps_quick(
    rest: &'static QuickRest,
    slow: crate::fast::Slow,
    module: *mut PyObject,
    args: *const *mut PyObject,
    nargs: ffi::Py_ssize_t,
    kwnames: *mut PyObject,
) -> *mut PyObject {
    let quick = |py: Python<'_>| {
        // Large outputs go straight into the result object (output.rs),
        // and the type table must have been made (by an earlier call
        // through the general path: making it imports modules).
        if !super::kept::fits() || super::types::known_if_made(py).is_none() {
            return None;
        }
        // SAFETY: one positional argument, held by the caller for the call;
        // the `Bound` adds a reference of its own and releases it on drop
        // (at once: a `Bound` is not deferred).
        let obj = unsafe { Bound::from_borrowed_ptr(py, *args) };
        let kind = Kind::Plain(Profile::Compact);
        match super::kept::write(&obj, kind, || plain(py, Profile::Compact), None, super::Walking::default(), true) {
            Ok(bytes) => Some(bytes.into_ptr()),
            Err(fail) => {
                // Declined or failed: nothing visible was done (no Python
                // code ran); a Python exception it holds is cleared without
                // dropping a `Py<T>`.
                fail.discard(py);
                rest.0.set(QUICK_REST);
                None
            }
        }
    };
    // SAFETY: called by CPython as a C function of this convention; `quick`
    // makes no `Py<T>` and drops no `PyErr` (`Fail::discard`), runs no
    // Python code (a quick walk, `Walker::quick`) and declines with no
    // exception set.
    unsafe { crate::fast::run(quick, slow, module, args, nargs, kwnames) }
}

/// `dumps_entry` for one positional str or int: apart, so that the
/// general path's call does not pay for its frame.
///
/// # Safety
/// As `dumps_fast`, with `nargs == 1` and no keywords.
#[inline(never)]
unsafe fn dumps_scalar(
    slow: crate::fast::Slow,
    module: *mut PyObject,
    args: *const *mut PyObject,
    nargs: ffi::Py_ssize_t,
    kwnames: *mut PyObject,
) -> *mut PyObject {
    let quick = |py: Python<'_>| {
        // The type table made (by an earlier call through the general path).
        if !super::kept::fits() || super::types::known_if_made(py).is_none() {
            return None;
        }
        // SAFETY: one positional argument, held by the caller for the call.
        unsafe { super::kept::write_scalar(py, *args, Profile::Compact) }.map(Bound::into_ptr)
    };
    // SAFETY: called by CPython as a C function of this convention; `quick`
    // makes and drops no `Py<T>` or `PyErr` and declines with no exception
    // set (`write_scalar` runs no Python code and reads no type table it
    // would have to make).
    unsafe { crate::fast::run(quick, slow, module, args, nargs, kwnames) }
}

/// The body pyo3's trampoline calls, attached to the interpreter.
///
/// # Safety
/// CPython's `METH_FASTCALL | METH_KEYWORDS` convention: `args` holds
/// `nargs` positional arguments, then one value per name in `kwnames`.
unsafe fn dumps_fast<'py>(
    py: Python<'py>,
    _module: *mut PyObject,
    args: *const *mut PyObject,
    nargs: ffi::Py_ssize_t,
    kwnames: *mut PyObject,
) -> PyResult<*mut PyObject> {
    // SAFETY: as the caller guarantees.
    unsafe { call(py, args, nargs, kwnames) }.map(Bound::into_ptr).map_err(|e| crate::errors::made_now(py, e))
}

/// Interned keyword names, compared by address first.
struct Names {
    profile: Py<PyString>,
    sort_keys: Py<PyString>,
    escape_html: Py<PyString>,
    ascii_only: Py<PyString>,
    indent: Py<PyString>,
    default: Py<PyString>,
    nan: Py<PyString>,
    non_str_keys: Py<PyString>,
    omit_defaults: Py<PyString>,
    max_write_depth: Py<PyString>,
}

static NAMES: PyOnceLock<Names> = PyOnceLock::new();

/// The names, made by the first call with keywords (an error, MemoryError,
/// when they cannot be: `crate::fallible::interned`).
fn names(py: Python<'_>) -> PyResult<&'static Names> {
    NAMES.get_or_try_init(py, || {
        let i = |s: &str| -> PyResult<Py<PyString>> { Ok(crate::fallible::interned(py, s)?.unbind()) };
        Ok(Names {
            profile: i("profile")?,
            sort_keys: i("sort_keys")?,
            escape_html: i("escape_html")?,
            ascii_only: i("ascii_only")?,
            indent: i("indent")?,
            default: i("default")?,
            nan: i("nan")?,
            non_str_keys: i("non_str_keys")?,
            omit_defaults: i("omit_defaults")?,
            max_write_depth: i("max_write_depth")?,
        })
    })
}

/// Which keyword a name is (by address, else by text).
///
/// # Safety
/// `name` is a live str; GIL held.
unsafe fn which(names: &Names, name: *mut PyObject) -> Option<usize> {
    let all = [
        &names.profile,
        &names.sort_keys,
        &names.escape_html,
        &names.ascii_only,
        &names.indent,
        &names.default,
        &names.nan,
        &names.non_str_keys,
        &names.omit_defaults,
        &names.max_write_depth,
    ];
    if let Some(i) = all.iter().position(|n| n.as_ptr() == name) {
        return Some(i);
    }
    // SAFETY: `name` is a live str; comparing text runs no Python code.
    all.iter().position(|n| unsafe { ffi::PyUnicode_Compare(n.as_ptr(), name) } == 0)
}

/// The resolved options (`Style`) of calls without options, one per
/// profile: resolving them (the escape kernels, orders, policies) was a
/// fifth of the fixed cost of a call. A std `OnceLock` (resolving is pure
/// Rust and never waits on the GIL): `dumps(obj)`'s quick path (fast.rs)
/// reaches it with the thread not counted as attached by pyo3, where a
/// `PyOnceLock`'s first initialisation would detach and re-attach.
static PLAIN: [std::sync::OnceLock<Style>; 3] = [std::sync::OnceLock::new(), std::sync::OnceLock::new(), std::sync::OnceLock::new()];

pub(super) fn plain(_py: Python<'_>, profile: Profile) -> Style {
    let i = match profile {
        Profile::Compact => 0,
        Profile::Go => 1,
        Profile::Jcs => 2,
    };
    *PLAIN[i].get_or_init(|| WriteOptions::new(profile).style())
}

/// The key of a call's options, every one that makes its `Style` (profile,
/// flags, indent, `nan`, `max_write_depth`): calls with the same key share a
/// resolved `Style` (`cached_style`) and a kept writer (`kept::Kind::Custom`).
/// `None` for values that `resolve` refuses (it says why) or that have no
/// key. The top bit is set in every key.
fn option_key(o: &OutputOptions<'_>, depth: Option<usize>) -> Option<u64> {
    let profile = match parse_profile(o.profile).ok()? {
        Profile::Compact => 0,
        Profile::Go => 1,
        Profile::Jcs => 2,
    };
    let html = match o.escape_html {
        None => 0,
        Some(false) => 1,
        Some(true) => 2,
    };
    let sort = match o.sort_keys {
        None => 0,
        Some(false) => 1,
        Some(true) => 2,
    };
    let indent = match o.indent {
        None => 31,
        Some(n) if (0..=i64::from(jetjson::MAX_INDENT)).contains(&n) => n as u64,
        Some(_) => return None,
    };
    let nan = match o.nan {
        "error" => 0,
        "null" => 1,
        _ => return None,
    };
    let depth = match depth {
        None => 0,
        Some(d) if (d as u64) < 1 << 40 => d as u64 + 1,
        Some(_) => return None,
    };
    Some(
        1 << 63
            | profile
            | sort << 2
            | html << 4
            | (o.ascii_only as u64) << 6
            | (o.tabs as u64) << 7
            | indent << 8
            | nan << 13
            | depth << 14,
    )
}

/// Resolved options of recent calls with options, by `option_key`, and
/// the entry the next new key replaces.
struct StyleCache {
    entries: [(u64, Option<Style>); 8],
    next: usize,
}

struct Styles(UnsafeCell<StyleCache>);

// SAFETY: only touched under the GIL, by `cached_style` and `remember_style`,
// which run no Python code; the extension is not built for free-threaded
// CPython (lib.rs).
unsafe impl Sync for Styles {}

static STYLES: Styles = Styles(UnsafeCell::new(StyleCache { entries: [(0, None); 8], next: 0 }));

fn cached_style(key: u64) -> Option<Style> {
    // SAFETY: GIL held (only called from `call`); the borrow ends here.
    let cache = unsafe { &*STYLES.0.get() };
    cache.entries.iter().find(|(k, _)| *k == key).and_then(|(_, s)| *s)
}

fn remember_style(key: u64, style: Style) {
    // SAFETY: as in `cached_style`.
    let cache = unsafe { &mut *STYLES.0.get() };
    cache.entries[cache.next] = (key, Some(style));
    cache.next = (cache.next + 1) % cache.entries.len();
}

/// The truth value of a keyword's value, as `json` reads its flags.
///
/// # Safety
/// `v` is a live object; GIL held.
unsafe fn truth(py: Python<'_>, v: *mut PyObject) -> PyResult<bool> {
    // SAFETY: as the caller guarantees; may run `__bool__`, before anything
    // is written or borrowed.
    match unsafe { ffi::PyObject_IsTrue(v) } {
        -1 => Err(PyErr::fetch(py)),
        t => Ok(t == 1),
    }
}

/// The text of a str keyword's value.
///
/// # Safety
/// `v` is a live object; GIL held.
unsafe fn text<'a>(py: Python<'_>, v: *mut PyObject, what: &str) -> PyResult<&'a str> {
    // SAFETY: read as a str only when it is one; the text lives as long as
    // `v`, which the caller's arguments hold for the call.
    unsafe {
        if ffi::PyUnicode_Check(v) == 0 {
            return Err(PyTypeError::new_err(format!("{what} must be a str, not {}", type_name(v))));
        }
        match super::text::utf8_caught(v) {
            Ok(Some(t)) => Ok(t),
            Ok(None) => Err(pyo3::exceptions::PyValueError::new_err(format!("{what} is not valid text"))),
            Err(bytes) => Err(super::output::out_of_memory(py, bytes)),
        }
    }
}

/// The name of `v`'s type.
///
/// # Safety
/// `v` is a live object; GIL held.
unsafe fn type_name(v: *mut PyObject) -> String {
    // SAFETY: `v` is live (the caller's contract); tp_name is a
    // NUL-terminated C string.
    unsafe { std::ffi::CStr::from_ptr((*ffi::Py_TYPE(v)).tp_name).to_string_lossy().into_owned() }
}

/// The call: arguments checked, options resolved, `obj` written.
///
/// # Safety
/// `args` holds `nargs` positional arguments followed by one value per
/// name of `kwnames` (a tuple of strs, or null); GIL held.
unsafe fn call<'py>(
    py: Python<'py>,
    args: *const *mut PyObject,
    nargs: ffi::Py_ssize_t,
    kwnames: *mut PyObject,
) -> PyResult<Bound<'py, PyBytes>> {
    if nargs == 1 && kwnames.is_null() && super::kept::fits() {
        // `dumps(obj)`, the most common call, with a small output expected;
        // a str, int or bool straight through the kept writer.
        // SAFETY: one positional argument, held by the caller for the call.
        if let Some(r) = unsafe { super::kept::write_scalar(py, *args, Profile::Compact) } {
            return Ok(r);
        }
        // SAFETY: as above.
        let obj = unsafe { Bound::from_borrowed_ptr(py, *args) };
        return super::kept::write(
            &obj,
            Kind::Plain(Profile::Compact),
            || plain(py, Profile::Compact),
            None,
            super::Walking::default(),
            false,
        )
        .map_err(|f| f.into_pyerr(py));
    }
    if nargs < 1 {
        return Err(PyTypeError::new_err("dumps() missing required argument 'obj' (pos 1)"));
    }
    if nargs > 2 {
        return Err(PyTypeError::new_err(format!("dumps() takes at most 2 positional arguments ({nargs} given)")));
    }
    // SAFETY: `nargs >= 1` positional arguments are there.
    let obj = unsafe { *args };
    // SAFETY: read only when `nargs == 2`: the second positional argument.
    let mut profile: Option<*mut PyObject> = (nargs == 2).then(|| unsafe { *args.add(1) });
    let (mut sort_keys, mut escape_html, mut ascii_only, mut indent, mut default, mut nan) = (None, None, None, None, None, None);
    let (mut non_str_keys, mut omit_defaults, mut max_write_depth) = (None, None, None);
    if !kwnames.is_null() {
        let names = names(py)?;
        // SAFETY: `kwnames` is a tuple of strs; their values follow the
        // positional arguments.
        let n = unsafe { ffi::PyTuple_GET_SIZE(kwnames) };
        for i in 0..n {
            let (name, value) = unsafe { (ffi::PyTuple_GET_ITEM(kwnames, i), *args.add((nargs + i) as usize)) };
            // SAFETY: `name` is a live str.
            let slot = match unsafe { which(names, name) } {
                Some(0) => &mut profile,
                Some(1) => &mut sort_keys,
                Some(2) => &mut escape_html,
                Some(3) => &mut ascii_only,
                Some(4) => &mut indent,
                Some(5) => &mut default,
                Some(6) => &mut nan,
                Some(7) => &mut non_str_keys,
                Some(8) => &mut omit_defaults,
                Some(9) => &mut max_write_depth,
                _ => {
                    // SAFETY: `name` is a live str (an item of `kwnames`);
                    // its text is copied before anything else runs.
                    let shown = unsafe { super::text::utf8_caught(name) }.ok().flatten().unwrap_or("?").to_owned();
                    return Err(PyTypeError::new_err(format!("dumps() got an unexpected keyword argument '{shown}'")));
                }
            };
            if slot.is_some() {
                // SAFETY: as above.
                let shown = unsafe { super::text::utf8_caught(name) }.ok().flatten().unwrap_or("?").to_owned();
                return Err(PyTypeError::new_err(format!("dumps() got multiple values for argument '{shown}'")));
            }
            *slot = Some(value);
        }
    }
    // SAFETY: `Py_None` only takes the address of the `None` singleton.
    let none = |v: Option<*mut PyObject>| v.filter(|&p| p != unsafe { ffi::Py_None() });
    // The options: from the cache when there are none but the profile.
    let profile_name = match profile {
        // SAFETY: a live argument.
        Some(p) => unsafe { text(py, p, "profile") }?,
        None => "compact",
    };
    let custom = none(sort_keys).is_some()
        || none(escape_html).is_some()
        || ascii_only.is_some()
        || none(indent).is_some()
        || nan.is_some()
        || none(max_write_depth).is_some();
    // A profile's default options: its kept writer, unless the output is
    // expected large.
    let plain_profile = match (custom, profile) {
        (true, _) => None,
        (false, None) => Some(Profile::Compact),
        (false, Some(_)) => Some(parse_profile(profile_name)?),
    };
    let (style, kind): (Style, Option<Kind>) = if let Some(p) = plain_profile {
        (plain(py, p), Some(Kind::Plain(p)))
    } else {
        // An int (spaces), or a str of spaces or of tabs, as json takes it.
        let (indent, tabs) = match none(indent) {
            None => (None, false),
            // SAFETY: a live argument, held by the caller for the call.
            Some(v) => super::config::parse_indent(unsafe { &Bound::from_borrowed_ptr(py, v) })?,
        };
        let options = OutputOptions {
            profile: profile_name,
            // SAFETY (three calls): live arguments.
            sort_keys: match none(sort_keys) {
                Some(v) => Some(unsafe { truth(py, v) }?),
                None => None,
            },
            escape_html: match none(escape_html) {
                Some(v) => Some(unsafe { truth(py, v) }?),
                None => None,
            },
            ascii_only: match ascii_only {
                Some(v) => unsafe { truth(py, v) }?,
                None => false,
            },
            indent,
            tabs,
            // SAFETY: a live argument.
            nan: match nan {
                Some(v) => unsafe { text(py, v, "nan") }?,
                None => "error",
            },
        };
        let depth = match none(max_write_depth) {
            None => None,
            // SAFETY: a live argument, held by the caller for the call.
            Some(v) => Some(crate::rules::write_depth(unsafe { &Bound::from_borrowed_ptr(py, v) })?),
        };
        // Every value is read: no Python code runs from here to the write.
        let key = option_key(&options, depth);
        match key.and_then(cached_style) {
            Some(style) => (style, key.map(Kind::Custom)),
            None => {
                // Options that cannot change the profile's bytes are
                // refused, as in every front end (rules.rs); never cached.
                crate::rules::refuse_inapplicable(&options)?;
                let mut resolved = options.resolve()?;
                if let Some(depth) = depth {
                    resolved = resolved.max_write_depth(depth);
                }
                let style = resolved.style();
                if let Some(key) = key {
                    remember_style(key, style);
                }
                (style, key.map(Kind::Custom))
            }
        }
    };
    // SAFETY: `obj` and `default` are live arguments, held by the caller for
    // the call.
    let (obj, default) = unsafe { (Bound::from_borrowed_ptr(py, obj), none(default).map(|d| Bound::from_borrowed_ptr(py, d))) };
    let flag = |v: Option<*mut PyObject>| match v {
        // SAFETY: a live argument.
        Some(v) => unsafe { truth(py, v) },
        None => Ok(false),
    };
    let how = super::Walking { non_str_keys: flag(non_str_keys)?, omit_defaults: flag(omit_defaults)? };
    if let Some(kind) = kind {
        if super::kept::fits() {
            return super::kept::write(&obj, kind, || style, default.as_ref(), how, false).map_err(|f| f.into_pyerr(py));
        }
    }
    // The result object's growth failing unwinds out of the writer (it has
    // no error return there) and is raised here as MemoryError.
    let (memory, len) = super::output::catching_out_of_memory(py, || {
        let mut w = Writer::with_style_and_memory(style, BytesMemory::boxed());
        write_object_with(&mut w, &obj, default.as_ref(), how)?;
        w.finish_into_memory().map_err(|e| PyMemoryError::new_err(e.message()))
    })?;
    let Ok(mut memory) = memory.into_any().downcast::<BytesMemory>() else {
        return Err(PySystemError::new_err("jetjson.dumps: the writer's memory is not the one given"));
    };
    let bytes = memory.take_bytes(py, len);
    BytesMemory::recycle(memory);
    bytes
}
