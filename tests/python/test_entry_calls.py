"""loads, dumps and Decoder.decode give what they gave before their C entry
points stopped going through pyo3's trampoline: every call form of
_entry_calls.py has the outcome (value, or exception type and message)
pinned in entry_calls.json."""

import json
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import _entry_calls  # noqa: E402

PINNED = json.loads((HERE / "entry_calls.json").read_text())
CALLS = _entry_calls.calls()


def test_every_call_form_is_pinned():
    assert sorted(name for name, _ in CALLS) == sorted(PINNED)


@pytest.mark.parametrize("name,call", CALLS, ids=[name for name, _ in CALLS])
def test_call_gives_the_pinned_outcome(name, call):
    got = json.loads(json.dumps(_entry_calls.outcome(call)))
    assert got == PINNED[name]
    # Twice: the second call meets the caches and kept memory the first left.
    assert json.loads(json.dumps(_entry_calls.outcome(call))) == PINNED[name]
