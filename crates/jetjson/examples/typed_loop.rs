//! Parses one corpus document into its typed bench model in a loop, for
//! profilers (perf, callgrind).
//!
//! `cargo run --release -p jetjson --example typed_loop -- DOC [ITERATIONS]`
//! with DOC one of twitter, citm_catalog, canada, github_events, gsoc-2018,
//! mesh (read from `../shared/corpus/bench/`).
#[allow(dead_code)]
#[path = "../benches/schema/mod.rs"]
mod schema;

fn run<T: serde::de::DeserializeOwned>(rel: &str, n: usize) {
    let path = format!("{}/../../../shared/corpus/bench/{rel}", env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut kept = 0usize;
    for _ in 0..n {
        let v: T = jetjson::from_slice(&bytes).expect("valid JSON of the model");
        kept += std::mem::size_of_val(&v);
    }
    println!("{kept}");
}

fn main() {
    let mut args = std::env::args().skip(1);
    let doc = args.next().expect("usage: typed_loop DOC [ITERATIONS]");
    let n: usize = args.next().map_or(100, |s| s.parse().expect("ITERATIONS is a number"));
    match doc.as_str() {
        "twitter" => run::<schema::twitter::Twitter>("nativejson-benchmark/twitter.json", n),
        "citm_catalog" => run::<schema::citm_catalog::Catalog>("nativejson-benchmark/citm_catalog.json", n),
        "canada" => run::<schema::canada::FeatureCollection>("nativejson-benchmark/canada.json", n),
        "github_events" => run::<schema::github_events::Events>("simdjson/github_events.json", n),
        "gsoc-2018" => run::<schema::gsoc_2018::Projects>("simdjson/gsoc-2018.json", n),
        "mesh" => run::<schema::mesh::Mesh>("simdjson/mesh.json", n),
        other => panic!("unknown document {other}"),
    }
}
