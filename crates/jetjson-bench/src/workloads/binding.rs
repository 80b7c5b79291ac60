//! Workload 2, an HTTP framework's JSON binder: a ~1 KiB request body bound
//! to a typed record, many times, with time and allocations per call; plus
//! the two rejections a binder must make: a body with trailing data after
//! the value, and a body over the size limit.
//!
//! The peers have no size limit of their own, so for them the binder does
//! what frameworks do: reads at most limit + 1 bytes and refuses a longer
//! body (`Read::take`); jetjson's `from_reader_with` stops at the limit
//! itself. An in-memory body (`bind`) needs only a length check.

use std::io::Read;

use serde::{Deserialize, Serialize};

use super::simd_typed;
use crate::harness::{Job, Meta, Runner};
use crate::rng::Rng;

/// The body size limit of the binder.
pub const LIMIT: usize = 16 * 1024;
/// The oversized body: 1 MiB of note text.
pub const OVERSIZE: usize = 1 << 20;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Customer {
    pub id: u64,
    pub name: String,
    pub email: String,
    pub phone: Option<String>,
    pub loyalty_member: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Address {
    pub line1: String,
    pub line2: Option<String>,
    pub city: String,
    pub region: String,
    pub postal_code: String,
    pub country: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LineItem {
    pub sku: String,
    pub name: String,
    pub quantity: u32,
    pub unit_price: f64,
    pub discount_percent: f64,
}

/// The bound record: a create-order request.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CreateOrder {
    pub request_id: String,
    pub customer: Customer,
    pub shipping_address: Address,
    pub items: Vec<LineItem>,
    pub currency: String,
    pub coupon_code: Option<String>,
    pub gift: bool,
    pub notes: String,
    pub tags: Vec<String>,
    pub idempotency_key: String,
}

pub fn record(seed: u64) -> CreateOrder {
    let mut rng = Rng::new(seed);
    let items = (0..4)
        .map(|_| LineItem {
            sku: format!("SKU-{}", rng.word(8).to_uppercase()),
            name: rng.sentence(22),
            quantity: rng.range(1, 12) as u32,
            unit_price: rng.money(50_000),
            discount_percent: rng.below(4) as f64 * 5.0,
        })
        .collect();
    CreateOrder {
        request_id: format!("req_{}", rng.hex(24)),
        customer: Customer {
            id: rng.range(1, 1 << 40),
            name: format!("{} {}", rng.word(7), rng.word(9)),
            email: format!("{}@{}.example.com", rng.word(10), rng.word(6)),
            phone: Some(format!("+1-555-{:04}", rng.below(10_000))),
            loyalty_member: true,
        },
        shipping_address: Address {
            line1: format!("{} {} street", rng.range(1, 9999), rng.word(9)),
            line2: None,
            city: rng.word(10),
            region: rng.word(2).to_uppercase(),
            postal_code: format!("{:05}", rng.below(100_000)),
            country: "US".into(),
        },
        items,
        currency: "USD".into(),
        coupon_code: Some(rng.word(10).to_uppercase()),
        gift: false,
        notes: rng.sentence(120),
        tags: (0..5).map(|_| rng.word(6)).collect(),
        idempotency_key: rng.hex(32),
    }
}

/// The request body (compact, as clients send it).
pub fn body() -> Vec<u8> {
    serde_json::to_vec(&record(201)).unwrap()
}

/// A valid value followed by more data: a binder must refuse it.
pub fn trailing_body() -> Vec<u8> {
    let mut b = body();
    b.extend_from_slice(b" {\"smuggled\":true}");
    b
}

/// A well-formed body of 1 MiB: `{"notes":"xxx…"}`; the same in Go.
pub fn oversize_body() -> Vec<u8> {
    let mut b = b"{\"notes\":\"".to_vec();
    b.resize(OVERSIZE - 2, b'x');
    b.extend_from_slice(b"\"}");
    b
}

pub fn go_inputs() -> Vec<(String, Vec<u8>)> {
    // The body as clients send it, and as Go writes the record back
    // (floats spelled Go's way), for the Go module's check.
    let go = jetjson::to_vec_with(&record(201), &jetjson::WriteOptions::go()).unwrap();
    vec![("binding-body.json".into(), body()), ("binding-body-go.json".into(), go)]
}

/// The peers' limited read: at most `LIMIT + 1` bytes, refused if longer.
fn read_limited(mut body: &[u8]) -> Option<Vec<u8>> {
    let mut buf = Vec::new();
    (&mut body).take(LIMIT as u64 + 1).read_to_end(&mut buf).ok()?;
    (buf.len() <= LIMIT).then_some(buf)
}

pub fn run(runner: &mut Runner) {
    let want = record(201);
    let body = body();
    let trailing = trailing_body();
    let oversize = oversize_body();
    let limits = jetjson::ReadOptions::new().max_size(LIMIT);
    let fits = |b: &[u8]| b.len() <= LIMIT;

    let b = &body[..];
    assert_eq!(jetjson::from_slice_with::<CreateOrder>(b, &limits).unwrap(), want, "jetjson bind");
    assert_eq!(serde_json::from_slice::<CreateOrder>(b).unwrap(), want, "serde_json bind");
    assert_eq!(sonic_rs::from_slice::<CreateOrder>(b).unwrap(), want, "sonic-rs bind");
    assert_eq!(simd_typed::<CreateOrder>(b).unwrap(), want, "simd-json bind");
    let l = &limits;
    let jobs: Vec<Job<'_>> = vec![
        ("jetjson", Box::new(|| jetjson::from_slice_with::<CreateOrder>(b, l).map(|r| r.items.len()).unwrap())),
        ("serde_json", Box::new(|| fits(b).then(|| serde_json::from_slice::<CreateOrder>(b).unwrap().items.len()).unwrap())),
        ("sonic-rs", Box::new(|| fits(b).then(|| sonic_rs::from_slice::<CreateOrder>(b).unwrap().items.len()).unwrap())),
        ("simd-json", Box::new(|| fits(b).then(|| simd_typed::<CreateOrder>(b).unwrap().items.len()).unwrap())),
    ];
    runner.row(Meta::new("binding", "order-1k", "bind", body.len()).note("in-memory body; simd-json copies it per call"), &jobs);

    // A refusal is checked to be the right one, not just any failure.
    let t = &trailing[..];
    let err = jetjson::from_slice_with::<CreateOrder>(t, &limits).unwrap_err();
    assert!(matches!(err.kind(), jetjson::ErrorKind::Syntax { .. }), "jetjson trailing: {err}");
    assert!(serde_json::from_slice::<CreateOrder>(t).unwrap_err().is_syntax(), "serde_json trailing");
    assert!(sonic_rs::from_slice::<CreateOrder>(t).is_err(), "sonic-rs trailing");
    let simd_accepts_trailing = simd_typed::<CreateOrder>(t).is_ok();
    let mut jobs: Vec<Job<'_>> = vec![
        ("jetjson", Box::new(|| jetjson::from_slice_with::<CreateOrder>(t, l).is_err() as usize)),
        ("serde_json", Box::new(|| serde_json::from_slice::<CreateOrder>(t).is_err() as usize)),
        ("sonic-rs", Box::new(|| sonic_rs::from_slice::<CreateOrder>(t).is_err() as usize)),
    ];
    // A library that accepts the body does not refuse it fast; it is left out.
    if !simd_accepts_trailing {
        jobs.push(("simd-json", Box::new(|| simd_typed::<CreateOrder>(t).is_err() as usize)));
    }
    let note = if simd_accepts_trailing { "simd-json accepts trailing data: not measured" } else { "" };
    runner.row(Meta::new("binding", "order-1k", "reject-trailing", trailing.len()).note(note), &jobs);

    let o = &oversize[..];
    let err = jetjson::from_reader_with::<_, CreateOrder>(o, &limits).unwrap_err();
    assert!(matches!(err.kind(), jetjson::ErrorKind::SizeLimit { .. }), "jetjson oversize: {err}");
    assert!(read_limited(o).is_none() && read_limited(b).is_some(), "limited read");
    let jobs: Vec<Job<'_>> = vec![
        ("jetjson", Box::new(|| jetjson::from_reader_with::<_, CreateOrder>(o, l).is_err() as usize)),
        ("serde_json", Box::new(|| read_limited(o).map(|v| serde_json::from_slice::<CreateOrder>(&v).is_ok()).is_none() as usize)),
        ("sonic-rs", Box::new(|| read_limited(o).map(|v| sonic_rs::from_slice::<CreateOrder>(&v).is_ok()).is_none() as usize)),
    ];
    runner.row(
        Meta::new("binding", "order-1k", "reject-oversize", oversize.len())
            .note("1 MiB body from a reader, 16 KiB limit; MB/s not meaningful"),
        &jobs,
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn body_is_about_one_kib() {
        let n = body().len();
        assert!((900..=1200).contains(&n), "{n} bytes");
        assert_eq!(oversize_body().len(), OVERSIZE);
        assert!(serde_json::from_slice::<serde_json::Value>(&oversize_body()).is_ok());
    }

    #[test]
    fn every_row_runs_and_checks() {
        run(&mut Runner::smoke());
    }
}
