//! Writes a corpus document's doubles (canada's, say) as one JSON array in a
//! loop, several ways interleaved in each round, to compare the float path
//! between builds (`-C target-cpu=native` or not) and against sonic-rs:
//!
//! `float_write_loop FILE ROUNDS MODES` with MODES joined by commas:
//!
//! * `zmij`: zmij formats straight into the output (as jetjson's writer
//!   does), with nothing done about `rax` before the call;
//! * `zmij-xor`: the same with `eax` zeroed before each call (what
//!   `number::zmij_fresh_eax` does in the library);
//! * `buffer`: zmij formats into its own buffer, then the text is copied;
//! * `jetjson`, `jetjson-go`: `jetjson::to_vec_with` of the `Vec<f64>`
//!   (compact, go);
//! * `sonic`: `sonic_rs::to_vec`.
//!
//! Prints per mode the least time (rounds cut short by the scheduler on a
//! shared machine only add), the median, and the median over rounds of its
//! time ÷ the first mode's.
use std::time::Instant;

fn floats(v: &serde_json::Value, out: &mut Vec<f64>) {
    match v {
        serde_json::Value::Number(n) if n.is_f64() => out.push(n.as_f64().unwrap()),
        serde_json::Value::Array(a) => a.iter().for_each(|x| floats(x, out)),
        serde_json::Value::Object(o) => o.values().for_each(|x| floats(x, out)),
        _ => {}
    }
}

const ROOM: usize = std::mem::size_of::<zmij::Buffer>();

#[inline(never)]
fn in_place(vs: &[f64], out: &mut Vec<u8>, xor: bool) {
    out.clear();
    out.push(b'[');
    for (i, &v) in vs.iter().enumerate() {
        out.reserve(ROOM + 1);
        let len = out.len();
        if xor {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: writes only `eax` (a discarded output) and the flags.
            unsafe {
                std::arch::asm!("xor eax, eax", out("eax") _, options(nomem, nostack))
            };
        }
        // SAFETY: ROOM + 1 bytes are reserved past `len`; `zmij::Buffer` is
        // ROOM bytes of `MaybeUninit<u8>` with alignment 1, and zmij's text
        // starts at the buffer's start.
        unsafe {
            let p = out.as_mut_ptr().add(len);
            *p = b',';
            let c = usize::from(i != 0);
            let b = &mut *(p.add(c) as *mut zmij::Buffer);
            let n = b.format_finite(v).len();
            out.set_len(len + c + n);
        }
    }
    out.push(b']');
}

#[inline(never)]
fn buffer(vs: &[f64], out: &mut Vec<u8>) {
    out.clear();
    out.push(b'[');
    for (i, &v) in vs.iter().enumerate() {
        if i != 0 {
            out.push(b',');
        }
        let mut b = zmij::Buffer::new();
        out.extend_from_slice(b.format_finite(v).as_bytes());
    }
    out.push(b']');
}

fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let bytes = std::fs::read(&a[0]).unwrap();
    let n: usize = a[1].parse().unwrap();
    let modes: Vec<&str> = a[2].split(',').collect();
    let mut vs = Vec::new();
    floats(&serde_json::from_slice(&bytes).unwrap(), &mut vs);
    let mut out = Vec::with_capacity(vs.len() * 26);
    let mut times = vec![Vec::new(); modes.len()];
    let mut total = 0;
    for _ in 0..n {
        for (m, mode) in modes.iter().enumerate() {
            let t = Instant::now();
            total += match *mode {
                "zmij" | "zmij-xor" => {
                    in_place(&vs, &mut out, *mode == "zmij-xor");
                    out.len()
                }
                "buffer" => {
                    buffer(&vs, &mut out);
                    out.len()
                }
                "jetjson" => jetjson::to_vec(&vs).unwrap().len(),
                "jetjson-go" => jetjson::to_vec_with(&vs, &jetjson::WriteOptions::go()).unwrap().len(),
                "sonic" => sonic_rs::to_vec(&vs).unwrap().len(),
                other => panic!("unknown mode {other}"),
            };
            times[m].push(t.elapsed().as_secs_f64());
        }
    }
    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    for (m, mode) in modes.iter().enumerate() {
        let paired = median(times[0].iter().zip(&times[m]).map(|(a, b)| b / a).collect());
        let min = times[m].iter().copied().fold(f64::INFINITY, f64::min);
        eprintln!(
            "{mode:>10}: least {:7.1} us, median {:7.1} us, {paired:.3}x the time of {}",
            min * 1e6,
            median(times[m].clone()) * 1e6,
            modes[0]
        );
    }
    eprintln!("{} doubles", vs.len());
    println!("{total}");
}
