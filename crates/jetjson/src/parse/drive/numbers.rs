//! Runs of numbers in arrays (coordinates, vertex data, rows of a matrix)
//! in the push driver, out of line.
//!
//! The loop is one function of its own, not inlined into the driver: inside
//! the driver's function its machine code depended on the rest of that
//! function (the classifier's code around it), and the AVX2 build of the
//! driver ran canada.json 13-15% slower than the AVX-512 build, whose loop
//! was the same source (in a build for the machine, where both have every
//! feature; bench/results/parse46-2026-11-30.md). A build with no target
//! flags runs the AVX2 driver for a `Value`, so it was that much behind a
//! build for the machine. Out of line, the loop is compiled once, with AVX2,
//! BMI1/2 and LZCNT (the features of the float conversion: `mulx`, `lzcnt`,
//! `shrx`), and both driver levels call the same code. The call is made once
//! per run (a run goes on across `],[` in the same parent), and takes no
//! reference to the driver's own state (which would then be kept in memory
//! across the whole driver: with `&self` passed, twitter.json and
//! citm_catalog.json parsed 25% slower). In a pretty-printed array each
//! number is a run of its own (a line break follows it): a call per number,
//! +1.3% instructions on citm_catalog.json. Reading the first number of a
//! run in the driver and only the rest out of line saved those, but made
//! twitter.json 2.8% and mesh.json 2.6% slower than this.

use super::super::number::{scan_window, WINDOW, WINDOW_LITERAL_MAX};
use super::super::visitor::{NumberToken, Visitor};
use super::{locate, number_general_reported, starts_number, Flow, Level};

/// The run of numbers in an array starting with the number at `at` of `b`
/// (see `Driver::number_run`): the position after the last one. The loop
/// built for `level` (the driver's): AVX2 for both vector levels.
#[inline(always)]
pub(super) fn number_run<V: Visitor + ?Sized>(
    b: &[u8],
    lossless: bool,
    parent_is_array: bool,
    v: &mut V,
    at: usize,
    level: Level,
) -> Flow<usize> {
    #[cfg(target_arch = "x86_64")]
    if level >= Level::Avx2 {
        // SAFETY: a driver of level AVX2 or above runs only on a CPU with
        // AVX2, BMI1, BMI2, LZCNT and POPCNT (`drive` chose it by `level()`).
        return unsafe { run_avx2(b, lossless, parent_is_array, v, at) };
    }
    let _ = level;
    run_baseline(b, lossless, parent_is_array, v, at)
}

/// `run`, built with AVX2, BMI1/2, LZCNT and POPCNT.
///
/// # Safety
/// The CPU has the features enabled here.
#[cfg(target_arch = "x86_64")]
#[inline(never)]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
unsafe fn run_avx2<V: Visitor + ?Sized>(b: &[u8], lossless: bool, parent_is_array: bool, v: &mut V, at: usize) -> Flow<usize> {
    run(b, lossless, parent_is_array, v, at)
}

/// `run` out of line, for the baseline ISA.
#[inline(never)]
fn run_baseline<V: Visitor + ?Sized>(b: &[u8], lossless: bool, parent_is_array: bool, v: &mut V, at: usize) -> Flow<usize> {
    run(b, lossless, parent_is_array, v, at)
}

/// What follows the number just read.
struct Step {
    /// The position after the number.
    end: usize,
    /// The next number's offset from the start of this one, when
    /// `another` or `reopen`.
    next: usize,
    /// A ',' and another number in this array.
    another: bool,
    /// `],[` and a number: the next array of the same parent.
    reopen: bool,
}

/// The numbers from the one at `at` to the end of the run: the position
/// after the last one.
#[inline(always)]
fn run<V: Visitor + ?Sized>(b: &[u8], lossless: bool, parent_is_array: bool, v: &mut V, mut at: usize) -> Flow<usize> {
    loop {
        let step = one(b, lossless, parent_is_array, v, at)?;
        if step.another {
            at += step.next;
            continue;
        }
        if step.reopen {
            // `]`, `,` and `[` at the same depth: the open containers stay
            // as they are.
            let close = step.end;
            v.end_array().map_err(|e| locate(b, close, e))?;
            v.begin_array().map_err(|e| locate(b, close + 2, e))?;
            at += step.next;
            continue;
        }
        return Ok(step.end);
    }
}

/// The number at `at` in an array, reported to `v`, and what follows it
/// (in the same array, and, after `],[`, in the next array of the same
/// parent, when `parent_is_array`).
///
/// Away from the end of the input, a number and what follows it lie in one
/// 32-byte window: a ',' and the next number (in compact input or after one
/// space) are found there. The position of each next number is the chain
/// that limits such arrays, so `next` is an offset chosen by branches, and
/// `another` (in this array) and `reopen` (after `],[`, in the next array
/// of the same parent) are flags tested by branches: predicted, the next
/// number's scan starts before the separator's bytes are loaded and
/// compared. (As one offset that is 0 when no number follows, the compiler
/// made a select that waits for those loads: 5% slower on mesh; the two
/// flags as one three-state value, selects again: 6% more instructions on
/// mesh.)
#[inline(always)]
fn one<V: Visitor + ?Sized>(b: &[u8], lossless: bool, parent_is_array: bool, v: &mut V, at: usize) -> Flow<Step> {
    let Some((w, (len, value, is_integer))) = b.get(at..).and_then(<[u8]>::first_chunk::<WINDOW>).and_then(|w| Some((w, scan_window(w)?)))
    else {
        return one_general(b, lossless, v, at);
    };
    // SAFETY: `scan_window` accepts literals of at most
    // `WINDOW_LITERAL_MAX` bytes. Told so, the compiler drops the bounds
    // checks of the reads after the literal below (all inside the window
    // by that bound).
    unsafe { std::hint::assert_unchecked(len <= WINDOW_LITERAL_MAX) };
    // SAFETY: the `len` bytes are the literal just scanned (ASCII), inside
    // the window.
    let text = unsafe { std::str::from_utf8_unchecked(w.get_unchecked(..len)) };
    let mut next = 0;
    let mut another = false;
    let mut reopen = false;
    if w[len] == b',' {
        if w[len + 1] == b' ' {
            next = len + 2;
            another = starts_number(w[len + 2]);
        } else {
            next = len + 1;
            another = starts_number(w[len + 1]);
        }
    } else if parent_is_array && w[len] == b']' && w[len + 1] == b',' && w[len + 2] == b'[' && starts_number(w[len + 3]) {
        // The last number of a small array, and the next array of the same
        // parent starts with a number: the rings of points of GeoJSON, the
        // rows of a matrix.
        next = len + 3;
        reopen = true;
    }
    // Reported here, on the window's path alone (the general path reports
    // its own): with one report for both, the token of either path was
    // stored to the stack to meet the other's, and read back from there
    // through a jump table on its kind, on every number.
    v.number(NumberToken { text, is_integer, value }).map_err(|e| locate(b, at, e))?;
    Ok(Step { end: at + len, next, another, reopen })
}

/// `one` for a number the window does not take (near the end of the
/// input, an exponent, a long literal, an error): read byte by byte and
/// reported (out of line), and the run ends there.
#[inline(always)]
fn one_general<V: Visitor + ?Sized>(b: &[u8], lossless: bool, v: &mut V, at: usize) -> Flow<Step> {
    let end = number_general_reported(b, at, lossless, v)?;
    Ok(Step { end, next: 0, another: false, reopen: false })
}
