//! Reading into a `Value` when the allocator refuses memory, for the
//! bindings' entry (`__private::value_from_slice_recovering`): every
//! allocation of a parse is made to fail in turn, and each time the result
//! must be the right value (the failure was recovered from, e.g. a stack
//! that can grow later) or the `OutOfMemory` error, never an abort, a
//! panic or a wrong value.
//!
//! The test binary's global allocator fails the N-th allocation of the
//! current thread when asked to (`FAIL_AT`), and counts them (`COUNT`).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use jetjson::{DuplicateKeys, ErrorKind, ReadOptions, Value};

struct Failing;

thread_local! {
    /// Allocations of this thread so far (while `COUNTING`).
    static COUNT: Cell<usize> = const { Cell::new(0) };
    static COUNTING: Cell<bool> = const { Cell::new(false) };
    /// The allocation (1-based, counted from when it was set) to refuse;
    /// 0: none.
    static FAIL_AT: Cell<usize> = const { Cell::new(0) };
}

/// Whether this allocation is refused (and counts it).
fn refuse() -> bool {
    let counting = COUNTING.try_with(|c| c.get()).unwrap_or(false);
    if !counting {
        return false;
    }
    let n = COUNT.with(|c| {
        let n = c.get() + 1;
        c.set(n);
        n
    });
    FAIL_AT.with(|f| f.get()) == n
}

// SAFETY: every call is passed on to `System` unchanged, or refused with a
// null pointer (which callers of `alloc` and `realloc` must handle).
unsafe impl GlobalAlloc for Failing {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if refuse() {
            return std::ptr::null_mut();
        }
        // SAFETY: passed on.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if refuse() {
            return std::ptr::null_mut();
        }
        // SAFETY: passed on.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if refuse() {
            return std::ptr::null_mut();
        }
        // SAFETY: passed on.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: passed on.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Failing = Failing;

/// Parses `doc` with allocation `fail_at` of the parse refused (0: none),
/// returning the result and how many allocations the parse made.
fn parse_failing(doc: &[u8], options: &ReadOptions, fail_at: usize) -> (jetjson::Result<Value>, usize) {
    COUNT.with(|c| c.set(0));
    FAIL_AT.with(|f| f.set(fail_at));
    COUNTING.with(|c| c.set(true));
    let result = jetjson::__private::value_from_slice_recovering(doc, options);
    COUNTING.with(|c| c.set(false));
    FAIL_AT.with(|f| f.set(0));
    (result, COUNT.with(|c| c.get()))
}

