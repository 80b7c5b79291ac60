//! Replays the fuzz targets' committed corpora (`fuzz/corpus/<target>/`)
//! and saved regressions (`fuzz/regressions/<target>/`, crash inputs found
//! by `make fuzz`) through the same checks the libFuzzer targets run
//! (`fuzz/bodies/`), on stable Rust, as part of `cargo test`.

#[path = "../../../fuzz/bodies/mod.rs"]
mod bodies;

use std::path::{Path, PathBuf};

const FUZZ: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fuzz");

/// The serde path recurses up to max_depth (512) levels; unoptimised test
/// builds need more than the default 2 MiB test-thread stack for that.
const STACK: usize = 64 << 20;

fn inputs(target: &str) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in ["corpus", "regressions"] {
        let d = Path::new(FUZZ).join(dir).join(target);
        let Ok(entries) = std::fs::read_dir(&d) else { continue };
        for e in entries {
            let p = e.expect("directory entry").path();
            if p.is_file() {
                files.push(p);
            }
        }
    }
    files.sort();
    files
}

/// Runs `body` on every saved input of `target`; reports every failing
/// file (by name) rather than stopping at the first.
fn replay(target: &'static str, body: fn(&[u8]), at_least: usize) {
    let files = inputs(target);
    assert!(files.len() >= at_least, "{target}: {} saved inputs, expected at least {at_least} (run fuzz/seed.sh?)", files.len());
    let failures = std::thread::Builder::new()
        .stack_size(STACK)
        .spawn(move || {
            let mut failures = Vec::new();
            for f in &files {
                let data = std::fs::read(f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
                if let Err(panic) = std::panic::catch_unwind(|| body(&data)) {
                    let msg = panic.downcast_ref::<String>().cloned().or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()));
                    failures.push(format!("{}: {}", f.display(), msg.unwrap_or_default()));
                }
            }
            failures
        })
        .expect("spawn")
        .join()
        .expect("replay thread");
    assert!(failures.is_empty(), "{target}: {} failing input(s):\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn parse_corpus_and_regressions() {
    replay("parse", bodies::parse::run, 100);
}

#[test]
fn roundtrip_corpus_and_regressions() {
    replay("roundtrip", bodies::roundtrip::run, 100);
}

#[test]
fn differential_corpus_and_regressions() {
    replay("differential", bodies::differential::run, 100);
}

#[test]
fn escape_corpus_and_regressions() {
    replay("escape", bodies::escape::run, 20);
}
