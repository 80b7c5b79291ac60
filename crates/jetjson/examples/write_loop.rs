//! Writes a document's `Value` N times in one profile (for callgrind
//! comparisons of the writer): `write_loop FILE... N PROFILE`
//! (compact, go, jcs, or go-unsorted, go-plain, compact-sorted: go's costs apart).
use jetjson::{Value, WriteOptions};

fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let (files, rest) = a.split_at(a.len() - 2);
    let n: usize = rest[0].parse().expect("a count");
    let options = match rest[1].as_str() {
        "compact" => WriteOptions::compact(),
        "go" => WriteOptions::go(),
        "jcs" => WriteOptions::jcs(),
        // The parts of `go`'s cost, apart.
        "go-unsorted" => WriteOptions::go().sort_keys(false),
        "go-plain" => WriteOptions::go().escape_html(false),
        "compact-sorted" => WriteOptions::compact().sort_keys(true),
        other => panic!("unknown profile {other}"),
    };
    let values: Vec<Value> = files.iter().map(|f| Value::from_slice(&std::fs::read(f).expect("readable")).expect("JSON")).collect();
    let mut total = 0;
    for _ in 0..n {
        for v in &values {
            total += v.to_vec_with(&options).expect("writable").len();
        }
    }
    println!("{total}");
}
