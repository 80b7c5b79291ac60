//! `Raw`: pre-serialized JSON embedded in `dumps` output.
//!
//! The text is validated once, when the `Raw` is made (`Raw.unchecked`
//! trusts it). Each profile then embeds it by its own rule (the core's
//! `RawPolicy`): `compact` copies it (or lays it out as `go` does when
//! ascii_only, escape_html or sort_keys must hold inside it), `go` compacts
//! it as Go does a `json.RawMessage`, `jcs` canonicalizes it.

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString, PyType};

use crate::json_text::{json_text, JsonText};
use crate::loads::Policy;

/// Raw(data, /, *, duplicate_keys="error")
///
/// JSON text that is already serialized, embedded by dumps without being
/// decoded: an envelope's payload, a stored document. `data` is bytes,
/// str, bytearray or memoryview holding one JSON value; it is checked as
/// loads reads it (JSONDecodeError with its position otherwise; a name
/// twice in one object is an error unless duplicate_keys is "first" or
/// "last") and kept as bytes (read once: what was checked is what is kept).
/// One limit of loads does not apply: CPython's integer digit limit
/// (sys.set_int_max_str_digits), which loads applies when it converts a
/// number to an int; Raw converts nothing, so Raw(b"1" * 4301) is accepted
/// where loads refuses it.
///
/// Each profile embeds it by its own rule: compact copies it as it is; go
/// treats it as Go treats a json.RawMessage (whitespace removed, or
/// re-indented, escapes and number spellings kept, <>& escaped); jcs
/// canonicalizes it. ascii_only, escape_html and sort_keys hold inside it
/// too: with any of them compact lays it out token by token as go does
/// (indent alone leaves it as it is, as orjson does a Fragment).
///
/// Raw.unchecked(data) trusts the text without checking it (compact then
/// copies invalid JSON as it is; go and jcs still parse it). bytes(raw)
/// gives the text back.
///
/// dumps' max_write_depth: compact copying a Raw as it is does so whatever
/// its own nesting
/// (bounded by max_depth when it was checked); go, which lays it out again,
/// and jcs, which reads it again, count its nesting from where it is
/// written.
#[pyclass(module = "jetjson", frozen)]
pub struct Raw {
    json: Py<PyBytes>,
}

/// The `bytes` object holding the text of `obj` (borrowed: alive while the
/// Raw is), read without a reference taken.
///
/// # Safety
/// `obj` is a live object of exactly `Raw`'s type; GIL held.
#[inline(always)]
pub(crate) unsafe fn text_object(py: Python<'_>, obj: *mut pyo3::ffi::PyObject) -> *mut pyo3::ffi::PyObject {
    // SAFETY: as the caller guarantees: a live Raw (frozen, so read without
    // a borrow flag), borrowed for this call only.
    unsafe { pyo3::Borrowed::from_ptr(py, obj).cast_unchecked::<Raw>().get().json_object() }
}

impl Raw {
    pub fn json<'a>(&'a self, py: Python<'_>) -> &'a [u8] {
        self.json.as_bytes(py)
    }

    /// The `bytes` object holding the text (borrowed: alive while the Raw is).
    pub fn json_object(&self) -> *mut pyo3::ffi::PyObject {
        self.json.as_ptr()
    }

    /// A new `Raw` holding `json`, which the caller has checked (typed
    /// decode: a member's text as the parser accepted it).
    pub(crate) fn checked(py: Python<'_>, json: &[u8]) -> PyResult<Py<Raw>> {
        Py::new(py, Raw { json: crate::fallible::new_bytes(py, json)?.unbind() })
    }
}

/// The input as a bytes object: the same object for bytes input (immutable),
/// else a new one made from `text`, the bytes read from `data` once (a
/// bytearray or a buffer may change after it was read; what was read, and
/// checked, is what is kept).
fn as_bytes_object<'py>(data: &Bound<'py, PyAny>, text: &JsonText<'_>) -> PyResult<Bound<'py, PyBytes>> {
    match data.cast::<PyBytes>() {
        Ok(b) => Ok(b.clone()),
        Err(_) => crate::fallible::new_bytes(data.py(), &text.bytes),
    }
}

