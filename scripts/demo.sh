#!/usr/bin/env bash
# The main job, with its proof next to each claim: documents in every
# profile; OCI digests beside the digests upstream asserts (✓ when equal);
# the RFC 8785 vectors; the go bytes beside Go's own (when Go is here); one
# line of speed against the peers, measured now; the same from Python and
# from the CLI pip installs. Any claim that does not hold prints ✗ and
# makes the demo fail.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
JJ=target/release/jetjson
CORPUS=${JETJSON_CORPUS:-../shared/corpus}
ORACLE=target/oracle-go
failures=0

# Nothing is shown without the material that proves it.
if [ ! -f "$CORPUS/oci/CATALOG.tsv" ] || [ ! -d "$CORPUS/jcs/input" ] || [ ! -d "$CORPUS/bench" ]; then
  echo "make demo: the shared corpus is missing: $CORPUS (oci/CATALOG.tsv, jcs/, bench/)." >&2
  echo "make demo: it holds the documents and the digests the demo checks against; put ../shared beside this checkout (or set JETJSON_CORPUS)." >&2
  exit 1
fi
for f in "$JJ" "$PY"; do
  [ -x "$f" ] || { echo "make demo: $f is missing (make demo builds it: make build python)" >&2; exit 1; }
done

# mark EXPECTED GOT: ✓ when equal, ✗ (and a failure) otherwise.
mark() {
  if [ "$1" = "$2" ]; then printf '✓'; else printf '✗'; failures=$((failures + 1)); fi
}
short() { printf '%s…' "${1:0:23}"; }

sample='{"mediaType":"application/vnd.oci.image.manifest.v1+json","annotations":{"b.title":"<app> & co","a.note":"line\u2028sep","big":1e21,"neg":-0.0,"tiny":1e-7}}'
echo "== one document, three profiles =="
echo "input:   $sample"
for p in compact go jcs; do
  printf '%-8s ' "$p:"; printf '%s' "$sample" | $JJ canon --profile "$p"; echo
done

echo
echo "== OCI: jetjson digest --raw FILE beside the digest upstream asserts for FILE =="
catalog=$CORPUS/oci/CATALOG.tsv
while IFS=$'\t' read -r file _ _ _ upstream rule _; do
  [ "$upstream" != "-" ] || continue
  path=$CORPUS/oci/$file
  case $file in
    */blobs/sha256/*) source="the blob's name"; asserted="sha256:${file##*/}" ;;
    *) source="upstream's constant"; asserted=$upstream ;;
  esac
  case $rule in
    *schema1*|*JWS*)
      # Docker schema1: the digest is over the JWS payload, not the file
      # (jetjson reads the signature header; the payload is hashed raw).
      got=$("$PY" - "$path" <<'PY'
import base64, sys, jetjson
doc = open(sys.argv[1], "rb").read()
b64 = lambda s: base64.urlsafe_b64decode(s + "=" * (-len(s) % 4))
header = jetjson.loads(b64(jetjson.loads(doc)["signatures"][0]["protected"]))
print(jetjson.digest_bytes(doc[: header["formatLength"]] + b64(header["formatTail"])))
PY
)
      how="digest_bytes(JWS payload)" ;;
    *) got=$($JJ digest --raw "$path"); how="digest --raw" ;;
  esac
  printf '  %s %-25s %s = %s %-21s %s\n' "$(mark "$asserted" "$got")" "$how" "$(short "$got")" "$(short "$asserted")" "($source)" "$file"
done < <(tail -n +2 "$catalog")
v2s2=$CORPUS/oci/containers-image/v2s2.manifest.json
echo "  why --raw: re-serialised, v2s2.manifest.json hashes to $(short "$($JJ digest --profile go "$v2s2")") (go) and $(short "$($JJ digest --profile jcs "$v2s2")") (jcs), not to the $(short "$($JJ digest --raw "$v2s2")") it is addressed by"

