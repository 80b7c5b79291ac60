//! The shared benchmark documents (`../shared/corpus/bench/`): parse into
//! each library's own DOM, serialize that DOM, and the round trip of both.
//! Typed models of five of them are measured by jetjson's own
//! `read_ratios`/`write_ratios` benches (`bench/results/*-ratios.md`).
//!
//! Checks: what each library writes, read back by serde_json, equals the
//! document read by serde_json.

use std::path::PathBuf;

use simd_json::prelude::Writable as _;

use super::Scale;
use crate::harness::{Job, Meta, Runner};

/// The corpus directory, or `JETJSON_CORPUS` if set.
pub fn dir() -> PathBuf {
    std::env::var_os("JETJSON_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/bench"))
}

/// Every `.json` document of the corpus, by name, smallest first.
pub fn documents() -> Vec<(String, Vec<u8>)> {
    let mut docs = Vec::new();
    for sub in ["nativejson-benchmark", "simdjson"] {
        let Ok(entries) = std::fs::read_dir(dir().join(sub)) else { continue };
        for e in entries.flatten() {
            let path = e.path();
            if path.extension().is_some_and(|x| x == "json") {
                let name = path.file_name().unwrap().to_string_lossy().into_owned();
                docs.push((name, std::fs::read(&path).unwrap()));
            }
        }
    }
    docs.sort_by_key(|(n, b)| (b.len(), n.clone()));
    docs
}

pub fn run(runner: &mut Runner, scale: Scale) {
    let docs = documents();
    assert!(!docs.is_empty() || scale == Scale::Smoke, "no documents in {}", dir().display());
    for (name, bytes) in &docs {
        if runner.wants(&format!("corpus/{name}/")) {
            rows(runner, name, bytes);
        }
    }
}

fn keep<'j>(mut jobs: Vec<Job<'j>>, wrong: &[&str]) -> Vec<Job<'j>> {
    jobs.retain(|(n, _)| !wrong.contains(n));
    jobs
}

fn rows(runner: &mut Runner, name: &str, bytes: &[u8]) {
    let compact = jetjson::WriteOptions::compact();
    let reference: serde_json::Value = serde_json::from_slice(bytes).unwrap();
    let same = |who: &str, out: &[u8]| {
        let back: serde_json::Value = serde_json::from_slice(out).unwrap_or_else(|e| panic!("{name}: {who} wrote invalid JSON: {e}"));
        back == reference
    };

    let ours = jetjson::Value::from_slice(bytes).unwrap();
    let sj = reference.clone();
    let sonic: sonic_rs::Value = sonic_rs::from_slice(bytes).unwrap();
    let simd = simd_json::to_owned_value(&mut bytes.to_vec()).unwrap();
    assert!(same("jetjson", &ours.to_vec_with(&compact).unwrap()), "{name}: jetjson changed the document");
    // A peer whose output differs from the document is left out of the
    // document's rows (a fast wrong answer must not win), and the row says so.
    let mut wrong = Vec::new();
    if !same("sonic-rs", &sonic_rs::to_vec(&sonic).unwrap()) {
        wrong.push("sonic-rs");
    }
    if !same("simd-json", simd.encode().as_bytes()) {
        wrong.push("simd-json");
    }
    let note = |text: &str| {
        let left_out = (!wrong.is_empty()).then(|| format!("left out, output differs from the document: {}", wrong.join(", ")));
        [Some(text.to_string()).filter(|t| !t.is_empty()), left_out].into_iter().flatten().collect::<Vec<_>>().join("; ")
    };

    let jobs: Vec<Job<'_>> = vec![
        ("jetjson", Box::new(|| jetjson::Value::from_slice(bytes).map(|v| v.is_null() as usize).unwrap())),
        ("serde_json", Box::new(|| serde_json::from_slice::<serde_json::Value>(bytes).map(|v| v.is_null() as usize).unwrap())),
        (
            "sonic-rs",
            Box::new(|| sonic_rs::from_slice::<sonic_rs::Value>(bytes).map(|v| sonic_rs::JsonValueTrait::is_null(&v) as usize).unwrap()),
        ),
        ("simd-json", Box::new(|| simd_json::to_owned_value(&mut bytes.to_vec()).map(|_| 1).unwrap())),
    ];
    runner.row(
        Meta::new("corpus", name, "parse", bytes.len()).note(note("into each library's DOM; simd-json copies its mutable input")),
        &keep(jobs, &wrong),
    );

    let jobs: Vec<Job<'_>> = vec![
        ("jetjson", Box::new(|| ours.to_vec_with(&compact).unwrap().len())),
        ("serde_json", Box::new(|| serde_json::to_vec(&sj).unwrap().len())),
        ("sonic-rs", Box::new(|| sonic_rs::to_vec(&sonic).unwrap().len())),
        ("simd-json", Box::new(|| simd.encode().len())),
    ];
    runner.row(Meta::new("corpus", name, "serialize", bytes.len()).note(note("from each library's own DOM")), &keep(jobs, &wrong));

    let jobs: Vec<Job<'_>> = vec![
        ("jetjson", Box::new(|| jetjson::Value::from_slice(bytes).unwrap().to_vec_with(&compact).unwrap().len())),
        ("serde_json", Box::new(|| serde_json::to_vec(&serde_json::from_slice::<serde_json::Value>(bytes).unwrap()).unwrap().len())),
        ("sonic-rs", Box::new(|| sonic_rs::to_vec(&sonic_rs::from_slice::<sonic_rs::Value>(bytes).unwrap()).unwrap().len())),
        ("simd-json", Box::new(|| simd_json::to_owned_value(&mut bytes.to_vec()).unwrap().encode().len())),
    ];
    runner.row(Meta::new("corpus", name, "round-trip", bytes.len()).note(note("")), &keep(jobs, &wrong));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_runs_and_checks() {
        let mut runner = Runner::smoke();
        for (name, bytes) in &documents() {
            rows(&mut runner, name, bytes);
        }
    }
}
