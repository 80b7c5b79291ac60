//! NDJSON: lines split on byte 0x0A only, processed in parallel on large
//! inputs with the results handed on in input order.
//!
//! Only `\n` ends a line: one `\r` before it ends with it (`\r\n`: not part
//! of the line, so `--max-size` counts a line without its `\n` or `\r\n`,
//! as Python's `loads_lines` does; any other `\r` is JSON whitespace in
//! the line), and U+2028/U+2029 are ordinary characters inside strings. A
//! final segment without `\n` is a line; the empty segment after a final
//! `\n` is not (the same protocol as the test oracles).
//!
//! Pipeline for inputs larger than one block: one reader thread cuts the
//! input into blocks of whole lines, `available_parallelism` workers turn
//! blocks into results, and the calling thread takes the results in block
//! order (a small reorder buffer) and writes them. Buffers circulate through
//! a fixed pool, which bounds memory (pool size x block size) however large
//! the input is, and recycles the allocations.

use std::collections::BTreeMap;
use std::sync::mpsc::{channel, sync_channel, Receiver};
use std::sync::{Arc, Mutex};

use crate::fail::Fail;
use crate::input::{BlockReader, Source};
use crate::progress::Progress;

/// Bytes per block. Small on purpose: the reader copies a block into memory
/// and a worker reads it soon after, and a pool of blocks this size stays in
/// the CPU caches in between. With 4 MiB blocks, two cores checked 1 GiB of
/// NDJSON about 25% slower than with 256 KiB ones (bench/cli_check.sh).
pub const BLOCK: usize = 256 << 10;

/// Inputs up to this size are processed on the calling thread: starting
/// threads would cost more than it saves. The first block is read with this
/// size, which tells whether the input is larger.
pub const PARALLEL_MIN: usize = 4 << 20;

/// Splits a block into its lines (without their `\n` or `\r\n`).
pub fn lines(block: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut rest = block;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        match first_newline(rest) {
            Some(i) => {
                let line = &rest[..i];
                rest = &rest[i + 1..];
                Some(line.strip_suffix(b"\r").unwrap_or(line))
            }
            None => Some(std::mem::take(&mut rest)),
        }
    })
}

/// True when a line holds nothing but JSON whitespace. Such a line is an
/// error ("empty line"), as in Go's decoder: every line must be a document,
/// so a stray blank line in a data file is reported rather than skipped.
pub fn is_blank(line: &[u8]) -> bool {
    line.iter().all(|&b| matches!(b, b' ' | b'\t' | b'\r'))
}

/// Index of the first `\n` in `s`.
///
/// This runs over every input byte, so it must be much faster than the
/// parser: on x86_64, SSE2 (always present there, no detection needed)
/// compares 32 bytes per step and the mask gives the index directly; other
/// targets compare 8 bytes per step in a u64 (SWAR). std has no public memchr.
pub fn first_newline(s: &[u8]) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    {
        sse2_first_newline(s)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        swar_first_newline(s)
    }
}

#[cfg(target_arch = "x86_64")]
fn sse2_first_newline(s: &[u8]) -> Option<usize> {
    use std::arch::x86_64::{__m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_set1_epi8};
    let mut i = 0;
    // SAFETY: SSE2 is part of the x86_64 baseline; every load reads 16 bytes
    // inside `s` (i + 32 <= len), unaligned loads allow any address.
    unsafe {
        let nl = _mm_set1_epi8(b'\n' as i8);
        while i + 32 <= s.len() {
            let p = s.as_ptr().add(i);
            let a = _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(p as *const __m128i), nl)) as u32;
            let b = _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(p.add(16) as *const __m128i), nl)) as u32;
            let mask = a | b << 16;
            if mask != 0 {
                return Some(i + mask.trailing_zeros() as usize);
            }
            i += 32;
        }
    }
    s[i..].iter().position(|&b| b == b'\n').map(|k| i + k)
}

