//! The storage shared by `Array` and `Map`: an owned `Vec`, or items in a
//! parse arena (counted or uncounted, see `arena.rs` for the invariant).

use std::ptr::NonNull;

use super::arena::{self, ArenaBuilder};

pub(crate) enum Seq<T> {
    /// Ordinary ownership.
    Owned(Vec<T>),
    /// `len > 0` items in an arena, on which this handle holds a reference.
    Counted(NonNull<T>, usize),
    /// `len > 0` items in an arena, holding no reference: lives only in
    /// arena memory or on the builder's stack (never owned by a user).
    Uncounted(NonNull<T>, usize),
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
        Seq::Owned(Vec::new())
    }
}

impl<T> Seq<T> {
    #[inline]
    pub(crate) fn as_slice(&self) -> &[T] {
        match self {
            Seq::Owned(v) => v,
            // SAFETY: the items were all written by the builder before this
            // handle existed and are never written again. The arena is
            // alive while `self` is borrowed: a counted handle holds a
            // reference; an uncounted one lives inside arena memory reached
            // through `&` from a counted handle (or on the stack of the
            // builder, which holds a reference), and the returned borrow is
            // tied to that of `self`.
            Seq::Counted(p, n) | Seq::Uncounted(p, n) => unsafe { std::slice::from_raw_parts(p.as_ptr(), *n) },
        }
    }

    #[inline]
    pub(crate) fn len(&self) -> usize {
        match self {
            Seq::Owned(v) => v.len(),
            Seq::Counted(_, n) | Seq::Uncounted(_, n) => *n,
        }
    }

    /// Empties the container without copying anything out of an arena.
    pub(crate) fn clear(&mut self) {
        match self {
            Seq::Owned(v) => v.clear(),
            _ => *self = Seq::Owned(Vec::new()),
        }
    }

    /// Moves `items` into the arena (one copy) as an uncounted handle; an
    /// empty container is an owned empty `Vec` (no allocation). `None`
    /// when out of memory (the stack is then as it was).
    ///
    /// # Safety
    /// Every item is plain data or holds only uncounted / memory-free
    /// handles into the same arena (the arena's invariant), so that it
    /// needs no drop and may be duplicated bitwise by `Clone` of the parent.
    pub(crate) unsafe fn from_stack_tail(stack: &mut Vec<T>, from: usize, arena: &mut ArenaBuilder) -> Option<Seq<T>> {
        assert!(from <= stack.len(), "a container starts within the stack");
        let n = stack.len() - from;
        if n == 0 {
            return Some(Seq::Owned(Vec::new()));
        }
        let p = arena.alloc_items::<T>(n)?;
        // SAFETY: `stack[from..]` are `n` initialised items; `p` has room
        // for `n` and is fresh arena memory (no overlap). Ownership moves:
        // the stack forgets the items (length back to `from`).
        unsafe {
            std::ptr::copy_nonoverlapping(stack.as_ptr().add(from), p.as_ptr(), n);
            stack.set_len(from);
        }
        Some(Seq::Uncounted(p, n))
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
            Seq::Uncounted(p, n) => {
                // SAFETY: the items' arena is `reference` (caller's promise).
                debug_assert_eq!(unsafe { arena::arena_of(*p) }, reference);
                Seq::Counted(*p, *n)
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
    /// there (child containers become counted handles, strings owned).
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
        *self = Seq::Owned(v);
    }

    pub(crate) fn into_vec(self) -> Vec<T> {
        let mut this = self;
        if let Seq::Owned(v) = &mut this {
            return std::mem::take(v);
        }
        this.as_slice().to_vec()
    }
}

impl<T: Clone> Clone for Seq<T> {
    fn clone(&self) -> Self {
        match self {
            Seq::Owned(v) => Seq::Owned(v.clone()),
            Seq::Counted(p, n) | Seq::Uncounted(p, n) => {
                // SAFETY: arena handles are non-empty containers placed by
                // `from_stack_tail`, and `self` keeps the arena alive (see
                // `as_slice`); the new reference belongs to the new handle.
                unsafe { arena::retain(arena::arena_of(*p)) };
                Seq::Counted(*p, *n)
            }
        }
    }
}

impl<T> Drop for Seq<T> {
    fn drop(&mut self) {
        if let Seq::Counted(p, _) = *self {
            // SAFETY: this handle holds a reference on the arena of its
            // items (placed by `from_stack_tail`), which it gives back and
            // never uses again.
            unsafe { arena::release(arena::arena_of(p)) }
        }
    }
}
