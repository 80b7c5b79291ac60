"""Two builds of jetjson side by side on the corpus files: paired timing of
`loads` or `dumps` of whole documents, for judging whether a change left
the large files where they were (issue 23: "the large corpus files no
slower than today").

    # keep the build before the change as a package named jetjson_old
    # (see ab_builds.py), then, with the new build installed:
    .venv/bin/python bench/python/ab_corpus.py /tmp/ab loads
    .venv/bin/python bench/python/ab_corpus.py /tmp/ab dumps

Each round times the new build, the old one and orjson (best of 5 single
calls each) and keeps old time / new time (above 1: the change made it
faster) and orjson time / new time; the medians over rounds are printed.
`--cpu` times the thread's CPU time instead of wall time (a machine shared
with other jobs distorts it far less). Single calls of whole documents, so the orjson column is not the one of
loads_quick.py / dumps_quick.py, which time batches.
"""

import argparse
import statistics
import sys
import time
from pathlib import Path

import orjson

import jetjson

sys.path.insert(0, str(Path(__file__).parent))
from dumps_quick import CORPUS, FILES  # noqa: E402



def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("old_dir", help="directory holding the package jetjson_old")
    ap.add_argument("mode", choices=["loads", "dumps"])
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--cpu", action="store_true", help="time the thread's CPU time, not wall time (a loaded machine)")
    a = ap.parse_args()
    clock = time.thread_time if a.cpu else time.perf_counter
    sys.path.append(a.old_dir)
    import jetjson_old  # noqa: E402

    for name, rel in FILES.items():
        raw = (CORPUS / rel).read_bytes()
        obj = orjson.loads(raw)
        if a.mode == "dumps":
            assert jetjson.dumps(obj) == jetjson_old.dumps(obj), name
            calls = {"new": lambda: jetjson.dumps(obj), "old": lambda: jetjson_old.dumps(obj), "orjson": lambda: orjson.dumps(obj)}
        else:
            calls = {"new": lambda: jetjson.loads(raw), "old": lambda: jetjson_old.loads(raw), "orjson": lambda: orjson.loads(raw)}
        old_new, orjson_new = [], []
        for r in range(a.rounds):
            order = list(calls.items())
            order = order[r % 3:] + order[: r % 3]
            t = {}
            for k, f in order:
                best = float("inf")
                for _ in range(5):
                    s = clock()
                    f()
                    best = min(best, clock() - s)
                t[k] = best
            old_new.append(t["old"] / t["new"])
            orjson_new.append(t["orjson"] / t["new"])
        print(f"{name:14s} old/new {statistics.median(old_new):.3f}  orjson/new {statistics.median(orjson_new):.3f}")


if __name__ == "__main__":
    main()
