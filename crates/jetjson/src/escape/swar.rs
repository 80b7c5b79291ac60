//! SWAR ("SIMD within a register"): eight lanes in a `u64`. It runs on every
//! target, is the whole kernel where no vector unit is used, and finishes
//! the last few bytes behind every vector kernel, because a general-purpose
//! register can be filled from a short tail without reading past it.

use super::generic;
use super::kernel_table;
use super::vector::{LaneMask, Vector};
use super::{EscapeSet, Kernel};

/// Eight byte lanes, lane `k` in bits `8k..8k + 8` whatever the target's
/// endianness (loads and stores go through little-endian conversion).
/// A true lane of a mask is `0x80`; the other seven bits are zero.
#[derive(Clone, Copy)]
pub(crate) struct Swar(u64);

const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
const HIGH: u64 = 0x8080_8080_8080_8080;
const ONES: u64 = 0x0101_0101_0101_0101;

impl Vector for Swar {
    const BYTES: usize = 8;
    type Mask = LaneMask<3>;
    const CHEAP_COMPARE: bool = false;

    #[inline(always)]
    unsafe fn splat(byte: u8) -> Swar {
        Swar(ONES * byte as u64)
    }

    #[inline(always)]
    unsafe fn load_unaligned(ptr: *const u8) -> Swar {
        // SAFETY: the caller guarantees 8 readable bytes at `ptr`.
        Swar(u64::from_le_bytes(unsafe { ptr.cast::<[u8; 8]>().read_unaligned() }))
    }

    #[inline(always)]
    unsafe fn store_unaligned(self, ptr: *mut u8) {
        // SAFETY: the caller guarantees 8 writable bytes at `ptr`.
        unsafe { ptr.cast::<[u8; 8]>().write_unaligned(self.0.to_le_bytes()) }
    }

    #[inline(always)]
    unsafe fn cmpeq(self, other: Swar) -> Swar {
        // A lane of `x` is zero iff adding 0x7F to its low seven bits leaves
        // the top bit clear and the top bit was clear to begin with. The sum
        // never exceeds 0xFE, so no carry leaks into the next lane and every
        // lane's answer is exact (unlike the classic `(x - 0x01..) & !x`
        // trick, whose borrows corrupt the lanes above a match).
        let x = self.0 ^ other.0;
        Swar(!(((x & LOW7) + LOW7) | x) & HIGH)
    }

    #[inline(always)]
    unsafe fn lt(self, bound: u8) -> Swar {
        debug_assert!((1..=0x80).contains(&bound));
        // For a lane below 0x80, `lane + (0x80 - bound)` reaches the top bit
        // iff `lane >= bound`; at most 0x7F + 0x7F, so again no carries.
        let sum = (self.0 & LOW7) + ONES * (0x80 - bound as u64);
        Swar(!(sum | self.0) & HIGH)
    }

    #[inline(always)]
    unsafe fn high_bit(self) -> Swar {
        Swar(self.0 & HIGH)
    }

    #[inline(always)]
    unsafe fn or(self, other: Swar) -> Swar {
        Swar(self.0 | other.0)
    }

    #[inline(always)]
    unsafe fn and(self, other: Swar) -> Swar {
        Swar(self.0 & other.0)
    }

    #[inline(always)]
    unsafe fn movemask(self) -> LaneMask<3> {
        LaneMask(self.0)
    }
}

/// Lanes past a short tail hold this: a byte no set escapes, so padding
/// never shows up in a mask, and not a byte that could complete a
/// U+2028 sequence begun by the tail's last bytes.
const PAD: u8 = b' ';

/// The `len` bytes at `ptr`, `len <= 8`, as a little-endian word with
/// zeros above them, without touching any byte past them (also the inline
/// `Str`'s loader, value/str.rs).
///
/// # Safety
/// `ptr..ptr + len` is readable.
#[inline(always)]
pub(crate) unsafe fn load_le(ptr: *const u8, len: usize) -> u64 {
    debug_assert!(len <= 8);
    // Two overlapping loads cover 2..=8 bytes; the overlapping lanes hold
    // the same byte in both, so OR-ing them is exact.
    // SAFETY: every read below lies within `ptr..ptr + len`.
    unsafe {
        let read2 = |p: *const u8| u16::from_le_bytes(p.cast::<[u8; 2]>().read_unaligned()) as u64;
        let read4 = |p: *const u8| u32::from_le_bytes(p.cast::<[u8; 4]>().read_unaligned()) as u64;
        match len {
            8 => u64::from_le_bytes(ptr.cast::<[u8; 8]>().read_unaligned()),
            4..=7 => read4(ptr) | read4(ptr.add(len - 4)) << (8 * (len - 4)),
            2..=3 => read2(ptr) | read2(ptr.add(len - 2)) << (8 * (len - 2)),
            1 => *ptr as u64,
            _ => 0,
        }
    }
}

impl Swar {
    /// Loads the `len` bytes at `ptr`, `1 <= len <= 8`, without touching any
    /// byte past them; lanes `len..8` hold `PAD`.
    ///
    /// # Safety
    /// `ptr..ptr + len` is readable.
    #[inline(always)]
    pub(crate) unsafe fn load_partial(ptr: *const u8, len: usize) -> Swar {
        debug_assert!((1..=8).contains(&len));
        // SAFETY: passed on from the caller.
        let value = unsafe { load_le(ptr, len) };
        if len == 8 {
            return Swar(value);
        }
        Swar(value | (ONES * PAD as u64) << (8 * len))
    }

    /// The register moved down by `lanes` (1 or 2) lanes, `PAD` shifted in:
    /// the "load at +1/+2" of the line-separator test for a tail that fits
    /// in one register.
    #[inline(always)]
    pub(super) fn shift_down(self, lanes: u32) -> Swar {
        debug_assert!(lanes == 1 || lanes == 2);
        Swar(self.0 >> (8 * lanes) | (ONES * PAD as u64) << (64 - 8 * lanes))
    }
}

pub(super) static KERNELS: [Kernel; 8] = kernel_table!("swar", escape, needs_escape);

unsafe fn escape<const H: bool, const L: bool, const A: bool>(out: *mut u8, s: &str) -> usize {
    // SAFETY: `Swar` is plain integer code, valid on every CPU; the caller
    // gives the room.
    unsafe { generic::escape::<Swar, Swar, H, L, A>(out, s) }
}

fn needs_escape<const H: bool, const L: bool, const A: bool>(s: &str) -> bool {
    // SAFETY: as above.
    unsafe { generic::needs_escape::<Swar, Swar, H, L, A>(s) }
}
