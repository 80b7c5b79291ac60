#!/usr/bin/env bash
# Instructions per token kind, `Value` parse, jetjson against sonic-rs:
# documents of one kind of item repeated (1000 small ints, 1000 short
# strings, 1000 {"a":i}, ..., as 100 arrays of 10; written by
# bench/python/token_docs.py), each parsed by peer_loop (native build, as
# parse_pairs.sh builds it) N and 3N times under callgrind, totals
# differenced, divided by the number of items: what one item costs each
# parser, its share of the arrays around it included. Load-independent
# (instruction counts, not time); valgrind runs jetjson's AVX2 build.
#
#   bash bench/token_costs.sh [N]
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-10}
RUSTFLAGS="-C target-cpu=native" cargo build -q --release -p jetjson --example peer_loop --target-dir target/native >&2
BIN=target/native/release/examples/peer_loop
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
python3 bench/python/token_docs.py "$DIR" > "$DIR/counts"
count() {
  JETJSON_LEVEL=avx2 valgrind --tool=callgrind --callgrind-out-file=/dev/null "$BIN" "$1" "$2" "$3" 2>&1 |
    sed -n 's/.*Collected : *\([0-9]*\).*/\1/p'
}
echo "| document | items | jetjson per item | sonic-rs per item | jetjson ÷ sonic-rs |"
echo "|---|---:|---:|---:|---:|"
while read -r name items; do
  f="$DIR/$name.json"
  j=$(( ($(count jetjson "$f" $((3 * N))) - $(count jetjson "$f" "$N")) / (2 * N * items) ))
  s=$(( ($(count sonic "$f" $((3 * N))) - $(count sonic "$f" "$N")) / (2 * N * items) ))
  echo "| $name | $items | $j | $s | $(awk -v a="$j" -v b="$s" 'BEGIN { printf "%.2f", a / b }') |"
done < "$DIR/counts"
