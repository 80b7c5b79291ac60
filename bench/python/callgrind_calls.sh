#!/usr/bin/env bash
# Instructions per call of a jetjson Python function (callgrind_calls.py),
# for each WHAT x INPUT: bash bench/python/callgrind_calls.sh [PYTHON] [N]
# with WHATS and INPUTS from the environment.
set -euo pipefail
PY=${1:-.venv/bin/python}
N=${2:-10}
HERE=$(dirname "$0")
WHATS=${WHATS:-"dumps dumps-go loads"}
INPUTS=${INPUTS:-"twitter citm_catalog canada github_events gsoc-2018"}
export PYTHONHASHSEED=${PYTHONHASHSEED:-0}
count() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$PY" "$HERE/callgrind_calls.py" "$1" "$2" "$3" 2>&1 |
        sed -n 's/.*Collected : *\([0-9]*\).*/\1/p'
}
printf '%-10s %-14s %14s\n' what input instr/call
for w in $WHATS; do
    for i in $INPUTS; do
        a=$(count "$w" "$i" "$N")
        b=$(count "$w" "$i" $((3 * N)))
        printf '%-10s %-14s %14d\n' "$w" "$i" $(((b - a) / (2 * N)))
    done
done
