"""jetjson.dumps: every supported type, every profile rule, against orjson
(compact), the live Go oracle (go) and Node (jcs)."""

import collections
import dataclasses
import datetime
import decimal
import enum
import json
import math
import random
import struct
import sys
import threading
import typing
import uuid

import orjson
import pytest

import jetjson
from _dumps_support import BENCH, CORPUS, OracleError, go, node_jcs, one_line

PROFILES = ("compact", "go", "jcs")


# ---------------------------------------------------------------- corpus


@pytest.mark.parametrize("name", sorted(BENCH))
def test_compact_equals_orjson_on_bench_documents(name):
    obj = json.loads(BENCH[name].read_bytes())
    assert jetjson.dumps(obj) == orjson.dumps(obj)
    assert jetjson.dumps(obj, sort_keys=True) == orjson.dumps(obj, option=orjson.OPT_SORT_KEYS)
    # Another document shape: all simdjson files that orjson can write.
    assert json.loads(jetjson.dumps(obj, profile="go")) == json.loads(jetjson.dumps(obj))


def test_compact_equals_orjson_on_more_documents():
    for path in sorted((CORPUS / "bench" / "simdjson").glob("*.json")):
        obj = json.loads(path.read_bytes())
        assert jetjson.dumps(obj) == orjson.dumps(obj), path.name


@pytest.mark.parametrize("name", sorted(BENCH))
def test_go_equals_go_on_bench_documents(name):
    obj = json.loads(BENCH[name].read_bytes())
    [expected] = go([one_line(obj)])
    assert jetjson.dumps(obj, profile="go") == expected


def test_go_options_equal_go_encoder_options():
    obj = json.loads(BENCH["github_events"].read_bytes())
    line = one_line(obj)
    [no_html] = go([line], escape_html=False)
    assert jetjson.dumps(obj, profile="go", escape_html=False) == no_html
    [indented] = go([line], indent=2)
    assert jetjson.dumps(obj, profile="go", indent=2) == indented
    [both] = go([line], escape_html=False, indent=4)
    assert jetjson.dumps(obj, profile="go", indent=4, escape_html=False) == both


@pytest.mark.parametrize("name", ["citm_catalog", "canada", "github_events", "gsoc-2018"])
def test_jcs_equals_node_on_bench_documents(name):
    obj = json.loads(BENCH[name].read_bytes())
    [expected] = node_jcs([one_line(obj)])
    assert jetjson.dumps(obj, profile="jcs") == expected


def test_jcs_equals_rfc8785_vectors():
    for path in sorted((CORPUS / "jcs" / "input").glob("*.json")):
        expected = (CORPUS / "jcs" / "output" / path.name).read_bytes()
        assert jetjson.dumps(json.loads(path.read_bytes()), profile="jcs") == expected, path.name


# ---------------------------------------------------------------- generated hostile values

ALPHABET = list("ab/09 ") + ["<", ">", "&", '"', "\\", "\x7f", "é", "\u2028", "\u2029", "\ufb33", "\ue000", "\uffff", "😂", "\U0010ffff", "\u0085", "\ufeff"]
ALPHABET += [chr(c) for c in range(0x20)]


def rand_str(rng, n=8):
    return "".join(rng.choice(ALPHABET) for _ in range(rng.randrange(n)))


def rand_float(rng):
    while True:
        f = struct.unpack("<d", struct.pack("<Q", rng.getrandbits(64)))[0]
        if math.isfinite(f):
            return f


SPECIAL_NUMBERS = [0, -1, 2**53, 2**53 + 1, -(2**53) - 1, 2**63 - 1, -(2**63), 2**63, 2**64 - 1, 1e21, 1e20, 1e-6, 1e-7, 5e-324, -0.0, 0.1 + 0.2, 100.0, 1.5e300, 1.7976931348623157e308, 123456789012345680000.0]


def rand_value(rng, depth=0, big_ints=True):
    kind = rng.randrange(9 if depth < 4 else 6)
    if kind == 0:
        return rand_str(rng)
    if kind == 1:
        return rng.choice(SPECIAL_NUMBERS if big_ints else [x for x in SPECIAL_NUMBERS if not isinstance(x, int) or abs(x) < 2**63])
    if kind == 2:
        return rand_float(rng)
    if kind == 3:
        return rng.randrange(-(2**40), 2**40)
    if kind == 4:
        return rng.choice([True, False, None])
    if kind == 5:
        return rand_str(rng, 40)
    if kind in (6, 7):
        return {rand_str(rng, 5): rand_value(rng, depth + 1, big_ints) for _ in range(rng.randrange(6))}
    return [rand_value(rng, depth + 1, big_ints) for _ in range(rng.randrange(6))]


def go_html(escape_html):
    """go's keywords for HTML escaping on or off: on is go's own setting,
    which dumps refuses to be told (an option that changes nothing)."""
    return {} if escape_html else {"escape_html": False}


def test_go_equals_go_on_generated_hostile_values():
    rng = random.Random(1)
    values = [rand_value(rng) for _ in range(400)]
    for escape_html in (True, False):
        expected = go([one_line(v) for v in values], escape_html=escape_html)
        for v, e in zip(values, expected):
            assert not isinstance(e, OracleError), (v, e)
            assert jetjson.dumps(v, profile="go", **go_html(escape_html)) == e, v


def test_jcs_equals_node_on_generated_hostile_values():
    rng = random.Random(2)
    values = [rand_value(rng) for _ in range(400)]
    expected = node_jcs([one_line(v) for v in values])
    for v, e in zip(values, expected):
        assert jetjson.dumps(v, profile="jcs") == e, v


def test_floats_equal_go_and_node_bit_for_bit():
    rng = random.Random(3)
    floats = [rand_float(rng) for _ in range(3000)] + [x for x in SPECIAL_NUMBERS if isinstance(x, float)]
    hexes = [format(struct.unpack("<Q", struct.pack("<d", f))[0], "x").encode() for f in floats]
    for f, e in zip(floats, go(hexes, mode="float64")):
        assert jetjson.dumps(f, profile="go") == e, f
    for f, e in zip(floats, node_jcs(hexes, mode="numbers")):
        assert jetjson.dumps(f, profile="jcs") == e, f
    for f in floats:
        assert jetjson.dumps(f) == orjson.dumps(f), f


def test_map_key_order_utf8_in_go_utf16_in_jcs():
    keys = ["😂", "\ufb33", "\ue000", "\U00010000", "a", "B", "é", "\u20ac", "aa", ""]
    obj = {k: i for i, k in enumerate(keys)}
    [expected] = go([one_line(keys)], mode="sortkeys")
    assert jetjson.dumps(obj, profile="go") == expected
    [expected] = node_jcs([one_line(obj)])
    assert jetjson.dumps(obj, profile="jcs") == expected
    # The two orders really differ on this input.
    assert jetjson.dumps(obj, profile="go", escape_html=False) != jetjson.dumps(obj, profile="jcs")
    assert list(json.loads(jetjson.dumps(obj, profile="jcs"))) == sorted(keys, key=lambda k: k.encode("utf-16-be"))
    assert list(json.loads(jetjson.dumps(obj, sort_keys=True))) == sorted(keys, key=lambda k: k.encode())
    # compact keeps insertion order unless asked.
    assert list(json.loads(jetjson.dumps(obj))) == keys


