#!/bin/sh
# Installs the C library built by cargo into a prefix, the way C libraries
# are laid out (and as cargo-c's cinstall does):
#   PREFIX/include/jetjson.h
#   PREFIX/lib/libjetjson.so.VERSION, libjetjson.so.ABI -> it, libjetjson.so -> it
#     (ABI: JETJSON_ABI_VERSION in jetjson.h, the soname build.rs gives it)
#   PREFIX/lib/libjetjson.a
#   PREFIX/lib/pkgconfig/jetjson.pc
# Usage: install.sh BUILD_DIR PREFIX VERSION
#   BUILD_DIR: cargo's output directory (target/release, target/debug)
set -eu

build=$1
prefix=$2
version=$3
here=$(cd "$(dirname "$0")" && pwd)
abi=$(sed -n 's/^#define JETJSON_ABI_VERSION \([0-9][0-9]*\)$/\1/p' "$here/include/jetjson.h")
[ -n "$abi" ] || { echo "install.sh: no JETJSON_ABI_VERSION in jetjson.h" >&2; exit 1; }

for f in "$build/libjetjson_c.so" "$build/libjetjson_c.a"; do
	[ -f "$f" ] || { echo "install.sh: $f is missing (build the crate jetjson-c first)" >&2; exit 1; }
done

mkdir -p "$prefix/include" "$prefix/lib/pkgconfig"
# Absolute, so the .pc file works from anywhere.
prefix=$(cd "$prefix" && pwd)

install -m 644 "$here/include/jetjson.h" "$prefix/include/jetjson.h"
install -m 755 "$build/libjetjson_c.so" "$prefix/lib/libjetjson.so.$version"
ln -sf "libjetjson.so.$version" "$prefix/lib/libjetjson.so.$abi"
ln -sf "libjetjson.so.$version" "$prefix/lib/libjetjson.so"
install -m 644 "$build/libjetjson_c.a" "$prefix/lib/libjetjson.a"

# Libs.private: what the Rust standard library inside libjetjson.a needs
# from the system on Linux (rustc --print native-static-libs). `make test-c`
# links a program with `pkg-config --static`, so a missing one fails there.
cat > "$prefix/lib/pkgconfig/jetjson.pc" <<EOF
prefix=$prefix
exec_prefix=\${prefix}
libdir=\${exec_prefix}/lib
includedir=\${prefix}/include

Name: jetjson
Description: JSON codec with byte-exact output profiles (Go encoding/json, RFC 8785 JCS, compact)
Version: $version
Libs: -L\${libdir} -ljetjson
Libs.private: -lgcc_s -lutil -lrt -lpthread -lm -ldl -lc
Cflags: -I\${includedir}
EOF

echo "installed jetjson $version into $prefix"
