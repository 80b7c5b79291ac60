//! `Vector` for NEON's 16-byte registers, and the NEON kernels. NEON is
//! part of the aarch64 baseline (this module is only compiled when the
//! target enables it), so there is nothing to detect.

use core::arch::aarch64::{
    uint8x16_t, vandq_u8, vceqq_u8, vcgeq_u8, vcltq_u8, vdupq_n_u8, vget_lane_u64, vld1q_u8, vorrq_u8, vreinterpret_u64_u8,
    vreinterpretq_u16_u8, vshrn_n_u16, vst1q_u8,
};

use super::generic;
use super::kernel_table;
use super::vector::{LaneMask, Vector};
use super::{EscapeSet, Kernel};

impl Vector for uint8x16_t {
    const BYTES: usize = 16;
    /// NEON has no `movemask`; narrowing each 16-bit pair of lanes by 4 bits
    /// packs the mask into 64 bits, four per lane.
    type Mask = LaneMask<2>;

    #[inline(always)]
    unsafe fn splat(byte: u8) -> uint8x16_t {
        // SAFETY: NEON is enabled for the target (module cfg).
        unsafe { vdupq_n_u8(byte) }
    }

    #[inline(always)]
    unsafe fn load_unaligned(ptr: *const u8) -> uint8x16_t {
        // SAFETY: the caller guarantees 16 readable bytes at `ptr`; `vld1q`
        // has no alignment requirement beyond the element's (1).
        unsafe { vld1q_u8(ptr) }
    }

    #[inline(always)]
    unsafe fn store_unaligned(self, ptr: *mut u8) {
        // SAFETY: the caller guarantees 16 writable bytes at `ptr`.
        unsafe { vst1q_u8(ptr, self) }
    }

    #[inline(always)]
    unsafe fn cmpeq(self, other: uint8x16_t) -> uint8x16_t {
        // SAFETY: NEON is enabled for the target (module cfg).
        unsafe { vceqq_u8(self, other) }
    }

    #[inline(always)]
    unsafe fn lt(self, bound: u8) -> uint8x16_t {
        // SAFETY: NEON is enabled for the target (module cfg).
        unsafe { vcltq_u8(self, vdupq_n_u8(bound)) }
    }

    #[inline(always)]
    unsafe fn high_bit(self) -> uint8x16_t {
        // SAFETY: NEON is enabled for the target (module cfg).
        unsafe { vcgeq_u8(self, vdupq_n_u8(0x80)) }
    }

    #[inline(always)]
    unsafe fn or(self, other: uint8x16_t) -> uint8x16_t {
        // SAFETY: NEON is enabled for the target (module cfg).
        unsafe { vorrq_u8(self, other) }
    }

    #[inline(always)]
    unsafe fn and(self, other: uint8x16_t) -> uint8x16_t {
        // SAFETY: NEON is enabled for the target (module cfg).
        unsafe { vandq_u8(self, other) }
    }

    #[inline(always)]
    unsafe fn movemask(self) -> LaneMask<2> {
        // SAFETY: NEON is enabled for the target (module cfg).
        unsafe {
            let narrowed = vshrn_n_u16(vreinterpretq_u16_u8(self), 4);
            LaneMask(vget_lane_u64(vreinterpret_u64_u8(narrowed), 0))
        }
    }
}

pub(super) static KERNELS: [Kernel; 8] = kernel_table!("neon", escape, needs_escape);

unsafe fn escape<const H: bool, const L: bool, const A: bool>(out: *mut u8, s: &str) -> usize {
    // SAFETY: NEON is enabled for the whole target (module cfg); the caller
    // gives the room.
    unsafe { generic::escape::<uint8x16_t, uint8x16_t, H, L, A>(out, s) }
}

fn needs_escape<const H: bool, const L: bool, const A: bool>(s: &str) -> bool {
    // SAFETY: NEON is enabled for the whole target (module cfg).
    unsafe { generic::needs_escape::<uint8x16_t, uint8x16_t, H, L, A>(s) }
}
