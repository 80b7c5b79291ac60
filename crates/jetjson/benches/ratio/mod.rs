//! The measuring harness shared by `write_ratios.rs` and `read_ratios.rs`:
//! every round runs each contender once on the same input, rotating which
//! goes first, and the medians are compared. What one contender leaves
//! behind (freed buffers, allocator state, cache contents) changes the next
//! one's time, so every contender takes every position equally often.

use std::time::{Duration, Instant};

/// A named contender: runs once and returns something to keep it honest.
pub type Job<'a> = (&'static str, Box<dyn Fn() -> usize + 'a>);

/// Reads a document of `../shared/corpus/bench/`.
pub fn corpus(rel: &str) -> Vec<u8> {
    let path = format!("{}/../../../shared/corpus/bench/{rel}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Median time of each job over `rounds` interleaved, rotated rounds.
pub fn measure(jobs: &[&Job<'_>], rounds: usize) -> Vec<Duration> {
    let mut times = vec![Vec::with_capacity(rounds); jobs.len()];
    for _ in 0..rounds.div_ceil(10).max(1) {
        for (_, f) in jobs {
            std::hint::black_box(f());
        }
    }
    for r in 0..rounds {
        for k in 0..jobs.len() {
            let i = (r + k) % jobs.len();
            let t = Instant::now();
            std::hint::black_box((jobs[i].1)());
            times[i].push(t.elapsed());
        }
    }
    times
        .into_iter()
        .map(|mut t| {
            t.sort();
            t[t.len() / 2]
        })
        .collect()
}

/// The first two arguments that are not flags (cargo passes `--bench`):
/// rounds and a filter on `doc/kind/contender`.
pub fn args(default_rounds: usize) -> (usize, String) {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    (args.first().and_then(|s| s.parse().ok()).unwrap_or(default_rounds), args.get(1).cloned().unwrap_or_default())
}

/// The medians of one table row's contenders, and the cells made from them.
pub struct Row {
    size: usize,
    names: Vec<&'static str>,
    seconds: Vec<f64>,
}

impl Row {
    /// Measures the contenders whose `doc/kind/name` contains `filter` (or
    /// one of its `|`-separated parts); `None` if none does.
    pub fn measure(doc: &str, kind: &str, size: usize, jobs: &[Job<'_>], rounds: usize, filter: &str) -> Option<Row> {
        let jobs: Vec<&Job<'_>> = jobs
            .iter()
            .filter(|(name, _)| {
                let id = format!("{doc}/{kind}/{name}");
                filter.split('|').any(|part| id.contains(part))
            })
            .collect();
        if jobs.is_empty() {
            return None;
        }
        let seconds = measure(&jobs, rounds).iter().map(Duration::as_secs_f64).collect();
        Some(Row { size, names: jobs.iter().map(|(n, _)| *n).collect(), seconds })
    }

    pub fn time(&self, name: &str) -> Option<f64> {
        self.names.iter().position(|n| *n == name).map(|i| self.seconds[i])
    }

    /// `12.3 µs (456 MB/s)`, or `-` when the contender was filtered out.
    pub fn cell(&self, name: &str) -> String {
        self.time(name).map_or("-".into(), |t| format!("{:.1} µs ({:.0} MB/s)", t * 1e6, self.size as f64 / t / 1e6))
    }

    /// `a`'s time over `b`'s, as `1.23x`.
    pub fn ratio(&self, a: &str, b: &str) -> String {
        match (self.time(a), self.time(b)) {
            (Some(a), Some(b)) => format!("{:.2}x", a / b),
            _ => "-".into(),
        }
    }
}
