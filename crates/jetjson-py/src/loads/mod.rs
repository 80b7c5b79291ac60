//! `loads`: JSON text to Python objects.
//!
//! The core parser drives `Builder` (builder.rs), which creates Python
//! objects directly: no intermediate `Value` tree and no second pass.
//! Input types are in input.rs, option checking in options.rs, object
//! creation in strings.rs, numbers.rs and keys.rs (the key cache), and
//! error positions in location.rs.

pub(crate) mod builder;
pub(crate) mod entry;
mod flat;
pub(crate) mod gc;
pub(crate) mod input;
mod kept;
pub(crate) mod keys;
pub(crate) mod location;
pub(crate) mod numbers;
mod one;
mod options;
mod second;

pub(crate) use options::{out_of_range, str_option, wrong_type, Flag, Limit, Policy, MAX_DEPTH, MAX_SIZE};
pub(crate) mod strings;

use jetjson::{DuplicateKeys, ErrorKind, Position, ReadOptions};
use pyo3::exceptions::{PyArithmeticError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyString;

use builder::{Builder, Failure};
use input::Source;

pub(crate) use entry::register;

/// `loads` with options: every call that is not `loads(data)`, handed over
/// by entry.rs (which holds the documentation `help(jetjson.loads)` shows).
#[pyfunction]
#[pyo3(signature = (data, /, *, max_depth = Limit(512), max_size = None, duplicate_keys = Policy(DuplicateKeys::Error), allow_bom = Flag(false), decimal = Flag(false), r#type = None, strict = Flag(true), forbid_unknown_fields = Flag(false)))]
#[allow(clippy::too_many_arguments)]
pub fn loads(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    max_depth: Limit<MAX_DEPTH>,
    max_size: Option<Limit<MAX_SIZE>>,
    duplicate_keys: Policy,
    allow_bom: Flag,
    decimal: Flag,
    r#type: Option<&Bound<'_, PyAny>>,
    strict: Flag,
    forbid_unknown_fields: Flag,
) -> PyResult<Py<PyAny>> {
    let policy = duplicate_keys.0;
    let allow_bom = allow_bom.0;
    if let Some(ty) = r#type {
        if decimal.0 {
            return Err(pyo3::exceptions::PyTypeError::new_err(
                "decimal applies only without type= (declare decimal.Decimal members instead)",
            ));
        }
        return crate::decode::loads_typed(
            py,
            data,
            ty,
            strict.0,
            forbid_unknown_fields.0,
            max_depth.0,
            max_size.map(|l| l.0),
            policy,
            allow_bom,
        );
    }
    if !strict.0 || forbid_unknown_fields.0 {
        return Err(pyo3::exceptions::PyTypeError::new_err("strict and forbid_unknown_fields apply only with type="));
    }
    // Non-integers as Decimals: the parser keeps every literal's text (so
    // none is refused for the double range: a Decimal holds 1e400 exactly).
    let mut options = ReadOptions::new().max_depth(max_depth.0).allow_bom(allow_bom).duplicate_keys(policy).lossless_numbers(decimal.0);
    if let Some(limit) = max_size {
        options = options.max_size(limit.0);
        if let Ok(text) = data.cast::<PyString>() {
            oversized_str(py, text, limit.0)?;
        }
    }
    untyped(py, data, &options, decimal.0)
}

/// The default options, and what the parser is given for them (see
/// `untyped`), made once: built on the stack at each call, they were read
/// back before their stores had landed, a stall on every small `loads`.
pub(crate) fn defaults() -> &'static (ReadOptions, ReadOptions) {
    static DEFAULTS: std::sync::OnceLock<(ReadOptions, ReadOptions)> = std::sync::OnceLock::new();
    DEFAULTS.get_or_init(|| {
        let options = ReadOptions::new();
        let parse = for_parser(&options);
        (options, parse)
    })
}

/// `loads(data)` with every option at its default (entry.rs calls it for
/// calls without keywords).
#[inline]
pub(crate) fn plain(py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    let (options, parse) = defaults();
    untyped_with(py, data, options, parse, false)
}

