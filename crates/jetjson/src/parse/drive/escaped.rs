//! Strings with escapes in the push driver.
//!
//! The driver's scan of a string body stops at its first `"`, `\` or
//! control byte (in its masks of 64-byte blocks); the body is decoded from
//! there by this file. The rest is copied a step at a time with its stops
//! (`copy_run`: one load of each byte for the copy and the masks, no
//! whitespace mask), and the escapes met are decoded in the same loop,
//! each next stop the step's mask's next bit, so no load waits for the
//! bytes of the one before (the reference driver's decoder,
//! `parser::decode_into`, which this replaced here, classified a window
//! after each escape, then the run again with a dispatched scanner).
//!
//! Out of line and cold (the driver's common paths do not carry it), built
//! for the driver's ISA: with AVX2, through an entry point that enables it.

use super::super::blocks::Classify;
use super::super::parser::{escape_char, OUT_OF_MEMORY, SIMPLE_ESCAPES};
use super::super::text_out::TextOut;
use super::super::visitor::Visitor;
use std::marker::PhantomData;

use super::cursor::Cursor;
use super::{decode_error, utf8_run, Flow, Level, Text};

/// The most bytes stored per step of a run's copy (and over-stored after
/// it): each classifier's `Classify::RUN_STEP` is at most this.
pub(crate) const STEP: usize = 64;

/// Room asked for at each stop beyond the run: the run's copy may store up
/// to `STEP` bytes past it, and an escape's character is at most 4 bytes.
const SLACK: usize = STEP + 4;

/// The string whose body starts at `start`, at whose `at` the driver's
/// scan (in the blocks of `cursor`) found a stop that is no closing quote
/// (a backslash, a control byte or the end of the input), with `high`
/// saying whether a byte >= 0x80 came before it: decoded into the room the
/// visitor lends (`Visitor::text_room`, asked when `lend`), or else into
/// `scratch`. Its text and the position after its closing quote, and the
/// cursor at the block where the body ended (the driver goes on from
/// there). Any error is left to the reference driver, which says what and
/// where (out of memory is said here).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(super) fn string_with_escapes<'a, C: Classify, V: Visitor + ?Sized>(
    b: &'a [u8],
    cursor: Cursor,
    start: usize,
    at: usize,
    high: bool,
    lend: bool,
    scratch: &mut String,
    v: &mut V,
) -> (Flow<(Text<'a>, usize)>, Cursor) {
    let mut s = Escaped::<C> { b, at: cursor, isa: PhantomData };
    #[cfg(target_arch = "x86_64")]
    if C::LEVEL == Level::Avx2 {
        // SAFETY: a driver of the AVX2 classifier runs only on a CPU with
        // these features (`drive` chose it by `level()`).
        let text = unsafe { escaped_avx2::<C, V>(&mut s, start, at, high, lend, scratch, v) };
        return (text, s.at);
    }
    #[cfg(target_arch = "x86_64")]
    if C::LEVEL == Level::Avx512 {
        // SAFETY: as for AVX2, with `escaped_avx512`'s features.
        let text = unsafe { escaped_avx512::<C, V>(&mut s, start, at, high, lend, scratch, v) };
        return (text, s.at);
    }
    let text = escaped::<C, V>(&mut s, start, at, high, lend, scratch, v);
    (text, s.at)
}

/// The body's bytes and the driver's place in their blocks.
struct Escaped<'a, C> {
    b: &'a [u8],
    at: Cursor,
    isa: PhantomData<C>,
}

/// `decode_body`, built with AVX2 (the driver's ISA, so that the block
/// classifier and the UTF-8 check inline).
///
/// # Safety
/// The CPU has the features enabled here.
#[cfg(target_arch = "x86_64")]
#[cold]
#[inline(never)]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
unsafe fn escaped_avx2<'a, C: Classify, V: Visitor + ?Sized>(
    s: &mut Escaped<'a, C>,
    start: usize,
    at: usize,
    high: bool,
    lend: bool,
    scratch: &mut String,
    v: &mut V,
) -> Flow<(Text<'a>, usize)> {
    s.decode_body::<V>(start, at, high, lend, scratch, v)
}

