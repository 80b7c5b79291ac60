//! Shared test helpers: a deterministic PRNG, hostile document generators and
//! the live oracles (Go's encoding/json, Node's JSON.stringify).
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};

use base64::Engine as _;
use jetjson::{Map, Number, Value};

/// xorshift64*: deterministic, no dependency.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    pub fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

/// Characters chosen to hit every escaping rule of every profile.
const HOSTILE: &[&str] = &[
    "a",
    "Z",
    "0",
    " ",
    "\"",
    "\\",
    "/",
    "<",
    ">",
    "&",
    "'",
    "\u{0}",
    "\u{1}",
    "\u{8}",
    "\t",
    "\n",
    "\u{b}",
    "\u{c}",
    "\r",
    "\u{1f}",
    "\u{7f}",
    "\u{80}",
    "\u{85}",
    "é",
    "ß",
    "\u{7ff}",
    "\u{800}",
    "€",
    "\u{2027}",
    "\u{2028}",
    "\u{2029}",
    "\u{202a}",
    "\u{d7ff}",
    "\u{e000}",
    "\u{fb33}",
    "\u{feff}",
    "\u{fffd}",
    "\u{ffff}",
    "\u{10000}",
    "😀",
    "😂",
    "\u{10ffff}",
    "+",
    "manifest.v1+json",
];

pub fn hostile_string(rng: &mut Rng, max_len: usize) -> String {
    let n = rng.below(max_len + 1);
    let mut s = String::new();
    for _ in 0..n {
        if rng.chance(40) {
            s.push(char::from(b'a' + rng.below(26) as u8));
        } else {
            s.push_str(HOSTILE[rng.below(HOSTILE.len())]);
        }
    }
    s
}

/// Floats that stress layouts: cutoffs, integral values, extremes, random bits.
pub fn interesting_f64(rng: &mut Rng) -> f64 {
    const FIXED: &[f64] = &[
        0.0,
        -0.0,
        1.0,
        -1.0,
        100.0,
        0.1,
        0.5,
        1e-6,
        1e-7,
        9.999999e-7,
        1e20,
        1e21,
        9.999999999999999e20,
        1e15,
        1e16,
        1e-5,
        1e-4,
        5e-324,
        f64::MAX,
        f64::MIN_POSITIVE,
        f64::from_bits(0x000F_FFFF_FFFF_FFFF), // largest subnormal
        9007199254740993.0,
        1.5e300,
        123456789.125,
    ];
    match rng.below(4) {
        0 => FIXED[rng.below(FIXED.len())],
        1 => (rng.next() as i64 >> rng.below(64)) as f64,
        2 => (rng.next() as i64 % 1_000_000) as f64 / 10f64.powi(rng.below(12) as i32),
        _ => loop {
            let f = f64::from_bits(rng.next());
            if f.is_finite() {
                break f;
            }
        },
    }
}

pub fn interesting_int(rng: &mut Rng) -> Number {
    match rng.below(6) {
        0 => Number::Int(i64::MAX - rng.below(3) as i64),
        1 => Number::Int(i64::MIN + rng.below(3) as i64),
        2 => Number::from_u64(u64::MAX - rng.below(3) as u64),
        3 => Number::from_u64((1u64 << 53) + rng.below(5) as u64 - 2),
        4 => Number::Int(rng.next() as i64 >> rng.below(64)),
        _ => Number::from_u64(rng.next() >> rng.below(64)),
    }
}

/// A random document; objects have unique keys (oracles differ on duplicates).
pub fn document(rng: &mut Rng, depth: usize) -> Value {
    let pick = if depth == 0 { rng.below(5) } else { rng.below(7) };
    match pick {
        0 => Value::Null,
        1 => Value::Bool(rng.chance(50)),
        2 => Value::Number(interesting_int(rng)),
        3 => Value::Number(Number::Float(interesting_f64(rng))),
        4 => Value::String(hostile_string(rng, 12).into()),
        5 => Value::Array((0..rng.below(6)).map(|_| document(rng, depth - 1)).collect()),
        _ => {
            let mut m = Map::new();
            for _ in 0..rng.below(7) {
                let k = hostile_string(rng, 5);
                if !m.contains_key(&k) {
                    m.push(k, document(rng, depth - 1));
                }
            }
            Value::Object(m)
        }
    }
}

pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

pub fn corpus(path: &str) -> PathBuf {
    repo_root().join("../shared/corpus").join(path)
}

/// The Go oracle binary: `$JETJSON_ORACLE_GO` (built by `make test`), else
/// built here once.
pub fn go_oracle() -> PathBuf {
    if let Ok(p) = std::env::var("JETJSON_ORACLE_GO") {
        let p = PathBuf::from(p);
        if p.exists() {
            return p;
        }
    }
    static BUILT: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    BUILT
        .get_or_init(|| {
            let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("oracle-go");
            let status = Command::new("go")
                .args(["-C", "tools/oracle-go", "build", "-o"])
                .arg(&out)
                .arg(".")
                .current_dir(repo_root())
                .env("GOTOOLCHAIN", "local")
                .env("GOPROXY", "off")
                .status()
                .expect("Go is needed for the oracle tests");
            assert!(status.success(), "building the Go oracle failed");
            out
        })
        .clone()
}

