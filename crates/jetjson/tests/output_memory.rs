//! Writing straight into external memory (`Writer::with_memory`): the same
//! bytes as a writer with its own buffer, for every profile and option, and
//! never a byte written beyond the capacity the memory handed out.

mod common;

use std::ptr::NonNull;

use common::{document, hostile_string, Rng};
use jetjson::{OutputMemory, Value, WriteOptions, Writer};
use serde::Serialize;

/// Bytes after the capacity handed out, checked for stray writes.
const GUARD: usize = 64;
const POISON: u8 = 0xA5;

/// Storage that grows to exactly what is asked (so the writer grows it
/// often, at every size), each time into a fresh allocation with a guard
/// zone after the capacity it reports.
struct Tight {
    storage: Vec<u8>,
    cap: usize,
    grows: usize,
}

impl Tight {
    fn new() -> Tight {
        Tight { storage: Vec::new(), cap: 0, grows: 0 }
    }

    fn assert_guard_intact(&self) {
        assert!(self.storage[self.cap..].iter().all(|&b| b == POISON), "a write went past the capacity handed out");
    }
}

// SAFETY: `grow` returns a fresh allocation of `min_capacity + GUARD` bytes
// holding the first `len` bytes of the old one; it stays put until the next
// `grow`, and only the writer touches it meanwhile.
unsafe impl OutputMemory for Tight {
    fn grow(&mut self, len: usize, min_capacity: usize) -> (NonNull<u8>, usize) {
        if self.cap > 0 {
            self.assert_guard_intact();
        }
        let mut fresh = vec![POISON; min_capacity + GUARD];
        fresh[..len].copy_from_slice(&self.storage[..len]);
        self.storage = fresh;
        self.cap = min_capacity;
        self.grows += 1;
        (NonNull::new(self.storage.as_mut_ptr()).expect("non-null"), self.cap)
    }

    fn into_any(self: Box<Self>) -> Box<dyn std::any::Any> {
        self
    }
}

fn via_memory<T: ?Sized + Serialize>(value: &T, options: &WriteOptions) -> (Vec<u8>, usize) {
    let mut w = Writer::with_memory(options, Box::new(Tight::new()));
    value.serialize(&mut w).expect("writes");
    let (memory, len) = w.finish_into_memory().expect("finishes");
    let tight = memory.into_any().downcast::<Tight>().expect("a Tight");
    tight.assert_guard_intact();
    (tight.storage[..len].to_vec(), tight.grows)
}

fn profiles() -> Vec<WriteOptions> {
    vec![
        WriteOptions::compact(),
        WriteOptions::go(),
        WriteOptions::go().escape_html(false),
        WriteOptions::jcs(),
        WriteOptions::compact().indent(2),
        WriteOptions::go().ascii_only(true),
    ]
}

#[test]
fn random_documents_come_out_as_from_an_own_buffer() {
    let mut rng = Rng::new(0x6d656d);
    let mut grows = 0;
    for _ in 0..300 {
        let doc: Value = document(&mut rng, 4);
        for options in profiles() {
            let expected = jetjson::to_vec_with(&doc, &options);
            let Ok(expected) = expected else { continue };
            let (got, g) = via_memory(&doc, &options);
            grows += g;
            assert_eq!(String::from_utf8_lossy(&got), String::from_utf8_lossy(&expected));
        }
    }
    assert!(grows > 300 * 6, "the memory was grown during writes, not only at the start");
}

#[test]
fn long_and_hostile_strings_come_out_as_from_an_own_buffer() {
    let mut rng = Rng::new(77);
    for len in [0, 1, 31, 32, 33, 255, 256, 257, 4095, 4096, 4097, 70_000, 200_000] {
        let mut s = hostile_string(&mut rng, len);
        while s.len() < len {
            s.push_str(&hostile_string(&mut rng, len - s.len()));
        }
        // Invalid UTF-8 as well: go repairs it, the others refuse it.
        let mut raw = s.clone().into_bytes();
        raw.extend_from_slice(b"\xff\xc3(\xed\xa0\x80");
        let bytes = jetjson::ByteStr(&raw);
        for options in profiles() {
            assert_eq!(via_memory(&s, &options).0, jetjson::to_vec_with(&s, &options).unwrap(), "len {len}");
            if let Ok(expected) = jetjson::to_vec_with(&bytes, &options) {
                assert_eq!(via_memory(&bytes, &options).0, expected, "bytes, len {len}");
            }
        }
    }
}
