//! The storage shared by `Array` and `Map`: an owned `Vec`, or items in a
//! parse arena (counted or uncounted, see `arena.rs` for the invariant).

use std::ptr::NonNull;

use super::arena::{self, ArenaBuilder};

/// 16 bytes: a tag byte, the length of arena items in the seven bytes
/// after it (`Len`), and a pointer (a `Seq` was 24 bytes, `Vec`'s three
/// words; at 16, `Value` is 24 bytes and an object member 40).
///
/// `repr(u8)` fixes the layout (RFC 2195: each variant a `repr(C)` struct
/// after the `u8` tag), so an arena handle is made as two words, one store
/// each (`Seq::arena`).
#[repr(u8)]
#[allow(dead_code)] // arena variants are made by `Seq::arena`'s transmute
pub(crate) enum Seq<T> {
    /// No items, no memory.
    Empty = 0,
    /// Ordinary ownership (boxed, so that the handle is one pointer).
    Owned(Box<Vec<T>>) = 1,
    /// `len > 0` items in an arena, on which this handle holds a reference.
    Counted(Len, NonNull<T>) = COUNTED,
    /// `len > 0` items in an arena, holding no reference: lives only in
    /// arena memory or on the builder's stack (never owned by a user).
    Uncounted(Len, NonNull<T>) = UNCOUNTED,
}

const COUNTED: u8 = 2;
const UNCOUNTED: u8 = 3;

/// The length of arena items in 56 bits: the seven bytes after the tag.
/// Items are at least 16 bytes each, so 2^56 of them would be 2^60 bytes of
/// arena: more than any machine's address space (x86-64 and AArch64 have
/// at most 57 bits).
#[derive(Clone, Copy)]
#[allow(dead_code)] // read whole, with the tag (`Len::get`)
pub(crate) struct Len([u8; 7]);

impl Len {
    #[inline(always)]
    pub(crate) fn get(&self) -> usize {
        // SAFETY: `Len` sits at byte 1 of its `Seq` (after the tag, see
        // `Seq`), so the word that ends with it starts one byte before it,
        // inside the same `Seq`, and every byte of that word is an
        // initialised integer (the tag and the length).
        let word = unsafe { std::ptr::from_ref(self).cast::<u8>().sub(1).cast::<u64>().read_unaligned() };
        (u64::from_le(word) >> 8) as usize
    }
}

// SAFETY: an owned `Seq` is a `Vec<T>`. An arena `Seq` shares immutable
// items (no `&mut` into arena memory ever exists) and an atomic count, so
// using it from several threads needs `T: Sync` for the shared items and,
// since whichever thread gives back the last reference frees the items,
// `T: Send`.
unsafe impl<T: Send + Sync> Send for Seq<T> {}
// SAFETY: as above; `&Seq` only reads the items.
unsafe impl<T: Send + Sync> Sync for Seq<T> {}

impl<T> Default for Seq<T> {
    fn default() -> Self {
        Seq::Empty
    }
}

impl<T> Seq<T> {
    /// An owned container of `v`'s items (no allocation when `v` has
    /// none).
    #[inline]
    pub(crate) fn from_vec(v: Vec<T>) -> Seq<T> {
        if v.capacity() == 0 {
            Seq::Empty
        } else {
            Seq::Owned(Box::new(v))
        }
    }

    /// Items `p..p + n` of an arena, as an uncounted handle (`n > 0`).
    #[inline(always)]
    pub(crate) fn uncounted(p: NonNull<T>, n: usize) -> Seq<T> {
        debug_assert!(n > 0);
        Seq::arena(UNCOUNTED, p, n)
    }

    /// An arena handle (`tag` `COUNTED` or `UNCOUNTED`) made as two words.
    #[inline(always)]
    fn arena(tag: u8, p: NonNull<T>, n: usize) -> Seq<T> {
        /// An arena variant's layout as a word and a pointer.
        #[repr(C)]
        struct Words<T> {
            head: u64,
            ptr: NonNull<T>,
        }
        assert!((n as u64) >> 56 == 0, "arena items fit 56 bits (see `Len`)");
        debug_assert!(tag == COUNTED || tag == UNCOUNTED);
        let words = Words { head: (tag as u64 | (n as u64) << 8).to_le(), ptr: p };
        // SAFETY: `Seq` is `repr(u8)`: the arena variants are laid out as
        // `repr(C)` structs `{ tag: u8, Len, NonNull<T> }`, 16 bytes, no
        // padding, as `Words`; its first byte in memory is `tag`, an arena
        // variant's, then the length's seven bytes, then the pointer.
        unsafe { std::mem::transmute::<Words<T>, Seq<T>>(words) }
    }

