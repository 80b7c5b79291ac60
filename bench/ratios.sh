#!/usr/bin/env bash
# The ratio benches (crates/jetjson/benches/{read,write}_ratios.rs) with
# every library built as its documentation asks, and jetjson both ways:
#
#   * the bench is built with RUSTFLAGS="-C target-cpu=native" (sonic-rs's
#     and simd-json's READMEs ask for it) into target/native: jetjson, sonic-rs,
#     simd-json and serde_json all native;
#   * the same bench is built with no target flags (target/release): jetjson
#     "portable", choosing its SIMD kernels at run time. It runs as a twin
#     process (crates/jetjson-bench/src/twin.rs) and joins the same rounds as
#     contender `jetjson/portable`.
#
#   bash bench/ratios.sh read|write [ROUNDS [FILTER]]
#
# Prints the table (markdown) on stdout, with the date, commit and load
# average first. The machine is shared: read the ratios, not the times.
set -euo pipefail
cd "$(dirname "$0")/.."
WHICH=${1:?read or write}
shift
BENCH=${WHICH}_ratios
exe() { # the bench executable cargo reports for a build
  sed -n "s/.*Executable benches\/$BENCH.rs (\(.*\))/\1/p" | tail -n 1
}
NATIVE=$(RUSTFLAGS="-C target-cpu=native" cargo bench -p jetjson --bench "$BENCH" --no-run --target-dir target/native 2>&1 | exe)
PORTABLE=$(cargo bench -p jetjson --bench "$BENCH" --no-run 2>&1 | exe)
test -x "$NATIVE" && test -x "$PORTABLE" || { echo "build failed" >&2; exit 1; }
echo "Run $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- crates || echo ' (+ uncommitted changes)'), load average $(cut -d' ' -f1-3 /proc/loadavg)."
echo "Native build: RUSTFLAGS=\"-C target-cpu=native\" (every crate); portable: no target flags (jetjson only, twin process)."
echo
JETJSON_TWIN="$PORTABLE" "$NATIVE" --bench "$@"
