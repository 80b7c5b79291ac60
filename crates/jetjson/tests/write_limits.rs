//! Limits on writing: the indent cap (`MAX_INDENT`) in every way of
//! writing, and output streamed to a sink in bounded pieces whatever the
//! shape of the value (the CLI's `fmt` and `canon` rely on it).

use std::io::{self, Write};

use jetjson::{ErrorKind, IoSink, Sink, Value, WriteOptions, Writer, MAX_INDENT};

/// A nested value whose pretty form grows with depth x indent.
fn nested(depth: usize) -> Value {
    let mut text = "[".repeat(depth);
    text.push_str("1,{\"a\":\"b\"}");
    text.push_str(&"]".repeat(depth));
    Value::from_slice(text.as_bytes()).unwrap()
}

/// An `io::Write` that records how much it was given.
#[derive(Default)]
struct Counting {
    bytes: usize,
    /// Largest single write.
    largest: usize,
}

impl Write for Counting {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.bytes += buf.len();
        self.largest = self.largest.max(buf.len());
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

fn assert_indent_error(what: &str, r: Result<impl std::fmt::Debug, jetjson::Error>, indent: u16) {
    let e = r.expect_err(what);
    assert_eq!(e.kind(), &ErrorKind::IndentLimit { indent, limit: 16 }, "{what}");
    assert_eq!(e.to_string(), format!("indent {indent} is wider than the limit of 16 spaces"), "{what}");
}

#[test]
fn the_indent_cap_is_16() {
    assert_eq!(MAX_INDENT, 16);
    let v = nested(3);
    let at_cap = v.to_vec_with(&WriteOptions::compact().indent(16)).unwrap();
    assert!(at_cap.starts_with(format!("[\n{}[\n{}[", " ".repeat(16), " ".repeat(32)).as_bytes()), "{}", String::from_utf8_lossy(&at_cap));
    assert!(WriteOptions::go().indent(16).check().is_ok());
}

/// Over the cap, every entry point fails with the same error naming the
/// limit, and nothing is handed out: no bytes reach an `io::Write` or a
/// hash, and a driven `Writer` shows no output.
#[test]
fn an_indent_over_the_cap_fails_every_write() {
    let v = nested(100);
    for indent in [17, 100, u16::MAX] {
        for options in [WriteOptions::compact().indent(indent), WriteOptions::go().indent(indent), WriteOptions::jcs().indent(indent)] {
            assert_indent_error("check", options.check(), indent);
            assert_indent_error("Value::to_vec_with", v.to_vec_with(&options), indent);
            assert_indent_error("Value::to_string_with", v.to_string_with(&options), indent);
            assert_indent_error("to_vec_with", jetjson::to_vec_with(&v, &options), indent);
            assert_indent_error("to_string_with", jetjson::to_string_with(&vec![vec![1]], &options), indent);
            let mut out = Counting::default();
            assert_indent_error("to_writer_with", jetjson::to_writer_with(&mut out, &v, &options), indent);
            assert_eq!(out.bytes, 0, "to_writer_with wrote {} bytes", out.bytes);
            assert_indent_error("digest", jetjson::digest(&v, &options, jetjson::Algorithm::Sha256), indent);
            assert_indent_error("digest_value", jetjson::digest_value(&v, &options, jetjson::Algorithm::Sha256), indent);

            // Front ends that drive the writer themselves: through a sink
            // (failing at the first spill or at finish, before the sink
            // sees a byte) and into the writer's buffer.
            let mut out = Counting::default();
            let mut w = Writer::with_sink(&options, IoSink(&mut out));
            let mut r = Ok(());
            for _ in 0..2000 {
                r = r.and_then(|()| v.write_to(&mut w));
            }
            assert_indent_error("Writer::with_sink", r.and_then(|()| w.finish().map(|_| ())), indent);
            assert_eq!(out.bytes, 0, "the sink got {} bytes", out.bytes);
            let mut w = Writer::new(&options);
            v.write_to(&mut w).unwrap();
            assert!(w.as_bytes().is_empty(), "as_bytes shows {} bytes", w.as_bytes().len());
        }
    }
}

/// The writer spills to its sink between values, also inside arrays and
/// objects of numbers and literals, and between the pieces of a long
/// string: memory stays bounded by the spill size whatever the output size.
#[test]
fn output_reaches_the_sink_in_bounded_pieces() {
    struct Largest {
        bytes: usize,
        largest: usize,
    }
    impl Sink for Largest {
        fn spill(&mut self, bytes: &[u8]) -> jetjson::Result<()> {
            self.bytes += bytes.len();
            self.largest = self.largest.max(bytes.len());
            Ok(())
        }
    }
    let deep_numbers = {
        let mut t = "[".repeat(500);
        t.push_str(&"0,".repeat(100_000));
        t.push('0');
        t.push_str(&"]".repeat(500));
        t
    };
    let members = format!("{{{}\"z\":null}}", (0..50_000).map(|i| format!("\"k{i}\":true,")).collect::<String>());
    let long_string = format!("\"{}\"", "<\\u0001>".repeat(1 << 20));
    for (what, text) in [("deep numbers", deep_numbers), ("object of literals", members), ("long string", long_string)] {
        let v = Value::from_slice(text.as_bytes()).unwrap();
        for options in [WriteOptions::compact(), WriteOptions::compact().indent(16), WriteOptions::go(), WriteOptions::go().indent(2)] {
            let whole = v.to_vec_with(&options).unwrap();
            let mut w = Writer::with_sink(&options, Largest { bytes: 0, largest: 0 });
            v.write_to(&mut w).unwrap();
            let sink = w.finish().unwrap();
            assert_eq!(sink.bytes, whole.len(), "{what}");
            // Spills start at 32 KiB; a spill holds at most one more token
            // (a line of indentation, a 64 KiB piece of string escaped 6x).
            assert!(sink.largest <= 512 << 10, "{what} {options:?}: a spill of {} bytes for {} bytes of output", sink.largest, whole.len());
        }
    }
    // The serde path: sequences and insertion-order maps of numbers.
    let numbers: Vec<Vec<u64>> = vec![(0..1_000_000).collect(); 2];
    let map: std::collections::HashMap<String, bool> = (0..100_000).map(|i| (format!("k{i}"), i % 2 == 0)).collect();
    for options in [WriteOptions::compact(), WriteOptions::compact().indent(4)] {
        let mut out = Counting::default();
        jetjson::to_writer_with(&mut out, &numbers, &options).unwrap();
        assert_eq!(out.bytes, jetjson::to_vec_with(&numbers, &options).unwrap().len());
        assert!(out.largest <= 512 << 10, "serde numbers {options:?}: a write of {} bytes", out.largest);
        let mut out = Counting::default();
        jetjson::to_writer_with(&mut out, &map, &options).unwrap();
        assert!(out.largest <= 512 << 10, "serde map {options:?}: a write of {} bytes", out.largest);
    }
}
