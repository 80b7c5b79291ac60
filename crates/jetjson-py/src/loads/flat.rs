//! The quick path's builder of a small flat object (`loads(b'{"a":1}')`,
//! a request body of a few scalar members), for `loads::quick` (fast.rs).
//!
//! A document of at most `FLAT_UP_TO` bytes that is one object whose
//! members are all strings, numbers or literals (no nested array or
//! object) is read by a walk of its bytes that inserts each member into
//! the dict as it goes. None of the general path's machinery runs: no
//! parser driver (its set-up, the masks of the first block), no builder
//! stacks, no pause of the cyclic GC (a dict of such values is not
//! tracked by it). A look over the bytes first (`plain`) sends every
//! document with a `{`, `[` or `\` after its first byte to the general
//! path before anything is made, so nested documents lose only that look.
//!
//! The walk accepts only what the parser accepts, and builds what the
//! general builder builds from it (builder.rs: the same key cache for
//! ASCII keys and short ASCII values, the same str, int and float
//! constructors, the same dict insertion under each duplicate-key policy,
//! in document order): anything else (bad syntax of any kind, a repeated
//! key under "error", a Python error while creating an object) makes it
//! decline with nothing left behind (the dict released, no exception
//! set), and the caller reads the document with the general path, which
//! gives the result or the error (with its position) as it always did.
//!
//! Options: the walk declines unless there is no size limit below the
//! input's size, the depth limit is at least 1 and numbers are not kept
//! lossless; the document starts with `{` (so no byte order mark).

use jetjson::parse::NumberToken;
use jetjson::{DuplicateKeys, ReadOptions};
use pyo3::ffi;
use pyo3::Python;

use super::builder::{_PyDict_SetItem_KnownHash, str_hash};
use super::keys::{self, KeyCache};
use super::{numbers, strings};

/// The longest input the flat walk takes: beyond it, the parser's driver
/// (block masks, 64 bytes at a time) reads members faster than the walk
/// saves in set-up.
pub(crate) const FLAT_UP_TO: usize = 128;

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

/// Whether `b` after its first byte has no `{`, `[` or `\\`: then a
/// document that starts with `{` is, if valid, one object with no nested
/// container and no escape. Conservative (a bracket inside a string
/// counts): a document it refuses is read by the general path, having
/// cost only this look, about one instruction per 2 bytes up to the first
/// such byte.
#[inline(always)]
fn plain(b: &[u8]) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{__m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8};
        let n = b.len();
        if n > 16 {
            // SAFETY: SSE2 is part of x86_64's baseline. Every load reads
            // the 16 bytes at `i`, with `1 <= i` and `i + 16 <= n` (the last
            // one overlapping the one before), inside `b`.
            unsafe {
                let hit = |i: usize| {
                    let v = _mm_loadu_si128(b.as_ptr().add(i).cast::<__m128i>());
                    let m = _mm_or_si128(
                        _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(b'{' as i8)), _mm_cmpeq_epi8(v, _mm_set1_epi8(b'[' as i8))),
                        _mm_cmpeq_epi8(v, _mm_set1_epi8(b'\\' as i8)),
                    );
                    _mm_movemask_epi8(m) != 0
                };
                let mut i = 1;
                while i + 16 <= n {
                    if hit(i) {
                        return false;
                    }
                    i += 16;
                }
                return i == n || !hit(n - 16);
            }
        }
    }
    // Short inputs (and other targets): two overlapping words, or bytes.
    let rest = b.get(1..).unwrap_or(&[]);
    match (rest.first_chunk::<8>(), rest.last_chunk::<8>()) {
        (Some(first), Some(last)) if rest.len() <= 16 => {
            !word_has_bracket_or_escape(u64::from_le_bytes(*first)) && !word_has_bracket_or_escape(u64::from_le_bytes(*last))
        }
        _ => !rest.iter().any(|&c| matches!(c, b'{' | b'[' | b'\\')),
    }
}

/// Whether the word `w` has a byte `{`, `[` or `\\` (exact: a borrow only
/// flags bytes above a true one).
#[inline(always)]
fn word_has_bracket_or_escape(w: u64) -> bool {
    // `[` (0x5B) and `{` (0x7B) are the only bytes that are `{` once bit 5 is set.
    let brace = (w | (ONES * 0x20)) ^ (ONES * u64::from(b'{'));
    let backslash = w ^ (ONES * u64::from(b'\\'));
    ((brace.wrapping_sub(ONES) & !brace) | (backslash.wrapping_sub(ONES) & !backslash)) & HIGHS != 0
}

/// How `fill` ended.
enum Filled {
    /// The document was one flat object of this many members, all in the dict.
    Done(usize),
    /// Anything else (nothing to report: the general path reads it again);
    /// `true` when a Python exception is set (creating an object failed).
    Declined(bool),
}

