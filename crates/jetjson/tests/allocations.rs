//! What the library allocates, observed by a test global allocator:
//!
//! * `max_size` bounds memory: reading an endless stream with a limit
//!   allocates a small multiple of the limit, then fails; parsing a
//!   document allocates a bounded multiple of its size.
//! * `WriteOptions::zero_buffers(true)`: no memory the writer frees, or
//!   keeps in its per-thread pool until the thread exits, still holds the
//!   output's bytes (checked by scanning every block as it is freed).
//! * A parsed `Value` lives in a per-document arena: parsing allocates a
//!   few blocks, not one per container or long string, and dropping the
//!   tree frees those few without walking it.
//!
//! Allocation *failure* is not simulated here: Rust's default handler
//! aborts the process on a failed allocation, so the defence is not to ask
//! for unbounded memory (`max_size`); see SECURITY.md.
//!
//! The allocator's counters are global, so every check runs inside one
//! test, one after the other, each on its own thread (counted per thread).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::io::Read;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use jetjson::{ErrorKind, ReadOptions, Value, WriteOptions};

struct Counting;

thread_local! {
    /// Bytes live on this thread (allocated here minus freed here), and
    /// the peak since the last reset.
    static LIVE: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
    /// Blocks allocated and freed on this thread.
    static ALLOCS: Cell<usize> = const { Cell::new(0) };
    static FREES: Cell<usize> = const { Cell::new(0) };
}

/// While set, every freed block is searched for the current `marker()`.
static SCANNING: AtomicBool = AtomicBool::new(false);
static MARKER_FOUND: AtomicUsize = AtomicUsize::new(0);
/// One marker per run: a run without zeroing leaves its output in freed
/// memory on purpose, and later blocks may be carved from that memory
/// uninitialised, so a later run must not look for the same bytes.
const MARKERS: [&[u8]; 2] = [b"S3CR3T-T0K3N-5a1c", b"K3Y-M4T3R14L-9f2e"];
static MARKER_INDEX: AtomicUsize = AtomicUsize::new(0);

fn marker() -> &'static [u8] {
    MARKERS[MARKER_INDEX.load(Ordering::Relaxed)]
}

fn count(delta: isize) {
    // `try_with`: allocations during thread teardown are not counted.
    let _ = if delta >= 0 { ALLOCS.try_with(|n| n.set(n.get() + 1)) } else { FREES.try_with(|n| n.set(n.get() + 1)) };
    let _ = LIVE.try_with(|live| {
        let now = live.get() + delta;
        live.set(now);
        let _ = PEAK.try_with(|peak| peak.set(peak.get().max(now)));
    });
}

// SAFETY: every method forwards to `System` with the same arguments; the
// bookkeeping only reads the block being freed (which is still ours until
// `System.dealloc` returns) and touches thread-local counters.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded as is.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            count(layout.size() as isize);
        }
        p
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded as is.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            count(layout.size() as isize);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if SCANNING.load(Ordering::Relaxed) {
            // SAFETY: `ptr` points at `layout.size()` bytes we allocated
            // and the caller still owns; they are only read.
            let block = unsafe { std::slice::from_raw_parts(ptr, layout.size()) };
            if block.windows(marker().len()).any(|w| w == marker()) {
                MARKER_FOUND.fetch_add(1, Ordering::Relaxed);
            }
        }
        count(-(layout.size() as isize));
        // SAFETY: forwarded as is.
        unsafe { System.dealloc(ptr, layout) }
    }
    // `realloc` is the trait's default: alloc, copy, dealloc, so a block
    // left behind by growth is scanned by `dealloc` too.
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Runs `f` on a fresh thread; returns its result and the peak number of
/// bytes that thread had allocated at once.
fn peak_of<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> (T, usize) {
    std::thread::spawn(move || {
        LIVE.with(|l| l.set(0));
        PEAK.with(|p| p.set(0));
        let out = f();
        (out, PEAK.with(Cell::get).max(0) as usize)
    })
    .join()
    .expect("worker")
}

/// An endless JSON array `[0,0,0,…`, counting what is read.
struct Endless {
    read: usize,
}

