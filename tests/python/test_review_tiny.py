"""An outside review of the tiny-document paths (wip-tinycall): the scalar
walk inlined into the quick call (loads/one.rs, `parse::parse_scalar`),
the last block's short scans, and the builder stacks pooled as one box.

Every quick read is compared with the general path reading the same bytes
(a `bytearray`, never quick, with a keyword, so pyo3's argument parsing and
the full builder) and with json.loads; the pool and the singletons'
reference counts are checked across many calls, out of memory at every
allocation, and with `loads` re-entered from Python code that the builder
runs (a patched `decimal.Decimal`, `__del__` of values released on an
error) and from threads."""

import gc
import json
import math
import os
import subprocess
import sys
import textwrap
import threading
import typing

import pytest

import jetjson
from _loads_support import outcome, same, strictly_equal

loads = jetjson.loads
ANY = jetjson.Decoder(typing.Any)



def general(data):
    """The same bytes read with no quick path and no scalar walk."""
    return loads(bytearray(data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data), max_depth=512)



def numbers():
    """Number literals of every digit count to 40, with fractions and
    exponents of every form, signed, and their malformed neighbours."""
    out = []
    for n in range(1, 41):
        digits = "1234567890" * 4
        d = digits[:n]
        nines = "9" * n
        out += [d, "-" + d, nines, "-" + nines, "0." + d, d[0] + "." + d[1:] if n > 1 else d + ".0"]
        out += [d + "e" + str(n), d + "E-" + str(n), "-" + d + "e+" + str(n * 7), "0.0" + d + "e-3" + str(n)]
        out += ["0" + d, d + ".", d + "e", d + "e+", "-." + d, "+" + d, d + ".e1"]
    for exp in ("308", "309", "400", "-324", "-325", "-400", "99999999999999999999", "-99999999999999999999"):
        out += ["1e" + exp, "-1e" + exp, "2.2250738585072014e" + exp, "0e" + exp]
    out += ["-0", "-0.0", "0e0", "-0e-0", "0.000", "1.7976931348623157e308", "1.7976931348623159e308", "4.9e-324", "2.4e-324"]
    out += ["9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809", "18446744073709551615", "18446744073709551616"]
    out += ["1" + "0" * 200, "-" + "7" * 300, "1" + "0" * 400 + ".5", "0." + "0" * 400 + "1"]
    return out


def strings():
    bodies = ["", "a", "\\u0000", "\\u001f", "\\ud83d\\ude00", "\\ud83d", "\\ude00", "\\ud83dx", "\\uDBFF\\uDFFF", "\\/", "\\b\\f\\n\\r\\t\\\"\\\\", "\\U0041", "\\u00", "\\u12g4", "\\", "\\x", "\x7f", "\x01", "\t", "\n", "\x1f", " "]
    bodies += ["é", "日本語", "😀", "a" * 15 + "é", "a" * 16 + "é", "a" * 17 + "\\n", "é" * 20]
    return ['"' + b + '"' for b in bodies] + ['"' + b for b in ("", "a", "abc\\", "abc\\u00", "é")]


RAW_BAD = [b'"\xff"', b'"\xc3"', b'"\xc3("', b'"\xed\xa0\x80"', b'"\xf4\x90\x80\x80"', b'"\xe2\x82"', b'"a\x80"', b'"' + b"a" * 20 + b'\xe9"', b"\xff", b"1\xff", b'"\xc3\xa9" \xff']

LITERALS = ["true", "false", "null", "t", "tr", "tru", "truee", "f", "fals", "falsey", "n", "nul", "nulll", "True", "NULL", "nan", "NaN", "Infinity", "-Infinity"]
TRAILERS = ["", " ", "\t\r\n", " x", ",", "]", "}", " 1", '""', "/", "\x00", " " * 70]
LEADERS = ["", " ", "\n\t\r", " " * 63, " " * 64]


def documents():
    for value in numbers() + strings() + LITERALS + ["", "x", "[", "{", "]", "}", ","]:
        for before in LEADERS:
            for after in TRAILERS:
                yield before + value + after


