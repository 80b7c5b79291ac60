//! Finding the end of a string body: the first `"`, `\` or control byte,
//! and whether any byte before it is non-ASCII (only then is the body's
//! UTF-8 checked).
//!
//! The scan is written once over the crate's `Vector` trait (the one the
//! escaper uses) and instantiated per ISA; the CPU is probed once and the
//! chosen function cached, as in `escape/mod.rs`.

use std::sync::atomic::{AtomicPtr, Ordering};

use crate::escape::swar::Swar;
use crate::escape::vector::{MoveMask, Vector};

/// Where the scan stopped (index of the first special byte, or the length),
/// and whether a byte `>= 0x80` came before that point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Stop {
    pub at: usize,
    pub non_ascii: bool,
}

type ScanFn = unsafe fn(&[u8], usize) -> Stop;

/// Scans `b` from `from` for the end of a string body.
#[inline]
pub(crate) fn string_stop(b: &[u8], from: usize) -> Stop {
    static BEST: AtomicPtr<()> = AtomicPtr::new(std::ptr::null_mut());
    let mut f = BEST.load(Ordering::Relaxed);
    if f.is_null() {
        f = best() as *mut ();
        BEST.store(f, Ordering::Relaxed);
    }
    // SAFETY: only `best()` results are stored, and `best` returns a
    // function whose ISA this CPU supports; a data pointer and a function
    // pointer have the same size on every supported target.
    unsafe {
        let f: ScanFn = std::mem::transmute::<*mut (), ScanFn>(f);
        f(b, from)
    }
}

fn best() -> ScanFn {
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("avx2") {
            return x86::scan_avx2;
        }
        x86::scan_sse2
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        scan_portable
    }
}

/// Whole vectors from `i` while one fits; returns the stop if found.
///
/// # Safety
/// The CPU supports `V`.
#[inline(always)]
unsafe fn vectors<V: Vector>(b: &[u8], mut i: usize, non_ascii: &mut bool) -> Result<Stop, usize> {
    let p = b.as_ptr();
    // SAFETY (whole block): every load covers `i..i + BYTES <= b.len()`.
    unsafe {
        let (quote, backslash) = (V::splat(b'"'), V::splat(b'\\'));
        while i + V::BYTES <= b.len() {
            let v = V::load_unaligned(p.add(i));
            let special = v.cmpeq(quote).or(v.cmpeq(backslash)).or(v.lt(0x20)).movemask();
            if special.has_any() {
                let k = special.first_offset();
                // Non-ASCII bytes before the stop, in this vector included
                // (lanes below it, from the same register).
                *non_ascii |= v.high_bit().movemask().below(k).has_any();
                return Ok(Stop { at: i + k, non_ascii: *non_ascii });
            }
            *non_ascii |= v.high_bit().movemask().has_any();
            i += V::BYTES;
        }
    }
    Err(i)
}

/// The last bytes, in one register filled without reading past the end.
#[inline(always)]
fn tail(b: &[u8], mut i: usize, mut non_ascii: bool) -> Stop {
    while i < b.len() {
        let n = (b.len() - i).min(Swar::BYTES);
        // SAFETY: `load_partial` reads exactly `b[i..i + n]` (1 <= n <= 8)
        // and pads the other lanes with spaces, which are not special.
        let v = unsafe { Swar::load_partial(b.as_ptr().add(i), n) };
        // SAFETY: SWAR needs no CPU feature.
        match unsafe { vectors_one(v) } {
            Some(k) if k < n => {
                non_ascii |= b[i..i + k].iter().any(|&c| c >= 0x80);
                return Stop { at: i + k, non_ascii };
            }
            _ => non_ascii |= b[i..i + n].iter().any(|&c| c >= 0x80),
        }
        i += n;
    }
    Stop { at: b.len(), non_ascii }
}

