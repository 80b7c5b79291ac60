#!/usr/bin/env bash
# Value parsing, jetjson against one peer at a time, each in its own
# process: `read_ratios` runs all four libraries in one process, where the
# peers' allocations (sonic-rs takes a node buffer of 8x the input and a
# copy of it per parse) change the allocator state every contender sees.
# This is the other view, jetjson and one peer alone, interleaved per round.
#
# Every crate is built as its documentation asks: peer_loop is built with
# RUSTFLAGS="-C target-cpu=native" (target/native; sonic-rs's README asks
# for it) for jetjson and the peer. jetjson is also built with no target
# flags (target/release: "portable", SIMD kernels chosen at run time) and
# runs as a twin process in the same rounds (crates/jetjson-bench/src/twin.rs).
#
#   bash bench/parse_pairs.sh [PEER] [ROUNDS] [FILES...]
#       PEER: sonic (default), serde, or door (jetjson::from_slice::<Value>)
#
# Prints the median time per parse for each and the medians over rounds of
# the paired ratios (above 1, jetjson is faster). The machine is shared:
# the load average is printed.
#
# In the first table jetjson (native) shares its process with the peer,
# whose allocations (sonic-rs: 8x the input per parse) change what the
# allocator gives jetjson, and the other way round: on gsoc-2018 the same
# native binary ran 7-14% faster alone (bench/results/rust-parse-2026-11-30-stop43.md).
# The second table runs each alone in its own process: jetjson in this
# process and the peer in a twin that is a copy of the native build.
set -euo pipefail
cd "$(dirname "$0")/.."
PEER=${1:-sonic}
ROUNDS=${2:-300}
shift $(( $# > 2 ? 2 : $# ))
RUSTFLAGS="-C target-cpu=native" cargo build -q --release -p jetjson --example peer_loop --target-dir target/native >&2
cargo build -q --release -p jetjson --example peer_loop >&2
NATIVE=$PWD/target/native/release/examples/peer_loop
export JETJSON_TWIN=$PWD/target/release/examples/peer_loop
source bench/parse_files.sh "$@"
echo "Run $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- crates || echo ' (+ uncommitted changes)'), $ROUNDS rounds, load average $(cut -d' ' -f1-3 /proc/loadavg)."
echo
echo "| document | jetjson (native) | jetjson (portable) | $PEER (native) | $PEER ÷ jetjson | $PEER ÷ portable | portable ÷ native |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for f in "${FILES[@]}"; do
  out=$("$NATIVE" "jetjson,portable:jetjson,$PEER" "$f" "$ROUNDS")
  t() { echo "$out" | awk -v m="$1:" '$1==m{print $2}'; }
  r() { echo "$out" | awk -v a="$1" -v b="$2" '$1=="ratio" && $2==a && $3==b{print $4}'; }
  printf '| %s | %s µs | %s µs | %s µs | %.2fx | %.2fx | %.2f |\n' "$(basename "$f" .json)" "$(t jetjson)" "$(t portable:jetjson)" "$(t "$PEER")" \
    "$(r "$PEER" jetjson)" "$(r "$PEER" portable:jetjson)" "$(r portable:jetjson jetjson)"
done
if [ "$PEER" != door ]; then
  ALONE=$(mktemp -d)
  trap 'rm -rf "$ALONE"' EXIT
  cp "$NATIVE" "$ALONE/peer_loop"
  echo
  echo "Each alone in its own process (jetjson native here, $PEER native in a twin process), same rounds:"
  echo
  echo "| document | jetjson (native, alone) | $PEER (native, alone) | $PEER ÷ jetjson |"
  echo "|---|---:|---:|---:|"
  for f in "${FILES[@]}"; do
    out=$(JETJSON_TWIN="$ALONE/peer_loop" "$NATIVE" "jetjson,portable:$PEER" "$f" "$ROUNDS")
    t() { echo "$out" | awk -v m="$1:" '$1==m{print $2}'; }
    r() { echo "$out" | awk -v a="$1" -v b="$2" '$1=="ratio" && $2==a && $3==b{print $4}'; }
    printf '| %s | %s µs | %s µs | %.2fx |\n' "$(basename "$f" .json)" "$(t jetjson)" "$(t "portable:$PEER")" "$(r "portable:$PEER" jetjson)"
  done
fi
