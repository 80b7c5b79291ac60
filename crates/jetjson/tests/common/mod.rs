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
