"""Shared by the out-of-memory tests: whether this CPython has
`_testcapi.set_nomemory` (which makes allocations fail from a given one
on), and the pytest mark that skips a test without it."""

import pytest


def has_set_nomemory():
    try:
        import _testcapi

        return hasattr(_testcapi, "set_nomemory")
    except ImportError:
        return False


needs_set_nomemory = pytest.mark.skipif(not has_set_nomemory(), reason="needs _testcapi.set_nomemory")
