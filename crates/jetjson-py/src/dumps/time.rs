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

/// A date and time as CPython's datetime objects hold them, with the UTC
/// offset `utcoffset()` gave (microseconds; `None` for naive values).
#[derive(Clone, Copy, Debug)]
pub struct Moment {
    pub year: u16,
    pub month: u8,
    pub day: u8,
    pub hour: u8,
    pub minute: u8,
    pub second: u8,
    pub micro: u32,
    pub offset: Option<i64>,
}

/// Room for the longest text: `YYYY-MM-DDTHH:MM:SS.ffffff+HH:MM:SS.ffffff`.
pub const TEXT_MAX: usize = 48;

/// The layouts' cursor over the buffer they write into: the writer's
/// output itself for values (`Writer::str_in_place`), so that the pieces,
/// each one narrow store, are not read back at once (a wide load of bytes
/// that several narrower stores wrote waits for them to reach the cache:
/// a text made in a buffer of its own, returned and copied, cost
/// `dumps` of a dataclass holding a datetime a quarter of its time on AMD
/// Zen 5).
struct Text {
    /// Room for `TEXT_MAX` bytes (`layout`'s contract).
    buf: *mut u8,
    len: usize,
}

/// "00" to "99".
const PAIRS: &[u8; 200] = b"0001020304050607080910111213141516171819\
2021222324252627282930313233343536373839\
4041424344454647484950515253545556575859\
6061626364656667686970717273747576777879\
8081828384858687888990919293949596979899";

/// `v` (below 100) as two ASCII digits.
#[inline(always)]
fn pair(v: u32) -> [u8; 2] {
    let i = (v as usize % 100) * 2;
    [PAIRS[i], PAIRS[i + 1]]
}

impl Text {
    /// Appends the `N` bytes of a piece put together in registers (the
    /// layouts never write more than `TEXT_MAX` bytes): one store and one
    /// length update per piece, not per byte.
    #[inline(always)]
    fn put<const N: usize>(&mut self, piece: [u8; N]) {
        if self.len + N <= TEXT_MAX {
            // SAFETY: `buf` has room for `TEXT_MAX` bytes (`layout`'s
            // contract) and `len + N` is within it.
            unsafe { std::ptr::copy_nonoverlapping(piece.as_ptr(), self.buf.add(self.len), N) };
            self.len += N;
        }
    }

    /// The last byte written (`len > 0`).
    #[inline(always)]
    fn last(&self) -> u8 {
        debug_assert!(self.len > 0);
        // SAFETY: `len > 0` bytes were written at `buf` (by `put`).
        unsafe { *self.buf.add(self.len - 1) }
    }

    /// Appends `b` (the layouts never write more than `TEXT_MAX` bytes).
    #[inline(always)]
    fn push(&mut self, b: u8) {
        self.put([b]);
    }

    /// `v` (below 100) as two digits.
    #[inline(always)]
    fn two(&mut self, v: u32) {
        self.put(pair(v));
    }

    /// `.` and six digits of microseconds.
    #[inline(always)]
    fn dot_six(&mut self, v: u32) {
        let ([a, b], [c, d], [e, f]) = (pair(v / 10_000), pair(v / 100 % 100), pair(v % 100));
        self.put([b'.', a, b, c, d, e, f]);
    }

    /// `YYYY-MM-DD`.
    fn date(&mut self, m: &Moment) {
        let y = u32::from(m.year);
        let ([a, b], [c, d]) = (pair(y / 100), pair(y % 100));
        let ([e, f], [g, h]) = (pair(u32::from(m.month)), pair(u32::from(m.day)));
        self.put([a, b, c, d, b'-', e, f, b'-', g, h]);
    }

    /// `HH:MM:SS`.
    fn clock(&mut self, m: &Moment) {
        let ([a, b], [c, d], [e, f]) = (pair(u32::from(m.hour)), pair(u32::from(m.minute)), pair(u32::from(m.second)));
        self.put([a, b, b':', c, d, b':', e, f]);
    }

    /// `+HH:MM` (or `-`).
    fn zone(&mut self, negative: bool, hours: u32, minutes: u32) {
        let ([a, b], [c, d]) = (pair(hours), pair(minutes));
        self.put([if negative { b'-' } else { b'+' }, a, b, b':', c, d]);
    }

    /// Python's `isoformat()` offset: `+HH:MM`, then `:SS` when there are
    /// seconds or microseconds, then `.ffffff` when there are microseconds.
    fn iso_offset(&mut self, offset: i64) {
        let o = offset.unsigned_abs();
        let (seconds, micro) = (o / 1_000_000, (o % 1_000_000) as u32);
        self.zone(offset < 0, (seconds / 3600) as u32, (seconds / 60 % 60) as u32);
        if seconds % 60 != 0 || micro != 0 {
            self.push(b':');
            self.two((seconds % 60) as u32);
            if micro != 0 {
                self.dot_six(micro);
            }
        }
    }

    /// `HH:MM:SS[.ffffff][+HH:MM[:SS[.ffffff]]]`, as `isoformat` writes the
    /// clock of a time or datetime.
    fn iso_clock(&mut self, m: &Moment) {
        self.clock(m);
        if m.micro != 0 {
            self.dot_six(m.micro);
        }
        if let Some(offset) = m.offset {
            self.iso_offset(offset);
        }
    }
}

/// Writes the text of `m` (a value of `kind`) into `buf` in the layout
/// of the profile (`go`: Go's `time.Time` for datetimes, else
/// `isoformat`'s); returns its length. Only ASCII digits and `-`, `:`,
/// `.`, `+`, `T` and `Z` are written: nothing any profile escapes.
///
/// # Safety
/// `out` is valid for `TEXT_MAX` bytes of writes.
#[inline(always)]
pub unsafe fn layout(m: &Moment, kind: Kind, go: bool, out: *mut u8) -> usize {
    let mut t = Text { buf: out, len: 0 };
    match kind {
        Kind::DateTime if go => go_datetime(m, &mut t),
        Kind::DateTime => iso_datetime(m, &mut t),
        Kind::Date => t.date(m),
        Kind::Time => t.iso_clock(m),
    }
    t.len
}

/// `datetime.isoformat()`: the layout of compact and jcs.
#[inline(always)]
fn iso_datetime(m: &Moment, t: &mut Text) {
    t.date(m);
    t.push(b'T');
    t.iso_clock(m);
}

/// A datetime as Go's `time.Time` writes it (`go_layout` of its isoformat):
/// RFC 3339, the fraction's trailing zeros dropped, `Z` for a zero offset,
/// any other offset in whole minutes truncated toward zero (of its seconds).
#[inline(always)]
fn go_datetime(m: &Moment, t: &mut Text) {
    t.date(m);
    t.push(b'T');
    t.clock(m);
    if m.micro != 0 {
        t.dot_six(m.micro);
        // Go drops the fraction's trailing zeros (not all are: micro != 0).
        while t.len > 0 && t.last() == b'0' {
            t.len -= 1;
        }
    }
    if let Some(offset) = m.offset {
        // Seconds of the offset, as isoformat shows them (the magnitude's
        // microseconds dropped), with the offset's sign.
        let seconds = (offset.unsigned_abs() / 1_000_000) as i64 * offset.signum();
        if seconds == 0 {
            t.push(b'Z');
        } else {
            let minutes = seconds / 60;
            let negative = minutes < 0;
            let minutes = minutes.unsigned_abs() as u32;
            t.zone(negative, minutes / 60, minutes % 60);
        }
    }
}
