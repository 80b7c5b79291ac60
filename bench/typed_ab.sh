#!/usr/bin/env bash
# One build of examples/typed_loop against another, paired by round, in
# both orientations: each binary runs once as the main process with the
# other as its twin (crates/jetjson-bench/src/twin.rs), and the geometric
# mean of the two orientations is printed. Which process is favoured
# depends on the load and the document (the twin by up to 10% on a loaded
# machine for gsoc-2018), so one orientation alone says little.
#
#   bash bench/typed_ab.sh OLD NEW [ROUNDS] [DOCS...]
#
# OLD, NEW: copies of target/{native/,}release/examples/typed_loop (old
# and new commit of one build, or the native and the portable build of
# one commit). DOCS: typed_loop's document names (default: the six bench
# documents and the four OCI groups). Prints per document OLD ÷ NEW (above
# 1: NEW is faster) in each orientation and their geometric mean, with the
# load average.
set -euo pipefail
cd "$(dirname "$0")/.."
OLD=$(realpath "${1:?old typed_loop}")
NEW=$(realpath "${2:?new typed_loop}")
ROUNDS=${3:-100}
shift $(( $# > 3 ? 3 : $# ))
DOCS=("$@")
if [ ${#DOCS[@]} -eq 0 ]; then
  DOCS=(twitter citm_catalog canada github_events gsoc-2018 mesh oci-manifests oci-indexes oci-configs docker-v2s1)
fi
echo "Run $(date -u '+%Y-%m-%d %H:%M UTC'), $ROUNDS rounds, load average $(cut -d' ' -f1-3 /proc/loadavg)."
echo
echo "| document | old ÷ new (new main) | old ÷ new (old main) | geometric mean |"
echo "|---|---:|---:|---:|"
ratio() { awk '$1=="ratio" && $2=="portable:jetjson" && $3=="jetjson"{print $4}'; }
for d in "${DOCS[@]}"; do
  a=$(JETJSON_TWIN=$OLD "$NEW" "$d" "$ROUNDS" "jetjson,portable:jetjson" | ratio)
  b=$(JETJSON_TWIN=$NEW "$OLD" "$d" "$ROUNDS" "jetjson,portable:jetjson" | ratio)
  awk -v d="$d" -v a="$a" -v b="$b" 'BEGIN{printf "| %s | %.3f | %.3f | %.3f |\n", d, a, 1/b, sqrt(a/b)}'
done
echo
echo "(end load average $(cut -d' ' -f1-3 /proc/loadavg))"
