//! libFuzzer entry point; the checks are in `bodies/roundtrip.rs`, shared with
//! the stable replay test.
#![no_main]

#[path = "../bodies/mod.rs"]
#[allow(dead_code)]
mod bodies;

libfuzzer_sys::fuzz_target!(|data: &[u8]| bodies::roundtrip::run(data));