/// `decode_body`, built with AVX-512 (a run copied one 64-byte register
/// per step).
///
/// # Safety
/// The CPU has the features enabled here.
#[cfg(target_arch = "x86_64")]
#[cold]
#[inline(never)]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx2,bmi1,bmi2,lzcnt,popcnt")]
unsafe fn escaped_avx512<'a, C: Classify, V: Visitor + ?Sized>(
    s: &mut Escaped<'a, C>,
    start: usize,
    at: usize,
    high: bool,
    lend: bool,
    scratch: &mut String,
    v: &mut V,
) -> Flow<(Text<'a>, usize)> {
    s.decode_body::<V>(start, at, high, lend, scratch, v)
}

/// `decode_body` out of line, for the baseline ISA.
#[cold]
#[inline(never)]
fn escaped<'a, C: Classify, V: Visitor + ?Sized>(
    s: &mut Escaped<'a, C>,
    start: usize,
    at: usize,
    high: bool,
    lend: bool,
    scratch: &mut String,
    v: &mut V,
) -> Flow<(Text<'a>, usize)> {
    s.decode_body::<V>(start, at, high, lend, scratch, v)
}

impl<'a, C: Classify> Escaped<'a, C> {
    #[inline(always)]
    fn decode_body<V: Visitor + ?Sized>(
        &mut self,
        start: usize,
        at: usize,
        high: bool,
        lend: bool,
        scratch: &mut String,
        v: &mut V,
    ) -> Flow<(Text<'a>, usize)> {
        let b = self.b;
        if lend {
            if let Some(mut room) = v.text_room() {
                let end = self.decode(start, at, high, &mut room).map_err(|e| decode_error(b, e))?;
                return Ok((Text::Placed(room.placed()), end + 1));
            }
        }
        let mut out = std::mem::take(scratch).into_bytes();
        out.clear();
        let result = self.decode(start, at, high, &mut out);
        if result.is_err() {
            out.clear();
        }
        // SAFETY: on success `out` holds the runs of the body, each checked
        // as UTF-8 (or ASCII, as the masks saw), and the characters of its
        // escapes; no run crosses an escape (escapes are ASCII), so the
        // whole is UTF-8. On failure it is empty.
        *scratch = unsafe { String::from_utf8_unchecked(out) };
        let end = result.map_err(|e| decode_error(b, e))?;
        // SAFETY: `decode` accepted `start..end`: every byte outside the
        // escapes was checked as UTF-8 in its run, and escapes are ASCII.
        let raw = unsafe { std::str::from_utf8_unchecked(&b[start..end]) };
        Ok((Text::Decoded(raw), end + 1))
    }

    /// Decodes the body from `start` onto `out`, `at` being its first stop
    /// (`high`: a byte >= 0x80 before it): the index of the closing quote,
    /// or where the body is wrong and why (the reference driver's decoder
    /// says the same errors; only out of memory is reported from here).
    #[inline(always)]
    fn decode<O: TextOut>(&mut self, start: usize, at: usize, high: bool, out: &mut O) -> Result<usize, (usize, &'static str)> {
        // The cursor in a local (in registers through the loop), handed
        // back on every way out.
        let mut cursor = self.at;
        let result = decode::<C, O>(self.b, &mut cursor, start, at, high, out);
        self.at = cursor;
        result
    }
}

