//! The `jetjson` command line tool. Its commands (canon, digest, check, fmt)
//! arrive with the parser issue; for now it canonicalizes stdin.

use std::io::{Read, Write};

fn main() {
    let mut args = std::env::args().skip(1);
    let profile = match args.next().as_deref() {
        None => jetjson::Profile::Compact,
        Some(p) => match p.parse() {
            Ok(p) => p,
            Err(e) => {
                eprintln!("jetjson: {e}");
                std::process::exit(2);
            }
        },
    };
    let mut input = Vec::new();
    if let Err(e) = std::io::stdin().read_to_end(&mut input) {
        eprintln!("jetjson: reading stdin: {e}");
        std::process::exit(2);
    }
    let result = jetjson::Value::from_slice(&input).and_then(|v| v.to_vec_with(&jetjson::WriteOptions::new(profile)));
    match result {
        Ok(out) => {
            let _ = std::io::stdout().write_all(&out);
        }
        Err(e) => {
            eprintln!("jetjson: {e}");
            std::process::exit(1);
        }
    }
}
