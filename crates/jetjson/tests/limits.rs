//! Reading limits and failure behaviour: nesting depth (without recursion),
//! input size (without reading an oversized body whole), I/O errors,
//! duplicate names, byte order marks, truncated documents, exact error
//! messages, serde typed errors and lossless number round trips.
//!
//! Tests named `bug_*` pin behaviour believed wrong; they fail until the
//! parser is fixed (see the comment on each).

use std::collections::{BTreeSet, HashMap};
use std::io::{self, Read};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use jetjson::parse::validate;
use jetjson::{DuplicateKeys, Error, ErrorKind, Position, ReadOptions, Value, WriteOptions};

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/corpus");

const SMALL_STACK: usize = 256 * 1024;
const SERDE_STACK: usize = 8 * 1024 * 1024;

fn stack_thread<T: Send + 'static>(stack: usize, f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new().stack_size(stack).spawn(f).unwrap().join().unwrap()
}

fn offset(e: &Error) -> usize {
    e.position().unwrap_or_else(|| panic!("error without a position: {e}")).offset
}

fn serde_value(input: &[u8], options: &ReadOptions) -> Result<Value, Error> {
    jetjson::from_slice_with::<Value>(input, options)
}

fn compact(v: &Value) -> String {
    v.to_string_with(&WriteOptions::compact()).unwrap()
}

// ---- nesting depth -------------------------------------------------------

/// The shapes of nesting tested: the text that opens one level, the closer,
/// and the innermost value.
#[derive(Clone, Copy, Debug)]
enum Nest {
    /// `[[[ ... ]]]`
    Arrays,
    /// `{"a":{"a": ... 0}}`
    Objects,
    /// `[{"a":[{"a": ... 0}]}]`
    Alternating,
}

impl Nest {
    const ALL: [Nest; 3] = [Nest::Arrays, Nest::Objects, Nest::Alternating];

    fn opener(self, level: usize) -> &'static [u8] {
        match (self, level % 2) {
            (Nest::Arrays, _) | (Nest::Alternating, 0) => b"[",
            (Nest::Objects, _) | (Nest::Alternating, _) => b"{\"a\":",
        }
    }

    fn closer(self, level: usize) -> u8 {
        if self.opener(level) == b"[" {
            b']'
        } else {
            b'}'
        }
    }

    /// `n` unclosed openers.
    fn open(self, n: usize) -> Vec<u8> {
        let mut v = Vec::new();
        for level in 0..n {
            v.extend_from_slice(self.opener(level));
        }
        v
    }

    /// Exactly `n` levels, closed.
    fn closed(self, n: usize) -> Vec<u8> {
        let mut v = self.open(n);
        v.push(b'0');
        for level in (0..n).rev() {
            v.push(self.closer(level));
        }
        v
    }

    /// Byte offset of the `k`th opener (1-based), computed from the shape.
    fn offset_of_opener(self, k: usize) -> usize {
        let i = k - 1;
        match self {
            Nest::Arrays => i,
            Nest::Objects => 5 * i,
            // "[" then "{\"a\":": 6 bytes per pair.
            Nest::Alternating => 6 * (i / 2) + i % 2,
        }
    }
}

#[test]
fn nest_offsets_match_the_generated_text() {
    for nest in Nest::ALL {
        let text = nest.open(40);
        for k in 1..=40 {
            let at = nest.offset_of_opener(k);
            assert!(matches!(text[at], b'[' | b'{'), "{nest:?} opener {k}");
            assert_eq!(text[..at].iter().filter(|&&b| b == b'[' || b == b'{').count(), k - 1, "{nest:?} opener {k}");
        }
    }
}

fn assert_depth_error(what: &str, r: Result<(), Error>, limit: usize, at: usize) {
    let e = r.err().unwrap_or_else(|| panic!("{what}: accepted"));
    assert_eq!(e.kind(), &ErrorKind::DepthLimit { limit }, "{what}: {e}");
    assert_eq!(offset(&e), at, "{what}: {e}");
    assert_eq!(e.to_string(), format!("line 1 column {} (byte {at}): nesting deeper than max_depth {limit}", at + 1), "{what}");
}

/// A million openers: the iterative parser stops at the 513th with a depth
/// error, using no stack to speak of (256 KiB thread).
#[test]
fn a_million_openers_fail_at_the_default_depth_on_a_small_stack() {
    for nest in Nest::ALL {
        let input = nest.open(1_000_000);
        let at = nest.offset_of_opener(513);
        let (value, valid) =
            stack_thread(SMALL_STACK, move || (Value::from_slice(&input).map(drop), validate(&input, &ReadOptions::default())));
        assert_depth_error(&format!("{nest:?}: Value::from_slice"), value, 512, at);
        assert_depth_error(&format!("{nest:?}: validate"), valid, 512, at);
    }
}

/// The serde path recurses, but max_depth stops it at 512 levels.
#[test]
fn a_million_openers_fail_at_the_default_depth_through_serde() {
    for nest in Nest::ALL {
        let input = nest.open(1_000_000);
        let at = nest.offset_of_opener(513);
        let r = stack_thread(SERDE_STACK, move || jetjson::from_slice::<Value>(&input).map(drop));
        assert_depth_error(&format!("{nest:?}: from_slice::<Value>"), r, 512, at);
    }
}

