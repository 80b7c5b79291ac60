#!/usr/bin/env bash
# Instructions per call of typed decode against its peers, load-independent:
# decode_quick.py --loop under callgrind with N and 3N calls, (3N - N) / 2N.
#   bash bench/python/decode_callgrind.sh [PYTHON]
set -euo pipefail
PY=${1:-.venv/bin/python}
HERE=$(dirname "$0")
export PYTHONHASHSEED=0
count() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$PY" "$HERE/decode_quick.py" --loop "$1" "$2" "$3" 2>&1 |
        sed -n 's/.*Collected : *\([0-9]*\).*/\1/p'
}
printf '| case | jetjson | msgspec | msgspec Struct | pydantic | orjson+hand |\n|---|---:|---:|---:|---:|---:|\n'
for spec in "request body:300" "OCI manifest:300" "1,000 SDK records (:4" "members reversed:4"; do
    case=${spec%%:*}
    n=${spec##*:}
    row="| $case |"
    for c in jetjson msgspec "msgspec Struct" pydantic orjson+hand; do
        a=$(count "$case" "$c" "$n")
        b=$(count "$case" "$c" $((3 * n)))
        row="$row $(((b - a) / (2 * n))) |"
    done
    echo "$row"
done
