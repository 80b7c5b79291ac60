#!/usr/bin/env bash
# The main job: write the same documents in every profile, show the bytes that
# differ and the digests a registry client or signer would compute.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
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

echo
echo "== the same from Python (the extension writes through the same core) =="
"$PY" - <<'PY'
import dataclasses, json, jetjson

@dataclasses.dataclass
class Descriptor:
    mediaType: str
    digest: str
    size: int

doc = {"annotations": {"b.title": "<app> & co", "a.note": "line\u2028sep"}, "big": 1e21, "neg": -0.0, "tiny": 1e-7,
       "config": Descriptor("application/vnd.oci.image.config.v1+json", "sha256:" + "0" * 64, 7023)}
for profile in ("compact", "go", "jcs"):
    print(f"{profile + ':':8} {jetjson.dumps(doc, profile=profile).decode()}")
print("digest (go):", jetjson.digest(doc))
print("loads keeps big ints exact:", jetjson.loads(b"[123456789012345678901234567890]"))
try:
    jetjson.loads(b'{"a": 1,\n "b": [1, 2,, 3]}')
except jetjson.JSONDecodeError as e:
    print("JSONDecodeError:", e, "| lineno", e.lineno, "colno", e.colno)
try:
    jetjson.dumps({"items": [{"price": 1.0}, {"price": float("nan")}]}, profile="go")
except jetjson.JSONEncodeError as e:
    print("JSONEncodeError:", e)
PY
