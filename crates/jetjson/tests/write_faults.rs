//! Writing into an `io::Write` that fails: after every possible number of
//! accepted bytes, in every profile, the call returns an I/O error and never
//! reports success for partial output. Short writes, `Interrupted` and
//! `Ok(0)` are handled as `io::Write::write_all` defines them.

mod common;

use std::io::{self, Write};

use common::{corpus, document, Rng};
use jetjson::{ErrorKind, Value, WriteOptions};

/// Accepts `budget` bytes (in pieces of at most `piece`), then fails.
struct Failing {
    got: Vec<u8>,
    budget: usize,
    piece: usize,
    /// What happens once the budget is spent.
    end: End,
    /// Answer every other call with `Interrupted` (which must be retried).
    interrupt: bool,
    calls: usize,
}

#[derive(Clone, Copy, Debug)]
enum End {
    Error,
    /// `Ok(0)`: the writer accepts nothing (write_all turns it into WriteZero).
    Zero,
}

impl Write for Failing {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.calls += 1;
        if self.interrupt && self.calls.is_multiple_of(2) {
            return Err(io::Error::new(io::ErrorKind::Interrupted, "signal"));
        }
        let n = buf.len().min(self.piece).min(self.budget - self.got.len());
        if n == 0 && !buf.is_empty() {
            return match self.end {
                End::Error => Err(io::Error::other("disk full")),
                End::Zero => Ok(0),
            };
        }
        self.got.extend_from_slice(&buf[..n]);
        Ok(n)
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

fn options() -> Vec<WriteOptions> {
    vec![
        WriteOptions::compact(),
        WriteOptions::go(),
        WriteOptions::jcs(),
        WriteOptions::compact().indent(2),
        WriteOptions::go().zero_buffers(true),
    ]
}

/// Every budget below the output's length fails with an I/O error through
/// both the serde and the Value writer; a budget of the full length
/// succeeds with exactly the bytes `to_vec_with` gives.
fn check_every_budget(v: &Value, opts: &WriteOptions, budgets: impl Iterator<Item = usize>, piece: usize, end: End, interrupt: bool) {
    let want = v.to_vec_with(opts).expect("writable");
    for budget in budgets.filter(|&b| b < want.len()) {
        let what = format!("{opts:?}, {budget} of {} bytes, pieces of {piece}, {end:?}, interrupt {interrupt}", want.len());
        let mut w = Failing { got: Vec::new(), budget, piece, end, interrupt, calls: 0 };
        let r = jetjson::to_writer_with(&mut w, v, opts);
        let e = r.expect_err(&what);
        assert!(matches!(e.kind(), ErrorKind::Io(_)), "{what}: {e:?}");
        assert_eq!(w.got[..], want[..w.got.len()], "{what}: what was accepted is a prefix of the output");

        // The Value writer driven through a sink.
        let mut w = Failing { got: Vec::new(), budget, piece, end, interrupt, calls: 0 };
        let mut writer = jetjson::Writer::with_sink(opts, jetjson::IoSink(&mut w));
        let r = v.write_to(&mut writer).and_then(|()| writer.finish().map(drop));
        let e = r.expect_err(&what);
        assert!(matches!(e.kind(), ErrorKind::Io(_)), "{what}: Value writer: {e:?}");
    }
    let mut w = Failing { got: Vec::new(), budget: want.len(), piece, end: End::Zero, interrupt, calls: 0 };
    jetjson::to_writer_with(&mut w, v, opts).expect("the whole output fits");
    assert_eq!(w.got, want);
}

#[test]
fn small_documents_fail_at_every_byte_count() {
    let mut rng = Rng::new(7);
    let docs: Vec<Value> = (0..40).map(|_| document(&mut rng, 4)).collect();
    for v in &docs {
        for opts in options() {
            if v.to_vec_with(&opts).is_err() {
                continue; // e.g. integers jcs cannot write exactly: not this test's subject.
            }
            let len = v.to_vec_with(&opts).unwrap().len();
            check_every_budget(v, &opts, 0..len, usize::MAX, End::Error, false);
            check_every_budget(v, &opts, 0..len, 3, End::Zero, true);
        }
    }
}

/// A document far larger than the writer's internal chunk, so it is
/// flushed many times mid-value: failures around every chunk edge and at a
/// spread of other counts.
#[test]
fn large_documents_fail_mid_stream() {
    let bytes = std::fs::read(corpus("bench/nativejson-benchmark/twitter.json")).expect("twitter.json");
    let v = Value::from_slice(&bytes).expect("valid");
    for opts in [WriteOptions::compact(), WriteOptions::go(), WriteOptions::jcs()] {
        let len = v.to_vec_with(&opts).unwrap().len();
        assert!(len > 400_000, "{len}");
        let mut budgets: Vec<usize> = (0..200).map(|i| i * len / 200).collect();
        // Around every power-of-two boundary a buffer could be flushed at.
        for shift in 10..20 {
            let edge = 1usize << shift;
            budgets.extend([edge - 1, edge, edge + 1]);
        }
        budgets.extend(len - 3..len);
        check_every_budget(&v, &opts, budgets.iter().copied(), usize::MAX, End::Error, false);
        check_every_budget(&v, &opts, budgets.iter().copied().step_by(7), 4093, End::Zero, false);
    }
}
