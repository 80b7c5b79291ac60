#!/usr/bin/env bash
# Typed (serde) parsing into the bench models of crates/jetjson/benches/schema,
# jetjson against one peer, interleaved per round: the typed counterpart of
# parse_pairs.sh, built the same way (RUSTFLAGS="-C target-cpu=native" for
# jetjson and the peer in target/native; jetjson with no target flags in
# target/release as a twin process in the same rounds).
#
#   bash bench/typed_pairs.sh [PEER] [ROUNDS]     (PEER: sonic-rs (default) or serde_json)
set -euo pipefail
cd "$(dirname "$0")/.."
PEER=${1:-sonic-rs}
ROUNDS=${2:-200}
RUSTFLAGS="-C target-cpu=native" cargo build -q --release -p jetjson --example typed_loop --target-dir target/native >&2
cargo build -q --release -p jetjson --example typed_loop >&2
NATIVE=$PWD/target/native/release/examples/typed_loop
export JETJSON_TWIN=$PWD/target/release/examples/typed_loop
echo "Run $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- crates || echo ' (+ uncommitted changes)'), $ROUNDS rounds, load average $(cut -d' ' -f1-3 /proc/loadavg)."
echo
echo "| document | jetjson (native) | jetjson (portable) | $PEER (native) | $PEER ÷ jetjson | $PEER ÷ portable | portable ÷ native |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for d in twitter citm_catalog canada github_events gsoc-2018 mesh; do
  out=$("$NATIVE" "$d" "$ROUNDS" "jetjson,portable:jetjson,$PEER")
  t() { echo "$out" | awk -v m="$1:" '$1==m{print $2}'; }
  r() { echo "$out" | awk -v a="$1" -v b="$2" '$1=="ratio" && $2==a && $3==b{print $4}'; }
  printf '| %s | %s µs | %s µs | %s µs | %.2fx | %.2fx | %.2f |\n' "$d" "$(t jetjson)" "$(t portable:jetjson)" "$(t "$PEER")" \
    "$(r "$PEER" jetjson)" "$(r "$PEER" portable:jetjson)" "$(r portable:jetjson jetjson)"
done