/// `Escaped::decode` on the cursor `cursor` of `b`.
#[inline(always)]
fn decode<C: Classify, O: TextOut>(
    b: &[u8],
    cursor: &mut Cursor,
    start: usize,
    mut at: usize,
    mut high: bool,
    out: &mut O,
) -> Result<usize, (usize, &'static str)> {
    {
        let mut run = start;
        // The run up to `at` is in `out` already (`copy_run` copied it as
        // it found its stop).
        let mut copied = false;
        loop {
            if high && !utf8_run::<C>(b, run, at) {
                return Err((run, "invalid UTF-8 in string"));
            }
            // The run up to the stop.
            let mut len = if copied { out.len() } else { put_run(b, run, at, out, C::RUN_STEP).ok_or((run, OUT_OF_MEMORY))? };
            match b.get(at) {
                Some(b'"') => return Ok(at),
                Some(b'\\') => {
                    let dst = out.as_mut_ptr();
                    run = match b.get(at + 1).map(|&c| SIMPLE_ESCAPES[c as usize]) {
                        Some(c) if c != 0 => {
                            // SAFETY: `put_run` and `copy_run` leave `SLACK`
                            // bytes of room past `len`.
                            unsafe { dst.add(len).write(c) };
                            len += 1;
                            at + 2
                        }
                        _ => {
                            let (c, next) = escape_char(b, at)?;
                            let mut bytes = [0; 4];
                            let n = c.encode_utf8(&mut bytes).len();
                            // SAFETY: `put_run` and `copy_run` leave `SLACK
                            // >= 4` bytes of room past `len`; `bytes` is no
                            // part of `out`.
                            unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), dst.add(len), n) };
                            len += n;
                            next
                        }
                    };
                    // SAFETY: the `len` bytes are written (above).
                    unsafe { out.set_len(len) };
                    // The next run's stop.
                    // The next run's stop: in the cursor's block when it
                    // holds one (a bit operation away: short strings, and
                    // `\u` escapes, which `copy_run` hands back, close
                    // together), else found as the text is copied.
                    (at, high, copied) = match cursor.stop_in_block(run) {
                        Some((at, high)) => (at, high, false),
                        None => {
                            let (at, high) = copy_run::<C, O>(b, cursor, run, out).ok_or((run, OUT_OF_MEMORY))?;
                            (at, high, true)
                        }
                    };
                }
                Some(_) => return Err((at, "control character in string (must be escaped)")),
                None => return Err((start - 1, "unterminated string")),
            }
        }
    }
}

