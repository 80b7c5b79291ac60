//! Running the `jetjson` binary in the integration tests (shared by
//! `cli.rs` and `rules.rs`).

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// The binary under test.
pub fn jetjson() -> Command {
    Command::new(env!("CARGO_BIN_EXE_jetjson"))
}

/// Runs the CLI with `args`, feeding `stdin` from a thread (so large inputs
/// and large outputs cannot deadlock on full pipes).
pub fn run(args: &[&str], stdin: &[u8]) -> Output {
    run_cmd(jetjson().args(args), stdin)
}

/// `run` for a command set up by the caller.
fn run_cmd(cmd: &mut Command, stdin: &[u8]) -> Output {
    let mut child = cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("start");
    let mut pipe = child.stdin.take().expect("stdin");
    let input = stdin.to_vec();
    let feeder = std::thread::spawn(move || {
        // The program may exit (and close stdin) before reading everything.
        let _ = pipe.write_all(&input);
    });
    let out = child.wait_with_output().expect("wait");
    feeder.join().expect("feeder");
    out
}

/// The exit status (the program must have exited, not been killed).
pub fn code(o: &Output) -> i32 {
    o.status.code().expect("exited normally")
}

/// Standard error as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}
