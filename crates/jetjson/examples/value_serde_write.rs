//! A `Value` written through serde (`jetjson::to_vec_with(&value, ..)`, the
//! write door of value/ser.rs) against `Value::to_vec_with`: the median over
//! 31 rounds of the paired time ratio, per file and profile (1.00: the door
//! costs nothing).
//!
//!     cargo run --release -p jetjson --example value_serde_write -- FILES...
use std::time::Instant;
fn main() {
    let files: Vec<String> = std::env::args().skip(1).collect();
    for f in files {
        let b = std::fs::read(&f).unwrap();
        let v = jetjson::Value::from_slice(&b).unwrap();
        for (name, o) in [("compact", jetjson::WriteOptions::compact()), ("go", jetjson::WriteOptions::go())] {
            let mut ratios = vec![];
            for _ in 0..31 {
                let t = Instant::now();
                for _ in 0..20 {
                    std::hint::black_box(v.to_vec_with(&o).unwrap());
                }
                let a = t.elapsed();
                let t = Instant::now();
                for _ in 0..20 {
                    std::hint::black_box(jetjson::to_vec_with(&v, &o).unwrap());
                }
                let s = t.elapsed();
                ratios.push(s.as_secs_f64() / a.as_secs_f64());
            }
            ratios.sort_by(|a, b| a.partial_cmp(b).unwrap());
            println!("{f} {name}: serde path / Value writer = {:.2}", ratios[15]);
        }
    }
}
