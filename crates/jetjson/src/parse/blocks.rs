//! The input seen 64 bytes at a time, as bit masks: for each block of the
//! input (bytes `64k..64k + 64`, counted from the start of the input), which
//! bytes are whitespace, which end a string body (`"`, `\` or a control
//! byte), and which are not ASCII. The push driver (`drive.rs`) keeps the
//! masks of the block it is in, so skipping indentation and finding the end
//! of a key are a shift and a count of trailing zeros instead of a loop over
//! bytes, and each block is classified once however it is crossed.
//!
//! The classifier is written per ISA (`Classify`): AVX2 and SSE2 on x86_64,
//! and a portable one, which is also the reference of the tests and
//! classifies the input's last, partial block (copied, so no load reads
//! past the end of the input). Each is only sound to call from code that
//! runs with its ISA enabled: the driver is compiled once per ISA with
//! `#[target_feature]` and chooses one at run time (see `drive.rs`).

/// One block's masks: bit `k` is byte `base + k`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Masks {
    /// `' '`, `\t`, `\n`, `\r`.
    pub ws: u64,
    /// `"`, `\` and bytes below 0x20.
    pub special: u64,
    /// Bytes >= 0x80.
    pub high: u64,
}

/// One block's masks for the validator (`validate.rs`), which finds the
/// structure of the text from them: bit `k` is byte `base + k`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Structure {
    /// `"`.
    pub quote: u64,
    /// `\`.
    pub backslash: u64,
    /// `{`, `}`, `[`, `]`, `:`, `,`.
    pub op: u64,
    /// `' '`, `\t`, `\n`, `\r`.
    pub ws: u64,
    /// Bytes below 0x20.
    pub control: u64,
    /// Bytes >= 0x80.
    pub high: u64,
}

/// A block classifier for one ISA.
pub(crate) trait Classify {
    /// The driver and validator builds this classifier belongs to: the
    /// validator's for a container the driver takes whole (`drive.rs`,
    /// `raw_text`) is the one of the driver's own ISA.
    const LEVEL: super::drive::Level;

    /// Bytes stored per step when the escaped-string decoder copies a run
    /// of text between escapes (`drive/escaped.rs`, at most its `STEP`):
    /// one register's worth or two.
    const RUN_STEP: usize = 64;

    /// The masks of the 64 bytes at `p`.
    ///
    /// # Safety
    /// `p..p + 64` is readable, and the CPU supports the implementation's
    /// ISA (the caller runs with it enabled, so this inlines into it).
    unsafe fn block(p: *const u8) -> Masks;

    /// The validator's masks of the 64 bytes at `p`.
    ///
    /// # Safety
    /// As `block`.
    unsafe fn structure(p: *const u8) -> Structure;

    /// Bytes taken by one `text_step`: at most 64.
    const TEXT_STEP: usize = 64;

    /// Copies the `TEXT_STEP` bytes at `p` to `dst` and says which of them
    /// end a run of string text (`"`, `\` and bytes below 0x20) and which
    /// are >= 0x80 (bit `k`: byte `k`): the escape decoder's scan and copy
    /// of a run in one pass (`drive/escaped.rs`), one load per step and no
    /// whitespace mask.
    ///
    /// # Safety
    /// `p..p + TEXT_STEP` is readable, `dst..dst + TEXT_STEP` writable and
    /// apart from it, and the CPU supports the implementation's ISA.
    #[inline(always)]
    unsafe fn text_step(p: *const u8, dst: *mut u8) -> (u64, u64) {
        // SAFETY: `TEXT_STEP` is 64 here: the caller's contract is
        // `block`'s and the copy's.
        unsafe {
            let m = Self::block(p);
            std::ptr::copy_nonoverlapping(p, dst, 64);
            (m.special, m.high)
        }
    }

    /// Whether the string text `b[start..stop]` (a body, or a run between
    /// escapes), followed at `stop` by an ASCII byte (its closing quote or
    /// a backslash), is surely UTF-8: `true` only if it is; `false` if it
    /// is not, or (rarely) if bytes just before it are not (the caller then
    /// checks the text alone).
    ///
    /// # Safety
    /// The CPU supports the implementation's ISA.
    #[inline(always)]
    unsafe fn utf8_body(b: &[u8], start: usize, stop: usize) -> bool {
        simdutf8::basic::from_utf8(&b[start..stop]).is_ok()
    }

    /// The quotes and the backslashes of 16 bytes, bit `k` for byte `k`
    /// (a member name's first 16 bytes, in the validator).
    #[inline(always)]
    fn quotes16(bytes: &[u8; 16]) -> (u32, u32) {
        quotes16_bytes(bytes)
    }

    /// Bit `k` of the result: the parity of bits `0..=k` of `x` (from each
    /// opening quote to its closing quote, given the quotes).
    ///
    /// # Safety
    /// The CPU supports the implementation's ISA.
    #[inline(always)]
    unsafe fn prefix_xor(x: u64) -> u64 {
        prefix_xor_shifts(x)
    }
}

/// `Classify::quotes16` byte by byte.
#[inline(always)]
pub(crate) fn quotes16_bytes(bytes: &[u8; 16]) -> (u32, u32) {
    let (mut quotes, mut backslashes) = (0, 0);
    for (k, &c) in bytes.iter().enumerate() {
        quotes |= u32::from(c == b'"') << k;
        backslashes |= u32::from(c == b'\\') << k;
    }
    (quotes, backslashes)
}

/// `Classify::prefix_xor` by shifts, on any CPU.
#[inline(always)]
pub(crate) fn prefix_xor_shifts(mut x: u64) -> u64 {
    x ^= x << 1;
    x ^= x << 2;
    x ^= x << 4;
    x ^= x << 8;
    x ^= x << 16;
    x ^= x << 32;
    x
}

/// Any CPU: byte by byte.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
pub(crate) struct Portable;

impl Classify for Portable {
    const LEVEL: super::drive::Level = super::drive::Level::Baseline;

    #[inline(always)]
    unsafe fn block(p: *const u8) -> Masks {
        // SAFETY: the caller guarantees 64 readable bytes.
        let bytes = unsafe { &*p.cast::<[u8; 64]>() };
        classify_bytes(bytes)
    }

    #[inline(always)]
    unsafe fn structure(p: *const u8) -> Structure {
        // SAFETY: the caller guarantees 64 readable bytes.
        let bytes = unsafe { &*p.cast::<[u8; 64]>() };
        structure_bytes(bytes)
    }
}

/// The validator's masks of `bytes`, byte by byte.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
#[inline]
pub(crate) fn structure_bytes(bytes: &[u8; 64]) -> Structure {
    let mut m = Structure { quote: 0, backslash: 0, op: 0, ws: 0, control: 0, high: 0 };
    for (k, &c) in bytes.iter().enumerate() {
        let bit = 1u64 << k;
        m.quote |= if c == b'"' { bit } else { 0 };
        m.backslash |= if c == b'\\' { bit } else { 0 };
        m.op |= if matches!(c, b'{' | b'}' | b'[' | b']' | b':' | b',') { bit } else { 0 };
        m.ws |= if matches!(c, b' ' | b'\t' | b'\n' | b'\r') { bit } else { 0 };
        m.control |= if c < 0x20 { bit } else { 0 };
        m.high |= if c >= 0x80 { bit } else { 0 };
    }
    m
}

