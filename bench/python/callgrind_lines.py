"""Code footprint per call of small_quick / envelope_quick statements: how
many distinct 64-byte lines of machine code each shared object (or, with
--functions, each function of one object) executes per call, with the
instructions and the simulated L1 instruction-cache misses per call.

    .venv/bin/python bench/python/callgrind_lines.py "jd({**head10, 'data': raw10})" "od({**head10, 'data': frag10})"
    .venv/bin/python bench/python/callgrind_lines.py --functions _jetjson "jd(index)"

Runs callgrind_small.py under `valgrind --tool=callgrind --dump-instr=yes
--cache-sim=yes` with N and 3N calls and keeps the difference, so start-up
cancels out; a code line counts when it ran at least once per call. Why:
jetjson's dumps can run fewer instructions than orjson's and still take
longer, when its hot path is spread over more code (bench/results/
rawenv-2026-11-28.md); the simulated misses follow the host's L1i size
unless --I1 gives one (`--I1 32768,8,64`: a 32 KiB, 8-way L1i; a host with
64 KiB shows almost no misses).
Needs valgrind; no timing lock needed.
"""

import argparse
import collections
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
NAMED = re.compile(r"(c?ob|c?fn)=\((\d+)\)(?: (.*))?")


def parse(path, only):
    """{(object, function, address): (instructions, I1 misses)} of one callgrind output."""
    names = {"ob": {}, "fn": {}}
    ob = fn = None
    addr = 0
    skip = False
    cost = collections.defaultdict(lambda: [0, 0])
    with open(path) as f:
        for line in f:
            m = NAMED.match(line)
            if m:
                tag, idx, name = m.groups()
                table = names[tag[-2:]]
                if name:
                    table[idx] = name
                if tag == "ob":
                    ob = table[idx]
                elif tag == "fn":
                    fn = table[idx]
                continue
            if line.startswith("calls="):
                skip = True  # the next cost line is the call's inclusive cost
                continue
            if not line or line[0] not in "0123456789+-*":
                continue
            parts = line.split()
            a = parts[0]
            if a.startswith("0x"):
                addr = int(a, 16)
            elif a.startswith("+"):
                addr += int(a[1:])
            elif a.startswith("-"):
                addr -= int(a[1:])
            if skip:
                skip = False
                continue
            if only and only not in (ob or ""):
                continue
            # "positions: instr line": the costs follow the address and the line.
            vals = [int(x) for x in parts[2:]]
            if vals:
                c = cost[(ob, fn, addr)]
                c[0] += vals[0]
                if len(vals) > 3:
                    c[1] += vals[3]
    return cost


def run(stmt, n, out, i1=None):
    env = dict(os.environ, PYTHONHASHSEED=os.environ.get("PYTHONHASHSEED", "0"))
    cache = [f"--I1={i1}"] if i1 else []
    subprocess.run(["valgrind", "--tool=callgrind", "--dump-instr=yes", "--cache-sim=yes", *cache, f"--callgrind-out-file={out}",
                    sys.executable, str(HERE / "callgrind_small.py"), stmt, str(n)],
                   env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("stmts", nargs="+")
    ap.add_argument("-n", type=int, default=1000)
    ap.add_argument("--I1", dest="i1", metavar="SIZE,ASSOC,LINE", default=None,
                    help="simulated L1i (valgrind's --I1), e.g. 32768,8,64; default: the host's")
    ap.add_argument("--functions", metavar="OBJECT", default=None, help="per function of the object whose path contains this")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for stmt in a.stmts:
            lo, hi = os.path.join(tmp, "lo"), os.path.join(tmp, "hi")
            run(stmt, a.n, lo, a.i1)
            run(stmt, 3 * a.n, hi, a.i1)
            c1, c3 = parse(lo, a.functions), parse(hi, a.functions)
            calls = 2 * a.n
            rows = collections.defaultdict(lambda: [0.0, 0.0, set()])
            for key, (ir, miss) in c3.items():
                ir1, miss1 = c1.get(key, (0, 0))
                group = key[1] if a.functions else key[0]
                r = rows[group]
                r[0] += (ir - ir1) / calls
                r[1] += (miss - miss1) / calls
                if (ir - ir1) / calls >= 0.9:
                    r[2].add(key[2] >> 6)
            print(f"## {stmt}\n| {'function' if a.functions else 'object'} | code lines | instructions | I1 misses |\n|---|---:|---:|---:|")
            total = [0, 0.0, 0.0]
            for group, (ir, miss, lines) in sorted(rows.items(), key=lambda kv: -len(kv[1][2])):
                if ir < 5:
                    continue
                total = [total[0] + len(lines), total[1] + ir, total[2] + miss]
                label = group if a.functions else (group or "?").rsplit("/", 1)[-1]
                print(f"| {label[:100]} | {len(lines)} | {ir:.0f} | {miss:.1f} |")
            print(f"| all | {total[0]} | {total[1]:.0f} | {total[2]:.1f} |\n")


if __name__ == "__main__":
    main()
