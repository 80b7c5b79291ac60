//! Whole documents: canonicalize (JSON text in, the profile's bytes out),
//! digests of canonical output or of raw bytes, and validation.

use std::os::raw::c_int;

use jetjson::{Algorithm, Value, Writer};

use crate::boundary::{self, Failure};
use crate::buffer::Out;
use crate::options::{named_write_options, read_options};
use crate::sink::{failure_of, CSink, Target};
use crate::types::{self, Buffer, Digest, Error, ReadOptions, Status, WriteOptions};

/// Parses `json` with the read options into a `Value`.
fn parse(json: &[u8], read: &jetjson::ReadOptions) -> Result<Value, Failure> {
    jetjson::__private::value_from_slice_recovering(json, read).map_err(|e| Failure::from_core(&e))
}

fn algorithm(a: c_int) -> Result<Algorithm, Failure> {
    match a {
        types::SHA256 => Ok(Algorithm::Sha256),
        types::SHA512 => Ok(Algorithm::Sha512),
        other => Err(Failure::argument(format!("unknown algorithm {other} (expected JETJSON_SHA256 or JETJSON_SHA512)"))),
    }
}

/// Writes `"sha256:<hex>"` (or sha512) into the caller's digest.
///
/// # Safety
/// `out` is valid for writes of one `jetjson_digest_canonical`.
unsafe fn put_digest(out: *mut Digest, text: &str) {
    debug_assert!(text.len() < types::DIGEST_MAX);
    let n = text.len().min(types::DIGEST_MAX - 1);
    // SAFETY: `out` is writable (caller); `n + 1 <= DIGEST_MAX` bytes are
    // written into `text`, through raw places (no reference to the struct).
    unsafe {
        (*out).len = n;
        let dst = std::ptr::addr_of_mut!((*out).text) as *mut u8;
        std::ptr::copy_nonoverlapping(text.as_ptr(), dst, n);
        *dst.add(n) = 0;
    }
}

/// `jetjson_canonicalize`.
///
/// # Safety
/// See `jetjson.h`.
#[no_mangle]
pub unsafe extern "C" fn jetjson_canonicalize(
    json: *const u8,
    len: usize,
    write: *const WriteOptions,
    read: *const ReadOptions,
    out: *mut Buffer,
    err: *mut Error,
) -> Status {
    // SAFETY: the caller's contract (jetjson.h), forwarded to each helper.
    unsafe {
        boundary::run(err, || {
            let json = boundary::input(json, len, "json")?;
            let options = named_write_options(write, "jetjson_canonicalize")?;
            let read = read_options(read)?;
            let out = Out::new(out, "out")?;
            let value = parse(json, &read)?;
            let base = out.len();
            let sink = CSink::new(Target::Buffer(out));
            let spill = sink.failure.clone();
            let mut w = Writer::with_sink(&options, sink);
            let written = value.write_to(&mut w).and_then(|()| w.finish().map(drop));
            written.map_err(|e| {
                let mut out = out;
                out.truncate(base);
                failure_of(&jetjson::__private::write_error_in(e, json), &spill)
            })
        })
    }
}

/// `jetjson_digest_canonical`.
///
/// # Safety
/// See `jetjson.h`.
#[no_mangle]
pub unsafe extern "C" fn jetjson_digest_canonical(
    json: *const u8,
    len: usize,
    write: *const WriteOptions,
    read: *const ReadOptions,
    algorithm_id: c_int,
    out: *mut Digest,
    err: *mut Error,
) -> Status {
    // SAFETY: the caller's contract (jetjson.h), forwarded to each helper.
    unsafe {
        boundary::run(err, || {
            let json = boundary::input(json, len, "json")?;
            let options = named_write_options(write, "jetjson_digest_canonical")?;
            let read = read_options(read)?;
            let algorithm = algorithm(algorithm_id)?;
            let out = boundary::required(out, "out")?;
            let value = parse(json, &read)?;
            let text = jetjson::digest_value(&value, &options, algorithm)
                .map_err(|e| Failure::from_core(&jetjson::__private::write_error_in(e, json)))?;
            put_digest(out, &text);
            Ok(())
        })
    }
}

/// `jetjson_digest_bytes`.
///
/// # Safety
/// See `jetjson.h`.
#[no_mangle]
pub unsafe extern "C" fn jetjson_digest_bytes(
    data: *const u8,
    len: usize,
    algorithm_id: c_int,
    out: *mut Digest,
    err: *mut Error,
) -> Status {
    // SAFETY: the caller's contract (jetjson.h), forwarded to each helper.
    unsafe {
        boundary::run(err, || {
            let data = boundary::input(data, len, "data")?;
            let algorithm = algorithm(algorithm_id)?;
            let out = boundary::required(out, "out")?;
            put_digest(out, &jetjson::digest_bytes(data, algorithm));
            Ok(())
        })
    }
}

/// `jetjson_validate`.
///
/// # Safety
/// See `jetjson.h`.
#[no_mangle]
pub unsafe extern "C" fn jetjson_validate(json: *const u8, len: usize, read: *const ReadOptions, err: *mut Error) -> Status {
    // SAFETY: the caller's contract (jetjson.h), forwarded to each helper.
    unsafe {
        boundary::run(err, || {
            let json = boundary::input(json, len, "json")?;
            let read = read_options(read)?;
            jetjson::parse::validate(json, &read).map_err(|e| Failure::from_core(&e))
        })
    }
}
