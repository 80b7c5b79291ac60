//! Test support: a buffer between two inaccessible pages, so that a read
//! before its first byte or after its last faults (Linux on x86-64, where
//! pages are 4 KiB; the SIMD kernels it checks are x86-64 ones).

/// Three anonymous pages, the first and last `PROT_NONE`.
pub(crate) struct Guarded {
    base: *mut u8,
}

const PAGE: usize = 4096;

extern "C" {
    fn mmap(addr: *mut u8, len: usize, prot: i32, flags: i32, fd: i32, off: i64) -> *mut u8;
    fn mprotect(addr: *mut u8, len: usize, prot: i32) -> i32;
    fn munmap(addr: *mut u8, len: usize) -> i32;
}

impl Guarded {
    pub(crate) fn new() -> Self {
        // SAFETY: an anonymous private mapping of three pages (PROT_READ |
        // PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS); the first and last made
        // inaccessible.
        unsafe {
            let base = mmap(std::ptr::null_mut(), 3 * PAGE, 3, 0x02 | 0x20, -1, 0);
            assert!(!base.is_null() && base as isize != -1);
            assert_eq!(mprotect(base, PAGE, 0), 0);
            assert_eq!(mprotect(base.add(2 * PAGE), PAGE, 0), 0);
            Guarded { base }
        }
    }

    /// `doc` copied to the start of the middle page (after the first guard).
    pub(crate) fn at_start(&mut self, doc: &[u8]) -> &[u8] {
        assert!(doc.len() <= PAGE);
        // SAFETY: inside the readable middle page.
        unsafe {
            let p = self.base.add(PAGE);
            std::ptr::copy_nonoverlapping(doc.as_ptr(), p, doc.len());
            std::slice::from_raw_parts(p, doc.len())
        }
    }

    /// `doc` copied to the end of the middle page (before the last guard).
    pub(crate) fn at_end(&mut self, doc: &[u8]) -> &[u8] {
        assert!(doc.len() <= PAGE);
        // SAFETY: inside the readable middle page.
        unsafe {
            let p = self.base.add(2 * PAGE - doc.len());
            std::ptr::copy_nonoverlapping(doc.as_ptr(), p, doc.len());
            std::slice::from_raw_parts(p, doc.len())
        }
    }
}

impl Drop for Guarded {
    fn drop(&mut self) {
        // SAFETY: the mapping made in `new`, no longer borrowed.
        unsafe { munmap(self.base, 3 * PAGE) };
    }
}
