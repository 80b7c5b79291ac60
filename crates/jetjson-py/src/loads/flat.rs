//! The quick path's builder of a small flat object (`loads(b'{"a":1}')`,
//! a request body of a few scalar members), for `loads::quick` (mod.rs).
//!
//! The core reads the document (`jetjson::parse::flat_object`, the walk of
//! a flat object of at most `FLAT_UP_TO` bytes, which declines everything
//! else, failures included); this file only makes the Python objects of
//! the members it hands over and inserts them into the dict as they come.
//! None of the general path's machinery runs: no parser driver, no
//! builder stacks, no pause of the cyclic GC (a dict of such values is not
//! tracked by it). Documents with a `{`, `[` or `\` after their first byte
//! are declined by the core's look over the bytes before the dict is
//! made, so nested documents lose only that look.
//!
//! The objects are the general builder's (builder.rs: the same key cache
//! for ASCII keys and short ASCII values, the same str, int and float
//! constructors, the same dict insertion under each duplicate-key policy,
//! in document order). Whenever the walk declines, or this builder does
//! (a repeated key under "error", a Python error while creating an
//! object), nothing is left behind (the dict released, no exception set),
//! and the caller reads the document with the general path, which gives
//! the result or the error (with its position) as it always did.
//!
//! Options: the core's walk honours the parser's options (it declines
//! unless there is no size limit below the input's size, the depth limit
//! is at least 1 and numbers are not kept lossless); the duplicate-key
//! policy is applied here.

use jetjson::parse::{FlatBuilder, FlatText, FlatValue};
use jetjson::{DuplicateKeys, ReadOptions};
use pyo3::ffi;
use pyo3::Python;

use super::builder::{_PyDict_SetItem_KnownHash, str_hash};
use super::keys::{self, KeyCache};
use super::{numbers, strings};

pub(crate) use jetjson::parse::FLAT_UP_TO;

/// The dict being filled from the core's walk.
struct FlatDict<'py> {
    py: Python<'py>,
    /// Null until `begin`; then an owned reference, seen by no one else.
    dict: *mut ffi::PyObject,
    /// Taken in `begin`, after the dict is made.
    cache: Option<KeyCache>,
    policy: DuplicateKeys,
}

impl FlatBuilder for FlatDict<'_> {
    #[inline(always)]
    fn begin(&mut self) -> bool {
        // SAFETY: GIL held (`self.py`). The dict is made first, before the
        // key cache is taken: making it may start a collection of the
        // cyclic GC, which may run Python code (finalizers, gc.callbacks),
        // and at that point nothing is held but the input, which its owner
        // (held by the caller) keeps alive and unchanged (bytes and a str's
        // UTF-8 form are immutable).
        let dict = unsafe { ffi::PyDict_New() };
        if dict.is_null() {
            // SAFETY: GIL held. Out of memory: the general path meets it
            // again and reports it.
            unsafe { ffi::PyErr_Clear() };
            return false;
        }
        self.dict = dict;
        self.cache = KeyCache::acquire(self.py);
        true
    }

    #[inline(always)]
    fn member(&mut self, key: FlatText<'_>, value: FlatValue<'_>) -> bool {
        // The key's object, then the value's, as the general builder makes
        // them (the key cache's tables see the same lookups in the same
        // order).
        let k = key_object(&mut self.cache, key);
        if k.is_null() {
            return false;
        }
        let v = value_object(&mut self.cache, value);
        // SAFETY: GIL held; `self.dict` is the live dict made in `begin`
        // (`member` is only called after it succeeded). `k` and `v` are
        // owned references made here; the dict takes its own references
        // and these are released once. Nothing here runs Python code:
        // strs, ints and floats are untracked by the GC (no collection),
        // inserting them under exact-str keys with their hashes compares
        // strs (no `__eq__`), and releasing them runs no finalizer.
        unsafe {
            if v.is_null() {
                ffi::Py_DECREF(k);
                return false;
            }
            let failed = match self.policy {
                DuplicateKeys::First => ffi::PyDict_SetDefault(self.dict, k, v).is_null(),
                _ => _PyDict_SetItem_KnownHash(self.dict, k, v, str_hash(k)) != 0,
            };
            ffi::Py_DECREF(k);
            ffi::Py_DECREF(v);
            if failed {
                return false;
            }
        }
        true
    }
}

