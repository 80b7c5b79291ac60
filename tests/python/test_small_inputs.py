"""Tiny and small inputs through loads and Decoder(Any).decode (issue 23):
every kind of value, errors at every offset, trailing garbage, and the
size, depth and duplicate-key options, compared with json.loads and with
each other. Decoder(Any) reads through loads's untyped builder and, when
that fails, again through the typed path for its own error; the parser
reads short integers at the end of the input byte by byte."""

import json
import sys
import typing

import pytest

import jetjson
from _loads_support import strictly_equal

loads = jetjson.loads
ANY = jetjson.Decoder(typing.Any)

INTS = [
    "0", "1", "-1", "7", "42", "-42", "10", "99", "123456789",
    "99999999999999999", "999999999999999999", "-999999999999999999",
    "1000000000000000000", "9999999999999999999", "-9999999999999999999",
    "9223372036854775807", "-9223372036854775808", "9223372036854775808",
    "18446744073709551615", "18446744073709551616", "123456789012345678901234567890",
]
SMALL = [
    *INTS,
    "-0", "0.0", "-0.0", "1.5", "-1.5", "1e5", "1E5", "1e-5", "2.5e+3", "0e0", "1.0",
    "true", "false", "null", '""', '"a"', '"\\u00e9"', '"\\n"', '"é"',
    "[]", "{}", "[1]", "[1,2]", "[[]]", "[{}]", '{"a":1}', '{"a":-12}', '{"a":1.5}',
    '{"a":[1,2,3]}', '{"a":{"b":null}}', '{"a":"x","b":true}', "[1,-2,3.5e1]",
    " 1", "1 ", " \t\n1\r\n", ' {"a" : 1 } ', "[ ]", "{ }",
]


def decode_any(data):
    return ANY.decode(data)


@pytest.mark.parametrize("text", SMALL)
@pytest.mark.parametrize("kind", ["bytes", "str", "bytearray", "memoryview"])
def test_small_values_agree_with_json(text, kind):
    data = {"bytes": text.encode(), "str": text, "bytearray": bytearray(text.encode()),
            "memoryview": memoryview(text.encode())}[kind]
    want = json.loads(text)
    assert strictly_equal(loads(data), want), text
    assert strictly_equal(decode_any(data), want), text
    assert strictly_equal(jetjson.loads(data, type=typing.Any), want), text


@pytest.mark.parametrize("text", INTS)
def test_integers_ending_the_input_in_every_context(text):
    # The number last in the input (read byte by byte), followed by one
    # closing byte, and with room after it (the 32-byte window).
    for doc in [text, f"[{text}]", f'{{"k":{text}}}', f"[0,{text}]", text + " " * 40, f"[{text}" + ",0" * 20 + "]"]:
        want = json.loads(doc)
        assert strictly_equal(loads(doc.encode()), want), doc
        assert strictly_equal(decode_any(doc.encode()), want), doc
    if text.lstrip("-") != "0":
        neg = text[1:] if text.startswith("-") else "-" + text
        assert strictly_equal(loads(neg.encode()), json.loads(neg))


def error_of(f, data):
    with pytest.raises(jetjson.JSONDecodeError) as info:
        f(data)
    e = info.value
    return type(e), e.msg, e.pos, e.lineno, e.colno


@pytest.mark.parametrize("text", [t for t in SMALL if len(t) > 1])
def test_every_truncation_and_corruption_is_refused_alike(text):
    raw = text.encode()
    broken = [raw[:i] for i in range(len(raw))]
    broken += [raw[:i] + c + raw[i + 1:] for i in range(len(raw)) for c in (b"x", b"}", b"]", b",", b"\x00", b"-")]
    broken += [raw + tail for tail in (b"x", b" x", b"}", b"]", b",", b" 1", b"\x00", b"{}", b"1")]
    checked = 0
    for data in broken:
        try:
            json.loads(data)
            continue
        except ValueError:
            pass
        by_loads = error_of(loads, data)
        by_decoder = error_of(decode_any, data)
        assert by_loads[0] is jetjson.JSONDecodeError
        # Syntax errors: the same error, message and place either way.
        assert by_decoder == by_loads, data
        assert 0 <= by_loads[2] <= len(data)
        checked += 1
    assert checked > 0


@pytest.mark.parametrize("text", ["1", "-12", "[1,2]", '{"a":1}', '"abc"', "true", "  7  "])
def test_max_size_holds_on_both_paths(text):
    raw = text.encode()
    n = len(raw)
    assert loads(raw, max_size=n) == json.loads(text)
    assert jetjson.Decoder(typing.Any, max_size=n).decode(raw) == json.loads(text)
    assert jetjson.Decoder(typing.Any, max_size=n).decode(text) == json.loads(text)
    for limit in range(n):
        for f in (lambda d: loads(d, max_size=limit), jetjson.Decoder(typing.Any, max_size=limit).decode):
            for data in (raw, text):
                with pytest.raises(jetjson.JSONDecodeError, match="max_size"):
                    f(data)


