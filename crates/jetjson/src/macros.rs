//! `json!`: a `Value` written as JSON in Rust source.
//!
//! The macro reads its input one element (or member) at a time: `null`,
//! `true`, `false`, `[...]` and `{...}` are JSON syntax, nested to any
//! depth; anything else up to the next top-level comma is a Rust
//! expression whose value is converted with [`to_value`](crate::to_value).
//! Runs of items of one token each (`1, 2.5, "x", [..]`) are taken eight
//! at a time, so long literal arrays stay within the compiler's macro
//! recursion limit.

/// Builds a [`Value`](crate::Value) from JSON syntax, with Rust expressions
/// where values go.
///
/// ```
/// use jetjson::json;
///
/// let name = "jet";
/// let tags = vec!["fast", "exact"];
/// let v = json!({
///     "name": name,             // any `Serialize` expression
///     "version": [1, 2 + 1],
///     "tags": tags,
///     "nested": {"ok": true, "none": null},
///     (format!("k{}", 1)): -0.5 // a computed name, in parentheses
/// });
/// assert_eq!(v["name"], "jet");
/// assert_eq!(v["version"][1], 3);
/// assert_eq!(v["tags"][0], "fast");
/// assert!(v["nested"]["none"].is_null());
/// assert_eq!(v["k1"], -0.5);
/// assert_eq!(v.to_string(), r#"{"name":"jet","version":[1,3],"tags":["fast","exact"],"nested":{"ok":true,"none":null},"k1":-0.5}"#);
/// ```
///
/// Object members keep the order written (a name given twice keeps its
/// first place and its last value). A name is a string literal, an
/// identifier naming a variable, or any expression in parentheses; it
/// must convert into [`Str`](crate::Str) (`&str`, `String`, `char`).
/// Values are borrowed (`json!([x])` leaves `x` usable); names are moved.
///
/// # Panics
///
/// When an interpolated expression cannot be represented as a `Value`
/// (its `Serialize` implementation fails: a map with non-string keys, a
/// custom error, invalid unchecked raw JSON). Use [`to_value`](crate::to_value)
/// to get that as an `Err` instead.
///
/// Very large literals may need a higher `#![recursion_limit]`: each
/// object member, and each array item of more than one token (`-1`,
/// `a + b`), costs one level of macro recursion (the default limit is
/// 128); runs of one-token items cost one level per eight.
#[macro_export]
macro_rules! json {
    ($($json:tt)+) => {
        $crate::__json_value!($($json)+)
    };
}

/// One JSON value (the body of `json!`).
#[doc(hidden)]
#[macro_export]
macro_rules! __json_value {
    (null) => {
        $crate::Value::Null
    };
    (true) => {
        $crate::Value::Bool(true)
    };
    (false) => {
        $crate::Value::Bool(false)
    };
    ([]) => {
        $crate::Value::Array($crate::Array::new())
    };
    ([ $($items:tt)+ ]) => {
        $crate::Value::Array($crate::Array::from($crate::__json_items!([] $($items)+)))
    };
    ({}) => {
        $crate::Value::Object($crate::Map::new())
    };
    ({ $($members:tt)+ }) => {{
        let mut object = $crate::Map::new();
        $crate::__json_members!(object [] $($members)+);
        $crate::Value::Object(object)
    }};
    ($other:expr) => {
        $crate::__private::json_expr(&$other)
    };
}

