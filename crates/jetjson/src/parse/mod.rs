//! Reading JSON: one strict parser that drives a `Visitor`.
//!
//! The parser is iterative (an explicit stack, no recursion), so nesting depth
//! is limited by `ReadOptions::max_depth`, never by the thread's stack. What
//! gets built is up to the visitor: `Value` (value/build.rs), a validator, or
//! the `go` raw-JSON compactor.

mod blocks;
mod de;
mod decimal;
mod door;
mod drive;
mod flat;
#[cfg(all(test, target_os = "linux", target_arch = "x86_64"))]
pub(crate) mod guard;
mod name_table;
mod number;
mod options;
mod parser;
mod scan;
mod tail;
#[cfg(test)]
mod test_documents;
mod text_out;
mod validate;
mod visitor;

pub use de::Deserializer;
pub use decimal::literal_to_f64;
pub(crate) use door::{take_handed, VALUE_TOKEN};
#[doc(hidden)]
pub use drive::number_at;
pub(crate) use drive::{level, Level};
#[doc(hidden)]
pub use flat::{flat_object, FlatBuilder, FlatText, FlatValue, FLAT_UP_TO};
pub(crate) use number::{f32_of, out_of_range};
pub use number::{is_json_number, NumberValue};
pub use options::{DuplicateKeys, ReadOptions};
pub use parser::parse;
pub(crate) use parser::walk_value_at;
pub(crate) use parser::BOM;
#[doc(hidden)]
pub use parser::{parse_scalar, parse_with_memory, ParseMemory};
#[doc(hidden)]
pub use tail::{more_than_one_value, LOOK_BACK};
pub(crate) use text_out::TextOut;
pub use visitor::{NumberToken, Visitor};

use crate::error::Result;

/// Parses `input` into any type that can be built from a visitor.
pub fn from_slice_with<T: FromJson>(input: &[u8], options: &ReadOptions) -> Result<T> {
    T::from_json(input, options)
}

/// Types built by the parser directly (no serde in between).
pub trait FromJson: Sized {
    fn from_json(input: &[u8], options: &ReadOptions) -> Result<Self>;
}

/// Checks that `input` is one strict JSON text, building nothing.
pub fn validate(input: &[u8], options: &ReadOptions) -> Result<()> {
    parser::check(input, options)
}

/// Validates many documents (NDJSON lines, request bodies) with the same
/// options, reusing the parser's working memory between them.
pub struct Validator {
    options: ReadOptions,
    buffers: parser::Buffers,
}

impl Validator {
    pub fn new(options: &ReadOptions) -> Validator {
        Validator { options: options.clone(), buffers: parser::Buffers::default() }
    }

    /// As `validate(input, options)`.
    pub fn validate(&mut self, input: &[u8]) -> Result<()> {
        parser::check_with_buffers(input, &self.options, &mut self.buffers, drive::level())
    }
}

/// Reads all of `reader` into `buf`, failing as soon as more than
/// `max_size` bytes arrive: an oversized body is never read whole (at most
/// `max_size + 1` bytes are taken from the reader).
pub(crate) fn read_limited<R: std::io::Read>(reader: R, max_size: Option<usize>, buf: &mut Vec<u8>) -> Result<()> {
    use std::io::Read as _;
    match max_size {
        None => {
            let mut reader = reader;
            reader.read_to_end(buf)?;
        }
        Some(limit) => {
            let probe = (limit as u64).saturating_add(1);
            reader.take(probe).read_to_end(buf)?;
            if buf.len() > limit {
                // Where `from_slice_with` puts it: the first byte past the limit.
                let at = crate::error::Position::locate(buf, limit);
                return Err(crate::error::Error::new(crate::error::ErrorKind::SizeLimit { limit }).at(at));
            }
        }
    }
    Ok(())
}
