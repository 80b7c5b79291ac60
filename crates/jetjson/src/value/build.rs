//! `Value` as a builder over the parser.
//!
//! Finished values wait on one stack and member names on another; when a
//! container ends, its items are moved off the stack into the document's
//! arena with one copy (see `arena.rs`): no allocation per container, and
//! strings too long to be inline are copied into the arena as well.
//!
//! The innermost open array skips the stack while its items are plain
//! (null, booleans, numbers, inline strings): they are written straight to
//! the arena's free room (see `DirectArray`), so the flat arrays of numbers
//! that make up most of some documents (vertex data, coordinates) are
//! written once instead of twice. Anything else (a nested container, a
//! string or number that needs arena memory) first moves the array's items
//! so far onto the stack, and the array goes on the ordinary way. Every
//! handle the builder makes is uncounted (arena memory and the stacks are
//! not the user's); the root container alone becomes a counted handle,
//! taking over the builder's reference on the arena.

use std::collections::HashMap;
use std::ptr::NonNull;

use super::arena::{self, ArenaBuilder};
use super::seq::Seq;
use super::str::INLINE_CAPACITY;
use super::{Array, Map, Number, Placed, Str, TextRoom, Value};
use crate::error::Result;
use crate::parse::{self, DuplicateKeys, FromJson, NumberToken, NumberValue, ReadOptions, Visitor};

impl FromJson for Value {
    fn from_json(input: &[u8], options: &ReadOptions) -> Result<Value> {
        if options.duplicate_key_policy() != DuplicateKeys::Error {
            let (value, result) = build(input.len(), options, false, |b| parse::parse(input, options, b));
            result?;
            return Ok(value.or_null());
        }
        // Repeated names are refused by the builder (`names.rs`, cheaper
        // than the parser's check), so the parser is told not to look.
        let unchecked = options.clone().duplicate_keys(DuplicateKeys::Last);
        let (value, result) = build(input.len(), options, true, |b| parse::parse(input, &unchecked, b));
        match result {
            Ok(()) => Ok(value.or_null()),
            // Out of memory: said as it is (reading again would need
            // memory too).
            Err(e) if is_out_of_memory(&e) => Err(e),
            // Said as the checking parser says it: the first error in the
            // text (a repeated name, or whatever comes before it), where it
            // is.
            Err(e) => Err(parse::validate(input, options).err().unwrap_or(e)),
        }
    }
}

/// The value that starts at `from` in `input` (after whitespace), built as
/// `Value::from_slice` builds a document, and the offset after it; `None`
/// if the text is not valid there (the caller reads it again its own way
/// to say why). For the serde deserializer (`parse/door.rs`).
///
/// `whole` says the value is all there is of the input (its size sizes the
/// arena); otherwise the arena starts small, so that many small values of
/// one large text do not each reserve room for all of it.
pub(crate) fn value_at(input: &[u8], from: usize, whole: bool, options: &ReadOptions) -> Result<Option<(Value, usize)>> {
    let size = if whole { input.len() - from } else { (input.len() - from).min(NESTED_ARENA_HINT) };
    // Repeated names: refused by the builder, as in `from_json`; then the
    // caller reads the text again its own way, which says where.
    let check_names = options.duplicate_key_policy() == DuplicateKeys::Error;
    let unchecked = options.clone().duplicate_keys(DuplicateKeys::Last);
    let walk_options = if check_names { &unchecked } else { options };
    let (value, result) = build(size, options, check_names, |b| parse::walk_value_at(input, from, walk_options, b));
    match result {
        Ok(end) => Ok(end.map(|end| (value.or_null(), end))),
        // Out of memory: said as it is (reading again would need memory
        // too).
        Err(e) if is_out_of_memory(&e) => Err(e),
        // Otherwise the builder's only error is a repeated name.
        Err(_) if check_names => Ok(None),
        Err(e) => Err(e),
    }
}

/// The input bytes a nested value's arena is first sized for.
const NESTED_ARENA_HINT: usize = 1024;

/// Runs `walk` with a builder for `options` and an arena sized for `size`
/// input bytes, and makes its root a user-owned value when the walk
/// succeeded. `check_names`: the builder refuses repeated names itself
/// (the walk's parser does not).
///
/// The builder is the thread's (`BUILDER`), used where it lies: its stacks
/// keep their memory between documents, and nothing of it is moved in and
/// out per parse (moving the stacks out of a thread-local and back, stored
/// field by field and loaded whole, cost store-forwarding stalls: 2-3% of
/// a 1 KiB parse, bench/results/value-small-2026-11-28.md). A builder of
/// its own when the thread's is in use or the thread is ending.
fn build<R>(
    size: usize,
    options: &ReadOptions,
    check_names: bool,
    walk: impl FnOnce(&mut ValueBuilder<false>) -> Result<R>,
) -> (Built, Result<R>) {
    let mut walk = Some(walk);
    let lent = BUILDER.try_with(|cell| {
        let mut b = cell.try_borrow_mut().ok()?;
        Some(build_with(&mut b, size, options, check_names, walk.take()?))
    });
    if let Ok(Some(built)) = lent {
        return built;
    }
    let walk = walk.take().expect("`walk` runs only where the builder was lent, and then returns");
    let mut own = ValueBuilder::IDLE;
    build_with(&mut own, size, options, check_names, walk)
}

thread_local! {
    static BUILDER: std::cell::RefCell<ValueBuilder<false>> = const { std::cell::RefCell::new(ValueBuilder::IDLE) };
    static RECOVERING_BUILDER: std::cell::RefCell<ValueBuilder<true>> = const { std::cell::RefCell::new(ValueBuilder::IDLE) };
}

/// `Value::from_slice_with`, except that running out of memory is the
/// error `ErrorKind::OutOfMemory` (at the end of the container being read)
/// instead of the end of the process. For jetjson's bindings (Python's
/// `canonicalize`, C, the command line), where the document comes from
/// outside and the process must carry on; through `__private`.
///
/// A builder of its own kind (`RECOVER`), the thread's second: the
/// recovering steps stay out of `from_slice`'s code (in it, they made every
/// parse 3-5% slower).
pub(crate) fn from_json_recovering(input: &[u8], options: &ReadOptions) -> Result<Value> {
    let run = |b: &mut ValueBuilder<true>| {
        if options.duplicate_key_policy() != DuplicateKeys::Error {
            build_with(b, input.len(), options, false, |b| parse::parse(input, options, b))
        } else {
            let unchecked = options.clone().duplicate_keys(DuplicateKeys::Last);
            build_with(b, input.len(), options, true, |b| parse::parse(input, &unchecked, b))
        }
    };
    let lent = RECOVERING_BUILDER.try_with(|cell| Some(run(&mut *cell.try_borrow_mut().ok()?)));
    let (value, result) = match lent {
        Ok(Some(built)) => built,
        _ => {
            let mut own = ValueBuilder::IDLE;
            run(&mut own)
        }
    };
    match result {
        Ok(()) => Ok(value.or_null()),
        Err(e) if is_out_of_memory(&e) || options.duplicate_key_policy() != DuplicateKeys::Error => Err(e),
        // As `from_json` says it.
        Err(e) => Err(parse::validate(input, options).err().unwrap_or(e)),
    }
}

