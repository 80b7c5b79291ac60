//! End-to-end tests of the `jetjson` binary: exit codes, exact error text,
//! profile bytes, NDJSON order on the parallel path, and the live oracles
//! (Go's encoding/json, Node's RFC 8785 canonicalization) run through the CLI.
//!
//! Documents, the PRNG and the oracle plumbing come from the core crate's
//! `tests/common`, so both crates test against the same generators.

#[path = "../../jetjson/tests/common/mod.rs"]
mod common;
mod process;

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use common::{corpus, document, show, Rng};
use jetjson::{Map, Number, Profile, Value, WriteOptions};
use process::{code, jetjson, run, stderr};

// ---------------------------------------------------------------- helpers

/// A fresh directory per test under Cargo's scratch space for tests.
fn temp_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn write_file(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, bytes).expect("write");
    p
}

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

/// xorshift64*: deterministic, no dependency.
/// NDJSON of `n` random documents written by jetjson's compact profile
/// (floats look like `1.5e+300`, `-0.0`; integers never print as `-0`).
fn ndjson(seed: u64, n: usize) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    for _ in 0..n {
        out.extend(document(&mut rng, 4).to_vec_with(&WriteOptions::compact()).expect("compact"));
        out.push(b'\n');
    }
    out
}

fn split_lines(bytes: &[u8]) -> Vec<&[u8]> {
    let mut lines: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
    if lines.last() == Some(&&b""[..]) {
        lines.pop();
    }
    lines
}

/// What `canon --lines` must print: each line through the library alone.
fn canon_lines_by_library(input: &[u8], options: &WriteOptions) -> Vec<u8> {
    let mut out = Vec::new();
    for line in split_lines(input) {
        out.extend(Value::from_slice(line).expect("valid line").to_vec_with(options).expect("writable"));
        out.push(b'\n');
    }
    out
}

/// The library's verdict on an input: `LINE:COL: message` as the CLI must
/// print it. Messages belong to the parser; the CLI's job is to pass them on
/// with the right file, line, column and caret, which is what these tests pin.
fn lib_error(input: &[u8]) -> String {
    let e = jetjson::parse::validate(input, &jetjson::ReadOptions::new()).expect_err("invalid");
    let p = e.position().expect("position");
    format!("{}:{}: {}", p.line, p.column, e.message())
}

/// Runs an oracle over NDJSON: the answers as `canon --lines` would print
/// them (each plus `\n`).
fn run_oracle(cmd: Command, input: &[u8]) -> Vec<u8> {
    let lines: Vec<Vec<u8>> = split_lines(input).into_iter().map(<[u8]>::to_vec).collect();
    let mut bytes = Vec::new();
    for (i, answer) in common::run_oracle(cmd, &lines).into_iter().enumerate() {
        bytes.extend(answer.unwrap_or_else(|e| panic!("oracle refused line {}: {e}", i + 1)));
        bytes.push(b'\n');
    }
    bytes
}

/// Compares line by line so a failure names the first differing line.
fn assert_same_lines(what: &str, input: &[u8], ours: &[u8], expected: &[u8]) {
    let (a, b, inp) = (split_lines(ours), split_lines(expected), split_lines(input));
    for (i, (x, y)) in a.iter().zip(&b).enumerate() {
        assert_eq!(show(x), show(y), "{what}: line {} differs; input: {}", i + 1, show(inp[i]));
    }
    assert_eq!(a.len(), b.len(), "{what}: line counts");
    assert!(ours == expected, "{what}: bytes differ");
}

// ---------------------------------------------------------------- check

#[test]
fn check_valid_file_exits_0_silently() {
    let dir = temp_dir("check_valid");
    let f = write_file(&dir, "ok.json", b"{\"a\": [1, 2.5, \"x\"], \"b\": null}\n");
    let out = run(&["check", s(&f)], b"");
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(out.stdout.is_empty() && out.stderr.is_empty());
}

#[test]
fn check_invalid_file_reports_file_line_column_and_caret() {
    let dir = temp_dir("check_invalid");
    let f = write_file(&dir, "bad.json", b"{\"a\": 1,\n  \"b\": 2 \"c\": 3}\n");
    let out = run(&["check", s(&f)], b"");
    assert_eq!(code(&out), 1);
    assert!(out.stdout.is_empty());
    assert_eq!(stderr(&out), format!("{}:2:10: expected ',' or '}}' after object member\n    \"b\": 2 \"c\": 3}}\n           ^\n", s(&f)));
}

#[test]
fn check_caret_keeps_tabs_and_shows_invalid_utf8_lossily() {
    let out = run(&["check"], b"[\t\"\xff\"]");
    assert_eq!(code(&out), 1);
    assert!(lib_error(b"[\t\"\xff\"]").starts_with("1:4: "));
    assert_eq!(stderr(&out), format!("<stdin>:{}\n  [\t\"\u{fffd}\"]\n   \t ^\n", lib_error(b"[\t\"\xff\"]")));
}

#[test]
fn check_long_line_is_cut_around_the_column() {
    let mut doc = b"[".to_vec();
    for _ in 0..200 {
        doc.extend_from_slice(b"1,");
    }
    doc.extend_from_slice(b"x");
    for _ in 0..200 {
        doc.extend_from_slice(b",1");
    }
    doc.push(b']');
    let out = run(&["check", "-"], &doc);
    assert_eq!(code(&out), 1);
    let err = stderr(&out);
    let lines: Vec<&str> = err.lines().collect();
    assert!(lines[0].starts_with("<stdin>:1:402: "), "{err}");
    assert!(lines[1].starts_with("  ...") && lines[1].ends_with("..."), "{err}");
    assert!(lines[1].len() < 140, "{err}");
    let caret = lines[2].find('^').expect("caret");
    assert_eq!(&lines[1][caret..caret + 1], "x", "{err}");
}