/// One validator per duplicate-name policy, kept between calls so that
/// checking a payload allocates nothing once they have grown; guarded by
/// the GIL (taken and put back with no Python code in between; a nested or
/// concurrent use finds the slot empty and makes its own).
struct Validators([std::cell::Cell<Option<Box<jetjson::parse::Validator>>>; 3]);

// SAFETY: only touched with the GIL held (`validate` takes the token), and
// the extension is not built for free-threaded CPython (lib.rs).
unsafe impl Sync for Validators {}

static VALIDATORS: Validators = Validators([const { std::cell::Cell::new(None) }; 3]);

/// Checks `bytes` as `loads` reads them (default limits), with this
/// duplicate-name policy, through the kept validator.
fn validate(_py: Python<'_>, bytes: &[u8], duplicates: jetjson::DuplicateKeys) -> jetjson::Result<()> {
    let i = match duplicates {
        jetjson::DuplicateKeys::Error => 0,
        jetjson::DuplicateKeys::First => 1,
        jetjson::DuplicateKeys::Last => 2,
    };
    let slot = &VALIDATORS.0[i];
    let mut v =
        slot.take().unwrap_or_else(|| Box::new(jetjson::parse::Validator::new(&jetjson::ReadOptions::new().duplicate_keys(duplicates))));
    let r = v.validate(bytes);
    slot.set(Some(v));
    r
}

/// Makes `Raw(data)` of an exact `bytes` (no keywords) skip pyo3's
/// constructor: the type's vectorcall (`quick_new`), set once when the
/// module is set up. A call to a type goes to its `tp_vectorcall` when it
/// has one (CPython 3.8 and later); without it CPython packs the arguments
/// into a tuple and a dict for `tp_new` (pyo3's trampoline, which extracts
/// them again): about 490 instructions of a `Raw(b'1')` that cost 85 ns
/// against orjson's 33 ns `Fragment(b'1')`
/// (bench/results/rawval41-2026-11-30.md).
pub(crate) fn install_quick_new(py: Python<'_>) {
    // `quick_new`'s one pyo3 error path (`Py::new` failing to allocate)
    // fetches the error, which compares its type with `PanicException`'s:
    // that type is made here, attached, so that the quick body only reads
    // it (fast.rs: no lazy type object made in a quick body).
    let _ = <pyo3::panic::PanicException as pyo3::PyTypeInfo>::type_object(py);
    let ty = py.get_type::<Raw>();
    // SAFETY: `Raw`'s type object is live for the whole program (held by
    // the module); GIL held. Nothing else writes this slot (`Raw` is not
    // subclassable), and CPython reads it on each call of the type.
    unsafe {
        let tp = ty.as_type_ptr();
        SLOTS.set(((*tp).tp_new, (*tp).tp_init)).ok();
        (*tp).tp_vectorcall = Some(quick_new);
    }
}

/// `Raw`'s `tp_new` and `tp_init` when `quick_new` was installed: a
/// `__new__` or `__init__` assigned to the class since changes them, and
/// the quick path then declines (the call runs what was assigned).
static SLOTS: std::sync::OnceLock<(Option<pyo3::ffi::newfunc>, Option<pyo3::ffi::initproc>)> = std::sync::OnceLock::new();

