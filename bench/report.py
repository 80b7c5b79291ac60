#!/usr/bin/env python3
"""Writes bench/results/latest.md and one PNG chart per workload family from
the results of one benchmark run:

* bench/results/rust.json    jetjson-bench (required): jetjson, serde_json,
                             sonic-rs, simd-json, interleaved in one process;
* bench/results/go-bench.txt `go test -bench` output of bench/go (optional):
                             Go encoding/json on the same inputs;
* bench/results/python.json  (optional; bench/python/suite.py): the same
                             row schema as rust.json ({"rows": [{"family",
                             "case", "op", "bytes", "note", "contenders":
                             [{"name", "median_ns", "p25_ns", "p75_ns",
                             "min_ns", "max_ns", "allocs", "alloc_bytes"}]}]})
                             plus "python", "versions", "scale", "rounds".
                             Its rows get their own section (headline, tables,
                             chart-py-<family>.png), compared with the row's
                             "jetjson-py"; the Rust tables are unchanged.

Ratios are "how many times faster jetjson is": the peer's median time over
jetjson's, within one row. The baseline is `jetjson` (the compact profile or
the parser), or `jetjson-go` for Go's encoding/json and for rows where only
the go profile runs.

Usage: python3 bench/report.py [RESULTS_DIR]   (default bench/results)
"""

import datetime
import json
import math
import os
import re
import statistics
import subprocess
import sys

FAMILIES = [
    ("oci", "1. OCI manifests (registry client, go profile)",
     "Image manifests with 5 and 50 annotations and an image index of 10 manifests, fields in the order of the image-spec Go "
     "structs. jetjson writes the `go` profile; the inputs contain no HTML characters or floats, so every library writes Go's "
     "bytes (checked) and every digest is the registry's."),
    ("binding", "2. Request-body binding (HTTP framework)",
     "A ~1 KiB create-order body bound to a typed record; a body with trailing data after the value; a 1 MiB body against a "
     "16 KiB limit (peers: the framework reads at most limit+1 bytes; jetjson: `from_reader_with` + `max_size`). "
     "Allocations are per call."),
    ("sdk", "3. Schema-driven records (SDK codec)",
     "SIMPLE: 10 scalar fields. COMPLEX: nested records, lists, maps, RFC 3339 timestamps, base64 blobs. "
     "`deserialize-reversed`: every object's members in reverse order."),
    ("envelope", "4. Message envelopes (message bus)",
     "A CloudEvents-style envelope whose message holds 1 to 1000 items; `-typed`: the message is a record; `-raw`: the message "
     "is pre-serialized JSON (jetjson `RawJson`, serde_json `RawValue`, sonic-rs `LazyValue`, Go `json.RawMessage`)."),
    ("strings", "5. String escaping (database string serializer)",
     "One string of 100 KB / 10 MB / 100 MB; `qQ-sS`: each character is a quote with probability Q% and a control character "
     "with probability S%. One JSON string written per call."),
    ("corpus", "6. Corpus documents (parse / serialize / round trip, DOM)",
     "The documents of `../shared/corpus/bench/`, parsed into each library's DOM, serialized from it, and both. Typed models "
     "of five documents: see `read-ratios.md` / `write-ratios.md`."),
]

GO_LINE = re.compile(r"^BenchmarkWorkloads/(\S+?)-\d+\s+\d+\s+([\d.]+) ns/op(?:\s+[\d.]+ MB/s)?(?:\s+(\d+) B/op\s+(\d+) allocs/op)?")


def baseline_for(row, c):
    names = {x["name"] for x in row["contenders"]}
    if c["name"] == "go" and "jetjson-go" in names:
        return "jetjson-go"
    if c.get("origin") == "python" and "jetjson-py" in names:
        return "jetjson-py"
    if "jetjson" in names:
        return "jetjson"
    return "jetjson-go" if "jetjson-go" in names else None