fn documents() -> Vec<(&'static str, Vec<u8>)> {
    let long = "a string too long to be stored inline in a Str, so it goes to the arena";
    let mut docs = vec![
        (
            "nested",
            format!(r#"{{"a":[1,2,{{"b":"{long}","c":[true,null,-0.5]}}],"k {long}":"x\ny","d":[[1,2],[3,4],[],{{}}]}}"#).into_bytes(),
        ),
        ("escaped", format!(r#"["{}", {{"\u00e9\n{long}": "\ud83d\ude00 {long}"}}]"#, "\\n".repeat(300)).into_bytes()),
        (
            "repeated names",
            format!(r#"[{{"a":1,"a":2}},{{{}}}]"#, (0..100).map(|i| format!(r#""n{}":{i}"#, i % 90)).collect::<Vec<_>>().join(","))
                .into_bytes(),
        ),
        ("big numbers", b"[123456789012345678901234567890, -1.5e300, 18446744073709551616, {\"n\": 99999999999999999999}]".to_vec()),
    ];
    // Arrays long enough for the stack and the regions to grow many times.
    let items: Vec<String> = (0..5000).map(|i| i.to_string()).collect();
    docs.push(("long array", format!("[{}]", items.join(",")).into_bytes()));
    let strings: Vec<String> = (0..2000).map(|i| format!("\"{long} {i}\"")).collect();
    docs.push(("array of long strings", format!("[{}]", strings.join(",")).into_bytes()));
    let members: Vec<String> = (0..3000).map(|i| format!("\"name {long} {i}\":[{i},{{\"x\":{i}}}]")).collect();
    docs.push(("wide object", format!("{{{}}}", members.join(",")).into_bytes()));
    docs.push(("deep", format!("{}1{}", "[{\"a\":".repeat(200), "}]".repeat(200)).into_bytes()));
    // An array whose items are on the builder's stack (a container came
    // in it) after many items of its parent: the stack grows, and its end
    // finds it emptied if that growth was refused.
    let tail: Vec<String> = (0..60).map(|i| i.to_string()).collect();
    docs.push(("items after a container", format!("[{}[1,[2],{}]]", "0,".repeat(100), tail.join(",")).into_bytes()));
    // Past the size up to which arrays are written in place (the items
    // are then moved to the stack).
    let many: Vec<&str> = vec!["7"; 200_000];
    docs.push(("huge array", format!("[[{}]]", many.join(",")).into_bytes()));
    docs
}

#[test]
fn every_refused_allocation_of_a_parse_is_an_error_or_recovered() {
    for (name, doc) in documents() {
        let policies = if name == "repeated names" {
            vec![ReadOptions::new().duplicate_keys(DuplicateKeys::Last), ReadOptions::new().duplicate_keys(DuplicateKeys::First)]
        } else {
            vec![ReadOptions::new(), ReadOptions::new().duplicate_keys(DuplicateKeys::Last), ReadOptions::new().lossless_numbers(true)]
        };
        for options in policies {
            let expected = Value::from_slice_with(&doc, &options).unwrap_or_else(|e| panic!("{name}: {e}"));
            // Each parse in a fresh thread, so that the builder keeps no
            // memory from an earlier one; the parser's own buffers (and the
            // arena's spare first chunk) are warmed by a plain parse first,
            // since the builder's memory is what is under test here.
            let in_thread = |k: usize| {
                let (doc, options) = (doc.clone(), options.clone());
                std::thread::spawn(move || {
                    let _ = Value::from_slice_with(&doc, &options);
                    let (result, allocations) = parse_failing(&doc, &options, k);
                    // The thread reads on afterwards.
                    let (again, _) = parse_failing(&doc, &options, 0);
                    (result, allocations, again)
                })
                .join()
                .expect("no panic")
            };
            let (clean, allocations, _) = in_thread(0);
            assert_eq!(clean.expect("no allocation refused"), expected, "{name}");
            assert!(allocations > 0, "{name}: the parse allocates");
            let mut errors = 0;
            for k in 1..=allocations {
                let (result, _, again) = in_thread(k);
                match result {
                    Ok(v) => assert_eq!(v, expected, "{name}: allocation {k} refused, a different value"),
                    Err(e) => {
                        assert!(matches!(e.kind(), ErrorKind::OutOfMemory), "{name}: allocation {k} refused: {e}");
                        errors += 1;
                    }
                }
                assert_eq!(again.expect("no allocation refused"), expected, "{name}: after allocation {k}");
            }
            assert!(errors > 0, "{name}: some refused allocation is an error");
        }
    }
}

#[test]
fn out_of_memory_is_said_where_the_container_ends() {
    // Arrays and objects, enough for the stacks and the arena to grow
    // while the walk is under way.
    let doc: &'static [u8] =
        format!("[{}]", vec![r#"[1,2,{"k":[5,"a string too long to be stored inline"]}]"#; 500].join(",")).leak().as_bytes();
    std::thread::spawn(move || {
        let options = ReadOptions::new();
        let (_, allocations) = parse_failing(doc, &options, 0);
        let errors: Vec<_> = (1..=allocations).filter_map(|k| parse_failing(doc, &options, k).0.err()).collect();
        let located = errors.iter().filter(|e| e.position().is_some()).count();
        assert!(located > 0, "some refused allocation is reported with its place");
    })
    .join()
    .expect("no panic");
}
