//! The strict RFC 8259 parser: an explicit stack instead of recursion.

use super::number::scan_number;
use super::options::ReadOptions;
use super::visitor::{NumberToken, Visitor};
use crate::error::{Error, ErrorKind, Position, Result};

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Parses one JSON text from `input`, reporting its tokens to `visitor`.
pub fn parse<V: Visitor + ?Sized>(input: &[u8], options: &ReadOptions, visitor: &mut V) -> Result<()> {
    let fail = |offset: usize, e: Error| e.at(Position::locate(input, offset));
    if let Some(limit) = options.max_size {
        if input.len() > limit {
            return Err(fail(limit, Error::new(ErrorKind::SizeLimit { limit })));
        }
    }
    // Validate UTF-8 once, up front; every slice below is then a `str`.
    let text = std::str::from_utf8(input).map_err(|e| fail(e.valid_up_to(), Error::syntax("invalid UTF-8")))?;
    let mut p = Parser { text, b: input, i: 0, scratch: String::new() };
    if input.starts_with(BOM) {
        if !options.allow_bom {
            return Err(fail(0, Error::syntax("unexpected byte order mark (enable allow_bom to skip it)")));
        }
        p.i = BOM.len();
    }
    p.run(options, visitor).map_err(|(offset, e)| match e.position() {
        Some(_) => e,
        None => fail(offset, e),
    })
}

struct Parser<'a> {
    text: &'a str,
    b: &'a [u8],
    i: usize,
    scratch: String,
}

type Step<T> = std::result::Result<T, (usize, Error)>;

fn err<T>(at: usize, msg: &str) -> Step<T> {
    Err((at, Error::syntax(msg)))
}

impl<'a> Parser<'a> {
    fn run<V: Visitor + ?Sized>(&mut self, options: &ReadOptions, v: &mut V) -> Step<()> {
        // Open containers, innermost last: b'[' or b'{'.
        let mut stack: Vec<u8> = Vec::new();
        'value: loop {
            self.skip_ws();
            let at = self.i;
            let visited = match self.b.get(at) {
                Some(b'{') | Some(b'[') => {
                    if stack.len() >= options.max_depth {
                        return Err((at, Error::new(ErrorKind::DepthLimit { limit: options.max_depth })));
                    }
                    let open = self.b[at];
                    self.i += 1;
                    stack.push(open);
                    if open == b'[' {
                        v.begin_array().map_err(|e| (at, e))?;
                        self.skip_ws();
                        if self.peek() != Some(b']') {
                            continue 'value;
                        }
                    } else {
                        v.begin_object().map_err(|e| (at, e))?;
                        self.skip_ws();
                        if self.peek() != Some(b'}') {
                            self.member_key(v)?;
                            continue 'value;
                        }
                    }
                    // Empty container: closed below like any other.
                    Ok(())
                }
                Some(b'"') => {
                    let (s, raw) = self.string()?;
                    v.string(s, raw)
                }
                Some(b't') => {
                    self.literal(b"true")?;
                    v.bool(true)
                }
                Some(b'f') => {
                    self.literal(b"false")?;
                    v.bool(false)
                }
                Some(b'n') => {
                    self.literal(b"null")?;
                    v.null()
                }
                Some(b'-' | b'0'..=b'9') => {
                    let (len, is_integer) = scan_number(&self.b[at..]).map_err(|k| (at + k, Error::syntax("invalid number")))?;
                    self.i += len;
                    v.number(NumberToken { text: &self.text[at..at + len], is_integer })
                }
                Some(b']') if stack.last() == Some(&b'[') => return err(at, "expected a value after ','"),
                Some(b'}') if stack.last() == Some(&b'{') => return err(at, "expected a value after ':'"),
                Some(_) => return err(at, "expected a JSON value"),
                None => return err(at, "unexpected end of input: expected a JSON value"),
            };
            visited.map_err(|e| (at, e))?;

            // After a value: close containers or move to the next member.
            loop {
                let Some(&open) = stack.last() else { break 'value };
                self.skip_ws();
                let at = self.i;
                match (open, self.peek()) {
                    (b'[', Some(b',')) => {
                        self.i += 1;
                        continue 'value;
                    }
                    (b'{', Some(b',')) => {
                        self.i += 1;
                        self.skip_ws();
                        self.member_key(v)?;
                        continue 'value;
                    }
                    (b'[', Some(b']')) => {
                        self.i += 1;
                        stack.pop();
                        v.end_array().map_err(|e| (at, e))?;
                    }
                    (b'{', Some(b'}')) => {
                        self.i += 1;
                        stack.pop();
                        v.end_object().map_err(|e| (at, e))?;
                    }
                    (b'[', None) => return err(at, "unexpected end of input: expected ',' or ']' after array element"),
                    (b'{', None) => return err(at, "unexpected end of input: expected ',' or '}' after object member"),
                    (b'[', _) => return err(at, "expected ',' or ']' after array element"),
                    _ => return err(at, "expected ',' or '}' after object member"),
                }
            }
        }
        self.skip_ws();
        if self.i < self.b.len() {
            return err(self.i, "trailing characters after the JSON value");
        }
        Ok(())
    }