def test_escapes_per_profile():
    s = "<>&\u2028\u2029\x7f/\x08\x0c\n\r\t\x01\x1f\"\\é"
    assert jetjson.dumps(s) == b'"<>&\xe2\x80\xa8\xe2\x80\xa9\x7f/\\b\\f\\n\\r\\t\\u0001\\u001f\\"\\\\\xc3\xa9"'
    assert jetjson.dumps(s) == orjson.dumps(s)
    assert jetjson.dumps(s, profile="go") == b'"\\u003c\\u003e\\u0026\\u2028\\u2029\x7f/\\b\\f\\n\\r\\t\\u0001\\u001f\\"\\\\\xc3\xa9"'
    assert jetjson.dumps(s, profile="go", escape_html=False) == b'"<>&\\u2028\\u2029\x7f/\\b\\f\\n\\r\\t\\u0001\\u001f\\"\\\\\xc3\xa9"'
    assert jetjson.dumps(s, profile="jcs") == jetjson.dumps(s)
    assert jetjson.dumps(s, escape_html=True) == b'"\\u003c\\u003e\\u0026\\u2028\\u2029\x7f/\\b\\f\\n\\r\\t\\u0001\\u001f\\"\\\\\xc3\xa9"'
    assert jetjson.dumps("é😂", ascii_only=True) == b'"\\u00e9\\ud83d\\ude02"'
    # DEL too, as json's ensure_ascii escapes it.
    assert jetjson.dumps("é😂\x7f", ascii_only=True) == json.dumps("é😂\x7f").encode()


