#!/usr/bin/env bash
# Instructions per call of small_quick statements, e.g.
#   bash bench/python/callgrind_small.sh "len(b'1')" "jl(b'1')" "ol(b'1')"
# ("len(b'1')" is the eval loop with a builtin call: subtract it for the
# call's own cost.) Needs valgrind; no timing lock needed.
set -euo pipefail
PY=${PY:-.venv/bin/python}
N=${N:-200}
HERE=$(dirname "$0")
export PYTHONHASHSEED=${PYTHONHASHSEED:-0}
count() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$PY" "$HERE/callgrind_small.py" "$1" "$2" 2>&1 |
        sed -n 's/.*Collected : *\([0-9]*\).*/\1/p'
}
for s in "$@"; do
    a=$(count "$s" "$N")
    b=$(count "$s" $((3 * N)))
    printf '%-45s %10d\n' "$s" $(((b - a) / (2 * N)))
done
