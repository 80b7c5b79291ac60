# Arguments and rows of an old ÷ new table of two builds of one example paired by round,
# in both orientations (sourced by parse_ab.sh and typed_ab.sh): each build
# runs once as the main process with the other as its twin
# (crates/jetjson-bench/src/twin.rs); which one is favoured depends on the
# load and the document, so the geometric mean of the two is the figure.

ab_header() {
  echo "Run $(date -u '+%Y-%m-%d %H:%M UTC'), $1 rounds, load average $(cut -d' ' -f1-3 /proc/loadavg)."
  echo
  echo "| document | old ÷ new (new main) | old ÷ new (old main) | geometric mean |"
  echo "|---|---:|---:|---:|"
}

# The twin's time ÷ the main process's, from the example's `ratio` lines.
ab_twin_ratio() { awk '$1=="ratio" && $2=="portable:jetjson" && $3=="jetjson"{print $4}'; }

# ab_row NAME OLD NEW ARGS...: one row; each build is run as `BUILD ARGS...`
# (ARGS name the contenders `jetjson,portable:jetjson`).
ab_row() {
  local name=$1 old=$2 new=$3 a b
  shift 3
  a=$(JETJSON_TWIN=$old "$new" "$@" | ab_twin_ratio)
  b=$(JETJSON_TWIN=$new "$old" "$@" | ab_twin_ratio)
  awk -v d="$name" -v a="$a" -v b="$b" 'BEGIN{printf "| %s | %.3f | %.3f | %.3f |\n", d, a, 1/b, sqrt(a/b)}'
}

ab_footer() {
  echo
  echo "(end load average $(cut -d' ' -f1-3 /proc/loadavg))"
}

# ab_args DEFAULT_ROUNDS OLD NEW [ROUNDS] [ITEMS...]: the scripts' arguments
# as OLD and NEW (absolute paths), ROUNDS and the array ITEMS.
ab_args() {
  local default=$1
  shift
  OLD=$(realpath "${1:?old build}")
  NEW=$(realpath "${2:?new build}")
  ROUNDS=${3:-$default}
  shift $(($# > 3 ? 3 : $#))
  ITEMS=("$@")
}