def test_short_and_long_strings_escape_alike():
    # Short clean strings take a copy path; every length and position of an
    # escapable byte must still come out as orjson writes it.
    for n in range(0, 70):
        for bad in ['"', "\\", "\x00", "<", "é", "\u2028"]:
            for pos in {0, n // 2, max(n - 1, 0)}:
                s = "".join(bad if i == pos else "x" for i in range(n))
                assert jetjson.dumps([s, {s: s}]) == orjson.dumps([s, {s: s}]), repr(s)
                assert json.loads(jetjson.dumps(s, profile="go")) == s


def test_lone_surrogates_error_except_in_go_which_repairs_per_byte_like_go():
    for s, at in [("\ud800", 0), ("a\udfffb", 1), ("\ud83d", 0), ("x\ud800\udc00"[0:2], 1)]:
        for profile in ("compact", "jcs"):
            # Said as loads says it, with where: the path and the index.
            with pytest.raises(jetjson.JSONEncodeError, match=rf"^\$\[0\]: lone surrogate in str at index {at} \(not valid Unicode text; profile \"{profile}\""):
                jetjson.dumps([s], profile=profile)
            with pytest.raises(jetjson.JSONEncodeError, match=rf"^\$\.k: lone surrogate in str at index {at} "):
                jetjson.dumps({"k": s}, profile=profile)
        raw = s.encode("utf-8", "surrogatepass")
        [expected] = go([__import__("base64").b64encode(raw)], mode="string")
        assert jetjson.dumps(s, profile="go") == expected
        assert jetjson.dumps({s: 1}, profile="go") == b"{" + expected + b":1}"
        assert jetjson.dumps({s: 1, "a": 2}, profile="go") == b'{"a":2,' + expected + b":1}"


# ---------------------------------------------------------------- numbers


def test_integers_per_profile():
    for v in [0, -1, 2**31, 2**63 - 1, -(2**63), 2**63, 2**64 - 1]:
        for p in PROFILES[:2]:
            assert jetjson.dumps(v, profile=p) == str(v).encode()
    # Beyond 64 bits: exact in compact and in go, as Go writes a *big.Int.
    big = [2**64, -(2**63) - 1, 10**40, -(10**100), 2**200 + 1]
    expected = go([one_line([v]) for v in big], mode="bignum")
    for v, e in zip(big, expected):
        assert jetjson.dumps(v) == str(v).encode()
        assert jetjson.dumps([v], profile="go") == e == f"[{v}]".encode()
    # jcs: numbers are doubles (as JSON.parse then JSON.stringify does).
    values = [2**53 + 1, 2**63, 2**64, -(2**64) - 5, 10**30, 123456789012345678901234567890]
    expected = node_jcs([str(v).encode() for v in values])
    for v, e in zip(values, expected):
        assert jetjson.dumps(v, profile="jcs") == e, v
    with pytest.raises(jetjson.JSONEncodeError, match="out of range"):
        jetjson.dumps(10**400, profile="jcs")


def test_bool_is_not_an_int():
    assert jetjson.dumps([True, False, None]) == b"[true,false,null]"


def test_nan_policy():
    for v in [math.nan, math.inf, -math.inf]:
        for p in PROFILES:
            with pytest.raises(jetjson.JSONEncodeError, match=f'is not allowed in profile "{p}"'):
                jetjson.dumps(v, profile=p)
        assert jetjson.dumps([v], nan="null") == b"[null]"
        # go and jcs always refuse NaN: nan="null" cannot change their
        # bytes, so it is refused as an option (rules.rs), before writing.
        for p in ("go", "jcs"):
            with pytest.raises(ValueError, match=f'^nan="null" cannot be used with profile "{p}"'):
                jetjson.dumps([v], profile=p, nan="null")
    with pytest.raises(ValueError):
        jetjson.dumps(1.0, nan="zero")


def test_float_layouts():
    cases = {1e21: (b"1e+21", b"1e+21", b"1e+21"), 1e20: (b"1e+20", b"100000000000000000000", b"100000000000000000000"),
             1e-7: (b"1e-7", b"1e-7", b"1e-7"), -0.0: (b"-0.0", b"-0", b"0"), 100.0: (b"100.0", b"100", b"100"),
             0.000001: (b"1e-6", b"0.000001", b"0.000001")}
    for f, outs in cases.items():
        assert tuple(jetjson.dumps(f, profile=p) for p in PROFILES) == outs, f


# ---------------------------------------------------------------- other types


@dataclasses.dataclass
class Item:
    zeta: int
    alpha: str
    price: float = 1.5
    tags: list = dataclasses.field(default_factory=list)
    skip: dataclasses.InitVar[int] = 0
    ignored: typing.ClassVar[int] = 9


@dataclasses.dataclass(frozen=True, slots=True)
class Frozen:
    b: int
    a: "Item | None" = None


def test_dataclasses_keep_field_order_like_go_structs():
    obj = {"z": Item(1, "x", tags=[Frozen(2)]), "a": Frozen(3, Item(4, "<"))}
    assert jetjson.dumps(obj) == b'{"z":{"zeta":1,"alpha":"x","price":1.5,"tags":[{"b":2,"a":null}]},"a":{"b":3,"a":{"zeta":4,"alpha":"<","price":1.5,"tags":[]}}}'
    # go: the dict is sorted (a Go map), the dataclasses are not (Go structs).
    assert jetjson.dumps(obj, profile="go") == b'{"a":{"b":3,"a":{"zeta":4,"alpha":"\\u003c","price":1.5,"tags":[]}},"z":{"zeta":1,"alpha":"x","price":1.5,"tags":[{"b":2,"a":null}]}}'
    assert jetjson.dumps(obj, sort_keys=True) == orjson.dumps(json.loads(jetjson.dumps(obj)), option=orjson.OPT_SORT_KEYS)
    assert jetjson.dumps(obj, profile="jcs") == jetjson.dumps(json.loads(jetjson.dumps(obj)), profile="jcs")
    assert jetjson.dumps(obj) == orjson.dumps(obj)
    # The class itself is not an instance.
    with pytest.raises(jetjson.JSONEncodeError, match="Type is not JSON serializable: type"):
        jetjson.dumps(Item)


def test_dataclass_field_names_are_read_once_but_values_each_time():
    a, b = Item(1, "a"), Item(2, "b")
    assert jetjson.dumps([a, b]) == b'[{"zeta":1,"alpha":"a","price":1.5,"tags":[]},{"zeta":2,"alpha":"b","price":1.5,"tags":[]}]'
    a.zeta = 10
    assert jetjson.dumps(a).startswith(b'{"zeta":10,')


class Color(enum.Enum):
    RED = "red"
    ONE = 1
    NESTED = {"k": [1.5]}


class Level(enum.IntEnum):
    HIGH = 3


class Name(str, enum.Enum):
    X = "x<"


def test_enums_are_their_values():
    assert jetjson.dumps([Color.RED, Color.ONE, Color.NESTED, Level.HIGH, Name.X]) == b'[\"red\",1,{"k":[1.5]},3,"x<"]'
    assert jetjson.dumps({"c": Name.X}, profile="go") == b'{"c":"x\\u003c"}'
    assert jetjson.dumps([Color.RED, Level.HIGH]) == orjson.dumps([Color.RED, Level.HIGH])


def test_datetimes():
    utc = datetime.timezone.utc
    plus2 = datetime.timezone(datetime.timedelta(hours=2, minutes=30))
    cases = [
        datetime.datetime(2024, 5, 1, 12, 30, 0),
        datetime.datetime(2024, 5, 1, 12, 30, 0, 120000),
        datetime.datetime(2024, 5, 1, 12, 30, 0, tzinfo=utc),
        datetime.datetime(2024, 5, 1, 12, 30, 0, 1, tzinfo=plus2),
        datetime.datetime(1, 1, 1, tzinfo=datetime.timezone(-datetime.timedelta(hours=5))),
        datetime.date(2024, 2, 29),
        datetime.date(5, 1, 2),
        datetime.time(23, 59, 59, 999999),
        datetime.time(1, 2, tzinfo=utc),
    ]
    for v in cases:
        assert jetjson.dumps(v) == json.dumps(v.isoformat()).encode(), v
        assert jetjson.dumps(v, profile="jcs") == json.dumps(v.isoformat()).encode(), v
    # orjson writes the same text for aware and naive datetimes and dates.
    assert jetjson.dumps(cases[:7]) == orjson.dumps(cases[:7])
    # go: Go's time.Time layout (RFC 3339 with nanoseconds): Z, trimmed fraction.
    go_expected = [b'"2024-05-01T12:30:00"', b'"2024-05-01T12:30:00.12"', b'"2024-05-01T12:30:00Z"',
                   b'"2024-05-01T12:30:00.000001+02:30"', b'"0001-01-01T00:00:00-05:00"', b'"2024-02-29"', b'"0005-01-02"',
                   b'"23:59:59.999999"', b'"01:02:00+00:00"']
    assert [jetjson.dumps(v, profile="go") for v in cases] == go_expected


def test_uuid_decimal_bytes():
    u = uuid.UUID("12345678-9ABC-DEF0-1234-56789abcdef0")
    assert jetjson.dumps(u) == b'"12345678-9abc-def0-1234-56789abcdef0"' == orjson.dumps(u)
    assert jetjson.dumps([decimal.Decimal("1.50"), decimal.Decimal("-0"), decimal.Decimal("1E+2"), decimal.Decimal("12345678901234567890.123456789")]) == b"[1.50,-0,1E+2,12345678901234567890.123456789]"
    assert jetjson.dumps(decimal.Decimal("1.50"), profile="jcs") == b"1.5"
    assert jetjson.dumps(decimal.Decimal("1E+2"), profile="go") == b"1E+2"
    for d in ["NaN", "sNaN", "Infinity", "-Infinity"]:
        with pytest.raises(jetjson.JSONEncodeError, match="is not allowed"):
            jetjson.dumps([decimal.Decimal(d)])
        assert jetjson.dumps([decimal.Decimal(d)], nan="null") == b"[null]"
    [expected] = go([b"aGk/Pg=="], mode="bytes")
    assert jetjson.dumps(b"hi?>", profile="go") == expected == b'"aGk/Pg=="'
    assert jetjson.dumps([b""], profile="go") == b'[""]'
    for p in ("compact", "jcs"):
        with pytest.raises(jetjson.JSONEncodeError, match=r'^\$\[0\]: bytes is not supported in profile'):
            jetjson.dumps([b"x"], profile=p)
        assert jetjson.dumps([b"x"], profile=p, default=lambda b: b.hex()) == b'["78"]'


class MyStr(str):
    def __str__(self):
        return "nope"


class MyInt(int):
    pass


class MyFloat(float):
    pass


class MyDict(dict):
    pass


class MyList(list):
    pass


def test_subclasses_of_builtins():
    obj = MyDict(b=MyList([MyStr("s"), MyInt(5), MyFloat(2.5), MyInt(2**70)]), a=collections.OrderedDict(x=1))
    assert jetjson.dumps(obj) == b'{"b":["s",5,2.5,1180591620717411303424],"a":{"x":1}}'
    assert jetjson.dumps(obj, profile="go") == b'{"a":{"x":1},"b":["s",5,2.5,1180591620717411303424]}'
    del obj["b"][3]
    assert jetjson.dumps(obj, profile="go") == b'{"a":{"x":1},"b":["s",5,2.5]}'
    assert jetjson.dumps({MyStr("k"): 1}) == b'{"k":1}'
    assert jetjson.dumps((1, (2, "x"), [])) == b'[1,[2,"x"],[]]'
    # namedtuples are arrays, as json writes them (test_hostile.py has more).
    Point = collections.namedtuple("Point", "x y")
    assert jetjson.dumps(Point(1, 2)) == b"[1,2]"


# ---------------------------------------------------------------- default


def test_default_converts_and_its_result_is_written_with_the_profile():
    class Money:
        def __init__(self, v):
            self.v = v

    out = jetjson.dumps({"b": Money(1.0), "a": [Money("<")]}, profile="go", default=lambda m: {"v": m.v, "cur": "€"})
    assert out == '{"a":[{"cur":"€","v":"\\u003c"}],"b":{"cur":"€","v":1}}'.encode()


def test_default_exceptions_propagate_unchanged():
    class Boom(Exception):
        pass

    def default(o):
        raise Boom("no")

    with pytest.raises(Boom, match="no"):
        jetjson.dumps([object()], default=default)
    with pytest.raises(TypeError, match="callable"):
        jetjson.dumps([1], default=3)


def test_default_chains_are_bounded():
    class Loop:
        pass

    with pytest.raises(jetjson.JSONEncodeError, match=r"^\$\[0\]: default called 255 levels deep: its results keep needing default \(last type: Loop\)$"):
        jetjson.dumps([Loop()], default=lambda o: o)
    # Results that nest the object again stop at the same bound.
    with pytest.raises(jetjson.JSONEncodeError, match=r"^\$(\[0\]){32}\.\.\.\(192 more levels\)\.\.\.(\[0\]){32}: default called 255 levels deep"):
        jetjson.dumps([Loop()], default=lambda o: [o])
    # As many applications as orjson allows (255), and not one more.
    for allowed in (255, 256):
        calls = iter(range(1000))
        out = outcome = None
        try:
            out = jetjson.dumps(Loop(), default=lambda o: o if next(calls) < allowed - 1 else "done")
        except jetjson.JSONEncodeError as e:
            outcome = e
        assert (out == b'"done"') == (allowed == 255), (allowed, out, outcome)
    # A chain shorter than the cap is fine.
    count = iter(range(10))
    assert jetjson.dumps(Loop(), default=lambda o: o if next(count) < 9 else "done") == b'"done"'


def test_unsupported_types_name_the_type():
    with pytest.raises(jetjson.JSONEncodeError, match=r"^\$\.a\[1\]: Type is not JSON serializable: set"):
        jetjson.dumps({"a": [1, {1}]})
    assert issubclass(jetjson.JSONEncodeError, TypeError)


# ---------------------------------------------------------------- errors and paths


def test_error_paths_name_the_offending_value():
    obj = {"items": [{"price": 1.0}, {"price": 2.0}, {}, {"price": math.nan}]}
    with pytest.raises(jetjson.JSONEncodeError) as e:
        jetjson.dumps(obj, profile="go")
    assert str(e.value) == '$.items[3].price: NaN is not allowed in profile "go"'
    with pytest.raises(jetjson.JSONEncodeError) as e:
        jetjson.dumps({"a b": {"x": [[math.inf]]}}, profile="jcs")
    assert str(e.value) == '$["a b"].x[0][0]: Infinity is not allowed in profile "jcs"'
    with pytest.raises(jetjson.JSONEncodeError) as e:
        jetjson.dumps(Frozen(b=math.nan))
    assert str(e.value) == '$.b: NaN is not allowed in profile "compact"'
    with pytest.raises(jetjson.JSONEncodeError) as e:
        jetjson.dumps(-math.inf, profile="go")
    assert str(e.value) == '$: -Infinity is not allowed in profile "go"'
    # Sorted objects name the key too.
    with pytest.raises(jetjson.JSONEncodeError, match=r'^\$\.z\.y: NaN'):
        jetjson.dumps({"z": {"y": math.nan, "a": 1}, "b": 2}, profile="go")


def test_non_str_keys_are_errors():
    for p in PROFILES:
        for key in [1, None, 1.5, (1,), b"k"]:
            with pytest.raises(jetjson.JSONEncodeError, match=r"^\$\.a: dict keys must be str, not"):
                jetjson.dumps({"a": {"x": 1, key: 2}}, profile=p)


def test_deep_nesting_is_an_error_not_a_crash():
    for make in (lambda x: [x], lambda x: {"k": x}, lambda x: (x,), lambda x: Frozen(1, x)):
        obj = None
        for _ in range(100_000):
            obj = make(obj)
        for p in PROFILES:
            with pytest.raises(jetjson.JSONEncodeError, match="nesting deeper than max_write_depth 512"):
                jetjson.dumps(obj, profile=p)
        del obj
    obj = []
    for _ in range(511):
        obj = [obj]
    assert jetjson.dumps(obj) == b"[" * 512 + b"]" * 512


def test_option_errors():
    with pytest.raises(ValueError, match="unknown profile"):
        jetjson.dumps(1, profile="yaml")
    with pytest.raises(ValueError, match="indent"):
        jetjson.dumps(1, indent=-1)
    for kw in [{"indent": 2}, {"ascii_only": True}, {"escape_html": True}]:
        with pytest.raises(ValueError, match="jcs"):
            jetjson.dumps(1, profile="jcs", **kw)
    # The profile may be given positionally, as in canonicalize and digest;
    # the other options are keyword-only.
    assert jetjson.dumps({"b": 1, "a": 2}, "go") == b'{"a":2,"b":1}'
    with pytest.raises(TypeError, match="at most 2 positional"):
        jetjson.dumps(1, "go", True)
    with pytest.raises(TypeError, match="multiple values for argument 'profile'"):
        jetjson.dumps(1, "go", profile="go")
    with pytest.raises(TypeError, match="unexpected keyword argument 'sortkeys'"):
        jetjson.dumps(1, sortkeys=True)
    with pytest.raises(TypeError, match="profile must be a str"):
        jetjson.dumps(1, profile=3)
    with pytest.raises(TypeError, match="indent must be an int, a str of spaces or tabs, or None, not bool"):
        jetjson.dumps(1, indent=True)
    # Flags take any object's truth value, as json's do.
    assert jetjson.dumps({"b": 1, "a": 2}, sort_keys=1) == b'{"a":2,"b":1}'
    assert jetjson.dumps({"b": 1, "a": 2}, sort_keys=[]) == b'{"b":1,"a":2}'


def test_indent_matches_python_json():
    obj = {"a": [1, 2, {"b": None, "c": []}], "d": {}, "e": "é"}
    for n in (1, 2, 4):
        assert jetjson.dumps(obj, indent=n) == json.dumps(obj, indent=n, ensure_ascii=False).encode()
    assert jetjson.dumps(obj, indent=2) == orjson.dumps(obj, option=orjson.OPT_INDENT_2)
    assert jetjson.dumps(obj, indent=0) == jetjson.dumps(obj)


def test_indent_is_capped_at_16_in_every_function():
    # Output grows by depth x indent per line: a cap, refused (not clamped)
    # above 16 spaces, as in the core and the CLI.
    obj = [[{"a": [1]}]]
    assert jetjson.dumps(obj, indent=16) == json.dumps(obj, indent=16).encode()
    assert jetjson.canonicalize(b'[[{"a":[1]}]]', "go", indent=16) == jetjson.dumps(obj, profile="go", indent=16)
    calls = [
        lambda n: jetjson.dumps(obj, indent=n),
        lambda n: jetjson.dumps(obj, profile="go", indent=n),
        lambda n: jetjson.canonicalize(b"[1]", "go", indent=n),
        lambda n: jetjson.digest(obj, "go", indent=n),
    ]
    for call in calls:
        for n in (17, 1024, 65535, 1 << 40):
            with pytest.raises(ValueError, match="indent must be None or an int from 0 to 16, got %d" % n):
                call(n)


# ---------------------------------------------------------------- threads and mutation


def test_threads_give_the_same_bytes():
    obj = json.loads(BENCH["github_events"].read_bytes())
    expected = {p: jetjson.dumps(obj, profile=p) for p in PROFILES}
    failures = []

    def work(p):
        for _ in range(30):
            if jetjson.dumps(obj, profile=p) != expected[p]:
                failures.append(p)

    threads = [threading.Thread(target=work, args=(p,)) for p in PROFILES * 2]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []


def test_default_that_mutates_the_containers_does_not_crash():
    victim = [1, 2, 3]
    d = {"a": 1, "b": object(), "c": 3}

    def default(o):
        victim.clear()
        d.clear()
        return "gone"

    out = jetjson.dumps([{"x": object()}, victim], default=default)
    assert out == b'[{"x":"gone"},[]]'
    # A dict changed while it is written is an error (test_hostile.py).
    for p in PROFILES:
        d.update(a=1, b=object(), c=3)
        with pytest.raises(RuntimeError, match=r"^\$: dict changed while dumps was writing it$"):
            jetjson.dumps(d, profile=p, default=default)


def test_default_that_mutates_a_dict_of_a_cached_shape_is_an_error():
    # A sorted dict whose shape is cached is read from its table member by
    # member; a callback that changes the dict meanwhile must be noticed.
    class Marker:
        pass

    for p in ("go", "jcs"):
        # A fresh dict each time, with the same (interned) key objects.
        d = {"a": Marker(), "b": 1, "c": 2}
        # First call: the shape is sorted and cached.
        assert json.loads(jetjson.dumps(d, profile=p, default=lambda o: 0)) == {"a": 0, "b": 1, "c": 2}

        def default(o):
            d.pop("b", None)
            return 0

        with pytest.raises(RuntimeError, match="changed"):
            jetjson.dumps(d, profile=p, default=default)


def test_insertion_order_dicts_written_again_keep_their_bytes():
    # Dicts written in insertion order get a cached shape (encoded names)
    # the second time their key objects come; every call must give the same
    # bytes as the member-by-member walk, whatever the names and sizes.
    keys = ["id", "a" * 28, "b" * 29, "<html>&", 'q"\\', "é\u2028😂", "\x01", "x" * 70, ""]
    rng = random.Random(5)
    rows = []
    for i in range(200):
        ks = keys[:]
        rng.shuffle(ks)
        rows.append({k: [i, k] for k in ks[: rng.randrange(2, len(keys) + 1)]})
    big = {f"key{i}": i for i in range(300)}
    doc = [rows, rows[:50], big, big]
    # The core writer over the parsed text (no Python objects, no shapes) is
    # the reference for each escape set and layout.
    text = orjson.dumps(doc)
    variants = [{}, {"escape_html": True}, {"ascii_only": True}, {"indent": 2}]
    expected = [jetjson.canonicalize(text, "compact", **kw) for kw in variants]
    assert expected[0] == text
    for _ in range(3):
        for kw, exp in zip(variants, expected):
            assert jetjson.dumps(doc, **kw) == exp, kw


def test_default_that_mutates_an_insertion_order_dict_acts_the_same_every_call():
    # The first calls walk the dict member by member; later ones write it
    # from its cached shape. A callback that changes the dict meanwhile must
    # give the same result either way.
    class Marker:
        pass

    def run(change):
        d = {"a": 1, "b": Marker(), "c": 3, "d": 4}

        def default(o):
            change(d)
            return 0

        try:
            return jetjson.dumps(d, default=default)
        except Exception as e:  # noqa: BLE001 - the outcome is compared
            return type(e), str(e)

    for change in (
        lambda d: d.pop("d", None),
        lambda d: d.pop("a", None),
        lambda d: d.update(e=5),
        lambda d: d.clear(),
        lambda d: d.update(d=40),
    ):
        outcomes = [run(change) for _ in range(4)]
        assert outcomes.count(outcomes[0]) == 4, outcomes


def test_insertion_order_keys_with_lone_surrogates_every_call():
    # A key with no UTF-8 form is an error in compact on every call (such
    # dicts get no shape), also once a dict of the same keys minus that one
    # has been cached.
    ok = {"ok": 1, "fine": 2}
    bad = {"ok": 1, "bad\ud800": 2}
    for _ in range(4):
        assert jetjson.dumps([ok, ok]) == orjson.dumps([ok, ok])
        with pytest.raises(jetjson.JSONEncodeError):
            jetjson.dumps([bad, bad])


def test_reference_counts_are_unchanged():
    objs = [object() for _ in range(3)]
    s, k = "value" * 3, "key-é"
    doc = {k: [s, objs[0], {"z": objs[1], "a": s}], "n": 2**62}
    before = [sys.getrefcount(x) for x in (*objs, s, doc)]

    def calls(n):
        for p in PROFILES:
            for _ in range(n):
                jetjson.dumps(doc, profile=p, default=lambda o: "o")
                with pytest.raises(jetjson.JSONEncodeError):
                    jetjson.dumps(doc, profile=p)

    key_refs = sys.getrefcount(k)
    # Keys may be held by the shape cache: one reference per cached shape
    # (here at most one per profile), kept between calls and dropped when a
    # shape is evicted. More calls add none.
    for n in (1, 200):
        calls(n)
        assert key_refs <= sys.getrefcount(k) <= key_refs + len(PROFILES), n
    after = [sys.getrefcount(x) for x in (*objs, s, doc)]
    assert before == after


def test_sorted_dicts_sharing_key_objects_in_any_order():
    # Sorted dicts may reuse the order found for an earlier dict with the same
    # key objects; dicts whose keys come in another order must not.
    keys = ["b", "a", "c", "é", "😂", "\ufb33", "\ue000", "<"]
    rng = random.Random(9)
    rows = []
    for i in range(300):
        ks = keys[:]
        rng.shuffle(ks)
        rows.append({k: i for k in ks[: rng.randrange(2, len(keys) + 1)]})
    rows += rows[:40]
    for escape_html in (True, False):
        expected = go([one_line(rows)], escape_html=escape_html)[0]
        assert jetjson.dumps(rows, profile="go", **go_html(escape_html)) == expected
    assert jetjson.dumps(rows, profile="jcs") == node_jcs([one_line(rows)])[0]
    assert jetjson.dumps(rows, sort_keys=True) == orjson.dumps(rows, option=orjson.OPT_SORT_KEYS)


def test_large_sorted_dicts_written_again_stay_exact():
    # Dicts beyond 64 keys are kept in the shape cache from their second
    # sighting on; each call must still give the sorted bytes, also after
    # the dict changes.
    big = {f"k{(i * 7919) % 1000:04}<&>": [i, {"z": i, "a": str(i)}] for i in range(1000)}
    for _ in range(4):
        for escape_html in (True, False):
            expected = orjson.dumps(big, option=orjson.OPT_SORT_KEYS)
            if escape_html:
                expected = expected.replace(b"<", b"\\u003c").replace(b">", b"\\u003e").replace(b"&", b"\\u0026")
            assert jetjson.dumps(big, profile="go", **go_html(escape_html)) == expected
        assert jetjson.dumps(big, sort_keys=True) == orjson.dumps(big, option=orjson.OPT_SORT_KEYS)
        big[f"new{len(big)}"] = None
        del big[next(iter(big))]


def test_ints_around_digit_boundaries_equal_orjson():
    # Ints of up to two 30-bit digits are read from the object directly on
    # CPython 3.11; every width and sign must still come out exactly.
    rng = random.Random(11)
    edges = [s * (2**b + d) for b in (0, 15, 29, 30, 31, 59, 60, 61, 62) for d in (-1, 0, 1) for s in (1, -1)]
    vals = edges + [rng.randrange(-(2**63), 2**64) >> rng.randrange(64) for _ in range(20000)]
    vals = [v for v in vals if -(2**63) <= v < 2**64] + [MyInt(2**40), MyInt(-5), True, False]
    for p in ("compact", "go"):
        assert jetjson.dumps(vals, profile=p) == orjson.dumps(vals)


def test_ordered_dict_keeps_its_own_order():
    d = collections.OrderedDict(a=1, b=2, c=3)
    d.move_to_end("a")
    assert list(d) == ["b", "c", "a"]
    assert jetjson.dumps(d) == b'{"b":2,"c":3,"a":1}' == json.dumps(d, separators=(",", ":")).encode()
    assert jetjson.dumps({"x": [d]}, profile="go") == b'{"x":[{"a":1,"b":2,"c":3}]}'


def test_dicts_with_deleted_entries_and_instance_dicts_read_like_json():
    # Deleted entries leave holes in CPython's entry table; instance
    # __dict__s may be split tables sharing their keys with the class.
    d = {f"k{i}": i for i in range(40)}
    for i in range(0, 40, 3):
        del d[f"k{i}"]
    d["late"] = "x"

    class Point:
        def __init__(self, x, y):
            self.x = x
            self.y = y

    points = [vars(Point(i, -i)) for i in range(5)]
    for value in (d, points, {"d": d, "points": points}):
        want = json.dumps(value, separators=(",", ":")).encode()
        assert jetjson.dumps(value) == want
        assert jetjson.dumps(value, profile="go") == json.dumps(value, separators=(",", ":"), sort_keys=True).encode()


def test_outputs_around_the_spill_size_are_whole():
    # The writer hands output over in chunks of about 32 KiB; documents just
    # below, at and above that size (and many times it) must come out whole.
    for n in (32 * 1024 - 40, 32 * 1024 - 8, 32 * 1024, 32 * 1024 + 7, 100_000, 1_000_003):
        s = "a" * n
        assert jetjson.dumps(s) == b'"' + s.encode() + b'"'
        items = ["x" * 13] * (n // 16)
        assert jetjson.dumps(items) == json.dumps(items, separators=(",", ":")).encode()


def test_cached_key_orders_follow_each_calls_profile():
    # The same key objects sort differently by UTF-8 (go) and UTF-16 (jcs):
    # U+FFFF < U+10000 in code points, but not in UTF-16 code units. Orders
    # kept between calls must not leak from one profile into the other.
    hi, bmp = "\U00010000", "\uffff"
    doc = {hi: 1, bmp: 2}
    go_want = json.dumps({bmp: 2, hi: 1}, ensure_ascii=False, separators=(",", ":")).encode()
    jcs_want = json.dumps({hi: 1, bmp: 2}, ensure_ascii=False, separators=(",", ":")).encode()
    for _ in range(3):
        assert jetjson.dumps(doc, profile="go") == go_want
        assert jetjson.dumps(doc, profile="jcs") == jcs_want
        assert jetjson.dumps(doc, sort_keys=True) == go_want


def test_results_of_every_size_in_any_order_are_exact():
    # The result object starts at the capacity the previous call reached and
    # keeps up to a quarter of it unused (its size set in place): outputs that
    # grow, shrink and repeat must still be exact, NUL-terminated bytes.
    rng = random.Random(5)
    sizes = [0, 1, 2, 200, 255, 256, 257, 4096, 5000, 70_000, 1 << 20, 3, 1 << 20, 900_000, 10, 700_000]
    sizes += [rng.randrange(0, 300_000) for _ in range(40)]
    for n in sizes:
        obj = ["x" * (n % 97)] * (n // 100) if n >= 100 else "y" * n
        out = jetjson.dumps(obj)
        assert out == orjson.dumps(obj)
        assert bytes(out) == out and len(out) == len(orjson.dumps(obj))
        # A bytes object's buffer protocol exposes its exact length.
        assert memoryview(out).nbytes == len(out)


def test_many_dataclass_types_written_again_and_again():
    # Dataclass types are kept (up to 32, then replaced in turn) with their
    # field names encoded per style; instances of 40 types interleaved, in
    # several styles and rounds, must always give the bytes of the same
    # fields written as a dict in field order.
    names = ["id", "é_ñ", "Ünïcode", "_q", "n" * 40, "a", "z", "ÿ"]
    types = []
    for t in range(40):
        fields = [names[(t + i) % len(names)] + str(i) for i in range(1 + t % 6)]
        types.append(dataclasses.make_dataclass(f"Rec{t}", [(f, object) for f in fields]))
    objs = [cls(*[f"v{i}<{j}>" if j % 2 else i * 1000 + j for j in range(len(dataclasses.fields(cls)))]) for i, cls in enumerate(types)]
    styles = [{}, {"escape_html": True}, {"ascii_only": True}, {"indent": 2}, {"sort_keys": True}, {"profile": "jcs"}]
    for _ in range(3):
        for style in styles:
            for o in objs + objs[::-1]:
                # Fields named with a leading "_" are private: left out.
                as_dict = {f.name: getattr(o, f.name) for f in dataclasses.fields(o) if not f.name.startswith("_")}
                assert jetjson.dumps(o, **style) == jetjson.dumps(as_dict, **style), (type(o).__name__, style)


def test_lists_of_records_with_repeating_and_changing_shapes_equal_orjson():
    # Dicts in a list are matched against the shape of the dict before them
    # by their key objects (then written with its cached names). Runs of one
    # shape, the same key objects in another order, equal but distinct key
    # strings, nested lists of records and every small value kind must all
    # give orjson's bytes.
    rng = random.Random(11)
    names = ["areaId", "blockIds", "id", "n" * 28, "m" * 29, "é", "<b>", 'q"', "", "k9", "k10"]
    twins = ["".join(list(k)) for k in names]  # equal strings, other objects
    small = [0, 7, -7, 205705993, 2**31, 2**40, -(2**59), 2**60, -(2**60), 2**63, 10**30, None, True, False,
             [], {}, "", "Some short name", "x" * 31, "y" * 33, "é", "tab\t", "\u2028", 1.5, [1], {"z": 1}]
    for trial in range(60):
        width = rng.randrange(2, 11)
        keys = rng.sample(names, width)
        other = rng.sample(keys, width)  # the same key objects, in another order
        rows = []
        for i in range(rng.randrange(1, 40)):
            r = rng.random()
            ks = keys if r < 0.6 else other if r < 0.75 else [twins[names.index(k)] for k in keys] if r < 0.85 else rng.sample(names, rng.randrange(2, 11))
            row = {k: rng.choice(small) for k in ks}
            if rng.random() < 0.2:
                row[ks[0]] = [{k: rng.choice(small) for k in keys} for _ in range(rng.randrange(0, 4))]
            rows.append(row)
        doc = {"rows": rows, "again": rows[::-1], "tuple": tuple(rows)}
        try:
            expected = orjson.dumps(doc)
        except orjson.JSONEncodeError:  # ints beyond 64 bits
            expected = json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode()
        for _ in range(2):
            assert jetjson.dumps(doc) == expected, trial
        for kw in ({"escape_html": True}, {"indent": 2}, {"ascii_only": True}):
            assert jetjson.dumps(doc, **kw) == jetjson.canonicalize(expected, "compact", **kw), (trial, kw)


def test_sorted_lists_of_records_with_repeating_and_changing_shapes():
    # In go and jcs too, the dicts of a list are matched against the (sorted)
    # shape of the dict before them by their key objects, then written in
    # its cached order with its cached names. Runs of one shape, the same key
    # objects in another order (the same sorted order), equal but distinct
    # key strings, other key sets and nested lists of records must all give
    # the bytes the core writer gives for the parsed text.
    rng = random.Random(12)
    names = ["areaId", "blockIds", "id", "n" * 28, "m" * 29, "é", "<b>", 'q"', "", "k9", "k10", "\u2028x", "Z"]
    twins = ["".join(list(k)) for k in names]  # equal strings, other objects
    small = [0, 7, -7, 205705993, 2**31, -(2**60), None, True, False, [], {}, "", "Some <short> & name",
             "x" * 31, "y" * 33, "é", "tab\t", "\u2028", 1.5, [1], {"z": 1, "a": 2}]
    for trial in range(60):
        width = rng.randrange(2, 12)
        keys = rng.sample(names, width)
        other = rng.sample(keys, width)  # the same key objects, in another order
        rows = []
        for i in range(rng.randrange(1, 40)):
            r = rng.random()
            if r < 0.6:
                ks = keys
            elif r < 0.75:
                ks = other
            elif r < 0.85:
                ks = [twins[names.index(k)] for k in keys]
            else:
                ks = rng.sample(names, rng.randrange(1, 12))
            row = {k: rng.choice(small) for k in ks}
            if rng.random() < 0.2:
                row[ks[0]] = [{k: rng.choice(small) for k in keys} for _ in range(rng.randrange(0, 4))]
            rows.append(row)
        doc = {"rows": rows, "again": rows[::-1], "tuple": tuple(rows)}
        text = orjson.dumps(doc)
        for p in ("go", "jcs"):
            expected = jetjson.canonicalize(text, p)
            for _ in range(2):
                assert jetjson.dumps(doc, profile=p) == expected, (trial, p)


def test_default_that_mutates_a_sorted_record_of_a_list_is_an_error():
    # The last dicts of a list of one shape are written with the list's last
    # shape, read from their tables member by member: a callback that
    # changes such a dict meanwhile must be noticed, as for any cached shape.
    class Marker:
        pass

    for p in ("go", "jcs"):
        # The same (interned) key objects in every row.
        rows = [{"c": 1, "b": 2, "a": 3} for _ in range(4)]
        rows.append({"c": 1, "b": Marker(), "a": 3})
        assert json.loads(jetjson.dumps(rows, profile=p, default=lambda o: 0))[-1] == {"a": 3, "b": 0, "c": 1}

        def default(o):
            rows[-1].pop("c", None)
            return 0

        with pytest.raises(RuntimeError, match="changed"):
            jetjson.dumps(rows, profile=p, default=default)


def test_empty_containers_respect_the_depth_limit():
    # Empty lists and dicts (list items are written as literals with their
    # separator, past the walk that counts nesting; members of cached
    # shapes): the limit must hold exactly where it holds for any container.
    for empty in ([], {}):
        for k in (508, 509, 510, 511):
            for d in ({"a": empty, "b": 1}, {"b": 1, "a": empty}, [empty, 1], [1, empty]):
                doc = [d, d, d]
                for _ in range(k):
                    doc = [doc]
                if k + 3 > 512:
                    with pytest.raises(jetjson.JSONEncodeError, match="nesting deeper than max_write_depth 512"):
                        jetjson.dumps(doc)
                else:
                    assert jetjson.dumps(doc) == json.dumps(doc, separators=(",", ":")).encode()


# ------------------------------------------------- runs of scalar list items


def _scalar(rng):
    """A list item of the kinds written in runs (and some that end a run)."""
    k = rng.randrange(16)
    if k == 0:
        return rng.randrange(100)
    if k == 1:
        return rng.randrange(10**8, 10**9) * rng.choice((1, -1))
    if k == 2:
        e = rng.choice((30, 53, 59, 60, 61, 63, 64, 100))
        return rng.randrange(2 ** (e - 1), 2**e + 2) * rng.choice((1, -1))
    if k == 3:
        return rng.choice((0, -1, 2**60 - 1, -(2**60) + 1, 2**60, 2**63 - 1, -(2**63), 10**18))
    if k == 4:
        return rng.choice((rng.random(), rng.uniform(-1e300, 1e300), 1e-310, -0.0, 0.0, 1e16, 123.0))
    if k in (5, 6, 7):
        n = rng.choice((0, 1, 3, 8, 15, 16, 17, 30, 31, 32, 33, 34, 40))
        return "".join(rng.choice("abcdefghij0123456789 -_/") for _ in range(n))
    if k == 8:
        # One byte that needs escaping (or html-escaping, or non-ASCII)
        # somewhere in a short string.
        n = rng.randrange(1, 33)
        s = ["x"] * n
        s[rng.randrange(n)] = rng.choice(['"', "\\", "\n", "\x00", "\x1f", "<", ">", "&", "\x7f", "é", "\u2028", "😀"])
        return "".join(s)
    if k == 9:
        return None
    if k == 10:
        return rng.choice((True, False))
    if k == 11:
        return rng.choice(([], {}, [1, "a"], {"a": [1, None]}, (1, 2), 1.5))
    return rng.choice(("", "a", "name", "x" * 32, 7, 337184262, None, 2.5))


def _lists(seed, count):
    rng = random.Random(seed)
    for _ in range(count):
        n = rng.choice((0, 1, 3, 4, 5, 10, 100, 200, 1000, 3000))
        # Mostly one kind, as real lists are: long runs of it.
        if rng.random() < 0.5:
            kind = _scalar(rng)
            yield [kind if rng.random() < 0.9 else _scalar(rng) for _ in range(n)]
        else:
            yield [_scalar(rng) for _ in range(n)]


def test_list_item_runs_write_what_orjson_writes():
    written = 0
    for lst in _lists(1, 400):
        nested = {"a": lst, "b": [lst, lst[:3]]}
        for obj in (lst, nested):
            try:
                expected = orjson.dumps(obj)
            except TypeError:  # an int beyond 64 bits, which jetjson writes
                if obj is lst:
                    assert jetjson.dumps(lst) == b"[" + b",".join(jetjson.dumps(x) for x in lst) + b"]"
                continue
            assert jetjson.dumps(obj) == expected
            written += 1
    assert written > 300


def test_list_item_runs_write_what_single_items_write_in_every_profile():
    # Items written alone never go through a run: the list must be exactly
    # the items joined.
    for lst in _lists(2, 150):
        lst = [x for x in lst if not (isinstance(x, float) and not math.isfinite(x))]
        for kwargs in ({}, {"profile": "go"}, {"profile": "go", "escape_html": False}, {"profile": "jcs"}):
            try:
                expected = b"[" + b",".join(jetjson.dumps(x, **kwargs) for x in lst) + b"]"
            except jetjson.JSONEncodeError:  # an int out of the profile's range
                with pytest.raises(jetjson.JSONEncodeError):
                    jetjson.dumps(lst, **kwargs)
                continue
            assert jetjson.dumps(lst, **kwargs) == expected, kwargs


def test_list_item_runs_leave_errors_and_indents_to_the_general_path():
    for p in ("compact", "jcs"):  # go repairs lone surrogates
        with pytest.raises(jetjson.JSONEncodeError):
            jetjson.dumps([1, "a", None, True, "b\ud800", 2], profile=p)
    assert jetjson.dumps([1, "a", None, True, "b\ud800", 2], profile="go") == b'[1,"a",null,true,"b\\ufffd\\ufffd\\ufffd",2]'
    lst = [1, "a", None, True, 2.5, "x" * 40, 10**20]
    assert jetjson.dumps(lst, indent=2) == json.dumps(lst, indent=2).encode()


def test_a_failed_write_leaves_nothing_for_the_next_call_in_every_profile():
    # Calls with a profile's default options write in a writer kept between
    # calls (dumps/kept.rs). A write that fails half way (inside a list, a
    # dict, a sorted dict with members pending) must not leave its bytes,
    # open containers or pending members to the next call.
    class Boom(Exception):
        pass

    def boom(o):
        raise Boom()

    failing = [
        {"z": 1, "a": [1, 2, {"k": float("nan")}]},
        [{"b": 2, "a": [object()]}],
        {"y": {"x": {"w": object()}}},
    ]
    for profile in PROFILES:
        for doc in failing:
            for default in (None, boom):
                with pytest.raises((jetjson.JSONEncodeError, Boom)):
                    jetjson.dumps(doc, profile, default=default)
                for small in ([1], {"b": 1, "a": 2}, "x", 12):
                    want = jetjson.dumps(small, profile, sort_keys=True if profile == "go" else None)
                    assert jetjson.dumps(small, profile) == want
                    assert jetjson.dumps(small) == orjson.dumps(small)


def test_dumps_inside_default_gets_its_own_writer():
    # A `default` that calls dumps runs while the outer call's kept writer is
    # in use: the inner call must write elsewhere, and both results be whole,
    # in every profile and with outputs small and large.
    class Wrapped:
        def __init__(self, v):
            self.v = v

    def default(o):
        return {"inner": jetjson.dumps(o.v, "go").decode(), "again": jetjson.dumps(o.v).decode()}

    for big in (0, 5000):
        v = {"b": [1, "<x>"], "a": "y" * big}
        inner_go = json.dumps(dict(sorted(v.items())), separators=(",", ":")).replace("<", "\\u003c").replace(">", "\\u003e")
        inner = json.dumps(v, separators=(",", ":"))
        for profile in PROFILES:
            doc = {"k": [Wrapped(v), Wrapped(v)], "j": 1}
            got = json.loads(jetjson.dumps(doc, profile, default=default))
            assert got["k"] == [{"inner": inner_go, "again": inner}] * 2
            assert got["j"] == 1
        assert jetjson.dumps(doc, default=default) == orjson.dumps(doc, default=default)


def test_calls_with_options_take_the_writer_and_style_of_their_own_options():
    # Calls with options share a resolved style and a kept writer with the
    # calls of the same options (dumps/kept.rs, Kind::Custom; entry.rs,
    # option_key): at most four writers and eight styles are kept, so more
    # sets of options than that, interleaved, replace each other. Every
    # call must still give the bytes of its own options (each checked
    # against json, which has no such cache), options that differ only in
    # one field must not share, and a refused option set must still be
    # refused after a near one was kept.
    doc = {"z": [1, 2.5, "<é>"], "a": {"y": None, "b": True}}

    def json_bytes(sort_keys=False, indent=None, ascii_only=False):
        return json.dumps(doc, sort_keys=sort_keys, indent=indent, ensure_ascii=ascii_only, separators=None if indent is not None else (",", ":")).encode()

    sets = [
        ({"sort_keys": True}, json_bytes(sort_keys=True)),
        ({"indent": 2}, json_bytes(indent=2)),
        ({"indent": "  "}, json_bytes(indent=2)),
        ({"indent": "\t"}, json_bytes(indent="\t")),
        ({"indent": 1}, json_bytes(indent=1)),
        ({"indent": 3, "sort_keys": True}, json_bytes(sort_keys=True, indent=3)),
        ({"ascii_only": True}, json_bytes(ascii_only=True)),
        ({"ascii_only": True, "sort_keys": True}, json_bytes(sort_keys=True, ascii_only=True)),
        ({"indent": 0}, json_bytes()),
        ({"nan": "null"}, json_bytes()),
        ({"max_write_depth": 3}, json_bytes()),
    ]
    go_sorted = json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=False).replace("<", "\\u003c").replace(">", "\\u003e").encode()
    go_sets = [
        ({"profile": "go", "escape_html": False}, go_sorted.replace(b"\\u003c", b"<").replace(b"\\u003e", b">")),
        ({"profile": "go", "sort_keys": True}, go_sorted),
    ]
    for rounds in range(3):
        for kw, want in sets + go_sets:
            assert jetjson.dumps(doc, **kw) == want, kw
            assert jetjson.dumps(doc) == orjson.dumps(doc)
    # The same options as a kept set, but refused: still refused.
    assert jetjson.dumps([1], nan="null") == b"[1]"
    with pytest.raises(ValueError, match="nan must be"):
        jetjson.dumps([1], nan="nul")
    assert jetjson.dumps([1], indent=16) == json.dumps([1], indent=16).encode()
    with pytest.raises(ValueError, match="indent must be None or an int from 0 to 16, got 17"):
        jetjson.dumps([1], indent=17)
    with pytest.raises(ValueError, match="jcs"):
        jetjson.dumps([1], profile="jcs", indent=2)
    # max_write_depth is part of the options: a depth of 3 refuses what the
    # default depth writes, whichever was kept first.
    deep = [[[[1]]]]
    for _ in range(2):
        assert jetjson.dumps(deep, max_write_depth=512) == b"[[[[1]]]]"
        with pytest.raises(jetjson.JSONEncodeError):
            jetjson.dumps(deep, max_write_depth=3)
        assert jetjson.dumps(deep, max_write_depth=4) == b"[[[[1]]]]"
    # NaN: null on request, refused by default, whatever was kept.
    for _ in range(2):
        assert jetjson.dumps([float("nan")], nan="null") == b"[null]"
        with pytest.raises(jetjson.JSONEncodeError):
            jetjson.dumps([float("nan")], sort_keys=True)


def test_options_writer_inside_default_and_after_a_failure():
    # A `default` calling dumps with the same options as the outer call
    # finds that options' kept writer in use and makes its own; a failed
    # write with options leaves nothing behind for the next call with them.
    class Wrapped:
        def __init__(self, v):
            self.v = v

    def default(o):
        return jetjson.dumps(o.v, sort_keys=True, indent=1).decode()

    for big in (0, 9000):
        v = {"b": 1, "a": "x" * big}
        doc = {"k": [Wrapped(v)] * 2, "j": 1}
        inner = json.dumps(v, sort_keys=True, indent=1)
        got = jetjson.dumps(doc, sort_keys=True, indent=1, default=default)
        assert got == json.dumps({"j": 1, "k": [inner, inner]}, sort_keys=True, indent=1).encode()
    for _ in range(3):
        with pytest.raises(jetjson.JSONEncodeError):
            jetjson.dumps({"b": [1, {"c": object()}], "a": 1}, sort_keys=True, indent=1)
        assert jetjson.dumps({"b": [1], "a": 1}, sort_keys=True, indent=1) == json.dumps({"b": [1], "a": 1}, sort_keys=True, indent=1).encode()


# ---- a top-level scalar with no options: the kept writer without the walker


def test_top_level_scalars_give_the_bytes_of_the_general_path():
    class S(str):
        pass

    class I(int):
        pass

    ints = [0, 1, -1, 7, 2**30 - 1, 2**30, -(2**30), 2**60 - 1, 2**60, 2**62, 2**63 - 1, -(2**63), 2**63, -(2**63) - 1, 2**64, 10**40, -(10**40)]
    floats = [0.0, -0.0, 1.5, -2.25, 1e300, 5e-324, 1e16, 123456789.125, 0.1 + 0.2]
    strs = ["", "x", "abc", "a" * 95, "a" * 96, "a" * 97, "a" * 500, 'q"uote', "back\\slash", "tab\t", "\x00\x1f\x7f",
            "<&>", "é€😂", "\u2028\u2029", "x" * 40 + "é"]
    values = ints + floats + strs + [True, False, None, S("sub"), I(5), [1], {"a": 1}]
    for v in values:
        # Ints at any size as their exact digits (orjson stops at 64 bits).
        want = str(int(v)).encode() if type(v) in (int, I) else orjson.dumps(v)
        assert jetjson.dumps(v) == want, v
        # After a large output too (a different expected size).
        jetjson.dumps("y" * 3000)
        assert jetjson.dumps(v) == want, v
        # The same value inside a list goes through the walker.
        assert jetjson.dumps([v]) == b"[" + want + b"]", v
    # What the general path reports or repairs, reported or repaired the same.
    for bad in [float("nan"), float("inf"), -float("inf"), "\ud800"]:
        with pytest.raises(jetjson.JSONEncodeError) as e:
            jetjson.dumps(bad)
        with pytest.raises(jetjson.JSONEncodeError) as e2:
            jetjson.dumps(bad, sort_keys=False, nan="error")
        assert str(e.value) == str(e2.value)
        assert jetjson.dumps(1) == b"1"  # the kept writer still works
    assert jetjson.dumps("\ud800", "go") == jetjson.dumps(["\ud800"], "go")[1:-1]
    assert jetjson.dumps(float("nan"), nan="null") == b"null"


def test_dicts_with_tables_of_the_general_kind_give_the_bytes_of_ordinary_dicts():
    # `orjson.loads` makes its dicts of more than eight members with tables
    # of the general kind (entries with their hash); the walker copies
    # their members and writes them from cached shapes as it does ordinary
    # dicts (they went member by member, at half the speed). The bytes must
    # be those of the same data in ordinary dicts: insertion order, sorted
    # orders, the list-of-records shape, one member, keys that are not
    # exact strs, members deleted (a table with holes).
    from _dumps_support import BENCH, presized_copy, presized_dict

    class Key(str):
        pass

    docs = [
        json.loads(BENCH["twitter"].read_bytes()),
        json.loads(BENCH["github_events"].read_bytes()),
        [{"k%d" % i: i * j for i in range(12)} for j in range(5)],
        {"one": {"only": [1, "é", None]}},
        {"é\u2028<": 1, "a\"b": 2, "\U0001f600": 3, **{"m%d" % i: "v" for i in range(10)}},
    ]
    for doc in docs:
        general = presized_copy(doc)
        for profile in ("compact", "go", "jcs"):
            for sort_keys in (None, True, False):
                if profile == "jcs" and sort_keys is not None:
                    continue  # refused: jcs fixes the order
                kw = {} if sort_keys is None else {"sort_keys": sort_keys}
                want = jetjson.dumps(doc, profile=profile, **kw)
                for _ in range(3):  # the first call, then cached shapes
                    assert jetjson.dumps(general, profile=profile, **kw) == want, (profile, kw)
    odd = presized_dict([(Key("a"), 1), ("b", 2)] + [("c%d" % i, i) for i in range(9)])
    assert jetjson.dumps(odd) == jetjson.dumps(dict(odd))
    mixed = presized_dict([(1, "int"), ("b", 2)] + [("c%d" % i, i) for i in range(9)])
    assert jetjson.dumps(mixed, non_str_keys=True) == jetjson.dumps(dict(mixed), non_str_keys=True)
    holes = presized_dict(("c%d" % i, i) for i in range(12))
    del holes["c3"], holes["c7"]
    assert jetjson.dumps([holes, holes]) == jetjson.dumps([dict(holes), dict(holes)])
