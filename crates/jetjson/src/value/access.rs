//! Looking into a `Value`: type tests, `as_*` views, indexing (read and
//! write), `get`/`get_mut` and JSON Pointer (RFC 6901).

use std::ops::{Index, IndexMut};

use super::{Array, Map, Number, Value};

impl Value {
    /// `true` for `null`.
    ///
    /// ```
    /// assert!(jetjson::json!(null).is_null());
    /// assert!(!jetjson::json!(0).is_null());
    /// ```
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    /// `true` for `true` and `false`.
    ///
    /// ```
    /// assert!(jetjson::json!(false).is_boolean());
    /// assert!(!jetjson::json!("false").is_boolean());
    /// ```
    pub fn is_boolean(&self) -> bool {
        matches!(self, Value::Bool(_))
    }

    /// `true` for any number (integer, double or literal text).
    ///
    /// ```
    /// assert!(jetjson::json!(1.5).is_number());
    /// assert!(!jetjson::json!("1.5").is_number());
    /// ```
    pub fn is_number(&self) -> bool {
        matches!(self, Value::Number(_))
    }

    /// `true` for a number that [`as_i64`](Value::as_i64) reads: an integer
    /// in the range of `i64`.
    ///
    /// ```
    /// use jetjson::json;
    /// assert!(json!(-3).is_i64());
    /// assert!(!json!(u64::MAX).is_i64());
    /// assert!(!json!(3.0).is_i64()); // a double, even if whole
    /// ```
    pub fn is_i64(&self) -> bool {
        self.as_number().is_some_and(Number::is_i64)
    }

    /// `true` for a number that [`as_u64`](Value::as_u64) reads: an integer
    /// in the range of `u64`.
    ///
    /// ```
    /// use jetjson::json;
    /// assert!(json!(u64::MAX).is_u64());
    /// assert!(!json!(-1).is_u64());
    /// ```
    pub fn is_u64(&self) -> bool {
        self.as_number().is_some_and(Number::is_u64)
    }

    /// `true` for a number that is not an integer of `i64`/`u64` range but
    /// has a double (see [`Number::is_f64`]).
    ///
    /// ```
    /// use jetjson::json;
    /// assert!(json!(0.5).is_f64());
    /// assert!(!json!(7).is_f64());
    /// ```
    pub fn is_f64(&self) -> bool {
        self.as_number().is_some_and(Number::is_f64)
    }

    /// `true` for a string.
    ///
    /// ```
    /// assert!(jetjson::json!("jet").is_string());
    /// ```
    pub fn is_string(&self) -> bool {
        matches!(self, Value::String(_))
    }

    /// `true` for an array.
    ///
    /// ```
    /// assert!(jetjson::json!([1, 2]).is_array());
    /// ```
    pub fn is_array(&self) -> bool {
        matches!(self, Value::Array(_))
    }

    /// `true` for an object.
    ///
    /// ```
    /// assert!(jetjson::json!({"a": 1}).is_object());
    /// ```
    pub fn is_object(&self) -> bool {
        matches!(self, Value::Object(_))
    }

    /// `Some(())` for `null`.
    ///
    /// ```
    /// assert_eq!(jetjson::json!(null).as_null(), Some(()));
    /// assert_eq!(jetjson::json!(false).as_null(), None);
    /// ```
    pub fn as_null(&self) -> Option<()> {
        self.is_null().then_some(())
    }

    /// The boolean, if this is one.
    ///
    /// ```
    /// assert_eq!(jetjson::json!(true).as_bool(), Some(true));
    /// assert_eq!(jetjson::json!(1).as_bool(), None);
    /// ```
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The boolean, mutable.
    ///
    /// ```
    /// let mut v = jetjson::json!(true);
    /// *v.as_bool_mut().unwrap() = false;
    /// assert_eq!(v, false);
    /// ```
    pub fn as_bool_mut(&mut self) -> Option<&mut bool> {
        match self {
            Value::Bool(b) => Some(b),
            _ => None,
        }
    }

    /// The number, if this is one.
    ///
    /// ```
    /// let v = jetjson::json!(2.5);
    /// assert_eq!(v.as_number().unwrap().to_string(), "2.5");
    /// ```
    pub fn as_number(&self) -> Option<&Number> {
        match self {
            Value::Number(n) => Some(n),
            _ => None,
        }
    }

