//! Serialization benchmark: jetjson (compact, go, jcs) against serde_json and
//! sonic-rs on the nativejson-benchmark and simdjson documents, in one run.
//!
//! For each document two criterion groups:
//!
//! * `write/<doc>/value`: DOM serialization. Each library writes its own DOM,
//!   parsed once before timing (jetjson `Value::to_vec_with`, serde_json
//!   `Value` (a `BTreeMap`, so its members come out sorted), `sonic_rs::Value`).
//! * `write/<doc>/typed`: serde serialization of the typed model in
//!   `benches/schema/`, deserialized once with serde_json before timing.
//!
//! Bench ids: `jetjson-compact`, `jetjson-go`, `jetjson-jcs`, `serde_json`,
//! `sonic-rs`. Throughput is the size of the input document.
//!
//! Before timing, each document is checked:
//!
//! * the typed model is faithful: `serde_json::to_value(typed)` equals the
//!   parsed document (numbers compared by value, so `-65` in canada.json equals
//!   the `-65.0` an `f64` field writes back). A mismatch is a schema bug and
//!   panics.
//! * jetjson compact output of the typed model equals serde_json's byte for
//!   byte, and the Value rows agree with each other. A mismatch is reported
//!   (first differing byte with context) and the timing goes on; set
//!   `JETJSON_BENCH_STRICT=1` to panic instead.
//!
//! `JETJSON_BENCH_QUICK=1`: 10 samples of 0.5 s, for smoke checks.
//!
//! Run: `cargo bench -p jetjson --bench write`, then `python3 bench/write_report.py`.

use std::cell::RefCell;
use std::hint::black_box;
use std::time::Duration;

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, Throughput};
use serde::de::DeserializeOwned;
use serde::Serialize;

#[path = "schema/mod.rs"]
mod schema;

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/corpus/bench/");

thread_local! {
    /// Correctness findings, repeated after the timing.
    static FINDINGS: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
}

fn env_flag(name: &str) -> bool {
    std::env::var(name).map(|v| !v.is_empty() && v != "0").unwrap_or(false)
}

fn quick() -> bool {
    env_flag("JETJSON_BENCH_QUICK")
}

fn read(rel: &str) -> Vec<u8> {
    let path = format!("{CORPUS}{rel}");
    std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"))
}

/// Records a correctness problem: printed now and in the final summary;
/// panics under `JETJSON_BENCH_STRICT=1`.
fn finding(msg: String) {
    eprintln!("\n*** CORRECTNESS: {msg}\n");
    if env_flag("JETJSON_BENCH_STRICT") {
        panic!("{msg}");
    }
    FINDINGS.with(|f| f.borrow_mut().push(msg));
}

/// `None` when equal, else where and how the two outputs first differ.
fn first_difference(ours: &[u8], theirs: &[u8]) -> Option<String> {
    if ours == theirs {
        return None;
    }
    let at = ours.iter().zip(theirs).position(|(a, b)| a != b).unwrap_or(ours.len().min(theirs.len()));
    let window = |s: &[u8]| {
        let lo = at.saturating_sub(60);
        let hi = (at + 60).min(s.len());
        String::from_utf8_lossy(&s[lo..hi]).into_owned()
    };
    Some(format!(
        "first difference at byte {at} (lengths {} vs {})\n    ours:   ...{}...\n    theirs: ...{}...",
        ours.len(),
        theirs.len(),
        window(ours),
        window(theirs)
    ))
}

