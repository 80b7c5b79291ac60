//! The storage shared by `Array` and `Map`: an owned `Vec`, or items in a
//! parse arena (counted or uncounted, see `arena.rs` for the invariant).

use std::ptr::NonNull;

use super::arena::{self, ArenaBuilder};
use super::{Str, Value};

pub(crate) enum Seq<T: Item> {
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
unsafe impl<T: Item + Send + Sync> Send for Seq<T> {}
// SAFETY: as above; `&Seq` only reads the items.
unsafe impl<T: Item + Send + Sync> Sync for Seq<T> {}

impl<T: Item> Default for Seq<T> {
    fn default() -> Self {
        Seq::Owned(Vec::new())
    }
}

impl<T: Item> Seq<T> {
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

impl<T: Item + Clone> Seq<T> {
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

impl<T: Item + Clone> Clone for Seq<T> {
    fn clone(&self) -> Self {
        match self {
            // (Each item's clone may be a container's again: a tree of
            // owned vectors, built by hand, is cloned level by level, with
            // room on the stack at each.)
            Seq::Owned(v) if v.is_empty() => Seq::Owned(Vec::new()),
            Seq::Owned(v) => crate::stack::deeper(|| Seq::Owned(v.clone())),
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

impl<T: Item> Drop for Seq<T> {
    fn drop(&mut self) {
        match self {
            Seq::Counted(p, _) => {
                // SAFETY: this handle holds a reference on the arena of its
                // items (placed by `from_stack_tail`), which it gives back
                // and never uses again.
                unsafe { arena::release(arena::arena_of(*p)) }
            }
            Seq::Owned(items) if !items.is_empty() => drop_nested(items),
            _ => {}
        }
    }
}

/// What a container's items are (a `Value`, or an object's member): for
/// dropping a tree of owned vectors without recursion.
pub(crate) trait Item: Sized {
    /// Takes out the items of the container this item is (or holds as its
    /// value) when they are in an owned vector, and not none.
    fn take_owned(&mut self) -> Option<Owned>;
}

/// A container's owned items, taken out to be dropped.
pub(crate) enum Owned {
    Items(Vec<Value>),
    Members(Vec<(Str, Value)>),
}

impl Item for Value {
    #[inline]
    fn take_owned(&mut self) -> Option<Owned> {
        match self {
            Value::Array(a) => match &mut a.0 {
                Seq::Owned(items) if !items.is_empty() => Some(Owned::Items(std::mem::take(items))),
                _ => None,
            },
            Value::Object(m) => match &mut m.members {
                Seq::Owned(members) if !members.is_empty() => Some(Owned::Members(std::mem::take(members))),
                _ => None,
            },
            _ => None,
        }
    }
}

impl Item for (Str, Value) {
    #[inline]
    fn take_owned(&mut self) -> Option<Owned> {
        self.1.take_owned()
    }
}

/// Drops the containers nested in `items` one by one from a list, not by
/// recursion (a `Value` built of owned vectors may be nested as deep as
/// memory allows: by hand, `to_value`, a lossless read): each container's
/// items are taken out of it before it is dropped, so every drop is of a
/// container whose own containers are empty. `items` themselves are
/// dropped by the caller, as shallow then. Arena containers are dropped
/// as they are (an arena is freed whole, not item by item).
fn drop_nested<T: Item>(items: &mut [T]) {
    fn take<T: Item>(items: &mut [T], pending: &mut Vec<Owned>) {
        for item in items {
            if let Some(owned) = item.take_owned() {
                pending.push(owned);
            }
        }
    }
    let mut pending = Vec::new();
    take(items, &mut pending);
    while let Some(owned) = pending.pop() {
        match owned {
            Owned::Items(mut items) => take(&mut items, &mut pending),
            Owned::Members(mut members) => take(&mut members, &mut pending),
        }
    }
}
