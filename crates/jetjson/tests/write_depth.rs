//! The write-side nesting limit, `WriteOptions::max_write_depth`: the same
//! default on every path (512, the read default), exact at its boundary,
//! named in the error, raisable up to `MAX_WRITE_DEPTH` without
//! overflowing the stack however small the calling thread's is.

use jetjson::{Algorithm, Error, ErrorKind, Profile, ReadOptions, Value, WriteOptions, Writer, DEFAULT_MAX_WRITE_DEPTH, MAX_WRITE_DEPTH};

/// A thread stack far smaller than deep writes need: every deep write
/// below must run on the stack the library maps for it.
const TINY_STACK: usize = 64 * 1024;

fn on_stack<T: Send + 'static>(stack: usize, f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new().stack_size(stack).spawn(f).unwrap().join().unwrap()
}

/// `depth` levels alternating arrays and objects (`[{"a":[{"a":...0}]}]`).
fn nested_text(depth: usize) -> String {
    let mut s = String::with_capacity(depth * 6);
    for i in 0..depth {
        s.push_str(if i % 2 == 0 { "[" } else { "{\"a\":" });
    }
    s.push('0');
    for i in (0..depth).rev() {
        s.push(if i % 2 == 0 { ']' } else { '}' });
    }
    s
}

fn nested_value(depth: usize) -> Value {
    Value::from_slice_with(nested_text(depth).as_bytes(), &ReadOptions::new().max_depth(depth)).unwrap()
}

/// Drops a deep value where dropping it has room (dropping recurses).
fn drop_deep(v: Value) {
    on_stack(1 << 30, move || drop(v));
}

/// Every way a value is written: (name, output or error). The digests are
/// compared with the digest of the text the other paths write.
fn every_path(v: &Value, options: &WriteOptions) -> Vec<(&'static str, Result<Vec<u8>, Error>)> {
    let mut sink = Vec::new();
    let through_sink = {
        let mut w = Writer::with_sink(options, jetjson::IoSink(&mut sink));
        v.write_to(&mut w).and_then(|()| w.finish().map(drop))
    };
    let digest = |r: jetjson::Result<String>| r.map(String::into_bytes);
    vec![
        ("Value::to_vec_with", v.to_vec_with(options)),
        ("to_vec_with (serde)", jetjson::to_vec_with(v, options)),
        ("to_writer_with (serde)", {
            let mut out = Vec::new();
            jetjson::to_writer_with(&mut out, v, options).map(|()| out)
        }),
        ("Value::write_to", through_sink.map(|()| sink)),
        ("digest_value", digest(jetjson::digest_value(v, options, Algorithm::Sha256))),
        ("digest (serde)", digest(jetjson::digest(v, options, Algorithm::Sha256))),
    ]
}

fn assert_written(v: &Value, options: &WriteOptions, want: &str) {
    let want_digest = jetjson::digest_bytes(want.as_bytes(), Algorithm::Sha256);
    for (path, got) in every_path(v, options) {
        let got = got.unwrap_or_else(|e| panic!("{path}: {e}"));
        let want = if path.starts_with("digest") { want_digest.as_bytes() } else { want.as_bytes() };
        assert!(got == want, "{path}: output differs ({} bytes, want {})", got.len(), want.len());
    }
}

fn assert_refused(v: &Value, options: &WriteOptions, limit: usize) {
    for (path, got) in every_path(v, options) {
        let e = got.err().unwrap_or_else(|| panic!("{path}: written past max_write_depth {limit}"));
        assert_eq!(e.kind(), &ErrorKind::WriteDepthLimit { limit }, "{path}: {e}");
        // No path: it would be `limit` steps long.
        assert_eq!(e.to_string(), format!("nesting deeper than max_write_depth {limit}"), "{path}");
    }
}