/// Appends the text of `b` from `from` to its next stop that is no
/// one-letter escape (the closing quote, a `\u` escape or a bad one, a
/// control byte, or the end of the input) to `out`, one-letter escapes on
/// the way decoded: the stop and whether a byte >= 0x80 comes before it,
/// with `SLACK` bytes of room left after the text (`out`'s length set to
/// its end); `None` when there is no memory. The text from `from` to the
/// stop may hold escapes: they are ASCII, so the caller's UTF-8 check of it
/// is the check of each run between them.
///
/// The input is taken a step at a time (`Classify::text_step`: the step
/// stored to the output as it is, and its stops), each step's stops found
/// in its mask: after an escape, the rest of the step is stored again one
/// byte further back (a load at the escape, whose result only feeds that
/// store) and the next stop is the mask's next bit. The next load's place
/// is so never computed from the last one's bytes (a step loaded from each
/// stop made every escape wait for the load before it: gsoc-2018, 15,000
/// escapes). Each store may reach past the stop, into the room. The cursor
/// is left where it was (the driver loads the block it goes on in when it
/// is not the cursor's).
///
/// Only as far as `out`'s room and the input's last bytes allow: the rest
/// of the run is scanned in the driver's blocks and copied by `put_run`,
/// which grows the room to the run's length (asking for room ahead of a
/// run of unknown length would move the `Value` builder's texts out of
/// the arena's region when it is short).
#[inline(always)]
fn copy_run<C: Classify, O: TextOut>(b: &[u8], cursor: &mut Cursor, from: usize, out: &mut O) -> Option<(usize, bool)> {
    let step = C::TEXT_STEP;
    // (A larger step would store past the room.)
    assert!(step <= STEP);
    let (mut p, mut high, len) = (from, 0, out.len());
    // Input bytes the escapes decoded here took beyond the byte each put
    // out: the input's byte at `q` (after them) goes to `len + (q - from -
    // saved)`, never beyond `len + (q - from)`.
    let mut saved = 0;
    // Steps whose stores end within the room, `SLACK` left after them,
    // and whose loads end within the input (and so the store after an
    // escape, `step` bytes from the escape's end).
    let limit = b.len().min(from + out.spare().saturating_sub(SLACK));
    // SAFETY: `len` is within the buffer.
    let dst = unsafe { out.as_mut_ptr().add(len) };
    while p + step <= limit {
        // SAFETY: `p + step <= b.len()`: the load is in the input; the
        // store's `step` bytes from `len + (p - from - saved)` end within
        // `limit - from`, within the room less `SLACK`; the input is no
        // part of `out`.
        let (mut stops, bytes_high) = unsafe { C::text_step(b.as_ptr().add(p), dst.add(p - from - saved)) };
        // Where the next step starts: after this one, or after an escape
        // that ends past it.
        let mut next = p + step;
        while stops != 0 {
            let k = stops.trailing_zeros() as usize;
            let at = p + k;
            // A one-letter escape whose store after it stays within
            // `limit` (`at + 1 < at + 2 + step <= b.len()`).
            let c = if b[at] == b'\\' && at + 2 + step <= limit { SIMPLE_ESCAPES[b[at + 1] as usize] } else { 0 };
            if c == 0 {
                high |= bytes_high & !(u64::MAX << k);
                // SAFETY: the bytes up to `at` are written, within the room.
                unsafe { out.set_len(len + (at - from - saved)) };
                return Some((at, high != 0));
            }
            // SAFETY: `at - from - saved` is inside the step's store.
            unsafe { dst.add(at - from - saved).write(c) };
            saved += 1;
            // SAFETY: the load's `step` bytes from `at + 2` end within
            // `limit <= b.len()` (checked above); the store's, from `at + 2
            // - from - saved` (one byte after the escape's), end before
            // `limit - from`, within the room as above. The masks are
            // unused.
            unsafe { C::text_step(b.as_ptr().add(at + 2), dst.add(at + 2 - from - saved)) };
            next = next.max(at + 2);
            stops &= u64::MAX.checked_shl(k as u32 + 2).unwrap_or(0);
        }
        high |= bytes_high;
        p = next;
    }
    // SAFETY: the steps wrote the text up to `p`, within the room.
    unsafe { out.set_len(len + (p - from - saved)) };
    let (at, rest_high) = cursor.string_stop::<C>(b, p);
    put_run(b, p, at, out, C::RUN_STEP)?;
    Some((at, rest_high || high != 0))
}

/// Appends the run `b[from..to]` to `out`, with `SLACK` bytes of room left
/// after it: the new length (not yet set when the room is to be used, the
/// caller sets it), or `None` when there is no memory.
///
/// Away from the end of the input, the run is stored `step` bytes at a
/// time (`C::RUN_STEP`, a constant once inlined, at most `STEP`; the bytes
/// read past `to` are in `b`, those stored past the run are in the room
/// and count for nothing): no call per run, which is short between escapes
/// in most text.
#[inline(always)]
fn put_run<O: TextOut>(b: &[u8], from: usize, to: usize, out: &mut O, step: usize) -> Option<usize> {
    // (A larger step would store past the room.)
    assert!(step <= STEP);
    let n = to - from;
    if !out.room(n + SLACK) {
        return None;
    }
    let len = out.len();
    // SAFETY: `room` made `n + SLACK` bytes from `len` writable.
    let dst = unsafe { out.as_mut_ptr().add(len) };
    if to + step <= b.len() {
        let mut k = 0;
        loop {
            // SAFETY: `k < n` (or `k == 0`): the read `from + k .. from + k
            // + step` ends before `to + step <= b.len()`, the write before
            // `dst + n + step`, inside the room (`step <= STEP`); the input
            // is no part of `out`.
            unsafe { std::ptr::copy_nonoverlapping(b.as_ptr().add(from + k), dst.add(k), step) };
            k += step;
            if k >= n {
                break;
            }
        }
    } else {
        // SAFETY: `from..to` is in `b` (`to <= b.len()`: a stop is at most
        // the input's end) and `n` bytes from `dst` are in the room.
        unsafe { std::ptr::copy_nonoverlapping(b.as_ptr().add(from), dst, n) };
    }
    // SAFETY: the run's `n` bytes are written.
    unsafe { out.set_len(len + n) };
    Some(len + n)
}