#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
fn swar_first_newline(s: &[u8]) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let mut i = 0;
    while i + 8 <= s.len() {
        let mut word = [0u8; 8];
        word.copy_from_slice(&s[i..i + 8]);
        let x = u64::from_le_bytes(word) ^ (ONES * u64::from(b'\n'));
        // The lowest byte that is zero in x gets its high bit set (bytes
        // above it may be false positives, so only the lowest is trusted).
        let found = x.wrapping_sub(ONES) & !x & HIGHS;
        if found != 0 {
            return Some(i + found.trailing_zeros() as usize / 8);
        }
        i += 8;
    }
    s[i..].iter().position(|&b| b == b'\n').map(|k| i + k)
}

/// Index of the last `\n` in `s`. Runs once per block over (typically) the
/// one partial line at its end, so a simple backwards scan is enough.
pub fn last_newline(s: &[u8]) -> Option<usize> {
    s.iter().rposition(|&b| b == b'\n')
}

/// Runs `work` over the blocks of `source` and hands each result to
/// `consume` in input order, with the progress handle (to print around the
/// bar). A line longer than `max_line` (`--max-size`) reaches `work` cut one
/// byte past the limit, and is the last line read: memory and time stay
/// bounded whatever its length. `consume` may stop the run by returning an
/// error (canon fails fast; a closed stdout ends everything).
///
/// An input up to `PARALLEL_MIN` bytes is processed on the calling thread:
/// no threads are started for the common small case.
pub fn run_ordered<T, W, C>(source: &Source, threads: usize, max_line: Option<usize>, work: W, mut consume: C) -> Result<(), Fail>
where
    T: Send,
    W: Fn(&[u8]) -> T + Sync,
    C: FnMut(T, &Progress) -> Result<(), Fail>,
{
    let name = source.name();
    let (reader, size) = source.open()?;
    let progress = Progress::new(size);
    let mut blocks = BlockReader::new(reader, PARALLEL_MIN, max_line, progress.clone());
    let mut first = Vec::new();
    if !blocks.next_block(&mut first).map_err(|e| Fail::read(&name, e))? {
        return Ok(());
    }
    blocks.set_target(BLOCK);
    let mut second = Vec::new();
    let more = blocks.next_block(&mut second).map_err(|e| Fail::read(&name, e))?;
    let mut consume = |result: T| consume(result, &progress);
    let result = if !more || threads <= 1 {
        sequential(&name, blocks, first, more.then_some(second), &work, &mut consume)
    } else {
        parallel(&name, blocks, [first, second], threads, &work, &mut consume)
    };
    progress.finish();
    result
}

fn sequential<T>(
    name: &str,
    mut blocks: BlockReader,
    first: Vec<u8>,
    second: Option<Vec<u8>>,
    work: &impl Fn(&[u8]) -> T,
    consume: &mut impl FnMut(T) -> Result<(), Fail>,
) -> Result<(), Fail> {
    consume(work(&first))?;
    let Some(mut buf) = second else { return Ok(()) };
    loop {
        consume(work(&buf))?;
        if !blocks.next_block(&mut buf).map_err(|e| Fail::read(name, e))? {
            return Ok(());
        }
    }
}

