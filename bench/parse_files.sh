# Sourced by the parse benchmarks (parse_pairs.sh, parse_ab.sh), run from
# the repository's root: FILES is the documents named on the command line
# ("$@"), or the six corpus documents of the parse tables.
N=../shared/corpus/bench/nativejson-benchmark
S=../shared/corpus/bench/simdjson
FILES=("$@")
if [ ${#FILES[@]} -eq 0 ]; then
  FILES=($N/twitter.json $N/citm_catalog.json $N/canada.json $S/github_events.json $S/gsoc-2018.json $S/mesh.json)
fi
