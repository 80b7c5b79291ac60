"""`dumps(obj)` with no options (of anything but a str or int, which have
a path of their own) takes a quick walk (issue 23, fixed cost per call):
written without pyo3's trampoline, it writes only what runs no Python code
(exact built-in containers with exact str keys, scalars, `Raw`, exact
datetimes, dates and times without a tzinfo or in UTC, exact UUIDs,
dataclasses planned lately whose fields are read in place) and, where
Python code would run next, at any other object or at any failure, throws
its work away and hands the call to the general path, which writes it from
the start (dumps/entry.rs `dumps_quick`, `Walker::quick`,
`Walker::before_python`).

Each document here is compared with the general path, which a call with an
option always takes (`profile="compact"` is the default's own value), and
the Python code a document runs (a tzinfo's `utcoffset`, a default) must run
exactly as often either way: a quick walk that ran it and then declined
would run it twice."""

import dataclasses
import datetime
import decimal
import enum
import gc
import json
import math
import sys
import uuid

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jetjson
from _nomemory import needs_set_nomemory

dumps = jetjson.dumps


def general(obj):
    return dumps(obj, profile="compact")


def rested(obj):
    """`dumps(obj)` with the quick walk tried first: after a decline the
    next calls (dumps/entry.rs `QUICK_REST`, 64; one count for dicts and
    lists, one for other objects) go straight to the general path, so
    plain calls of both kinds are made first until it would be tried
    again."""
    for _ in range(100):
        dumps([])
        dumps(0.5)
    return dumps(obj)


def outcome(f, obj):
    try:
        return "ok", f(obj)
    except Exception as e:  # noqa: BLE001 - the type and text are compared
        return "error", (type(e), str(e))


PAYLOAD = b'{"items":[{"sku":"a","qty":1},{"sku":"b","qty":2}],"note":"' + b"x" * 700 + b'"}'

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=40),
    st.sampled_from(["", "é", "日本", "\U0001f600", "a\"b\\c", "\x00\x1f", "<>&", "\u2028"]),
    st.sampled_from([jetjson.Raw(b"[1,2]"), jetjson.Raw.unchecked(b'{"a":true}'), jetjson.Raw(PAYLOAD)]),
)
documents = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=6),
        st.lists(inner, max_size=4).map(tuple),
        st.dictionaries(st.text(max_size=12), inner, max_size=6),
    ),
    max_leaves=40,
)


@settings(max_examples=400, deadline=None)
@given(st.one_of(st.dictionaries(st.text(max_size=12), documents, max_size=8), st.lists(documents, max_size=8)))
def test_plain_documents_are_written_as_the_general_path_writes_them(doc):
    got = outcome(rested, doc)
    assert got == outcome(general, doc)
    if got[0] == "ok":
        # The same bytes again, and after a call the general path took.
        assert dumps(doc) == got[1]


small_keys = st.one_of(
    st.text(max_size=12),
    st.sampled_from(["", "a", "id", "é", "a\"b", "back\\slash", "tab\t", "\x7f", "<>&", "\u2028", "\ud800", "k" * 96, "k" * 97]),
)
small_values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**64), max_value=2**64),
    st.sampled_from([0, -1, 2**59, 2**60 - 1, 2**60, -(2**60), 2**63, -(2**63) - 1, 1.5, -0.0, 1e300, 5e-324]),
    st.floats(),
    st.text(max_size=100),
    st.sampled_from(["", "é", "a\"b", "\x00", "<&>", "\u2028", "\ud800", "s" * 96, "s" * 97]),
    # Longer than a run takes: written between runs up to 4096 bytes of ASCII.
    st.text(alphabet=st.characters(max_codepoint=127), min_size=97, max_size=300),
    st.sampled_from(["s" * 4096, "s" * 4097, 'q"' * 60, "<&>" * 40, "\x00" * 100, "é" * 100]),
)


