//! Runs every workload and writes the results as JSON for `bench/report.py`.
//!
//! ```text
//! jetjson-bench [--quick] [--rounds N] [--filter TEXT[,TEXT..]] [--out FILE] [--go GO_TEST_BINARY]
//! jetjson-bench --write-go-data DIR    # the Go module's inputs
//! ```
//!
//! With `JETJSON_TWIN=<a build of this program without target flags>` in
//! the environment (this one built with `-C target-cpu=native`, as sonic-rs
//! and simd-json ask), every row with a `jetjson` contender also times that
//! build's `jetjson` as `jetjson-portable`, in the same rounds (`twin.rs`;
//! `make bench-suite` does this).

use std::path::PathBuf;
use std::time::Duration;

use jetjson_bench::harness::{Mode, Runner, Settings};
use jetjson_bench::machine::Machine;
use jetjson_bench::workloads::{self, Scale};
use serde::Serialize;

#[derive(Serialize)]
struct Output<'a> {
    suite: &'static str,
    scale: &'static str,
    rounds: usize,
    sample_ms: f64,
    machine: Machine,
    rows: &'a [jetjson_bench::harness::RowResult],
}

fn main() {
    let mut args = std::env::args().skip(1);
    let mut scale = Scale::Full;
    let mut rounds = None;
    let mut filter = String::new();
    let mut out = PathBuf::from("bench/results/rust.json");
    let mut go_binary: Option<PathBuf> = None;
    while let Some(a) = args.next() {
        match a.as_str() {
            "--quick" => scale = Scale::Quick,
            "--rounds" => rounds = args.next().and_then(|n| n.parse().ok()),
            "--filter" => filter = args.next().unwrap_or_default(),
            "--out" => out = args.next().map(PathBuf::from).expect("--out FILE"),
            "--go" => go_binary = args.next().map(PathBuf::from),
            "--write-go-data" => {
                let dir = PathBuf::from(args.next().expect("--write-go-data DIR"));
                std::fs::create_dir_all(&dir).unwrap();
                for (name, bytes) in workloads::go_inputs() {
                    std::fs::write(dir.join(&name), bytes).unwrap();
                    eprintln!("wrote {}", dir.join(&name).display());
                }
                return;
            }
            // cargo bench/run may pass `--bench`.
            "--bench" => {}
            other => {
                eprintln!("unknown argument {other:?}\nusage: jetjson-bench [--quick] [--rounds N] [--filter TEXT[,TEXT..]] [--out FILE] [--go GO_TEST_BINARY] | --write-go-data DIR");
                std::process::exit(2);
            }
        }
    }
    // Quick: fewer, shorter samples; the ratios hold, the spread widens.
    let settings = match scale {
        Scale::Quick => Settings { rounds: rounds.unwrap_or(21), sample: Duration::from_micros(500), row_budget: Duration::from_secs(2) },
        _ => Settings { rounds: rounds.unwrap_or(51), sample: Duration::from_millis(1), row_budget: Duration::from_secs(10) },
    };
    let (rounds, sample_ms) = (settings.rounds, settings.sample.as_secs_f64() * 1e3);
    let mut runner = Runner::new(Mode::Measure(settings));
    runner.filter = filter;
    // The portable twin (see `twin.rs`): only serves rows, writes nothing.
    if let Some(server) = jetjson_bench::twin::Server::from_env() {
        runner.serve = Some(server);
        workloads::run_all(&mut runner, scale);
        return;
    }
    runner.twin = jetjson_bench::twin::Twin::from_env();
    runner.verbose = true;
    if let Some(binary) = go_binary {
        // The Go module's directory holds the inputs (testdata/).
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../bench/go");
        let binary = std::fs::canonicalize(&binary).unwrap_or_else(|e| panic!("{}: {e}", binary.display()));
        runner.go = Some(jetjson_bench::go_peer::GoPeer::start(&binary, &dir).expect("Go benchmark server"));
    }
    let machine = Machine::detect();
    workloads::run_all(&mut runner, scale);
    drop(runner.go.take());
    let output = Output {
        suite: "jetjson-bench",
        scale: if scale == Scale::Quick { "quick" } else { "full" },
        rounds,
        sample_ms,
        machine,
        rows: &runner.results,
    };
    let json = jetjson::to_vec_with(&output, &jetjson::WriteOptions::compact().indent(1)).unwrap();
    if let Some(parent) = out.parent() {
        std::fs::create_dir_all(parent).unwrap();
    }
    std::fs::write(&out, json).unwrap();
    eprintln!("wrote {} ({} rows)", out.display(), runner.results.len());
}
