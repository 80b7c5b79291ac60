//! Output profiles and options.
//!
//! A profile is *data*: `WriteOptions::style()` resolves the profile and the
//! options once per call into a `Style` (escape set, key order, number layout,
//! invalid-text policy, ...). The writer reads the style; it has no per-profile
//! code paths of its own.

use crate::error::{Error, ErrorKind, Result};
use crate::escape::{EscapeSet, Escaper};
use crate::number::FloatLayout;

/// Which conventions the output follows byte for byte.
///
/// # Numbers
///
/// One model for every front end (Rust, the CLI, Python):
///
/// * Integers are exact at any size in `Compact` and `Go`: `i64`/`u64`,
///   `i128`/`u128` and integer literal text (a `Value`'s `Number::Big`, a
///   Python int) are written digit for digit, as Go writes a `*big.Int` or
///   a `json.Number`. A double in [2^64, 1e21), which `Go` writes as an
///   integer (`1e20` → `100000000000000000000`), so reads back as an exact
///   integer and is written the same again.
/// * `Jcs` writes every number as an IEEE double: ECMAScript's rounding
///   beyond ±2^53 (an error instead with
///   [`WriteOptions::jcs_strict_integers`]), and an error for a number no
///   double stands for.
/// * Doubles are written with their shortest round-trip digits in the
///   profile's layout: -0.0 is `-0.0` in `Compact`, `-0` in `Go`, `0` in
///   `Jcs`. NaN and ±Infinity are errors (`null` in `Compact` on request).
/// * Number text given as such (a lossless `Value`, a Python `Decimal`) is
///   written as it is in `Compact` and `Go`, as its nearest double in `Jcs`.
///
/// Reading ([`crate::ReadOptions`]): the integer literal `-0` is the double
/// -0.0, as serde_json reads it (`negative_zero_int` reads it as the int 0,
/// as Python does); a literal beyond the double range (`1e400`) is refused
/// with its position unless numbers are read losslessly; every literal is
/// correctly rounded whatever its length or exponent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Profile {
    /// Minimal JSON, identical to serde_json and orjson for the values they share.
    #[default]
    Compact,
    /// The bytes Go's `encoding/json` `Marshal` writes (OCI/Docker digests).
    ///
    /// A Go `[]byte` is written as a base64 string, but serde hands a
    /// `Vec<u8>` to every serializer as a list of numbers (`[1,2,3]`);
    /// mark such fields `#[serde(with = "jetjson::base64")]` to write
    /// Go's bytes (see [`crate::base64`]). Byte slices serialized as bytes
    /// (`serialize_bytes`, e.g. through `serde_bytes`) are base64 in this
    /// profile already.
    Go,
    /// RFC 8785 JSON Canonicalization Scheme (signatures).
    Jcs,
}

impl Profile {
    /// The profile's name: `compact`, `go` or `jcs`.
    pub fn name(self) -> &'static str {
        match self {
            Profile::Compact => "compact",
            Profile::Go => "go",
            Profile::Jcs => "jcs",
        }
    }
}

impl std::str::FromStr for Profile {
    type Err = String;
    fn from_str(s: &str) -> Result<Profile, String> {
        match s {
            "compact" => Ok(Profile::Compact),
            "go" => Ok(Profile::Go),
            "jcs" => Ok(Profile::Jcs),
            other => Err(format!("unknown profile {other:?} (expected compact, go or jcs)")),
        }
    }
}

/// What to do with NaN and ±Infinity.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum NonFinite {
    /// Fail (the default in every profile).
    #[default]
    Error,
    /// Write `null`, as serde_json and JavaScript do (`compact` only; `go` and
    /// `jcs` always fail, as Go and RFC 8785 require).
    Null,
}

/// The widest indent, in spaces, that [`WriteOptions::indent`] accepts.
///
/// Indented output grows by depth x indent bytes per line, so without a cap
/// a 1.4 KB document nested 511 deep written with an indent of 65535 is
/// 15 GB. Go and Python accept any indent, but nobody needs more than 16.
pub const MAX_INDENT: u16 = 16;

