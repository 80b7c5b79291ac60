"""The training workload of the profile-guided build (scripts/pgo-python.sh):
what users run, with no timing and no other library in the hot loop.

It runs jetjson's own statement of every small_quick case (small dumps and
loads, OCI documents, request bodies, dataclasses, datetimes, UUIDs, Raw
envelopes), of every envelope_quick case (the suite's envelopes around a
`Raw` message, 434 B to 131 kB), `dumps` in the three profiles on the five
corpus documents of dumps_quick and `loads` (bytes and str) on the five of
loads_quick. Each statement handles about the same number of bytes
(`--scale`: calls = scale / (size + 200), 5 to 20,000), so no single
workload's loop counts swamp the others' per-call paths in the profile. Error paths are left out on purpose: the test suite, which mostly
exercises them, is not a good profile.

    .venv/bin/python bench/python/pgo_train.py [--scale 4e6]

Needs orjson and msgspec (bench/requirements.txt): small_quick and
envelope_quick build their inputs with them.
"""

import argparse
import json
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import jetjson  # noqa: E402
import corpus_files  # noqa: E402
import envelope_quick  # noqa: E402
import small_quick  # noqa: E402


def calls_for(stmt, g, scale):
    """How many times to run `stmt`: about the same work for every statement,
    judged by the size of the JSON it reads or writes (a call count, not a
    time, so a loaded machine does not change the profile's balance)."""
    out = eval(stmt, g)
    if not isinstance(out, (bytes, str)):
        out = jetjson.dumps(out)
    return max(5, min(20000, int(scale // (len(out) + 200))))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--scale", type=float, default=4e6, help="bytes of JSON per statement (calls = scale / (size + 200))")
    a = ap.parse_args()
    work = []
    table, g = small_quick.cases()
    for name, stmts, _ in table:
        work.append((f"small: {name}", stmts["jetjson"], g))
    rows, eg = envelope_quick.cases(None)
    for name, stmts, _ in rows:
        work.append((f"envelope: {name}", stmts["jetjson"], eg))
    cg = {"jd": jetjson.dumps, "jl": jetjson.loads}
    for rel in corpus_files.FILES:
        data = Path(os.path.join(corpus_files.CORPUS, rel)).read_bytes()
        key = Path(rel).stem.replace("-", "_")
        cg[f"{key}_b"] = data
        cg[f"{key}_s"] = data.decode()
        cg[key] = json.loads(data)
        for profile in ("compact", "go", "jcs"):
            work.append((f"dumps {profile}: {rel}", f"jd({key}, profile={profile!r})", cg))
        work.append((f"loads bytes: {rel}", f"jl({key}_b)", cg))
        work.append((f"loads str: {rel}", f"jl({key}_s)", cg))
    t0 = time.perf_counter()
    for name, stmt, env in work:
        code = compile(stmt, "<train>", "eval")
        calls = calls_for(stmt, env, a.scale)
        for _ in range(calls):
            eval(code, env)
        print(f"{calls:9d}  {name}")
    print(f"{len(work)} statements in {time.perf_counter() - t0:.1f} s")


if __name__ == "__main__":
    main()
