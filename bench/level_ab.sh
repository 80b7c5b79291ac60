#!/usr/bin/env bash
# Two CPU levels of one build side by side: the driver and the validator
# built for AVX2 against their AVX-512 build, chosen per process by
# `JETJSON_LEVEL` (crates/jetjson/src/parse/drive.rs). The same binary runs
# as the main process at one level and as its twin (crates/jetjson-bench/
# src/twin.rs) at the other, in the same interleaved rounds, once in each
# orientation; the geometric mean of the two is printed (the main process
# is favoured by a few % on a loaded machine). Measuring across two builds
# misleads here: a rebuild of the same hot code ran 11% apart.
#
#   bash bench/level_ab.sh [native|portable] [MODE] [ROUNDS] [FILES...]
#       MODE: a peer_loop mode of jetjson (jetjson, validate, ...)
#       FILES: corpus documents, or oci-manifests, oci-indexes, oci-configs,
#              docker-v2s1 (default: the six corpus documents)
#
# Prints per document avx2 ÷ avx512 (above 1: AVX-512 is faster). For the
# small OCI documents (~2 µs a call, near the clock's grain) time several
# calls per sample: PEER_LOOP_BATCH=100 bash bench/level_ab.sh ... .
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-native}
MODE=${2:-jetjson}
ROUNDS=${3:-300}
shift $(( $# > 3 ? 3 : $# ))
if [ "$BUILD" = native ]; then
  RUSTFLAGS="-C target-cpu=native" cargo build -q --release -p jetjson --example peer_loop --target-dir target/native >&2
  BIN=$PWD/target/native/release/examples/peer_loop
else
  cargo build -q --release -p jetjson --example peer_loop >&2
  BIN=$PWD/target/release/examples/peer_loop
fi
source bench/parse_files.sh "$@"
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
for l in avx2 avx512; do
  printf '#!/bin/sh\nJETJSON_LEVEL=%s exec "%s" "$@"\n' "$l" "$BIN" >"$DIR/$l"
  chmod +x "$DIR/$l"
done
echo "Run $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- crates || echo ' (+ uncommitted changes)'), $BUILD build, mode $MODE, $ROUNDS rounds, load average $(cut -d' ' -f1-3 /proc/loadavg)."
echo
echo "| document | avx2 ÷ avx512 (avx512 main) | avx2 ÷ avx512 (avx2 main) | geometric mean |"
echo "|---|---:|---:|---:|"
ratio() { awk -v m="$MODE" '$1=="ratio" && $2=="portable:"m && $3==m{print $4}'; }
for f in "${FILES[@]}"; do
  a=$(JETJSON_TWIN=$DIR/avx2 "$DIR/avx512" "$MODE,portable:$MODE" "$f" "$ROUNDS" | ratio)
  b=$(JETJSON_TWIN=$DIR/avx512 "$DIR/avx2" "$MODE,portable:$MODE" "$f" "$ROUNDS" | ratio)
  awk -v d="$(basename "$f" .json)" -v a="$a" -v b="$b" 'BEGIN{printf "| %s | %.3f | %.3f | %.3f |\n", d, a, 1/b, sqrt(a/b)}'
done
echo
echo "(end load average $(cut -d' ' -f1-3 /proc/loadavg))"