#[test]
fn check_unreadable_file_exits_2() {
    let dir = temp_dir("check_unreadable");
    let missing = dir.join("missing.json");
    let out = run(&["check", s(&missing)], b"");
    assert_eq!(code(&out), 2);
    let err = stderr(&out);
    assert!(err.starts_with(&format!("jetjson: {}: ", s(&missing))), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    // A directory cannot be read either.
    let out = run(&["check", s(&dir)], b"");
    assert_eq!(code(&out), 2, "{}", stderr(&out));
}

#[test]
fn bad_flags_exit_2() {
    for args in [
        &["check", "--bogus"][..],
        &["canon", "--profile", "xml"],
        &["digest", "--algorithm", "md5"],
        &["frobnicate"],
        &[],
        &["check", "--duplicate-keys", "sometimes"],
        &["check", "--max-size", "lots"],
        &["canon", "--profile", "go", "--sort-keys", "--keep-order"],
        &["canon", "--profile", "go", "--escape-html", "--no-escape-html"],
        &["digest", "--raw", "--profile", "jcs"],
        &["canon", "--profile", "go", "--max-write-depth", "0"],
        &["fmt", "--max-write-depth", "1000001"],
    ] {
        let out = run(args, b"{}");
        assert_eq!(code(&out), 2, "{args:?}: {}", stderr(&out));
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    // Combinations refused after parsing, with a message of ours.
    for (args, flag) in [
        (&["canon", "--profile", "jcs", "--indent", "2"][..], "--indent"),
        (&["canon", "--profile", "jcs", "--ascii"], "--ascii"),
        (&["canon", "--profile", "jcs", "--keep-order"], "--keep-order"),
        (&["canon", "--profile", "go", "--lines", "--indent", "2"], "--indent"),
    ] {
        let out = run(args, b"{}");
        assert_eq!(code(&out), 2, "{args:?}");
        assert!(stderr(&out).starts_with(&format!("jetjson: {flag} cannot be used")), "{args:?}: {}", stderr(&out));
    }
}

#[test]
fn help_and_version_exit_0() {
    for args in [&["--help"][..], &["canon", "--help"], &["check", "-h"], &["--version"]] {
        let out = run(args, b"");
        assert_eq!(code(&out), 0, "{args:?}");
        assert!(!out.stdout.is_empty());
    }
    let help = show(&run(&["--help"], b"").stdout);
    assert!(help.contains("Examples:") && help.contains("Exit status:"), "{help}");
}

#[test]
fn stdin_by_dash_and_by_no_argument() {
    for args in [&["check", "-"][..], &["check"]] {
        let out = run(args, b"[1,2]");
        assert_eq!(code(&out), 0, "{args:?}: {}", stderr(&out));
        let out = run(args, b"[1,2");
        assert_eq!(code(&out), 1, "{args:?}");
        assert!(stderr(&out).starts_with("<stdin>:1:5: "), "{}", stderr(&out));
    }
    for args in [&["canon", "--profile", "compact", "-"][..], &["canon", "--profile", "compact"]] {
        let out = run(args, b" { \"b\" : 1 , \"a\" : 2 } ");
        assert_eq!((code(&out), show(&out.stdout)), (0, r#"{"b":1,"a":2}"#.to_owned()), "{args:?}");
    }
}

#[test]
fn check_many_files_reports_each_and_exits_with_the_worst() {
    let dir = temp_dir("check_many");
    let good = write_file(&dir, "good.json", b"{}");
    let bad1 = write_file(&dir, "bad1.json", b"[1,]");
    let bad2 = write_file(&dir, "bad2.json", b"\n\n  nul");
    let missing = dir.join("missing.json");

    let out = run(&["check", s(&good), s(&good)], b"");
    assert_eq!(code(&out), 0);

    let out = run(&["check", s(&bad1), s(&good), s(&bad2)], b"");
    assert_eq!(code(&out), 1);
    let err = stderr(&out);
    assert!(err.starts_with(&format!("{}:{}\n", s(&bad1), lib_error(b"[1,]"))), "{err}");
    assert!(err.contains(&format!("\n{}:{}\n", s(&bad2), lib_error(b"\n\n  nul"))), "{err}");
    assert!(lib_error(b"\n\n  nul").starts_with("3:"));
    assert_eq!(err.lines().count(), 6, "{err}");

    // An unreadable file does not stop the others; 2 wins over 1.
    let out = run(&["check", s(&missing), s(&bad1), s(&good)], b"");
    assert_eq!(code(&out), 2);
    let err = stderr(&out);
    assert!(err.starts_with(&format!("jetjson: {}: ", s(&missing))), "{err}");
    assert!(err.contains(&format!("{}:{}\n", s(&bad1), lib_error(b"[1,]"))), "{err}");
}

#[test]
fn check_reading_options() {
    let deep = format!("{}{}", "[".repeat(20), "]".repeat(20));
    assert_eq!(code(&run(&["check"], deep.as_bytes())), 0);
    let out = run(&["check", "--max-depth", "10"], deep.as_bytes());
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).contains("nesting deeper than --max-depth 10"), "{}", stderr(&out));

    let dup = br#"{"a":1,"a":2}"#;
    assert_eq!(code(&run(&["check"], dup)), 1);
    assert_eq!(code(&run(&["check", "--duplicate-keys", "last"], dup)), 0);
    assert_eq!(code(&run(&["check", "--duplicate-keys", "first"], dup)), 0);

    let bom = b"\xEF\xBB\xBF{}";
    assert_eq!(code(&run(&["check"], bom)), 1);
    assert_eq!(code(&run(&["check", "--allow-bom"], bom)), 0);

    let out = run(&["check", "--max-size", "4"], b"[1,2,3]");
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).contains("input larger than --max-size 4 bytes"), "{}", stderr(&out));
    assert_eq!(code(&run(&["check", "--max-size", "1K"], b"[1,2,3]")), 0);
}

