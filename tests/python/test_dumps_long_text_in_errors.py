"""Error messages of dumps show at most the first 256 bytes of a text of
the object (a key on the error's path, a name written twice, an
`isoformat()` that is not a date) and its length: they held the whole
text, copied several times (a 300 MB key aborted the process when a copy
could not be made; see test_out_of_memory.py)."""

import datetime
import enum

import pytest

import jetjson

N = 1_000_000


class Odd:
    pass


@pytest.mark.parametrize("sort_keys", [False, True])
@pytest.mark.parametrize("key", ["k" * N, "\u00e9" * N, "a b" * N])
def test_a_long_key_on_an_error_path_is_shown_by_its_head(key, sort_keys):
    with pytest.raises(jetjson.JSONEncodeError) as e:
        jetjson.dumps({"a": 1, key: {"inner": [Odd()]}}, sort_keys=sort_keys)
    msg = str(e.value)
    assert len(msg) < 1000, len(msg)
    assert "...(%d bytes)" % len(key.encode()) in msg, msg
    assert msg.endswith("Type is not JSON serializable: Odd (pass default= to convert it)"), msg
    assert ".inner[0]" in msg, msg


def test_a_short_key_is_shown_whole():
    with pytest.raises(jetjson.JSONEncodeError) as e:
        jetjson.dumps({"k" * 256: [Odd()], "b c": {"d": Odd()}})
    assert str(e.value).startswith("$." + "k" * 256 + "[0]: "), str(e.value)


def test_a_long_key_in_the_note_of_a_python_error():
    def default(o):
        raise ValueError("no")

    with pytest.raises(ValueError) as e:
        jetjson.dumps({"k" * N: Odd()}, default=default)
    notes = getattr(e.value, "__notes__", [])
    assert notes and all(len(n) < 1000 for n in notes), [len(n) for n in notes]


def test_a_long_name_written_twice_is_shown_by_its_head():
    class E(enum.Enum):
        A = "n" * N

    for sort_keys in (False, True):
        with pytest.raises(jetjson.JSONEncodeError) as e:
            jetjson.dumps({E.A: 1, "n" * N: 2}, non_str_keys=True, sort_keys=sort_keys)
        msg = str(e.value)
        assert "same name" in msg and len(msg) < 1000 and "...(%d bytes)" % N in msg, msg[:300]


def test_a_long_isoformat_is_shown_by_its_head():
    class D(datetime.datetime):
        def isoformat(self, *args):
            return "x" * N

    with pytest.raises(jetjson.JSONEncodeError) as e:
        jetjson.dumps([D(2026, 1, 1)], profile="go")
    msg = str(e.value)
    assert "isoformat()" in msg and len(msg) < 1000 and "...(%d bytes)" % N in msg, msg[:300]
