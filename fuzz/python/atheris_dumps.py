"""Coverage-guided fuzzing of jetjson.dumps against hostile objects, with
atheris (pip install atheris): the recipes and properties of hostile.py.

    PYTHONMALLOC=debug .venv/bin/python fuzz/python/atheris_dumps.py -max_total_time=600

It prints libFuzzer's statistics (executions, coverage of the harness's
Python code) and, every 500 inputs, the dumps calls made and the CPU time
used so far (libFuzzer ends the process without running exit handlers).
A failing input is written to crash-<hash> in the current directory;
replay it with `python fuzz/python/atheris_dumps.py crash-<hash>`.
"""

import os
import sys
import time

import atheris

sys.path.insert(0, os.path.dirname(__file__))
with atheris.instrument_imports():
    import hostile

calls = 0
inputs = 0
start = time.process_time()


def one(data: bytes) -> None:
    global calls, inputs
    calls += hostile.check(data)
    inputs += 1
    if inputs % 500 == 0:
        print(f"inputs: {inputs}, dumps calls: {calls}, CPU time: {time.process_time() - start:.1f} s", file=sys.stderr, flush=True)


if __name__ == "__main__":
    atheris.Setup(sys.argv, one)
    atheris.Fuzz()