fn parallel<T: Send>(
    name: &str,
    mut blocks: BlockReader,
    first: [Vec<u8>; 2],
    threads: usize,
    work: &(impl Fn(&[u8]) -> T + Sync),
    consume: &mut impl FnMut(T) -> Result<(), Fail>,
) -> Result<(), Fail> {
    // Buffers in flight (being read, queued, worked on, waiting to be
    // consumed): enough to keep every worker busy while one slow block holds
    // up the in-order consumer, and no more.
    let pool = 2 * threads + 2;
    std::thread::scope(|s| {
        // Free buffers go back to the reader through `free`: the reader
        // waits on it, which is what bounds memory.
        let (free_tx, free_rx) = sync_channel::<Vec<u8>>(pool);
        let (job_tx, job_rx) = sync_channel::<(u64, Vec<u8>)>(pool);
        let (done_tx, done_rx) = channel::<Done<T>>();
        for _ in 0..pool - first.len() {
            // Cannot fail: the channel has room for `pool` and we hold the receiver.
            let _ = free_tx.send(Vec::new());
        }
        let mut seq = 0;
        for block in first {
            let _ = job_tx.send((seq, block));
            seq += 1;
        }

        let reader = s.spawn(move || -> std::io::Result<()> {
            // Every exit drops `job_tx`, which lets idle workers finish.
            while let Ok(mut buf) = free_rx.recv() {
                if !blocks.next_block(&mut buf)? {
                    break;
                }
                if job_tx.send((seq, buf)).is_err() {
                    break;
                }
                seq += 1;
            }
            Ok(())
        });

        // The workers share one job queue. Only they hold its receiver, so
        // when they are all gone the reader's `send` fails instead of
        // blocking forever.
        let job_rx = Arc::new(Mutex::new(job_rx));
        for _ in 0..threads {
            let job_rx = Arc::clone(&job_rx);
            let done_tx = done_tx.clone();
            s.spawn(move || loop {
                let job = match job_rx.lock() {
                    Ok(rx) => rx.recv(),
                    Err(_) => return, // another worker panicked; the scope reports it
                };
                let Ok((seq, buf)) = job else { return };
                // A panic (a bug, never bad input) is carried to the consumer,
                // which re-raises it: a silently dead worker would leave its
                // block missing and the pipeline waiting for it forever.
                let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| work(&buf)));
                if done_tx.send((seq, buf, result)).is_err() {
                    return; // the consumer stopped
                }
            });
        }
        drop(job_rx);
        drop(done_tx);

        let consumed = consume_in_order(done_rx, &free_tx, consume);
        // Dropping `free_tx` (and, inside consume_in_order, `done_rx`)
        // unblocks the reader and workers if the consumer stopped early.
        drop(free_tx);
        let read = reader.join();
        consumed?;
        match read {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => Err(Fail::read(name, e)),
            Err(panic) => std::panic::resume_unwind(panic),
        }
    })
}

type Done<T> = (u64, Vec<u8>, std::thread::Result<T>);

fn consume_in_order<T>(
    done_rx: Receiver<Done<T>>,
    free_tx: &std::sync::mpsc::SyncSender<Vec<u8>>,
    consume: &mut impl FnMut(T) -> Result<(), Fail>,
) -> Result<(), Fail> {
    let mut waiting = BTreeMap::new();
    let mut next = 0u64;
    for (seq, buf, result) in done_rx.iter() {
        waiting.insert(seq, (buf, result));
        while let Some((buf, result)) = waiting.remove(&next) {
            match result {
                Ok(result) => consume(result)?,
                Err(panic) => std::panic::resume_unwind(panic),
            }
            next += 1;
            // Fails only when the reader has finished; the buffer is then dropped.
            let _ = free_tx.try_send(buf);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn newline_search_agrees_with_a_plain_scan() {
        let mut data = [b'x'; 200];
        for len in 0..100 {
            for pos in 0..len {
                data[pos] = b'\n';
                assert_eq!(first_newline(&data[..len]), Some(pos));
                assert_eq!(swar_first_newline(&data[..len]), Some(pos));
                // A second newline later changes nothing; 0x8A (\n | 0x80) is not one.
                data[len - 1] = b'\n';
                if pos > 0 {
                    data[pos - 1] = 0x8A;
                }
                assert_eq!(first_newline(&data[..len]), Some(pos));
                assert_eq!(swar_first_newline(&data[..len]), Some(pos));
                data.iter_mut().for_each(|b| *b = b'x');
            }
            assert_eq!(first_newline(&data[..len]), None);
            assert_eq!(swar_first_newline(&data[..len]), None);
        }
    }

    #[test]
    fn lines_split_on_lf_only() {
        let got: Vec<&[u8]> = lines(b"a\r\n\nb\xe2\x80\xa8c\nd").collect();
        assert_eq!(got, [&b"a"[..], b"", b"b\xe2\x80\xa8c", b"d"]);
        // One `\r` ends with the `\n`; others are in the line, as is a
        // final one with no `\n` after it.
        let got: Vec<&[u8]> = lines(b"a\r\r\n\rb\r").collect();
        assert_eq!(got, [&b"a\r"[..], b"\rb\r"]);
        assert_eq!(lines(b"a\n").count(), 1);
        assert_eq!(lines(b"").count(), 0);
        assert_eq!(lines(b"\n").collect::<Vec<_>>(), [&b""[..]]);
    }
}