impl Read for Endless {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        for (k, b) in buf.iter_mut().enumerate() {
            *b = match self.read + k {
                0 => b'[',
                i if i % 2 == 1 => b'0',
                _ => b',',
            };
        }
        self.read += buf.len();
        Ok(buf.len())
    }
}

const MIB: usize = 1 << 20;

fn max_size_bounds_what_reading_allocates() {
    for limit in [64 << 10, MIB, 16 * MIB] {
        let ((r, read), peak) = peak_of(move || {
            let mut src = Endless { read: 0 };
            let r = Value::from_reader_with(&mut src, &ReadOptions::new().max_size(limit)).map(drop);
            (r, src.read)
        });
        let e = r.expect_err("an endless stream is over any limit");
        assert_eq!(e.kind(), &ErrorKind::SizeLimit { limit });
        assert!(read <= limit + 1, "read {read} bytes with max_size {limit}");
        // The read buffer grows by doubling to at most twice the limit, and
        // while it moves, the old block (up to the limit) is live too:
        // three times the limit, never the stream.
        assert!(peak <= 3 * limit + 64 * 1024, "peak {peak} bytes with max_size {limit}");
    }
}

/// A document of `n` bytes: an array of short strings and numbers.
fn array_document(n: usize) -> Vec<u8> {
    let mut v = b"[".to_vec();
    let mut i = 0u64;
    while v.len() < n {
        v.extend_from_slice(format!("\"item-{i}\",{i},").as_bytes());
        i += 1;
    }
    v.extend_from_slice(b"0]");
    v
}

/// The `Value` of a document is bounded by a multiple of its size (each
/// element is a 32-byte `Value` plus its string's heap bytes); a single
/// string costs its own length once more (checked with 500 MB).
fn parsing_allocates_a_bounded_multiple_of_the_input() {
    let doc = array_document(8 * MIB);
    let len = doc.len();
    let (v, peak) = peak_of(move || Value::from_slice(&doc).expect("valid").as_array().map(jetjson::Array::len));
    let items = v.unwrap();
    assert!(items > 500_000, "{items}");
    assert!(peak <= 16 * len, "Value of an {len}-byte array: peak {peak} bytes ({:.1}x)", peak as f64 / len as f64);

    // A 500 MB string (the document is built outside the measured thread).
    let size = 500_000_000;
    let mut doc = b"\"".to_vec();
    doc.resize(size + 1, b'x');
    doc.push(b'"');
    let len = doc.len();
    let (n, peak) = peak_of(move || Value::from_slice(&doc).expect("valid").as_str().map(str::len));
    assert_eq!(n, Some(size));
    assert!(peak <= len + MIB, "Value of a {len}-byte string: peak {peak} bytes");
}

/// 20,000 objects, 20,000 arrays and 20,000 strings too long to be inline:
/// parsing them takes a few arena chunks (plus the builder's stacks, grown
/// once on this fresh thread), and dropping the tree frees only the chunks.
fn parsed_trees_allocate_per_document() {
    let mut doc = b"[".to_vec();
    for i in 0..20_000 {
        doc.extend_from_slice(format!("{{\"key-{i}\":[\"a string longer than the inline capacity {i}\"]}},").as_bytes());
    }
    doc.extend_from_slice(b"{}]");
    let ((allocs, frees, items), _) = peak_of(move || {
        let a0 = ALLOCS.with(Cell::get);
        let v = Value::from_slice(&doc).expect("valid");
        let allocs = ALLOCS.with(Cell::get) - a0;
        let items = v.as_array().map(jetjson::Array::len);
        let f0 = FREES.with(Cell::get);
        drop(v);
        (allocs, FREES.with(Cell::get) - f0, items)
    });
    assert_eq!(items, Some(20_001));
    assert!(allocs < 100, "parsing 40,000 containers made {allocs} allocations");
    assert!(frees < 20, "dropping a parsed tree of 40,000 containers made {frees} frees");
}

