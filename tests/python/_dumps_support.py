"""Shared helpers for the dumps/Raw/canonicalize/digest tests: corpus paths
and the live Go and Node oracles (tools/oracle-go, tools/oracle-node).

The oracles speak a line protocol: one input line per value, one output
line back, the base64 of the exact bytes produced or "ERROR: ...".
"""

import base64
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
# The shared corpus sits beside the repository (../shared), as in CI.
CORPUS = Path(os.environ.get("JETJSON_CORPUS", REPO.parent / "shared" / "corpus"))

BENCH = {
    "twitter": CORPUS / "bench/nativejson-benchmark/twitter.json",
    "citm_catalog": CORPUS / "bench/nativejson-benchmark/citm_catalog.json",
    "canada": CORPUS / "bench/nativejson-benchmark/canada.json",
    "github_events": CORPUS / "bench/simdjson/github_events.json",
    "gsoc-2018": CORPUS / "bench/simdjson/gsoc-2018.json",
}


def go_oracle_path():
    path = os.environ.get("JETJSON_ORACLE_GO") or str(REPO / "target" / "oracle-go")
    return path if os.access(path, os.X_OK) else None


def _run_lines(cmd, lines):
    """Feeds `lines` (bytes without newlines) to a line oracle; returns one
    result per line: bytes, or an `OracleError` carrying the message."""
    for line in lines:
        assert b"\n" not in line, line
    data = b"\n".join(lines) + b"\n" if lines else b""
    out = subprocess.run(cmd, input=data, capture_output=True, check=True, timeout=300).stdout
    results = []
    for reply in out.split(b"\n")[: len(lines)]:
        if reply.startswith(b"ERROR: "):
            results.append(OracleError(reply[7:].decode()))
        else:
            results.append(base64.b64decode(reply))
    assert len(results) == len(lines)
    return results


class OracleError:
    def __init__(self, message):
        self.message = message

    def __repr__(self):
        return f"OracleError({self.message!r})"


def go(lines, mode="marshal", escape_html=True, indent=0):
    """Go's encoding/json output for each input line (see tools/oracle-go/README.md)."""
    path = go_oracle_path()
    if path is None:
        pytest.skip("Go oracle not built (make oracles, or set JETJSON_ORACLE_GO)")
    cmd = [path, "-mode", mode, f"-escape-html={'true' if escape_html else 'false'}"]
    if indent:
        cmd += ["-indent", str(indent)]
    return _run_lines(cmd, lines)


def node_jcs(lines, mode=None):
    """RFC 8785 bytes from Node (tools/oracle-node/jcs.js) for each line."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node not installed")
    cmd = [node, str(REPO / "tools" / "oracle-node" / "jcs.js")]
    if mode:
        cmd += ["--mode", mode]
    return _run_lines(cmd, lines)


def one_line(obj):
    """A JSON line any oracle can read back: ASCII only, so no byte of the
    text can be mistaken for a line break."""
    return json.dumps(obj, ensure_ascii=True, separators=(",", ":")).encode()


def presized_dict(items):
    """A dict holding `items` whose table is of CPython's general kind
    (entries that carry their hash), as `orjson.loads` makes its dicts of
    more than eight members: made by `_PyDict_NewPresized`, then filled.
    Checked to be of that kind (3.11 and 3.12 layout), so a test built on it
    cannot pass by reading an ordinary table."""
    import ctypes

    make = ctypes.pythonapi._PyDict_NewPresized
    make.restype = ctypes.py_object
    make.argtypes = [ctypes.c_ssize_t]
    d = make(9)
    # One by one: `update` from a dict may take over that dict's table.
    for k, v in dict(items).items():
        d[k] = v
    keys = ctypes.c_void_p.from_address(id(d) + 4 * ctypes.sizeof(ctypes.c_void_p)).value
    kind = ctypes.c_uint8.from_address(keys + ctypes.sizeof(ctypes.c_ssize_t) + 2).value
    assert kind == 0, "not a table of the general kind"
    return d


def presized_copy(obj):
    """`obj` with every dict in it remade by `presized_dict`."""
    if isinstance(obj, dict):
        return presized_dict((k, presized_copy(v)) for k, v in obj.items())
    if isinstance(obj, list):
        return [presized_copy(v) for v in obj]
    return obj