/// # Safety
/// None beyond `Vector`'s (SWAR runs everywhere).
#[inline(always)]
unsafe fn vectors_one(v: Swar) -> Option<usize> {
    // SAFETY: SWAR operations are plain integer arithmetic.
    unsafe {
        let special = v.cmpeq(Swar::splat(b'"')).or(v.cmpeq(Swar::splat(b'\\'))).or(v.lt(0x20)).movemask();
        special.has_any().then(|| special.first_offset())
    }
}

/// # Safety
/// None: SWAR runs on every CPU (`unsafe` only to share `ScanFn`'s type).
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
unsafe fn scan_portable(b: &[u8], from: usize) -> Stop {
    let mut non_ascii = false;
    // SAFETY: SWAR needs no CPU feature.
    match unsafe { vectors::<Swar>(b, from, &mut non_ascii) } {
        Ok(stop) => stop,
        Err(i) => tail(b, i, non_ascii),
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::{tail, vectors, Stop};
    use crate::escape::swar::Swar;
    use core::arch::x86_64::{__m128i, __m256i};

    /// # Safety
    /// The CPU supports AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn scan_avx2(b: &[u8], from: usize) -> Stop {
        let mut non_ascii = false;
        // SAFETY: AVX2 per this function's contract; SSE2 is baseline.
        unsafe {
            let i = match vectors::<__m256i>(b, from, &mut non_ascii) {
                Ok(stop) => return stop,
                Err(i) => i,
            };
            let i = match vectors::<__m128i>(b, i, &mut non_ascii) {
                Ok(stop) => return stop,
                Err(i) => i,
            };
            match vectors::<Swar>(b, i, &mut non_ascii) {
                Ok(stop) => stop,
                Err(i) => tail(b, i, non_ascii),
            }
        }
    }

    /// # Safety
    /// None: SSE2 is part of the x86_64 baseline.
    pub(super) unsafe fn scan_sse2(b: &[u8], from: usize) -> Stop {
        let mut non_ascii = false;
        // SAFETY: SSE2 is baseline on x86_64.
        unsafe {
            let i = match vectors::<__m128i>(b, from, &mut non_ascii) {
                Ok(stop) => return stop,
                Err(i) => i,
            };
            match vectors::<Swar>(b, i, &mut non_ascii) {
                Ok(stop) => stop,
                Err(i) => tail(b, i, non_ascii),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reference(b: &[u8], from: usize) -> Stop {
        let at = b[from..].iter().position(|&c| c == b'"' || c == b'\\' || c < 0x20).map_or(b.len(), |k| from + k);
        Stop { at, non_ascii: b[from..at].iter().any(|&c| c >= 0x80) }
    }

    #[test]
    fn every_implementation_agrees_with_the_reference_at_every_length_and_offset() {
        let mut x = 0x1234_5678_9abc_def0u64;
        let alphabet = [b'a', b'"', b'\\', 0x1f, 0x00, 0x7f, 0x80, 0xc3, 0xa9, b' ', b'z'];
        let mut buf = vec![0u8; 300];
        let mut impls: Vec<ScanFn> = vec![scan_portable];
        #[cfg(target_arch = "x86_64")]
        {
            impls.push(x86::scan_sse2);
            if std::is_x86_feature_detected!("avx2") {
                impls.push(x86::scan_avx2);
            }
        }
        for round in 0..4000 {
            let len = round % 200;
            for byte in buf.iter_mut().take(len) {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                // Mostly plain letters, so stops land at every position.
                *byte = if x.is_multiple_of(16) { alphabet[(x >> 8) as usize % alphabet.len()] } else { b'a' + (x >> 20) as u8 % 26 };
            }
            let b = &buf[..len];
            for from in [0, 1, 7, 31].into_iter().filter(|&f| f <= len) {
                let want = reference(b, from);
                for f in &impls {
                    // SAFETY: only implementations this CPU supports are listed.
                    assert_eq!(unsafe { f(b, from) }, want, "{b:?} from {from}");
                }
                assert_eq!(string_stop(b, from), want);
            }
        }
    }
}
