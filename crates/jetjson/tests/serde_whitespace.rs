//! Whitespace between tokens on the serde path, which skips runs from a
//! mask of the 128 bytes classified last (`Parser::skip_ws_run`,
//! `parse/parser.rs`): random documents written with random runs of
//! whitespace (none, one space, pretty-printing's newline and indentation,
//! long mixed runs across block edges) read as serde_json reads them, and a
//! byte that is not whitespace put into a run refused exactly there.

mod common;

use common::Rng;

/// A run of whitespace: usually short or a newline and indentation,
/// sometimes long and mixed.
fn run(rng: &mut Rng) -> Vec<u8> {
    match rng.below(10) {
        0..=3 => Vec::new(),
        4 => b" ".to_vec(),
        5..=7 => {
            let mut r = b"\n".to_vec();
            r.extend(std::iter::repeat_n(b' ', rng.below(40)));
            r
        }
        _ => (0..rng.below(150)).map(|_| b" \t\n\r"[rng.below(4)]).collect(),
    }
}

/// `compact` (compact JSON) with a run of whitespace put before and after
/// every token outside strings; the offsets and lengths of the runs.
fn spaced(rng: &mut Rng, compact: &[u8]) -> (Vec<u8>, Vec<(usize, usize)>) {
    let mut out = Vec::new();
    let mut runs = Vec::new();
    let mut put = |out: &mut Vec<u8>, rng: &mut Rng| {
        let r = run(rng);
        runs.push((out.len(), r.len()));
        out.extend_from_slice(&r);
    };
    put(&mut out, rng);
    let (mut in_string, mut escaped) = (false, false);
    for &c in compact {
        if in_string {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == b'\\' {
                escaped = true;
            } else if c == b'"' {
                in_string = false;
            }
            continue;
        }
        match c {
            b'{' | b'}' | b'[' | b']' | b',' | b':' => {
                put(&mut out, rng);
                out.push(c);
                put(&mut out, rng);
            }
            b'"' => {
                in_string = true;
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    put(&mut out, rng);
    (out, runs)
}

#[test]
fn whitespace_runs_read_as_serde_json_reads_them() {
    let mut rng = Rng::new(0x0057_ace5);
    for n in 0..3000 {
        let doc = common::document(&mut rng, 1 + n % 5);
        let compact = doc.to_vec_with(&jetjson::WriteOptions::compact()).unwrap();
        let (text, runs) = spaced(&mut rng, &compact);
        let want: serde_json::Value = serde_json::from_slice(&text).unwrap();
        let got: serde_json::Value = jetjson::from_slice(&text).unwrap_or_else(|e| panic!("{e}: {}", common::show(&text)));
        assert_eq!(got, want, "{}", common::show(&text));

        // A byte that is not whitespace in one of the runs: refused there.
        let Some(&(at, len)) = runs.iter().filter(|r| r.1 > 0).nth(rng.below(runs.len())) else { continue };
        let mut bad = text.clone();
        let k = at + rng.below(len);
        bad[k] = [0x00, 0x01, 0x0b, 0x0c, 0x1f, 0x7f][rng.below(6)];
        // The first byte of the run that is not whitespace is `k` unless
        // an earlier byte of the run is not whitespace (none is).
        let e = jetjson::from_slice::<serde_json::Value>(&bad).expect_err("refused");
        assert_eq!(e.position().map(|p| p.offset), Some(k), "{e}: {}", common::show(&bad));
    }
}

/// Runs of every length to 300 starting at every offset of a block, in an
/// array of numbers and an object, ending the input or not.
#[test]
fn runs_of_every_length_at_every_block_offset() {
    for lead in 0..128 {
        for len in 0..300 {
            let ws: Vec<u8> = (0..len).map(|k| if k % 9 == 0 { b'\n' } else { b' ' }).collect();
            let pad = " ".repeat(lead);
            let mut doc = format!("{pad}[1,").into_bytes();
            doc.extend_from_slice(&ws);
            doc.extend_from_slice(b"2");
            doc.extend_from_slice(&ws);
            doc.extend_from_slice(b",{\"a\"");
            doc.extend_from_slice(&ws);
            doc.extend_from_slice(b":");
            doc.extend_from_slice(&ws);
            doc.extend_from_slice(b"3}");
            doc.extend_from_slice(&ws);
            doc.extend_from_slice(b"]");
            doc.extend_from_slice(&ws);
            let got: serde_json::Value = jetjson::from_slice(&doc).unwrap();
            assert_eq!(got, serde_json::json!([1, 2, {"a": 3}]), "lead {lead} len {len}");
            // A stray byte at the end of the last run, and then nothing.
            doc.push(b'x');
            let e = jetjson::from_slice::<serde_json::Value>(&doc).unwrap_err();
            assert_eq!(e.position().map(|p| p.offset), Some(doc.len() - 1), "lead {lead} len {len}");
        }
    }
}

/// Empty arrays (`[]`, answered at the first element's check) and arrays
/// with whitespace or elements inside, into typed sequences and tuples,
/// read as serde_json reads them; broken ones refused by both.
#[test]
fn empty_arrays_read_as_serde_json_reads_them() {
    type T = Vec<(Vec<u64>, Vec<Vec<u64>>)>;
    let good = ["[]", "[[[],[]]]", "[[[ ],[[]]]]", "[[[1],[[],[2]]], [[],[[],[]]]]", "[\n [\n  [],\n  [ ]\n ]\n]", "[[[] ,[[] ]]]"];
    for text in good {
        let want: T = serde_json::from_str(text).unwrap();
        assert_eq!(jetjson::from_slice::<T>(text.as_bytes()).unwrap(), want, "{text}");
    }
    for text in ["[[[],]]", "[[[], []", "[[[]]]", "[[[1,],[]]]", "[[[],[[]],[]]]"] {
        assert!(serde_json::from_str::<T>(text).is_err(), "{text}");
        assert!(jetjson::from_slice::<T>(text.as_bytes()).is_err(), "{text}");
    }
}
