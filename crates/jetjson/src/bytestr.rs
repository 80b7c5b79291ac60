//! Strings given as bytes that may not be valid UTF-8.

use serde::ser::{Serialize, Serializer};

pub(crate) const BYTESTR_TOKEN: &str = "$jetjson::private::ByteStr";

/// A JSON string whose text is given as bytes, as Go's `string` can hold any
/// bytes. In `go`, each byte that is not valid UTF-8 becomes `\ufffd` exactly
/// as Go writes it; `compact` and `jcs` refuse invalid text.
///
/// (For byte *slices* written as base64 in `go`, use `serialize_bytes`, e.g.
/// via `serde_bytes`.)
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ByteStr<'a>(pub &'a [u8]);

impl Serialize for ByteStr<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        struct Inner<'a>(&'a [u8]);
        impl Serialize for Inner<'_> {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_bytes(self.0)
            }
        }
        s.serialize_newtype_struct(BYTESTR_TOKEN, &Inner(self.0))
    }
}
