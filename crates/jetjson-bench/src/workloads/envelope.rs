//! Workload 4, a message bus: a CloudEvents-style envelope (id, source,
//! specversion, type, time, datacontenttype, data) whose message holds 1,
//! 10, 100 or 1000 items. The message is embedded two ways:
//!
//! * typed: the message is a record, serialized (again) with the envelope;
//! * raw: the message is JSON the producer already has (jetjson `RawJson`,
//!   serde_json `RawValue`, sonic-rs `LazyValue`, Go `json.RawMessage`),
//!   built once outside the timing.
//!
//! jetjson `compact` copies raw JSON verbatim as serde_json does; the `go`
//! profile re-compacts it as Go's `json.RawMessage` does. Parsing is timed
//! into the typed envelope, with the message left raw (the router that reads
//! only the envelope), and with the message as each library's dynamic value
//! inside the typed envelope (`Envelope<Value>`: jetjson's serde door).

use serde::{Deserialize, Serialize};

use super::simd_typed;
use crate::harness::{Job, Meta, Runner};
use crate::rng::Rng;

pub const SIZES: [usize; 4] = [1, 10, 100, 1000];

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Envelope<D> {
    pub id: String,
    pub source: String,
    pub specversion: String,
    #[serde(rename = "type")]
    pub kind: String,
    pub time: String,
    pub datacontenttype: String,
    pub data: D,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Item {
    pub id: u64,
    pub sku: String,
    pub name: String,
    pub price: f64,
    pub quantity: u32,
    pub in_stock: bool,
    pub tags: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Message {
    pub order_id: String,
    pub customer_id: u64,
    pub items: Vec<Item>,
}

pub fn envelope(n_items: usize) -> Envelope<Message> {
    let mut rng = Rng::new(400 + n_items as u64);
    let items = (0..n_items)
        .map(|i| Item {
            id: i as u64 + 1,
            sku: format!("SKU-{}", rng.word(8)),
            name: rng.sentence_between(10, 30),
            price: rng.money(100_000),
            quantity: rng.range(1, 50) as u32,
            in_stock: rng.chance(800),
            tags: (0..rng.range(0, 3)).map(|_| rng.word(5)).collect(),
        })
        .collect();
    Envelope {
        id: format!("{}-{}-{}-{}-{}", rng.hex(8), rng.hex(4), rng.hex(4), rng.hex(4), rng.hex(12)),
        source: "/orders/service/eu-west-1".into(),
        specversion: "1.0".into(),
        kind: "com.example.order.created".into(),
        time: "2024-03-05T12:34:56.789Z".into(),
        datacontenttype: "application/json".into(),
        data: Message { order_id: format!("ord_{}", rng.hex(16)), customer_id: rng.range(1, 1 << 40), items },
    }
}

/// The envelope with `data` replaced by something else.
fn with_data<D, E>(e: &Envelope<D>, data: E) -> Envelope<E> {
    Envelope {
        id: e.id.clone(),
        source: e.source.clone(),
        specversion: e.specversion.clone(),
        kind: e.kind.clone(),
        time: e.time.clone(),
        datacontenttype: e.datacontenttype.clone(),
        data,
    }
}

pub fn go_inputs() -> Vec<(String, Vec<u8>)> {
    SIZES
        .iter()
        .map(|&n| (format!("envelope-{n}.json"), jetjson::to_vec_with(&envelope(n), &jetjson::WriteOptions::go()).unwrap()))
        .collect()
}

pub fn run(runner: &mut Runner) {
    for n in SIZES {
        rows(runner, n);
    }
}

fn rows(runner: &mut Runner, n: usize) {
    let (compact, go) = (jetjson::WriteOptions::compact(), jetjson::WriteOptions::go());
    let case = format!("items-{n}");
    let env = envelope(n);
    let bytes = jetjson::to_vec_with(&env, &compact).unwrap();
    assert_eq!(serde_json::to_vec(&env).unwrap(), bytes, "{case}: serde_json bytes");
    assert_eq!(sonic_rs::to_vec(&env).unwrap(), bytes, "{case}: sonic-rs bytes");
    // `go` differs from `compact` in float spelling (Go writes 317 for 317.0).
    assert_eq!(jetjson::from_slice::<Envelope<Message>>(&jetjson::to_vec_with(&env, &go).unwrap()).unwrap(), env, "{case}: go bytes");

    let e = &env;
    let jobs: Vec<Job<'_>> = vec![
        ("jetjson", Box::new(|| jetjson::to_vec_with(e, &compact).unwrap().len())),
        ("jetjson-go", Box::new(|| jetjson::to_vec_with(e, &go).unwrap().len())),
        ("serde_json", Box::new(|| serde_json::to_vec(e).unwrap().len())),
        ("sonic-rs", Box::new(|| sonic_rs::to_vec(e).unwrap().len())),
    ];
    runner.row(Meta::new("envelope", &case, "serialize-typed", bytes.len()), &jobs);

    // The producer's pre-serialized message, wrapped once per library.
    let payload = serde_json::to_string(&env.data).unwrap();
    let ours = with_data(&env, jetjson::RawJson::from_slice(payload.as_bytes()).unwrap());
    let theirs = with_data(&env, serde_json::value::RawValue::from_string(payload.clone()).unwrap());
    let sonic = with_data(&env, sonic_rs::from_str::<sonic_rs::LazyValue<'_>>(&payload).unwrap());
    assert_eq!(jetjson::to_vec_with(&ours, &compact).unwrap(), bytes, "{case}: jetjson raw");
    assert_eq!(jetjson::to_vec_with(&ours, &go).unwrap(), bytes, "{case}: jetjson-go raw");
    assert_eq!(serde_json::to_vec(&theirs).unwrap(), bytes, "{case}: serde_json raw");
    assert_eq!(sonic_rs::to_vec(&sonic).unwrap(), bytes, "{case}: sonic-rs raw");
    let (o, t, s) = (&ours, &theirs, &sonic);
    let jobs: Vec<Job<'_>> = vec![
        ("jetjson", Box::new(|| jetjson::to_vec_with(o, &compact).unwrap().len())),
        ("jetjson-go", Box::new(|| jetjson::to_vec_with(o, &go).unwrap().len())),
        ("serde_json", Box::new(|| serde_json::to_vec(t).unwrap().len())),
        ("sonic-rs", Box::new(|| sonic_rs::to_vec(s).unwrap().len())),
    ];
    runner
        .row(Meta::new("envelope", &case, "serialize-raw", bytes.len()).note("jetjson-go re-compacts the raw message, as Go does"), &jobs);

    let b = &bytes[..];
    assert_eq!(jetjson::from_slice::<Envelope<Message>>(b).unwrap(), env, "{case}: jetjson parse");
    assert_eq!(serde_json::from_slice::<Envelope<Message>>(b).unwrap(), env, "{case}: serde_json parse");
    assert_eq!(sonic_rs::from_slice::<Envelope<Message>>(b).unwrap(), env, "{case}: sonic-rs parse");
    assert_eq!(simd_typed::<Envelope<Message>>(b).unwrap(), env, "{case}: simd-json parse");
    let jobs: Vec<Job<'_>> = vec![
        ("jetjson", Box::new(|| jetjson::from_slice::<Envelope<Message>>(b).map(|e| e.data.items.len()).unwrap())),
        ("serde_json", Box::new(|| serde_json::from_slice::<Envelope<Message>>(b).map(|e| e.data.items.len()).unwrap())),
        ("sonic-rs", Box::new(|| sonic_rs::from_slice::<Envelope<Message>>(b).map(|e| e.data.items.len()).unwrap())),
        ("simd-json", Box::new(|| simd_typed::<Envelope<Message>>(b).map(|e| e.data.items.len()).unwrap())),
    ];
    runner.row(Meta::new("envelope", &case, "parse-typed", bytes.len()).note("simd-json copies its mutable input per call"), &jobs);

    let raw_ours: Envelope<jetjson::RawJson<'_>> = jetjson::from_slice(b).unwrap();
    assert_eq!(raw_ours.data.as_bytes(), payload.as_bytes(), "{case}: jetjson raw parse");
    let raw_sj: Envelope<&serde_json::value::RawValue> = serde_json::from_slice(b).unwrap();
    assert_eq!(raw_sj.data.get(), payload, "{case}: serde_json raw parse");
    let raw_sonic: Envelope<sonic_rs::LazyValue<'_>> = sonic_rs::from_slice(b).unwrap();
    assert_eq!(raw_sonic.data.as_raw_str(), payload, "{case}: sonic-rs raw parse");
    let jobs: Vec<Job<'_>> = vec![
        ("jetjson", Box::new(|| jetjson::from_slice::<Envelope<jetjson::RawJson<'_>>>(b).map(|e| e.data.as_bytes().len()).unwrap())),
        (
            "serde_json",
            Box::new(|| serde_json::from_slice::<Envelope<&serde_json::value::RawValue>>(b).map(|e| e.data.get().len()).unwrap()),
        ),
        ("sonic-rs", Box::new(|| sonic_rs::from_slice::<Envelope<sonic_rs::LazyValue<'_>>>(b).map(|e| e.data.as_raw_str().len()).unwrap())),
    ];
    runner.row(Meta::new("envelope", &case, "parse-raw", bytes.len()).note("the message checked and borrowed, not decoded"), &jobs);

    // The message as a dynamic value in the typed envelope.
    let value: Envelope<jetjson::Value> = jetjson::from_slice(b).unwrap();
    assert_eq!(value.data, jetjson::Value::from_slice(payload.as_bytes()).unwrap(), "{case}: jetjson value parse");
    let value_sj: Envelope<serde_json::Value> = serde_json::from_slice(b).unwrap();
    assert_eq!(value_sj.data, serde_json::to_value(&env.data).unwrap(), "{case}: serde_json value parse");
    let value_sonic: Envelope<sonic_rs::Value> = sonic_rs::from_slice(b).unwrap();
    assert_eq!(sonic_rs::to_string(&value_sonic.data).unwrap(), payload, "{case}: sonic-rs value parse");
    let jobs: Vec<Job<'_>> = vec![
        (
            "jetjson",
            Box::new(|| jetjson::from_slice::<Envelope<jetjson::Value>>(b).map(|e| e.data.as_object().map_or(0, |m| m.len())).unwrap()),
        ),
        ("serde_json", Box::new(|| serde_json::from_slice::<Envelope<serde_json::Value>>(b).map(|e| e.data.is_object() as usize).unwrap())),
        (
            "sonic-rs",
            Box::new(|| {
                sonic_rs::from_slice::<Envelope<sonic_rs::Value>>(b).map(|e| sonic_rs::JsonValueTrait::is_object(&e.data) as usize).unwrap()
            }),
        ),
    ];
    runner.row(Meta::new("envelope", &case, "parse-value", bytes.len()).note("the message as each library's dynamic value"), &jobs);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_hold_the_item_counts() {
        for n in SIZES {
            assert_eq!(envelope(n).data.items.len(), n);
        }
    }

    #[test]
    fn every_row_runs_and_checks() {
        run(&mut Runner::smoke());
    }
}