/// Runs all three entry points on `input` (serde on a large stack; the
/// values are dropped there too, since dropping a deep Value recurses).
fn three(input: Vec<u8>, options: ReadOptions) -> [(&'static str, Result<(), Error>); 3] {
    stack_thread(SERDE_STACK, move || {
        [
            ("Value::from_slice_with", Value::from_slice_with(&input, &options).map(drop)),
            ("validate", validate(&input, &options)),
            ("from_slice_with::<Value>", serde_value(&input, &options).map(drop)),
        ]
    })
}

#[test]
fn depth_limit_boundary_is_exact() {
    for nest in Nest::ALL {
        for (limit, options) in
            [(512, ReadOptions::default()), (10, ReadOptions::new().max_depth(10)), (1, ReadOptions::new().max_depth(1))]
        {
            // Exactly `limit` levels: accepted.
            for (what, r) in three(nest.closed(limit), options.clone()) {
                assert!(r.is_ok(), "{nest:?}: {limit} levels with max_depth {limit}: {what}: {r:?}");
            }
            // One more: rejected at the opener of level limit + 1, whether
            // the document is complete or not.
            let at = nest.offset_of_opener(limit + 1);
            for input in [nest.closed(limit + 1), nest.open(limit + 1)] {
                for (what, r) in three(input, options.clone()) {
                    assert_depth_error(&format!("{nest:?}: {} levels: {what}", limit + 1), r, limit, at);
                }
            }
        }
    }
}

#[test]
fn depth_counts_nesting_not_containers() {
    // Siblings do not add up: 1000 empty arrays side by side are depth 2.
    let mut siblings = b"[".to_vec();
    for k in 0..1000 {
        if k > 0 {
            siblings.push(b',');
        }
        siblings.extend_from_slice(b"[],{\"a\":[]}");
    }
    siblings.push(b']');
    for (what, r) in three(siblings, ReadOptions::new().max_depth(3)) {
        assert!(r.is_ok(), "{what}: {r:?}");
    }
    // max_depth 0: scalars only.
    let zero = ReadOptions::new().max_depth(0);
    for (what, r) in three(b" 12 ".to_vec(), zero.clone()) {
        assert!(r.is_ok(), "{what}: {r:?}");
    }
    for input in [&b"[]"[..], b"{}", b" [1]"] {
        let at = input.iter().position(|&b| b == b'[' || b == b'{').unwrap();
        for (what, r) in three(input.to_vec(), zero.clone()) {
            assert_depth_error(&format!("{:?} with max_depth 0: {what}", String::from_utf8_lossy(input)), r, 0, at);
        }
    }
    // `[1,[2,[3]]]` is depth 3.
    for (what, r) in three(b"[1,[2,[3]]]".to_vec(), ReadOptions::new().max_depth(2)) {
        assert_depth_error(what, r, 2, 6);
    }
}

// ---- input size ---------------------------------------------------------

/// A reader producing `total` bytes of a JSON array, counting what is read.
struct Counting {
    read: usize,
    total: usize,
}

impl Read for Counting {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = buf.len().min(self.total - self.read);
        for (k, b) in buf[..n].iter_mut().enumerate() {
            let at = self.read + k;
            *b = if at == 0 {
                b'['
            } else if at % 2 == 1 {
                b'0'
            } else {
                b','
            };
        }
        self.read += n;
        Ok(n)
    }
}

const TEN_MB: usize = 10_000_000;

#[test]
fn max_size_stops_reading_early() {
    let options = ReadOptions::new().max_size(1000);
    let check = |what: &str, r: Result<(), Error>, counter: &Counting| {
        let e = r.expect_err(what);
        assert_eq!(e.kind(), &ErrorKind::SizeLimit { limit: 1000 }, "{what}: {e}");
        // At the first byte past the limit, as `from_slice_with` says it.
        assert_eq!(e.position().map(|p| p.offset), Some(1000), "{what}");
        assert!(e.to_string().ends_with("(byte 1000): input larger than max_size 1000 bytes"), "{what}: {e}");
        assert!(counter.read <= 1001, "{what}: read {} bytes", counter.read);
    };
    let mut c = Counting { read: 0, total: TEN_MB };
    let r = jetjson::from_reader_with::<_, Value>(&mut c, &options).map(drop);
    check("from_reader_with::<Value>", r, &c);
    let mut c = Counting { read: 0, total: TEN_MB };
    let r = jetjson::from_reader_with::<_, Vec<u8>>(&mut c, &options).map(drop);
    check("from_reader_with::<Vec<u8>>", r, &c);
    let mut c = Counting { read: 0, total: TEN_MB };
    let r = Value::from_reader_with(&mut c, &options).map(drop);
    check("Value::from_reader_with", r, &c);
}

/// `[` + `"aaa…"` + `]` of exactly `len` bytes.
fn document_of(len: usize) -> Vec<u8> {
    let mut v = b"[\"".to_vec();
    v.resize(len - 2, b'a');
    v.extend_from_slice(b"\"]");
    assert_eq!(v.len(), len);
    v
}

#[test]
fn max_size_boundary_is_exact() {
    let options = ReadOptions::new().max_size(1000);
    let exact = document_of(1000);
    assert!(jetjson::from_reader_with::<_, Value>(&exact[..], &options).is_ok());
    assert!(jetjson::from_reader_with::<_, Vec<String>>(&exact[..], &options).is_ok());
    assert!(Value::from_reader_with(&exact[..], &options).is_ok());
    assert!(Value::from_slice_with(&exact, &options).is_ok());
    assert!(jetjson::from_slice_with::<Value>(&exact, &options).is_ok());
    assert!(validate(&exact, &options).is_ok());

    let over = document_of(1001);
    let size_error = |what: &str, r: Result<(), Error>| {
        let e = r.expect_err(what);
        assert_eq!(e.kind(), &ErrorKind::SizeLimit { limit: 1000 }, "{what}: {e}");
        if let Some(p) = e.position() {
            assert!(p.offset <= over.len(), "{what}: {e}");
        }
    };
    size_error("from_reader_with::<Value>", jetjson::from_reader_with::<_, Value>(&over[..], &options).map(drop));
    size_error("Value::from_reader_with", Value::from_reader_with(&over[..], &options).map(drop));
    size_error("Value::from_slice_with", Value::from_slice_with(&over, &options).map(drop));
    size_error("from_slice_with::<Value>", jetjson::from_slice_with::<Value>(&over, &options).map(drop));
    size_error("from_slice_with::<Vec<String>>", jetjson::from_slice_with::<Vec<String>>(&over, &options).map(drop));
    size_error("validate", validate(&over, &options));

    // A slice far over the limit fails before any parsing (its syntax is
    // not even looked at).
    let garbage = vec![b'x'; TEN_MB];
    size_error("validate(garbage)", validate(&garbage[..1001], &options));
    let e = Value::from_slice_with(&garbage, &options).unwrap_err();
    assert_eq!(e.kind(), &ErrorKind::SizeLimit { limit: 1000 });

    // Whitespace counts: the limit is on bytes, not on the value.
    let mut padded = document_of(1000);
    padded.push(b'\n');
    size_error("padded", Value::from_slice_with(&padded, &options).map(drop));
}

// ---- I/O errors ---------------------------------------------------------

/// Returns `data`, then an error (or `Interrupted` once, if `interrupt`).
struct Failing {
    data: &'static [u8],
    at: usize,
    interrupt: bool,
}

impl Read for Failing {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.at < self.data.len() {
            // Small chunks, so the error comes mid-stream.
            let n = buf.len().min(self.data.len() - self.at).min(3);
            buf[..n].copy_from_slice(&self.data[self.at..self.at + n]);
            self.at += n;
            return Ok(n);
        }
        if self.interrupt {
            self.interrupt = false;
            return Err(io::Error::new(io::ErrorKind::Interrupted, "try again"));
        }
        Err(io::Error::new(io::ErrorKind::ConnectionReset, "peer went away"))
    }
}

