#!/bin/sh
# The header declares exactly the functions the shared library exports:
# every `jetjson_*(` declaration in jetjson.h against `nm -D` of
# libjetjson.so (struct layouts and constants: tests/layout.rs).
# Usage: check_exports.sh PREFIX
set -eu
prefix=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Declarations: a function name followed by '(' on a line that is not a
# comment or a function-pointer member ('(*').
grep -v '^ *[/*]' "$prefix/include/jetjson.h" \
	| grep -o '\bjetjson_[a-z0-9_]*(' | tr -d '(' | sort -u > "$tmp/header"
nm -D --defined-only "$prefix/lib/libjetjson.so" \
	| awk '$2 == "T" { print $3 }' | sort -u > "$tmp/exports"

if ! diff -u "$tmp/header" "$tmp/exports" > "$tmp/diff"; then
	echo "check_exports: jetjson.h (-) and libjetjson.so exports (+) differ:" >&2
	cat "$tmp/diff" >&2
	exit 1
fi
# Nothing but the interface is exported (no Rust symbols leak).
if nm -D --defined-only "$prefix/lib/libjetjson.so" | awk '$2 ~ /[TDBR]/ { print $3 }' | grep -v '^jetjson_'; then
	echo "check_exports: libjetjson.so exports symbols outside jetjson_*" >&2
	exit 1
fi
echo "check_exports: $(wc -l < "$tmp/header") functions, header and library agree"
