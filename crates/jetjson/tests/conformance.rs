//! JSONTestSuite conformance (github.com/nst/JSONTestSuite, in
//! `../shared/corpus/jsontestsuite`).
//!
//! * `y_*`: accepted by all three entry points (`Value::from_slice`,
//!   `parse::validate`, the serde path `from_slice::<Value>`).
//! * `n_*`: rejected by all three, with an error (never a panic) that has a
//!   position inside the input.
//! * `i_*`: the implementation may choose; the choice is pinned in
//!   `tests/data/jsontestsuite-i-outcomes.tsv` and the three entry points
//!   must agree on it.
//! * `test_transform/*`: pinned in `tests/data/jsontestsuite-transform.tsv`
//!   with default options, `DuplicateKeys::Last` and lossless numbers.
//! * The deep-nesting `n_` files fail on a 256 KiB stack (the parser is
//!   iterative), and through serde (recursive, bounded by `max_depth`).
//!
//! To regenerate the pinned tables after a deliberate behaviour change, run
//! with `JETJSON_BLESS=1` and review the diff.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use jetjson::parse::validate;
use jetjson::{DuplicateKeys, Error, ErrorKind, ReadOptions, Value, WriteOptions};

const PARSING: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/corpus/jsontestsuite/test_parsing");
const TRANSFORM: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/corpus/jsontestsuite/test_transform");
const I_TABLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/jsontestsuite-i-outcomes.tsv");
const TRANSFORM_TABLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/jsontestsuite-transform.tsv");

/// Files whose nesting is deeper than the default `max_depth`: the serde
/// path recurses, so these run on a thread with a large stack of their own
/// (see `deep_nesting_*` below).
const DEEP: &[&str] = &["n_structure_100000_opening_arrays.json", "n_structure_open_array_object.json"];

fn bless() -> bool {
    std::env::var_os("JETJSON_BLESS").is_some_and(|v| v != "0")
}

/// Sorted `(name, bytes)` of the files in `dir` whose names start with `prefix`.
fn files(dir: &str, prefix: &str) -> Vec<(String, Vec<u8>)> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.starts_with(prefix) && n.ends_with(".json"))
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|n| {
            let bytes = std::fs::read(Path::new(dir).join(&n)).unwrap_or_else(|e| panic!("{n}: {e}"));
            (n, bytes)
        })
        .collect()
}

/// Runs `f`, turning a panic into a message that names the file.
fn no_panic<T>(name: &str, what: &str, f: impl FnOnce() -> T) -> Result<T, String> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|p| {
        let msg = p.downcast_ref::<&str>().map(|s| s.to_string()).or_else(|| p.downcast_ref::<String>().cloned()).unwrap_or_default();
        format!("{name}: {what} panicked: {msg}")
    })
}

/// The three entry points' results on one input.
struct Outcomes {
    value: Result<Value, Error>,
    validate: Result<(), Error>,
    serde: Result<Value, Error>,
}

fn run_all(name: &str, input: &[u8], options: &ReadOptions) -> Result<Outcomes, String> {
    Ok(Outcomes {
        value: no_panic(name, "Value::from_slice_with", || Value::from_slice_with(input, options))?,
        validate: no_panic(name, "parse::validate", || validate(input, options))?,
        serde: no_panic(name, "from_slice_with::<Value>", || jetjson::from_slice_with::<Value>(input, options))?,
    })
}

/// Compact output bytes, shown visibly (Rust string escapes; hex if the
/// output were not UTF-8).
fn visible(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) => format!("{s:?}"),
        Err(_) => format!("hex:{}", bytes.iter().map(|b| format!("{b:02x}")).collect::<String>()),
    }
}

/// One TSV cell: no tab, newline or carriage return (backslash escapes).
fn cell(s: &str) -> String {
    s.replace('\\', "\\\\").replace('\t', "\\t").replace('\n', "\\n").replace('\r', "\\r")
}

