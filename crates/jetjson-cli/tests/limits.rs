//! The `jetjson` binary under hostile and huge inputs: a million nested
//! containers, streams over `--max-size`, a 1 GiB NDJSON stream and a 500 MB
//! string (peak memory measured with `wait4`'s rusage and held to the bounds
//! stated in SECURITY.md), and output that cannot be written (`/dev/full`).
//!
//! Inputs are generated into the child's stdin by a thread and its output
//! is drained (and checked) by another, so nothing big touches the disk.

use std::io::{Read, Write};
use std::os::unix::process::ExitStatusExt;
use std::process::{Command, ExitStatus, Stdio};

const MIB: u64 = 1 << 20;

/// Peak memory bounds stated in SECURITY.md ("Memory bounds").
/// NDJSON streams: constant memory whatever the input size.
const NDJSON_RSS_BOUND: u64 = 256 * MIB;
/// Runs on small inputs, and runs stopped by a limit.
const SMALL_RUN_RSS: u64 = 64 * MIB;

/// A bound on one document's peak RSS: `times` x its size + 64 MiB.
struct DocumentBound {
    times: u64,
}

impl DocumentBound {
    fn bound(&self, input: u64) -> u64 {
        self.times * input + 64 * MIB
    }
}

/// `check` of any one document: the input, read from a pipe, and the
/// validator's index of an object's names (for duplicates). Measured 1.9x
/// for a long string, 8.2x for one object of 8.4 million 4-byte names.
const CHECK_DOCUMENT_RSS: DocumentBound = DocumentBound { times: 9 };
/// `canon`, `fmt` and `digest` of a document of long strings: the input,
/// then the parsed `Value` (the string once more); the output is streamed,
/// never held whole. Measured 2.85x.
const STRING_DOCUMENT_RSS: DocumentBound = DocumentBound { times: 3 };
/// `canon`, `fmt` and `digest` of any one document. The densest is an array
/// of single digits, two input bytes per element, for which the `Value`
/// builder holds 64 bytes per element while the array is built. Measured
/// 34-35x.
const DENSE_DOCUMENT_RSS: DocumentBound = DocumentBound { times: 36 };

fn jetjson(args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_jetjson"));
    c.args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    c
}

/// How a run ended.
struct Run {
    status: ExitStatus,
    /// Peak resident set size of the child, in bytes (ru_maxrss).
    peak_rss: u64,
    /// Bytes the child took from stdin before it closed it or exited.
    fed: u64,
    stdout_len: u64,
    /// The first and last bytes of stdout (for checks without keeping it all).
    stdout_head: Vec<u8>,
    stdout_tail: Vec<u8>,
    stderr: String,
}

impl Run {
    fn code(&self) -> i32 {
        self.status.code().unwrap_or_else(|| panic!("killed by signal {:?}; stderr: {}", self.status.signal(), self.stderr))
    }
}

/// Runs `cmd`, feeding it with `feed` (which writes until done or until
/// the pipe breaks) and draining stdout and stderr.
fn run(mut cmd: Command, feed: impl FnOnce(&mut dyn Write) -> std::io::Result<()> + Send + 'static) -> Run {
    // Reaped below with wait4 (not Child::wait), which clippy cannot see.
    #[allow(clippy::zombie_processes)]
    let mut child = cmd.spawn().expect("start jetjson");
    let pid = child.id() as libc::pid_t;
    let stdin = child.stdin.take().expect("stdin");
    let feeder = std::thread::spawn(move || {
        let mut counted = CountingWriter { inner: stdin, n: 0 };
        // A broken pipe is how a child that stopped reading says so.
        let _ = feed(&mut counted);
        counted.n
    });
    let mut stdout = child.stdout.take().expect("stdout");
    let drainer = std::thread::spawn(move || {
        let (mut len, mut head, mut tail) = (0u64, Vec::new(), Vec::new());
        let mut buf = vec![0u8; 1 << 20];
        loop {
            let n = stdout.read(&mut buf).expect("read stdout");
            if n == 0 {
                break;
            }
            len += n as u64;
            if head.len() < 4096 {
                head.extend_from_slice(&buf[..n.min(4096 - head.len())]);
            }
            tail.extend_from_slice(&buf[n.saturating_sub(4096)..n]);
            let cut = tail.len().saturating_sub(4096);
            tail.drain(..cut);
        }
        (len, head, tail)
    });
    let mut stderr = child.stderr.take().expect("stderr");
    let errs = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr.read_to_string(&mut s);
        s
    });
    // wait4 rather than Child::wait: it also reports the child's peak RSS.
    let mut status = 0;
    // SAFETY: a zeroed rusage is a valid value for wait4 to overwrite.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `pid` is our child, not yet reaped (Child::wait is never
    // called), and both out-pointers are valid for writes.
    let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(r, pid, "wait4: {}", std::io::Error::last_os_error());
    let fed = feeder.join().expect("feeder");
    let (stdout_len, stdout_head, stdout_tail) = drainer.join().expect("drainer");
    Run {
        status: ExitStatus::from_raw(status),
        peak_rss: usage.ru_maxrss as u64 * 1024,
        fed,
        stdout_len,
        stdout_head,
        stdout_tail,
        stderr: errs.join().expect("stderr"),
    }
}

