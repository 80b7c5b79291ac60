//! Error reports: `FILE:LINE:COL: message`, then the offending line and a
//! caret under the column, like a compiler.
//!
//! ```text
//! config.json:3:12: expected ',' or '}' after object member
//!   "b": 2 "c": 3
//!          ^
//! ```
//!
//! The excerpt is for people, so it is made safe to print: invalid UTF-8 is
//! shown as U+FFFD, control characters as `?` (raw ones could drive the
//! terminal), and long lines are cut to a window around the column. Tabs are
//! kept, and the caret line repeats them, so the caret lines up whatever the
//! terminal's tab width.
//!
//! Reports reach stderr only through [`print`], which never panics (unlike
//! `eprint!`, which does when stderr cannot be written).

use std::fmt::Write as _;

/// Bytes of context shown on each side of the column in long lines.
const HALF_WINDOW: usize = 60;
const INDENT: &str = "  ";

/// Writes a report (or any message) to stderr.
///
/// A stderr that cannot take it (full, closed, its reader gone) is not an
/// error of its own: the exit status already tells what happened, and there
/// is nowhere left to say more. So the write's outcome is ignored, and the
/// caller's exit status stands (1 for invalid input, 2 for usage and I/O).
pub fn print(text: &str) {
    use std::io::Write as _;
    let _ = std::io::stderr().lock().write_all(text.as_bytes());
}

/// Where an error is: 1-based line and byte column.
pub struct At {
    pub line: u64,
    pub column: usize,
}

/// The full report for an error at `at` in `name`; `source_line` is the
/// line the column counts in (without its `\n`).
pub fn located(name: &str, at: At, message: &str, source_line: &[u8]) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{name}:{}:{}: {message}", at.line, at.column);
    let (text, caret) = excerpt(source_line, at.column.saturating_sub(1));
    let _ = writeln!(out, "{INDENT}{text}");
    let _ = writeln!(out, "{INDENT}{caret}^");
    out
}

/// A report without a position (e.g. a value the profile cannot write).
pub fn unlocated(name: &str, line: Option<u64>, message: &str) -> String {
    match line {
        Some(line) => format!("{name}:{line}: {message}\n"),
        None => format!("{name}: {message}\n"),
    }
}

/// A parse error in a whole document (`input` is the document).
pub fn parse_error(name: &str, input: &[u8], err: &jetjson::Error) -> String {
    match err.position() {
        Some(p) => {
            let line = line_around(input, p.offset);
            located(name, At { line: p.line as u64, column: p.column }, &message(err), line)
        }
        None => unlocated(name, None, &message(err)),
    }
}

/// A parse error in line `line_no` of an NDJSON input (`line` is that line;
/// the parser saw it alone, so its position is within it).
pub fn line_error(name: &str, line_no: u64, line: &[u8], err: &jetjson::Error) -> String {
    match err.position() {
        Some(p) => located(name, At { line: line_no, column: p.column }, &message(err), line_around(line, p.offset)),
        None => unlocated(name, Some(line_no), &message(err)),
    }
}

/// An error's message with the options it names spelled as this tool's
/// flags (`--max-depth`, not `max_depth`), and the path of a write error in
/// front (`$.items[3]: ...`). Python and C keep the core's spelling, which
/// is theirs.
pub fn message(err: &jetjson::Error) -> String {
    use jetjson::ErrorKind;
    let text = match err.kind() {
        ErrorKind::DepthLimit { limit } => format!("nesting deeper than --max-depth {limit}"),
        ErrorKind::SizeLimit { limit } => format!("input larger than --max-size {limit} bytes"),
        ErrorKind::WriteDepthLimit { limit } => format!("nesting deeper than --max-write-depth {limit}"),
        // The parser's byte order mark message names the option in the
        // core's spelling ("enable allow_bom to skip it").
        ErrorKind::Syntax { msg } if msg.contains("allow_bom") => {
            msg.replace("enable allow_bom", "use --allow-bom").replace("allow_bom", "--allow-bom")
        }
        _ => err.message(),
    };
    // (A write error placed in the text read has both: `file:3:1: $[2]: ...`.)
    match err.path().next() {
        Some(_) => format!("{}: {text}", err.path_string()),
        None => text,
    }
}

