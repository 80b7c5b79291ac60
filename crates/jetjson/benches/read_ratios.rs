//! Parsing ratios against peers, interleaved and rotated like
//! `write_ratios.rs`: each library parses into its own DOM ("value") and
//! into the same serde structs ("typed"); dropping the result is included.
//! The value rows also time `jetjson::from_slice::<jetjson::Value>` (the
//! serde door, "door"), which must be as fast as `Value::from_slice`.
//!
//! `cargo bench -p jetjson --bench read_ratios [-- ROUNDS [FILTER]]`; FILTER
//! keeps the contenders whose `doc/kind/name` contains it or one of its
//! `|`-separated parts (`"mesh/value/jetjson|mesh/value/sonic"`).
//!
//! Peers are meant to be built as their documentation asks (sonic-rs and
//! simd-json: `-C target-cpu=native`); `bench/read_ratios.sh` builds this
//! bench that way and a portable build of it as the twin (`ratio/mod.rs`),
//! so jetjson is shown both ways in the same rounds.

mod ratio;
#[allow(dead_code)]
#[path = "schema/mod.rs"]
mod schema;

use ratio::{corpus, Job, Row};

use schema::oci::Kind;
use serde::de::DeserializeOwned;
use serde::Serialize;

fn row(doc: &str, kind: &str, size: usize, jobs: Vec<Job<'_>>, rounds: usize, filter: &str) {
    let Some(r) = Row::measure(doc, kind, size, &jobs, rounds, filter) else { return };
    let j = "jetjson";
    println!(
        "| {doc} | {kind} | {:.1} kB | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
        size as f64 / 1e3,
        r.cell(j),
        r.cell("jetjson/portable"),
        r.cell("sonic-rs"),
        r.cell("serde_json"),
        r.cell("simd-json"),
        r.ratio("sonic-rs", j),
        r.ratio("sonic-rs", "jetjson/portable"),
        r.ratio("jetjson/portable", j),
        r.ratio("jetjson-door", j),
        r.ratio("serde_json", j),
        r.ratio("simd-json", j),
    );
}

/// Value and typed rows of a group of documents, each call parsing every
/// document of the group once (one document for the corpus files).
fn group<T: Serialize + DeserializeOwned>(name: &str, docs: &[Vec<u8>], rounds: usize, filter: &str) {
    let size = docs.iter().map(Vec::len).sum();
    for bytes in docs {
        // Same document back: a fast wrong parse must not win.
        let ours = jetjson::Value::from_slice(bytes).expect("jetjson parses");
        let theirs: serde_json::Value = serde_json::from_slice(bytes).unwrap();
        let sorted = jetjson::WriteOptions::compact().sort_keys(true);
        assert_eq!(ours.to_vec_with(&sorted).unwrap(), serde_json::to_vec(&theirs).unwrap(), "{name}: Value parse differs");
        let door: jetjson::Value = jetjson::from_slice(bytes).expect("jetjson parses through serde");
        assert_eq!(door, ours, "{name}: from_slice::<Value> differs from Value::from_slice");
    }
    let each = |f: &dyn Fn(&[u8]) -> usize| docs.iter().map(|d| f(d)).sum::<usize>();
    let jobs: Vec<Job<'_>> = vec![
        (
            "jetjson",
            Box::new(move || {
                each(&|b| matches!(jetjson::Value::from_slice(b), Ok(jetjson::Value::Object(_) | jetjson::Value::Array(_))) as usize)
            }),
        ),
        (
            "jetjson-door",
            Box::new(move || {
                each(&|b| matches!(jetjson::from_slice(b), Ok(jetjson::Value::Object(_) | jetjson::Value::Array(_))) as usize)
            }),
        ),
        (
            "serde_json",
            Box::new(move || each(&|b| serde_json::from_slice::<serde_json::Value>(b).map(|v| v.is_object() as usize).unwrap())),
        ),
        (
            "sonic-rs",
            Box::new(move || {
                each(&|b| sonic_rs::from_slice::<sonic_rs::Value>(b).map(|v| sonic_rs::JsonValueTrait::is_object(&v) as usize).unwrap())
            }),
        ),
        (
            "simd-json",
            Box::new(move || {
                each(&|b| {
                    let mut copy = b.to_vec();
                    simd_json::to_owned_value(&mut copy).map(|_| 1).unwrap()
                })
            }),
        ),
    ];
    row(name, "value", size, jobs, rounds, filter);

    // Validation only (checked `Raw` in Python, `RawJson::from_slice`):
    // the whole text checked, nothing built. jetjson with its default
    // options (duplicate names are errors); sonic-rs and serde_json reading
    // `IgnoredAny` (sonic-rs skips it "with full validation") as the
    // nearest peers (neither looks for duplicate names).
    let options = jetjson::ReadOptions::default();
    for bytes in docs {
        jetjson::parse::validate(bytes, &options).expect("jetjson validates");
    }
    let jobs: Vec<Job<'_>> = vec![
        ("jetjson", Box::new(move || each(&|b| jetjson::parse::validate(b, &options).is_ok() as usize))),
        ("sonic-rs", Box::new(move || each(&|b| sonic_rs::from_slice::<serde::de::IgnoredAny>(b).map(|_| 1).unwrap()))),
        ("serde_json", Box::new(move || each(&|b| serde_json::from_slice::<serde::de::IgnoredAny>(b).map(|_| 1).unwrap()))),
    ];
    row(name, "validate", size, jobs, rounds, filter);

    for bytes in docs {
        let reference: T = serde_json::from_slice(bytes).unwrap();
        let want = serde_json::to_vec(&reference).unwrap();
        let t: T = jetjson::from_slice(bytes).expect("jetjson parses the typed model");
        assert_eq!(serde_json::to_vec(&t).unwrap(), want, "{name}: typed parse differs");
    }
    let jobs: Vec<Job<'_>> = vec![
        ("jetjson", Box::new(move || each(&|b| jetjson::from_slice::<T>(b).map(|_| 1).unwrap()))),
        ("serde_json", Box::new(move || each(&|b| serde_json::from_slice::<T>(b).map(|_| 1).unwrap()))),
        ("sonic-rs", Box::new(move || each(&|b| sonic_rs::from_slice::<T>(b).map(|_| 1).unwrap()))),
        (
            "simd-json",
            Box::new(move || {
                each(&|b| {
                    let mut copy = b.to_vec();
                    simd_json::serde::from_slice::<T>(&mut copy).map(|_| 1).unwrap()
                })
            }),
        ),
    ];
    row(name, "typed", size, jobs, rounds, filter);
}