struct CountingWriter<W> {
    inner: W,
    n: u64,
}

impl<W: Write> Write for CountingWriter<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.n += n as u64;
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

// ---- nesting ------------------------------------------------------------

/// `n` openers of one shape: arrays, objects, or both alternating.
fn openers(shape: &str, n: usize) -> Vec<u8> {
    let mut v = Vec::new();
    for level in 0..n {
        match (shape, level % 2) {
            ("arrays", _) | ("mixed", 0) => v.push(b'['),
            _ => v.extend_from_slice(b"{\"a\":"),
        }
    }
    v
}

#[test]
fn a_million_nested_containers_fail_at_max_depth() {
    for shape in ["arrays", "objects", "mixed"] {
        let doc = openers(shape, 1_000_000);
        // The 513th opener is where the default limit (512) is crossed.
        let at = openers(shape, 512).len();
        for args in [
            &["check", "-"][..],
            &["canon", "--profile", "compact", "-"],
            &["canon", "--profile", "go", "-"],
            &["digest", "--profile", "go", "-"],
            &["check", "--lines", "-"],
        ] {
            let doc = doc.clone();
            let r = run(jetjson(args), move |w| w.write_all(&doc));
            assert_eq!(r.code(), 1, "{shape} {args:?}: {}", r.stderr);
            let want = format!("<stdin>:1:{}: nesting deeper than --max-depth 512", at + 1);
            assert!(r.stderr.starts_with(&want), "{shape} {args:?}: {:?} should start with {want:?}", &r.stderr[..r.stderr.len().min(200)]);
            assert_eq!(r.stdout_len, 0, "{shape} {args:?}");
        }
        // A higher limit is honoured as well (and still no stack overflow).
        let doc = doc.clone();
        let r = run(jetjson(&["check", "--max-depth", "100000", "-"]), move |w| w.write_all(&doc));
        assert_eq!(r.code(), 1, "{shape}: {}", r.stderr);
        assert!(r.stderr.contains("nesting deeper than --max-depth 100000"), "{shape}: {}", r.stderr);
    }
}

// ---- size limit ---------------------------------------------------------

/// Writes `[0,0,0,…` until `total` bytes or a broken pipe.
fn endless_array(total: u64) -> impl FnOnce(&mut dyn Write) -> std::io::Result<()> + Send + 'static {
    move |w| {
        let mut chunk = b"[".to_vec();
        chunk.extend(b"0,".repeat(32 << 10));
        w.write_all(&chunk)?;
        let mut sent = chunk.len() as u64;
        while sent < total {
            w.write_all(&chunk[1..])?;
            sent += chunk.len() as u64 - 1;
        }
        Ok(())
    }
}

/// Pipe buffers and the reader's own buffering let a little more than the
/// limit leave the feeder before the child exits.
const PIPE_SLACK: u64 = 2 * MIB;

