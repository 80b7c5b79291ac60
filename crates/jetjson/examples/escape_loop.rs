//! Escapes every string of a document N times with one escape set (for
//! callgrind comparisons of sets): `escape_loop FILE N html line_separators`.
use jetjson::escape::{EscapeSet, Escaper};
use jetjson::Value;

fn strings<'a>(v: &'a Value, out: &mut Vec<&'a str>) {
    match v {
        Value::String(s) => out.push(s.as_str()),
        Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
        Value::Object(m) => m.iter().for_each(|(k, x)| {
            out.push(k.as_str());
            strings(x, out)
        }),
        _ => {}
    }
}

fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let bytes = std::fs::read(&a[0]).unwrap();
    let n: usize = a[1].parse().unwrap();
    let set = EscapeSet { html: a[2] == "1", line_separators: a[3] == "1", ascii_only: false };
    let v = Value::from_slice(&bytes).unwrap();
    let mut all = Vec::new();
    strings(&v, &mut all);
    let e = Escaper::new(set);
    let mut out = Vec::with_capacity(bytes.len() * 2);
    let mut total = 0;
    for _ in 0..n {
        for s in &all {
            out.clear();
            e.escape(&mut out, s);
            total += out.len();
        }
    }
    println!("{total} {}", e.isa_name());
}
