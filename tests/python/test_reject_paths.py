"""The two ways a service refuses request bodies most often, each taken on
a path of its own (issue 23): `loads(body, max_size=n)` of a `bytes` over
the limit (raised by the C entry point, loads/entry.rs `refuse_oversized`),
and text after the value (`{...} {...}`), refused without building the
value when a look at the input's end shows a second value
(loads/second.rs). Both must raise exactly the error the general path
raises: the same type, args, msg, doc, pos, lineno and colno."""

import gc
import json
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jetjson

loads = jetjson.loads


def caught(f, *args, **kw):
    with pytest.raises(jetjson.JSONDecodeError) as info:
        f(*args, **kw)
    return info.value


def same_error(a, b, same_doc=True):
    """a and b are the same JSONDecodeError (b's doc may be another object
    when same_doc is False)."""
    assert type(a) is type(b) is jetjson.JSONDecodeError
    assert isinstance(a, json.JSONDecodeError) and isinstance(a, ValueError)
    assert a.args == b.args and str(a) == str(b)
    va, vb = vars(a), vars(b)
    assert list(va) == list(vb) == ["msg", "doc", "pos", "lineno", "colno"]
    for k in ("msg", "pos", "lineno", "colno"):
        assert va[k] == vb[k] and type(va[k]) is type(vb[k]), k
    if same_doc:
        assert a.doc is b.doc


# ---- oversized bytes ----------------------------------------------------


def expected_oversize(doc, limit):
    """The error as json would word it, counted here in Python."""
    lineno = doc.count(b"\n", 0, limit) + 1
    colno = limit - doc.rfind(b"\n", 0, limit)
    msg = f"input larger than max_size {limit} bytes"
    return msg, limit, lineno, colno, f"{msg}: line {lineno} column {colno} (char {limit})"


OVERSIZE_DOCS = [
    b"x" * 40000,
    b'{"notes":"' + b"n" * 20000 + b'"}',
    b"\n" * 3000,
    b"ab\ncd\r\n" * 5000,
    b"[1,\n2]\n" * 10,
    b"\xff\xfe\x00\n" * 300,  # not JSON, not UTF-8: refused by size alone
]


