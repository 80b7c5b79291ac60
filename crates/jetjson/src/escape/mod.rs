//! String escaping: the hot loop of every writer.
//!
//! CONTRACT (used by `writer.rs`; keep these signatures):
//!
//! * `EscapeSet` is data: which bytes a profile escapes beyond the base set
//!   (`0x00..=0x1F`, `"`, `\`), which every profile escapes.
//! * `Escaper::new(set)` probes the CPU once (cached process-wide) and picks
//!   the best implementation for that set; the writer calls it once per call
//!   and then `escaper.escape(dst, s)` per string.
//! * `escape` appends the escaped *contents* of `s` (no surrounding quotes).
//! * `escape_bytes_replacing_invalid` is Go's rule for byte strings that may
//!   hold invalid UTF-8: every byte `utf8.DecodeRune` rejects becomes `\ufffd`.
//!
//! Layout (after `memchr`): the scan is written once in `generic.rs` over the
//! `Vector` trait of `vector.rs` and const-generic over the three flags, so
//! each (ISA, set) pair is its own monomorphised kernel with no per-byte flag
//! tests. The ISA modules only implement `Vector` and wrap the generic code
//! in entry points compiled for their target feature; this file picks one.

use core::fmt;
use core::sync::atomic::{AtomicPtr, Ordering};

mod generic;
mod replace_invalid;
mod scalar;
pub(crate) mod swar;
pub(crate) mod vector;

#[cfg(target_arch = "x86_64")]
mod x86_64;

#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
mod aarch64;

#[cfg(test)]
mod tests;

#[cfg(target_arch = "x86_64")]
pub(crate) use self::generic::HTML_SHORT_CHECK;
pub use self::replace_invalid::escape_bytes_replacing_invalid;

/// The room `Escaper::escape_raw` needs for an input of `len` bytes: six
/// output bytes per input byte at worst (`\u00XX`), plus slack for the
/// kernels' speculative whole-register stores.
#[inline]
pub const fn escape_room(len: usize) -> usize {
    generic::MAX_EXPANSION * len + generic::SLACK
}

/// Input longer than this is escaped into a `Vec` piece by piece.
const PIECE: usize = 4096;

/// Which characters a profile escapes on top of the base set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct EscapeSet {
    /// `<`, `>`, `&` as `\u003c`, `\u003e`, `\u0026` (Go's HTML-safe set).
    pub html: bool,
    /// U+2028 and U+2029 as `\u2028`, `\u2029` (Go always does this).
    pub line_separators: bool,
    /// Every non-ASCII character as `\uXXXX` (lowercase hex, surrogate pairs above the BMP).
    pub ascii_only: bool,
}

impl EscapeSet {
    /// Position of this set in every ISA's kernel table (see `kernel_table!`).
    #[inline]
    fn index(self) -> usize {
        self.html as usize | (self.line_separators as usize) << 1 | (self.ascii_only as usize) << 2
    }
}

/// One monomorphised implementation: an ISA specialised for one set.
struct Kernel {
    set: EscapeSet,
    isa: &'static str,
    /// Unsafe because it may use instructions the CPU lacks (only reachable
    /// through an `Escaper` constructor that checked the ISA) and writes
    /// through a raw pointer (the caller gives `escape_room` bytes).
    escape: unsafe fn(*mut u8, &str) -> usize,
    needs_escape: unsafe fn(&str) -> bool,
}

/// The eight sets of one ISA, indexed by `EscapeSet::index`.
type KernelTable = [Kernel; 8];

/// Builds an ISA's `KernelTable` from its two const-generic entry points,
/// in `EscapeSet::index` order. `Kernel` and `EscapeSet` resolve at the call
/// site, which imports them.
macro_rules! kernel_table {
    ($isa:literal, $escape:ident, $needs:ident) => {
        [
            kernel_table!(@one $isa, $escape, $needs, false, false, false),
            kernel_table!(@one $isa, $escape, $needs, true, false, false),
            kernel_table!(@one $isa, $escape, $needs, false, true, false),
            kernel_table!(@one $isa, $escape, $needs, true, true, false),
            kernel_table!(@one $isa, $escape, $needs, false, false, true),
            kernel_table!(@one $isa, $escape, $needs, true, false, true),
            kernel_table!(@one $isa, $escape, $needs, false, true, true),
            kernel_table!(@one $isa, $escape, $needs, true, true, true),
        ]
    };
    (@one $isa:literal, $escape:ident, $needs:ident, $h:literal, $l:literal, $a:literal) => {
        Kernel {
            set: EscapeSet { html: $h, line_separators: $l, ascii_only: $a },
            isa: $isa,
            escape: $escape::<$h, $l, $a>,
            needs_escape: $needs::<$h, $l, $a>,
        }
    };
}
use kernel_table;

