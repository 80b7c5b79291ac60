//! `Vector` for SSE2's 16-byte registers, and the SSE2 kernels.
//!
//! SSE2 is part of the x86_64 baseline, so these kernels need no detection
//! and the AVX2 kernels use this vector for their 16..31-byte remainders.

use core::arch::x86_64::{
    __m128i, _mm_add_epi8, _mm_and_si128, _mm_cmpeq_epi8, _mm_cmpgt_epi8, _mm_cmplt_epi8, _mm_loadu_si128, _mm_min_epu8, _mm_movemask_epi8,
    _mm_or_si128, _mm_set1_epi8, _mm_setzero_si128, _mm_storeu_si128,
};

use super::super::generic;
use super::super::kernel_table;
use super::super::vector::{LaneMask, Vector};
use super::super::{EscapeSet, Kernel};

impl Vector for __m128i {
    const BYTES: usize = 16;
    type Mask = LaneMask<0>;

    #[inline(always)]
    unsafe fn splat(byte: u8) -> __m128i {
        // SAFETY: SSE2 is baseline on x86_64.
        unsafe { _mm_set1_epi8(byte as i8) }
    }

    #[inline(always)]
    unsafe fn load_unaligned(ptr: *const u8) -> __m128i {
        // SAFETY: the caller guarantees 16 readable bytes at `ptr`.
        unsafe { _mm_loadu_si128(ptr.cast()) }
    }

    #[inline(always)]
    unsafe fn store_unaligned(self, ptr: *mut u8) {
        // SAFETY: the caller guarantees 16 writable bytes at `ptr`.
        unsafe { _mm_storeu_si128(ptr.cast(), self) }
    }

    #[inline(always)]
    unsafe fn cmpeq(self, other: __m128i) -> __m128i {
        // SAFETY: SSE2 is baseline on x86_64.
        unsafe { _mm_cmpeq_epi8(self, other) }
    }

    #[inline(always)]
    unsafe fn lt(self, bound: u8) -> __m128i {
        // SSE2 only compares signed bytes; `x < bound` unsigned is
        // `min(x, bound - 1) == x`.
        // SAFETY: SSE2 is baseline on x86_64.
        unsafe { _mm_cmpeq_epi8(_mm_min_epu8(self, _mm_set1_epi8((bound - 1) as i8)), self) }
    }

    #[inline(always)]
    unsafe fn high_bit(self) -> __m128i {
        // Bytes >= 0x80 are the negative ones.
        // SAFETY: SSE2 is baseline on x86_64.
        unsafe { _mm_cmplt_epi8(self, _mm_setzero_si128()) }
    }

    #[inline(always)]
    unsafe fn or(self, other: __m128i) -> __m128i {
        // SAFETY: SSE2 is baseline on x86_64.
        unsafe { _mm_or_si128(self, other) }
    }

    #[inline(always)]
    unsafe fn and(self, other: __m128i) -> __m128i {
        // SAFETY: SSE2 is baseline on x86_64.
        unsafe { _mm_and_si128(self, other) }
    }

    #[inline(always)]
    unsafe fn movemask(self) -> LaneMask<0> {
        // SAFETY: SSE2 is baseline on x86_64.
        LaneMask(unsafe { _mm_movemask_epi8(self) } as u32 as u64)
    }

    /// Builds with SSSE3 enabled (`-C target-cpu=native`) have `pshufb`;
    /// the baseline build compares instead. The lookups below are compiled
    /// in every build: code compiled for a CPU level with SSSE3 (the
    /// writer's AVX2 build of its short-string check, `writer::ShortIsa`)
    /// uses them whatever this says.
    const HAS_LOOKUP: bool = cfg!(target_feature = "ssse3");

    #[inline(always)]
    unsafe fn lookup16(self, table: &[u8; 16]) -> __m128i {
        // SAFETY: the caller runs with SSSE3 enabled (`HAS_LOOKUP`, or a
        // caller compiled for a level that has it); 16 bytes are read from
        // the table reference.
        unsafe { core::arch::x86_64::_mm_shuffle_epi8(_mm_loadu_si128(table.as_ptr().cast()), self) }
    }

    #[inline(always)]
    unsafe fn high_nibble(self) -> __m128i {
        // A 16-bit shift moves the neighbour's low bits in: mask them off.
        // SAFETY: SSE2 is baseline on x86_64.
        unsafe { _mm_and_si128(core::arch::x86_64::_mm_srli_epi16::<4>(self), _mm_set1_epi8(0x0F)) }
    }

    #[inline(always)]
    unsafe fn low_nibble(self) -> __m128i {
        // SAFETY: SSE2 is baseline on x86_64.
        unsafe { _mm_and_si128(self, _mm_set1_epi8(0x0F)) }
    }

    #[inline(always)]
    unsafe fn nonzero(self) -> __m128i {
        if cfg!(all(target_feature = "avx512bw", target_feature = "avx512vl")) {
            // As for AVX2: LLVM folds this with the lookups' `and` into
            // one `vptestmb`.
            // SAFETY: SSE2 is baseline on x86_64.
            return unsafe { core::arch::x86_64::_mm_xor_si128(_mm_cmpeq_epi8(self, _mm_setzero_si128()), _mm_set1_epi8(-1)) };
        }
        // Saturating `+ 0x7F` sets the top bit exactly in non-zero lanes.
        // SAFETY: SSE2 is baseline on x86_64.
        unsafe { core::arch::x86_64::_mm_adds_epu8(self, _mm_set1_epi8(0x7F)) }
    }

    #[inline(always)]
    unsafe fn add(self, other: __m128i) -> __m128i {
        // SAFETY: SSE2 is baseline on x86_64.
        unsafe { _mm_add_epi8(self, other) }
    }

    #[inline(always)]
    unsafe fn gt_signed(self, other: __m128i) -> __m128i {
        // SAFETY: SSE2 is baseline on x86_64.
        unsafe { _mm_cmpgt_epi8(self, other) }
    }
}

pub(in super::super) static KERNELS: [Kernel; 8] = kernel_table!("sse2", escape, needs_escape);

unsafe fn escape<const H: bool, const L: bool, const A: bool>(out: *mut u8, s: &str) -> usize {
    super::align_kernel_entry();
    // SAFETY: SSE2 is always present on x86_64; the caller gives the room.
    unsafe { generic::escape::<__m128i, __m128i, H, L, A>(out, s) }
}

fn needs_escape<const H: bool, const L: bool, const A: bool>(s: &str) -> bool {
    // SAFETY: SSE2 is always present on x86_64.
    unsafe { generic::needs_escape::<__m128i, __m128i, H, L, A>(s) }
}