#[test]
fn check_lines_numbers_lines_within_each_file() {
    let dir = temp_dir("check_lines");
    let a = write_file(&dir, "a.ndjson", b"{\"a\":1}\n[1,2\n\n\"ok\"\r\n{\"x\" 1}");
    let b = write_file(&dir, "b.ndjson", b"1\n2\nnope\n");
    let out = run(&["check", "--lines", s(&a), s(&b)], b"");
    assert_eq!(code(&out), 1);
    let err = stderr(&out);
    let heads: Vec<&str> = err.lines().filter(|l| !l.starts_with(' ')).collect();
    assert_eq!(heads.len(), 4, "{err}");
    let at = |line: u64, text: &[u8]| lib_error(text).replacen("1:", &format!("{line}:"), 1);
    assert_eq!(heads[0], format!("{}:{}", s(&a), at(2, b"[1,2")));
    assert_eq!(heads[1], format!("{}:3:1: empty line", s(&a)));
    assert_eq!(heads[2], format!("{}:{}", s(&a), at(5, b"{\"x\" 1}")));
    assert_eq!(heads[3], format!("{}:{}", s(&b), at(3, b"nope")));
    assert!(err.contains("\n  {\"x\" 1}\n       ^\n"), "{err}");
    // CRLF line ends and a last line without newline are fine.
    assert_eq!(code(&run(&["check", "--lines"], b"1\r\n2\r\n[3]")), 0);
    assert_eq!(code(&run(&["check", "--lines"], b"")), 0);
}

// ---------------------------------------------------------------- canon

/// Hostile strings (`<>&`, U+2028, é, emoji, controls), keys whose UTF-8 and
/// UTF-16 orders differ, and numbers whose spelling differs per profile.
const HOSTILE_DOC: &str = concat!(
    r#"{"zeta":"<>&","é":1,"a\u2028":"\u2028é😂\u0001\u001f\n\t\"\\/\u007f","😂":"#,
    r#"[1e21,1e-7,100.0,-0.0,0.1,1.5e300,18446744073709551615,-9223372036854775808,9007199254740993],"#,
    r#""\uE000":0,"\uFB33":true,"\uD800\uDC00":null}"#
);

#[test]
fn canon_go_profile_bytes() {
    let out = run(&["canon", "--profile", "go"], HOSTILE_DOC.as_bytes());
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    // Keys by UTF-8 bytes: a… < zeta < é (C3) < U+E000 (EE) < U+FB33 (EF) < U+10000 (F0 90) < 😂 (F0 9F).
    let expected = concat!(
        r#"{"a\u2028":"\u2028é😂\u0001\u001f\n\t\"\\/"#,
        "\u{7f}",
        r#"","zeta":"\u003c\u003e\u0026","é":1,"#,
        "\"\u{e000}\":0,\"\u{fb33}\":true,\"\u{10000}\":null,",
        r#""😂":[1e+21,1e-7,100,-0,0.1,1.5e+300,18446744073709551615,-9223372036854775808,9007199254740993]}"#
    );
    assert_eq!(show(&out.stdout), expected);
}