def load_go(path):
    """Median (and min, max) per benchmark over the -count runs."""
    if not os.path.exists(path):
        return {}
    runs = {}
    with open(path) as f:
        for line in f:
            m = GO_LINE.match(line.strip())
            if m:
                r = runs.setdefault(m.group(1), {"ns": [], "bytes": [], "allocs": []})
                r["ns"].append(float(m.group(2)))
                if m.group(3):
                    r["bytes"].append(int(m.group(3)))
                    r["allocs"].append(int(m.group(4)))
    out = {}
    for key, r in runs.items():
        ns = sorted(r["ns"])
        q = statistics.quantiles(ns, n=4, method="inclusive") if len(ns) > 1 else [ns[0]] * 3
        out[key] = {
            "name": "go",
            "median_ns": statistics.median(ns),
            "p25_ns": q[0],
            "p75_ns": q[2],
            "min_ns": ns[0],
            "max_ns": ns[-1],
            "rounds": len(ns),
            "allocs": int(statistics.median(r["allocs"])) if r["allocs"] else None,
            "alloc_bytes": int(statistics.median(r["bytes"])) if r["bytes"] else None,
        }
    return out


def merge(rust, go):
    rows = rust["rows"]
    index = {(r["family"], r["case"], r["op"]): r for r in rows}
    for key, stat in go.items():
        family, case, op = key.split("/", 2)
        row = index.get((family, case, op))
        # Go timed inside the interleaved rounds (rust.json) is preferred;
        # the separate `go test -bench` run fills in when it is missing.
        if row is not None and not any(c["name"] == "go" for c in row["contenders"]):
            row["contenders"].append(stat)
    return rows


def python_rows(python):
    """The Python suite's rows, kept apart from the Rust rows: its contenders
    are timed in another process and runtime (Python objects in and out), so
    they get their own tables, compared with `jetjson-py`."""
    rows = (python or {}).get("rows", [])
    for prow in rows:
        for c in prow["contenders"]:
            c["origin"] = "python"
    return rows


def fmt_time(ns):
    if ns < 1e3:
        return f"{ns:.0f} ns"
    if ns < 1e6:
        return f"{ns / 1e3:.2f} µs"
    if ns < 1e9:
        return f"{ns / 1e6:.2f} ms"
    return f"{ns / 1e9:.2f} s"


def fmt_size(n):
    if n < 1e3:
        return f"{n} B"
    if n < 1e6:
        return f"{n / 1e3:.1f} kB"
    return f"{n / 1e6:.1f} MB"


def spread(c):
    if c.get("p75_ns") is None or not c["median_ns"]:
        return "-"
    return f"±{(c['p75_ns'] - c['p25_ns']) / 2 / c['median_ns'] * 100:.1f}%"


def go_cross_check(rows, go):
    """The separate `go test -bench` medians next to the interleaved ones."""
    out = ["| benchmark | interleaved (rust.json) | `go test -bench` median | min–max | B/op | allocs/op |", "|---|---:|---:|---:|---:|---:|"]
    index = {f"{r['family']}/{r['case']}/{r['op']}": r for r in rows}
    for key, g in go.items():
        row = index.get(key)
        inter = next((c for c in row["contenders"] if c["name"] == "go"), None) if row else None
        inter_cell = fmt_time(inter["median_ns"]) if inter and inter is not g else "-"
        out.append(f"| {key} | {inter_cell} | {fmt_time(g['median_ns'])} | {fmt_time(g['min_ns'])}–{fmt_time(g['max_ns'])} | "
                   f"{g['alloc_bytes'] if g['alloc_bytes'] is not None else '-'} | {g['allocs'] if g['allocs'] is not None else '-'} |")
    return "\n".join(out)


def go_gap(rows, go):
    """How much slower the `testing.B` medians are than the interleaved ones."""
    index = {f"{r['family']}/{r['case']}/{r['op']}": r for r in rows}
    gaps = []
    for key, g in go.items():
        inter = next((c for c in index.get(key, {}).get("contenders", []) if c["name"] == "go"), None)
        if inter is not None and inter is not g:
            gaps.append(g["median_ns"] / inter["median_ns"])
    return f" (in this run its medians are {geomean(gaps):.1f}x the interleaved ones, geometric mean)" if gaps else ""


