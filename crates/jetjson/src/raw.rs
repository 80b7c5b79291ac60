//! Already-serialized JSON embedded without decoding it.
//!
//! The message-bus case: an envelope around a payload that is already JSON.
//! `compact` copies the bytes as they are (serde_json's `RawValue` does the
//! same); `go` treats them as Go treats `json.RawMessage` (whitespace removed
//! or re-indented, escapes and number spellings kept, `<>&` and U+2028/9
//! escaped when HTML escaping is on); `jcs` parses and canonicalizes them.

use std::borrow::Cow;

use serde::de::{self, Deserialize, Deserializer, MapAccess};
use serde::ser::{Serialize, Serializer};

use crate::error::Result;
use crate::parse::{self, NumberToken, ReadOptions, Visitor};
use crate::writer::{Sink, Writer};

/// The newtype name under which raw JSON travels through serde.
pub(crate) const RAW_TOKEN: &str = "$jetjson::private::RawJson";

/// A piece of JSON text, borrowed or owned.
///
/// Read, it borrows from the input: it is not `DeserializeOwned`, even as
/// [`OwnedRawJson`] (unlike serde_json's `Box<RawValue>`), so a struct with
/// a `RawJson` field is read with `from_slice`/`from_str`, not
/// `from_reader` or `from_value` (read a `Value` there instead).
#[derive(Clone)]
pub struct RawJson<'a> {
    json: Cow<'a, [u8]>,
    /// The bytes are known to be UTF-8 (validated, or given as text), so
    /// writing them needs no second pass to check (`Serialize`).
    utf8: bool,
}

// Equal, hashed and shown by their bytes alone (`utf8` only says what is
// already known about them).
impl PartialEq for RawJson<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.json == other.json
    }
}

impl Eq for RawJson<'_> {}

impl std::hash::Hash for RawJson<'_> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.json.hash(state);
    }
}

impl std::fmt::Debug for RawJson<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RawJson").field("json", &self.json).finish()
    }
}

/// Raw JSON that owns its bytes.
pub type OwnedRawJson = RawJson<'static>;

/// What [`RawJson::from_unchecked`] takes: JSON as text or as bytes,
/// borrowed or owned.
pub struct RawText<'a>(Cow<'a, [u8]>, /* given as text (UTF-8) */ bool);

impl<'a> From<&'a str> for RawText<'a> {
    fn from(text: &'a str) -> RawText<'a> {
        RawText(Cow::Borrowed(text.as_bytes()), true)
    }
}

impl From<String> for RawText<'_> {
    fn from(text: String) -> RawText<'static> {
        RawText(Cow::Owned(text.into_bytes()), true)
    }
}

impl<'a> From<Cow<'a, str>> for RawText<'a> {
    fn from(text: Cow<'a, str>) -> RawText<'a> {
        match text {
            Cow::Borrowed(t) => RawText::from(t),
            Cow::Owned(t) => RawText::from(t),
        }
    }
}

impl<'a> From<&'a [u8]> for RawText<'a> {
    fn from(bytes: &'a [u8]) -> RawText<'a> {
        RawText(Cow::Borrowed(bytes), false)
    }
}

impl<'a, const N: usize> From<&'a [u8; N]> for RawText<'a> {
    fn from(bytes: &'a [u8; N]) -> RawText<'a> {
        RawText(Cow::Borrowed(bytes), false)
    }
}

impl<'a> From<&'a Vec<u8>> for RawText<'a> {
    fn from(bytes: &'a Vec<u8>) -> RawText<'a> {
        RawText(Cow::Borrowed(bytes), false)
    }
}

impl From<Vec<u8>> for RawText<'_> {
    fn from(bytes: Vec<u8>) -> RawText<'static> {
        RawText(Cow::Owned(bytes), false)
    }
}

impl<'a> From<Cow<'a, [u8]>> for RawText<'a> {
    fn from(bytes: Cow<'a, [u8]>) -> RawText<'a> {
        RawText(bytes, false)
    }
}

