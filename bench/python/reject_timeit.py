"""Per-call time of the binding workload's reject rows, side by side (timeit,
medians of 7 rounds), then the oversize refusal with small and large limits
(mins of 5): run under `flock /tmp/bench.lock`.

    flock /tmp/bench.lock .venv/bin/python bench/python/reject_timeit.py
"""
import sys
import timeit
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import jetjson  # noqa: E402
# The inputs and the three statements, as callgrind_reject.py has them.
from callgrind_reject import j, m, o, oversize, trailing  # noqa: E402
rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 7
for name, data, n in [("oversize", oversize, 200000), ("trailing", trailing, 50000)]:
    res = {}
    for _ in range(rounds):
        for f in (j, o, m):
            t = timeit.timeit(lambda: f(data), number=n) / n * 1e9
            res.setdefault(f.__name__, []).append(t)
    best = {k: min(v) for k, v in res.items()}
    med = {k: sorted(v)[len(v)//2] for k, v in res.items()}
    print(f"{name}: jetjson {med['j']:.0f} ns, orjson {med['o']:.0f}, msgspec {med['m']:.0f} (medians); "
          f"ratios orjson/jet {med['o']/med['j']:.2f}, msgspec/jet {med['m']/med['j']:.2f}; mins j {best['j']:.0f} o {best['o']:.0f} m {best['m']:.0f}")


# The oversize refusal alone: limit 16 (no 16 KiB newline count) and 16384.
def jl(b, lim):
    try: jetjson.loads(b, max_size=lim)
    except ValueError: return True
class B(ValueError): pass
def p(b, lim):
    try:
        if len(b) > lim: raise B(len(b))
    except ValueError: return True
for lim in (16384, 16, 1 << 19):
    for f in (jl, p):
        ts = [timeit.timeit(lambda: f(oversize, lim), number=100000) * 1e4 for _ in range(5)]
        print(f.__name__, lim, "%.0f ns" % min(ts))
