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

use ratio::{corpus, Job, Row};

use serde::de::DeserializeOwned;
use serde::Serialize;

fn row(doc: &str, kind: &str, size: usize, jobs: &[Job<'_>], rounds: usize, filter: &str) {
    let Some(r) = Row::measure(doc, kind, size, jobs, rounds, filter) else { return };
    let c = "jetjson-compact";
    println!(
        "| {doc} | {kind} | {:.1} kB | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
        size as f64 / 1e3,
        r.cell(c),
        r.cell("jetjson-go"),
        r.cell("jetjson-jcs"),
        r.cell("serde_json"),
        r.cell("sonic-rs"),
        r.ratio("serde_json", c),
        r.ratio("sonic-rs", c),
        r.ratio("jetjson-go", c),
        r.ratio("jetjson-jcs", c),
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