/// The default of [`WriteOptions::max_write_depth`]: 512 levels, the same
/// as [`ReadOptions`](crate::ReadOptions)' default `max_depth`, so what is
/// read with the defaults can be written with the defaults. Every front end
/// (the CLI's `--max-write-depth`, Python's `max_write_depth=`, C's
/// `jetjson_write_options.max_write_depth`) has this default.
pub const DEFAULT_MAX_WRITE_DEPTH: usize = 512;

/// The largest [`WriteOptions::max_write_depth`] accepted (a million
/// levels). Writing a `Value` recurses once per level; the writer runs on a
/// stack grown to fit the limit, so the limit must stay finite.
pub const MAX_WRITE_DEPTH: usize = 1_000_000;

/// Options for writing. Start from a profile, then adjust (numbers follow
/// the model described at [`Profile`]):
///
/// ```
/// use jetjson::{WriteOptions, Profile};
/// let opts = WriteOptions::new(Profile::Go).indent(2).escape_html(false);
/// assert_eq!(jetjson::to_string_with(&vec!["<b>"], &opts).unwrap(), "[\n  \"<b>\"\n]");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct WriteOptions {
    profile: Profile,
    sort_keys: Option<bool>,
    indent: u16,
    indent_tabs: bool,
    ascii_only: bool,
    escape_html: Option<bool>,
    non_finite: NonFinite,
    jcs_strict_integers: bool,
    zero_buffers: bool,
    max_write_depth: usize,
}

impl Default for WriteOptions {
    fn default() -> WriteOptions {
        WriteOptions {
            profile: Profile::default(),
            sort_keys: None,
            indent: 0,
            ascii_only: false,
            escape_html: None,
            non_finite: NonFinite::default(),
            jcs_strict_integers: false,
            zero_buffers: false,
            indent_tabs: false,
            max_write_depth: DEFAULT_MAX_WRITE_DEPTH,
        }
    }
}

impl WriteOptions {
    /// The defaults of `profile`.
    pub fn new(profile: Profile) -> WriteOptions {
        WriteOptions { profile, ..WriteOptions::default() }
    }
    /// The defaults of [`Profile::Compact`].
    pub fn compact() -> WriteOptions {
        WriteOptions::new(Profile::Compact)
    }
    /// The defaults of [`Profile::Go`].
    pub fn go() -> WriteOptions {
        WriteOptions::new(Profile::Go)
    }
    /// The defaults of [`Profile::Jcs`].
    pub fn jcs() -> WriteOptions {
        WriteOptions::new(Profile::Jcs)
    }

    /// `true`: every object (maps and structs) is sorted by the UTF-8 bytes of
    /// its keys. `false`: every object keeps its order, also maps in `go`.
    /// Unset: the profile decides (`go` sorts maps and keeps struct field
    /// order, as Go does; `compact` keeps order). `jcs` always sorts by UTF-16
    /// code units, as RFC 8785 requires.
    pub fn sort_keys(mut self, sort: bool) -> Self {
        self.sort_keys = Some(sort);
        self
    }
    /// Pretty-print with this many spaces per level (0 = compact), in the
    /// layout of Go's `MarshalIndent`, serde_json's pretty printer and Python's
    /// `indent=`: `": "` after keys, empty containers stay `[]` / `{}`.
    ///
    /// At most [`MAX_INDENT`] (16) spaces. A wider indent is not clamped:
    /// every write with these options fails with
    /// [`ErrorKind::IndentLimit`], and no output is handed out (front ends
    /// can refuse it up front with [`WriteOptions::check`]).
    pub fn indent(mut self, spaces: u16) -> Self {
        self.indent = spaces;
        self.indent_tabs = false;
        self
    }

    /// Pretty-print as [`indent`](Self::indent) does, with this many tabs
    /// per level instead of spaces (Go's `MarshalIndent(v, "", "\t")`,
    /// Python's `indent="\t"`). The same cap of [`MAX_INDENT`] applies.
    pub fn indent_tabs(mut self, tabs: u16) -> Self {
        self.indent = tabs;
        self.indent_tabs = tabs > 0;
        self
    }

