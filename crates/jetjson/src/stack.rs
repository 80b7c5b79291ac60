//! Room on the stack for what recurses once per level of nesting.
//!
//! Writing a `Value`: before it starts, the thread must have room for
//! `max_write_depth` levels (`with_room_for`). Reading typed targets through
//! serde recurses in the target type's code, whose frames may be of any
//! size: the stack pointer is compared with a floor at every level
//! (`floor`, `above`, `on_new_stack`), and so are serde writes
//! (`Writer::nested`) and conversions with `from_value`/`to_value`
//! (`level`). When it is
//! short (a raised limit, a small thread stack), the rest runs on a stack
//! allocated for it (`stacker`, which maps a new stack and switches to it;
//! no thread is started), so no depth the limits allow overflows the stack.

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

/// Room that `deeper` keeps (for levels of jetjson's own code, whose
/// frames are small) and the size of a new stack.
const NEST_ROOM: usize = 256 << 10;
const NEST_SEGMENT: usize = 4 << 20;

/// Runs `f`, one level of a recursion that carries its `floor` (a
/// conversion with `from_value`/`to_value`, whose levels are in the target
/// type's code, of any size): on this stack while it is above the floor,
/// else on a new stack, with that stack's floor given to `f`.
#[inline(always)]
pub(crate) fn level<R>(floor: usize, f: impl FnOnce(usize) -> R) -> R {
    if above(floor) {
        return f(floor);
    }
    on_new_stack(|| f(self::floor()))
}

/// Room a recursion that checks at every level keeps below its floor: one
/// level's frames (a type's code between two checks, however large its
/// values) and the error's way out: a thread of 256 KiB reads on its own
/// stack.
const FLOOR_ROOM: usize = 128 << 10;

/// The lowest stack address the frames of a recursion may reach on this
/// stack before the levels below must move to a new one (`FLOOR_ROOM`
/// above the end of the stack); 0 when the stack's extent is unknown (the
/// recursion then never moves, as `stacker` would not).
#[inline(never)]
pub(crate) fn floor() -> usize {
    match stacker::remaining_stack() {
        Some(left) => stack_pointer().saturating_sub(left).saturating_add(FLOOR_ROOM),
        None => 0,
    }
}

/// Whether the stack, here, is still above `floor`: a store and a compare
/// (a recursion that checks at every level, as typed serde reads do,
/// whatever the size of a level's frames).
#[inline(always)]
pub(crate) fn above(floor: usize) -> bool {
    stack_pointer() > floor
}

/// Where the stack is (stacks grow down on every target that `stacker`
/// supports): the stack pointer register on x86-64 and AArch64, one
/// instruction; elsewhere the address of a local.
#[inline(always)]
fn stack_pointer() -> usize {
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    {
        let sp: usize;
        // SAFETY: copies the stack pointer into a register of our own; it
        // reads no memory, writes nothing and leaves the stack and the
        // flags as they were.
        unsafe {
            #[cfg(target_arch = "x86_64")]
            std::arch::asm!("mov {}, rsp", out(reg) sp, options(nomem, nostack, preserves_flags));
            #[cfg(target_arch = "aarch64")]
            std::arch::asm!("mov {}, sp", out(reg) sp, options(nomem, nostack, preserves_flags));
        }
        sp
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    {
        let here = 0u8;
        std::hint::black_box(&here) as *const u8 as usize
    }
}

/// Runs `f` on a new stack of `NEST_SEGMENT` bytes: for a recursion found
/// below its `floor`, which takes the new stack's `floor()` in `f`.
/// (`stacker::grow`, not `maybe_grow`: the latter's way of running `f`
/// where it is inlines `f`, whose frames may be large, into this frame,
/// which is made on the stack that has run short.)
#[cold]
#[inline(never)]
pub(crate) fn on_new_stack<R>(f: impl FnOnce() -> R) -> R {
    stacker::grow(NEST_SEGMENT, f)
}

/// Runs `f`, one level of a walk over a `Value` that recurses with no
/// depth at hand (`Clone` of a container of owned items, `Serialize`
/// through another crate's serializer): `NEST_ROOM` left at every level
/// (these levels' frames are jetjson's own, small), which costs little
/// beside what each level does there (an allocation, a serializer's
/// calls).
#[inline]
pub(crate) fn deeper<R>(f: impl FnOnce() -> R) -> R {
    stacker::maybe_grow(NEST_ROOM, NEST_SEGMENT, f)
}
