//! String escaping throughput: every escape kernel this CPU runs, next to
//! serde_json's string serialisation, on
//!
//! * 10 MiB of clean ASCII (the bulk-copy ceiling),
//! * 10 MiB of ASCII with 2% quotes and 1% control bytes at random places,
//! * 10 MiB of prose full of U+2xxx punctuation (curly quotes, dashes) and
//!   a few U+2028: the line-separator test must not leave the vector path
//!   for the other E2 sequences,
//! * every key and string value of twitter.json (about 20 bytes each),
//! * every key and string value of gsoc-2018.json (3 MB: mostly long
//!   prose with newlines, quotes and a few `&`),
//!
//! each for the compact set (base escapes only) and Go's set (HTML + line
//! separators). Strings are written with their quotes, as a writer does.
//!
//! Criterion prints its usual report; a summary table with GB/s (of input
//! string bytes) and the ratio to serde_json follows at the end.
//! Run: `cargo bench -p jetjson --bench escape` (`-- twitter` to filter).

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput};
use jetjson::escape::{EscapeSet, Escaper};

const MIB: usize = 1 << 20;

const TWITTER: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/corpus/bench/nativejson-benchmark/twitter.json");
const GSOC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/corpus/bench/simdjson/gsoc-2018.json");

const COMPACT: EscapeSet = EscapeSet { html: false, line_separators: false, ascii_only: false };
const GO: EscapeSet = EscapeSet { html: true, line_separators: true, ascii_only: false };

struct Input {
    name: &'static str,
    strings: Vec<String>,
    bytes: usize,
}

impl Input {
    fn new(name: &'static str, strings: Vec<String>) -> Input {
        let bytes = strings.iter().map(String::len).sum();
        Input { name, strings, bytes }
    }
}

/// xorshift64*: reproducible inputs without a dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

fn clean_ascii(len: usize) -> String {
    let mut rng = Rng(1);
    (0..len).map(|_| (b'a' + (rng.next() % 26) as u8) as char).collect()
}

fn dirty_ascii(len: usize) -> String {
    let mut rng = Rng(2);
    (0..len)
        .map(|_| {
            let r = rng.next() % 1000;
            match r {
                0..=19 => '"',
                20..=29 => (rng.next() % 0x20) as u8 as char,
                _ => (b'a' + (r % 26) as u8) as char,
            }
        })
        .collect()
}

fn unicode_prose(len: usize) -> String {
    let words = [
        "the ",
        "\u{201C}quoted\u{201D} ",
        "it\u{2019}s ",
        "dash\u{2014}",
        "arrow\u{2192} ",
        "caf\u{e9} ",
        "\u{2026} ",
        "plain ",
        "text ",
        "\u{2028}",
    ];
    let mut rng = Rng(3);
    let mut s = String::with_capacity(len + 16);
    while s.len() < len {
        // U+2028 (the last word) one time in a thousand.
        let roll = (rng.next() % 9000) as usize;
        let pick = if roll < 9 { 9 } else { roll % 9 };
        s.push_str(words[pick]);
    }
    s
}

fn document_strings(path: &str) -> Option<Vec<String>> {
    let text = std::fs::read(path).ok()?;
    let value: serde_json::Value = serde_json::from_slice(&text).ok()?;
    let mut strings = Vec::new();
    fn walk(v: &serde_json::Value, out: &mut Vec<String>) {
        match v {
            serde_json::Value::String(s) => out.push(s.clone()),
            serde_json::Value::Array(items) => items.iter().for_each(|x| walk(x, out)),
            serde_json::Value::Object(map) => {
                for (k, x) in map {
                    out.push(k.clone());
                    walk(x, out);
                }
            }
            _ => {}
        }
    }
    walk(&value, &mut strings);
    Some(strings)
}

struct Row {
    input: &'static str,
    set: &'static str,
    implementation: String,
    bytes: usize,
    per_iter: Duration,
}

