"""JSONTestSuite (test_parsing) through jetjson.loads: y_ accepted and equal
to json.loads, n_ rejected with JSONDecodeError (never a crash), i_ with the
outcome (and error message and position) the core crate pins."""

import json
import re

import pytest

import jetjson
from _loads_support import i_table, line_col, strictly_equal, suite_files

DUPLICATES = {"y_object_duplicated_key.json", "y_object_duplicated_key_and_value.json"}


def test_suite_is_complete():
    assert (len(suite_files("y_")), len(suite_files("n_")), len(suite_files("i_"))) == (95, 188, 35)


@pytest.mark.parametrize("name,data", suite_files("y_"), ids=lambda x: x if isinstance(x, str) else "")
def test_y_files_are_accepted_and_match_json(name, data):
    if name in DUPLICATES:
        with pytest.raises(jetjson.JSONDecodeError, match="duplicate object key"):
            jetjson.loads(data)
        assert strictly_equal(jetjson.loads(data, duplicate_keys="last"), json.loads(data))
        return
    assert strictly_equal(jetjson.loads(data), json.loads(data))
    # The same text as str gives the same value.
    assert strictly_equal(jetjson.loads(data.decode("utf-8")), json.loads(data))


@pytest.mark.parametrize("name,data", suite_files("n_"), ids=lambda x: x if isinstance(x, str) else "")
def test_n_files_are_rejected_with_a_position(name, data):
    with pytest.raises(jetjson.JSONDecodeError) as info:
        jetjson.loads(data)
    e = info.value
    assert isinstance(e, ValueError) and isinstance(e, json.JSONDecodeError)
    assert 0 <= e.pos <= len(data)
    assert (e.lineno, e.colno) == line_col(data, e.pos)
    assert str(e) == f"{e.msg}: line {e.lineno} column {e.colno} (char {e.pos})"


PINNED = re.compile(r"^line (\d+) column (\d+) \(byte (\d+)\): (.*)$")


@pytest.mark.parametrize("name,data", suite_files("i_"), ids=lambda x: x if isinstance(x, str) else "")
def test_i_files_follow_the_pinned_table(name, data):
    outcome, detail = i_table()[name]
    if outcome == "accept":
        got = jetjson.loads(data)
        # The table pins the core's compact output (big numbers keep their
        # text there); in Python the value is the one json.loads computes:
        # exact ints, floats rounded to the double range (inf, 0.0).
        assert strictly_equal(got, json.loads(data))
        return
    assert outcome == "reject"
    line, col, offset, msg = PINNED.match(detail).groups()
    with pytest.raises(jetjson.JSONDecodeError) as info:
        jetjson.loads(data)
    e = info.value
    assert (e.msg, e.lineno, e.colno, e.pos) == (msg, int(line), int(col), int(offset))


def test_every_i_file_has_a_pinned_row():
    assert sorted(i_table()) == [n for n, _ in suite_files("i_")]
