#!/bin/sh
# The C string-escaping benchmark (make bench-c): builds escape_bench.c
# against the jetjson installed in PREFIX (release build), with yyjson when
# pkg-config finds it, runs it and writes bench/results/c-escape.md.
# Usage: run.sh PREFIX [ROUNDS]
set -eu
prefix=$1
rounds=${2:-9}
here=$(cd "$(dirname "$0")" && pwd)
out=$here/../results/c-escape.md
build=$prefix/../build
mkdir -p "$build"
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
CC=${CC:-gcc}
CFLAGS=${CFLAGS:--O2}

yy=""
yynote="yyjson: not measured (no yyjson package: pkg-config finds no yyjson; Debian 12 has none)."
if pkg-config --exists yyjson; then
	yy="-DHAVE_YYJSON $(pkg-config --cflags --libs yyjson)"
	yynote="yyjson $(pkg-config --modversion yyjson) (pkg-config)."
fi
$CC $CFLAGS -std=c11 -Wall -Wextra -o "$build/escape_bench" "$here/escape_bench.c" \
	$(pkg-config --cflags --libs jetjson) -Wl,-rpath,"$prefix/lib" $yy

table=$("$build/escape_bench" "$rounds")
{
	echo "# String escaping from C: jetjson_escape vs C escapers"
	echo
	echo "\`make bench-c\` (bench/c/run.sh, bench/c/escape_bench.c), $rounds interleaved rounds, $(date -u '+%Y-%m-%d %H:%M UTC'),"
	echo "$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(nproc) cores (shared machine), $($CC --version | head -n 1), \`$CFLAGS\`."
	echo "libjetjson $(pkg-config --modversion jetjson) release build. $yynote"
	echo
	echo "Each byte of the string is a quote with probability Q, a control character with probability S, a letter otherwise."
	echo "GB/s: input bytes per second, median over rounds; (x memcpy): median per-round speed relative to memcpy of the same"
	echo "data; ratios: median per-round speed of jetjson over the other escaper. byte = byte-at-a-time escaper,"
	echo "bulk = count-then-bulk-copy escaper (both in escape_bench.c, compact escape set, checked to write jetjson's bytes)."
	echo
	echo "$table"
} > "$out"
cat "$out"