/// Serializes a value holding `marker()` on a fresh thread and counts the
/// freed blocks (including the thread's pool, freed at thread exit) that
/// still hold it.
fn blocks_left_holding_the_output(zero: bool) -> usize {
    MARKER_INDEX.store(usize::from(zero), Ordering::Relaxed);
    MARKER_FOUND.store(0, Ordering::Relaxed);
    std::thread::spawn(move || {
        let secret = std::str::from_utf8(marker()).unwrap();
        // Big enough that the writer's buffer grows several times.
        // Each string is formatted on the stack: a heap `String` holding the
        // marker would be freed right here, and its memory handed out again,
        // uninitialised, to some later block (a finding that is not output).
        let v = Value::Array(
            (0..2000)
                .map(|i| {
                    use std::io::Write;
                    let mut buf = [0u8; 32];
                    let mut cursor = std::io::Cursor::new(&mut buf[..]);
                    write!(cursor, "{secret}-{i}").expect("fits");
                    let n = cursor.position() as usize;
                    Value::String(std::str::from_utf8(&buf[..n]).expect("ASCII").into())
                })
                .collect(),
        );
        let small = Value::String(secret.into());
        SCANNING.store(true, Ordering::Relaxed);
        let mut outputs = Vec::new();
        for opts in [WriteOptions::compact(), WriteOptions::go(), WriteOptions::jcs(), WriteOptions::go().indent(2)] {
            let opts = opts.zero_buffers(zero);
            outputs.push(v.to_vec_with(&opts).expect("writable"));
            outputs.push(jetjson::to_vec_with(&v, &opts).expect("writable"));
            outputs.push(small.to_vec_with(&opts).expect("writable"));
            // The caller's writer is sized up front: its own growth would
            // free copies of the output that are not the library's.
            let mut sink = Vec::with_capacity(1 << 20);
            jetjson::to_writer_with(&mut sink, &v, &opts).expect("writable");
            outputs.push(sink);
        }
        SCANNING.store(false, Ordering::Relaxed);
        // The outputs are the caller's, and so are the inputs: wipe them,
        // then watch what the thread's teardown (its pool) frees.
        for o in &mut outputs {
            assert!(o.windows(marker().len()).any(|w| w == marker()));
            o.iter_mut().for_each(|b| *b = 0);
            // Without this the compiler may drop the wipe as dead stores
            // (the memory is freed next), and the caller's own copies of
            // the output would then be found.
            std::hint::black_box(&mut o[..]);
        }
        drop(outputs);
        drop(v);
        drop(small);
        SCANNING.store(true, Ordering::Relaxed);
    })
    .join()
    .expect("worker");
    SCANNING.store(false, Ordering::Relaxed);
    MARKER_FOUND.load(Ordering::Relaxed)
}

fn zeroed_buffers_leave_no_output_behind() {
    // Without zeroing, the scan does find the output in freed memory (so
    // the check below can fail).
    assert!(blocks_left_holding_the_output(false) > 0, "the scan sees nothing even without zeroing");
    assert_eq!(blocks_left_holding_the_output(true), 0, "freed memory still holds output bytes");
}

/// Once a thread has written a document, writing one again allocates the
/// returned output and nothing else: the output buffer and the memory
/// that sorts objects (`go`) come back from the thread's pools, and the
/// writer hands its buffer out without leaving memory behind to free.
fn repeated_writes_allocate_only_their_output() {
    let (allocs, _) = peak_of(|| {
        let doc = br#"{"b": {"y": [1, "two", 3.5], "x": "<&>"}, "a": [{"k": 1, "j": 2}], "c": "d"}"#;
        let v = Value::from_slice(doc).expect("JSON");
        let options = [WriteOptions::compact(), WriteOptions::go()];
        let write = |o: &WriteOptions| {
            let from_value = v.to_vec_with(o).expect("writable");
            let from_serde = jetjson::to_vec_with(&v, o).expect("writable");
            assert_eq!(from_value, from_serde);
        };
        // Warm up: the pools fill on first use.
        options.iter().for_each(write);
        let before = ALLOCS.with(Cell::get);
        for _ in 0..10 {
            options.iter().for_each(write);
        }
        ALLOCS.with(Cell::get) - before
    });
    // 10 rounds of two profiles, two outputs each.
    assert_eq!(allocs, 40, "allocations beyond the outputs");
}

#[test]
fn allocations() {
    max_size_bounds_what_reading_allocates();
    parsing_allocates_a_bounded_multiple_of_the_input();
    parsed_trees_allocate_per_document();
    zeroed_buffers_leave_no_output_behind();
    repeated_writes_allocate_only_their_output();
}
