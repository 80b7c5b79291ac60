"""The hostile-object fuzzer of fuzz/python/hostile.py, bounded, in the
test suite: random recipes of trees whose callbacks mutate the containers
being written (see that file for the properties checked). The long runs
use atheris (fuzz/python/atheris_dumps.py)."""

import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "fuzz" / "python"))
import hostile  # noqa: E402


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(min_size=1, max_size=200))
def test_dumps_survives_hostile_recipes(data):
    assert hostile.check(data) == 6


def test_known_recipes():
    # Recipes that once failed, or that reach the paths named.
    for data in [
        bytes([8, 5, 3, 0, 1, 5, 0, 0, 3] * 4),  # a dict with markers, chains
        bytes([9, 6, 5, 1, 0, 2, 5, 3, 0, 1]) * 3,  # lists whose size changes
        bytes(range(256)),
    ]:
        assert hostile.check(data) == 6