#[test]
fn canon_go_profile_without_html_escaping() {
    let out = run(&["canon", "--profile", "go", "--no-escape-html"], br#"{"b":"<>&\u2028","a":1}"#);
    assert_eq!(show(&out.stdout), r#"{"a":1,"b":"<>&\u2028"}"#);
}

#[test]
fn canon_jcs_profile_bytes() {
    let out = run(&["canon", "--profile", "jcs"], HOSTILE_DOC.as_bytes());
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    // Keys by UTF-16 code units: a… < zeta < é < U+10000 (D800) < 😂 (D83D) < U+E000 < U+FB33.
    let expected = concat!(
        "{\"a\u{2028}\":\"\u{2028}é😂\\u0001\\u001f\\n\\t\\\"\\\\/\u{7f}\",",
        r#""zeta":"<>&","é":1,"#,
        "\"\u{10000}\":null,",
        r#""😂":[1e+21,1e-7,100,0,0.1,1.5e+300,18446744073709552000,-9223372036854776000,9007199254740992],"#,
        "\"\u{e000}\":0,\"\u{fb33}\":true}"
    );
    assert_eq!(show(&out.stdout), expected);
}

#[test]
fn canon_compact_profile_bytes() {
    let out = run(&["canon", "--profile", "compact"], HOSTILE_DOC.as_bytes());
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    // Input order; floats stay floats.
    let expected = concat!(
        r#"{"zeta":"<>&","é":1,"#,
        "\"a\u{2028}\":\"\u{2028}é😂\\u0001\\u001f\\n\\t\\\"\\\\/\u{7f}\",",
        r#""😂":[1e+21,1e-7,100.0,-0.0,0.1,1.5e+300,18446744073709551615,-9223372036854775808,9007199254740993],"#,
        "\"\u{e000}\":0,\"\u{fb33}\":true,\"\u{10000}\":null}"
    );
    assert_eq!(show(&out.stdout), expected);
}

#[test]
fn canon_output_flags() {
    let doc = r#"{"b":"é<","a":[1,{}]}"#.as_bytes();
    let out = run(&["canon", "--profile", "compact", "--sort-keys"], doc);
    assert_eq!(show(&out.stdout), r#"{"a":[1,{}],"b":"é<"}"#);
    let out = run(&["canon", "--profile", "go", "--keep-order"], doc);
    assert_eq!(show(&out.stdout), r#"{"b":"é\u003c","a":[1,{}]}"#);
    let out = run(&["canon", "--profile", "compact", "--ascii"], doc);
    assert_eq!(show(&out.stdout), r#"{"b":"\u00e9<","a":[1,{}]}"#);
    let out = run(&["canon", "--profile", "compact", "--escape-html"], doc);
    assert_eq!(show(&out.stdout), r#"{"b":"é\u003c","a":[1,{}]}"#);
    let out = run(&["canon", "--profile", "compact", "--indent", "2"], doc);
    assert_eq!(show(&out.stdout), "{\n  \"b\": \"é<\",\n  \"a\": [\n    1,\n    {}\n  ]\n}");
}

#[test]
fn canon_invalid_input_exits_1_with_position() {
    let out = run(&["canon", "--profile", "go"], b"{\"a\":tru}");
    assert_eq!(code(&out), 1);
    assert!(out.stdout.is_empty());
    assert!(stderr(&out).starts_with(&format!("<stdin>:{}\n", lib_error(b"{\"a\":tru}"))), "{}", stderr(&out));
    // A number beyond the double range is refused where it is, in every
    // profile (compact and go used to write it back as it was).
    for profile in ["compact", "go", "jcs"] {
        for literal in ["1e400", "-1E400", "1e2147483648"] {
            let doc = format!("{{\"a\":\n [{literal}]}}");
            let out = run(&["canon", "--profile", profile], doc.as_bytes());
            assert_eq!(code(&out), 1, "{profile} {literal}");
            assert!(out.stdout.is_empty());
            let want = format!("<stdin>:2:3: number {literal} is out of range (beyond the largest double, ~1.8e308)");
            assert_eq!(lib_error(doc.as_bytes()), want["<stdin>:".len()..]);
            assert!(stderr(&out).starts_with(&format!("{want}\n")), "{profile} {literal}: {}", stderr(&out));
            // `check` and `fmt` read with the same parser.
            for cmd in [&["check", "-"][..], &["fmt"]] {
                let out = run(cmd, doc.as_bytes());
                assert_eq!(code(&out), 1, "{cmd:?} {literal}");
                assert!(stderr(&out).starts_with(&format!("{want}\n")), "{cmd:?} {literal}: {}", stderr(&out));
            }
        }
    }
    // Parsed but not writable in the profile: no position, the value's path
    // (an integer of 310 digits, exact in compact and go, has no double).
    let big = format!("1{}", "0".repeat(309));
    let doc = format!("{{\"a\":[{big}]}}");
    assert_eq!(run(&["canon", "--profile", "go"], doc.as_bytes()).stdout, doc.as_bytes());
    let out = run(&["canon", "--profile", "jcs"], doc.as_bytes());
    assert_eq!(code(&out), 1);
    assert_eq!(
        stderr(&out),
        "<stdin>: $.a[0]: number 100000000000000000000000...000000000000 (310 bytes) is out of range for profile \"jcs\"\n"
    );
}

/// A value the profile cannot write is placed in the input: a file is read
/// again for it, an NDJSON line is at hand; stdin read whole is not kept, so
/// its report has the path alone (above). (Outside tester, stop 51: the
/// path alone, with no line or column, for files and lines too.)
#[test]
fn a_value_the_profile_cannot_write_is_placed_in_the_input() {
    let big = format!("1{}", "0".repeat(320));
    let dir = temp_dir("unwritable_placed");
    let doc = format!("[1,\n2,\n{big}]");
    let f = write_file(&dir, "big.json", doc.as_bytes());
    for args in [&["canon", "--profile", "jcs"][..], &["digest", "--profile", "jcs"][..]] {
        let out = run(&[args, &[s(&f)][..]].concat(), b"");
        assert_eq!(code(&out), 1, "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        let want = format!(
            "{}:3:1: $[2]: number 100000000000000000000000...000000000000 (321 bytes) is out of range for profile \"jcs\"\n",
            s(&f)
        );
        assert!(stderr(&out).starts_with(&want), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).ends_with("\n  ^\n"), "{args:?}: the caret under the number: {}", stderr(&out));
    }
    // A path through names with escapes, past strings holding brackets,
    // commas and escaped quotes.
    let doc = format!("{{\"x\": \"]}},\\\"\", \"a\": {{\"b\\u0063\": [true, \"[\", {{\"d\": {big}}}]}}}}");
    let f = write_file(&dir, "nested.json", doc.as_bytes());
    let out = run(&["canon", "--profile", "jcs", s(&f)], b"");
    let column = doc.find(&big).expect("the number") + 1;
    let want = format!("{}:1:{column}: $.a.bc[2].d: number ", s(&f));
    assert!(stderr(&out).starts_with(&want), "{}", stderr(&out));
    // In --lines, within its line.
    let out = run(&["canon", "--profile", "jcs", "--lines"], format!("[1]\n{{\"a\":[1,{{\"b\":{big}}}]}}\n").as_bytes());
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).starts_with("<stdin>:2:14: $.a[1].b: number "), "{}", stderr(&out));
}

/// A document the profile cannot write leaves stdout empty, whatever the
/// output's size: nothing of it is written before the refused value is
/// found (32 KiB, the writer's chunk, and 20 MiB, past what is held in
/// memory), and the report names no partial output.
#[test]
fn canon_writes_all_of_a_document_or_nothing() {
    let big = format!("1{}", "0".repeat(400));
    for items in [400usize, 200_000] {
        let mut doc = String::from("[");
        for _ in 0..items {
            doc.push_str(&format!("\"{}\",", "x".repeat(100)));
        }
        doc.push_str(&big);
        doc.push(']');
        let out = run(&["canon", "--profile", "jcs"], doc.as_bytes());
        assert_eq!(code(&out), 1, "{items} items");
        assert!(out.stdout.is_empty(), "{items} items: {} bytes written", out.stdout.len());
        let err = stderr(&out);
        assert!(err.contains("out of range for profile \"jcs\"") && !err.contains("incomplete"), "{err}");
        // Too deep to write, past the first items (read limit above the write one).
        let deep =
            format!("[{}{}{}]", doc.trim_start_matches('[').trim_end_matches(&*big).trim_end_matches(']'), "[".repeat(40), "]".repeat(40));
        let out = run(&["canon", "--profile", "go", "--max-depth", "100", "--max-write-depth", "20"], deep.as_bytes());
        assert_eq!(code(&out), 1, "{items} items deep: {}", stderr(&out));
        assert!(out.stdout.is_empty(), "{items} items deep: {} bytes written", out.stdout.len());
        // Writable, the same documents are written whole.
        let fine = doc.replace(&big, "1");
        let out = run(&["canon", "--profile", "jcs"], fine.as_bytes());
        assert_eq!(code(&out), 0);
        assert_eq!(out.stdout, fine.as_bytes());
    }
}

#[test]
fn canon_writes_what_the_value_path_writes_for_generated_numbers() {
    // Big integers, -0 and the other zeros, doubles in [2^64, 1e21), every
    // exponent spelling, zeros a long exponent undoes (tests/common).
    let mut rng = Rng::new(18);
    let docs: Vec<String> = (0..800).map(|_| common::number_document(&mut rng, 3, false)).collect();
    for (profile, options) in [("go", WriteOptions::go()), ("jcs", WriteOptions::jcs()), ("compact", WriteOptions::compact())] {
        let mut input = Vec::new();
        let mut expected = Vec::new();
        let mut refused = Vec::new();
        for doc in &docs {
            match Value::from_slice(doc.as_bytes()).expect("valid").to_vec_with(&options) {
                Ok(bytes) => {
                    input.extend_from_slice(doc.as_bytes());
                    input.push(b'\n');
                    expected.extend(bytes);
                    expected.push(b'\n');
                }
                Err(_) => refused.push(doc),
            }
        }
        let out = run(&["canon", "--profile", profile, "--lines"], &input);
        assert_eq!(code(&out), 0, "{profile}: {}", stderr(&out));
        assert_same_lines(profile, &input, &out.stdout, &expected);
        // One document per run, and those the profile cannot write (only
        // jcs could refuse: integers with no double) fail there too.
        for line in split_lines(&input).into_iter().take(10) {
            let single = run(&["canon", "--profile", profile], line);
            assert_eq!(single.stdout, Value::from_slice(line).unwrap().to_vec_with(&options).unwrap());
        }
        for doc in refused.iter().take(5) {
            assert_eq!(code(&run(&["canon", "--profile", profile], doc.as_bytes())), 1, "{profile}: {doc}");
        }
        // Integers are exact at any size in compact and go.
        assert!(refused.is_empty() || profile == "jcs", "{profile}: {} refused", refused.len());
    }
}

#[test]
fn canon_lines_equals_canon_of_each_line() {
    let input = ndjson(11, 300);
    for (profile, options) in [("go", WriteOptions::go()), ("jcs", WriteOptions::jcs()), ("compact", WriteOptions::compact())] {
        let out = run(&["canon", "--profile", profile, "--lines"], &input);
        assert_eq!(code(&out), 0, "{profile}: {}", stderr(&out));
        assert_same_lines(profile, &input, &out.stdout, &canon_lines_by_library(&input, &options));
        // And each line through the CLI alone (the first few: one process each).
        for (i, line) in split_lines(&input).iter().take(20).enumerate() {
            let single = run(&["canon", "--profile", profile], line);
            assert_eq!(single.stdout, split_lines(&out.stdout)[i], "{profile} line {}", i + 1);
        }
    }
}

#[test]
fn canon_lines_fails_fast_after_writing_the_good_lines() {
    let out = run(&["canon", "--lines", "--profile", "go"], b"{\"b\":1,\"a\":2}\r\n[1]\n[1,\n{}\n");
    assert_eq!(code(&out), 1);
    assert_eq!(show(&out.stdout), "{\"a\":2,\"b\":1}\n[1]\n");
    assert_eq!(stderr(&out), format!("<stdin>:3:{}\n  [1,\n     ^\n", lib_error(b"[1,").strip_prefix("1:").unwrap()));
    assert!(stderr(&out).starts_with("<stdin>:3:4: "));

    let out = run(&["canon", "--profile", "compact", "--lines"], b"1\n \n2\n");
    assert_eq!(code(&out), 1);
    assert_eq!(show(&out.stdout), "1\n");
    assert_eq!(stderr(&out), "<stdin>:2:1: empty line\n   \n  ^\n");

    // No final newline: the last segment is still a line; output lines all end in \n.
    let out = run(&["canon", "--profile", "compact", "--lines"], b"1\n2");
    assert_eq!((code(&out), show(&out.stdout)), (0, "1\n2\n".to_owned()));
}

/// Big enough for the parallel path (over 4 MiB) and dozens of blocks.
fn big_ndjson() -> &'static [u8] {
    static BIG: OnceLock<Vec<u8>> = OnceLock::new();
    BIG.get_or_init(|| {
        let mut rng = Rng::new(99);
        let mut out = Vec::new();
        let mut i = 0u64;
        while out.len() < 14 << 20 {
            // Lines of very different lengths, so block edges fall anywhere.
            let mut doc = Map::new();
            doc.push("i".to_owned(), Value::Number(Number::Int(i as i64)));
            doc.push("d".to_owned(), document(&mut rng, if i.is_multiple_of(50) { 6 } else { 3 }));
            out.extend(Value::Object(doc).to_vec_with(&WriteOptions::compact()).expect("compact"));
            out.push(b'\n');
            i += 1;
        }
        out
    })
}

#[test]
fn canon_lines_parallel_output_keeps_input_order() {
    let input = big_ndjson();
    let dir = temp_dir("parallel");
    let f = write_file(&dir, "big.ndjson", input);
    let expected = canon_lines_by_library(input, &WriteOptions::go());
    for threads in ["1", "2", "3"] {
        let out = run(&["canon", "--profile", "go", "--lines", "--threads", threads, s(&f)], b"");
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        assert_same_lines(&format!("threads {threads}"), input, &out.stdout, &expected);
    }
    // From a pipe (unknown size) with the default thread count.
    let out = run(&["canon", "--profile", "go", "--lines"], input);
    assert_same_lines("stdin", input, &out.stdout, &expected);
}

#[test]
fn check_lines_parallel_reports_absolute_line_numbers() {
    let mut input = big_ndjson().to_vec();
    let total = split_lines(&input).len();
    // Break three lines far apart (in different blocks) by cutting their last byte.
    let targets = [3, total / 2, total - 1];
    let mut lines: Vec<Vec<u8>> = split_lines(&input).iter().map(|l| l.to_vec()).collect();
    for &t in &targets {
        lines[t].pop();
    }
    input = lines.iter().flat_map(|l| l.iter().copied().chain([b'\n'])).collect();
    let dir = temp_dir("parallel_check");
    let f = write_file(&dir, "big.ndjson", &input);
    for threads in ["1", "2"] {
        let out = run(&["check", "--lines", "--threads", threads, s(&f)], b"");
        assert_eq!(code(&out), 1);
        let err = stderr(&out);
        let heads: Vec<String> = err.lines().filter(|l| !l.starts_with(' ')).map(str::to_owned).collect();
        let expected: Vec<String> = targets.iter().map(|&t| format!("{}:{}:{}: ", s(&f), t + 1, lines[t].len() + 1)).collect();
        assert_eq!(heads.len(), 3, "{err}");
        for (h, e) in heads.iter().zip(&expected) {
            assert!(h.starts_with(e), "threads {threads}: {h} should start with {e}");
        }
    }
}

#[test]
fn a_write_depth_error_says_where_the_too_deep_container_is() {
    // (Outside tester, stop 48: "<stdin>: nesting deeper than
    // --max-write-depth 2", with no line or column.)
    let doc: &[u8] = b"{\"a\":\n  [[1]]}";
    for args in [
        &["canon", "--profile", "go", "--max-write-depth", "2"][..],
        &["canon", "--profile", "compact", "--max-write-depth", "2"][..],
        &["fmt", "--max-write-depth", "2"][..],
        &["digest", "--profile", "jcs", "--max-write-depth", "2"][..],
    ] {
        let out = run(args, doc);
        assert_eq!(code(&out), 1, "{args:?}");
        let err = stderr(&out);
        assert!(err.starts_with("<stdin>:2:4: nesting deeper than --max-write-depth 2\n"), "{args:?}: {err}");
        assert!(err.contains("\n     ^"), "{args:?}: the caret under the second '[': {err}");
    }
    let out = run(&["canon", "--profile", "go", "--lines", "--max-write-depth", "2"], b"[1]\n{\"a\":[[1]]}\n");
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).starts_with("<stdin>:2:7: nesting deeper than --max-write-depth 2\n"), "{}", stderr(&out));
    // Within the limit: written.
    let out = run(&["canon", "--profile", "go", "--max-write-depth", "3"], doc);
    assert_eq!((code(&out), out.stdout.as_slice()), (0, &b"{\"a\":[[1]]}"[..]));
}