/// `build` with the idle builder `b` (empty stacks, no arena), left idle
/// again.
#[inline(always)]
fn build_with<R, const RECOVER: bool>(
    b: &mut ValueBuilder<RECOVER>,
    size: usize,
    options: &ReadOptions,
    check_names: bool,
    walk: impl FnOnce(&mut ValueBuilder<RECOVER>) -> Result<R>,
) -> (Built, Result<R>) {
    // Idle already, unless a walk panicked: then whatever it left is
    // dropped here (its arena released by the assignment below).
    b.direct = DirectArray::NONE;
    b.values.clear();
    b.names.clear();
    b.frames.clear();
    b.arena = ArenaBuilder::new(size);
    b.lossless = options.keeps_numbers_lossless();
    b.floats_aside = options.keeps_numbers_lossless() || options.negative_zero_int;
    b.duplicates = options.duplicate_key_policy();
    b.check_names = check_names;
    let mut result;
    if RECOVER {
        // Each stack has room for an item before the walk starts, so that
        // out of memory, emptying a full stack makes room (`grow_stack`).
        if b.values.try_reserve(1).is_err() || b.names.try_reserve(1).is_err() || b.frames.try_reserve(1).is_err() {
            return (Built::Nothing, Err(out_of_memory()));
        }
        let outer = arena::begin_build();
        result = walk(b);
        if arena::end_build(outer) && result.is_ok() {
            // Not reached (the end of every container says it first); kept
            // so that nothing built after memory ran out is ever returned.
            result = Err(out_of_memory());
        }
    } else {
        result = walk(b);
    }
    let root = if result.is_ok() { b.pop_root() } else { None };
    b.direct = DirectArray::NONE;
    // Values left by a failed parse hold only uncounted handles (no drop
    // glue to run); they go before the arena, all the same.
    b.values.clear();
    b.names.clear();
    b.frames.clear();
    b.trim();
    let arena = std::mem::replace(&mut b.arena, ArenaBuilder::new(0));
    let value = match (root, arena.into_reference()) {
        // The usual root: its two words, a counted handle that takes over
        // the builder's reference (its items are in this arena, placed by
        // `alloc_items` or `commit_region`).
        (Some(Root::Array(items, n)), Some(reference)) => {
            // SAFETY: the items were placed in this (live) arena.
            debug_assert_eq!(unsafe { super::arena::arena_of(items) }, reference);
            Built::Array(items, n)
        }
        (Some(Root::Object(members, n)), Some(reference)) => {
            // SAFETY: as above.
            debug_assert_eq!(unsafe { super::arena::arena_of(members) }, reference);
            Built::Object(members, n)
        }
        // SAFETY: the root is the only value left from the builder: its
        // handle (if a container) is uncounted in this arena, and the
        // builder's reference is handed to it (or given back).
        (Some(Root::Other(value)), Some(reference)) => Built::Other(unsafe { into_root(value, reference) }),
        (Some(root), None) => Built::Other(root.into_value()),
        (None, reference) => {
            if let Some(reference) = reference {
                // SAFETY: the builder's reference, not used again.
                unsafe { super::arena::release(reference) };
            }
            Built::Nothing
        }
    };
    (value, result)
}

/// What a walk built: a container at the root as its two words (a counted
/// handle on the arena, made a `Value` by the caller, in the slot it
/// returns), another value, or nothing (the walk failed).
///
/// Not an `Option<Value>` handed up: that was moved from stack temporary
/// to stack temporary in pieces of odd sizes (the enum's bytes after its
/// tag) and read back with wider loads, stalling on store forwarding
/// several times per parse (about 4% of a 1 KiB document's parse).
enum Built {
    Array(NonNull<Value>, usize),
    Object(NonNull<(Str, Value)>, usize),
    Other(Value),
    Nothing,
}

impl Built {
    /// The value built, `null` if none.
    #[inline(always)]
    fn or_null(self) -> Value {
        match self {
            // Counted: these took over the builder's reference (`build_with`).
            Built::Array(items, n) => Value::Array(Array(Seq::Counted(items, n))),
            Built::Object(members, n) => Value::Object(Map { members: Seq::Counted(members, n) }),
            Built::Other(value) => value,
            Built::Nothing => Value::Null,
        }
    }
}

/// The document's value, off the builder's stack: a container in the
/// arena as its items and length (uncounted), anything else whole.
///
/// A container is taken out of its stack slot as two words, not moved as a
/// `Value`: written there by narrower stores (`end_object`, `end_array`),
/// the slot read back whole stalled (store forwarding), and the enum's
/// moves on the way out went through stack memory in pieces of odd sizes
/// (2-3% of a 1 KiB parse, bench/results/value-small-2026-11-28.md).
enum Root {
    Array(NonNull<Value>, usize),
    Object(NonNull<(Str, Value)>, usize),
    Other(Value),
}

impl Root {
    /// As a value (uncounted handles stay uncounted).
    fn into_value(self) -> Value {
        match self {
            Root::Array(items, n) => Value::Array(Array(Seq::Uncounted(items, n))),
            Root::Object(members, n) => Value::Object(Map { members: Seq::Uncounted(members, n) }),
            Root::Other(value) => value,
        }
    }
}

/// The root of a parsed document as a user-owned value: a container takes
/// over the builder's reference on the arena (becoming counted); otherwise
/// the reference is given back.
///
/// # Safety
/// `value` is the builder's root and `reference` the builder's reference on
/// the arena its handles point into.
unsafe fn into_root(value: Value, reference: std::ptr::NonNull<super::arena::ChunkHeader>) -> Value {
    match value {
        // SAFETY: passed on from the caller.
        Value::Array(a) => Value::Array(Array(unsafe { a.0.into_counted(reference) })),
        // SAFETY: passed on from the caller.
        Value::Object(m) => Value::Object(Map { members: unsafe { m.members.into_counted(reference) } }),
        other => {
            // Scalars and strings at the root are built owned (see
            // `ValueBuilder::is_root`), so nothing refers to the arena.
            // SAFETY: the builder's reference, not used again.
            unsafe { super::arena::release(reference) };
            other
        }
    }
}

/// What one thread's builder keeps at most, in bytes of stack capacity
/// (131,072 values). A large stack is a block of its own from the
/// allocator (mmap): shrinking it on the way back unmaps the pages past the
/// limit, and the next document of the same shape faults every one of them
/// in again. At 256 KiB that was about 200 page faults per parse of
/// mesh.json (a 33,408-item array), a fifth of its time; a stack kept whole
/// costs none.
const MAX_POOLED_BYTES: usize = 4 << 20;

/// The items of the innermost open array, written in place in the arena's
/// current region (`ArenaBuilder::region`): `first..next` are written,
/// `next..end` is room. All null when no array is written this way; then
/// `next < end` is false, so one comparison tells a push where to go.
struct DirectArray {
    first: *mut Value,
    next: *mut Value,
    end: *mut Value,
}

impl DirectArray {
    const NONE: DirectArray = DirectArray { first: std::ptr::null_mut(), next: std::ptr::null_mut(), end: std::ptr::null_mut() };

    #[inline]
    fn is_open(&self) -> bool {
        !self.first.is_null()
    }

    /// Items written so far.
    #[inline]
    fn len(&self) -> usize {
        // SAFETY: both point into the same region (or are both null), and
        // `next` never goes below `first`.
        unsafe { self.next.offset_from(self.first) as usize }
    }
}

/// Pushes the item `make` makes onto `stack`, finding its slot first.
///
/// Not `Vec::push`, and `make` runs after the slot is known: otherwise the
/// item is built in stack memory with narrow stores and then copied to its
/// slot with wide loads, which the CPU cannot forward from those stores
/// (in profiles of canada.json, a stall of a dozen cycles per container
/// and a sixth of the parse; for names and strings, an eighth of
/// github_events). With the slot known, it is stored straight there.
#[inline(always)]
fn push_in_place<T, const RECOVER: bool>(stack: &mut Vec<T>, make: impl FnOnce() -> T) {
    if stack.len() == stack.capacity() {
        grow_stack::<T, RECOVER>(stack);
    }
    let len = stack.len();
    // SAFETY: `len < capacity` (grown above), and the slot is past the
    // end, so nothing is overwritten.
    unsafe {
        stack.as_mut_ptr().add(len).write(make());
        stack.set_len(len + 1);
    }
}

/// Room for one more item on a full stack of the builder's (kept out of
/// line so that pushes stay short). A builder that does not recover ends
/// the process when the allocator has no memory, as `Vec` does.
///
/// A builder that recovers (`RECOVER`): when memory has run out (now, or
/// earlier in this build: the allocator is not asked again), the build is
/// marked out of memory and the stack emptied instead. Its items are builder-made (plain data, inline
/// strings, uncounted handles: nothing to free), and `build_with` gave
/// every stack room for an item before the walk, so emptying it makes
/// room. From then on the walk goes on at full speed, allocating nothing,
/// to the end of the current container, which reports the error
/// (`end_array`, `end_object`) before it reads anything: the builder's
/// state after memory ran out is memory-safe but not meaningful (a stack
/// lost its items, a string was not copied). Not an early return from
/// every push: a second way out of each made every parse 3-4% slower.
#[cold]
#[inline(never)]
fn grow_stack<T, const RECOVER: bool>(stack: &mut Vec<T>) {
    if !RECOVER {
        stack.reserve(1);
        return;
    }
    if !arena::out_of_memory() && stack.try_reserve(1).is_ok() {
        return;
    }
    arena::mark_out_of_memory();
    stack.clear();
}

