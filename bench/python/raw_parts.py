"""Where the time of a checked `Raw` envelope goes, per payload.

small_quick.py's Raw rows time `jd(dict(env, data=Raw(p)))` against
`od(dict(env, data=Fragment(p)))`; this times the parts of that call in
the same interleaved rounds (each statement the best of `--inner` batches
per round, rotating order; medians over rounds, and the median of the
per-round ratios to `Fragment(p)`), for the three payloads of those rows
(small_quick's PAYLOAD, the GitHub event, the OCI manifest):

    Fragment(p)                 orjson's unchecked constructor
    Raw.unchecked(p)            jetjson's, no validation
    Raw(b'1')                   the checked constructor's fixed cost
    Raw(p)                      constructor + validation of p
    od(dict(env, ...Fragment))  the orjson envelope row
    jd(dict(env, ...unchecked)) the envelope with no validation
    jd(dict(env, ...Raw(p)))    the jetjson envelope row
    jd(dict(env, ...Raw(b'1'))) the same with nothing to validate: what
                                the row costs with validation free

and prints the split: constructor fixed cost (Raw(b'1') - Fragment(p)),
validation (Raw(p) - Raw(b'1')), the rest of the envelope (dict + dumps)
with an unchecked Raw, and what the envelope costs beyond Raw(p) plus
that rest when the payload was just validated (the dumps after a
validation runs slower than after none: caches and branch history).

    flock /tmp/bench.lock .venv/bin/python bench/python/raw_parts.py [--rounds 15] [--inner 3] [--cpu]

`--cpu` times the thread's CPU time instead of wall time (as
ab_builds.py), which a machine shared with other jobs distorts less.
"""

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import small_quick  # noqa: E402
from timing import best, best_cpu, calibrate  # noqa: E402


def statements(p):
    return {
        "fragment": f"Fragment({p})",
        "unchecked": f"Raw.unchecked({p})",
        "fixed": "Raw(b'1')",
        "raw": f"Raw({p})",
        "orjson env": f"od(dict(env, data=Fragment({p})))",
        "unchecked env": f"jd(dict(env, data=Raw.unchecked({p})))",
        "checked env": f"jd(dict(env, data=Raw({p})))",
        "floor env": "jd(dict(env, data=Raw(b'1')))",
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--inner", type=int, default=3)
    ap.add_argument("--cpu", action="store_true", help="time the thread's CPU time, not wall time")
    args = ap.parse_args()
    timed = best_cpu if args.cpu else best
    _, g = small_quick.cases()
    for label, p in [("payload", "payload"), ("GitHub event", "event_payload"), ("OCI manifest", "manifest_payload")]:
        stmts = statements(p)
        assert eval(stmts["checked env"], g) == eval(stmts["orjson env"], g)
        number = {k: calibrate(s, g) for k, s in stmts.items()}
        keys = list(stmts)
        times = {k: [] for k in keys}
        for r in range(args.rounds):
            for k in keys[r % len(keys):] + keys[: r % len(keys)]:
                times[k].append(timed(stmts[k], g, number[k], args.inner) * 1e9)
        med = {k: statistics.median(v) for k, v in times.items()}
        ratio = {k: statistics.median(a / b for a, b in zip(times[k], times["fragment"])) for k in keys}
        print(f"{label} ({len(g[p])} B):")
        for k in keys:
            print(f"  {stmts[k]:48s} {med[k]:8.1f} ns  {ratio[k]:6.2f}x Fragment")
        # The split, from per-round differences (medians).
        diff = lambda f: statistics.median(f(*(times[k][i] for k in keys)) for i in range(args.rounds))  # noqa: E731
        fixed = diff(lambda fr, un, fx, raw, oe, ue, ce, fe: fx - fr)
        valid = diff(lambda fr, un, fx, raw, oe, ue, ce, fe: raw - fx)
        rest = diff(lambda fr, un, fx, raw, oe, ue, ce, fe: ue - un)
        extra = diff(lambda fr, un, fx, raw, oe, ue, ce, fe: (ce - raw) - (ue - un))
        print(f"  split: constructor fixed {fixed:.0f} ns, validation {valid:.0f} ns, dict+dumps {rest:.0f} ns, dumps slower after validation {extra:.0f} ns")


if __name__ == "__main__":
    main()