/// `Raw`'s vectorcall: `Raw(data)` of an exact `bytes` valid under the
/// default policy made here, every other call (other types, keywords, a
/// text to refuse, which the general path explains) by the type's
/// `tp_call`, as CPython calls it without a vectorcall.
///
/// # Safety
/// CPython's vectorcall convention, `callable` the `Raw` type.
unsafe extern "C" fn quick_new(
    callable: *mut pyo3::ffi::PyObject,
    args: *const *mut pyo3::ffi::PyObject,
    nargsf: usize,
    kwnames: *mut pyo3::ffi::PyObject,
) -> *mut pyo3::ffi::PyObject {
    use pyo3::ffi;
    // SAFETY: the convention's argument count.
    let nargs = unsafe { ffi::PyVectorcall_NARGS(nargsf) };
    let quick = |py: Python<'_>| {
        if nargs != 1 || !kwnames.is_null() {
            return None;
        }
        let tp = callable.cast::<ffi::PyTypeObject>();
        // SAFETY: `callable` is the live `Raw` type (the convention).
        let slots = unsafe { ((*tp).tp_new, (*tp).tp_init) };
        if SLOTS.get() != Some(&slots) {
            return None;
        }
        // SAFETY: one positional argument, held by the caller for the call.
        let data = unsafe { *args };
        // SAFETY: a live object (the caller holds it).
        if unsafe { ffi::PyBytes_CheckExact(data) } == 0 {
            return None;
        }
        // SAFETY: `data` is a live exact bytes object, borrowed for the call
        // (bytes are immutable: what is checked is what is kept).
        let bytes = unsafe { pyo3::Borrowed::from_ptr(py, data).cast_unchecked::<PyBytes>() };
        // (An error is a Rust value holding no Python object: dropped here,
        // the general path raises it.)
        validate(py, bytes.as_bytes(), jetjson::DuplicateKeys::Error).ok()?;
        // The object is made as pyo3's `tp_new` makes it. (If the
        // allocation fails, `Py::new` fetches the MemoryError, which is
        // raised again here, not dropped, and drops the `bytes` reference
        // the `Raw` would have held: queued by pyo3, as the thread is not
        // counted as attached, and released at its next entry. The one
        // exception to fast.rs's rules, on this path only; tested by
        // test_raw_doors.py.)
        match Py::new(py, Raw { json: bytes.to_owned().unbind() }) {
            Ok(raw) => Some(raw.into_ptr()),
            Err(e) => {
                e.restore(py);
                Some(std::ptr::null_mut())
            }
        }
    };
    // SAFETY: called by CPython in the vectorcall convention; `quick` drops
    // no `Py<T>` or `PyErr` but as said there, and declines with no
    // exception set and nothing done.
    unsafe { crate::fast::run_or(quick, || slow_new(callable, args, nargs, kwnames)) }
}

/// The call `quick_new` declines, as CPython makes it for a type without a
/// vectorcall: the arguments as a tuple and a dict to the metatype's
/// `tp_call` (`type.__call__`: pyo3's `tp_new`).
///
/// # Safety
/// As `quick_new`, `nargs` the positional count.
unsafe fn slow_new(
    callable: *mut pyo3::ffi::PyObject,
    args: *const *mut pyo3::ffi::PyObject,
    nargs: pyo3::ffi::Py_ssize_t,
    kwnames: *mut pyo3::ffi::PyObject,
) -> *mut pyo3::ffi::PyObject {
    use pyo3::ffi;
    // SAFETY: GIL held (the convention); `args` holds `nargs` positional
    // values then one per name of `kwnames` (a tuple of str, or null), all
    // held by the caller; the tuple takes new references to its items and
    // the dict its own; both are released before returning.
    unsafe {
        let tuple = ffi::PyTuple_New(nargs);
        if tuple.is_null() {
            return std::ptr::null_mut();
        }
        for i in 0..nargs {
            let item = *args.offset(i);
            ffi::Py_INCREF(item);
            ffi::PyTuple_SET_ITEM(tuple, i, item);
        }
        let mut dict = std::ptr::null_mut();
        let names = if kwnames.is_null() { 0 } else { ffi::PyTuple_GET_SIZE(kwnames) };
        if names > 0 {
            dict = ffi::PyDict_New();
            if dict.is_null() {
                ffi::Py_DECREF(tuple);
                return std::ptr::null_mut();
            }
            for j in 0..names {
                if ffi::PyDict_SetItem(dict, ffi::PyTuple_GET_ITEM(kwnames, j), *args.offset(nargs + j)) < 0 {
                    ffi::Py_DECREF(tuple);
                    ffi::Py_DECREF(dict);
                    return std::ptr::null_mut();
                }
            }
        }
        // `type.__call__` (every metatype has one; refused, not unwound,
        // if one had not: no panic crosses this C function).
        let result = match (*ffi::Py_TYPE(callable)).tp_call {
            Some(call) => call(callable, tuple, dict),
            None => {
                ffi::PyErr_SetString(ffi::PyExc_TypeError, c"jetjson.Raw: its type is not callable".as_ptr());
                std::ptr::null_mut()
            }
        };
        ffi::Py_DECREF(tuple);
        if !dict.is_null() {
            ffi::Py_DECREF(dict);
        }
        result
    }
}

