//! Writing a `Value` straight through the `Writer` (no serde round trip).

use super::{Map, Number, Str, Value};
use crate::error::Result;
use crate::keys;
use crate::options::KeyOrder;
use crate::shape::ShapeHash;
use crate::writer::{Sink, Writer};

pub(crate) fn write_value<S: Sink>(w: &mut Writer<S>, v: &Value) -> Result<()> {
    match v {
        Value::Null => {
            w.null();
            Ok(())
        }
        Value::Bool(b) => {
            w.bool(*b);
            Ok(())
        }
        Value::Number(n) => write_number(w, n),
        Value::String(s) => w.str(s),
        Value::Array(items) => {
            enter(w)?;
            if items.len() > 2 {
                prefetch_elements(items);
            }
            w.begin_array();
            for (i, item) in items.iter().enumerate() {
                w.array_item(i == 0);
                write_element(w, item).map_err(|e| e.in_index(i))?;
                // Numbers and literals do not spill by themselves: without
                // this, an array of them would be buffered whole for a sink
                // (nothing for `to_vec`, whose writer never spills).
                w.spill_if_full()?;
            }
            w.end_array(items.is_empty());
            Ok(())
        }
        Value::Object(map) => {
            enter(w)?;
            write_object(w, map)
        }
    }
}

/// Scalars in place, containers by recursion: arrays of numbers and
/// strings (coordinates, ids, tags) then cost no call per element.
#[inline(always)]
fn write_element<S: Sink>(w: &mut Writer<S>, v: &Value) -> Result<()> {
    match v {
        Value::Number(Number::Float(f)) => w.f64(*f),
        Value::Number(Number::Int(i)) => w.i64(*i),
        Value::String(s) => w.str(s),
        _ => write_value(w, v),
    }
}

/// Before a container: the depth limit (`WriteOptions::max_write_depth`;
/// the stack is sized for it, see `crate::stack`), and a spill of what is
/// buffered (the opening lines of deep nesting add up to depth^2 x indent
/// bytes).
fn enter<S: Sink>(w: &mut Writer<S>) -> Result<()> {
    w.check_nesting()?;
    w.spill_if_full()
}

pub(crate) fn write_number<S: Sink>(w: &mut Writer<S>, n: &Number) -> Result<()> {
    match n {
        Number::Int(i) => w.i64(*i),
        Number::UInt(u) => w.u64(*u),
        Number::Float(f) => w.f64(*f),
        Number::Big(text) => w.number_text(text),
    }
}

/// Asks the CPU to start loading the heap data of the members (key bytes
/// and the contents of string, array and object values) before they are
/// written. A `Value` whose data is not in cache (just parsed, or evicted)
/// otherwise pays one full memory latency per member, one after another;
/// with the loads started together, those latencies overlap.
#[inline]
fn prefetch_members(members: &[(Str, Value)]) {
    for (k, v) in members {
        prefetch(k.as_ptr());
        prefetch_value(v);
    }
}

/// How many members ahead of the one being written a large sorted
/// object's writer prefetches (measured: 4 beat 8 and a two-level
/// look-ahead on gsoc-2018).
const AHEAD: usize = 4;

/// Sorted objects with more members than this prefetch as they go: in
/// smaller ones the prefetches at the start cover every member in time
/// (the look-ahead cost twitter's 20-40 member objects time).
const ROLLING_FROM: usize = 64;

/// A member's key and the first lines of its value's data (the member
/// array of an object value: what its writing reads first).
#[inline(always)]
fn prefetch_deep((k, v): &(Str, Value)) {
    prefetch(k.as_ptr());
    let (p, bytes) = match v {
        Value::String(s) => (s.as_ptr(), s.len()),
        Value::Array(a) => (a.as_ptr() as *const u8, std::mem::size_of_val(a.as_slice())),
        Value::Object(o) => (o.members().as_ptr() as *const u8, std::mem::size_of_val(o.members())),
        _ => return,
    };
    let mut at = 0;
    while at < bytes.min(4 * 64) {
        prefetch(p.wrapping_add(at));
        at += 64;
    }
}

