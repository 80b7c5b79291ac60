//! The measuring harness shared by `write_ratios.rs` and `read_ratios.rs`:
//! every round runs each contender once on the same input, rotating which
//! goes first, and the medians are compared. What one contender leaves
//! behind (freed buffers, allocator state, cache contents) changes the next
//! one's time, so every contender takes every position equally often.
//!
//! With `JETJSON_TWIN=<path>` (see `twin.rs`), the program at that path (a
//! build of the same bench without target flags) runs alongside, and every
//! contender named in `TWINNED` gets a twin `<name>/portable` timed there,
//! in the same rounds.

#[allow(dead_code)]
#[path = "../../../jetjson-bench/src/twin.rs"]
mod twin;

use std::cell::RefCell;
use std::time::{Duration, Instant};

/// The contenders that get a portable twin (when there is a twin process).
pub const TWINNED: &[&str] = &["jetjson", "jetjson-compact", "jetjson-go"];

/// A named contender: runs once and returns something to keep it honest.
pub type Job<'a> = (&'static str, Box<dyn Fn() -> usize + 'a>);

/// Reads a document of `../shared/corpus/bench/`.
pub fn corpus(rel: &str) -> Vec<u8> {
    let path = format!("{}/../../../shared/corpus/bench/{rel}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Which side of a twin pair this process is, if any.
enum Side {
    Alone,
    Parent(twin::Twin),
    Child(twin::Server),
}

thread_local! {
    static SIDE: RefCell<Option<Side>> = const { RefCell::new(None) };
}

fn with_side<R>(f: impl FnOnce(&mut Side) -> R) -> R {
    SIDE.with(|s| {
        let mut s = s.borrow_mut();
        let side = s.get_or_insert_with(|| match twin::Server::from_env() {
            Some(server) => Side::Child(server),
            None => twin::Twin::from_env().map_or(Side::Alone, Side::Parent),
        });
        f(side)
    })
}

/// Ends the twin process, if any (at the end of `main`).
pub fn finish() {
    SIDE.with(|s| drop(s.borrow_mut().take()));
}

/// A contender of one row: a job here, or a job of the twin process.
enum Contender<'a, 'j> {
    Local(&'a Job<'j>),
    Twin(&'static str),
}

/// Time of `n` calls of contender `c` of row `row`.
fn time(c: &Contender<'_, '_>, row: &str, n: usize) -> Duration {
    match c {
        Contender::Local((_, f)) => {
            let t = Instant::now();
            for _ in 0..n {
                std::hint::black_box(f());
            }
            t.elapsed()
        }
        Contender::Twin(name) => with_side(|s| match s {
            Side::Parent(twin) => twin.time(row, name, n),
            _ => unreachable!("twin contenders exist only in a parent"),
        }),
    }
}

/// The time of each job in each of `rounds` interleaved rounds, each round
/// in a new shuffled order. (A rotated order kept every job after the same
/// neighbour, and the job after a twin call, which switches to another
/// process, always started with cold caches: the native `go` column, after
/// the portable `compact` one, read 0.80-1.01x sonic-rs on the OCI rows
/// where it is 1.06-1.22x without the twin.)
fn measure(jobs: &[Contender<'_, '_>], row: &str, rounds: usize) -> Vec<Vec<f64>> {
    let mut times = vec![Vec::with_capacity(rounds); jobs.len()];
    for c in jobs {
        time(c, row, rounds.div_ceil(10).max(1));
    }
    let mut order: Vec<usize> = (0..jobs.len()).collect();
    // A fixed seed: the same orders on every run (xorshift64).
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    for _ in 0..rounds {
        for k in (1..order.len()).rev() {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            order.swap(k, (state % (k as u64 + 1)) as usize);
        }
        for &i in &order {
            times[i].push(time(&jobs[i], row, 1).as_secs_f64());
        }
    }
    times
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// The first two arguments that are not flags (cargo passes `--bench`):
/// rounds and a filter on `doc/kind/contender`.
pub fn args(default_rounds: usize) -> (usize, String) {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    (args.first().and_then(|s| s.parse().ok()).unwrap_or(default_rounds), args.get(1).cloned().unwrap_or_default())
}

/// The times of one table row's contenders, round by round, and the cells
/// made from them.
pub struct Row {
    size: usize,
    names: Vec<String>,
    /// Seconds per call, per contender, per round.
    rounds: Vec<Vec<f64>>,
}

impl Row {
    /// Measures the contenders whose `doc/kind/name` contains `filter` (or
    /// one of its `|`-separated parts); `None` if none does.
    ///
    /// In the twin child, serves the parent's requests for this row instead
    /// and returns `None`.
    pub fn measure(doc: &str, kind: &str, size: usize, jobs: &[Job<'_>], rounds: usize, filter: &str) -> Option<Row> {
        let row = format!("{doc}/{kind}");
        let served = with_side(|s| match s {
            Side::Child(server) => {
                let named: Vec<(&str, &dyn Fn() -> usize)> = jobs.iter().map(|(n, f)| (*n, f.as_ref())).collect();
                server.serve_row(&row, &named);
                true
            }
            _ => false,
        });
        if served {
            return None;
        }
        let has_twin = with_side(|s| matches!(s, Side::Parent(_)));
        let mut contenders: Vec<(String, Contender<'_, '_>)> = Vec::new();
        for job in jobs {
            contenders.push((job.0.to_string(), Contender::Local(job)));
            if has_twin && TWINNED.contains(&job.0) {
                contenders.push((format!("{}/portable", job.0), Contender::Twin(job.0)));
            }
        }
        contenders.retain(|(name, _)| {
            let id = format!("{doc}/{kind}/{name}");
            filter.split('|').any(|part| id.contains(part))
        });
        if contenders.is_empty() {
            return None;
        }
        let jobs: Vec<Contender<'_, '_>> = contenders
            .iter()
            .map(|(_, c)| match c {
                Contender::Local(j) => Contender::Local(j),
                Contender::Twin(n) => Contender::Twin(n),
            })
            .collect();
        let rounds = measure(&jobs, &row, rounds);
        Some(Row { size, names: contenders.into_iter().map(|(n, _)| n).collect(), rounds })
    }

    fn index(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| *n == name)
    }

    /// The median time of contender `name`.
    pub fn time(&self, name: &str) -> Option<f64> {
        self.index(name).map(|i| median(self.rounds[i].clone()))
    }

    /// `12.3 µs (456 MB/s)`, or `-` when the contender was filtered out.
    pub fn cell(&self, name: &str) -> String {
        self.time(name).map_or("-".into(), |t| format!("{:.1} µs ({:.0} MB/s)", t * 1e6, self.size as f64 / t / 1e6))
    }

    /// `a`'s time over `b`'s: the median over rounds of the two times'
    /// ratio in each round (paired, so a slow moment of the machine slows
    /// both sides of a ratio), as `1.23x`.
    pub fn ratio(&self, a: &str, b: &str) -> String {
        match (self.index(a), self.index(b)) {
            (Some(a), Some(b)) => {
                let paired = self.rounds[a].iter().zip(&self.rounds[b]).map(|(x, y)| x / y).collect();
                format!("{:.2}x", median(paired))
            }
            _ => "-".into(),
        }
    }
}