impl<'a> RawJson<'a> {
    /// Validates `json` (strict RFC 8259, one value, with the default
    /// [`ReadOptions`]: a name twice in one object is an error, as in
    /// `from_slice`) and borrows it.
    pub fn new(json: &'a str) -> Result<RawJson<'a>> {
        RawJson::from_slice(json.as_bytes())
    }

    /// Validates `json` with the default [`ReadOptions`] and borrows it.
    pub fn from_slice(json: &'a [u8]) -> Result<RawJson<'a>> {
        RawJson::from_slice_with(json, &ReadOptions::default())
    }

    /// Validates `json` with `options` (for example
    /// `duplicate_keys(DuplicateKeys::Last)` to accept repeated names, which
    /// readers then resolve differently) and borrows it.
    ///
    /// [`DuplicateKeys::Last`]: crate::DuplicateKeys::Last
    pub fn from_slice_with(json: &'a [u8], options: &ReadOptions) -> Result<RawJson<'a>> {
        parse::validate(json, options)?;
        // Valid JSON is UTF-8.
        Ok(RawJson { json: Cow::Borrowed(json), utf8: true })
    }

    /// Trusts that `json` is valid JSON without looking at it: text
    /// (`&str`, `String`) or bytes (`&[u8]`, `Vec<u8>`). Invalid bytes are
    /// copied into `compact` output as they are; `go` and `jcs` still
    /// parse them and fail on invalid JSON.
    ///
    /// ```
    /// use jetjson::{RawJson, WriteOptions};
    /// let payload = RawJson::from_unchecked(r#"{"b": 1, "a": 2}"#);
    /// let envelope = ("event", payload);
    /// assert_eq!(jetjson::to_string(&envelope).unwrap(), r#"["event",{"b": 1, "a": 2}]"#);
    /// assert_eq!(jetjson::to_string_with(&envelope, &WriteOptions::jcs()).unwrap(), r#"["event",{"a":2,"b":1}]"#);
    /// let from_bytes = RawJson::from_unchecked(b"[1]".to_vec());
    /// assert_eq!(from_bytes.as_bytes(), b"[1]");
    /// ```
    pub fn from_unchecked(json: impl Into<RawText<'a>>) -> RawJson<'a> {
        let RawText(json, utf8) = json.into();
        RawJson { json, utf8 }
    }

    /// The JSON text's bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.json
    }

    /// The same JSON, owning its bytes.
    pub fn into_owned(self) -> OwnedRawJson {
        RawJson { json: Cow::Owned(self.json.into_owned()), utf8: self.utf8 }
    }
}

impl OwnedRawJson {
    /// Validates `json` and takes ownership of it.
    pub fn from_string(json: String) -> Result<OwnedRawJson> {
        RawJson::from_vec(json.into_bytes())
    }

    /// Validates `json` with the default [`ReadOptions`] and takes ownership of it.
    pub fn from_vec(json: Vec<u8>) -> Result<OwnedRawJson> {
        parse::validate(&json, &ReadOptions::default())?;
        Ok(RawJson { json: Cow::Owned(json), utf8: true })
    }
}

impl Serialize for RawJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        if self.utf8 {
            // SAFETY: `utf8` is set only for bytes checked as JSON (which is
            // UTF-8), made by the compact writer, or given as `str`/`String`.
            let text = unsafe { std::str::from_utf8_unchecked(&self.json) };
            return s.serialize_newtype_struct(RAW_TOKEN, text);
        }
        match std::str::from_utf8(&self.json) {
            Ok(text) => s.serialize_newtype_struct(RAW_TOKEN, text),
            Err(_) => s.serialize_newtype_struct(RAW_TOKEN, &serde_bytes_ref(&self.json)),
        }
    }
}

/// Read from jetjson's deserializer, the JSON text of the value as it is in
/// the input, borrowed from it (checked by the parser with the
/// deserializer's options; `parse/door.rs`). From any other deserializer,
/// the value read as a `Value` and written in the `compact` profile.
impl<'de: 'a, 'a> Deserialize<'de> for RawJson<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<RawJson<'a>, D::Error> {
        d.deserialize_newtype_struct(RAW_TOKEN, RawVisitor(std::marker::PhantomData))
    }
}

struct RawVisitor<'a>(std::marker::PhantomData<&'a ()>);

impl<'de: 'a, 'a> de::Visitor<'de> for RawVisitor<'a> {
    type Value = RawJson<'a>;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("any JSON value")
    }

    /// jetjson's deserializer: one member, the private name and the bytes.
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<RawJson<'a>, A::Error> {
        match map.next_key::<RawKey>()? {
            Some(RawKey) => {
                let RawBytes(json, utf8) = map.next_value::<RawBytes<'a>>()?;
                Ok(RawJson { json, utf8 })
            }
            None => Err(de::Error::invalid_type(de::Unexpected::Map, &self)),
        }
    }

    /// Any other deserializer (or jetjson's reading an invalid value the
    /// generic way, which then fails with the error's position).
    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> std::result::Result<RawJson<'a>, D::Error> {
        let value = crate::Value::deserialize(d)?;
        let bytes = value.to_vec_with(&crate::WriteOptions::compact()).map_err(de::Error::custom)?;
        // The compact profile writes UTF-8.
        Ok(RawJson { json: Cow::Owned(bytes), utf8: true })
    }
}

/// The private member name of jetjson's raw map, and nothing else.
struct RawKey;

