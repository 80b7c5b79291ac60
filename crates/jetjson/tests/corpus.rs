//! The third-party corpus: RFC 8785 vectors, serde_json byte equality on the
//! benchmark documents, OCI digests, nativejson round trips.

mod common;

use common::*;
use jetjson::{Number, Value, WriteOptions};

fn read(path: &str) -> Vec<u8> {
    std::fs::read(corpus(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn files(dir: &str, ext: &str) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(corpus(dir))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(ext))
        .map(|n| format!("{dir}/{n}"))
        .collect();
    v.sort();
    v
}

#[test]
fn rfc8785_vectors() {
    let inputs = files("jcs/input", ".json");
    assert_eq!(inputs.len(), 6);
    for input in inputs {
        let name = input.rsplit('/').next().unwrap();
        let v = Value::from_slice(&read(&input)).unwrap();
        let got = v.to_vec_with(&WriteOptions::jcs()).unwrap();
        assert_eq!(show(&got), show(&read(&format!("jcs/output/{name}"))), "{name}");
        let hex: Vec<String> = got.iter().map(|b| format!("{b:02x}")).collect();
        let want_hex = String::from_utf8(read(&format!("jcs/outhex/{}", name.replace(".json", ".txt")))).unwrap();
        let want_hex: Vec<&str> = want_hex.split_whitespace().collect();
        assert_eq!(hex, want_hex, "{name} outhex");
        // The serde path canonicalizes the same way.
        assert_eq!(jetjson::to_vec_with(&v, &WriteOptions::jcs()).unwrap(), got);
    }
}

fn bench_documents() -> Vec<String> {
    let mut docs = files("bench/nativejson-benchmark", ".json");
    docs.extend(files("bench/simdjson", ".json"));
    docs
}

#[test]
fn compact_equals_serde_json_on_the_benchmark_documents() {
    fn same_bytes(got: &[u8], want: &[u8], what: &str) {
        if got != want {
            let i = got.iter().zip(want).position(|(a, b)| a != b).unwrap_or(got.len().min(want.len()));
            let lo = i.saturating_sub(40);
            panic!(
                "{what}: first difference at byte {i}\n ours: {}\n want: {}",
                show(&got[lo..(i + 40).min(got.len())]),
                show(&want[lo..(i + 40).min(want.len())])
            );
        }
    }
    for path in bench_documents() {
        let bytes = read(&path);
        let sv: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        let want = serde_json::to_vec(&sv).unwrap();
        // serde types through our serializer.
        same_bytes(&jetjson::to_vec(&sv).unwrap(), &want, &format!("{path} (serde path)"));
        // Our own Value, sorted like serde_json's BTreeMap.
        let ours = Value::from_slice(&bytes).unwrap();
        let got = ours.to_vec_with(&WriteOptions::compact().sort_keys(true)).unwrap();
        same_bytes(&got, &want, &format!("{path} (Value path)"));
        // Indented output equals serde_json's pretty printer.
        let pretty = serde_json::to_vec_pretty(&sv).unwrap();
        same_bytes(&jetjson::to_vec_with(&sv, &WriteOptions::compact().indent(2)).unwrap(), &pretty, &format!("{path} (pretty)"));
    }
}

#[test]
fn compact_equals_serde_json_on_go_documents() {
    for path in files("go/jsontest", ".json.zst") {
        let out = std::process::Command::new("zstd").args(["-dc"]).arg(corpus(&path)).output().expect("zstd");
        assert!(out.status.success());
        let sv: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(show(&jetjson::to_vec(&sv).unwrap()), show(&serde_json::to_vec(&sv).unwrap()), "{path}");
    }
}

/// Equality up to number representation: a float written as `100` in `go`
/// reads back as an integer; both stand for the same double.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x == y || numeric(x) == numeric(y),
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q)),
        (Value::Object(x), Value::Object(y)) => x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w))),
        _ => a == b,
    }
}

fn numeric(n: &Number) -> Option<f64> {
    n.as_f64().map(|f| if f == 0.0 { 0.0 } else { f })
}

#[test]
fn every_document_round_trips_in_every_profile() {
    let mut docs = bench_documents();
    for line in String::from_utf8(read("oci/CATALOG.tsv")).unwrap().lines().skip(1) {
        docs.push(format!("oci/{}", line.split('\t').next().unwrap()));
    }
    for path in docs {
        let v = Value::from_slice(&read(&path)).unwrap_or_else(|e| panic!("{path}: {e}"));
        for opts in [WriteOptions::compact(), WriteOptions::go(), WriteOptions::jcs(), WriteOptions::go().indent(3)] {
            let out = v.to_vec_with(&opts).unwrap();
            let back = Value::from_slice(&out).unwrap();
            // jcs turns big integers into doubles: compare through doubles.
            assert!(same(&v, &back), "{path} {opts:?}");
            // Writing is idempotent.
            assert_eq!(show(&back.to_vec_with(&opts).unwrap()), show(&out), "{path} {opts:?} idempotent");
        }
    }
}

#[test]
fn oci_digests_are_over_the_stored_bytes() {
    let catalog = String::from_utf8(read("oci/CATALOG.tsv")).unwrap();
    let mut checked = 0;
    for line in catalog.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        let bytes = read(&format!("oci/{}", cols[0]));
        assert_eq!(bytes.len().to_string(), cols[1], "{}", cols[0]);
        let digest = jetjson::digest_bytes(&bytes, jetjson::Algorithm::Sha256);
        assert_eq!(digest, cols[2], "{}", cols[0]);
        if cols[5].contains("sha256 of the exact stored bytes") {
            assert_eq!(digest, cols[4], "{}", cols[0]);
        }
        checked += 1;
    }
    assert_eq!(checked, 28);
}

#[test]
fn nativejson_roundtrip_documents_are_reproduced_byte_for_byte() {
    let docs = files("nativejson-roundtrip", ".json");
    assert_eq!(docs.len(), 27);
    for path in docs {
        let bytes = read(&path);
        let v = Value::from_slice(&bytes).unwrap();
        // These files predate serde_json 1.0.147, which (like orjson, Go and
        // ECMAScript) writes a '+' in positive exponents; compact follows the
        // current serde_json, so that one spelling is the expected difference.
        let want = show(&bytes).replace("e308", "e+308");
        assert_eq!(show(&v.to_vec_with(&WriteOptions::compact()).unwrap()), want, "{path}");
    }
}