def test_max_depth_holds_on_both_paths():
    for depth in range(0, 6):
        doc = "[" * depth + "1" + "]" * depth
        obj = json.loads(doc)
        assert loads(doc, max_depth=depth) == obj
        assert jetjson.Decoder(typing.Any, max_depth=depth).decode(doc) == obj
        if depth:
            for f in (lambda d: loads(d, max_depth=depth - 1), jetjson.Decoder(typing.Any, max_depth=depth - 1).decode):
                with pytest.raises(jetjson.JSONDecodeError, match="depth"):
                    f(doc)
    deep = b'{"a":' * 600 + b"1" + b"}" * 600
    with pytest.raises(jetjson.JSONDecodeError):
        ANY.decode(deep)
    assert jetjson.Decoder(typing.Any, max_depth=600).decode(deep) == json.loads(deep)


@pytest.mark.parametrize("policy", ["error", "first", "last"])
def test_duplicate_keys_on_both_paths(policy):
    dec = jetjson.Decoder(typing.Any, duplicate_keys=policy)
    for doc in [b'{"a":1,"a":2}', b'[{"a":1,"b":{"c":1,"c":[2]},"a":3}]', b'{"a":1,"b":2}']:
        if policy == "error" and doc != b'{"a":1,"b":2}':
            assert error_of(dec.decode, doc) == error_of(lambda d: loads(d, duplicate_keys="error"), doc)
        else:
            assert strictly_equal(dec.decode(doc), loads(doc, duplicate_keys=policy))
    assert jetjson.Decoder(typing.Any, allow_bom=True).decode(b"\xef\xbb\xbf1") == 1
    with pytest.raises(jetjson.JSONDecodeError):
        ANY.decode(b"\xef\xbb\xbf1")


def test_decoder_any_errors_stay_the_typed_paths():
    # An int beyond CPython's digit limit: loads says JSONDecodeError, the
    # decoder its ValidationError at the value's path (the typed read).
    if not hasattr(sys, "get_int_max_str_digits") or sys.get_int_max_str_digits() == 0:
        pytest.skip("no int digit limit in this interpreter")
    big = b'{"a":[' + b"7" * (sys.get_int_max_str_digits() + 1) + b"]}"
    with pytest.raises(jetjson.ValidationError) as info:
        ANY.decode(big)
    assert info.value.path == "$.a[0]"
    with pytest.raises(jetjson.JSONDecodeError) as plain:
        loads(big)
    assert not isinstance(plain.value, jetjson.ValidationError)
    # Wrong input types, and a str with a lone surrogate.
    with pytest.raises(TypeError):
        ANY.decode(1)
    with pytest.raises(jetjson.JSONDecodeError, match="surrogate"):
        ANY.decode('"\ud800"')


def test_decoder_any_nests_and_repeats():
    # Many calls in a row (pooled state handed back each time), and a
    # decoder called from inside a typed decode's Python code.
    for i in range(2000):
        assert ANY.decode(b'{"i":%d,"l":[%d]}' % (i, -i)) == {"i": i, "l": [-i]}

    import dataclasses

    @dataclasses.dataclass
    class Outer:
        raw: str

        def __post_init__(self):
            self.inner = ANY.decode(self.raw)

    got = jetjson.Decoder(Outer).decode(b'{"raw":"[1,{\\"b\\":2}]"}')
    assert got.inner == [1, {"b": 2}]


def test_decode_method_takes_exactly_one_positional_argument():
    import inspect

    assert str(inspect.signature(jetjson.Decoder.decode)) == "(self, data, /)"
    for call in (lambda: ANY.decode(), lambda: ANY.decode(b"1", b"2"), lambda: ANY.decode(data=b"1"),
                 lambda: ANY.decode(b"1", max_size=1)):
        with pytest.raises(TypeError, match="exactly one positional argument"):
            call()
    with pytest.raises(TypeError):
        jetjson.Decoder.decode(1, b"1")
    # Unbound and bound, typed and untyped, the same method.
    assert jetjson.Decoder.decode(ANY, b"[1]") == [1]
    assert jetjson.Decoder(typing.List[int]).decode(b"[1, 2]") == [1, 2]
    with pytest.raises(jetjson.ValidationError):
        jetjson.Decoder(typing.List[int]).decode(b'["x"]')
