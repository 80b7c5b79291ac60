//! Parses one file to `Value` in a loop, for profilers (perf, callgrind).
//!
//! `cargo run --release -p jetjson --example parse_loop -- FILE [ITERATIONS]`
fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: parse_loop FILE [ITERATIONS]");
    let n: usize = args.next().map_or(200, |s| s.parse().expect("ITERATIONS is a number"));
    let bytes = std::fs::read(&path).expect("readable file");
    let mut kept = 0usize;
    for _ in 0..n {
        let v = jetjson::Value::from_slice(&bytes).expect("valid JSON");
        kept += v.is_null() as usize;
    }
    println!("{kept}");
}
