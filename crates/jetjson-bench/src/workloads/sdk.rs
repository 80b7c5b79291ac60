//! Workload 3, an SDK codec driven by a schema: a SIMPLE record of ten
//! scalar fields and a COMPLEX one (nested records, lists, maps, timestamps,
//! binary blobs). Operations: serialize, deserialize, deserialize with every
//! object's members in reverse order (a decoder that bets on the declared
//! order must not win only on friendly input), and the round trip.
//!
//! Blobs are base64 strings and timestamps RFC 3339 strings, as Go writes
//! `[]byte` and `time.Time`; the same (de)serialization code runs under
//! every Rust library. jetjson writes `compact` (the peers' bytes); the `go`
//! profile is shown too, being what Go's numbers compare with.

use std::collections::BTreeMap;
use std::fmt;

use base64::Engine as _;
use serde::de::{self, Deserializer, Visitor};
use serde::ser::Serializer;
use serde::{Deserialize, Serialize};

use super::simd_typed;
use super::timestamp::Timestamp;
use crate::harness::{Job, Meta, Runner};
use crate::rng::Rng;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Simple {
    pub id: u64,
    pub name: String,
    pub email: String,
    pub age: u32,
    pub active: bool,
    pub score: f64,
    pub balance_cents: i64,
    pub country: String,
    pub created_unix: i64,
    pub status: String,
}

/// Bytes written as a standard base64 string (Go's `[]byte`).
#[derive(Clone, Debug, PartialEq)]
pub struct Blob(pub Vec<u8>);

impl Serialize for Blob {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&base64::engine::general_purpose::STANDARD.encode(&self.0))
    }
}

