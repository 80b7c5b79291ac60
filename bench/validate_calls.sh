#!/usr/bin/env bash
# Instructions per call of the validator (`jetjson::parse::Validator`, as a
# checked Python `Raw` and `RawJson::from_slice` use it) on small_quick's
# Raw envelope payloads (bench/python/raw_payloads.py), by callgrind: the
# example validate_loop run N and 3N times, totals differenced (start-up
# and file read cancel). Per payload: with the default duplicate-name check
# and without it (`DuplicateKeys::Last`): the difference is what the member
# names cost. AVX2 build of the walk (valgrind cannot run AVX-512).
#
#   bash bench/validate_calls.sh [VALIDATE_LOOP_BINARY] [N]
#
# Load-independent: the second witness to the paired timings of
# bench/python/ab_builds.py. To compare two builds, pass each build's
# binary (a copy of target/release/examples/validate_loop).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:-}
N=${2:-1000}
if [ -z "$BIN" ]; then
  cargo build -q --release -p jetjson --example validate_loop >&2
  BIN=target/release/examples/validate_loop
fi
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
.venv/bin/python bench/python/raw_payloads.py "$DIR"
count() {
  JETJSON_LEVEL=avx2 JETJSON_DUPLICATES=$1 valgrind --tool=callgrind --callgrind-out-file=/dev/null "$BIN" "$2" "$3" 2>&1 |
    sed -n 's/.*Collected : *\([0-9]*\).*/\1/p'
}
per_call() {
  a=$(count "$1" "$2" "$N")
  b=$(count "$1" "$2" $((3 * N)))
  echo $(((b - a) / (2 * N)))
}
echo "| payload | bytes | instructions per call | without the name check | names' share |"
echo "|---|---:|---:|---:|---:|"
for p in one ones event manifest items; do
  f=$DIR/$p.json
  with=$(per_call error "$f")
  without=$(per_call last "$f")
  awk -v p="$p" -v n="$(wc -c <"$f")" -v a="$with" -v b="$without" \
    'BEGIN{printf "| %s | %d | %d | %d | %.0f%% |\n", p, n, a, b, 100 * (a - b) / a}'
done
