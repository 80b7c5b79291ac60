//! Target `parse`: arbitrary bytes under every reading option set (chosen by
//! the first two bytes). Never a panic, hang or memory error; every entry
//! point agrees on accepting or rejecting; errors point inside the input;
//! the serde path builds the same value as the direct one (both refuse
//! numbers beyond the double range, except that lossless mode keeps them
//! as text on the direct path).

use std::io::Read;

use jetjson::parse::{validate, Validator};
use jetjson::{DuplicateKeys, Error, ErrorKind, Value};

use super::common::{read_options, split_options, Numbers};

pub fn run(data: &[u8]) {
    let ([a, b], input) = split_options::<2>(data);
    let options = read_options(a, b, input.len());

    let direct = Value::from_slice_with(input, &options);
    if let Err(e) = &direct {
        let p = e.position().unwrap_or_else(|| panic!("Value::from_slice_with: error without a position: {e}"));
        assert!(p.offset <= input.len(), "error beyond the input ({} bytes): {e}", input.len());
        assert!(p.line >= 1 && p.column >= 1, "{e}");
    }

    // Validation builds nothing but must reach the same verdict, with the
    // same error (the policies First/Last are not errors for either).
    let valid = validate(input, &options);
    assert_eq!(valid.as_ref().err(), direct.as_ref().err(), "validate vs Value::from_slice_with");

    // A Validator keeps working memory between documents: a previous
    // document (valid or not) must not change the answer.
    let mut validator = Validator::new(&options);
    let _ = validator.validate(b"{\"a\":[1,{\"b\":2}],\"c\":\"\\u0041\"}");
    let _ = validator.validate(b"{\"a\":[1,{\"a\":");
    assert_eq!(validator.validate(input).err(), valid.as_ref().err().cloned(), "reused Validator");

    // The serde path: same verdict; same value where it applies the same
    // policy (it does not apply First/Last to Value yet: see limits.rs).
    let serde = jetjson::from_slice_with::<Value>(input, &options);
    match (&direct, &serde) {
        (Ok(d), Ok(s)) => {
            // Numbers: serde has no literal-number type, so integers beyond
            // 128 bits (and, in lossless mode, every number) arrive as the
            // nearest double or as integers, as serde_json's do.
            if options.duplicate_key_policy() == DuplicateKeys::Error {
                assert!(super::common::same_value(d, s, Numbers::Integers), "serde path built a different value: {d:?} vs {s:?}");
            }
        }
        (Err(_), Err(e)) => {
            if let Some(p) = e.position() {
                assert!(p.offset <= input.len(), "serde error beyond the input: {e}");
            }
        }
        // Documented: the serde path refuses numbers beyond the double
        // range (serde has no "literal number" type to hand them over as),
        // which `Value::from_slice_with` keeps as literal text in lossless
        // mode (or drops there, as a repeated member under `First`).
        (Ok(_), Err(e)) if beyond_doubles(e) && options.keeps_numbers_lossless() => {}
        (d, s) => panic!("Value::from_slice_with {d:?} but from_slice_with::<Value> {s:?}"),
    }

    // Reading the same bytes from a stream, in small uneven chunks, gives
    // the same result (a size error may lose its position: nothing was parsed).
    let streamed = Value::from_reader_with(Chunks { data: input, at: 0, step: usize::from(b >> 4) + 1 }, &options);
    match (&direct, &streamed) {
        (Ok(d), Ok(s)) => assert!(super::common::same_value(d, s, Numbers::Exact), "from_reader_with built a different value"),
        (Err(d), Err(s)) => assert_eq!(kind(d), kind(s), "from_reader_with: {s} vs {d}"),
        (d, s) => panic!("Value::from_slice_with {d:?} but Value::from_reader_with {s:?}"),
    }
}

/// The reader's error for a literal no double can hold.
fn beyond_doubles(e: &Error) -> bool {
    matches!(e.kind(), ErrorKind::NumberOutOfRange { profile: "read", .. })
}

fn kind(e: &Error) -> &ErrorKind {
    e.kind()
}

/// A reader handing out at most `step` bytes per call.
struct Chunks<'a> {
    data: &'a [u8],
    at: usize,
    step: usize,
}

impl Read for Chunks<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = buf.len().min(self.step).min(self.data.len() - self.at);
        buf[..n].copy_from_slice(&self.data[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}
