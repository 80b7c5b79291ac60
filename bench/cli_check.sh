#!/usr/bin/env bash
# Throughput of `jetjson check` next to this machine's memcpy bandwidth.
#
#   bash bench/cli_check.sh            (from anywhere; results on stdout, nothing saved)
#
# 1. memcpy: a small C program copies a 1 GiB buffer (pages touched first),
#    best of 5; GB/s counts the bytes copied (read + write each once).
# 2. gsoc-2018.json (3.3 MB, one document): `jetjson check` given the file
#    REPEAT times in one run (so process start-up is amortised); GB/s = bytes
#    checked / wall time, best of RUNS. Includes reading from the page cache.
# 3. A ~1 GiB NDJSON file made in $TMPDIR by repeating amazon_cellphones.ndjson:
#    `jetjson check --lines` with all cores and with --threads 1, best of RUNS.
#    The file is deleted on exit.
#
# The machine is shared: the load average is printed with the figures.
set -euo pipefail
cd "$(dirname "$0")/.."
CORPUS=../shared/corpus/bench/simdjson
RUNS=${RUNS:-5}
REPEAT=${REPEAT:-100}
TMP=${TMPDIR:-/tmp}/jetjson-cli-bench.$$
mkdir -p "$TMP"
trap 'rm -rf "$TMP"' EXIT

cargo build --release -p jetjson-cli >&2
JJ=$PWD/target/release/jetjson

now() { date +%s%N; }
# best_seconds CMD...: the shortest wall time of $RUNS runs (stdout discarded).
best_seconds() {
  local best= t0 t1 dt
  for _ in $(seq "$RUNS"); do
    t0=$(now); "$@" > /dev/null; t1=$(now)
    dt=$((t1 - t0))
    if [ -z "$best" ] || [ "$dt" -lt "$best" ]; then best=$dt; fi
  done
  awk -v ns="$best" 'BEGIN { printf "%.4f", ns / 1e9 }'
}
# cpu_seconds CMD...: user + system CPU time of one run (contention-proof).
cpu_seconds() {
  /usr/bin/time -f "%U %S" -o "$TMP/cpu" "$@" > /dev/null
  awk '{ printf "%.3f", $1 + $2 }' "$TMP/cpu"
}
gbps() { awk -v b="$1" -v s="$2" 'BEGIN { printf "%.2f", b / s / 1e9 }'; }

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), load average: $(cut -d' ' -f1-3 /proc/loadavg)"

# --- memcpy bandwidth
cat > "$TMP/memcpy.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
int main(void) {
    size_t n = (size_t)1 << 30;
    char *a = malloc(n), *b = malloc(n);
    if (!a || !b) return 1;
    memset(a, 1, n); memset(b, 2, n);          /* fault the pages in first */
    double best = 1e9;
    for (int r = 0; r < 5; r++) {
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        memcpy(b, a, n);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        double s = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
        if (s < best) best = s;
        a[r] = b[n - 1 - r];                    /* keep the copies observable */
    }
    printf("%.2f\n", n / best / 1e9);
    return a[0] == 42;
}
C
cc -O2 -o "$TMP/memcpy" "$TMP/memcpy.c"
MEMCPY=$("$TMP/memcpy")
echo "memcpy (1 GiB buffer, 1 thread, best of 5):       $MEMCPY GB/s"

# --- one 3.3 MB document, REPEAT times per run
GSOC=$CORPUS/gsoc-2018.json
GSOC_BYTES=$(stat -c %s "$GSOC")
args=(); for _ in $(seq "$REPEAT"); do args+=("$GSOC"); done
S=$(best_seconds "$JJ" check "${args[@]}")
echo "check gsoc-2018.json x$REPEAT ($((GSOC_BYTES * REPEAT)) bytes): ${S}s  $(gbps $((GSOC_BYTES * REPEAT)) "$S") GB/s"
S1=$(best_seconds "$JJ" check "$GSOC")
echo "check gsoc-2018.json once (incl. process start): ${S1}s"

# --- ~1 GiB NDJSON
BIG=$TMP/big.ndjson
SRC=$CORPUS/amazon_cellphones.ndjson
n=$(( (1 << 30) / $(stat -c %s "$SRC") + 1 ))
for _ in $(seq "$n"); do cat "$SRC"; done > "$BIG"
BIG_BYTES=$(stat -c %s "$BIG")
echo "NDJSON: $BIG_BYTES bytes, $(wc -l < "$BIG") lines"
cat "$BIG" > /dev/null   # into the page cache
S=$(best_seconds "$JJ" check --lines "$BIG")
C=$(cpu_seconds "$JJ" check --lines "$BIG")
echo "check --lines (all $(nproc) cores):  ${S}s  $(gbps "$BIG_BYTES" "$S") GB/s  (CPU time ${C}s: $(gbps "$BIG_BYTES" "$C") GB per CPU-second)"
S=$(best_seconds "$JJ" check --lines --threads 1 "$BIG")
C=$(cpu_seconds "$JJ" check --lines --threads 1 "$BIG")
echo "check --lines --threads 1:         ${S}s  $(gbps "$BIG_BYTES" "$S") GB/s  (CPU time ${C}s)"
S=$(best_seconds cat "$BIG")
echo "cat (read from page cache only):   ${S}s  $(gbps "$BIG_BYTES" "$S") GB/s"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
S=$(best_seconds "$JJ" canon --profile go --lines "$BIG")
echo "canon --profile go --lines (to /dev/null): ${S}s  $(gbps "$BIG_BYTES" "$S") GB/s"
