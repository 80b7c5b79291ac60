//! The parser's shortcuts between tokens: whitespace runs skipped sixteen
//! bytes at a time, and the serde sequence step that reads `,<value>` and
//! `, <value>` in one go. Each is checked against what the grammar says,
//! through the push parser (`Value`, `validate`) and serde (typed and
//! `Value`), with the same error at the same byte.

use jetjson::parse::validate;
use jetjson::{Error, ReadOptions, Value};
use serde::de::DeserializeOwned;
use std::fmt::Debug;

fn offset(e: &Error) -> usize {
    e.position().unwrap_or_else(|| panic!("error without a position: {e}")).offset
}

/// `input` is accepted everywhere, and as `T` equals `want`.
fn accepted<T: DeserializeOwned + PartialEq + Debug>(input: &[u8], want: &T) {
    let what = String::from_utf8_lossy(input);
    let v = Value::from_slice(input).unwrap_or_else(|e| panic!("{what:?}: Value: {e}"));
    validate(input, &ReadOptions::default()).unwrap_or_else(|e| panic!("{what:?}: validate: {e}"));
    let s: Value = jetjson::from_slice(input).unwrap_or_else(|e| panic!("{what:?}: serde Value: {e}"));
    assert_eq!(s, v, "{what:?}");
    let t: T = jetjson::from_slice(input).unwrap_or_else(|e| panic!("{what:?}: typed: {e}"));
    assert_eq!(&t, want, "{what:?}");
}

/// `input` is refused everywhere with the same message, at byte `at`.
fn refused<T: DeserializeOwned + Debug>(input: &[u8], at: usize) {
    let what = String::from_utf8_lossy(input);
    let v = Value::from_slice(input).err().unwrap_or_else(|| panic!("{what:?}: Value accepted"));
    let c = validate(input, &ReadOptions::default()).err().unwrap_or_else(|| panic!("{what:?}: validate accepted"));
    let s = jetjson::from_slice::<Value>(input).err().unwrap_or_else(|| panic!("{what:?}: serde Value accepted"));
    let t = jetjson::from_slice::<T>(input).err().unwrap_or_else(|| panic!("{what:?}: typed accepted"));
    for (how, e) in [("Value", &v), ("validate", &c), ("serde Value", &s), ("typed", &t)] {
        assert_eq!(offset(e), at, "{what:?}: {how}: {e}");
        assert_eq!(e.to_string(), v.to_string(), "{what:?}: {how}");
    }
}

const WS: [u8; 4] = [b' ', b'\n', b'\r', b'\t'];

/// A whitespace run of `len` bytes, mostly spaces (indentation) with the
/// other three kinds mixed in by `seed`.
fn ws_run(len: usize, seed: usize) -> Vec<u8> {
    (0..len).map(|k| if (k * 7 + seed).is_multiple_of(5) { WS[(k + seed) % 4] } else { b' ' }).collect()
}

#[test]
fn whitespace_runs_of_every_length_between_all_tokens() {
    for len in 0..=40 {
        for seed in 0..3 {
            let w = ws_run(len, seed);
            let w = w.as_slice();
            // [ w 1 w , w 2.5 w ] w  and an object with the same runs.
            let doc = [w, b"[", w, b"1", w, b",", w, b"2", w, b",", w, b"3", w, b"]", w].concat();
            accepted(&doc, &vec![1u32, 2, 3]);
            let doc =
                [w, b"{", w, b"\"a\"", w, b":", w, b"[", w, b"0.5", w, b"]", w, b",", w, b"\"b\"", w, b":", w, b"{", w, b"}", w, b"}", w]
                    .concat();
            let want: std::collections::BTreeMap<String, Value> =
                [("a".to_string(), Value::from_slice(b"[0.5]").unwrap()), ("b".to_string(), Value::from_slice(b"{}").unwrap())].into();
            accepted(&doc, &want);
        }
    }
}

/// A byte that is not JSON whitespace inside a run stops it exactly there:
/// control characters (which look like whitespace to a `<= ' '` test) and
/// ordinary bytes, at every position of runs of every length, including
/// runs that end the input.
#[test]
fn a_non_whitespace_byte_in_a_run_is_refused_where_it_is() {
    for len in 1..=40 {
        for k in 0..len {
            for bad in [0x00u8, 0x0B, 0x0C, 0x1F, 0x1C, b'x', 0x80] {
                let mut w = ws_run(len, k);
                w[k] = bad;
                // Between elements (after a ',').
                let doc = [b"[1,".as_slice(), &w, b"2]"].concat();
                refused::<Vec<u32>>(&doc, 3 + k);
                // After the last element, before ']'.
                let doc = [b"[1".as_slice(), &w, b"]"].concat();
                refused::<Vec<u32>>(&doc, 2 + k);
                // After the whole value, up to the end of the input.
                let doc = [b"[1]".as_slice(), &w].concat();
                refused::<Vec<u32>>(&doc, 3 + k);
            }
        }
    }
}

