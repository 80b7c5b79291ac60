//! A UTC timestamp written as Go writes a `time.Time` in UTC (RFC 3339 with
//! the fraction's trailing zeros removed, `Z` for the zone), so the SDK and
//! envelope records produce the same bytes from Rust and Go. The same
//! `Serialize`/`Deserialize` code runs under every Rust library.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, Visitor};
use serde::ser::{Serialize, Serializer};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Timestamp {
    /// Seconds since 1970-01-01T00:00:00Z (dates from year 1 to 9999).
    pub secs: i64,
    pub nanos: u32,
}

/// Days since 1970-01-01 to (year, month, day), proleptic Gregorian, by
/// 400-year eras starting in March (the leap day ends the era's year).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// The inverse of `civil_from_days`.
fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let m = i64::from(month);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(day) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

impl Timestamp {
    /// Writes `2024-03-05T12:34:56.789Z` into `buf`; returns the length.
    pub fn format(&self, buf: &mut [u8; 32]) -> usize {
        fn digits(out: &mut [u8], mut v: u32) {
            for b in out.iter_mut().rev() {
                *b = b'0' + (v % 10) as u8;
                v /= 10;
            }
        }
        let (y, mo, d) = civil_from_days(self.secs.div_euclid(86_400));
        let sod = self.secs.rem_euclid(86_400) as u32;
        buf[..19].copy_from_slice(b"0000-00-00T00:00:00");
        digits(&mut buf[0..4], y as u32);
        digits(&mut buf[5..7], mo);
        digits(&mut buf[8..10], d);
        digits(&mut buf[11..13], sod / 3600);
        digits(&mut buf[14..16], sod / 60 % 60);
        digits(&mut buf[17..19], sod % 60);
        let mut n = 19;
        if self.nanos != 0 {
            buf[19] = b'.';
            digits(&mut buf[20..29], self.nanos);
            n = 29;
            while buf[n - 1] == b'0' {
                n -= 1;
            }
        }
        buf[n] = b'Z';
        n + 1
    }

    pub fn parse(s: &str) -> Option<Timestamp> {
        let b = s.as_bytes();
        let num = |r: std::ops::Range<usize>| -> Option<u32> {
            let part = b.get(r)?;
            part.iter().try_fold(0u32, |acc, &c| c.is_ascii_digit().then(|| acc * 10 + u32::from(c - b'0')))
        };
        if b.len() < 20 || b[4] != b'-' || b[7] != b'-' || b[10] != b'T' || b[13] != b':' || b[16] != b':' || *b.last()? != b'Z' {
            return None;
        }
        let (y, mo, d) = (num(0..4)?, num(5..7)?, num(8..10)?);
        let (h, mi, sec) = (num(11..13)?, num(14..16)?, num(17..19)?);
        if !(1..=12).contains(&mo) || !(1..=31).contains(&d) || h > 23 || mi > 59 || sec > 59 {
            return None;
        }
        let nanos = match &b[19..b.len() - 1] {
            [] => 0,
            [b'.', frac @ ..] if (1..=9).contains(&frac.len()) => num(20..20 + frac.len())? * 10u32.pow(9 - frac.len() as u32),
            _ => return None,
        };
        let secs = days_from_civil(i64::from(y), mo, d) * 86_400 + i64::from(h * 3600 + mi * 60 + sec);
        Some(Timestamp { secs, nanos })
    }
}

impl Serialize for Timestamp {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut buf = [0u8; 32];
        let n = self.format(&mut buf);
        // The digits and separators written above are ASCII.
        s.serialize_str(std::str::from_utf8(&buf[..n]).map_err(serde::ser::Error::custom)?)
    }
}

impl<'de> Deserialize<'de> for Timestamp {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Timestamp, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Timestamp;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an RFC 3339 UTC timestamp")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Timestamp, E> {
                Timestamp::parse(s).ok_or_else(|| E::custom(format!("bad timestamp {s:?}")))
            }
        }
        d.deserialize_str(V)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(t: Timestamp) -> String {
        let mut buf = [0u8; 32];
        let n = t.format(&mut buf);
        String::from_utf8(buf[..n].to_vec()).unwrap()
    }

    #[test]
    fn formats_like_go_rfc3339nano() {
        assert_eq!(text(Timestamp { secs: 0, nanos: 0 }), "1970-01-01T00:00:00Z");
        assert_eq!(text(Timestamp { secs: 1_709_642_096, nanos: 789_000_000 }), "2024-03-05T12:34:56.789Z");
        assert_eq!(text(Timestamp { secs: 951_782_400, nanos: 1 }), "2000-02-29T00:00:00.000000001Z");
    }

    #[test]
    fn parses_what_it_formats() {
        let mut rng = crate::rng::Rng::new(7);
        for _ in 0..10_000 {
            let t = Timestamp { secs: rng.range(0, 253_402_300_799) as i64, nanos: rng.below(1_000_000_000) as u32 };
            assert_eq!(Timestamp::parse(&text(t)), Some(t), "{}", text(t));
        }
        assert_eq!(Timestamp::parse("2024-13-01T00:00:00Z"), None);
        assert_eq!(Timestamp::parse("2024-01-01T00:00:00.Z"), None);
    }
}