#[test]
fn threads_without_lines_is_a_usage_error() {
    // (Outside tester, stop 48: accepted silently, with no effect, where
    // every other option without effect is refused.)
    for cmd in [&["check", "--threads", "2"][..], &["canon", "--profile", "go", "--threads", "2"][..]] {
        let out = run(cmd, b"[1]");
        assert_eq!(code(&out), 2, "{cmd:?}");
        assert!(stderr(&out).contains("--lines"), "{cmd:?}: {}", stderr(&out));
    }
    let out = run(&["check", "--lines", "--threads", "2"], b"[1]\n");
    assert_eq!(code(&out), 0, "{}", stderr(&out));
}

#[test]
fn closed_stdout_ends_quietly_with_0() {
    let input = big_ndjson();
    let mut child = jetjson()
        .args(["canon", "--lines", "--profile", "jcs"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start");
    let mut pipe = child.stdin.take().expect("stdin");
    let feeder = std::thread::spawn(move || {
        let _ = pipe.write_all(input);
    });
    let mut first = [0u8; 100];
    child.stdout.take().expect("stdout").read_exact(&mut first).expect("some output");
    // stdout is dropped (closed) here, as `| head -c 100` would.
    let out = child.wait_with_output().expect("wait");
    feeder.join().expect("feeder");
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(out.stderr.is_empty(), "{}", stderr(&out));
}

// ---------------------------------------------------------------- oracles

const ORACLE_DOCS: usize = 2000;

#[test]
fn canon_go_lines_equals_go_encoding_json() {
    let input = ndjson(2024, ORACLE_DOCS);
    let dir = temp_dir("oracle_go");
    let f = write_file(&dir, "docs.ndjson", &input);
    let expected = run_oracle(common::go_command(&[]), &input);
    let out = run(&["canon", "--profile", "go", "--lines", s(&f)], b"");
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_same_lines("go", &input, &out.stdout, &expected);

    let expected = run_oracle(common::go_command(&["-escape-html=false"]), &input);
    let out = run(&["canon", "--profile", "go", "--no-escape-html", "--lines", s(&f)], b"");
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_same_lines("go -escape-html=false", &input, &out.stdout, &expected);
}

#[test]
fn canon_jcs_lines_equals_node_rfc8785() {
    let input = ndjson(8785, ORACLE_DOCS);
    let dir = temp_dir("oracle_node");
    let f = write_file(&dir, "docs.ndjson", &input);
    let expected = run_oracle(common::node_command(&[]), &input);
    let out = run(&["canon", "--profile", "jcs", "--lines", s(&f)], b"");
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_same_lines("jcs", &input, &out.stdout, &expected);
}

// ---------------------------------------------------------------- digest

struct CatalogRow {
    file: PathBuf,
    sha256_of_file_bytes: String,
    upstream_digest: String,
    digest_rule: String,
}

fn oci_catalog() -> Vec<CatalogRow> {
    let dir = corpus("oci");
    let text = std::fs::read_to_string(dir.join("CATALOG.tsv")).expect("OCI catalog");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("header").split('\t').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap_or_else(|| panic!("column {name}"));
    let (file, sha, upstream, rule) = (col("file"), col("sha256_of_file_bytes"), col("upstream_digest"), col("digest_rule"));
    let rows: Vec<CatalogRow> = lines
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            CatalogRow {
                file: dir.join(f[file]),
                sha256_of_file_bytes: f[sha].to_owned(),
                upstream_digest: f[upstream].to_owned(),
                digest_rule: f[rule].to_owned(),
            }
        })
        .collect();
    assert!(rows.len() >= 20, "catalog rows: {}", rows.len());
    rows
}

