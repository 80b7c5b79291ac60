#!/bin/sh
# The Python extension built with profile-guided optimisation (`make
# python-pgo`): an instrumented build, a training run of what users do
# (bench/python/pgo_train.py), the merged profile, and the optimised build
# installed into the virtualenv in place of `make python`'s.
#
#   scripts/pgo-python.sh [VENV]        (default: .venv beside this script's repo)
#
# Every step is redone from scratch each run except what cargo caches: the
# two builds have their own target directories (target/pgo-gen,
# target/pgo-use) so they never invalidate each other or target/release.
# The profile is named by its hash: cargo fingerprints the flags, not the
# file, so a new profile under the same name would leave a stale build.
# The counts vary a little from run to run (buffer addresses move SIMD
# head and tail loops), so each run rebuilds the optimised extension.
# `make python` puts the plain build back. llvm-profdata comes from rustup's llvm-tools component (matching
# rustc's LLVM), installed if missing.
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
VENV=${1:-$ROOT/.venv}
VPY=$VENV/bin/python
PGO=$ROOT/target/pgo
DATA=$PGO/data
cd "$ROOT"

test -x "$VENV/bin/maturin" || { echo "pgo-python: no maturin in $VENV (run make python first)" >&2; exit 1; }
"$VPY" -c "import orjson, msgspec" 2>/dev/null || { echo "pgo-python: the training needs orjson and msgspec (pip install -r bench/requirements.txt)" >&2; exit 1; }

SYSROOT=$(rustc --print sysroot)
HOST=$(rustc -vV | sed -n 's/^host: //p')
PROFDATA=$SYSROOT/lib/rustlib/$HOST/bin/llvm-profdata
if ! test -x "$PROFDATA"; then
	echo "pgo-python: installing rustup's llvm-tools for llvm-profdata"
	rustup component add llvm-tools-preview
fi
test -x "$PROFDATA" || { echo "pgo-python: no $PROFDATA" >&2; exit 1; }

# An explicit --target keeps RUSTFLAGS off build scripts and proc macros:
# otherwise they are instrumented too, and write their own counts into the
# profile directory whenever cargo runs them.
maturin() {
	VIRTUAL_ENV=$VENV PATH=$VENV/bin:$PATH "$VENV/bin/maturin" develop --release --quiet --target "$HOST"
}

start=$(date +%s)
echo "== 1/4 instrumented build (target/pgo-gen)"
rm -rf "$DATA"
mkdir -p "$DATA"
RUSTFLAGS="${RUSTFLAGS:-} -Cprofile-generate=$DATA" CARGO_TARGET_DIR=$ROOT/target/pgo-gen maturin

echo "== 2/4 training run (bench/python/pgo_train.py)"
PYTHONHASHSEED=0 "$VPY" bench/python/pgo_train.py | tail -n 1
ls "$DATA"/*.profraw >/dev/null 2>&1 || { echo "pgo-python: the training wrote no profile into $DATA" >&2; exit 1; }

echo "== 3/4 merge"
"$PROFDATA" merge -o "$PGO/merged.profdata" "$DATA"
HASH=$(sha256sum "$PGO/merged.profdata" | cut -c1-16)
PROFILE=$PGO/jetjson-py-$HASH.profdata
mv "$PGO/merged.profdata" "$PROFILE"
# Older profiles are of no further use (their builds are superseded).
find "$PGO" -maxdepth 1 -name 'jetjson-py-*.profdata' ! -name "jetjson-py-$HASH.profdata" -delete

echo "== 4/4 optimised build (target/pgo-use, profile $HASH)"
RUSTFLAGS="${RUSTFLAGS:-} -Cprofile-use=$PROFILE -Cllvm-args=-pgo-warn-missing-function" CARGO_TARGET_DIR=$ROOT/target/pgo-use maturin
"$VPY" -c "import jetjson; assert jetjson.dumps({'a': [1, 2.5, None]}) == b'{\"a\":[1,2.5,null]}'"
echo "pgo-python: installed the PGO build into $VENV in $(($(date +%s) - start)) s"
