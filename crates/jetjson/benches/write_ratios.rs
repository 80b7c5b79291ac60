//! Serialization ratios against peers, measured interleaved: every round
//! runs each contender once on the same document (rotating which goes
//! first), so a noisy machine slows them all alike and the ratios of the
//! medians hold. Complements the
//! criterion benchmark (`benches/write.rs`), whose groups run one after
//! another.
//!
//! `cargo bench -p jetjson --bench write_ratios [-- ROUNDS [FILTER]]`
//! Under a profiler: `... -- 2000 twitter/value/jetjson-jcs`.
//!
//! `bash bench/ratios.sh write [ROUNDS [FILTER]]` builds every library with
//! `-C target-cpu=native` and adds jetjson built without target flags (a
//! twin process, `ratio/mod.rs`) as `jetjson-compact/portable` and
//! `jetjson-go/portable`, in the same rounds.

mod ratio;
#[allow(dead_code)]
#[path = "schema/mod.rs"]
mod schema;

use ratio::{corpus, Job, Row};

use schema::oci::Kind;
use serde::de::DeserializeOwned;
use serde::Serialize;

fn row(doc: &str, kind: &str, size: usize, jobs: &[Job<'_>], rounds: usize, filter: &str) {
    let Some(r) = Row::measure(doc, kind, size, jobs, rounds, filter) else { return };
    let (c, g) = ("jetjson-compact", "jetjson-go");
    let (cp, gp) = ("jetjson-compact/portable", "jetjson-go/portable");
    println!(
        "| {doc} | {kind} | {:.1} kB | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
        size as f64 / 1e3,
        r.cell(c),
        r.cell(cp),
        r.cell(g),
        r.cell(gp),
        r.cell("jetjson-jcs"),
        r.cell("serde_json"),
        r.cell("sonic-rs"),
        r.ratio("sonic-rs", c),
        r.ratio("sonic-rs", cp),
        r.ratio("sonic-rs", g),
        r.ratio("sonic-rs", gp),
        r.ratio(cp, c),
        r.ratio(gp, g),
        r.ratio("serde_json", c),
        r.ratio("jetjson-jcs", c),
    );
}

fn document<T: Serialize + DeserializeOwned>(name: &str, rel: &str, rounds: usize, filter: &str) {
    group::<T>(name, &[corpus(rel)], rounds, filter);
}

/// One call writes every document of the group once.
fn group<T: Serialize + DeserializeOwned>(name: &str, docs: &[Vec<u8>], rounds: usize, filter: &str) {
    let size: usize = docs.iter().map(Vec::len).sum();
    let mut values = Vec::new();
    let mut typed_docs = Vec::new();
    for bytes in docs {
        values.push(one::<T>(name, bytes));
        typed_docs.push(serde_json::from_slice::<T>(bytes).expect("typed model fits the document"));
    }
    let (compact, go, jcs) = (jetjson::WriteOptions::compact(), jetjson::WriteOptions::go(), jetjson::WriteOptions::jcs());
    let (values, typed_docs) = (&values, &typed_docs);
    let jobs: Vec<Job<'_>> = vec![
        ("jetjson-compact", Box::new(|| values.iter().map(|(v, _, _)| v.to_vec_with(&compact).unwrap().len()).sum())),
        ("jetjson-go", Box::new(|| values.iter().map(|(v, _, _)| v.to_vec_with(&go).unwrap().len()).sum())),
        ("jetjson-jcs", Box::new(|| values.iter().map(|(v, _, _)| v.to_vec_with(&jcs).unwrap().len()).sum())),
        ("serde_json", Box::new(|| values.iter().map(|(_, sj, _)| serde_json::to_vec(sj).unwrap().len()).sum())),
        ("sonic-rs", Box::new(|| values.iter().map(|(_, _, s)| sonic_rs::to_vec(s).unwrap().len()).sum())),
    ];
    row(name, "value", size, &jobs, rounds, filter);

    let jobs: Vec<Job<'_>> = vec![
        ("jetjson-compact", Box::new(|| typed_docs.iter().map(|t| jetjson::to_vec_with(t, &compact).unwrap().len()).sum())),
        ("jetjson-go", Box::new(|| typed_docs.iter().map(|t| jetjson::to_vec_with(t, &go).unwrap().len()).sum())),
        ("jetjson-jcs", Box::new(|| typed_docs.iter().map(|t| jetjson::to_vec_with(t, &jcs).unwrap().len()).sum())),
        ("serde_json", Box::new(|| typed_docs.iter().map(|t| serde_json::to_vec(t).unwrap().len()).sum())),
        ("sonic-rs", Box::new(|| typed_docs.iter().map(|t| sonic_rs::to_vec(t).unwrap().len()).sum())),
    ];
    row(name, "typed", size, &jobs, rounds, filter);
}