def machine_line(rust):
    m = rust["machine"]
    go = ""
    try:
        go = subprocess.run(["go", "version"], capture_output=True, text=True, env={**os.environ, "GOTOOLCHAIN": "local"}).stdout.strip()
    except OSError:
        pass
    when = datetime.datetime.fromtimestamp(m["unix_time"], datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    return (f"**Machine:** {m['cpu']} ({m['simd']}), {m['cores']} cores, {m['os']}; {m['rustc']}; {go or 'go: not run'}; "
            f"{when}; suite `{rust['scale']}` ({rust['rounds']} interleaved rounds, ~{rust['sample_ms']:g} ms samples).")


def ratio(row, c, key="median_ns"):
    base = baseline_for(row, c)
    if base is None or base == c["name"]:
        return None
    b = next((x for x in row["contenders"] if x["name"] == base), None)
    return (c[key] / b[key], base) if b and b.get(key) else None


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


RUST_PEERS = ["serde_json", "sonic-rs", "simd-json", "go", "jetjson-portable"]
PY_PEERS = ["orjson", "msgspec", "ujson", "rapidjson", "simplejson", "json"]


def headline(rows, peers=RUST_PEERS):
    """Geometric mean of jetjson's speed-up over each peer, per family:
    of the medians' ratios, and (in brackets) of the minimums' ratios."""
    lines = ["| workload | " + " | ".join(f"vs {p}" for p in peers) + " |", "|---|" + "---:|" * len(peers)]
    for family, title, _ in FAMILIES:
        cells = []
        for p in peers:
            rs = []
            for row in rows:
                if row["family"] != family:
                    continue
                for c in row["contenders"]:
                    r = ratio(row, c)
                    if c["name"] == p and r:
                        rs.append(r[0])
            g = geomean(rs)
            gmin = geomean([r for row in rows if row["family"] == family for c in row["contenders"]
                            if c["name"] == p and (r := (ratio(row, c, "min_ns") or (None,))[0])])
            cells.append(f"**{g:.2f}x** ({gmin:.2f}x) [{len(rs)}]" if g and gmin else "-")
        lines.append(f"| {title.split(' (')[0]} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def table(rows, family, base="jetjson"):
    out = [f"| case | op | input | contender | median | spread (IQR) | min | MB/s | allocs/call | alloc bytes/call | peer/{base} |",
           "|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|"]
    notes = []
    for row in rows:
        if row["family"] != family:
            continue
        if row.get("note"):
            notes.append(f"- `{row['case']}/{row['op']}`: {row['note']}")
        for i, c in enumerate(row["contenders"]):
            r = ratio(row, c)
            rc = "-" if r is None else (f"{r[0]:.2f}x" + ("" if r[1] == base else f" (vs {r[1]})"))
            mbps = row["bytes"] / c["median_ns"] * 1e3 if c["median_ns"] else 0
            allocs = "-" if c.get("allocs") is None else str(c["allocs"])
            abytes = "-" if c.get("alloc_bytes") is None else fmt_size(c["alloc_bytes"])
            first = i == 0
            out.append(f"| {row['case'] if first else ''} | {row['op'] if first else ''} | {fmt_size(row['bytes']) if first else ''} | "
                       f"{c['name']} | {fmt_time(c['median_ns'])} | {spread(c)} | {fmt_time(c['min_ns'])} | {mbps:,.0f} | {allocs} | {abytes} | {rc} |")
    if notes:
        out.append("\nNotes:\n" + "\n".join(dict.fromkeys(notes)))
    return "\n".join(out)


def chart(rows, family, title, path, base="jetjson"):
    """Horizontal bars: jetjson's speed-up over each peer per case/op (log scale)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import matplotlib.ticker

    labels, series = [], {}
    for row in rows:
        if row["family"] != family:
            continue
        label = f"{row['case']} {row['op']}"
        for c in row["contenders"]:
            r = ratio(row, c)
            if r and not c["name"].startswith("jetjson"):
                series.setdefault(c["name"], {})[label] = r[0]
                if label not in labels:
                    labels.append(label)
    if not labels or not series:
        return False
    peers = list(series)
    h = 0.8 / len(peers)
    fig, ax = plt.subplots(figsize=(9, 1.2 + 0.22 * len(labels) * max(1, len(peers)) ** 0.7))
    colors = {"serde_json": "#4c72b0", "sonic-rs": "#dd8452", "simd-json": "#55a868", "go": "#c44e52",
              "orjson": "#4c72b0", "orjson-sorted": "#8fa8d8", "msgspec": "#dd8452", "msgspec-sorted": "#f0b890",
              "msgspec-typed": "#a0522d", "ujson": "#55a868", "rapidjson": "#8172b3", "simplejson": "#937860", "json": "#c44e52",
              "rfc8785": "#da8bc3", "canonicaljson": "#8c8c8c", "jcs": "#ccb974"}
    values = []
    for k, p in enumerate(peers):
        ys = [i + (k - (len(peers) - 1) / 2) * h for i in range(len(labels))]
        xs = [series[p].get(lbl, float("nan")) for lbl in labels]
        values += [x for x in xs if x == x]
        ax.barh(ys, xs, height=h, label=p, color=colors.get(p), left=0)
    ax.set_yticks(range(len(labels)))
    ax.set_yticklabels(labels, fontsize=7)
    ax.invert_yaxis()
    ax.axvline(1.0, color="black", linewidth=0.8)
    if values and max(values) / min(values) > 8:
        ax.set_xscale("log")
        ticks = [t for t in (0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100) if min(values) / 2 <= t <= max(values) * 2]
        ax.set_xticks(ticks)
        ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
    ax.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda x, _: f"{x:g}x"))
    ax.set_xlabel(f"peer time / {base} time  (>1: {base} faster)")
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=7, loc="lower right")
    ax.grid(axis="x", alpha=0.3, which="both")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


PY_FAMILY_NOTES = {
    "oci": "Dataclasses in Go struct field order, annotation maps as dicts in a client's insertion order (not sorted). "
           "jetjson-py writes the `go` profile (sorts map keys); `orjson-sorted` (OPT_SORT_KEYS) and `msgspec-sorted` "
           "(order=\"deterministic\") also write Go's bytes; the other peers write insertion order (other bytes, other digest: "
           "listed, see the notes). Parse: into dicts and lists.",
    "binding": "`bind`: loads, then the dataclass record (peers check the 16 KiB limit by length; `jetjson-py-typed` "
               "decodes straight into the dataclasses, `msgspec-typed` into a msgspec Struct). allocs/call: tracemalloc blocks still alive after one warm call (the result); "
               "alloc bytes/call: tracemalloc peak during it. tracemalloc sees Python objects, not a library's own malloc.",
    "sdk": "Dicts from the SDK inputs of bench/go/testdata; serialize, deserialize (also with every object's members "
           "reversed), round trip.",
    "envelope": "`serialize-raw`: the message embedded as pre-serialized bytes (`jetjson.Raw`, `orjson.Fragment`); "
                "`serialize-reparsed`: the message parsed and the whole envelope written (what libraries without raw embedding do); "
                "`deserialize-raw`: the envelope read into a record with the message kept as its bytes (`jetjson.Raw` member, "
                "`msgspec.Raw`), peers without raw members parse everything.",
    "strings": "One string per call: the same strings as the Rust suite, byte for byte (bench/python/rng_text.py ports its "
               "generator).",
    "corpus": "Parse / serialize / round trip into each library's dicts and lists; `canonical`: RFC 8785 from the parsed value, "
              "jetjson `dumps(profile=\"jcs\")` against rfc8785, canonicaljson, jcs (kept only with jetjson's bytes) and "
              "orjson OPT_SORT_KEYS (not a JCS implementation; listed for speed).",
}


def python_section(python, prows, results):
    versions = ", ".join(f"{k} {v}" for k, v in python.get("versions", {}).items())
    when = datetime.datetime.fromtimestamp(python.get("unix_time", 0), datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    md = ["## Python: jetjson-py against the Python libraries", "",
          f"**Run:** Python {python.get('python', '?')} ({python.get('platform', '?')}); {versions}; {when}; suite "
          f"`{python.get('scale', '?')}` ({python.get('rounds', '?')} interleaved rounds in a fresh random order, "
          f"~{python.get('sample_ms', 0):g} ms batches; fewer rounds for calls of tens of milliseconds).", "",
          "`bench/python/suite.py`, same inputs as above (bench/go/testdata, the corpus); Python objects in, Python objects "
          "out, so the times are not comparable with the Rust tables. *peer/jetjson-py*: the peer's median over jetjson-py's "
          "(above 1, jetjson-py is faster). Every contender's output was checked before timing.", "",
          "### Headline: jetjson-py's speed-up (geometric mean of peer time / jetjson-py time: **medians**, (minimums), [rows])", "",
          headline(prows, PY_PEERS), ""]
    for family, title, _ in FAMILIES:
        if not any(r["family"] == family for r in prows):
            continue
        png = f"chart-py-{family}.png"
        md += [f"### Python {title}", "", PY_FAMILY_NOTES.get(family, ""), ""]
        if chart(prows, family, f"Python {title}", os.path.join(results, png), base="jetjson-py"):
            md += [f"![python {family}]({png})", ""]
        md += [table(prows, family, base="jetjson-py"), ""]
    return md


def main():
    results = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "results")
    with open(os.path.join(results, "rust.json")) as f:
        rust = json.load(f)
    go = load_go(os.path.join(results, "go-bench.txt"))
    python = None
    if os.path.exists(os.path.join(results, "python.json")):
        with open(os.path.join(results, "python.json")) as f:
            python = json.load(f)
    rows = merge(rust, go)
    prows = python_rows(python)

    md = ["# jetjson workload benchmarks", "", machine_line(rust), ""]
    md.append("How to read: *median* is the median time per call over interleaved rounds in random order (every contender runs once per "
              "round, so machine noise hits all alike); *spread* is half the interquartile range of the rounds, relative to the "
              "median; *MB/s* is input bytes / median; *allocs/call* counts allocations (Rust: a counting global allocator over "
              "one warm call, reallocations included; Go: its runtime counters averaged over 16 calls, as `-benchmem` does); *peer/jetjson* is the contender's median over "
              "jetjson's (`jetjson` = compact profile or parser; Go is compared with `jetjson-go`): above 1, jetjson is faster; on "
              "`jetjson-go` rows it is the cost of the `go` profile over `compact`. "
              "On a shared, oversubscribed machine calls of several milliseconds are often preempted, which inflates their "
              "medians more than short calls'; *min* (the least disturbed round) is given for that reason. "
              "Every contender's output was checked before timing (same value back, same bytes or digest). Go (`go`, "
              "encoding/json) takes part in the same interleaved rounds through its compiled test binary (it times its own "
              "batches); the plain `go test -bench -benchmem` run is listed at the end as a cross-check. The interleaved Go time "
              "leaves out garbage collection that finishes after Go's batch (it runs during the other contenders' turns, "
              "which the random order spreads evenly), while `testing.B` includes it" + go_gap(rows, go) + ". The ratios "
              "against Go use the interleaved times, so they understate jetjson's lead rather than overstate it.")
    if prows:
        md.append("\nThe Python suite (`jetjson-py` against orjson, msgspec, ujson, rapidjson, simplejson, json and the JCS "
                  "packages) has its own section after the Rust one: [Python](#python-jetjson-py-against-the-python-libraries).")
    md += ["", "## Headline: jetjson's speed-up (geometric mean over the rows of peer time / jetjson time: **medians**, (minimums), [rows])", "",
           "`jetjson` and the Rust peers are built with `-C target-cpu=native` (as sonic-rs and simd-json ask); `jetjson-portable` is "
           "jetjson built with no target flags (its SIMD level chosen at run time), timed in a twin process in the same rounds: its "
           "column is portable time / native time.", "", headline(rows), ""]
    for family, title, blurb in FAMILIES:
        if not any(r["family"] == family for r in rows):
            continue
        png = f"chart-{family}.png"
        md += [f"## {title}", "", blurb, ""]
        if chart(rows, family, title, os.path.join(results, png)):
            md += [f"![{family}]({png})", ""]
        md += [table(rows, family), ""]
    if prows:
        md += python_section(python, prows, results)
    if go:
        md += ["## Go `testing.B` cross-check (separate process, not interleaved)", "",
               "`bench/go`, `go test -run '^$' -bench . -benchmem`; raw output in `go-bench.txt`.", "", go_cross_check(rows, go), ""]
    md += ["## Reproduce", "", "`make bench-quick` (this file with the quick suite) or `make bench` (full suite plus the criterion and "
           "ratio benches); results: `bench/results/rust.json`, `go-bench.txt`, optional `python.json`; `python3 bench/report.py` "
           "rewrites this file and the charts.", ""]
    with open(os.path.join(results, "latest.md"), "w") as f:
        f.write("\n".join(md))
    print(f"wrote {os.path.join(results, 'latest.md')} ({len(rows)} rows, {len(go)} Go benchmarks)")


if __name__ == "__main__":
    main()
