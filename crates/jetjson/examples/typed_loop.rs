//! Parses one corpus document into its typed bench model in a loop, for
//! profilers (perf, callgrind).
//!
//! `cargo run --release -p jetjson --example typed_loop -- DOC [ITERATIONS [LIBRARY]]`
//! with DOC one of twitter, citm_catalog, canada, github_events, gsoc-2018,
//! mesh (read from `../shared/corpus/bench/`) and LIBRARY jetjson (the
//! default), sonic-rs or serde_json, to compare instruction counts.
#[allow(dead_code)]
#[path = "../benches/schema/mod.rs"]
mod schema;

fn run<T: serde::de::DeserializeOwned>(rel: &str, n: usize, library: &str) {
    let path = format!("{}/../../../shared/corpus/bench/{rel}", env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut kept = 0usize;
    for _ in 0..n {
        let v: T = match library {
            "jetjson" => jetjson::from_slice(&bytes).expect("valid JSON of the model"),
            "sonic-rs" => sonic_rs::from_slice(&bytes).expect("valid JSON of the model"),
            "serde_json" => serde_json::from_slice(&bytes).expect("valid JSON of the model"),
            other => panic!("unknown library {other}"),
        };
        kept += std::mem::size_of_val(&v);
    }
    println!("{kept}");
}

fn main() {
    let mut args = std::env::args().skip(1);
    let doc = args.next().expect("usage: typed_loop DOC [ITERATIONS]");
    let n: usize = args.next().map_or(100, |s| s.parse().expect("ITERATIONS is a number"));
    let library = args.next().unwrap_or_else(|| "jetjson".into());
    let library = library.as_str();
    match doc.as_str() {
        "twitter" => run::<schema::twitter::Twitter>("nativejson-benchmark/twitter.json", n, library),
        "citm_catalog" => run::<schema::citm_catalog::Catalog>("nativejson-benchmark/citm_catalog.json", n, library),
        "canada" => run::<schema::canada::FeatureCollection>("nativejson-benchmark/canada.json", n, library),
        "github_events" => run::<schema::github_events::Events>("simdjson/github_events.json", n, library),
        "gsoc-2018" => run::<schema::gsoc_2018::Projects>("simdjson/gsoc-2018.json", n, library),
        "mesh" => run::<schema::mesh::Mesh>("simdjson/mesh.json", n, library),
        other => panic!("unknown document {other}"),
    }
}
