//! The `jetjson` command line tool: canonical bytes, digests, strict
//! validation and pretty-printing of JSON and NDJSON.
//!
//! This file holds the command line (clap) and the dispatch; each command
//! lives in `commands/`, reading in `input.rs`, parallel NDJSON in
//! `ndjson.rs`, error reports in `report.rs`, exit codes in `fail.rs`.
//!
//! Nothing here prints with `print!`/`eprint!` (which panic when the stream
//! cannot be written, e.g. `2>/dev/full`): stdout goes through checked
//! writes, stderr through `report::print`. The lint below keeps it so.
#![deny(clippy::print_stdout, clippy::print_stderr)]

mod commands;
mod fail;
mod input;
mod ndjson;
mod progress;
mod report;

use std::ffi::OsString;
use std::io::{BufWriter, Write};
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};
use jetjson::{DuplicateKeys, Profile, ReadOptions, WriteOptions};

use crate::fail::Fail;

#[derive(Parser)]
#[command(
    name = "jetjson",
    version,
    about = "Canonical JSON bytes (Go encoding/json, RFC 8785 JCS, compact), digests and strict validation",
    after_help = concat!(
        "Examples:\n",
        "  jetjson canon --profile jcs doc.json         RFC 8785 bytes, no trailing newline\n",
        "  jetjson canon --profile go --lines in.ndjson one Go-encoded document per line\n",
        "  jetjson digest manifest.json                 sha256 of the Go encoding\n",
        "  jetjson digest --raw manifest.json           sha256 of the stored bytes (OCI)\n",
        "  jetjson check --lines logs/*.ndjson          validate every line\n",
        "  curl -s URL | jetjson fmt                    pretty-print stdin\n",
        "\n",
        "A FILE of `-`, or no FILE, means stdin. Errors go to stderr.\n",
        "\n",
        "Exit status:\n",
        "  0  success (also when stdout is closed early, e.g. by `head`)\n",
        "  1  invalid input: not strict JSON (RFC 8259), over a limit, or not writable in the profile\n",
        "  2  usage error, or an input that cannot be read / output that cannot be written\n",
        "A report that cannot be written to stderr (full, closed) leaves the status unchanged.",
    )
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    Canon(CanonArgs),
    Digest(DigestArgs),
    Check(CheckArgs),
    Fmt(FmtArgs),
}

/// Write JSON in a profile's exact bytes (no trailing newline for one document).
#[derive(Args)]
#[command(after_help = concat!(
    "Profiles:\n",
    "  compact  minimal JSON, keys in input order, floats stay floats (100.0)\n",
    "  go       the bytes of Go's json.Marshal: keys sorted by UTF-8 bytes, <>& and U+2028/9 escaped,\n",
    "           floats as Go writes them (1e+21, 1e-7, 100)\n",
    "  jcs      RFC 8785: keys sorted by UTF-16 code units, ECMAScript numbers, no whitespace;\n",
    "           --indent, --ascii and --keep-order are refused with it\n",
    "\n",
    "With --lines, the input is NDJSON split on \\n only (a \\r before it is whitespace); each line\n",
    "gives one output line ending in \\n. A blank line is an error (\"empty line\"). The first bad\n",
    "line stops the run: the lines before it are written, then FILE:LINE:COL: message, exit 1.\n",
    "--max-size applies to each line; reading stops one byte past it on a longer line.\n",
    "Large inputs are processed on all cores in blocks, in constant memory, output in input order.\n",
    "\n",
    "Examples:\n",
    "  jetjson canon --profile go manifest.json > manifest.go.json\n",
    "  jetjson canon --profile jcs - < payload.json | sha256sum\n",
    "  jetjson canon --profile go --no-escape-html --lines events.ndjson\n",
    "  jetjson canon --sort-keys --indent 2 config.json\n",
    "\n",
    "Exit status: 0 ok, 1 invalid input, 2 usage or I/O error."
))]
pub struct CanonArgs {
    /// Output conventions
    #[arg(long, value_enum, default_value_t = ProfileArg::Compact)]
    pub profile: ProfileArg,
    /// Treat the input as NDJSON: one document per line, one output line each
    #[arg(long)]
    pub lines: bool,
    /// Worker threads for --lines (default: all cores)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub threads: Option<u16>,
    #[command(flatten)]
    pub write: WriteArgs,
    #[command(flatten)]
    pub read: ReadArgs,
    /// Input file; `-` or none for stdin
    #[arg(value_name = "FILE")]
    pub file: Option<OsString>,
}