/// The error for a document whose value needs more memory than the
/// allocator gives (the parser adds where). Memory for a parsed `Value`
/// grows with the input (the stacks with the largest container, the arena
/// with the whole document): its growth failing is reported, not an abort
/// of the process (SECURITY.md, "Allocation failure").
#[cold]
#[inline(never)]
fn out_of_memory() -> crate::Error {
    crate::Error::new(crate::error::ErrorKind::OutOfMemory)
}

fn is_out_of_memory(e: &crate::Error) -> bool {
    matches!(e.kind(), crate::error::ErrorKind::OutOfMemory)
}

/// The room first lent for a string's decoded text (`text_room`): the
/// decoder asks for 64 bytes at a time; the current chunk's rest is lent
/// (usually much more).
const TEXT_ROOM: usize = 64;

/// Regions grow by moving to a fresh chunk, leaving the old bytes unused
/// there; past this size an array goes to the stack instead, so a huge
/// array wastes no more than this (and is copied once, as before).
const MAX_DIRECT_BYTES: usize = 4 << 20;

/// `RECOVER`: out of memory is an error (`from_json_recovering`), rather
/// than the end of the process as for the rest of Rust (`Value::from_slice`
/// and the serde door). The same code, the recovering steps compiled only
/// into the builder that takes them.
struct ValueBuilder<const RECOVER: bool> {
    /// The innermost open array while its items are written in place.
    direct: DirectArray,
    values: Vec<Value>,
    names: Vec<Str>,
    /// Where each open container's items start on `values` (and, for
    /// objects, its names on `names`).
    frames: Vec<(usize, usize)>,
    arena: ArenaBuilder,
    lossless: bool,
    /// Doubles leave the usual route (lossless mode, or `-0` read as an
    /// int): the usual case tests this one flag, as it tested `lossless`.
    floats_aside: bool,
    duplicates: DuplicateKeys,
    /// Under `DuplicateKeys::Error`, whether the builder checks each
    /// object's names (the parser then does not).
    check_names: bool,
}

impl<const RECOVER: bool> ValueBuilder<RECOVER> {
    /// A builder between documents: empty stacks, no arena.
    const IDLE: ValueBuilder<RECOVER> = ValueBuilder {
        direct: DirectArray::NONE,
        values: Vec::new(),
        names: Vec::new(),
        frames: Vec::new(),
        arena: ArenaBuilder::new(0),
        lossless: false,
        floats_aside: false,
        duplicates: DuplicateKeys::Error,
        check_names: false,
    };

    /// The arena refused memory for a container's items: the error, or
    /// (not recovering) the end of the process.
    #[cold]
    #[inline(never)]
    fn arena_refused(&self) -> Result<()> {
        if !RECOVER {
            self.arena.alloc_failed();
        }
        Err(out_of_memory())
    }

    /// A string or number text that is the whole document, built owned (a
    /// heap copy: `is_root`). A recovering builder asks for it fallibly:
    /// out of memory, the empty string, and the build is marked (the end
    /// of the walk reports it).
    fn root_str(s: &str) -> Str {
        if !RECOVER || s.len() <= super::str::INLINE_CAPACITY {
            return Str::new(s);
        }
        let mut text = String::new();
        if text.try_reserve_exact(s.len()).is_err() {
            arena::mark_out_of_memory();
            return Str::default();
        }
        text.push_str(s);
        Str::from(text)
    }

    /// Gives back stack capacity past `MAX_POOLED_BYTES` (the stacks are
    /// empty): the thread keeps no more than that after a huge document.
    #[inline]
    fn trim(&mut self) {
        const VALUES: usize = MAX_POOLED_BYTES / std::mem::size_of::<Value>();
        const NAMES: usize = MAX_POOLED_BYTES / 4 / std::mem::size_of::<Str>();
        const FRAMES: usize = MAX_POOLED_BYTES / 4 / std::mem::size_of::<(usize, usize)>();
        if self.values.capacity() > VALUES || self.names.capacity() > NAMES || self.frames.capacity() > FRAMES {
            self.shrink(VALUES, NAMES, FRAMES);
        }
    }

    #[cold]
    #[inline(never)]
    fn shrink(&mut self, values: usize, names: usize, frames: usize) {
        if RECOVER {
            // Shrinking moves the items (none) to a smaller block, which
            // needs memory: a recovering builder frees the stack instead.
            if self.values.capacity() > values {
                self.values = Vec::new();
            }
            if self.names.capacity() > names {
                self.names = Vec::new();
            }
            if self.frames.capacity() > frames {
                self.frames = Vec::new();
            }
            return;
        }
        self.values.shrink_to(values);
        self.names.shrink_to(names);
        self.frames.shrink_to(frames);
    }

    /// The document's value, taken off the values stack (where the walk
    /// left it alone).
    #[inline(always)]
    fn pop_root(&mut self) -> Option<Root> {
        // Each word read alone (volatile: not merged into one 16-byte
        // load): the container's words were just stored one by one by
        // `end_object` or `end_array`, and a load spanning two stores
        // waits for both to reach the cache (a store-forwarding stall per
        // parse).
        // SAFETY (both): references to initialised words of the slot.
        let root = match self.values.last()? {
            Value::Array(Array(Seq::Uncounted(items, n))) => unsafe {
                Root::Array(std::ptr::read_volatile(items), std::ptr::read_volatile(n))
            },
            Value::Object(Map { members: Seq::Uncounted(members, n) }) => unsafe {
                Root::Object(std::ptr::read_volatile(members), std::ptr::read_volatile(n))
            },
            _ => return self.values.pop().map(Root::Other),
        };
        // SAFETY: the last item (an uncounted handle, whose copy is `root`:
        // no drop glue to skip) leaves the stack.
        unsafe { self.values.set_len(self.values.len() - 1) };
        Some(root)
    }

    /// Whether the next value is the document itself (not in a container):
    /// then a string or number text is built owned, not in the arena, so a
    /// lone large string costs its size once (no arena copy to copy out).
    #[inline]
    fn is_root(&self) -> bool {
        self.frames.is_empty()
    }

    /// Adds a finished value to the innermost open container.
    ///
    /// # Safety
    /// `v` is builder-made (plain data, an inline string, or an uncounted
    /// handle into this arena), and if an array is written in place, it is
    /// plain data or an inline string (it needs no arena memory, so the
    /// region stays valid).
    ///
    /// The value is made by `make` once its slot is known, so it is stored
    /// straight there (see `push_on_stack`).
    #[inline(always)]
    unsafe fn push(&mut self, make: impl FnOnce() -> Value) {
        let d = &mut self.direct;
        // Objects' members (the stack) are decided by the first test.
        if !d.is_open() {
            self.push_on_stack(make);
        } else if d.next < d.end {
            // SAFETY: `next < end`: room in the region for one more value;
            // the region's memory is the arena's, unused by anything else.
            unsafe {
                d.next.write(make());
                d.next = d.next.add(1);
            }
        } else {
            // SAFETY: passed on.
            unsafe { self.push_grown(make()) };
        }
    }

    /// Pushes the value `make` makes on the values stack, made in its slot
    /// (`push_in_place`).
    #[inline(always)]
    fn push_on_stack(&mut self, make: impl FnOnce() -> Value) {
        push_in_place::<Value, RECOVER>(&mut self.values, make);
    }

    /// `push` when the region is full: moves it to a larger one, or (past
    /// `MAX_DIRECT_BYTES`) the array to the stack.
    ///
    /// # Safety
    /// As for `push`.
    #[cold]
    #[inline(never)]
    unsafe fn push_grown(&mut self, v: Value) {
        const SIZE: usize = std::mem::size_of::<Value>();
        let len = self.direct.len() * SIZE;
        if len >= MAX_DIRECT_BYTES {
            self.spill();
            self.push_on_stack(|| v);
            return;
        }
        let first = NonNull::new(self.direct.first.cast::<u8>()).expect("an open region");
        // SAFETY: `first` is the start of the current region with `len`
        // bytes written, and nothing was allocated since it was opened (all
        // other allocations spill first).
        match unsafe { self.arena.grow_region(first, len, (2 * len).max(4 * SIZE)) } {
            Some((p, cap)) => self.open_region_at(p, cap, len / SIZE),
            // Out of memory (see `grow_stack`): the region is used again
            // from its start (it has room for two values or more), its
            // items lost.
            None if RECOVER => self.direct.next = self.direct.first,
            None => self.arena.alloc_failed(),
        }
        // SAFETY: as in `push`, after the move there is room.
        unsafe { self.push(|| v) };
    }