    /// The number, mutable.
    ///
    /// ```
    /// use jetjson::{json, Number};
    /// let mut v = json!(1);
    /// *v.as_number_mut().unwrap() = Number::from(2);
    /// assert_eq!(v, 2);
    /// ```
    pub fn as_number_mut(&mut self) -> Option<&mut Number> {
        match self {
            Value::Number(n) => Some(n),
            _ => None,
        }
    }

    /// The number as an `i64`, if it is an integer in range (integer literal
    /// text included; a double is not converted).
    ///
    /// ```
    /// use jetjson::json;
    /// assert_eq!(json!(-7).as_i64(), Some(-7));
    /// assert_eq!(json!(7.0).as_i64(), None);
    /// assert_eq!(json!(u64::MAX).as_i64(), None);
    /// ```
    pub fn as_i64(&self) -> Option<i64> {
        self.as_number().and_then(Number::as_i64)
    }

    /// The number as a `u64`, if it is an integer in range.
    ///
    /// ```
    /// use jetjson::json;
    /// assert_eq!(json!(u64::MAX).as_u64(), Some(u64::MAX));
    /// assert_eq!(json!(-1).as_u64(), None);
    /// ```
    pub fn as_u64(&self) -> Option<u64> {
        self.as_number().and_then(Number::as_u64)
    }

    /// The number as its nearest double (integers too).
    ///
    /// ```
    /// use jetjson::json;
    /// assert_eq!(json!(3).as_f64(), Some(3.0));
    /// assert_eq!(json!("3").as_f64(), None);
    /// ```
    pub fn as_f64(&self) -> Option<f64> {
        self.as_number().and_then(Number::as_f64)
    }

    /// The text, if this is a string.
    ///
    /// ```
    /// assert_eq!(jetjson::json!("jet").as_str(), Some("jet"));
    /// ```
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// The items, if this is an array.
    ///
    /// ```
    /// assert_eq!(jetjson::json!([1, 2]).as_array().map(|a| a.len()), Some(2));
    /// ```
    pub fn as_array(&self) -> Option<&Array> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The items, mutable.
    ///
    /// ```
    /// let mut v = jetjson::json!([1]);
    /// v.as_array_mut().unwrap().push(jetjson::json!(2));
    /// assert_eq!(v, jetjson::json!([1, 2]));
    /// ```
    pub fn as_array_mut(&mut self) -> Option<&mut Array> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The members, if this is an object.
    ///
    /// ```
    /// assert!(jetjson::json!({"a": 1}).as_object().unwrap().contains_key("a"));
    /// ```
    pub fn as_object(&self) -> Option<&Map> {
        match self {
            Value::Object(o) => Some(o),
            _ => None,
        }
    }

    /// The members, mutable.
    ///
    /// ```
    /// let mut v = jetjson::json!({"a": 1});
    /// v.as_object_mut().unwrap().remove("a");
    /// assert_eq!(v, jetjson::json!({}));
    /// ```
    pub fn as_object_mut(&mut self) -> Option<&mut Map> {
        match self {
            Value::Object(o) => Some(o),
            _ => None,
        }
    }

    /// Takes the value out, leaving `null`.
    ///
    /// ```
    /// let mut v = jetjson::json!({"a": [1]});
    /// let a = v["a"].take();
    /// assert_eq!(a, jetjson::json!([1]));
    /// assert_eq!(v, jetjson::json!({"a": null}));
    /// ```
    pub fn take(&mut self) -> Value {
        std::mem::take(self)
    }

    /// The member `key` of an object, or the item at a `usize` index of an
    /// array; `None` for anything else (nothing panics).
    ///
    /// ```
    /// let v = jetjson::json!({"a": [10, 20]});
    /// assert_eq!(v.get("a").and_then(|a| a.get(1)), Some(&jetjson::json!(20)));
    /// assert_eq!(v.get("b"), None);
    /// assert_eq!(v.get(0), None); // not an array
    /// ```
    pub fn get<I: ValueIndex>(&self, index: I) -> Option<&Value> {
        index.index_into(self)
    }