/// Print the digest of a document's canonical bytes, or of its raw bytes.
#[derive(Args)]
#[command(after_help = concat!(
    "Prints `<algorithm>:<lowercase hex>` and a newline. Without --raw, the digest is over the bytes\n",
    "`jetjson canon` writes with the same profile and output flags (default profile: go), hashed while\n",
    "they are written. With --raw, it is over the input bytes exactly as stored, which is how OCI and\n",
    "Docker registries address manifests; the input is then not parsed at all.\n",
    "\n",
    "With --raw, only --algorithm and --max-size apply: reading stops one byte past --max-size and\n",
    "the input is refused (exit 1, no digest). Options about parsing or output (--profile,\n",
    "--max-depth, --duplicate-keys, --allow-bom, --indent, --sort-keys, --keep-order, --ascii,\n",
    "--no-escape-html) mean nothing for stored bytes and are refused (exit 2).\n",
    "\n",
    "Examples:\n",
    "  jetjson digest --raw blobs/sha256/faa03e78...     equals the blob's file name\n",
    "  jetjson digest --profile jcs --algorithm sha512 payload.json\n",
    "\n",
    "Exit status: 0 ok, 1 invalid input, 2 usage or I/O error."
))]
pub struct DigestArgs {
    /// Profile whose bytes are hashed
    #[arg(long, value_enum, default_value_t = ProfileArg::Go)]
    pub profile: ProfileArg,
    /// Hash function
    #[arg(long, value_enum, default_value_t = AlgorithmArg::Sha256)]
    pub algorithm: AlgorithmArg,
    /// Hash the input bytes as they are (no parsing, no canonicalization)
    #[arg(long, conflicts_with_all = RAW_REFUSES)]
    pub raw: bool,
    #[command(flatten)]
    pub write: WriteArgs,
    #[command(flatten)]
    pub read: ReadArgs,
    /// Input file; `-` or none for stdin
    #[arg(value_name = "FILE")]
    pub file: Option<OsString>,
}

/// The options `digest --raw` refuses: they are about parsing or writing,
/// and raw bytes are neither parsed nor written (ids of `DigestArgs`,
/// `ReadArgs` and `WriteArgs`; `--max-size` is honoured).
const RAW_REFUSES: [&str; 9] =
    ["profile", "max_depth", "duplicate_keys", "allow_bom", "no_escape_html", "sort_keys", "keep_order", "indent", "ascii"];

/// Validate strictly (RFC 8259) without building anything; report every error.
#[derive(Args)]
#[command(after_help = concat!(
    "Each error is reported on stderr as FILE:LINE:COL: message (LINE and COL 1-based, COL in\n",
    "bytes), followed by the offending line (cut to a window around the column when long) and a\n",
    "caret under the column. Nothing is printed for valid input.\n",
    "\n",
    "With --lines, every line of every file is validated on its own (NDJSON, split on \\n only);\n",
    "LINE is the line within the file and COL the column within that line. A blank line is an\n",
    "error (\"empty line\"). --max-size then applies to each line: a longer line is reported\n",
    "with the byte offset where reading stopped, one byte past the limit, and ends that file\n",
    "(nothing after it is read, so an endless line cannot hold the run).\n",
    "\n",
    "Examples:\n",
    "  jetjson check config.json\n",
    "  jetjson check --duplicate-keys last --max-depth 64 a.json b.json\n",
    "  jetjson check --lines events.ndjson\n",
    "  producer | jetjson check -\n",
    "\n",
    "Exit status: 0 all inputs valid; 1 some input invalid; 2 usage error or some file could not be\n",
    "read (the other files are still checked; 2 wins over 1)."
))]
pub struct CheckArgs {
    /// Validate each line as its own document (NDJSON)
    #[arg(long)]
    pub lines: bool,
    /// Worker threads for --lines (default: all cores)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub threads: Option<u16>,
    #[command(flatten)]
    pub read: ReadArgs,
    /// Files to check; `-` or none for stdin
    #[arg(value_name = "FILE")]
    pub files: Vec<OsString>,
}

