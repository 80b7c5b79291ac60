#!/usr/bin/env python3
"""Markdown table of the serialization benchmark (crates/jetjson/benches/write.rs).

Reads criterion's results: for every benchmark, ``<target>/criterion/<group
dir>/<bench dir>/new/benchmark.json`` (the real group and bench ids; criterion
sanitizes '/' and other characters in the directory names, so the ids are
taken from this file rather than from the path) and ``new/estimates.json``
(point estimate in ns).

Groups are ``write/<doc>/value`` and ``write/<doc>/typed``; bench ids are
``jetjson-compact``, ``jetjson-go``, ``jetjson-jcs``, ``serde_json``, ``sonic-rs``.

Usage:
    python3 bench/write_report.py [--criterion-dir DIR] [--statistic median|mean]

The default directory is ``$CARGO_TARGET_DIR/criterion`` or ``target/criterion``
next to this script's repository. Python 3 standard library only.
"""

import argparse
import json
import os
import sys

DOCS = ["twitter", "citm_catalog", "canada", "github_events", "gsoc-2018"]
KINDS = ["value", "typed"]
IDS = ["jetjson-compact", "jetjson-go", "jetjson-jcs", "serde_json", "sonic-rs"]


def default_dir():
    target = os.environ.get("CARGO_TARGET_DIR")
    if target:
        return os.path.join(target, "criterion")
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    return os.path.join(repo, "target", "criterion")


def load(root, statistic):
    """{(group_id, function_id): (ns, throughput_bytes or None)}"""
    results = {}
    for dirpath, _dirnames, filenames in os.walk(root):
        if os.path.basename(dirpath) != "new" or "benchmark.json" not in filenames:
            continue
        try:
            with open(os.path.join(dirpath, "benchmark.json")) as f:
                bench = json.load(f)
            with open(os.path.join(dirpath, "estimates.json")) as f:
                est = json.load(f)
        except (OSError, ValueError) as e:
            print(f"warning: skipping {dirpath}: {e}", file=sys.stderr)
            continue
        group = bench.get("group_id")
        func = bench.get("function_id")
        if bench.get("value_str"):
            func = f"{func}/{bench['value_str']}" if func else bench["value_str"]
        ns = est[statistic]["point_estimate"]
        tp = bench.get("throughput") or {}
        size = tp.get("Bytes") or tp.get("BytesDecimal")
        results[(group, func)] = (ns, size)
    return results


def fmt_time(ns):
    if ns is None:
        return "n/a"
    if ns >= 1e9:
        return f"{ns / 1e9:.2f} s"
    if ns >= 1e6:
        return f"{ns / 1e6:.2f} ms"
    if ns >= 1e3:
        return f"{ns / 1e3:.1f} µs"
    return f"{ns:.0f} ns"


def fmt_size(n):
    if n is None:
        return "n/a"
    if n >= 1e6:
        return f"{n / 1e6:.2f} MB"
    return f"{n / 1e3:.1f} kB"


def mbps(size, ns):
    if size is None or ns is None or ns == 0:
        return None
    return size / (ns / 1e9) / 1e6


def cell(size, ns):
    if ns is None:
        return "n/a"
    rate = mbps(size, ns)
    return f"{fmt_time(ns)} ({rate:,.0f} MB/s)" if rate is not None else fmt_time(ns)


def ratio(num, den):
    if num is None or den is None or den == 0:
        return "n/a"
    return f"{num / den:.2f}×"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--criterion-dir", default=default_dir())
    ap.add_argument("--statistic", default="median", choices=["median", "mean"])
    args = ap.parse_args()

    if not os.path.isdir(args.criterion_dir):
        sys.exit(f"no criterion results in {args.criterion_dir}; run `cargo bench -p jetjson --bench write` first")
    results = load(args.criterion_dir, args.statistic)

    header = [
        "document", "kind", "input",
        "jetjson compact", "jetjson go", "jetjson jcs", "serde_json", "sonic-rs",
        "compact vs serde_json", "compact vs sonic-rs", "go / compact", "jcs / compact",
    ]
    print(f"Serialization, {args.statistic} time per document (MB/s = input bytes / time, 10^6 B/s).")
    print("'compact vs X' = X time / jetjson compact time (>1: jetjson faster); "
          "'go / compact', 'jcs / compact' = cost of the profile relative to compact.")
    print()
    print("| " + " | ".join(header) + " |")
    print("|" + "|".join(["---", "---"] + ["---:"] * (len(header) - 2)) + "|")

    missing = []
    odd = []
    for doc in DOCS:
        for kind in KINDS:
            group = f"write/{doc}/{kind}"
            t = {}
            size = None
            for bid in IDS:
                r = results.get((group, bid))
                if r is None:
                    missing.append(f"{group}/{bid}")
                    t[bid] = None
                else:
                    t[bid] = r[0]
                    size = size or r[1]
            if all(v is None for v in t.values()):
                continue
            c = t["jetjson-compact"]
            row = [doc, kind, fmt_size(size)] + [cell(size, t[b]) for b in IDS] + [
                ratio(t["serde_json"], c),
                ratio(t["sonic-rs"], c),
                ratio(t["jetjson-go"], c),
                ratio(t["jetjson-jcs"], c),
            ]
            print("| " + " | ".join(row) + " |")
            for peer in ("serde_json", "sonic-rs"):
                if c and t[peer] and c / t[peer] >= 2:
                    odd.append(f"{group}: {peer} is {c / t[peer]:.1f}× faster than jetjson compact")
                if c and t[peer] and t[peer] / c >= 3:
                    odd.append(f"{group}: jetjson compact is {t[peer] / c:.1f}× faster than {peer}")
            for prof in ("jetjson-go", "jetjson-jcs"):
                if c and t[prof] and t[prof] / c >= 3:
                    odd.append(f"{group}: {prof} costs {t[prof] / c:.1f}× compact")

    if odd:
        print()
        print("Notable:")
        for o in odd:
            print(f"- {o}")
    if missing:
        print()
        print("Missing results: " + ", ".join(missing))


if __name__ == "__main__":
    main()