#[test]
fn reader_errors_are_io_errors() {
    let reader = || Failing { data: b"[1, 2, 3", at: 0, interrupt: false };
    let check = |what: &str, r: Result<(), Error>| {
        let e = r.expect_err(what);
        match e.kind() {
            ErrorKind::Io(msg) => assert!(msg.contains("peer went away"), "{what}: {e}"),
            other => panic!("{what}: expected an I/O error, got {other:?}"),
        }
        assert_eq!(e.to_string(), "I/O error: peer went away", "{what}");
    };
    check("from_reader::<Value>", jetjson::from_reader::<_, Value>(reader()).map(drop));
    check("from_reader::<Vec<u32>>", jetjson::from_reader::<_, Vec<u32>>(reader()).map(drop));
    check("from_reader_with", jetjson::from_reader_with::<_, Value>(reader(), &ReadOptions::new().max_size(100)).map(drop));
    check("Value::from_reader_with", Value::from_reader_with(reader(), &ReadOptions::default()).map(drop));
    check("Value::from_reader_with max_size", Value::from_reader_with(reader(), &ReadOptions::new().max_size(100)).map(drop));

    // A complete document followed by an error is still an error.
    let complete = || Failing { data: b"[1, 2, 3]", at: 0, interrupt: false };
    check("complete then error", Value::from_reader_with(complete(), &ReadOptions::default()).map(drop));

    // `Interrupted` is retried, as `Read::read_to_end` does.
    struct Interrupted(Failing);
    impl Read for Interrupted {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.0.interrupt && self.0.at == 3 {
                self.0.interrupt = false;
                return Err(io::Error::new(io::ErrorKind::Interrupted, "try again"));
            }
            if self.0.at == self.0.data.len() {
                return Ok(0);
            }
            self.0.read(buf)
        }
    }
    let v = Value::from_reader_with(Interrupted(Failing { data: b"[1, 2, 3]", at: 0, interrupt: true }), &ReadOptions::default()).unwrap();
    assert_eq!(compact(&v), "[1,2,3]");
    let v: Vec<u32> = jetjson::from_reader(Interrupted(Failing { data: b"[1, 2, 3]", at: 0, interrupt: true })).unwrap();
    assert_eq!(v, [1, 2, 3]);
}

// ---- duplicate names ----------------------------------------------------

fn first() -> ReadOptions {
    ReadOptions::new().duplicate_keys(DuplicateKeys::First)
}

fn last() -> ReadOptions {
    ReadOptions::new().duplicate_keys(DuplicateKeys::Last)
}

fn assert_duplicate(what: &str, r: Result<(), Error>, key: &str, at: usize) {
    let e = r.err().unwrap_or_else(|| panic!("{what}: accepted"));
    assert_eq!(e.kind(), &ErrorKind::DuplicateKey { key: key.into() }, "{what}: {e}");
    assert_eq!(offset(&e), at, "{what}: {e}");
}

/// All three entry points reject with DuplicateKey at `at`.
fn assert_duplicate_everywhere(input: &[u8], key: &str, at: usize) {
    let what = String::from_utf8_lossy(input);
    let what = if what.len() > 80 { format!("{}…", &what[..80]) } else { what.into_owned() };
    assert_duplicate(&format!("{what}: Value::from_slice"), Value::from_slice(input).map(drop), key, at);
    assert_duplicate(&format!("{what}: validate"), validate(input, &ReadOptions::default()), key, at);
    assert_duplicate(&format!("{what}: from_slice::<Value>"), jetjson::from_slice::<Value>(input).map(drop), key, at);
}

fn accepted_everywhere(input: &[u8]) -> Value {
    let what = String::from_utf8_lossy(input);
    let v = Value::from_slice(input).unwrap_or_else(|e| panic!("{what}: {e}"));
    validate(input, &ReadOptions::default()).unwrap_or_else(|e| panic!("{what}: validate: {e}"));
    let s = jetjson::from_slice::<Value>(input).unwrap_or_else(|e| panic!("{what}: serde: {e}"));
    assert_eq!(s, v, "{what}");
    v
}