#[pymethods]
impl Raw {
    /// Raw(json: bytes | str | bytearray | memoryview, *, duplicate_keys="error"):
    /// checks that `json` is one valid JSON value, as `loads` reads it
    /// (JSONDecodeError otherwise, with its position). A name twice in one
    /// object is an error, as in `loads`, unless `duplicate_keys` is "first"
    /// or "last". The bytes are read once: those checked are those kept.
    /// CPython's integer digit limit (`sys.set_int_max_str_digits`), which
    /// `loads` applies when converting, does not apply: `Raw` converts
    /// nothing.
    #[new]
    #[pyo3(signature = (data, *, duplicate_keys=Policy(jetjson::DuplicateKeys::Error)))]
    #[pyo3(text_signature = "(data, /, *, duplicate_keys='error')")]
    fn new(data: &Bound<'_, PyAny>, duplicate_keys: Policy) -> PyResult<Raw> {
        let py = data.py();
        let text = json_text(data)?;
        if let Err(e) = validate(py, &text.bytes, duplicate_keys.0) {
            // Raw has no allow_bom (its text is embedded as it is, and a BOM
            // inside a document is not JSON): the core's advice does not apply.
            let msg = e.message().replace(" (enable allow_bom to skip it)", " (Raw text cannot start with one: remove it)");
            return Err(text.error_saying(py, &e, &msg, data));
        }
        Ok(Raw { json: as_bytes_object(data, &text)?.unbind() })
    }

    /// A Raw that trusts `data` without checking it: compact output copies
    /// it as is (invalid JSON in, invalid JSON out); go and jcs still parse it.
    #[classmethod]
    fn unchecked(_cls: &Bound<'_, PyType>, data: &Bound<'_, PyAny>) -> PyResult<Raw> {
        // A str with a lone surrogate has no UTF-8 form: its bytes would be
        // invalid UTF-8 in the output, unchecked or not (as orjson's
        // Fragment refuses it).
        if let Ok(s) = data.cast::<PyString>() {
            if s.to_str().is_err() {
                return Err(pyo3::exceptions::PyValueError::new_err(
                    "Raw.unchecked: the str holds a lone surrogate, which has no UTF-8 form",
                ));
            }
        }
        let text = json_text(data)?;
        Ok(Raw { json: as_bytes_object(data, &text)?.unbind() })
    }

    fn __bytes__(&self, py: Python<'_>) -> Py<PyBytes> {
        self.json.clone_ref(py)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let bytes = self.json.bind(py);
        let shown = match std::str::from_utf8(bytes.as_bytes()) {
            Ok(s) => PyString::new(py, s).repr()?,
            Err(_) => bytes.repr()?,
        };
        Ok(format!("Raw({shown})"))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let py = other.py();
        match other.cast::<Raw>() {
            Ok(o) => Ok(pyo3::types::PyBool::new(py, self.json(py) == o.get().json(py)).to_owned().into_any().unbind()),
            Err(_) => Ok(py.NotImplemented()),
        }
    }

    fn __hash__(&self, py: Python<'_>) -> PyResult<isize> {
        self.json.bind(py).hash()
    }
}