    /// As [`get`](Value::get), mutable. Never inserts (use `v[key] = ...`
    /// to insert).
    ///
    /// ```
    /// let mut v = jetjson::json!({"a": [10, 20]});
    /// if let Some(x) = v.get_mut("a").and_then(|a| a.get_mut(0)) {
    ///     *x = jetjson::json!(11);
    /// }
    /// assert_eq!(v, jetjson::json!({"a": [11, 20]}));
    /// assert!(v.get_mut("b").is_none());
    /// ```
    pub fn get_mut<I: ValueIndex>(&mut self, index: I) -> Option<&mut Value> {
        index.index_into_mut(self)
    }

    /// The value a JSON Pointer (RFC 6901) names: `""` is the whole value,
    /// `"/a/0"` the first item of member `a`; `~1` stands for `/` and `~0`
    /// for `~` in a name. Array indexes are decimal without leading zeros.
    /// `None` when nothing is there or the pointer is malformed.
    ///
    /// ```
    /// let v = jetjson::json!({"a": [{"b/c": 1}], "": 2});
    /// assert_eq!(v.pointer("/a/0/b~1c"), Some(&jetjson::json!(1)));
    /// assert_eq!(v.pointer("/"), Some(&jetjson::json!(2)));
    /// assert_eq!(v.pointer(""), Some(&v));
    /// assert_eq!(v.pointer("/a/01"), None);
    /// assert_eq!(v.pointer("a"), None); // must start with '/'
    /// ```
    pub fn pointer(&self, pointer: &str) -> Option<&Value> {
        let mut at = self;
        for token in tokens(pointer)? {
            at = match at {
                Value::Object(map) => map.get(&token)?,
                Value::Array(items) => items.get(array_index(&token)?)?,
                _ => return None,
            };
        }
        Some(at)
    }

    /// As [`pointer`](Value::pointer), mutable. Never inserts.
    ///
    /// ```
    /// let mut v = jetjson::json!({"a": [1, 2]});
    /// *v.pointer_mut("/a/1").unwrap() = jetjson::json!("two");
    /// assert_eq!(v, jetjson::json!({"a": [1, "two"]}));
    /// ```
    pub fn pointer_mut(&mut self, pointer: &str) -> Option<&mut Value> {
        let mut at = self;
        for token in tokens(pointer)? {
            at = match at {
                Value::Object(map) => map.get_mut(&token)?,
                Value::Array(items) => {
                    let i = array_index(&token)?;
                    items.get_mut(i)?
                }
                _ => return None,
            };
        }
        Some(at)
    }

    /// What kind of value this is, as messages name it.
    pub(crate) fn type_name(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "boolean",
            Value::Number(_) => "number",
            Value::String(_) => "string",
            Value::Array(_) => "array",
            Value::Object(_) => "object",
        }
    }
}

/// The decoded reference tokens of a JSON Pointer, or `None` if it does not
/// start with `/` (and is not empty) or has a `~` not followed by `0` or `1`.
fn tokens(pointer: &str) -> Option<Vec<String>> {
    if pointer.is_empty() {
        return Some(Vec::new());
    }
    let rest = pointer.strip_prefix('/')?;
    rest.split('/').map(unescape_token).collect()
}

fn unescape_token(token: &str) -> Option<String> {
    if !token.contains('~') {
        return Some(token.to_owned());
    }
    let mut out = String::with_capacity(token.len());
    let mut chars = token.chars();
    while let Some(c) = chars.next() {
        if c == '~' {
            match chars.next() {
                Some('0') => out.push('~'),
                Some('1') => out.push('/'),
                _ => return None,
            }
        } else {
            out.push(c);
        }
    }
    Some(out)
}

/// RFC 6901 array index: `0` or digits without a leading zero.
fn array_index(token: &str) -> Option<usize> {
    let digits = token.as_bytes();
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) || (digits.len() > 1 && digits[0] == b'0') {
        return None;
    }
    token.parse().ok()
}

mod private {
    pub trait Sealed {}
    impl Sealed for usize {}
    impl Sealed for str {}
    impl Sealed for String {}
    impl<T: ?Sized + Sealed> Sealed for &T {}
}