#[test]
fn max_size_stops_reading_an_oversized_stream() {
    let limit = 4 * MIB;
    for args in [&["check"][..], &["canon", "--profile", "compact"], &["digest", "--profile", "go"], &["digest", "--raw"], &["fmt"]] {
        let mut a = args.to_vec();
        a.extend(["--max-size", "4M", "-"]);
        let r = run(jetjson(&a), endless_array(512 * MIB));
        assert_eq!(r.code(), 1, "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains("input larger than --max-size 4194304 bytes"), "{args:?}: {}", r.stderr);
        assert!(r.fed <= limit + PIPE_SLACK, "{args:?}: read {} bytes with --max-size 4M", r.fed);
        assert!(r.peak_rss < SMALL_RUN_RSS, "{args:?}: peak RSS {} MiB", r.peak_rss / MIB);
    }
}

/// With `--lines`, `--max-size` applies to each line: a line longer than
/// the limit is reported on its own line number with the byte offset where
/// reading stopped, and ends the input. Its rest is never read (before the
/// fix it was skipped to its end: all 512 MiB here, forever on /dev/zero).
#[test]
fn max_size_stops_reading_an_oversized_line() {
    for args in [
        &["check", "--lines"][..],
        &["canon", "--profile", "compact", "--lines"],
        &["canon", "--profile", "compact", "--lines", "--threads", "1"],
    ] {
        let mut a = args.to_vec();
        a.extend(["--max-size", "4M", "-"]);
        let r = run(jetjson(&a), |w| {
            w.write_all(b"[1]\n{\"a\":2}\n")?;
            endless_array(512 * MIB)(w)
        });
        assert_eq!(r.code(), 1, "{args:?}: {}", r.stderr);
        let head = r.stderr.lines().next().unwrap_or_default();
        assert_eq!(
            head,
            "<stdin>:3:4194305: input larger than --max-size 4194304 bytes (a line longer than the limit; reading stopped at byte offset 4194316 of the input)",
            "{args:?}"
        );
        if args[0] == "canon" {
            assert_eq!(r.stdout_head, b"[1]\n{\"a\":2}\n", "{args:?}");
        }
        // One byte past the limit of the line, plus what the pipe held.
        assert!(r.fed <= 4 * MIB + 12 + 1 + PIPE_SLACK, "{args:?}: read {} bytes", r.fed);
        assert!(r.peak_rss < 128 * MIB, "{args:?}: peak RSS {} MiB", r.peak_rss / MIB);
    }
    // A long line that ends inside what was read ends the input just the
    // same (so where blocks are cut changes nothing): the problems before
    // it are reported, nothing after it is checked.
    let r = run(jetjson(&["check", "--lines", "--max-size", "1M", "-"]), |w| {
        w.write_all(b"[1]\n[x\n\"")?;
        w.write_all(&b"y".repeat((1 << 20) + 10))?;
        w.write_all(b"\"\n[2\n{}\n")
    });
    assert_eq!(r.code(), 1, "{}", r.stderr);
    let heads: Vec<&str> = r.stderr.lines().filter(|l| l.starts_with("<stdin>")).collect();
    assert_eq!(heads.len(), 2, "{}", r.stderr);
    assert!(heads[0].starts_with("<stdin>:2:2: "), "{}", heads[0]);
    assert_eq!(heads[1], "<stdin>:3:1048577: input larger than --max-size 1048576 bytes (a line longer than the limit; reading stopped at byte offset 1048583 of the input)");
}

/// `--max-size` counts a line without its `\n` or `\r\n`, as Python's
/// `loads_lines` does: a line of exactly the limit ending in `\r\n` is
/// read, in one block or longer than one; one byte more is refused.
/// Any other `\r` is whitespace that counts.
#[test]
fn max_size_counts_a_line_without_its_crlf() {
    for len in [6usize, (5 * MIB) as usize] {
        let line = format!("\"{}\"", "y".repeat(len - 2));
        for (limit, ok) in [(len, true), (len - 1, false)] {
            for args in [&["check", "--lines"][..], &["canon", "--profile", "compact", "--lines"]] {
                let mut a = args.to_vec();
                let limit_text = limit.to_string();
                a.extend(["--max-size", &limit_text, "-"]);
                let body = format!("[1]\r\n{line}\r\n{{}}\r\n");
                let r = run(jetjson(&a), move |w| w.write_all(body.as_bytes()));
                assert_eq!(r.code() == 0, ok, "{args:?} line {len} limit {limit}: {}", r.stderr);
                if !ok {
                    let head = r.stderr.lines().next().unwrap_or_default();
                    assert!(head.starts_with(&format!("<stdin>:2:{}: input larger than --max-size {limit} bytes", limit + 1)), "{head}");
                }
            }
        }
    }
    // A `\r` not before the `\n` is in the line.
    let r = run(jetjson(&["check", "--lines", "--max-size", "3", "-"]), |w| w.write_all(b"[1]\r\r\n"));
    assert_eq!(r.code(), 1, "{}", r.stderr);
}

/// Where the reader meets a line longer than what it has read (the first
/// block is 4 MiB, later ones 256 KiB), a line of exactly `--max-size`
/// bytes ending in `\r\n` is read whole and the lines after it are
/// checked: the reader used to cut it at the `\r` and end the input there,
/// and with the `\r\n` not counted the cut line passed, so a bad line
/// after it was never seen (exit 0). A line one byte longer, or ending in
/// `\r\r\n`, is refused. (Found by an outside tester.)
#[test]
fn a_line_of_the_limit_ending_in_crlf_across_a_block_is_read_whole() {
    let first = 4 * MIB as usize;
    let later = 256 * 1024;
    // Short lines filling the first block, so the long line starts where
    // the reader reads 256 KiB at a time.
    let filler: Vec<u8> = b"[1]\n".repeat(first / 4);
    for (prefix, block) in [(Vec::new(), first), (filler, later)] {
        for len in [block - 2, block - 1, block, block + 1] {
            let line = format!("\"{}\"", "a".repeat(len - 2)).into_bytes();
            for (ending, limit, ok_line) in [(&b"\r\n"[..], len, true), (b"\r\n", len - 1, false), (b"\r\r\n", len, false)] {
                for args in [&["check", "--lines"][..], &["canon", "--profile", "compact", "--lines", "--threads", "1"]] {
                    let mut a = args.to_vec();
                    let limit_text = limit.to_string();
                    a.extend(["--max-size", &limit_text, "-"]);
                    let mut body = prefix.clone();
                    body.extend_from_slice(&line);
                    body.extend_from_slice(ending);
                    body.extend_from_slice(b"{bad\n[2]\n");
                    let r = run(jetjson(&a), move |w| w.write_all(&body));
                    assert_eq!(r.code(), 1, "{args:?} line {len} limit {limit} {ending:?}: {}", r.stderr);
                    let at = prefix.len() / 4 + if ok_line { 2 } else { 1 };
                    let head = r.stderr.lines().find(|l| l.starts_with("<stdin>:")).unwrap_or_default();
                    assert!(head.starts_with(&format!("<stdin>:{at}:")), "{args:?} line {len} limit {limit} {ending:?}: {head}");
                }
            }
        }
    }
}

/// `/dev/zero` is one endless line: `--lines` with `--max-size` fails at the
/// limit instead of running forever (a watchdog fails the test after 30 s).
#[test]
fn an_endless_line_from_dev_zero_fails_at_the_limit() {
    if !std::path::Path::new("/dev/zero").exists() {
        eprintln!("no /dev/zero here: skipped");
        return;
    }
    for args in [
        &["canon", "--profile", "compact", "--lines"][..],
        &["check", "--lines"],
        &["canon", "--profile", "compact", "--lines", "--threads", "1"],
    ] {
        let mut a = args.to_vec();
        a.extend(["--max-size", "1M", "/dev/zero"]);
        let mut child = Command::new(env!("CARGO_BIN_EXE_jetjson"))
            .args(&a)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start");
        let started = std::time::Instant::now();
        while child.try_wait().expect("try_wait").is_none() {
            if started.elapsed() > std::time::Duration::from_secs(30) {
                let _ = child.kill();
                let _ = child.wait();
                panic!("{a:?} still running after 30 s");
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        let out = child.wait_with_output().expect("wait");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{a:?}: {stderr}");
        assert!(
            stderr.starts_with("/dev/zero:1:1048577: input larger than --max-size 1048576 bytes (a line longer than the limit; reading stopped at byte offset 1048576 of the input)\n"),
            "{a:?}: {stderr}"
        );
        assert!(out.stdout.is_empty(), "{a:?}");
    }
}

// ---- huge inputs --------------------------------------------------------

/// NDJSON lines of varied shape, about 120 bytes each.
fn ndjson_line(i: u64, out: &mut Vec<u8>) {
    writeln!(
        out,
        "{{\"id\":{i},\"name\":\"user-{i}\",\"tags\":[\"a\",\"<b>\",\"\\u00e9\"],\"score\":{}.5,\"ok\":{},\"n\":null}}",
        i % 1000,
        i.is_multiple_of(2)
    )
    .unwrap();
}

/// Writes `total` bytes of NDJSON (whole lines; the last may run over).
fn ndjson_stream(total: u64) -> impl FnOnce(&mut dyn Write) -> std::io::Result<()> + Send + 'static {
    move |w| {
        let mut sent = 0u64;
        let mut i = 0u64;
        let mut buf = Vec::with_capacity(1 << 20);
        while sent < total {
            buf.clear();
            while buf.len() < (1 << 20) - 256 {
                ndjson_line(i, &mut buf);
                i += 1;
            }
            w.write_all(&buf)?;
            sent += buf.len() as u64;
        }
        Ok(())
    }
}

/// Size of the NDJSON stream: 1 GiB (override with JETJSON_HUGE_NDJSON_MIB).
fn huge_ndjson_bytes() -> u64 {
    std::env::var("JETJSON_HUGE_NDJSON_MIB").ok().and_then(|s| s.parse().ok()).unwrap_or(1024) * MIB
}

#[test]
fn a_1gib_ndjson_stream_runs_in_constant_memory() {
    let total = huge_ndjson_bytes();
    for args in [&["check", "--lines", "-"][..], &["canon", "--lines", "--profile", "go", "-"], &["digest", "--raw", "-"]] {
        let r = run(jetjson(args), ndjson_stream(total));
        assert_eq!(r.code(), 0, "{args:?}: {}", r.stderr);
        assert!(r.fed >= total, "{args:?}: fed {} bytes", r.fed);
        if args[0] == "canon" {
            // Go's profile sorts keys and escapes <b>: every line changes
            // but keeps its count of lines.
            let mut first = Vec::new();
            ndjson_line(0, &mut first);
            assert!(r.stdout_head.starts_with(b"{\"id\":0,\"n\":null,\"name\":\"user-0\",\"ok\":true,\"score\":0.5,\"tags\":[\"a\",\"\\u003cb\\u003e\",\"\xc3\xa9\"]}\n"), "{:?}", String::from_utf8_lossy(&r.stdout_head[..200]));
            assert!(r.stdout_len > total / 2 && r.stdout_tail.ends_with(b"]}\n"), "{} bytes of output", r.stdout_len);
        }
        eprintln!("{args:?}: {} MiB in, peak RSS {} MiB", total / MIB, r.peak_rss / MIB);
        // digest --raw hashes as it reads: a fixed 1 MiB buffer.
        let bound = if args[1] == "--raw" { SMALL_RUN_RSS } else { NDJSON_RSS_BOUND };
        assert!(r.peak_rss <= bound, "{args:?}: peak RSS {} MiB for {} MiB of NDJSON", r.peak_rss / MIB, total / MIB);
    }
}

/// One string of `len` bytes (letters and a few escapes) as a document.
fn string_document(len: u64) -> impl FnOnce(&mut dyn Write) -> std::io::Result<()> + Send + 'static {
    move |w| {
        let piece = b"abcdefghijklmnopqrstuvwxyz\\n0123456789\\u00e9ABCDEFGHIJKLMNOP<>&".repeat(1 << 14);
        w.write_all(b"\"")?;
        let mut sent = 0u64;
        while sent + (piece.len() as u64) <= len {
            w.write_all(&piece)?;
            sent += piece.len() as u64;
        }
        w.write_all(b"\"")
    }
}

#[test]
fn a_500mb_string_fits_the_document_bound() {
    let len = 500_000_000;
    let commands = [
        &["check", "-"][..],
        &["canon", "--profile", "compact", "-"],
        &["canon", "--profile", "go", "-"],
        &["fmt", "-"],
        &["digest", "--profile", "go", "-"],
        &["digest", "--raw", "-"],
    ];
    for args in commands {
        let r = run(jetjson(args), string_document(len));
        assert_eq!(r.code(), 0, "{args:?}: {}", r.stderr);
        eprintln!("{args:?}: {} MB string, peak RSS {} MiB", len / 1_000_000, r.peak_rss / MIB);
        let bound = match args {
            ["check", ..] => CHECK_DOCUMENT_RSS.bound(r.fed).min(STRING_DOCUMENT_RSS.bound(r.fed)),
            ["digest", "--raw", ..] => SMALL_RUN_RSS,
            _ => STRING_DOCUMENT_RSS.bound(r.fed),
        };
        assert!(r.peak_rss <= bound, "{args:?}: peak RSS {} MiB for a {} MB document", r.peak_rss / MIB, r.fed / 1_000_000);
        if args[0] == "canon" {
            assert!(r.stdout_head.starts_with(b"\"abcdefghijklmnopqrstuvwxyz\\n0123456789"), "{args:?}");
            assert!(r.stdout_tail.ends_with(if args[2] == "go" { b"\\u003c\\u003e\\u0026\"" } else { b"<>&\"" }), "{args:?}");
        }
    }
}

/// The densest document for a `Value`: 10 MB of `[0,0,…]`. `canon`, `fmt`
/// and `digest` hold its `Value` (the output is streamed); `check` holds
/// the input only.
#[test]
fn a_dense_document_fits_the_document_bound() {
    let n = 5_000_000;
    for args in [
        &["check", "-"][..],
        &["canon", "--profile", "compact", "-"],
        &["canon", "--profile", "go", "-"],
        &["fmt", "--indent", "0", "-"],
        &["digest", "--profile", "go", "-"],
    ] {
        let r = run(jetjson(args), deep_numbers(1, n));
        assert_eq!(r.code(), 0, "{args:?}: {}", r.stderr);
        eprintln!(
            "{args:?}: {:.1} MB of [0,0,...], peak RSS {} MiB ({:.1}x)",
            r.fed as f64 / 1e6,
            r.peak_rss / MIB,
            r.peak_rss as f64 / r.fed as f64
        );
        let bound = if args[0] == "check" { CHECK_DOCUMENT_RSS.bound(r.fed) } else { DENSE_DOCUMENT_RSS.bound(r.fed) };
        assert!(r.peak_rss <= bound, "{args:?}: peak RSS {} MiB for a {} MB document", r.peak_rss / MIB, r.fed / 1_000_000);
        if args[0] == "canon" || args[0] == "fmt" {
            assert_eq!(r.stdout_len, 2 * n + 1 + u64::from(args[0] == "fmt"), "{args:?}");
        }
    }
}

/// The densest document for `check`: one object of 8.4 million distinct
/// 4-byte names (75 MB), whose duplicate check indexes every name (just
/// past a power of two, where the index is largest for its names).
#[test]
fn an_object_of_millions_of_names_fits_the_check_bound() {
    let names = (1u64 << 23) + 1000;
    let feed = move |w: &mut dyn Write| -> std::io::Result<()> {
        // Names over the 91 printable ASCII characters from `#` on, but `\`.
        let alphabet: Vec<u8> = (0x23u8..0x7f).filter(|&c| c != b'\\').collect();
        let k = alphabet.len() as u64;
        let mut buf = Vec::with_capacity(1 << 20);
        buf.push(b'{');
        for i in 0..names {
            buf.push(b'"');
            for d in [k * k * k, k * k, k, 1] {
                buf.push(alphabet[(i / d % k) as usize]);
            }
            buf.extend_from_slice(b"\":0,");
            if buf.len() > (1 << 20) - 16 {
                w.write_all(&buf)?;
                buf.clear();
            }
        }
        buf.extend_from_slice(b"\"!\":0}");
        w.write_all(&buf)
    };
    let r = run(jetjson(&["check", "-"]), feed);
    assert_eq!(r.code(), 0, "{}", r.stderr);
    eprintln!(
        "check of {:.1} MB, one object of {names} names: peak RSS {} MiB ({:.1}x)",
        r.fed as f64 / 1e6,
        r.peak_rss / MIB,
        r.peak_rss as f64 / r.fed as f64
    );
    assert!(r.peak_rss <= CHECK_DOCUMENT_RSS.bound(r.fed), "peak RSS {} MiB for a {} MB document", r.peak_rss / MIB, r.fed / 1_000_000);
}

// ---- pretty-printing ----------------------------------------------------

/// `depth` openers, `n` zeros, `depth` closers: the shape whose pretty form
/// is largest for its size (every element on a line indented depth x N).
fn deep_numbers(depth: usize, n: u64) -> impl FnOnce(&mut dyn Write) -> std::io::Result<()> + Send + 'static {
    move |w| {
        w.write_all(&b"[".repeat(depth))?;
        let chunk = b"0,".repeat(1 << 16);
        let mut left = n - 1;
        while left > 0 {
            let k = left.min(1 << 16);
            w.write_all(&chunk[..2 * k as usize])?;
            left -= k;
        }
        w.write_all(b"0")?;
        w.write_all(&b"]".repeat(depth))
    }
}

