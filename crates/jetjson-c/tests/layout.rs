//! The header agrees with the library: every struct of `jetjson.h` has the
//! size, alignment and field offsets of its Rust twin in `src/types.rs`, and
//! every constant the value the library uses. A C program compiled against
//! the header prints its view; this test prints the Rust view in the same
//! form and compares. (That the header declares exactly the exported
//! functions is checked on the built library, with `nm`, by `make test-c`.)

use std::fmt::Write as _;
use std::mem::{align_of, offset_of, size_of};
use std::path::Path;
use std::process::Command;

use jetjson_c::types::*;

macro_rules! layout {
    ($out:ident, $c:literal, $t:ty, [$($f:ident),*]) => {{
        writeln!($out, "{} size {} align {}", $c, size_of::<$t>(), align_of::<$t>()).unwrap();
        $( writeln!($out, "{}.{} {} {}", $c, stringify!($f), offset_of!($t, $f), field_size(|s: &$t| &s.$f)).unwrap(); )*
    }};
}

/// The size of the field `get` picks out.
fn field_size<T, F>(_get: fn(&T) -> &F) -> usize {
    size_of::<F>()
}

fn rust_view() -> String {
    let mut out = String::new();
    layout!(out, "jetjson_error", Error, [status, has_position, offset, line, column, message_len, message]);
    layout!(out, "jetjson_buffer", Buffer, [data, len, cap]);
    layout!(out, "jetjson_write_options", WriteOptions, [profile, sort_keys, escape_html, ascii_only, indent, max_write_depth]);
    layout!(out, "jetjson_read_options", ReadOptions, [max_depth, max_size, duplicate_keys, allow_bom]);
    layout!(out, "jetjson_digest", Digest, [len, text]);
    layout!(out, "jetjson_number", Number, [kind, is_integer, i64, u64, f64, text, text_len]);
    layout!(out, "jetjson_visitor", Visitor, [null_value, boolean, number, string, key, begin_object, end_object, begin_array, end_array]);
    let constants: &[(&str, i64)] = &[
        ("JETJSON_ABI_VERSION", ABI_VERSION.into()),
        ("JETJSON_OK", OK.into()),
        ("JETJSON_ERR_ARGUMENT", ERR_ARGUMENT.into()),
        ("JETJSON_ERR_SYNTAX", ERR_SYNTAX.into()),
        ("JETJSON_ERR_LIMIT", ERR_LIMIT.into()),
        ("JETJSON_ERR_DUPLICATE_KEY", ERR_DUPLICATE_KEY.into()),
        ("JETJSON_ERR_VALUE", ERR_VALUE.into()),
        ("JETJSON_ERR_STATE", ERR_STATE.into()),
        ("JETJSON_ERR_CALLBACK", ERR_CALLBACK.into()),
        ("JETJSON_ERR_NO_MEMORY", ERR_NO_MEMORY.into()),
        ("JETJSON_ERR_INTERNAL", ERR_INTERNAL.into()),
        ("JETJSON_MESSAGE_MAX", MESSAGE_MAX as i64),
        ("JETJSON_DIGEST_MAX", DIGEST_MAX as i64),
        ("JETJSON_PROFILE_UNSET", PROFILE_UNSET.into()),
        ("JETJSON_PROFILE_COMPACT", PROFILE_COMPACT.into()),
        ("JETJSON_PROFILE_GO", PROFILE_GO.into()),
        ("JETJSON_PROFILE_JCS", PROFILE_JCS.into()),
        ("JETJSON_KEYS_PROFILE", KEYS_PROFILE.into()),
        ("JETJSON_KEYS_SORTED", KEYS_SORTED.into()),
        ("JETJSON_KEYS_KEEP", KEYS_KEEP.into()),
        ("JETJSON_HTML_PROFILE", HTML_PROFILE.into()),
        ("JETJSON_HTML_ON", HTML_ON.into()),
        ("JETJSON_HTML_OFF", HTML_OFF.into()),
        ("JETJSON_DUPLICATES_ERROR", DUPLICATES_ERROR.into()),
        ("JETJSON_DUPLICATES_FIRST", DUPLICATES_FIRST.into()),
        ("JETJSON_DUPLICATES_LAST", DUPLICATES_LAST.into()),
        ("JETJSON_SHA256", SHA256.into()),
        ("JETJSON_SHA512", SHA512.into()),
        ("JETJSON_NUMBER_I64", NUMBER_I64.into()),
        ("JETJSON_NUMBER_U64", NUMBER_U64.into()),
        ("JETJSON_NUMBER_F64", NUMBER_F64.into()),
        ("JETJSON_NUMBER_BIG", NUMBER_BIG.into()),
    ];
    for (name, value) in constants {
        writeln!(out, "{name} = {value}").unwrap();
    }
    out
}

/// The same lines from C, generated from the Rust view's names so that the
/// two lists cannot drift apart: a name missing from the header fails to
/// compile, a different offset or value differs in the output.
fn c_program(rust: &str) -> String {
    let mut c = String::from("#include <stdio.h>\n#include <stddef.h>\n#include \"jetjson.h\"\nint main(void) {\n");
    for line in rust.lines() {
        let name = line.split(' ').next().unwrap();
        if line.contains(" size ") {
            c += &format!("  printf(\"{name} size %zu align %zu\\n\", sizeof({name}), _Alignof({name}));\n");
        } else if let Some((ty, field)) = name.split_once('.') {
            c += &format!("  printf(\"{name} %zu %zu\\n\", offsetof({ty}, {field}), sizeof((({ty} *)0)->{field}));\n");
        } else {
            c += &format!("  printf(\"{name} = %lld\\n\", (long long)({name}));\n");
        }
    }
    c + "  return 0;\n}\n"
}

#[test]
fn header_structs_and_constants_match_the_library() {
    let rust = rust_view();
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("layout");
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("layout.c");
    let exe = dir.join("layout");
    std::fs::write(&src, c_program(&rust)).unwrap();
    let include = Path::new(env!("CARGO_MANIFEST_DIR")).join("include");
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let status = Command::new(&cc)
        .args(["-std=c11", "-Wall", "-Werror", "-I"])
        .arg(&include)
        .arg(&src)
        .arg("-o")
        .arg(&exe)
        .status()
        .unwrap_or_else(|e| panic!("running the C compiler {cc:?}: {e}"));
    assert!(status.success(), "the layout program did not compile");
    let c = Command::new(&exe).output().unwrap();
    assert!(c.status.success());
    let c = String::from_utf8(c.stdout).unwrap();
    for (r, c) in rust.lines().zip(c.lines()) {
        assert_eq!(r, c, "Rust (left) and jetjson.h (right) disagree");
    }
    assert_eq!(rust.lines().count(), c.lines().count());
}