/// A new reference to the str for the key `k`, as the general builder
/// makes it (`Builder::ascii_key`, `Builder::key`), or null with a Python
/// exception set.
#[inline(always)]
fn key_object(cache: &mut Option<KeyCache>, k: FlatText<'_>) -> *mut ffi::PyObject {
    match (k, cache) {
        (FlatText::Ascii(k), Some(cache)) if k.len() <= keys::MAX_LEN => cache.get(k),
        (FlatText::Ascii(k), _) => strings::new_ascii(k),
        (FlatText::Utf8(k), _) => strings::new_str(k),
    }
}

/// A new reference to the value `v`, as the general builder makes it
/// (`Builder`'s `ascii_string`, `string`, `number`, `bool`, `null`), or
/// null with a Python exception set.
#[inline(always)]
fn value_object(cache: &mut Option<KeyCache>, v: FlatValue<'_>) -> *mut ffi::PyObject {
    match (v, cache) {
        (FlatValue::Text(FlatText::Ascii(s)), Some(cache)) if s.len() <= keys::MAX_VALUE_LEN => cache.get_value(s),
        (FlatValue::Text(FlatText::Ascii(s)), _) => strings::new_ascii(s),
        (FlatValue::Text(FlatText::Utf8(s)), _) => strings::new_str(s),
        (FlatValue::Number(n), _) => numbers::new_number(&n),
        // SAFETY (the three below): new references to the singletons.
        (FlatValue::True, _) => unsafe { ffi::Py_NewRef(ffi::Py_True()) },
        (FlatValue::False, _) => unsafe { ffi::Py_NewRef(ffi::Py_False()) },
        (FlatValue::Null, _) => unsafe { ffi::Py_NewRef(ffi::Py_None()) },
    }
}

/// `object`, called through a function marked cold so that the quick
/// call's code places the call off its straight path: with the call in
/// line, `loads(b'[1,2,3]')`, which never comes here, took 0.91-0.93x
/// the time it took before the flat path (paired; +6 instructions, and
/// level with the call taken out), while this costs a flat object one
/// jump.
#[cold]
#[inline(never)]
pub(crate) fn object_aside(py: Python<'_>, b: &[u8], options: &ReadOptions, parse: &ReadOptions) -> Option<*mut ffi::PyObject> {
    object(py, b, options, parse)
}

/// `loads(b)` of a small flat object, read with `options` (and `parse`, as
/// `loads::untyped_options` made them): a new reference to
/// the dict, or `None` (declined: nothing made, no exception set) for any
/// other document, failures included.
///
/// The caller has applied the length limit and holds `b`'s owner for the
/// call; GIL held.
///
/// Out of line, the core's look over the bytes included: inlined into the
/// quick call (`loads::quick`), wholly or only the look, it made
/// `loads(b'1')`, which never comes here, slower (17 -> 19-20 ns, paired,
/// with the same instructions); out of line it stays level, and a nested
/// document pays the call and the look (about 60 instructions).
///
/// Its size moves the functions placed after it (`entry::loads_fast`):
/// when the walk moved into the core, a first version 271 bytes longer
/// than before (16 mod 64) made `loads(b'1')` and `loads(b'[1,2,3]')`,
/// which never come here, 0.90x and 0.94x (paired, the same instructions);
/// this one is 192 bytes longer (0 mod 64) and both are level. A change
/// here is worth a paired timing of those two.
#[inline(never)]
pub(crate) fn object(py: Python<'_>, b: &[u8], options: &ReadOptions, parse: &ReadOptions) -> Option<*mut ffi::PyObject> {
    let policy = options.duplicate_key_policy();
    let mut flat = FlatDict { py, dict: std::ptr::null_mut(), cache: None, policy };
    // The parser's options: the walk honours their limits (`parse` differs
    // from `options` only in its duplicate-key policy, applied here).
    let walked = jetjson::parse::flat_object(b, parse, &mut flat);
    drop(flat.cache.take());
    let dict = flat.dict;
    // SAFETY: GIL held; `dict`, when not null, is the dict `begin` made,
    // owned here until it is returned or released (releasing it runs no
    // finalizer: it holds only strs, ints, floats and singletons).
    unsafe {
        let kept = match walked {
            // A repeated key under "error" (the dict came out smaller than
            // the member count): the general path reports it, with the
            // parser's position. (One member cannot be repeated.)
            Some(n) if policy == DuplicateKeys::Error && n > 1 && ffi::PyDict_Size(dict) as usize != n => false,
            Some(_) => true,
            None => false,
        };
        if kept {
            return Some(dict);
        }
        if !dict.is_null() {
            ffi::Py_DECREF(dict);
            // An exception set while making or inserting an object (out
            // of memory, an int CPython refuses), if any: the general path
            // meets it again and reports it. (None was set on entry.)
            ffi::PyErr_Clear();
        }
        None
    }
}