/// Pretty-print keeping key order (compact profile), or compact with --indent 0.
#[derive(Args)]
#[command(after_help = concat!(
    "Output ends with a newline. Keys stay in input order and numbers keep their kind\n",
    "(100.0 stays 100.0); use `jetjson canon` for a profile's exact bytes.\n",
    "\n",
    "Examples:\n",
    "  jetjson fmt config.json\n",
    "  jetjson fmt --indent 4 - < config.json\n",
    "  jetjson fmt --indent 0 pretty.json      compact, plus a newline\n",
    "\n",
    "Exit status: 0 ok, 1 invalid input, 2 usage or I/O error."
))]
pub struct FmtArgs {
    /// Spaces per level, at most 16; 0 for compact output
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = indent_parser())]
    pub indent: u16,
    #[command(flatten)]
    pub read: ReadArgs,
    /// Input file; `-` or none for stdin
    #[arg(value_name = "FILE")]
    pub file: Option<OsString>,
}

/// How the output is written (on top of the profile).
#[derive(Args)]
#[command(next_help_heading = "Output")]
pub struct WriteArgs {
    /// Do not escape <, > and & (go profile; Go's SetEscapeHTML(false))
    #[arg(long)]
    pub no_escape_html: bool,
    /// Sort object keys by UTF-8 bytes (the default in go; jcs always sorts by UTF-16)
    #[arg(long, conflicts_with = "keep_order")]
    pub sort_keys: bool,
    /// Keep object keys in input order (the default in compact)
    #[arg(long)]
    pub keep_order: bool,
    /// Pretty-print with N spaces per level, at most 16 (0: none)
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = indent_parser())]
    pub indent: u16,
    /// Escape every non-ASCII character as \uXXXX
    #[arg(long)]
    pub ascii: bool,
}

impl WriteArgs {
    pub fn options(&self, profile: ProfileArg) -> Result<WriteOptions, Fail> {
        let profile = Profile::from(profile);
        if profile == Profile::Jcs {
            // RFC 8785 fixes all three; output that differs would not be JCS.
            let refused = [(self.indent > 0, "--indent"), (self.ascii, "--ascii"), (self.keep_order, "--keep-order")];
            if let Some((_, flag)) = refused.iter().find(|(on, _)| *on) {
                return Err(Fail::Usage(format!("{flag} cannot be used with --profile jcs (RFC 8785 fixes the layout)")));
            }
        }
        let mut w = WriteOptions::new(profile).indent(self.indent).ascii_only(self.ascii);
        if self.no_escape_html {
            w = w.escape_html(false);
        }
        if self.sort_keys {
            w = w.sort_keys(true);
        } else if self.keep_order {
            w = w.sort_keys(false);
        }
        Ok(w)
    }
}

/// Limits and leniencies for reading (defaults: strict RFC 8259).
#[derive(Args)]
#[command(next_help_heading = "Reading")]
pub struct ReadArgs {
    /// Deepest nesting of arrays and objects accepted
    #[arg(long, value_name = "N", default_value_t = 512)]
    pub max_depth: usize,
    /// Largest document accepted, in bytes (suffixes K, M, G = powers of 1024)
    #[arg(long, value_name = "BYTES", value_parser = parse_size)]
    pub max_size: Option<usize>,
    /// What an object with the same key twice means
    #[arg(long, value_enum, value_name = "POLICY", default_value_t = DuplicateKeysArg::Error)]
    pub duplicate_keys: DuplicateKeysArg,
    /// Accept (and skip) a leading UTF-8 byte order mark
    #[arg(long)]
    pub allow_bom: bool,
}

impl ReadArgs {
    pub fn options(&self) -> ReadOptions {
        let mut r = ReadOptions::new().max_depth(self.max_depth).duplicate_keys(self.duplicate_keys.into()).allow_bom(self.allow_bom);
        if let Some(size) = self.max_size {
            r = r.max_size(size);
        }
        r
    }

    /// How much of a whole input to read: one byte past --max-size is
    /// enough for the parser to refuse it.
    pub fn read_limit(&self) -> Option<u64> {
        self.max_size.map(|m| (m as u64).saturating_add(1))
    }
}

/// `--indent`: 0 to the core's cap (`jetjson::MAX_INDENT`, 16); clap
/// refuses wider values with a usage error that names the range.
fn indent_parser() -> clap::builder::RangedI64ValueParser<u16> {
    clap::value_parser!(u16).range(0..=i64::from(jetjson::MAX_INDENT))
}

