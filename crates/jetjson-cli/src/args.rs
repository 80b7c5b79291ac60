//! The command line: what each command accepts (clap), the help texts, and
//! how flags become the core's options. The rules every front end shares
//! (which options a profile refuses, the defaults) come from the core; this
//! file spells them as flags.

use std::ffi::OsString;

use clap::{Args, Parser, Subcommand, ValueEnum};
use jetjson::{DuplicateKeys, Profile, ReadOptions, WriteOption, WriteOptions, DEFAULT_MAX_WRITE_DEPTH, MAX_WRITE_DEPTH};

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
        "  jetjson digest --profile go manifest.json    sha256 of the Go encoding\n",
        "  jetjson digest --raw manifest.json           sha256 of the stored bytes (OCI)\n",
        "  jetjson check --lines logs/*.ndjson          validate every line\n",
        "  curl -s URL | jetjson fmt                    pretty-print stdin\n",
        "\n",
        "A FILE of `-`, or no FILE, means stdin. Errors go to stderr. canon and digest take the\n",
        "profile explicitly (--profile compact|go|jcs; no default): bytes that are hashed or signed\n",
        "name their profile.\n",
        "\n",
        "Exit status:\n",
        "  0  success (also when stdout is closed early, e.g. by `head`)\n",
        "  1  invalid input: not strict JSON (RFC 8259), over a limit, or not writable in the profile\n",
        "  2  usage error, an input that cannot be read / output that cannot be written, or out of memory\n",
        "A report that cannot be written to stderr (full, closed) leaves the status unchanged.",
    )
)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand)]
pub(crate) enum Command {
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
    "  jcs      RFC 8785: keys sorted by UTF-16 code units, ECMAScript numbers, no whitespace\n",
    "There is no default profile. An output option that cannot change the profile's bytes is\n",
    "refused (exit 2): with jcs every one (RFC 8785 fixes them), with go --escape-html (on\n",
    "already), with compact --no-escape-html and --keep-order (what it does already).\n",
    "\n",
    "With --lines, the input is NDJSON split on \\n only (a \\r before it is whitespace); each line\n",
    "gives one output line ending in \\n. A blank line is an error (\"empty line\"). The first bad\n",
    "line stops the run: the lines before it are written, then FILE:LINE:COL: message, exit 1.\n",
    "--max-size applies to each line without its \\n or \\r\\n; reading stops just past it on a\n",
    "longer line.\n",
    "Large inputs are processed on all cores in blocks, in constant memory, output in input order.\n",
    "\n",
    "Examples:\n",
    "  jetjson canon --profile go manifest.json > manifest.go.json\n",
    "  jetjson canon --profile jcs - < payload.json | sha256sum\n",
    "  jetjson canon --profile go --no-escape-html --lines events.ndjson\n",
    "  jetjson canon --profile compact --sort-keys --indent 2 config.json\n",
    "\n",
    "Exit status: 0 ok, 1 invalid input, 2 usage or I/O error, or out of memory."
))]
pub struct CanonArgs {
    /// Output conventions (required)
    #[arg(long, value_enum)]
    pub profile: Option<ProfileArg>,
    /// Treat the input as NDJSON: one document per line, one output line each
    #[arg(long)]
    pub lines: bool,
    /// Worker threads for --lines (default: all cores)
    #[arg(long, requires = "lines", allow_negative_numbers = true, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
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
    "Prints `<algorithm>:<lowercase hex>` and a newline. Give either --profile or --raw (no default).\n",
    "With --profile, the digest is over the bytes `jetjson canon` writes with the same profile and\n",
    "output flags (`jetjson canon --profile P f | sha256sum` agrees), hashed while they are written.\n",
    "With --raw, it is over the input bytes exactly as stored, which is how OCI and Docker\n",
    "registries address manifests; the input is then not parsed at all.\n",
    "\n",
    "With --raw, only --algorithm and --max-size apply: reading stops one byte past --max-size and\n",
    "the input is refused (exit 1, no digest). Options about parsing or output (--profile,\n",
    "--max-depth, --duplicate-keys, --allow-bom, --indent, --sort-keys, --keep-order, --ascii,\n",
    "--escape-html, --no-escape-html, --max-write-depth) mean nothing for stored bytes and are\n",
    "refused (exit 2).\n",
    "\n",
    "Examples:\n",
    "  jetjson digest --raw blobs/sha256/faa03e78...     equals the blob's file name\n",
    "  jetjson digest --profile go manifest.json\n",
    "  jetjson digest --profile jcs --algorithm sha512 payload.json\n",
    "\n",
    "Exit status: 0 ok, 1 invalid input, 2 usage or I/O error, or out of memory."
))]
pub struct DigestArgs {
    /// Profile whose bytes are hashed (required unless --raw)
    #[arg(long, value_enum)]
    pub profile: Option<ProfileArg>,
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
const RAW_REFUSES: [&str; 11] = [
    "profile",
    "max_depth",
    "duplicate_keys",
    "allow_bom",
    "escape_html",
    "no_escape_html",
    "sort_keys",
    "keep_order",
    "indent",
    "ascii",
    "max_write_depth",
];

/// Validate strictly (RFC 8259) without building anything; report every error.
#[derive(Args)]
#[command(after_help = concat!(
    "Each error is reported on stderr as FILE:LINE:COL: message (LINE and COL 1-based, COL in\n",
    "bytes), followed by the offending line (cut to a window around the column when long) and a\n",
    "caret under the column. Nothing is printed for valid input.\n",
    "\n",
    "With --lines, every line of every file is validated on its own (NDJSON, split on \\n only);\n",
    "LINE is the line within the file and COL the column within that line. A blank line is an\n",
    "error (\"empty line\"). --max-size then applies to each line (without its \\n or \\r\\n):\n",
    "a longer line is reported\n",
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
    #[arg(long, requires = "lines", allow_negative_numbers = true, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
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
    "Exit status: 0 ok, 1 invalid input, 2 usage or I/O error, or out of memory."
))]
pub struct FmtArgs {
    /// Spaces per level, at most 16; 0 for compact output
    #[arg(long, allow_negative_numbers = true, value_name = "N", default_value_t = 2, value_parser = indent_parser())]
    pub indent: u16,
    #[command(flatten)]
    pub depth: WriteDepthArg,
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
    /// Escape <, > and & as \u003c, \u003e, \u0026 (compact; go does already)
    #[arg(long, conflicts_with = "no_escape_html")]
    pub escape_html: bool,
    /// Do not escape <, > and & (go; Go's SetEscapeHTML(false))
    #[arg(long)]
    pub no_escape_html: bool,
    /// Sort object keys by UTF-8 bytes (what go does with objects)
    #[arg(long, conflicts_with = "keep_order")]
    pub sort_keys: bool,
    /// Keep object keys in input order (go; what compact does)
    #[arg(long)]
    pub keep_order: bool,
    /// Pretty-print with N spaces per level, at most 16 (0: none)
    #[arg(long, allow_negative_numbers = true, value_name = "N", default_value_t = 0, value_parser = indent_parser())]
    pub indent: u16,
    /// Escape every non-ASCII character as \uXXXX
    #[arg(long)]
    pub ascii: bool,
    #[command(flatten)]
    pub depth: WriteDepthArg,
}

