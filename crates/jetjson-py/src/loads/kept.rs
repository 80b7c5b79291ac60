//! The parser's working memory, kept between `loads` calls by the module.
//!
//! The core parser keeps it per thread (`jetjson::parse::parse`): a
//! thread-local access, which in a shared library is a call into the
//! dynamic linker, and the memory moved out of the thread's slot and back
//! at every call. Here it stays in one box the module keeps, guarded by the
//! GIL, and only the box's pointer moves.

use std::cell::Cell;

use jetjson::parse::{parse_with_memory, ParseMemory, Visitor};
use jetjson::ReadOptions;
use pyo3::Python;

/// The kept memory, touched only by `parse` with the GIL held. While a
/// parse has it out, another (a builder runs no Python code, so none can
/// start on this thread; another thread cannot run without the GIL) would
/// find the slot empty and use fresh memory.
struct Slot(Cell<Option<Box<ParseMemory>>>);

// SAFETY: every access holds the GIL (`parse` takes a `Python` token); the
// extension is not built for free-threaded CPython (lib.rs).
unsafe impl Sync for Slot {}

static KEPT: Slot = Slot(Cell::new(None));

/// `jetjson::parse::parse` with the module's kept working memory.
#[inline(always)]
pub(crate) fn parse<V: Visitor + ?Sized>(_py: Python<'_>, input: &[u8], options: &ReadOptions, visitor: &mut V) -> jetjson::Result<()> {
    let mut memory = KEPT.0.take().unwrap_or_default();
    let result = parse_with_memory(input, options, visitor, &mut memory);
    KEPT.0.set(Some(memory));
    result
}
