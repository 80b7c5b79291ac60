//! Values that JSON carries as strings, read from their text: RFC 3339
//! dates and times, UUIDs, base64. Pure functions: they check the text and
//! return its parts (or `None`), and never panic on any input.

/// A date and time as RFC 3339 writes it (and `isoformat()`, which may
/// leave the offset out: a naive datetime).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct DateTime {
    pub date: Date,
    pub time: Time,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Date {
    pub year: i32,
    pub month: u8,
    pub day: u8,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Time {
    pub hour: u8,
    pub minute: u8,
    pub second: u8,
    /// Digits beyond the sixth are dropped (truncated).
    pub microsecond: u32,
    /// Seconds east of UTC; `None` without an offset (naive).
    pub offset: Option<i32>,
}

#[inline(always)]
fn digits2(b: &[u8], at: usize) -> Option<u8> {
    let (x, y) = (*b.get(at)?, *b.get(at + 1)?);
    (x.is_ascii_digit() && y.is_ascii_digit()).then(|| (x - b'0') * 10 + (y - b'0'))
}

/// `YYYY-MM-DD`, a real day of the Gregorian calendar (years 1 to 9999,
/// what Python's `date` holds).
pub(crate) fn date(b: &[u8]) -> Option<Date> {
    if b.len() != 10 {
        return None;
    }
    date_at(b)
}

fn date_at(b: &[u8]) -> Option<Date> {
    let (hi, lo) = (digits2(b, 0)?, digits2(b, 2)?);
    if b.get(4) != Some(&b'-') || b.get(7) != Some(&b'-') {
        return None;
    }
    let year = i32::from(hi) * 100 + i32::from(lo);
    let (month, day) = (digits2(b, 5)?, digits2(b, 8)?);
    if year == 0 || !(1..=12).contains(&month) || day == 0 || day > days_in_month(year, month) {
        return None;
    }
    Some(Date { year, month, day })
}

fn days_in_month(year: i32, month: u8) -> u8 {
    match month {
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// `HH:MM:SS`, an optional fraction (one digit or more, as RFC 3339 has
/// it; those past microseconds are dropped) and an optional offset
/// (`Z`, `z`, `+HH:MM`, `-HH:MM`). Leap seconds (`60`) are refused: Python
/// has none.
pub(crate) fn time(b: &[u8]) -> Option<Time> {
    let (t, used) = time_at(b)?;
    (used == b.len()).then_some(t)
}

fn time_at(b: &[u8]) -> Option<(Time, usize)> {
    let (hour, minute, second) = (digits2(b, 0)?, digits2(b, 3)?, digits2(b, 6)?);
    if b.get(2) != Some(&b':') || b.get(5) != Some(&b':') || hour > 23 || minute > 59 || second > 59 {
        return None;
    }
    let mut at = 8;
    let mut microsecond = 0u32;
    if b.get(at) == Some(&b'.') {
        at += 1;
        let start = at;
        while let Some(d) = b.get(at).filter(|d| d.is_ascii_digit()) {
            if at - start < 6 {
                microsecond = microsecond * 10 + u32::from(d - b'0');
            }
            at += 1;
        }
        let n = at - start;
        if n == 0 {
            return None;
        }
        for _ in n..6 {
            microsecond *= 10;
        }
    }
    let offset = match b.get(at) {
        None => None,
        Some(b'Z' | b'z') => {
            at += 1;
            Some(0)
        }
        Some(&sign @ (b'+' | b'-')) => {
            let (h, m) = (digits2(b, at + 1)?, digits2(b, at + 4)?);
            if b.get(at + 3) != Some(&b':') || h > 23 || m > 59 {
                return None;
            }
            at += 6;
            let secs = i32::from(h) * 3600 + i32::from(m) * 60;
            Some(if sign == b'-' { -secs } else { secs })
        }
        Some(_) => return None,
    };
    Some((Time { hour, minute, second, microsecond, offset }, at))
}

/// `date` `T` `time` (`T`, `t` or a space between them, as RFC 3339 allows).
pub(crate) fn datetime(b: &[u8]) -> Option<DateTime> {
    if b.len() < 19 || !matches!(b[10], b'T' | b't' | b' ') {
        return None;
    }
    let date = date_at(&b[..10])?;
    let time = time(&b[11..])?;
    Some(DateTime { date, time })
}

/// A UUID: 32 hex digits, either in the 8-4-4-4-12 form with dashes or
/// without any; either case. Its 128 bits, big-endian.
pub(crate) fn uuid(b: &[u8]) -> Option<u128> {
    let dashed = match b.len() {
        32 => false,
        36 if b[8] == b'-' && b[13] == b'-' && b[18] == b'-' && b[23] == b'-' => true,
        _ => return None,
    };
    let mut v = 0u128;
    let mut bad = false;
    for (i, &c) in b.iter().enumerate() {
        if dashed && matches!(i, 8 | 13 | 18 | 23) {
            continue;
        }
        let d = match c {
            b'0'..=b'9' => c - b'0',
            b'a'..=b'f' => c - b'a' + 10,
            b'A'..=b'F' => c - b'A' + 10,
            _ => {
                bad = true;
                0
            }
        };
        v = (v << 4) | u128::from(d);
    }
    (!bad).then_some(v)
}

/// Standard base64 (RFC 4648 section 4, `+` and `/`, with `=` padding to a
/// multiple of four characters), decoded as Go decodes a `[]byte` and as
/// the Rust crate's `jetjson::base64` does (line breaks ignored, the
/// unused low bits of the last character not checked); `None` for
/// anything else.
pub(crate) fn base64(b: &[u8]) -> Option<Vec<u8>> {
    jetjson::__private::base64_decode(b)
}