#[test]
fn the_default_is_the_read_default_and_exact() {
    assert_eq!(DEFAULT_MAX_WRITE_DEPTH, 512);
    assert_eq!(WriteOptions::default().write_depth_limit(), 512);
    for profile in [Profile::Compact, Profile::Go, Profile::Jcs] {
        let options = WriteOptions::new(profile);
        assert_eq!(options.write_depth_limit(), DEFAULT_MAX_WRITE_DEPTH, "{profile:?}");
        // What the parser accepts with its defaults (512 levels) is written.
        let at_limit = nested_value(512);
        assert_written(&at_limit, &options, &nested_text(512));
        assert_refused(&nested_value(513), &options, 512);
    }
}

#[test]
fn a_lowered_limit_is_exact_in_every_profile_and_with_indent() {
    for options in [
        WriteOptions::compact().max_write_depth(3),
        WriteOptions::go().indent(2).max_write_depth(3),
        WriteOptions::jcs().max_write_depth(3),
    ] {
        let three = nested_value(3);
        assert_written(&three, &options, &String::from_utf8(three.to_vec_with(&options.clone().max_write_depth(4)).unwrap()).unwrap());
        assert_refused(&nested_value(4), &options, 3);
    }
    // Scalars have no depth: a limit of 1 still writes `[0]` and `0`.
    let one = WriteOptions::compact().max_write_depth(1);
    assert_written(&nested_value(1), &one, "[0]");
    assert_written(&Value::from_slice(b"0").unwrap(), &one, "0");
    assert_refused(&nested_value(2), &one, 1);
}

/// 200,000 levels on a 64 KiB thread: the write runs on a stack mapped
/// for the limit (without it, this overflows the stack and aborts the test
/// binary). Also checks that `stack.rs`'s bytes per level are enough in
/// the profile the tests are built in.
#[test]
fn a_raised_limit_writes_deep_values_on_a_tiny_stack() {
    const DEEP: usize = 200_000;
    let (v, text) = on_stack(256 << 20, || (nested_value(DEEP), nested_text(DEEP)));
    let v = on_stack(TINY_STACK, move || {
        assert_written(&v, &WriteOptions::go().max_write_depth(DEEP), &text);
        assert_refused(&v, &WriteOptions::go().max_write_depth(DEEP - 1), DEEP - 1);
        v
    });
    drop_deep(v);
}

/// At the ceiling itself: a million levels, written on a tiny stack.
#[test]
fn the_ceiling_is_writable() {
    let v = on_stack(1 << 30, || nested_value(MAX_WRITE_DEPTH));
    let v = on_stack(TINY_STACK, move || {
        let out = v.to_vec_with(&WriteOptions::compact().max_write_depth(MAX_WRITE_DEPTH)).unwrap();
        assert_eq!(out.len(), nested_text(MAX_WRITE_DEPTH).len());
        v
    });
    drop_deep(v);
}

#[test]
fn a_limit_out_of_range_is_refused_before_writing() {
    let v = nested_value(2);
    for depth in [0, MAX_WRITE_DEPTH + 1, usize::MAX] {
        let options = WriteOptions::compact().max_write_depth(depth);
        let e = options.check().unwrap_err();
        assert_eq!(e.kind(), &ErrorKind::WriteDepthOption { depth, ceiling: MAX_WRITE_DEPTH });
        assert_eq!(e.to_string(), format!("max_write_depth must be from 1 to 1000000, got {depth}"));
        for (path, got) in every_path(&v, &options) {
            // Value::write_to takes a writer, not options: its writer
            // refuses the first container instead (depth 0), or writes
            // within the ceiling.
            if path == "Value::write_to" {
                continue;
            }
            assert_eq!(got.unwrap_err().kind(), e.kind(), "{path}");
        }
    }
}

