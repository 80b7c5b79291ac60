//! Parses one file in a loop with jetjson, sonic-rs or serde_json, for
//! instruction counts side by side (callgrind: run with N and 3N
//! iterations and difference the totals to cancel start-up and file read),
//! or several of them interleaved for a quick timing.
//!
//! `cargo run --release -p jetjson --example peer_loop -- MODES FILE [ITERATIONS]`
//!
//! With `PEER_LOOP_BATCH=K` in the environment, each timed sample is K
//! calls (for small documents).
//!
//! MODES is one of the modes below, or several joined by commas
//! (`jetjson,sonic`): then each round runs each mode once, rotating which
//! goes first, and prints per mode the median time and the median over
//! rounds of (its time ÷ the first mode's time in the same round), then
//! `ratio A B X` lines: A's time ÷ B's, paired by round, for every later
//! mode A and earlier mode B.
//!
//! * `jetjson`: `Value::from_slice`; `door`: `jetjson::from_slice::<Value>`
//!   (the serde door); `validate`: jetjson's parser with no builder, so what
//!   building the `Value` costs is the difference to `jetjson`;
//!   `jetjson-last`, `validate-last`: the same without the duplicate-name
//!   check (`DuplicateKeys::Last`);
//! * `sonic`: `sonic_rs::from_slice::<sonic_rs::Value>`; `serde`: serde_json's `Value`;
//! * writes (for A/B of the writers): `write-go`, `write-compact` write the
//!   file's `Value` in that profile; `typed-go`, `typed-compact` its typed
//!   bench model (crates/jetjson/benches/schema), chosen by the file's name
//!   (`twitter.json`, `citm_catalog.json`, `canada.json`,
//!   `github_events.json`, `gsoc-2018.json`, `mesh.json`), or every OCI
//!   document of a kind when FILE is `oci-manifests`, `oci-indexes`,
//!   `oci-configs` or `docker-v2s1` (no file read: the parse modes then
//!   parse every such document per call too); `typed-sonic` writes
//!   the same model with sonic-rs (compact bytes), `write-sonic` the
//!   file's `sonic_rs::Value`;
//! * `portable:MODE`: MODE run by the program named in `JETJSON_TWIN` (a
//!   build of this example without target flags, while this one is built
//!   with `-C target-cpu=native`), in the same rounds (`bench/parse_pairs.sh`).
#[allow(dead_code)]
#[path = "../benches/schema/mod.rs"]
mod schema;
#[allow(dead_code)]
#[path = "../../jetjson-bench/src/twin.rs"]
mod twin;

use std::time::{Duration, Instant};

const MODES: &[&str] = &["jetjson", "door", "validate", "jetjson-last", "validate-last", "sonic", "serde"];
const WRITE_MODES: &[&str] = &["write-go", "write-compact", "typed-go", "typed-compact", "typed-sonic", "write-sonic"];

/// The documents' `Value`s and a closure writing their typed model.
struct Docs {
    values: Vec<jetjson::Value>,
    sonic: Vec<sonic_rs::Value>,
    typed: Box<dyn Fn(&str) -> usize>,
}

fn typed_docs<T: serde::Serialize + serde::de::DeserializeOwned + 'static>(docs: &[Vec<u8>]) -> Box<dyn Fn(&str) -> usize> {
    let typed: Vec<T> = docs.iter().map(|b| serde_json::from_slice(b).expect("the typed model fits the document")).collect();
    Box::new(move |mode| match mode {
        "typed-go" => typed.iter().map(|t| jetjson::to_vec_with(t, &jetjson::WriteOptions::go()).unwrap().len()).sum(),
        "typed-compact" => typed.iter().map(|t| jetjson::to_vec_with(t, &jetjson::WriteOptions::compact()).unwrap().len()).sum(),
        "typed-sonic" => typed.iter().map(|t| sonic_rs::to_vec(t).unwrap().len()).sum(),
        other => panic!("unknown mode {other}"),
    })
}

/// The documents named by FILE: the file, or every OCI document of a kind.
fn documents(path: &str) -> Vec<Vec<u8>> {
    use schema::oci::Kind;
    let oci =
        |kind: Kind| -> Vec<Vec<u8>> { schema::oci::documents().into_iter().filter(|(_, k, _)| *k == kind).map(|(_, _, b)| b).collect() };
    match file_name(path) {
        "oci-manifests" => oci(Kind::Manifest),
        "oci-indexes" => oci(Kind::Index),
        "oci-configs" => oci(Kind::Config),
        "docker-v2s1" => oci(Kind::SignedV1),
        _ => vec![std::fs::read(path).unwrap()],
    }
}

fn file_name(path: &str) -> &str {
    std::path::Path::new(path).file_name().and_then(|n| n.to_str()).unwrap_or("")
}

/// The documents named by FILE and their typed model (see the modes).
fn load_docs(path: &str) -> Docs {
    let name = file_name(path);
    let docs = documents(path);
    let typed = match name {
        "twitter.json" => typed_docs::<schema::twitter::Twitter>(&docs),
        "citm_catalog.json" => typed_docs::<schema::citm_catalog::Catalog>(&docs),
        "canada.json" => typed_docs::<schema::canada::FeatureCollection>(&docs),
        "github_events.json" => typed_docs::<schema::github_events::Events>(&docs),
        "gsoc-2018.json" => typed_docs::<schema::gsoc_2018::Projects>(&docs),
        "mesh.json" => typed_docs::<schema::mesh::Mesh>(&docs),
        "oci-manifests" => typed_docs::<schema::oci::Manifest>(&docs),
        "oci-indexes" => typed_docs::<schema::oci::Index>(&docs),
        "oci-configs" => typed_docs::<schema::oci::ImageConfig>(&docs),
        "docker-v2s1" => typed_docs::<schema::oci::SignedManifestV1>(&docs),
        _ => Box::new(|mode: &str| panic!("{mode}: no typed model for this file")),
    };
    let values = docs.iter().map(|b| jetjson::Value::from_slice(b).unwrap()).collect();
    let sonic = docs.iter().map(|b| sonic_rs::from_slice(b).unwrap()).collect();
    Docs { values, sonic, typed }
}