@pytest.mark.parametrize("part", range(4))
def test_every_scalar_document_reads_as_the_general_path_and_json_read_it(part):
    texts = list(documents())
    texts = texts[part::4]
    checked = 0
    for text in texts:
        raw = text.encode()
        want = outcome(general, raw)
        if want[0] == "error":
            assert "disagree" not in want[1][1], repr(text)
        for data in (raw, memoryview(raw)):
            assert same(outcome(loads, data), want), (repr(data), outcome(loads, data), want)
        # A str's positions count characters: its general read is a call
        # with a keyword.
        want_str = outcome(lambda t: loads(t, max_depth=512), text)
        assert want_str[0] == want[0], repr(text)
        assert same(outcome(loads, text), want_str), (repr(text), outcome(loads, text), want_str)
        got = outcome(ANY.decode, raw)
        assert got[0] == want[0], repr(text)
        if want[0] == "ok":
            assert strictly_equal(got[1], want[1]), repr(text)
        try:
            parsed = json.loads(text)
        except ValueError:
            assert want[0] == "error", repr(text)
        else:
            # json takes NaN, Infinity, lone surrogates and out-of-range
            # literals (as inf); jetjson refuses each.
            if want[0] == "error":
                lone = isinstance(parsed, str) and any(0xD800 <= ord(c) <= 0xDFFF for c in parsed)
                assert lone or (isinstance(parsed, float) and not math.isfinite(parsed)), repr(text)
            else:
                # -0 is the int 0 in both.
                assert strictly_equal(want[1], parsed), repr(text)
        checked += 1
    assert checked > 2000


@pytest.mark.parametrize("raw", RAW_BAD)
def test_invalid_utf8_in_tiny_documents(raw):
    for before in (b"", b" ", b" " * 64):
        for after in (b"", b" ", b" " * 30):
            data = before + raw + after
            want = outcome(general, data)
            assert want[0] == "error"
            assert "disagree" not in want[1][1]
            assert outcome(loads, data) == want
            assert outcome(lambda d: loads(d, duplicate_keys="last"), data) == want
            with pytest.raises(ValueError):
                ANY.decode(data)


def test_str_inputs_with_surrogates_and_non_ascii():
    # A str whose UTF-8 form CPython has at hand is read in place; one with
    # a lone surrogate has none (the general path reports it).
    for text in ('"é"', ' "日本" ', '"😀"', "1", '"é" x', ' "😀"1', '"\ud800"', "\ud800", '"a\udfff"', ' "x" \ud800'):
        want = outcome(lambda t: loads(t, max_depth=512), text)
        assert same(outcome(loads, text), want), repr(text)
        assert same(outcome(ANY.decode, text), want) or want[0] == "error", repr(text)


@pytest.mark.parametrize("value", ["1", "-12", "true", "null", '"abc"', '"é"', "1.5", "1e400", '"\\u00e9"'])
def test_decoder_max_size_at_under_and_over_with_bom_and_whitespace(value):
    raw = value.encode()
    for data in (raw, b" " + raw + b"\t", b"\xef\xbb\xbf" + raw, b"\xef\xbb\xbf \n" + raw + b"\r\n"):
        n = len(data)
        for limit in (0, n - 1, n, n + 1, 512, 513):
            for bom in (False, True):
                dec = jetjson.Decoder(typing.Any, max_size=limit, allow_bom=bom)
                want = outcome(lambda d: loads(bytearray(d), max_size=limit, allow_bom=bom), data)
                got = outcome(dec.decode, data)
                assert got[0] == want[0], (data, limit, bom, got, want)
                if want[0] == "ok":
                    assert strictly_equal(got[1], want[1])
                assert same(outcome(lambda d: loads(d, max_size=limit, allow_bom=bom), data), want), (data, limit, bom)
                for depth in (0, 1, 512):
                    for dup in ("error", "first", "last"):
                        kw = dict(max_size=limit, allow_bom=bom, max_depth=depth, duplicate_keys=dup)
                        w = outcome(lambda d: loads(bytearray(d), **kw), data)
                        assert same(w, want), (data, kw)
                        d2 = jetjson.Decoder(typing.Any, **kw)
                        assert outcome(d2.decode, data)[0] == want[0], (data, kw)


