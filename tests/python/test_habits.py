"""What users of json and orjson expect of the Python API (issue 22): error
objects that survive pickle and copy, signatures help() can show, indent
as json takes it, circular references named as such, dict subclasses
written from their real items."""

import collections
import concurrent.futures
import copy
import inspect
import json
import pickle

import pytest

import jetjson

PROFILES = ("compact", "go", "jcs")


def _bad_input(data):
    return jetjson.loads(data)


def test_decode_errors_survive_pickle_copy_and_a_process_pool():
    for data in (b'{"a": [1,', '["é",\n x]', bytearray(b"[1 2]")):
        with pytest.raises(jetjson.JSONDecodeError) as info:
            jetjson.loads(data)
        e = info.value
        for back in (pickle.loads(pickle.dumps(e)), copy.copy(e), copy.deepcopy(e)):
            assert type(back) is type(e) and str(back) == str(e)
            assert (back.msg, back.doc, back.pos, back.lineno, back.colno) == (e.msg, e.doc, e.pos, e.lineno, e.colno)
    with pytest.raises(jetjson.JSONEncodeError) as info:
        jetjson.dumps({"a": object()})
    back = pickle.loads(pickle.dumps(info.value))
    assert type(back) is jetjson.JSONEncodeError and str(back) == str(info.value)
    # A worker that meets bad input raises in the caller; the pool stays usable.
    with concurrent.futures.ProcessPoolExecutor(max_workers=1) as pool:
        with pytest.raises(jetjson.JSONDecodeError, match="line 1 column 4"):
            pool.submit(_bad_input, b"[1,").result(timeout=60)
        assert pool.submit(_bad_input, b"[1]").result(timeout=60) == [1]


def test_help_shows_the_signatures():
    assert str(inspect.signature(jetjson.dumps)) == (
        "(obj, /, profile='compact', *, sort_keys=None, escape_html=None, ascii_only=False, indent=None, default=None, nan='error', non_str_keys=False, omit_defaults=False, max_write_depth=512)"
    )
    assert str(inspect.signature(jetjson.loads)) == (
        "(data, /, *, max_depth=512, max_size=None, duplicate_keys='error', allow_bom=False, decimal=False, type=None, strict=True,"
        " forbid_unknown_fields=False)"
    )
    assert str(inspect.signature(jetjson.Raw)) == "(data, /, *, duplicate_keys='error')"
    assert "Ellipsis" not in jetjson.loads.__doc__
    assert "embedded by dumps" in jetjson.Raw.__doc__


def test_help_shows_every_default_not_ellipsis():
    # help() showed max_write_depth=Ellipsis (canonicalize, digest) and
    # max_depth=Ellipsis, duplicate_keys=Ellipsis (Decoder).
    for f in (jetjson.dumps, jetjson.loads, jetjson.canonicalize, jetjson.digest, jetjson.digest_bytes, jetjson.Decoder, jetjson.Raw):
        sig = inspect.signature(f)
        assert "Ellipsis" not in str(sig) and "..." not in str(sig), (f.__name__, str(sig))
        for p in sig.parameters.values():
            assert p.default is not Ellipsis, (f.__name__, p.name)
    assert inspect.signature(jetjson.canonicalize).parameters["max_write_depth"].default == 512
    assert inspect.signature(jetjson.digest).parameters["max_write_depth"].default == 512
    assert inspect.signature(jetjson.Decoder).parameters["max_depth"].default == 512
    assert inspect.signature(jetjson.Decoder).parameters["duplicate_keys"].default == "error"


def test_indent_as_json_takes_it():
    obj = {"a": [1, {"b": [], "c": {}}], "d": "é"}
    for indent in (1, 2, 16, " ", "    ", "\t", "\t\t"):
        assert jetjson.dumps(obj, indent=indent) == json.dumps(obj, indent=indent, ensure_ascii=False).encode(), repr(indent)
    # An indent of nothing is compact output (json would still break lines).
    for indent in (0, "", None):
        assert jetjson.dumps(obj, indent=indent) == json.dumps(obj, separators=(",", ":"), ensure_ascii=False).encode()
    for bad, err in (("--", ValueError), (" \t", ValueError), (True, TypeError), (2.0, TypeError), (17, ValueError), (" " * 17, ValueError)):
        with pytest.raises(err):
            jetjson.dumps(obj, indent=bad)