/// Runs an oracle over input lines; returns one decoded result per line
/// (`Err(message)` for its ERROR lines).
pub fn run_oracle(mut cmd: Command, lines: &[Vec<u8>]) -> Vec<Result<Vec<u8>, String>> {
    let mut child = cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().expect("start oracle");
    let mut stdin = child.stdin.take().unwrap();
    let input: Vec<u8> = lines.iter().flat_map(|l| l.iter().copied().chain([b'\n'])).collect();
    let feeder = std::thread::spawn(move || {
        stdin.write_all(&input).unwrap();
    });
    let out = BufReader::new(child.stdout.take().unwrap());
    let mut results = Vec::new();
    for line in out.lines() {
        let line = line.unwrap();
        results.push(match line.strip_prefix("ERROR: ") {
            Some(msg) => Err(msg.to_owned()),
            None => Ok(base64::engine::general_purpose::STANDARD.decode(line.trim_end()).expect("oracle base64")),
        });
    }
    feeder.join().unwrap();
    assert!(child.wait().unwrap().success());
    assert_eq!(results.len(), lines.len(), "one oracle answer per line");
    results
}

pub fn go_command(args: &[&str]) -> Command {
    let mut c = Command::new(go_oracle());
    c.args(args);
    c
}

pub fn node_command(args: &[&str]) -> Command {
    let mut c = Command::new("node");
    c.arg(repo_root().join("tools/oracle-node/jcs.js")).args(args);
    c
}

pub fn b64(bytes: &[u8]) -> Vec<u8> {
    base64::engine::general_purpose::STANDARD.encode(bytes).into_bytes()
}

pub fn show(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A JSON number literal from one of the classes the number model tells
/// apart: integers at the edges of 64 bits and far beyond them, `-0` and
/// the other zeros, doubles (shortest, 17 digits, every exponent spelling),
/// doubles in [2^64, 1e21) (which `go` writes as integers), literals whose
/// run of zeros an exponent undoes (exponents below 10,000, which Go reads
/// whole), and underflows. With `out_of_range`, also literals beyond the
/// double range now and then.
pub fn number_literal(rng: &mut Rng, out_of_range: bool) -> String {
    // Up to `max` random digits (at least `min`).
    let digits = |rng: &mut Rng, min: usize, max: usize| -> String {
        let n = min + rng.below(max - min + 1);
        (0..n).map(|_| char::from(b'0' + rng.below(10) as u8)).collect()
    };
    let sign = |rng: &mut Rng| if rng.chance(50) { "-" } else { "" };
    loop {
        let text = match rng.below(9) {
            0 => {
                let edges =
                    [0i128, 1 << 53, i64::MAX as i128, i64::MIN as i128, u64::MAX as i128, -(u64::MAX as i128), i128::MAX, i128::MIN];
                (edges[rng.below(edges.len())].saturating_add(rng.below(7) as i128 - 3)).to_string()
            }
            1 => format!("{}{}{}", sign(rng), 1 + rng.below(9), digits(rng, 19, 138)),
            2 => ["0", "-0", "-0.0", "0.0", "-0e0", "-0E+5", "0e-7", "-0.000e99"][rng.below(8)].to_owned(),
            3 => {
                let f = interesting_f64(rng);
                match rng.below(4) {
                    0 => format!("{f:e}"),
                    1 => format!("{f:.16e}"),
                    2 => format!("{f:?}"),
                    _ => {
                        // Another spelling of the exponent: `E`, `+`, leading zeros.
                        let shortest = format!("{f:e}");
                        let (mantissa, exp) = shortest.split_once('e').expect("{:e} has an exponent");
                        let (minus, exp) = exp.strip_prefix('-').map_or(("", exp), |e| ("-", e));
                        let plus = if minus.is_empty() && rng.chance(50) { "+" } else { "" };
                        format!("{mantissa}{}{minus}{plus}{}{exp}", ["e", "E"][rng.below(2)], "0".repeat(rng.below(3)))
                    }
                }
            }
            4 => {
                let f = 18_446_744_073_709_551_616.0 * (1.0 + rng.below(1 << 20) as f64 * 5e-5);
                let f = if f >= 1e21 { 9.999_999_999_999_999e20 } else { f };
                match rng.below(4) {
                    0 => format!("{f:e}"),
                    1 => format!("{f:.1}"),
                    2 => format!("-{f:.0}"),
                    _ => format!("{f:?}"),
                }
            }
            5 => {
                let exp = format!("{}{}{}", ["e", "E"][rng.below(2)], ["", "+", "-"][rng.below(3)], "0".repeat(rng.below(3)));
                format!("{}{}.{}{exp}{}", sign(rng), 1 + rng.below(9), digits(rng, 1, 20), rng.below(330))
            }
            6 => {
                let k = rng.below(2000);
                let off = rng.below(640) as i64 - 330;
                format!("{}0.{}{}{}e{}", sign(rng), "0".repeat(k), 1 + rng.below(9), digits(rng, 0, 24), k as i64 + off)
            }
            7 => format!("{}{}e-{}", sign(rng), 1 + rng.below(9), 324 + rng.below(100)),
            _ => format!("{}", rng.next() as i64 >> rng.below(64)),
        };
        if out_of_range || jetjson::parse::literal_to_f64(text.as_bytes()).is_some() || !text.contains(['.', 'e', 'E']) {
            return text;
        }
    }
}

/// A document (as text) whose leaves are mostly `number_literal`s.
pub fn number_document(rng: &mut Rng, depth: usize, out_of_range: bool) -> String {
    match if depth == 0 { 0 } else { rng.below(4) } {
        0 | 1 => number_literal(rng, out_of_range),
        2 => {
            let items: Vec<String> = (0..rng.below(6)).map(|_| number_document(rng, depth - 1, out_of_range)).collect();
            format!("[{}]", items.join(if rng.chance(50) { "," } else { ", " }))
        }
        _ => {
            let members: Vec<String> = (0..rng.below(5))
                .map(|i| format!("\"k{i}{}\":{}", ["", "<", "é"][rng.below(3)], number_document(rng, depth - 1, out_of_range)))
                .collect();
            format!("{{{}}}", members.join(","))
        }
    }
}