/// `accept <compact output>` or `reject <error>`, as pinned in the tables.
fn describe(r: &Result<Value, Error>) -> (String, String) {
    match r {
        Ok(v) => match v.to_vec_with(&WriteOptions::compact()) {
            Ok(out) => ("accept".into(), visible(&out)),
            Err(e) => ("accept".into(), cell(&format!("(compact write fails: {e})"))),
        },
        Err(e) => ("reject".into(), cell(&e.to_string())),
    }
}

fn check_error_position(name: &str, what: &str, input: &[u8], e: &Error, failures: &mut Vec<String>) {
    match e.position() {
        None => failures.push(format!("{name}: {what}: error without a position: {e}")),
        Some(p) if p.offset > input.len() => {
            failures.push(format!("{name}: {what}: error offset {} beyond the input ({} bytes): {e}", p.offset, input.len()))
        }
        Some(p) => {
            // Line and column agree with the offset.
            let before = &input[..p.offset];
            let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
            let col = p.offset - before.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1) + 1;
            if (p.line, p.column) != (line, col) {
                failures.push(format!("{name}: {what}: position {p:?} but offset {} is line {line} column {col}", p.offset));
            }
        }
    }
}

fn finish(what: &str, failures: Vec<String>) {
    assert!(failures.is_empty(), "{what}: {} failure(s):\n{}", failures.len(), failures.join("\n"));
}

fn stack_thread<T: Send + 'static>(stack: usize, f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new().stack_size(stack).spawn(f).unwrap().join().unwrap()
}

const SMALL_STACK: usize = 256 * 1024;
const SERDE_STACK: usize = 8 * 1024 * 1024;

#[test]
fn corpus_is_complete() {
    assert_eq!(files(PARSING, "y_").len(), 95);
    assert_eq!(files(PARSING, "n_").len(), 188);
    assert_eq!(files(PARSING, "i_").len(), 35);
    assert_eq!(files(TRANSFORM, "").len(), 22);
}

/// `y_` files with a duplicate member name. RFC 8259 only says names
/// SHOULD be unique, so JSONTestSuite expects acceptance; jetjson's default
/// (`DuplicateKeys::Error`, as I-JSON / RFC 7493 and Go's json/v2) rejects
/// them on purpose. They are accepted with `First` or `Last` (checked below).
const Y_REJECTED_BY_DEFAULT_DUPLICATE_POLICY: &[&str] = &["y_object_duplicated_key.json", "y_object_duplicated_key_and_value.json"];

#[test]
fn y_files_are_accepted_by_every_entry_point() {
    // The serde path recurses: give it the stack a main thread would have.
    stack_thread(SERDE_STACK, || {
        let mut failures = Vec::new();
        for (name, input) in files(PARSING, "y_") {
            let options = if Y_REJECTED_BY_DEFAULT_DUPLICATE_POLICY.contains(&name.as_str()) {
                ReadOptions::new().duplicate_keys(DuplicateKeys::Last)
            } else {
                ReadOptions::default()
            };
            let o = match run_all(&name, &input, &options) {
                Ok(o) => o,
                Err(panic) => {
                    failures.push(panic);
                    continue;
                }
            };
            if let Err(e) = &o.value {
                failures.push(format!("{name}: Value::from_slice rejects: {e}"));
            }
            if let Err(e) = &o.validate {
                failures.push(format!("{name}: validate rejects: {e}"));
            }
            if let Err(e) = &o.serde {
                failures.push(format!("{name}: from_slice::<Value> rejects: {e}"));
            }
            // Both builders agree on the value (same compact output). Not
            // for the duplicate-name files: the serde path ignores the
            // policy (see `bug_serde_value_keeps_both_duplicate_members` in
            // limits.rs).
            let policy_file = Y_REJECTED_BY_DEFAULT_DUPLICATE_POLICY.contains(&name.as_str());
            if let (Ok(a), Ok(b), false) = (&o.value, &o.serde, policy_file) {
                let (a, b) = (describe(&Ok(a.clone())), describe(&Ok(b.clone())));
                if a != b {
                    failures.push(format!("{name}: Value::from_slice gives {} but the serde path gives {}", a.1, b.1));
                }
            }
        }
        finish("y_ files", failures);
    });
}

