//! Several documents in one input: `Deserializer::from_slice(b).into_iter()`
//! and the same from an `io::Read`.
//!
//! The reference for each document is `from_slice` of that document alone;
//! the reference for a reader stream is the slice stream over the same
//! bytes (values, and errors with their positions), whatever sizes the
//! reader's chunks come in.

mod common;

use std::io::{self, Read};

use jetjson::{Category, Deserializer, DuplicateKeys, ErrorKind, Position, ReadOptions, Value, WriteOptions};

/// What a stream gave: values as compact text, errors as message and position.
type Outcome = Vec<Result<String, (String, Option<Position>)>>;

fn outcome<I: Iterator<Item = jetjson::Result<Value>>>(docs: I) -> Outcome {
    docs.map(|d| match d {
        Ok(v) => Ok(v.to_string()),
        Err(e) => Err((e.message(), e.position())),
    })
    .collect()
}

fn slice_stream(input: &[u8], options: &ReadOptions) -> Outcome {
    outcome(Deserializer::from_slice(input).with_options(options).into_iter::<Value>())
}

/// A reader handing out its bytes in chunks of pseudo-random sizes up to
/// `max_chunk`, counting what it gave.
struct Chunked<'a> {
    data: &'a [u8],
    rng: common::Rng,
    max_chunk: usize,
    given: usize,
}

impl Read for Chunked<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = (1 + self.rng.below(self.max_chunk)).min(buf.len()).min(self.data.len() - self.given);
        buf[..n].copy_from_slice(&self.data[self.given..self.given + n]);
        self.given += n;
        Ok(n)
    }
}

fn reader_stream(input: &[u8], options: &ReadOptions, max_chunk: usize, seed: u64) -> Outcome {
    let reader = Chunked { data: input, rng: common::Rng::new(seed), max_chunk, given: 0 };
    outcome(Deserializer::from_reader(reader).with_options(options).into_iter::<Value>())
}

/// Generated documents, written in varied layouts.
fn documents(seed: u64, n: usize) -> Vec<Vec<u8>> {
    let mut rng = common::Rng::new(seed);
    let mut docs = Vec::new();
    while docs.len() < n {
        let doc = common::document(&mut rng, 3);
        let options = match rng.below(4) {
            0 => WriteOptions::compact(),
            1 => WriteOptions::compact().indent(2),
            2 => WriteOptions::go().ascii_only(true),
            _ => WriteOptions::jcs(),
        };
        if let Ok(bytes) = doc.to_vec_with(&options) {
            docs.push(bytes);
        }
    }
    docs
}

/// Joins documents with whitespace (or nothing, where both sides allow).
fn join(docs: &[Vec<u8>], rng: &mut common::Rng) -> (Vec<u8>, Vec<usize>) {
    let mut input = Vec::new();
    let mut ends = Vec::new();
    for (i, doc) in docs.iter().enumerate() {
        if i > 0 {
            let prev_closes = matches!(input.last(), Some(b'}' | b']' | b'"'));
            let seps: &[&[u8]] = if prev_closes { &[b"\n", b"\r\n", b" ", b"", b"\n\n\t "] } else { &[b"\n", b"\r\n", b" ", b"\n\n\t "] };
            input.extend_from_slice(seps[rng.below(seps.len())]);
        }
        input.extend_from_slice(doc);
        ends.push(input.len());
    }
    if rng.chance(50) {
        input.push(b'\n');
    }
    (input, ends)
}

#[test]
fn a_slice_stream_reads_each_document_as_from_slice_does() {
    let mut rng = common::Rng::new(1);
    for round in 0..50 {
        let docs = documents(round, 1 + rng.below(20));
        let (input, ends) = join(&docs, &mut rng);
        let mut stream = Deserializer::from_slice(&input).into_iter::<Value>();
        for (i, doc) in docs.iter().enumerate() {
            let got = stream.next().expect("a document").expect("valid");
            assert_eq!(got, Value::from_slice(doc).unwrap(), "round {round} doc {i}");
            assert_eq!(stream.byte_offset(), ends[i]);
        }
        assert!(stream.next().is_none());
        assert!(stream.next().is_none());
    }
}

