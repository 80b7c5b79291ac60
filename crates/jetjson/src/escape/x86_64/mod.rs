//! x86_64 kernels: SSE2 (part of the baseline, always available) and AVX2
//! (selected at run time by `Escaper::new`).

pub(super) mod avx2;
pub(super) mod sse2;

/// Pins the start of the function it is inlined into to a 64-byte
/// boundary, so the kernel's loops sit at the same offsets within cache
/// lines (and 32-byte fetch windows) whatever code the linker places
/// before it. Without it a kernel starts wherever 16-byte function
/// alignment leaves it, which moves with unrelated code: the same machine
/// code of the compact kernel ran 6-11% slower on text with 10% quotes
/// when it started 16 bytes past a line
/// (bench/results/strings-regression-2026-11-29.md).
///
/// The directive raises the alignment of the function's own section (one
/// per function) to 64 bytes; its fill is capped at one byte, so at the
/// entry, where it is inlined, it emits nothing in practice (at most one
/// NOP, never a run of them on the call's path).
#[inline(always)]
pub(super) fn align_kernel_entry() {
    // SAFETY: an assembler alignment directive only: no instruction with
    // an effect, no register, memory, stack or flag touched.
    unsafe { core::arch::asm!(".p2align 6,,1", options(nomem, nostack, preserves_flags)) }
}