impl<'de> Deserialize<'de> for RawKey {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<RawKey, D::Error> {
        struct KeyVisitor;
        impl de::Visitor<'_> for KeyVisitor {
            type Value = RawKey;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("raw JSON")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> std::result::Result<RawKey, E> {
                if s == RAW_TOKEN {
                    Ok(RawKey)
                } else {
                    Err(de::Error::invalid_value(de::Unexpected::Str(s), &self))
                }
            }
        }
        d.deserialize_identifier(KeyVisitor)
    }
}

/// The raw bytes, borrowed when the deserializer lends them, and whether
/// they came as text (UTF-8).
struct RawBytes<'a>(Cow<'a, [u8]>, bool);

impl<'de: 'a, 'a> Deserialize<'de> for RawBytes<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<RawBytes<'a>, D::Error> {
        struct BytesVisitor<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> de::Visitor<'de> for BytesVisitor<'a> {
            type Value = RawBytes<'a>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("raw JSON bytes")
            }
            fn visit_borrowed_bytes<E: de::Error>(self, b: &'de [u8]) -> std::result::Result<RawBytes<'a>, E> {
                Ok(RawBytes(Cow::Borrowed(b), false))
            }
            fn visit_bytes<E: de::Error>(self, b: &[u8]) -> std::result::Result<RawBytes<'a>, E> {
                Ok(RawBytes(Cow::Owned(b.to_vec()), false))
            }
            fn visit_borrowed_str<E: de::Error>(self, s: &'de str) -> std::result::Result<RawBytes<'a>, E> {
                Ok(RawBytes(Cow::Borrowed(s.as_bytes()), true))
            }
            fn visit_str<E: de::Error>(self, s: &str) -> std::result::Result<RawBytes<'a>, E> {
                Ok(RawBytes(Cow::Owned(s.as_bytes().to_vec()), true))
            }
        }
        d.deserialize_bytes(BytesVisitor(std::marker::PhantomData))
    }
}

/// Serializes as `serialize_bytes` (what the raw token expects for non-UTF-8 bytes).
fn serde_bytes_ref(b: &[u8]) -> impl Serialize + '_ {
    struct Bytes<'a>(&'a [u8]);
    impl Serialize for Bytes<'_> {
        fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
            s.serialize_bytes(self.0)
        }
    }
    Bytes(b)
}

/// Re-emits raw JSON token by token in Go's `json.RawMessage` form.
///
/// The text may nest as deep as the room left below the writer's
/// `max_write_depth` (deeper is that limit's error, as in `jcs`): with an
/// indent, each level of the text is a level of the output's layout.
pub(crate) fn write_go_compact<S: Sink>(w: &mut Writer<S>, json: &[u8], escape_html: bool) -> Result<()> {
    let room = w.style().max_write_depth.saturating_sub(w.depth());
    // Numbers are copied as spelled, and Go's scanner checks only their
    // syntax: `1e400` is kept (lossless numbers: beyond the double range
    // accepted as text), as Go writes it.
    let options = ReadOptions::default().duplicate_keys(parse::DuplicateKeys::Last).max_depth(room).lossless_numbers(true);
    let mut v = GoCompact { w, escape_html, open: Vec::new() };
    match parse::parse(json, &options, &mut v) {
        Err(e) if matches!(e.kind(), crate::ErrorKind::DepthLimit { .. }) => Err(v.w.too_deep()),
        other => other,
    }
}

struct GoCompact<'w, S: Sink> {
    w: &'w mut Writer<S>,
    escape_html: bool,
    /// Per open container: (is array, members so far).
    open: Vec<(bool, usize)>,
}

impl<S: Sink> GoCompact<'_, S> {
    fn before_value(&mut self) {
        if let Some((true, n)) = self.open.last_mut() {
            self.w.array_item(*n == 0);
            *n += 1;
        }
    }

    /// Contents of a string as written in the source, with Go's HTML escapes.
    fn string_contents(&mut self, raw: &str) {
        if !self.escape_html {
            self.w.verbatim(raw.as_bytes());
            return;
        }
        let b = raw.as_bytes();
        let mut run = 0;
        let mut i = 0;
        while i < b.len() {
            let escape: Option<(&[u8], usize)> = match b[i] {
                b'<' => Some((b"\\u003c", 1)),
                b'>' => Some((b"\\u003e", 1)),
                b'&' => Some((b"\\u0026", 1)),
                0xE2 if b.get(i + 1) == Some(&0x80) && b.get(i + 2) == Some(&0xA8) => Some((b"\\u2028", 3)),
                0xE2 if b.get(i + 1) == Some(&0x80) && b.get(i + 2) == Some(&0xA9) => Some((b"\\u2029", 3)),
                _ => None,
            };
            if let Some((esc, len)) = escape {
                self.w.verbatim(&b[run..i]);
                self.w.verbatim(esc);
                i += len;
                run = i;
            } else {
                i += 1;
            }
        }
        self.w.verbatim(&b[run..]);
    }
}

