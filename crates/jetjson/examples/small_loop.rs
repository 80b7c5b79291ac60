//! Small documents parsed in a loop, one process per build, for comparing
//! the portable build (no target flags) with `-C target-cpu=native` under
//! callgrind or a clock: the workload suite's request body (`bind`, the
//! `CreateOrder` model of `jetjson-bench/src/workloads/binding.rs`), its OCI
//! manifests (`manifest`, the image-spec model of `workloads/oci.rs`), or
//! any file as a `Value` (`value`).
//!
//! `cargo run --release -p jetjson --example small_loop -- KIND FILE [ITERATIONS]`
//!
//! e.g. `small_loop bind bench/go/testdata/binding-body.json 200000`,
//! `small_loop manifest bench/go/testdata/oci-manifest-5.json`. Prints the
//! mean time per parse in ns (best of five runs of ITERATIONS / 5).
use std::collections::BTreeMap;
use std::time::Instant;

use serde::Deserialize;

#[allow(dead_code)]
#[derive(Deserialize)]
struct Customer {
    id: u64,
    name: String,
    email: String,
    phone: Option<String>,
    loyalty_member: bool,
}

#[allow(dead_code)]
#[derive(Deserialize)]
struct Address {
    line1: String,
    line2: Option<String>,
    city: String,
    region: String,
    postal_code: String,
    country: String,
}

#[allow(dead_code)]
#[derive(Deserialize)]
struct LineItem {
    sku: String,
    name: String,
    quantity: u32,
    unit_price: f64,
    discount_percent: f64,
}

#[allow(dead_code)]
#[derive(Deserialize)]
struct CreateOrder {
    request_id: String,
    customer: Customer,
    shipping_address: Address,
    items: Vec<LineItem>,
    currency: String,
    coupon_code: Option<String>,
    gift: bool,
    notes: String,
    tags: Vec<String>,
    idempotency_key: String,
}

#[allow(dead_code)]
#[derive(Deserialize)]
struct Platform {
    architecture: String,
    os: String,
    #[serde(rename = "os.version", default)]
    os_version: Option<String>,
    #[serde(rename = "os.features", default)]
    os_features: Option<Vec<String>>,
    #[serde(default)]
    variant: Option<String>,
}

#[allow(dead_code)]
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Descriptor {
    media_type: String,
    digest: String,
    size: i64,
    #[serde(default)]
    urls: Option<Vec<String>>,
    #[serde(default)]
    annotations: Option<BTreeMap<String, String>>,
    #[serde(default)]
    platform: Option<Platform>,
}

#[allow(dead_code)]
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Manifest {
    schema_version: i32,
    media_type: String,
    config: Descriptor,
    layers: Vec<Descriptor>,
    #[serde(default)]
    subject: Option<Descriptor>,
    #[serde(default)]
    annotations: Option<BTreeMap<String, String>>,
}

fn once(kind: &str, bytes: &[u8]) -> usize {
    match kind {
        "bind" => jetjson::from_slice::<CreateOrder>(bytes).expect("a CreateOrder").items.len(),
        "manifest" => jetjson::from_slice::<Manifest>(bytes).expect("a Manifest").layers.len(),
        "value" => jetjson::Value::from_slice(bytes).expect("valid JSON").is_null() as usize,
        other => panic!("unknown kind {other} (bind, manifest, value)"),
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let kind = args.next().expect("usage: small_loop KIND FILE [ITERATIONS]");
    let path = args.next().expect("usage: small_loop KIND FILE [ITERATIONS]");
    let n: usize = args.next().map_or(100_000, |s| s.parse().expect("ITERATIONS is a number"));
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut kept = 0usize;
    let mut best = f64::INFINITY;
    for _ in 0..5 {
        let t = Instant::now();
        for _ in 0..n.div_ceil(5) {
            kept += once(&kind, std::hint::black_box(&bytes));
        }
        best = best.min(t.elapsed().as_secs_f64() * 1e9 / n.div_ceil(5) as f64);
    }
    println!("{best:.1} ns {kept}");
}