#[inline]
fn prefetch_elements(items: &[Value]) {
    items.iter().for_each(prefetch_value);
}

/// The heap data a value's writing starts with, if it has any.
#[inline(always)]
fn prefetch_value(v: &Value) {
    match v {
        Value::String(s) => prefetch(s.as_ptr()),
        Value::Array(a) => prefetch(a.as_ptr() as *const u8),
        Value::Object(o) => prefetch(o.members().as_ptr() as *const u8),
        _ => {}
    }
}

#[inline(always)]
fn prefetch(p: *const u8) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is only a hint; it never faults and reads nothing
    // the program can observe, whatever the address.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p as *const i8);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

fn write_object<S: Sink>(w: &mut Writer<S>, map: &Map) -> Result<()> {
    let members = map.members();
    if members.len() > 2 {
        prefetch_members(members);
    }
    w.begin_object();
    let order = w.style().map_order;
    if order == KeyOrder::Insertion || members.len() < 2 || rises(w, members, order) {
        write_members(w, members)?;
    } else {
        // The order on the writer's stack: no allocation, and nested
        // objects stack theirs above ours.
        let sm = w.sort_memory();
        let (pb, ob) = (sm.prefixes.len() - members.len(), sm.order.len());
        sm.shapes.sort_into(&sm.prefixes[pb..], sm.hash, &mut sm.order, |a, b| {
            keys::compare(order, members[a as usize].0.as_bytes(), members[b as usize].0.as_bytes())
        });
        sm.prefixes.truncate(pb);
        let rolling = members.len() > ROLLING_FROM;
        for n in 0..members.len() {
            let order = &w.sort_memory().order;
            // Members go out in another order than they lie in memory (and
            // than the prefetches at the start asked for them), so the
            // hardware's own prefetching, which follows the addresses, does
            // not help: ask for the data of the member `AHEAD` places on.
            if rolling {
                if let Some(&ahead) = order.get(ob + n + AHEAD) {
                    prefetch_deep(&members[ahead as usize]);
                }
            }
            let (k, v) = &members[order[ob + n] as usize];
            w.key(k, n == 0)?;
            write_element(w, v).map_err(|e| e.in_key(k))?;
            w.spill_if_full()?;
        }
        w.sort_memory().order.truncate(ob);
    }
    w.end_object(members.is_empty());
    Ok(())
}

/// Pushes the sort prefixes of the keys on the writer's prefix stack (and
/// their hash in `SortMemory::hash`), and tells whether they strictly rise:
/// such an object (written by a sorted writer, as Go writes maps) is in
/// order already, and its prefixes are popped again.
#[inline]
fn rises<S: Sink>(w: &mut Writer<S>, members: &[(Str, Value)], order: KeyOrder) -> bool {
    let sm = w.sort_memory();
    let base = sm.prefixes.len();
    let mut hash = ShapeHash::new();
    let mut rising = true;
    let mut last = 0;
    if sm.zero() {
        crate::pool::reserve_wiping(&mut sm.prefixes, members.len());
    }
    sm.prefixes.extend(members.iter().enumerate().map(|(i, (k, _))| {
        let p = k.sort_prefix(order);
        hash = hash.add(p);
        rising &= i == 0 || last < p;
        last = p;
        p
    }));
    if rising {
        sm.prefixes.truncate(base);
    }
    sm.hash = hash;
    rising
}

/// The members of an object, in the order given.
#[inline(always)]
fn write_members<S: Sink>(w: &mut Writer<S>, members: &[(Str, Value)]) -> Result<()> {
    for (i, (k, v)) in members.iter().enumerate() {
        w.key(k, i == 0)?;
        write_element(w, v).map_err(|e| e.in_key(k))?;
        w.spill_if_full()?;
    }
    Ok(())
}