/// The largest input `quick` reads: a call it declines (a failure) is
/// read again from the start by the general path, which costs at most this
/// much parsing more, and a larger input's parse outweighs what the quick
/// path saves (fast.rs) many times.
pub(crate) const QUICK_UP_TO: usize = 512;

/// `loads(data)` for an exact `bytes`, or an exact `str` whose UTF-8 form
/// CPython has at hand, of at most `QUICK_UP_TO` bytes, read with `options`
/// (and `parse`, as `untyped_options` made them): a new reference, or
/// `None`, with no exception set and no `Py<T>` or `PyErr` dropped, for
/// anything else, failures included (fast.rs: the general path then reads
/// it again, for its error).
///
/// # Safety
/// `data` is a live object, held by the caller for the call; GIL held.
#[inline(always)]
pub(crate) unsafe fn quick(
    py: Python<'_>,
    data: *mut pyo3::ffi::PyObject,
    options: &ReadOptions,
    parse: &ReadOptions,
) -> Option<*mut pyo3::ffi::PyObject> {
    use pyo3::ffi;
    // SAFETY: `data` is live, held by the caller for the call; a bytes
    // object's buffer holds its size in bytes, and a compact str its text
    // (ASCII after the header, or the cached UTF-8 form), for as long as it
    // lives, unchanged (both are immutable).
    let bytes: &[u8] = unsafe {
        if ffi::PyBytes_CheckExact(data) != 0 {
            std::slice::from_raw_parts(ffi::PyBytes_AS_STRING(data).cast::<u8>(), ffi::Py_SIZE(data) as usize)
        } else if ffi::PyUnicode_CheckExact(data) != 0 {
            // Its text as CPython has it at hand; else the general path
            // makes its UTF-8 form (and reports lone surrogates).
            crate::dumps::text::utf8_at_hand(data)?.as_bytes()
        } else {
            return None;
        }
    };
    if bytes.len() > QUICK_UP_TO {
        return None;
    }
    // A document that is one scalar: the parser's scalar walk inlined here,
    // into a builder of one object (one.rs); `None` from it, with nothing
    // built, when the value is a container after all (whitespace first).
    if !matches!(bytes.first(), Some(b'{' | b'[')) {
        let mut one = one::One::new();
        if let Some(result) = jetjson::parse::parse_scalar(bytes, parse, &mut one) {
            if one.pending {
                // An exception left set while creating the value: cleared,
                // as the general path meets it again.
                // SAFETY: GIL held.
                unsafe { ffi::PyErr_Clear() };
                return None;
            }
            let obj = one.take();
            return match result {
                // A successful parse reported exactly one value.
                Ok(()) if !obj.is_null() => Some(obj),
                _ => {
                    if !obj.is_null() {
                        // SAFETY: the owned reference just taken.
                        unsafe { ffi::Py_DECREF(obj) };
                    }
                    None
                }
            };
        }
    }
    // A flat object (no nested container) with the options the core's flat
    // walk honours: built directly from its members (flat.rs); anything
    // else it declines, with nothing made, and the builder below reads it.
    // (The options are checked there, out of line.)
    if bytes.first() == Some(&b'{') && bytes.len() <= flat::FLAT_UP_TO {
        if let Some(obj) = flat::object_aside(py, bytes, options, parse) {
            return Some(obj);
        }
    }
    let pause = gc::GcPause::new();
    let (result, failure, built) = {
        let mut builder = Builder::new_quick(py, options.duplicate_key_policy());
        let result = kept::parse(py, bytes, parse, &mut builder);
        let failure = builder.failure.take();
        let built = if result.is_ok() { builder.finish_raw() } else { None };
        (result, failure, built)
    };
    drop(pause);
    if let Some(Failure::Pending) = failure {
        // An exception left set by the quick builder (out of memory):
        // cleared, as the general path meets it again.
        // SAFETY: GIL held.
        unsafe { ffi::PyErr_Clear() };
        return None;
    }
    match result {
        Ok(()) => Some(built.unwrap_or_else(|| {
            // SAFETY: GIL held; a new reference to None.
            unsafe { ffi::Py_NewRef(ffi::Py_None()) }
        })),
        Err(_) => None,
    }
}