    /// Fails when these options cannot be written with (an indent over
    /// [`MAX_INDENT`], a `max_write_depth` of 0 or over [`MAX_WRITE_DEPTH`]);
    /// the same error every write with them returns.
    pub fn check(&self) -> Result<()> {
        if self.indent > MAX_INDENT {
            return Err(Error::new(ErrorKind::IndentLimit { indent: self.indent, limit: MAX_INDENT }));
        }
        if !(1..=MAX_WRITE_DEPTH).contains(&self.max_write_depth) {
            return Err(Error::new(ErrorKind::WriteDepthOption { depth: self.max_write_depth, ceiling: MAX_WRITE_DEPTH }));
        }
        Ok(())
    }

    /// The deepest nesting of arrays and objects written (default
    /// [`DEFAULT_MAX_WRITE_DEPTH`], 512; from 1 to [`MAX_WRITE_DEPTH`]).
    /// A value nested deeper fails with [`ErrorKind::WriteDepthLimit`]
    /// before its first container past the limit is opened. This holds for
    /// every write: `Value`s, serde types, and the Python and C writers.
    ///
    /// The limit is separate from [`ReadOptions`](crate::ReadOptions)'
    /// `max_depth`: a program that reads deeper documents than the default
    /// and writes them again raises both. Writing recurses once per level:
    /// when the thread's stack has less room than the limit needs (1 KiB a
    /// level, which covers a `Value` and the serde path), the write runs on
    /// a stack mapped for it, so a raised limit never overflows the stack.
    /// A serde type whose own `Serialize` code uses more than that per
    /// level needs a larger stack of its own.
    pub fn max_write_depth(mut self, depth: usize) -> Self {
        self.max_write_depth = depth;
        self
    }

    /// The limit set with [`WriteOptions::max_write_depth`].
    pub fn write_depth_limit(&self) -> usize {
        self.max_write_depth
    }
    /// Escape every non-ASCII character as `\uXXXX` (surrogate pairs above
    /// the BMP), and DEL (U+007F) as `\u007f`, as Python's `ensure_ascii` does.
    pub fn ascii_only(mut self, on: bool) -> Self {
        self.ascii_only = on;
        self
    }
    /// Escape `<`, `>`, `&` (and, outside `go`, U+2028/U+2029). Defaults to
    /// `true` in `go` (`false` gives `Encoder.SetEscapeHTML(false)` bytes,
    /// which still escape U+2028/9) and `false` elsewhere.
    pub fn escape_html(mut self, on: bool) -> Self {
        self.escape_html = Some(on);
        self
    }
    /// NaN/Infinity policy (only `compact` can write them, as `null`).
    pub fn non_finite(mut self, policy: NonFinite) -> Self {
        self.non_finite = policy;
        self
    }
    /// In `jcs`, fail on integers beyond ±2^53 instead of rounding them to the
    /// nearest double as ECMAScript does.
    pub fn jcs_strict_integers(mut self, on: bool) -> Self {
        self.jcs_strict_integers = on;
        self
    }

    /// Zero every buffer that held output before it is reused or freed (for
    /// payloads that hold secrets). Costs one extra pass over the output.
    pub fn zero_buffers(mut self, on: bool) -> Self {
        self.zero_buffers = on;
        self
    }

    /// Whether [`zero_buffers`](WriteOptions::zero_buffers) is on.
    pub fn zeroes_buffers(&self) -> bool {
        self.zero_buffers
    }

    /// The profile.
    pub fn profile(&self) -> Profile {
        self.profile
    }
    /// The indent, in spaces (0: no indentation).
    pub fn indent_width(&self) -> u16 {
        self.indent
    }

