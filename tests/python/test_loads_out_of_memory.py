"""loads under injected allocation failures (_testcapi.set_nomemory): a
MemoryError, never a process abort, and never another error in its place.

Found while testing the flat-object quick path (b6b3175); both failures are
in the general path (bytearray input, a str without a cached UTF-8 form),
which the flat path falls back to. Each case runs in a child process: an
abort would end the test run.
"""

import subprocess
import sys
import textwrap

import pytest
from _nomemory import needs_set_nomemory


pytestmark = needs_set_nomemory


def _run(body):
    code = "import _testcapi, jetjson\n" + textwrap.dedent(body)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("window", [1, 2, 3, 5, 8])
def test_general_path_out_of_memory_is_a_memory_error_not_an_abort(window):
    # Builder::python_error formatted the fetched MemoryError with
    # `err.to_string()`, whose str() itself fails under the injected
    # failures: Rust's "a Display implementation returned an error
    # unexpectedly" panic, then an abort ("panic in a destructor during
    # cleanup").
    r = _run(
        f"""
        d = bytearray(b'{{"zz1":"new1","zz2":"new2","zz3":3}}')
        for start in range(6):
            _testcapi.set_nomemory(start, start + {window})
            try:
                jetjson.loads(d)
            except MemoryError:
                pass
            finally:
                _testcapi.remove_mem_hooks()
        print("survived", jetjson.loads(d) == {{"zz1": "new1", "zz2": "new2", "zz3": 3}})
        """
    )
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.strip().splitlines()[-1] == "survived True"


def test_str_whose_utf8_form_cannot_be_allocated_is_a_memory_error_not_a_lone_surrogate():
    # input::source took any failure of PyUnicode_AsUTF8AndSize for a lone
    # surrogate (Source::BadStr), so a MemoryError came back as
    # JSONDecodeError("lone surrogate in str input ...") at char 0.
    r = _run(
        """
        s = '{"\\u00e9":"\\u20ac","k":"v"}'
        _testcapi.set_nomemory(0, 1)
        try:
            jetjson.loads(s)
            got = "ok"
        except Exception as e:
            got = type(e).__name__
        finally:
            _testcapi.remove_mem_hooks()
        print(got)
        """
    )
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.strip().splitlines()[-1] in ("MemoryError", "ok")
