//! The fuzz targets' checks as plain Rust: each `run(data)` panics on a
//! violated property and returns otherwise. Compiled by the libFuzzer
//! targets (`fuzz_targets/*.rs`) and by the stable replay test
//! (`crates/jetjson/tests/fuzz_replay.rs`), which runs the committed corpus
//! and the saved regressions through the same code.

pub mod common;
pub mod differential;
pub mod escape;
pub mod parse;
pub mod roundtrip;