/// The masks of `bytes`, byte by byte.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
#[inline]
pub(crate) fn classify_bytes(bytes: &[u8; 64]) -> Masks {
    let mut m = Masks { ws: 0, special: 0, high: 0 };
    for (k, &c) in bytes.iter().enumerate() {
        let bit = 1u64 << k;
        if matches!(c, b' ' | b'\t' | b'\n' | b'\r') {
            m.ws |= bit;
        }
        if c == b'"' || c == b'\\' || c < 0x20 {
            m.special |= bit;
        }
        if c >= 0x80 {
            m.high |= bit;
        }
    }
    m
}

/// The masks of the last block of `b`, which starts at `base` and has fewer
/// than 64 bytes: the missing bytes count as control bytes (special, not
/// whitespace), so every scan stops at the end of the input.
#[cold]
#[inline(never)]
pub(crate) fn tail_masks(b: &[u8], base: usize) -> Masks {
    // An input of 64 bytes or more whose last block holds more than 32 of
    // them: its last 64 classified in place, the masks shifted down, the
    // bits past the end set special (as `tail_structure` does), without a
    // copy. (A shorter tail is cheaper copied: one or two chunks below.)
    #[cfg(target_arch = "x86_64")]
    if let Some(from) = b.len().checked_sub(64).filter(|&from| from < base && base + 32 < b.len()) {
        // SAFETY: `from + 64 == len`: the 64 bytes are inside the input;
        // SSE2 is part of the x86_64 baseline.
        let m = unsafe { Sse2::block(b.as_ptr().add(from)) };
        // 1..=63: `from < base < len = from + 64`.
        let shift = base - from;
        return Masks { ws: m.ws >> shift, special: m.special >> shift | !(u64::MAX >> shift), high: m.high >> shift };
    }
    let mut block = [0u8; 64];
    let rest = &b[base.min(b.len())..];
    block[..rest.len()].copy_from_slice(rest);
    // Every document ends in such a block: SSE2 (the x86_64 baseline, so
    // usable out of line) rather than byte by byte, which was a twentieth of
    // the time of a 1 KB document. Only the 16-byte chunks that hold input
    // are classified (a small document has one or two): the bytes of the
    // others are all past the end, special as the zero padding would be.
    #[cfg(target_arch = "x86_64")]
    {
        let chunks = rest.len().div_ceil(16).min(4);
        // SAFETY: `chunks <= 4`: 16 * chunks bytes of `block`; SSE2 is part
        // of the x86_64 baseline.
        let mut m = unsafe { Sse2::chunks(block.as_ptr(), chunks) };
        m.special |= u64::MAX.checked_shl(16 * chunks as u32).unwrap_or(0);
        m
    }
    #[cfg(not(target_arch = "x86_64"))]
    classify_bytes(&block)
}

/// The validator's masks of the last block of `b`, which starts at `base`
/// and has fewer than 64 bytes. When the input has 64 bytes or more, the
/// 64 that end it are classified in place and the masks shifted down: the
/// bytes past the end have no bits (no whitespace, no structure, no quote,
/// so such a byte may look like the start of a scalar: the validator clears
/// every bit past the end). A shorter input is copied, padded with spaces
/// (which end a literal as the end of the input does, and are no
/// structure).
#[cold]
#[inline(never)]
pub(crate) fn tail_structure(b: &[u8], base: usize) -> Structure {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: SSE2 is part of the x86_64 baseline.
    return unsafe { tail_structure_with::<Sse2>(b, base) };
    #[cfg(not(target_arch = "x86_64"))]
    // SAFETY: `Portable` runs on any CPU.
    unsafe {
        tail_structure_with::<Portable>(b, base)
    }
}

/// `tail_structure` by `C` (inlined into a caller built for its ISA).
///
/// # Safety
/// The CPU supports `C`'s ISA.
#[inline(always)]
pub(crate) unsafe fn tail_structure_with<C: Classify>(b: &[u8], base: usize) -> Structure {
    if let Some(from) = b.len().checked_sub(64).filter(|&from| from < base) {
        // SAFETY: `from + 64 == len`: the 64 bytes are inside the input;
        // the CPU supports `C`'s ISA (the caller's contract).
        let m = unsafe { C::structure(b.as_ptr().add(from)) };
        let shift = base - from;
        return Structure {
            quote: m.quote >> shift,
            backslash: m.backslash >> shift,
            op: m.op >> shift,
            ws: m.ws >> shift,
            control: m.control >> shift,
            high: m.high >> shift,
        };
    }
    let mut block = [b' '; 64];
    let rest = &b[base.min(b.len())..];
    block[..rest.len()].copy_from_slice(rest);
    // SAFETY: 64 bytes of `block`; the CPU supports `C`'s ISA.
    unsafe { C::structure(block.as_ptr()) }
}

