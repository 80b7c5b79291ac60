"""The Python benchmark suite (bench/python/suite.py) runs every workload body
once with its output checks (--check-only: no timing). Peers that are not
installed (make test installs only requirements-dev.txt: orjson) are skipped
by the suite itself, so this checks jetjson-py's outputs in every row and the
installed peers' too."""

import hashlib
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BENCH = os.path.join(ROOT, "bench", "python")
sys.path.insert(0, BENCH)

import rng_text  # noqa: E402


def test_suite_check_only_runs_every_row():
    proc = subprocess.run([sys.executable, os.path.join(BENCH, "suite.py"), "--check-only", "--quick"],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-4000:]
    last = proc.stderr.strip().splitlines()[-1]
    rows = int(last.split()[0])
    # oci 9, binding 3, sdk 8, envelope 12, strings 3 (100 KB only); the
    # corpus adds 4 per document when ../shared/corpus is there.
    assert rows >= 35, proc.stderr[-4000:]


# sha256 of strings.rs `text(100_000, Q, S, seed)` for the three mixes,
# written by the Rust generator (crates/jetjson-bench/src/workloads/strings.rs).
RUST_100KB = [
    (0, 0, 500, "f3932dffc37d5d0a3fe000c841d4411daf426d381320a6019f31a2096c85ecd6"),
    (200, 100, 501, "582ba5ff2665b36565759851db0694816b3486f204e6858681a530639bd235b6"),
    (1000, 100, 502, "f97de9ef5104201adcafd8999239f2bbbe40e14dbe7b9b99d14326c95d71d0c8"),
]


@pytest.mark.parametrize("q,s,seed,want", RUST_100KB)
def test_string_generator_matches_the_rust_one(q, s, seed, want):
    ref = rng_text.text_reference(100_000, q, s, seed)
    assert hashlib.sha256(ref.encode()).hexdigest() == want
    pytest.importorskip("numpy")
    assert rng_text.text_fast(100_000, q, s, seed) == ref
