//! Parsing benchmark (criterion): each corpus document parsed into each
//! library's own DOM ("value") and into the same serde structs ("typed"),
//! jetjson against serde_json, sonic-rs and simd-json in the same run.
//! `cargo bench -p jetjson --bench read`; `JETJSON_BENCH_QUICK=1` for a
//! short smoke run. `benches/read_ratios.rs` gives interleaved ratios.

#[allow(dead_code)]
#[path = "schema/mod.rs"]
mod schema;

use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput};
use serde::de::DeserializeOwned;
use serde::Serialize;

fn corpus(rel: &str) -> Vec<u8> {
    let path = format!("{}/../../../shared/corpus/bench/{rel}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn bench_document<T: Serialize + DeserializeOwned>(c: &mut Criterion, name: &str, rel: &str) {
    let bytes = corpus(rel);
    // A fast wrong answer must not win: check both builders once.
    let ours = jetjson::Value::from_slice(&bytes).expect("jetjson parses");
    let theirs: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
    let sorted = jetjson::WriteOptions::compact().sort_keys(true);
    assert_eq!(ours.to_vec_with(&sorted).unwrap(), serde_json::to_vec(&theirs).unwrap(), "{name}: Value differs");
    let typed: T = jetjson::from_slice(&bytes).expect("jetjson parses the typed model");
    let reference: T = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(serde_json::to_vec(&typed).unwrap(), serde_json::to_vec(&reference).unwrap(), "{name}: typed differs");

    let quick = std::env::var_os("JETJSON_BENCH_QUICK").is_some();
    for kind in ["value", "typed"] {
        let mut g = c.benchmark_group(format!("read/{name}/{kind}"));
        g.throughput(Throughput::Bytes(bytes.len() as u64));
        g.sample_size(if quick { 10 } else { 20 });
        g.warm_up_time(Duration::from_millis(if quick { 200 } else { 500 }));
        g.measurement_time(Duration::from_millis(if quick { 500 } else { 2000 }));
        let b = &bytes;
        if kind == "value" {
            g.bench_function(BenchmarkId::from_parameter("jetjson"), |x| x.iter(|| jetjson::Value::from_slice(b).unwrap()));
            g.bench_function(BenchmarkId::from_parameter("serde_json"), |x| {
                x.iter(|| serde_json::from_slice::<serde_json::Value>(b).unwrap())
            });
            g.bench_function(BenchmarkId::from_parameter("sonic-rs"), |x| x.iter(|| sonic_rs::from_slice::<sonic_rs::Value>(b).unwrap()));
            g.bench_function(BenchmarkId::from_parameter("simd-json"), |x| {
                x.iter(|| {
                    let mut copy = b.clone();
                    simd_json::to_owned_value(&mut copy).map(|_| ()).unwrap()
                })
            });
        } else {
            g.bench_function(BenchmarkId::from_parameter("jetjson"), |x| x.iter(|| jetjson::from_slice::<T>(b).unwrap()));
            g.bench_function(BenchmarkId::from_parameter("serde_json"), |x| x.iter(|| serde_json::from_slice::<T>(b).unwrap()));
            g.bench_function(BenchmarkId::from_parameter("sonic-rs"), |x| x.iter(|| sonic_rs::from_slice::<T>(b).unwrap()));
            g.bench_function(BenchmarkId::from_parameter("simd-json"), |x| {
                x.iter(|| {
                    let mut copy = b.clone();
                    simd_json::serde::from_slice::<T>(&mut copy).unwrap()
                })
            });
        }
        g.finish();
    }
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    bench_document::<schema::twitter::Twitter>(&mut c, "twitter", "nativejson-benchmark/twitter.json");
    bench_document::<schema::citm_catalog::Catalog>(&mut c, "citm_catalog", "nativejson-benchmark/citm_catalog.json");
    bench_document::<schema::canada::FeatureCollection>(&mut c, "canada", "nativejson-benchmark/canada.json");
    bench_document::<schema::github_events::Events>(&mut c, "github_events", "simdjson/github_events.json");
    bench_document::<schema::gsoc_2018::Projects>(&mut c, "gsoc-2018", "simdjson/gsoc-2018.json");
    bench_document::<schema::mesh::Mesh>(&mut c, "mesh", "simdjson/mesh.json");
    c.final_summary();
}