def test_decimal_scalars_as_the_general_path():
    for text in ["1.5", "-0.0", "1e5", "1", "-0", "12345678901234567890.5", " 2.50 ", "1e400", "1e-400", "1.", '"1.5"']:
        want = outcome(lambda d: loads(bytearray(d.encode()), decimal=True), text)
        assert same(outcome(lambda d: loads(d, decimal=True), text), want), text
        assert same(outcome(lambda d: loads(d.encode(), decimal=True), text), want), text


def _has_testcapi():
    try:
        import _testcapi

        return hasattr(_testcapi, "set_nomemory")
    except ImportError:
        return False


@pytest.mark.skipif(not _has_testcapi(), reason="needs _testcapi.set_nomemory")
def test_out_of_memory_at_every_allocation_of_a_tiny_loads():
    # Failing each allocation in turn: every call either gives its usual
    # result (error included) or raises MemoryError, and leaves no
    # exception set (the scalar walk's pending exception is cleared).
    import _testcapi

    docs = [b'"abc"', b'"\\u00e9x"', '"é"'.encode(), b"123456789012345678901234567890", b"1.5", b"null", b"true", b"[1,2]", b'{"a":1}', b' "x', b"1 2", '"é"', b"-0", b'"\\ud800"', b"1e400", b"nul"]
    calls = (loads, ANY.decode, lambda d: loads(d, max_depth=9), lambda d: loads(d, decimal=True))
    for f in calls:
        for d in docs:
            want = outcome(f, d)
            for start in range(40):
                _testcapi.set_nomemory(start, start + 1)
                try:
                    got = ("ok", f(d))
                except BaseException as e:  # noqa: BLE001 - anything, compared below
                    _testcapi.remove_mem_hooks()
                    got = ("error", type(e))
                finally:
                    _testcapi.remove_mem_hooks()
                assert sys.exc_info()[0] is None
                if got != ("error", MemoryError):
                    if want[0] == "ok":
                        assert got[0] == "ok" and strictly_equal(got[1], want[1]), (d, start, got)
                    else:
                        assert got == ("error", want[1][0]), (d, start, got, want)
            assert same(outcome(f, d), want)


KINDS = [b"null", b"true", b"false", b'""', b' "" ', b"5", b"-1", b"256", b"257", b"1.5", b'"a"', b'"\\n"', b'"\xc3\xa9"', b'"' + b"x" * 40 + b'"', b"nul", b"true 1", b'"abc', b"1e400", b"-", b"", b"[]", b"{}", b'{"a": null}', b"[true, false, null]", b'{"a":1,"a":2}', b"[1,"]


def _run(data, n):
    for _ in range(n):
        try:
            loads(data)
        except jetjson.JSONDecodeError:
            pass


def test_singletons_and_small_ints_keep_their_reference_counts():
    # (The empty str is a singleton that PyUnicode_New(0, ...) returns.)
    for obj in (None, True, False, 5, -1, 256, ""):
        for data in KINDS:
            _run(data, 200)
            gc.collect()
            gc.disable()
            try:
                before = sys.getrefcount(obj)
                _run(data, 20_000)
                after = sys.getrefcount(obj)
            finally:
                gc.enable()
            assert after == before, (obj, data, before, after)


def test_no_memory_kept_across_many_tiny_calls():
    for data in KINDS:
        for f in (loads, ANY.decode, lambda d: loads(d, duplicate_keys="last")):
            def go(n):
                for _ in range(n):
                    try:
                        f(data)
                    except ValueError:
                        pass

            go(500)
            gc.collect()
            before = sys.getallocatedblocks()
            go(100_000 if data in (b"null", b"1.5", b"nul", b"[]") else 10_000)
            gc.collect()
            after = sys.getallocatedblocks()
            assert after - before < 50, (data, before, after)


