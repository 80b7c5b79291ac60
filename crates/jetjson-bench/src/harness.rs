//! The measuring harness. A row is one operation on one input, done by
//! several contenders. Each round runs every contender once (one batch of
//! calls), rotating which goes first, so a noisy, shared machine slows them
//! all alike and the ratios of the medians hold; what one contender leaves
//! behind (allocator state, caches) affects each contender equally often.
//!
//! Per contender the row keeps the median time per call, the quartiles and
//! extremes of the rounds, and the allocations of one (warm) call.

use std::time::{Duration, Instant};

use serde::Serialize;

use crate::alloc;

/// A named contender: one call, returning something that depends on the
/// work done (kept from the optimizer with `black_box`).
pub type Job<'a> = (&'static str, Box<dyn Fn() -> usize + 'a>);

/// What a row measures.
#[derive(Clone, Debug)]
pub struct Meta {
    /// Workload family: `oci`, `binding`, `sdk`, `envelope`, `strings`, `corpus`.
    pub family: &'static str,
    /// The input, e.g. `manifest-5` or `twitter.json`.
    pub case: String,
    /// The operation, e.g. `serialize`.
    pub op: &'static str,
    /// Bytes of the JSON text involved (throughput is bytes / time).
    pub bytes: usize,
    /// Anything a reader must know to read the row fairly.
    pub note: String,
}

impl Meta {
    pub fn new(family: &'static str, case: impl Into<String>, op: &'static str, bytes: usize) -> Meta {
        Meta { family, case: case.into(), op, bytes, note: String::new() }
    }

