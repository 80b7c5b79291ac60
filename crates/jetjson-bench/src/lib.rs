//! Workload benchmarks of jetjson against serde_json, sonic-rs and simd-json
//! (Go's encoding/json runs the same inputs in `bench/go`).
//!
//! Every workload is a function that builds its inputs from a fixed seed,
//! checks each contender's output once, and hands its rows to a
//! [`harness::Runner`], which either measures them (the `jetjson-bench`
//! binary) or runs each body once (the tests, so the suite cannot rot).

pub mod alloc;
pub mod go_peer;
pub mod harness;
pub mod machine;
pub mod rng;
pub mod twin;
pub mod workloads;

/// Counts allocations per thread; the harness reads the counts around one
/// call of each contender.
#[global_allocator]
static GLOBAL: alloc::Counting = alloc::Counting;