echo
echo "== RFC 8785: jetjson canon --profile jcs on each vector's input, against its output =="
for input in "$CORPUS"/jcs/input/*.json; do
  name=$(basename "$input")
  want=$(od -An -tx1 < "$CORPUS/jcs/output/$name" | tr -d ' \n')
  got=$($JJ canon --profile jcs "$input" | od -An -tx1 | tr -d ' \n')
  printf '  %s %-20s %5d bytes\n' "$(mark "$want" "$got")" "$name" "$(wc -c < "$CORPUS/jcs/output/$name")"
done

echo
echo "== go: jetjson canon --profile go against Go's own json.Marshal =="
if command -v "${GO:-go}" > /dev/null && make -s oracles > /dev/null 2>&1 && [ -x "$ORACLE" ]; then
  echo "  ($("${GO:-go}" version | cut -d' ' -f3), tools/oracle-go, numbers as jetjson's go profile reads them)"
  docs=("$v2s2" "$CORPUS"/oci/image-spec/*.json "$CORPUS"/bench/nativejson-benchmark/*.json "$CORPUS"/bench/simdjson/github_events.json)
  for doc in "${docs[@]}"; do
    ours=$($JJ canon --profile go "$doc" | sha256sum | cut -d' ' -f1)
    theirs=$($JJ canon --profile compact "$doc" | "$ORACLE" -mode bignum | base64 -d | sha256sum | cut -d' ' -f1)
    printf '  %s %8d bytes  %s\n' "$(mark "$theirs" "$ours")" "$(wc -c < "$doc")" "${doc#"$CORPUS"/}"
  done
  ours=$(printf '%s' "$sample" | $JJ canon --profile go | sha256sum)
  theirs=$(printf '%s' "$sample" | "$ORACLE" -mode bignum | base64 -d | sha256sum)
  printf '  %s %s\n' "$(mark "$theirs" "$ours")" "the document above"
else
  echo "  Go is not installed here: the go bytes are not compared with Go's (install Go to see this section)."
fi

echo
echo "== speed, measured now: dumps of twitter.json in Python, median of paired per-round ratios =="
"$PY" - "$CORPUS" <<'PY'
import json, statistics, sys, time
from pathlib import Path
import jetjson
text = (Path(sys.argv[1]) / "bench/nativejson-benchmark/twitter.json").read_bytes()
peers = {"jetjson": jetjson.dumps, "json": lambda o: json.dumps(o, ensure_ascii=False, separators=(",", ":")).encode()}
try:
    import orjson
    peers["orjson"] = orjson.dumps
except ImportError:
    pass
obj = json.loads(text)
assert all(f(obj) == jetjson.dumps(obj) for k, f in peers.items() if k != "json")
def fresh(f, n=8):
    # Each call on an object never dumped before, as a service dumps what
    # it just built (no per-string caches warm from an earlier call).
    objs = [json.loads(text) for _ in range(n)]
    t = time.perf_counter()
    for o in objs:
        f(o)
    return (time.perf_counter() - t) / n
def again(f, n=20):
    t = time.perf_counter()
    for _ in range(n):
        f(obj)
    return (time.perf_counter() - t) / n
for label, once in (("a fresh object each call", fresh), ("the same object again", again)):
    rounds = {k: [] for k in peers}
    for _ in range(15):  # interleaved: load on the machine hits every contender alike
        for k, f in peers.items():
            rounds[k].append(once(f))
    parts = [f"jetjson {statistics.median(rounds['jetjson']) * 1e3:.2f} ms"]
    for k in peers:
        if k != "jetjson":
            ratio = statistics.median(p / j for p, j in zip(rounds[k], rounds["jetjson"]))
            parts.append(f"{k} {statistics.median(rounds[k]) * 1e3:.2f} ms ({ratio:.2f}x jetjson's time)")
    print(f"  {label + ':':26} " + " · ".join(parts))
PY

echo
echo "== the same from Python (the extension writes through the same core) =="
"$PY" - <<'PY'
import dataclasses, jetjson

@dataclasses.dataclass
class Descriptor:
    mediaType: str
    digest: str
    size: int

doc = {"annotations": {"b.title": "<app> & co", "a.note": "line\u2028sep"}, "big": 1e21, "neg": -0.0, "tiny": 1e-7,
       "config": Descriptor("application/vnd.oci.image.config.v1+json", "sha256:" + "0" * 64, 7023)}
for profile in ("compact", "go", "jcs"):
    print(f"{profile + ':':8} {jetjson.dumps(doc, profile=profile).decode()}")
print("digest(doc, 'go'):", jetjson.digest(doc, "go"))
print("digest_bytes(b'{}'):", jetjson.digest_bytes(b"{}"), "(stored bytes, as registries hash them)")
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

echo
echo "== the CLI pip installs (python -m jetjson, .venv/bin/jetjson) is the binary's code =="
ours=$("$PY" -m jetjson digest --raw "$v2s2")
printf '  %s python -m jetjson digest --raw v2s2.manifest.json = %s\n' "$(mark "$($JJ digest --raw "$v2s2")" "$ours")" "$(short "$ours")"

if [ "$failures" -gt 0 ]; then
  echo >&2
  echo "make demo: $failures claim(s) above did not hold (✗)" >&2
  exit 1
fi
