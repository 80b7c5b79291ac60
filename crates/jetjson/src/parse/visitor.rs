//! What the parser tells a builder.

use crate::error::Result;
use crate::value::{Placed, TextRoom};

pub use super::number::NumberValue;

/// A number as it appears in the input, with its value.
#[derive(Clone, Copy, Debug)]
pub struct NumberToken<'a> {
    /// The literal, valid JSON number syntax.
    pub text: &'a str,
    /// No fraction and no exponent.
    pub is_integer: bool,
    /// Exact integers up to 64 bits, correctly rounded doubles otherwise
    /// (`-0` reads as the double -0.0); `Big` when only the text will do.
    pub value: NumberValue,
}

/// Receives the tokens of one JSON text in order. Strings arrive both decoded
/// (`s`) and as they appear between the quotes (`raw`, escapes intact), so a
/// builder can keep the original spelling when it needs to.
pub trait Visitor {
    fn null(&mut self) -> Result<()>;
    fn bool(&mut self, v: bool) -> Result<()>;
    fn number(&mut self, n: NumberToken<'_>) -> Result<()>;
    fn string(&mut self, s: &str, raw: &str) -> Result<()>;
    fn begin_array(&mut self) -> Result<()>;
    fn end_array(&mut self) -> Result<()>;
    fn begin_object(&mut self) -> Result<()>;
    fn key(&mut self, k: &str, raw: &str) -> Result<()>;
    fn end_object(&mut self) -> Result<()>;

    /// A string the parser's scan found free of escapes and of non-ASCII
    /// bytes (so `s` is both the decoded text and the raw spelling, and
    /// pure ASCII). Builders whose text objects depend on the widest
    /// character (Python's `str`) can skip their own check.
    #[inline(always)]
    fn ascii_string(&mut self, s: &str) -> Result<()> {
        self.string(s, s)
    }

    /// `[]`: the same as `begin_array` then `end_array`, for builders that
    /// can make an empty container more cheaply.
    #[inline(always)]
    fn empty_array(&mut self) -> Result<()> {
        self.begin_array()?;
        self.end_array()
    }

    /// `{}`: the same as `begin_object` then `end_object`.
    #[inline(always)]
    fn empty_object(&mut self) -> Result<()> {
        self.begin_object()?;
        self.end_object()
    }

    /// Room where the parser decodes the next string with escapes (its
    /// text then comes to `placed_string` or `placed_key` instead of
    /// `string` or `key`), when the builder keeps such text in memory of
    /// its own: the `Value` builder's arena, so that the text is not
    /// decoded into the parser's buffer and copied again. Only jetjson's
    /// builders can lend room (`TextRoom` is made inside the crate); the
    /// default lends none.
    #[doc(hidden)]
    #[inline(always)]
    fn text_room(&mut self) -> Option<TextRoom<'_>> {
        None
    }

    /// A string value decoded into the room `text_room` lent just before.
    #[doc(hidden)]
    fn placed_string(&mut self, text: Placed) -> Result<()> {
        let _ = text;
        unreachable!("placed text comes only after `text_room` lent room")
    }

    /// A member name decoded into the room `text_room` lent just before.
    #[doc(hidden)]
    fn placed_key(&mut self, text: Placed) -> Result<()> {
        let _ = text;
        unreachable!("placed text comes only after `text_room` lent room")
    }

    /// A member name with the same guarantee as `ascii_string`.
    #[inline(always)]
    fn ascii_key(&mut self, k: &str) -> Result<()> {
        self.key(k, k)
    }

    /// `ascii_key` with 24 bytes of the input around the name: the two
    /// before it (its opening quote and the byte before that), then its
    /// own and what follows (`k` is `around[2..2 + k.len()]` when it is at
    /// most 22 bytes long), so that a builder may load whole words of the
    /// name without a branch on its length. The driver calls it when those
    /// bytes are in the input and `takes_around` says yes.
    #[inline(always)]
    fn ascii_key_around(&mut self, k: &str, around: &[u8; 24]) -> Result<()> {
        let _ = around;
        self.ascii_key(k)
    }

    /// Whether `ascii_key_around` is worth its window: the driver takes
    /// the bytes around a name only for builders that say yes (the
    /// others' names, Python's among them, kept the driver's code as it
    /// was: with the window taken for all, Python's `loads` of
    /// github_events.json was 1.5% slower).
    #[inline(always)]
    fn takes_around(&self) -> bool {
        false
    }

    /// Asked when an array or object starts: `true` to
    /// receive the whole container at once, as its JSON text (`raw`),
    /// instead of token by token. `ahead` is the input from the opening
    /// bracket to the end of the input, not yet checked past that bracket,
    /// so a builder can look at what comes (a tag member) before choosing.
    /// Builders that never want text keep the default, which the compiler
    /// removes.
    ///
    /// A builder that overrides this must also override `takes_raw`.
    #[inline(always)]
    fn take_raw(&mut self, ahead: &[u8]) -> bool {
        let _ = ahead;
        false
    }

    /// Whether `take_raw` may ever answer `true`. Both drivers ask
    /// `take_raw` at every container of such builders (the fast driver in a
    /// build of its loop of its own), and never for the others.
    #[inline(always)]
    fn takes_raw(&self) -> bool {
        false
    }

    /// Whether names repeated in an object inside the text of a container
    /// `take_raw` asked for are refused whatever the parse's
    /// `DuplicateKeys` policy: the walk that checks that text then refuses
    /// them, with the parser's error and position. For a builder that
    /// applies its own policy to the objects it builds (so parses under
    /// `DuplicateKeys::Last`) but hands text on as it came, which no one
    /// checks after it.
    #[inline(always)]
    fn refuses_repeats_in_raw(&self) -> bool {
        false
    }

    /// The text of the container `take_raw` asked for, from its opening to
    /// its closing bracket. It was checked as everything else is (syntax,
    /// depth, repeated names under `DuplicateKeys::Error` or when
    /// `refuses_repeats_in_raw`), building nothing.
    fn raw(&mut self, json: &str) -> Result<()> {
        let _ = json;
        Ok(())
    }
}

/// Builds nothing: for validation.
pub(crate) struct Ignore;

impl Visitor for Ignore {
    fn null(&mut self) -> Result<()> {
        Ok(())
    }
    fn bool(&mut self, _: bool) -> Result<()> {
        Ok(())
    }
    fn number(&mut self, _: NumberToken<'_>) -> Result<()> {
        Ok(())
    }
    fn string(&mut self, _: &str, _: &str) -> Result<()> {
        Ok(())
    }
    fn begin_array(&mut self) -> Result<()> {
        Ok(())
    }
    fn end_array(&mut self) -> Result<()> {
        Ok(())
    }
    fn begin_object(&mut self) -> Result<()> {
        Ok(())
    }
    fn key(&mut self, _: &str, _: &str) -> Result<()> {
        Ok(())
    }
    fn end_object(&mut self) -> Result<()> {
        Ok(())
    }
}