    /// Resolves the profile and options into the data the writer follows.
    #[doc(hidden)]
    pub fn style(&self) -> Style {
        let p = self.profile;
        let html = self.escape_html.unwrap_or(p == Profile::Go);
        let set = EscapeSet {
            html,
            // Go escapes U+2028/9 even with SetEscapeHTML(false); other
            // profiles treat them as part of the HTML/JS-safe set.
            line_separators: p == Profile::Go || html,
            ascii_only: self.ascii_only,
        };
        let (map_order, struct_order) = match (p, self.sort_keys) {
            (Profile::Jcs, _) => (KeyOrder::Utf16, KeyOrder::Utf16),
            (_, Some(true)) => (KeyOrder::Utf8, KeyOrder::Utf8),
            (_, Some(false)) => (KeyOrder::Insertion, KeyOrder::Insertion),
            (Profile::Go, None) => (KeyOrder::Utf8, KeyOrder::Insertion),
            (Profile::Compact, None) => (KeyOrder::Insertion, KeyOrder::Insertion),
        };
        Style {
            profile: p,
            escaper: Escaper::new(set),
            float_layout: match p {
                Profile::Compact => FloatLayout::Compact,
                Profile::Go => FloatLayout::Go,
                Profile::Jcs => FloatLayout::Jcs,
            },
            integers: match p {
                Profile::Compact | Profile::Go => IntegerPolicy::Exact,
                Profile::Jcs if self.jcs_strict_integers => IntegerPolicy::DoubleStrict,
                Profile::Jcs => IntegerPolicy::Double,
            },
            non_finite: if p == Profile::Compact { self.non_finite } else { NonFinite::Error },
            invalid_text: if p == Profile::Go { InvalidText::ReplacePerByte } else { InvalidText::Error },
            bytes: if p == Profile::Go { BytesPolicy::Base64 } else { BytesPolicy::Array },
            raw: match p {
                Profile::Jcs => RawPolicy::Canonicalize,
                // An option that changes strings or key order holds inside
                // raw text too; an indent alone leaves it as it is, as
                // serde_json and orjson do.
                Profile::Compact if !html && !self.ascii_only && self.sort_keys != Some(true) => RawPolicy::Verbatim,
                Profile::Compact | Profile::Go => RawPolicy::Relaid { sort_keys: self.sort_keys == Some(true) },
            },
            map_order,
            struct_order,
            indent: self.indent,
            indent_byte: if self.indent_tabs { b'\t' } else { b' ' },
            max_write_depth: self.max_write_depth,
        }
    }
}

/// An output option, as [`WriteOptions::inapplicable`] names it (each front
/// end spells it its own way: `--no-escape-html`, `escape_html=False`,
/// `JETJSON_HTML_OFF`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WriteOption {
    /// [`WriteOptions::escape_html`] set to this value.
    EscapeHtml(bool),
    /// [`WriteOptions::sort_keys`] set to this value (`false`: keep order).
    SortKeys(bool),
    /// A non-zero [`WriteOptions::indent`].
    Indent,
    /// [`WriteOptions::ascii_only`].
    AsciiOnly,
    /// [`NonFinite::Null`].
    NonFiniteNull,
}

/// An option set in vain: the profile fixes what it controls, or does it
/// already (see [`WriteOptions::inapplicable`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Inapplicable {
    /// The option set in vain.
    pub option: WriteOption,
    /// The profile that makes it so.
    pub profile: Profile,
    /// Why, for the error message (`"RFC 8785 fixes the layout"`).
    pub reason: &'static str,
}