/// Bytes of that document pretty-printed with `indent` (Go's MarshalIndent
/// layout), plus `fmt`'s final newline: the opening lines, one line per
/// element (commas between), the closing lines.
fn deep_numbers_pretty_len(depth: u64, n: u64, indent: u64) -> u64 {
    let lines_of_levels = 2 * depth + indent * (depth - 1) * depth / 2;
    1 + (lines_of_levels - 2) + n * (2 + indent * depth) + (n - 1) + lines_of_levels + 1
}

/// A 10 MB document nested 511 deep, pretty-printed with the default indent,
/// is 5.1 GB of output: streamed, memory is the parsed value's, not the
/// output's (before, the output was built whole: 5.1 GB of RSS).
#[test]
fn pretty_printing_a_deep_document_streams_its_output() {
    let (depth, n) = (511, 4_999_490);
    let r = run(jetjson(&["fmt", "-"]), deep_numbers(depth, n));
    assert_eq!(r.code(), 0, "{}", r.stderr);
    assert_eq!(r.stdout_len, deep_numbers_pretty_len(depth as u64, n, 2));
    assert!(r.stdout_head.starts_with(b"[\n  [\n    [\n      ["), "{:?}", String::from_utf8_lossy(&r.stdout_head[..40]));
    assert!(r.stdout_tail.ends_with(b"\n      ]\n    ]\n  ]\n]\n"), "{:?}", String::from_utf8_lossy(&r.stdout_tail[4000..]));
    eprintln!(
        "fmt of a {:.1} MB document nested {depth} deep: {:.2} GB out, peak RSS {} MiB",
        r.fed as f64 / 1e6,
        r.stdout_len as f64 / 1e9,
        r.peak_rss / MIB
    );
    assert!(r.peak_rss <= DENSE_DOCUMENT_RSS.bound(r.fed), "peak RSS {} MiB for a {} MB document", r.peak_rss / MIB, r.fed / 1_000_000);

    // canon in the go profile (sorted objects) streams the same way.
    let (depth, n) = (300, 1_000_000);
    let r = run(jetjson(&["canon", "--profile", "go", "--indent", "2", "-"]), deep_numbers(depth, n));
    assert_eq!(r.code(), 0, "{}", r.stderr);
    assert_eq!(r.stdout_len, deep_numbers_pretty_len(depth as u64, n, 2) - 1);
    assert!(
        r.peak_rss <= DENSE_DOCUMENT_RSS.bound(r.fed),
        "canon: peak RSS {} MiB for a {} MB document",
        r.peak_rss / MIB,
        r.fed / 1_000_000
    );
}

