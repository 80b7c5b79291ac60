//! Reading JSON: one strict parser that drives a `Visitor`.
//!
//! The parser is iterative (an explicit stack, no recursion), so nesting depth
//! is limited by `ReadOptions::max_depth`, never by the thread's stack. What
//! gets built is up to the visitor: `Value` (value/build.rs), a validator, or
//! the `go` raw-JSON compactor.

mod number;
mod options;
mod parser;
mod scan;
mod visitor;

pub use number::{is_json_number, NumberValue};
pub(crate) use parser::Parser;
pub use options::{DuplicateKeys, ReadOptions};
pub use parser::parse;
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
    parse(input, options, &mut visitor::Ignore)
}
