//! Go's encoding/json as a contender inside the interleaved rounds: the Go
//! module's compiled test binary (`go test -c` in `bench/go`) runs as a
//! child process answering timing requests (see `bench/go/serve_test.go`).
//! Go times its own batches, so the pipe's cost is not in its numbers; the
//! rounds interleave Go with the Rust contenders, so both see the same
//! machine noise.

use std::cell::RefCell;
use std::collections::HashSet;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::Duration;

pub struct GoPeer {
    child: Child,
    io: RefCell<(ChildStdin, BufReader<ChildStdout>)>,
    names: HashSet<String>,
}

impl GoPeer {
    /// Starts `binary` in `dir` (the Go module, for its `testdata/`); fails
    /// if any Go case's output check fails.
    pub fn start(binary: &Path, dir: &Path) -> std::io::Result<GoPeer> {
        let mut child = Command::new(binary)
            .args(["-test.run", "^TestServe$"])
            .env("JETJSON_BENCH_SERVE", "1")
            .current_dir(dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()?;
        let stdin = child.stdin.take().expect("piped stdin");
        let mut stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
        let mut line = String::new();
        stdout.read_line(&mut line)?;
        let Some(names) = line.trim_end().strip_prefix("ready") else {
            return Err(std::io::Error::other(format!("Go benchmark server did not start: {line:?}")));
        };
        let names = names.split_whitespace().map(String::from).collect();
        Ok(GoPeer { child, io: RefCell::new((stdin, stdout)), names })
    }

    /// Whether Go does the row `family/case/op`.
    pub fn has(&self, key: &str) -> bool {
        self.names.contains(key)
    }

    fn ask(&self, request: &str) -> String {
        let (stdin, stdout) = &mut *self.io.borrow_mut();
        writeln!(stdin, "{request}").and_then(|_| stdin.flush()).expect("Go benchmark server gone");
        let mut line = String::new();
        stdout.read_line(&mut line).expect("Go benchmark server gone");
        assert!(!line.is_empty(), "Go benchmark server failed on {request:?}");
        line.trim_end().to_string()
    }

    /// Go's own time for `n` calls of `key`.
    pub fn time(&self, key: &str, n: usize) -> Duration {
        let ns: u64 = self.ask(&format!("time {key} {n}")).parse().expect("nanoseconds");
        Duration::from_nanos(ns)
    }

    /// Allocations and bytes per call (Go's runtime counters over `n` calls).
    pub fn allocs(&self, key: &str, n: usize) -> (u64, u64) {
        let reply = self.ask(&format!("allocs {key} {n}"));
        let mut it = reply.split_whitespace().map(|x| x.parse::<u64>().expect("count"));
        (it.next().unwrap_or(0), it.next().unwrap_or(0))
    }
}

impl Drop for GoPeer {
    fn drop(&mut self) {
        let _ = writeln!(self.io.get_mut().0, "quit");
        let _ = self.child.wait();
    }
}