/// `options`, and what the parser is given for them (for a caller that
/// keeps both: `Decoder(Any)`).
pub(crate) fn untyped_options(options: ReadOptions) -> (ReadOptions, ReadOptions) {
    let parse = for_parser(&options);
    (options, parse)
}

/// The untyped read of `data` with `options` (as `untyped_options` made
/// them; a `str`'s size is checked by the parser on its UTF-8 form), or
/// `None` if it fails in any way (the error dropped): `Decoder(Any)` then
/// reads it again its own way, for its own error.
pub(crate) fn untyped_or_none(py: Python<'_>, data: &Bound<'_, PyAny>, options: &ReadOptions, parse: &ReadOptions) -> Option<Py<PyAny>> {
    untyped_with(py, data, options, parse, false).ok()
}

/// `loads(data, max_size=limit)` with every other option at its default
/// (entry.rs calls it for calls whose only keyword is `max_size`).
pub(crate) fn limited(py: Python<'_>, data: &Bound<'_, PyAny>, limit: usize) -> PyResult<Py<PyAny>> {
    if let Ok(text) = data.cast::<PyString>() {
        oversized_str(py, text, limit)?;
    }
    untyped(py, data, &ReadOptions::new().max_size(limit), false)
}

/// What the parser is given for `options`: under "error" the builder
/// spots a repeated key itself (a dict that came out smaller than its
/// member count), which costs nothing per key; the parser, told to let
/// repeats through, then does no tracking.
fn for_parser(options: &ReadOptions) -> ReadOptions {
    if options.duplicate_key_policy() == DuplicateKeys::Error {
        options.clone().duplicate_keys(DuplicateKeys::Last)
    } else {
        options.clone()
    }
}

/// The untyped read of `data` with `options` (whose size limit the caller
/// has already applied to a `str`'s characters).
fn untyped(py: Python<'_>, data: &Bound<'_, PyAny>, options: &ReadOptions, decimal: bool) -> PyResult<Py<PyAny>> {
    untyped_with(py, data, options, &for_parser(options), decimal)
}

/// `untyped` with the parser's options (`for_parser(options)`) given.
fn untyped_with(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    options: &ReadOptions,
    parse_options: &ReadOptions,
    decimal: bool,
) -> PyResult<Py<PyAny>> {
    let policy = options.duplicate_key_policy();
    let (input, is_str) = match input::source(data, "loads()")? {
        Source::Bytes(b) => (b, false),
        Source::Str(s) => (input::Input::Borrowed(s), true),
        Source::BadStr(index) => return Err(location::surrogate_error(py, data, index)),
    };
    let bytes = input.bytes();
    if let Some(limit) = options.size_limit().filter(|&limit| bytes.len() > limit) {
        return Err(oversized(py, limit, bytes, is_str, data));
    }
    // Text after the value (a second value, say): refused before anything
    // is built when a look at the input's end shows it (second.rs).
    if !decimal && second::more_than_one_value(bytes) {
        if let Some(e) = second::error_without_building(py, bytes, options) {
            return Err(location::decode_error_from(py, &e, bytes, is_str, data));
        }
    }
    let decimal = if decimal { Some(decimal_class(py)?) } else { None };
    let pause = gc::GcPause::new();
    // The builder is dropped in place at the end of this block (under the
    // pause): `drop(builder)` moved all of it first, a memcpy per call.
    let (result, failure, built) = {
        let mut builder = Builder::new(py, policy);
        builder.decimal = decimal;
        let result = kept::parse(py, bytes, parse_options, &mut builder);
        let failure = builder.failure.take();
        let built = if result.is_ok() { builder.finish() } else { None };
        (result, failure, built)
    };
    drop(pause);
    match (result, failure) {
        (Ok(()), _) => Ok(built.unwrap_or_else(|| py.None())),
        // A value CPython refuses (an int beyond its digit limit) is bad
        // input: a JSONDecodeError at the value, with CPython's reason.
        (Err(e), Some(Failure::Python(err))) if err.is_instance_of::<PyValueError>(py) => {
            let reason = err.value(py).str().map(|s| s.to_string()).unwrap_or_else(|_| e.message());
            Err(location::decode_error_at(py, &reason, e.position(), bytes, is_str, data))
        }
        // So is a number `Decimal` cannot hold (`decimal.InvalidOperation`,
        // an ArithmeticError: an exponent beyond its range).
        (Err(e), Some(Failure::Python(err))) if decimal.is_some() && err.is_instance_of::<PyArithmeticError>(py) => {
            Err(location::decode_error_at(py, "number out of range for Decimal", e.position(), bytes, is_str, data))
        }
        // Out of memory and the like propagate unchanged.
        (Err(_), Some(Failure::Python(err))) => Err(*err),
        // Only quick builders leave an exception pending; fetched here all
        // the same.
        (Err(_), Some(Failure::Pending)) => Err(PyErr::fetch(py)),
        (Err(e), Some(Failure::DuplicateKey)) => {
            // Everything before the object's end was valid JSON, so parsing
            // again with the parser's own tracking stops at the first
            // repeated key in document order, with the parser's message
            // and position.
            let exact = jetjson::parse::validate(bytes, options).err().unwrap_or(e);
            Err(location::decode_error_from(py, &exact, bytes, is_str, data))
        }
        (Err(e), None) => Err(location::decode_error_from(py, &e, bytes, is_str, data)),
    }
}

