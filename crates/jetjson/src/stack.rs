//! Stack for writing a `Value`: the writer recurses once per level of
//! nesting, so before it starts, the thread must have room for
//! `max_write_depth` levels. When it has not (a raised limit, a small
//! thread stack), the write runs on a stack allocated for it (`stacker`,
//! which maps a new stack and switches to it; no thread is started).

/// Stack one level of `Value` writing uses, at most. Measured (depth
/// 20,000, arrays and objects, `Value::to_vec_with` and the serde path):
/// 152 B/level in the dev profile, 336 B in release, 836 B under
/// AddressSanitizer before the writer was built once per CPU level; since
/// then (one frame per level, review of 3063926) about 250 B dev, 304 B
/// release, 536-952 B under AddressSanitizer; `tests/limits.rs` and
/// `value::write::review` write the deepest values the
/// limit allows on a 64 KiB thread and fails if this is too small.
const PER_LEVEL: usize = 1024;

/// What the write needs besides its levels (the writer's own calls,
/// hashing, a sink's `io::Write`).
const BASE: usize = 256 << 10;

/// Runs `write` (which writes a `Value` with a nesting limit of
/// `max_write_depth`) with room on the stack for that many levels.
pub(crate) fn with_room_for<R>(max_write_depth: usize, write: impl FnOnce() -> R) -> R {
    // `WriteOptions::check` keeps the limit at or below MAX_WRITE_DEPTH;
    // the `min` keeps a writer made without it from asking for more.
    let levels = max_write_depth.min(crate::MAX_WRITE_DEPTH);
    let needed = levels * PER_LEVEL + BASE;
    stacker::maybe_grow(needed, needed, write)
}
