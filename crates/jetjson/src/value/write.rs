//! Writing a `Value` straight through the `Writer` (no serde round trip).

use super::{Map, Number, Str, Value};
use crate::error::Result;
use crate::keys;
use crate::options::KeyOrder;
use crate::parse::{level, Level};
use crate::shape::ShapeHash;
#[cfg(target_arch = "x86_64")]
use crate::writer::Avx2Isa;
use crate::writer::{BuildIsa, ShortIsa, Sink, Writer};

pub(crate) fn write_value<S: Sink>(w: &mut Writer<S>, v: &Value) -> Result<()> {
    write_value_at(w, v, level())
}

/// `write_value` with the build of the writer's recursion for `level`,
/// which must be one this CPU runs (`level()`, or `Baseline`: the tests
/// write with each and compare).
///
/// The whole recursion (containers, members, the clean-string and number
/// paths of the `Writer`, all inlined into it) is compiled once per level,
/// and the level is chosen once per call. A build with no target flags then
/// runs the same code for small documents as one built for the machine:
/// compiled for the baseline (SSE2), the writer's short-string checks and
/// copies took 2-3% more instructions and ~8% more time on small OCI
/// documents than in an x86-64-v3 build (bench/results/portable-writes-2026-11-28.md).
pub(crate) fn write_value_at<S: Sink>(w: &mut Writer<S>, v: &Value, level: Level) -> Result<()> {
    match level {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `Level::Avx2` is only produced when the CPU has every
        // feature `value_avx2` enables (see `drive::level`; the tests pass
        // it only then too).
        // (No AVX-512 build of the writer: its AVX2 one.)
        Level::Avx2 | Level::Avx512 => unsafe { value_avx2(w, v) },
        Level::Baseline => value_baseline(w, v),
    }
}

/// Which build of the recursion a body is inlined into: the bodies below
/// are `#[inline(always)]` and generic over it, and call `B::value` for a
/// nested container, so each build recurses into itself.
///
/// `Isa` is the level the build is compiled for, for the `Writer`'s
/// string and key checks inlined into it.
trait Build {
    type Isa: ShortIsa;
    fn value<S: Sink>(w: &mut Writer<S>, v: &Value) -> Result<()>;
}

/// `Writer::str_inlined` compiled for `B`'s level.
#[inline(always)]
fn str_in<S: Sink, B: Build>(w: &mut Writer<S>, s: &str) -> Result<()> {
    // SAFETY: the bodies instantiated with `B` run only inside `B`'s build
    // of the recursion, compiled for `B::Isa`'s level on a CPU that has it.
    unsafe { w.str_inlined::<B::Isa>(s) }
}

/// `Writer::key` compiled for `B`'s level.
#[inline(always)]
fn key_in<S: Sink, B: Build>(w: &mut Writer<S>, k: &str, first: bool) -> Result<()> {
    // SAFETY: as in `str_in`.
    unsafe { w.key_in::<B::Isa>(k, first) }
}

/// The baseline build (no target features beyond the target's own).
struct Baseline;

impl Build for Baseline {
    type Isa = BuildIsa;
    #[inline(always)]
    fn value<S: Sink>(w: &mut Writer<S>, v: &Value) -> Result<()> {
        value_baseline(w, v)
    }
}

fn value_baseline<S: Sink>(w: &mut Writer<S>, v: &Value) -> Result<()> {
    value_body::<S, Baseline>(w, v)
}

/// The AVX2 build. Only `value_avx2` instantiates the bodies with it, so
/// `Avx2::value` only runs inside `value_avx2`, on a CPU that has its
/// features.
#[cfg(target_arch = "x86_64")]
struct Avx2;

#[cfg(target_arch = "x86_64")]
impl Build for Avx2 {
    type Isa = Avx2Isa;
    #[inline(always)]
    fn value<S: Sink>(w: &mut Writer<S>, v: &Value) -> Result<()> {
        // SAFETY: called only from the bodies instantiated for `Avx2`, which
        // run only inside `value_avx2`, so the CPU has its features.
        unsafe { value_avx2(w, v) }
    }
}