/// Runs one benchmark through criterion, timing the iterations itself too
/// (`iter_custom`) so the summary table can report medians and ratios.
fn bench(
    group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    name: &str,
    input: &Input,
    mut write: impl FnMut(&mut Vec<u8>, &str),
) -> Option<Duration> {
    let mut samples: Vec<Duration> = Vec::new();
    let mut out = Vec::with_capacity(input.bytes * 2 + input.strings.len() * 2);
    group.bench_function(name, |b| {
        b.iter_custom(|iters| {
            let start = Instant::now();
            for _ in 0..iters {
                out.clear();
                for s in &input.strings {
                    write(&mut out, black_box(s));
                }
                black_box(&out);
            }
            let elapsed = start.elapsed();
            samples.push(elapsed / iters.max(1) as u32);
            elapsed
        })
    });
    if samples.is_empty() {
        return None; // filtered out
    }
    samples.sort();
    Some(samples[samples.len() / 2])
}

fn main() {
    let mut criterion = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(20)
        .configure_from_args();

    let mut inputs = vec![
        Input::new("clean-ascii", vec![clean_ascii(10 * MIB)]),
        Input::new("3%-escapes", vec![dirty_ascii(10 * MIB)]),
        Input::new("u2xxx-prose", vec![unicode_prose(10 * MIB)]),
    ];
    for (name, path) in [("twitter-strings", TWITTER), ("gsoc-strings", GSOC)] {
        match document_strings(path) {
            Some(strings) => inputs.push(Input::new(name, strings)),
            None => eprintln!("skipping {name}: cannot read {path}"),
        }
    }

    let mut rows = Vec::new();
    for input in &inputs {
        for (set_name, set) in [("compact", COMPACT), ("go", GO)] {
            let mut group = criterion.benchmark_group(format!("escape/{}/{set_name}", input.name));
            group.throughput(Throughput::Bytes(input.bytes as u64));
            let mut record = |implementation: String, per_iter: Option<Duration>| {
                if let Some(per_iter) = per_iter {
                    rows.push(Row { input: input.name, set: set_name, implementation, bytes: input.bytes, per_iter });
                }
            };
            let serde = bench(&mut group, "serde_json", input, |out, s| {
                serde_json::to_writer(out, s).unwrap();
            });
            record("serde_json".to_string(), serde);
            for escaper in Escaper::all_available(set) {
                let per_iter = bench(&mut group, escaper.isa_name(), input, |out, s| {
                    out.push(b'"');
                    escaper.escape(out, s);
                    out.push(b'"');
                });
                record(format!("jetjson-{}", escaper.isa_name()), per_iter);
            }
            group.finish();
        }
    }
    criterion.final_summary();

    println!();
    println!("Summary (median per pass; GB/s of input string bytes; serde_json always escapes the compact set)");
    println!("{:<16} {:<8} {:<15} {:>9} {:>8} {:>10} {:>9}", "input", "set", "implementation", "size", "strings", "GB/s", "x serde");
    for row in &rows {
        let serde = rows.iter().find(|r| r.input == row.input && r.set == row.set && r.implementation == "serde_json").map(|r| r.per_iter);
        let gbps = row.bytes as f64 / row.per_iter.as_secs_f64() / 1e9;
        let ratio = serde.map_or(String::from("-"), |s| format!("{:.2}", s.as_secs_f64() / row.per_iter.as_secs_f64()));
        let strings = inputs.iter().find(|i| i.name == row.input).map_or(0, |i| i.strings.len());
        println!(
            "{:<16} {:<8} {:<15} {:>9} {:>8} {:>10.2} {:>9}",
            row.input,
            row.set,
            row.implementation,
            format_size(row.bytes),
            strings,
            gbps,
            ratio
        );
    }
}

fn format_size(bytes: usize) -> String {
    if bytes >= MIB {
        format!("{:.1} MiB", bytes as f64 / MIB as f64)
    } else {
        format!("{:.0} KiB", bytes as f64 / 1024.0)
    }
}
