//! Python `int` and `float` objects from number tokens.
//!
//! Integers are exact at any size: 64-bit values go through
//! PyLong_FromLongLong / PyLong_FromUnsignedLongLong, larger ones through
//! PyLong_FromString on the literal (so CPython's limit on the digits of
//! an int converted from text applies, as for `int(s)` and `json.loads`).
//! Floats are the parser's correctly rounded doubles (a literal that
//! underflows is ±0.0, as `float(s)` gives); the parser refuses a literal
//! beyond the double range (`1e400`), where `json.loads` would give ±inf.

use jetjson::parse::{NumberToken, NumberValue};
use pyo3::ffi;

/// The ints 0 to `SMALL - 1`, made once when the module is set up
/// (`make_small_ints`) and held for the life of the process: a small
/// integer literal (a count, a flag, a port, an index: most ints of most
/// documents) is a reference taken in line, not a call of
/// `PyLong_FromLongLong` (which finds CPython's own small ints for 0 to
/// 256 after its checks: these are the same objects there). Ints are
/// immutable, so handing out one object for every `7` is what CPython does
/// too. Written once before any parse, read with the GIL held.
struct SmallInts([std::cell::Cell<*mut ffi::PyObject>; SMALL]);

/// How many small ints are kept.
const SMALL: usize = 1024;

// SAFETY: written once at module set-up and read by builders, both with the
// GIL held; the extension is not built for free-threaded CPython (lib.rs).
unsafe impl Sync for SmallInts {}

static SMALL_INTS: SmallInts = SmallInts([const { std::cell::Cell::new(std::ptr::null_mut()) }; SMALL]);

/// Fills the small-int table (module set-up; GIL held). An int that cannot
/// be made leaves its slot empty (made per literal then), with the error
/// cleared.
pub(crate) fn make_small_ints(_py: pyo3::Python<'_>) {
    for (i, slot) in SMALL_INTS.0.iter().enumerate() {
        if slot.get().is_null() {
            // SAFETY: GIL held (the token); a new reference, kept for the
            // life of the process, or null with an error set, cleared.
            unsafe {
                let o = ffi::PyLong_FromLongLong(i as i64);
                if o.is_null() {
                    ffi::PyErr_Clear();
                }
                slot.set(o);
            }
        }
    }
}

/// A new reference to the int `i`: from the small-int table when it holds
/// it, else made.
#[inline(always)]
pub(crate) fn new_int(i: i64) -> *mut ffi::PyObject {
    if let Some(slot) = SMALL_INTS.0.get(i as u64 as usize) {
        let o = slot.get();
        if !o.is_null() {
            // SAFETY: a live int held by the table for the life of the
            // process; GIL held (builders run with it).
            unsafe { ffi::Py_INCREF(o) };
            return o;
        }
    }
    // SAFETY: a plain CPython constructor (GIL held): a new reference or
    // null with an exception set.
    unsafe { ffi::PyLong_FromLongLong(i) }
}

/// A new reference to the number, or null with a Python exception set.
#[inline]
pub(crate) fn new_number(n: &NumberToken<'_>) -> *mut ffi::PyObject {
    // SAFETY: plain CPython constructors; each returns a new reference or
    // null with an exception set.
    unsafe {
        match n.value {
            NumberValue::I64(i) => new_int(i),
            NumberValue::F64(f) if !n.is_integer => ffi::PyFloat_FromDouble(f),
            // The integer literal `-0`, which the core reads as -0.0: in
            // Python, as in `json.loads`, it is the int 0.
            NumberValue::F64(_) => ffi::PyLong_FromLongLong(0),
            NumberValue::U64(u) => ffi::PyLong_FromUnsignedLongLong(u),
            NumberValue::Big => big(n),
        }
    }
}

