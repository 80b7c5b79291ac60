//! The rules the CLI shares with the Python and C front ends (issue 22,
//! "one behaviour in every front end"): canon and digest name their
//! profile, output flags that cannot change a profile's bytes are refused
//! (the core's `WriteOptions::inapplicable`, spelled as flags), the write
//! depth limit is `--max-write-depth` with the core's default, and error
//! messages name options as the CLI spells them.

mod process;

use jetjson::{Profile, Value, WriteOption, WriteOptions, DEFAULT_MAX_WRITE_DEPTH};
use process::{code, run, stderr};

/// `depth` nested arrays around a 0.
fn nested(depth: usize) -> Vec<u8> {
    [b"[".repeat(depth), b"0".to_vec(), b"]".repeat(depth)].concat()
}

#[test]
fn canon_and_digest_need_a_profile_and_say_which() {
    for (args, extra) in [
        (&["canon"][..], None),
        (&["canon", "--lines"], None),
        (&["digest"], Some("--raw")),
        (&["digest", "--algorithm", "sha512"], Some("--raw")),
    ] {
        let out = run(args, b"{}");
        assert_eq!(code(&out), 2, "{args:?}: {}", stderr(&out));
        assert!(out.stdout.is_empty(), "{args:?}");
        let err = stderr(&out);
        assert!(err.starts_with(&format!("jetjson: {} needs a profile: ", args[0])), "{args:?}: {err}");
        for p in ["--profile compact", "--profile go", "--profile jcs"] {
            assert!(err.contains(p), "{args:?}: {err} should list {p}");
        }
        if let Some(raw) = extra {
            assert!(err.contains(raw), "{args:?}: {err}");
        }
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    // fmt writes compact bytes for people: no profile to name.
    assert_eq!(code(&run(&["fmt"], b"{}")), 0);
}

/// The CLI's flag for each core option (the C and Python spellings are
/// tested in their own suites against the same core rule).
fn flags(option: WriteOption) -> Option<&'static [&'static str]> {
    Some(match option {
        WriteOption::EscapeHtml(true) => &["--escape-html"],
        WriteOption::EscapeHtml(false) => &["--no-escape-html"],
        WriteOption::SortKeys(true) => &["--sort-keys"],
        WriteOption::SortKeys(false) => &["--keep-order"],
        WriteOption::Indent => &["--indent", "2"],
        WriteOption::AsciiOnly => &["--ascii"],
        // No flag: NaN cannot be read from JSON text.
        _ => return None,
    })
}

fn core_options(option: WriteOption, profile: Profile) -> WriteOptions {
    let o = WriteOptions::new(profile);
    match option {
        WriteOption::EscapeHtml(on) => o.escape_html(on),
        WriteOption::SortKeys(on) => o.sort_keys(on),
        WriteOption::Indent => o.indent(2),
        WriteOption::AsciiOnly => o.ascii_only(true),
        _ => o,
    }
}

/// Every output flag against every profile, for canon and digest: refused
/// exactly where the core's rule refuses it (with the flag, the profile and
/// the reason in the message), and otherwise giving the core's bytes.
#[test]
fn output_flags_follow_the_core_rule_in_canon_and_digest() {
    let doc = r#"{"b":"<é>","a":[1.5,{"z":1,"y":2}]}"#;
    let value = Value::from_slice(doc.as_bytes()).unwrap();
    let all = [
        WriteOption::EscapeHtml(true),
        WriteOption::EscapeHtml(false),
        WriteOption::SortKeys(true),
        WriteOption::SortKeys(false),
        WriteOption::Indent,
        WriteOption::AsciiOnly,
    ];
    let mut refusals = 0;
    for profile in [Profile::Compact, Profile::Go, Profile::Jcs] {
        for option in all {
            let flag = flags(option).unwrap();
            let options = core_options(option, profile);
            for command in ["canon", "digest"] {
                let mut args = vec![command, "--profile", profile.name()];
                args.extend_from_slice(flag);
                let out = run(&args, doc.as_bytes());
                match options.inapplicable() {
                    Some(refused) => {
                        refusals += 1;
                        assert_eq!(code(&out), 2, "{args:?}: {}", stderr(&out));
                        let want = format!("jetjson: {} cannot be used with --profile {}: {}\n", flag[0], profile.name(), refused.reason);
                        assert_eq!(stderr(&out), want, "{args:?}");
                        assert!(out.stdout.is_empty(), "{args:?}");
                    }
                    None => {
                        assert_eq!(code(&out), 0, "{args:?}: {}", stderr(&out));
                        let bytes = value.to_vec_with(&options).unwrap();
                        let want = if command == "canon" {
                            bytes
                        } else {
                            format!("{}\n", jetjson::digest_bytes(&bytes, jetjson::Algorithm::Sha256)).into_bytes()
                        };
                        assert_eq!(out.stdout, want, "{args:?}");
                    }
                }
            }
        }
    }
    // jcs refuses all six, go one, compact two; each in two commands.
    assert_eq!(refusals, 2 * (6 + 1 + 2));
}

