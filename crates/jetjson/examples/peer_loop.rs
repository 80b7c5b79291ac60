//! Parses one file to a DOM in a loop with jetjson, sonic-rs or serde_json,
//! for instruction counts side by side (callgrind: run with N and 3N
//! iterations and difference the totals to cancel start-up and file read),
//! or several of them interleaved for a quick timing.
//!
//! `cargo run --release -p jetjson --example peer_loop -- MODES FILE [ITERATIONS]`
//!
//! MODES is one of `jetjson`, `validate`, `sonic`, `serde`, or several
//! joined by commas (`jetjson,sonic`): then each round runs each mode once,
//! rotating which goes first, and the median time per mode is printed.
//! `validate` runs jetjson's parser with no builder, so what building the
//! `Value` costs is the difference to `jetjson`.
use std::time::{Duration, Instant};

fn run(mode: &str, bytes: &[u8]) -> usize {
    match mode {
        "sonic" => sonic_rs::from_slice::<sonic_rs::Value>(bytes).map(|v| sonic_rs::JsonValueTrait::is_object(&v) as usize).unwrap(),
        "serde" => serde_json::from_slice::<serde_json::Value>(bytes).map(|v| v.is_object() as usize).unwrap(),
        "validate" => jetjson::parse::validate(bytes, &jetjson::ReadOptions::new()).is_ok() as usize,
        "jetjson" => jetjson::Value::from_slice(bytes).unwrap().is_null() as usize,
        other => panic!("unknown mode {other}"),
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let modes: Vec<String> = args.next().expect("MODES").split(',').map(str::to_owned).collect();
    let path = args.next().expect("FILE");
    let n: usize = args.next().map_or(200, |s| s.parse().unwrap());
    let bytes = std::fs::read(&path).unwrap();
    let mut kept = 0usize;
    if modes.len() == 1 {
        for _ in 0..n {
            kept += run(&modes[0], &bytes);
        }
        println!("{kept}");
        return;
    }
    let mut times: Vec<Vec<Duration>> = vec![Vec::with_capacity(n); modes.len()];
    for r in 0..n {
        for k in 0..modes.len() {
            let i = (r + k) % modes.len();
            let t = Instant::now();
            kept += run(&modes[i], &bytes);
            times[i].push(t.elapsed());
        }
    }
    let medians: Vec<f64> = times
        .iter_mut()
        .map(|t| {
            t.sort();
            t[t.len() / 2].as_secs_f64() * 1e6
        })
        .collect();
    for (m, t) in modes.iter().zip(&medians) {
        println!("{m:>9}: {t:9.1} µs  ({:.2}x the first)", t / medians[0]);
    }
    std::hint::black_box(kept);
}
