//! `Value == Value` by a loop over an explicit stack: the derived,
//! recursive comparison overflowed the thread's stack (an abort) on values
//! nested some 100,000 deep, which parsing, cloning and dropping take.
//!
//! The result is the derived one: same variants, numbers by
//! `Number`'s `==`, arrays item by item, objects member by member in order.

use super::{Str, Value};

/// The rest of two arrays, or of two objects, being compared.
enum Pending<'a> {
    Items(&'a [Value], &'a [Value]),
    Members(&'a [(Str, Value)], &'a [(Str, Value)]),
}

impl PartialEq for Value {
    fn eq(&self, other: &Value) -> bool {
        let mut pending: Vec<Pending> = Vec::new();
        let mut next = Some((self, other));
        loop {
            if let Some(pair) = next.take() {
                match pair {
                    (Value::Null, Value::Null) => {}
                    (Value::Bool(a), Value::Bool(b)) if a == b => {}
                    (Value::Number(a), Value::Number(b)) if a == b => {}
                    (Value::String(a), Value::String(b)) if a == b => {}
                    (Value::Array(a), Value::Array(b)) if a.len() == b.len() => {
                        pending.push(Pending::Items(a.as_slice(), b.as_slice()));
                    }
                    (Value::Object(a), Value::Object(b)) if a.len() == b.len() => {
                        pending.push(Pending::Members(a.members(), b.members()));
                    }
                    _ => return false,
                }
            }
            let Some(top) = pending.last_mut() else { return true };
            match top {
                Pending::Items([a, ra @ ..], [b, rb @ ..]) => {
                    next = Some((a, b));
                    *top = Pending::Items(ra, rb);
                }
                Pending::Members([(ka, a), ra @ ..], [(kb, b), rb @ ..]) => {
                    if ka != kb {
                        return false;
                    }
                    next = Some((a, b));
                    *top = Pending::Members(ra, rb);
                }
                _ => {
                    pending.pop();
                }
            }
        }
    }
}