#[test]
fn a_reader_stream_gives_what_the_slice_stream_gives_in_any_chunking() {
    let mut rng = common::Rng::new(2);
    for round in 0..60 {
        let docs = documents(100 + round, 1 + rng.below(30));
        let (mut input, _) = join(&docs, &mut rng);
        // Every other round, damage one byte (an error somewhere inside).
        if round % 2 == 1 {
            let at = rng.below(input.len());
            input[at] = b"x]}\",:\x01"[rng.below(7)];
        }
        let options = ReadOptions::new();
        let want = slice_stream(&input, &options);
        for (max_chunk, seed) in [(1, 1), (3, 2), (17, 3), (4096, 4)] {
            assert_eq!(reader_stream(&input, &options, max_chunk, seed), want, "round {round}, chunks up to {max_chunk}");
        }
    }
}

#[test]
fn positions_stay_right_across_buffer_compaction() {
    // About 1 MB of NDJSON (far more than the reader's buffer keeps), with
    // a bad line near the end: the error's offset, line and column are
    // those of the whole input.
    let mut input = Vec::new();
    let mut line = 0;
    while input.len() < 1 << 20 {
        line += 1;
        input.extend_from_slice(format!("{{\"line\":{line},\"pad\":\"{}\"}}\n", "é".repeat(line % 50)).as_bytes());
    }
    let bad_line_start = input.len();
    input.extend_from_slice(b"{\"line\":\"last\", \"oops\" 1}\n");
    let options = ReadOptions::new();
    let want = slice_stream(&input, &options);
    assert_eq!(want.len(), line + 1);
    let (msg, at) = want.last().unwrap().clone().unwrap_err();
    assert_eq!(msg, "expected ':' after object member name");
    assert_eq!(at, Some(Position { offset: bad_line_start + 23, line: line + 1, column: 24 }));
    for (max_chunk, seed) in [(100_000, 5), (4096, 6), (700, 7)] {
        assert_eq!(reader_stream(&input, &options, max_chunk, seed), want, "chunks up to {max_chunk}");
    }

    // A few short lines, then one line of 200,000 documents with a bad one
    // at its end: the buffer is cut in the middle of that line, so the
    // column counts bytes dropped on both sides of the cut.
    let mut input = b"[1]\n[22]\n".to_vec();
    for i in 0..200_000 {
        input.extend_from_slice(format!("[{}] ", i % 1000).as_bytes());
    }
    let line_start = 9;
    let bad_at = input.len();
    input.extend_from_slice(b"[1,]\n");
    let want = slice_stream(&input, &options);
    let (_, at) = want.last().unwrap().clone().unwrap_err();
    assert_eq!(at, Some(Position { offset: bad_at + 3, line: 3, column: bad_at + 3 - line_start + 1 }));
    for (max_chunk, seed) in [(100_000, 8), (5000, 9)] {
        assert_eq!(reader_stream(&input, &options, max_chunk, seed), want, "chunks up to {max_chunk}");
    }
}

#[test]
fn errors_carry_their_place_in_the_whole_input() {
    let bad_lines: [&[u8]; 6] = [b"[1,]", b"{\"a\" 1}", b"\"\\x\"", b"[1 2]", b"{\"a\":1,\"a\":2}", b"[\"\xff\"]"];
    for bad in bad_lines {
        let alone = jetjson::from_slice::<Value>(bad).unwrap_err();
        let prefix = b"{\"ok\":1}\n  [true]\n\"s\"\n";
        let input = [&prefix[..], bad, b"\n[2]\n"].concat();
        let mut stream = Deserializer::from_slice(&input).into_iter::<Value>();
        for _ in 0..3 {
            stream.next().unwrap().unwrap();
        }
        let e = stream.next().unwrap().unwrap_err();
        assert_eq!(e.message(), alone.message());
        let (p, q) = (e.position().unwrap(), alone.position().unwrap());
        assert_eq!(p.offset, prefix.len() + q.offset, "{}", String::from_utf8_lossy(bad));
        assert_eq!((p.line, p.column), (4, q.column));
        assert_eq!(e.classify(), alone.classify());
        // The stream ends at the first error.
        assert!(stream.next().is_none());
    }
}

