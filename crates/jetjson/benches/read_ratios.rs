//! Parsing ratios against peers, interleaved and rotated like
//! `write_ratios.rs`: each library parses into its own DOM ("value") and
//! into the same serde structs ("typed"); dropping the result is included.
//!
//! `cargo bench -p jetjson --bench read_ratios [-- ROUNDS [FILTER]]`; FILTER
//! keeps the contenders whose `doc/kind/name` contains it or one of its
//! `|`-separated parts (`"mesh/value/jetjson|mesh/value/sonic"`).

mod ratio;
#[allow(dead_code)]
#[path = "schema/mod.rs"]
mod schema;

use ratio::{corpus, Job, Row};

use serde::de::DeserializeOwned;
use serde::Serialize;

fn row(doc: &str, kind: &str, size: usize, jobs: Vec<Job<'_>>, rounds: usize, filter: &str) {
    let Some(r) = Row::measure(doc, kind, size, &jobs, rounds, filter) else { return };
    println!(
        "| {doc} | {kind} | {:.1} kB | {} | {} | {} | {} | {} | {} | {} |",
        size as f64 / 1e3,
        r.cell("jetjson"),
        r.cell("serde_json"),
        r.cell("sonic-rs"),
        r.cell("simd-json"),
        r.ratio("serde_json", "jetjson"),
        r.ratio("sonic-rs", "jetjson"),
        r.ratio("simd-json", "jetjson"),
    );
}

fn document<T: Serialize + DeserializeOwned>(name: &str, rel: &str, rounds: usize, filter: &str) {
    let bytes = corpus(rel);
    // Same document back: a fast wrong parse must not win.
    let ours = jetjson::Value::from_slice(&bytes).expect("jetjson parses");
    let theirs: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
    let sorted = jetjson::WriteOptions::compact().sort_keys(true);
    assert_eq!(ours.to_vec_with(&sorted).unwrap(), serde_json::to_vec(&theirs).unwrap(), "{name}: Value parse differs");
    let b = &bytes;
    let jobs: Vec<Job<'_>> = vec![
        (
            "jetjson",
            Box::new(move || matches!(jetjson::Value::from_slice(b), Ok(jetjson::Value::Object(_) | jetjson::Value::Array(_))) as usize),
        ),
        ("serde_json", Box::new(move || serde_json::from_slice::<serde_json::Value>(b).map(|v| v.is_object() as usize).unwrap())),
        (
            "sonic-rs",
            Box::new(move || sonic_rs::from_slice::<sonic_rs::Value>(b).map(|v| sonic_rs::JsonValueTrait::is_object(&v) as usize).unwrap()),
        ),
        (
            "simd-json",
            Box::new(move || {
                let mut copy = b.clone();
                simd_json::to_owned_value(&mut copy).map(|_| 1).unwrap()
            }),
        ),
    ];
    row(name, "value", bytes.len(), jobs, rounds, filter);

    let reference: T = serde_json::from_slice(&bytes).unwrap();
    let want = serde_json::to_vec(&reference).unwrap();
    let t: T = jetjson::from_slice(&bytes).expect("jetjson parses the typed model");
    assert_eq!(serde_json::to_vec(&t).unwrap(), want, "{name}: typed parse differs");
    let jobs: Vec<Job<'_>> = vec![
        ("jetjson", Box::new(move || jetjson::from_slice::<T>(b).map(|_| 1).unwrap())),
        ("serde_json", Box::new(move || serde_json::from_slice::<T>(b).map(|_| 1).unwrap())),
        ("sonic-rs", Box::new(move || sonic_rs::from_slice::<T>(b).map(|_| 1).unwrap())),
        (
            "simd-json",
            Box::new(move || {
                let mut copy = b.clone();
                simd_json::serde::from_slice::<T>(&mut copy).map(|_| 1).unwrap()
            }),
        ),
    ];
    row(name, "typed", bytes.len(), jobs, rounds, filter);
}

fn main() {
    let (rounds, filter) = ratio::args(60);
    println!("Parsing, median of {rounds} interleaved rounds per contender (MB/s = input bytes / time; simd-json includes copying its mutable input).");
    println!("'vs X' = X time / jetjson time (>1: jetjson faster).\n");
    println!("| document | kind | input | jetjson | serde_json | sonic-rs | simd-json | vs serde_json | vs sonic-rs | vs simd-json |");
    println!("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    document::<schema::twitter::Twitter>("twitter", "nativejson-benchmark/twitter.json", rounds, &filter);
    document::<schema::citm_catalog::Catalog>("citm_catalog", "nativejson-benchmark/citm_catalog.json", rounds, &filter);
    document::<schema::canada::FeatureCollection>("canada", "nativejson-benchmark/canada.json", rounds.div_ceil(2), &filter);
    document::<schema::github_events::Events>("github_events", "simdjson/github_events.json", rounds * 4, &filter);
    document::<schema::gsoc_2018::Projects>("gsoc-2018", "simdjson/gsoc-2018.json", rounds, &filter);
    document::<schema::mesh::Mesh>("mesh", "simdjson/mesh.json", rounds, &filter);
}
