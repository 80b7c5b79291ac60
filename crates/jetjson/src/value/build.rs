//! `Value` as a builder over the parser.
//!
//! Finished values wait on one stack and member names on another; when a
//! container ends, its items are moved off the stack into a vector of
//! exactly the right size (one allocation per container, no regrowth).

use std::collections::HashMap;

use super::{Map, Number, Str, Value};
use crate::error::Result;
use crate::parse::{self, DuplicateKeys, FromJson, NumberToken, NumberValue, ReadOptions, Visitor};

impl FromJson for Value {
    fn from_json(input: &[u8], options: &ReadOptions) -> Result<Value> {
        let stacks = Stacks::take();
        let mut b = ValueBuilder {
            values: stacks.values,
            names: stacks.names,
            frames: stacks.frames,
            lossless: options.keeps_numbers_lossless(),
            duplicates: options.duplicate_key_policy(),
        };
        let result = parse::parse(input, options, &mut b);
        let value = b.values.pop();
        Stacks { values: b.values, names: b.names, frames: b.frames }.give_back();
        result?;
        Ok(value.unwrap_or(Value::Null))
    }
}

/// The builder's working stacks, kept per thread between documents so a
/// parse does not regrow them from nothing (and glibc does not free and
/// consolidate them every time). Capacity beyond `MAX_POOLED_BYTES` is
/// released on the way back, so a huge document pins no more than that.
#[derive(Default)]
struct Stacks {
    values: Vec<Value>,
    names: Vec<Str>,
    frames: Vec<(usize, usize)>,
}

/// What one thread keeps at most, in bytes of stack capacity (8192 values).
const MAX_POOLED_BYTES: usize = 256 * 1024;

thread_local! {
    static STACKS: std::cell::Cell<Option<Stacks>> = const { std::cell::Cell::new(None) };
}

impl Stacks {
    fn take() -> Stacks {
        STACKS.try_with(|s| s.take()).ok().flatten().unwrap_or_default()
    }

    fn give_back(mut self) {
        // Values left by a failed parse are dropped here.
        self.values.clear();
        self.names.clear();
        self.frames.clear();
        self.values.shrink_to(MAX_POOLED_BYTES / std::mem::size_of::<Value>());
        self.names.shrink_to(MAX_POOLED_BYTES / 4 / std::mem::size_of::<Str>());
        self.frames.shrink_to(MAX_POOLED_BYTES / 4 / std::mem::size_of::<(usize, usize)>());
        let _ = STACKS.try_with(|s| s.set(Some(self)));
    }
}

struct ValueBuilder {
    values: Vec<Value>,
    names: Vec<Str>,
    /// Where each open container's items start on `values` (and, for
    /// objects, its names on `names`).
    frames: Vec<(usize, usize)>,
    lossless: bool,
    duplicates: DuplicateKeys,
}

/// Moves `stack[from..]` into a new vector of exactly that length with one
/// copy (no per-item moves, no regrowth).
#[inline]
fn split_tail<T>(stack: &mut Vec<T>, from: usize) -> Vec<T> {
    assert!(from <= stack.len(), "a container starts within the stack");
    let n = stack.len() - from;
    let mut out = Vec::with_capacity(n);
    // SAFETY: `from <= stack.len()` (asserted above), so
    // `stack[from..]` are `n` initialised items; `out` has room for `n` and
    // does not overlap `stack`. Ownership moves: `stack` forgets the items
    // (its length drops to `from`) before `out` exposes them.
    unsafe {
        std::ptr::copy_nonoverlapping(stack.as_ptr().add(from), out.as_mut_ptr(), n);
        stack.set_len(from);
        out.set_len(n);
    }
    out
}

impl Visitor for ValueBuilder {
    #[inline]
    fn null(&mut self) -> Result<()> {
        self.values.push(Value::Null);
        Ok(())
    }
    #[inline]
    fn bool(&mut self, v: bool) -> Result<()> {
        self.values.push(Value::Bool(v));
        Ok(())
    }
    #[inline]
    fn number(&mut self, n: NumberToken<'_>) -> Result<()> {
        let number = if self.lossless {
            Number::Big(n.text.into())
        } else {
            match n.value {
                NumberValue::I64(i) => Number::Int(i),
                NumberValue::U64(u) => Number::UInt(u),
                NumberValue::F64(f) => Number::Float(f),
                // Beyond 64-bit integers or the double range: keep the text
                // rather than inventing a rounded value or an infinity.
                NumberValue::Big => Number::Big(n.text.into()),
            }
        };
        self.values.push(Value::Number(number));
        Ok(())
    }
    #[inline]
    fn string(&mut self, s: &str, _raw: &str) -> Result<()> {
        self.values.push(Value::String(Str::new(s)));
        Ok(())
    }
    #[inline]
    fn begin_array(&mut self) -> Result<()> {
        self.frames.push((self.values.len(), self.names.len()));
        Ok(())
    }
    #[inline]
    fn end_array(&mut self) -> Result<()> {
        let (v0, _) = self.frames.pop().expect("parser balances containers");
        let items = split_tail(&mut self.values, v0);
        self.values.push(Value::Array(items));
        Ok(())
    }
    #[inline]
    fn begin_object(&mut self) -> Result<()> {
        self.frames.push((self.values.len(), self.names.len()));
        Ok(())
    }
    #[inline]
    fn key(&mut self, k: &str, _raw: &str) -> Result<()> {
        self.names.push(Str::new(k));
        Ok(())
    }
    fn end_object(&mut self) -> Result<()> {
        let (v0, n0) = self.frames.pop().expect("parser balances containers");
        let members: Vec<(Str, Value)> = self.names.drain(n0..).zip(self.values.drain(v0..)).collect();
        let map = match self.duplicates {
            // The parser already refused duplicate names.
            DuplicateKeys::Error => Map::from_members(members),
            policy => dedupe(members, policy),
        };
        self.values.push(Value::Object(map));
        Ok(())
    }
}

/// Keeps the first or the last value of each name, at the position where
/// the name first appeared (as Python's dict and serde_json's IndexMap do).
fn dedupe(members: Vec<(Str, Value)>, policy: DuplicateKeys) -> Map {
    let mut index: HashMap<Str, usize> = HashMap::with_capacity(members.len());
    let mut out: Vec<(Str, Value)> = Vec::with_capacity(members.len());
    for (k, v) in members {
        match index.get(&k) {
            Some(&i) if policy == DuplicateKeys::Last => out[i].1 = v,
            Some(_) => {}
            None => {
                index.insert(k.clone(), out.len());
                out.push((k, v));
            }
        }
    }
    Map::from_members(out)
}
