//! `in_register`: a value the optimiser must keep in a general register.
//!
//! Built with `-C target-cpu=native` on a CPU with AVX-512, LLVM's
//! vectorizers pack independent 64-bit chains of the hot loops into one
//! vector register, where they are slower than in general registers:
//!
//! * the two 8-digit halves of a 9-16 digit number being parsed
//!   (`parse/number.rs`), multiplied with `vpmullq` (3 uops, 15 cycles of
//!   latency on Intel against 3 for `imul`), several in a chain: twitter's
//!   18-digit ids, canada's and mesh's long fractions
//!   (bench/results/value-parse-2026-11-29.md). (The writer's `put_u64`
//!   gets the same packing for 17-20 digit numbers; keeping it scalar
//!   measured within noise, 0.97-1.04 paired, so it was left as it is.)
//! * the two 32-byte halves of a parser block's masks fused into one
//!   64-byte classification in zmm and mask registers (`parse/blocks.rs`),
//!   17-23% slower on Zen 4.
//!
//! Passing a stage's result through an empty `asm!` that the optimiser
//! cannot see into keeps it (and so the chain) scalar. No instruction is
//! added: the template is empty and the value stays where it is.

/// `x`, in a general register.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn in_register(mut x: u64) -> u64 {
    // SAFETY: an empty template: the register is left as it is, and no
    // memory, stack or flags are touched.
    unsafe { core::arch::asm!("/* {0} */", inout(reg) x, options(pure, nomem, nostack, preserves_flags)) };
    x
}

/// `in_register` elsewhere: the value itself (no such packing is known).
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
pub(crate) fn in_register(x: u64) -> u64 {
    x
}
