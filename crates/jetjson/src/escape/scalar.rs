//! The escape tables, the per-character escape writers the vector kernels
//! call once their mask has found a byte, and the byte-at-a-time reference
//! kernel built from the same tables.
//!
//! The reference kernel is plain safe code on purpose: it is the oracle the
//! differential tests hold every vector kernel to.

use super::kernel_table;
use super::{EscapeSet, Kernel};

/// `CLASS` bits: why a byte may need escaping. A profile's `class_mask`
/// selects the bits it cares about, so one table serves every set.
const BASE: u8 = 1;
const HTML: u8 = 2;
/// `0xE2` starts U+2028/U+2029, but also every other U+2000..U+2FFF: a hit
/// still needs `is_line_separator` to confirm.
const LINE_SEP_LEAD: u8 = 4;
const NON_ASCII: u8 = 8;
/// DEL (0x7F): ASCII, but escaped with the non-ASCII bytes under
/// `ascii_only` (as Python's `ensure_ascii` does).
const DEL: u8 = 16;

static CLASS: [u8; 256] = build_class();

const fn build_class() -> [u8; 256] {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = match b as u8 {
            0x00..=0x1F | b'"' | b'\\' => BASE,
            b'<' | b'>' | b'&' => HTML,
            0x7F => DEL,
            0xE2 => NON_ASCII | LINE_SEP_LEAD,
            0x80..=0xFF => NON_ASCII,
            _ => 0,
        };
        b += 1;
    }
    table
}

/// The `CLASS` bits that mean "escape" for a set. With `ascii_only` every
/// non-ASCII byte escapes, which subsumes the line separators.
#[inline(always)]
const fn class_mask(html: bool, line_separators: bool, ascii_only: bool) -> u8 {
    let mut mask = BASE;
    if html {
        mask |= HTML;
    }
    if ascii_only {
        mask |= NON_ASCII | DEL;
    } else if line_separators {
        mask |= LINE_SEP_LEAD;
    }
    mask
}

/// Escape sequences for ASCII bytes: up to 6 bytes, with the length in the
/// last byte so a kernel can store all 8 bytes at once and advance by
/// `entry[7]`. Only entries whose byte is in `CLASS` `BASE | HTML | DEL` are used.
/// Stored as little-endian `u64`s so that a kernel moves an entry with one
/// load and one store.
static ESCAPE: [u64; 128] = {
    let bytes = build_escape();
    let mut table = [0u64; 128];
    let mut b = 0;
    while b < 128 {
        table[b] = u64::from_le_bytes(bytes[b]);
        b += 1;
    }
    table
};

const fn build_escape() -> [[u8; 8]; 128] {
    let mut table = [[0u8; 8]; 128];
    let mut b = 0;
    while b < 0x20 {
        let pair = HEX_PAIRS[b];
        table[b] = [b'\\', b'u', b'0', b'0', pair[0], pair[1], 0, 6];
        b += 1;
    }
    table[0x08] = short(b'b');
    table[0x09] = short(b't');
    table[0x0A] = short(b'n');
    table[0x0C] = short(b'f');
    table[0x0D] = short(b'r');
    table[b'"' as usize] = short(b'"');
    table[b'\\' as usize] = short(b'\\');
    table[b'<' as usize] = *b"\\u003c\0\x06";
    table[b'>' as usize] = *b"\\u003e\0\x06";
    table[b'&' as usize] = *b"\\u0026\0\x06";
    table[0x7F] = *b"\\u007f\0\x06";
    table
}

const fn short(c: u8) -> [u8; 8] {
    [b'\\', c, 0, 0, 0, 0, 0, 2]
}

/// Lowercase hex digits of every byte value, for `\uXXXX`.
static HEX_PAIRS: [[u8; 2]; 256] = build_hex_pairs();

const fn build_hex_pairs() -> [[u8; 2]; 256] {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut table = [[0u8; 2]; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = [DIGITS[b >> 4], DIGITS[b & 15]];
        b += 1;
    }
    table
}

/// `\uXXXX` for one UTF-16 code unit, padded to 8 bytes for a single store.
#[inline(always)]
fn unit_escape(unit: u16) -> [u8; 8] {
    let hi = HEX_PAIRS[(unit >> 8) as usize];
    let lo = HEX_PAIRS[(unit & 0xFF) as usize];
    [b'\\', b'u', hi[0], hi[1], lo[0], lo[1], 0, 0]
}

/// The UTF-16 code units of a scalar value: `(first, Some(second))` for a
/// surrogate pair.
#[inline(always)]
fn utf16_units(cp: u32) -> (u16, Option<u16>) {
    if cp < 0x1_0000 {
        (cp as u16, None)
    } else {
        let v = cp - 0x1_0000;
        ((0xD800 | (v >> 10)) as u16, Some((0xDC00 | (v & 0x3FF)) as u16))
    }
}

/// Whether `bytes` starts with U+2028 or U+2029 (`E2 80 A8` / `E2 80 A9`).
#[inline(always)]
fn is_line_separator(bytes: &[u8]) -> bool {
    // A8 | 1 == A9, so one compare covers both.
    matches!(bytes, [0xE2, 0x80, third, ..] if *third | 1 == 0xA9)
}

