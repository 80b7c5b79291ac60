//! The handful of lane-wise operations the escape scan needs, so the
//! algorithm in `generic.rs` is written once and instantiated per ISA.
//!
//! This mirrors `memchr`'s `Vector` trait: every method is
//! `#[inline(always)] unsafe fn` and carries no `#[target_feature]` of its
//! own. The methods are only sound to call from code that runs with the
//! implementing type's ISA enabled (the per-ISA entry points carry the
//! `#[target_feature]` attribute); once inlined there, LLVM lowers them to
//! single instructions.

/// A register of `BYTES` lanes of `u8`.
///
/// "Mask vectors" (results of `cmpeq`, `lt`, `high_bit`) are only meaningful
/// to `and`, `or` and `movemask`; an implementation may represent a true lane
/// however it likes (all-ones for SSE/NEON, just the top bit for SWAR).
pub(crate) trait Vector: Copy {
    /// Lanes per register.
    const BYTES: usize;
    /// What `movemask` produces.
    type Mask: MoveMask;

    /// Every lane set to `byte`.
    unsafe fn splat(byte: u8) -> Self;
    /// Reads `BYTES` bytes from `ptr`; `ptr..ptr + BYTES` must be readable.
    unsafe fn load_unaligned(ptr: *const u8) -> Self;
    /// Writes `BYTES` bytes to `ptr`; `ptr..ptr + BYTES` must be writable.
    unsafe fn store_unaligned(self, ptr: *mut u8);
    /// Lanes where `self == other`.
    unsafe fn cmpeq(self, other: Self) -> Self;
    /// Lanes where `self < bound`, unsigned. `bound` is at most `0x80` (the
    /// SWAR implementation relies on that to avoid carries between lanes).
    unsafe fn lt(self, bound: u8) -> Self;
    /// Lanes `>= 0x80`, i.e. bytes that belong to a non-ASCII character.
    unsafe fn high_bit(self) -> Self;
    /// Lane-wise OR (of data or of masks).
    unsafe fn or(self, other: Self) -> Self;
    /// Lane-wise AND of masks.
    unsafe fn and(self, other: Self) -> Self;
    /// Collapses a mask vector into a scalar bit mask.
    unsafe fn movemask(self) -> Self::Mask;

    /// Whether `cmpeq` is a single instruction (true for real vector
    /// units; SWAR's takes five), so that flagging exactly the bytes of one
    /// value is as cheap as flagging a superset by a bit test.
    const CHEAP_COMPARE: bool = true;

    /// Whether the three lookup operations below are implemented (a byte
    /// shuffle: AVX2's `vpshufb`). The generic code tests this constant, so
    /// ISAs without one never reach the defaults.
    const HAS_LOOKUP: bool = false;
    /// Each lane replaced by `table[lane]`; lanes must be below 16.
    unsafe fn lookup16(self, _table: &[u8; 16]) -> Self {
        unreachable!("lookup16 on an ISA without HAS_LOOKUP")
    }
    /// Each lane's high nibble (`lane >> 4`).
    unsafe fn high_nibble(self) -> Self {
        unreachable!("high_nibble on an ISA without HAS_LOOKUP")
    }
    /// Each lane's low nibble (`lane & 15`).
    unsafe fn low_nibble(self) -> Self {
        unreachable!("low_nibble on an ISA without HAS_LOOKUP")
    }
    /// A mask vector of the non-zero lanes.
    unsafe fn nonzero(self) -> Self {
        unreachable!("nonzero on an ISA without HAS_LOOKUP")
    }

    /// Lane-wise wrapping addition. With `gt_signed`, only for the
    /// writer's short-string check (`writer::dirty`), on the x86 vectors,
    /// which implement both; other ISAs never reach the defaults.
    unsafe fn add(self, _other: Self) -> Self {
        unreachable!("add on an ISA without it")
    }
    /// A mask vector of the lanes where `self > other` as signed bytes.
    unsafe fn gt_signed(self, _other: Self) -> Self {
        unreachable!("gt_signed on an ISA without it")
    }
}

