"""Review tests for the quick size refusal (loads/entry.rs
`refuse_oversized`, errors.rs `Refusal`) and the text-after-the-value look
(loads/second.rs): reference counts of the kept parts and of the error
type, leaks of non-GC objects (strs, ints: invisible to gc.get_objects),
threads refusing with different limits, newline counts across the AVX2
count's flush points, and trailing text at every place of the last 64
bytes of 511..4096-byte inputs."""

import gc
import random
import sys
import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jetjson

loads = jetjson.loads


def refusal(doc, **kw):
    try:
        loads(doc, **kw)
    except jetjson.JSONDecodeError as e:
        return e
    raise AssertionError("not refused")


def expected(doc, limit):
    lineno = doc.count(b"\n", 0, limit) + 1
    colno = limit - doc.rfind(b"\n", 0, limit)
    msg = f"input larger than max_size {limit} bytes"
    return (f"{msg}: line {lineno} column {colno} (char {limit})",), msg, limit, lineno, colno


def test_kept_parts_are_held_once_and_released_once():
    doc = b"x" * 5000
    e = refusal(doc, max_size=1000)
    # Numbers beyond the small-int cache, so their counts mean something.
    parts = [e.args[0], e.msg, e.pos, e.colno]
    del e
    counts = [sys.getrefcount(p) for p in parts]
    for _ in range(3000):
        e = refusal(doc, max_size=1000)
        assert e.args[0] is parts[0] and e.msg is parts[1] and e.pos is parts[2] and e.colno is parts[3]
        del e
    assert [sys.getrefcount(p) for p in parts] == counts
    # Another limit replaces the kept parts: the old ones lose exactly the
    # cache's reference, once, however many refusals follow.
    for lim in (1001, 1002, 1001):
        for _ in range(100):
            refusal(doc, max_size=lim)
    assert [sys.getrefcount(p) for p in parts] == [c - 1 for c in counts]
    e = refusal(doc, max_size=1000)
    assert e.args[0] == parts[0] and e.args[0] is not parts[0]


def test_error_type_and_doc_counts_are_stable():
    doc = b"[1,\n2]\n" * 400
    ty = jetjson.JSONDecodeError
    gc.collect()
    before = (sys.getrefcount(ty), sys.getrefcount(doc))
    for i in range(4000):
        try:
            loads(doc, max_size=i % 50)
        except jetjson.JSONDecodeError:
            pass
    gc.collect()
    assert (sys.getrefcount(ty), sys.getrefcount(doc)) == before


def test_no_str_or_int_leak_across_changing_refusals():
    # gc.get_objects() does not see strs and ints: count allocated blocks.
    docs = [b"x" * 3000, b"a\n" * 1500, b"a\r\n" * 1000]
    for i in range(300):
        try:
            loads(docs[i % 3], max_size=700 + i % 7)
        except jetjson.JSONDecodeError:
            pass
    gc.collect()
    before = sys.getallocatedblocks()
    for i in range(20000):
        try:
            loads(docs[i % 3], max_size=700 + i % 7)
        except jetjson.JSONDecodeError:
            pass
    gc.collect()
    assert sys.getallocatedblocks() - before < 50


def test_no_leak_on_trailing_refusals_of_str_and_bytes():
    body = " " * 600 + '{"a":[1,"x",{"b":null}],"\u00e9":2} {"request_id":"x"}'
    for data in (body, body.encode()):
        for _ in range(300):
            refusal(data)
        gc.collect()
        before = sys.getallocatedblocks()
        for _ in range(10000):
            try:
                loads(data)
            except jetjson.JSONDecodeError:
                pass
        gc.collect()
        assert sys.getallocatedblocks() - before < 50


def test_threads_refusing_with_different_limits_get_their_own_errors():
    docs = [b"a\n" * 3000, b"a\r\n" * 2000, b"x" * 6000, ("\u00e9\n" * 2000).encode(), b"\n" * 6000, b"\r" * 6000]
    bad = []

    def worker(seed):
        r = random.Random(seed)
        for _ in range(4000):
            d = r.choice(docs)
            if r.random() < 0.3:
                d = bytes(bytearray(d))  # an equal body, another object
            lim = r.choice([0, 1, 2, 100, 101, 1000, 1001, r.randrange(0, 5999)])
            try:
                loads(d, max_size=lim)
                bad.append(("accepted", lim))
            except jetjson.JSONDecodeError as e:
                got = (e.args, e.msg, e.pos, e.lineno, e.colno)
                if got != expected(d, lim) or e.doc is not d:
                    bad.append((got, expected(d, lim)))

    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=worker, args=(s,)) for s in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(old)
    assert bad == []


