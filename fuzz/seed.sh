#!/usr/bin/env bash
# Seeds the fuzz corpora from the shared third-party corpus: every document
# up to MAX_SEED bytes, with the option bytes each target reads first
# (parse: 2, roundtrip: 3, escape: 2; differential: none) set to a few
# option sets. Writes to fuzz/corpus/<target>/ (or $1/<target>/), named by
# content hash, so running it twice adds nothing. Minimize afterwards with
# `cargo fuzz cmin` (see `make fuzz-cmin`).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
shared=${SHARED_CORPUS:-$here/../../shared/corpus}
out=${1:-$here/corpus}
MAX_SEED=${MAX_SEED:-8192}

docs=()
while IFS= read -r -d '' f; do
    docs+=("$f")
done < <(find "$shared/jsontestsuite" "$shared/nativejson-roundtrip" "$shared/jcs/input" "$shared/oci" \
    -type f -size -"$((MAX_SEED + 1))"c ! -name '*.md' ! -name LICENSE ! -name '*.tsv' -print0 | sort -z)

# One file: $1 target, $2 prefix as printf escapes, $3 document.
put() {
    local dir=$out/$1 tmp
    mkdir -p "$dir"
    tmp=$(mktemp)
    { printf "$2"; cat "$3"; } > "$tmp"
    mv "$tmp" "$dir/seed-$(sha1sum < "$tmp" | cut -c1-16)"
}

for f in "${docs[@]}"; do
    put differential '' "$f"
    # Default options; duplicates Last + lossless; depth 2.
    put parse '\x00\x00' "$f"
    put parse '\x50\x00' "$f"
    put parse '\x03\x00' "$f"
    # Default read options with compact layout; sorted, indented, ASCII, HTML.
    put roundtrip '\x00\x00\x00' "$f"
    put roundtrip '\x50\x00\x2e' "$f"
    # Go's set and the ASCII-only set, at two alignments.
    put escape '\x03\x00' "$f"
    put escape '\xe4\x07' "$f"
done
echo "seeded $(find "$out" -type f | wc -l) files from ${#docs[@]} documents into $out"