/// Types that index into a `Value`: `&str` and `String` name an object's
/// member, `usize` an array's item. Used by [`Value::get`],
/// [`Value::get_mut`] and `value[index]`. Sealed: implemented for these
/// types only.
pub trait ValueIndex: private::Sealed {
    /// The value at this index in `v`, if there is one.
    fn index_into<'v>(&self, v: &'v Value) -> Option<&'v Value>;

    /// The value at this index in `v`, mutable, if there is one.
    fn index_into_mut<'v>(&self, v: &'v mut Value) -> Option<&'v mut Value>;

    /// The slot `v[index] = ...` writes to: a missing member is inserted as
    /// `null` (a `null` value first becomes an empty object). Panics where
    /// serde_json panics: a name into a value that is neither an object nor
    /// `null`, an index into a non-array or past an array's end.
    #[doc(hidden)]
    fn index_or_insert<'v>(&self, v: &'v mut Value) -> &'v mut Value;
}

impl ValueIndex for usize {
    fn index_into<'v>(&self, v: &'v Value) -> Option<&'v Value> {
        v.as_array().and_then(|a| a.get(*self))
    }

    fn index_into_mut<'v>(&self, v: &'v mut Value) -> Option<&'v mut Value> {
        v.as_array_mut().and_then(|a| a.get_mut(*self))
    }

    fn index_or_insert<'v>(&self, v: &'v mut Value) -> &'v mut Value {
        match v {
            Value::Array(items) => {
                let len = items.len();
                items.get_mut(*self).unwrap_or_else(|| panic!("cannot index {self} into a JSON array of length {len}"))
            }
            other => panic!("cannot index {self} into a JSON {}", other.type_name()),
        }
    }
}

impl ValueIndex for str {
    fn index_into<'v>(&self, v: &'v Value) -> Option<&'v Value> {
        v.as_object().and_then(|o| o.get(self))
    }

    fn index_into_mut<'v>(&self, v: &'v mut Value) -> Option<&'v mut Value> {
        v.as_object_mut().and_then(|o| o.get_mut(self))
    }

    fn index_or_insert<'v>(&self, v: &'v mut Value) -> &'v mut Value {
        if v.is_null() {
            *v = Value::Object(Map::new());
        }
        match v {
            Value::Object(map) => map.get_or_insert_null(self),
            other => panic!("cannot index {self:?} into a JSON {}", other.type_name()),
        }
    }
}

impl ValueIndex for String {
    fn index_into<'v>(&self, v: &'v Value) -> Option<&'v Value> {
        self.as_str().index_into(v)
    }

    fn index_into_mut<'v>(&self, v: &'v mut Value) -> Option<&'v mut Value> {
        self.as_str().index_into_mut(v)
    }

    fn index_or_insert<'v>(&self, v: &'v mut Value) -> &'v mut Value {
        self.as_str().index_or_insert(v)
    }
}

impl<T: ?Sized + ValueIndex> ValueIndex for &T {
    fn index_into<'v>(&self, v: &'v Value) -> Option<&'v Value> {
        (**self).index_into(v)
    }

    fn index_into_mut<'v>(&self, v: &'v mut Value) -> Option<&'v mut Value> {
        (**self).index_into_mut(v)
    }

    fn index_or_insert<'v>(&self, v: &'v mut Value) -> &'v mut Value {
        (**self).index_or_insert(v)
    }
}

static NULL: Value = Value::Null;

/// `value["key"]` and `value[3]`; anything missing (or indexed the wrong
/// way) reads as `null`, as in serde_json.
///
/// ```
/// let v = jetjson::json!({"a": [1, 2]});
/// assert_eq!(v["a"][1], 2);
/// assert!(v["b"]["c"].is_null());
/// ```
impl<I: ValueIndex> Index<I> for Value {
    type Output = Value;
    fn index(&self, index: I) -> &Value {
        index.index_into(self).unwrap_or(&NULL)
    }
}

/// `value["key"] = ...` inserts the member if it is missing (a `null`
/// value first becomes an object), as in serde_json; `value[3] = ...`
/// replaces an existing item.
///
/// # Panics
///
/// Indexing by name into a value that is neither an object nor `null`, by
/// number into a value that is not an array, or past the end of an array.
///
/// ```
/// use jetjson::json;
/// let mut v = json!(null);
/// v["a"]["b"] = json!(1);
/// v["list"] = json!([0, 0]);
/// v["list"][1] = json!("x");
/// assert_eq!(v, json!({"a": {"b": 1}, "list": [0, "x"]}));
/// ```
impl<I: ValueIndex> IndexMut<I> for Value {
    fn index_mut(&mut self, index: I) -> &mut Value {
        index.index_or_insert(self)
    }
}
