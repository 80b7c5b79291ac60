//! Writes a document's `Value` N times in one profile (for callgrind
//! comparisons of the writer): `write_loop FILE... N PROFILE`
//! (compact, go, jcs, or go-unsorted, go-plain, compact-sorted: go's costs apart).
//!
//! Prints the total bytes written on stdout, and on stderr the mean time of
//! one round (every FILE written once) in ns, best of five runs of N / 5
//! rounds: for comparing builds one process each (the portable build and
//! `-C target-cpu=native`) by the clock as well as by instruction counts.
use std::time::Instant;

use jetjson::{Value, WriteOptions};

fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let (files, rest) = a.split_at(a.len() - 2);
    let n: usize = rest[0].parse().expect("a count");
    let options = match rest[1].as_str() {
        "compact" => WriteOptions::compact(),
        "go" => WriteOptions::go(),
        "jcs" => WriteOptions::jcs(),
        // The parts of `go`'s cost, apart.
        "go-unsorted" => WriteOptions::go().sort_keys(false),
        "go-plain" => WriteOptions::go().escape_html(false),
        "compact-sorted" => WriteOptions::compact().sort_keys(true),
        other => panic!("unknown profile {other}"),
    };
    let values: Vec<Value> = files.iter().map(|f| Value::from_slice(&std::fs::read(f).expect("readable")).expect("JSON")).collect();
    let mut total = 0;
    let mut best = f64::INFINITY;
    let mut done = 0;
    for run in 0..5 {
        // Five runs of N / 5 rounds, the last taking what is left: N in all.
        let rounds = if run == 4 { n - done } else { n / 5 };
        let t = Instant::now();
        for _ in 0..rounds {
            for v in &values {
                total += v.to_vec_with(&options).expect("writable").len();
            }
        }
        if rounds > 0 {
            best = best.min(t.elapsed().as_secs_f64() * 1e9 / rounds as f64);
        }
        done += rounds;
    }
    println!("{total}");
    eprintln!("{best:.1} ns per round");
}
