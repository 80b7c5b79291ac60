//! The quick path's builder of a small flat object (`loads(b'{"a":1}')`,
//! a request body of a few scalar members), for `loads::quick` (fast.rs).
//!
//! A document that is one object whose members are all strings, numbers
//! or literals (no nested array or object) is read in two steps: a walk of
//! its bytes that only records each member (where its key and value are,
//! the number's token), creating nothing; then, if the walk reached the
//! end of a valid document, the dict, filled from the record. None of the
//! general path's machinery runs: no parser driver (its set-up, the masks
//! of the first block), no builder stacks, no pause of the cyclic GC.
//!
//! The walk accepts only what the parser accepts, and builds what the
//! general builder builds from it (builder.rs: the same key cache for
//! ASCII keys and short ASCII values, the same str, int and float
//! constructors, the same dict insertion under each duplicate-key policy,
//! in document order): anything it does not take on (escapes, a nested
//! container, more than `MAX_MEMBERS` members, bad syntax of any kind, a
//! repeated key under "error", a Python error while creating an object)
//! makes it decline with nothing left behind (no object, no exception
//! set), and the caller reads the document with the general path, which
//! gives the result or the error (with its position) as it always did. A
//! nested container declines before any object is made, so documents that
//! are not flat lose only the walk up to it.
//!
//! The caller applies the options first (`loads::quick`): no size limit
//! below the input's size, a depth limit of at least 1, numbers not kept
//! lossless; the document starts with `{` (so no byte order mark).

use std::mem::MaybeUninit;

use jetjson::parse::NumberToken;
use jetjson::DuplicateKeys;
use pyo3::ffi;
use pyo3::Python;

use super::builder::{_PyDict_SetItem_KnownHash, str_hash};
use super::keys::{self, KeyCache};
use super::{numbers, strings};

/// The most members the walk records; a larger object declines (the
/// record lives on the stack, uninitialised until written).
pub(crate) const MAX_MEMBERS: usize = 32;

/// A string as the walk found it: its body (no escapes), and whether it
/// is all ASCII (otherwise checked as UTF-8 by the walk).
#[derive(Clone, Copy)]
enum Text<'a> {
    Ascii(&'a [u8]),
    Utf8(&'a str),
}

#[derive(Clone, Copy)]
enum Value<'a> {
    Text(Text<'a>),
    Number(NumberToken<'a>),
    True,
    False,
    Null,
}

#[derive(Clone, Copy)]
struct Member<'a> {
    key: Text<'a>,
    value: Value<'a>,
}

/// JSON whitespace (RFC 8259: space, tab, line feed, carriage return).
#[inline(always)]
fn is_ws(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r')
}

/// The first offset at or after `i` that is not whitespace (or the end).
#[inline(always)]
fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while b.get(i).is_some_and(|&c| is_ws(c)) {
        i += 1;
    }
    i
}

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// Bytes of `w` that end a string's plain run: `"`, `\` or a control byte
/// (below 0x20). The lowest flagged byte is exact (borrows only flag bytes
/// above a true one), which is all the caller uses.
#[inline(always)]
fn stops(w: u64) -> u64 {
    let quote = w ^ (ONES * u64::from(b'"'));
    let backslash = w ^ (ONES * u64::from(b'\\'));
    let zero_quote = quote.wrapping_sub(ONES) & !quote;
    let zero_backslash = backslash.wrapping_sub(ONES) & !backslash;
    let control = w.wrapping_sub(ONES * 0x20) & !w;
    (zero_quote | zero_backslash | control) & HIGHS
}