/// The write-side nesting limit, shared by the commands that write.
#[derive(Args)]
#[command(next_help_heading = "Output")]
pub struct WriteDepthArg {
    /// Deepest nesting written (1 to 1000000); raise with --max-depth for deeper documents
    #[arg(long, allow_negative_numbers = true, value_name = "N", default_value_t = DEFAULT_MAX_WRITE_DEPTH, value_parser = write_depth_parser())]
    pub max_write_depth: usize,
}

impl WriteArgs {
    /// The core's options for `profile`, refusing (usage error) any flag
    /// that cannot change the profile's bytes: the core's rule
    /// (`WriteOptions::inapplicable`), spelled as flags.
    pub fn options(&self, profile: ProfileArg) -> Result<WriteOptions, Fail> {
        let mut w =
            WriteOptions::new(profile.into()).indent(self.indent).ascii_only(self.ascii).max_write_depth(self.depth.max_write_depth);
        if self.escape_html || self.no_escape_html {
            w = w.escape_html(self.escape_html);
        }
        if self.sort_keys || self.keep_order {
            w = w.sort_keys(self.sort_keys);
        }
        match w.inapplicable() {
            Some(refused) => Err(Fail::Usage(format!(
                "{} cannot be used with --profile {}: {}",
                flag(refused.option),
                refused.profile.name(),
                refused.reason
            ))),
            None => Ok(w),
        }
    }
}

/// How the CLI spells an output option.
fn flag(option: WriteOption) -> &'static str {
    match option {
        WriteOption::EscapeHtml(true) => "--escape-html",
        WriteOption::EscapeHtml(false) => "--no-escape-html",
        WriteOption::SortKeys(true) => "--sort-keys",
        WriteOption::SortKeys(false) => "--keep-order",
        WriteOption::Indent => "--indent",
        WriteOption::AsciiOnly => "--ascii",
        // NaN cannot be read from JSON text: no flag sets it.
        _ => "an output option",
    }
}

/// The profile of `canon` and `digest`, which have no default: bytes that
/// are hashed or signed name their profile.
pub fn required_profile(profile: Option<ProfileArg>, command: &str) -> Result<ProfileArg, Fail> {
    profile.ok_or_else(|| {
        let raw = if command == "digest" { ", or --raw for the digest of the bytes as stored" } else { "" };
        Fail::Usage(format!(
            "{command} needs a profile: --profile compact, --profile go or --profile jcs{raw} (there is no default: \
             compact is minimal JSON in input key order, go is Go's json.Marshal bytes, jcs is RFC 8785)"
        ))
    })
}

/// Limits and leniencies for reading (defaults: strict RFC 8259).
#[derive(Args)]
#[command(next_help_heading = "Reading")]
pub struct ReadArgs {
    /// Deepest nesting of arrays and objects accepted
    #[arg(long, allow_negative_numbers = true, value_name = "N", default_value_t = 512)]
    pub max_depth: usize,
    /// Largest document accepted, in bytes (suffixes K, M, G = powers of 1024)
    #[arg(long, allow_negative_numbers = true, value_name = "BYTES", value_parser = parse_size)]
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

/// `--max-write-depth`: 1 to the core's ceiling (`jetjson::MAX_WRITE_DEPTH`).
fn write_depth_parser() -> clap::builder::RangedU64ValueParser<usize> {
    clap::builder::RangedU64ValueParser::new().range(1..=MAX_WRITE_DEPTH as u64)
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

#[derive(Clone, Copy, Debug, ValueEnum)]
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
