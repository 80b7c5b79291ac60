//! Byte strings as base64 text, the way Go writes a `[]byte`:
//! `#[serde(with = "jetjson::base64")]`.
//!
//! serde sees a `Vec<u8>` as a sequence of numbers, so every serializer
//! (jetjson's `go` profile included) writes `[1,2,3]`; Go's
//! `encoding/json` writes a `[]byte` as a string in standard base64 with
//! padding (`"AQID"`). Mark the field with this module to get Go's bytes
//! in every profile (and with any serde format):
//!
//! ```
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Serialize, Deserialize, Debug, PartialEq)]
//! struct Blob {
//!     #[serde(with = "jetjson::base64")]
//!     data: Vec<u8>,
//!     #[serde(with = "jetjson::base64::option")]
//!     extra: Option<Vec<u8>>,
//! }
//!
//! let blob = Blob { data: vec![1, 2, 3], extra: None };
//! let text = jetjson::to_string_with(&blob, &jetjson::WriteOptions::go()).unwrap();
//! assert_eq!(text, r#"{"data":"AQID","extra":null}"#);
//! assert_eq!(jetjson::from_str::<Blob>(&text).unwrap(), blob);
//! ```
//!
//! Reading accepts what Go's `json.Unmarshal` accepts for a `[]byte`:
//! standard base64 with padding, line breaks (`\r`, `\n`) ignored, or an
//! array of numbers 0 to 255. Anything else (URL-safe letters, missing
//! padding, spaces) is an error. `null` is an error here and `None` with
//! [`option`] (Go reads `null` as a nil slice). For a borrowed `&[u8]` field, use
//! `#[serde(serialize_with = "jetjson::base64::serialize")]`.

use ::base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig, STANDARD};
use ::base64::engine::DecodePaddingMode;
use ::base64::Engine as _;
use serde::de::{self, Deserializer, Visitor};
use serde::ser::Serializer;

/// Decoding as Go's `base64.StdEncoding` does: padding required, the
/// unused low bits of the last character not checked.
const GO_STD: GeneralPurpose = GeneralPurpose::new(
    &::base64::alphabet::STANDARD,
    GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::RequireCanonical).with_decode_allow_trailing_bits(true),
);

/// Writes `bytes` as a standard, padded base64 string.
///
/// ```
/// #[derive(serde::Serialize)]
/// struct Out<'a> {
///     #[serde(serialize_with = "jetjson::base64::serialize")]
///     data: &'a [u8],
/// }
/// assert_eq!(jetjson::to_string(&Out { data: b"hi!" }).unwrap(), r#"{"data":"aGkh"}"#);
/// ```
pub fn serialize<T: ?Sized + AsRef<[u8]>, S: Serializer>(bytes: &T, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(&STANDARD.encode(bytes.as_ref()))
}

/// Reads a standard, padded base64 string (line breaks ignored), or an
/// array of numbers 0 to 255, into bytes.
///
/// ```
/// #[derive(serde::Deserialize)]
/// struct In {
///     #[serde(with = "jetjson::base64")]
///     data: Vec<u8>,
/// }
/// let v: In = jetjson::from_str(r#"{"data":"aGkh"}"#).unwrap();
/// assert_eq!(v.data, b"hi!");
/// assert!(jetjson::from_str::<In>(r#"{"data":"aGkh!"}"#).is_err());
/// let array: In = jetjson::from_str(r#"{"data":[104,105]}"#).unwrap(); // as Go reads it
/// assert_eq!(array.data, b"hi");
/// ```
pub fn deserialize<'de, T: From<Vec<u8>>, D: Deserializer<'de>>(deserializer: D) -> Result<T, D::Error> {
    deserializer.deserialize_str(Base64Visitor).map(T::from)
}

/// Decodes `text` as Go decodes the base64 of a `[]byte` (also the
/// Python binding's typed `bytes`, through `__private::base64_decode`).
pub(crate) fn decode(text: &[u8]) -> Result<Vec<u8>, ::base64::DecodeError> {
    if text.contains(&b'\r') || text.contains(&b'\n') {
        let joined: Vec<u8> = text.iter().copied().filter(|&c| c != b'\r' && c != b'\n').collect();
        return GO_STD.decode(joined);
    }
    GO_STD.decode(text)
}

struct Base64Visitor;

impl<'de> Visitor<'de> for Base64Visitor {
    type Value = Vec<u8>;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a base64 string")
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<Vec<u8>, E> {
        decode(text.as_bytes()).map_err(|e| E::custom(format_args!("invalid base64: {e}")))
    }

    /// `[1,2,3]`, which Go also reads into a `[]byte`.
    fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<u8>, A::Error> {
        let mut bytes = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(b) = seq.next_element::<u8>()? {
            bytes.push(b);
        }
        Ok(bytes)
    }
}

/// `Option<Vec<u8>>` (or any `Option` of bytes): `None` as `null`, as Go
/// writes a nil `[]byte`; `Some` as base64.
///
/// ```
/// #[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
/// struct Msg {
///     #[serde(with = "jetjson::base64::option")]
///     sig: Option<Vec<u8>>,
/// }
/// assert_eq!(jetjson::to_string(&Msg { sig: Some(vec![0xff]) }).unwrap(), r#"{"sig":"/w=="}"#);
/// assert_eq!(jetjson::from_str::<Msg>(r#"{"sig":null}"#).unwrap(), Msg { sig: None });
/// ```
pub mod option {
    use serde::de::{self, Deserializer, Visitor};
    use serde::ser::Serializer;

    /// Writes `None` as `null` and `Some(bytes)` as base64.
    pub fn serialize<T: AsRef<[u8]>, S: Serializer>(bytes: &Option<T>, serializer: S) -> Result<S::Ok, S::Error> {
        match bytes {
            Some(b) => super::serialize(b, serializer),
            None => serializer.serialize_none(),
        }
    }

    /// Reads `null` as `None` and a base64 string as `Some(bytes)`.
    pub fn deserialize<'de, T: From<Vec<u8>>, D: Deserializer<'de>>(deserializer: D) -> Result<Option<T>, D::Error> {
        deserializer.deserialize_option(OptionVisitor).map(|bytes| bytes.map(T::from))
    }

    struct OptionVisitor;

    impl<'de> Visitor<'de> for OptionVisitor {
        type Value = Option<Vec<u8>>;

        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("null or a base64 string")
        }

        fn visit_none<E: de::Error>(self) -> Result<Option<Vec<u8>>, E> {
            Ok(None)
        }

        fn visit_unit<E: de::Error>(self) -> Result<Option<Vec<u8>>, E> {
            Ok(None)
        }

        fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Option<Vec<u8>>, D::Error> {
            super::deserialize(deserializer).map(Some)
        }
    }
}