#[cold]
fn big(n: &NumberToken<'_>) -> *mut ffi::PyObject {
    if n.is_integer {
        // PyLong_FromString needs a NUL-terminated string.
        // Fallible: the literal can be most of a huge input (CPython's
        // digit limit refuses it only after the copy).
        let mut text = Vec::new();
        if text.try_reserve_exact(n.text.len() + 1).is_err() {
            // SAFETY: GIL held (builders run with it); sets MemoryError.
            return unsafe { ffi::PyErr_NoMemory() };
        }
        text.extend_from_slice(n.text.as_bytes());
        text.push(0);
        // SAFETY: `text` is a NUL-terminated ASCII integer literal that
        // lives across the call; a null `pend` is allowed.
        unsafe { ffi::PyLong_FromString(text.as_ptr().cast(), std::ptr::null_mut(), 10) }
    } else {
        // A literal beyond the double range, which reaches a builder only
        // when reading losslessly (`loads` does not): no float stands for it.
        let msg = jetjson::Error::new(jetjson::ErrorKind::NumberOutOfRange { text: n.text.to_owned(), profile: "read" }).message();
        let msg = std::ffi::CString::new(msg).unwrap_or_default();
        // SAFETY: sets a ValueError with a NUL-terminated message; the
        // null result reports it.
        unsafe { ffi::PyErr_SetString(ffi::PyExc_ValueError, msg.as_ptr()) };
        std::ptr::null_mut()
    }
}

/// A `Decimal` of the literal's exact text (a new reference, or null with a
/// Python exception set).
#[cold]
pub(crate) fn new_decimal(cls: *mut ffi::PyObject, n: &NumberToken<'_>) -> *mut ffi::PyObject {
    // SAFETY: `cls` is decimal.Decimal (held by the caller's static); the
    // literal's text is ASCII; the str is released after the call.
    unsafe {
        let text = ffi::PyUnicode_FromStringAndSize(n.text.as_ptr().cast(), n.text.len() as ffi::Py_ssize_t);
        if text.is_null() {
            return std::ptr::null_mut();
        }
        let d = ffi::PyObject_CallOneArg(cls, text);
        ffi::Py_DECREF(text);
        if !d.is_null() && long_exponent(n.text) && !decimal_is_finite(d) {
            // An exponent beyond what a Decimal holds, read with the
            // decimal context's InvalidOperation trap off: NaN, not the
            // number. Refused (a JSONDecodeError at the value, loads/mod.rs).
            ffi::Py_DECREF(d);
            ffi::PyErr_SetString(ffi::PyExc_ValueError, c"number out of range for Decimal".as_ptr());
            return std::ptr::null_mut();
        }
        d
    }
}

/// Whether the literal's exponent has 10 digits or more: only then can
/// `Decimal(text)` fail to hold it (its exponents reach 10^17 and more;
/// a shorter one is always exact).
fn long_exponent(text: &str) -> bool {
    match text.bytes().position(|c| c | 0x20 == b'e') {
        Some(e) => text[e + 1..].trim_start_matches(['+', '-']).len() >= 10,
        None => false,
    }
}

/// `d.is_finite()` of the Decimal `d` (false if the call fails; its
/// exception is cleared). Used by `loads(decimal=True)` and typed decode.
///
/// # Safety
/// `d` is a live Decimal the caller owns a reference to; the GIL is held.
pub(crate) unsafe fn decimal_is_finite(d: *mut ffi::PyObject) -> bool {
    // SAFETY: the caller's contract. `is_finite` is the decimal module's C
    // code, or Python code if `decimal.Decimal` was replaced before its
    // first use: the caller holds its own reference to `d` and uses nothing
    // borrowed from it after the call.
    unsafe {
        let r = ffi::PyObject_CallMethod(d, c"is_finite".as_ptr(), std::ptr::null());
        if r.is_null() {
            ffi::PyErr_Clear();
            return false;
        }
        let ok = r == ffi::Py_True();
        ffi::Py_DECREF(r);
        ok
    }
}
