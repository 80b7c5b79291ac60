//! The text of `str` objects, read without running Python code.
//!
//! The walker reads strs as it meets them, often borrowed from a container
//! that Python code could change. Python code runs whenever CPython makes an
//! object the cyclic garbage collector tracks (a collection can start there,
//! and run finalizers, weakref callbacks and `gc.callbacks`), and asking
//! CPython for the UTF-8 form of a str with lone surrogates makes one: a
//! `UnicodeEncodeError`. So text is read here without CPython ever raising:
//! compact ASCII in place, otherwise CPython's cached UTF-8 form, which is
//! made (a plain allocation, untracked) only after the code points were
//! checked for lone surrogates; strs that hold some are encoded here, in
//! Rust, as their `surrogatepass` bytes.

use pyo3::ffi::{self, PyObject};

/// The UTF-8 text of a str, read in place; `None` when it holds lone
/// surrogates (no Python error is set, no Python code runs).
///
/// # Safety
/// `obj` must be a live `str` (or subclass); the returned slice is valid
/// only while it lives (str objects are immutable).
#[inline(always)]
pub unsafe fn utf8_of<'s>(obj: *mut PyObject) -> Option<&'s str> {
    // SAFETY: as the caller guarantees.
    unsafe { utf8_at_hand(obj).or_else(|| utf8_slow(obj)) }
}

/// The UTF-8 text of a str when CPython has it at hand: a compact ASCII
/// str's text, or the UTF-8 form a compact str caches; `None` otherwise
/// (nothing is made, no Python error is set, no Python code runs).
///
/// # Safety
/// As `utf8_of`.
#[inline(always)]
pub(crate) unsafe fn utf8_at_hand<'s>(obj: *mut PyObject) -> Option<&'s str> {
    // SAFETY (whole body): `obj` is a live str. A compact ASCII str stores
    // `length` ASCII bytes right after its PyASCIIObject header; other
    // compact strs may carry their UTF-8 form (`utf8`, `utf8_length`).
    unsafe {
        if ffi::PyUnicode_IS_COMPACT_ASCII(obj) != 0 {
            let header = obj as *mut ffi::PyASCIIObject;
            let len = (*header).length as usize;
            let data = header.add(1) as *const u8;
            return Some(std::str::from_utf8_unchecked(std::slice::from_raw_parts(data, len)));
        }
        if ffi::PyUnicode_IS_COMPACT(obj) != 0 {
            let compact = obj as *mut ffi::PyCompactUnicodeObject;
            let p = (*compact).utf8;
            if !p.is_null() {
                return Some(std::str::from_utf8_unchecked(std::slice::from_raw_parts(p as *const u8, (*compact).utf8_length as usize)));
            }
        }
        None
    }
}

/// `utf8_of` for a str without a cached UTF-8 form.
///
/// # Safety
/// As `utf8_of`.
#[cold]
#[inline(never)]
unsafe fn utf8_slow<'s>(obj: *mut PyObject) -> Option<&'s str> {
    // SAFETY: `obj` is a live str; once ready (a legacy str is made ready,
    // which allocates nothing tracked), its code points are read by kind;
    // PyUnicode_AsUTF8AndSize on a str without surrogates fails only when
    // memory runs out.
    unsafe {
        if ffi::PyUnicode_READY(obj) != 0 {
            out_of_memory(0);
        }
        if first_surrogate(obj).is_some() {
            return None;
        }
        let mut size: ffi::Py_ssize_t = 0;
        let p = ffi::PyUnicode_AsUTF8AndSize(obj, &mut size);
        if p.is_null() {
            // At most four bytes a code point: the size asked for, for the message.
            out_of_memory((ffi::PyUnicode_GET_LENGTH(obj) as usize).saturating_mul(4));
        }
        Some(std::str::from_utf8_unchecked(std::slice::from_raw_parts(p as *const u8, size as usize)))
    }
}

/// `utf8_of`, with a failure to make the UTF-8 form (out of memory) caught:
/// `Err` with the size asked for, no Python error set. For callers outside
/// a walk (whose catch, `output::catching_growth` in `kept::write` and
/// `output::catching_out_of_memory`, raises it as MemoryError): a quick
/// path declines, an argument check raises MemoryError.
///
/// # Safety
/// As `utf8_of`; GIL held.
#[inline(always)]
pub unsafe fn utf8_caught<'s>(obj: *mut PyObject) -> Result<Option<&'s str>, usize> {
    // SAFETY: as the caller guarantees.
    match unsafe { utf8_at_hand(obj) } {
        Some(s) => Ok(Some(s)),
        // SAFETY: as the caller guarantees.
        None => super::output::catching_growth(|| unsafe { utf8_slow(obj) }),
    }
}

/// CPython could not allocate the UTF-8 form of a str (or Rust the
/// `surrogatepass` bytes): unwinds with `output::OutOfMemory`, as an output
/// memory that cannot grow does, to the catch around the walk, which raises
/// MemoryError (a Rust allocation failure, or `handle_alloc_error`, would
/// abort the process; before, this did). The MemoryError CPython set is
/// cleared first: the catch makes its own, and a quick path that catches it
/// must decline with no exception set.
#[cold]
#[inline(never)]
fn out_of_memory(bytes: usize) -> ! {
    // SAFETY: every caller holds the GIL (they read str objects).
    unsafe { ffi::PyErr_Clear() };
    super::output::unwind_out_of_memory(bytes)
}

