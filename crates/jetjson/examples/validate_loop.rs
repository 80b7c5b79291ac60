//! Validates one file in a loop (`jetjson::parse::Validator`, as checked
//! `Raw` and `RawJson::from_slice` do), for profilers (perf, callgrind).
//!
//! `cargo run --release -p jetjson --example validate_loop -- FILE [ITERATIONS]`
fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: validate_loop FILE [ITERATIONS]");
    let n: usize = args.next().map_or(200, |s| s.parse().expect("ITERATIONS is a number"));
    let bytes = std::fs::read(&path).expect("readable file");
    // JETJSON_DUPLICATES=last: no duplicate-name tracking.
    let options = match std::env::var("JETJSON_DUPLICATES").as_deref() {
        Ok("last") => jetjson::ReadOptions::default().duplicate_keys(jetjson::DuplicateKeys::Last),
        _ => jetjson::ReadOptions::default(),
    };
    let mut validator = jetjson::parse::Validator::new(&options);
    let mut valid = 0usize;
    for _ in 0..n {
        valid += validator.validate(std::hint::black_box(&bytes)).is_ok() as usize;
    }
    println!("{valid}");
}
