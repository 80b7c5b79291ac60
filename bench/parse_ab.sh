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
source bench/ab_rows.sh
ab_args 300 "$@"
# (`source` with no arguments would hand parse_files.sh this script's own
# arguments: the positional parameters are set to the documents first.)
set -- "${ITEMS[@]}"
source bench/parse_files.sh "$@"
ab_header "$ROUNDS"
for f in "${FILES[@]}"; do
  ab_row "$(basename "$f" .json)" "$OLD" "$NEW" "jetjson,portable:jetjson" "$f" "$ROUNDS"
done
ab_footer
