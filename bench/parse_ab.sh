#!/usr/bin/env bash
# Old build against new build of `Value::from_slice`, paired by round:
# each binary (a copy of examples/peer_loop, built as the caller wants:
# native or portable) runs once as the main process with the other as its
# twin (crates/jetjson-bench/src/twin.rs), and the geometric mean of the
# two orientations is printed (the main process is favoured by a few % on
# a loaded machine).
#
#   bash bench/parse_ab.sh OLD NEW [ROUNDS] [FILES...]
#
# Prints per document OLD ÷ NEW (above 1: NEW is faster) in each
# orientation and their geometric mean, with the load average.
set -euo pipefail
cd "$(dirname "$0")/.."
OLD=$(realpath "$1")
NEW=$(realpath "$2")
ROUNDS=${3:-300}
shift $(( $# > 3 ? 3 : $# ))
source bench/parse_files.sh "$@"
echo "Run $(date -u '+%Y-%m-%d %H:%M UTC'), $ROUNDS rounds, load average $(cut -d' ' -f1-3 /proc/loadavg)."
echo
echo "| document | old ÷ new (new main) | old ÷ new (old main) | geometric mean |"
echo "|---|---:|---:|---:|"
ratio() { awk '$1=="ratio" && $2=="portable:jetjson" && $3=="jetjson"{print $4}'; }
for f in "${FILES[@]}"; do
  a=$(JETJSON_TWIN=$OLD "$NEW" "jetjson,portable:jetjson" "$f" "$ROUNDS" | ratio)
  b=$(JETJSON_TWIN=$NEW "$OLD" "jetjson,portable:jetjson" "$f" "$ROUNDS" | ratio)
  awk -v d="$(basename "$f" .json)" -v a="$a" -v b="$b" 'BEGIN{printf "| %s | %.3f | %.3f | %.3f |\n", d, a, 1/b, sqrt(a/b)}'
done
echo
echo "(end load average $(cut -d' ' -f1-3 /proc/loadavg))"