#[test]
fn a_truncated_last_document_is_an_eof_error() {
    for input in [&b"[1]\n[2"[..], b"{\"a\":1} {\"b\":", b"1 \"abc", b"[1] tru", b"[1] -"] {
        let mut stream = Deserializer::from_slice(input).into_iter::<Value>();
        assert!(stream.next().unwrap().is_ok());
        let e = stream.next().unwrap().unwrap_err();
        assert_eq!(e.classify(), Category::Eof, "{}: {e}", String::from_utf8_lossy(input));
        let from_reader = Deserializer::from_reader(input).into_iter::<Value>().nth(1).unwrap().unwrap_err();
        assert_eq!((from_reader.classify(), from_reader.position()), (Category::Eof, e.position()));
    }
}

#[test]
fn documents_are_separated_by_whitespace_unless_they_close_themselves() {
    let values = |input: &str| -> Vec<Result<String, String>> {
        Deserializer::from_str(input).into_iter::<Value>().map(|d| d.map(|v| v.to_string()).map_err(|e| e.to_string())).collect()
    };
    let ok = |items: &[&str]| -> Vec<Result<String, String>> { items.iter().map(|s| Ok(s.to_string())).collect() };
    assert_eq!(values("1 2\t3\r\n4"), ok(&["1", "2", "3", "4"]));
    assert_eq!(values("[1][2]{}{\"a\":[]}\"x\"\"y\""), ok(&["[1]", "[2]", "{}", "{\"a\":[]}", "\"x\"", "\"y\""]));
    let mixed = values("\"s\"1{}null");
    assert_eq!(mixed[..2], ok(&["\"s\"", "1"]));
    assert!(mixed[2].as_ref().unwrap_err().contains("after a JSON number or literal"), "{mixed:?}");
    assert_eq!(values(""), ok(&[]));
    assert_eq!(values(" \n\t "), ok(&[]));
    for (input, good, column) in [("1\"a\"", 1, 2), ("true[1]", 1, 5), ("1,2", 1, 2), ("null{}", 1, 5), ("[] 5x", 2, 5)] {
        let got = values(input);
        assert_eq!(got.len(), good + 1, "{input}");
        let e = Deserializer::from_str(input).into_iter::<Value>().nth(good).unwrap().unwrap_err();
        assert_eq!(e.column(), column, "{input}: {e}");
        assert_eq!(e.classify(), Category::Syntax, "{input}");
    }
}

#[test]
fn each_document_is_bounded_by_max_size_not_the_stream() {
    let options = ReadOptions::new().max_size(8);
    let input = b"[1,2,3]\n12345678\n\"123456\"\n[1,2,3,4,5]\n[1]";
    let got = slice_stream(input, &options);
    assert_eq!(got[..3], [Ok("[1,2,3]".into()), Ok("12345678".into()), Ok("\"123456\"".into())]);
    // The fourth starts at byte 26 and is cut at 26 + 8.
    let e = Deserializer::from_slice(input).with_options(&options).into_iter::<Value>().nth(3).unwrap().unwrap_err();
    assert_eq!(e.kind(), &ErrorKind::SizeLimit { limit: 8 });
    assert_eq!(e.position(), Some(Position { offset: 34, line: 4, column: 9 }));
    assert_eq!(got.len(), 4);
    // A number that runs past the limit is too big, even though its first
    // eight digits would parse.
    let got = slice_stream(b"123456789 1", &options);
    assert_eq!(got.len(), 1);
    assert!(got[0].as_ref().unwrap_err().0.contains("max_size 8"));
    // The reader stream agrees.
    for input in [&input[..], b"123456789 1", b"[1]\n[\"abcdefgh\"]"] {
        assert_eq!(reader_stream(input, &options, 3, 9), slice_stream(input, &options));
    }
}

