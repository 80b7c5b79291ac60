//! Reads an envelope whose `data` member is kept as raw text, in a loop, for
//! profilers (callgrind): the cost of a container taken whole.
//!
//! `cargo run --release -p jetjson --example raw_loop -- MODE FILE [ITERATIONS]`
//! with MODE `serde` (`jetjson::from_slice` into a struct with a `RawJson`
//! field: the serde door), `visitor` (the push driver with a builder that
//! takes every container below the root as text, as Python's typed decode
//! does for a `Raw` member) or `validate` (the whole document validated,
//! for comparison). FILE: e.g. `bench/go/testdata/envelope-100.json`.
use jetjson::parse::{NumberToken, Visitor};

#[derive(serde::Deserialize)]
#[allow(dead_code)]
struct Envelope<'a> {
    id: String,
    source: String,
    specversion: String,
    #[serde(rename = "type")]
    kind: String,
    time: String,
    datacontenttype: String,
    #[serde(borrow)]
    data: jetjson::RawJson<'a>,
}

/// Takes every container below the root as text; counts what it is given.
#[derive(Default)]
struct TakeInner {
    depth: usize,
    seen: usize,
}

impl Visitor for TakeInner {
    fn null(&mut self) -> jetjson::Result<()> {
        Ok(())
    }
    fn bool(&mut self, _: bool) -> jetjson::Result<()> {
        Ok(())
    }
    fn number(&mut self, _: NumberToken<'_>) -> jetjson::Result<()> {
        Ok(())
    }
    fn string(&mut self, s: &str, _: &str) -> jetjson::Result<()> {
        self.seen += s.len();
        Ok(())
    }
    fn begin_array(&mut self) -> jetjson::Result<()> {
        self.depth += 1;
        Ok(())
    }
    fn end_array(&mut self) -> jetjson::Result<()> {
        self.depth -= 1;
        Ok(())
    }
    fn begin_object(&mut self) -> jetjson::Result<()> {
        self.depth += 1;
        Ok(())
    }
    fn key(&mut self, _: &str, _: &str) -> jetjson::Result<()> {
        Ok(())
    }
    fn end_object(&mut self) -> jetjson::Result<()> {
        self.depth -= 1;
        Ok(())
    }
    fn takes_raw(&self) -> bool {
        true
    }
    fn take_raw(&mut self, _: &[u8]) -> bool {
        self.depth > 0
    }
    fn raw(&mut self, json: &str) -> jetjson::Result<()> {
        self.seen += json.len();
        Ok(())
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let usage = "usage: raw_loop serde|visitor|validate FILE [ITERATIONS]";
    let mode = args.next().expect(usage);
    let path = args.next().expect(usage);
    let n: usize = args.next().map_or(200, |s| s.parse().expect("ITERATIONS is a number"));
    let bytes = std::fs::read(&path).expect("readable file");
    let options = jetjson::ReadOptions::default();
    let mut kept = 0usize;
    match mode.as_str() {
        "serde" => {
            for _ in 0..n {
                let e: Envelope<'_> = jetjson::from_slice(std::hint::black_box(&bytes)).expect("an envelope");
                kept += e.data.as_bytes().len();
            }
        }
        "visitor" => {
            let mut memory = jetjson::parse::ParseMemory::default();
            for _ in 0..n {
                let mut v = TakeInner::default();
                jetjson::parse::parse_with_memory(std::hint::black_box(&bytes), &options, &mut v, &mut memory).expect("valid JSON");
                kept += v.seen;
            }
        }
        "validate" => {
            let mut validator = jetjson::parse::Validator::new(&options);
            for _ in 0..n {
                kept += validator.validate(std::hint::black_box(&bytes)).is_ok() as usize;
            }
        }
        other => panic!("unknown mode {other}; {usage}"),
    }
    println!("{kept}");
}