/// Structural equality of two serde_json values, numbers compared by value
/// (an integer equals the float of the same value). `Err(path)` on mismatch.
fn json_eq(a: &serde_json::Value, b: &serde_json::Value, path: &mut String) -> Result<(), String> {
    use serde_json::Value as V;
    match (a, b) {
        (V::Null, V::Null) => Ok(()),
        (V::Bool(x), V::Bool(y)) if x == y => Ok(()),
        (V::String(x), V::String(y)) if x == y => Ok(()),
        (V::Number(x), V::Number(y)) => {
            let same = if x.is_f64() || y.is_f64() { x.as_f64() == y.as_f64() } else { x == y };
            if same {
                Ok(())
            } else {
                Err(format!("{path}: {x} vs {y}"))
            }
        }
        (V::Array(x), V::Array(y)) => {
            if x.len() != y.len() {
                return Err(format!("{path}: array length {} vs {}", x.len(), y.len()));
            }
            for (i, (p, q)) in x.iter().zip(y).enumerate() {
                let len = path.len();
                path.push_str(&format!("[{i}]"));
                json_eq(p, q, path)?;
                path.truncate(len);
            }
            Ok(())
        }
        (V::Object(x), V::Object(y)) => {
            if let Some(k) = x.keys().find(|k| !y.contains_key(*k)) {
                return Err(format!("{path}: member {k:?} only in the model's output"));
            }
            if let Some(k) = y.keys().find(|k| !x.contains_key(*k)) {
                return Err(format!("{path}: member {k:?} missing from the model's output"));
            }
            for (k, p) in x {
                let len = path.len();
                path.push_str(&format!(".{k}"));
                json_eq(p, &y[k], path)?;
                path.truncate(len);
            }
            Ok(())
        }
        _ => Err(format!("{path}: {} vs {}", short(a), short(b))),
    }
}

fn short(v: &serde_json::Value) -> String {
    let s = v.to_string();
    if s.len() > 80 {
        format!("{}...", &s[..80])
    } else {
        s
    }
}

struct Profiles {
    compact: jetjson::WriteOptions,
    go: jetjson::WriteOptions,
    jcs: jetjson::WriteOptions,
}

impl Profiles {
    fn new() -> Profiles {
        Profiles { compact: jetjson::WriteOptions::compact(), go: jetjson::WriteOptions::go(), jcs: jetjson::WriteOptions::jcs() }
    }
    fn each(&self) -> [(&'static str, &jetjson::WriteOptions); 3] {
        [("jetjson-compact", &self.compact), ("jetjson-go", &self.go), ("jetjson-jcs", &self.jcs)]
    }
}

fn configure<'a>(c: &'a mut Criterion, name: String, len: usize) -> BenchmarkGroup<'a, WallTime> {
    let mut g = c.benchmark_group(name);
    g.throughput(Throughput::Bytes(len as u64));
    if quick() {
        g.sample_size(10).measurement_time(Duration::from_millis(500)).warm_up_time(Duration::from_millis(100));
    } else {
        g.sample_size(20).measurement_time(Duration::from_secs(2)).warm_up_time(Duration::from_millis(500));
    }
    g
}

