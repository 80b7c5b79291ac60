//! One module per workload; each generates its inputs from a fixed seed,
//! checks every contender's output once, then hands rows to the runner.

pub mod binding;
pub mod corpus;
pub mod envelope;
pub mod oci;
pub mod sdk;
pub mod strings;
pub mod timestamp;

use crate::harness::Runner;

/// Input sizes: the full suite, the quick one, or the tests' smoke run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scale {
    Full,
    Quick,
    Smoke,
}

/// Every workload, in report order.
pub fn run_all(runner: &mut Runner, scale: Scale) {
    if runner.wants("oci") {
        oci::run(runner);
    }
    if runner.wants("binding") {
        binding::run(runner);
    }
    if runner.wants("sdk") {
        sdk::run(runner);
    }
    if runner.wants("envelope") {
        envelope::run(runner);
    }
    if runner.wants("strings") {
        strings::run(runner, scale);
    }
    if runner.wants("corpus") {
        corpus::run(runner, scale);
    }
}

/// The inputs of workloads 1 to 4 as files for the Go module
/// (`bench/go/testdata/`): the Go benchmarks read exactly these bytes.
pub fn go_inputs() -> Vec<(String, Vec<u8>)> {
    let mut files = Vec::new();
    files.extend(oci::go_inputs());
    files.extend(binding::go_inputs());
    files.extend(sdk::go_inputs());
    files.extend(envelope::go_inputs());
    files
}

/// `sha256:<hex>` of bytes, with the same hashing code for every contender.
pub fn sha256(bytes: &[u8]) -> String {
    jetjson::digest_bytes(bytes, jetjson::Algorithm::Sha256)
}

/// `simd-json` parses in place: every call parses a fresh copy, as a caller
/// holding an immutable body must do. The copy is part of its time.
pub fn simd_typed<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<T, simd_json::Error> {
    let mut copy = bytes.to_vec();
    simd_json::serde::from_slice(&mut copy)
}

#[cfg(test)]
mod tests {
    /// The Go module benchmarks the files in `bench/go/testdata/`; they must
    /// be what the generators make now (`jetjson-bench --write-go-data
    /// bench/go/testdata` refreshes them).
    #[test]
    fn go_inputs_are_current() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bench/go/testdata");
        for (name, bytes) in super::go_inputs() {
            let on_disk = std::fs::read(dir.join(&name)).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(
                on_disk == bytes,
                "bench/go/testdata/{name} is stale: run `cargo run -p jetjson-bench -- --write-go-data bench/go/testdata`"
            );
        }
    }
}
