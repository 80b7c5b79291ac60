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
source bench/ab_rows.sh
ab_args 100 "$@"
DOCS=("${ITEMS[@]}")
if [ ${#DOCS[@]} -eq 0 ]; then
  DOCS=(twitter citm_catalog canada github_events gsoc-2018 mesh oci-manifests oci-indexes oci-configs docker-v2s1)
fi
ab_header "$ROUNDS"
for d in "${DOCS[@]}"; do
  ab_row "$d" "$OLD" "$NEW" "$d" "$ROUNDS" "jetjson,portable:jetjson"
done
ab_footer