/// The string whose body starts at `start` (after its opening quote): its
/// text and the offset of its closing quote, when the body has no escape
/// and no control byte and is valid UTF-8; `None` otherwise (escapes are
/// the general path's, as is every error).
#[inline(always)]
fn string(b: &[u8], start: usize) -> Option<(Text<'_>, usize)> {
    let mut i = start;
    let mut high = 0u64;
    let end = loop {
        match b.get(i..).and_then(<[u8]>::first_chunk::<8>) {
            Some(chunk) => {
                let w = u64::from_le_bytes(*chunk);
                let s = stops(w);
                if s != 0 {
                    let k = (s.trailing_zeros() / 8) as usize;
                    // The bytes before the stop (k < 8).
                    high |= w & HIGHS & ((1u64 << (8 * k)) - 1);
                    i += k;
                } else {
                    high |= w & HIGHS;
                    i += 8;
                    continue;
                }
            }
            None => {
                // Fewer than 8 bytes left: byte by byte.
                while let Some(&c) = b.get(i) {
                    if c == b'"' || c == b'\\' || c < 0x20 {
                        break;
                    }
                    high |= u64::from(c & 0x80);
                    i += 1;
                }
            }
        }
        break i;
    };
    if b.get(end) != Some(&b'"') {
        // An escape, a control byte or the end of the input.
        return None;
    }
    let body = b.get(start..end)?;
    if high == 0 {
        return Some((Text::Ascii(body), end));
    }
    Some((Text::Utf8(std::str::from_utf8(body).ok()?), end))
}

/// Walks the document `b` (its first byte `{`) if it is one object of at
/// most `MAX_MEMBERS` members whose values are no containers, recording
/// them in `members`: their number, or `None` for anything else.
#[inline(always)]
fn walk<'a>(b: &'a [u8], members: &mut [MaybeUninit<Member<'a>>; MAX_MEMBERS]) -> Option<usize> {
    if b.first() != Some(&b'{') {
        return None;
    }
    let mut n = 0;
    let mut i = skip_ws(b, 1);
    if b.get(i) == Some(&b'}') {
        i += 1;
    } else {
        loop {
            if b.get(i) != Some(&b'"') {
                return None;
            }
            let (key, end) = string(b, i + 1)?;
            i = end + 1;
            // `":"` then the value at once (compact input), else whitespace
            // around the colon.
            if b.get(i) == Some(&b':') {
                i += 1;
            } else {
                i = skip_ws(b, i);
                if b.get(i) != Some(&b':') {
                    return None;
                }
                i += 1;
            }
            i = skip_ws(b, i);
            let value = match *b.get(i)? {
                b'"' => {
                    let (text, end) = string(b, i + 1)?;
                    i = end + 1;
                    Value::Text(text)
                }
                b'-' | b'0'..=b'9' => {
                    let (token, end) = jetjson::parse::number_at(b, i)?;
                    i = end;
                    Value::Number(token)
                }
                b't' if b.get(i..i + 4) == Some(b"true") => {
                    i += 4;
                    Value::True
                }
                b'f' if b.get(i..i + 5) == Some(b"false") => {
                    i += 5;
                    Value::False
                }
                b'n' if b.get(i..i + 4) == Some(b"null") => {
                    i += 4;
                    Value::Null
                }
                // A nested container, or bad input.
                _ => return None,
            };
            members.get_mut(n)?.write(Member { key, value });
            n += 1;
            i = skip_ws(b, i);
            match b.get(i) {
                Some(b',') => i = skip_ws(b, i + 1),
                Some(b'}') => {
                    i += 1;
                    break;
                }
                _ => return None,
            }
        }
    }
    // Nothing but whitespace after the object.
    if skip_ws(b, i) != b.len() {
        return None;
    }
    Some(n)
}

/// A new reference to the str for the key `k`, as the general builder
/// makes it (`Builder::ascii_key`, `Builder::key`), or null with a Python
/// exception set.
#[inline(always)]
fn key_object(cache: &mut Option<KeyCache>, k: Text<'_>) -> *mut ffi::PyObject {
    match (k, cache) {
        (Text::Ascii(k), Some(cache)) if k.len() <= keys::MAX_LEN => cache.get(k),
        (Text::Ascii(k), _) => strings::new_ascii(k),
        (Text::Utf8(k), _) => strings::new_str(k),
    }
}