#[cfg(test)]
mod tests {
    use crate::parse::guard::Guarded;
    use crate::{DuplicateKeys, ReadOptions, Value};

    /// A first run (before the first escape) of a whole step of the copy
    /// and more.
    const LONG_RUN: usize = 64;

    /// A string body made of pieces chosen by `seed`: runs of plain text of
    /// every length up to 150 (across the driver's blocks and the copy's
    /// steps), raw non-ASCII characters, one-letter and `\u` escapes (a
    /// surrogate pair among them); its decoded text, computed from the
    /// pieces, and the body as JSON.
    fn body(seed: usize) -> (String, String) {
        let (mut text, mut json) = (String::new(), String::new());
        let mut x = seed.wrapping_mul(2654435761) | 1;
        for _ in 0..seed % 9 + 1 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            match x % 6 {
                0 | 1 => {
                    let run: String = (0..x / 7 % 151).map(|k| (b'a' + (k % 26) as u8) as char).collect();
                    text.push_str(&run);
                    json.push_str(&run);
                }
                2 => {
                    text.push('\n');
                    json.push_str("\\n");
                }
                3 => {
                    text.push_str("é\"\\");
                    json.push_str("é\\\"\\\\");
                }
                4 => {
                    text.push('€');
                    json.push_str("\\u20ac");
                }
                _ => {
                    text.push('😀');
                    json.push_str("\\ud83d\\ude00");
                }
            }
        }
        // At least one escape: the pieces' decoder is what is tested.
        text.push('\t');
        json.push_str("\\t");
        (text, json)
    }

    /// Long runs of text after an escape, after a short first run and a
    /// long one (`LONG_RUN`), as array items, member names and values, into the
    /// `Value` builder's room (`DuplicateKeys::Last`: the room is lent, and
    /// outgrown by the longest) and into the scratch buffer (`Error`): each
    /// reads back as its text.
    #[test]
    fn long_runs_after_escapes_read_back() {
        let options = [ReadOptions::new(), ReadOptions::new().duplicate_keys(DuplicateKeys::Last)];
        let lens = [0, 1, 31, 32, 33, 63, 64, 65, 200, 511, 512, 513, 3000, 70_000, 300_000];
        for (len, first) in lens.into_iter().flat_map(|len| [(len, "x".to_owned()), (len, "y".repeat(LONG_RUN + len % 3))]) {
            let run = "ab".repeat(len / 2 + 1)[..len].to_owned();
            let text = format!("{first}\n{run}é\t{}", "z".repeat(len % 50));
            let json = format!("{first}\\n{run}é\\t{}", "z".repeat(len % 50));
            for options in &options {
                let doc = format!(r#"[{{"{json}":"{json}"}},"{json}"]"#);
                let v = Value::from_slice_with(doc.as_bytes(), options).unwrap();
                let items = v.as_array().unwrap();
                let (name, value) = items[0].as_object().unwrap().iter().next().unwrap();
                assert_eq!(name.as_str(), text, "name, {len}");
                assert_eq!(value.as_str().unwrap(), text, "value, {len}");
                assert_eq!(items[1].as_str().unwrap(), text, "item, {len}");
            }
        }
    }

    /// One-letter escapes in a long string (`LONG_RUN` bytes before the
    /// first escape; `copy_run` decodes them in its loop), each after a run
    /// of every length up to 130 (so at every place of a step, the escape's
    /// letter in the next step too), among them `\"` and `\\` (letters that
    /// are stops themselves), a byte >= 0x80 before some, and bytes >= 0x80
    /// and a `\u` escape after them, the document moved by 0 to 63 bytes against the blocks and
    /// ending at a guard page (the last escapes near the input's end): each
    /// reads back as its text, computed from the pieces, into the builder's
    /// room and into the scratch buffer; a control byte after them is
    /// refused.
    #[test]
    fn one_letter_escapes_at_every_place_of_a_long_string() {
        let mut g = Guarded::new();
        let options = [ReadOptions::new(), ReadOptions::new().duplicate_keys(DuplicateKeys::Last)];
        let letters = [("\\n", "\n"), ("\\\"", "\""), ("\\\\", "\\"), ("\\/", "/"), ("\\t", "\t")];
        for gap in 0..=130 {
            for (l, &(json_escape, text_escape)) in letters.iter().enumerate() {
                let (mut text, mut json) = ("y".repeat(LONG_RUN), "y".repeat(LONG_RUN));
                for r in 0..4 {
                    let run: String = (0..gap + r).map(|k| (b'a' + (k % 26) as u8) as char).collect();
                    // A byte >= 0x80 before some stops.
                    let run = if r == 2 { format!("ü{run}") } else { run };
                    text.push_str(&run);
                    json.push_str(&run);
                    text.push_str(text_escape);
                    json.push_str(json_escape);
                }
                text.push_str("é€z");
                json.push_str("é\\u20acz");
                let pad = " ".repeat((gap * 7 + l) % 64);
                let docs = [format!(r#"{pad}["{json}"]"#), format!(r#"{pad}{{"k":"{json}"}}"#), format!(r#"{pad}"{json}""#)];
                for doc in &docs {
                    for options in &options {
                        let v = Value::from_slice_with(g.at_end(doc.as_bytes()), options).unwrap();
                        let got = match &v {
                            Value::String(_) => v.as_str().unwrap().to_owned(),
                            _ if v.as_array().is_some() => v.as_array().unwrap()[0].as_str().unwrap().to_owned(),
                            _ => v.as_object().unwrap().iter().next().unwrap().1.as_str().unwrap().to_owned(),
                        };
                        assert_eq!(got, text, "gap {gap}, escape {json_escape}: {doc}");
                    }
                }
                let bad = format!("[\"{json}\u{1}\"]");
                assert!(Value::from_slice(g.at_end(bad.as_bytes())).is_err(), "control byte, gap {gap}");
                // The byte >= 0x80 before the third escape made invalid
                // UTF-8 (a lone continuation byte).
                let mut bad = format!(r#"["{json}"]"#).into_bytes();
                let u = bad.windows(2).position(|w| w == "ü".as_bytes()).unwrap();
                bad.remove(u);
                assert!(Value::from_slice(g.at_end(&bad)).is_err(), "invalid UTF-8, gap {gap}");
            }
        }
    }

    /// Strings with escapes as array items, member names and values, and
    /// whole documents, each document ending at a guard page (so any read
    /// past the input faults), the string at every offset in the driver's
    /// blocks (the padding before it): each reads back as its text, and the
    /// same document cut before its closing quote is refused.
    #[test]
    fn escaped_strings_ending_anywhere_against_guard_pages() {
        let mut g = Guarded::new();
        let options = [ReadOptions::new(), ReadOptions::new().duplicate_keys(DuplicateKeys::Last)];
        for seed in 0..600 {
            let (text, json) = body(seed);
            let pad = " ".repeat(seed % 64);
            let docs =
                [(format!(r#"{pad}["{json}"]"#), 2), (format!(r#"{pad}{{"{json}":"{json}"}}"#), 2), (format!(r#"{pad}"{json}""#), 1)];
            for (doc, closing) in &docs {
                for options in &options {
                    let v = Value::from_slice_with(g.at_end(doc.as_bytes()), options).unwrap();
                    let got = match &v {
                        Value::String(_) => v.as_str().unwrap().to_owned(),
                        _ if v.as_array().is_some() => v.as_array().unwrap()[0].as_str().unwrap().to_owned(),
                        _ => {
                            let (name, value) = v.as_object().unwrap().iter().next().unwrap();
                            assert_eq!(name.as_str(), text, "name, seed {seed}");
                            value.as_str().unwrap().to_owned()
                        }
                    };
                    assert_eq!(got, text, "seed {seed}: {doc}");
                    let cut = &doc.as_bytes()[..doc.len() - closing];
                    assert!(Value::from_slice_with(g.at_end(cut), options).is_err(), "cut, seed {seed}");
                }
            }
        }
    }
}
