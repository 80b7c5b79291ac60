//! Core parse errors as `JSONDecodeError`s, with positions in the units of
//! the input: bytes for bytes-like input, characters for `str` input (the
//! parser counts bytes of the UTF-8 form, so offsets and columns are
//! converted by counting the characters before them).

use jetjson::{Error, ErrorKind, Position};
use pyo3::prelude::*;

use crate::errors::decode_error;

/// Characters in the valid UTF-8 `b` (bytes that are not continuation bytes).
fn chars(b: &[u8]) -> usize {
    b.iter().filter(|&&c| (c as i8) >= -0x40).count()
}

/// The `JSONDecodeError` for a core error on `input`.
/// A parse whose working memory could not grow is a `MemoryError` (the
/// input may be fine), saying where in the input.
pub(crate) fn decode_error_from(py: Python<'_>, e: &Error, input: &[u8], is_str: bool, doc: &Bound<'_, PyAny>) -> PyErr {
    if *e.kind() == ErrorKind::OutOfMemory {
        let (pos, lineno, colno) = python_position(e.position(), input, is_str);
        let msg = format!("{}: line {lineno} column {colno} (char {pos})", e.message());
        return pyo3::exceptions::PyMemoryError::new_err(msg);
    }
    decode_error_at(py, &e.message(), e.position(), input, is_str, doc)
}

/// A `JSONDecodeError` saying `msg` at `position` of `input`.
pub(crate) fn decode_error_at(
    py: Python<'_>,
    msg: &str,
    position: Option<Position>,
    input: &[u8],
    is_str: bool,
    doc: &Bound<'_, PyAny>,
) -> PyErr {
    let (pos, lineno, colno) = python_position(position, input, is_str);
    decode_error(py, msg, doc, pos, lineno, colno)
}

/// `pos`, `lineno` and `colno` of `position` in `input`, in Python's units:
/// bytes for bytes-like input, characters for `str` input (whose UTF-8 form
/// `input` is); the start of the input when there is no position.
pub(crate) fn python_position(position: Option<Position>, input: &[u8], is_str: bool) -> (usize, usize, usize) {
    let (offset, line, column) = match position {
        Some(p) => (p.offset.min(input.len()), p.line, p.column),
        None => (0, 1, 1),
    };
    if !is_str {
        return (offset, line, column);
    }
    let line_start = offset + 1 - column.min(offset + 1);
    // A byte inside a character (where `max_size` may fall) is placed at
    // that character, not the next one.
    let mut offset = offset;
    while offset > line_start && input.get(offset).is_some_and(|&b| b & 0xC0 == 0x80) {
        offset -= 1;
    }
    (chars(&input[..offset]), line, chars(&input[line_start..offset]) + 1)
}

/// The `JSONDecodeError` for a `str` that has no UTF-8 form: a lone
/// surrogate at character `index`.
pub(crate) fn surrogate_error(py: Python<'_>, text: &Bound<'_, PyAny>, index: usize) -> PyErr {
    let (line, col) = line_col_of_index(text, index);
    decode_error(py, "lone surrogate in str input (not valid Unicode text)", text, index, line, col)
}

/// Line and column (1-based, in characters) of character `index` of `text`.
fn line_col_of_index(text: &Bound<'_, PyAny>, index: usize) -> (usize, usize) {
    let prefix = text.get_item(pyo3::types::PySlice::new(text.py(), 0, index as isize, 1));
    let Ok(prefix) = prefix else { return (1, index + 1) };
    let newlines = prefix.call_method1("count", ("\n",)).and_then(|n| n.extract::<usize>()).unwrap_or(0);
    let last = prefix.call_method1("rfind", ("\n",)).and_then(|n| n.extract::<isize>()).unwrap_or(-1);
    (newlines + 1, (index as isize - last) as usize)
}
