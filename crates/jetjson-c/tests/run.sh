#!/bin/sh
# The C library's tests, on a library installed into PREFIX (make test-c):
#  1. the header declares exactly the exported functions (check_exports.sh);
#  2. the C test program, built with AddressSanitizer and
#     UndefinedBehaviorSanitizer, linked against the shared library (through
#     pkg-config) and against the static one (pkg-config --static);
#  3. the Go program using the library through cgo (tests/go).
# Usage: run.sh PREFIX CORPUS VERSION
set -eu

prefix=$1
corpus=$2
version=$3
here=$(cd "$(dirname "$0")" && pwd)
build=$prefix/../build
mkdir -p "$build"
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
CC=${CC:-gcc}

sh "$here/check_exports.sh" "$prefix"

# The soname is libjetjson.so.<JETJSON_ABI_VERSION of the installed header>,
# and the install provides that name (programs record it when they link).
abi=$(sed -n 's/^#define JETJSON_ABI_VERSION \([0-9][0-9]*\)$/\1/p' "$prefix/include/jetjson.h")
soname=$(readelf -d "$prefix/lib/libjetjson.so" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
if [ -z "$abi" ] || [ "$soname" != "libjetjson.so.$abi" ] || [ ! -e "$prefix/lib/$soname" ]; then
	echo "run.sh: soname '$soname' does not match JETJSON_ABI_VERSION '$abi' (or is not installed)" >&2
	exit 1
fi
echo "soname: $soname (JETJSON_ABI_VERSION $abi)"

san="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
cflags="-std=c11 -D_GNU_SOURCE -O1 -g -Wall -Wextra -Werror -DJETJSON_TEST_VERSION=\"$version\" $(pkg-config --cflags jetjson)"

# Shared: found at run time through the rpath.
$CC $cflags $san "$here"/c/*.c -o "$build/test_capi_shared" \
	$(pkg-config --libs jetjson) -Wl,-rpath,"$prefix/lib" -lpthread -lm
# Static: libjetjson.a and the system libraries it needs (Libs.private).
libdir=$(pkg-config --variable=libdir jetjson)
$CC $cflags $san "$here"/c/*.c -o "$build/test_capi_static" \
	"$libdir/libjetjson.a" $(pkg-config --static --libs-only-l jetjson | sed 's/-ljetjson//') -lpthread -lm
if readelf -d "$build/test_capi_static" | grep -q 'libjetjson'; then
	echo "run.sh: the static test program needs libjetjson.so" >&2
	exit 1
fi

# detect_leaks: every buffer and writer the tests make must be freed.
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
echo "== C tests, shared library"
"$build/test_capi_shared" "$corpus"
echo "== C tests, static library"
"$build/test_capi_static" "$corpus"

echo "== Go through cgo"
cd "$here/go"
CGO_ENABLED=1 go vet ./...
CGO_ENABLED=1 LD_LIBRARY_PATH="$prefix/lib" JETJSON_CORPUS="$corpus" go test -count=1 ./...