/// A string escaper resolved for one `EscapeSet` on this CPU.
///
/// It is a single pointer to a static kernel, so copying it around and
/// calling it per string costs one indirect call.
#[derive(Clone, Copy)]
pub struct Escaper {
    kernel: &'static Kernel,
}

impl Escaper {
    /// The fastest implementation this CPU supports, specialised for `set`.
    pub fn new(set: EscapeSet) -> Escaper {
        Escaper { kernel: &best_table()[set.index()] }
    }

    /// The portable SWAR implementation, whatever the CPU (for differential
    /// tests and fuzzing).
    pub fn portable(set: EscapeSet) -> Escaper {
        Escaper { kernel: &swar::KERNELS[set.index()] }
    }

    /// The byte-at-a-time reference implementation (the tests' oracle).
    pub fn scalar(set: EscapeSet) -> Escaper {
        Escaper { kernel: &scalar::KERNELS[set.index()] }
    }

    /// Every implementation this CPU can run, best first, ending with the
    /// SWAR and scalar ones. For differential tests and fuzz targets.
    #[doc(hidden)]
    pub fn all_available(set: EscapeSet) -> Vec<Escaper> {
        available_tables().into_iter().map(|table| Escaper { kernel: &table[set.index()] }).collect()
    }

    /// The set this escaper was built for.
    pub fn set(&self) -> EscapeSet {
        self.kernel.set
    }

    /// Appends the escaped contents of `s` (no quotes) to `dst`.
    ///
    /// Long strings go in pieces, cut at character boundaries, so the room
    /// reserved at once stays bounded (not six times a huge string).
    #[inline]
    pub fn escape(&self, dst: &mut Vec<u8>, mut s: &str) {
        loop {
            let mut end = s.len().min(PIECE);
            while !s.is_char_boundary(end) {
                end -= 1;
            }
            let (piece, rest) = s.split_at(end);
            dst.reserve(escape_room(piece.len()));
            // SAFETY: the room for `piece` was just reserved after `dst.len()`,
            // and the kernel initialised the `n` bytes it reports.
            unsafe {
                let n = self.escape_raw(dst.as_mut_ptr().add(dst.len()), piece);
                dst.set_len(dst.len() + n);
            }
            if rest.is_empty() {
                return;
            }
            s = rest;
        }
    }

    /// Writes the escaped contents of `s` (no quotes) at `out`; returns how
    /// many bytes it wrote. For writers whose output is not a `Vec`.
    ///
    /// # Safety
    /// `out` must be valid for `escape_room(s.len())` bytes of writes (the
    /// bytes past those reported may be overwritten with garbage).
    #[inline]
    pub unsafe fn escape_raw(&self, out: *mut u8, s: &str) -> usize {
        // SAFETY: an `Escaper` only ever points at a kernel whose ISA the
        // running CPU supports (see the constructors); the caller gives the
        // room every kernel needs.
        unsafe { (self.kernel.escape)(out, s) }
    }

    /// Whether `escape` would write anything other than the bytes of `s`.
    #[inline]
    pub fn needs_escape(&self, s: &str) -> bool {
        // SAFETY: as in `escape`.
        unsafe { (self.kernel.needs_escape)(s) }
    }

    /// `"avx2"`, `"sse2"`, `"neon"`, `"swar"` or `"scalar"`.
    pub fn isa_name(&self) -> &'static str {
        self.kernel.isa
    }
}

impl fmt::Debug for Escaper {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Escaper").field("isa", &self.kernel.isa).field("set", &self.kernel.set).finish()
    }
}

/// The best table for this CPU. Detection runs once per process (twice at
/// worst, if threads race, which is harmless) and is cached as a pointer,
/// like `memchr`'s self-replacing function pointers.
fn best_table() -> &'static KernelTable {
    static BEST: AtomicPtr<KernelTable> = AtomicPtr::new(core::ptr::null_mut());
    let cached = BEST.load(Ordering::Relaxed);
    if !cached.is_null() {
        // SAFETY: the only non-null values ever stored come from the
        // `&'static KernelTable` below, and statics are never freed. Relaxed
        // suffices: the pointee is immutable static data.
        return unsafe { &*cached };
    }
    let best = available_tables()[0];
    BEST.store(best as *const KernelTable as *mut KernelTable, Ordering::Relaxed);
    best
}

/// The tables the running CPU can execute, best first.
fn available_tables() -> Vec<&'static KernelTable> {
    let mut tables: Vec<&'static KernelTable> = Vec::with_capacity(5);
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("avx2") {
            tables.push(&x86_64::avx2::KERNELS);
        }
        // SSE2 is part of the x86_64 baseline.
        tables.push(&x86_64::sse2::KERNELS);
    }
    #[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
    tables.push(&aarch64::KERNELS);
    tables.push(&swar::KERNELS);
    tables.push(&scalar::KERNELS);
    tables
}
