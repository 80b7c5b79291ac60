"""Paired A/B of `dumps(str)` over several builds of the extension in one
process (bench/results/strings-regression-2026-11-29.md).

    ab_strings.py BUILDS_DIR NAME [NAME...] [--cases 100KB-q10-s1,...] [--rounds 21]

Each NAME is a directory BUILDS_DIR/NAME holding the build's package renamed
`jetjson_NAME` (the wheel's `jetjson` directory, moved; its __init__ imports
`._jetjson` relatively). The first NAME is the reference: each round times
every build (thread CPU time, best of --inner batches; order reversed every
other round) and keeps reference time / build time (above 1: the build is
faster); the median and range over rounds are printed. Cases are
SIZE-MIX with SIZE in 64B, 1KB, 100KB, 10MB and MIX in clean, q2-s1,
q10-s1 (bench/python/rng_text.py's strings, as suite.py makes them), or
`small`. Set OPENBLAS_NUM_THREADS=1: numpy's OpenBLAS threads spin otherwise.
"""
import argparse
import importlib
import statistics
import sys
import time
import timeit
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import rng_text  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("builds_dir")
ap.add_argument("builds", nargs="+")
ap.add_argument("--cases", default="100KB-clean,100KB-q2-s1,100KB-q10-s1")
ap.add_argument("--rounds", type=int, default=21)
ap.add_argument("--inner", type=int, default=5)
a = ap.parse_args()
mods = {}
for b in a.builds:
    sys.path.insert(0, str(Path(a.builds_dir) / b))
    mods[b] = importlib.import_module(f"jetjson_{b}")
    sys.path.pop(0)
MIXES = {"clean": (0, 0, 0), "q2-s1": (200, 100, 1), "q10-s1": (1000, 100, 2)}
SIZES = {"100KB": 100_000, "10MB": 10_000_000, "1KB": 1000, "64B": 64}
def make(case):
    if case == "small":
        return 'hello "world"\n and some text'
    size, mix = case.split("-", 1)
    q, s, i = MIXES[mix]
    return rng_text.text(SIZES[size], q, s, 500 + i)
def tm(f, x, n):
    t = timeit.Timer(lambda: f(x), timer=time.thread_time)
    return min(t.timeit(n) for _ in range(a.inner)) / n
ref = a.builds[0]
print(f"| case | " + " | ".join(f"{b} ns" for b in a.builds) + " | " + " | ".join(f"{ref}/{b} med [min-max]" for b in a.builds[1:]) + " |")
for case in a.cases.split(","):
    x = make(case)
    outs = {mods[b].dumps(x) for b in a.builds}
    assert len(outs) == 1, case
    f0 = mods[ref].dumps
    n = 1
    while timeit.Timer(lambda: f0(x)).timeit(n) < 0.01:
        n *= 2
    n = max(1, int(n * 2))
    times = {b: [] for b in a.builds}
    ratios = {b: [] for b in a.builds[1:]}
    for r in range(a.rounds):
        order = list(a.builds)
        if r % 2: order.reverse()
        got = {b: tm(mods[b].dumps, x, n) for b in order}
        for b in a.builds: times[b].append(got[b])
        for b in a.builds[1:]: ratios[b].append(got[ref] / got[b])
    med = {b: statistics.median(times[b]) * 1e9 for b in a.builds}
    print(f"| {case} | " + " | ".join(f"{med[b]:.0f}" for b in a.builds) + " | " +
          " | ".join(f"{statistics.median(ratios[b]):.3f} [{min(ratios[b]):.3f}-{max(ratios[b]):.3f}]" for b in a.builds[1:]) + " |", flush=True)
