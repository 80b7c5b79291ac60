//! x86_64 kernels: SSE2 (part of the baseline, always available) and AVX2
//! (selected at run time by `Escaper::new`).

pub(super) mod avx2;
pub(super) mod sse2;