    #[inline]
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    #[inline]
    fn skip_ws(&mut self) {
        while let Some(b' ' | b'\n' | b'\r' | b'\t') = self.b.get(self.i) {
            self.i += 1;
        }
    }

    fn literal(&mut self, word: &'static [u8]) -> Step<()> {
        let at = self.i;
        let got = &self.b[at..(at + word.len()).min(self.b.len())];
        if got != word {
            let k = got.iter().zip(word).take_while(|(a, b)| a == b).count();
            return err(at + k, "invalid literal (expected true, false or null)");
        }
        self.i += word.len();
        Ok(())
    }

    /// A member name and its ':' (at the `"` of the name).
    fn member_key<V: Visitor + ?Sized>(&mut self, v: &mut V) -> Step<()> {
        let at = self.i;
        match self.peek() {
            Some(b'"') => {}
            Some(b'}') => return err(at, "expected an object member name after ','"),
            None => return err(at, "unexpected end of input: expected an object member name"),
            Some(_) => return err(at, "expected '\"' to start an object member name"),
        }
        let (k, raw) = self.string()?;
        v.key(k, raw).map_err(|e| (at, e))?;
        self.skip_ws();
        if self.peek() != Some(b':') {
            return err(self.i, "expected ':' after object member name");
        }
        self.i += 1;
        Ok(())
    }

    /// A string at `"`: (decoded, raw contents between the quotes).
    fn string(&mut self) -> Step<(&str, &'a str)> {
        let start = self.i + 1;
        let mut i = start;
        let b = self.b;
        // Fast path: no escapes.
        loop {
            match b.get(i) {
                Some(b'"') => {
                    self.i = i + 1;
                    let raw = &self.text[start..i];
                    return Ok((raw, raw));
                }
                Some(b'\\') => break,
                Some(&c) if c < 0x20 => return err(i, "control character in string (must be escaped)"),
                Some(_) => i += 1,
                None => return err(start - 1, "unterminated string"),
            }
        }
        self.scratch.clear();
        self.scratch.push_str(&self.text[start..i]);
        let mut run = i;
        loop {
            match b.get(i) {
                Some(b'"') => {
                    self.scratch.push_str(&self.text[run..i]);
                    self.i = i + 1;
                    return Ok((&self.scratch, &self.text[start..i]));
                }
                Some(b'\\') => {
                    self.scratch.push_str(&self.text[run..i]);
                    i = self.escape(i)?;
                    run = i;
                }
                Some(&c) if c < 0x20 => return err(i, "control character in string (must be escaped)"),
                Some(_) => i += 1,
                None => return err(start - 1, "unterminated string"),
            }
        }
    }

    /// Decodes the escape at `i` (a backslash) into scratch; returns the next index.
    fn escape(&mut self, i: usize) -> Step<usize> {
        let c = match self.b.get(i + 1) {
            Some(b'"') => '"',
            Some(b'\\') => '\\',
            Some(b'/') => '/',
            Some(b'b') => '\u{8}',
            Some(b'f') => '\u{c}',
            Some(b'n') => '\n',
            Some(b'r') => '\r',
            Some(b't') => '\t',
            Some(b'u') => {
                let hi = self.hex4(i + 2)?;
                let (ch, next) = match hi {
                    0xD800..=0xDBFF => {
                        if self.b.get(i + 6) != Some(&b'\\') || self.b.get(i + 7) != Some(&b'u') {
                            return err(i, "lone surrogate escape (a high surrogate must be followed by a low one)");
                        }
                        let lo = self.hex4(i + 8)?;
                        if !(0xDC00..=0xDFFF).contains(&lo) {
                            return err(i + 6, "lone surrogate escape (a high surrogate must be followed by a low one)");
                        }
                        let cp = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
                        (char::from_u32(cp), i + 12)
                    }
                    0xDC00..=0xDFFF => return err(i, "lone surrogate escape (a low surrogate without a high one)"),
                    _ => (char::from_u32(hi), i + 6),
                };
                self.scratch.push(ch.expect("surrogates handled above"));
                return Ok(next);
            }
            Some(_) => return err(i, "invalid escape in string"),
            None => return err(i, "unterminated string"),
        };
        self.scratch.push(c);
        Ok(i + 2)
    }

    fn hex4(&self, at: usize) -> Step<u32> {
        let Some(digits) = self.b.get(at..at + 4) else { return err(at, "incomplete \\u escape") };
        let mut v = 0;
        for (k, &d) in digits.iter().enumerate() {
            let n = match d {
                b'0'..=b'9' => d - b'0',
                b'a'..=b'f' => d - b'a' + 10,
                b'A'..=b'F' => d - b'A' + 10,
                _ => return err(at + k, "invalid hex digit in \\u escape"),
            };
            v = v * 16 + u32::from(n);
        }
        Ok(v)
    }
}