/// Whether the character starting at `src[i]` must be escaped.
///
/// # Safety
/// `i < len` and `src..src + len` is a readable, valid UTF-8 string.
#[inline(always)]
pub(super) unsafe fn needs_at<const H: bool, const L: bool, const A: bool>(src: *const u8, len: usize, i: usize) -> bool {
    // SAFETY: `i < len` per the contract.
    let class = CLASS[unsafe { *src.add(i) } as usize] & class_mask(H, L, A);
    if class & LINE_SEP_LEAD != 0 {
        // SAFETY: `i < len`, so `src + i .. src + len` is in bounds.
        let rest = unsafe { core::slice::from_raw_parts(src.add(i), len - i) };
        return is_line_separator(rest);
    }
    class != 0
}

/// Writes the escape of the character at `src[i]` to `out` and returns the
/// input and output positions after it.
///
/// # Safety
/// * `needs_at::<H, L, A>(src, len, i)` holds (so the character is ASCII,
///   a complete non-ASCII character under `A`, or U+2028/U+2029 under `L`);
///   `src..src + len` is valid UTF-8, so a multi-byte character is complete.
/// * `out..out + 16` is writable: it writes at most 12 bytes, padded stores
///   reach 14.
#[inline(always)]
pub(super) unsafe fn write_escape<const A: bool>(src: *const u8, i: usize, out: *mut u8) -> (usize, *mut u8) {
    // SAFETY (whole body): reads stay inside the character at `i`, which is
    // complete per the contract; writes stay within `out..out + 14`.
    unsafe {
        let b = *src.add(i);
        if b < 0x80 {
            let entry = ESCAPE[b as usize];
            out.cast::<[u8; 8]>().write_unaligned(entry.to_le_bytes());
            return (i + 1, out.add((entry >> 56) as usize));
        }
        if A {
            let (cp, width) = decode(src.add(i), b);
            let (first, second) = utf16_units(cp);
            out.cast::<[u8; 8]>().write_unaligned(unit_escape(first));
            return match second {
                None => (i + width, out.add(6)),
                Some(second) => {
                    out.add(6).cast::<[u8; 8]>().write_unaligned(unit_escape(second));
                    (i + width, out.add(12))
                }
            };
        }
        // Without ascii_only the only non-ASCII escapes are U+2028/U+2029,
        // which differ in the last bit of their third byte.
        let mut escape = *b"\\u2028\0\0";
        escape[5] += *src.add(i + 2) & 1;
        out.cast::<[u8; 8]>().write_unaligned(escape);
        (i + 3, out.add(6))
    }
}

/// Decodes the multi-byte character at `p`, whose lead byte is `lead`.
///
/// # Safety
/// `p` starts a complete, valid UTF-8 sequence of 2 to 4 bytes.
#[inline(always)]
unsafe fn decode(p: *const u8, lead: u8) -> (u32, usize) {
    // SAFETY: the sequence is complete, so every continuation read is in it.
    let cont = |k: usize| unsafe { (*p.add(k) & 0x3F) as u32 };
    let lead = lead as u32;
    if lead < 0xE0 {
        (((lead & 0x1F) << 6) | cont(1), 2)
    } else if lead < 0xF0 {
        (((lead & 0x0F) << 12) | (cont(1) << 6) | cont(2), 3)
    } else {
        (((lead & 0x07) << 18) | (cont(1) << 12) | (cont(2) << 6) | cont(3), 4)
    }
}

pub(super) static KERNELS: [Kernel; 8] = kernel_table!("scalar", escape, needs_escape);

/// The reference kernel: one byte (or, for a non-ASCII escape, one
/// character) per iteration, straight from the tables.
///
/// # Safety
/// `out` is valid for `escape_room(s.len())` bytes of writes.
unsafe fn escape<const H: bool, const L: bool, const A: bool>(out: *mut u8, s: &str) -> usize {
    let bytes = s.as_bytes();
    let mut n = 0;
    // Every input byte becomes at most six output bytes (a 4-byte character
    // becomes two 6-byte escapes: three per byte), within the room.
    let mut put = |piece: &[u8]| {
        // SAFETY: `n + piece.len()` stays within the room (above).
        unsafe { std::ptr::copy_nonoverlapping(piece.as_ptr(), out.add(n), piece.len()) };
        n += piece.len();
    };
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let class = CLASS[b as usize] & class_mask(H, L, A);
        if class == 0 || (class & LINE_SEP_LEAD != 0 && !is_line_separator(&bytes[i..])) {
            put(&[b]);
            i += 1;
        } else if b < 0x80 {
            let entry = ESCAPE[b as usize].to_le_bytes();
            put(&entry[..entry[7] as usize]);
            i += 1;
        } else if class & NON_ASCII != 0 {
            // Under ascii_only every non-ASCII byte takes this branch, so `i`
            // only ever lands on character boundaries.
            let c = s[i..].chars().next().expect("i < len");
            let (first, second) = utf16_units(c as u32);
            put(&unit_escape(first)[..6]);
            if let Some(second) = second {
                put(&unit_escape(second)[..6]);
            }
            i += c.len_utf8();
        } else {
            put(if bytes[i + 2] == 0xA8 { b"\\u2028" } else { b"\\u2029" });
            i += 3;
        }
    }
    n
}

fn needs_escape<const H: bool, const L: bool, const A: bool>(s: &str) -> bool {
    let bytes = s.as_bytes();
    (0..bytes.len()).any(|i| {
        let class = CLASS[bytes[i] as usize] & class_mask(H, L, A);
        class != 0 && (class & LINE_SEP_LEAD == 0 || is_line_separator(&bytes[i..]))
    })
}
