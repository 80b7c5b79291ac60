"""Envelopes around pre-serialized messages and OCI documents: `dumps` of
jetjson against orjson, per call, with paired ratios.

The envelope rows are the suite's (`suite.py`, envelope/items-N/
serialize-raw): bench/go/testdata/envelope-N.json split into its head and
its message, the message held once as `jetjson.Raw` (orjson:
`orjson.Fragment`), the envelope dict built per call. The OCI rows are
small_quick's (a 1140 B image manifest, a 3458 B index).

Each round times every contender (best of `--inner` batches) in a
rotating order and keeps the ratio orjson time / jetjson time (above 1:
jetjson faster); the table shows median times and the median ratio
(`--cpu`: the thread's CPU time instead of wall time, which a machine
shared with other jobs distorts less). With
`--old DIR` (a directory holding a package `jetjson_old`, made as
ab_builds.py says) the old build runs as a third contender, and the last
column is old time / new time.

    flock /tmp/bench.lock .venv/bin/python bench/python/envelope_quick.py [--rounds 15] [--inner 5] [--only SUBSTR] [--old /tmp/ab] [--cpu]
"""

import argparse
import json
import statistics
import sys
from pathlib import Path

import jetjson
import orjson

sys.path.insert(0, str(Path(__file__).parent))
import timing  # noqa: E402
from timing import calibrate  # noqa: E402

HERE = Path(__file__).resolve().parent
TESTDATA = HERE.parents[1] / "bench" / "go" / "testdata"
OCI = HERE.parents[1] / ".." / "shared" / "corpus" / "oci"
MANIFEST = OCI / "image-spec" / "manifest-L116-manifest.json"
INDEX = OCI / "containers-image" / "oci1.index.zstd-selection2.json"


def cases(old):
    g = {"jd": jetjson.dumps, "od": orjson.dumps}
    if old is not None:
        g["xd"] = old.dumps
    rows = []
    for n in (1, 10, 100, 1000):
        data = (TESTDATA / f"envelope-{n}.json").read_bytes()
        value = json.loads(data)
        message = json.dumps(value["data"], separators=(",", ":"), ensure_ascii=False).encode()
        head = {k: v for k, v in value.items() if k != "data"}
        g[f"head{n}"] = head
        g[f"raw{n}"] = jetjson.Raw(message)
        g[f"frag{n}"] = orjson.Fragment(message)
        stmts = {"jetjson": f"jd({{**head{n}, 'data': raw{n}}})", "orjson": f"od({{**head{n}, 'data': frag{n}}})"}
        if old is not None:
            g[f"oraw{n}"] = old.Raw(message)
            stmts["old"] = f"xd({{**head{n}, 'data': oraw{n}}})"
        rows.append((f"envelope {len(data)} B (Raw {len(message)} B)", stmts, data))
    for name, path in (("OCI manifest", MANIFEST), ("OCI index", INDEX)):
        data = path.read_bytes()
        key = name.split()[1]
        g[key] = json.loads(data)
        stmts = {"jetjson": f"jd({key})", "orjson": f"od({key})"}
        if old is not None:
            stmts["old"] = f"xd({key})"
        rows.append((f"{name} dumps ({len(data)} B)", stmts, None))
    return rows, g


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--inner", type=int, default=5)
    ap.add_argument("--only", default="")
    ap.add_argument("--old", default=None, help="directory holding the package jetjson_old")
    ap.add_argument("--cpu", action="store_true", help="time the thread's CPU time, not wall time (a loaded machine)")
    a = ap.parse_args()
    best = timing.best_cpu if a.cpu else timing.best
    old = None
    if a.old:
        sys.path.append(a.old)
        import jetjson_old as old  # noqa: E402
    rows, g = cases(old)
    print("| case | jetjson | orjson | orjson ÷ jetjson |" + (" old | old ÷ new |" if old else ""))
    print("|---|---:|---:|---:|" + ("---:|---:|" if old else ""))
    for name, stmts, want in rows:
        if a.only and a.only not in name:
            continue
        outs = {c: eval(s, g) for c, s in stmts.items()}
        for c, out in outs.items():
            assert out == outs["jetjson"], f"{name}: {c} wrote other bytes"
            assert want is None or out == want, f"{name}: {c} is not the suite's document"
        number = {c: calibrate(s, g) for c, s in stmts.items()}
        names = list(stmts)
        times = {c: [] for c in names}
        ratios = {c: [] for c in names if c != "jetjson"}
        for r in range(a.rounds):
            order = names[r % len(names):] + names[: r % len(names)]
            got = {c: best(stmts[c], g, number[c], a.inner) for c in order}
            for c in names:
                times[c].append(got[c])
            for c in ratios:
                ratios[c].append(got[c] / got["jetjson"])
        t = {c: statistics.median(v) * 1e9 for c, v in times.items()}
        r = {c: statistics.median(v) for c, v in ratios.items()}
        line = f"| {name} | {t['jetjson']:.0f} ns | {t['orjson']:.0f} ns | {r['orjson']:.2f}x |"
        if old:
            line += f" {t['old']:.0f} ns | {r['old']:.2f}x |"
        print(line, flush=True)


if __name__ == "__main__":
    main()