/// One document as each library's DOM, checked: the same bytes back.
fn one<T: Serialize + DeserializeOwned>(name: &str, bytes: &[u8]) -> (jetjson::Value, serde_json::Value, sonic_rs::Value) {
    let compact = jetjson::WriteOptions::compact();
    let value = jetjson::Value::from_slice(bytes).expect("jetjson parses the document");
    let sj: serde_json::Value = serde_json::from_slice(bytes).expect("serde_json parses the document");
    let sonic: sonic_rs::Value = sonic_rs::from_slice(bytes).expect("sonic-rs parses the document");
    // A fast wrong answer must not win: same bytes as the peers before timing.
    assert_eq!(value.to_vec_with(&compact).unwrap(), sonic_rs::to_vec(&sonic).unwrap(), "{name}: Value output differs from sonic-rs");
    let typed: T = serde_json::from_slice(bytes).expect("typed model fits the document");
    assert_eq!(jetjson::to_vec(&typed).unwrap(), serde_json::to_vec(&typed).unwrap(), "{name}: typed output differs from serde_json");
    (value, sj, sonic)
}

fn oci<T: Serialize + DeserializeOwned>(name: &str, kind: Kind, rounds: usize, filter: &str) {
    let docs: Vec<Vec<u8>> = schema::oci::documents().into_iter().filter(|(_, k, _)| *k == kind).map(|(_, _, b)| b).collect();
    group::<T>(&format!("{name}({})", docs.len()), &docs, rounds, filter);
}

fn main() {
    // cargo bench passes `--bench`; take the first two other arguments.
    let (rounds, filter) = ratio::args(100);
    println!("Serialization, median of {rounds} interleaved rounds per contender (MB/s = input bytes / time).");
    println!("'X ÷ Y' = median over rounds of X's time / Y's time in the same round (>1: Y faster). 'portable': jetjson built without");
    println!("target flags in a twin process (when run by bench/ratios.sh), in the same rounds.\n");
    println!("| document | kind | input | jetjson compact | compact portable | jetjson go | go portable | jetjson jcs | serde_json | sonic-rs | sonic ÷ compact | sonic ÷ compact portable | sonic ÷ go | sonic ÷ go portable | portable ÷ native, compact | portable ÷ native, go | serde_json ÷ compact | jcs ÷ compact |");
    println!("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    document::<schema::twitter::Twitter>("twitter", "nativejson-benchmark/twitter.json", rounds, &filter);
    document::<schema::citm_catalog::Catalog>("citm_catalog", "nativejson-benchmark/citm_catalog.json", rounds, &filter);
    document::<schema::canada::FeatureCollection>("canada", "nativejson-benchmark/canada.json", rounds.div_ceil(4), &filter);
    document::<schema::github_events::Events>("github_events", "simdjson/github_events.json", rounds * 4, &filter);
    document::<schema::gsoc_2018::Projects>("gsoc-2018", "simdjson/gsoc-2018.json", rounds, &filter);
    document::<schema::mesh::Mesh>("mesh", "simdjson/mesh.json", rounds, &filter);
    oci::<schema::oci::Manifest>("oci-manifests", Kind::Manifest, rounds * 4, &filter);
    oci::<schema::oci::Index>("oci-indexes", Kind::Index, rounds * 4, &filter);
    oci::<schema::oci::ImageConfig>("oci-configs", Kind::Config, rounds * 4, &filter);
    oci::<schema::oci::SignedManifestV1>("docker-v2s1", Kind::SignedV1, rounds * 4, &filter);
    ratio::finish();
}
