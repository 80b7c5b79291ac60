//! Already-serialized JSON embedded without decoding it.
//!
//! The message-bus case: an envelope around a payload that is already JSON.
//! `compact` copies the bytes as they are (serde_json's `RawValue` does the
//! same) unless an option that changes strings or key order must hold inside
//! them (`ascii_only`, `escape_html`, `sort_keys`); `go` treats them as Go
//! treats `json.RawMessage` (whitespace removed or re-indented, escapes and
//! number spellings kept, `<>&` and U+2028/9 escaped when HTML escaping is
//! on), and so does `compact` with those options, each applied inside the
//! text; `jcs` parses and canonicalizes them.

use std::borrow::Cow;

use serde::de::{self, Deserialize, Deserializer, MapAccess};
use serde::ser::{Serialize, Serializer};

use crate::error::Result;
use crate::escape::EscapeSet;
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

/// Re-emits raw JSON token by token (`RawPolicy::Relaid`): Go's
/// `json.RawMessage` form, and `compact`'s when an output option must hold
/// inside the text too.
///
/// Whitespace goes (or follows the indent), number spellings and the
/// escapes already in the text stay, and what the writer's escape set
/// escapes that the text writes plainly is escaped (`<>&`, U+2028/9,
/// non-ASCII and DEL under `ascii_only`; U+2028/9 with the HTML
/// set, as Go's `compact` does). With `sort_keys`, each object's
/// members are put in UTF-8 order of their decoded keys (stable, so
/// repeated keys keep their order), which needs the whole text read first.
///
/// The text may nest as deep as the room left below the writer's
/// `max_write_depth` (deeper is that limit's error, as in `jcs`): with an
/// indent, each level of the text is a level of the output's layout.
pub(crate) fn write_relaid<S: Sink>(w: &mut Writer<S>, json: &[u8], sort_keys: bool) -> Result<()> {
    let room = w.style().max_write_depth.saturating_sub(w.depth());
    // Numbers are copied as spelled, and Go's scanner checks only their
    // syntax: `1e400` is kept (lossless numbers: beyond the double range
    // accepted as text), as Go writes it.
    let options = ReadOptions::default().duplicate_keys(parse::DuplicateKeys::Last).max_depth(room).lossless_numbers(true);
    let set = w.style().escaper.set();
    let parsed = if sort_keys {
        // Writing the tree, and dropping it (written, or after an error
        // late in the text), recurse once per level of the text: all of it
        // with room on the stack for as many levels.
        crate::stack::with_room_for(room, || {
            let mut tree = Tree { json, set, open: Vec::new(), done: None };
            let parsed = parse::parse(json, &options, &mut tree);
            if let (Ok(()), Some(node)) = (&parsed, tree.done.take()) {
                node.write(w, json);
            }
            parsed
        })
    } else {
        let mut v = Relay { w: &mut *w, set, open: Vec::new() };
        parse::parse(json, &options, &mut v)
    };
    match parsed {
        Err(e) if matches!(e.kind(), crate::ErrorKind::DepthLimit { .. }) => Err(w.too_deep()),
        other => other,
    }
}

/// A string's contents as written in the source, with the escapes `set`
/// asks for that the source does not have, handed to `put` in pieces (runs
/// of the source and escapes): nothing is copied on the way.
fn relaid_contents(raw: &str, set: EscapeSet, mut put: impl FnMut(&[u8]) -> Result<()>) -> Result<()> {
    let escaped = |c: char| match c {
        '<' | '>' | '&' => set.html,
        // With the HTML set, as Go's `compact` escapes a RawMessage (its
        // strings' U+2028/9 are escaped even without, a RawMessage's not).
        '\u{2028}' | '\u{2029}' => set.html || set.ascii_only,
        '\u{7f}'.. => set.ascii_only,
        _ => false,
    };
    let mut run = 0;
    for (i, c) in raw.char_indices() {
        if !escaped(c) {
            continue;
        }
        put(&raw.as_bytes()[run..i])?;
        let mut units = [0u16; 2];
        for unit in c.encode_utf16(&mut units) {
            let hex = b"0123456789abcdef";
            let u = *unit as usize;
            put(&[b'\\', b'u', hex[u >> 12], hex[(u >> 8) & 15], hex[(u >> 4) & 15], hex[u & 15]])?;
        }
        run = i + c.len_utf8();
    }
    put(&raw.as_bytes()[run..])
}

