//! Inputs with text after their value (`{...} {...}`), refused without
//! building the first value.
//!
//! The builder creates the Python objects of a value as the parser reads
//! it, so text after the value was met only once the whole value had been
//! built, and then all of it was released: a body with a stray second
//! value cost a full `loads` and more. `more_than_one_value` looks at the
//! end of the input (the core parser's `parse::more_than_one_value`) for a
//! last value that does not start the input; when it finds one,
//! `error_without_building` walks the input with a visitor that builds
//! nothing, and its error is the one `loads` raises. What the look at the end says is only a hint: the walk
//! decides, and any input it cannot vouch for goes the usual way.

use jetjson::parse::{NumberToken, NumberValue, Visitor};
use jetjson::{Error, ErrorKind, ReadOptions};
use pyo3::Python;

/// Inputs shorter than this are built without the look at their end: it
/// costs one block of masks and a few bit operations (a couple of hundred
/// instructions), a small share of building a value this long or longer,
/// and the build it saves is short below (the quick path
/// of `loads(data)` takes bodies up to the same size).
pub(crate) const LOOK_FROM: usize = super::QUICK_UP_TO;

/// Whether the input's last value certainly does not start it (core
/// `parse::more_than_one_value`, which reads at most its last
/// `parse::LOOK_BACK` bytes); `false` for inputs shorter than `LOOK_FROM`.
pub(crate) fn more_than_one_value(b: &[u8]) -> bool {
    b.len() >= LOOK_FROM && jetjson::parse::more_than_one_value(b)
}

/// A visitor that builds nothing, for `error_without_building`. It calls
/// off the walk at an integer beyond 64 bits: the builder makes an `int`
/// of its text there, which CPython may refuse (its limit on the digits
/// of an int read from text), an error this walk cannot stand for.
struct Scout {
    /// The walk was called off: what it found says nothing.
    called_off: bool,
}

impl Visitor for Scout {
    fn null(&mut self) -> jetjson::Result<()> {
        Ok(())
    }
    fn bool(&mut self, _: bool) -> jetjson::Result<()> {
        Ok(())
    }
    fn number(&mut self, n: NumberToken<'_>) -> jetjson::Result<()> {
        if matches!(n.value, NumberValue::Big) {
            self.called_off = true;
            return Err(Error::new(ErrorKind::Custom(String::new())));
        }
        Ok(())
    }
    fn string(&mut self, _: &str, _: &str) -> jetjson::Result<()> {
        Ok(())
    }
    fn begin_array(&mut self) -> jetjson::Result<()> {
        Ok(())
    }
    fn end_array(&mut self) -> jetjson::Result<()> {
        Ok(())
    }
    fn begin_object(&mut self) -> jetjson::Result<()> {
        Ok(())
    }
    fn key(&mut self, _: &str, _: &str) -> jetjson::Result<()> {
        Ok(())
    }
    fn end_object(&mut self) -> jetjson::Result<()> {
        Ok(())
    }
}

/// The error a build of `b` with `options` (not reading decimals) ends
/// with, found by walking it with a visitor that builds nothing; `None`
/// when the walk cannot vouch for it, and the caller builds as usual:
///
/// * the text is valid (the hint was wrong);
/// * an integer beyond 64 bits comes first (the builder's `int` may fail);
/// * a repeated name comes first. The walk runs with the caller's
///   options, so under "error" the parser itself refuses a repeated name,
///   at its second spelling, where the builder (parsing with names let
///   through) finds it when its object ends, and the parse may stop
///   elsewhere before that. Any other error therefore comes before every
///   repeated name: the build meets the same parse up to it, builds no
///   object with a repeated name, and stops with this very error (the
///   same driver, the same checks, the same reference explanation).
///
/// A build can also fail for want of memory; this walk makes no objects.
pub(crate) fn error_without_building(py: Python<'_>, b: &[u8], options: &ReadOptions) -> Option<Error> {
    let mut scout = Scout { called_off: false };
    let e = super::kept::parse(py, b, options, &mut scout).err()?;
    if scout.called_off || matches!(e.kind(), ErrorKind::DuplicateKey { .. }) {
        return None;
    }
    Some(e)
}
