"""Quick dumps benchmark: jetjson against orjson, json, ujson, rapidjson, msgspec and rfc8785.

No pytest. Each document is loaded once with json.loads; then, per round,
every encoder is timed on it in a rotating order (interleaved rounds, so
drift in machine load hits all of them alike). A round's time for an encoder
is the best of `--inner` batches; the table shows the median over rounds.
Ratios are the median over rounds of the ratio within each round (the two
encoders timed in the same round, moments apart), so a slow stretch of the
shared machine that hits one round does not skew them; >1.00x in the
"vs orjson" column means jetjson is faster.

    .venv/bin/python bench/python/dumps_quick.py [--rounds 15] [--inner 5]
"""

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import jetjson
import orjson

CORPUS = Path(__file__).resolve().parents[2] / ".." / "shared" / "corpus" / "bench"
FILES = {
    "twitter": "nativejson-benchmark/twitter.json",
    "citm_catalog": "nativejson-benchmark/citm_catalog.json",
    "canada": "nativejson-benchmark/canada.json",
    "github_events": "simdjson/github_events.json",
    "gsoc-2018": "simdjson/gsoc-2018.json",
}


def optional(name):
    try:
        return __import__(name)
    except ImportError:
        return None


def encoders(slow):
    ujson, msgspec, rfc8785, rapidjson = optional("ujson"), optional("msgspec"), optional("rfc8785"), optional("rapidjson")
    enc = {
        "jetjson": lambda o: jetjson.dumps(o),
        "orjson": lambda o: orjson.dumps(o),
        "jetjson go": lambda o: jetjson.dumps(o, profile="go"),
        "jetjson jcs": lambda o: jetjson.dumps(o, profile="jcs"),
        "orjson sorted": lambda o: orjson.dumps(o, option=orjson.OPT_SORT_KEYS),
    }
    if msgspec:
        enc["msgspec"] = msgspec.json.encode
    if ujson:
        enc["ujson"] = lambda o: ujson.dumps(o, ensure_ascii=False, escape_forward_slashes=False)
    if rapidjson:
        # Its compact form (no spaces by default) as a str, encoded as the
        # others return bytes.
        enc["rapidjson"] = lambda o: rapidjson.dumps(o, ensure_ascii=False).encode()
    enc["json"] = lambda o: json.dumps(o, ensure_ascii=False, separators=(",", ":"))
    if rfc8785 and slow:
        enc["rfc8785"] = rfc8785.dumps
    return enc


def calls_for(fn, obj, target=0.02):
    """Calls per batch so a batch lasts about `target` seconds."""
    n = 1
    while True:
        t = time.perf_counter()
        for _ in range(n):
            fn(obj)
        if time.perf_counter() - t >= target or n >= 1 << 16:
            return n
        n *= 2


def bench(obj, encs, rounds, inner):
    encs = dict(encs)
    for name, fn in list(encs.items()):
        try:
            fn(obj)
        except Exception:  # rfc8785 refuses integers beyond 2**53 (twitter ids)
            del encs[name]
    sizes = {name: calls_for(fn, obj) for name, fn in encs.items()}
    for name, fn in encs.items():  # warm-up
        for _ in range(sizes[name]):
            fn(obj)
    samples = {name: [] for name in encs}
    names = list(encs)
    for r in range(rounds):
        order = names[r % len(names):] + names[: r % len(names)]
        for name in order:
            fn, n = encs[name], sizes[name]
            best = float("inf")
            for _ in range(inner):
                t = time.perf_counter()
                for _ in range(n):
                    fn(obj)
                best = min(best, (time.perf_counter() - t) / n)
            samples[name].append(best)
    return samples


def paired(samples, a, b):
    """Median over rounds of a's time / b's time within each round."""
    return statistics.median(x / y for x, y in zip(samples[a], samples[b]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--inner", type=int, default=5)
    ap.add_argument("--no-rfc8785", action="store_true", help="skip the slow pure-Python rfc8785 encoder")
    ap.add_argument("files", nargs="*", default=list(FILES))
    args = ap.parse_args()
    encs = encoders(not args.no_rfc8785)
    rows = []
    for key in args.files:
        obj = json.loads((CORPUS / FILES[key]).read_bytes())
        # The comparison is only fair if the outputs agree.
        assert jetjson.dumps(obj) == orjson.dumps(obj), key
        samples = bench(obj, encs, args.rounds, args.inner)
        rows.append((key, samples))
        print(f"{key}: done", file=sys.stderr)
    print(f"Python {sys.version.split()[0]}, orjson {orjson.__version__}; median of {args.rounds} interleaved rounds (each the best of {args.inner} batches)\n")
    print("| file | " + " | ".join(f"{n} µs" for n in encs) + " | dumps vs orjson | go vs dumps | jcs vs orjson sorted | jcs vs rfc8785 |")
    print("|---|" + "---:|" * (len(encs) + 4))
    for key, samples in rows:
        med = {name: statistics.median(v) for name, v in samples.items()}
        us = " | ".join(f"{med[n] * 1e6:.1f}" if n in med else "-" for n in encs)
        ratio = paired(samples, "orjson", "jetjson")
        go = paired(samples, "jetjson go", "jetjson")
        jcs = paired(samples, "jetjson jcs", "orjson sorted")
        rfc = f"{paired(samples, 'rfc8785', 'jetjson jcs'):.0f}x faster" if "rfc8785" in med else "-"
        print(f"| {key} | {us} | {ratio:.2f}x | {go:.2f}x slower | {jcs:.2f}x slower | {rfc} |")
    print("\n(ratios: median of per-round ratios; dumps vs orjson > 1 means jetjson is faster; 'slower' columns are time ratios, lower is better.)")


if __name__ == "__main__":
    main()