/// The indent is capped at 16: the 1.4 KB document that `--indent 65535`
/// blew up to 15 GB is refused before it is read, and at the cap the same
/// document stays small.
#[test]
fn a_huge_indent_is_refused_and_the_cap_stays_small() {
    let doc = [b"[".repeat(511), b"0,".repeat(199), b"0".to_vec(), b"]".repeat(511)].concat();
    assert!(doc.len() > 1400 && doc.len() < 1500);
    for args in [
        &["fmt", "--indent", "65535", "-"][..],
        &["canon", "--profile", "go", "--indent", "65535", "-"],
        &["digest", "--profile", "go", "--indent", "65535", "-"],
    ] {
        let d = doc.clone();
        let r = run(jetjson(args), move |w| w.write_all(&d));
        assert_eq!(r.code(), 2, "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains("65535 is not in 0..=16"), "{args:?}: {}", r.stderr);
        assert_eq!(r.stdout_len, 0);
    }
    let d = doc.clone();
    let r = run(jetjson(&["fmt", "--indent", "16", "-"]), move |w| w.write_all(&d));
    assert_eq!(r.code(), 0, "{}", r.stderr);
    assert_eq!(r.stdout_len, deep_numbers_pretty_len(511, 200, 16));
    eprintln!("fmt --indent 16 of {} bytes nested 511 deep: {} bytes out, peak RSS {} MiB", doc.len(), r.stdout_len, r.peak_rss / MIB);
    assert!(r.peak_rss < SMALL_RUN_RSS, "peak RSS {} MiB", r.peak_rss / MIB);
}

// ---- output errors ------------------------------------------------------

#[test]
fn a_full_device_is_an_error_not_success() {
    let dev_full = std::fs::OpenOptions::new().write(true).open("/dev/full");
    let Ok(_) = dev_full else {
        eprintln!("no /dev/full here: skipped");
        return;
    };
    let cases: [(&[&str], Vec<u8>); 5] = [
        (&["canon", "--profile", "compact", "-"], b"{\"a\":[1,2,3]}".to_vec()),
        (&["fmt", "-"], b"{\"a\":[1,2,3]}".to_vec()),
        (&["digest", "--profile", "go", "-"], b"{\"a\":[1,2,3]}".to_vec()),
        (&["canon", "--profile", "compact", "--lines", "-"], b"[1]\n".repeat(1000)),
        // Much more output than the CLI buffers, so writes fail mid-stream.
        (&["canon", "--lines", "--profile", "jcs", "-"], b"{\"b\":1,\"a\":[true,false,null]}\n".repeat(200_000)),
    ];
    for (args, input) in cases {
        let full = std::fs::OpenOptions::new().write(true).open("/dev/full").expect("/dev/full");
        let mut cmd = jetjson(args);
        cmd.stdout(full);
        let mut child = cmd.spawn().expect("start");
        let mut stdin = child.stdin.take().unwrap();
        let feeder = std::thread::spawn(move || {
            let _ = stdin.write_all(&input);
        });
        let out = child.wait_with_output().expect("wait");
        feeder.join().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains("writing output") && stderr.contains("No space left on device"), "{args:?}: {stderr}");
    }
}

