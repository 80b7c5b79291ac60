//! The structs and constants of `jetjson.h`, laid out as C lays them out.
//!
//! Every type here has a twin in the header; `tests/layout.rs` compiles a C
//! program against the header and compares each struct's size, alignment and
//! field offsets with these definitions.

use std::os::raw::{c_char, c_int, c_void};

/// The status every function returns (`jetjson_status`, an `int`).
pub type Status = c_int;

pub const OK: Status = 0;
/// A NULL pointer where one is required, an unknown enum value, an option out
/// of range or a combination the profile refuses.
pub const ERR_ARGUMENT: Status = 1;
/// The input is not one strict JSON text (also invalid UTF-8 in JSON input).
pub const ERR_SYNTAX: Status = 2;
/// `max_depth` or `max_size` exceeded.
pub const ERR_LIMIT: Status = 3;
/// An object names a key twice and `duplicate_keys` is `JETJSON_DUPLICATES_ERROR`.
pub const ERR_DUPLICATE_KEY: Status = 4;
/// A value the profile cannot write: NaN or infinity, an integer out of the
/// profile's range, text that is not UTF-8 where the profile does not repair it.
pub const ERR_VALUE: Status = 5;
/// A writer call out of order (a key where a value belongs, an unbalanced
/// end, a second top-level value, finish with containers open), or any call
/// on a writer after it failed or finished.
pub const ERR_STATE: Status = 6;
/// A callback returned non-zero (write callback or visitor).
pub const ERR_CALLBACK: Status = 7;
/// `realloc` of a `jetjson_buffer` failed.
pub const ERR_NO_MEMORY: Status = 8;
/// A bug in jetjson: a Rust panic caught at the boundary.
pub const ERR_INTERNAL: Status = 9;

/// A zeroed struct's profile: compact for the writer and `jetjson_escape`;
/// refused by canonicalize and digest_canonical, whose bytes name their
/// profile.
pub const PROFILE_UNSET: c_int = 0;
pub const PROFILE_GO: c_int = 1;
pub const PROFILE_JCS: c_int = 2;
pub const PROFILE_COMPACT: c_int = 3;

pub const KEYS_PROFILE: c_int = 0;
pub const KEYS_SORTED: c_int = 1;
pub const KEYS_KEEP: c_int = 2;

pub const HTML_PROFILE: c_int = 0;
pub const HTML_ON: c_int = 1;
pub const HTML_OFF: c_int = 2;

pub const DUPLICATES_ERROR: c_int = 0;
pub const DUPLICATES_FIRST: c_int = 1;
pub const DUPLICATES_LAST: c_int = 2;

pub const SHA256: c_int = 0;
pub const SHA512: c_int = 1;

pub const NUMBER_I64: c_int = 0;
pub const NUMBER_U64: c_int = 1;
pub const NUMBER_F64: c_int = 2;
pub const NUMBER_BIG: c_int = 3;

/// Bytes of `jetjson_error.message`, its terminating NUL included.
pub const MESSAGE_MAX: usize = 256;
/// Bytes of `jetjson_digest.text`: `"sha512:"`, 128 hex digits and a NUL.
pub const DIGEST_MAX: usize = 136;
/// Widest indent accepted: the core's cap (`jetjson::MAX_INDENT`), as in
/// every front end.
pub const MAX_INDENT: u32 = jetjson::MAX_INDENT as u32;
/// Default `max_depth` (a zero in `jetjson_read_options` means this).
pub const DEFAULT_MAX_DEPTH: usize = 512;
/// Default `max_write_depth` (a zero in `jetjson_write_options` means this):
/// the core's, as in every front end.
pub const DEFAULT_MAX_WRITE_DEPTH: usize = jetjson::DEFAULT_MAX_WRITE_DEPTH;
/// `JETJSON_ABI_VERSION`: the major version of the shared library's soname
/// (`libjetjson.so.1`), bumped by every change to a struct's layout or a
/// function's signature. `build.rs` reads it from the header.
pub const ABI_VERSION: c_int = 1;

/// `jetjson_error`: what went wrong and where.
#[repr(C)]
pub struct Error {
    pub status: Status,
    /// 1 when `offset`, `line` and `column` locate the error in the input.
    pub has_position: c_int,
    pub offset: usize,
    pub line: usize,
    pub column: usize,
    pub message_len: usize,
    pub message: [c_char; MESSAGE_MAX],
}

/// `jetjson_buffer`: bytes in memory from `malloc`/`realloc`, owned by the
/// caller, grown by the library with `realloc`.
#[repr(C)]
pub struct Buffer {
    pub data: *mut u8,
    pub len: usize,
    pub cap: usize,
}

/// `jetjson_write_options`; all zeros is the `compact` profile's defaults.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct WriteOptions {
    pub profile: c_int,
    pub sort_keys: c_int,
    pub escape_html: c_int,
    pub ascii_only: c_int,
    pub indent: u32,
    pub max_write_depth: usize,
}

/// `jetjson_read_options`; all zeros is strict RFC 8259 with depth 512.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ReadOptions {
    pub max_depth: usize,
    pub max_size: usize,
    pub duplicate_keys: c_int,
    pub allow_bom: c_int,
}

/// `jetjson_digest`: `"sha256:<hex>"` or `"sha512:<hex>"`, NUL-terminated.
#[repr(C)]
pub struct Digest {
    pub len: usize,
    pub text: [c_char; DIGEST_MAX],
}

/// `jetjson_number`: a number as the parser read it.
#[repr(C)]
pub struct Number {
    pub kind: c_int,
    pub is_integer: c_int,
    pub i64: i64,
    pub u64: u64,
    pub f64: f64,
    pub text: *const c_char,
    pub text_len: usize,
}

/// `jetjson_write_fn`.
pub type WriteFn = Option<unsafe extern "C" fn(user: *mut c_void, bytes: *const u8, len: usize) -> c_int>;

/// `jetjson_visitor`: one optional callback per token.
#[repr(C)]
pub struct Visitor {
    pub null_value: Option<unsafe extern "C" fn(user: *mut c_void) -> c_int>,
    pub boolean: Option<unsafe extern "C" fn(user: *mut c_void, value: c_int) -> c_int>,
    pub number: Option<unsafe extern "C" fn(user: *mut c_void, number: *const Number) -> c_int>,
    pub string: Option<unsafe extern "C" fn(user: *mut c_void, s: *const c_char, len: usize) -> c_int>,
    pub key: Option<unsafe extern "C" fn(user: *mut c_void, s: *const c_char, len: usize) -> c_int>,
    pub begin_object: Option<unsafe extern "C" fn(user: *mut c_void) -> c_int>,
    pub end_object: Option<unsafe extern "C" fn(user: *mut c_void) -> c_int>,
    pub begin_array: Option<unsafe extern "C" fn(user: *mut c_void) -> c_int>,
    pub end_array: Option<unsafe extern "C" fn(user: *mut c_void) -> c_int>,
}