/// The line of `input` that holds byte `offset` (an offset at a `\n` belongs
/// to the line that `\n` ends).
pub fn line_around(input: &[u8], offset: usize) -> &[u8] {
    let offset = offset.min(input.len());
    let start = input[..offset].iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let end = input[offset..].iter().position(|&b| b == b'\n').map_or(input.len(), |i| offset + i);
    &input[start..end]
}

/// The text to show for `line` and the caret line's lead-in for byte `col0`
/// (0-based) of it.
fn excerpt(line: &[u8], col0: usize) -> (String, String) {
    // A CR before the LF is whitespace to JSON but would move the cursor.
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let col0 = col0.min(line.len());
    let (mut start, mut end) = (0, line.len());
    if line.len() > 2 * HALF_WINDOW {
        start = col0.saturating_sub(HALF_WINDOW);
        end = (col0 + HALF_WINDOW).min(line.len());
        // Do not cut a UTF-8 sequence in two: move inwards over
        // continuation bytes (at most three in valid text).
        for _ in 0..3 {
            if start > 0 && start < col0 && is_continuation(line[start]) {
                start += 1;
            }
            if end < line.len() && end > col0 && is_continuation(line[end]) {
                end -= 1;
            }
        }
    }
    let before = printable(&line[start..col0]);
    let after = printable(&line[col0..end]);
    let mut text = String::new();
    let mut caret = String::new();
    if start > 0 {
        text.push_str("...");
        caret.push_str("   ");
    }
    for c in before.chars() {
        caret.push_str(match c {
            '\t' => "\t",
            c if is_wide(c) => "  ",
            _ => " ",
        });
    }
    text.push_str(&before);
    text.push_str(&after);
    if end < line.len() {
        text.push_str("...");
    }
    (text, caret)
}

fn is_continuation(b: u8) -> bool {
    b & 0xC0 == 0x80
}

fn printable(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).chars().map(|c| if c != '\t' && c.is_control() { '?' } else { c }).collect()
}

/// Characters terminals draw two columns wide (East Asian wide and emoji
/// blocks; close enough to keep the caret in place for real-world text).
fn is_wide(c: char) -> bool {
    matches!(c as u32,
        0x1100..=0x115F | 0x2E80..=0x303E | 0x3041..=0x33FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF
        | 0xA000..=0xA4CF | 0xAC00..=0xD7A3 | 0xF900..=0xFAFF | 0xFE30..=0xFE4F | 0xFF00..=0xFF60
        | 0xFFE0..=0xFFE6 | 0x1F300..=0x1F64F | 0x1F900..=0x1F9FF | 0x20000..=0x3FFFD)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caret_under_the_column() {
        let r = located("f.json", At { line: 3, column: 8 }, "bad", b"  \"a\": 1 x");
        assert_eq!(r, "f.json:3:8: bad\n    \"a\": 1 x\n         ^\n");
    }

    #[test]
    fn tabs_are_repeated_in_the_caret_line() {
        let (text, caret) = excerpt(b"\t\tx", 2);
        assert_eq!((text.as_str(), caret.as_str()), ("\t\tx", "\t\t"));
    }

    #[test]
    fn long_lines_are_cut_around_the_column() {
        let line = [b'a'; 1000];
        let (text, caret) = excerpt(&line, 500);
        assert_eq!(text.len(), 3 + 2 * HALF_WINDOW + 3);
        assert_eq!(caret.len(), 3 + HALF_WINDOW);
    }

    #[test]
    fn cut_does_not_split_characters_and_controls_are_masked() {
        let mut line = "é".repeat(200).into_bytes();
        line[302] = 0x1b; // ESC right after the column
        line[303] = b'x';
        let (text, caret) = excerpt(&line, 300);
        assert!(text.starts_with("...") && text.ends_with("..."), "{text}");
        assert!(!text.contains('\u{fffd}'), "{text}");
        assert!(text.contains("é?x"), "{text}");
        assert_eq!(caret, " ".repeat(3 + 30));
    }

    #[test]
    fn invalid_utf8_shown_lossily() {
        let (text, caret) = excerpt(b"\"\xff\" x", 4);
        assert_eq!(text, "\"\u{fffd}\" x");
        assert_eq!(caret, "    ");
    }

    #[test]
    fn line_of_an_offset() {
        assert_eq!(line_around(b"a\nbc\nd", 3), b"bc");
        assert_eq!(line_around(b"a\nbc\nd", 4), b"bc");
        assert_eq!(line_around(b"a\nbc", 4), b"bc");
    }
}
