#!/usr/bin/env bash
# Portable vs native writes, before and after a change, with a control:
# the write ratio bench (crates/jetjson/benches/write_ratios.rs) run as
# `bash bench/ratios.sh write` runs it (the native build with the portable
# build as its twin process), for two commits, and the new native build
# as its own twin (the control: what the twin harness alone makes of
# identical code, see bench/results/portwrite-2026-11-29.md). The three
# are alternated RUNS times; per row, the median (and range) over the
# runs of `portable ÷ native` (compact, go) and of `sonic-rs ÷ portable`.
#
#   bash bench/portable_ab.sh OLD_NATIVE OLD_PORTABLE NEW_NATIVE NEW_PORTABLE [RUNS [ROUNDS [FILTER]]]
#
# *_NATIVE / *_PORTABLE: copies of the executables `bash bench/ratios.sh
# write` builds (target/native/release/deps/write_ratios-* and
# target/release/deps/write_ratios-*), one pair per commit. Each finds the
# corpus next to the checkout it was built in (../shared, as the bench does).
set -euo pipefail
MEDIAN=$(dirname "$0")/median.awk
OLD_N=$(realpath "${1:?old native write_ratios}")
OLD_P=$(realpath "${2:?old portable write_ratios}")
NEW_N=$(realpath "${3:?new native write_ratios}")
NEW_P=$(realpath "${4:?new portable write_ratios}")
RUNS=${5:-5}
ROUNDS=${6:-100}
FILTER=${7:-}
echo "Run $(date -u '+%Y-%m-%d %H:%M UTC'), $RUNS runs of $ROUNDS rounds per pair, load average $(cut -d' ' -f1-3 /proc/loadavg) at the start."
for r in $(seq "$RUNS"); do
  for b in old new control; do
    case $b in
      old) n=$OLD_N p=$OLD_P ;;
      new) n=$NEW_N p=$NEW_P ;;
      control) n=$NEW_N p=$NEW_N ;;
    esac
    # Columns of the table: 13 sonic ÷ compact portable, 15 sonic ÷ go
    # portable, 16 and 17 portable ÷ native (compact, go).
    JETJSON_TWIN=$p "$n" --bench "$ROUNDS" "$FILTER" | awk -F'|' -v b="$b" '/^\| [a-z]/ && $2 !~ /document/ {
      gsub(/ /, "", $2); gsub(/ /, "", $3); for (i = 13; i <= 17; i++) gsub(/[ x]/, "", $i); print b, $2 "/" $3, $16, $17, $13, $15 }'
  done
done | awk "$(cat "$MEDIAN")"'
  { key = $2; if (!(key in seen)) { seen[key] = 1; rows[++n] = key }
    c[$1, key] = c[$1, key] " " $3; g[$1, key] = g[$1, key] " " $4; sc[$1, key] = sc[$1, key] " " $5; sg[$1, key] = sg[$1, key] " " $6 }
  END {
    print ""
    print "| row | p ÷ n compact, old | new | control | p ÷ n go, old | new | control | sonic ÷ compact portable, old | new | sonic ÷ go portable, old | new |"
    print "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    for (i = 1; i <= n; i++) { k = rows[i]; printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", k,
      med(c["old", k]), med(c["new", k]), med(c["control", k]), med(g["old", k]), med(g["new", k]), med(g["control", k]),
      med(sc["old", k]), med(sc["new", k]), med(sg["old", k]), med(sg["new", k]) }
  }'
echo
echo "Load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)."
