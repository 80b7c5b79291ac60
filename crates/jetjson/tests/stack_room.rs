//! What recurses on the stack in the target type's code (serde
//! deserialization into typed targets, serde writes, `from_value`,
//! `to_value`) never overflows it at a depth the limits allow: on a thread
//! with a 64 KiB stack, every level up to the limit is read or converted,
//! and past it the error is the limit's; levels of large frames on threads
//! of 256 KiB and more. (Each case aborted the test process with a stack
//! overflow before the checks of `stack.rs`.)

use jetjson::{ErrorKind, ReadOptions, Value};
use serde::de::IgnoredAny;
use serde::{Deserialize, Serialize, Serializer};

fn nested(depth: usize, open: &str, close: &str, leaf: &str) -> String {
    let mut s = open.repeat(depth);
    s.push_str(leaf);
    s.push_str(&close.repeat(depth));
    s
}

/// Runs `f` on a thread with a 64 KiB stack.
fn small_stack<R: Send + 'static>(f: impl FnOnce() -> R + Send + 'static) -> R {
    std::thread::Builder::new().stack_size(64 << 10).spawn(f).unwrap().join().expect("the thread ended normally")
}

/// A type that recurses: `[[[...]]]` (dropping it recurses too, so the
/// depths it is read at stay low enough for that).
#[derive(Deserialize)]
struct Nest(Vec<Nest>);

fn nest_depth(n: &Nest) -> usize {
    let mut depth = 1;
    let mut at = n;
    while let Some(inner) = at.0.first() {
        depth += 1;
        at = inner;
    }
    depth
}

#[derive(Deserialize)]
enum Chain {
    Link(Box<Chain>),
    End,
}

/// A struct around the nesting, as a message holding a deep member.
#[derive(Deserialize)]
struct Holder {
    #[allow(dead_code)]
    deep: IgnoredAny,
    v: Value,
}

#[test]
fn typed_reads_recurse_to_the_default_limit_on_a_small_stack() {
    let depth = small_stack(|| {
        let text = nested(512, "[", "]", "");
        jetjson::from_str::<Nest>(&text).map(|n| nest_depth(&n)).map_err(|e| e.to_string())
    });
    assert_eq!(depth, Ok(512));
    let refused = small_stack(|| jetjson::from_str::<Nest>(&nested(513, "[", "]", "")).map(drop).unwrap_err().kind().clone());
    assert_eq!(refused, ErrorKind::DepthLimit { limit: 512 });
}

#[test]
fn typed_reads_recurse_to_the_ceiling_on_a_small_stack() {
    let (at_ceiling, past) = small_stack(|| {
        let options = ReadOptions::new().max_depth(100_000);
        let ok = jetjson::from_slice_with::<IgnoredAny>(nested(10_000, "[", "]", "").as_bytes(), &options).is_ok();
        let past = jetjson::from_slice_with::<IgnoredAny>(nested(10_001, "{\"k\":", "}", "1").as_bytes(), &options);
        (ok, past.map(drop).map_err(|e| e.kind().clone()))
    });
    assert!(at_ceiling);
    assert_eq!(past, Err(ErrorKind::RecursionCeiling { ceiling: 10_000, max_depth: Some(100_000) }));
    // Enums of the externally tagged form nest through their own path.
    let chain = small_stack(|| {
        let options = ReadOptions::new().max_depth(100_000);
        let text = nested(400, "{\"Link\":", "}", "\"End\"");
        let mut links = 0;
        let mut at = jetjson::from_slice_with::<Chain>(text.as_bytes(), &options).map_err(|e| e.to_string())?;
        while let Chain::Link(next) = at {
            links += 1;
            at = *next;
        }
        Ok::<_, String>(links)
    });
    assert_eq!(chain, Ok(400));
}