#[test]
fn digest_raw_equals_oci_catalog() {
    let mut upstream_checked = 0;
    for row in oci_catalog() {
        let out = run(&["digest", "--raw", s(&row.file)], b"");
        assert_eq!(code(&out), 0, "{}: {}", row.file.display(), stderr(&out));
        let printed = show(&out.stdout);
        assert_eq!(printed, format!("{}\n", row.sha256_of_file_bytes), "{}", row.file.display());
        if row.digest_rule.contains("sha256 of the exact stored bytes") {
            assert_eq!(printed.trim_end(), row.upstream_digest, "{}", row.file.display());
            upstream_checked += 1;
        }
    }
    assert!(upstream_checked >= 10, "rows with an upstream digest of the stored bytes: {upstream_checked}");
}

#[test]
fn every_oci_document_passes_check() {
    let rows = oci_catalog();
    let mut args = vec!["check".to_owned()];
    args.extend(rows.iter().map(|r| s(&r.file).to_owned()));
    let out = jetjson().args(&args).output().expect("run");
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(out.stderr.is_empty());
}

#[test]
fn digest_of_profiles_and_algorithms() {
    let doc = HOSTILE_DOC.as_bytes();
    for (profile, options) in [("go", WriteOptions::go()), ("jcs", WriteOptions::jcs()), ("compact", WriteOptions::compact())] {
        let canon = run(&["canon", "--profile", profile], doc).stdout;
        let out = run(&["digest", "--profile", profile], doc);
        assert_eq!(show(&out.stdout), format!("{}\n", jetjson::digest_bytes(&canon, jetjson::Algorithm::Sha256)), "{profile}");
        let value = Value::from_slice(doc).expect("valid");
        let lib = jetjson::digest_value(&value, &options, jetjson::Algorithm::Sha512).expect("digest");
        let out = run(&["digest", "--profile", profile, "--algorithm", "sha512"], doc);
        assert_eq!(show(&out.stdout), format!("{lib}\n"), "{profile}");
    }
    // `canon --profile P | sha256sum` is `digest --profile P`, output flags included.
    let canon = run(&["canon", "--profile", "go", "--no-escape-html", "--indent", "2"], doc).stdout;
    let out = run(&["digest", "--profile", "go", "--no-escape-html", "--indent", "2"], doc);
    assert_eq!(show(&out.stdout), format!("{}\n", jetjson::digest_bytes(&canon, jetjson::Algorithm::Sha256)));
    // --raw hashes bytes as they are, valid JSON or not.
    let out = run(&["digest", "--raw", "-"], b"not json\n");
    assert_eq!(show(&out.stdout), format!("{}\n", jetjson::digest_bytes(b"not json\n", jetjson::Algorithm::Sha256)));
    let out = run(&["digest", "--profile", "go"], b"not json\n");
    assert_eq!(code(&out), 1);
    assert!(out.stdout.is_empty());
}