/// A scalar summary of a mask vector.
pub(crate) trait MoveMask: Copy {
    /// Whether any lane is set.
    fn has_any(self) -> bool;
    /// Index of the lowest set lane; only meaningful when `has_any()`.
    fn first_offset(self) -> usize;
    /// The mask with its lowest `lanes` lanes dropped (lane `lanes` becomes
    /// lane 0); `lanes` is below the register's lane count.
    fn skip(self, lanes: usize) -> Self;
    /// The mask with only its lowest `lanes` lanes kept; `lanes` is below
    /// the register's lane count.
    fn below(self, lanes: usize) -> Self;
    /// The mask with its lowest `lanes` lanes cleared (the others stay
    /// where they are); `lanes` is below the register's lane count.
    fn clear_below(self, lanes: usize) -> Self;
    /// The lanes set in either mask.
    fn union(self, other: Self) -> Self;
    /// The lanes set in this mask and not in `other`.
    fn without(self, other: Self) -> Self;
    /// The mask with only the set lanes for which `keep(lane)` holds.
    fn keep_lanes(self, keep: impl FnMut(usize) -> bool) -> Self;
    /// Whether two masks of `lanes` lanes each fit in one (`join`).
    fn joins(lanes: usize) -> bool;
    /// This mask's `lanes` lanes followed by those of `upper` (its lane 0
    /// becomes lane `lanes`), as one mask of `2 * lanes` lanes; only when
    /// `joins(lanes)`.
    fn join(self, upper: Self, lanes: usize) -> Self;
}

/// A bit mask with `1 << SHIFT` bits per lane, lane 0 in the least
/// significant bits: `SHIFT = 0` for x86 `movemask`, 2 for NEON's
/// narrowing-shift trick, 3 for SWAR's one-byte-per-lane masks.
#[derive(Clone, Copy)]
pub(crate) struct LaneMask<const SHIFT: u32>(pub(crate) u64);

impl<const SHIFT: u32> MoveMask for LaneMask<SHIFT> {
    #[inline(always)]
    fn has_any(self) -> bool {
        self.0 != 0
    }

    #[inline(always)]
    fn first_offset(self) -> usize {
        (self.0.trailing_zeros() >> SHIFT) as usize
    }

    #[inline(always)]
    fn skip(self, lanes: usize) -> Self {
        LaneMask(self.0 >> ((lanes as u32) << SHIFT))
    }

    #[inline(always)]
    fn below(self, lanes: usize) -> Self {
        // Fewer lanes than the register has: fewer than 64 bits.
        LaneMask(self.0 & ((1u64 << ((lanes as u32) << SHIFT)) - 1))
    }

    #[inline(always)]
    fn clear_below(self, lanes: usize) -> Self {
        // Fewer lanes than the register has: fewer than 64 bits.
        LaneMask(self.0 & !((1u64 << ((lanes as u32) << SHIFT)) - 1))
    }

    #[inline(always)]
    fn union(self, other: Self) -> Self {
        LaneMask(self.0 | other.0)
    }

    #[inline(always)]
    fn without(self, other: Self) -> Self {
        LaneMask(self.0 & !other.0)
    }

    #[inline(always)]
    fn joins(lanes: usize) -> bool {
        (2 * lanes) << SHIFT <= 64
    }

    #[inline(always)]
    fn join(self, upper: Self, lanes: usize) -> Self {
        debug_assert!(Self::joins(lanes) && (lanes << SHIFT) < 64 && self.0 >> (lanes << SHIFT) == 0);
        LaneMask(self.0 | upper.0 << ((lanes as u32) << SHIFT))
    }

    #[inline]
    fn keep_lanes(self, mut keep: impl FnMut(usize) -> bool) -> Self {
        // A lane's bits, at lane 0 (a whole lane, whichever of its bits the
        // ISA sets).
        let lane_bits = (1u64 << (1u32 << SHIFT)) - 1;
        let (mut rest, mut kept) = (self.0, 0);
        while rest != 0 {
            let lane = (rest.trailing_zeros() >> SHIFT) as usize;
            let bits = lane_bits << ((lane as u32) << SHIFT);
            if keep(lane) {
                kept |= rest & bits;
            }
            rest &= !bits;
        }
        LaneMask(kept)
    }
}