/// A reader of an endless document (`["aaaa...`), counting the bytes
/// taken from it.
struct Endless {
    taken: usize,
}

impl Read for Endless {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        buf.fill(b'a');
        if self.taken == 0 && buf.len() >= 2 {
            buf[..2].copy_from_slice(b"[\"");
        }
        self.taken += buf.len();
        Ok(buf.len())
    }
}

#[test]
fn an_endless_document_fails_at_the_limit_without_being_read_whole() {
    let mut reader = Endless { taken: 0 };
    let limit = 1 << 20;
    let options = ReadOptions::new().max_size(limit);
    let first = Deserializer::from_reader(&mut reader).with_options(&options).into_iter::<serde::de::IgnoredAny>().next();
    let e = first.unwrap().unwrap_err();
    assert_eq!(e.kind(), &ErrorKind::SizeLimit { limit });
    assert!(reader.taken <= limit + 2 * 64 * 1024, "read {} bytes for a limit of {limit}", reader.taken);
}

#[test]
fn a_document_is_handed_out_without_waiting_for_more_input() {
    // A reader that gives one line and then fails: a live stream whose
    // producer has not written the next line yet.
    struct OneLine(Option<&'static [u8]>);
    impl Read for OneLine {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            match self.0.take() {
                Some(line) => {
                    buf[..line.len()].copy_from_slice(line);
                    Ok(line.len())
                }
                None => Err(io::Error::new(io::ErrorKind::WouldBlock, "nothing yet")),
            }
        }
    }
    for line in [&b"{\"a\":1}\n"[..], b"[1,2]", b"\"text\"", b"123\n", b"true ", b"1\n", b"{}"] {
        let mut docs = Deserializer::from_reader(OneLine(Some(line))).into_iter::<Value>();
        let first = docs.next().unwrap().unwrap();
        assert_eq!(first, Value::from_slice(line).unwrap());
        // The next document needs more input: the reader's error, as an I/O error.
        let e = docs.next().unwrap().unwrap_err();
        assert_eq!(e.classify(), Category::Io, "{e}");
        assert!(docs.next().is_none());
    }
}

#[test]
fn options_apply_to_each_document() {
    let input = b"{\"a\":1,\"a\":2}\n{\"a\":3}";
    let strict = slice_stream(input, &ReadOptions::new());
    assert_eq!(strict.len(), 1);
    assert!(strict[0].as_ref().unwrap_err().0.contains("duplicate"));
    let last = slice_stream(input, &ReadOptions::new().duplicate_keys(DuplicateKeys::Last));
    assert_eq!(last, [Ok("{\"a\":2}".to_string()), Ok("{\"a\":3}".to_string())]);
    let deep = b"[[[1]]] [[1]]";
    let got = slice_stream(deep, &ReadOptions::new().max_depth(2));
    assert!(got[0].as_ref().unwrap_err().0.contains("max_depth 2"));
}

