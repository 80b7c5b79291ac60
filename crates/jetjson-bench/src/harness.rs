//! The measuring harness. A row is one operation on one input, done by
//! several contenders. Each round runs every contender once (one batch of
//! calls), in a random order, so a noisy, shared machine slows them all
//! alike and the ratios of the medians hold; what one contender leaves
//! behind (allocator state, caches, Go's background GC) affects each of the
//! others equally often.
//!
//! Per contender the row keeps the median time per call, the quartiles and
//! extremes of the rounds, and the allocations of one (warm) call.

use std::time::{Duration, Instant};

use serde::Serialize;

use crate::alloc;
use crate::go_peer::GoPeer;
use crate::rng::Rng;
use crate::twin::{Server, Twin};

/// The contender timed in the twin process (`twin.rs`): jetjson built with
/// no target flags, next to this build (made with `-C target-cpu=native`).
pub const PORTABLE: &str = "jetjson-portable";

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
    /// Target duration of one timed sample; short calls are batched. Short
    /// samples are rarely preempted on a shared machine, so their median is
    /// robust; many rounds make up for their number.
    pub sample: Duration,
    /// Upper bound on the timed part of one row.
    pub row_budget: Duration,
}

pub struct Runner {
    pub mode: Mode,
    /// Only rows whose `family/case/op` contains one of these
    /// comma-separated strings run (empty: all).
    pub filter: String,
    pub results: Vec<RowResult>,
    /// Print each row as it completes (the binary; not the tests).
    pub verbose: bool,
    /// Go's encoding/json, joining the rows it has (contender `go`).
    pub go: Option<GoPeer>,
    /// The portable build of this program, timing its `jetjson` in every
    /// row that has one (contender `jetjson-portable`).
    pub twin: Option<Twin>,
    /// Set in that twin: rows are served to the parent, not measured.
    pub serve: Option<Server>,
}

impl Runner {
    pub fn new(mode: Mode) -> Runner {
        Runner { mode, filter: String::new(), results: Vec::new(), verbose: false, go: None, twin: None, serve: None }
    }

    pub fn smoke() -> Runner {
        Runner::new(Mode::Smoke)
    }

    /// Whether the rows of `family` (or a row `family/case/op`) are wanted;
    /// lets a workload skip building inputs nobody will measure.
    pub fn wants(&self, key: &str) -> bool {
        self.filter.is_empty() || self.filter.split(',').any(|f| key.contains(f) || f.contains(key))
    }

    fn selects(&self, key: &str) -> bool {
        self.filter.is_empty() || self.filter.split(',').any(|f| key.contains(f))
    }

    pub fn is_smoke(&self) -> bool {
        matches!(self.mode, Mode::Smoke)
    }

