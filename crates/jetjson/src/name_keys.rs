//! Member names as the keys of maps whose key type is not a string
//! (`HashMap<u32, _>`, `BTreeMap<bool, _>`), read from the name's text as
//! serde_json reads them: an integer only in JSON's own syntax (`"01"`,
//! `"+1"` and `"1"` would otherwise be one key, and members would merge
//! without a duplicate error), a boolean as `"true"` or `"false"`. Used by
//! the parser's serde path (`parse::de`) and `from_value`.

use std::str::FromStr;

use serde::de::{self, Unexpected, Visitor};

use crate::error::Error;

/// The integer a member name writes, in JSON's integer syntax: an
/// optional `-`, then `0` or digits that do not start with `0`; `-0` is
/// refused too (it names the same key as `0`; serde_json refuses it for
/// `i64` and `u64` keys).
pub(crate) fn integer<'de, T: FromStr, V: Visitor<'de>>(text: &str, visitor: &V) -> Result<T, Error> {
    let digits = text.strip_prefix('-').unwrap_or(text).as_bytes();
    let json = match digits {
        [b'0'] => text == "0",
        [b'1'..=b'9', rest @ ..] => rest.iter().all(u8::is_ascii_digit),
        _ => false,
    };
    match text.parse() {
        Ok(n) if json => Ok(n),
        // Rust's syntax, not JSON's (`+1`, `01`).
        Ok(_) => Err(de::Error::invalid_value(Unexpected::Str(text), &"an integer in JSON syntax (no '+', no leading zeros)")),
        Err(_) => Err(de::Error::invalid_type(Unexpected::Str(text), visitor)),
    }
}

/// `true` or `false`, as serde_json reads a boolean map key.
pub(crate) fn boolean<'de, V: Visitor<'de>>(text: &str, visitor: &V) -> Result<bool, Error> {
    match text {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(de::Error::invalid_type(Unexpected::Str(text), visitor)),
    }
}

/// The `deserialize_*` methods of a member name's `Deserializer` for
/// integer and boolean keys; `$text` gives the name's text from `self`.
macro_rules! typed_name_methods {
    (|$this:ident| $text:expr) => {
        $crate::name_keys::typed_name_methods! { @ |$this| $text;
            deserialize_i8 => visit_i8, deserialize_i16 => visit_i16, deserialize_i32 => visit_i32, deserialize_i64 => visit_i64,
            deserialize_u8 => visit_u8, deserialize_u16 => visit_u16, deserialize_u32 => visit_u32, deserialize_u64 => visit_u64,
            deserialize_i128 => visit_i128, deserialize_u128 => visit_u128
        }
        fn deserialize_bool<V: serde::de::Visitor<'de>>(self, visitor: V) -> $crate::error::Result<V::Value> {
            let $this = self;
            let b = $crate::name_keys::boolean($text, &visitor)?;
            visitor.visit_bool(b)
        }
    };
    (@ |$this:ident| $text:expr; $($method:ident => $visit:ident),*) => {$(
        fn $method<V: serde::de::Visitor<'de>>(self, visitor: V) -> $crate::error::Result<V::Value> {
            let $this = self;
            let n = $crate::name_keys::integer($text, &visitor)?;
            visitor.$visit(n)
        }
    )*};
}
pub(crate) use typed_name_methods;