#[test]
fn a_refused_deep_value_field_is_an_error_on_a_small_stack() {
    // The `Value` is one level deeper than `max_depth` allows: the door
    // refuses it, and the generic way reads it again to say why.
    let e = small_stack(|| {
        let doc = format!(r#"{{"deep":1,"v":{}}}"#, nested(100_000, "[", "]", ""));
        jetjson::from_slice_with::<Holder>(doc.as_bytes(), &ReadOptions::new().max_depth(100_000)).map(drop).unwrap_err()
    });
    assert!(matches!(e.kind(), ErrorKind::RecursionCeiling { .. } | ErrorKind::DepthLimit { .. }), "{e}");
    let ok = small_stack(|| {
        let doc = format!(r#"{{"deep":{},"v":1}}"#, nested(9_000, "[", "]", ""));
        jetjson::from_slice_with::<Holder>(doc.as_bytes(), &ReadOptions::new().max_depth(100_000)).map(|h| h.v.as_i64())
    });
    assert_eq!(ok.map_err(|e| e.to_string()), Ok(Some(1)));
}

/// Serializes as `depth` arrays, one inside the other (holds no tree).
struct Deep(usize);

impl Serialize for Deep {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let mut seq = s.serialize_seq(Some(usize::from(self.0 > 0)))?;
        if self.0 > 0 {
            seq.serialize_element(&Deep(self.0 - 1))?;
        }
        seq.end()
    }
}

#[test]
fn conversions_recurse_to_their_ceiling_on_a_small_stack() {
    let ok = small_stack(|| {
        let past = jetjson::to_value(&Deep(2_048)).map(drop).map_err(|e| e.kind().clone());
        assert_eq!(past, Err(ErrorKind::RecursionCeiling { ceiling: 2_048, max_depth: None }));
        let to = jetjson::to_value(&Deep(2_047)).unwrap();
        assert_eq!(to.to_string(), nested(2_048, "[", "]", ""));
        let from = Value::deserialize(&to).unwrap();
        from == to
    });
    assert!(ok);
}

/// A level whose frames are large: an 8 KiB field, held by the derived
/// visitor while the next level is read (outside tester, stop 44: checked
/// only every 32 levels for 256 KiB, 20 levels of such a type overflowed
/// a 1 MiB thread, 300 an 8 MiB one).
#[derive(Deserialize)]
struct Big {
    pad: [[u64; 32]; 32],
    next: Option<Box<Big>>,
}

fn big_text(depth: usize) -> String {
    let pad = format!("[{}]", vec![format!("[{}]", vec!["7"; 32].join(",")); 32].join(","));
    let mut s = String::new();
    for _ in 0..depth {
        s.push_str(&format!("{{\"pad\":{pad},\"next\":"));
    }
    s.push_str("null");
    s.push_str(&"}".repeat(depth));
    s
}

/// Levels of `Big` read, and the sum of their pads' corners (each 7, so
/// 7 × levels: every level was read whole).
fn big_levels(b: &Big) -> (usize, u64) {
    let (mut n, mut sum, mut at) = (1, b.pad[0][0] + b.pad[31][31] - 7, b);
    while let Some(next) = &at.next {
        n += 1;
        sum += next.pad[0][0] + next.pad[31][31] - 7;
        at = next;
    }
    (n, sum)
}

#[test]
fn levels_with_large_frames_are_read_to_the_limit_on_any_stack() {
    // (Not 64 KiB: one level of this type, read before any check can
    // run, takes most of it.)
    for stack in [256 << 10, 1 << 20, 2 << 20] {
        // (510 levels and the pad's two arrays: the default limit, 512.)
        let text = big_text(510);
        let got = std::thread::Builder::new()
            .stack_size(stack)
            .spawn(move || {
                let b: Box<Big> = jetjson::from_str(&text).map_err(|e| e.to_string())?;
                let counted = big_levels(&b);
                // (Dropping `Box<Big>` recurses too: on a thread with room
                // for it, not the reader's concern.)
                std::thread::Builder::new().stack_size(64 << 20).spawn(move || drop(b)).unwrap().join().unwrap();
                Ok::<_, String>(counted)
            })
            .unwrap()
            .join()
            .expect("the thread ended normally");
        assert_eq!(got, Ok((510, 7 * 510)), "stack {stack}");
    }
}

/// An untagged enum is read by serde from a buffered copy of the value
/// (serde's `Content`), walked in serde's own code, where no deserializer
/// sees the levels: the room it needs is the thread's to give. At the
/// default limit it is read on a thread of Rust's default 2 MiB (the
/// README says what such types need).
#[derive(Deserialize)]
#[serde(untagged)]
#[allow(dead_code)]
enum Loose {
    Many(Vec<Loose>),
    One(u64),
}

#[test]
fn untagged_enums_are_read_to_the_default_limit_on_a_default_thread() {
    let text = nested(512, "[", "]", "1");
    let read = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || {
            let v: Loose = jetjson::from_str(&text).map_err(|e| e.to_string())?;
            let mut depth = 0;
            let mut at = &v;
            while let Loose::Many(items) = at {
                depth += 1;
                at = &items[0];
            }
            // (Dropped on a thread with room for its recursion.)
            std::thread::Builder::new().stack_size(64 << 20).spawn(move || drop(v)).unwrap().join().unwrap();
            Ok::<_, String>(depth)
        })
        .unwrap()
        .join()
        .expect("the thread ended normally");
    assert_eq!(read, Ok(512));
}