/// Limits the address space of the child `cmd` starts to `bytes`, so that
/// it runs out of memory there.
fn limit_address_space(cmd: &mut Command, bytes: u64) {
    use std::os::unix::process::CommandExt;
    // SAFETY: only setrlimit, async-signal-safe, runs in the child between
    // fork and exec.
    unsafe {
        cmd.pre_exec(move || {
            let limit = libc::rlimit { rlim_cur: bytes, rlim_max: bytes };
            if libc::setrlimit(libc::RLIMIT_AS, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
}

/// Memory running out while the input itself is read (a pipe or a device
/// that never ends, a line that never ends) is an error with exit 2, not
/// the end of the process: every buffer the input is read into grows
/// fallibly, for whole documents and for blocks of lines alike.
#[test]
fn running_out_of_memory_while_reading_is_an_error() {
    for (args, endless) in [
        (&["check", "-"][..], &b"[1,2,3]\n"[..]),
        (&["canon", "--profile", "go", "-"], b"[1,2,3]\n"),
        (&["check", "--lines", "-"], b"1111111111"),
        (&["canon", "--profile", "jcs", "--lines", "--threads", "2", "-"], b"1111111111"),
    ] {
        let mut cmd = jetjson(args);
        limit_address_space(&mut cmd, 256 * MIB);
        let chunk = endless.repeat(1 << 16);
        // Fed until the child stops reading (a broken pipe ends the feed).
        let r = run(cmd, move |w| loop {
            w.write_all(&chunk)?;
        });
        assert_eq!(r.code(), 2, "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains("<stdin>: out of memory while reading"), "{args:?}: {}", r.stderr);
    }
}

/// Memory running out while a valid document is read is the machine's
/// limit, not the input's fault: exit 2 (not 1, "invalid input"), and a
/// message with no place in the input.
#[test]
fn running_out_of_memory_is_not_invalid_input() {
    for args in [&["canon", "--profile", "go", "-"][..], &["fmt", "-"]] {
        let mut cmd = jetjson(args);
        limit_address_space(&mut cmd, 256 * MIB);
        // 10 MB of `[0,0,...]`: valid, and a `Value` of it needs more than
        // the limit (about 66 bytes an element).
        let r = run(cmd, deep_numbers(1, 5_000_000));
        assert_eq!(r.code(), 2, "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains("out of memory") && !r.stderr.contains(":1:"), "{args:?}: {}", r.stderr);
    }
}