@pytest.mark.parametrize("unit", [b"\n", b"\r\n", b"a\n", b"\n\n\r"])
def test_line_counts_across_the_avx2_flush_points(unit):
    # The AVX2 count sums lanes over 127 steps of 256 bytes: inputs of
    # nothing but newlines past several flushes, limits at the edges.
    doc = unit * (3 * 127 * 256 // len(unit) + 300)
    for base in (0, 127 * 256, 2 * 127 * 256, 3 * 127 * 256):
        for lim in range(max(0, base - 3), base + 260, 1 if base else 7):
            if lim >= len(doc):
                continue
            e = refusal(doc, max_size=lim)
            assert (e.args, e.msg, e.pos, e.lineno, e.colno) == expected(doc, lim), lim
            assert e.doc is doc


VALUES = [b'{"a":1}', b"[1,[2,{}]]", b'"s"', b"7", b"-12", b"1.5e3", b"true", b"null", b"{}", b"[]",
          b'"\\\\"', b'"\\""', b'"}"', b'"\\\\\\""', b'{"k":"\\\\\\"}"}', b'"' + b"\\\\" * 20 + b'"',
          b'"' + b'\\"' * 20 + b'"', b'{"a":[{"b":"]}"}]}', b"123456789012345678901234"]
AFTER = [b"", b"x", b"1", b"{}", b"]", b"}", b"[] ]", b'"', b'"\\\\" x', b'"\\\\"}"', b'"\\"}"', b" 1 2", b"\\"]


def outcome(data):
    try:
        return ("ok", loads(data))
    except jetjson.JSONDecodeError as e:
        assert e.doc is data
        return ("err", e.args, e.msg, e.pos, e.lineno, e.colno)


@pytest.mark.parametrize("target", [511, 512, 513, 600, 4096])
def test_text_after_the_value_at_every_place_of_the_last_64_bytes(target):
    for v in VALUES:
        for after in AFTER:
            sep = b" " if after[:1].isdigit() and v[-1:].isdigit() else b""
            for tail in range(0, 70, 3):
                for inside in (False, True):
                    core = v + sep + after
                    if inside:
                        core = b"[" + v + b"]" + after
                    room = target - len(core) - tail
                    if room < 8:
                        continue
                    if inside:
                        doc = b'["' + b"w" * (room - 4) + b'",' + core[1:]
                        doc = b" " * (target - tail - len(doc)) + doc + b" " * tail
                    else:
                        doc = b" " * room + core + b" " * tail
                    assert len(doc) == target
                    for data in (doc, doc.decode("utf-8", "replace")):
                        pad = data + (b" " if isinstance(data, bytes) else " ") * 100
                        got, want = outcome(data), outcome(pad)
                        assert got == want, (target, data[-80:])
                        if after == b"" and want[0] == "ok":
                            assert got[0] == "ok"


BODY_BYTES = st.lists(st.sampled_from([b"\n", b"\r\n", b"\r", b"a", b"\xc3\xa9", b"\xef\xbb\xbf", b"\xff", b"[", b'"', b" "]),
                      max_size=700).map(b"".join)


@settings(max_examples=400, deadline=None)
@given(BODY_BYTES, st.integers(0, 3), st.integers(-3, 3), st.booleans())
def test_quick_refusal_equals_the_general_paths(body, small, around, repeat):
    # Limits at 0..3 and around every newline and the end.
    places = [small, len(body) - 1 + around] + [i + around for i, c in enumerate(body) if c == 10][:5]
    for limit in places:
        if not 0 <= limit < len(body):
            continue
        for _ in range(2 if repeat else 1):
            e = refusal(body, max_size=limit)
            assert (e.args, e.msg, e.pos, e.lineno, e.colno) == expected(body, limit)
            assert e.doc is body and e.__context__ is None
            for general in (bytearray(body), memoryview(body)):
                g = refusal(general, max_size=limit)
                assert (type(g), g.args, g.msg, g.pos, g.lineno, g.colno) == (type(e), e.args, e.msg, e.pos, e.lineno, e.colno)
            g = refusal(body, max_size=limit, duplicate_keys="error")
            assert (g.args, g.msg, g.pos, g.lineno, g.colno) == (e.args, e.msg, e.pos, e.lineno, e.colno)


def test_a_replaced_new_is_reported_as_the_general_path_reports_it():
    # A `__new__` set by Python code that returns no exception: the quick
    # size refusal declines, so bytes and bytearray input get the same error.
    cls = jetjson.JSONDecodeError
    saved = cls.__dict__.get("__new__")
    cls.__new__ = lambda c, *a: type("NotAnError", (), {})()
    try:
        messages = []
        for data in (b"z" * 50, bytearray(b"z" * 50)):
            with pytest.raises(TypeError) as e:
                jetjson.loads(data, max_size=5)
            messages.append(str(e.value))
        assert messages[0] == messages[1]
    finally:
        if saved is None:
            del cls.__new__
        else:
            cls.__new__ = saved
    with pytest.raises(jetjson.JSONDecodeError):
        jetjson.loads(b"z" * 50, max_size=5)