/// The items of an array: `[done...]` then the tokens left.
#[doc(hidden)]
#[macro_export]
macro_rules! __json_items {
    ([$($done:expr,)*]) => {
        ::std::vec![$($done,)*]
    };
    // Eight items of one token each at once (numbers without a sign,
    // strings, names, nested arrays and objects): long literal arrays cost
    // one level of macro recursion per eight items.
    ([$($done:expr,)*] $a:tt, $b:tt, $c:tt, $d:tt, $e:tt, $f:tt, $g:tt, $h:tt $(, $($rest:tt)*)?) => {
        $crate::__json_items!([$($done,)*
            $crate::__json_value!($a), $crate::__json_value!($b),
            $crate::__json_value!($c), $crate::__json_value!($d),
            $crate::__json_value!($e), $crate::__json_value!($f),
            $crate::__json_value!($g), $crate::__json_value!($h),
        ] $($($rest)*)?)
    };
    ([$($done:expr,)*] null $(, $($rest:tt)*)?) => {
        $crate::__json_items!([$($done,)* $crate::Value::Null,] $($($rest)*)?)
    };
    ([$($done:expr,)*] true $(, $($rest:tt)*)?) => {
        $crate::__json_items!([$($done,)* $crate::Value::Bool(true),] $($($rest)*)?)
    };
    ([$($done:expr,)*] false $(, $($rest:tt)*)?) => {
        $crate::__json_items!([$($done,)* $crate::Value::Bool(false),] $($($rest)*)?)
    };
    ([$($done:expr,)*] [$($array:tt)*] $(, $($rest:tt)*)?) => {
        $crate::__json_items!([$($done,)* $crate::__json_value!([$($array)*]),] $($($rest)*)?)
    };
    ([$($done:expr,)*] {$($object:tt)*} $(, $($rest:tt)*)?) => {
        $crate::__json_items!([$($done,)* $crate::__json_value!({$($object)*}),] $($($rest)*)?)
    };
    ([$($done:expr,)*] $next:expr $(, $($rest:tt)*)?) => {
        $crate::__json_items!([$($done,)* $crate::__private::json_expr(&$next),] $($($rest)*)?)
    };
}

/// The members of an object: the map, the tokens of the name read so far,
/// then the tokens left.
#[doc(hidden)]
#[macro_export]
macro_rules! __json_members {
    ($object:ident []) => {};
    // The name is complete at ':'; then the value.
    ($object:ident [$($name:tt)+] : null $(, $($rest:tt)*)?) => {
        $object.insert($crate::Str::from($($name)+), $crate::Value::Null);
        $crate::__json_members!($object [] $($($rest)*)?);
    };
    ($object:ident [$($name:tt)+] : true $(, $($rest:tt)*)?) => {
        $object.insert($crate::Str::from($($name)+), $crate::Value::Bool(true));
        $crate::__json_members!($object [] $($($rest)*)?);
    };
    ($object:ident [$($name:tt)+] : false $(, $($rest:tt)*)?) => {
        $object.insert($crate::Str::from($($name)+), $crate::Value::Bool(false));
        $crate::__json_members!($object [] $($($rest)*)?);
    };
    ($object:ident [$($name:tt)+] : [$($array:tt)*] $(, $($rest:tt)*)?) => {
        $object.insert($crate::Str::from($($name)+), $crate::__json_value!([$($array)*]));
        $crate::__json_members!($object [] $($($rest)*)?);
    };
    ($object:ident [$($name:tt)+] : {$($inner:tt)*} $(, $($rest:tt)*)?) => {
        $object.insert($crate::Str::from($($name)+), $crate::__json_value!({$($inner)*}));
        $crate::__json_members!($object [] $($($rest)*)?);
    };
    ($object:ident [$($name:tt)+] : $value:expr $(, $($rest:tt)*)?) => {
        $object.insert($crate::Str::from($($name)+), $crate::__private::json_expr(&$value));
        $crate::__json_members!($object [] $($($rest)*)?);
    };
    // A ':' with no name before it.
    ($object:ident [] : $($rest:tt)*) => {
        ::std::compile_error!("json!: an object member needs a name before ':'")
    };
    // One more token of the name.
    ($object:ident [$($name:tt)*] $next:tt $($rest:tt)*) => {
        $crate::__json_members!($object [$($name)* $next] $($rest)*)
    };
    // Tokens left over with no ':' after them.
    ($object:ident [$($name:tt)+]) => {
        ::std::compile_error!("json!: an object member needs ':' and a value after its name")
    };
}