@settings(max_examples=600, deadline=None)
@given(st.dictionaries(small_keys, small_values, min_size=1, max_size=10))
def test_small_dicts_of_scalars_are_written_as_the_general_path_writes_them(doc):
    # Dicts of up to 8 members whose values are scalars take their own path
    # (dumps/kept.rs `write_small_dict`); whatever it declines (names and
    # strs that need escaping, ints over 60 bits, NaN...) goes on to the
    # quick walk and the general path. The same bytes, or the same error.
    want = outcome(general, doc)
    for f in (dumps, rested, dumps):
        assert outcome(f, doc) == want


def test_small_dicts_written_whole():
    # What the small-dict path writes by itself, checked against the text.
    assert dumps({"a": 1}) == b'{"a":1}'
    assert dumps({"a": 1, "b": "x", "c": 1.5, "d": None, "e": True, "f": False, "g": -7, "h": "k" * 96}) == (
        b'{"a":1,"b":"x","c":1.5,"d":null,"e":true,"f":false,"g":-7,"h":"' + b"k" * 96 + b'"}'
    )
    assert dumps({"<&>": "<&>"}) == b'{"<&>":"<&>"}'
    assert dumps({"k" * 96: 2**60 - 1}) == b'{"' + b"k" * 96 + b'":' + str(2**60 - 1).encode() + b"}"