#[cfg(target_arch = "x86_64")]
pub(crate) use x86::{Avx2, Avx512, Sse2};

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::{Classify, Masks, Structure};
    use crate::opaque::in_register;
    use core::arch::x86_64::*;

    /// The x86_64 baseline.
    pub(crate) struct Sse2;

    impl Sse2 {
        /// The masks of the first `n` (at most 4) 16-byte chunks at `p`
        /// (bits of the chunks after them clear).
        ///
        /// # Safety
        /// `16 * n` readable bytes at `p`, `n <= 4`.
        #[inline(always)]
        pub(crate) unsafe fn chunks(p: *const u8, n: usize) -> Masks {
            debug_assert!(n <= 4);
            // SAFETY: `16 * n` readable bytes (the caller's contract), read
            // as `n` unaligned 16-byte loads; SSE2 is part of the x86_64
            // baseline.
            unsafe {
                let (quote, backslash, below) = (_mm_set1_epi8(b'"' as i8), _mm_set1_epi8(b'\\' as i8), _mm_set1_epi8(0x1f));
                let (space, tab, lf, cr) =
                    (_mm_set1_epi8(b' ' as i8), _mm_set1_epi8(b'\t' as i8), _mm_set1_epi8(b'\n' as i8), _mm_set1_epi8(b'\r' as i8));
                let mut m = Masks { ws: 0, special: 0, high: 0 };
                for k in 0..n {
                    let v = _mm_loadu_si128(p.add(16 * k).cast());
                    let ws = _mm_or_si128(
                        _mm_or_si128(_mm_cmpeq_epi8(v, space), _mm_cmpeq_epi8(v, tab)),
                        _mm_or_si128(_mm_cmpeq_epi8(v, lf), _mm_cmpeq_epi8(v, cr)),
                    );
                    // `v <= 0x1f` unsigned: the minimum of the two is `v`.
                    let control = _mm_cmpeq_epi8(_mm_min_epu8(v, below), v);
                    let special = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)), control);
                    let shift = 16 * k as u32;
                    m.ws |= u64::from(_mm_movemask_epi8(ws) as u16) << shift;
                    m.special |= u64::from(_mm_movemask_epi8(special) as u16) << shift;
                    m.high |= u64::from(_mm_movemask_epi8(v) as u16) << shift;
                }
                m
            }
        }
    }

    impl Classify for Sse2 {
        const LEVEL: crate::parse::drive::Level = crate::parse::drive::Level::Baseline;

        #[inline(always)]
        fn quotes16(bytes: &[u8; 16]) -> (u32, u32) {
            sse2_quotes16(bytes)
        }

        #[inline(always)]
        unsafe fn block(p: *const u8) -> Masks {
            // SAFETY: 64 readable bytes (the caller's contract): `chunks`'
            // contract for four chunks.
            unsafe { Sse2::chunks(p, 4) }
        }

        #[inline(always)]
        unsafe fn structure(p: *const u8) -> Structure {
            // SAFETY: 64 readable bytes (the caller's contract), read as four
            // unaligned 16-byte loads; SSE2 is part of the x86_64 baseline.
            unsafe {
                let mut m = Structure { quote: 0, backslash: 0, op: 0, ws: 0, control: 0, high: 0 };
                for k in 0..4 {
                    let v = _mm_loadu_si128(p.add(16 * k).cast());
                    let ws =
                        _mm_or_si128(_mm_or_si128(sse2_eq(v, b' '), sse2_eq(v, b'\t')), _mm_or_si128(sse2_eq(v, b'\n'), sse2_eq(v, b'\r')));
                    // `[` and `]` are `{` and `}` with the 0x20 bit clear.
                    let folded = _mm_or_si128(v, _mm_set1_epi8(0x20));
                    let brackets = _mm_or_si128(sse2_eq(folded, b'{'), sse2_eq(folded, b'}'));
                    let op = _mm_or_si128(brackets, _mm_or_si128(sse2_eq(v, b':'), sse2_eq(v, b',')));
                    // `v <= 0x1f` unsigned: the minimum of the two is `v`.
                    let control = _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x1f)), v);
                    let shift = 16 * k as u32;
                    m.quote |= sse2_bits(sse2_eq(v, b'"')) << shift;
                    m.backslash |= sse2_bits(sse2_eq(v, b'\\')) << shift;
                    m.op |= sse2_bits(op) << shift;
                    m.ws |= sse2_bits(ws) << shift;
                    m.control |= sse2_bits(control) << shift;
                    m.high |= sse2_bits(v) << shift;
                }
                m
            }
        }
    }

    /// `Classify::quotes16` with SSE2 (for the AVX2 build too: 16 bytes).
    #[inline(always)]
    fn sse2_quotes16(bytes: &[u8; 16]) -> (u32, u32) {
        // SAFETY: an unaligned load of the 16 bytes of `bytes`, then
        // register operations; SSE2 is part of the x86_64 baseline.
        unsafe {
            let v = _mm_loadu_si128(bytes.as_ptr().cast());
            (sse2_bits(sse2_eq(v, b'"')) as u32, sse2_bits(sse2_eq(v, b'\\')) as u32)
        }
    }

    /// Bytes of `v` equal to `c`.
    #[inline(always)]
    fn sse2_eq(v: __m128i, c: u8) -> __m128i {
        // SAFETY: register operations; SSE2 is part of the x86_64 baseline.
        unsafe { _mm_cmpeq_epi8(v, _mm_set1_epi8(c as i8)) }
    }

    /// The top bits of the 16 bytes of `x`.
    #[inline(always)]
    fn sse2_bits(x: __m128i) -> u64 {
        // SAFETY: a register operation; SSE2 is part of the x86_64 baseline.
        u64::from(unsafe { _mm_movemask_epi8(x) } as u16)
    }

    /// AVX2 (Haswell and later, Zen and later).
    pub(crate) struct Avx2;

    /// For `vpshufb`: at index `c & 15`, the whitespace byte with that low
    /// nibble (0x20, 0x09, 0x0a, 0x0d), elsewhere a byte no input byte
    /// equals at that index (`0x80 | index`, whose own lookup gives zero).
    const WS_TABLE: [u8; 16] = {
        let mut t = [0u8; 16];
        let mut i = 0;
        while i < 16 {
            t[i] = 0x80 | i as u8;
            i += 1;
        }
        t[0] = b' ';
        t[9] = b'\t';
        t[10] = b'\n';
        t[13] = b'\r';
        t
    };

    /// For `vpshufb`: at index `c & 15`, the structural byte `{ } : ,`
    /// with that low nibble (`[` `]` fold onto `{` `}` with the 0x20 bit
    /// set), elsewhere 0, which no byte with the 0x20 bit set equals.
    /// (Bytes >= 0x80 look up 0.)
    const OP_TABLE: [u8; 16] = {
        let mut t = [0u8; 16];
        t[b'{' as usize & 15] = b'{';
        t[b'}' as usize & 15] = b'}';
        t[b':' as usize & 15] = b':';
        t[b',' as usize & 15] = b',';
        t
    };

    impl Classify for Avx2 {
        const LEVEL: crate::parse::drive::Level = crate::parse::drive::Level::Avx2;

        #[inline(always)]
        fn quotes16(bytes: &[u8; 16]) -> (u32, u32) {
            sse2_quotes16(bytes)
        }

        /// One carry-less multiplication by all ones.
        ///
        /// # Safety
        /// The CPU supports PCLMULQDQ (with AVX2, `drive::level` checks it).
        #[inline(always)]
        unsafe fn prefix_xor(x: u64) -> u64 {
            // SAFETY: PCLMULQDQ per the contract.
            unsafe { clmul_prefix_xor(x) }
        }

        #[inline(always)]
        unsafe fn block(p: *const u8) -> Masks {
            // SAFETY: 64 readable bytes (the caller's contract), read as two
            // unaligned 32-byte loads; AVX2 is enabled in the caller.
            unsafe {
                let (ws0, sp0, hi0) = avx2_half(_mm256_loadu_si256(p.cast()));
                let (ws1, sp1, hi1) = avx2_half(_mm256_loadu_si256(p.add(32).cast()));
                let (ws1, sp1, hi1) = (in_register(ws1), in_register(sp1), in_register(hi1));
                Masks { ws: ws0 | ws1 << 32, special: sp0 | sp1 << 32, high: hi0 | hi1 << 32 }
            }
        }

        #[inline(always)]
        unsafe fn utf8_body(b: &[u8], start: usize, stop: usize) -> bool {
            // SAFETY: the CPU has AVX2 (the caller's contract).
            unsafe { avx2_utf8_body(b, start, stop) }
        }

        /// One register: the runs between escapes are short in most text.
        const TEXT_STEP: usize = 32;

        #[inline(always)]
        unsafe fn text_step(p: *const u8, dst: *mut u8) -> (u64, u64) {
            // SAFETY: 32 readable bytes at `p` and writable at `dst` (the
            // caller's contract); AVX2 is enabled in the caller. The
            // whitespace mask `avx2_half` computes is unused, and dropped
            // once inlined.
            unsafe {
                let v = _mm256_loadu_si256(p.cast());
                _mm256_storeu_si256(dst.cast(), v);
                let (_, special, high) = avx2_half(v);
                (special, high)
            }
        }

        #[inline(always)]
        unsafe fn structure(p: *const u8) -> Structure {
            // SAFETY: 64 readable bytes (the caller's contract), read as two
            // unaligned 32-byte loads; AVX2 is enabled in the caller.
            unsafe {
                let lo = avx2_structure_half(_mm256_loadu_si256(p.cast()));
                let hi = avx2_structure_half(_mm256_loadu_si256(p.add(32).cast()));
                // (Through `in_register`: otherwise LLVM may move the halves'
                // masks between vector lanes byte by byte, `vpextrb` and
                // `vpinsrb` 32 times a block, as it did in one build of the
                // validator's stage 1.)
                let hi = Structure {
                    quote: in_register(hi.quote),
                    backslash: in_register(hi.backslash),
                    op: in_register(hi.op),
                    ws: in_register(hi.ws),
                    control: in_register(hi.control),
                    high: in_register(hi.high),
                };
                Structure {
                    quote: lo.quote | hi.quote << 32,
                    backslash: lo.backslash | hi.backslash << 32,
                    op: lo.op | hi.op << 32,
                    ws: lo.ws | hi.ws << 32,
                    control: lo.control | hi.control << 32,
                    high: lo.high | hi.high << 32,
                }
            }
        }
    }

    /// `Classify::prefix_xor` by one carry-less multiplication by all ones.
    ///
    /// # Safety
    /// The CPU supports PCLMULQDQ.
    #[inline(always)]
    unsafe fn clmul_prefix_xor(x: u64) -> u64 {
        // SAFETY: register operations; PCLMULQDQ per the contract.
        unsafe { _mm_cvtsi128_si64(_mm_clmulepi64_si128(_mm_set_epi64x(0, x as i64), _mm_set1_epi8(-1), 0)) as u64 }
    }

    /// AVX-512 (F, BW, VL; Ice Lake and later, Zen 4 and later): one
    /// 64-byte register per block, each mask straight from a compare into a
    /// mask register (no movemask, no halves to join). Chosen by
    /// `drive::level` only where 512-bit operations run at full width (see
    /// there).
    pub(crate) struct Avx512;

    impl Classify for Avx512 {
        const LEVEL: crate::parse::drive::Level = crate::parse::drive::Level::Avx512;

        /// Half a register: with one 64-byte store per step the AVX-512
        /// driver was 1.4% slower than the AVX2 one on an escape-heavy
        /// document of 6 KB (docker-v2s1, a store per run of a few bytes),
        /// and 1.3% faster with 32 (bench/results/avx512-42-2026-11-30.md).
        const RUN_STEP: usize = 32;

        #[inline(always)]
        fn quotes16(bytes: &[u8; 16]) -> (u32, u32) {
            sse2_quotes16(bytes)
        }

        #[inline(always)]
        unsafe fn prefix_xor(x: u64) -> u64 {
            // SAFETY: the AVX-512 level includes PCLMULQDQ (`drive::level`
            // checks it; the caller runs with it).
            unsafe { clmul_prefix_xor(x) }
        }

        #[inline(always)]
        unsafe fn utf8_body(b: &[u8], start: usize, stop: usize) -> bool {
            // SAFETY: the AVX-512 level includes AVX2 (the caller's
            // contract).
            unsafe { avx2_utf8_body(b, start, stop) }
        }

        #[inline(always)]
        unsafe fn text_step(p: *const u8, dst: *mut u8) -> (u64, u64) {
            // SAFETY: 64 readable bytes at `p` and writable at `dst` (the
            // caller's contract); AVX-512 F and BW are enabled in the
            // caller. The unused whitespace mask is dropped once inlined.
            unsafe {
                let v = _mm512_loadu_si512(p.cast());
                _mm512_storeu_si512(dst.cast(), v);
                let (_, special) = avx512_ws_special(v);
                (special, _mm512_movepi8_mask(v))
            }
        }

        #[inline(always)]
        unsafe fn block(p: *const u8) -> Masks {
            // SAFETY: 64 readable bytes (the caller's contract), read as one
            // unaligned 64-byte load; AVX-512 F and BW are enabled in the
            // caller.
            unsafe {
                let v = _mm512_loadu_si512(p.cast());
                let (ws, special) = avx512_ws_special(v);
                Masks { ws, special, high: _mm512_movepi8_mask(v) }
            }
        }

        #[inline(always)]
        unsafe fn structure(p: *const u8) -> Structure {
            // SAFETY: 64 readable bytes (the caller's contract), read as one
            // unaligned 64-byte load; AVX-512 F and BW are enabled in the
            // caller.
            unsafe {
                let v = _mm512_loadu_si512(p.cast());
                let (ws, control) = avx512_ws_control(v);
                // As `avx2_structure_half`: the six are the bytes whose
                // 0x20-folded value is the op table's entry at their low
                // nibble (and no control byte).
                let ops = _mm512_broadcast_i32x4(_mm_loadu_si128(OP_TABLE.as_ptr().cast()));
                let folded = _mm512_or_si512(v, _mm512_set1_epi8(0x20));
                let op = _mm512_cmpeq_epi8_mask(_mm512_shuffle_epi8(ops, v), folded) & !control;
                Structure {
                    quote: _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(b'"' as i8)),
                    backslash: _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(b'\\' as i8)),
                    op,
                    ws,
                    control,
                    high: _mm512_movepi8_mask(v),
                }
            }
        }
    }

    /// The whitespace mask of the 64 bytes of `v` and the mask of those
    /// that end a run of string text (`"`, `\`, control bytes).
    ///
    /// # Safety
    /// AVX-512 F and BW are enabled in the caller.
    #[inline(always)]
    unsafe fn avx512_ws_special(v: __m512i) -> (u64, u64) {
        // SAFETY: register operations (and `avx512_ws_control`'s table
        // load); AVX-512 F and BW per the contract.
        unsafe {
            let (ws, control) = avx512_ws_control(v);
            let quote = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(b'"' as i8));
            let backslash = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(b'\\' as i8));
            (ws, quote | backslash | control)
        }
    }

    /// The whitespace and control-byte masks of the 64 bytes of `v` (as
    /// `avx2_half`: whitespace is the byte that looks itself up by its low
    /// nibble in `WS_TABLE`).
    ///
    /// # Safety
    /// AVX-512 F and BW are enabled in the caller.
    #[inline(always)]
    unsafe fn avx512_ws_control(v: __m512i) -> (u64, u64) {
        // SAFETY: a 16-byte load of `WS_TABLE`, register operations
        // otherwise; AVX-512 F and BW per the contract.
        unsafe {
            let table = _mm512_broadcast_i32x4(_mm_loadu_si128(WS_TABLE.as_ptr().cast()));
            let ws = _mm512_cmpeq_epi8_mask(_mm512_shuffle_epi8(table, v), v);
            let control = _mm512_cmplt_epu8_mask(v, _mm512_set1_epi8(0x20));
            (ws, control)
        }
    }

    // UTF-8 errors, found per byte from the byte and the three before it
    // (the lookup method of Keiser and Lemire, "Validating UTF-8 in less
    // than one instruction per byte", 2021): three tables, indexed by the
    // high and low nibble of the byte before and the high nibble of the
    // byte, each give the errors possible under their condition; their
    // AND is the errors that hold. One bit per kind of error:
    /// A lead byte not followed by a continuation byte.
    const TOO_SHORT: u8 = 0x01;
    /// A continuation byte after ASCII.
    const TOO_LONG: u8 = 0x02;
    /// E0 then 80..9F (a 3-byte form of a shorter character).
    const OVERLONG_3: u8 = 0x04;
    /// F4 then 90..BF (above U+10FFFF), or F5..FF then 90..BF.
    const TOO_LARGE: u8 = 0x08;
    /// ED then A0..BF (a surrogate).
    const SURROGATE: u8 = 0x10;
    /// C0 or C1 then a continuation byte (a 2-byte form of ASCII).
    const OVERLONG_2: u8 = 0x20;
    /// F0 then 80..8F (a 4-byte form of a shorter character), or F5..FF
    /// then 80..8F.
    const OVERLONG_4: u8 = 0x40;
    /// A continuation byte after a continuation byte: an error unless the
    /// byte two back starts a 3- or 4-byte character or the byte three back
    /// a 4-byte one, and then required (checked apart).
    const TWO_CONTINUATIONS: u8 = 0x80;
    /// By the high nibble of the byte before.
    const BEFORE_HIGH: [u8; 16] = {
        let mut t = [0u8; 16];
        let mut i = 0;
        while i < 16 {
            t[i] = match i {
                0..=7 => TOO_LONG,
                8..=11 => TWO_CONTINUATIONS,
                12 => TOO_SHORT | OVERLONG_2,
                13 => TOO_SHORT,
                14 => TOO_SHORT | OVERLONG_3 | SURROGATE,
                _ => TOO_SHORT | TOO_LARGE | OVERLONG_4,
            };
            i += 1;
        }
        t
    };
    /// By the low nibble of the byte before.
    const BEFORE_LOW: [u8; 16] = {
        let any = TOO_SHORT | TOO_LONG | TWO_CONTINUATIONS;
        let mut t = [0u8; 16];
        let mut i = 0;
        while i < 16 {
            t[i] = any
                | match i {
                    0 => OVERLONG_2 | OVERLONG_3 | OVERLONG_4,
                    1 => OVERLONG_2,
                    2 | 3 => 0,
                    4 => TOO_LARGE,
                    13 => TOO_LARGE | OVERLONG_4 | SURROGATE,
                    _ => TOO_LARGE | OVERLONG_4,
                };
            i += 1;
        }
        t
    };
    /// By the high nibble of the byte itself.
    const HIGH: [u8; 16] = {
        let continuation = TOO_LONG | TWO_CONTINUATIONS | OVERLONG_2;
        let mut t = [0u8; 16];
        let mut i = 0;
        while i < 16 {
            t[i] = match i {
                0..=7 | 12..=15 => TOO_SHORT,
                8 => continuation | OVERLONG_3 | OVERLONG_4,
                9 => continuation | OVERLONG_3 | TOO_LARGE,
                _ => continuation | SURROGATE | TOO_LARGE,
            };
            i += 1;
        }
        t
    };

    /// `Classify::utf8_body` with AVX2: every byte from `start` to the
    /// closing quote at `stop` is checked against the three before it with
    /// vector lookups, 32 at a time (the bytes before each loaded from one,
    /// two and three bytes back; the last 32 end at the quote, which shows
    /// a character the body leaves unfinished). The bytes of a last 32 that
    /// lie before `start` are checked too: an error there (never in a valid
    /// text) only sends the caller to its own check. Out of line: called
    /// only for bodies with bytes >= 0x80.
    ///
    /// # Safety
    /// The CPU supports AVX2.
    #[target_feature(enable = "avx2")]
    #[inline(never)]
    unsafe fn avx2_utf8_body(b: &[u8], start: usize, stop: usize) -> bool {
        let end = stop + 1;
        // (The byte at `stop` must be ASCII: a continuation byte there would
        // hide a character the text leaves unfinished. So must the byte
        // before `start`: a lead byte there would make a stray continuation
        // byte at `start` look like the end of a character. Callers pass
        // text after a quote or an escape, so both hold; checked anyway.)
        if start < 3 || end < 35 || end > b.len() || b[stop] >= 0x80 || b[start - 1] >= 0x80 {
            return simdutf8::basic::from_utf8(&b[start.min(stop)..stop]).is_ok();
        }
        let (t1, t2, t3) = (avx2_table(&BEFORE_HIGH), avx2_table(&BEFORE_LOW), avx2_table(&HIGH));
        // SAFETY: `3 <= start` and `35 <= end <= len`: each 32 bytes checked
        // start at `start` or after it and end before `end`, or are the 32
        // ending at `end`, so every load (three bytes back at most) reads
        // inside `b[start - 3..end]` or `b[end - 35..end]`; AVX2 per the
        // contract.
        unsafe {
            let p = b.as_ptr();
            let mut errors = _mm256_setzero_si256();
            let mut at = start;
            while at + 32 < end {
                errors = _mm256_or_si256(errors, utf8_half(p.add(at), t1, t2, t3));
                at += 32;
            }
            errors = _mm256_or_si256(errors, utf8_half(p.add(end - 32), t1, t2, t3));
            _mm256_testz_si256(errors, errors) == 1
        }
    }

    /// A 16-byte table in both lanes, for `vpshufb`.
    ///
    /// # Safety
    /// AVX2 is enabled in the caller.
    #[inline(always)]
    unsafe fn avx2_table(t: &[u8; 16]) -> __m256i {
        // SAFETY: 16 bytes of `t`; AVX2 per the contract.
        unsafe { _mm256_broadcastsi128_si256(_mm_loadu_si128(t.as_ptr().cast())) }
    }

    /// The errors at the 32 bytes at `p` (nonzero bytes where there are).
    ///
    /// # Safety
    /// `p - 3..p + 32` is readable; AVX2 is enabled in the caller.
    #[inline(always)]
    unsafe fn utf8_half(p: *const u8, t1: __m256i, t2: __m256i, t3: __m256i) -> __m256i {
        // SAFETY: the four loads read `p - 3..p + 32` (the contract);
        // register operations otherwise; AVX2 per the contract.
        unsafe {
            let byte = _mm256_loadu_si256(p.cast());
            let before1 = _mm256_loadu_si256(p.sub(1).cast());
            let before2 = _mm256_loadu_si256(p.sub(2).cast());
            let before3 = _mm256_loadu_si256(p.sub(3).cast());
            let nibble = _mm256_set1_epi8(0x0f);
            let high1 = _mm256_and_si256(_mm256_srli_epi16(before1, 4), nibble);
            let low1 = _mm256_and_si256(before1, nibble);
            let high = _mm256_and_si256(_mm256_srli_epi16(byte, 4), nibble);
            let found = _mm256_and_si256(
                _mm256_and_si256(_mm256_shuffle_epi8(t1, high1), _mm256_shuffle_epi8(t2, low1)),
                _mm256_shuffle_epi8(t3, high),
            );
            // A second or third continuation byte is required where the byte
            // two back is >= 0xE0 or the byte three back >= 0xF0 (saturating
            // subtractions that leave the top bit set exactly then).
            let required = _mm256_or_si256(
                _mm256_subs_epu8(before2, _mm256_set1_epi8(0xe0u8.wrapping_sub(0x80) as i8)),
                _mm256_subs_epu8(before3, _mm256_set1_epi8(0xf0u8.wrapping_sub(0x80) as i8)),
            );
            _mm256_xor_si256(found, _mm256_and_si256(required, _mm256_set1_epi8(TWO_CONTINUATIONS as i8)))
        }
    }

    /// The validator's masks of 32 bytes (in the low half of each field).
    /// (Functions, not closures: closures are not inlined for sure, and out
    /// of line they would not be built for AVX2.)
    ///
    /// # Safety
    /// AVX2 is enabled in the caller.
    #[inline(always)]
    unsafe fn avx2_structure_half(v: __m256i) -> Structure {
        // SAFETY: register operations only; AVX2 per the contract.
        unsafe {
            let table = _mm256_broadcastsi128_si256(_mm_loadu_si128(WS_TABLE.as_ptr().cast()));
            let ws = _mm256_cmpeq_epi8(_mm256_shuffle_epi8(table, v), v);
            let control = _mm256_cmpeq_epi8(_mm256_min_epu8(v, _mm256_set1_epi8(0x1f)), v);
            let quote = _mm256_cmpeq_epi8(v, _mm256_set1_epi8(b'"' as i8));
            let backslash = _mm256_cmpeq_epi8(v, _mm256_set1_epi8(b'\\' as i8));
            // `[` and `]` are `{` and `}` with the 0x20 bit clear, and `:`
            // `,` have it set: the six are the bytes whose 0x20-folded
            // value is the op table's entry at their low nibble.
            let ops = _mm256_broadcastsi128_si256(_mm_loadu_si128(OP_TABLE.as_ptr().cast()));
            let folded = _mm256_or_si256(v, _mm256_set1_epi8(0x20));
            // (Control bytes 0x0c and 0x1a fold onto `,` and `:` too.)
            let op = _mm256_andnot_si256(control, _mm256_cmpeq_epi8(_mm256_shuffle_epi8(ops, v), folded));
            Structure {
                quote: avx2_bits(quote),
                backslash: avx2_bits(backslash),
                op: avx2_bits(op),
                ws: avx2_bits(ws),
                control: avx2_bits(control),
                high: avx2_bits(v),
            }
        }
    }

    /// The top bits of the 32 bytes of `x`.
    ///
    /// # Safety
    /// AVX2 is enabled in the caller.
    #[inline(always)]
    unsafe fn avx2_bits(x: __m256i) -> u64 {
        // SAFETY: a register operation; AVX2 per the contract.
        u64::from(unsafe { _mm256_movemask_epi8(x) } as u32)
    }

    /// The three masks of 32 bytes. (A function, not a closure: closures
    /// are not inlined for sure, and out of line this would not be built
    /// for AVX2.)
    ///
    /// # Safety
    /// AVX2 is enabled in the caller.
    #[inline(always)]
    unsafe fn avx2_half(v: __m256i) -> (u64, u64, u64) {
        // SAFETY: register operations only; AVX2 per the contract.
        unsafe {
            let table = _mm256_broadcastsi128_si256(_mm_loadu_si128(WS_TABLE.as_ptr().cast()));
            // Whitespace: the byte looked up by its low nibble is the byte
            // itself. (`vpshufb` gives 0 for bytes >= 0x80, and the table's
            // other entries have their high bit set, so only the four
            // whitespace bytes match.)
            let ws = _mm256_cmpeq_epi8(_mm256_shuffle_epi8(table, v), v);
            // `v <= 0x1f` unsigned: the minimum of the two is `v`.
            let control = _mm256_cmpeq_epi8(_mm256_min_epu8(v, _mm256_set1_epi8(0x1f)), v);
            let quote = _mm256_cmpeq_epi8(v, _mm256_set1_epi8(b'"' as i8));
            let backslash = _mm256_cmpeq_epi8(v, _mm256_set1_epi8(b'\\' as i8));
            let special = _mm256_or_si256(_mm256_or_si256(quote, backslash), control);
            (
                u64::from(_mm256_movemask_epi8(ws) as u32),
                u64::from(_mm256_movemask_epi8(special) as u32),
                u64::from(_mm256_movemask_epi8(v) as u32),
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `utf8_body` of each implementation on the body `body` placed after
    /// `before` and a quote, with a quote and `after` following: true only
    /// if the body is UTF-8, and true whenever the whole is.
    fn judge_body(before: &[u8], body: &[u8], after: &[u8]) {
        let mut b = before.to_vec();
        b.push(b'"');
        let start = b.len();
        b.extend_from_slice(body);
        let stop = b.len();
        b.push(b'"');
        b.extend_from_slice(after);
        let body_ok = std::str::from_utf8(body).is_ok();
        let all_ok = std::str::from_utf8(&b).is_ok();
        let check = |got: bool, who: &str| {
            assert!(!got || body_ok, "{who} passed a body that is not UTF-8: {body:?} in {b:?}");
            assert!(got || !all_ok, "{who} failed a valid text: {body:?} in {b:?}");
        };
        // SAFETY: the portable classifier needs no feature.
        check(unsafe { Portable::utf8_body(&b, start, stop) }, "portable");
        #[cfg(target_arch = "x86_64")]
        {
            // SAFETY: SSE2 is baseline.
            check(unsafe { Sse2::utf8_body(&b, start, stop) }, "SSE2");
            if std::is_x86_feature_detected!("avx2") {
                // SAFETY: the CPU has AVX2.
                check(unsafe { Avx2::utf8_body(&b, start, stop) }, "AVX2");
            }
            if has_avx512() {
                // SAFETY: the CPU has the AVX-512 level.
                check(unsafe { Avx512::utf8_body(&b, start, stop) }, "AVX-512");
            }
        }
    }

    /// Random bodies of characters of every length, valid or spoilt in one
    /// place (a byte changed to an interesting one, dropped, or the body
    /// cut), 0 to 270 bytes, after 0 to 40 bytes of other text (ASCII or
    /// not): `utf8_body` passes them exactly when they are UTF-8.
    #[test]
    fn utf8_bodies_pass_exactly_when_they_are_utf8() {
        let chars = ['a', 'é', 'ß', '\u{7ff}', '\u{800}', 'ア', '\u{d7ff}', '\u{e000}', '\u{fffd}', '\u{10000}', '😀', '\u{10ffff}'];
        let spoilers = [
            0x80u8, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xe1, 0xed, 0xee, 0xef, 0xf0, 0xf1, 0xf4, 0xf5, 0xff, b'a',
        ];
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let (mut valid, mut invalid) = (0, 0);
        for round in 0..60_000 {
            let mut text = String::new();
            let target = (next() % 270) as usize;
            while text.len() < target {
                // Mostly one kind of character per body, so that long runs of
                // multi-byte characters cross the 32-byte steps at every offset.
                let c = if next() % 4 == 0 { chars[(next() % chars.len() as u64) as usize] } else { chars[round % chars.len()] };
                text.push(c);
            }
            let mut body = text.into_bytes();
            if !body.is_empty() {
                let k = (next() % body.len() as u64) as usize;
                match round % 4 {
                    0 => {}
                    1 => body[k] = spoilers[(next() % spoilers.len() as u64) as usize],
                    2 => drop(body.remove(k)),
                    _ => body.truncate(k),
                }
            }
            if std::str::from_utf8(&body).is_ok() {
                valid += 1;
            } else {
                invalid += 1;
            }
            let before = if round % 2 == 0 { "x".repeat(round % 41) } else { "é".repeat(round % 21) };
            judge_body(before.as_bytes(), &body, b"]");
            judge_body(before.as_bytes(), &body, "ア,".repeat(20).as_bytes());
        }
        assert!(valid > 10_000 && invalid > 20_000, "{valid} valid, {invalid} invalid");
    }

    /// Every pair and triple of interesting bytes at every offset of a body
    /// of 1 to 80 bytes (so across each 32-byte step and at its end): as
    /// the standard library judges them.
    #[test]
    fn utf8_bodies_judge_every_short_sequence_everywhere() {
        let bytes = [
            b'a', 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xe1, 0xec, 0xed, 0xee, 0xef, 0xf0, 0xf1, 0xf3, 0xf4,
            0xf5, 0xf8, 0xff,
        ];
        for &x in &bytes {
            for &y in &bytes {
                for &z in &[b'a', 0x80, 0xbf, 0x90, 0xc3] {
                    for len in [3, 4, 30, 33, 35, 36, 64, 67, 80] {
                        for at in [0, (len - 3) / 2, len - 3] {
                            let mut body = "é".repeat(len).into_bytes();
                            body.truncate(len);
                            if len % 2 == 1 {
                                body[len - 1] = b'a';
                            }
                            body[at..at + 3].copy_from_slice(&[x, y, z]);
                            judge_body(b"[1,", &body, b"]");
                        }
                    }
                }
            }
        }
    }

    /// Blocks of random bytes biased towards the interesting ones, at every
    /// alignment: every implementation gives the byte-by-byte masks.
    #[test]
    fn every_classifier_agrees_with_the_bytes() {
        let interesting =
            [b' ', b'\t', b'\n', b'\r', b'"', b'\\', 0x00, 0x1f, 0x20, 0x7f, 0x80, 0xff, 0x09 | 0x80, 0x0d | 0x80, b'a', b'0'];
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut buf = [0u8; 64 + 63];
        for round in 0..20_000 {
            for c in buf.iter_mut() {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                *c = if round % 3 == 0 { x as u8 } else { interesting[(x >> 20) as usize % interesting.len()] };
            }
            let align = round % 64;
            let block: &[u8; 64] = buf[align..align + 64].try_into().unwrap();
            let want_structure = structure_bytes(block);
            // SAFETY: 64 bytes; the portable classifier needs no feature.
            assert_eq!(unsafe { Portable::structure(block.as_ptr()) }, want_structure);
            #[cfg(target_arch = "x86_64")]
            {
                // SAFETY: 64 readable bytes; SSE2 is baseline.
                assert_eq!(unsafe { Sse2::structure(block.as_ptr()) }, want_structure, "{block:?}");
                if std::is_x86_feature_detected!("avx2") {
                    // SAFETY: as above, and the CPU has AVX2.
                    assert_eq!(unsafe { avx2_structure(block.as_ptr()) }, want_structure, "{block:?}");
                }
                if has_avx512() {
                    // SAFETY: as above, and the CPU has the AVX-512 level.
                    assert_eq!(unsafe { avx512_structure(block.as_ptr()) }, want_structure, "{block:?}");
                }
            }
            let name: &[u8; 16] = block[..16].try_into().unwrap();
            let want_quotes = quotes16_bytes(name);
            assert_eq!(Portable::quotes16(name), want_quotes);
            #[cfg(target_arch = "x86_64")]
            {
                assert_eq!(Sse2::quotes16(name), want_quotes, "{name:?}");
                assert_eq!(Avx2::quotes16(name), want_quotes, "{name:?}");
                assert_eq!(Avx512::quotes16(name), want_quotes, "{name:?}");
            }
            let want = classify_bytes(block);
            // SAFETY: 64 bytes; the portable classifier needs no feature.
            assert_eq!(unsafe { Portable::block(block.as_ptr()) }, want);
            #[cfg(target_arch = "x86_64")]
            {
                // SAFETY: 64 readable bytes; SSE2 is baseline.
                assert_eq!(unsafe { Sse2::block(block.as_ptr()) }, want, "{block:?}");
                if std::is_x86_feature_detected!("avx2") {
                    // SAFETY: as above, and the CPU has AVX2.
                    assert_eq!(unsafe { avx2_block(block.as_ptr()) }, want, "{block:?}");
                }
                if has_avx512() {
                    // SAFETY: as above, and the CPU has the AVX-512 level.
                    assert_eq!(unsafe { avx512_block(block.as_ptr()) }, want, "{block:?}");
                }
            }
        }
        // Every byte value at every lane.
        for c in 0..=255u8 {
            for lane in 0..64 {
                let mut block = [b'a'; 64];
                block[lane] = c;
                let want = classify_bytes(&block);
                #[cfg(target_arch = "x86_64")]
                {
                    // SAFETY: as above.
                    assert_eq!(unsafe { Sse2::block(block.as_ptr()) }, want);
                    if std::is_x86_feature_detected!("avx2") {
                        // SAFETY: as above.
                        assert_eq!(unsafe { avx2_block(block.as_ptr()) }, want, "byte {c:#x} at {lane}");
                    }
                    if has_avx512() {
                        // SAFETY: as above.
                        assert_eq!(unsafe { avx512_block(block.as_ptr()) }, want, "byte {c:#x} at {lane}");
                    }
                }
                let want_structure = structure_bytes(&block);
                #[cfg(target_arch = "x86_64")]
                {
                    // SAFETY: as above.
                    assert_eq!(unsafe { Sse2::structure(block.as_ptr()) }, want_structure);
                    if std::is_x86_feature_detected!("avx2") {
                        // SAFETY: as above.
                        assert_eq!(unsafe { avx2_structure(block.as_ptr()) }, want_structure, "byte {c:#x} at {lane}");
                    }
                    if has_avx512() {
                        // SAFETY: as above.
                        assert_eq!(unsafe { avx512_structure(block.as_ptr()) }, want_structure, "byte {c:#x} at {lane}");
                    }
                }
                let bit = |m: u64| m >> lane & 1 == 1;
                if lane < 16 {
                    let name: &[u8; 16] = block[..16].try_into().unwrap();
                    let (quotes, backslashes) = quotes16_bytes(name);
                    assert_eq!((bit(quotes.into()), bit(backslashes.into())), (c == b'"', c == b'\\'));
                    assert_eq!(quotes >> 16 | backslashes >> 16, 0);
                    #[cfg(target_arch = "x86_64")]
                    assert_eq!(Sse2::quotes16(name), (quotes, backslashes), "byte {c:#x} at {lane}");
                    #[cfg(target_arch = "x86_64")]
                    assert_eq!(Avx2::quotes16(name), (quotes, backslashes), "byte {c:#x} at {lane}");
                    #[cfg(target_arch = "x86_64")]
                    assert_eq!(Avx512::quotes16(name), (quotes, backslashes), "byte {c:#x} at {lane}");
                }
                assert_eq!(bit(want_structure.quote), c == b'"');
                assert_eq!(bit(want_structure.backslash), c == b'\\');
                assert_eq!(bit(want_structure.op), b"{}[]:,".contains(&c));
                assert_eq!(bit(want_structure.ws), matches!(c, b' ' | b'\t' | b'\n' | b'\r'));
                assert_eq!(bit(want_structure.control), c < 0x20);
                assert_eq!(bit(want_structure.high), c >= 0x80);
                assert_eq!(want.ws >> lane & 1 == 1, matches!(c, b' ' | b'\t' | b'\n' | b'\r'));
                assert_eq!(want.special >> lane & 1 == 1, c == b'"' || c == b'\\' || c < 0x20);
                assert_eq!(want.high >> lane & 1 == 1, c >= 0x80);
            }
        }
    }

    /// The prefix xor of every implementation is the parity of the bits
    /// up to each, bit by bit.
    #[test]
    fn every_prefix_xor_is_the_running_parity() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for round in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // Sparse words too, as quotes are.
            let q = if round % 2 == 0 { x } else { x & x >> 7 & x >> 19 };
            let mut want = 0u64;
            let mut parity = 0u64;
            for k in 0..64 {
                parity ^= q >> k & 1;
                want |= parity << k;
            }
            assert_eq!(prefix_xor_shifts(q), want);
            // SAFETY: the portable classifier needs no feature.
            assert_eq!(unsafe { Portable::prefix_xor(q) }, want);
            #[cfg(target_arch = "x86_64")]
            if std::is_x86_feature_detected!("pclmulqdq") {
                // SAFETY: the CPU has PCLMULQDQ.
                assert_eq!(unsafe { clmul_prefix_xor(q) }, want, "{q:#x}");
            }
            #[cfg(target_arch = "x86_64")]
            if has_avx512() {
                // SAFETY: the CPU has the AVX-512 level.
                assert_eq!(unsafe { avx512_prefix_xor(q) }, want, "{q:#x}");
            }
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "pclmulqdq")]
    unsafe fn clmul_prefix_xor(x: u64) -> u64 {
        // SAFETY: passed on; PCLMULQDQ enabled here.
        unsafe { Avx2::prefix_xor(x) }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn avx2_structure(p: *const u8) -> Structure {
        // SAFETY: passed on; AVX2 enabled here.
        unsafe { Avx2::structure(p) }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn avx2_block(p: *const u8) -> Masks {
        // SAFETY: passed on; AVX2 enabled here.
        unsafe { Avx2::block(p) }
    }

    /// Whether this CPU runs the AVX-512 classifier (whatever
    /// `JETJSON_LEVEL` says).
    #[cfg(target_arch = "x86_64")]
    fn has_avx512() -> bool {
        crate::parse::drive::cpu_level() == crate::parse::drive::Level::Avx512
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,pclmulqdq")]
    unsafe fn avx512_prefix_xor(x: u64) -> u64 {
        // SAFETY: passed on; the features enabled here.
        unsafe { Avx512::prefix_xor(x) }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw,avx512vl")]
    unsafe fn avx512_structure(p: *const u8) -> Structure {
        // SAFETY: passed on; the features enabled here.
        unsafe { Avx512::structure(p) }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw,avx512vl")]
    unsafe fn avx512_block(p: *const u8) -> Masks {
        // SAFETY: passed on; the features enabled here.
        unsafe { Avx512::block(p) }
    }

    /// The last block's masks, classified chunk by chunk, are those of the
    /// whole zero-padded block: every length, every kind of byte, at the
    /// start of the input and after a full block.
    #[test]
    fn tail_masks_are_the_padded_blocks() {
        let kinds = b" \t\n\r\"\\\x00\x1f\x7f\x80\xffa{}[],:0";
        for len in 0..64 {
            for shift in 0..kinds.len() {
                let tail: Vec<u8> = (0..len).map(|k| kinds[(k * 7 + shift) % kinds.len()]).collect();
                let mut block = [0u8; 64];
                block[..len].copy_from_slice(&tail);
                let want = classify_bytes(&block);
                let mut long = vec![b'x'; 64];
                long.extend_from_slice(&tail);
                for (b, base) in [(&tail, 0), (&long, 64)] {
                    let m = tail_masks(b, base);
                    assert_eq!((m.ws, m.special, m.high), (want.ws, want.special, want.high), "len {len} shift {shift} base {base}");
                }
            }
        }
    }

    #[test]
    fn the_last_block_stops_every_scan_at_the_end() {
        for len in 0..64 {
            let b: Vec<u8> = (0..len).map(|k| if k % 5 == 0 { b' ' } else { b'x' }).collect();
            let m = tail_masks(&b, 0);
            for k in 0..64 {
                let inside = k < len;
                assert_eq!(m.ws >> k & 1 == 1, b.get(k) == Some(&b' '), "len {len} lane {k}");
                assert_eq!(m.special >> k & 1 == 1, !inside, "len {len} lane {k}");
            }
        }
    }

    /// Random bytes (biased towards lead and continuation bytes and valid
    /// characters), random text spans with ASCII before and after, each
    /// buffer placed flush against the end of a readable page followed by
    /// an inaccessible one: the AVX2 check says yes only for UTF-8 text,
    /// and yes whenever the whole buffer is UTF-8; no read leaves the buffer.
    #[cfg(all(target_arch = "x86_64", target_os = "linux"))]
    #[test]
    fn avx2_utf8_body_random_spans_against_a_guard_page() {
        if !std::is_x86_feature_detected!("avx2") {
            return;
        }
        let mut guard = super::super::guard::Guarded::new();
        let pool: &[&[u8]] = &[
            b"a",
            b"\"",
            b"\\",
            "é".as_bytes(),
            "ア".as_bytes(),
            "😀".as_bytes(),
            "\u{10ffff}".as_bytes(),
            "\u{d7ff}".as_bytes(),
            "\u{e000}".as_bytes(),
            "\u{800}".as_bytes(),
            &[0x80],
            &[0xbf],
            &[0xc0],
            &[0xc1],
            &[0xc2],
            &[0xdf],
            &[0xe0],
            &[0xed],
            &[0xef],
            &[0xf0],
            &[0xf4],
            &[0xf5],
            &[0xff],
            &[0x90],
            &[0xa0],
            &[0xe0, 0x9f, 0xbf],
            &[0xe0, 0x80, 0x80],
            &[0xed, 0xa0, 0x80],
            &[0xed, 0xbf, 0xbf],
            &[0xf4, 0x90, 0x80, 0x80],
            &[0xf0, 0x8f, 0xbf, 0xbf],
            &[0xc0, 0x80],
            &[0xc1, 0xbf],
            &[0xf5, 0x80, 0x80, 0x80],
            &[0xf8, 0x88, 0x80, 0x80],
            &[0xe1, 0x80],
            &[0xf1, 0x80, 0x80],
            &[0x80, 0x80],
            &[0xc2, 0x80, 0x80],
            &[0xe1, 0x80, 0x80, 0x80],
            &[0xf1, 0x80, 0x80, 0x80, 0x80],
        ];
        let mut x = 0x1234_5678_9abc_def1u64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let rounds: usize = std::env::var("HOSTILE_ROUNDS").ok().and_then(|s| s.parse().ok()).unwrap_or(20_000);
        for round in 0..rounds {
            let len = 2 + (next() % 200) as usize;
            let mut v = Vec::with_capacity(len + 4);
            // Mostly valid characters, a few bad bytes.
            let bad_rate = 1 + round % 40;
            while v.len() < len {
                let k = (next() % pool.len() as u64) as usize;
                if k >= 10 && next() % bad_rate as u64 != 0 {
                    v.extend_from_slice(pool[(next() % 10) as usize]);
                } else {
                    v.extend_from_slice(pool[k]);
                }
            }
            v.truncate(len);
            let start = 1 + (next() % (len as u64 - 1)) as usize;
            let stop = start + (next() % ((len - start) as u64)) as usize;
            v[start - 1] = b'"';
            v[stop] = if round % 2 == 0 { b'"' } else { b'\\' };
            // Flush against the guard page, or at the page's start.
            let at_start = round % 3 == 0;
            let b = if at_start { guard.at_start(&v) } else { guard.at_end(&v) };
            // SAFETY: AVX2 checked above.
            let got = unsafe { Avx2::utf8_body(b, start, stop) };
            let text_ok = std::str::from_utf8(&b[start..stop]).is_ok();
            let all_ok = std::str::from_utf8(b).is_ok();
            assert!(!got || text_ok, "passed invalid text {:x?} ({start}..{stop} of {:x?})", &b[start..stop], b);
            assert!(got || !all_ok, "failed valid text {:x?} ({start}..{stop} of {:x?})", &b[start..stop], b);
        }
    }
}