fn bench_document<T: Serialize + DeserializeOwned>(c: &mut Criterion, name: &str, rel: &str) {
    let input = read(rel);
    let p = Profiles::new();
    eprintln!("== {name}: {rel}, {} bytes", input.len());

    // ---- DOM serialization -------------------------------------------------
    let jv = jetjson::Value::from_slice(&input).unwrap_or_else(|e| panic!("{name}: jetjson parse: {e:?}"));
    let sv: serde_json::Value = serde_json::from_slice(&input).expect("serde_json parse");
    let rv: sonic_rs::Value = sonic_rs::from_slice(&input).expect("sonic-rs parse");

    let mut jetjson_ok = Vec::new();
    for (id, opts) in p.each() {
        match jv.to_vec_with(opts) {
            Ok(out) => {
                // Every profile must write the same document back.
                match serde_json::from_slice::<serde_json::Value>(&out) {
                    Ok(back) => {
                        if let Err(at) = json_eq(&back, &sv, &mut String::from("$")) {
                            finding(format!("{name}/value {id}: output does not read back as the document: {at}"));
                        }
                    }
                    Err(e) => finding(format!("{name}/value {id}: output is not JSON: {e}")),
                }
                jetjson_ok.push((id, opts, out));
            }
            Err(e) => finding(format!("{name}/value {id}: write failed: {e:?}; not timed")),
        }
    }
    // Both keep insertion order; jetjson compact and sonic-rs should agree.
    if let Some((_, _, compact)) = jetjson_ok.iter().find(|(id, _, _)| *id == "jetjson-compact") {
        let sonic = sonic_rs::to_vec(&rv).expect("sonic-rs write");
        if let Some(d) = first_difference(compact, &sonic) {
            eprintln!("note: {name}/value jetjson-compact differs from sonic-rs (informational): {d}");
        }
    }

    {
        let mut g = configure(c, format!("write/{name}/value"), input.len());
        for (id, opts, _) in &jetjson_ok {
            g.bench_function(*id, |b| b.iter(|| black_box(&jv).to_vec_with(opts).unwrap()));
        }
        g.bench_function("serde_json", |b| b.iter(|| serde_json::to_vec(black_box(&sv)).unwrap()));
        g.bench_function("sonic-rs", |b| b.iter(|| sonic_rs::to_vec(black_box(&rv)).unwrap()));
        g.finish();
    }
    drop((jv, rv));

    // ---- typed serialization -----------------------------------------------
    let typed: T = serde_json::from_slice(&input).unwrap_or_else(|e| panic!("{name}: typed model does not read the document: {e}"));
    let model = serde_json::to_value(&typed).expect("serde_json to_value");
    if let Err(at) = json_eq(&model, &sv, &mut String::from("$")) {
        panic!("{name}: typed model does not round-trip the document: {at}");
    }
    drop((model, sv));

    let serde_out = serde_json::to_vec(&typed).expect("serde_json write");
    let mut typed_ok = Vec::new();
    for (id, opts) in p.each() {
        match jetjson::to_vec_with(&typed, opts) {
            Ok(out) => {
                if id == "jetjson-compact" {
                    match first_difference(&out, &serde_out) {
                        None => eprintln!("ok: {name}/typed jetjson-compact == serde_json ({} bytes)", out.len()),
                        Some(d) => finding(format!("{name}/typed jetjson-compact differs from serde_json::to_vec: {d}")),
                    }
                } else if let Err(e) = serde_json::from_slice::<serde_json::Value>(&out) {
                    finding(format!("{name}/typed {id}: output is not JSON: {e}"));
                }
                typed_ok.push((id, opts));
            }
            Err(e) => finding(format!("{name}/typed {id}: write failed: {e:?}; not timed")),
        }
    }
    let sonic_out = sonic_rs::to_vec(&typed).expect("sonic-rs write");
    if let Some(d) = first_difference(&sonic_out, &serde_out) {
        eprintln!("note: {name}/typed sonic-rs differs from serde_json (informational): {d}");
    }
    drop((serde_out, sonic_out));

    let mut g = configure(c, format!("write/{name}/typed"), input.len());
    for (id, opts) in &typed_ok {
        g.bench_function(*id, |b| b.iter(|| jetjson::to_vec_with(black_box(&typed), opts).unwrap()));
    }
    g.bench_function("serde_json", |b| b.iter(|| serde_json::to_vec(black_box(&typed)).unwrap()));
    g.bench_function("sonic-rs", |b| b.iter(|| sonic_rs::to_vec(black_box(&typed)).unwrap()));
    g.finish();
}

fn main() {
    let mut c = Criterion::default().configure_from_args();

    bench_document::<schema::twitter::Twitter>(&mut c, "twitter", "nativejson-benchmark/twitter.json");
    bench_document::<schema::citm_catalog::Catalog>(&mut c, "citm_catalog", "nativejson-benchmark/citm_catalog.json");
    bench_document::<schema::canada::FeatureCollection>(&mut c, "canada", "nativejson-benchmark/canada.json");
    bench_document::<schema::github_events::Events>(&mut c, "github_events", "simdjson/github_events.json");
    bench_document::<schema::gsoc_2018::Projects>(&mut c, "gsoc-2018", "simdjson/gsoc-2018.json");

    c.final_summary();

    let findings = FINDINGS.with(|f| f.take());
    if findings.is_empty() {
        eprintln!("\ncorrectness: all checks passed");
    } else {
        eprintln!("\ncorrectness: {} problem(s):", findings.len());
        for f in &findings {
            eprintln!("  - {f}");
        }
    }
}