    /// Runs one row. The caller has checked every contender's output.
    pub fn row(&mut self, meta: Meta, jobs: &[Job<'_>]) {
        let key = format!("{}/{}/{}", meta.family, meta.case, meta.op);
        if !self.selects(&key) {
            return;
        }
        if let Some(server) = self.serve.as_mut() {
            let named: Vec<(&str, &dyn Fn() -> usize)> = jobs.iter().map(|(n, f)| (*n, f.as_ref())).collect();
            server.serve_row(&key, &named);
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
        let mut contenders: Vec<Contender<'_>> = jobs.iter().map(|(name, f)| Contender::Local(name, f.as_ref())).collect();
        if let Some(go) = self.go.as_ref().filter(|go| go.has(&key)) {
            contenders.push(Contender::Go(go, &key));
        }
        if let Some(twin) = self.twin.as_ref().filter(|_| jobs.iter().any(|(n, _)| *n == "jetjson")) {
            contenders.push(Contender::Twin(twin, &key));
        }
        let contenders = measure(&contenders, &settings);
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

/// A contender of one row: a Rust closure, Go's server timing a case, or
/// the portable twin timing its `jetjson`.
enum Contender<'a> {
    Local(&'static str, &'a dyn Fn() -> usize),
    Go(&'a GoPeer, &'a str),
    Twin(&'a Twin, &'a str),
}

impl Contender<'_> {
    fn name(&self) -> &'static str {
        match self {
            Contender::Local(name, _) => name,
            Contender::Go(..) => "go",
            Contender::Twin(..) => PORTABLE,
        }
    }

    /// Time of `batch` calls.
    fn time(&self, batch: usize) -> Duration {
        match self {
            Contender::Local(_, f) => {
                let t = Instant::now();
                for _ in 0..batch {
                    std::hint::black_box(f());
                }
                t.elapsed()
            }
            Contender::Go(go, key) => go.time(key, batch),
            Contender::Twin(twin, key) => twin.time(key, "jetjson", batch),
        }
    }

    /// Allocations and bytes of one warm call.
    fn allocs(&self) -> (u64, u64) {
        match self {
            Contender::Local(_, f) => {
                let (r, a, b) = alloc::measure(f);
                std::hint::black_box(r);
                (a, b)
            }
            // Go's counters are per process: an average over a few calls.
            Contender::Go(go, key) => go.allocs(key, 16),
            // Not counted there (the same code as `jetjson` here, built for
            // another ISA: the same allocations).
            Contender::Twin(..) => (0, 0),
        }
    }
}

fn measure(jobs: &[Contender<'_>], s: &Settings) -> Vec<Stat> {
    let n = jobs.len();
    // Warm-up (caches, pools, branch predictors, page faults of the output
    // buffers) for a few samples' time, which also calibrates: a batch of
    // calls makes one sample about `s.sample` long.
    let mut batch = vec![1usize; n];
    for (i, job) in jobs.iter().enumerate() {
        let (mut spent, mut calls, mut step) = (Duration::ZERO, 0usize, 1usize);
        while calls < 2 || spent < s.sample * 4 {
            spent += job.time(step);
            calls += step;
            // Growing steps keep the Go server's round trips few.
            step = (step * 2).min(1 << 16);
        }
        let per_call = spent.as_secs_f64() / calls as f64;
        batch[i] = ((s.sample.as_secs_f64() / per_call) as usize).max(1);
    }
    let allocs: Vec<(u64, u64)> = jobs.iter().map(Contender::allocs).collect();
    // Fewer rounds when a row would exceed its budget (100 MB strings).
    let per_round: f64 = jobs.iter().enumerate().map(|(i, job)| job.time(batch[i]).as_secs_f64()).sum();
    let rounds = if per_round * s.rounds as f64 > s.row_budget.as_secs_f64() {
        ((s.row_budget.as_secs_f64() / per_round) as usize).clamp(5, s.rounds)
    } else {
        s.rounds
    };
    // A fresh random order every round: rotating a fixed order would give
    // every contender the same predecessor in every round, and what a
    // predecessor leaves running (Go's background GC, freed memory being
    // returned) would always hit the same one.
    let mut times = vec![Vec::with_capacity(rounds); n];
    let mut rng = Rng::new(rounds as u64);
    let mut order: Vec<usize> = (0..n).collect();
    for _ in 0..rounds {
        for k in (1..n).rev() {
            order.swap(k, rng.below(k as u64 + 1) as usize);
        }
        for &i in &order {
            times[i].push(jobs[i].time(batch[i]).as_secs_f64() * 1e9 / batch[i] as f64);
        }
    }
    jobs.iter()
        .zip(times)
        .enumerate()
        .map(|(i, (job, mut t))| {
            t.sort_by(f64::total_cmp);
            Stat {
                name: job.name(),
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
        let contenders: Vec<Contender<'_>> = jobs.iter().map(|(n, f)| Contender::Local(n, f.as_ref())).collect();
        let stats = measure(&contenders, &s);
        assert_eq!(stats.len(), 2);
        assert!(stats.iter().all(|s| s.median_ns > 0.0 && s.min_ns <= s.median_ns && s.median_ns <= s.max_ns));
        assert_eq!(stats[0].allocs, 0);
        assert_eq!((stats[1].allocs, stats[1].alloc_bytes), (1, 1000));
    }
}
