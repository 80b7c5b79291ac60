//! The `jetjson` binary when its stdout or stderr cannot be written: a full
//! device (`/dev/full`) or a pipe whose reader is gone. Every run ends with
//! the exit status its outcome calls for (1 invalid input, 2 usage or I/O,
//! 0 for a closed stdout, as `| head` does), never with a panic (status
//! 101, "panicked" on stderr).

use std::fs::OpenOptions;
use std::io::Write;
use std::process::{Command, Stdio};

/// Where a stream of the child goes.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Sink {
    /// Captured by the test (and checked for "panicked").
    Captured,
    /// `/dev/full`: every write fails with ENOSPC.
    Full,
    /// A pipe whose read end is closed before the child starts: every
    /// write fails with EPIPE.
    Closed,
}

impl Sink {
    fn stdio(self) -> Stdio {
        match self {
            Sink::Captured => Stdio::piped(),
            Sink::Full => OpenOptions::new().write(true).open("/dev/full").expect("/dev/full").into(),
            Sink::Closed => {
                use std::os::fd::{FromRawFd, OwnedFd};
                let mut fds = [0; 2];
                // SAFETY: `fds` has room for the two descriptors pipe() writes.
                let r = unsafe { libc::pipe(fds.as_mut_ptr()) };
                assert_eq!(r, 0, "pipe: {}", std::io::Error::last_os_error());
                // SAFETY: both descriptors were just created and are owned
                // here only; the read end is closed at once.
                let (reader, writer) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
                drop(reader);
                writer.into()
            }
        }
    }
}

/// Runs `args` with `input` on stdin and the two sinks; returns the exit
/// code and whatever was captured on stderr.
fn run(args: &[&str], input: &[u8], stdout: Sink, stderr: Sink) -> (i32, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_jetjson"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(stdout.stdio())
        .stderr(stderr.stdio())
        .spawn()
        .expect("start jetjson");
    let mut pipe = child.stdin.take().expect("stdin");
    let input = input.to_vec();
    let feeder = std::thread::spawn(move || {
        let _ = pipe.write_all(&input);
    });
    let out = child.wait_with_output().expect("wait");
    feeder.join().expect("feeder");
    let text = String::from_utf8_lossy(&out.stderr).into_owned();
    let what = format!("{args:?} stdout {stdout:?} stderr {stderr:?}");
    assert!(!text.contains("panicked"), "{what}: {text}");
    let code = out.status.code().unwrap_or_else(|| panic!("{what}: killed by a signal"));
    assert_ne!(code, 101, "{what}: panicked");
    (code, text)
}

fn have_dev_full() -> bool {
    OpenOptions::new().write(true).open("/dev/full").is_ok()
}

/// Runs that write an error report on stderr, with the status each must
/// end with whatever happens to the report.
fn failing_runs() -> Vec<(Vec<&'static str>, Vec<u8>, i32)> {
    let bad = b"{\"a\": [1, 2,]}".to_vec();
    vec![
        (vec!["check", "-"], bad.clone(), 1),
        (vec!["check", "--lines", "-"], b"[1]\n[2,\n\n".to_vec(), 1),
        (vec!["canon", "--profile", "compact", "-"], bad.clone(), 1),
        (vec!["canon", "--profile", "compact", "--lines", "-"], b"[1]\n[2,\n".to_vec(), 1),
        (vec!["fmt", "-"], bad.clone(), 1),
        (vec!["digest", "--profile", "go", "-"], bad, 1),
        // Parsed, but deeper than --max-write-depth (512): refused on output.
        (vec!["canon", "--profile", "compact", "--max-depth", "5000", "-"], [b"[".repeat(3000), b"]".repeat(3000)].concat(), 1),
        // No profile: a usage error.
        (vec!["canon", "-"], b"1".to_vec(), 2),
        (vec!["check", "--max-size", "4", "-"], b"[1,2,3]".to_vec(), 1),
        (vec!["check", "/nonexistent/jetjson-test.json"], Vec::new(), 2),
        (vec!["canon", "--profile", "go", "/nonexistent/jetjson-test.json"], Vec::new(), 2),
        (vec!["canon", "--profile", "jcs", "--ascii", "-"], b"1".to_vec(), 2),
        (vec!["--no-such-flag"], Vec::new(), 2),
        (vec!["check", "--max-depth", "x"], Vec::new(), 2),
    ]
}

#[test]
fn an_unwritable_stderr_keeps_the_exit_status() {
    let mut sinks = vec![Sink::Closed];
    if have_dev_full() {
        sinks.push(Sink::Full);
    } else {
        eprintln!("no /dev/full here: only the closed pipe is tried");
    }
    for sink in sinks {
        for (args, input, want) in failing_runs() {
            let (code, _) = run(&args, &input, Sink::Captured, sink);
            assert_eq!(code, want, "{args:?} with stderr {sink:?}");
        }
    }
}

/// Output that cannot be written, with stderr writable (the message is
/// checked) and not (only the status is left).
#[test]
fn an_unwritable_stdout_is_an_error_or_a_quiet_stop() {
    let doc = b"{\"a\":[1,2,3],\"b\":\"x\"}".to_vec();
    let runs: Vec<(Vec<&str>, Vec<u8>)> = vec![
        (vec!["canon", "--profile", "compact", "-"], doc.clone()),
        (vec!["canon", "--profile", "go", "--indent", "2", "-"], doc.clone()),
        (vec!["fmt", "-"], doc.clone()),
        (vec!["digest", "--profile", "go", "-"], doc.clone()),
        (vec!["digest", "--raw", "-"], doc.clone()),
        (vec!["canon", "--profile", "compact", "--lines", "-"], b"[1]\n".repeat(100_000)),
        (vec!["--help"], Vec::new()),
        (vec!["canon", "--help"], Vec::new()),
        (vec!["--version"], Vec::new()),
    ];
    let full = have_dev_full();
    for (args, input) in &runs {
        // A reader that went away (`| head`): a quiet stop with 0.
        for stderr in [Sink::Captured, Sink::Closed] {
            let (code, text) = run(args, input, Sink::Closed, stderr);
            assert_eq!(code, 0, "{args:?} stdout closed, stderr {stderr:?}: {text}");
            assert_eq!(text, "", "{args:?}");
        }
        if !full {
            continue;
        }
        // A full device: 2, with the reason when stderr can take it.
        let (code, text) = run(args, input, Sink::Full, Sink::Captured);
        assert_eq!(code, 2, "{args:?} stdout full: {text}");
        assert!(text.contains("writing output") && text.contains("No space left on device"), "{args:?}: {text}");
        for stderr in [Sink::Full, Sink::Closed] {
            let (code, _) = run(args, input, Sink::Full, stderr);
            assert_eq!(code, 2, "{args:?} stdout full, stderr {stderr:?}");
        }
    }
}
