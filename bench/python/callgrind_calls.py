"""Runs N calls of one jetjson function on one input, for callgrind:
instructions per call = (total at 3N - total at N) / 2N, which cancels the
start-up and the first call's one-off costs.

    valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        .venv/bin/python bench/python/callgrind_calls.py dumps go twitter 30

WHAT: dumps (compact), dumps-go, dumps-jcs, loads; INPUT: a corpus name
(twitter, citm_catalog, canada, github_events, gsoc-2018) or a path.
"""

import json
import sys
from pathlib import Path

import jetjson

sys.path.insert(0, str(Path(__file__).parent))
from corpus_files import CORPUS, FILES  # noqa: E402

what, name, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
by_name = {Path(f).stem: Path(CORPUS) / f for f in FILES}
path = Path(name) if Path(name).exists() else by_name[name]
data = path.read_bytes()
obj = json.loads(data)
if what == "loads":
    f = lambda: jetjson.loads(data)  # noqa: E731
else:
    profile = what.partition("-")[2] or "compact"
    f = lambda: jetjson.dumps(obj, profile=profile)  # noqa: E731
f()
for _ in range(n):
    f()