impl WriteOptions {
    /// The first option set explicitly that cannot change this profile's
    /// output: one the profile fixes (`jcs` fixes layout, escaping, key
    /// order and numbers; `go` refuses NaN and infinities) or one that asks
    /// for what the profile does anyway (`escape_html(true)` in `go`,
    /// `escape_html(false)` or `sort_keys(false)` in `compact`).
    ///
    /// The writer itself ignores such options; the CLI, Python and C front
    /// ends refuse them with this rule, so a flag that does nothing never
    /// passes silently.
    ///
    /// ```
    /// use jetjson::{WriteOption, WriteOptions};
    /// assert_eq!(WriteOptions::compact().escape_html(false).inapplicable().unwrap().option, WriteOption::EscapeHtml(false));
    /// assert!(WriteOptions::go().escape_html(false).inapplicable().is_none());
    /// ```
    pub fn inapplicable(&self) -> Option<Inapplicable> {
        use WriteOption::*;
        let p = self.profile;
        let found = |option, reason| Some(Inapplicable { option, profile: p, reason });
        let null = self.non_finite == NonFinite::Null;
        match p {
            Profile::Jcs => {
                if self.indent > 0 {
                    return found(Indent, "RFC 8785 fixes the layout");
                }
                if self.ascii_only {
                    return found(AsciiOnly, "RFC 8785 fixes the escaping");
                }
                if let Some(on) = self.escape_html {
                    return found(EscapeHtml(on), "RFC 8785 fixes the escaping");
                }
                if let Some(sort) = self.sort_keys {
                    return found(SortKeys(sort), "RFC 8785 fixes the key order: UTF-16 code units");
                }
                if null {
                    return found(NonFiniteNull, "RFC 8785 has no NaN or infinity");
                }
            }
            Profile::Go => {
                if self.escape_html == Some(true) {
                    return found(EscapeHtml(true), "go escapes <, > and & already");
                }
                if null {
                    return found(NonFiniteNull, "Go refuses NaN and infinities");
                }
            }
            Profile::Compact => {
                if self.escape_html == Some(false) {
                    return found(EscapeHtml(false), "compact does not escape <, > and & to begin with");
                }
                if self.sort_keys == Some(false) {
                    return found(SortKeys(false), "compact keeps the key order already");
                }
            }
        }
        None
    }
}

/// How object members are ordered.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KeyOrder {
    /// As given (insertion or declaration order).
    Insertion,
    /// By the UTF-8 bytes of the unescaped key (= code point order): Go maps,
    /// serde_json's `BTreeMap`, Python's `sort_keys`.
    Utf8,
    /// By UTF-16 code units of the unescaped key: RFC 8785.
    Utf16,
}

/// How integers are written (see [`Profile`] for the number model).
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IntegerPolicy {
    /// Exact at any size: 64- and 128-bit integers and integer literal text
    /// (`Number::Big`, Python ints) digit for digit, as Go writes a
    /// `*big.Int` or a `json.Number` (`compact`, `go`).
    Exact,
    /// As IEEE doubles (ECMAScript): beyond ±2^53 rounded to the nearest double.
    Double,
    /// As IEEE doubles, but an error beyond ±2^53 rather than a rounded value.
    DoubleStrict,
}

/// What happens to text that is not valid UTF-8 (only reachable from byte-string input).
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum InvalidText {
    /// Go's rule: each byte `utf8.DecodeRune` rejects becomes `\ufffd`.
    ReplacePerByte,
    Error,
}

/// How byte slices (`serialize_bytes`) are written.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BytesPolicy {
    /// Padded standard base64 string, as Go writes `[]byte`.
    Base64,
    /// An array of numbers, as serde_json writes them.
    Array,
}

/// How already-serialized JSON (`RawJson`) is embedded.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RawPolicy {
    /// Copied byte for byte (serde_json's `RawValue` behaviour): `compact`
    /// with no option that changes strings or key order.
    Verbatim,
    /// Token by token, as Go writes `json.RawMessage`: whitespace removed
    /// (or re-indented), escapes and number spellings kept, plus what the
    /// style's escape set escapes (`<>&`, U+2028/9, non-ASCII); with
    /// `sort_keys` (asked for explicitly), each object's members in UTF-8
    /// order of their keys.
    Relaid { sort_keys: bool },
    /// Parsed and written again in canonical form.
    Canonicalize,
}

/// The resolved, per-call form of a profile plus options.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct Style {
    pub profile: Profile,
    pub escaper: Escaper,
    pub float_layout: FloatLayout,
    pub integers: IntegerPolicy,
    pub non_finite: NonFinite,
    pub invalid_text: InvalidText,
    pub bytes: BytesPolicy,
    pub raw: RawPolicy,
    /// Order of maps (`Value` objects, `HashMap`, `BTreeMap`).
    pub map_order: KeyOrder,
    /// Order of records with declared fields (serde structs).
    pub struct_order: KeyOrder,
    pub indent: u16,
    /// What `indent` counts: spaces (`b' '`) or tabs (`b'\t'`).
    pub indent_byte: u8,
    /// Deepest nesting written ([`WriteOptions::max_write_depth`]).
    pub max_write_depth: usize,
}