/// Walks the document `b` (its first byte `{`), inserting each member
/// into `dict` as it is read, while it is one object whose values are no
/// containers.
///
/// # Safety
/// GIL held; `dict` is a live, new dict owned by the caller and seen by
/// no one else.
#[inline(always)]
unsafe fn fill(b: &[u8], dict: *mut ffi::PyObject, cache: &mut Option<KeyCache>, policy: DuplicateKeys) -> Filled {
    if b.first() != Some(&b'{') {
        return Filled::Declined(false);
    }
    let mut n = 0;
    let mut i = skip_ws(b, 1);
    if b.get(i) == Some(&b'}') {
        i += 1;
    } else {
        loop {
            if b.get(i) != Some(&b'"') {
                return Filled::Declined(false);
            }
            let Some((key, end)) = string(b, i + 1) else { return Filled::Declined(false) };
            i = end + 1;
            // `":"` then the value at once (compact input), else whitespace
            // around the colon.
            if b.get(i) == Some(&b':') {
                i += 1;
            } else {
                i = skip_ws(b, i);
                if b.get(i) != Some(&b':') {
                    return Filled::Declined(false);
                }
                i += 1;
            }
            i = skip_ws(b, i);
            let value = match b.get(i) {
                Some(b'"') => match string(b, i + 1) {
                    Some((text, end)) => {
                        i = end + 1;
                        Value::Text(text)
                    }
                    None => return Filled::Declined(false),
                },
                Some(b'-' | b'0'..=b'9') => match jetjson::parse::number_at(b, i) {
                    Some((token, end)) => {
                        i = end;
                        Value::Number(token)
                    }
                    None => return Filled::Declined(false),
                },
                Some(b't') if b.get(i..i + 4) == Some(b"true") => {
                    i += 4;
                    Value::True
                }
                Some(b'f') if b.get(i..i + 5) == Some(b"false") => {
                    i += 5;
                    Value::False
                }
                Some(b'n') if b.get(i..i + 4) == Some(b"null") => {
                    i += 4;
                    Value::Null
                }
                // A nested container, or bad input.
                _ => return Filled::Declined(false),
            };
            // The key's object, then the value's, as the general builder
            // makes them (the key cache's tables see the same lookups in
            // the same order).
            let k = key_object(cache, key);
            if k.is_null() {
                return Filled::Declined(true);
            }
            let v = value_object(cache, &value);
            // SAFETY: `k` and `v` are owned references made here; the dict
            // takes its own references and these are released once.
            unsafe {
                if v.is_null() {
                    ffi::Py_DECREF(k);
                    return Filled::Declined(true);
                }
                let failed = match policy {
                    DuplicateKeys::First => ffi::PyDict_SetDefault(dict, k, v).is_null(),
                    _ => _PyDict_SetItem_KnownHash(dict, k, v, str_hash(k)) != 0,
                };
                ffi::Py_DECREF(k);
                ffi::Py_DECREF(v);
                if failed {
                    return Filled::Declined(true);
                }
            }
            n += 1;
            i = skip_ws(b, i);
            match b.get(i) {
                Some(b',') => i = skip_ws(b, i + 1),
                Some(b'}') => {
                    i += 1;
                    break;
                }
                _ => return Filled::Declined(false),
            }
        }
    }
    // Nothing but whitespace after the object.
    if skip_ws(b, i) != b.len() {
        return Filled::Declined(false);
    }
    Filled::Done(n)
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
/// Out of line, the look (`plain`) included: inlined into the quick call
/// (`loads::quick`), wholly or only the look, it made `loads(b'1')`, which
/// never comes here, slower (17 -> 19-20 ns, paired, with the same
/// instructions); out of line it stays level, and a nested document pays
/// the call and the look (about 60 instructions).
#[inline(never)]
pub(crate) fn object(py: Python<'_>, b: &[u8], options: &ReadOptions, parse: &ReadOptions) -> Option<*mut ffi::PyObject> {
    // The options the walk honours: no size limit below the input's size
    // (the general path raises its error), a depth limit that admits the
    // object, numbers not kept lossless (`decimal=True` never comes here).
    if options.depth_limit() == 0 || parse.keeps_numbers_lossless() || options.size_limit().is_some_and(|limit| b.len() > limit) {
        return None;
    }
    let policy = options.duplicate_key_policy();
    if !plain(b) {
        return None;
    }
    // SAFETY (whole block): GIL held. The dict is made first, before the
    // key cache is taken: making it may start a collection of the cyclic
    // GC, which may run Python code (finalizers, gc.callbacks), and at
    // that point nothing is held but `b`, which its owner (held by the
    // caller) keeps alive and unchanged (bytes and a str's UTF-8 form are
    // immutable). After it, nothing runs Python code: creating strs, ints
    // and floats (untracked by the GC, so no collection), inserting them
    // into the dict under exact-str keys with their hashes (str
    // comparison, no `__eq__`; a dict of such values stays untracked),
    // releasing them and the dict on failure (no finalizers). The dict is
    // owned here until it is returned or released.
    unsafe {
        let dict = ffi::PyDict_New();
        if dict.is_null() {
            ffi::PyErr_Clear();
            return None;
        }
        let mut cache = KeyCache::acquire(py);
        let filled = fill(b, dict, &mut cache, policy);
        drop(cache);
        match filled {
            // A repeated key under "error" (the dict came out smaller than
            // the member count): the general path reports it, with the
            // parser's position. (One member cannot be repeated.)
            Filled::Done(n) if policy == DuplicateKeys::Error && n > 1 && ffi::PyDict_Size(dict) as usize != n => {
                ffi::Py_DECREF(dict);
                None
            }
            Filled::Done(_) => Some(dict),
            Filled::Declined(pending) => {
                ffi::Py_DECREF(dict);
                if pending {
                    // Out of memory, or an int CPython refuses: the general
                    // path meets it again and reports it.
                    ffi::PyErr_Clear();
                }
                None
            }
        }
    }
}
