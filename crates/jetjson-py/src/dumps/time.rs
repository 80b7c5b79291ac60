//! Dates and times.
//!
//! All profiles start from Python's `isoformat()`, which is RFC 3339 for
//! aware datetimes (`2024-05-01T12:30:00+02:00`, microseconds only when
//! non-zero) and the same without the offset for naive ones (RFC 3339 has no
//! naive form; we write none rather than invent a zone). `go` then writes
//! datetimes as Go's `time.Time` does (RFC 3339 with nanoseconds, `Z` for a
//! zero offset, trailing fraction zeros dropped), so a Python datetime hashes
//! like the Go value with the same instant and offset. `date` and `time` are
//! `isoformat()` in every profile (Go has no such types).

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    DateTime,
    Date,
    Time,
}

/// `isoformat()` of a datetime rewritten in Go's `time.Time` JSON layout.
pub fn go_layout(iso: &str) -> String {
    // The date part holds '-' at 4 and 7 (years are 4 digits in isoformat);
    // an offset, when present, starts with the first '+'/'-' after it.
    let split = iso.get(10..).and_then(|rest| rest.find(['+', '-']).map(|i| i + 10)).unwrap_or(iso.len());
    let (main, offset) = iso.split_at(split);
    let main = match main.find('.') {
        Some(dot) => {
            let trimmed = main.trim_end_matches('0');
            if trimmed.len() == dot + 1 {
                &main[..dot]
            } else {
                trimmed
            }
        }
        None => main,
    };
    let offset = if offset == "+00:00" { "Z" } else { offset };
    format!("{main}{offset}")
}