    #[inline]
    pub(crate) fn as_slice(&self) -> &[T] {
        match self {
            Seq::Empty => &[],
            Seq::Owned(v) => v,
            // SAFETY: the items were all written by the builder before this
            // handle existed and are never written again. The arena is
            // alive while `self` is borrowed: a counted handle holds a
            // reference; an uncounted one lives inside arena memory reached
            // through `&` from a counted handle (or on the stack of the
            // builder, which holds a reference), and the returned borrow is
            // tied to that of `self`.
            Seq::Counted(n, p) | Seq::Uncounted(n, p) => unsafe { std::slice::from_raw_parts(p.as_ptr(), n.get()) },
        }
    }

    #[inline]
    pub(crate) fn len(&self) -> usize {
        match self {
            Seq::Empty => 0,
            Seq::Owned(v) => v.len(),
            Seq::Counted(n, _) | Seq::Uncounted(n, _) => n.get(),
        }
    }

    /// Empties the container without copying anything out of an arena.
    pub(crate) fn clear(&mut self) {
        match self {
            Seq::Owned(v) => v.clear(),
            _ => *self = Seq::Empty,
        }
    }

    /// Moves `items` into the arena (one copy) as an uncounted handle; an
    /// empty container is `Empty` (no allocation).
    ///
    /// # Safety
    /// Every item is plain data or holds only uncounted / memory-free
    /// handles into the same arena (the arena's invariant), so that it
    /// needs no drop and may be duplicated bitwise by `Clone` of the parent.
    pub(crate) unsafe fn from_stack_tail(stack: &mut Vec<T>, from: usize, arena: &mut ArenaBuilder) -> Seq<T> {
        assert!(from <= stack.len(), "a container starts within the stack");
        let n = stack.len() - from;
        if n == 0 {
            return Seq::Empty;
        }
        let p = arena.alloc_items::<T>(n);
        // SAFETY: `stack[from..]` are `n` initialised items; `p` has room
        // for `n` and is fresh arena memory (no overlap). Ownership moves:
        // the stack forgets the items (length back to `from`).
        unsafe {
            std::ptr::copy_nonoverlapping(stack.as_ptr().add(from), p.as_ptr(), n);
            stack.set_len(from);
        }
        Seq::uncounted(p, n)
    }

    /// Turns the builder's root container into a counted handle, taking
    /// over the builder's reference.
    ///
    /// # Safety
    /// `self` is uncounted (or owned), in the arena whose reference
    /// `reference` is, and the caller gives that reference up.
    pub(crate) unsafe fn into_counted(self, reference: NonNull<arena::ChunkHeader>) -> Seq<T> {
        let this = std::mem::ManuallyDrop::new(self);
        match &*this {
            Seq::Uncounted(n, p) => {
                // SAFETY: the items' arena is `reference` (caller's promise).
                debug_assert_eq!(unsafe { arena::arena_of(*p) }, reference);
                Seq::arena(COUNTED, *p, n.get())
            }
            _ => {
                // SAFETY: the caller gave us the reference; nothing else of
                // ours uses the arena.
                unsafe { arena::release(reference) };
                // SAFETY: `this` is not used again (and is not dropped).
                unsafe { std::ptr::read(&*this) }
            }
        }
    }
}

impl<T: Clone> Seq<T> {
    /// The owned `Vec`, after copying the items out of an arena if they are
    /// there (child containers become counted handles, strings owned); an
    /// empty container gets an empty `Vec` (boxed).
    #[inline]
    pub(crate) fn make_mut(&mut self) -> &mut Vec<T> {
        if !matches!(self, Seq::Owned(_)) {
            self.copy_out();
        }
        match self {
            Seq::Owned(v) => v,
            _ => unreachable!("copied out above"),
        }
    }

    #[cold]
    fn copy_out(&mut self) {
        // `Clone` of each item makes it user-ownable; the old handle is
        // dropped (giving back its reference) after the copy is made.
        let v = self.as_slice().to_vec();
        *self = Seq::Owned(Box::new(v));
    }

    pub(crate) fn into_vec(self) -> Vec<T> {
        let mut this = self;
        if let Seq::Owned(v) = &mut this {
            return std::mem::take(&mut **v);
        }
        this.as_slice().to_vec()
    }
}

impl<T: Clone> Clone for Seq<T> {
    fn clone(&self) -> Self {
        match self {
            Seq::Empty => Seq::Empty,
            Seq::Owned(v) => Seq::from_vec((**v).clone()),
            Seq::Counted(n, p) | Seq::Uncounted(n, p) => {
                // SAFETY: arena handles are non-empty containers placed by
                // `from_stack_tail`, and `self` keeps the arena alive (see
                // `as_slice`); the new reference belongs to the new handle.
                unsafe { arena::retain(arena::arena_of(*p)) };
                Seq::arena(COUNTED, *p, n.get())
            }
        }
    }
}

impl<T> Drop for Seq<T> {
    fn drop(&mut self) {
        if let Seq::Counted(_, p) = *self {
            // SAFETY: this handle holds a reference on the arena of its
            // items (placed by `from_stack_tail`), which it gives back and
            // never uses again.
            unsafe { arena::release(arena::arena_of(p)) }
        }
    }
}
