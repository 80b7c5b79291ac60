//! Writes one corpus document in each profile, interleaved round by round so
//! the ratios survive a noisy machine; also usable under a profiler.
//! `cargo run --release --example profile_write -- FILE [value|serde] [ROUNDS] [PROFILE]`
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let bytes = std::fs::read(&args[1]).expect("read input");
    let path = args.get(2).map(String::as_str).unwrap_or("value");
    let rounds: usize = args.get(3).map_or(200, |s| s.parse().expect("rounds"));
    let profiles: Vec<jetjson::Profile> = match args.get(4) {
        Some(p) => vec![p.parse().expect("profile")],
        None => vec![jetjson::Profile::Compact, jetjson::Profile::Go, jetjson::Profile::Jcs],
    };
    let v = jetjson::Value::from_slice(&bytes).expect("parse");
    let mut times: Vec<Vec<Duration>> = vec![Vec::new(); profiles.len()];
    for _ in 0..rounds {
        for (i, p) in profiles.iter().enumerate() {
            let opts = jetjson::WriteOptions::new(*p);
            let t = Instant::now();
            let out = if path == "serde" { jetjson::to_vec_with(&v, &opts) } else { v.to_vec_with(&opts) }.expect("write");
            times[i].push(t.elapsed());
            std::hint::black_box(out);
        }
    }
    let medians: Vec<Duration> = times
        .iter_mut()
        .map(|t| {
            t.sort();
            t[t.len() / 2]
        })
        .collect();
    for (p, m) in profiles.iter().zip(&medians) {
        println!(
            "{:<40} {:<8} {path}: median {:>10.1?} {:>6.0} MB/s  x{:.2} of first",
            args[1].rsplit('/').next().unwrap_or(""),
            p.name(),
            m,
            bytes.len() as f64 / m.as_secs_f64() / 1e6,
            m.as_secs_f64() / medians[0].as_secs_f64()
        );
    }
}
