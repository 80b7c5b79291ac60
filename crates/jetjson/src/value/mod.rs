//! `Value`: any JSON document, keeping object insertion order and every
//! number as what it was (integer, float, or literal text).

mod access;
mod arena;
mod array;
mod build;
mod de;
mod debug;
mod display;
mod eq;
mod from;
mod from_value;
mod map;
mod names;
mod number;
mod partial_eq;
mod seq;
mod ser;
mod str;
#[cfg(test)]
mod tests;
mod text_room;
mod to_value;

/// How deep a conversion between `Value` and serde types (`to_value`,
/// `from_value`) recurses.
const MAX_CONVERT_DEPTH: usize = 2048;
mod write;

pub use access::ValueIndex;
pub use array::Array;
pub(crate) use build::{from_json_recovering, value_at};
pub use map::Map;
pub use number::Number;
pub(crate) use ser::{door_value, NUMBER_TOKEN, VALUE_WRITE_TOKEN};
/// The string type of `Value`: strings up to 22 bytes live inline, so most
/// keys and short values need no allocation of their own.
pub use str::Str;
pub(crate) use text_room::{Placed, TextRoom};
pub(crate) use to_value::ValueSerializer;
pub(crate) use write::write_value;

/// Any JSON value.
///
/// A value from `Value::from_slice` keeps its containers and long strings in
/// one arena per document: parsing allocates a few large blocks instead of
/// one per container or string, and dropping the tree frees them without
/// walking it. The tree is still an ordinary owned, mutable, `Send + Sync`
/// value: `&mut` access to a container copies its items out of the arena
/// first (copy-on-write), and a child kept after the root is dropped keeps
/// the arena alive.
/// `==` and `{:?}` walk the tree with an explicit stack (`eq.rs`,
/// `debug.rs`), so they take any depth, as building, cloning, dropping and
/// `Display` do.
#[derive(Clone, Default)]
pub enum Value {
    /// `null`.
    #[default]
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number: an exact integer, a double, or literal text.
    Number(Number),
    /// A string.
    String(Str),
    /// An array.
    Array(Array),
    /// Members in insertion order (duplicates are possible only if built so).
    Object(Map),
}