fn write(mode: &str, docs: &Docs) -> usize {
    let options = match mode {
        "write-go" => jetjson::WriteOptions::go(),
        "write-compact" => jetjson::WriteOptions::compact(),
        "write-sonic" => return docs.sonic.iter().map(|v| sonic_rs::to_vec(v).unwrap().len()).sum(),
        typed => return (docs.typed)(typed),
    };
    docs.values.iter().map(|v| v.to_vec_with(&options).unwrap().len()).sum()
}

fn run(mode: &str, bytes: &[u8]) -> usize {
    match mode {
        "sonic" => sonic_rs::from_slice::<sonic_rs::Value>(bytes).map(|v| sonic_rs::JsonValueTrait::is_object(&v) as usize).unwrap(),
        "serde" => serde_json::from_slice::<serde_json::Value>(bytes).map(|v| v.is_object() as usize).unwrap(),
        "validate" => jetjson::parse::validate(bytes, &jetjson::ReadOptions::new()).is_ok() as usize,
        "jetjson" => jetjson::Value::from_slice(bytes).unwrap().is_null() as usize,
        "door" => jetjson::from_slice::<jetjson::Value>(bytes).unwrap().is_null() as usize,
        // Without the duplicate-name check (repeated names: the last wins).
        "jetjson-last" => jetjson::Value::from_slice_with(bytes, &last()).unwrap().is_null() as usize,
        "validate-last" => jetjson::parse::validate(bytes, &last()).is_ok() as usize,
        other => panic!("unknown mode {other}"),
    }
}

fn last() -> jetjson::ReadOptions {
    jetjson::ReadOptions::new().duplicate_keys(jetjson::DuplicateKeys::Last)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let modes: Vec<String> = args.next().expect("MODES").split(',').map(str::to_owned).collect();
    let path = args.next().expect("FILE");
    let n: usize = args.next().map_or(200, |s| s.parse().unwrap());
    let writes = modes.iter().all(|m| WRITE_MODES.contains(&m.strip_prefix("portable:").unwrap_or(m)));
    if writes {
        let docs = load_docs(&path);
        return rounds(&modes, n, "write", WRITE_MODES, &|m| write(m, &docs));
    }
    let docs = documents(&path);
    rounds(&modes, n, "parse", MODES, &|m| docs.iter().map(|bytes| run(m, bytes)).sum());
}

/// Times `modes` (run by `run`; `portable:` ones by the twin, which serves
/// `all` in row `row`) over `n` rounds, or runs one mode `n` times.
fn rounds(modes: &[String], n: usize, row: &str, all: &[&str], run: &dyn Fn(&str) -> usize) {
    if let Some(mut server) = twin::Server::from_env() {
        type Job<'a> = (&'a str, Box<dyn Fn() -> usize + 'a>);
        let jobs: Vec<Job<'_>> = all.iter().map(|&m| (m, Box::new(move || run(m)) as Box<dyn Fn() -> usize>)).collect();
        let jobs: Vec<(&str, &dyn Fn() -> usize)> = jobs.iter().map(|(m, f)| (*m, f.as_ref())).collect();
        server.serve_row(row, &jobs);
        return;
    }
    let mut kept = 0usize;
    if modes.len() == 1 && !modes[0].starts_with("portable:") {
        for _ in 0..n {
            kept += run(&modes[0]);
        }
        println!("{kept}");
        return;
    }
    let twin = modes.iter().any(|m| m.starts_with("portable:")).then(|| twin::Twin::from_env().expect("portable: modes need JETJSON_TWIN"));
    // Calls per sample (`PEER_LOOP_BATCH`, default 1): for documents whose
    // one call is near the clock's grain.
    let batch: usize = std::env::var("PEER_LOOP_BATCH").ok().and_then(|s| s.parse().ok()).unwrap_or(1).max(1);
    let time = |mode: &str| -> Duration {
        match mode.strip_prefix("portable:") {
            Some(m) => twin.as_ref().expect("a twin").time(row, m, batch),
            None => {
                let t = Instant::now();
                for _ in 0..batch {
                    std::hint::black_box(run(mode));
                }
                t.elapsed()
            }
        }
    };
    for m in modes {
        for _ in 0..n.div_ceil(10) {
            time(m);
        }
    }
    let mut times: Vec<Vec<f64>> = vec![Vec::with_capacity(n); modes.len()];
    for r in 0..n {
        for k in 0..modes.len() {
            let i = (r + k) % modes.len();
            times[i].push(time(&modes[i]).as_secs_f64());
        }
    }
    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    for (i, m) in modes.iter().enumerate() {
        let paired = median(times[i].iter().zip(&times[0]).map(|(a, b)| a / b).collect());
        println!("{m:>18}: {:9.1} µs  ({paired:.3}x the first, paired)", median(times[i].clone()) * 1e6);
    }
    // Every later mode against every earlier one, for scripts.
    for i in 0..modes.len() {
        for j in 0..i {
            let paired = median(times[i].iter().zip(&times[j]).map(|(a, b)| a / b).collect());
            println!("ratio {} {} {paired:.3}", modes[i], modes[j]);
        }
    }
    std::hint::black_box(kept);
}
