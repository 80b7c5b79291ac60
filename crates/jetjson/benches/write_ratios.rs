//! Serialization ratios against peers, measured interleaved: every round
//! runs each contender once on the same document (rotating which goes
//! first), so a noisy machine slows them all alike and the ratios of the
//! medians hold. Complements the
//! criterion benchmark (`benches/write.rs`), whose groups run one after
//! another.
//!
//! `cargo bench -p jetjson --bench write_ratios [-- ROUNDS [FILTER]]`
//! Under a profiler: `... -- 2000 twitter/value/jetjson-jcs`.

mod ratio;
#[allow(dead_code)]
#[path = "schema/mod.rs"]
mod schema;

use ratio::{corpus, measure, Job};

use serde::de::DeserializeOwned;
use serde::Serialize;

fn row(doc: &str, kind: &str, size: usize, jobs: &[Job<'_>], rounds: usize, filter: &str) {
    let jobs: Vec<&Job<'_>> = jobs.iter().filter(|(name, _)| format!("{doc}/{kind}/{name}").contains(filter)).collect();
    if jobs.is_empty() {
        return;
    }
    let med = measure(&jobs, rounds);
    let at = |name: &str| jobs.iter().position(|(n, _)| *n == name).map(|i| med[i].as_secs_f64());
    let cell = |name: &str| at(name).map_or("-".into(), |t| format!("{:.1} µs ({:.0} MB/s)", t * 1e6, size as f64 / t / 1e6));
    let ratio = |a: Option<f64>, b: Option<f64>| match (a, b) {
        (Some(a), Some(b)) => format!("{:.2}x", a / b),
        _ => "-".into(),
    };
    let c = at("jetjson-compact");
    println!(
        "| {doc} | {kind} | {:.1} kB | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
        size as f64 / 1e3,
        cell("jetjson-compact"),
        cell("jetjson-go"),
        cell("jetjson-jcs"),
        cell("serde_json"),
        cell("sonic-rs"),
        ratio(at("serde_json"), c),
        ratio(at("sonic-rs"), c),
        ratio(at("jetjson-go"), c),
        ratio(at("jetjson-jcs"), c),
    );
}

fn document<T: Serialize + DeserializeOwned>(name: &str, rel: &str, rounds: usize, filter: &str) {
    let bytes = corpus(rel);
    let (compact, go, jcs) = (jetjson::WriteOptions::compact(), jetjson::WriteOptions::go(), jetjson::WriteOptions::jcs());

    let value = jetjson::Value::from_slice(&bytes).expect("jetjson parses the document");
    let sj: serde_json::Value = serde_json::from_slice(&bytes).expect("serde_json parses the document");
    let sonic: sonic_rs::Value = sonic_rs::from_slice(&bytes).expect("sonic-rs parses the document");
    // A fast wrong answer must not win: same bytes as the peers before timing.
    assert_eq!(value.to_vec_with(&compact).unwrap(), sonic_rs::to_vec(&sonic).unwrap(), "{name}: Value output differs from sonic-rs");
    let jobs: Vec<Job<'_>> = vec![
        ("jetjson-compact", Box::new(|| value.to_vec_with(&compact).unwrap().len())),
        ("jetjson-go", Box::new(|| value.to_vec_with(&go).unwrap().len())),
        ("jetjson-jcs", Box::new(|| value.to_vec_with(&jcs).unwrap().len())),
        ("serde_json", Box::new(|| serde_json::to_vec(&sj).unwrap().len())),
        ("sonic-rs", Box::new(|| sonic_rs::to_vec(&sonic).unwrap().len())),
    ];
    row(name, "value", bytes.len(), &jobs, rounds, filter);

    let typed: T = serde_json::from_slice(&bytes).expect("typed model fits the document");
    assert_eq!(jetjson::to_vec(&typed).unwrap(), serde_json::to_vec(&typed).unwrap(), "{name}: typed output differs from serde_json");
    let jobs: Vec<Job<'_>> = vec![
        ("jetjson-compact", Box::new(|| jetjson::to_vec_with(&typed, &compact).unwrap().len())),
        ("jetjson-go", Box::new(|| jetjson::to_vec_with(&typed, &go).unwrap().len())),
        ("jetjson-jcs", Box::new(|| jetjson::to_vec_with(&typed, &jcs).unwrap().len())),
        ("serde_json", Box::new(|| serde_json::to_vec(&typed).unwrap().len())),
        ("sonic-rs", Box::new(|| sonic_rs::to_vec(&typed).unwrap().len())),
    ];
    row(name, "typed", bytes.len(), &jobs, rounds, filter);
}

fn main() {
    // cargo bench passes `--bench`; take the first two other arguments.
    let (rounds, filter) = ratio::args(100);
    println!("Serialization, median of {rounds} interleaved rounds per contender (MB/s = input bytes / time).");
    println!("'vs X' = X time / jetjson compact time (>1: jetjson faster); 'go/compact', 'jcs/compact' = relative cost of the profile.\n");
    println!("| document | kind | input | jetjson compact | jetjson go | jetjson jcs | serde_json | sonic-rs | vs serde_json | vs sonic-rs | go/compact | jcs/compact |");
    println!("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    document::<schema::twitter::Twitter>("twitter", "nativejson-benchmark/twitter.json", rounds, &filter);
    document::<schema::citm_catalog::Catalog>("citm_catalog", "nativejson-benchmark/citm_catalog.json", rounds, &filter);
    document::<schema::canada::FeatureCollection>("canada", "nativejson-benchmark/canada.json", rounds.div_ceil(4), &filter);
    document::<schema::github_events::Events>("github_events", "simdjson/github_events.json", rounds * 4, &filter);
    document::<schema::gsoc_2018::Projects>("gsoc-2018", "simdjson/gsoc-2018.json", rounds, &filter);
}