    fn open_region_at(&mut self, p: NonNull<u8>, cap: usize, written: usize) {
        let first = p.as_ptr().cast::<Value>();
        // SAFETY: the region has `cap` bytes from `p`, 8-aligned (as `Value`
        // needs), `written` items of it filled.
        unsafe {
            self.direct = DirectArray { first, next: first.add(written), end: first.add(cap / std::mem::size_of::<Value>()) };
        }
    }

    /// Moves the items written in place onto the stack, where the array
    /// goes on the ordinary way (its frame's start is the stack's length
    /// when it began, and nothing was pushed on the stack since).
    #[cold]
    #[inline(never)]
    fn spill(&mut self) {
        let n = self.direct.len();
        if !RECOVER {
            self.values.reserve(n);
        } else if self.values.try_reserve(n).is_err() {
            // Out of memory (see `grow_stack`): the region's items are lost,
            // and the array goes on on the stack.
            arena::mark_out_of_memory();
            self.direct = DirectArray::NONE;
            return;
        }
        // SAFETY: `first..next` are `n` written values in arena memory that
        // nothing else refers to; they move (bitwise) into the reserved
        // room at the stack's end, and the region is abandoned below, so
        // each value has one owner.
        unsafe {
            std::ptr::copy_nonoverlapping(self.direct.first, self.values.as_mut_ptr().add(self.values.len()), n);
            self.values.set_len(self.values.len() + n);
        }
        self.direct = DirectArray::NONE;
    }

    #[inline]
    fn spill_if_open(&mut self) {
        if self.direct.is_open() {
            // An array whose first item is a container (records, rings of
            // coordinates) has nothing to move.
            if self.direct.next == self.direct.first {
                self.direct = DirectArray::NONE;
            } else {
                self.spill();
            }
        }
    }

    /// A number kept as its text: an integer beyond 64 bits (rather than a
    /// rounded value), or every number when asked to keep them lossless.
    #[inline(never)]
    fn number_text(&mut self, text: &str) -> Result<()> {
        // The text may need arena memory.
        self.spill_if_open();
        let text = self.str(text);
        // SAFETY: an inline or arena string, after a spill (or a heap one
        // at the root).
        unsafe { self.push(|| Value::Number(Number::Big(text))) };
        Ok(())
    }

    /// A string too long to be inline (out of line: its copy dwarfs a
    /// call).
    ///
    /// The usual case (an object's member or an array's item on the
    /// stack, up to `arena::HERE_MAX` bytes, room in the arena's chunk and
    /// on the stack) takes a path with no call, so that it saves no
    /// registers (the general path's calls made every string save and
    /// restore six); anything else goes the general way
    /// (`long_string_general`).
    #[inline(never)]
    fn long_string(&mut self, s: &str) {
        if !self.direct.is_open() && !self.is_root() && self.values.len() < self.values.capacity() {
            if let Some(p) = self.arena.alloc_str_here(s) {
                let len = self.values.len();
                // SAFETY: the text was copied into the arena just now (UTF-8,
                // longer than inline: the caller's); the value goes on the
                // stack (no array is written in place), then into a
                // container in the arena. `len < capacity`: the slot is free.
                unsafe {
                    let st = Str::placed_in_arena(p, s.len());
                    self.values.as_mut_ptr().add(len).write(Value::String(st));
                    self.values.set_len(len + 1);
                }
                return;
            }
        }
        self.long_string_general(s);
    }

    /// `long_string`, any case.
    #[inline(never)]
    fn long_string_general(&mut self, s: &str) {
        // The text needs arena memory.
        self.spill_if_open();
        let s = if self.is_root() {
            Self::root_str(s)
        } else {
            // SAFETY: the string goes on the builder's stack or into a
            // container in the arena (the root is never an arena string).
            unsafe { Str::long_in_arena::<RECOVER>(s, &mut self.arena) }
        };
        // SAFETY: an arena string, after a spill (or a heap one at the
        // root).
        unsafe { self.push(|| Value::String(s)) };
    }

    /// A string that fits inline, pushed. Out of line, push and all: inline
    /// at the driver's string sites, the push's closure was not inlined
    /// (a call at each), and it came back through stack memory, four
    /// narrow stores read back by one 32-byte load into the slot: a
    /// store-forwarding stall per string (twitter.json: 5% of the parse).
    /// Here the string is made in registers and stored straight into its
    /// slot, for the price of the call the driver made anyway.
    ///
    /// The string's words are stored whole (`Str::write_inline_words`).
    ///
    /// When its slot is at hand (room on the stack, or in the region of an
    /// array written in place), on a path with no call, so that it saves
    /// no registers (the growth's calls made every string save and restore
    /// five); otherwise the general way (`short_string_general`).
    #[inline(never)]
    fn short_string(&mut self, s: &str) {
        let Some(words) = Str::inline_words_of(s) else {
            // Not reached: the caller passes at most `INLINE_CAPACITY` bytes.
            return self.long_string(s);
        };
        // SAFETY (the block): `slot` is a free slot (past the stack's
        // length with room for it, or in the region's room), written whole
        // below before the stack's length or the region's `next` counts it.
        unsafe {
            let d = &mut self.direct;
            let slot = if !d.is_open() && self.values.len() < self.values.capacity() {
                let len = self.values.len();
                self.values.set_len(len + 1);
                self.values.as_mut_ptr().add(len)
            } else if d.next < d.end {
                let slot = d.next;
                d.next = d.next.add(1);
                slot
            } else {
                return self.short_string_general(s);
            };
            // The tag (the empty string's words are overwritten at once).
            slot.write(Value::String(Str::default()));
            if let Value::String(st) = &mut *slot {
                Str::write_inline_words(st, words);
            }
        }
    }

    /// `short_string` when its slot is not at hand: the stack is full
    /// (grown, then the string goes the usual way), or the region of the
    /// array written in place is (moved, `push_grown`).
    #[cold]
    #[inline(never)]
    fn short_string_general(&mut self, s: &str) {
        if !self.direct.is_open() {
            grow_stack::<Value, RECOVER>(&mut self.values);
            // Room now (or, out of memory, the stack emptied: `grow_stack`).
            self.short_string(s);
            return;
        }
        // SAFETY: an inline string: plain data.
        unsafe { self.push_grown(Value::String(Str::short(s))) };
    }

    #[inline]
    fn str(&mut self, s: &str) -> Str {
        if self.is_root() {
            Self::root_str(s)
        } else {
            // SAFETY: the string goes on the builder's stack, then into a
            // container in the arena (the root is never an arena string).
            unsafe { Str::in_arena::<RECOVER>(s, &mut self.arena) }
        }
    }
}

