"""The command line tool shipped with the Python package: `python -m jetjson`
and the `jetjson` script pip installs run the Rust CLI (the jetjson_cli
crate), so they behave as the `jetjson` binary does: same output, same
errors, same exit codes."""

import hashlib
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import jetjson
from _dumps_support import CORPUS, REPO

MODULE = [sys.executable, "-m", "jetjson"]
# pip (maturin develop) puts the script beside the interpreter.
SCRIPT = Path(sys.executable).with_name("jetjson")


def run(argv, stdin=b"", **kw):
    return subprocess.run(argv, input=stdin, capture_output=True, timeout=120, **kw)


def binary():
    """The `jetjson` binary of this checkout, when one is built."""
    for profile in ("debug", "release"):
        path = REPO / "target" / profile / "jetjson"
        if path.exists():
            return path
    return None


def test_the_script_is_installed():
    assert SCRIPT.exists(), f"{SCRIPT}: pyproject.toml's [project.scripts] should install it"
    out = run([str(SCRIPT), "--version"])
    assert (out.returncode, out.stdout) == (0, f"jetjson {jetjson.__version__}\n".encode())


@pytest.mark.parametrize("tool", ["module", "script"])
def test_commands_and_exit_codes(tool, tmp_path):
    cmd = MODULE if tool == "module" else [str(SCRIPT)]
    good = tmp_path / "good.json"
    good.write_bytes(b'{"b": "<x>", "a": [1, 2.50]}')
    bad = tmp_path / "bad.json"
    bad.write_bytes(b'{"a": [1,\n  2,]}')

    out = run(cmd + ["check", str(good)])
    assert (out.returncode, out.stdout, out.stderr) == (0, b"", b"")
    out = run(cmd + ["check", str(good), str(bad)])
    assert out.returncode == 1
    assert out.stderr.decode() == f"{bad}:2:5: expected a value after ','\n    2,]}}\n      ^\n"

    out = run(cmd + ["canon", "--profile", "go", str(good)])
    assert (out.returncode, out.stdout) == (0, b'{"a":[1,2.5],"b":"\\u003cx\\u003e"}')
    out = run(cmd + ["canon", "--profile", "jcs", "-"], stdin=good.read_bytes())
    assert out.stdout == jetjson.canonicalize(good.read_bytes(), "jcs")
    out = run(cmd + ["digest", "--profile", "go", str(good)])
    assert out.stdout.decode() == jetjson.digest(jetjson.loads(good.read_bytes()), "go") + "\n"
    out = run(cmd + ["fmt", str(good)])
    assert out.stdout == b'{\n  "b": "<x>",\n  "a": [\n    1,\n    2.5\n  ]\n}\n'

    # Usage errors: exit 2, the message on stderr.
    out = run(cmd + ["canon", str(good)])
    assert out.returncode == 2 and out.stderr.startswith(b"jetjson: canon needs a profile"), out.stderr
    out = run(cmd + ["frobnicate"])
    assert out.returncode == 2 and b"unrecognized subcommand" in out.stderr


def test_registry_digests_with_the_module():
    rows = [line.split("\t") for line in (CORPUS / "oci" / "CATALOG.tsv").read_text().splitlines()[1:]]
    files = [CORPUS / "oci" / r[0] for r in rows[:5]]
    for f, row in zip(files, rows):
        out = run(MODULE + ["digest", "--raw", str(f)])
        assert out.stdout.decode() == row[2] + "\n"
        assert out.stdout.decode().strip() == "sha256:" + hashlib.sha256(f.read_bytes()).hexdigest()


def test_same_bytes_as_the_binary(tmp_path):
    """One implementation: the module and the binary of this checkout give
    identical stdout, stderr and status on every command, good and bad."""
    exe = binary()
    if exe is None:
        pytest.skip("no target/{debug,release}/jetjson here (make test builds it in test-rust)")
    doc = tmp_path / "doc.json"
    doc.write_bytes(b'{"z":[1e400]}')
    lines = tmp_path / "lines.ndjson"
    lines.write_bytes(b'{"b":1,"a":"\\u2028"}\n[1,2]\n\n{"x":\n')
    manifest = sorted((CORPUS / "oci").rglob("*.json"))[0]
    cases = [
        ["--help"],
        ["canon", "--help"],
        ["canon", "--profile", "go", str(manifest)],
        ["canon", "--profile", "jcs", "--lines", str(lines)],
        ["check", "--lines", str(lines)],
        ["check", str(doc)],
        ["digest", "--profile", "compact", "--algorithm", "sha512", str(manifest)],
        ["digest", "--raw", "--indent", "2", str(manifest)],
        ["fmt", "--indent", "4", str(manifest)],
        ["canon", "--profile", "compact", "--no-escape-html", str(manifest)],
        ["check", "--max-depth", "x"],
        ["check", str(tmp_path / "missing.json")],
    ]
    for args in cases:
        ours = run(MODULE + args)
        theirs = run([str(exe)] + args)
        # clap names the program in usage text: "python -m jetjson" here.
        assert ours.stdout.replace(b"python -m jetjson", b"jetjson") == theirs.stdout, args
        assert ours.stderr.replace(b"python -m jetjson", b"jetjson") == theirs.stderr, args
        assert ours.returncode == theirs.returncode, args


def test_a_closed_pipe_ends_quietly():
    # `jetjson canon --lines big | head -1`: exit 0, nothing on stderr.
    big = b'{"a":[1,2,3],"b":"x"}\n' * 200_000
    proc = subprocess.Popen(MODULE + ["canon", "--profile", "go", "--lines"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    def feed():
        try:
            proc.stdin.write(big)
            proc.stdin.close()
        except BrokenPipeError:
            pass

    feeder = threading.Thread(target=feed)
    feeder.start()
    first = proc.stdout.readline()
    proc.stdout.close()
    try:
        assert proc.wait(timeout=60) == 0
    finally:
        proc.kill()
        feeder.join()
    assert first == b'{"a":[1,2,3],"b":"x"}\n'
    assert proc.stderr.read() == b""


def test_ctrl_c_ends_the_tool():
    # check reading a stdin that never ends: SIGINT stops it as it stops
    # the binary (Python's own handler would only set a flag).
    proc = subprocess.Popen(MODULE + ["check"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(1.0)  # the interpreter starts and the tool blocks on stdin
    proc.send_signal(signal.SIGINT)
    try:
        code = proc.wait(timeout=10)
    finally:
        proc.kill()
        proc.stdin.close()
    assert code == -signal.SIGINT


def test_output_written_by_python_first_comes_first(tmp_path):
    # main() flushes Python's buffered stdout before the tool writes to fd 1.
    script = "import sys, jetjson.__main__ as m; print('before', end=''); sys.argv = ['jetjson', 'canon', '--profile', 'go', '-']; m.main()"
    out = run([sys.executable, "-c", script], stdin=b'{"b":1,"a":2}', env={**os.environ, "PYTHONUNBUFFERED": ""})
    assert (out.returncode, out.stdout) == (0, b'before{"a":2,"b":1}')