#[test]
fn y_files_with_duplicate_names_are_rejected_by_default_and_accepted_by_policy() {
    for name in Y_REJECTED_BY_DEFAULT_DUPLICATE_POLICY {
        let input = read_parsing(name);
        let o = run_all(name, &input, &ReadOptions::default()).unwrap();
        for (what, r) in [("Value::from_slice", o.value.map(drop)), ("validate", o.validate), ("from_slice::<Value>", o.serde.map(drop))] {
            let e = r.expect_err(name);
            assert_eq!(e.kind(), &ErrorKind::DuplicateKey { key: "a".into() }, "{name}: {what}");
            // {"a":"b","a":...}: the second name starts at byte 9.
            assert_eq!(e.position().unwrap().offset, 9, "{name}: {what}");
        }
        for policy in [DuplicateKeys::First, DuplicateKeys::Last] {
            let options = ReadOptions::new().duplicate_keys(policy);
            let o = run_all(name, &input, &options).unwrap();
            assert!(o.value.is_ok() && o.validate.is_ok() && o.serde.is_ok(), "{name} with {policy:?}");
        }
    }
    let first = ReadOptions::new().duplicate_keys(DuplicateKeys::First);
    let last = ReadOptions::new().duplicate_keys(DuplicateKeys::Last);
    let input = read_parsing("y_object_duplicated_key.json");
    assert_eq!(Value::from_slice_with(&input, &first).unwrap().to_string(), r#"{"a":"b"}"#);
    assert_eq!(Value::from_slice_with(&input, &last).unwrap().to_string(), r#"{"a":"c"}"#);
}

#[test]
fn n_files_are_rejected_by_every_entry_point_with_a_position() {
    stack_thread(SERDE_STACK, || {
        let mut failures = Vec::new();
        let mut count = 0;
        for (name, input) in files(PARSING, "n_") {
            count += 1;
            let o = match run_all(&name, &input, &ReadOptions::default()) {
                Ok(o) => o,
                Err(panic) => {
                    failures.push(panic);
                    continue;
                }
            };
            for (what, r) in [
                ("Value::from_slice", o.value.as_ref().err()),
                ("validate", o.validate.as_ref().err()),
                ("from_slice::<Value>", o.serde.as_ref().err()),
            ] {
                match r {
                    None => failures.push(format!("{name}: {what} accepts {:?}", String::from_utf8_lossy(&input))),
                    Some(e) => check_error_position(&name, what, &input, e, &mut failures),
                }
            }
            // The push parser's two visitors stop at the same place.
            if let (Err(a), Err(b)) = (&o.value, &o.validate) {
                if a != b {
                    failures.push(format!("{name}: Value::from_slice says {a} but validate says {b}"));
                }
            }
        }
        assert_eq!(count, 188);
        finish("n_ files", failures);
    });
}

/// Every `n_` error from the serde path is at the same place as the push
/// parser's (the two drivers share the grammar pieces).
#[test]
fn n_files_serde_errors_match_the_push_parser() {
    stack_thread(SERDE_STACK, || {
        let mut failures = Vec::new();
        for (name, input) in files(PARSING, "n_") {
            let (Err(a), Err(b)) = (Value::from_slice(&input), jetjson::from_slice::<Value>(&input)) else { continue };
            if a.position().map(|p| p.offset) != b.position().map(|p| p.offset) {
                failures.push(format!("{name}: Value::from_slice: {a}\n    serde path:        {b}"));
            }
        }
        finish("n_ files, serde vs push positions", failures);
    });
}

#[test]
fn i_files_outcomes_are_pinned_and_entry_points_agree() {
    let rows: Vec<String> = stack_thread(SERDE_STACK, || {
        let mut failures = Vec::new();
        let mut rows = Vec::new();
        for (name, input) in files(PARSING, "i_") {
            let o = match run_all(&name, &input, &ReadOptions::default()) {
                Ok(o) => o,
                Err(panic) => {
                    failures.push(panic);
                    continue;
                }
            };
            let (outcome, detail) = describe(&o.value);
            let accepted = o.value.is_ok();
            if o.validate.is_ok() != accepted {
                failures.push(format!("{name}: Value::from_slice {outcome}s but validate gives {:?}", o.validate));
            }
            // Numbers beyond the double range are refused by both (the
            // direct builder keeps their text only when lossless).
            if o.serde.is_ok() != accepted {
                failures.push(format!("{name}: Value::from_slice {outcome}s but from_slice::<Value> gives {:?}", o.serde));
            }
            for (what, e) in [
                ("Value::from_slice", o.value.as_ref().err()),
                ("validate", o.validate.as_ref().err()),
                ("from_slice::<Value>", o.serde.as_ref().err()),
            ] {
                if let Some(e) = e {
                    check_error_position(&name, what, &input, e, &mut failures);
                }
            }
            rows.push(format!("{name}\t{outcome}\t{detail}"));
        }
        finish("i_ files", failures);
        rows
    });
    compare_table(I_TABLE, "filename\toutcome\terror message or compact output", rows);
}

/// Compares `rows` with the pinned table at `path` (or writes it when blessing).
fn compare_table(path: &str, header: &str, rows: Vec<String>) {
    let mut live = format!("{header}\n");
    for r in &rows {
        live.push_str(r);
        live.push('\n');
    }
    if bless() {
        std::fs::create_dir_all(PathBuf::from(path).parent().unwrap()).unwrap();
        std::fs::write(path, &live).unwrap();
        return;
    }
    let pinned = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e} (run with JETJSON_BLESS=1 to create it)"));
    let pinned: Vec<&str> = pinned.lines().collect();
    let live: Vec<&str> = live.lines().collect();
    let mut diffs = Vec::new();
    for (k, line) in live.iter().enumerate() {
        match pinned.get(k) {
            Some(p) if p == line => {}
            Some(p) => diffs.push(format!("  pinned: {p}\n  live:   {line}")),
            None => diffs.push(format!("  pinned: (none)\n  live:   {line}")),
        }
    }
    for p in pinned.iter().skip(live.len()) {
        diffs.push(format!("  pinned: {p}\n  live:   (none)"));
    }
    assert!(diffs.is_empty(), "{path}: live behaviour differs from the pinned table ({} rows):\n{}", diffs.len(), diffs.join("\n"));
}

#[test]
fn transform_files_behaviour_is_pinned() {
    let configs = [
        ("default", ReadOptions::default()),
        ("duplicate_keys=Last", ReadOptions::new().duplicate_keys(DuplicateKeys::Last)),
        ("lossless_numbers", ReadOptions::new().lossless_numbers(true)),
    ];
    let mut rows = Vec::new();
    let mut failures = Vec::new();
    let transform = files(TRANSFORM, "");
    assert_eq!(transform.len(), 22);
    for (name, input) in transform {
        let mut row = vec![name.clone()];
        for (label, options) in &configs {
            let o = match run_all(&name, &input, options) {
                Ok(o) => o,
                Err(panic) => {
                    failures.push(panic);
                    row.push("panic".into());
                    continue;
                }
            };
            if o.validate.is_ok() != o.value.is_ok() {
                failures.push(format!("{name} ({label}): Value::from_slice gives {:?} but validate gives {:?}", o.value, o.validate));
            }
            if o.serde.is_ok() != o.value.is_ok() {
                failures
                    .push(format!("{name} ({label}): Value::from_slice gives {:?} but from_slice::<Value> gives {:?}", o.value, o.serde));
            }
            let (outcome, detail) = describe(&o.value);
            row.push(format!("{outcome} {detail}"));
        }
        rows.push(row.join("\t"));
    }
    finish("transform files", failures);
    compare_table(TRANSFORM_TABLE, "filename\tdefault\tduplicate_keys=Last\tlossless_numbers", rows);
}

// ---- deep nesting -------------------------------------------------------

fn read_parsing(name: &str) -> Vec<u8> {
    std::fs::read(Path::new(PARSING).join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Offset of the 513th container opener (the first beyond `max_depth` 512).
fn offset_of_opener(input: &[u8], n: usize) -> usize {
    // Openers outside strings; the deep files hold only `""` names.
    let mut seen = 0;
    let mut in_string = false;
    for (i, &b) in input.iter().enumerate() {
        match b {
            b'"' => in_string = !in_string,
            b'[' | b'{' if !in_string => {
                seen += 1;
                if seen == n {
                    return i;
                }
            }
            _ => {}
        }
    }
    panic!("fewer than {n} openers");
}

fn assert_depth_limit(name: &str, what: &str, r: Result<(), Error>, at: usize) {
    let e = r.err().unwrap_or_else(|| panic!("{name}: {what} accepts"));
    assert_eq!(e.kind(), &ErrorKind::DepthLimit { limit: 512 }, "{name}: {what}: {e}");
    assert_eq!(e.position().map(|p| p.offset), Some(at), "{name}: {what}: {e}");
}

#[test]
fn deep_nesting_fails_without_recursion_on_a_small_stack() {
    for name in DEEP {
        let input = read_parsing(name);
        let at = offset_of_opener(&input, 513);
        let (value, valid) = stack_thread(SMALL_STACK, {
            let input = input.clone();
            move || (Value::from_slice(&input).map(drop), validate(&input, &ReadOptions::default()))
        });
        assert_depth_limit(name, "Value::from_slice", value, at);
        assert_depth_limit(name, "validate", valid, at);
    }
    assert_eq!(offset_of_opener(&read_parsing(DEEP[0]), 513), 512);
    assert_eq!(offset_of_opener(&read_parsing(DEEP[1]), 513), 1280);
}

#[test]
fn deep_nesting_fails_through_serde_at_max_depth() {
    for name in DEEP {
        let input = read_parsing(name);
        let at = offset_of_opener(&input, 513);
        let r = stack_thread(SERDE_STACK, move || jetjson::from_slice::<Value>(&input).map(drop));
        assert_depth_limit(name, "from_slice::<Value>", r, at);
    }
}

/// 500 nested arrays (an `i_` file) are within the default limit: accepted,
/// also by the iterative parser on a small stack.
#[test]
fn five_hundred_nested_arrays_are_accepted_on_a_small_stack() {
    let input = read_parsing("i_structure_500_nested_arrays.json");
    let ok = stack_thread(SMALL_STACK, move || {
        let v = Value::from_slice(&input);
        let ok = v.is_ok() && validate(&input, &ReadOptions::default()).is_ok();
        // Dropping a 500-deep Value recurses (Drop is structural); keep it
        // out of this small-stack check by leaking it.
        std::mem::forget(v);
        ok
    });
    assert!(ok);
}

#[test]
fn a_reused_validator_agrees_with_fresh_validation_on_every_file() {
    // One Validator over all files in sequence, so working memory left by a
    // failed document (open objects, recorded names) meets the next one.
    let strict = ReadOptions::default();
    let mut reused = jetjson::parse::Validator::new(&strict);
    let mut seen = 0;
    for prefix in ["y_", "n_", "i_"] {
        for (name, input) in files(PARSING, prefix) {
            if name.contains("100000_opening") || name.contains("open_array_object") {
                continue; // deep files: covered on small stacks elsewhere
            }
            let fresh = validate(&input, &strict).map_err(|e| e.to_string());
            let again = reused.validate(&input).map_err(|e| e.to_string());
            assert_eq!(fresh, again, "{name}");
            // Twice in a row: nothing of this document may leak into the next.
            assert_eq!(reused.validate(&input).map_err(|e| e.to_string()), fresh, "{name} (second time)");
            seen += 1;
        }
    }
    assert!(seen > 300, "{seen} files");
}
