"""The two doors of jetjson.Raw's constructor: `Raw(data)` of an exact bytes
with no keywords is made by the type's vectorcall (raw::quick_new, no
pyo3 constructor); every other call (str, bytearray, memoryview, a bytes
subclass, keywords, wrong arguments, and every text the quick door
refuses) goes through type.__call__ to pyo3's __new__. Both must accept
exactly the texts loads accepts and raise the errors loads raises."""

import json
import subprocess
import sys
import textwrap

import pytest

import jetjson
from _loads_support import suite_files
from _nomemory import needs_set_nomemory


class Bytes(bytes):
    """A bytes subclass: not an exact bytes, so the general door."""


def _outcome(call):
    """("ok", bytes kept) or ("error", message, position) of a call."""
    try:
        return ("ok", bytes(call()))
    except jetjson.JSONDecodeError as e:
        return ("error", e.msg, e.pos)


def _doors(data):
    """The outcome of each way of making a Raw of `data`."""
    return {
        "quick": _outcome(lambda: jetjson.Raw(data)),
        "keyword": _outcome(lambda: jetjson.Raw(data, duplicate_keys="error")),
        "subclass": _outcome(lambda: jetjson.Raw(Bytes(data))),
        "bytearray": _outcome(lambda: jetjson.Raw(bytearray(data))),
    }


SUITE = suite_files("y_") + suite_files("n_") + suite_files("i_")


@pytest.mark.parametrize("name,data", SUITE, ids=lambda x: x if isinstance(x, str) else "")
def test_every_door_accepts_what_loads_accepts(name, data):
    doors = _doors(data)
    try:
        jetjson.loads(data)
        expected = ("ok", data)
    except jetjson.JSONDecodeError as e:
        # Raw has no allow_bom: its message says so instead.
        msg = e.msg.replace("(enable allow_bom to skip it)", "(Raw text cannot start with one: remove it)")
        expected = ("error", msg, e.pos)
    # (The suite has no integer beyond CPython's digit limit, which loads
    # applies and Raw does not.)
    assert doors == dict.fromkeys(doors, expected), name


@pytest.mark.parametrize(
    "data",
    [
        b'{"a":1,"a":2}',
        b'[{"id":1,"x":1},{"id":2,"id":3}]',
        b'{"k":"v"}   ',
        b'  [1, 2.5, -0.0e1, true, false, null, "\\u00e9"]',
        b'[1,]',
        b'{"a" 1}',
        b'"\xff"',
        b"\xef\xbb\xbf[]",
        b"",
        b"1" * 5000,
    ],
)
def test_every_door_agrees_on_made_up_texts(data):
    doors = _doors(data)
    assert len(set(doors.values())) == 1, doors


def test_the_quick_door_keeps_the_object_and_its_references():
    data = bytes(b'{"payload": [1, 2, 3]}')
    before = sys.getrefcount(data)
    r = jetjson.Raw(data)
    assert bytes(r) is data
    assert sys.getrefcount(data) == before + 1
    del r
    assert sys.getrefcount(data) == before
    # A refused text leaves no reference behind either.
    bad = bytes(b'{"a": 1,}')
    before = sys.getrefcount(bad)
    for _ in range(3):
        with pytest.raises(jetjson.JSONDecodeError):
            jetjson.Raw(bad)
    assert sys.getrefcount(bad) == before


def test_wrong_calls_get_pythons_errors():
    with pytest.raises(TypeError, match="missing 1 required positional argument"):
        jetjson.Raw()
    with pytest.raises(TypeError, match="positional"):
        jetjson.Raw(b"1", b"2")
    with pytest.raises(TypeError, match="unexpected keyword argument 'bogus'"):
        jetjson.Raw(b"1", bogus=1)
    with pytest.raises(TypeError, match="not int"):
        jetjson.Raw(1)
    # Keyword given as the data.
    assert bytes(jetjson.Raw(data=b"[1]")) == b"[1]"
    # The duplicate-name policy goes with the keyword door.
    assert bytes(jetjson.Raw(b'{"a":1,"a":2}', duplicate_keys="last")) == b'{"a":1,"a":2}'


def test_a_new_or_init_assigned_to_the_class_is_honoured():
    # In a child process: the class is changed for the rest of its life.
    code = textwrap.dedent(
        """
        import jetjson
        Raw = jetjson.Raw
        calls = []
        def init(self, *args, **kwargs):
            calls.append(args)
        Raw.__init__ = init
        r = Raw(b"[1]")
        assert bytes(r) == b"[1]" and calls == [(b"[1]",)], calls
        Raw.__new__ = lambda cls, data: ("patched", data)
        assert Raw(b"[1]") == ("patched", b"[1]")
        print("ok")
        """
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr


@needs_set_nomemory
def test_out_of_memory_in_the_quick_door_is_a_memory_error():
    # The k-th allocation made to fail, for each k: one of them is the Raw
    # object itself. The call raises MemoryError (or succeeds when the
    # failed allocation was not its), never another error or a crash, and
    # the bytes reference the Raw would have held is released (at the next
    # call into pyo3, as the quick door's comment says). In a child
    # process: a crash would end the test run.
    code = textwrap.dedent(
        """
        import sys, _testcapi, jetjson
        data = bytes(b'{"payload": [1, 2, 3]}')
        jetjson.Raw(data)
        before = sys.getrefcount(data)
        seen = []
        for k in range(6):
            _testcapi.set_nomemory(k, k + 1)
            try:
                r = jetjson.Raw(data)
                got = "ok"
            except MemoryError:
                got = "MemoryError"
            _testcapi.remove_mem_hooks()
            seen.append(got)
            if got == "ok":
                assert bytes(r) is data
            r = None
            jetjson.Raw.unchecked(b"1")  # a pyo3 entry: deferred releases run
            assert sys.getrefcount(data) == before, (k, sys.getrefcount(data), before)
        print(seen)
        """
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "MemoryError" in out.stdout and "ok" in out.stdout, out.stdout
