//! `WriteOptions::zero_buffers(true)` with sorted objects: no memory the
//! writer frees still holds an object name, in the order it is written or
//! byte-reversed (a name's first 16 bytes as a native-endian `u128`, the
//! sort prefix). Every block is zero-filled when allocated, so a name found
//! in a freed block was put there while the block was live.
//!
//! Before the fix, the serde path's stack of names (`SortStacks::keys`,
//! grown by `Vec` reallocation and freed as it was) and the sort prefixes
//! of both paths (`SortMemory`, the shape cache) were freed unwiped.

use std::alloc::{GlobalAlloc, Layout, System};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use jetjson::{Value, WriteOptions};

static SCANNING: AtomicBool = AtomicBool::new(false);
static FORWARD: AtomicUsize = AtomicUsize::new(0);
static REVERSED: AtomicUsize = AtomicUsize::new(0);
/// Exactly 16 bytes: its sort prefix is the whole name.
const NAME: &[u8; 16] = b"ZK3Y-S3CR3T-77aa";

struct Scanning;

// SAFETY: forwards to `System`; allocations are zero-filled (they are
// ours until returned), freed blocks only read before being freed.
unsafe impl GlobalAlloc for Scanning {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        // SAFETY: forwarded; `p` has `l.size()` writable bytes.
        unsafe {
            let p = System.alloc(l);
            if !p.is_null() {
                std::ptr::write_bytes(p, 0, l.size());
            }
            p
        }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        if SCANNING.load(Ordering::Relaxed) {
            // SAFETY: the block is still ours; only read.
            let b = unsafe { std::slice::from_raw_parts(p, l.size()) };
            let mut rev = *NAME;
            rev.reverse();
            if b.windows(16).any(|w| w == NAME) {
                FORWARD.fetch_add(1, Ordering::Relaxed);
            }
            if b.windows(16).any(|w| w == rev) {
                REVERSED.fetch_add(1, Ordering::Relaxed);
            }
        }
        // SAFETY: forwarded as is.
        unsafe { System.dealloc(p, l) }
    }
}

#[global_allocator]
static ALLOCATOR: Scanning = Scanning;

/// Writes an object with `NAME` and enough other names to be sorted (and
/// for the stacks to grow) on a fresh thread; the blocks freed from the
/// write to the thread's end holding the name (forwards, reversed).
fn freed_blocks_with_the_name(zero: bool, serde_path: bool) -> (usize, usize) {
    FORWARD.store(0, Ordering::Relaxed);
    REVERSED.store(0, Ordering::Relaxed);
    std::thread::spawn(move || {
        // The name lives on this stack: the serde path's map borrows it,
        // so no heap block of the test's own holds it.
        let name = *NAME;
        let name = std::str::from_utf8(&name).expect("ASCII");
        let others: Vec<String> = (0..40).map(|i| format!("zz{i:02}")).collect();
        let mut value = None;
        if !serde_path {
            // A parsed `Value` holds the name in its own memory, which is
            // not the writer's: made and kept out of the scan (only the
            // reversed form, which only a sort prefix has, is counted).
            let mut text = String::from("{");
            for o in &others {
                text.push_str(&format!("\"{o}\":1,"));
            }
            text.push_str(&format!("\"{name}\":2}}"));
            value = Some(Value::from_slice(text.as_bytes()).expect("valid"));
        }
        let opts = WriteOptions::go().zero_buffers(zero);
        SCANNING.store(true, Ordering::Relaxed);
        let mut out = match &value {
            None => {
                let mut m: HashMap<&str, u32> = others.iter().map(|o| (o.as_str(), 1)).collect();
                m.insert(name, 2);
                jetjson::to_vec_with(&m, &opts).expect("writable")
            }
            Some(v) => v.to_vec_with(&opts).expect("writable"),
        };
        assert!(out.windows(16).any(|w| w == NAME));
        // The output is the caller's: wiped before it is freed.
        out.iter_mut().for_each(|b| *b = 0);
        std::hint::black_box(&mut out[..]);
        drop(out);
        SCANNING.store(false, Ordering::Relaxed);
        drop(value);
        SCANNING.store(true, Ordering::Relaxed);
    })
    .join()
    .expect("worker");
    SCANNING.store(false, Ordering::Relaxed);
    (FORWARD.load(Ordering::Relaxed), REVERSED.load(Ordering::Relaxed))
}

#[test]
fn zeroed_writers_leave_no_object_name_behind() {
    // Without zeroing the scan finds the name (so the checks can fail).
    let (forward, reversed) = freed_blocks_with_the_name(false, true);
    assert!(forward > 0 && reversed > 0, "serde path, not zeroing: {forward} {reversed}");
    let (_, reversed) = freed_blocks_with_the_name(false, false);
    assert!(reversed > 0, "Value path, not zeroing: {reversed}");
    assert_eq!(freed_blocks_with_the_name(true, true), (0, 0), "serde path, zeroing");
    assert_eq!(freed_blocks_with_the_name(true, false).1, 0, "Value path, zeroing: a sort prefix");
}