/// The streaming form: each token written as it is read.
struct Relay<'w, S: Sink> {
    w: &'w mut Writer<S>,
    set: EscapeSet,
    /// Per open container: (is array, members so far).
    open: Vec<(bool, usize)>,
}

impl<S: Sink> Relay<'_, S> {
    fn before_value(&mut self) {
        if let Some((true, n)) = self.open.last_mut() {
            self.w.array_item(*n == 0);
            *n += 1;
        }
    }

    fn quoted(&mut self, raw: &str) {
        self.w.verbatim(b"\"");
        let w = &mut *self.w;
        let _ = relaid_contents(raw, self.set, |piece| {
            w.verbatim(piece);
            Ok(())
        });
        self.w.verbatim(b"\"");
    }
}

impl<S: Sink> Visitor for Relay<'_, S> {
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
        self.quoted(raw);
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
        self.quoted(raw);
        self.w.colon();
        Ok(())
    }
    fn end_object(&mut self) -> Result<()> {
        let (_, n) = self.open.pop().unwrap_or_default();
        self.w.end_object(n == 0);
        Ok(())
    }
}

/// A text read whole, for `sort_keys`: leaves hold their written form.
enum Node {
    /// A number, literal or string written as it is in the text: its place
    /// there (no copy: a number or string may be most of a large text).
    Span(usize, usize),
    /// A literal, or a string with escapes added (quotes included).
    Leaf(Box<str>),
    Array(Vec<Node>),
    Object(Vec<Member>),
}

struct Member {
    /// The decoded key, which orders the members.
    key: String,
    /// The key as it is written (quotes included).
    written: Node,
    value: Node,
}

impl Node {
    fn write<S: Sink>(self, w: &mut Writer<S>, json: &[u8]) {
        match self {
            Node::Span(start, end) => w.verbatim(&json[start..end]),
            Node::Leaf(text) => w.verbatim(text.as_bytes()),
            Node::Array(items) => {
                w.begin_array();
                let empty = items.is_empty();
                for (i, item) in items.into_iter().enumerate() {
                    w.array_item(i == 0);
                    item.write(w, json);
                }
                w.end_array(empty);
            }
            Node::Object(mut members) => {
                members.sort_by(|a, b| a.key.as_bytes().cmp(b.key.as_bytes()));
                w.begin_object();
                let empty = members.is_empty();
                for (i, m) in members.into_iter().enumerate() {
                    w.array_item(i == 0);
                    m.written.write(w, json);
                    w.colon();
                    m.value.write(w, json);
                }
                w.end_object(empty);
            }
        }
    }
}

/// Builds the `Node` tree of a text.
struct Tree<'a> {
    json: &'a [u8],
    set: EscapeSet,
    /// Open containers; an object's holds the key read last (decoded and
    /// written) until its value is done.
    open: Vec<(Node, Option<(String, Node)>)>,
    done: Option<Node>,
}

