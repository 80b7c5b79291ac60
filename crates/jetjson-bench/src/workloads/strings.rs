//! Workload 5, a database's string serializer: one long string of 100 KB,
//! 10 MB or 100 MB (decimal) where each character is a quote with
//! probability Q and a control character with probability S, for (Q, S) =
//! (0, 0), (2%, 1%), (10%, 1%); the rest is lowercase letters and spaces.
//! Each contender writes the string as one JSON string.
//!
//! The quick suite skips 100 MB; the tests use 100 KB only.

use super::Scale;
use crate::harness::{Job, Meta, Runner};
use crate::rng::Rng;

/// (name, quote per ten thousand, control per ten thousand).
pub const MIXES: [(&str, u64, u64); 3] = [("clean", 0, 0), ("q2-s1", 200, 100), ("q10-s1", 1000, 100)];

pub fn sizes(scale: Scale) -> &'static [(&'static str, usize)] {
    match scale {
        Scale::Full => &[("100KB", 100_000), ("10MB", 10_000_000), ("100MB", 100_000_000)],
        Scale::Quick => &[("100KB", 100_000), ("10MB", 10_000_000)],
        Scale::Smoke => &[("100KB", 100_000)],
    }
}

pub fn text(len: usize, quote: u64, control: u64, seed: u64) -> String {
    let mut rng = Rng::new(seed);
    let bytes: Vec<u8> = (0..len)
        .map(|_| {
            let r = rng.below(10_000);
            if r < quote {
                b'"'
            } else if r < quote + control {
                rng.below(0x20) as u8
            } else if r.is_multiple_of(7) {
                b' '
            } else {
                b'a' + (r % 26) as u8
            }
        })
        .collect();
    // ASCII by construction.
    String::from_utf8(bytes).unwrap()
}

pub fn run(runner: &mut Runner, scale: Scale) {
    for &(size_name, len) in sizes(scale) {
        for (i, &(mix, q, s)) in MIXES.iter().enumerate() {
            let case = format!("{size_name}-{mix}");
            if !runner.wants(&format!("strings/{case}/")) {
                continue;
            }
            let input = text(len, q, s, 500 + i as u64);
            row(runner, &case, &input);
        }
    }
}

fn row(runner: &mut Runner, case: &str, input: &str) {
    let (compact, go) = (jetjson::WriteOptions::compact(), jetjson::WriteOptions::go());
    let outputs = [
        ("jetjson", jetjson::to_vec_with(input, &compact).unwrap()),
        ("jetjson-go", jetjson::to_vec_with(input, &go).unwrap()),
        ("serde_json", serde_json::to_vec(input).unwrap()),
        ("sonic-rs", sonic_rs::to_vec(input).unwrap()),
    ];
    for (name, out) in &outputs {
        // An independent decoder must give the string back.
        assert_eq!(serde_json::from_slice::<String>(out).unwrap(), input, "{case}: {name} output");
    }
    drop(outputs);
    let jobs: Vec<Job<'_>> = vec![
        ("jetjson", Box::new(|| jetjson::to_vec_with(input, &compact).unwrap().len())),
        ("jetjson-go", Box::new(|| jetjson::to_vec_with(input, &go).unwrap().len())),
        ("serde_json", Box::new(|| serde_json::to_vec(input).unwrap().len())),
        ("sonic-rs", Box::new(|| sonic_rs::to_vec(input).unwrap().len())),
    ];
    runner.row(Meta::new("strings", case, "serialize", input.len()), &jobs);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mixes_have_the_probabilities_asked_for() {
        for (i, &(_, q, s)) in MIXES.iter().enumerate() {
            let t = text(1_000_000, q, s, 500 + i as u64);
            let quotes = t.bytes().filter(|&b| b == b'"').count() as f64 / 1e6;
            let controls = t.bytes().filter(|&b| b < 0x20).count() as f64 / 1e6;
            assert!((quotes - q as f64 / 1e4).abs() < 0.002, "quotes {quotes}");
            assert!((controls - s as f64 / 1e4).abs() < 0.002, "controls {controls}");
        }
    }

    #[test]
    fn every_row_runs_and_checks() {
        run(&mut Runner::smoke(), Scale::Smoke);
    }
}
