"""Peak memory of one large `dumps`, in a fresh process: the resident peak
(ru_maxrss) it adds, against the output's size (1.0: the result alone; a
copy of the result on the way makes it 2.0). The call is the process's
first `dumps`, as in the outside tester's cases (tester45, F3).

    .venv/bin/python bench/python/dumps_peak.py jetjson str      # 'a' * 300_000_000
    .venv/bin/python bench/python/dumps_peak.py orjson list      # ['a' * 1000] * 300_000

Memory, not time: no lock needed, but give it ~1 GB.
"""

import importlib
import resource
import sys


def main():
    module, shape = sys.argv[1], sys.argv[2]
    doc = "a" * 300_000_000 if shape == "str" else ["a" * 1000] * 300_000
    dumps = importlib.import_module(module).dumps
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    out = dumps(doc)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"{module} {shape}: output {len(out)} B, peak before {before >> 10} MB, after {peak >> 10} MB, "
          f"added / output {(peak - before) * 1024 / len(out):.2f}")


if __name__ == "__main__":
    main()