#[test]
fn sequence_separators_in_every_spelling() {
    let seps: [&[u8]; 10] = [b",", b", ", b",  ", b",\n", b",\n    ", b" ,", b" , ", b"\t,\r\n", b",\t", b"\n,\n"];
    for a in seps {
        for b in seps {
            let doc = [b"[1".as_slice(), a, b"22", b, b"333]"].concat();
            accepted(&doc, &vec![1u32, 22, 333]);
            let doc = [b"[-0.5".as_slice(), a, b"2.25", b, b"1e3]"].concat();
            accepted(&doc, &vec![-0.5f64, 2.25, 1000.0]);
            let doc = [b"[\"x\"".as_slice(), a, b"\"\"", b, b"\"z\"]"].concat();
            accepted(&doc, &vec!["x".to_string(), String::new(), "z".to_string()]);
            let doc = [b"[[1]".as_slice(), a, b"[]", b, b"[2,3]]"].concat();
            accepted(&doc, &vec![vec![1u8], vec![], vec![2, 3]]);
            let doc = [b"[null".as_slice(), a, b"7", b, b"null]"].concat();
            accepted(&doc, &vec![None, Some(7u32), None]);
            let doc = [b"[{}".as_slice(), a, b"{\"k\":1}", b, b"true]"].concat();
            accepted::<Value>(&doc, &Value::from_slice(&doc).unwrap());
        }
    }
}

/// Separators not followed by a value, doubled, or missing; and arrays
/// cut short right after a number or a separator (the fast step reads
/// up to three bytes ahead and must not run past the end).
#[test]
fn broken_separators_and_arrays_cut_short() {
    for (doc, at) in [
        (&b"[1,]"[..], 3),
        (b"[1, ]", 4),
        (b"[1,\n ]", 5),
        (b"[1 ,]", 4),
        (b"[1,,2]", 3),
        (b"[1, ,2]", 4),
        (b"[1 2]", 3),
        (b"[1,\x0b2]", 3),
        (b"[1, \x002]", 4),
        (b"[,1]", 1),
        (b"[1:2]", 2),
    ] {
        refused::<Vec<u32>>(doc, at);
    }
    let full = b"[1,22, 333,\n4444 , 5.5e1]";
    for cut in 0..full.len() {
        let doc = &full[..cut];
        let what = String::from_utf8_lossy(doc);
        let v = Value::from_slice(doc).err().unwrap_or_else(|| panic!("{what:?}: Value accepted"));
        let t = jetjson::from_slice::<Vec<f64>>(doc).err().unwrap_or_else(|| panic!("{what:?}: typed accepted"));
        assert_eq!(t.to_string(), v.to_string(), "{what:?}");
        assert_eq!(offset(&t), offset(&v), "{what:?}");
        // A document that ends inside an array never has its error past the end.
        assert!(offset(&t) <= cut, "{what:?}: {t}");
    }
}

/// The number loop's step from one small array of numbers to the next
/// (`],[` and a number, as in rings of points): taken only when the
/// parent is an array, with each end and start seen by the builder, and
/// every other form refused where the general path refuses it. The loop
/// looks at a 32-byte window, so each document is followed by spaces.
#[test]
fn from_one_array_of_numbers_to_the_next() {
    let padded = |doc: &[u8]| [doc, &[b' '; 40]].concat();
    // Rings of points, in compact input and with spaces.
    accepted(&padded(b"[[1,2],[3,4],[-5.5,6e1],[7]]"), &vec![vec![1.0f64, 2.0], vec![3.0, 4.0], vec![-5.5, 60.0], vec![7.0]]);
    accepted(&padded(b"[[[1, 2],[3, 4]],[[5, 6],[7]]]"), &vec![vec![vec![1u32, 2], vec![3, 4]], vec![vec![5, 6], vec![7]]]);
    // A step the loop does not take (a space, another value) goes the
    // general way to the same tree.
    accepted(&padded(b"[[1], [2],[\"a\"],[3],[]]"), &Value::from_slice(b"[[1],[2],[\"a\"],[3],[]]").unwrap());
    // Under an object the `,` must be followed by a name.
    refused::<Value>(&padded(b"{\"a\":[1],[2]}"), 9);
    refused::<Value>(&padded(b"{\"a\":[[1],[2]],[3]}"), 15);
    // A `[` that does not close, or an element missing.
    refused::<Value>(&padded(b"[[1],[2"), 47);
    refused::<Value>(&padded(b"[[1],[2,]]"), 8);
    refused::<Value>(&padded(b"[[1],[-]]"), 7);
    // The depth limit still counts the arrays the step opens.
    let deep = ReadOptions::new().max_depth(2);
    assert!(Value::from_slice_with(&padded(b"[[1],[2],[3]]"), &deep).is_ok());
    assert!(Value::from_slice_with(&padded(b"[[[1],[2]]]"), &deep).is_err());
}
