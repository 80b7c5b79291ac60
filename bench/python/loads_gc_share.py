"""How much of jetjson's `loads` lead comes from pausing the cyclic GC.

jetjson pauses CPython's garbage collector while it builds a document
(crates/jetjson-py/src/loads/gc.rs); orjson does not. This script times
jetjson.loads, orjson.loads, and orjson.loads wrapped in gc.disable()/
gc.enable() (interleaved per call, best time of each), so the last column
compares the builders with the collector out of the picture.

    .venv/bin/python bench/python/loads_gc_share.py
"""

import gc
import os
import time

import jetjson
import orjson

from corpus_files import CORPUS, FILES  # the script directory is on sys.path


def orjson_gc_paused(data):
    gc.disable()
    try:
        return orjson.loads(data)
    finally:
        gc.enable()


def main():
    libs = [("jetjson", jetjson.loads), ("orjson", orjson.loads), ("orjson, gc paused", orjson_gc_paused)]
    print("| document | " + " | ".join(n for n, _ in libs) + " | jetjson vs orjson | jetjson vs orjson (gc paused) |")
    print("|---|" + "---:|" * (len(libs) + 2))
    for rel in FILES:
        with open(os.path.join(CORPUS, rel), "rb") as f:
            data = f.read()
        best = {n: float("inf") for n, _ in libs}
        for _ in range(max(30, int(1e8 / len(data)))):
            for name, fn in libs:
                t = time.perf_counter()
                fn(data)
                best[name] = min(best[name], time.perf_counter() - t)
        cells = " | ".join(f"{best[n] * 1e3:.3f} ms" for n, _ in libs)
        j = best["jetjson"]
        print(f"| {os.path.basename(rel)} | {cells} | {best['orjson'] / j:.2f}x | {best['orjson, gc paused'] / j:.2f}x |")


if __name__ == "__main__":
    main()