fn parse_size(s: &str) -> Result<usize, String> {
    let (digits, shift) = match s.as_bytes().last() {
        Some(b'k' | b'K') => (&s[..s.len() - 1], 10),
        Some(b'm' | b'M') => (&s[..s.len() - 1], 20),
        Some(b'g' | b'G') => (&s[..s.len() - 1], 30),
        _ => (s, 0),
    };
    let n: usize = digits.parse().map_err(|_| format!("expected a number of bytes (e.g. 1048576 or 1M), got {s:?}"))?;
    n.checked_mul(1 << shift).ok_or_else(|| format!("{s} is too large"))
}

#[derive(Clone, Copy, ValueEnum)]
pub enum ProfileArg {
    Compact,
    Go,
    Jcs,
}

impl From<ProfileArg> for Profile {
    fn from(p: ProfileArg) -> Profile {
        match p {
            ProfileArg::Compact => Profile::Compact,
            ProfileArg::Go => Profile::Go,
            ProfileArg::Jcs => Profile::Jcs,
        }
    }
}

#[derive(Clone, Copy, ValueEnum)]
pub enum AlgorithmArg {
    Sha256,
    Sha512,
}

impl From<AlgorithmArg> for jetjson::Algorithm {
    fn from(a: AlgorithmArg) -> jetjson::Algorithm {
        match a {
            AlgorithmArg::Sha256 => jetjson::Algorithm::Sha256,
            AlgorithmArg::Sha512 => jetjson::Algorithm::Sha512,
        }
    }
}

#[derive(Clone, Copy, ValueEnum)]
pub enum DuplicateKeysArg {
    /// Refuse the document (RFC 7493 I-JSON)
    Error,
    /// Keep the first value
    First,
    /// Keep the last value (JavaScript, Go v1, serde_json)
    Last,
}

impl From<DuplicateKeysArg> for DuplicateKeys {
    fn from(d: DuplicateKeysArg) -> DuplicateKeys {
        match d {
            DuplicateKeysArg::Error => DuplicateKeys::Error,
            DuplicateKeysArg::First => DuplicateKeys::First,
            DuplicateKeysArg::Last => DuplicateKeys::Last,
        }
    }
}

/// Threads for NDJSON: the flag, else every core the process may use.
pub fn threads(flag: Option<u16>) -> usize {
    flag.map(usize::from).unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return clap_exit(&e),
    };
    // One lock and one large buffer for all output: NDJSON output is many
    // small writes, and stdout is otherwise line-buffered.
    let mut out = BufWriter::with_capacity(256 << 10, std::io::stdout().lock());
    let result = match &cli.command {
        Command::Canon(args) => commands::canon::run(args, &mut out),
        Command::Digest(args) => commands::digest::run(args, &mut out),
        Command::Check(args) => commands::check::run(args),
        Command::Fmt(args) => commands::fmt::run(args, &mut out),
    };
    // Flush even after a failure: canon --lines has written the good lines
    // before the bad one, and they must come out.
    let flushed = out.flush().map_err(Fail::write);
    match result.and(flushed) {
        Ok(()) => ExitCode::SUCCESS,
        Err(fail) => {
            if let Fail::Io(msg) | Fail::Usage(msg) = &fail {
                report::print(&format!("jetjson: {msg}\n"));
            }
            fail.exit_code()
        }
    }
}

/// Ends a run that clap stopped: --help and --version (text on stdout, 0)
/// or a usage error (text on stderr, 2). clap's own `exit` ignores a failed
/// write; here help that cannot be written (`--help >/dev/full`) exits 2,
/// as any other output that cannot be written does, and a closed pipe
/// (`--help | head -1`) still ends quietly with 0.
fn clap_exit(e: &clap::Error) -> ExitCode {
    let printed = e.print().and_then(|()| if e.use_stderr() { Ok(()) } else { std::io::stdout().flush() });
    let code = u8::try_from(e.exit_code()).unwrap_or(2);
    match printed {
        Err(err) if code == 0 && err.kind() != std::io::ErrorKind::BrokenPipe => {
            report::print(&format!("jetjson: writing output: {err}\n"));
            ExitCode::from(2)
        }
        _ => ExitCode::from(code),
    }
}
