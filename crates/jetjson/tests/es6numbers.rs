//! The ES6 number test vectors of the RFC 8785 (JCS) suite: each line is
//! `<hex of the f64 bits>,<ECMAScript Number::toString output>`.
//!
//! `Jcs` must reproduce every line; `Go` too, except that negative zero stays
//! `-0`.

use jetjson::number::{write_f64, FloatLayout};

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/corpus/jcs/es6numbers/");

/// Checks every line; returns how many were checked.
fn check_lines(data: &[u8]) -> usize {
    let mut count = 0;
    let mut out = Vec::with_capacity(32);
    for line in data.split(|&b| b == b'\n') {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.is_empty() {
            continue;
        }
        let comma = line.iter().position(|&b| b == b',').expect("no comma");
        let hex = std::str::from_utf8(&line[..comma]).unwrap();
        let expected = &line[comma + 1..];
        let bits = u64::from_str_radix(hex, 16).unwrap();
        let v = f64::from_bits(bits);
        assert!(v.is_finite(), "non-finite input {hex}");

        out.clear();
        write_f64(&mut out, v, FloatLayout::Jcs);
        assert_eq!(out, expected, "Jcs {hex}: got {}, want {}", String::from_utf8_lossy(&out), String::from_utf8_lossy(expected));

        out.clear();
        write_f64(&mut out, v, FloatLayout::Go);
        let go_expected: &[u8] = if bits == 0x8000_0000_0000_0000 { b"-0" } else { expected };
        assert_eq!(out, go_expected, "Go {hex}: got {}, want {}", String::from_utf8_lossy(&out), String::from_utf8_lossy(go_expected));
        count += 1;
    }
    count
}

#[test]
fn es6_first_10000() {
    let path = format!("{DIR}es6testfile_first10000.txt");
    let data = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    assert_eq!(check_lines(&data), 10_000);
}

#[test]
fn es6_first_100000_gz() {
    let path = format!("{DIR}es6testfile_first100000.txt.gz");
    let output =
        std::process::Command::new("gzip").arg("-dc").arg(&path).output().unwrap_or_else(|e| panic!("running gzip -dc {path}: {e}"));
    assert!(output.status.success(), "gzip -dc {path} failed: {:?}", output.status);
    assert_eq!(check_lines(&output.stdout), 100_000);
}