    pub fn note(mut self, note: impl Into<String>) -> Meta {
        self.note = note.into();
        self
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct Stat {
    pub name: &'static str,
    pub median_ns: f64,
    pub p25_ns: f64,
    pub p75_ns: f64,
    pub min_ns: f64,
    pub max_ns: f64,
    /// Calls per timed sample.
    pub batch: usize,
    pub rounds: usize,
    pub allocs: u64,
    pub alloc_bytes: u64,
}

#[derive(Clone, Debug, Serialize)]
pub struct RowResult {
    pub family: &'static str,
    pub case: String,
    pub op: &'static str,
    pub bytes: usize,
    pub note: String,
    pub contenders: Vec<Stat>,
}

/// How rows are run.
#[derive(Clone, Debug)]
pub enum Mode {
    /// Time every row.
    Measure(Settings),
    /// Call every contender once (tests).
    Smoke,
}

#[derive(Clone, Debug)]
pub struct Settings {
    /// Timed rounds per row (fewer when a row would take too long).
    pub rounds: usize,
    /// Target duration of one timed sample; short calls are batched.
    pub sample: Duration,
    /// Upper bound on the timed part of one row.
    pub row_budget: Duration,
}

pub struct Runner {
    pub mode: Mode,
    /// Only rows whose `family/case/op` contains this string run.
    pub filter: String,
    pub results: Vec<RowResult>,
    /// Print each row as it completes (the binary; not the tests).
    pub verbose: bool,
}

impl Runner {
    pub fn new(mode: Mode) -> Runner {
        Runner { mode, filter: String::new(), results: Vec::new(), verbose: false }
    }

    pub fn smoke() -> Runner {
        Runner::new(Mode::Smoke)
    }

    /// Whether the rows of `family` (or a row `family/case/op`) are wanted;
    /// lets a workload skip building inputs nobody will measure.
    pub fn wants(&self, key: &str) -> bool {
        self.filter.is_empty() || key.contains(&self.filter) || self.filter.contains(key)
    }

    pub fn is_smoke(&self) -> bool {
        matches!(self.mode, Mode::Smoke)
    }

    /// Runs one row. The caller has checked every contender's output.
    pub fn row(&mut self, meta: Meta, jobs: &[Job<'_>]) {
        let key = format!("{}/{}/{}", meta.family, meta.case, meta.op);
        if !self.filter.is_empty() && !key.contains(&self.filter) {
            return;
        }
        let settings = match &self.mode {
            Mode::Smoke => {
                for (_, f) in jobs {
                    std::hint::black_box(f());
                }
                return;
            }
            Mode::Measure(s) => s.clone(),
        };
        let contenders = measure(jobs, &settings);
        if self.verbose {
            let cells: Vec<String> = contenders.iter().map(|s| format!("{} {}", s.name, fmt_ns(s.median_ns))).collect();
            eprintln!("{key:<44} {}", cells.join("  "));
        }
        self.results.push(RowResult { family: meta.family, case: meta.case, op: meta.op, bytes: meta.bytes, note: meta.note, contenders });
    }
}

fn fmt_ns(ns: f64) -> String {
    match ns {
        n if n < 1e3 => format!("{n:.0} ns"),
        n if n < 1e6 => format!("{:.2} µs", n / 1e3),
        n => format!("{:.2} ms", n / 1e6),
    }
}

fn time_batch(f: &dyn Fn() -> usize, batch: usize) -> Duration {
    let t = Instant::now();
    for _ in 0..batch {
        std::hint::black_box(f());
    }
    t.elapsed()
}

fn measure(jobs: &[Job<'_>], s: &Settings) -> Vec<Stat> {
    let n = jobs.len();
    // Warm-up and calibration: a few calls each, then a batch size that
    // makes one sample about `s.sample` long.
    let mut batch = vec![1usize; n];
    for (i, (_, f)) in jobs.iter().enumerate() {
        let once = time_batch(f.as_ref(), 1);
        if once < s.sample / 4 {
            let per_call = (time_batch(f.as_ref(), 8).as_secs_f64() / 8.0).max(1e-9);
            batch[i] = ((s.sample.as_secs_f64() / per_call) as usize).max(1);
        }
    }
    // Allocations of one warm call (pools and caches already filled).
    let allocs: Vec<(u64, u64)> = jobs
        .iter()
        .map(|(_, f)| {
            let (r, a, b) = alloc::measure(|| f());
            std::hint::black_box(r);
            (a, b)
        })
        .collect();
    // Fewer rounds when a row would exceed its budget (100 MB strings).
    let per_round: f64 = jobs.iter().enumerate().map(|(i, (_, f))| time_batch(f.as_ref(), batch[i]).as_secs_f64()).sum();
    let rounds = if per_round * s.rounds as f64 > s.row_budget.as_secs_f64() {
        ((s.row_budget.as_secs_f64() / per_round) as usize).clamp(5, s.rounds)
    } else {
        s.rounds
    };
    let mut times = vec![Vec::with_capacity(rounds); n];
    for r in 0..rounds {
        for k in 0..n {
            let i = (r + k) % n;
            let t = time_batch(jobs[i].1.as_ref(), batch[i]);
            times[i].push(t.as_secs_f64() * 1e9 / batch[i] as f64);
        }
    }
    jobs.iter()
        .zip(times)
        .enumerate()
        .map(|(i, ((name, _), mut t))| {
            t.sort_by(f64::total_cmp);
            Stat {
                name,
                median_ns: quantile(&t, 0.5),
                p25_ns: quantile(&t, 0.25),
                p75_ns: quantile(&t, 0.75),
                min_ns: t[0],
                max_ns: t[t.len() - 1],
                batch: batch[i],
                rounds,
                allocs: allocs[i].0,
                alloc_bytes: allocs[i].1,
            }
        })
        .collect()
}

/// Linear interpolation between the closest ranks of sorted samples.
pub fn quantile(sorted: &[f64], q: f64) -> f64 {
    let pos = q * (sorted.len() - 1) as f64;
    let (lo, hi) = (pos.floor() as usize, pos.ceil() as usize);
    sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_interpolate() {
        let v = [1.0, 2.0, 3.0, 4.0];
        assert_eq!(quantile(&v, 0.5), 2.5);
        assert_eq!(quantile(&v, 0.0), 1.0);
        assert_eq!(quantile(&v, 1.0), 4.0);
    }

    #[test]
    fn measuring_reports_every_contender() {
        let data = vec![1u8; 1000];
        let jobs: Vec<Job<'_>> =
            vec![("sum", Box::new(|| data.iter().map(|&b| b as usize).sum())), ("alloc", Box::new(|| data.to_vec().len()))];
        let s = Settings { rounds: 5, sample: Duration::from_micros(200), row_budget: Duration::from_secs(1) };
        let stats = measure(&jobs, &s);
        assert_eq!(stats.len(), 2);
        assert!(stats.iter().all(|s| s.median_ns > 0.0 && s.min_ns <= s.median_ns && s.median_ns <= s.max_ns));
        assert_eq!(stats[0].allocs, 0);
        assert_eq!((stats[1].allocs, stats[1].alloc_bytes), (1, 1000));
    }
}