#[test]
fn duplicate_names_default_error_first_and_last() {
    let input = br#"{"a":1,"b":2,"a":3}"#;
    assert_duplicate_everywhere(input, "a", 13);
    let e = Value::from_slice(input).unwrap_err();
    assert_eq!(e.to_string(), r#"line 1 column 14 (byte 13): duplicate object key "a""#);
    assert_eq!(e.position(), Some(Position { offset: 13, line: 1, column: 14 }));

    let v = Value::from_slice_with(input, &first()).unwrap();
    assert_eq!(compact(&v), r#"{"a":1,"b":2}"#);
    // Last: the last value, at the place the name first appeared.
    let v = Value::from_slice_with(input, &last()).unwrap();
    assert_eq!(compact(&v), r#"{"a":3,"b":2}"#);
    let Value::Object(m) = &v else { panic!() };
    assert_eq!(m.len(), 2);
    assert_eq!(m.keys().collect::<Vec<_>>(), ["a", "b"]);
    assert!(validate(input, &first()).is_ok() && validate(input, &last()).is_ok());

    // Three times: First keeps the first, Last the last.
    let input = br#"{"k":1,"k":2,"z":0,"k":3}"#;
    assert_eq!(compact(&Value::from_slice_with(input, &first()).unwrap()), r#"{"k":1,"z":0}"#);
    assert_eq!(compact(&Value::from_slice_with(input, &last()).unwrap()), r#"{"k":3,"z":0}"#);

    // Names compare decoded: "\u0061" is "a"; the error names the key decoded.
    assert_duplicate_everywhere(br#"{"a":1,"\u0061":2}"#, "a", 7);
    assert_duplicate_everywhere(br#"{"\u0061":1,"a":2}"#, "a", 12);
    assert_duplicate_everywhere(br#"{"\/":1,"/":2}"#, "/", 8);
    assert_duplicate_everywhere("{\"é\":1,\"\\u00e9\":2}".as_bytes(), "é", 8);
    // Different names that share a prefix, or differ only in escapes' case
    // of meaning, are not duplicates.
    accepted_everywhere(br#"{"a":1,"aa":2,"A":3,"a ":4,"\u0041a":5}"#);
    // Whitespace around names does not matter.
    assert_duplicate_everywhere(b"{ \"a\" : 1 ,\n \"a\" : 2 }", "a", 13);
}

#[test]
fn duplicate_names_in_nested_objects() {
    // Same names in different objects are fine, at any depth.
    accepted_everywhere(br#"{"a":{"a":{"a":1}},"b":[{"a":1},{"a":2}],"c":{"a":[{"a":{}}]}}"#);
    // Inner names do not leak into the outer object, nor outer into inner.
    accepted_everywhere(br#"{"a":{"x":1,"y":2},"x":3,"y":{"a":4}}"#);
    // A duplicate in an inner object.
    assert_duplicate_everywhere(br#"{"x":{"a":1,"a":2}}"#, "a", 12);
    assert_duplicate_everywhere(br#"[{"a":1},{"b":1,"b":2}]"#, "b", 16);
    // A duplicate in the outer object after an inner one closed.
    assert_duplicate_everywhere(br#"{"a":{"b":1,"c":2},"a":2}"#, "a", 19);
    assert_duplicate_everywhere(br#"{"a":1,"o":{"b":1},"b":2,"a":3}"#, "a", 25);
    // 100 nested objects that all use "a", then a duplicate at the top.
    let mut deep = Vec::new();
    for _ in 0..100 {
        deep.extend_from_slice(br#"{"a":"#);
    }
    deep.push(b'0');
    deep.extend(std::iter::repeat_n(b'}', 99));
    let at = deep.len() + 1;
    deep.extend_from_slice(br#","a":1}"#);
    assert_duplicate_everywhere(&deep, "a", at);

    let input = br#"{"o":{"a":1,"a":2},"o":{"b":3}}"#;
    assert_eq!(compact(&Value::from_slice_with(input, &first()).unwrap()), r#"{"o":{"a":1}}"#);
    assert_eq!(compact(&Value::from_slice_with(input, &last()).unwrap()), r#"{"o":{"b":3}}"#);
}

/// An object with names `k0`, `k1`, … (member `i` has value `i`) and
/// optionally one more member reusing name `dup` (value -1), spelt with an
/// escape if `escaped`. Returns the text and the offset of the last name.
fn object_with(names: usize, dup: Option<usize>, escaped: bool) -> (Vec<u8>, usize) {
    let mut v = b"{".to_vec();
    let mut last_at = 0;
    for i in 0..names {
        if i > 0 {
            v.push(b',');
        }
        last_at = v.len();
        v.extend_from_slice(format!("\"k{i}\":{i}").as_bytes());
    }
    if let Some(d) = dup {
        v.push(b',');
        last_at = v.len();
        let name = if escaped { format!("\\u006b{d}") } else { format!("k{d}") };
        v.extend_from_slice(format!("\"{name}\":-1").as_bytes());
    }
    v.push(b'}');
    (v, last_at)
}

/// Checks one object of `n` names with a duplicate of name `d` at the end.
fn check_duplicate_at(n: usize, d: usize, escaped: bool) {
    let (input, at) = object_with(n, Some(d), escaped);
    assert_duplicate_everywhere(&input, &format!("k{d}"), at);
    // First keeps k{d} = d; Last sets it to -1, in place.
    let f = Value::from_slice_with(&input, &first()).unwrap();
    let l = Value::from_slice_with(&input, &last()).unwrap();
    let (Value::Object(f), Value::Object(l)) = (&f, &l) else { panic!() };
    assert_eq!((f.len(), l.len()), (n, n));
    assert_eq!(compact(f.get(&format!("k{d}")).unwrap()), d.to_string());
    assert_eq!(compact(l.get(&format!("k{d}")).unwrap()), "-1");
    assert_eq!(l.keys().nth(d).unwrap(), &format!("k{d}"));
}

/// Small objects are scanned linearly and large ones get an index (today
/// past 32 names, regrown at half load: 129, 257, … names); the duplicate
/// must be found wherever it is, on both sides of every switch.
#[test]
fn duplicate_names_around_the_index_switch_and_regrowth() {
    // Every size up to 70 and every position of the duplicate.
    for n in 1..=70 {
        accepted_everywhere(&object_with(n, None, false).0);
        for d in 0..n {
            for escaped in [false, true] {
                check_duplicate_at(n, d, escaped);
            }
        }
    }
    // Around the regrowth points, a sample of positions.
    for n in [127, 128, 129, 130, 255, 256, 257, 258, 513] {
        accepted_everywhere(&object_with(n, None, false).0);
        for d in [0, 1, 16, 17, 31, 32, 33, n / 2, n - 2, n - 1] {
            check_duplicate_at(n, d, d % 2 == 1);
        }
    }
}

#[test]
fn duplicate_names_in_large_objects() {
    let (distinct, _) = object_with(1000, None, false);
    let v = accepted_everywhere(&distinct);
    let Value::Object(m) = &v else { panic!() };
    assert_eq!(m.len(), 1000);
    for d in [0, 15, 16, 17, 31, 32, 33, 500, 998, 999] {
        let (input, at) = object_with(1000, Some(d), false);
        assert_duplicate_everywhere(&input, &format!("k{d}"), at);
        let v = Value::from_slice_with(&input, &last()).unwrap();
        let Value::Object(m) = &v else { panic!() };
        assert_eq!(m.len(), 1000);
    }

    // Large objects inside large objects: each has its own names.
    for (outer, inner) in [(3, 40), (40, 3), (40, 40), (17, 17), (33, 33), (200, 5)] {
        let (inner_text, _) = object_with(inner, None, false);
        let build = |dup: Option<&str>| {
            let mut v = b"{".to_vec();
            for i in 0..outer {
                v.extend_from_slice(format!("\"k{i}\":").as_bytes());
                // Every third member holds a copy of the inner object, which
                // reuses the outer names.
                if i % 3 == 1 {
                    v.extend_from_slice(&inner_text);
                } else {
                    v.push(b'0');
                }
                v.push(b',');
            }
            // Outer names the inner objects used, after they closed.
            v.extend_from_slice(format!("\"k{}\":1", outer + inner).as_bytes());
            let at = v.len() + 1;
            if let Some(d) = dup {
                v.extend_from_slice(format!(",\"{d}\":2").as_bytes());
            }
            v.push(b'}');
            (v, at)
        };
        accepted_everywhere(&build(None).0);
        for d in ["k0".to_string(), format!("k{}", outer - 1), format!("k{}", outer + inner)] {
            let (input, at) = build(Some(&d));
            assert_duplicate_everywhere(&input, &d, at);
        }
    }
}

#[derive(Debug, serde::Deserialize)]
#[allow(dead_code)]
struct Ab {
    a: i32,
    b: Option<i32>,
}

#[test]
fn duplicate_names_through_serde() {
    let input = br#"{"a":1,"b":2,"a":3}"#;
    assert_duplicate("from_slice::<Value>", jetjson::from_slice::<Value>(input).map(drop), "a", 13);
    assert_duplicate("from_slice::<HashMap>", jetjson::from_slice::<HashMap<String, i32>>(input).map(drop), "a", 13);
    assert_duplicate("from_str::<HashMap>", jetjson::from_str::<HashMap<String, i32>>(r#"{"a":1,"b":2,"a":3}"#).map(drop), "a", 13);
    assert_duplicate("from_reader::<HashMap>", jetjson::from_reader::<_, HashMap<String, i32>>(&input[..]).map(drop), "a", 13);
    // Structs check their own fields: serde derive's "duplicate field",
    // placed at the repeated name.
    let e = jetjson::from_slice::<Ab>(input).unwrap_err();
    assert_eq!(e.kind(), &ErrorKind::Custom("duplicate field `a`".into()), "{e}");
    assert_eq!(offset(&e), 13, "{e}");
    // A missing field is placed at its object.
    let e = jetjson::from_slice::<Ab>(br#"  {"b":1}"#).unwrap_err();
    assert_eq!(offset(&e), 2, "{e}");
    // Nested, and in a map of maps.
    assert_duplicate(
        "from_slice::<HashMap<HashMap>>",
        jetjson::from_slice::<HashMap<String, HashMap<String, i32>>>(br#"{"x":{"a":1},"y":{"b":1,"b":2}}"#).map(drop),
        "b",
        24,
    );
    let (big, at) = object_with(1000, Some(700), false);
    assert_duplicate("from_slice::<HashMap> (1000)", jetjson::from_slice::<HashMap<String, i32>>(&big).map(drop), "k700", at);
    // Last keeps the last value through serde too (HashMap insert).
    let m: HashMap<String, i32> = jetjson::from_slice_with(input, &last()).unwrap();
    assert_eq!((m["a"], m["b"], m.len()), (3, 2, 2));
}

/// BUG: the serde path does not apply `DuplicateKeys::First`/`Last` when
/// building a `Value`: it keeps both members, so the object has the same name
/// twice (`{"a":1,"b":2,"a":3}`), unlike `Value::from_slice_with`, which gives
/// `{"a":3,"b":2}` (Last) / `{"a":1,"b":2}` (First).
#[test]
fn serde_value_applies_the_duplicate_policy() {
    let input = br#"{"a":1,"b":2,"a":3}"#;
    for options in [first(), last()] {
        let direct = Value::from_slice_with(input, &options).unwrap();
        let serde = jetjson::from_slice_with::<Value>(input, &options).unwrap();
        assert_eq!(compact(&serde), compact(&direct), "{:?}", options.duplicate_key_policy());
    }
}

/// BUG: with `DuplicateKeys::First`, the serde path still lets the last
/// value win in maps (`HashMap::insert` replaces), so First behaves as Last:
/// `{"a":1,"a":2}` gives `{"a": 2}`, not `{"a": 1}`.
#[test]
fn serde_first_policy_keeps_the_first_value() {
    let m: HashMap<String, i32> = jetjson::from_slice_with(br#"{"a":1,"b":2,"a":3}"#, &first()).unwrap();
    assert_eq!(m["a"], 1, "{m:?}");
}

/// Names an attacker would craft against an unkeyed multiplicative hash
/// (16 ASCII bytes each, the second 8 chosen to cancel the first): an object
/// of 10,000 of them is accepted and a repeat among them still found. With
/// the old fixed hash they all collided and checking them was quadratic
/// (1.8 s for 2 MB); see `parse/parser.rs`.
#[test]
fn duplicate_names_crafted_to_collide() {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut names = Vec::new();
    let mut i = 0u64;
    while names.len() < 10_000 {
        i += 1;
        let c1 = u64::from_le_bytes(*format!("{i:08x}").as_bytes().first_chunk().unwrap());
        let c2 = (16u64.rotate_left(5) ^ c1).wrapping_mul(K).rotate_left(5) ^ 0x1234_5678_1234_5678;
        if c2 & 0x8080_8080_8080_8080 == 0 {
            names.push([c1.to_le_bytes(), c2.to_le_bytes()].concat());
        }
    }
    // As \u escapes: some of the bytes are control characters or quotes.
    let quoted = |name: &[u8]| {
        let mut q = b"\"".to_vec();
        for &b in name {
            q.extend_from_slice(format!("\\u{b:04x}").as_bytes());
        }
        q.push(b'"');
        q
    };
    let mut doc = b"{".to_vec();
    for (k, name) in names.iter().enumerate() {
        if k > 0 {
            doc.push(b',');
        }
        doc.extend_from_slice(&quoted(name));
        doc.extend_from_slice(b":0");
    }
    let whole = [&doc[..], b"}"].concat();
    let Value::Object(m) = accepted_everywhere(&whole) else { panic!("not an object") };
    assert_eq!(m.len(), names.len());
    let at = doc.len() + 1;
    let repeated = [&doc[..], b",", &quoted(&names[6_789]), b":1}"].concat();
    assert_duplicate_everywhere(&repeated, std::str::from_utf8(&names[6_789]).unwrap(), at);
}

/// The serde path builds `Value` objects in linear time. Before the fix
/// each member was looked up by a scan of the earlier ones (20,000 members
/// took 1.2 s in a release build; this test's 200,000 would take minutes).
/// With `Last`, repeats on both sides of the switch to an index keep their
/// first position and take the last value, as the direct builder does.
#[test]
fn serde_value_of_a_large_object() {
    let n = 200_000;
    let (doc, _) = object_with(n, None, false);
    let v = jetjson::from_slice::<Value>(&doc).unwrap();
    assert_eq!(v.as_object().map(|m| m.len()), Some(n));
    assert_eq!(v, Value::from_slice(&doc).unwrap());

    let mut doc = doc;
    doc.pop();
    for (k, d) in [0, 14, 15, 16, 17, 1000, n - 1, 15].into_iter().enumerate() {
        doc.extend_from_slice(format!(",\"k{d}\":-{k}").as_bytes());
    }
    doc.push(b'}');
    let serde = jetjson::from_slice_with::<Value>(&doc, &last()).unwrap();
    let direct = Value::from_slice_with(&doc, &last()).unwrap();
    assert_eq!(compact(&serde), compact(&direct));
    let m = serde.as_object().unwrap();
    assert_eq!((m.len(), m.keys().nth(16).map(|k| k.as_str())), (n, Some("k16")));
    assert_eq!((m.get("k15"), m.get("k1000"), m.get("k2")), (Some(&Value::from(-7)), Some(&Value::from(-5)), Some(&Value::from(2))));
}

// ---- byte order mark ----------------------------------------------------

#[test]
fn bom_is_rejected_by_default_and_skipped_when_allowed() {
    let input = b"\xEF\xBB\xBF{\"a\":1}";
    let want = "line 1 column 1 (byte 0): unexpected byte order mark (enable allow_bom to skip it)";
    let errors = [
        Value::from_slice(input).map(drop),
        validate(input, &ReadOptions::default()),
        jetjson::from_slice::<Value>(input).map(drop),
        jetjson::from_reader::<_, Value>(&input[..]).map(drop),
        Value::from_reader_with(&input[..], &ReadOptions::default()).map(drop),
    ];
    for e in errors {
        let e = e.unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::Syntax { .. }), "{e:?}");
        assert_eq!(e.to_string(), want);
        assert_eq!(e.position(), Some(Position { offset: 0, line: 1, column: 1 }));
    }

    let allow = ReadOptions::new().allow_bom(true);
    assert_eq!(compact(&Value::from_slice_with(input, &allow).unwrap()), r#"{"a":1}"#);
    assert!(validate(input, &allow).is_ok());
    assert_eq!(compact(&jetjson::from_slice_with::<Value>(input, &allow).unwrap()), r#"{"a":1}"#);
    assert_eq!(jetjson::from_reader_with::<_, HashMap<String, i32>>(&input[..], &allow).unwrap()["a"], 1);
    assert_eq!(compact(&Value::from_reader_with(&input[..], &allow).unwrap()), r#"{"a":1}"#);
    // Allowing a BOM does not require one.
    assert!(Value::from_slice_with(b"{}", &allow).is_ok());

    // After a skipped BOM, offsets still count the BOM's bytes.
    let e = Value::from_slice_with(b"\xEF\xBB\xBF[1,]", &allow).unwrap_err();
    assert_eq!(e.to_string(), "line 1 column 7 (byte 6): expected a value after ','");
    // Only a BOM: nothing after it.
    let e = Value::from_slice_with(b"\xEF\xBB\xBF", &allow).unwrap_err();
    assert_eq!(e.to_string(), "line 1 column 4 (byte 3): unexpected end of input: expected a JSON value");
    // One BOM is skipped, not two; and not one in the middle.
    for (input, at) in [(&b"\xEF\xBB\xBF\xEF\xBB\xBF{}"[..], 3), (b"[\xEF\xBB\xBF1]", 1), (b" \xEF\xBB\xBF{}", 1)] {
        for options in [ReadOptions::default(), allow.clone()] {
            let e = Value::from_slice_with(input, &options).unwrap_err();
            let want_at = if input.starts_with(b"\xEF\xBB\xBF") && options != allow { 0 } else { at };
            assert_eq!(offset(&e), want_at, "{input:?}: {e}");
            assert!(jetjson::from_slice_with::<Value>(input, &options).is_err());
            assert!(validate(input, &options).is_err());
        }
    }
    // A UTF-16 BOM is never a UTF-8 BOM.
    for input in [&b"\xFF\xFE{}"[..], b"\xFE\xFF{}"] {
        assert_eq!(offset(&Value::from_slice_with(input, &allow).unwrap_err()), 0);
    }
}

// ---- truncation ---------------------------------------------------------

fn corpus_files(dir: &str, pred: impl Fn(&Path) -> bool) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![Path::new(CORPUS).join(dir)];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())) {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if pred(&p) {
                out.push(p);
            }
        }
    }
    out
}

fn is_json(p: &Path) -> bool {
    p.extension().is_some_and(|e| e == "json")
}

/// The documents truncated below: the benchmark documents, and every OCI
/// document (`**/*.json` plus the content-addressed blobs in CATALOG.tsv).
fn truncation_documents() -> Vec<PathBuf> {
    let mut docs: BTreeSet<PathBuf> = BTreeSet::new();
    docs.extend(corpus_files("bench/nativejson-benchmark", is_json));
    docs.extend(corpus_files("bench/simdjson", is_json));
    docs.extend(corpus_files("oci", is_json));
    let catalog = std::fs::read_to_string(Path::new(CORPUS).join("oci/CATALOG.tsv")).unwrap();
    for line in catalog.lines().skip(1).filter(|l| !l.is_empty()) {
        let path = line.split('\t').next().unwrap();
        let p = Path::new(CORPUS).join("oci").join(path);
        assert!(p.is_file(), "CATALOG.tsv lists {path}, which is missing");
        docs.insert(p);
    }
    docs.into_iter().collect()
}

/// Prefix lengths to try: every one for small documents; for larger ones
/// `spread` lengths spread evenly plus the last 64.
fn cut_points(len: usize) -> Vec<usize> {
    if len < SMALL_DOCUMENT {
        return (0..len).collect();
    }
    let spread = spread_for(len);
    let mut cuts: BTreeSet<usize> = (0..spread).map(|i| i * len / spread).collect();
    cuts.extend(len.saturating_sub(64)..len);
    cuts.into_iter().collect()
}

const SMALL_DOCUMENT: usize = 20_000;

/// Evenly spread cut points for a document of `len` bytes. Each cut parses
/// its whole prefix (len / 2 bytes on average), and the dev profile builds
/// a Value at ~100-500 MB/s: 2000 cuts in each of the 13 benchmark
/// documents (13.8 MB) would parse ~14 GB, about 70 s of CPU. So the count
/// is 2000 up to 160 KB and then shrinks to keep ~160 MB parsed per
/// document, with at least 200 cuts.
fn spread_for(len: usize) -> usize {
    const BYTES_PER_DOCUMENT: usize = 160_000_000;
    (BYTES_PER_DOCUMENT / (len / 2)).clamp(200, 2000)
}

fn trim_end(b: &[u8]) -> &[u8] {
    let n = b.iter().rposition(|c| !matches!(c, b' ' | b'\t' | b'\n' | b'\r')).map_or(0, |i| i + 1);
    &b[..n]
}

/// What is wrong with `Value::from_slice(prefix)`, if anything.
fn check_prefix(full: &[u8], cut: usize) -> Option<String> {
    let prefix = &full[..cut];
    let r = match catch_unwind(AssertUnwindSafe(|| Value::from_slice(prefix).map(drop))) {
        Ok(r) => r,
        Err(_) => return Some(format!("cut {cut}: Value::from_slice panicked")),
    };
    match r {
        // Every document here is an object or an array: only the whole text
        // (give or take trailing whitespace) is valid.
        Ok(()) => {
            if validate(prefix, &ReadOptions::default()).is_err() {
                return Some(format!("cut {cut}: Value::from_slice accepts but validate rejects"));
            }
            if trim_end(prefix) != trim_end(full) {
                return Some(format!(
                    "cut {cut}: accepted a strict prefix: ...{:?}",
                    String::from_utf8_lossy(&prefix[cut.saturating_sub(40)..])
                ));
            }
            None
        }
        Err(e) => match e.position() {
            None => Some(format!("cut {cut}: error without a position: {e}")),
            Some(p) if p.offset > cut => Some(format!("cut {cut}: error beyond the prefix: {e}")),
            // A prefix of a valid text can only be wrong because it ends.
            Some(_) if !matches!(e.kind(), ErrorKind::Syntax { .. }) => Some(format!("cut {cut}: not a syntax error: {e:?}")),
            Some(_) => None,
        },
    }
}

#[test]
fn truncated_documents_fail_cleanly() {
    let docs = truncation_documents();
    assert!(docs.len() >= 13 + 28, "{} documents", docs.len());
    let loaded: Vec<(String, Vec<u8>)> =
        docs.iter().map(|p| (p.strip_prefix(CORPUS).unwrap().display().to_string(), std::fs::read(p).unwrap())).collect();
    // (document, cut) jobs, biggest documents first for balance.
    let mut jobs: Vec<(usize, usize)> = Vec::new();
    let mut order: Vec<usize> = (0..loaded.len()).collect();
    order.sort_by_key(|&d| std::cmp::Reverse(loaded[d].1.len()));
    for d in order {
        let (name, bytes) = &loaded[d];
        // The whole document is valid (sanity check of the premise).
        Value::from_slice(bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        jobs.extend(cut_points(bytes.len()).into_iter().rev().map(|c| (d, c)));
    }
    let next = AtomicUsize::new(0);
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get()).clamp(1, 8);
    let failures: Vec<String> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                s.spawn(|| {
                    let mut failures = Vec::new();
                    loop {
                        let k = next.fetch_add(1, Ordering::Relaxed);
                        let Some(&(d, cut)) = jobs.get(k) else { break };
                        let (name, bytes) = &loaded[d];
                        if let Some(f) = check_prefix(bytes, cut) {
                            failures.push(format!("{name}: {f}"));
                        }
                    }
                    failures
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().unwrap()).collect()
    });
    assert!(
        failures.is_empty(),
        "{} truncation failure(s) (of {} cuts):\n{}",
        failures.len(),
        jobs.len(),
        failures[..failures.len().min(50)].join("\n")
    );
}

#[test]
fn truncation_cut_points() {
    assert_eq!(cut_points(5), [0, 1, 2, 3, 4]);
    assert_eq!(cut_points(19_999).len(), 19_999);
    let cuts = cut_points(65_132);
    // 2000 spread evenly (one of which falls in the last 64) and the last 64.
    assert_eq!(cuts.len(), 2000 + 64 - 1);
    assert_eq!(cuts[..2], [0, 32]);
    assert_eq!(cuts[cuts.len() - 64..], (65_132 - 64..65_132).collect::<Vec<_>>()[..]);
    assert!(cut_points(3_327_831).len() >= 200 + 64);
}

// ---- error messages -----------------------------------------------------

/// `input` fails with exactly `want` (Display), at the given offset, line and
/// column, through every entry point.
fn assert_message(input: &[u8], want: &str, (offset, line, column): (usize, usize, usize)) {
    let what = String::from_utf8_lossy(input);
    let e = Value::from_slice(input).expect_err(&what);
    assert_eq!(e.to_string(), want, "{what:?}");
    assert_eq!(e.position(), Some(Position { offset, line, column }), "{what:?}");
    assert!(matches!(e.kind(), ErrorKind::Syntax { .. }), "{what:?}: {e:?}");
    assert_eq!(validate(input, &ReadOptions::default()).unwrap_err(), e, "{what:?}: validate");
    assert_eq!(jetjson::from_slice::<Value>(input).unwrap_err().to_string(), want, "{what:?}: serde");
}

#[test]
fn error_messages_are_exact() {
    // A missing comma in an object, found on line 3 (line 3 starts at byte 12).
    assert_message(
        b"{\n  \"a\": 1,\n  \"b\": 2 \"c\": 3\n}",
        "line 3 column 10 (byte 21): expected ',' or '}' after object member",
        (21, 3, 10),
    );
    // The usual form: the comma missing at the end of line 3 is found at the
    // start of the next name, on line 4 (line 4 starts at byte 31).
    assert_message(
        b"{\n  \"name\": \"jet\",\n  \"size\": 3\n  \"kind\": \"codec\"\n}",
        "line 4 column 3 (byte 33): expected ',' or '}' after object member",
        (33, 4, 3),
    );
    // Missing comma in an array.
    assert_message(b"[1 2]", "line 1 column 4 (byte 3): expected ',' or ']' after array element", (3, 1, 4));
    // Trailing comma.
    assert_message(b"[1, 2, ]", "line 1 column 8 (byte 7): expected a value after ','", (7, 1, 8));
    // Missing colon.
    assert_message(b"{\"a\" 1}", "line 1 column 6 (byte 5): expected ':' after object member name", (5, 1, 6));
    // A name that is not a string.
    assert_message(b"{a:1}", "line 1 column 2 (byte 1): expected '\"' to start an object member name", (1, 1, 2));
    // Unterminated string: reported at its opening quote.
    assert_message(b"[\"abc", "line 1 column 2 (byte 1): unterminated string", (1, 1, 2));
    assert_message(b"{\"a\":\n\"abc\\\"}", "line 2 column 1 (byte 6): unterminated string", (6, 2, 1));
    // Unexpected end.
    assert_message(b"{\"a\":1", "line 1 column 7 (byte 6): unexpected end of input: expected ',' or '}' after object member", (6, 1, 7));
    assert_message(b"", "line 1 column 1 (byte 0): unexpected end of input: expected a JSON value", (0, 1, 1));
    assert_message(b" \n ", "line 2 column 2 (byte 3): unexpected end of input: expected a JSON value", (3, 2, 2));
    // Invalid escape: reported at the backslash.
    assert_message(b"[\"a\\x\"]", "line 1 column 4 (byte 3): invalid escape in string", (3, 1, 4));
    assert_message(b"\"\\u12G4\"", "line 1 column 6 (byte 5): invalid hex digit in \\u escape", (5, 1, 6));
    assert_message(b"\"\\u12\"", "line 1 column 4 (byte 3): incomplete \\u escape", (3, 1, 4));
    // Lone surrogates: reported at the escape that is wrong.
    assert_message(
        b"\"\\ud800\"",
        "line 1 column 2 (byte 1): lone surrogate escape (a high surrogate must be followed by a low one)",
        (1, 1, 2),
    );
    assert_message(
        b"[\"\\ud800\\u0041\"]",
        "line 1 column 9 (byte 8): lone surrogate escape (a high surrogate must be followed by a low one)",
        (8, 1, 9),
    );
    assert_message(b"\"\\uDC00\"", "line 1 column 2 (byte 1): lone surrogate escape (a low surrogate without a high one)", (1, 1, 2));
    // Leading zero: `0` is a complete number, so what follows is trailing
    // (top level) or a missing separator (in a container).
    assert_message(b"01", "line 1 column 2 (byte 1): trailing characters after the JSON value", (1, 1, 2));
    assert_message(b"[-01]", "line 1 column 4 (byte 3): expected ',' or ']' after array element", (3, 1, 4));
    // Numbers cut short: at the byte that breaks the grammar.
    assert_message(b"[1.]", "line 1 column 4 (byte 3): invalid number", (3, 1, 4));
    assert_message(b"[1e+]", "line 1 column 5 (byte 4): invalid number", (4, 1, 5));
    assert_message(b"-", "line 1 column 2 (byte 1): invalid number", (1, 1, 2));
    assert_message(b"[.5]", "line 1 column 2 (byte 1): expected a JSON value", (1, 1, 2));
    // NaN and Infinity are not JSON.
    assert_message(b"NaN", "line 1 column 1 (byte 0): expected a JSON value", (0, 1, 1));
    assert_message(b"[1, NaN]", "line 1 column 5 (byte 4): expected a JSON value", (4, 1, 5));
    assert_message(b"-Infinity", "line 1 column 2 (byte 1): invalid number", (1, 1, 2));
    // Misspelt literals: at the first wrong byte.
    assert_message(b"[tru]", "line 1 column 5 (byte 4): invalid literal (expected true, false or null)", (4, 1, 5));
    assert_message(b"nulL", "line 1 column 4 (byte 3): invalid literal (expected true, false or null)", (3, 1, 4));
    // Trailing garbage.
    assert_message(b"{} x", "line 1 column 4 (byte 3): trailing characters after the JSON value", (3, 1, 4));
    assert_message(b"[1]\n]", "line 2 column 1 (byte 4): trailing characters after the JSON value", (4, 2, 1));
    // Control characters in strings, raw tab and raw newline.
    assert_message(b"[\"a\tb\"]", "line 1 column 4 (byte 3): control character in string (must be escaped)", (3, 1, 4));
    assert_message(b"{\"a\": \"x\ny\"}", "line 1 column 9 (byte 8): control character in string (must be escaped)", (8, 1, 9));
    assert_message(b"\"\\n\x1f\"", "line 1 column 4 (byte 3): control character in string (must be escaped)", (3, 1, 4));
    // Invalid UTF-8: at the first byte that is not valid.
    assert_message(b"[\"a\xffb\"]", "line 1 column 4 (byte 3): invalid UTF-8 in string", (3, 1, 4));
    assert_message(b"[\"\xc3\xa9\\n\xe9\"]", "line 1 column 7 (byte 6): invalid UTF-8 in string", (6, 1, 7));
    assert_message(b"{\"\xc3\x28\":1}", "line 1 column 3 (byte 2): invalid UTF-8 in string", (2, 1, 3));
    // A non-ASCII byte outside a string.
    assert_message(b"[\xff]", "line 1 column 2 (byte 1): expected a JSON value", (1, 1, 2));
    // Column is counted in bytes, not characters.
    assert_message("[\"é\", x]".as_bytes(), "line 1 column 8 (byte 7): expected a JSON value", (7, 1, 8));
}

/// The serde path words it as the parser does (it said "expected '\"' to
/// start an object member name" before).
#[test]
fn trailing_comma_in_object_message() {
    let input = b"{\"a\": 1,}";
    let e = Value::from_slice(input).unwrap_err();
    assert_eq!(e.to_string(), "line 1 column 9 (byte 8): expected an object member name after ','");
    let e = jetjson::from_slice::<Value>(input).unwrap_err();
    assert_eq!(e.to_string(), "line 1 column 9 (byte 8): expected an object member name after ','");
}

// ---- serde typed errors -------------------------------------------------

#[derive(Debug, serde::Deserialize)]
#[allow(dead_code)]
struct X {
    x: u32,
}

#[derive(Debug, serde::Deserialize)]
#[allow(dead_code)]
struct Outer {
    inner: Vec<X>,
}

#[test]
fn serde_type_errors_have_positions() {
    let e = jetjson::from_slice::<X>(br#"{"x": "str"}"#).unwrap_err();
    assert_eq!(e.to_string(), r#"line 1 column 7 (byte 6): invalid type: string "str", expected u32"#);
    assert!(matches!(e.kind(), ErrorKind::Custom(_)), "{e:?}");
    let e = jetjson::from_slice::<X>(br#"{"x": -1}"#).unwrap_err();
    assert_eq!(e.to_string(), "line 1 column 7 (byte 6): invalid value: integer `-1`, expected u32");
    let e = jetjson::from_slice::<X>(br#"{"x": 4294967296}"#).unwrap_err();
    assert_eq!(e.to_string(), "line 1 column 7 (byte 6): invalid value: integer `4294967296`, expected u32");
    let e = jetjson::from_slice::<X>(br#"{"x": 1.5}"#).unwrap_err();
    assert_eq!(e.to_string(), "line 1 column 7 (byte 6): invalid type: floating point `1.5`, expected u32");
    // Deep inside: the position of the offending value.
    let e = jetjson::from_slice::<Outer>(br#"{"inner":[{"x":1},{"x":"no"}]}"#).unwrap_err();
    assert_eq!(e.to_string(), r#"line 1 column 24 (byte 23): invalid type: string "no", expected u32"#);
    let e = jetjson::from_slice::<Outer>(b"{\n \"inner\": 7\n}").unwrap_err();
    assert_eq!(e.to_string(), "line 2 column 11 (byte 12): invalid type: integer `7`, expected a sequence");
    // A syntax error still wins over the type.
    let e = jetjson::from_slice::<X>(br#"{"x": 1,}"#).unwrap_err();
    assert_eq!(offset(&e), 8);
}

/// BUG: errors raised by the target type's `visit_map` / `visit_seq` (serde's
/// "missing field", "invalid length") have no position: in `parse/de.rs`,
/// `deserialize_any` returns them with `?` (`let value = value?;` for
/// objects, `visit_seq(..)?` for arrays) before the final `map_err(locate)`.
/// Expected: a position (e.g. the container's opening byte).
#[test]
fn serde_container_errors_have_a_position() {
    let e = jetjson::from_slice::<X>(b"  {}").unwrap_err();
    assert_eq!(e.message(), "missing field `x`");
    assert!(e.position().is_some(), "missing field: {e}");
    let e = jetjson::from_slice::<(u32, u32)>(b"  [1]").unwrap_err();
    assert_eq!(e.message(), "invalid length 1, expected a tuple of size 2");
    assert!(e.position().is_some(), "invalid length: {e}");
}

// ---- lossless round trips -----------------------------------------------

#[test]
fn lossless_numbers_round_trip_byte_for_byte() {
    let files = corpus_files("nativejson-roundtrip", is_json);
    assert_eq!(files.len(), 27);
    for p in files {
        let input = std::fs::read(&p).unwrap();
        let v = Value::from_slice_with(&input, &ReadOptions::lossless()).unwrap();
        let out = v.to_vec_with(&WriteOptions::compact()).unwrap();
        assert_eq!(String::from_utf8_lossy(&out), String::from_utf8_lossy(&input), "{}", p.display());
        assert_eq!(ReadOptions::lossless(), ReadOptions::new().lossless_numbers(true));
    }
    // Spellings the default mode would change are kept.
    for text in
        ["[1E6,1e-999,-0,0.10,1.000000000000000005,1e400,-1e400,123456789012345678901234567890,5e-324]", "{\"a\":-0.0}", "-0", "1E+2"]
    {
        let v = Value::from_slice_with(text.as_bytes(), &ReadOptions::lossless()).unwrap();
        assert_eq!(v.to_string_with(&WriteOptions::compact()).unwrap(), text);
    }
}
