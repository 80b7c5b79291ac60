"""`dumps` of dataclasses before and after another library read their
`__dict__`: `orjson.dumps` of a dataclass reads `obj.__dict__`, which on
CPython 3.11 turns the instance's inline values into a dict (a split table
over the class's shared keys), and the workload suite times every
contender on the same objects. jetjson reads the fields of both kinds in
place (dumps/dataclass.rs `read_in_place`); this prints, per round, jetjson
on fresh instances, jetjson on instances orjson has written, and orjson,
with the medians of the per-round ratios.

    .venv/bin/python bench/python/touched_dataclasses.py [--rounds 15]

Objects: the suite's `oci/index-10` (an index of ten descriptors as
dataclasses, bench/go/testdata/oci-index-10.json).
"""

import argparse
import json
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import jetjson  # noqa: E402
import orjson  # noqa: E402
import suite  # noqa: E402
from timing import best, calibrate  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=15)
    args = ap.parse_args()
    value = json.loads(suite.read("oci-index-10.json"))
    fresh = suite.oci_object("index-10", value)
    touched = suite.oci_object("index-10", value)
    orjson.dumps(touched)  # makes each instance's __dict__
    assert jetjson.dumps(fresh) == jetjson.dumps(touched) == orjson.dumps(touched)
    g = {"jd": jetjson.dumps, "od": orjson.dumps, "fresh": fresh, "touched": touched}
    stmts = {"jetjson fresh": "jd(fresh)", "jetjson touched": "jd(touched)", "orjson touched": "od(touched)"}
    number = calibrate("jd(fresh)", g)
    times = {k: [] for k in stmts}
    for r in range(args.rounds):
        order = list(stmts.items())
        order = order[r % 3:] + order[:r % 3]
        for name, stmt in order:
            times[name].append(best(stmt, g, number, 3))
    med = {k: statistics.median(v) * 1e9 for k, v in times.items()}
    ratio = lambda a, b: statistics.median(x / y for x, y in zip(times[a], times[b]))  # noqa: E731
    for k, v in med.items():
        print(f"{k:16s} {v:7.0f} ns")
    print(f"touched / fresh (jetjson): {ratio('jetjson touched', 'jetjson fresh'):.2f}")
    print(f"orjson / jetjson (touched): {ratio('orjson touched', 'jetjson touched'):.2f}")


if __name__ == "__main__":
    main()