#[test]
fn a_byte_order_mark_is_skipped_only_at_the_start_and_only_when_allowed() {
    let input = b"\xEF\xBB\xBF[1] [2]";
    assert_eq!(slice_stream(input, &ReadOptions::new().allow_bom(true)), [Ok("[1]".to_string()), Ok("[2]".to_string())]);
    let refused = slice_stream(input, &ReadOptions::new());
    assert_eq!(refused.len(), 1);
    assert_eq!(refused[0].as_ref().unwrap_err().1.unwrap().offset, 0);
    let inner = b"[1] \xEF\xBB\xBF[2]";
    let got = slice_stream(inner, &ReadOptions::new().allow_bom(true));
    assert_eq!(got.len(), 2);
    assert_eq!(got[1].as_ref().unwrap_err().1.unwrap().offset, 4);
    // Its message does not tell the caller to enable allow_bom (which does
    // not skip it), whether allow_bom is on or off, nor for a mark after
    // whitespace before the first document.
    for options in [ReadOptions::new(), ReadOptions::new().allow_bom(true)] {
        for (text, at) in [(&inner[..], 4), (&b" \xEF\xBB\xBF1"[..], 1)] {
            let got = slice_stream(text, &options);
            let (msg, pos) = got.last().unwrap().as_ref().unwrap_err();
            assert!(msg.contains("only at the start of the input") && !msg.contains("enable"), "{msg}");
            assert_eq!(pos.unwrap().offset, at);
            assert_eq!(reader_stream(text, &options, 1, 3), got);
        }
    }
    for input in [&input[..], inner] {
        for options in [ReadOptions::new(), ReadOptions::new().allow_bom(true)] {
            assert_eq!(reader_stream(input, &options, 1, 3), slice_stream(input, &options));
        }
    }
}

#[test]
fn typed_documents_borrow_from_a_slice() {
    #[derive(serde::Deserialize, Debug, PartialEq)]
    struct Event<'a> {
        id: u32,
        kind: &'a str,
    }
    let input = "{\"id\":1,\"kind\":\"push\"}\n{\"id\":2,\"kind\":\"fork\"}\n{\"id\":-3,\"kind\":\"x\"}";
    let mut events = Deserializer::from_str(input).into_iter::<Event>();
    assert_eq!(events.next().unwrap().unwrap(), Event { id: 1, kind: "push" });
    assert_eq!(events.next().unwrap().unwrap(), Event { id: 2, kind: "fork" });
    let e = events.next().unwrap().unwrap_err();
    assert_eq!((e.line(), e.column(), e.classify()), (3, 7, Category::Data));
}

#[test]
fn one_document_through_mut_deserializer_reads_as_from_slice() {
    use serde::Deserialize;
    let inputs: [&[u8]; 7] = [b" {\"a\": [1, 2.5, null]} ", b"[1,]", b"[1", b"{\"a\":1,\"a\":2}", b"\"\\ud83d", b"12 ", b"\xEF\xBB\xBF1"];
    for input in inputs {
        let want = jetjson::from_slice::<Value>(input);
        let mut de = Deserializer::from_slice(input);
        let got = Value::deserialize(&mut de).and_then(|v| de.end().map(|_| v));
        match (got, want) {
            (Ok(a), Ok(b)) => assert_eq!(a, b),
            (Err(a), Err(b)) => {
                assert_eq!(
                    (a.message(), a.position(), a.classify()),
                    (b.message(), b.position(), b.classify()),
                    "{}",
                    String::from_utf8_lossy(input)
                );
            }
            (a, b) => panic!("{}: {a:?} vs {b:?}", String::from_utf8_lossy(input)),
        }
    }
    // Options apply, and what follows the document is checked by `end`.
    let options = ReadOptions::new().allow_bom(true).duplicate_keys(DuplicateKeys::Last);
    let mut de = Deserializer::from_slice(b"\xEF\xBB\xBF{\"a\":1,\"a\":2} x").with_options(&options);
    assert_eq!(Value::deserialize(&mut de).unwrap(), Value::from_slice(b"{\"a\":2}").unwrap());
    let e = de.end().unwrap_err();
    assert_eq!((e.column(), e.classify()), (18, Category::Syntax));
    let mut de = Deserializer::from_str("[1, 2, 3]").with_options(&ReadOptions::new().max_size(4));
    assert_eq!(Vec::<u8>::deserialize(&mut de).unwrap_err().kind(), &ErrorKind::SizeLimit { limit: 4 });
}