/// The error for an input of more than `limit` bytes, made before any
/// parsing: the parser would refuse it at its first step with the same
/// message and place (byte `limit`, its line and column), but a service
/// refusing hostile bodies should not pay for setting up a parse, nor
/// for explaining its failure again.
#[cold]
pub(crate) fn oversized(py: Python<'_>, limit: usize, bytes: &[u8], is_str: bool, data: &Bound<'_, PyAny>) -> PyErr {
    let msg = crate::errors::size_limit_message(limit);
    location::decode_error_at(py, msg.as_str(), Some(Position::locate(bytes, limit)), bytes, is_str, data)
}

/// `decimal.Decimal`, looked up once.
fn decimal_class(py: Python<'_>) -> PyResult<*mut pyo3::ffi::PyObject> {
    static CLASS: pyo3::sync::PyOnceLock<Py<PyAny>> = pyo3::sync::PyOnceLock::new();
    Ok(CLASS
        .get_or_try_init(py, || {
            Ok::<_, PyErr>(py.import(crate::fallible::name!(py, "decimal")?)?.getattr(crate::fallible::name!(py, "Decimal")?)?.unbind())
        })?
        .as_ptr())
}

/// Refuses a `str` that is longer than `limit` characters (so its UTF-8
/// form is longer than `limit` bytes) before that form is created: the
/// encoding of an oversized input would cost as much memory as the input.
/// Only the first `limit + 1` characters are encoded, to place the error
/// where the parser would (at byte `limit`).
fn oversized_str(py: Python<'_>, text: &Bound<'_, PyString>, limit: usize) -> PyResult<()> {
    let chars = text.len()?;
    if chars <= limit {
        return Ok(());
    }
    let prefix = text.get_item(pyo3::types::PySlice::new(py, 0, (limit.min(isize::MAX as usize - 1) + 1) as isize, 1))?;
    let prefix = prefix.cast_into::<PyString>()?;
    let msg = jetjson::Error::new(ErrorKind::SizeLimit { limit }).message();
    match prefix.to_str() {
        Ok(p) => {
            let bytes = p.as_bytes();
            let at = Position::locate(bytes, limit);
            Err(location::decode_error_at(py, &msg, Some(at), bytes, true, text.as_any()))
        }
        // A lone surrogate in the prefix: report that, as for any str input.
        Err(_) => match input::source(text.as_any(), "loads()")? {
            Source::BadStr(index) => Err(location::surrogate_error(py, text.as_any(), index)),
            _ => Err(location::decode_error_at(py, &msg, None, &[], true, text.as_any())),
        },
    }
}
