//! Gives the shared library the soname it is installed under
//! (libjetjson.so.N, N = JETJSON_ABI_VERSION in include/jetjson.h, which
//! install.sh reads too): programs linked against it record that name, not
//! the build's file name.

fn main() {
    let header = std::fs::read_to_string("include/jetjson.h").expect("include/jetjson.h");
    let abi = header
        .lines()
        .find_map(|l| l.strip_prefix("#define JETJSON_ABI_VERSION "))
        .map(str::trim)
        .filter(|v| !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()))
        .expect("jetjson.h defines JETJSON_ABI_VERSION as a number");
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    if os == "linux" || os == "android" || os.ends_with("bsd") {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libjetjson.so.{abi}");
    }
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=include/jetjson.h");
}