/// A new reference to the value `v`, as the general builder makes it
/// (`Builder`'s `ascii_string`, `string`, `number`, `bool`, `null`), or
/// null with a Python exception set.
#[inline(always)]
fn value_object(cache: &mut Option<KeyCache>, v: &Value<'_>) -> *mut ffi::PyObject {
    match (*v, cache) {
        (Value::Text(Text::Ascii(s)), Some(cache)) if s.len() <= keys::MAX_VALUE_LEN => cache.get_value(s),
        (Value::Text(Text::Ascii(s)), _) => strings::new_ascii(s),
        (Value::Text(Text::Utf8(s)), _) => strings::new_str(s),
        (Value::Number(n), _) => numbers::new_number(&n),
        // SAFETY (the three below): new references to the singletons.
        (Value::True, _) => unsafe { ffi::Py_NewRef(ffi::Py_True()) },
        (Value::False, _) => unsafe { ffi::Py_NewRef(ffi::Py_False()) },
        (Value::Null, _) => unsafe { ffi::Py_NewRef(ffi::Py_None()) },
    }
}

/// `loads(b)` of a small flat object under `policy`: a new reference to
/// the dict, or `None` (declined: nothing made, no exception set) for any
/// other document, failures included.
///
/// The caller has applied the options (module docs) and holds `b`'s
/// owner for the call; GIL held.
#[inline(always)]
pub(crate) fn object(py: Python<'_>, b: &[u8], policy: DuplicateKeys) -> Option<*mut ffi::PyObject> {
    let mut members = [const { MaybeUninit::<Member<'_>>::uninit() }; MAX_MEMBERS];
    let n = walk(b, &mut members)?;
    let recorded = members.get(..n)?;
    // SAFETY (whole block): GIL held. `walk` wrote `members[..n]` (it
    // writes each slot before counting it), so each is read initialised.
    // Every reference made here is owned by this function until it is
    // released or given away (the returned dict). The dict is made first,
    // before the key cache is taken: making it may start a collection of
    // the cyclic GC, which may run Python code (finalizers, gc.callbacks),
    // and at that point nothing is held but `b`, which its owner (held by
    // the caller) keeps alive and unchanged (bytes and a str's UTF-8 form
    // are immutable). After it, nothing below runs Python code: creating
    // strs, ints and floats (untracked by the GC, so no collection),
    // inserting them into a dict under exact-str keys with their hashes
    // (str comparison, no `__eq__`; a dict of such values is not
    // tracked), releasing them and the dict on failure (no finalizers).
    unsafe {
        let dict = ffi::PyDict_New();
        if dict.is_null() {
            ffi::PyErr_Clear();
            return None;
        }
        let mut cache = KeyCache::acquire(py);
        let mut failed = false;
        for slot in recorded {
            let m = slot.assume_init_ref();
            let k = key_object(&mut cache, m.key);
            if k.is_null() {
                failed = true;
                break;
            }
            let v = value_object(&mut cache, &m.value);
            if v.is_null() {
                ffi::Py_DECREF(k);
                failed = true;
                break;
            }
            failed = match policy {
                DuplicateKeys::First => ffi::PyDict_SetDefault(dict, k, v).is_null(),
                _ => _PyDict_SetItem_KnownHash(dict, k, v, str_hash(k)) != 0,
            };
            ffi::Py_DECREF(k);
            ffi::Py_DECREF(v);
            if failed {
                break;
            }
        }
        drop(cache);
        if failed {
            // Out of memory, or an int CPython refuses: the general path
            // meets it again and reports it.
            ffi::Py_DECREF(dict);
            ffi::PyErr_Clear();
            return None;
        }
        // A repeated key under "error": the general path reports it, with
        // the parser's position. (One member cannot be repeated.)
        if policy == DuplicateKeys::Error && n > 1 && ffi::PyDict_Size(dict) as usize != n {
            ffi::Py_DECREF(dict);
            return None;
        }
        Some(dict)
    }
}
