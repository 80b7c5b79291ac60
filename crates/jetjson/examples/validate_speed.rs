//! Validation throughput (GB/s) per file, against `Value::from_slice` (what
//! `loads` scans and builds) and sonic-rs's `Value` in the same rounds.
//!
//! `cargo run --release -p jetjson --example validate_speed -- FILE... [--rounds N]`
//!
//! Each round times a batch of calls (about 200 µs) of every contender in
//! a rotating order; printed: median ns per call, GB/s from it, and the
//! median over rounds of (contender time ÷ the validator's time).
use std::time::Instant;

fn main() {
    let mut files = Vec::new();
    let mut rounds = 31usize;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--rounds" {
            rounds = args.next().expect("N").parse().expect("a number");
        } else {
            files.push(a);
        }
    }
    let options = jetjson::ReadOptions::default();
    let last = jetjson::ReadOptions::default().duplicate_keys(jetjson::DuplicateKeys::Last);
    for path in files {
        let bytes = std::fs::read(&path).expect("readable file");
        let mut validator = jetjson::parse::Validator::new(&options);
        let mut validator_last = jetjson::parse::Validator::new(&last);
        let b = &bytes[..];
        let names = ["validate", "validate-last", "Value::from_slice", "sonic Value"];
        let mut run = |k: usize| -> bool {
            match k {
                0 => validator.validate(std::hint::black_box(b)).is_ok(),
                1 => validator_last.validate(std::hint::black_box(b)).is_ok(),
                2 => jetjson::Value::from_slice(std::hint::black_box(b)).is_ok(),
                _ => sonic_rs::from_slice::<sonic_rs::Value>(std::hint::black_box(b)).is_ok(),
            }
        };
        for (k, name) in names.iter().enumerate() {
            assert!(run(k), "{path}: {name} refuses it");
        }
        // Calls per batch: about 200 µs of validation.
        let t = Instant::now();
        let mut calls = 0usize;
        while t.elapsed().as_micros() < 20_000 {
            run(0);
            calls += 1;
        }
        let batch = (calls / 100).max(1);
        let mut times = vec![Vec::new(); names.len()];
        for r in 0..rounds {
            for j in 0..names.len() {
                let k = (r + j) % names.len();
                let t = Instant::now();
                for _ in 0..batch {
                    std::hint::black_box(run(k));
                }
                times[k].push(t.elapsed().as_secs_f64() / batch as f64);
            }
        }
        let median = |mut v: Vec<f64>| {
            v.sort_by(f64::total_cmp);
            v[v.len() / 2]
        };
        let name = std::path::Path::new(&path).file_name().map_or(path.clone(), |n| n.to_string_lossy().into_owned());
        println!("{name} ({} B):", bytes.len());
        for (k, name) in names.iter().enumerate() {
            let t = median(times[k].clone());
            let paired = median(times[k].iter().zip(&times[0]).map(|(a, b)| a / b).collect());
            println!("  {name:>18}: {:10.1} ns  {:6.2} GB/s  {paired:.3}x validate's time", t * 1e9, bytes.len() as f64 / t / 1e9);
        }
    }
}