impl<const RECOVER: bool> Visitor for ValueBuilder<RECOVER> {
    // Always (as the other small tokens): a call from the driver costs it
    // its registers around the call.
    #[inline(always)]
    fn null(&mut self) -> Result<()> {
        // SAFETY: plain data.
        unsafe { self.push(|| Value::Null) };
        Ok(())
    }
    #[inline(always)]
    fn bool(&mut self, v: bool) -> Result<()> {
        // SAFETY: plain data.
        unsafe { self.push(|| Value::Bool(v)) };
        Ok(())
    }
    // Always: the parser's number loop has one call site, and a call there
    // passes the token through memory (the compiler stopped inlining it
    // once the loop's separator test became branches).
    #[inline(always)]
    fn number(&mut self, n: NumberToken<'_>) -> Result<()> {
        // The text's route is a call of its own, so the push below only
        // ever stores plain numbers: a tag and eight bytes, nothing of a
        // `Str` carried through (the merged push copied a string's bytes
        // from a temporary for every number).
        let number = match n.value {
            NumberValue::I64(i) if !self.lossless => Number::Int(i),
            NumberValue::U64(u) if !self.lossless => Number::UInt(u),
            NumberValue::F64(f) if !self.floats_aside => Number::Float(f),
            // `-0` read as an int: the integer literal `-0` is the one
            // integer literal read as a double. (Inline: a call taking the
            // token made every number's token go through memory, +0.6%
            // instructions on canada with the option off.)
            NumberValue::F64(_) if !self.lossless && n.is_integer => Number::Int(0),
            NumberValue::F64(f) if !self.lossless => Number::Float(f),
            _ => return self.number_text(n.text),
        };
        // SAFETY: plain data.
        unsafe { self.push(|| Value::Number(number)) };
        Ok(())
    }
    #[inline(always)]
    fn string(&mut self, s: &str, _raw: &str) -> Result<()> {
        if s.len() <= INLINE_CAPACITY {
            self.short_string(s);
        } else {
            self.long_string(s);
        }
        Ok(())
    }
    /// The arena's free room, unless an array is written in place there
    /// (then the text goes the scratch way: a short one needs no arena
    /// memory, and the array stays in place) or the string is the whole
    /// document (built owned, see `is_root`).
    #[inline]
    fn text_room(&mut self) -> Option<TextRoom<'_>> {
        if self.direct.is_open() || self.is_root() {
            return None;
        }
        // SAFETY: the driver's next call is `placed_string` or
        // `placed_key` (or none: the parse failed), which allocate nothing
        // from the arena before they place the text; no array is written in
        // place (checked above).
        unsafe { TextRoom::new(&mut self.arena, TEXT_ROOM) }
    }
    fn placed_string(&mut self, text: Placed) -> Result<()> {
        // SAFETY: decoded into the room `text_room` lent just before;
        // nothing allocated from the arena or written to it since.
        let s = unsafe { text.as_str() };
        if s.len() <= INLINE_CAPACITY {
            self.short_string(s);
            return Ok(());
        }
        if !text.in_arena() {
            // Outgrew the arena's region: copied from its heap buffer.
            self.long_string(s);
            return Ok(());
        }
        let len = s.len();
        // SAFETY: as above.
        let p = unsafe { text.commit(&mut self.arena) };
        // SAFETY: text placed in the arena, longer than inline; it goes on
        // the stack (no array is written in place: `text_room`), then into
        // a container in the arena.
        unsafe {
            let st = Str::placed_in_arena(p, len);
            self.push(|| Value::String(st));
        }
        Ok(())
    }
    fn placed_key(&mut self, text: Placed) -> Result<()> {
        // SAFETY: as in `placed_string`.
        let s = unsafe { text.as_str() };
        if s.len() <= INLINE_CAPACITY || !text.in_arena() {
            // Inline, or copied from the heap buffer it outgrew the arena's
            // region into.
            return self.key(s, s);
        }
        let len = s.len();
        // SAFETY: as in `placed_string`.
        let p = unsafe { text.commit(&mut self.arena) };
        // SAFETY: as in `placed_string`; the name goes on the names stack,
        // then into an object in the arena.
        push_in_place::<_, RECOVER>(&mut self.names, || unsafe { Str::placed_in_arena(p, len) });
        Ok(())
    }
    #[inline(always)]
    fn begin_array(&mut self) -> Result<()> {
        // The enclosing array now holds a container: it goes on the stack.
        self.spill_if_open();
        let frame = (self.values.len(), self.names.len());
        push_in_place::<_, RECOVER>(&mut self.frames, || frame);
        match self.arena.region(2 * std::mem::size_of::<Value>()) {
            Some((p, cap)) => self.open_region_at(p, cap, 0),
            // Out of memory, the items go on the stack (see `grow_stack`).
            None if RECOVER => {}
            None => self.arena.alloc_failed(),
        }
        Ok(())
    }
    // Inlined into the parser's two call sites: in documents of many small
    // arrays (coordinate pairs) the call itself was a tenth of the cost.
    #[inline(always)]
    fn end_array(&mut self) -> Result<()> {
        // No frame: the frames stack lost its items, out of memory.
        let Some((v0, _)) = self.frames.pop() else {
            assert!(RECOVER, "parser balances containers");
            return Err(out_of_memory());
        };
        // An array written in place is placed whole even out of memory (its
        // region is valid arena memory; the error comes with the next
        // container on the stack, or at the end of the walk).
        if self.direct.is_open() {
            // Every item was written in place: the array is its region. It
            // has items (`[]` comes as `empty_array`, and a region is closed
            // when a container arrives in it).
            let n = self.direct.len();
            let first = NonNull::new(self.direct.first).expect("an open region");
            self.direct = DirectArray::NONE;
            debug_assert!(n > 0);
            // SAFETY: the region is the arena's current one, `n` values
            // written, nothing allocated since it opened.
            unsafe { self.arena.commit_region(first.cast(), n * std::mem::size_of::<Value>()) };
            // The enclosing container is not written in place (it was moved
            // to the stack when this array began). The value is made here,
            // in the one branch, so it is stored straight into its slot.
            self.push_on_stack(|| Value::Array(Array(Seq::Uncounted(first, n))));
            return Ok(());
        }
        // Out of memory, the stack may have lost its items (`grow_stack`).
        if RECOVER && arena::out_of_memory() {
            return Err(out_of_memory());
        }
        // SAFETY: the items on the stack were made by this builder: plain
        // values and uncounted handles into this arena.
        let Some(items) = (unsafe { Seq::from_stack_tail(&mut self.values, v0, &mut self.arena) }) else {
            return self.arena_refused();
        };
        if let Seq::Uncounted(..) = items {
            // The array had items, so the stack had room for one more value
            // at `v0` (where its first item was): no capacity check.
            debug_assert!(v0 < self.values.capacity());
            // SAFETY: `v0 < capacity` (above); the slot's old item was moved
            // into the arena and `len` is `v0`, so nothing is overwritten
            // that would need dropping.
            unsafe {
                self.values.as_mut_ptr().add(v0).write(Value::Array(Array(items)));
                self.values.set_len(v0 + 1);
            }
            return Ok(());
        }
        // An empty owned container: the enclosing one is on the stack.
        self.push_on_stack(|| Value::Array(Array(items)));
        Ok(())
    }
    #[inline(always)]
    fn empty_array(&mut self) -> Result<()> {
        // SAFETY: an empty owned container (no memory).
        unsafe { self.push(|| Value::Array(Array(Seq::Owned(Vec::new())))) };
        Ok(())
    }
    #[inline(always)]
    fn empty_object(&mut self) -> Result<()> {
        // SAFETY: as above.
        unsafe { self.push(|| Value::Object(Map { members: Seq::Owned(Vec::new()) })) };
        Ok(())
    }
    #[inline(always)]
    fn begin_object(&mut self) -> Result<()> {
        // The enclosing array now holds a container: it goes on the stack.
        self.spill_if_open();
        let frame = (self.values.len(), self.names.len());
        push_in_place::<_, RECOVER>(&mut self.frames, || frame);
        Ok(())
    }
    #[inline]
    fn key(&mut self, k: &str, _raw: &str) -> Result<()> {
        debug_assert!((RECOVER && arena::out_of_memory()) || !self.direct.is_open(), "the innermost container is an object");
        let arena = &mut self.arena;
        // Made in its slot (`push_in_place`).
        push_in_place::<_, RECOVER>(&mut self.names, || {
            // SAFETY: the name goes on the names stack, then into an object
            // in the arena.
            unsafe { Str::in_arena::<RECOVER>(k, arena) }
        });
        Ok(())
    }
    #[inline(always)]
    fn takes_around(&self) -> bool {
        true
    }
    #[inline(always)]
    fn ascii_key_around(&mut self, k: &str, around: &[u8; 24]) -> Result<()> {
        debug_assert!((RECOVER && arena::out_of_memory()) || !self.direct.is_open(), "the innermost container is an object");
        if k.len() > INLINE_CAPACITY {
            // SAFETY: the name goes on the names stack, then into an object
            // in the arena. (Made before the push, not in its closure: a
            // second call site of `key`'s closure was not inlined, a call
            // per long name, twitter.json 3% slower in the portable build.)
            let name = unsafe { Str::in_arena::<RECOVER>(k, &mut self.arena) };
            push_in_place::<_, RECOVER>(&mut self.names, || name);
            return Ok(());
        }
        let words = Str::inline_words_around(k.len(), around);
        // Made in its slot (`push_in_place`); SAFETY: the words of an
        // inline name, from `inline_words_around`.
        push_in_place::<_, RECOVER>(&mut self.names, || unsafe { Str::from_inline_words(words) });
        Ok(())
    }
    fn end_object(&mut self) -> Result<()> {
        if RECOVER && arena::out_of_memory() {
            return Err(out_of_memory());
        }
        debug_assert!(!self.direct.is_open(), "the innermost container is an object");
        let (v0, n0) = self.frames.pop().expect("parser balances containers (and memory has not run out)");
        let n = self.values.len() - v0;
        assert_eq!(self.names.len() - n0, n, "one name per member");
        // Repeated names: refused under `Error` (here, unless the parser
        // already refused them), resolved by `dedupe` under `First` and
        // `Last`. Objects without one (almost all) take the plain copy
        // under every policy: `dedupe` for every object (a SipHash map of
        // its names) made `DuplicateKeys::Last` 2.4 times as slow as
        // `Error` on twitter.json.
        let repeat =
            if self.check_names || self.duplicates != DuplicateKeys::Error { super::names::first_repeat(&self.names[n0..]) } else { None };
        // The name check of a large object found no memory (`arena::refused`).
        if RECOVER && arena::out_of_memory() {
            return Err(out_of_memory());
        }
        let members = match repeat {
            Some(i) if self.duplicates == DuplicateKeys::Error => return Err(repeated_name(&self.names[n0 + i])),
            None => {
                if n == 0 {
                    Seq::Owned(Vec::new())
                } else {
                    let Some(dst) = self.arena.alloc_items::<(Str, Value)>(n) else {
                        return self.arena_refused();
                    };
                    // SAFETY: `names[n0..]` and `values[v0..]` are `n`
                    // initialised items each (asserted above); `dst` has room
                    // for `n` members in fresh arena memory. Each is moved
                    // (read once, then forgotten by the stacks' new lengths;
                    // slot `v0`, already read, is overwritten by the object).
                    // They are builder-made: inline or uncounted handles.
                    unsafe {
                        let names = self.names.as_ptr().add(n0);
                        let values = self.values.as_ptr().add(v0);
                        // Field by field: a whole pair would be put
                        // together in stack memory and copied from there
                        // with loads wider than its stores (a
                        // store-forwarding stall per member).
                        let copy = |i: usize| {
                            let member = dst.as_ptr().add(i);
                            std::ptr::addr_of_mut!((*member).0).write(names.add(i).read());
                            std::ptr::addr_of_mut!((*member).1).write(values.add(i).read());
                        };
                        if n <= SMALL_OBJECT {
                            for i in 0..SMALL_OBJECT {
                                if i == n {
                                    break;
                                }
                                copy(i);
                            }
                        } else {
                            for i in 0..n {
                                copy(i);
                            }
                        }
                        self.names.set_len(n0);
                        // The object takes its first member's old slot (so
                        // no capacity check), made there in this branch so
                        // that it is stored straight into it: a `Seq` made
                        // in the match and moved would go through stack
                        // memory (see `push_on_stack`).
                        self.values.as_mut_ptr().add(v0).write(Value::Object(Map { members: Seq::Uncounted(dst, n) }));
                        self.values.set_len(v0 + 1);
                    }
                    return Ok(());
                }
            }
            Some(_) => {
                let policy = self.duplicates;
                let mut members = dedupe(&self.names[n0..], self.values.drain(v0..), policy);
                if RECOVER && arena::out_of_memory() {
                    return Err(out_of_memory());
                }
                // The names were duplicated bitwise into `members` (they own
                // no memory), so the stack's copies are forgotten.
                // SAFETY: `n0 <= len`; the items past it need no drop.
                unsafe { self.names.set_len(n0) };
                // SAFETY: builder-made items, as in `end_array`.
                match unsafe { Seq::from_stack_tail(&mut members, 0, &mut self.arena) } {
                    Some(members) => members,
                    None => return self.arena_refused(),
                }
            }
        };
        // The enclosing container is not written in place (it was moved to
        // the stack when this object began).
        self.push_on_stack(|| Value::Object(Map { members }));
        Ok(())
    }
}