def test_circular_references_are_named():
    loop = []
    loop.append(loop)
    for p in PROFILES:
        with pytest.raises(jetjson.JSONEncodeError) as info:
            jetjson.dumps(loop, profile=p)
        assert str(info.value) == "$[0]: circular reference (the list at $ contains itself here)"
    d = {"a": [1, {}]}
    d["a"][1]["self"] = d
    with pytest.raises(jetjson.JSONEncodeError, match=r"circular reference \(the (dict|list) at \$\.top(\.a|\.a\[1\])? contains itself here\)"):
        jetjson.dumps({"top": d})
    # Deep but not circular: the depth limit, as before.
    deep = x = []
    for _ in range(600):
        x.append([])
        x = x[0]
    with pytest.raises(jetjson.JSONEncodeError, match="depth") as info:
        jetjson.dumps(deep)
    assert "circular" not in str(info.value)


def test_dict_subclasses_are_written_from_their_real_items():
    class Liar(dict):
        def keys(self):
            return ["nope", "a"]

        def __iter__(self):
            return iter(["nope", "b"])

        def __getitem__(self, k):
            raise KeyError(k)

    # Its own order where __iter__ names real items, then the rest.
    assert jetjson.dumps(Liar(a=1, b=2, c=3)) == b'{"b":2,"a":1,"c":3}'
    od = collections.OrderedDict(a=1, b=2, c=3)
    od.move_to_end("a")
    assert jetjson.dumps(od) == json.dumps(od, separators=(",", ":")).encode()
    assert jetjson.dumps(od, profile="go") == b'{"a":1,"b":2,"c":3}'


def test_raw_unchecked_refuses_text_without_utf8():
    with pytest.raises(ValueError, match="surrogate"):
        jetjson.Raw.unchecked('"\ud800"')
    assert bytes(jetjson.Raw.unchecked(b'"\xed\xa0\x80"')) == b'"\xed\xa0\x80"'  # bytes are trusted as given


def test_ascii_only_escapes_del_as_ensure_ascii_does():
    for s in ["\x7f", "a\x7fb", "é\x7f" * 20, "\x7f" * 40]:
        assert jetjson.dumps(s, ascii_only=True) == json.dumps(s).encode()
        assert jetjson.dumps([s, {s: s}], ascii_only=True, profile="go") == json.dumps([s, {s: s}], separators=(",", ":")).encode()
        # Without ascii_only DEL is written as it is (as json, orjson and Go do).
        assert jetjson.dumps(s) == json.dumps(s, ensure_ascii=False).encode()


def test_non_str_keys_are_written_as_the_profile_writes_their_values():
    import datetime
    import decimal
    import enum
    import uuid

    class E(enum.Enum):
        A = "a"
        B = 2

    plain = {1: "i", -7: "n", 2**70: "big", 2.5: "f", 1e16: "e", 0.1: "t", True: "yes", False: "no", None: "null"}
    # compact: as json writes them (ints, floats' repr, true/false/null).
    assert jetjson.dumps(plain, non_str_keys=True) == json.dumps(plain, separators=(",", ":")).encode()
    more = {E.A: 1, E.B: 2, uuid.UUID(int=5): 3, datetime.date(2024, 1, 2): 4, decimal.Decimal("1.10"): 5,
            datetime.datetime(2024, 1, 2, 3, 4, 5, tzinfo=datetime.timezone.utc): 6}
    for p in PROFILES:
        out = json.loads(jetjson.dumps(more, p, non_str_keys=True))
        want_dt = "2024-01-02T03:04:05Z" if p == "go" else "2024-01-02T03:04:05+00:00"
        assert out == {"a": 1, "2": 2, str(uuid.UUID(int=5)): 3, "2024-01-02": 4, "1.10": 5, want_dt: 6}
        # Sorted as text in go and jcs (Go sorts map[int] keys as strings).
        keys = list(json.loads(jetjson.dumps({10: 0, 9: 0, 100: 0}, p, non_str_keys=True)))
        assert keys == (["10", "100", "9"] if p != "compact" else ["10", "9", "100"])
    # Floats in each profile's layout; go writes 1.0 as 1, as its floats.
    assert jetjson.dumps({1.0: 0}, "go", non_str_keys=True) == b'{"1":0}'
    assert jetjson.dumps({1.0: 0}, non_str_keys=True) == b'{"1.0":0}'
    # Two keys that write the same name, and keys with no text, are errors.
    for bad in ({1: "a", "1": "b"}, {float("nan"): 1}, {(1, 2): 1}, {E.A: 1, "a": 2}):
        with pytest.raises(jetjson.JSONEncodeError):
            jetjson.dumps(bad, non_str_keys=True)
    with pytest.raises(jetjson.JSONEncodeError, match="non_str_keys=True"):
        jetjson.dumps({1: 2})