impl<S: Sink> Visitor for GoCompact<'_, S> {
    fn null(&mut self) -> Result<()> {
        self.before_value();
        self.w.null();
        Ok(())
    }
    fn bool(&mut self, v: bool) -> Result<()> {
        self.before_value();
        self.w.bool(v);
        Ok(())
    }
    fn number(&mut self, n: NumberToken<'_>) -> Result<()> {
        // Go keeps a RawMessage's number spelling (`1.0E+02` stays).
        self.before_value();
        self.w.verbatim(n.text.as_bytes());
        Ok(())
    }
    fn string(&mut self, _: &str, raw: &str) -> Result<()> {
        self.before_value();
        self.w.verbatim(b"\"");
        self.string_contents(raw);
        self.w.verbatim(b"\"");
        Ok(())
    }
    fn begin_array(&mut self) -> Result<()> {
        self.before_value();
        self.w.begin_array();
        self.open.push((true, 0));
        Ok(())
    }
    fn end_array(&mut self) -> Result<()> {
        let (_, n) = self.open.pop().unwrap_or_default();
        self.w.end_array(n == 0);
        Ok(())
    }
    fn begin_object(&mut self) -> Result<()> {
        self.before_value();
        self.w.begin_object();
        self.open.push((false, 0));
        Ok(())
    }
    fn key(&mut self, _: &str, raw: &str) -> Result<()> {
        if let Some((_, n)) = self.open.last_mut() {
            let first = *n == 0;
            *n += 1;
            self.w.array_item(first);
        }
        self.w.verbatim(b"\"");
        self.string_contents(raw);
        self.w.verbatim(b"\"");
        self.w.colon();
        Ok(())
    }
    fn end_object(&mut self) -> Result<()> {
        let (_, n) = self.open.pop().unwrap_or_default();
        self.w.end_object(n == 0);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hash(r: &RawJson<'_>) -> u64 {
        use std::hash::{BuildHasher, BuildHasherDefault, DefaultHasher};
        BuildHasherDefault::<DefaultHasher>::default().hash_one(r)
    }

    /// Which raw texts are known to be UTF-8 (and so written without a
    /// second pass): checked ones, text, what jetjson's deserializer lends;
    /// not bytes taken unchecked.
    #[test]
    fn raw_text_knows_when_its_bytes_are_utf8() {
        let text = r#"{"a":[1,"é"]}"#;
        assert!(RawJson::from_slice(text.as_bytes()).unwrap().utf8);
        assert!(OwnedRawJson::from_vec(text.as_bytes().to_vec()).unwrap().utf8);
        assert!(RawJson::from_unchecked(text).utf8);
        assert!(RawJson::from_unchecked(text.to_owned()).utf8);
        assert!(RawJson::from_unchecked(text).into_owned().utf8);
        assert!(!RawJson::from_unchecked(text.as_bytes()).utf8);
        assert!(!RawJson::from_unchecked(text.as_bytes().to_vec()).utf8);
        #[derive(serde::Deserialize)]
        struct Envelope<'a> {
            #[serde(borrow)]
            data: RawJson<'a>,
        }
        let input = format!(r#"{{"data": {text}}}"#);
        let env: Envelope<'_> = crate::from_str(&input).unwrap();
        assert_eq!(env.data.as_bytes(), text.as_bytes());
        assert!(env.data.utf8, "lent by jetjson's deserializer as text");
        let env: Envelope<'_> = serde_json::from_str(&input).unwrap();
        assert!(env.data.utf8, "made by the compact writer");
    }

    /// The flag changes nothing else: equality, hashing, `Debug` and the
    /// bytes written are those of the bytes alone.
    #[test]
    fn raw_text_is_its_bytes_whatever_is_known() {
        let text = r#"{"a":[1,"é"]}"#;
        let (known, unknown) = (RawJson::from_unchecked(text), RawJson::from_unchecked(text.as_bytes()));
        assert_eq!(known, unknown);
        assert_eq!(hash(&known), hash(&unknown));
        assert_eq!(format!("{known:?}"), format!("{unknown:?}"));
        for r in [&known, &unknown, &RawJson::from_slice(text.as_bytes()).unwrap()] {
            assert_eq!(crate::to_vec(&[r]).unwrap(), format!("[{text}]").into_bytes());
            // A foreign serializer gets the text (a JSON string there).
            assert_eq!(serde_json::to_string(r).unwrap(), serde_json::to_string(text).unwrap());
        }
        // Bytes that are not UTF-8, unchecked: compact copies them as they are.
        let bad = RawJson::from_unchecked(&b"\"\xff\""[..]);
        assert_eq!(crate::to_vec(&bad).unwrap(), b"\"\xff\"");
    }
}