/// A reader handing out its bytes `n` at a time.
struct Fixed<'a> {
    data: &'a [u8],
    n: usize,
}

impl Read for Fixed<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.n.min(buf.len()).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

/// Each document of `input` into `T`, from a slice and from readers of
/// every read size up to `max_read`: the same values, or the same error
/// message at the same place.
fn same_in_any_read_size<T>(input: &[u8], max_read: usize, options: &ReadOptions)
where
    T: serde::de::DeserializeOwned + std::fmt::Debug + PartialEq,
{
    let result = |docs: Vec<jetjson::Result<T>>| docs.into_iter().map(|d| d.map_err(|e| (e.message(), e.position()))).collect::<Vec<_>>();
    let want = result(Deserializer::from_slice(input).with_options(options).into_iter::<T>().collect());
    for n in 1..=max_read {
        let got = result(Deserializer::from_reader(Fixed { data: input, n }).with_options(options).into_iter::<T>().collect());
        assert_eq!(got, want, "reads of {n} bytes: {}", String::from_utf8_lossy(input));
    }
}

/// A number cut by the end of a read is read whole before its target sees
/// it: its first digits alone may be refused by the target (no 128-bit
/// integers in `serde_json::Value`, beyond an `f32`, beyond the double
/// range before the exponent that brings it back) where the whole number
/// is not.
#[test]
fn a_number_cut_by_a_read_is_not_refused_for_its_first_digits() {
    let options = ReadOptions::new();
    let doc = b"{\"amount\": 123456789012345678901.5}\n[2]\n";
    same_in_any_read_size::<serde_json::Value>(doc, 45, &options);
    #[derive(serde::Deserialize, Debug, PartialEq)]
    #[serde(untagged)]
    enum Num {
        I(i64),
        F(f64),
    }
    same_in_any_read_size::<Vec<Num>>(b"[123456789012345678901.5]", 30, &options);
    same_in_any_read_size::<Vec<f32>>(b"[1234567890123456789012345678901234567890.5e-10]", 50, &options);
    let one = format!("[1{}e-400]\n", "0".repeat(400));
    same_in_any_read_size::<Vec<f64>>(one.as_bytes(), 420, &options);
    let values = Deserializer::from_reader(Fixed { data: one.as_bytes(), n: 402 }).into_iter::<Value>().collect::<Vec<_>>();
    let shown: Vec<String> = values.iter().map(|v| v.as_ref().map_or_else(|e| e.to_string(), |v| v.to_string())).collect();
    assert_eq!(shown, ["[1.0]"]);
    // Out of range whole: the error quotes the whole number, where it is.
    same_in_any_read_size::<Value>(b"[1e400000]", 12, &options);
    let e = Deserializer::from_reader(Fixed { data: b"[1e400000]", n: 1 }).into_iter::<Value>().next().unwrap().unwrap_err();
    assert!(e.message().contains("1e400000"), "{e}");
}

/// A number cut by `max_size` is the size limit's error (what `from_slice`
/// with the limit says), not a refusal of the number's first bytes.
#[test]
fn a_number_cut_by_the_size_limit_is_the_size_limits_error() {
    let doc = b"-1.5e+1012345678901234567890\n";
    let options = ReadOptions::new().max_size(11);
    let alone = jetjson::from_slice_with::<Value>(doc, &options).unwrap_err();
    assert_eq!(alone.kind(), &ErrorKind::SizeLimit { limit: 11 });
    for e in [
        Deserializer::from_slice(doc).with_options(&options).into_iter::<Value>().next().unwrap().unwrap_err(),
        Deserializer::from_reader(Fixed { data: doc, n: 3 }).with_options(&options).into_iter::<Value>().next().unwrap().unwrap_err(),
    ] {
        assert_eq!(e.kind(), &ErrorKind::SizeLimit { limit: 11 }, "{e}");
    }
    same_in_any_read_size::<Value>(b"[1, 2345678]\n", 14, &ReadOptions::new().max_size(8));
}
