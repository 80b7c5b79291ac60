//! Parses one corpus document into its typed bench model in a loop, for
//! profilers (perf, callgrind), or several libraries interleaved for a
//! quick timing.
//!
//! `cargo run --release -p jetjson --example typed_loop -- DOC [ITERATIONS [LIBRARIES]]`
//! with DOC one of twitter, citm_catalog, canada, github_events, gsoc-2018,
//! mesh (read from `../shared/corpus/bench/`), or one of the OCI groups
//! oci-manifests, oci-indexes, oci-configs, docker-v2s1 (every document of
//! `../shared/corpus/oci` of that kind, each parsed once per iteration, as
//! the groups of `benches/read_ratios.rs`), and LIBRARIES jetjson (the
//! default), sonic-rs or serde_json, or several joined by commas: then each
//! round runs each once, rotating which goes first, and prints per library
//! the median time and `ratio A B X` lines (A's time ÷ B's, paired by round,
//! for every later A and earlier B). `portable:LIBRARY` runs LIBRARY in the
//! program named by `JETJSON_TWIN` (a build of this example without target
//! flags, this one being built with `-C target-cpu=native`), in the same
//! rounds (`bench/typed_pairs.sh`).
//!
//! `TYPED_FILE=PATH` parses that file into DOC's model instead of the corpus
//! document(s) (a compacted copy of one, say, to see what whitespace costs,
//! or the workload suite's `bench/go/testdata/oci-manifest-5.json` as
//! `oci-manifests`).
#[allow(dead_code)]
#[path = "../benches/schema/mod.rs"]
mod schema;
#[allow(dead_code)]
#[path = "../../jetjson-bench/src/twin.rs"]
mod twin;

use std::time::{Duration, Instant};

const LIBRARIES: &[&str] = &["jetjson", "sonic-rs", "serde_json"];

fn parse<T: serde::de::DeserializeOwned>(bytes: &[u8], library: &str) -> usize {
    let v: T = match library {
        "jetjson" => jetjson::from_slice(bytes).expect("valid JSON of the model"),
        "sonic-rs" => sonic_rs::from_slice(bytes).expect("valid JSON of the model"),
        "serde_json" => serde_json::from_slice(bytes).expect("valid JSON of the model"),
        other => panic!("unknown library {other}"),
    };
    std::mem::size_of_val(&v)
}

fn run<T: serde::de::DeserializeOwned>(rel: &str, n: usize, libraries: &str) {
    let path = format!("{}/../../../shared/corpus/bench/{rel}", env!("CARGO_MANIFEST_DIR"));
    let path = std::env::var("TYPED_FILE").unwrap_or(path);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    run_group::<T>(&[bytes], n, libraries);
}

fn oci<T: serde::de::DeserializeOwned>(kind: schema::oci::Kind, n: usize, libraries: &str) {
    let docs: Vec<Vec<u8>> = match std::env::var("TYPED_FILE") {
        Ok(path) => vec![std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))],
        Err(_) => schema::oci::documents().into_iter().filter(|(_, k, _)| *k == kind).map(|(_, _, b)| b).collect(),
    };
    run_group::<T>(&docs, n, libraries);
}

/// Each iteration parses every document of `docs` once.
fn run_group<T: serde::de::DeserializeOwned>(docs: &[Vec<u8>], n: usize, libraries: &str) {
    let parse_all = |library: &str| docs.iter().map(|d| parse::<T>(d, library)).sum::<usize>();
    if let Some(mut server) = twin::Server::from_env() {
        type Job<'a> = (&'a str, Box<dyn Fn() -> usize + 'a>);
        let jobs: Vec<Job<'_>> = LIBRARIES.iter().map(|&l| (l, Box::new(|| parse_all(l)) as Box<dyn Fn() -> usize>)).collect();
        let jobs: Vec<(&str, &dyn Fn() -> usize)> = jobs.iter().map(|(m, f)| (*m, f.as_ref())).collect();
        server.serve_row("typed", &jobs);
        return;
    }
    let libraries: Vec<&str> = libraries.split(',').collect();
    let mut kept = 0usize;
    if libraries.len() == 1 && !libraries[0].starts_with("portable:") {
        for _ in 0..n {
            kept += parse_all(libraries[0]);
        }
        println!("{kept}");
        return;
    }
    let twin = libraries.iter().any(|m| m.starts_with("portable:")).then(|| twin::Twin::from_env().expect("portable: needs JETJSON_TWIN"));
    let time = |library: &str| -> Duration {
        match library.strip_prefix("portable:") {
            Some(l) => twin.as_ref().expect("a twin").time("typed", l, 1),
            None => {
                let t = Instant::now();
                std::hint::black_box(parse_all(library));
                t.elapsed()
            }
        }
    };
    for l in &libraries {
        for _ in 0..n.div_ceil(10) {
            time(l);
        }
    }
    let mut times: Vec<Vec<f64>> = vec![Vec::with_capacity(n); libraries.len()];
    for r in 0..n {
        for k in 0..libraries.len() {
            let i = (r + k) % libraries.len();
            times[i].push(time(libraries[i]).as_secs_f64());
        }
    }
    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    for (i, l) in libraries.iter().enumerate() {
        println!("{l:>20}: {:9.1} µs", median(times[i].clone()) * 1e6);
    }
    for i in 0..libraries.len() {
        for j in 0..i {
            let paired = median(times[i].iter().zip(&times[j]).map(|(a, b)| a / b).collect());
            println!("ratio {} {} {paired:.3}", libraries[i], libraries[j]);
        }
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let doc = args.next().expect("usage: typed_loop DOC [ITERATIONS [LIBRARIES]]");
    let n: usize = args.next().map_or(100, |s| s.parse().expect("ITERATIONS is a number"));
    let libraries = args.next().unwrap_or_else(|| "jetjson".into());
    let libraries = libraries.as_str();
    match doc.as_str() {
        "twitter" => run::<schema::twitter::Twitter>("nativejson-benchmark/twitter.json", n, libraries),
        "citm_catalog" => run::<schema::citm_catalog::Catalog>("nativejson-benchmark/citm_catalog.json", n, libraries),
        "canada" => run::<schema::canada::FeatureCollection>("nativejson-benchmark/canada.json", n, libraries),
        "github_events" => run::<schema::github_events::Events>("simdjson/github_events.json", n, libraries),
        "gsoc-2018" => run::<schema::gsoc_2018::Projects>("simdjson/gsoc-2018.json", n, libraries),
        "mesh" => run::<schema::mesh::Mesh>("simdjson/mesh.json", n, libraries),
        "oci-manifests" => oci::<schema::oci::Manifest>(schema::oci::Kind::Manifest, n, libraries),
        "oci-indexes" => oci::<schema::oci::Index>(schema::oci::Kind::Index, n, libraries),
        "oci-configs" => oci::<schema::oci::ImageConfig>(schema::oci::Kind::Config, n, libraries),
        "docker-v2s1" => oci::<schema::oci::SignedManifestV1>(schema::oci::Kind::SignedV1, n, libraries),
        other => panic!("unknown document {other}"),
    }
}
