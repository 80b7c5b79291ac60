#!/usr/bin/env bash
# The main job: write the same documents in every profile, show the bytes that
# differ and the digests a registry client or signer would compute.
set -euo pipefail
cd "$(dirname "$0")/.."
JJ=target/release/jetjson
SHARED=../shared/corpus

sample='{"mediaType":"application/vnd.oci.image.manifest.v1+json","annotations":{"b.title":"<app> & co","a.note":"line\u2028sep","big":1e21,"neg":-0.0,"tiny":1e-7}}'
echo "== one document, three profiles =="
echo "input:   $sample"
for p in compact go jcs; do
  printf '%-8s ' "$p:"; printf "%s" "$sample" | $JJ canon --profile "$p"; echo
done

echo
echo "== OCI manifests: digest of the stored bytes vs. canonical forms =="
for f in "$SHARED"/oci/containers-image/v2s2.manifest.json "$SHARED"/oci/image-spec/*.json; do
  [ -f "$f" ] || continue
  printf '%s\n' "$(basename "$f")"
  printf '  stored bytes  %s\n' "$($JJ digest --raw < "$f")"
  for p in go jcs; do
    printf '  %-12s  sha256:%s\n' "$p" "$($JJ digest --profile "$p" < "$f" | cut -d: -f2)"
  done
done | head -40
