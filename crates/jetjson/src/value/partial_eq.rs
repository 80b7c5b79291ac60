//! `Value` compared with Rust primitives and strings, as serde_json allows:
//! `v["name"] == "jet"`, `v == 1`, `v == true`.
//!
//! Integers compare with integer values only (`json!(1.0) == 1` is false:
//! a double is not an integer); floats compare with any number through its
//! nearest double (`json!(1) == 1.0` is true); strings with strings.

use super::Value;

fn eq_str(v: &Value, other: &str) -> bool {
    v.as_str() == Some(other)
}

fn eq_i64(v: &Value, other: i64) -> bool {
    v.as_i64() == Some(other)
}

fn eq_u64(v: &Value, other: u64) -> bool {
    v.as_u64() == Some(other)
}

fn eq_f64(v: &Value, other: f64) -> bool {
    v.as_f64() == Some(other)
}

fn eq_bool(v: &Value, other: bool) -> bool {
    v.as_bool() == Some(other)
}

/// `Value == str` and the other way round.
macro_rules! eq_text {
    ($($t:ty),*) => {$(
        impl PartialEq<$t> for Value {
            fn eq(&self, other: &$t) -> bool {
                eq_str(self, other)
            }
        }
        impl PartialEq<Value> for $t {
            fn eq(&self, other: &Value) -> bool {
                eq_str(other, self)
            }
        }
    )*};
}

eq_text!(str, &str, String);

/// `Value == primitive` for owned and borrowed values, and the other way round.
macro_rules! eq_primitive {
    ($cmp:ident, $wide:ty: $($t:ty),*) => {$(
        impl PartialEq<$t> for Value {
            fn eq(&self, other: &$t) -> bool {
                $cmp(self, *other as $wide)
            }
        }
        impl PartialEq<$t> for &Value {
            fn eq(&self, other: &$t) -> bool {
                $cmp(self, *other as $wide)
            }
        }
        impl PartialEq<$t> for &mut Value {
            fn eq(&self, other: &$t) -> bool {
                $cmp(self, *other as $wide)
            }
        }
        impl PartialEq<Value> for $t {
            fn eq(&self, other: &Value) -> bool {
                $cmp(other, *self as $wide)
            }
        }
    )*};
}

eq_primitive!(eq_i64, i64: i8, i16, i32, i64, isize);
eq_primitive!(eq_u64, u64: u8, u16, u32, u64, usize);
eq_primitive!(eq_f64, f64: f32, f64);

impl PartialEq<bool> for Value {
    fn eq(&self, other: &bool) -> bool {
        eq_bool(self, *other)
    }
}
impl PartialEq<bool> for &Value {
    fn eq(&self, other: &bool) -> bool {
        eq_bool(self, *other)
    }
}
impl PartialEq<bool> for &mut Value {
    fn eq(&self, other: &bool) -> bool {
        eq_bool(self, *other)
    }
}
impl PartialEq<Value> for bool {
    fn eq(&self, other: &Value) -> bool {
        eq_bool(other, *self)
    }
}
