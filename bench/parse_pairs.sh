#!/usr/bin/env bash
# Value parsing, jetjson against one peer at a time, each in its own
# process: `read_ratios` runs all four libraries in one process, where the
# peers' allocations (sonic-rs takes a node buffer of 8x the input and a
# copy of it per parse) change the allocator state every contender sees.
# This is the other view, two contenders alone, interleaved per round.
#
#   bash bench/parse_pairs.sh [PEER] [ROUNDS]     (PEER: sonic (default) or serde)
#
# Prints the median time per parse for each and peer ÷ jetjson (above 1,
# jetjson is faster). The machine is shared: the load average is printed.
set -euo pipefail
cd "$(dirname "$0")/.."
PEER=${1:-sonic}
ROUNDS=${2:-300}
cargo build -q --release -p jetjson --example peer_loop >&2
BIN=$PWD/target/release/examples/peer_loop
N=../shared/corpus/bench/nativejson-benchmark
S=../shared/corpus/bench/simdjson
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| document | jetjson | $PEER | $PEER ÷ jetjson |"
echo "|---|---:|---:|---:|"
for f in $N/twitter.json $N/citm_catalog.json $N/canada.json $S/github_events.json $S/gsoc-2018.json $S/mesh.json; do
  out=$("$BIN" "jetjson,$PEER" "$f" "$ROUNDS")
  a=$(echo "$out" | awk '$1=="jetjson:"{print $2}')
  b=$(echo "$out" | awk -v p="$PEER:" '$1==p{print $2}')
  printf '| %s | %s µs | %s µs | %.2fx |\n' "$(basename "$f" .json)" "$a" "$b" "$(echo "$b / $a" | bc -l)"
done
