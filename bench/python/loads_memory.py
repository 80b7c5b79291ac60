"""Peak memory of one `loads` call per library and document, each in a
fresh subprocess (so earlier calls leave no freed-but-kept memory behind).

Three measures:
* peak RSS growth of a first call: ru_maxrss after the call minus the RSS
  just before it (the process's high-water mark, so it counts every
  allocator, including memory a library takes from malloc or mmap
  directly). A first call also faults in the library's code and static
  tables, a per-process cost that is the same for every document;
* peak RSS growth after a warm-up call on a tiny document, which has paid
  that per-process cost: what the document itself takes;
* tracemalloc peak: Python-allocator memory during the call (blind to
  memory a library takes outside Python's allocator).

    .venv/bin/python bench/python/loads_memory.py
"""

import json
import os
import subprocess
import sys

from corpus_files import CORPUS, FILES  # the script directory is on sys.path
LIBS = {
    "jetjson": "import jetjson; f = jetjson.loads",
    "orjson": "import orjson; f = orjson.loads",
    "msgspec": "import msgspec; f = msgspec.json.decode",
    "ujson": "import ujson; f = ujson.loads",
    "json": "import json; f = json.loads",
}

CHILD = r"""
import resource, sys, tracemalloc
{setup}
data = open(sys.argv[1], "rb").read()
mode = sys.argv[2]
def rss_kib():
    with open("/proc/self/statm") as s:
        return int(s.read().split()[1]) * (resource.getpagesize() // 1024)
if mode in ("rss", "warm"):
    if mode == "warm":
        f(b'{{"a": [1, 2.5, "x", null, true, {{"b": "\u00e9"}}]}}')
    before = rss_kib()
    obj = f(data)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(max(0, peak - before) * 1024)
else:
    tracemalloc.start()
    obj = f(data)
    print(tracemalloc.get_traced_memory()[1])
"""


def measure(lib, path, mode):
    code = CHILD.format(setup=LIBS[lib])
    out = subprocess.run([sys.executable, "-c", code, path, mode], capture_output=True, text=True)
    if out.returncode != 0:
        return None
    return int(out.stdout.strip())


def main():
    libs = [lib for lib in LIBS if subprocess.run([sys.executable, "-c", LIBS[lib]], capture_output=True).returncode == 0]
    print("Peak memory of one loads call, fresh process per cell (MiB): RSS growth, first call / RSS growth after a warm-up call / tracemalloc peak\n")
    print("| document | size | " + " | ".join(libs) + " |")
    print("|---|---:|" + "---:|" * len(libs))
    for rel in FILES:
        path = os.path.join(CORPUS, rel)
        cells = []
        for lib in libs:
            rss = min(filter(None, [measure(lib, path, "rss") for _ in range(3)]), default=None)
            warm = min(filter(None, [measure(lib, path, "warm") for _ in range(3)]), default=None)
            tm = measure(lib, path, "tracemalloc")
            cells.append("n/a" if rss is None or warm is None else f"{rss / 2**20:.2f} / {warm / 2**20:.2f} / {tm / 2**20:.1f}")
        print(f"| {os.path.basename(rel)} | {os.path.getsize(path) / 1024:.0f} KiB | " + " | ".join(cells) + " |")
    print("\ncommand: .venv/bin/python bench/python/loads_memory.py")


if __name__ == "__main__":
    main()
