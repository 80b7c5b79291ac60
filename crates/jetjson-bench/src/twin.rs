//! A second build of the same benchmark program as one more contender:
//! jetjson built without target flags ("portable", runtime dispatch) timed
//! in the same interleaved rounds as a `-C target-cpu=native` build of
//! jetjson and of its peers (sonic-rs and simd-json ask for that flag).
//! Cargo builds a whole program with one set of flags, so the portable
//! jetjson runs in a child process: the parent is the native build, the
//! child the portable build of the same program with the same arguments.
//!
//! Both walk the same rows in the same order (same code, same arguments,
//! same checks before timing). The parent asks for a row's contender; the
//! child answers requests for the row it is at and moves on to its next row
//! when a request names another one. The child times its own calls, so the
//! pipe's cost is not in its numbers.
//!
//! Parent: `JETJSON_TWIN=<path of the portable build>` in the environment.
//! Protocol (child's stdout lines that do not start with `@twin ` are
//! ignored, so the program's own printing does no harm):
//!
//! ```text
//!   child  -> @twin ready
//!   parent -> time <row> <contender> <n>      child -> @twin <ns for n calls>
//!   parent -> quit
//! ```
//!
//! This file is shared by `crates/jetjson-bench` and the ratio benches and
//! examples of `crates/jetjson` (included by path), so it uses std only.

use std::cell::RefCell;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

/// Set (to the portable binary's path) in the parent's environment.
pub const TWIN_VAR: &str = "JETJSON_TWIN";
/// Set by the parent in the child's environment.
const SERVE_VAR: &str = "JETJSON_TWIN_SERVE";
const PREFIX: &str = "@twin ";

/// The parent's handle on the child.
pub struct Twin {
    child: Child,
    io: RefCell<(ChildStdin, BufReader<ChildStdout>)>,
}

impl Twin {
    /// Starts the binary named by `JETJSON_TWIN` with this process's
    /// arguments, or `None` when the variable is unset or empty.
    pub fn from_env() -> Option<Twin> {
        let path = std::env::var_os(TWIN_VAR).filter(|p| !p.is_empty())?;
        if std::env::var_os(SERVE_VAR).is_some() {
            return None;
        }
        let mut child = Command::new(&path)
            .args(std::env::args_os().skip(1))
            .env(SERVE_VAR, "1")
            .env_remove(TWIN_VAR)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("{TWIN_VAR}={}: {e}", path.to_string_lossy()));
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
        let twin = Twin { child, io: RefCell::new((stdin, stdout)) };
        assert_eq!(twin.reply(), "ready", "the twin did not start");
        Some(twin)
    }

    fn reply(&self) -> String {
        let (_, stdout) = &mut *self.io.borrow_mut();
        let mut line = String::new();
        loop {
            line.clear();
            let n = stdout.read_line(&mut line).expect("twin's stdout");
            assert!(n > 0, "the twin exited (did it reach the row asked for? same arguments, same rows?)");
            if let Some(rest) = line.trim_end().strip_prefix(PREFIX) {
                return rest.to_string();
            }
        }
    }

    /// The child's own time for `n` calls of contender `name` of row `row`.
    pub fn time(&self, row: &str, name: &str, n: usize) -> Duration {
        {
            let (stdin, _) = &mut *self.io.borrow_mut();
            writeln!(stdin, "time {row} {name} {n}").and_then(|_| stdin.flush()).expect("twin gone");
        }
        let reply = self.reply();
        let ns: u64 = reply.parse().unwrap_or_else(|_| panic!("twin failed on {row} {name}: {reply}"));
        Duration::from_nanos(ns)
    }
}

impl Drop for Twin {
    fn drop(&mut self) {
        let _ = writeln!(self.io.get_mut().0, "quit");
        let _ = self.child.wait();
    }
}

/// The child's side: answers the parent's requests row by row.
pub struct Server {
    lines: std::io::Lines<std::io::StdinLock<'static>>,
    /// A request read for a later row.
    pending: Option<(String, String, usize)>,
    done: bool,
}

impl Server {
    /// `Some` in a child started by `Twin::from_env` (it says it is ready).
    pub fn from_env() -> Option<Server> {
        std::env::var_os(SERVE_VAR)?;
        println!("{PREFIX}ready");
        std::io::stdout().flush().ok();
        Some(Server { lines: std::io::stdin().lock().lines(), pending: None, done: false })
    }

    fn next(&mut self) -> Option<(String, String, usize)> {
        if let Some(p) = self.pending.take() {
            return Some(p);
        }
        if self.done {
            return None;
        }
        let line = self.lines.next()?.ok()?;
        let mut it = line.split(' ');
        match (it.next(), it.next(), it.next(), it.next().and_then(|n| n.parse().ok())) {
            (Some("time"), Some(row), Some(name), Some(n)) => Some((row.to_string(), name.to_string(), n)),
            _ => {
                // `quit`, or the parent is gone.
                self.done = true;
                None
            }
        }
    }

    /// Answers every request for row `row` (contenders looked up by name in
    /// `jobs`) until one names another row, which is kept for later.
    pub fn serve_row(&mut self, row: &str, jobs: &[(&str, &dyn Fn() -> usize)]) {
        while let Some((r, name, n)) = self.next() {
            if r != row {
                self.pending = Some((r, name, n));
                return;
            }
            let reply = match jobs.iter().find(|(j, _)| *j == name) {
                Some((_, f)) => {
                    let t = Instant::now();
                    for _ in 0..n {
                        std::hint::black_box(f());
                    }
                    t.elapsed().as_nanos().to_string()
                }
                None => format!("error: no contender {name} in row {row}"),
            };
            println!("{PREFIX}{reply}");
            std::io::stdout().flush().ok();
        }
    }

    /// Whether the parent has finished (no request left).
    pub fn finished(&mut self) -> bool {
        match self.next() {
            Some(p) => {
                self.pending = Some(p);
                false
            }
            None => true,
        }
    }
}