REENTER = textwrap.dedent(
    r"""
    import decimal, gc, sys, jetjson

    calls = [0]
    TINY = [b"1", b"null", b' "x" ', b"nul", b"1.5", b'"\\u00e9"']
    BIG = [b'[1, {"a": [true, null]}, "s"]', b'{"k": [1, 2, 3], "v": {"w": "x"}}', b"[1, 2", b'{"a":1,"a":2}']

    depth = [0]

    def reenter():
        # Two levels of nesting at most (each level's decimal loads
        # re-enters again).
        if depth[0] >= 2:
            return
        depth[0] += 1
        try:
            again()
        finally:
            depth[0] -= 1

    def again():
        calls[0] += 1
        for d in TINY + BIG:
            try:
                jetjson.loads(d)
            except jetjson.JSONDecodeError:
                pass
            try:
                jetjson.loads(d, decimal=True, duplicate_keys="last")
            except jetjson.JSONDecodeError:
                pass

    class D(decimal.Decimal):
        # Built by loads(decimal=True) for every fraction: loads again
        # from inside the builder (its stacks out of the pool).
        def __new__(cls, text):
            reenter()
            return super().__new__(cls, text)

        def __del__(self):
            # Released by the builder (a repeated name under "last", or what
            # an error left on its stack): loads again from the release.
            reenter()

    BAD = '[1.5, {"a": [2.5, 3.5]}, 4.5, '
    try:
        jetjson.loads(BAD)
    except jetjson.JSONDecodeError as e:
        WANT = (e.msg, e.pos)
    decimal.Decimal = D

    def cb(phase, info):
        reenter()

    gc.callbacks.append(cb)
    want_ok = '[1.5, {"a": [2.5, {"b": 3.5}]}, "s", [4.5]]'
    for i in range(300):
        r = jetjson.loads(want_ok, decimal=True)
        assert r[0] == D("1.5") and r[1]["a"][1]["b"] == D("3.5") and r[3] == [D("4.5")], r
        try:
            jetjson.loads(BAD, decimal=True)
        except jetjson.JSONDecodeError as e:
            assert (e.msg, e.pos) == WANT, (e.msg, e.pos)
        else:
            raise AssertionError("accepted")
        r = jetjson.loads('{"a": 1.5, "a": 2.5, "b": [0.5, 0.25]}', decimal=True, duplicate_keys="last")
        assert r == {"a": D("2.5"), "b": [D("0.5"), D("0.25")]}, r
        try:
            jetjson.loads('{"a": 1.5, "a": 2.5}', decimal=True)
        except jetjson.JSONDecodeError as e:
            assert "a" in e.msg
        else:
            raise AssertionError("accepted a repeat")
        if i % 50 == 0:
            gc.collect()
        del r
    gc.callbacks.remove(cb)
    gc.collect()
    assert calls[0] > 1000, calls[0]
    # The pool and the singletons still serve the next calls.
    for d in (b"1", b"null", b'[1, [2, [3]]]', b'{"a": {"b": null}}'):
        assert jetjson.loads(d) == jetjson.loads(bytearray(d))
    print("ok", calls[0])
    """
)


def test_loads_reentered_from_the_builder_under_debug_allocators():
    env = dict(os.environ, PYTHONMALLOC="debug")
    r = subprocess.run([sys.executable, "-X", "dev", "-c", REENTER], capture_output=True, text=True, timeout=600, env=env)
    assert r.returncode == 0, (r.stdout, r.stderr)
    assert r.stdout.startswith("ok"), (r.stdout, r.stderr)


