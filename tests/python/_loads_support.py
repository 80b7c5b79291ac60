"""Shared helpers of the loads tests: corpus locations and readers, the
pinned JSONTestSuite table of the core crate, and a strict equality that
also compares types (1 == 1.0 == True in Python, but not here)."""

import gzip
import math
import os
import shutil
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHARED = os.path.normpath(os.path.join(ROOT, "..", "..", "shared"))
if not os.path.isdir(SHARED):
    SHARED = os.path.normpath(os.path.join(ROOT, "..", "shared"))
CORPUS = os.path.join(SHARED, "corpus")
PARSING = os.path.join(CORPUS, "jsontestsuite", "test_parsing")
I_TABLE = os.path.join(ROOT, "crates", "jetjson", "tests", "data", "jsontestsuite-i-outcomes.tsv")


def read(path):
    with open(path, "rb") as f:
        return f.read()


def suite_files(prefix):
    """Sorted (name, bytes) of the JSONTestSuite parsing files with `prefix`."""
    names = sorted(n for n in os.listdir(PARSING) if n.startswith(prefix) and n.endswith(".json"))
    return [(n, read(os.path.join(PARSING, n))) for n in names]


def i_table():
    """{filename: (outcome, detail)} as pinned by crates/jetjson/tests/conformance.rs."""
    rows = {}
    with open(I_TABLE, encoding="utf-8") as f:
        next(f)  # header
        for line in f:
            name, outcome, detail = line.rstrip("\n").split("\t", 2)
            rows[name] = (outcome, detail)
    return rows


def corpus_documents():
    """(label, bytes) of every whole JSON document in bench/, go/ and oci/.

    NDJSON files give one document per line; .gz and .zst files are
    decompressed (.zst needs the zstd command; missing tools skip files)."""
    docs = []
    for sub in ("bench", "go", "oci"):
        base = os.path.join(CORPUS, sub)
        for dirpath, _, files in os.walk(base):
            for name in sorted(files):
                path = os.path.join(dirpath, name)
                label = os.path.relpath(path, CORPUS)
                if name in ("LICENSE", "CATALOG.tsv") or name.endswith((".md", ".txt")):
                    continue
                if name.endswith(".gz"):
                    docs.append((label, gzip.decompress(read(path))))
                elif name.endswith(".zst"):
                    if shutil.which("zstd") is None:
                        continue
                    out = subprocess.run(["zstd", "-dc", path], check=True, capture_output=True).stdout
                    docs.append((label, out))
                elif name.endswith(".ndjson"):
                    for k, line in enumerate(read(path).splitlines()):
                        if line.strip():
                            docs.append((f"{label}:{k + 1}", line))
                else:
                    docs.append((label, read(path)))
    return docs


def strictly_equal(a, b):
    """Equal values of identical types, floats compared bit for bit (so
    -0.0 != 0.0, nan == nan), dict keys in the same order. Iterative, so
    deep documents do not hit the recursion limit."""
    todo = [(a, b)]
    while todo:
        x, y = todo.pop()
        if type(x) is not type(y):
            return False
        if isinstance(x, float):
            if not ((math.isnan(x) and math.isnan(y)) or (x == y and math.copysign(1, x) == math.copysign(1, y))):
                return False
        elif isinstance(x, list):
            if len(x) != len(y):
                return False
            todo.extend(zip(x, y))
        elif isinstance(x, dict):
            if list(x) != list(y):
                return False
            todo.extend((x[k], y[k]) for k in x)
        elif x != y:
            return False
    return True


def line_col(text, pos):
    """1-based line and column of offset `pos` in `text` (str or bytes), as json.JSONDecodeError counts them."""
    nl = "\n" if isinstance(text, str) else b"\n"
    line = text.count(nl, 0, pos) + 1
    return line, pos - (text.rfind(nl, 0, pos) + 1) + 1


def outcome(f, data):
    """The value of `f(data)`, or the error's type, message and place:
    what the quick paths' tests compare with the general path's."""
    try:
        return "ok", f(data)
    except ValueError as e:
        return "error", (type(e), getattr(e, "msg", str(e)), getattr(e, "pos", None), getattr(e, "lineno", None), getattr(e, "colno", None))


def same(a, b):
    """Two `outcome`s agree: equal values of the same types, or equal errors."""
    if a[0] != b[0]:
        return False
    return strictly_equal(a[1], b[1]) if a[0] == "ok" else a[1] == b[1]