/// The issue's example: `check --max-depth 200000` passed a file that
/// `canon --max-depth 200000` then refused at a hidden 2048. Now the
/// write limit is `--max-write-depth` (default 512, as `--max-depth`),
/// named in the error, and raising it writes the document.
#[test]
fn the_write_depth_limit_is_a_flag_with_the_core_default() {
    assert_eq!(DEFAULT_MAX_WRITE_DEPTH, 512);
    let at = nested(512);
    let over = nested(513);
    let writers: [&[&str]; 4] =
        [&["canon", "--profile", "go"], &["canon", "--profile", "jcs", "--lines"], &["fmt"], &["digest", "--profile", "compact"]];
    for args in writers {
        let out = run(args, &at);
        assert_eq!(code(&out), 0, "{args:?}: {}", stderr(&out));
        // Read with a higher limit, the 513-deep document reaches the writer.
        let mut a = args.to_vec();
        a.extend(["--max-depth", "600"]);
        let out = run(&a, &over);
        assert_eq!(code(&out), 1, "{a:?}");
        // Placed at the 513th '[' (line 1 of the document, or of the
        // NDJSON input), with the line's excerpt and a caret. (fmt's
        // indented output leaves in chunks: its report says how much went
        // out before the limit was met.)
        let err = stderr(&out);
        assert!(err.starts_with("<stdin>:1:513: nesting deeper than --max-write-depth 512"), "{a:?}: {err}");
        assert_eq!(err.lines().count(), 3, "{a:?}: {err}");
        a.extend(["--max-write-depth", "513"]);
        let out = run(&a, &over);
        assert_eq!(code(&out), 0, "{a:?}: {}", stderr(&out));
    }

    let deep = nested(200_000);
    let out = run(&["check", "--max-depth", "200000"], &deep);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let out = run(&["canon", "--profile", "go", "--max-depth", "200000"], &deep);
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).starts_with("<stdin>:1:513: nesting deeper than --max-write-depth 512\n"), "{}", stderr(&out));
    for args in [
        &["canon", "--profile", "go", "--max-depth", "200000", "--max-write-depth", "200000"][..],
        &["fmt", "--indent", "0", "--max-depth", "200000", "--max-write-depth", "200000"],
    ] {
        let out = run(args, &deep);
        assert_eq!(code(&out), 0, "{args:?}: {}", stderr(&out));
        let written = out.stdout.strip_suffix(b"\n").unwrap_or(&out.stdout);
        assert!(written == deep, "{args:?}: {} bytes out", out.stdout.len());
    }
    let out = run(&["digest", "--profile", "jcs", "--max-depth", "200000", "--max-write-depth", "200000"], &deep);
    assert_eq!(String::from_utf8_lossy(&out.stdout), format!("{}\n", jetjson::digest_bytes(&deep, jetjson::Algorithm::Sha256)));

    // The range is the core's: 1 to a million.
    for n in ["0", "1000001"] {
        let out = run(&["canon", "--profile", "go", "--max-write-depth", n], b"1");
        assert_eq!(code(&out), 2, "{n}");
        assert!(stderr(&out).contains(&format!("{n} is not in 1..=1000000")), "{}", stderr(&out));
    }
}

/// Errors name options as the CLI spells them.
#[test]
fn errors_name_the_flags() {
    let cases: [(&[&str], &[u8], &str); 5] = [
        (&["check"], b"\xEF\xBB\xBF{}", "<stdin>:1:1: unexpected byte order mark (use --allow-bom to skip it)\n"),
        (&["check", "--max-depth", "2"], b"[[[1]]]", "<stdin>:1:3: nesting deeper than --max-depth 2\n"),
        (&["check", "--max-size", "4"], b"[1,2,3]", "<stdin>:1:5: input larger than --max-size 4 bytes\n"),
        (&["fmt", "--max-write-depth", "1"], b"[[1]]", "<stdin>:1:2: nesting deeper than --max-write-depth 1\n"),
        (
            &["digest", "--raw", "--max-size", "4"],
            b"[1,2,3]",
            "<stdin>: input larger than --max-size 4 bytes (reading stopped at byte offset 4)\n",
        ),
    ];
    for (args, input, want) in cases {
        let out = run(args, input);
        assert_eq!(code(&out), 1, "{args:?}");
        let first = stderr(&out).lines().next().unwrap_or_default().to_owned() + "\n";
        assert_eq!(first, want, "{args:?}");
    }
    // The reading flags are accepted by every command that reads.
    for command in [&["check"][..], &["canon", "--profile", "go"], &["digest", "--profile", "go"], &["fmt"]] {
        let mut args = command.to_vec();
        args.extend(["--allow-bom", "--max-depth", "3", "--max-size", "1K", "--duplicate-keys", "last"]);
        let out = run(&args, b"\xEF\xBB\xBF{\"a\":1,\"a\":2}");
        assert_eq!(code(&out), 0, "{args:?}: {}", stderr(&out));
    }
}
