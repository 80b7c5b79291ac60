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