/// `digest --raw` honours `--max-size` (it reads one byte past it, then
/// refuses the input, an endless one included) and refuses the options
/// that are about parsing or output, which raw bytes never go through.
#[test]
fn digest_raw_honours_max_size_and_refuses_other_read_options() {
    let dir = temp_dir("digest_raw_limits");
    let mut rng = Rng::new(13);
    let big: Vec<u8> = (0..5_000_000).map(|_| rng.next() as u8).collect();
    let file = write_file(&dir, "5mb.bin", &big);
    let out = run(&["digest", "--raw", "--max-size", "1M", s(&file)], b"");
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        format!("{}: input larger than --max-size 1048576 bytes (reading stopped at byte offset 1048576)\n", s(&file))
    );
    assert!(out.stdout.is_empty());
    // At the limit exactly, and one byte under it.
    for (max, ok) in [("5000000", true), ("4999999", false)] {
        let out = run(&["digest", "--raw", "--algorithm", "sha512", "--max-size", max, s(&file)], b"");
        assert_eq!(code(&out), if ok { 0 } else { 1 }, "--max-size {max}: {}", stderr(&out));
        if ok {
            assert_eq!(show(&out.stdout), format!("{}\n", jetjson::digest_bytes(&big, jetjson::Algorithm::Sha512)));
        }
    }
    let out = run(&["digest", "--raw", "--max-size", "10", "-"], b"0123456789");
    assert_eq!(show(&out.stdout), format!("{}\n", jetjson::digest_bytes(b"0123456789", jetjson::Algorithm::Sha256)));

    // An endless input stops at the limit (before the fix: never).
    if Path::new("/dev/zero").exists() {
        let mut child = jetjson()
            .args(["digest", "--raw", "--max-size", "1M", "/dev/zero"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start");
        let started = std::time::Instant::now();
        while child.try_wait().expect("try_wait").is_none() {
            if started.elapsed() > std::time::Duration::from_secs(30) {
                let _ = child.kill();
                let _ = child.wait();
                panic!("digest --raw --max-size 1M /dev/zero still running after 30 s");
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        let out = child.wait_with_output().expect("wait");
        assert_eq!(code(&out), 1, "{}", stderr(&out));
        assert!(stderr(&out).starts_with("/dev/zero: input larger than --max-size 1048576 bytes"), "{}", stderr(&out));
    }

    for refused in [
        &["--profile", "go"][..],
        &["--max-depth", "10"],
        &["--max-depth", "512"],
        &["--duplicate-keys", "last"],
        &["--allow-bom"],
        &["--indent", "2"],
        &["--sort-keys"],
        &["--keep-order"],
        &["--ascii"],
        &["--no-escape-html"],
        &["--escape-html"],
        &["--max-write-depth", "10"],
    ] {
        let mut args = vec!["digest", "--raw"];
        args.extend_from_slice(refused);
        args.push("-");
        let out = run(&args, b"{}");
        assert_eq!(code(&out), 2, "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(&format!("the argument '--raw' cannot be used with '{}", refused[0])), "{args:?}: {}", stderr(&out));
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

// ---------------------------------------------------------------- fmt

#[test]
fn fmt_indent_0_of_a_pretty_file_equals_compact_canon() {
    let pretty = b"{\n  \"b\": [\n    1,\n    2.50,\n    {}\n  ],\n  \"a\": \"\\u00e9\"\n}\n";
    let compact = run(&["canon", "--profile", "compact"], pretty);
    let out = run(&["fmt", "--indent", "0"], pretty);
    assert_eq!(code(&out), 0);
    let mut expected = compact.stdout.clone();
    expected.push(b'\n');
    assert_eq!(show(&out.stdout), show(&expected));
    assert_eq!(show(&out.stdout), "{\"b\":[1,2.5,{}],\"a\":\"é\"}\n");
}

#[test]
fn fmt_output_reparses_to_the_same_value() {
    let mut rng = Rng::new(7);
    for i in 0..30 {
        let value = document(&mut rng, 5);
        let input = value.to_vec_with(&WriteOptions::compact()).expect("compact");
        for indent in ["2", "4", "0"] {
            let out = run(&["fmt", "--indent", indent], &input);
            assert_eq!(code(&out), 0, "{}", stderr(&out));
            assert_eq!(out.stdout.last(), Some(&b'\n'));
            let back = Value::from_slice(&out.stdout).expect("fmt output parses");
            assert!(back == value, "doc {i} indent {indent}: {}", show(&out.stdout));
        }
    }
    let out = run(&["fmt"], b"[1,{\"a\":null}]");
    assert_eq!(show(&out.stdout), "[\n  1,\n  {\n    \"a\": null\n  }\n]\n");
    let out = run(&["fmt"], b"[1,");
    assert_eq!(code(&out), 1);
}

/// `--indent` stops at the core's cap (16): wider is a usage error naming
/// the range, never a silently narrower layout.
#[test]
fn indent_is_capped_at_16() {
    let doc = b"[[{\"a\":[1]}]]";
    let value = Value::from_slice(doc).unwrap();
    let at_cap = value.to_vec_with(&WriteOptions::compact().indent(16)).unwrap();
    let out = run(&["fmt", "--indent", "16"], doc);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(out.stdout, [&at_cap[..], b"\n"].concat());
    let out = run(&["canon", "--profile", "go", "--indent", "16"], doc);
    assert_eq!(out.stdout, value.to_vec_with(&WriteOptions::go().indent(16)).unwrap());
    for args in [&["fmt", "--indent"][..], &["canon", "--profile", "go", "--indent"], &["digest", "--profile", "compact", "--indent"]] {
        for n in ["17", "1000", "65535"] {
            let mut a = args.to_vec();
            a.push(n);
            let out = run(&a, doc);
            assert_eq!(code(&out), 2, "{a:?}: {}", stderr(&out));
            assert!(
                stderr(&out).contains(&format!("invalid value '{n}' for '--indent <N>': {n} is not in 0..=16")),
                "{a:?}: {}",
                stderr(&out)
            );
            assert!(out.stdout.is_empty(), "{a:?}");
        }
    }
}

/// A negative number for a numeric option is that option's range error,
/// whether written `--opt -1` or `--opt=-1` (outside tester, stop 45: the
/// first gave clap's "unexpected argument '-1'").
#[test]
fn negative_numbers_are_range_errors_of_their_option() {
    for (cmd, opt) in
        [("fmt", "--indent"), ("canon", "--max-depth"), ("check", "--max-size"), ("fmt", "--max-write-depth"), ("check", "--max-depth")]
    {
        let joined = format!("{opt}=-1");
        for form in [vec![cmd, opt, "-1"], vec![cmd, joined.as_str()]] {
            let out = run(&form, b"[1]");
            assert_eq!(code(&out), 2, "{form:?}: {}", stderr(&out));
            assert!(stderr(&out).contains(&format!("invalid value '-1' for '{opt} ")), "{form:?}: {}", stderr(&out));
        }
    }
}

#[test]
fn profile_names_match_the_library() {
    // The CLI's --profile values are the library's profile names.
    for p in [Profile::Compact, Profile::Go, Profile::Jcs] {
        let out = run(&["canon", "--profile", p.name()], b"[]");
        assert_eq!(code(&out), 0, "{}", p.name());
    }
}
