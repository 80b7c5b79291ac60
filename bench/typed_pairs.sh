#!/usr/bin/env bash
# Typed (serde) parsing into the bench models of crates/jetjson/benches/schema,
# jetjson against one peer, interleaved per round: the typed counterpart of
# parse_pairs.sh, built the same way (RUSTFLAGS="-C target-cpu=native" for
# jetjson and the peer in target/native; jetjson with no target flags in
# target/release).
#
#   bash bench/typed_pairs.sh [PEER] [ROUNDS]     (PEER: sonic-rs (default) or serde_json)
#   TYPED_NATIVE=N TYPED_PORTABLE=P bash bench/typed_pairs.sh ...   (copies of another commit's builds)
#
# PEER ÷ jetjson: both in one process (the native build), rotating which
# goes first. portable ÷ native: the two builds paired by round with
# jetjson alone, each once as the main process and once as the twin
# (bench/ab_rows.sh, as bench/typed_ab.sh), geometric mean. (Timed as the
# twin of a process that also runs the peer, as this script did until stop
# 47, the same native build reads gsoc-2018 8-19% slower than in the main
# process, which had just read the same input with the peer: that was the
# "portable gap" of stop 44, bench/results/typed47-2026-11-30.md.) PEER ÷
# portable is the product of PEER ÷ jetjson and native ÷ portable.
set -euo pipefail
cd "$(dirname "$0")/.."
PEER=${1:-sonic-rs}
ROUNDS=${2:-200}
if [ -n "${TYPED_NATIVE:-}" ]; then
  # Copies of the two builds of another commit (nothing is built).
  NATIVE=$(realpath "$TYPED_NATIVE")
  PORTABLE=$(realpath "${TYPED_PORTABLE:?with TYPED_NATIVE}")
else
  RUSTFLAGS="-C target-cpu=native" cargo build -q --release -p jetjson --example typed_loop --target-dir target/native >&2
  cargo build -q --release -p jetjson --example typed_loop >&2
  NATIVE=$PWD/target/native/release/examples/typed_loop
  PORTABLE=$PWD/target/release/examples/typed_loop
fi
WHAT="commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- crates || echo ' (+ uncommitted changes)')"
[ -n "${TYPED_NATIVE:-}" ] && WHAT="builds $NATIVE and $PORTABLE"
echo "Run $(date -u '+%Y-%m-%d %H:%M UTC'), $WHAT, $ROUNDS rounds, load average $(cut -d' ' -f1-3 /proc/loadavg)."
echo
echo "| document | jetjson (native) | $PEER (native) | $PEER ÷ jetjson | portable ÷ native | $PEER ÷ portable |"
echo "|---|---:|---:|---:|---:|---:|"
source bench/ab_rows.sh
for d in twitter citm_catalog canada github_events gsoc-2018 mesh; do
  out=$("$NATIVE" "$d" "$ROUNDS" "jetjson,$PEER")
  t() { echo "$out" | awk -v m="$1:" '$1==m{print $2}'; }
  peer=$(echo "$out" | awk -v a="$PEER" '$1=="ratio" && $2==a && $3=="jetjson"{print $4}')
  # The twin's time ÷ the main process's, each build once in each place.
  a=$(JETJSON_TWIN=$NATIVE "$PORTABLE" "$d" "$ROUNDS" "jetjson,portable:jetjson" | ab_twin_ratio)
  b=$(JETJSON_TWIN=$PORTABLE "$NATIVE" "$d" "$ROUNDS" "jetjson,portable:jetjson" | ab_twin_ratio)
  awk -v d="$d" -v tj="$(t jetjson)" -v tp="$(t "$PEER")" -v peer="$peer" -v a="$a" -v b="$b" 'BEGIN{
    pn = sqrt(b / a); printf "| %s | %s µs | %s µs | %.2fx | %.2f | %.2fx |\n", d, tj, tp, peer, pn, peer / pn }'
done
echo
echo "(end load average $(cut -d' ' -f1-3 /proc/loadavg))"
