#!/usr/bin/env bash
# Two builds of the write ratio bench (crates/jetjson/benches/write_ratios.rs,
# native, each run alone: no portable twin), alternated RUNS times, and per
# row the median (and range) over the runs of each build's `sonic-rs ÷
# jetjson` ratios, compact and go. Each run's ratios are already paired
# (interleaved rounds in one process); alternating the builds spreads the
# machine's load over both. For before/after tables of a change:
#
#   bash bench/write_ab.sh OLD_BENCH NEW_BENCH [RUNS [ROUNDS [FILTER]]]
#
# OLD_BENCH / NEW_BENCH: copies of the executable `bash bench/ratios.sh write`
# builds (target/native/release/deps/write_ratios-*), one per commit.
set -euo pipefail
MEDIAN=$(dirname "$0")/median.awk
OLD=${1:?old write_ratios executable}
NEW=${2:?new write_ratios executable}
RUNS=${3:-5}
ROUNDS=${4:-100}
FILTER=${5:-}
echo "Run $(date -u '+%Y-%m-%d %H:%M UTC'), $RUNS runs of $ROUNDS rounds per build, load average $(cut -d' ' -f1-3 /proc/loadavg) at the start."
for r in $(seq "$RUNS"); do
  for b in old new; do
    exe=$OLD
    [ "$b" = new ] && exe=$NEW
    # Columns 12 and 14 of the table: sonic ÷ compact, sonic ÷ go.
    "$exe" --bench "$ROUNDS" "$FILTER" | awk -F'|' -v b="$b" '/^\| [a-z]/ && $2 !~ /document/ {
      gsub(/ /, "", $2); gsub(/ /, "", $3); gsub(/[ x]/, "", $12); gsub(/[ x]/, "", $14); print b, $2 "/" $3, $12, $14 }'
  done
done | awk "$(cat "$MEDIAN")"'
  { key = $2; if (!(key in seen)) { seen[key] = 1; rows[++n] = key }
    c[$1, key] = c[$1, key] " " $3; g[$1, key] = g[$1, key] " " $4 }
  END {
    print ""
    print "| row | sonic ÷ compact, old | new | sonic ÷ go, old | new |"
    print "|---|---:|---:|---:|---:|"
    for (i = 1; i <= n; i++) { k = rows[i]; printf "| %s | %s | %s | %s | %s |\n", k, med(c["old", k]), med(c["new", k]), med(g["old", k]), med(g["new", k]) }
  }'
echo
echo "Load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)."