def test_loads_decimal_reads_fractions_exactly():
    import decimal

    text = b'[1, 1.10, -0.0, 0.1, 1e400, 2E-400, 123456789012345678901234567890, -0, {"p": 19.99}]'
    got = jetjson.loads(text, decimal=True)
    want = json.loads(text, parse_float=decimal.Decimal)
    assert got == want and [type(x) for x in got] == [type(x) for x in want]
    assert str(got[1]) == "1.10" and str(got[2]) == "-0.0"
    # Written back, a Decimal is its exact text: read again, the same values.
    again = jetjson.loads(jetjson.dumps(got), decimal=True)
    assert again == got and [str(x) for x in again[1:5]] == [str(x) for x in got[1:5]]
    # Bad input is still refused with its place, and flags take truth values.
    with pytest.raises(jetjson.JSONDecodeError, match="column 4"):
        jetjson.loads(b"[1.]", decimal=1)
    assert jetjson.loads(b"\xef\xbb\xbf[1]", allow_bom="yes") == [1]


def test_exceptions_from_user_code_say_where():
    # default's, a property's or __eq__'s exceptions propagate unchanged,
    # with a note naming the place being written.
    def refuse(o):
        raise ValueError("nope")

    with pytest.raises(ValueError) as info:
        jetjson.dumps({"a": [1, object()]}, default=refuse)
    assert str(info.value) == "nope" and info.value.__notes__ == ["while jetjson wrote $.a[1]"]
    with pytest.raises(ValueError) as info:
        jetjson.dumps(object(), default=refuse)
    assert not hasattr(info.value, "__notes__")

    import dataclasses

    @dataclasses.dataclass
    class Late:
        x: int = dataclasses.field(init=False)

    with pytest.raises(AttributeError) as info:
        jetjson.dumps({"items": [Late()]})
    assert info.value.__notes__ == ["while jetjson wrote $.items[0].x"]


def test_decimal_reads_refuse_numbers_a_decimal_cannot_hold():
    # An exponent beyond Decimal's range: a JSONDecodeError at the number
    # (not a bare decimal.InvalidOperation), and with the context's
    # InvalidOperation trap off not a silent Decimal('NaN').
    import decimal
    doc = b'[1.5, 1e99999999999999999999]'
    for traps_on in (True, False):
        with decimal.localcontext() as ctx:
            ctx.traps[decimal.InvalidOperation] = traps_on
            with pytest.raises(jetjson.JSONDecodeError) as info:
                jetjson.loads(doc, decimal=True)
            assert (info.value.msg, info.value.pos, info.value.colno) == ("number out of range for Decimal", 6, 7)
            # Long exponents a Decimal holds are read exactly.
            assert jetjson.loads(b'[1e999999999, -2.5E-1000000000]', decimal=True) == [
                decimal.Decimal("1e999999999"), decimal.Decimal("-2.5E-1000000000")]