/// # Safety
/// The CPU supports AVX2, BMI1, BMI2, LZCNT and POPCNT (`Level::Avx2`).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
unsafe fn value_avx2<S: Sink>(w: &mut Writer<S>, v: &Value) -> Result<()> {
    value_body::<S, Avx2>(w, v)
}

#[inline(always)]
fn value_body<S: Sink, B: Build>(w: &mut Writer<S>, v: &Value) -> Result<()> {
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
        Value::String(s) => str_in::<S, B>(w, s),
        Value::Array(items) => {
            enter(w)?;
            if items.len() > 2 {
                prefetch_elements(items);
            }
            w.begin_array();
            for (i, item) in items.iter().enumerate() {
                w.array_item(i == 0);
                write_element::<S, B>(w, item).map_err(|e| e.in_index(i))?;
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
            write_object::<S, B>(w, map)
        }
    }
}

/// Scalars in place, containers by recursion: arrays of numbers and
/// strings (coordinates, ids, tags) then cost no call per element.
#[inline(always)]
fn write_element<S: Sink, B: Build>(w: &mut Writer<S>, v: &Value) -> Result<()> {
    match v {
        Value::Number(Number::Float(f)) => w.f64(*f),
        Value::Number(Number::Int(i)) => w.i64(*i),
        Value::String(s) => str_in::<S, B>(w, s),
        _ => B::value(w, v),
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

/// Inlined into each build of the recursion (see `Build`), as the member
/// loops are most of a document's writing.
#[inline(always)]
fn write_object<S: Sink, B: Build>(w: &mut Writer<S>, map: &Map) -> Result<()> {
    let members = map.members();
    if members.len() > 2 {
        prefetch_members(members);
    }
    w.begin_object();
    let order = w.style().map_order;
    if order == KeyOrder::Insertion || members.len() < 2 || rises(w, members, order) {
        write_members::<S, B>(w, members)?;
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
            key_in::<S, B>(w, k, n == 0)?;
            write_element::<S, B>(w, v).map_err(|e| e.in_key(k))?;
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
#[inline(always)]
fn rises<S: Sink>(w: &mut Writer<S>, members: &[(Str, Value)], order: KeyOrder) -> bool {
    let sm = w.sort_memory();
    let base = sm.prefixes.len();
    let mut hash = ShapeHash::new();
    let mut rising = true;
    let mut last = 0;
    if sm.zero() {
        crate::pool::reserve_wiping(&mut sm.prefixes, members.len());
    }
    // A loop of pushes rather than `extend`: inlined into the recursion
    // (`write_object`), `extend` was left out of line, and its call cost
    // 6% more instructions on citm_catalog in `go`.
    sm.prefixes.reserve(members.len());
    for (i, (k, _)) in members.iter().enumerate() {
        let p = k.sort_prefix(order);
        hash = hash.add(p);
        rising &= i == 0 || last < p;
        last = p;
        sm.prefixes.push(p);
    }
    if rising {
        sm.prefixes.truncate(base);
    }
    sm.hash = hash;
    rising
}

/// The members of an object, in the order given.
#[inline(always)]
fn write_members<S: Sink, B: Build>(w: &mut Writer<S>, members: &[(Str, Value)]) -> Result<()> {
    for (i, (k, v)) in members.iter().enumerate() {
        key_in::<S, B>(w, k, i == 0)?;
        write_element::<S, B>(w, v).map_err(|e| e.in_key(k))?;
        w.spill_if_full()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{write_value_at, Level};
    use crate::escape::Escaper;
    use crate::value::{Map, Number, Str, Value};
    use crate::writer::Writer;
    use crate::WriteOptions;

    /// The builds of the recursion this CPU runs: the baseline, and AVX2
    /// when present.
    pub(super) fn levels() -> Vec<Level> {
        let mut l = vec![Level::Baseline];
        #[cfg(target_arch = "x86_64")]
        if crate::parse::level() >= Level::Avx2 {
            l.push(Level::Avx2);
        }
        l
    }

    fn profiles() -> Vec<(&'static str, WriteOptions)> {
        vec![
            ("compact", WriteOptions::compact()),
            ("go", WriteOptions::go()),
            ("go without html", WriteOptions::go().escape_html(false)),
            ("jcs", WriteOptions::jcs()),
            ("compact ascii", WriteOptions::compact().ascii_only(true)),
            ("compact sorted", WriteOptions::compact().sort_keys(true)),
            ("go indented", WriteOptions::go().indent(2)),
        ]
    }

    fn write(v: &Value, options: &WriteOptions, level: Level) -> Vec<u8> {
        let mut w = Writer::new(options);
        write_value_at(&mut w, v, level).expect("writable");
        w.into_buffer().expect("finished").into_vec()
    }

    /// `s` quoted as the byte-at-a-time escaper of `set` writes it.
    pub(super) fn quoted(set: crate::escape::EscapeSet, s: &str) -> Vec<u8> {
        let mut q = b"\"".to_vec();
        Escaper::scalar(set).escape(&mut q, s);
        q.push(b'"');
        q
    }

    /// Xorshift: the same sequence every run, so a failure repeats.
    pub(super) struct Rng(pub(super) u64);

    impl Rng {
        pub(super) fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 >> 11) as usize % n
        }
    }

    /// Characters that some profile escapes, and some that none does.
    const PIECES: &[&str] = &[
        "a", "b", "z", "0", " ", "~", "\"", "\\", "/", "<", ">", "&", "\n", "\t", "\u{0}", "\u{1f}", "\u{7f}", "é", "€", "\u{2028}",
        "\u{2029}", "😀", "\u{fffd}",
    ];

    /// A string of exactly `len` bytes: mostly clean ASCII (so many are
    /// clean and take the short-string path), with an escaped or
    /// non-ASCII character one time in `dirt`.
    fn text(rng: &mut Rng, len: usize, dirt: usize) -> String {
        let mut s = String::with_capacity(len);
        while s.len() < len {
            let piece = if dirt > 0 && rng.below(dirt) == 0 { PIECES[rng.below(PIECES.len())] } else { PIECES[rng.below(6)] };
            if s.len() + piece.len() <= len {
                s.push_str(piece);
            }
        }
        s
    }

    /// Every string length from 0 to 200 (across the short-string limit of
    /// 96 and every block end below it), clean and dirty, written alone, as
    /// array items and as a member's name and value, by every build of the
    /// recursion: what the byte-at-a-time escaper writes.
    #[test]
    fn every_build_escapes_strings_as_the_scalar_escaper() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for (name, options) in profiles() {
            let set = options.style().escaper.set();
            let quoted = |s: &str| quoted(set, s);
            for len in 0..=200 {
                for dirt in [0, 3, 40, len.max(1) * 4] {
                    let s = text(&mut rng, len, dirt);
                    let q = quoted(&s);
                    let array = Value::from(vec![Value::from(s.as_str()), Value::from(s.as_str())]);
                    let object: Map = [(Str::from(s.as_str()), Value::from(s.as_str()))].into_iter().collect();
                    let object = Value::Object(object);
                    for level in levels() {
                        let at = format!("{name}, {level:?}, {s:?}");
                        assert_eq!(write(&Value::from(s.as_str()), &options, level), q, "{at}");
                        if options.indent_width() == 0 {
                            let want_array = [&b"["[..], &q, b",", &q, b"]"].concat();
                            assert_eq!(write(&array, &options, level), want_array, "{at}");
                            let want_object = [&b"{"[..], &q, b":", &q, b"}"].concat();
                            assert_eq!(write(&object, &options, level), want_object, "{at}");
                        } else {
                            assert_eq!(write(&array, &options, level), write(&array, &options, Level::Baseline), "{at}");
                            assert_eq!(write(&object, &options, level), write(&object, &options, Level::Baseline), "{at}");
                        }
                    }
                }
            }
        }
    }

    fn random_value(rng: &mut Rng, depth: usize) -> Value {
        match rng.below(if depth == 0 { 6 } else { 9 }) {
            0 => Value::Null,
            1 => Value::Bool(rng.below(2) == 1),
            2 => Value::Number(Number::Int(rng.below(2_000_001) as i64 - 1_000_000)),
            3 => Value::from(rng.below(1 << 30) as f64 / (1 + rng.below(1000)) as f64),
            4 => Value::Number(Number::UInt(u64::MAX - rng.below(1000) as u64)),
            5 => {
                let len = rng.below(120);
                Value::from(text(rng, len, 8).as_str())
            }
            6 | 7 => {
                let n = rng.below(8);
                let mut map = Map::new();
                for _ in 0..n {
                    let len = rng.below(12);
                    // Few distinct names, so that sorted profiles reorder.
                    let key = if rng.below(4) == 0 { text(rng, len, 4) } else { format!("k{}", rng.below(20)) };
                    map.insert(key.as_str(), random_value(rng, depth - 1));
                }
                Value::Object(map)
            }
            _ => {
                let n = rng.below(8);
                Value::from((0..n).map(|_| random_value(rng, depth - 1)).collect::<Vec<_>>())
            }
        }
    }

    /// Random nested documents: every build writes the same bytes in every
    /// profile, and the same as the serde path (`Serialize for Value`, which
    /// does not go through this module's recursion).
    #[test]
    fn every_build_writes_random_documents_alike() {
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        for _ in 0..400 {
            let v = random_value(&mut rng, 4);
            for (name, options) in profiles() {
                let base = write(&v, &options, Level::Baseline);
                assert_eq!(base, crate::to_vec_with(&v, &options).expect("writable"), "{name}");
                for level in levels() {
                    assert_eq!(write(&v, &options, level), base, "{name}, {level:?}");
                }
            }
        }
    }
}

/// Review tests (wip-review-write): strings against guard pages, the deep
/// sorted recursion on a small stack, errors and big numbers in every
/// build.
#[cfg(test)]
mod review {
    use super::tests::{levels, quoted, Rng};
    use super::{write_value_at, Level};
    use crate::value::{Map, Number, Str, Value};
    use crate::writer::Writer;
    use crate::WriteOptions;

    fn profiles() -> Vec<(&'static str, WriteOptions)> {
        vec![
            ("compact", WriteOptions::compact()),
            ("go", WriteOptions::go()),
            ("go without html", WriteOptions::go().escape_html(false)),
            ("jcs", WriteOptions::jcs()),
            ("compact ascii", WriteOptions::compact().ascii_only(true)),
            ("go ascii", WriteOptions::go().ascii_only(true)),
            ("compact sorted", WriteOptions::compact().sort_keys(true)),
            ("go indented", WriteOptions::go().indent(2)),
            ("jcs indented", WriteOptions::jcs().indent(4)),
        ]
    }

    fn write(v: &Value, options: &WriteOptions, level: Level) -> std::result::Result<Vec<u8>, String> {
        let mut w = Writer::new(options);
        match write_value_at(&mut w, v, level) {
            Ok(()) => Ok(w.into_buffer().expect("finished").into_vec()),
            Err(e) => Err(format!("{e} / {:?}", e.kind())),
        }
    }

    /// Every length 0..=200, clean and with one escaped or non-ASCII
    /// character at the start, middle or end, flush against the guard
    /// page after it and right after the one before it: as a value, as
    /// array items and as a member's name and value, in every build and
    /// profile. A read past either end faults.
    #[cfg(all(target_os = "linux", target_arch = "x86_64"))]
    #[test]
    fn strings_against_guard_pages_in_every_build() {
        let mut guard = crate::parse::guard::Guarded::new();
        let dirt = ["<", ">", "&", "\"", "\\", "\n", "\u{0}", "\u{1f}", "\u{7f}", "é", "\u{2028}", "😀"];
        for (name, options) in profiles() {
            let set = options.style().escaper.set();
            let quoted = |s: &str| quoted(set, s);
            for len in 0..=200usize {
                let mut texts = vec!["a".repeat(len)];
                for d in dirt {
                    if d.len() <= len {
                        let fill = len - d.len();
                        texts.push(format!("{d}{}", "x".repeat(fill)));
                        texts.push(format!("{}{d}{}", "y".repeat(fill / 2), "y".repeat(fill - fill / 2)));
                        texts.push(format!("{}{d}", "z".repeat(fill)));
                    }
                }
                for t in &texts {
                    assert_eq!(t.len(), len);
                    let q = quoted(t);
                    for at_end in [true, false] {
                        let bytes = if at_end { guard.at_end(t.as_bytes()) } else { guard.at_start(t.as_bytes()) };
                        let s = std::str::from_utf8(bytes).expect("UTF-8");
                        // SAFETY: `s` (in `guard`) outlives every value made of it below.
                        let str = || unsafe { Str::borrowing(s) };
                        let single = Value::String(str());
                        let array = Value::Array(vec![Value::String(str()), Value::String(str())].into());
                        let object = Value::Object([(str(), Value::String(str()))].into_iter().collect::<Map>());
                        for level in levels() {
                            let at = format!("{name}, {level:?}, len {len}, at_end {at_end}, {t:?}");
                            assert_eq!(write(&single, &options, level).expect("writable"), q, "{at}");
                            let a = write(&array, &options, level).expect("writable");
                            let o = write(&object, &options, level).expect("writable");
                            if options.indent_width() == 0 {
                                assert_eq!(a, [&b"["[..], &q, b",", &q, b"]"].concat(), "{at}");
                                assert_eq!(o, [&b"{"[..], &q, b":", &q, b"}"].concat(), "{at}");
                            } else {
                                assert_eq!(Ok(a), write(&array, &options, Level::Baseline), "{at}");
                                assert_eq!(Ok(o), write(&object, &options, Level::Baseline), "{at}");
                            }
                        }
                    }
                }
            }
        }
    }

    /// Objects nested `depth` deep, each with two members out of order
    /// (`{"b":0,"a":{...}}`), so that every level of a sorted profile takes
    /// the sorting branch.
    fn sorted_nest(depth: usize) -> Value {
        let mut v = Value::from(0i64);
        for i in 0..depth {
            let mut m = Map::new();
            m.insert("b", Value::from(i as i64));
            m.insert("a", v);
            v = Value::Object(m);
        }
        v
    }

    fn on_stack<T: Send + 'static>(stack: usize, f: impl FnOnce() -> T + Send + 'static) -> T {
        std::thread::Builder::new().stack_size(stack).spawn(f).unwrap().join().unwrap()
    }

    /// 100,000 levels through the sorting branch, on a 64 KiB thread, in
    /// each build: `stack::PER_LEVEL` must cover the inlined recursion's
    /// frame in the profile the tests are built in (else this aborts).
    #[test]
    fn deep_sorted_objects_in_every_build_on_a_small_stack() {
        const DEEP: usize = 100_000;
        let v = on_stack(1 << 30, || sorted_nest(DEEP));
        let v = on_stack(64 << 10, move || {
            let mut outs = Vec::new();
            for options in [WriteOptions::go().max_write_depth(DEEP), WriteOptions::jcs().max_write_depth(DEEP)] {
                for level in levels() {
                    let out = crate::stack::with_room_for(DEEP, || write(&v, &options, level)).expect("writable");
                    assert!(out.starts_with(b"{\"a\":{\"a\":"), "{level:?}");
                    outs.push(out);
                }
                let refused = options.clone().max_write_depth(DEEP - 1);
                for level in levels() {
                    let e = crate::stack::with_room_for(DEEP, || write(&v, &refused, level)).expect_err("too deep");
                    assert!(e.contains("max_write_depth"), "{e}");
                }
            }
            assert!(outs.windows(2).step_by(2).all(|w| w[0] == w[1]));
            v
        });
        on_stack(1 << 30, move || drop(v));
    }

    const PIECES: &[&str] = &[
        "a",
        "b",
        "0",
        " ",
        "\"",
        "\\",
        "/",
        "<",
        ">",
        "&",
        "\n",
        "\r",
        "\t",
        "\u{8}",
        "\u{c}",
        "\u{0}",
        "\u{1f}",
        "\u{7f}",
        "\u{80}",
        "é",
        "€",
        "\u{2028}",
        "\u{2029}",
        "\u{feff}",
        "😀",
        "\u{10ffff}",
        "\u{fffd}",
    ];

    fn text(rng: &mut Rng, max: usize) -> String {
        let len = rng.below(max + 1);
        let mut s = String::new();
        let dirty = rng.below(3);
        while s.len() < len {
            s.push_str(if dirty == 0 { PIECES[rng.below(2)] } else { PIECES[rng.below(PIECES.len())] });
        }
        s
    }

    fn number(rng: &mut Rng) -> Value {
        let big = [
            "123456789012345678901234567890",
            "-0",
            "1e400",
            "-1E-400",
            "0.1e1",
            "9007199254740993",
            "18446744073709551616",
            "-9223372036854775809",
            "1.5",
        ];
        match rng.below(9) {
            0 => Value::Number(Number::Int(i64::MIN + rng.below(3) as i64)),
            1 => Value::Number(Number::Int(i64::MAX - rng.below(3) as i64)),
            2 => Value::Number(Number::UInt(u64::MAX - rng.below(3) as u64)),
            3 => Value::from([f64::MAX, f64::MIN_POSITIVE, 5e-324, -0.0, 1e21, 1e-7, 123456789.125, 9007199254740993.0][rng.below(8)]),
            4 => Value::from([f64::NAN, f64::INFINITY, f64::NEG_INFINITY][rng.below(3)]),
            5 => Value::Number(Number::Int(1 << 53 | rng.below(4) as i64)),
            _ => Value::Number(Number::from_literal(big[rng.below(big.len())]).expect("literal")),
        }
    }

    fn random_value(rng: &mut Rng, depth: usize) -> Value {
        match rng.below(if depth == 0 { 4 } else { 7 }) {
            0 => [Value::Null, Value::Bool(true), Value::Bool(false)][rng.below(3)].clone(),
            1 => number(rng),
            2 | 3 => Value::from(text(rng, 130).as_str()),
            4 | 5 => {
                let mut map = Map::new();
                for _ in 0..rng.below(10) {
                    // Shared 16-byte prefixes, so that sorting looks past them.
                    let key = match rng.below(3) {
                        0 => format!("prefix-prefix-pre{}", text(rng, 3)),
                        1 => text(rng, 20),
                        _ => format!("k{}", rng.below(30)),
                    };
                    map.insert(key.as_str(), random_value(rng, depth - 1));
                }
                Value::Object(map)
            }
            _ => Value::from((0..rng.below(10)).map(|_| random_value(rng, depth - 1)).collect::<Vec<_>>()),
        }
    }

    /// Random documents with hostile strings, extreme and non-finite
    /// numbers and big literals, some deeper than a lowered depth limit:
    /// both builds give the same bytes or the same error, and the serde
    /// path agrees.
    #[test]
    fn random_hostile_documents_and_errors_alike_in_every_build() {
        let mut rng = Rng(0xdead_beef_1234_5679);
        let mut errors = 0;
        for round in 0..1500 {
            let v = random_value(&mut rng, 1 + round % 6);
            let mut options = profiles();
            options.push(("go, depth 3", WriteOptions::go().max_write_depth(3)));
            options.push(("compact ascii sorted, depth 2", WriteOptions::compact().ascii_only(true).sort_keys(true).max_write_depth(2)));
            for (name, options) in options {
                let base = write(&v, &options, Level::Baseline);
                errors += usize::from(base.is_err());
                // The serde path goes through the door to the `Value`
                // writer (value/ser.rs): the same bytes or the same error,
                // place included.
                let serde = crate::to_vec_with(&v, &options).map_err(|e| format!("{e} / {:?}", e.kind()));
                assert_eq!(base, serde, "{name}, round {round}");
                for level in levels() {
                    assert_eq!(write(&v, &options, level), base, "{name}, {level:?}, round {round}");
                }
            }
        }
        assert!(errors > 100, "{errors} errors");
    }
}
