"""Writes two variants of a JSON document that differ from it only in its
string escapes, for telling the cost of the escapes from the rest of a
parse (bench/results/gsoc48-2026-11-30.md): `NAME-noesc.json`, every
escape replaced by as many `_` bytes (same length, same structure), and
`NAME-oneesc.json`, only the first escape of each string kept.

    python3 bench/escape_variants.py ../shared/corpus/bench/simdjson/gsoc-2018.json OUTDIR
    target/native/release/examples/peer_loop jetjson,sonic OUTDIR/gsoc-2018-noesc.json 300
"""

import json
import re
import sys
from pathlib import Path

ESCAPE = re.compile(rb"\\(u[0-9a-fA-F]{4}|.)", re.S)


def strings(b):
    """The (start, end) of each string body of the JSON text `b`."""
    i = 0
    while True:
        q = b.find(b'"', i)
        if q < 0:
            return
        j = q + 1
        while b[j] != 0x22:
            j += 2 if b[j] == 0x5C else 1
        yield q + 1, j
        i = j + 1


def variant(b, keep_first):
    out = bytearray(b)
    for s, e in strings(b):
        kept = [not keep_first]

        def blank(m):
            if not kept[0]:
                kept[0] = True
                return m.group(0)
            return b"_" * len(m.group(0))

        out[s:e] = ESCAPE.sub(blank, b[s:e])
    return bytes(out)


def main():
    src, outdir = Path(sys.argv[1]), Path(sys.argv[2])
    b = src.read_bytes()
    outdir.mkdir(parents=True, exist_ok=True)
    for suffix, keep_first in (("noesc", False), ("oneesc", True)):
        v = variant(b, keep_first)
        json.loads(v)
        assert len(v) == len(b)
        (outdir / f"{src.stem}-{suffix}.json").write_bytes(v)


if __name__ == "__main__":
    main()