fn document<T: Serialize + DeserializeOwned>(name: &str, rel: &str, rounds: usize, filter: &str) {
    group::<T>(name, &[corpus(rel)], rounds, filter);
}

fn oci<T: Serialize + DeserializeOwned>(name: &str, kind: Kind, rounds: usize, filter: &str) {
    let docs: Vec<Vec<u8>> = schema::oci::documents().into_iter().filter(|(_, k, _)| *k == kind).map(|(_, _, b)| b).collect();
    group::<T>(&format!("{name}({})", docs.len()), &docs, rounds, filter);
}

fn main() {
    let (rounds, filter) = ratio::args(60);
    println!("Parsing, median of {rounds} interleaved rounds per contender (MB/s = input bytes / time; simd-json includes copying its mutable input).");
    println!("'X ÷ Y' = median over rounds of X's time / Y's time in the same round (>1: Y faster). 'portable': jetjson built without");
    println!(
        "target flags in a twin process (when run by bench/read_ratios.sh), in the same rounds; 'door': jetjson::from_slice::<Value>.\n"
    );
    println!("| document | kind | input | jetjson | jetjson portable | sonic-rs | serde_json | simd-json | sonic ÷ jetjson | sonic ÷ portable | portable ÷ jetjson | door ÷ jetjson | serde_json ÷ jetjson | simd-json ÷ jetjson |");
    println!("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    document::<schema::twitter::Twitter>("twitter", "nativejson-benchmark/twitter.json", rounds, &filter);
    document::<schema::citm_catalog::Catalog>("citm_catalog", "nativejson-benchmark/citm_catalog.json", rounds, &filter);
    document::<schema::canada::FeatureCollection>("canada", "nativejson-benchmark/canada.json", rounds.div_ceil(2), &filter);
    document::<schema::github_events::Events>("github_events", "simdjson/github_events.json", rounds * 4, &filter);
    document::<schema::gsoc_2018::Projects>("gsoc-2018", "simdjson/gsoc-2018.json", rounds, &filter);
    document::<schema::mesh::Mesh>("mesh", "simdjson/mesh.json", rounds, &filter);
    oci::<schema::oci::Manifest>("oci-manifests", Kind::Manifest, rounds * 4, &filter);
    oci::<schema::oci::Index>("oci-indexes", Kind::Index, rounds * 4, &filter);
    oci::<schema::oci::ImageConfig>("oci-configs", Kind::Config, rounds * 4, &filter);
    oci::<schema::oci::SignedManifestV1>("docker-v2s1", Kind::SignedV1, rounds * 4, &filter);
    ratio::finish();
}
