#!/usr/bin/env bash
# Instructions per call of callgrind_reject.py statements: (total at 3N -
# total at N) / 2N, as callgrind_small.sh. Needs valgrind; no timing lock.
set -euo pipefail
PY=${PY:-.venv/bin/python}
HERE=$(dirname "$0")
N=${N:-200}
export PYTHONHASHSEED=0
count() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$PY" "$HERE/callgrind_reject.py" "$1" "$2" 2>&1 | sed -n 's/.*Collected : *\([0-9]*\).*/\1/p'; }
for s in "$@"; do a=$(count "$s" "$N"); b=$(count "$s" $((3*N))); printf '%-30s %10d\n' "$s" $(((b-a)/(2*N))); done
