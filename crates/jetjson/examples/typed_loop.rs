//! Parses one corpus document into its typed bench model in a loop, for
//! profilers (perf, callgrind), or several libraries interleaved for a
//! quick timing.
//!
//! `cargo run --release -p jetjson --example typed_loop -- DOC [ITERATIONS [LIBRARIES]]`
//! with DOC one of twitter, citm_catalog, canada, github_events, gsoc-2018,
//! mesh (read from `../shared/corpus/bench/`) and LIBRARIES jetjson (the
//! default), sonic-rs or serde_json, or several joined by commas: then each
//! round runs each once, rotating which goes first, and prints per library
//! the median time and `ratio A B X` lines (A's time ÷ B's, paired by round,
//! for every later A and earlier B). `portable:LIBRARY` runs LIBRARY in the
//! program named by `JETJSON_TWIN` (a build of this example without target
//! flags, this one being built with `-C target-cpu=native`), in the same
//! rounds (`bench/typed_pairs.sh`).
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
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    if let Some(mut server) = twin::Server::from_env() {
        type Job<'a> = (&'a str, Box<dyn Fn() -> usize + 'a>);
        let jobs: Vec<Job<'_>> = LIBRARIES.iter().map(|&l| (l, Box::new(|| parse::<T>(&bytes, l)) as Box<dyn Fn() -> usize>)).collect();
        let jobs: Vec<(&str, &dyn Fn() -> usize)> = jobs.iter().map(|(m, f)| (*m, f.as_ref())).collect();
        server.serve_row("typed", &jobs);
        return;
    }
    let libraries: Vec<&str> = libraries.split(',').collect();
    let mut kept = 0usize;
    if libraries.len() == 1 && !libraries[0].starts_with("portable:") {
        for _ in 0..n {
            kept += parse::<T>(&bytes, libraries[0]);
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
                std::hint::black_box(parse::<T>(&bytes, library));
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
        other => panic!("unknown document {other}"),
    }
}
