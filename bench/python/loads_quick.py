"""Quick `loads` benchmark: jetjson against orjson, msgspec, ujson, rapidjson and json.

Pytest-free. For each document, every library runs in interleaved rounds
(after a warm-up), each round the best of a few calls; the table shows the
median round time and the ratio to orjson (orjson time / library time:
> 1 means faster than orjson). Libraries that are not installed are skipped.

    .venv/bin/python bench/python/loads_quick.py [--rounds N] [--files a.json,b.json]
"""

import argparse
import json
import os
import statistics
import sys
import time

from corpus_files import CORPUS, FILES  # the script directory is on sys.path


def contenders():
    import jetjson

    libs = [("jetjson", jetjson.loads)]
    try:
        import orjson

        libs.append(("orjson", orjson.loads))
    except ImportError:
        sys.exit("orjson is needed as the reference (pip install orjson)")
    try:
        import msgspec

        libs.append(("msgspec", msgspec.json.decode))
    except ImportError:
        pass
    try:
        import ujson

        libs.append(("ujson", ujson.loads))
    except ImportError:
        pass
    try:
        import rapidjson

        libs.append(("rapidjson", rapidjson.loads))
    except ImportError:
        pass
    libs.append(("json", json.loads))
    return libs


def best_of(fn, data, calls):
    best = float("inf")
    for _ in range(calls):
        t0 = time.perf_counter()
        fn(data)
        best = min(best, time.perf_counter() - t0)
    return best


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--files", default="")
    args = ap.parse_args()
    files = args.files.split(",") if args.files else FILES
    libs = contenders()
    names = [n for n, _ in libs]
    rows = []
    for rel in files:
        path = rel if os.path.exists(rel) else os.path.join(CORPUS, rel)
        with open(path, "rb") as f:
            data = f.read()
        expected = json.loads(data)
        for name, fn in libs:
            # Correctness first; orjson and ujson may differ on big ints only.
            if name == "jetjson":
                assert fn(data) == expected, f"jetjson disagrees with json on {rel}"
        # Calls per round: about 20 ms of orjson work, at least 3.
        t = best_of(libs[1][1], data, 3)
        calls = max(3, min(50, int(0.02 / max(t, 1e-6))))
        for _, fn in libs:  # warm-up
            best_of(fn, data, calls)
        times = {n: [] for n in names}
        for r in range(args.rounds):
            order = libs if r % 2 == 0 else libs[::-1]
            for name, fn in order:
                times[name].append(best_of(fn, data, calls))
        med = {n: statistics.median(v) for n, v in times.items()}
        rows.append((os.path.basename(rel), len(data), med))
    print(f"loads: median of {args.rounds} interleaved rounds (each the best of several calls); "
          "ratio = orjson time / library time (> 1: faster than orjson)\n")
    print("| document | size | " + " | ".join(names) + " |")
    print("|---|---:|" + "---:|" * len(names))
    for doc, size, med in rows:
        ref = med["orjson"]
        cells = [f"{med[n] * 1e3:.3f} ms ({ref / med[n]:.2f}x)" for n in names]
        print(f"| {doc} | {size / 1024:.0f} KiB | " + " | ".join(cells) + " |")
    import platform

    print(f"\nPython {platform.python_version()}, {platform.machine()}, {os.cpu_count()} CPUs; "
          f"command: python bench/python/loads_quick.py --rounds {args.rounds}")


if __name__ == "__main__":
    main()