impl Tree<'_> {
    /// Where `text` (a slice of the text being read) lies in it, widened by
    /// `around` bytes each side (a string's quotes).
    fn span(&self, text: &str, around: usize) -> Option<Node> {
        let start = (text.as_ptr() as usize).checked_sub(self.json.as_ptr() as usize)?.checked_sub(around)?;
        let end = start + text.len() + 2 * around;
        let quoted = around == 0 || (self.json.get(start) == Some(&b'"') && self.json.get(end - 1) == Some(&b'"'));
        (end <= self.json.len() && quoted).then_some(Node::Span(start, end))
    }

    /// A string as it is written, with the escapes the set adds: its place
    /// in the text when it needs none, else a copy grown fallibly (out of
    /// memory is an error, not an abort).
    fn quoted(&self, raw: &str) -> Result<Node> {
        // One piece: nothing to escape.
        let mut pieces = 0;
        relaid_contents(raw, self.set, |_| {
            pieces += 1;
            Ok(())
        })?;
        if pieces == 1 {
            if let Some(span) = self.span(raw, 1) {
                return Ok(span);
            }
        }
        let mut out = Vec::new();
        let mut put = |piece: &[u8]| -> Result<()> {
            out.try_reserve(piece.len()).map_err(|_| out_of_memory())?;
            out.extend_from_slice(piece);
            Ok(())
        };
        put(b"\"")?;
        relaid_contents(raw, self.set, &mut put)?;
        put(b"\"")?;
        // Valid UTF-8: the text's own pieces and ASCII escapes.
        Ok(Node::Leaf(String::from_utf8(out).unwrap_or_default().into_boxed_str()))
    }

    /// Puts a finished node in the container open last (or makes it the
    /// document), growing memory fallibly: out of memory is an error.
    fn add(&mut self, node: Node) -> Result<()> {
        match self.open.last_mut() {
            None => self.done = Some(node),
            Some((Node::Array(items), _)) => {
                items.try_reserve(1).map_err(|_| out_of_memory())?;
                items.push(node);
            }
            Some((Node::Object(members), key)) => {
                let (key, written) = key.take().unwrap_or_else(|| (String::new(), Node::Leaf("\"\"".into())));
                members.try_reserve(1).map_err(|_| out_of_memory())?;
                members.push(Member { key, written, value: node });
            }
            Some((Node::Leaf(_) | Node::Span(..), _)) => {}
        }
        Ok(())
    }

    fn open(&mut self, node: Node) -> Result<()> {
        self.open.try_reserve(1).map_err(|_| out_of_memory())?;
        self.open.push((node, None));
        Ok(())
    }

    fn close(&mut self) -> Result<()> {
        match self.open.pop() {
            Some((node, _)) => self.add(node),
            None => Ok(()),
        }
    }
}

fn out_of_memory() -> crate::Error {
    crate::Error::new(crate::ErrorKind::OutOfMemory)
}

impl Visitor for Tree<'_> {
    fn null(&mut self) -> Result<()> {
        self.add(Node::Leaf("null".into()))
    }
    fn bool(&mut self, v: bool) -> Result<()> {
        self.add(Node::Leaf(if v { "true" } else { "false" }.into()))
    }
    fn number(&mut self, n: NumberToken<'_>) -> Result<()> {
        let node = match self.span(n.text, 0) {
            Some(span) => span,
            None => Node::Leaf(n.text.into()),
        };
        self.add(node)
    }
    fn string(&mut self, _: &str, raw: &str) -> Result<()> {
        let node = self.quoted(raw)?;
        self.add(node)
    }
    fn begin_array(&mut self) -> Result<()> {
        self.open(Node::Array(Vec::new()))
    }
    fn end_array(&mut self) -> Result<()> {
        self.close()
    }
    fn begin_object(&mut self) -> Result<()> {
        self.open(Node::Object(Vec::new()))
    }
    fn key(&mut self, k: &str, raw: &str) -> Result<()> {
        let written = self.quoted(raw)?;
        let mut decoded = String::new();
        decoded.try_reserve_exact(k.len()).map_err(|_| out_of_memory())?;
        decoded.push_str(k);
        if let Some((_, key)) = self.open.last_mut() {
            *key = Some((decoded, written));
        }
        Ok(())
    }
    fn end_object(&mut self) -> Result<()> {
        self.close()
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
