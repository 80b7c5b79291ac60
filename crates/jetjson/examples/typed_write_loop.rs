//! Writes a corpus document's typed bench model N times in one profile (for
//! callgrind comparisons of the serde writer; `write_loop` does `Value`):
//! `typed_write_loop DOC N PROFILE [LIBRARY]` with DOC one of twitter,
//! citm_catalog, canada, github_events, gsoc-2018, mesh, oci-manifests,
//! oci-indexes, oci-configs, docker-v2s1; PROFILE compact, go or jcs;
//! LIBRARY jetjson (the default), jetjson-compact, jetjson-go or
//! jetjson-jcs (that profile whatever PROFILE says; `+nohtml`, `+nosort`
//! or `+sort` appended set those options), sonic-rs (compact
//! bytes, whatever the profile), or value / sonic-value: the document's
//! `Value` instead (each library's own DOM); several joined by commas write
//! in turn.
#[allow(dead_code)]
#[path = "../benches/schema/mod.rs"]
mod schema;

use schema::oci::Kind;
use serde::de::DeserializeOwned;
use serde::Serialize;

fn run<T: Serialize + DeserializeOwned>(docs: Vec<Vec<u8>>, n: usize, profile: &str, library: &str) {
    let options = match profile {
        "compact" => jetjson::WriteOptions::compact(),
        "go" => jetjson::WriteOptions::go(),
        "jcs" => jetjson::WriteOptions::jcs(),
        other => panic!("unknown profile {other}"),
    };
    // Every library named (joined by commas) writes once per round, as in
    // the interleaved benchmarks, where each evicts the others' data.
    let values: Vec<jetjson::Value> = docs.iter().map(|b| jetjson::Value::from_slice(b).expect("JSON")).collect();
    let sonic: Vec<sonic_rs::Value> = docs.iter().map(|b| sonic_rs::from_slice(b).expect("JSON")).collect();
    let typed: Vec<T> = docs.iter().map(|b| serde_json::from_slice(b).expect("typed model fits the document")).collect();
    let libraries: Vec<&str> = library.split(',').collect();
    let mut times: Vec<Vec<f64>> = vec![Vec::with_capacity(n); libraries.len()];
    let mut total = 0;
    for _ in 0..n {
        for (l, library) in libraries.iter().enumerate() {
            let start = std::time::Instant::now();
            total += match *library {
                "value" => values.iter().map(|v| v.to_vec_with(&options).expect("writable").len()).sum::<usize>(),
                "sonic-value" => sonic.iter().map(|v| sonic_rs::to_vec(v).expect("writable").len()).sum::<usize>(),
                "jetjson" => typed.iter().map(|t| jetjson::to_vec_with(t, &options).expect("writable").len()).sum::<usize>(),
                // A named profile whatever PROFILE says (several profiles in
                // one run), `+nohtml` / `+nosort` / `+sort` appended for
                // `escape_html(false)` / `sort_keys(false)` / `sort_keys(true)`.
                named if named.starts_with("jetjson-") => {
                    let mut parts = named["jetjson-".len()..].split('+');
                    let mut named = match parts.next() {
                        Some("compact") => jetjson::WriteOptions::compact(),
                        Some("go") => jetjson::WriteOptions::go(),
                        Some("jcs") => jetjson::WriteOptions::jcs(),
                        other => panic!("unknown profile {other:?}"),
                    };
                    for part in parts {
                        named = match part {
                            "nohtml" => named.escape_html(false),
                            "nosort" => named.sort_keys(false),
                            "sort" => named.sort_keys(true),
                            other => panic!("unknown option {other}"),
                        };
                    }
                    typed.iter().map(|t| jetjson::to_vec_with(t, &named).expect("writable").len()).sum::<usize>()
                }
                "sonic-rs" => typed.iter().map(|t| sonic_rs::to_vec(t).expect("writable").len()).sum::<usize>(),
                other => panic!("unknown library {other}"),
            };
            times[l].push(start.elapsed().as_secs_f64());
        }
    }
    // With several libraries: each one's median time, and the median over
    // rounds of the first one's time / each other's in the same round.
    if libraries.len() > 1 {
        let median = |mut v: Vec<f64>| {
            v.sort_by(f64::total_cmp);
            v[v.len() / 2]
        };
        for (l, library) in libraries.iter().enumerate() {
            let paired = median(times[0].iter().zip(&times[l]).map(|(a, b)| b / a).collect());
            eprintln!("{library:>12}: {:9.1} us, {paired:.3}x the time of {}", median(times[l].clone()) * 1e6, libraries[0]);
        }
    }
    println!("{total}");
}

fn corpus(rel: &str) -> Vec<Vec<u8>> {
    let path = format!("{}/../../../shared/corpus/bench/{rel}", env!("CARGO_MANIFEST_DIR"));
    vec![std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))]
}

fn oci(kind: Kind) -> Vec<Vec<u8>> {
    schema::oci::documents().into_iter().filter(|(_, k, _)| *k == kind).map(|(_, _, b)| b).collect()
}

fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let (doc, n, profile) = (a[0].as_str(), a[1].parse().expect("a count"), a[2].as_str());
    let library = a.get(3).map_or("jetjson", String::as_str);
    match doc {
        "twitter" => run::<schema::twitter::Twitter>(corpus("nativejson-benchmark/twitter.json"), n, profile, library),
        "citm_catalog" => run::<schema::citm_catalog::Catalog>(corpus("nativejson-benchmark/citm_catalog.json"), n, profile, library),
        "canada" => run::<schema::canada::FeatureCollection>(corpus("nativejson-benchmark/canada.json"), n, profile, library),
        "github_events" => run::<schema::github_events::Events>(corpus("simdjson/github_events.json"), n, profile, library),
        "gsoc-2018" => run::<schema::gsoc_2018::Projects>(corpus("simdjson/gsoc-2018.json"), n, profile, library),
        "mesh" => run::<schema::mesh::Mesh>(corpus("simdjson/mesh.json"), n, profile, library),
        "oci-manifests" => run::<schema::oci::Manifest>(oci(Kind::Manifest), n, profile, library),
        "oci-indexes" => run::<schema::oci::Index>(oci(Kind::Index), n, profile, library),
        "oci-configs" => run::<schema::oci::ImageConfig>(oci(Kind::Config), n, profile, library),
        "docker-v2s1" => run::<schema::oci::SignedManifestV1>(oci(Kind::SignedV1), n, profile, library),
        other => panic!("unknown document {other}"),
    }
}