@pytest.mark.parametrize("doc", OVERSIZE_DOCS, ids=range(len(OVERSIZE_DOCS)))
def test_oversized_bytes_are_refused_with_the_general_paths_error(doc):
    limits = sorted({0, 1, 2, 3, 5, 63, 64, 65, 127, 128, 129, 4095, 4096, 16384, len(doc) // 2, len(doc) - 1} - {len(doc)})
    for limit in limits:
        if limit >= len(doc):
            continue
        e = caught(loads, doc, max_size=limit)
        msg, pos, lineno, colno, text = expected_oversize(doc, limit)
        assert (e.msg, e.pos, e.lineno, e.colno) == (msg, pos, lineno, colno)
        assert e.args == (text,) and e.doc is doc
        assert list(vars(e)) == ["msg", "doc", "pos", "lineno", "colno"]
        # The general path (a bytearray is copied, never taken quickly).
        general = caught(loads, bytearray(doc), max_size=limit)
        same_error(e, general, same_doc=False)
        # json's own class, given msg, doc and pos, says the same.
        ref = json.JSONDecodeError(e.msg, doc.decode("latin-1"), e.pos)
        assert (ref.lineno, ref.colno, str(ref)) == (e.lineno, e.colno, str(e))
    # At the limit the body is read as usual (an error of its own here, or
    # a value).
    try:
        want = json.loads(doc)
    except ValueError:
        assert "max_size" not in caught(loads, doc, max_size=len(doc)).msg
    else:
        assert loads(doc, max_size=len(doc)) == want


def test_max_size_calls_the_quick_refusal_does_not_take_still_work():
    doc = b"[1,2,3]" * 3
    # Not an exact int, or not one that fits: the general path's answers.
    with pytest.raises(TypeError):
        loads(doc, max_size="5")
    with pytest.raises(ValueError):
        loads(doc, max_size=-1)
    with pytest.raises(TypeError):
        loads(doc, max_size=True)

    class Int(int):
        pass

    assert caught(loads, doc, max_size=Int(4)).pos == 4
    with pytest.raises(jetjson.JSONDecodeError, match="trailing"):
        loads(doc, max_size=2**80)  # no limit in effect: the text's own error
    # A keyword name made at run time (not the interned one), and a str.
    assert caught(loads, doc, **{"".join(["max_", "size"]): 4}).pos == 4
    e = caught(loads, doc.decode(), max_size=4)
    assert (e.pos, e.lineno, e.colno) == (4, 1, 5) and isinstance(e.doc, str)
    # Other keywords too: the general function.
    assert caught(loads, doc, max_size=4, max_depth=3).pos == 4


def test_oversized_refusals_keep_no_reference_and_raise_no_context():
    doc = b"x" * 5000
    before = sys.getrefcount(doc)
    for _ in range(2000):
        try:
            loads(doc, max_size=100)
        except jetjson.JSONDecodeError:
            pass
    gc.collect()
    assert sys.getrefcount(doc) == before
    try:
        raise KeyError("k")
    except KeyError:
        e = caught(loads, doc, max_size=100)
    assert e.__context__ is None and e.__cause__ is None and e.__traceback__ is not None


# ---- text after the value ------------------------------------------------

VALUES = [
    b'{"a":1}', b"[1,[2,{}]]", b'"s"', b"7", b"-12", b"true", b"null", b"{}", b"[]",
    b'{"a":"}]\\"{["}', b'["\\\\"]', b'{"k":"\\\\\\"}"}',
    b'{"x":[' + b'"' + b"y" * 70 + b'",' * 3 + b"1]}",
    b'{"big":' + b"9" * 30 + b"}",
    b'{"huge":' + b"9" * 5000 + b"}",
    b'{"a":1,"a":2}',
    b'{"a":1,"b":[1,{"a":2,"a":3}],"c":tru}',
    b'{"d":' + b"[" * 600 + b"]" * 600 + b"}",
    b'["\xc3\xa9\xe6\x97\xa5", "\xf0\x9f\x98\x80"]',
    b'["\xc3"]',
    b'{"f":1.5e3}',
]
JUNK = [b" x", b"x", b' {"request_id":"x"}', b"\n\n ]", b" 1", b"1", b" {", b' "', b'"t"', b"\x01",
        b" [1,2]", b' {"a":"}\\""}', b'\\"', b" \xef\xbb\xbf{}", b" null", b"  \r\n\t{}"]


# The look at the input's end is taken from 512 bytes on: the values are
# given room in front (whitespace, or a string inside a wrapper).
ROOM = 520


def trailing_docs():
    for v in VALUES:
        for j in JUNK:
            yield v + j
            yield b" \n" + v + j + b"\n"
            yield b" " * ROOM + v + j
            yield b"\n" * ROOM + v + j + b" \r\n"
            yield b'[["' + b"w" * ROOM + b'"],' + v + b"]" + j
            # The window (the last 64 bytes) starting inside a string,
            # after a backslash, inside a run of backslashes.
            for k in (40, 62, 63, 64, 65, 66, 70):
                yield b'[["' + b"w" * ROOM + b"\\\\" * 8 + b'\\"' + b"q" * k + b'"],' + v + b"]" + j
    # Bodies larger than the quick path's 512 bytes.
    body = b'{"items":[' + b",".join(b'{"id":%d,"name":"n%d"}' % (i, i) for i in range(40)) + b"]}"
    for j in JUNK:
        yield body + j


def padded(doc):
    """The same text with whitespace after it, beyond the look at the
    input's end: taken by the build path, with the same error."""
    return doc + (b" " if isinstance(doc, bytes) else " ") * 200


@pytest.mark.parametrize("options", [{}, {"duplicate_keys": "first"}, {"duplicate_keys": "last"}, {"max_depth": 5},
                                     {"allow_bom": True}])
def test_text_after_the_value_is_refused_with_the_builds_error(options):
    for doc in trailing_docs():
        for data in (doc, doc.decode("utf-8", "replace")):
            try:
                want = loads(padded(data), **options)
            except jetjson.JSONDecodeError as e:
                want = e
            try:
                got = loads(data, **options)
            except jetjson.JSONDecodeError as e:
                got = e
            if isinstance(want, Exception):
                assert isinstance(got, jetjson.JSONDecodeError), (doc, options, got)
                same_error(got, want, same_doc=False)
                assert got.doc is data
            else:
                assert got == want and type(got) is type(want)


def test_text_after_the_value_where_the_build_stops_first():
    # Repeated names and integers CPython refuses come before the text
    # after the value: the build's error, not "trailing characters".
    assert caught(loads, b'{"a":1,"a":2} {}').msg == 'duplicate object key "a"'
    assert caught(loads, b'{"a":1,"a":2,"b":tru} {}').msg.startswith("invalid literal")
    # The same past 512 bytes, where the input's end is looked at first.
    room = b" " * 600
    assert caught(loads, room + b'{"a":1,"a":2} {}').msg == 'duplicate object key "a"'
    e = caught(loads, room + b'{"a":1,"a":2,"b":tru} {}')
    assert e.msg.startswith("invalid literal") and e.pos == 600 + 20
    e = caught(loads, b"[" + b"1" * 5000 + b"] 1")
    assert "4300" in e.msg and e.pos == 1
    assert loads(b'{"a":1,"a":2}', duplicate_keys="last") == {"a": 2}
    e = caught(loads, b'{"a":1,"a":2} {}', duplicate_keys="last")
    assert (e.msg, e.pos) == ("trailing characters after the JSON value", 14)
    # A byte order mark is not a value: allowed, the text is one value.
    assert loads(b"\xef\xbb\xbf[1] ", allow_bom=True) == [1]
    assert caught(loads, b"\xef\xbb\xbf[1] [2]", allow_bom=True).pos == 7
    # Decimal reads build as before.
    e = caught(loads, b'{"f":1.5} {"g":2}', decimal=True)
    assert (e.msg, e.pos) == ("trailing characters after the JSON value", 10)


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(JSON_VALUES, st.binary(max_size=30), st.sampled_from([b"", b" ", b"\n", b'"', b"\\", b"]", b"}"]))
def test_random_values_with_random_text_after_them(value, junk, joint):
    doc = json.dumps(value, ensure_ascii=False).encode() + joint + junk
    doc = b" " * ROOM + doc if len(doc) % 2 else b'{"pad":"' + b"p" * ROOM + b'","v":' + doc[:-len(junk) or None] + b"}" + junk
    try:
        want = loads(padded(doc))
    except jetjson.JSONDecodeError as e:
        want = e
    try:
        got = loads(doc)
    except jetjson.JSONDecodeError as e:
        got = e
    if isinstance(want, Exception):
        same_error(got, want, same_doc=False)
    else:
        assert got == want


def test_text_after_a_large_value_is_refused_before_anything_is_built():
    # 20,000 small dicts then a second value: the look at the input's end
    # sees the second value, so the walk that builds nothing finds the
    # error, and the first value's dicts (several MB) are never made. A
    # build that met the text after them would peak at their size.
    body = b"[" + b",".join(b'{"id":%d,"n":"x"}' % i for i in range(20000)) + b"]"
    doc = body + b' {"second":1}'
    import tracemalloc
    tracemalloc.start()
    try:
        e = caught(loads, doc)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.reset_peak()
        built = loads(body)
        _, peak_built = tracemalloc.get_traced_memory()
        del built
    finally:
        tracemalloc.stop()
    assert (e.msg, e.pos) == ("trailing characters after the JSON value", len(body) + 1)
    assert peak_built > 2_000_000, peak_built
    assert peak < 100_000, (peak, peak_built)


def test_trailing_refusals_leak_nothing():
    doc = b'{"a":[1,"x",{"b":null}]} {"request_id":"x"}'
    for _ in range(200):
        caught(loads, doc)
    gc.collect()
    before = len(gc.get_objects())
    for _ in range(5000):
        try:
            loads(doc)
        except jetjson.JSONDecodeError:
            pass
    gc.collect()
    assert len(gc.get_objects()) <= before + 5


def test_refusals_in_turn_with_one_limit_get_their_own_place():
    # The parts of the last refusal's error are kept for the next one with
    # the same limit and place: bodies whose place differs must not get them.
    compact = b'{"notes":"' + b"n" * 3000 + b'"}'
    lines = b"[\n" + b"1,\n" * 1500 + b"1]"
    crlf = b"[\r\n" + b"2,\r\n" * 1500 + b"2]"
    for limit in (100, 101, 2048):
        for doc in (compact, lines, compact, crlf, lines, lines, compact, compact):
            for _ in range(2):
                e = caught(loads, doc, max_size=limit)
                msg, pos, lineno, colno, text = expected_oversize(doc, limit)
                assert (e.msg, e.pos, e.lineno, e.colno, e.args) == (msg, pos, lineno, colno, (text,))
                assert e.doc is doc
    gc.collect()
    count = len(gc.get_objects())
    for _ in range(3000):
        for doc in (compact, lines):
            try:
                loads(doc, max_size=100)
            except jetjson.JSONDecodeError:
                pass
    gc.collect()
    assert len(gc.get_objects()) <= count + 5