impl<'de> Deserialize<'de> for Blob {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Blob, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Blob;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a base64 string")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Blob, E> {
                base64::engine::general_purpose::STANDARD.decode(s).map(Blob).map_err(E::custom)
            }
        }
        d.deserialize_str(V)
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Line {
    pub sku: String,
    pub quantity: u32,
    pub unit_price: f64,
    pub attributes: BTreeMap<String, String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TrackingEvent {
    pub at: Timestamp,
    pub code: String,
    pub location: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Shipment {
    pub carrier: String,
    pub tracking_number: String,
    pub shipped_at: Timestamp,
    pub delivered_at: Option<Timestamp>,
    pub events: Vec<TrackingEvent>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Attachment {
    pub name: String,
    pub content_type: String,
    pub data: Blob,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Complex {
    pub id: String,
    pub created_at: Timestamp,
    pub updated_at: Option<Timestamp>,
    pub owner: Simple,
    pub lines: Vec<Line>,
    pub shipments: Vec<Shipment>,
    pub metadata: BTreeMap<String, String>,
    pub counters: BTreeMap<String, i64>,
    pub signature: Blob,
    pub attachments: Vec<Attachment>,
    pub tags: Vec<String>,
    pub total: f64,
}

fn timestamp(rng: &mut Rng) -> Timestamp {
    // 2020..2030, millisecond precision as most services keep.
    Timestamp { secs: rng.range(1_577_836_800, 1_893_456_000) as i64, nanos: rng.below(1000) as u32 * 1_000_000 }
}

pub fn simple(rng: &mut Rng) -> Simple {
    Simple {
        id: rng.range(1, 1 << 53),
        name: format!("{} {}", rng.word(6), rng.word(8)),
        email: format!("{}@example.org", rng.word(9)),
        age: rng.range(18, 90) as u32,
        active: rng.chance(700),
        score: rng.below(100_000) as f64 / 1000.0,
        balance_cents: rng.range(0, 10_000_000) as i64 - 1_000_000,
        country: ["US", "DE", "JP", "BR", "IN", "FR"][rng.below(6) as usize].into(),
        created_unix: rng.range(1_577_836_800, 1_893_456_000) as i64,
        status: ["active", "suspended", "pending"][rng.below(3) as usize].into(),
    }
}

pub fn complex(rng: &mut Rng) -> Complex {
    let lines = (0..8)
        .map(|_| Line {
            sku: format!("SKU-{}", rng.word(8)),
            quantity: rng.range(1, 20) as u32,
            unit_price: rng.money(100_000),
            attributes: (0..3).map(|_| (rng.word(6), rng.sentence(12))).collect(),
        })
        .collect();
    let shipments = (0..3)
        .map(|i| Shipment {
            carrier: ["ups", "fedex", "dhl"][i].into(),
            tracking_number: rng.word(18).to_uppercase(),
            shipped_at: timestamp(rng),
            delivered_at: (i != 2).then(|| timestamp(rng)),
            events: (0..5)
                .map(|_| TrackingEvent { at: timestamp(rng), code: rng.word(4).to_uppercase(), location: rng.sentence(16) })
                .collect(),
        })
        .collect();
    Complex {
        id: format!("ord_{}", rng.hex(20)),
        created_at: timestamp(rng),
        updated_at: None,
        owner: simple(rng),
        lines,
        shipments,
        metadata: (0..10).map(|_| (format!("x-{}", rng.word(8)), rng.sentence(24))).collect(),
        counters: (0..10).map(|_| (rng.word(7), rng.range(0, 1 << 40) as i64)).collect(),
        signature: Blob(rng.bytes(64)),
        attachments: (0..2)
            .map(|_| Attachment {
                name: format!("{}.bin", rng.word(8)),
                content_type: "application/octet-stream".into(),
                data: Blob(rng.bytes(768)),
            })
            .collect(),
        tags: (0..6).map(|_| rng.word(5)).collect(),
        total: rng.money(10_000_000),
    }
}

/// The same JSON with every object's members in reverse order.
pub fn reversed(json: &[u8]) -> Vec<u8> {
    fn flip(v: jetjson::Value) -> jetjson::Value {
        match v {
            jetjson::Value::Object(map) => {
                let members: Vec<(jetjson::Str, jetjson::Value)> = map.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
                let mut out = jetjson::Map::with_capacity(members.len());
                for (k, v) in members.into_iter().rev() {
                    out.push(k, flip(v));
                }
                jetjson::Value::Object(out)
            }
            jetjson::Value::Array(items) => jetjson::Value::Array(items.into_iter().map(flip).collect()),
            other => other,
        }
    }
    flip(jetjson::Value::from_slice(json).unwrap()).to_vec_with(&jetjson::WriteOptions::compact()).unwrap()
}

fn records() -> (Simple, Complex) {
    (simple(&mut Rng::new(301)), complex(&mut Rng::new(302)))
}

pub fn go_inputs() -> Vec<(String, Vec<u8>)> {
    let (s, c) = records();
    let go = jetjson::WriteOptions::go();
    let (s, c) = (jetjson::to_vec_with(&s, &go).unwrap(), jetjson::to_vec_with(&c, &go).unwrap());
    vec![
        ("sdk-simple.json".into(), s.clone()),
        ("sdk-simple-reversed.json".into(), reversed(&s)),
        ("sdk-complex.json".into(), c.clone()),
        ("sdk-complex-reversed.json".into(), reversed(&c)),
    ]
}

pub fn run(runner: &mut Runner) {
    let (s, c) = records();
    rows(runner, "simple", &s);
    rows(runner, "complex", &c);
}

fn rows<T>(runner: &mut Runner, case: &str, rec: &T)
where
    T: Serialize + serde::de::DeserializeOwned + PartialEq + fmt::Debug,
{
    let (compact, go) = (jetjson::WriteOptions::compact(), jetjson::WriteOptions::go());
    let bytes = jetjson::to_vec_with(rec, &compact).unwrap();
    let rev = reversed(&bytes);
    assert_ne!(rev, bytes, "{case}: reversal changed nothing");

    assert_eq!(serde_json::to_vec(rec).unwrap(), bytes, "{case}: serde_json bytes");
    assert_eq!(sonic_rs::to_vec(rec).unwrap(), bytes, "{case}: sonic-rs bytes");
    assert_eq!(&jetjson::from_slice::<T>(&jetjson::to_vec_with(rec, &go).unwrap()).unwrap(), rec, "{case}: go profile round trip");
    let jobs: Vec<Job<'_>> = vec![
        ("jetjson", Box::new(|| jetjson::to_vec_with(rec, &compact).unwrap().len())),
        ("jetjson-go", Box::new(|| jetjson::to_vec_with(rec, &go).unwrap().len())),
        ("serde_json", Box::new(|| serde_json::to_vec(rec).unwrap().len())),
        ("sonic-rs", Box::new(|| sonic_rs::to_vec(rec).unwrap().len())),
    ];
    runner.row(Meta::new("sdk", case, "serialize", bytes.len()), &jobs);

    for (op, input) in [("deserialize", &bytes), ("deserialize-reversed", &rev)] {
        let b = &input[..];
        assert_eq!(&jetjson::from_slice::<T>(b).unwrap(), rec, "{case}/{op}: jetjson");
        assert_eq!(&serde_json::from_slice::<T>(b).unwrap(), rec, "{case}/{op}: serde_json");
        assert_eq!(&sonic_rs::from_slice::<T>(b).unwrap(), rec, "{case}/{op}: sonic-rs");
        assert_eq!(&simd_typed::<T>(b).unwrap(), rec, "{case}/{op}: simd-json");
        let jobs: Vec<Job<'_>> = vec![
            ("jetjson", Box::new(|| jetjson::from_slice::<T>(b).is_ok() as usize)),
            ("serde_json", Box::new(|| serde_json::from_slice::<T>(b).is_ok() as usize)),
            ("sonic-rs", Box::new(|| sonic_rs::from_slice::<T>(b).is_ok() as usize)),
            ("simd-json", Box::new(|| simd_typed::<T>(b).is_ok() as usize)),
        ];
        runner.row(Meta::new("sdk", case, op, b.len()).note("simd-json copies its mutable input per call"), &jobs);
    }

    // Round trip: bytes in, record, bytes out; the same bytes come back.
    let b = &bytes[..];
    assert_eq!(jetjson::to_vec_with(&jetjson::from_slice::<T>(b).unwrap(), &compact).unwrap(), bytes, "{case}: jetjson round trip");
    let jobs: Vec<Job<'_>> = vec![
        ("jetjson", Box::new(|| jetjson::to_vec_with(&jetjson::from_slice::<T>(b).unwrap(), &compact).unwrap().len())),
        ("serde_json", Box::new(|| serde_json::to_vec(&serde_json::from_slice::<T>(b).unwrap()).unwrap().len())),
        ("sonic-rs", Box::new(|| sonic_rs::to_vec(&sonic_rs::from_slice::<T>(b).unwrap()).unwrap().len())),
    ];
    runner.row(Meta::new("sdk", case, "round-trip", bytes.len()), &jobs);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_are_as_described() {
        let (s, c) = records();
        let simple = serde_json::to_value(&s).unwrap();
        assert_eq!(simple.as_object().unwrap().len(), 10);
        assert!(simple.as_object().unwrap().values().all(|v| !v.is_object() && !v.is_array()));
        let n = serde_json::to_vec(&c).unwrap().len();
        assert!((4_000..16_000).contains(&n), "complex record is {n} bytes");
        assert_eq!(
            reversed(&reversed(b"{\"a\":{\"b\":1,\"c\":[{\"d\":2,\"e\":3}]},\"f\":4}")),
            b"{\"a\":{\"b\":1,\"c\":[{\"d\":2,\"e\":3}]},\"f\":4}"
        );
    }

    #[test]
    fn every_row_runs_and_checks() {
        run(&mut Runner::smoke());
    }
}
