//! The C ABI of jetjson: `libjetjson.so` / `libjetjson.a` with the header
//! `include/jetjson.h`, which documents every function, its ownership rules
//! and its statuses. This crate only adapts the core's public API to C:
//!
//! * `document.rs`: canonicalize, digest, validate;
//! * `escape.rs`: one string in a profile's escape set;
//! * `writer.rs`: the streaming writer;
//! * `reader.rs`: the callback (SAX) reader;
//! * `buffer.rs`, `sink.rs`: where output goes;
//! * `boundary.rs`, `options.rs`, `types.rs`: the rules at the boundary
//!   (no panic crosses it, a status and an error struct from every call),
//!   options, and the ABI's structs.
//!
//! No state is global: every call works on what it is given, so any
//! function may run on any thread; a writer is used by one thread at a time.

mod boundary;
mod buffer;
mod document;
mod escape;
mod options;
mod reader;
mod sink;
pub mod types;
mod writer;

pub use writer::CWriter;

/// `jetjson_version`: the library's version, a static NUL-terminated string
/// (never freed).
#[no_mangle]
pub extern "C" fn jetjson_version() -> *const std::os::raw::c_char {
    concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr() as *const std::os::raw::c_char
}
