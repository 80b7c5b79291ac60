//! Pausing CPython's cyclic garbage collector while a document is built.
//!
//! Every list (and every dict holding a container) the builder creates is
//! tracked by the collector, and each allocation counts toward the next
//! collection: building a large document triggers hundreds of young-
//! generation collections and some full ones, each traversing objects that
//! are all reachable (the builder holds them). That is a quarter of the
//! time on list-heavy documents. Nothing the builder creates can form a
//! cycle, so nothing is lost by pausing the collector for the build: the
//! new objects are traversed at the next collection after it, once.
//!
//! The pause is invisible to other code: with the GIL held and no Python
//! code run by the builder (creating and freeing str, int, float, list and
//! dict objects runs none), no other thread or callback can observe the
//! collector's state in between. On free-threaded builds other threads run
//! concurrently and could observe it, so there the collector is left alone.

use pyo3::ffi;

/// Pauses the collector until dropped (if it was running).
pub(crate) struct GcPause {
    #[cfg_attr(any(not(Py_3_10), Py_GIL_DISABLED), allow(dead_code))]
    resume: bool,
}

impl GcPause {
    #[inline]
    pub(crate) fn new() -> GcPause {
        #[cfg(all(Py_3_10, not(Py_GIL_DISABLED)))]
        {
            // SAFETY: called with the GIL held (inside `loads`); returns
            // whether the collector was enabled before.
            let was_enabled = unsafe { ffi::PyGC_Disable() } != 0;
            GcPause { resume: was_enabled }
        }
        #[cfg(any(not(Py_3_10), Py_GIL_DISABLED))]
        {
            GcPause { resume: false }
        }
    }
}

impl Drop for GcPause {
    #[inline]
    fn drop(&mut self) {
        #[cfg(all(Py_3_10, not(Py_GIL_DISABLED)))]
        if self.resume {
            // SAFETY: the GIL is still held (the pause lives inside `loads`).
            unsafe { ffi::PyGC_Enable() };
        }
    }
}