/// The index of the first code point in U+D800..U+DFFF of a ready str.
///
/// # Safety
/// `obj` is a live, ready str.
pub unsafe fn first_surrogate(obj: *mut PyObject) -> Option<usize> {
    // SAFETY: a ready str stores `length` code points of its kind's width.
    unsafe {
        let len = ffi::PyUnicode_GET_LENGTH(obj) as usize;
        match ffi::PyUnicode_KIND(obj) {
            ffi::PyUnicode_2BYTE_KIND => {
                std::slice::from_raw_parts(ffi::PyUnicode_2BYTE_DATA(obj), len).iter().position(|&c| (c & 0xF800) == 0xD800)
            }
            ffi::PyUnicode_4BYTE_KIND => {
                std::slice::from_raw_parts(ffi::PyUnicode_4BYTE_DATA(obj), len).iter().position(|&c| (c & 0xFFFF_F800) == 0xD800)
            }
            _ => None,
        }
    }
}

/// The `surrogatepass` UTF-8 bytes of a str (lone surrogates encoded as
/// three bytes each, as UTF-8 would encode their values), made in Rust.
///
/// # Safety
/// `obj` is a live str; GIL held.
pub unsafe fn surrogatepass(obj: *mut PyObject) -> Vec<u8> {
    // SAFETY: `obj` is live; made ready first; its code points are read by kind.
    unsafe {
        if ffi::PyUnicode_READY(obj) != 0 {
            out_of_memory(0);
        }
        let len = ffi::PyUnicode_GET_LENGTH(obj) as usize;
        // All the room it takes, at once (a code point of the 4-byte kind
        // may take four bytes, others at most three), reserved with
        // `try_reserve` so that a long str out of memory unwinds as above
        // instead of aborting (`put` then never grows `out`).
        let mut out = Vec::new();
        let per = if ffi::PyUnicode_KIND(obj) == ffi::PyUnicode_4BYTE_KIND { 4 } else { 3 };
        super::output::room_or_unwind(&mut out, len.saturating_mul(per));
        let mut put = |c: u32| {
            let mut buf = [0u8; 4];
            let n = match c {
                0..=0x7F => {
                    buf[0] = c as u8;
                    1
                }
                0x80..=0x7FF => {
                    buf[0] = 0xC0 | (c >> 6) as u8;
                    buf[1] = 0x80 | (c & 0x3F) as u8;
                    2
                }
                0x800..=0xFFFF => {
                    buf[0] = 0xE0 | (c >> 12) as u8;
                    buf[1] = 0x80 | ((c >> 6) & 0x3F) as u8;
                    buf[2] = 0x80 | (c & 0x3F) as u8;
                    3
                }
                _ => {
                    buf[0] = 0xF0 | (c >> 18) as u8;
                    buf[1] = 0x80 | ((c >> 12) & 0x3F) as u8;
                    buf[2] = 0x80 | ((c >> 6) & 0x3F) as u8;
                    buf[3] = 0x80 | (c & 0x3F) as u8;
                    4
                }
            };
            out.extend_from_slice(&buf[..n]);
        };
        match ffi::PyUnicode_KIND(obj) {
            ffi::PyUnicode_2BYTE_KIND => {
                std::slice::from_raw_parts(ffi::PyUnicode_2BYTE_DATA(obj), len).iter().for_each(|&c| put(u32::from(c)))
            }
            ffi::PyUnicode_4BYTE_KIND => std::slice::from_raw_parts(ffi::PyUnicode_4BYTE_DATA(obj), len).iter().for_each(|&c| put(c)),
            _ => std::slice::from_raw_parts(ffi::PyUnicode_1BYTE_DATA(obj), len).iter().for_each(|&c| put(u32::from(c))),
        }
        out
    }
}

/// The text Go writes for `bytes` as a name or string: valid UTF-8 as it
/// is, each byte of an invalid sequence as U+FFFD (Go's rule, which the go
/// profile follows). Used to compare names as they are written.
pub fn go_repaired(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    let mut rest = bytes;
    let mut out = String::new();
    loop {
        match std::str::from_utf8(rest) {
            Ok(s) if out.is_empty() && rest.len() == bytes.len() => return std::borrow::Cow::Borrowed(s),
            Ok(s) => {
                out.push_str(s);
                return std::borrow::Cow::Owned(out);
            }
            Err(e) => {
                let (good, bad) = rest.split_at(e.valid_up_to());
                // SAFETY: `from_utf8` checked these bytes.
                out.push_str(unsafe { std::str::from_utf8_unchecked(good) });
                let n = e.error_len().unwrap_or(bad.len());
                out.extend(std::iter::repeat_n('\u{FFFD}', n));
                rest = &bad[n..];
            }
        }
    }
}
