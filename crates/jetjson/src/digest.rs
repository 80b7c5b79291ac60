//! Digests of the profile's bytes, hashed while writing: the output is
//! handed to the hash in chunks and never held whole.

use serde::Serialize;
use sha2::Digest as _;

use crate::error::Result;
use crate::options::WriteOptions;
use crate::writer::{Sink, Writer};
use crate::Value;

/// The hash function of a digest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// SHA-256 (`sha256:` digests, the OCI default).
    Sha256,
    /// SHA-512.
    Sha512,
}

impl Algorithm {
    /// The name used in digests: `sha256` or `sha512`.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Sha256 => "sha256",
            Algorithm::Sha512 => "sha512",
        }
    }
}

impl std::str::FromStr for Algorithm {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Algorithm, String> {
        match s {
            "sha256" => Ok(Algorithm::Sha256),
            "sha512" => Ok(Algorithm::Sha512),
            other => Err(format!("unknown digest algorithm {other:?} (expected sha256 or sha512)")),
        }
    }
}

/// A running hash; as a `Sink` it takes the writer's output chunks.
#[doc(hidden)]
pub enum Hasher {
    Sha256(sha2::Sha256),
    Sha512(sha2::Sha512),
}

impl Hasher {
    pub fn new(algorithm: Algorithm) -> Hasher {
        match algorithm {
            Algorithm::Sha256 => Hasher::Sha256(sha2::Sha256::new()),
            Algorithm::Sha512 => Hasher::Sha512(sha2::Sha512::new()),
        }
    }

    pub fn update(&mut self, bytes: &[u8]) {
        match self {
            Hasher::Sha256(h) => h.update(bytes),
            Hasher::Sha512(h) => h.update(bytes),
        }
    }

    /// `"<algorithm>:<lowercase hex>"`, the OCI digest form.
    pub fn finish(self) -> String {
        let (name, bytes) = match self {
            Hasher::Sha256(h) => ("sha256", h.finalize().to_vec()),
            Hasher::Sha512(h) => ("sha512", h.finalize().to_vec()),
        };
        let mut s = String::with_capacity(name.len() + 1 + bytes.len() * 2);
        s.push_str(name);
        s.push(':');
        for b in bytes {
            s.push(char::from(b"0123456789abcdef"[usize::from(b >> 4)]));
            s.push(char::from(b"0123456789abcdef"[usize::from(b & 15)]));
        }
        s
    }
}

impl Sink for Hasher {
    fn spill(&mut self, bytes: &[u8]) -> Result<()> {
        self.update(bytes);
        Ok(())
    }
}

/// The digest of `value` written with `options`, e.g. `sha256:9f86d0…`.
pub fn digest<T: ?Sized + Serialize>(value: &T, options: &WriteOptions, algorithm: Algorithm) -> Result<String> {
    options.check()?;
    let mut w = Writer::with_sink(options, Hasher::new(algorithm));
    crate::stack::with_room_for(options.write_depth_limit(), || w.serde_write(|w| value.serialize(w)))?;
    Ok(w.finish()?.finish())
}

/// The digest of a `Value` written with `options` (the direct, non-serde path).
pub fn digest_value(value: &Value, options: &WriteOptions, algorithm: Algorithm) -> Result<String> {
    options.check()?;
    let mut w = Writer::with_sink(options, Hasher::new(algorithm));
    crate::stack::with_room_for(options.write_depth_limit(), || crate::value::write_value(&mut w, value))?;
    Ok(w.finish()?.finish())
}

/// The digest of bytes exactly as they are (OCI: a manifest's digest is over
/// the bytes as stored, not over any re-serialization).
pub fn digest_bytes(bytes: &[u8], algorithm: Algorithm) -> String {
    let mut h = Hasher::new(algorithm);
    h.update(bytes);
    h.finish()
}