THREADS = textwrap.dedent(
    r"""
    import sys, threading, typing, jetjson

    sys.setswitchinterval(1e-6)
    ANY = jetjson.Decoder(typing.Any)
    docs = [b"1", b"null", b"true", b' "x" ', b'"\\u00e9"', b"1.5", b"nul", b"[1, 2, {\"a\": [null]}]", b'{"a": "b", "c": [1.5, true]}', b"[1,", b'{"a":1,"a":2}', "\"é\"", "[\"é\", 1]"]
    want = {}
    for d in docs:
        try:
            want[d] = ("ok", jetjson.loads(bytearray(d.encode() if isinstance(d, str) else d)))
        except jetjson.JSONDecodeError as e:
            want[d] = ("error", e.msg, e.pos)
    errors = []

    def work(k):
        try:
            for i in range(20000):
                d = docs[(i + k) % len(docs)]
                for f in (jetjson.loads, ANY.decode):
                    try:
                        got = ("ok", f(d))
                    except jetjson.JSONDecodeError as e:
                        got = ("error", e.msg, e.pos)
                    except jetjson.ValidationError:
                        continue
                    if got != want[d]:
                        errors.append((d, got, want[d]))
                        return
        except BaseException as e:
            errors.append(repr(e))

    ts = [threading.Thread(target=work, args=(k,)) for k in range(8)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert not errors, errors[:5]
    print("ok")
    """
)


def test_threads_hammer_tiny_and_container_loads():
    env = dict(os.environ, PYTHONMALLOC="debug")
    r = subprocess.run([sys.executable, "-X", "dev", "-c", THREADS], capture_output=True, text=True, timeout=600, env=env)
    assert r.returncode == 0, (r.stdout, r.stderr)
    assert r.stdout.startswith("ok"), (r.stdout, r.stderr)


def test_a_thread_started_loads_while_another_holds_a_builder():
    # A builder's stacks are out of the pool while it runs; a thread that
    # gets the GIL between two calls of another finds the pool as it was
    # left: every result is right, whatever the interleaving.
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    out = []
    try:
        def work():
            for i in range(2000):
                out.append(loads(b'[1, {"a": [2, 3]}]') == [1, {"a": [2, 3]}] and loads(b"7") == 7)

        ts = [threading.Thread(target=work) for _ in range(4)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
    finally:
        sys.setswitchinterval(old)
    assert len(out) == 8000 and all(out)


def test_pooled_stacks_after_a_large_document_and_an_error_in_it():
    # A document whose stack outgrows what the pool keeps (shrunk on the
    # way back), one that fails with everything still on the stack, then
    # tiny and small documents from the pool again.
    big = b"[" + b",".join([b'{"a": [1, "x"]}'] * 70_000) + b"]"
    assert len(loads(big)) == 70_000
    with pytest.raises(jetjson.JSONDecodeError):
        loads(b"[" + b",".join([b'"s"'] * 70_000) + b",")
    flat = b"[" + b",".join([b"1.5"] * 70_000)
    with pytest.raises(jetjson.JSONDecodeError):
        loads(flat)
    for _ in range(3):
        assert loads(b"1") == 1 and loads(b'[1, {"a": null}]') == [1, {"a": None}] and loads(b' "x" ') == "x"


def test_non_ascii_str_with_its_utf8_form_at_hand():
    # A non-ASCII str is read in place only when CPython has its UTF-8 form
    # cached (PyUnicode_AsUTF8 made it): then the scalar walk and the quick
    # builder read it, and errors still count characters.
    import ctypes

    as_utf8 = ctypes.pythonapi.PyUnicode_AsUTF8
    as_utf8.restype = ctypes.c_char_p
    as_utf8.argtypes = [ctypes.py_object]
    texts = ['"é"', ' "日本" ', '"😀" x', '"é', '"a\\u00e9é"', "é", ' "é"\t', '["é", {"ü": 1}]', '{"é":1,"é":2}', '"é"' + " " * 60 + "1", '"' + "é" * 40 + '"']
    for text in texts:
        want = outcome(lambda t: loads(t, max_depth=512), text)
        for _ in range(2):
            fresh = "".join(list(text))
            as_utf8(fresh)
            assert same(outcome(loads, fresh), want), repr(text)
            assert same(outcome(ANY.decode, fresh), want) or want[0] == "error", repr(text)
