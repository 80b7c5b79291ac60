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
/// one beyond U+FFFF); and how many characters it has.
#[inline]
fn layout(b: &[u8]) -> (usize, u32) {
    let mut chars = 0usize;
    let mut max_lead = 0u8;
    // Blocks of 64 with byte-sized accumulators, so the compiler can work on
    // whole vectors (a usize counter per byte would widen every lane).
    for block in b.chunks(64) {
        let mut starts = 0u8;
        let mut max = 0u8;
        for &c in block {
            // Continuation bytes are 0b10xx_xxxx; everything else starts a char.
            starts += u8::from((c as i8) >= -0x40);
            max = max.max(c);
        }
        chars += usize::from(starts);
        max_lead = max_lead.max(max);
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
    // `fill` writes one per UTF-8 sequence, and valid UTF-8 has one
    // sequence per non-continuation byte (what `layout` counts); every code
    // point fits the width because maxchar bounds all of them (`layout`). Because `s` has a byte >= 0x80 and
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
    let n = b.len();
    let p = b.as_ptr();
    let mut i = 0;
    let mut o = out;
    while i < n {
        // Eight ASCII bytes: eight code units (text between the non-ASCII
        // characters: spaces, punctuation, URLs).
        if i + 8 <= n {
            // SAFETY: `i + 8 <= n`: the eight bytes are in `b`.
            let w = u64::from_le_bytes(p.add(i).cast::<[u8; 8]>().read());
            if w & 0x8080_8080_8080_8080 == 0 {
                for k in 0..8 {
                    // SAFETY: one code unit per ASCII byte, within the room.
                    o.add(k).write(narrow(u32::from(*p.add(i + k))));
                }
                o = o.add(8);
                i += 8;
                continue;
            }
        }
        // SAFETY (all reads below): `s` is valid UTF-8, so a lead byte at
        // `i < n` is followed by all the continuation bytes its value
        // announces, all before `n`.
        let c = *p.add(i);
        let (cp, len) = if c < 0x80 {
            (u32::from(c), 1)
        } else if c < 0xE0 {
            ((u32::from(c & 0x1F) << 6) | u32::from(*p.add(i + 1) & 0x3F), 2)
        } else if c < 0xF0 {
            ((u32::from(c & 0x0F) << 12) | (u32::from(*p.add(i + 1) & 0x3F) << 6) | u32::from(*p.add(i + 2) & 0x3F), 3)
        } else {
            (
                (u32::from(c & 0x07) << 18)
                    | (u32::from(*p.add(i + 1) & 0x3F) << 12)
                    | (u32::from(*p.add(i + 2) & 0x3F) << 6)
                    | u32::from(*p.add(i + 3) & 0x3F),
                4,
            )
        };
        // SAFETY: one code unit per code point, within the caller's room.
        o.write(narrow(cp));
        o = o.add(1);
        i += len;
    }
}
