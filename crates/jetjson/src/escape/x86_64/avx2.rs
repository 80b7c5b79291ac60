//! `Vector` for AVX2's 32-byte registers, and the AVX2 kernels, whose
//! remainders of 16..31 bytes go through SSE2.

use core::arch::x86_64::{
    __m128i, __m256i, _mm256_add_epi8, _mm256_adds_epu8, _mm256_and_si256, _mm256_broadcastsi128_si256, _mm256_cmpeq_epi8,
    _mm256_cmpgt_epi8, _mm256_loadu_si256, _mm256_min_epu8, _mm256_movemask_epi8, _mm256_or_si256, _mm256_set1_epi8, _mm256_setzero_si256,
    _mm256_shuffle_epi8, _mm256_srli_epi16, _mm256_storeu_si256, _mm256_xor_si256, _mm_loadu_si128,
};

use super::super::generic;
use super::super::kernel_table;
use super::super::vector::{LaneMask, Vector};
use super::super::{EscapeSet, Kernel};

impl Vector for __m256i {
    const BYTES: usize = 32;
    type Mask = LaneMask<0>;

    #[inline(always)]
    unsafe fn splat(byte: u8) -> __m256i {
        // SAFETY: AVX2 is enabled (trait contract).
        unsafe { _mm256_set1_epi8(byte as i8) }
    }

    #[inline(always)]
    unsafe fn load_unaligned(ptr: *const u8) -> __m256i {
        // SAFETY: AVX2 is enabled and 32 bytes at `ptr` are readable.
        unsafe { _mm256_loadu_si256(ptr.cast()) }
    }

    #[inline(always)]
    unsafe fn store_unaligned(self, ptr: *mut u8) {
        // SAFETY: AVX2 is enabled and 32 bytes at `ptr` are writable.
        unsafe { _mm256_storeu_si256(ptr.cast(), self) }
    }

    #[inline(always)]
    unsafe fn cmpeq(self, other: __m256i) -> __m256i {
        // SAFETY: AVX2 is enabled (trait contract).
        unsafe { _mm256_cmpeq_epi8(self, other) }
    }

    #[inline(always)]
    unsafe fn lt(self, bound: u8) -> __m256i {
        // Only signed byte compares exist; `x < bound` unsigned is
        // `min(x, bound - 1) == x`.
        // SAFETY: AVX2 is enabled (trait contract).
        unsafe { _mm256_cmpeq_epi8(_mm256_min_epu8(self, _mm256_set1_epi8((bound - 1) as i8)), self) }
    }

    #[inline(always)]
    unsafe fn high_bit(self) -> __m256i {
        // Bytes >= 0x80 are the negative ones.
        // SAFETY: AVX2 is enabled (trait contract).
        unsafe { _mm256_cmpgt_epi8(_mm256_setzero_si256(), self) }
    }

    #[inline(always)]
    unsafe fn or(self, other: __m256i) -> __m256i {
        // SAFETY: AVX2 is enabled (trait contract).
        unsafe { _mm256_or_si256(self, other) }
    }

    #[inline(always)]
    unsafe fn and(self, other: __m256i) -> __m256i {
        // SAFETY: AVX2 is enabled (trait contract).
        unsafe { _mm256_and_si256(self, other) }
    }

    #[inline(always)]
    unsafe fn movemask(self) -> LaneMask<0> {
        // SAFETY: AVX2 is enabled (trait contract).
        LaneMask(unsafe { _mm256_movemask_epi8(self) } as u32 as u64)
    }

    const HAS_LOOKUP: bool = true;

    #[inline(always)]
    unsafe fn lookup16(self, table: &[u8; 16]) -> __m256i {
        // `vpshufb` looks up within each 128-bit half: the same table in both.
        // SAFETY: AVX2 is enabled (trait contract); 16 bytes are read from
        // the table reference.
        unsafe { _mm256_shuffle_epi8(_mm256_broadcastsi128_si256(_mm_loadu_si128(table.as_ptr().cast())), self) }
    }

    #[inline(always)]
    unsafe fn high_nibble(self) -> __m256i {
        // A 16-bit shift moves the neighbour's low bits in: mask them off.
        // SAFETY: AVX2 is enabled (trait contract).
        unsafe { _mm256_and_si256(_mm256_srli_epi16::<4>(self), _mm256_set1_epi8(0x0F)) }
    }

    #[inline(always)]
    unsafe fn low_nibble(self) -> __m256i {
        // SAFETY: AVX2 is enabled (trait contract).
        unsafe { _mm256_and_si256(self, _mm256_set1_epi8(0x0F)) }
    }

    #[inline(always)]
    unsafe fn nonzero(self) -> __m256i {
        if cfg!(all(target_feature = "avx512bw", target_feature = "avx512vl")) {
            // Built for AVX-512 (`-C target-cpu=native` on such a CPU):
            // `!(x == 0)` as a compare, which LLVM folds with the `and` of
            // the two lookups into one `vptestmb` to a mask register (one
            // instruction for the `and`, the test and the `movemask`).
            // SAFETY: AVX2 is enabled (trait contract).
            return unsafe { _mm256_xor_si256(_mm256_cmpeq_epi8(self, _mm256_setzero_si256()), _mm256_set1_epi8(-1)) };
        }
        // Saturating `+ 0x7F` sets the top bit exactly in non-zero lanes,
        // which is all `movemask` reads (the other bits fall as they may,
        // as the trait allows for mask vectors).
        // SAFETY: AVX2 is enabled (trait contract).
        unsafe { _mm256_adds_epu8(self, _mm256_set1_epi8(0x7F)) }
    }

    #[inline(always)]
    unsafe fn add(self, other: __m256i) -> __m256i {
        // SAFETY: AVX2 is enabled (trait contract).
        unsafe { _mm256_add_epi8(self, other) }
    }

    #[inline(always)]
    unsafe fn gt_signed(self, other: __m256i) -> __m256i {
        // SAFETY: AVX2 is enabled (trait contract).
        unsafe { _mm256_cmpgt_epi8(self, other) }
    }
}

pub(in super::super) static KERNELS: [Kernel; 8] = kernel_table!("avx2", escape, needs_escape);

/// # Safety
/// The CPU supports AVX2; `out` has room for `escape_room(s.len())` bytes.
#[target_feature(enable = "avx2")]
unsafe fn escape<const H: bool, const L: bool, const A: bool>(out: *mut u8, s: &str) -> usize {
    super::align_kernel_entry();
    // SAFETY: AVX2 and the room per this function's contract; SSE2 is baseline.
    unsafe { generic::escape::<__m256i, __m128i, H, L, A>(out, s) }
}

/// # Safety
/// The CPU supports AVX2.
#[target_feature(enable = "avx2")]
unsafe fn needs_escape<const H: bool, const L: bool, const A: bool>(s: &str) -> bool {
    // SAFETY: AVX2 per this function's contract; SSE2 is baseline.
    unsafe { generic::needs_escape::<__m256i, __m128i, H, L, A>(s) }
}