/// serde types count their levels as `Value` does, variants included
/// (`{"V":[...]}` is two levels).
#[test]
fn serde_types_are_held_to_the_limit() {
    #[derive(serde::Serialize)]
    enum Tree {
        Leaf,
        Node(Vec<Tree>),
        Pair(Box<Tree>, u8),
    }
    let leaf_in = |levels: usize| (0..levels).fold(Tree::Leaf, |t, _| Tree::Node(vec![t]));
    // Node = object + array: two levels each.
    let options = WriteOptions::compact().max_write_depth(6);
    assert_eq!(jetjson::to_string_with(&leaf_in(3), &options).unwrap(), r#"{"Node":[{"Node":[{"Node":["Leaf"]}]}]}"#);
    let e = jetjson::to_string_with(&leaf_in(4), &options).unwrap_err();
    assert_eq!(e.kind(), &ErrorKind::WriteDepthLimit { limit: 6 });
    // A tuple variant: the object counts, then its array.
    let pair = Tree::Pair(Box::new(leaf_in(2)), 1);
    assert!(jetjson::to_string_with(&pair, &options).is_ok());
    let e = jetjson::to_string_with(&pair, &WriteOptions::compact().max_write_depth(5)).unwrap_err();
    assert_eq!(e.kind(), &ErrorKind::WriteDepthLimit { limit: 5 });
}

/// A raw JSON value in `jcs` is read again and written, and in `go` laid
/// out again: its nesting counts below `max_write_depth` (`jcs` read it
/// under the read default of 512, which a raised write limit did not lift;
/// `go` had no limit at all, so an indent made a deep text huge), and
/// deeper is the write limit's error.
#[test]
fn raw_json_in_jcs_and_go_nests_under_the_write_limit() {
    on_stack(1 << 26, || {
        for profile in [Profile::Jcs, Profile::Go] {
            let text = nested_text(600);
            let raw = jetjson::RawJson::from_unchecked(text.as_str());
            let want = jetjson::to_vec_with(&nested_value(600), &WriteOptions::new(profile).max_write_depth(600)).unwrap();
            // At the top: as deep as the limit, and one deeper.
            let got = jetjson::to_vec_with(&raw, &WriteOptions::new(profile).max_write_depth(600)).unwrap();
            assert_eq!(got, want);
            let e = jetjson::to_vec_with(&raw, &WriteOptions::new(profile).max_write_depth(599)).unwrap_err();
            assert!(matches!(e.kind(), ErrorKind::WriteDepthLimit { limit: 599 }), "{profile:?}: {e}");
            // Inside an array: one level fewer left for it.
            let inside = [&raw];
            assert!(jetjson::to_vec_with(&inside, &WriteOptions::new(profile).max_write_depth(601)).is_ok());
            let e = jetjson::to_vec_with(&inside, &WriteOptions::new(profile).max_write_depth(600)).unwrap_err();
            assert!(matches!(e.kind(), ErrorKind::WriteDepthLimit { limit: 600 }), "{profile:?}: {e}");
            // A scalar has room wherever a value can be written.
            let one = jetjson::RawJson::from_unchecked("1");
            assert_eq!(jetjson::to_vec_with(&[[&one]], &WriteOptions::new(profile).max_write_depth(2)).unwrap(), b"[[1]]");
        }
        // A writer's raw value in jcs on a small thread stack: written (it is
        // read into a `Value` and written by recursion, which crashed past
        // ~300 levels on a 64 KiB stack from C and Python, whose writes are
        // not wrapped as `to_vec_with`'s are).
        let deep = nested_text(20_000);
        let want = deep.clone();
        let got = on_stack(64 << 10, move || {
            let options = WriteOptions::new(Profile::Jcs).max_write_depth(20_000);
            let mut w = Writer::new(&options);
            w.raw(deep.as_bytes()).unwrap();
            w.as_bytes().to_vec()
        });
        assert_eq!(got, want.as_bytes());
        // Indented, a deep text under a low limit is refused, not laid out.
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        let raw = jetjson::RawJson::from_unchecked(deep.as_str());
        let e = jetjson::to_vec_with(&raw, &WriteOptions::go().indent(1).max_write_depth(2)).unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::WriteDepthLimit { limit: 2 }), "{e}");
    });
}
