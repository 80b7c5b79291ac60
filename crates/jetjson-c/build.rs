//! Gives the shared library the soname it is installed under
//! (libjetjson.so.0): programs linked against it record that name, not the
//! build's file name.

fn main() {
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    if os == "linux" || os == "android" || os.ends_with("bsd") {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libjetjson.so.0");
    }
    println!("cargo:rerun-if-changed=build.rs");
}
