//! NDJSON: lines split on byte 0x0A only, processed in parallel on large
//! inputs with the results handed on in input order.
//!
//! Only `\n` ends a line: a `\r` before it is JSON whitespace and belongs to
//! the line, and U+2028/U+2029 are ordinary characters inside strings. A
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

/// Bytes per block. Small enough that inputs just over the parallel
/// threshold already give every core a block, large enough that per-block
/// costs (a channel message, a wake-up) vanish.
pub const BLOCK: usize = 4 << 20;

/// Splits a block into its lines (without their `\n`).
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
                Some(line)
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

// Byte search in 32-byte chunks: the comparison of a whole chunk compiles to
// a few SIMD instructions (no memchr in std), and the exact index is found
// only in the chunk that has a hit.
const LANES: usize = 32;

fn chunk_has_newline(chunk: &[u8]) -> bool {
    chunk.iter().fold(false, |acc, &b| acc | (b == b'\n'))
}

pub fn first_newline(s: &[u8]) -> Option<usize> {
    let mut chunks = s.chunks_exact(LANES);
    let mut base = 0;
    for chunk in &mut chunks {
        if chunk_has_newline(chunk) {
            return chunk.iter().position(|&b| b == b'\n').map(|i| base + i);
        }
        base += LANES;
    }
    chunks.remainder().iter().position(|&b| b == b'\n').map(|i| base + i)
}

pub fn last_newline(s: &[u8]) -> Option<usize> {
    let mut chunks = s.rchunks_exact(LANES);
    let mut end = s.len();
    for chunk in &mut chunks {
        if chunk_has_newline(chunk) {
            return chunk.iter().rposition(|&b| b == b'\n').map(|i| end - LANES + i);
        }
        end -= LANES;
    }
    chunks.remainder().iter().rposition(|&b| b == b'\n')
}

/// Runs `work` over the blocks of `source` and hands each result to
/// `consume` in input order, with the progress handle (to print around the
/// bar). `consume` may stop the run by returning an error (canon fails fast;
/// a closed stdout ends everything).
///
/// An input that fits in one block is processed on the calling thread: no
/// threads are started for the common small case.
pub fn run_ordered<T, W, C>(source: &Source, threads: usize, work: W, mut consume: C) -> Result<(), Fail>
where
    T: Send,
    W: Fn(&[u8]) -> T + Sync,
    C: FnMut(T, &Progress) -> Result<(), Fail>,
{
    let name = source.name();
    let (reader, size) = source.open()?;
    let progress = Progress::new(size);
    let mut blocks = BlockReader::new(reader, BLOCK, progress.clone());
    let mut first = Vec::new();
    if !blocks.next_block(&mut first).map_err(|e| Fail::read(&name, e))? {
        return Ok(());
    }
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
