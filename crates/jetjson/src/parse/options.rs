//! Limits and leniencies for reading.

/// What to do when an object names the same key twice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum DuplicateKeys {
    /// Fail, as I-JSON (RFC 7493) and Go's json/v2 do.
    #[default]
    Error,
    /// Keep the first value.
    First,
    /// Keep the last value (serde_json, Go v1, Python).
    Last,
}

/// Options for reading: limits and leniencies, with safe defaults (depth
/// 512, no size limit, repeated names an error, no byte order mark, numbers
/// as values).
///
/// ```
/// use jetjson::{DuplicateKeys, ReadOptions};
/// let opts = ReadOptions::new().max_depth(64).max_size(1 << 20).duplicate_keys(DuplicateKeys::Last);
/// let v = jetjson::Value::from_slice_with(br#"{"a":1,"a":2}"#, &opts).unwrap();
/// assert_eq!(v["a"], 2);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ReadOptions {
    pub(crate) max_depth: usize,
    pub(crate) max_size: Option<usize>,
    pub(crate) duplicate_keys: DuplicateKeys,
    pub(crate) allow_bom: bool,
    pub(crate) lossless_numbers: bool,
    pub(crate) negative_zero_int: bool,
}

impl Default for ReadOptions {
    fn default() -> ReadOptions {
        ReadOptions {
            max_depth: 512,
            max_size: None,
            duplicate_keys: DuplicateKeys::Error,
            allow_bom: false,
            lossless_numbers: false,
            negative_zero_int: false,
        }
    }
}

impl ReadOptions {
    /// The defaults.
    pub fn new() -> ReadOptions {
        ReadOptions::default()
    }
    /// Keeps every number as its literal text (`Number::Big`).
    pub fn lossless() -> ReadOptions {
        ReadOptions { lossless_numbers: true, ..ReadOptions::default() }
    }
    /// Deepest nesting of arrays and objects accepted (default 512).
    ///
    /// Serde deserialization of other types than `Value` and `RawJson`
    /// (`from_slice_with::<T>`, `from_reader_with`, ...) recurses on the
    /// stack, and reads at most 10,000 levels whatever this says (the error
    /// is then [`ErrorKind::RecursionCeiling`](crate::ErrorKind::RecursionCeiling));
    /// a `Value` or `RawJson`, alone or as a field, is read under this
    /// limit, at any depth.
    pub fn max_depth(mut self, depth: usize) -> Self {
        self.max_depth = depth;
        self
    }
    /// Largest input accepted, in bytes (default: no limit).
    pub fn max_size(mut self, bytes: usize) -> Self {
        self.max_size = Some(bytes);
        self
    }
    /// What a name repeated in one object means (default: an error).
    pub fn duplicate_keys(mut self, policy: DuplicateKeys) -> Self {
        self.duplicate_keys = policy;
        self
    }
    /// Accept (and skip) a leading UTF-8 byte order mark.
    pub fn allow_bom(mut self, allow: bool) -> Self {
        self.allow_bom = allow;
        self
    }
    /// Keep every number as its literal text (`Number::Big` in a `Value`),
    /// as Go's `Decoder.UseNumber` does: spellings are kept (`1.0`, `1E6`,
    /// `-0`), and so are literals beyond the double range (`1e400`), which
    /// are otherwise refused. `compact` and `go` write such text back as
    /// it is; `jcs` converts it to the nearest double (and refuses what
    /// has none). The serde path has no place for text: there, numbers
    /// beyond the double range are refused either way.
    pub fn lossless_numbers(mut self, on: bool) -> Self {
        self.lossless_numbers = on;
        self
    }
    /// How the integer literal `-0` reads into a `Value`: by default as the
    /// double -0.0, as serde_json reads it (so `compact` writes `-0.0` and
    /// `go` writes `-0`); when on, as the integer 0, as Python's `json`
    /// and orjson read it (jetjson's Python `canonicalize` sets it, so
    /// that it agrees with `dumps(loads(x))`). `-0.0` and `-0e0` are
    /// doubles either way; lossless mode keeps the text `-0`. The serde
    /// path is not affected (serde types choose for themselves).
    pub fn negative_zero_int(mut self, on: bool) -> Self {
        self.negative_zero_int = on;
        self
    }
    /// The policy set by [`duplicate_keys`](ReadOptions::duplicate_keys).
    pub fn duplicate_key_policy(&self) -> DuplicateKeys {
        self.duplicate_keys
    }
    /// Whether [`lossless_numbers`](ReadOptions::lossless_numbers) is on.
    pub fn keeps_numbers_lossless(&self) -> bool {
        self.lossless_numbers
    }
    /// The nesting limit set by [`max_depth`](ReadOptions::max_depth).
    pub fn depth_limit(&self) -> usize {
        self.max_depth
    }
    /// The limit set by [`max_size`](ReadOptions::max_size), if any.
    pub fn size_limit(&self) -> Option<usize> {
        self.max_size
    }
}