/// Objects of at most this many members are copied by `end_object` one
/// member after the other, with no loop to set up.
const SMALL_OBJECT: usize = 8;

/// The error for a repeated name found by the builder (the caller says it
/// again with its place, from the parser).
#[cold]
#[inline(never)]
fn repeated_name(name: &Str) -> crate::Error {
    crate::Error::new(crate::error::ErrorKind::DuplicateKey { key: name.to_string() })
}

/// Keeps the first or the last value of each name, at the position where
/// the name first appeared (as Python's dict and serde_json's IndexMap do).
/// The names are builder-made (inline or arena) and duplicated bitwise.
#[cold]
#[inline(never)]
///
/// Out of memory (see `arena::refused`), nothing: the builder then reports
/// the error.
fn dedupe(names: &[Str], values: impl Iterator<Item = Value>, policy: DuplicateKeys) -> Vec<(Str, Value)> {
    let mut index: HashMap<&str, usize> = HashMap::new();
    let mut out: Vec<(Str, Value)> = Vec::new();
    if index.try_reserve(names.len()).is_err() || out.try_reserve_exact(names.len()).is_err() {
        arena::refused::<(Str, Value)>(names.len());
        return out;
    }
    for (k, v) in names.iter().zip(values) {
        match index.get(k.as_str()) {
            Some(&i) if policy == DuplicateKeys::Last => out[i].1 = v,
            Some(_) => {}
            None => {
                index.insert(k.as_str(), out.len());
                // SAFETY: builder-made names own no memory; the copy goes
                // into the same arena as the original.
                out.push((unsafe { k.dup_unowned() }, v));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Documents of every kind of root (the arena containers that
    /// `pop_root` takes as two words, and the others), in compact form.
    fn documents() -> Vec<String> {
        let long = "a string longer than the inline capacity of a Str";
        vec![
            "[1,2,3]".into(),
            format!(r#"[[1],"{long}",{{"k":null}}]"#),
            format!(r#"{{"a":1,"b":["{long}",true],"c":{{"d":-2.5}}}}"#),
            "[]".into(),
            "{}".into(),
            "[[],{}]".into(),
            "7".into(),
            "null".into(),
            r#""short""#.into(),
            format!(r#""{long}""#),
        ]
    }

    /// Each document, parsed with the thread's builder, with a builder of
    /// its own (the thread's held), and after failed parses (a syntax
    /// error inside containers, a repeated name): the same value, which
    /// writes back as the text; and trees kept from earlier parses stay
    /// intact.
    #[test]
    fn every_root_from_either_builder_and_after_failures() {
        let mut kept = Vec::new();
        for text in documents() {
            let fresh = Value::from_slice(text.as_bytes()).unwrap();
            assert_eq!(fresh.to_string(), text);
            let own = BUILDER.with(|cell| {
                let _held = cell.borrow_mut();
                Value::from_slice(text.as_bytes()).unwrap()
            });
            assert_eq!(own, fresh, "{text}");
            for bad in [&br#"[{"a":[1,"#[..], br#"{"a":{"b":1,"b":2}}"#, br#"[1,{"x":tru}]"#] {
                assert!(Value::from_slice(bad).is_err());
            }
            let after = Value::from_slice(text.as_bytes()).unwrap();
            assert_eq!(after, fresh, "{text}");
            assert_eq!(after.to_string(), text);
            kept.push((text, fresh, own, after));
        }
        for (text, fresh, own, after) in &kept {
            assert_eq!(fresh.to_string(), *text);
            assert_eq!(own.to_string(), *text);
            assert_eq!(after.to_string(), *text);
        }
        // The thread's builder is idle between parses.
        BUILDER.with(|cell| {
            let b = cell.borrow();
            assert!(b.values.is_empty() && b.names.is_empty() && b.frames.is_empty() && !b.direct.is_open());
        });
    }

    /// A text of `len` characters (cycling through ASCII, two-, three- and
    /// four-byte characters, quotes, backslashes and controls; `seed`
    /// shifts the cycle) and its JSON string body, every character spelt
    /// raw or escaped by its place (`\n`, `\"`, `\\`, `\u00e9`, the
    /// surrogate pair of an emoji, raw UTF-8), with at least one escape.
    fn escaped_text(len: usize, seed: usize) -> (String, String) {
        const CHARS: [char; 9] = ['a', '\n', 'é', '"', '€', '😀', '\\', 'z', '\t'];
        let (mut text, mut body) = (String::new(), String::new());
        for k in 0..len.max(1) {
            let c = CHARS[(k * 7 + seed) % CHARS.len()];
            text.push(c);
            let escape = !(k + seed).is_multiple_of(3) || k == 0 || c < ' ' || c == '"' || c == '\\';
            match c {
                '\n' => body.push_str("\\n"),
                '\t' => body.push_str("\\t"),
                '"' => body.push_str("\\\""),
                '\\' => body.push_str("\\\\"),
                c if escape => {
                    for unit in c.encode_utf16(&mut [0; 2]) {
                        body.push_str(&format!("\\u{unit:04x}"));
                    }
                }
                c => body.push(c),
            }
        }
        (text, body)
    }

    /// `doc` built as `Value::from_slice` builds it, with arenas started at
    /// 0, 300 and 5,000 bytes and at its size (so that its texts meet the
    /// end of a chunk at many places): each value, with that size.
    fn built_with_arena_sizes(doc: &str) -> Vec<(usize, Value)> {
        let options = ReadOptions::new();
        let unchecked = options.clone().duplicate_keys(DuplicateKeys::Last);
        [0, 300, 5000, doc.len()]
            .into_iter()
            .map(|size| {
                let (built, result) = build(size, &options, true, |b| parse::parse(doc.as_bytes(), &unchecked, b));
                result.unwrap();
                (size, built.or_null())
            })
            .collect()
    }

    /// Strings with escapes decoded straight into the arena
    /// (`text_room`): values and names of every length around the inline
    /// capacity and long ones (to 70,000 characters), each followed by
    /// arena strings copied after it, in arenas started at several sizes,
    /// so that the decoded text meets the end of a chunk (the text moves to
    /// a heap buffer, then is copied into the arena) at many places,
    /// mid-escape included, and grows there again; and the same
    /// strings in arrays written in place (the scratch route). Each reads
    /// back as its text.
    #[test]
    fn escaped_strings_decoded_in_place_at_every_length_and_chunk_end() {
        let mut lens: Vec<usize> = (1..=80).collect();
        lens.extend([100, 255, 256, 511, 512, 513, 1000, 4096, 5000, 70_000]);
        let plain = "a plain string longer than the inline capacity";
        let mut doc = String::from("[");
        let mut expected = Vec::new();
        for (i, &len) in lens.iter().enumerate() {
            let (text, body) = escaped_text(len, i);
            let (name, name_body) = escaped_text(len % 40 + (len / 40) % 3 * 11, i + 1);
            doc.push_str(&format!(r#"{{"{name_body}":"{body}","p":"{plain}{i}"}},"{body}","{plain}",[1,"{body}",2],"#));
            expected.push((text, name));
        }
        doc.push_str("0]");
        for (size, value) in built_with_arena_sizes(&doc) {
            let items = value.as_array().unwrap();
            for (i, (text, name)) in expected.iter().enumerate() {
                let at = |k: usize| &items[4 * i + k];
                let object = at(0).as_object().unwrap();
                let members: Vec<_> = object.iter().collect();
                assert!(members[0].0.as_str() == name, "name {i}, arena {size}");
                assert!(members[0].1.as_str() == Some(text.as_str()), "value in an object {i}, arena {size}");
                assert!(members[1].1.as_str() == Some(format!("{plain}{i}").as_str()), "after {i}, arena {size}");
                assert!(at(1).as_str() == Some(text.as_str()), "item {i}, arena {size}");
                assert!(at(2).as_str() == Some(plain), "after item {i}, arena {size}");
                assert!(at(3).as_array().unwrap()[1].as_str() == Some(text.as_str()), "in place {i}, arena {size}");
            }
        }
    }

    /// Objects of 1 to 10 members (`end_object` copies those of up to
    /// `SMALL_OBJECT` members one by one, with no loop, and checks those of
    /// 3 to 8 names pair by pair), each member's value of another kind (a number, a short and a
    /// long string, an array, an object), at the root, as items of an array
    /// and as member values, read with the builder's name check (the
    /// default `DuplicateKeys::Error`) and without it (`Last`, arenas of
    /// several sizes): every member is there, in order, with its name and
    /// the value its text reads as alone.
    #[test]
    fn small_objects_keep_every_member_in_order() {
        let long = "a string longer than the inline capacity of a Str";
        let text = |i: usize| match i % 5 {
            0 => format!("{i}"),
            1 => format!(r#""s{i}""#),
            2 => format!(r#""{long} {i}""#),
            3 => format!("[{i},[]]"),
            _ => format!(r#"{{"in":{i}}}"#),
        };
        for n in 1..=10 {
            let object = format!("{{{}}}", (0..n).map(|i| format!(r#""k{i}":{}"#, text(i + n))).collect::<Vec<_>>().join(","));
            let want: Vec<(String, Value)> =
                (0..n).map(|i| (format!("k{i}"), Value::from_slice(text(i + n).as_bytes()).unwrap())).collect();
            let check = |got: &Value, place: &str| {
                let got: Vec<(String, Value)> = got.as_object().unwrap().iter().map(|(k, v)| (k.to_string(), v.clone())).collect();
                assert_eq!(got, want, "{n} members, {place}");
            };
            let doc = format!(r#"[{object},{object},{{"a":{object},"b":[{object}]}},{object}]"#);
            let mut read = vec![Value::from_slice(doc.as_bytes()).unwrap()];
            read.extend(built_with_arena_sizes(&doc).into_iter().map(|(_, v)| v));
            for value in &read {
                let items = value.as_array().unwrap();
                check(&items[0], "first item");
                check(&items[1], "second item");
                check(&items[2]["a"], "member value");
                check(&items[2]["b"][0], "item of a member");
                check(&items[3], "last item");
            }
            check(&Value::from_slice(object.as_bytes()).unwrap(), "root");
        }
    }

    /// Strings with no escape longer than inline (`long_string`), of every
    /// length around the bounds of its path with no call (16 to
    /// `arena::HERE_MAX` bytes) and past them: as member values (that
    /// path), as items of an array on the stack (after a container: that
    /// path too), of an array written in place and at the root (the
    /// general path), in arenas started at several sizes, so that they
    /// meet the end of a chunk at many places. Each reads back as its
    /// text, and so does the string after it.
    #[test]
    fn plain_long_strings_at_every_length_and_chunk_end() {
        let text = |len: usize, seed: usize| -> String { (0..len).map(|k| char::from(b'a' + ((k * 7 + seed) % 26) as u8)).collect() };
        let lens: Vec<usize> = (20..=140).chain([255, 256, 1000]).collect();
        let mut doc = String::from("[");
        for (i, &len) in lens.iter().enumerate() {
            let (t, next) = (text(len, i), text(30, i + 1));
            doc.push_str(&format!(r#"{{"k":"{t}","n":"{next}"}},[[1],"{t}","{next}"],["{t}","{next}"],"#));
        }
        doc.push_str("0]");
        for (size, value) in built_with_arena_sizes(&doc) {
            let items = value.as_array().unwrap();
            for (i, &len) in lens.iter().enumerate() {
                let (t, next) = (text(len, i), text(30, i + 1));
                let object = items[3 * i].as_object().unwrap();
                assert!(object.get("k").and_then(Value::as_str) == Some(t.as_str()), "member {len}, arena {size}");
                assert!(object.get("n").and_then(Value::as_str) == Some(next.as_str()), "after member {len}, arena {size}");
                for (k, array) in [(1, "on the stack"), (0, "in place")] {
                    let a = items[3 * i + 2 - k].as_array().unwrap();
                    assert!(a[k].as_str() == Some(t.as_str()), "item {array} {len}, arena {size}");
                    assert!(a[k + 1].as_str() == Some(next.as_str()), "after item {array} {len}, arena {size}");
                }
            }
        }
        for len in [20, 23, 128, 129] {
            let t = text(len, 0);
            let root = Value::from_slice(format!(r#""{t}""#).as_bytes()).unwrap();
            assert_eq!(root.as_str(), Some(t.as_str()), "root {len}");
        }
    }

    /// Strings that fit inline (`short_string`), of every length from 0 to
    /// the inline capacity: as member values and items of an array on the
    /// stack (the stack's slot at hand, or the stack grown: objects and
    /// arrays of up to 3,000 of them, in builders whose stacks start
    /// empty), and as items of arrays written in place (the region's slot,
    /// or the region grown). Each reads back as its text, in its place.
    #[test]
    fn short_strings_at_every_length_in_every_place() {
        let text = |len: usize, seed: usize| -> String { (0..len).map(|k| char::from(b'a' + ((k * 5 + seed) % 26) as u8)).collect() };
        for count in [1, 7, 100, 3000] {
            let texts: Vec<String> = (0..count).map(|i| text(i % (INLINE_CAPACITY + 1), i)).collect();
            let quoted: Vec<String> = texts.iter().map(|t| format!(r#""{t}""#)).collect();
            let members: Vec<String> = quoted.iter().enumerate().map(|(i, q)| format!(r#""k{i}":{q}"#)).collect();
            let doc = format!("[{{{}}},[[1],{}],[{}]]", members.join(","), quoted.join(","), quoted.join(","));
            let mut own = ValueBuilder::<false>::IDLE;
            let options = ReadOptions::new();
            let unchecked = options.clone().duplicate_keys(DuplicateKeys::Last);
            for fresh in [true, false] {
                let (built, result) = if fresh {
                    build_with(&mut own, doc.len(), &options, true, |b| parse::parse(doc.as_bytes(), &unchecked, b))
                } else {
                    build(doc.len(), &options, true, |b| parse::parse(doc.as_bytes(), &unchecked, b))
                };
                result.unwrap();
                let value = built.or_null();
                let parts = value.as_array().unwrap();
                let object = parts[0].as_object().unwrap();
                let (stacked, in_place) = (parts[1].as_array().unwrap(), parts[2].as_array().unwrap());
                assert_eq!((object.len(), stacked.len(), in_place.len()), (count, count + 1, count));
                for (i, t) in texts.iter().enumerate() {
                    assert!(object.get(&format!("k{i}")).and_then(Value::as_str) == Some(t.as_str()), "member {i} of {count}");
                    assert!(stacked[i + 1].as_str() == Some(t.as_str()), "item on the stack {i} of {count}");
                    assert!(in_place[i].as_str() == Some(t.as_str()), "item in place {i} of {count}");
                }
            }
        }
    }

    /// Inline names made from the input around them
    /// (`Str::inline_words_around`, the driver's `ascii_key_around`) are
    /// the words `Str::inline_words_of` makes of the name alone, at every
    /// length and whatever bytes are around it.
    #[test]
    fn names_from_the_bytes_around_them_are_the_names_alone() {
        for n in 0..=INLINE_CAPACITY {
            let text: Vec<u8> = (0..n).map(|k| b'a' + (k * 7 % 26) as u8).collect();
            for fill in [0x00, 0xff, b'"', b'x', 0x80] {
                let mut around = [fill; 24];
                around[2..2 + n].copy_from_slice(&text);
                let name = std::str::from_utf8(&text).unwrap();
                assert_eq!(Str::inline_words_around(n, &around), Str::inline_words_of(name).unwrap(), "{n} bytes, {fill:#x} around");
            }
        }
    }

    /// Names of every length up to past inline, each in an object where
    /// the driver has the 24 bytes around it (`ascii_key_around`) and in
    /// one at the end of the input where it has not: read back as their
    /// text, a repeat refused (its words are the first one's, whatever
    /// follows each), and names differing in their last byte both kept.
    #[test]
    fn names_of_every_length_near_and_far_from_the_end() {
        let pad = " ".repeat(40);
        for n in 0..=INLINE_CAPACITY + 4 {
            let name: String = (0..n).map(|k| char::from(b'a' + (k * 5 % 26) as u8)).collect();
            let other: String =
                if n == 0 { "z".into() } else { format!("{}{}", &name[..n - 1], if name.ends_with('z') { 'y' } else { 'z' }) };
            for (at_end, tail) in [(false, pad.as_str()), (true, "")] {
                let doc = format!(r#"[{{"{name}":1,"{other}":[2]}},{{"{name}":3}}{tail}]"#);
                let doc = if at_end { format!(r#"{{"{name}":1,"{other}":[2]}}"#) } else { doc };
                let value = Value::from_slice(doc.as_bytes()).unwrap();
                let object = if at_end { &value } else { &value[0] };
                let keys: Vec<&str> = object.as_object().unwrap().iter().map(|(k, _)| k.as_str()).collect();
                assert_eq!(keys, [name.as_str(), other.as_str()], "{n} bytes, at the end: {at_end}");
                if !at_end {
                    assert_eq!(value[1][name.as_str()], Value::from(3), "{n} bytes");
                }
                let repeat =
                    if at_end { format!(r#"{{"{name}":1,"{name}":[2]}}"#) } else { format!(r#"[{{"{name}":1,"{name}":[2]}}{tail}]"#) };
                let e = Value::from_slice(repeat.as_bytes()).unwrap_err();
                assert!(matches!(e.kind(), crate::error::ErrorKind::DuplicateKey { .. }), "{n} bytes, at the end: {at_end}: {e}");
            }
        }
    }

    /// Containers at the root are counted handles on their arena: a clone
    /// outlives the original, and a child outlives both.
    #[test]
    fn root_containers_are_counted() {
        for text in ["[1,2,3]", r#"[["a string longer than twenty-two bytes"]]"#, r#"{"a":[1,{"b":2}]}"#] {
            let v = Value::from_slice(text.as_bytes()).unwrap();
            match &v {
                Value::Array(a) => assert!(matches!(a.0, Seq::Counted(..)), "{text}"),
                Value::Object(m) => assert!(matches!(m.members, Seq::Counted(..)), "{text}"),
                other => panic!("{text}: {other:?}"),
            }
            let copy = v.clone();
            let child = match &v {
                Value::Array(a) => a[0].clone(),
                Value::Object(m) => m.get("a").unwrap().clone(),
                _ => unreachable!(),
            };
            drop(v);
            assert_eq!(copy.to_string(), text);
            drop(copy);
            assert!(text.contains(&child.to_string()), "{text}");
        }
    }
}

#[cfg(test)]
mod review_tests {
    use super::*;

    /// A walk that panics with values on the builder's stack (an arena
    /// string, an open array and object), caught: the thread's builder is
    /// left as the walk left it, and the next parse must drop that (and
    /// release its arena) and build right. Under ASan/LSan: no leak, no
    /// use after free.
    #[test]
    fn a_walk_that_panics_leaves_the_builder_usable() {
        let long = "a string longer than the inline capacity of a Str";
        for _ in 0..3 {
            let caught = std::panic::catch_unwind(|| {
                let options = ReadOptions::new();
                build(1000, &options, true, |b| -> Result<()> {
                    b.begin_array()?;
                    b.string(long, long)?;
                    b.begin_object()?;
                    b.key(long, long)?;
                    b.begin_array()?;
                    for i in 0..100 {
                        b.string(&format!("{long}{i}"), "")?;
                    }
                    panic!("walk panics");
                })
            });
            assert!(caught.is_err());
            BUILDER.with(|cell| assert!(!cell.borrow().values.is_empty(), "left as the walk left it"));
            let text = format!(r#"[{{"{long}":["{long}",1]}},{{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"a":10}}]"#);
            assert!(Value::from_slice(text.as_bytes()).is_err(), "repeat refused");
            let ok = format!(r#"[{{"{long}":["{long}",1]}}]"#);
            assert_eq!(Value::from_slice(ok.as_bytes()).unwrap().to_string(), ok);
        }
    }

    /// A thread that ends (panicking, uncaught) in the middle of a walk:
    /// the thread-local builder is dropped with values and an arena in it.
    #[test]
    fn a_thread_that_dies_mid_walk() {
        let long = "a string longer than the inline capacity of a Str";
        let r = std::thread::spawn(move || {
            let options = ReadOptions::new();
            let _ = build(1000, &options, true, |b| -> Result<()> {
                b.begin_object()?;
                b.key(long, long)?;
                b.begin_array()?;
                b.string(long, long)?;
                b.number(NumberToken { text: "1", is_integer: true, value: NumberValue::I64(1) })?;
                panic!("walk panics, thread ends");
            });
        })
        .join();
        assert!(r.is_err());
    }
}
