"""Two builds of jetjson side by side in one process: paired timing of the
same small_quick statements, for judging a change to the extension.

    # keep the build before the change as a package named jetjson_old:
    mkdir -p /tmp/ab && cp -r crates/jetjson-py/python/jetjson /tmp/ab/jetjson_old
    sed -i 's/from jetjson\\._jetjson/from jetjson_old._jetjson/' /tmp/ab/jetjson_old/__init__.py
    make python    # the build with the change
    .venv/bin/python bench/python/ab_builds.py /tmp/ab "jd(manifest)" "jl(b'1')" ...

Each statement is one of small_quick's (jd/jl: jetjson dumps/loads, with
its inputs: manifest, index, body, raw_unchecked, ...); it is run with the
new build's functions and, as a twin statement, with jetjson_old's. Each
round times both (best of --inner batches, order alternating) and keeps
the ratio old time / new time (above 1: the change made it faster); the
median over rounds is printed with the median times. `--cpu` times the
thread's CPU time instead of wall time, as envelope_quick.py does (a
machine shared with other jobs distorts it far less).
"""

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import jetjson  # noqa: E402
import small_quick  # noqa: E402
from timing import best, best_cpu, calibrate  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("old_dir", help="directory holding the package jetjson_old")
    ap.add_argument("stmts", nargs="+")
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--inner", type=int, default=5)
    ap.add_argument("--cpu", action="store_true", help="time the thread's CPU time, not wall time (a loaded machine)")
    ap.add_argument("--setup", default="", help="Python code run first among the statements' names (e.g. to make the "
                    "workload suite's objects: \"import suite; idx = suite.oci_object('index-10', "
                    "json.loads(suite.read('oci-index-10.json')))\")")
    ap.add_argument("--twin-setup", default="", help="Python code run after --setup once among the new build's names and "
                    "once among the old build's, with `jetjson` the build's module in each, not imported by it (typed decoders of each build: "
                    "\"import suite; jenv = jetjson.Decoder(suite.Envelope).decode; env1 = suite.read('envelope-1.json')\")")
    a = ap.parse_args()
    timed = best_cpu if a.cpu else best
    sys.path.append(a.old_dir)
    import jetjson_old  # noqa: E402

    _, g = small_quick.cases()
    if a.setup:
        exec(a.setup, g)
    old = dict(g)
    # The new build's names, bound to the old build's functions and types.
    old.update(jd=jetjson_old.dumps, jl=jetjson_old.loads, Raw=jetjson_old.Raw)
    if "raw_unchecked" in g:
        old["raw_unchecked"] = dict(g["env"], data=jetjson_old.Raw.unchecked(g["payload"]))
    if a.twin_setup:
        # Run twice, `jetjson` meaning the new build, then the old one: what
        # it makes (decoders, Raw values) is each build's own (it must not
        # import jetjson itself).
        g["jetjson"] = jetjson
        old["jetjson"] = jetjson_old
        exec(a.twin_setup, g)
        exec(a.twin_setup, old)
    print(f"| statement | old | new | old ÷ new |\n|---|---:|---:|---:|")
    for stmt in a.stmts:
        got_new, got_old = eval(stmt, g), eval(stmt, old)
        # (Values holding the builds' own types, a Raw, compare by repr.)
        assert got_new == got_old or repr(got_new) == repr(got_old), stmt
        n = max(calibrate(stmt, g), calibrate(stmt, old))
        times = {"old": [], "new": []}
        ratios = []
        for r in range(a.rounds):
            order = [("old", old), ("new", g)] if r % 2 == 0 else [("new", g), ("old", old)]
            got = {name: timed(stmt, env, n, a.inner) for name, env in order}
            for k, v in got.items():
                times[k].append(v)
            ratios.append(got["old"] / got["new"])
        med = {k: statistics.median(v) * 1e9 for k, v in times.items()}
        print(f"| `{stmt}` | {med['old']:.0f} ns | {med['new']:.0f} ns | {statistics.median(ratios):.2f} |")


if __name__ == "__main__":
    main()
