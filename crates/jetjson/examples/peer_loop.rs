//! Parses one file to a DOM in a loop with jetjson, sonic-rs or serde_json,
//! for instruction counts side by side (callgrind: run with N and 3N
//! iterations and difference the totals to cancel start-up and file read).
//!
//! `cargo run --release -p jetjson --example peer_loop -- jetjson|sonic|serde FILE [ITERATIONS]`
fn main() {
    let mut args = std::env::args().skip(1);
    let which = args.next().unwrap();
    let path = args.next().unwrap();
    let n: usize = args.next().map_or(200, |s| s.parse().unwrap());
    let bytes = std::fs::read(&path).unwrap();
    let mut kept = 0usize;
    for _ in 0..n {
        kept += match which.as_str() {
            "sonic" => sonic_rs::from_slice::<sonic_rs::Value>(&bytes).map(|v| sonic_rs::JsonValueTrait::is_object(&v) as usize).unwrap(),
            "serde" => serde_json::from_slice::<serde_json::Value>(&bytes).map(|v| v.is_object() as usize).unwrap(),
            _ => jetjson::Value::from_slice(&bytes).unwrap().is_null() as usize,
        };
    }
    println!("{kept}");
}
