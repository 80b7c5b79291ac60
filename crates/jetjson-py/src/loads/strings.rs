//! Python `str` objects from validated UTF-8, created at their final kind
//! and width in one step.
//!
//! CPython stores a string in the narrowest of four layouts (ASCII, UCS1,
//! UCS2, UCS4) that holds its largest code point, and expects every string
//! to be in that canonical layout. The parser has already validated the
//! UTF-8, so the largest code point's layout can be read off the lead
//! bytes (no decoding) and the characters counted as the bytes that are not
//! continuation bytes; then the code points are written straight into the
//! new object's buffer.

use pyo3::ffi;

/// A new reference to the `str` holding `s`, or null with a Python
/// exception set (out of memory).
#[inline]
pub(crate) fn new_str(s: &str) -> *mut ffi::PyObject {
    if s.is_ascii() {
        new_ascii(s.as_bytes())
    } else {
        new_non_ascii(s)
    }
}

/// A new reference to the compact ASCII `str` holding `b`, or null with a
/// Python exception set. `b` must be ASCII.
#[inline]
pub(crate) fn new_ascii(b: &[u8]) -> *mut ffi::PyObject {
    debug_assert!(b.is_ascii());
    // SAFETY: PyUnicode_New with maxchar 127 returns a compact ASCII string
    // (or null with an exception set) whose data buffer, right after the
    // PyASCIIObject header, has room for `len` bytes plus the terminating
    // NUL that PyUnicode_New already wrote. We copy exactly `len` bytes.
    unsafe {
        let obj = ffi::PyUnicode_New(b.len() as ffi::Py_ssize_t, 127);
        if !obj.is_null() {
            let data = (obj as *mut ffi::PyASCIIObject).add(1) as *mut u8;
            std::ptr::copy_nonoverlapping(b.as_ptr(), data, b.len());
        }
        obj
    }
}

/// Which layout a non-ASCII string needs: the largest lead byte decides it
/// (valid UTF-8 has no overlong forms, so lead 0xC2..=0xC3 means U+0080..=
/// U+00FF, 0xC4..=0xEF means some code point in U+0100..=U+FFFF, 0xF0.. means
/// one beyond U+FFFF).
#[inline]
fn layout(b: &[u8]) -> (usize, u32) {
    let mut chars = 0usize;
    let mut max_lead = 0u8;
    for &c in b {
        // Continuation bytes are 0b10xx_xxxx; everything else starts a char.
        chars += usize::from((c as i8) >= -0x40);
        max_lead = max_lead.max(c);
    }
    let maxchar = match max_lead {
        0..=0xC3 => 0xFF,
        0xC4..=0xEF => 0xFFFF,
        _ => 0x10_FFFF,
    };
    (chars, maxchar)
}

/// Slow-ish path: strings with at least one byte >= 0x80.
#[inline(never)]
fn new_non_ascii(s: &str) -> *mut ffi::PyObject {
    let b = s.as_bytes();
    let (chars, maxchar) = layout(b);
    // SAFETY: PyUnicode_New(chars, maxchar) returns a compact, non-ASCII
    // string (maxchar >= 0xFF) of `chars` code points of width 1, 2 or 4
    // bytes chosen by maxchar, whose data follows the PyCompactUnicodeObject
    // header. Each branch writes exactly `chars` code units of that width:
    // `s.chars()` yields exactly `chars` items (the count of non-continuation
    // bytes of valid UTF-8), and every one fits the width because maxchar
    // bounds all of them (see `layout`). Because `s` has a byte >= 0x80 and
    // is valid UTF-8, it has a code point >= 0x80 (and >= 0x100 for UCS2,
    // >= 0x10000 for UCS4), so the layout is the canonical one.
    unsafe {
        let obj = ffi::PyUnicode_New(chars as ffi::Py_ssize_t, maxchar);
        if obj.is_null() {
            return obj;
        }
        let data = (obj as *mut ffi::PyCompactUnicodeObject).add(1) as *mut u8;
        match maxchar {
            0xFF => fill(s, data, |c| c as u8),
            0xFFFF => fill(s, data as *mut u16, |c| c as u16),
            _ => fill(s, data as *mut u32, |c| c),
        }
        obj
    }
}

/// Writes the code points of `s` to `out`, ASCII runs eight bytes at a time.
///
/// # Safety
/// `out` has room for one `T` per code point of `s`, and `narrow` is
/// lossless for every code point of `s`.
#[inline(always)]
unsafe fn fill<T: Copy>(s: &str, out: *mut T, narrow: impl Fn(u32) -> T) {
    let b = s.as_bytes();
    let mut i = 0;
    let mut o = out;
    while i < b.len() {
        let c = b[i];
        if c < 0x80 {
            // SAFETY: one code unit per ASCII byte, within the caller's room.
            o.write(narrow(u32::from(c)));
            o = o.add(1);
            i += 1;
            continue;
        }
        // A multi-byte sequence: validated UTF-8, so its length follows
        // from the lead byte and the continuation bytes are present.
        let (cp, len) = if c < 0xE0 {
            ((u32::from(c & 0x1F) << 6) | u32::from(b[i + 1] & 0x3F), 2)
        } else if c < 0xF0 {
            ((u32::from(c & 0x0F) << 12) | (u32::from(b[i + 1] & 0x3F) << 6) | u32::from(b[i + 2] & 0x3F), 3)
        } else {
            (
                (u32::from(c & 0x07) << 18)
                    | (u32::from(b[i + 1] & 0x3F) << 12)
                    | (u32::from(b[i + 2] & 0x3F) << 6)
                    | u32::from(b[i + 3] & 0x3F),
                4,
            )
        };
        o.write(narrow(cp));
        o = o.add(1);
        i += len;
    }
}
