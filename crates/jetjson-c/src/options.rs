//! `jetjson_write_options` and `jetjson_read_options` resolved into the
//! core's options, with the same rules as the CLI and the Python front end:
//! an option that cannot change the profile's bytes is refused (the core's
//! `WriteOptions::inapplicable`), and the write depth limit has the core's
//! default and range.

use jetjson::{DuplicateKeys, Profile, WriteOption, MAX_WRITE_DEPTH};

use crate::boundary::Failure;
use crate::types::{self, ReadOptions, WriteOptions};

/// The core's write options for `p` (NULL, or profile 0: the `compact`
/// defaults), for output that is not hashed or signed: the writer and
/// `jetjson_escape`.
///
/// # Safety
/// `p` is NULL or valid for reads of one `jetjson_write_options`.
pub(crate) unsafe fn write_options(p: *const WriteOptions) -> Result<jetjson::WriteOptions, Failure> {
    if p.is_null() {
        return Ok(jetjson::WriteOptions::compact());
    }
    // SAFETY: non-NULL and readable (caller); the struct is plain integers.
    resolve(unsafe { *p })
}

/// The core's write options for output that is hashed or signed
/// (`jetjson_canonicalize`, `jetjson_digest_canonical`): the profile must
/// be named, as the CLI's `--profile` and Python's `profile` must.
///
/// # Safety
/// `p` is NULL or valid for reads of one `jetjson_write_options`.
pub(crate) unsafe fn named_write_options(p: *const WriteOptions, function: &str) -> Result<jetjson::WriteOptions, Failure> {
    // SAFETY: NULL or readable (caller); the struct is plain integers.
    let named = if p.is_null() { None } else { Some(unsafe { *p }).filter(|o| o.profile != types::PROFILE_UNSET) };
    match named {
        Some(o) => resolve(o),
        None => Err(Failure::argument(format!(
            "{function} needs a profile: set write->profile to JETJSON_PROFILE_COMPACT, JETJSON_PROFILE_GO or \
             JETJSON_PROFILE_JCS (there is no default for bytes that are hashed or signed)"
        ))),
    }
}

fn resolve(o: WriteOptions) -> Result<jetjson::WriteOptions, Failure> {
    let profile = match o.profile {
        types::PROFILE_UNSET | types::PROFILE_COMPACT => Profile::Compact,
        types::PROFILE_GO => Profile::Go,
        types::PROFILE_JCS => Profile::Jcs,
        other => return Err(Failure::argument(format!("unknown profile {other} (expected JETJSON_PROFILE_COMPACT, _GO or _JCS)"))),
    };
    let sort = match o.sort_keys {
        types::KEYS_PROFILE => None,
        types::KEYS_SORTED => Some(true),
        types::KEYS_KEEP => Some(false),
        other => return Err(Failure::argument(format!("unknown sort_keys {other} (expected JETJSON_KEYS_PROFILE, _SORTED or _KEEP)"))),
    };
    let html = match o.escape_html {
        types::HTML_PROFILE => None,
        types::HTML_ON => Some(true),
        types::HTML_OFF => Some(false),
        other => return Err(Failure::argument(format!("unknown escape_html {other} (expected JETJSON_HTML_PROFILE, _ON or _OFF)"))),
    };
    let ascii_only = match o.ascii_only {
        0 => false,
        1 => true,
        other => return Err(Failure::argument(format!("ascii_only must be 0 or 1, got {other}"))),
    };
    if o.indent > types::MAX_INDENT {
        return Err(Failure::argument(format!("indent must be from 0 to {}, got {}", types::MAX_INDENT, o.indent)));
    }
    let depth = match o.max_write_depth {
        0 => types::DEFAULT_MAX_WRITE_DEPTH,
        d if d <= MAX_WRITE_DEPTH => d,
        d => return Err(Failure::argument(format!("max_write_depth must be from 1 to {MAX_WRITE_DEPTH} (0: 512), got {d}"))),
    };
    // `indent <= MAX_INDENT` (16) fits in u16.
    let mut w = jetjson::WriteOptions::new(profile).indent(o.indent as u16).ascii_only(ascii_only).max_write_depth(depth);
    if let Some(html) = html {
        w = w.escape_html(html);
    }
    if let Some(sort) = sort {
        w = w.sort_keys(sort);
    }
    // The rule every front end follows: an option that cannot change the
    // profile's bytes is refused.
    if let Some(refused) = w.inapplicable() {
        return Err(Failure::argument(format!(
            "{} cannot be used with profile {}: {}",
            field(refused.option),
            refused.profile.name(),
            refused.reason
        )));
    }
    Ok(w)
}

/// How `jetjson.h` spells an output option.
fn field(option: WriteOption) -> &'static str {
    match option {
        WriteOption::EscapeHtml(true) => "escape_html = JETJSON_HTML_ON",
        WriteOption::EscapeHtml(false) => "escape_html = JETJSON_HTML_OFF",
        WriteOption::SortKeys(true) => "sort_keys = JETJSON_KEYS_SORTED",
        WriteOption::SortKeys(false) => "sort_keys = JETJSON_KEYS_KEEP",
        WriteOption::Indent => "indent",
        WriteOption::AsciiOnly => "ascii_only",
        // The C interface has no NaN option (its writer refuses NaN).
        _ => "an output option",
    }
}

/// The core's read options for `p` (NULL: strict RFC 8259, depth 512).
///
/// # Safety
/// `p` is NULL or valid for reads of one `jetjson_read_options`.
pub(crate) unsafe fn read_options(p: *const ReadOptions) -> Result<jetjson::ReadOptions, Failure> {
    let o = if p.is_null() {
        ReadOptions { max_depth: 0, max_size: 0, duplicate_keys: types::DUPLICATES_ERROR, allow_bom: 0 }
    } else {
        // SAFETY: non-NULL and readable (caller); plain integers.
        unsafe { *p }
    };
    let duplicates = match o.duplicate_keys {
        types::DUPLICATES_ERROR => DuplicateKeys::Error,
        types::DUPLICATES_FIRST => DuplicateKeys::First,
        types::DUPLICATES_LAST => DuplicateKeys::Last,
        other => {
            return Err(Failure::argument(format!("unknown duplicate_keys {other} (expected JETJSON_DUPLICATES_ERROR, _FIRST or _LAST)")))
        }
    };
    let allow_bom = match o.allow_bom {
        0 => false,
        1 => true,
        other => return Err(Failure::argument(format!("allow_bom must be 0 or 1, got {other}"))),
    };
    let depth = if o.max_depth == 0 { types::DEFAULT_MAX_DEPTH } else { o.max_depth };
    let mut r = jetjson::ReadOptions::new().max_depth(depth).duplicate_keys(duplicates).allow_bom(allow_bom);
    if o.max_size != 0 {
        r = r.max_size(o.max_size);
    }
    Ok(r)
}
