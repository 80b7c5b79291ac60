"""Writes the six corpus documents of the parse tables with the whitespace
outside strings removed, byte for byte otherwise (strings, escapes and
number spellings kept): the compact form a service sends. The parse tables
of the corpus run on the files as they are distributed, mostly indented;
this is the other layout.

    python3 bench/compact_corpus.py DIR
    bash bench/parse_pairs.sh sonic 300 DIR/*.json
"""

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / ".." / "shared" / "corpus" / "bench"
FILES = ["nativejson-benchmark/twitter.json", "nativejson-benchmark/citm_catalog.json", "nativejson-benchmark/canada.json",
         "simdjson/github_events.json", "simdjson/gsoc-2018.json", "simdjson/mesh.json"]


def strip(b: bytes) -> bytes:
    out = bytearray()
    i, n, inside = 0, len(b), False
    while i < n:
        c = b[i]
        if inside:
            out.append(c)
            if c == 0x5C:  # a backslash: the escaped byte goes too
                out.append(b[i + 1])
                i += 2
                continue
            inside = c != 0x22
        elif c not in b" \t\r\n":
            out.append(c)
            inside = c == 0x22
        i += 1
    return bytes(out)


def main() -> None:
    out_dir = Path(sys.argv[1])
    out_dir.mkdir(parents=True, exist_ok=True)
    for name in FILES:
        src = (ROOT / name).read_bytes()
        compact = strip(src)
        if json.loads(compact) != json.loads(src):
            sys.exit(f"{name}: the compact form reads differently")
        (out_dir / Path(name).name).write_bytes(compact)
        print(f"{Path(name).name}: {len(src)} -> {len(compact)} bytes")


if __name__ == "__main__":
    main()