@pytest.mark.parametrize("n", [97, 128, 1000, 4096, 4097])
def test_small_dicts_with_strs_a_run_declines_are_written_as_the_general_path_writes_them(n):
    # A str a run declines (over 96 bytes, needing escapes, or not ASCII)
    # of at most 4096 bytes of UTF-8 is written by the writer's string path
    # between two runs (dumps/kept.rs `declined_str`), escaped as needed,
    # also next to a Raw whose place in the output moves with it. Checked
    # against the text.
    clean = ("abcdefghij" * (n // 10 + 1))[:n]
    dirty = ('a"b\\c\n\x00<&>\x7f' * (n // 12 + 1))[:n]
    wide = ("é日本\U0001f600\u2028x" * n)[:n]  # up to 4 UTF-8 bytes a character: past 4096 bytes too
    text = b'{"x":[1,2]}'
    raw = jetjson.Raw(text)
    for s in (clean, dirty, wide, dirty[:5], wide[:3]):
        docs = [
            {"s": s},
            {"a": 1, "s": s},
            {"s": s, "b": 2.5},
            {"a": 1, "s": s, "t": s, "b": raw},
            {"r": raw, "s": s, "n": None},
            {"s": s, "r": raw},
            {k: s for k in "abcdefgh"},
        ]
        for doc in docs:
            parts = [json.dumps(k).encode() + b":" + (text if v is raw else json.dumps(v, ensure_ascii=False).encode()) for k, v in doc.items()]
            want = b"{" + b",".join(parts) + b"}"
            assert general(doc) == want
            for f in (dumps, rested, dumps):
                assert f(doc) == want


@pytest.mark.parametrize("text", [b"", b"1", b'{"x":[1,2]}', PAYLOAD, b"[" + b"0," * 3000 + b"0]"])
def test_small_dicts_with_one_raw_are_written_as_the_general_path_writes_them(text):
    # One Raw in a small dict of scalars is copied straight into the result
    # (dumps/kept.rs `with_text`) at every place; two Raws, or a Raw with a
    # value the small path leaves, go the other ways. Nothing held is kept
    # or lost: the Raw's text is held only while it is copied.
    raw = jetjson.Raw.unchecked(text)
    before = (sys.getrefcount(raw), sys.getrefcount(text))
    heads = [("id", "evt_1"), ("n", 7), ("ok", True), ("x", None), ("f", 0.5)]
    docs = []
    for i in range(len(heads) + 1):
        members = heads[:i] + [("data", raw)] + heads[i:]
        docs.append(dict(members))
        docs.append(dict(members[:3] + [("more", raw)]) if i < 3 else dict(members + [("list", [1])]))
    docs.append({"data": jetjson.Raw(b"[1, 2]"), "id": "x"})
    docs.append({"a": raw, "b": jetjson.Raw(b"2")})
    for doc in docs:
        want = general(doc)
        for f in (dumps, rested, dumps):
            assert f(doc) == want
        if len([v for v in doc.values() if isinstance(v, jetjson.Raw)]) == 1 and "list" not in doc:
            # Written by the small path: the text in its place, checked
            # against the text itself.
            parts = [b'"%s":' % k.encode() + (text if v is raw else general(v)) for k, v in doc.items()]
            assert want == b"{" + b",".join(parts) + b"}"
    del doc, members
    docs.clear()
    assert (sys.getrefcount(raw), sys.getrefcount(text)) == before


class CountingZone(datetime.tzinfo):
    """A tzinfo whose offset is asked through Python code, counted."""

    calls = 0

    def utcoffset(self, dt):
        CountingZone.calls += 1
        return datetime.timedelta(hours=2)

    def dst(self, dt):
        return None

    def tzname(self, dt):
        return "X"


class Color(enum.Enum):
    RED = "red"


class Key(str):
    pass


class Big(int):
    pass


@dataclasses.dataclass
class Point:
    x: int
    y: int


def others():
    """Objects a quick walk leaves to the general path."""
    return [
        datetime.datetime(2026, 11, 29, 3, 4, 5, tzinfo=CountingZone()),
        datetime.datetime(2026, 11, 29, 3, 4, 5),
        datetime.date(2026, 11, 29),
        uuid.UUID(int=7),
        decimal.Decimal("1.50"),
        Color.RED,
        Point(1, 2),
        Big(5),
        2**200,
        {Key("k"): 1},
        {1: "int key"},
        [b"bytes"],
        frozenset(),
    ]


@pytest.mark.parametrize("where", range(4))
def test_documents_with_other_objects_match_and_run_python_code_once(where):
    for other in others():
        for doc in (
            {"a": 1, "b": [1, 2, {"c": "d"}], "other": other} if where == 0 else None,
            [other, 1, 2] if where == 1 else None,
            {"list": [{"x": i} for i in range(30)] + [other]} if where == 2 else None,
            [[[{"deep": other}]]] if where == 3 else None,
            # Python code run before the object a quick walk leaves.
            {"at": datetime.datetime(2026, 1, 2, tzinfo=CountingZone()), "then": other} if where == 0 else None,
        ):
            if doc is None:
                continue
            matches_the_general_path_running_python_code_once(doc)


def matches_the_general_path_running_python_code_once(doc):
    """`dumps(doc)` (after a decline, then in calls that rest from the
    quick walk) gives the general path's outcome, and runs the counting
    tzinfo's `utcoffset` as often as it does."""
    for f in (rested, dumps, dumps):
        CountingZone.calls = 0
        got = outcome(f, doc)
        quick_calls = CountingZone.calls
        CountingZone.calls = 0
        want = outcome(general, doc)
        assert got == want, (doc, got, want)
        assert quick_calls == CountingZone.calls, doc


@dataclasses.dataclass
class Pair:
    first: object
    then: object


def tops():
    """Objects written alone: the quick walk writes some, declines others."""
    utc = datetime.timezone.utc
    return others() + [
        0.25,
        None,
        True,
        (1, "a", None),
        jetjson.Raw(b'{"a": [1, 2]}'),
        datetime.datetime(2026, 11, 29, 3, 4, 5, 123456, tzinfo=utc),
        datetime.datetime(2026, 11, 29, 3, 4, 5, tzinfo=datetime.timezone(datetime.timedelta(hours=-3))),
        datetime.time(3, 4, 5, 6),
        datetime.time(3, 4, 5, tzinfo=CountingZone()),
        uuid.UUID("8f14e45f-ceea-467a-9a36-dedd4bea2543"),
        Point(-1, 2**40),
        Pair(Point(1, 2), [uuid.UUID(int=1), datetime.date(2026, 1, 2)]),
        # Python code (the offset) before an object the quick walk leaves.
        Pair(datetime.datetime(2026, 1, 2, tzinfo=CountingZone()), Color.RED),
        Pair(datetime.datetime(2026, 1, 2, tzinfo=CountingZone()), 2**200),
        Pair(Point(1, 2), Pair(datetime.time(1, tzinfo=CountingZone()), Big(3))),
        [Pair(i, datetime.datetime(2026, 1, 2, tzinfo=utc)) for i in range(3)],
    ]


def test_objects_alone_match_and_run_python_code_once():
    # Each object alone (the quick walk for objects that are not dicts or
    # lists), in a list, and in a dataclass: as the general path writes
    # it, and any Python code it runs (a tzinfo's utcoffset) run once.
    for top in tops():
        for doc in (top, [top], Pair(top, 1), Pair(1, [top])):
            matches_the_general_path_running_python_code_once(doc)


class Watched:
    """A dataclass field read through getattr (a property: not in the
    instance dict), counted."""

    reads = 0


@dataclasses.dataclass
class WithProperty:
    a: int
    b: int = 0

    @property
    def b(self):  # noqa: F811 - the property shadows the field on purpose
        Watched.reads += 1
        return 5

    @b.setter
    def b(self, value):
        pass


def test_a_field_read_through_python_code_is_read_once():
    # A field a dataclass's plan cannot read in place is read with getattr
    # (Python code): the quick walk declines before it, so the property
    # runs once per call, alone or nested, whatever follows it.
    for doc in (WithProperty(1), [WithProperty(1), Color.RED], Pair(WithProperty(2), Big(1)), {"x": WithProperty(3)}):
        for f in (rested, dumps, dumps):
            Watched.reads = 0
            got = outcome(f, doc)
            reads = Watched.reads
            Watched.reads = 0
            assert got == outcome(general, doc)
            assert reads == Watched.reads >= 1, doc


def test_dataclasses_planned_lately_follow_their_class():
    # A class whose plan the quick walk found (`find_recent`) and then
    # changed: the next call writes what the class says now.
    @dataclasses.dataclass
    class Event:
        id: int
        at: datetime.datetime

    e = Event(1, datetime.datetime(2026, 1, 2, 3, 4, 5, tzinfo=datetime.timezone.utc))
    at = b'"at":"%s"' % e.at.isoformat().encode()
    first = rested(e)
    assert first == general(e) == b'{"id":1,' + at + b"}"
    Event.extra = 1  # a new version tag for the class
    assert dumps(e) == first
    e.__dict__["id"] = "one"
    assert dumps(e) == general(e) == b'{"id":"one",' + at + b"}"
    del e.__dict__["at"]
    assert outcome(dumps, e) == outcome(general, e)
    assert outcome(general, e)[0] == "error"


def test_the_quick_walk_comes_back_after_declining():
    # After a decline, calls rest from the quick walk for a while; plain and
    # other documents alternate: every output is right whichever path it took.
    plain = {"id": "evt_1", "n": [1, 2.5, None, True], "data": jetjson.Raw(PAYLOAD)}
    other = {"id": "evt_2", "at": datetime.date(2026, 1, 2)}
    want_plain, want_other = general(plain), general(other)
    for i in range(300):
        assert dumps(plain) == want_plain
        if i % 7 == 0:
            assert dumps(other) == want_other
        if i % 50 == 0:
            assert rested(other) == want_other
            assert rested(plain) == want_plain


def deep(n, leaf):
    doc = leaf
    for _ in range(n):
        doc = [doc]
    return doc


def circular_list():
    a = [1]
    a.append(a)
    return a


def circular_dict():
    d = {"a": 1}
    d["self"] = d
    return d


@pytest.mark.parametrize(
    "doc",
    [
        [math.nan],
        {"x": [1, math.inf]},
        ["\ud800"],
        {"\udfff": 1},
        {"a": object()},
        [1, {2: 3}],
        deep(600, 1),
        {"a": deep(511, [])},
        circular_list(),
        circular_dict(),
        [1, {"t": (1, 2, set())}],
    ],
    ids=lambda d: type(d).__name__,
)
def test_errors_are_the_general_paths(doc):
    want = outcome(general, doc)
    for f in (rested, dumps, dumps):
        assert outcome(f, doc) == want


@pytest.mark.parametrize("profile", ["compact", "go", "jcs"])
def test_a_failed_document_leaves_nothing_behind(profile):
    # The kept writer of a failed (or declined) document is emptied and
    # reused: the next document starts from nothing, in every profile
    # (go and jcs sort keys: the failure comes mid-sort).
    bad = {"b": [1, 2, {"z": 1, "y": math.nan}], "a": 1}
    good = {"b": [1, 2, {"z": 1, "y": 2}], "a": 1}
    sort = profile != "compact"
    want = b'{"a":1,"b":[1,2,{"y":2,"z":1}]}' if sort else b'{"b":[1,2,{"z":1,"y":2}],"a":1}'
    kwargs = {} if profile == "compact" else {"profile": profile}
    for _ in range(3):
        with pytest.raises((ValueError, TypeError)):
            rested(bad) if profile == "compact" else dumps(bad, **kwargs)
        assert dumps(good, **kwargs) == want
        # Nothing of the failed document's nesting is left: a document at
        # the depth limit (512) is still written.
        assert dumps(deep(512, 0), **kwargs) == b"[" * 512 + b"0" + b"]" * 512
        # A decline (a date) in the middle, then plain documents.
        mixed = {"b": [1, datetime.date(2026, 1, 2)], "a": 1}
        got = rested(mixed) if profile == "compact" else dumps(mixed, **kwargs)
        assert got == general_of(profile)(mixed)
        assert dumps(good, **kwargs) == want
        assert rested(good) == want if profile == "compact" else True


def general_of(profile):
    # (Any keyword but the profile takes the general path; this one is the
    # default.)
    return lambda obj: dumps(obj, profile, max_write_depth=512)


def test_reference_counts_are_kept():
    payload = bytes(PAYLOAD)
    raw = jetjson.Raw.unchecked(payload)
    key, value, other = "k" + "e" * 10, "v" * 20, datetime.date(2026, 1, 2)
    docs = [{key: value, "data": raw}, [value, raw, {key: 1}], {key: value, "at": other}, [raw, math.nan]]
    # Warm first: the shape caches hold a reference to each key they keep.
    for _ in range(100):
        for d in docs:
            outcome(dumps, d)
            outcome(general, d)
    gc.collect()
    before = [sys.getrefcount(o) for o in (payload, raw, key, value, other)]
    for _ in range(30):
        for d in docs:
            outcome(rested, d)
            outcome(dumps, d)
    gc.collect()
    assert [sys.getrefcount(o) for o in (payload, raw, key, value, other)] == before


def test_subclasses_at_the_top_take_the_general_path():
    class D(dict):
        pass

    class L(list):
        pass

    for doc in (D(a=1), L([1, 2])):
        assert dumps(doc) == general(doc) == dumps(dict(doc) if isinstance(doc, dict) else list(doc))


@needs_set_nomemory
@pytest.mark.parametrize("doc", ['["x" * 200000]', '{"k": "x" * 200000}', '"x" * 200000'])
def test_out_of_memory_for_the_result_is_a_memory_error_not_an_abort(doc):
    # A quick walk whose result bytes cannot be allocated declines; the
    # general path then writes the call again and must raise MemoryError
    # as it did before the quick walk (e561b28), not take the large-output
    # way (the failed size recorded as the last output), whose growth
    # aborts the process ("memory allocation of N bytes failed"). Run in a
    # child process: an abort would end the test run.
    import subprocess
    import textwrap

    code = textwrap.dedent(
        f"""
        import _testcapi, jetjson
        jetjson.dumps({{"a": 1}}); jetjson.dumps("a")
        doc = {doc}
        for _ in range(100):
            jetjson.dumps([])
        for start in range(3):
            _testcapi.set_nomemory(start, 0)
            try:
                jetjson.dumps(doc)
                got = "ok"
            except MemoryError:
                got = "MemoryError"
            finally:
                _testcapi.remove_mem_hooks()
            print(start, got)
        print(jetjson.dumps(doc) == jetjson.dumps(doc, profile="compact"))
        """
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    lines = r.stdout.split()
    assert lines[-1] == "True", r.stdout