/// Serializes as `depth` arrays, one inside the other, each level holding
/// `PAD` bytes of frame while the next is written (outside tester, stop
/// 45: serde writes had room for 1 KiB a level, `to_value`/`from_value`
/// checked every 32 levels for 256 KiB: 2 KiB levels overflowed a 256 KiB
/// thread at 500 levels, 8 KiB ones at 40-200).
struct Padded<const PAD: usize>(usize);

impl<const PAD: usize> Serialize for Padded<PAD> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let mut pad = [0u8; PAD];
        std::hint::black_box(&mut pad);
        let mut seq = s.serialize_seq(Some(usize::from(self.0 > 0)))?;
        if self.0 > 0 {
            seq.serialize_element(&Padded::<PAD>(self.0 - 1))?;
        }
        std::hint::black_box(&pad);
        seq.end()
    }
}

/// Reads `depth` arrays, one inside the other, each level holding `PAD`
/// bytes of frame while the next is read: how deep it was.
struct PaddedRead<const PAD: usize>(usize);

impl<'de, const PAD: usize> Deserialize<'de> for PaddedRead<PAD> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<const PAD: usize>;
        impl<'de, const PAD: usize> serde::de::Visitor<'de> for V<PAD> {
            type Value = PaddedRead<PAD>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("nested arrays")
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut pad = [0u8; PAD];
                std::hint::black_box(&mut pad);
                let inner: Option<PaddedRead<PAD>> = seq.next_element()?;
                std::hint::black_box(&pad);
                Ok(PaddedRead(1 + inner.map_or(0, |p| p.0)))
            }
        }
        d.deserialize_seq(V::<PAD>)
    }
}

fn on_thread<R: Send + 'static>(stack: usize, f: impl FnOnce() -> R + Send + 'static) -> R {
    std::thread::Builder::new().stack_size(stack).spawn(f).unwrap().join().expect("the thread ended normally")
}

fn large_frames_written_and_converted<const PAD: usize>(stack: usize) {
    // 511 levels: within the default write limit (512) and read limit.
    let want = nested(512, "[", "]", "");
    let got = on_thread(stack, || jetjson::to_vec(&Padded::<PAD>(511)).map_err(|e| e.to_string()));
    assert_eq!(got.as_deref(), Ok(want.as_bytes()), "to_vec, {PAD} B levels, stack {stack}");
    let got = on_thread(stack, || {
        let mut out = Vec::new();
        jetjson::to_writer(&mut out, &Padded::<PAD>(511)).map(|()| out).map_err(|e| e.to_string())
    });
    assert_eq!(got.as_deref(), Ok(want.as_bytes()), "to_writer, {PAD} B levels, stack {stack}");
    let got = on_thread(stack, || jetjson::to_value(&Padded::<PAD>(511)).map(|v| v.to_string()).map_err(|e| e.to_string()));
    assert_eq!(got.as_deref(), Ok(want.as_str()), "to_value, {PAD} B levels, stack {stack}");
    let value = Value::from_slice(want.as_bytes()).unwrap();
    let got = on_thread(stack, move || jetjson::from_value::<PaddedRead<PAD>>(value).map(|p| p.0).map_err(|e| e.to_string()));
    assert_eq!(got, Ok(512), "from_value, {PAD} B levels, stack {stack}");
    let got = on_thread(stack, move || jetjson::from_str::<PaddedRead<PAD>>(&want).map(|p| p.0).map_err(|e| e.to_string()));
    assert_eq!(got, Ok(512), "from_str, {PAD} B levels, stack {stack}");
}

#[test]
fn levels_with_large_frames_are_written_and_converted_to_the_limit_on_any_stack() {
    for stack in [256 << 10, 1 << 20, 2 << 20] {
        large_frames_written_and_converted::<2048>(stack);
        large_frames_written_and_converted::<8192>(stack);
        large_frames_written_and_converted::<16384>(stack);
    }
}
