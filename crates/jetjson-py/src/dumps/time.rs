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

/// `isoformat()` of a datetime rewritten in Go's `time.Time` JSON layout;
/// `None` when the text is not the layout `isoformat()` writes (a subclass
/// may return anything).
///
/// Go writes a zone offset in whole minutes, truncated toward zero (Go's
/// `offset / 60`): `+00:19:32` (Amsterdam before 1937) is `+00:19`, and an
/// offset of under a minute either way is `+00:00`; only a zero offset is `Z`.
pub fn go_layout(iso: &str) -> Option<String> {
    // `YYYY-MM-DDTHH:MM:SS`, an optional `.ffffff`, an optional offset.
    let b = iso.as_bytes();
    let digits = |r: std::ops::Range<usize>| b.get(r).is_some_and(|d| d.iter().all(u8::is_ascii_digit));
    let shape_ok = b.len() >= 19
        && digits(0..4)
        && digits(5..7)
        && digits(8..10)
        && digits(11..13)
        && digits(14..16)
        && digits(17..19)
        && (b[4], b[7], b[10], b[13], b[16]) == (b'-', b'-', b'T', b':', b':');
    if !shape_ok {
        return None;
    }
    let mut at = 19;
    let mut out = String::with_capacity(36);
    out.push_str(&iso[..19]);
    if b.get(at) == Some(&b'.') {
        let end = at + 1 + b[at + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
        if end == at + 1 {
            return None;
        }
        let fraction = iso[at + 1..end].trim_end_matches('0');
        if !fraction.is_empty() {
            out.push('.');
            out.push_str(fraction);
        }
        at = end;
    }
    let offset = &b[at..];
    if offset.is_empty() {
        return Some(out);
    }
    // `+HH:MM`, `+HH:MM:SS` or `+HH:MM:SS.ffffff`.
    let sign = match offset[0] {
        b'+' => 1i64,
        b'-' => -1,
        _ => return None,
    };
    let num = |r: std::ops::Range<usize>| -> Option<i64> {
        let d = offset.get(r)?;
        d.iter().all(u8::is_ascii_digit).then(|| d.iter().fold(0i64, |n, &c| n * 10 + i64::from(c - b'0')))
    };
    let (h, m) = (num(1..3)?, num(4..6)?);
    if offset.get(3) != Some(&b':') {
        return None;
    }
    let mut seconds = h * 3600 + m * 60;
    match offset.len() {
        6 => {}
        9 | 16 if offset[6] == b':' => {
            seconds += num(7..9)?;
            if offset.len() == 16 && (offset[9] != b'.' || num(10..16).is_none()) {
                return None;
            }
        }
        _ => return None,
    }
    let total = sign * seconds;
    if total == 0 {
        out.push('Z');
        return Some(out);
    }
    // Go: zone = offset / 60 (truncated toward zero); '-' only when negative.
    let minutes = total / 60;
    let (sign, minutes) = if minutes < 0 { ('-', -minutes) } else { ('+', minutes) };
    out.push(sign);
    out.push_str(&format!("{:02}:{:02}", minutes / 60, minutes % 60));
    Some(out)
}
