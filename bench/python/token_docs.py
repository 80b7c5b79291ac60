"""Documents of one token kind repeated, for bench/token_costs.sh: writes
DIR/<name>.json (compact) and prints "<name> <items>" per document.

The 1000 items of a document are 100 arrays of 10, so that no array is
long: a finished array's items are copied once (jetjson copies them from
its stack into the arena) and glibc's memcpy moves a long block with
`rep movsb`, whose every byte callgrind counts as an instruction; the
hundred short copies are vector moves, counted as the CPU runs them."""

import json
import random
import sys
from pathlib import Path

rng = random.Random(1)
DOCS = {
    "ints": [rng.randint(0, 100000) for _ in range(1000)],
    "floats": [round(rng.uniform(0, 1000), 2) for _ in range(1000)],
    "short-strings": ["s%d" % i for i in range(1000)],
    "40-byte-strings": ["x" * 30 + "%010d" % i for i in range(1000)],
    "empty-arrays": [[] for _ in range(1000)],
    "arrays-of-two-strings": [["a", "b"] for _ in range(1000)],
    "objects-of-one-int": [{"a": i} for i in range(1000)],
    "objects-of-four": [{"id": i, "name": "n%d" % i, "ok": True, "v": None} for i in range(1000)],
}

out = Path(sys.argv[1])
for name, items in DOCS.items():
    doc = [items[k : k + 10] for k in range(0, len(items), 10)]
    (out / f"{name}.json").write_text(json.dumps(doc, separators=(",", ":")))
    print(name, len(items))
