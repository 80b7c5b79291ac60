"""The quick path of small flat objects (issue 23: `loads(b'{"a":1}')` at
full speed): a document of at most 128 bytes that is one object of
strings, numbers and literals, with no `{`, `[` or `\\` after its first
byte, is read by the core's walk (jetjson::parse::flat_object), whose
members loads/flat.rs inserts into the dict as they come;
everything else, failures included, is declined to the general path.

Each document is compared with the general path, which reads the same
text with no quick path at all (a `bytearray`, or a call with an option),
and with json.loads: values and their types, key order, key identity (the
key cache), errors with their message and place, duplicate keys under
each policy, max_size and max_depth, and reference counts."""

import gc
import itertools
import json
import sys
import typing

import pytest

import jetjson
from _loads_support import outcome, same, strictly_equal

loads = jetjson.loads
ANY = jetjson.Decoder(typing.Any)
FLAT_UP_TO = 128



def general(data, **options):
    """The same text read by the general path only: bytes as a bytearray
    (never quick), a str with an option given (pyo3's argument parsing,
    then the full builder; positions stay in characters)."""
    if isinstance(data, str):
        return loads(data, **{"max_depth": 512, **options})
    return loads(bytearray(data), **options)



KEYS = ['"a"', '"id"', '""', '"name_with_some_length"', '"é"', '"日本"', '"k" ', '"' + "k" * 70 + '"']
VALUES = [
    "0", "1", "-1", "-0", "42", "9223372036854775807", "-9223372036854775808", "9223372036854775808",
    "18446744073709551616", "1" * 40, "0.5", "-0.0", "1.5e3", "1E-5", "1e-400", "12345678901234567890.5",
    "true", "false", "null", '""', '"x"', '"ok"', '"0123456789abcdef"', '"0123456789abcdefg"', '"é"', '"Zoë"',
    '"\U0001F600"', '"' + "v" * 60 + '"',
]
LAYOUTS = [
    ("{{{}:{}}}", ","),
    ("{{ {} : {} }}", " , "),
    ("{{\n  {}: {}\n}}", ",\n  "),
    ("{{\t{}\r\n:\t{}}}", ",\r\n"),
]


def documents():
    """Flat objects of one to five members over the keys, values and layouts."""
    for i, (key, value) in enumerate(itertools.product(KEYS, VALUES)):
        form, sep = LAYOUTS[i % len(LAYOUTS)]
        yield form.format(key, value)
        # A few members, the pair among them, different keys around it.
        others = [f'"m{j}":{VALUES[(i + j) % len(VALUES)]}' for j in range(i % 4)]
        body = sep.join(others + [f"{key}:{value}"])
        yield "{" + body + "}"
        yield "{" + body + "}  \n"
    yield "{}"
    yield "{ }"
    yield " {}"
    yield '{"a":1}' + " " * 100


def check(text):
    want = outcome(general, text)
    for data in (text.encode(), text):
        got = outcome(loads, data)
        assert same(got, want), (data, got, want)
        got = outcome(ANY.decode, data)
        if want[0] == "ok":
            assert got[0] == "ok" and strictly_equal(got[1], want[1]), (data, got, want)
    return want


def test_flat_objects_read_as_the_general_path_and_json_read_them():
    n = 0
    for text in documents():
        want = check(text)
        n += 1
        if "e400" in text:
            continue
        try:
            parsed = json.loads(text)
        except ValueError:
            assert want[0] == "error", text
        else:
            assert want[0] == "ok" and strictly_equal(want[1], parsed), text
    assert n > 600


def test_the_flat_path_and_the_general_path_share_key_and_value_objects():
    # Keys up to 64 ASCII bytes, and ASCII values up to 16, come from the
    # key cache on both paths: one object wherever they appear.
    for key, value in (("name", "ok"), ("k" * 64, "0123456789abcdef")):
        text = json.dumps({key: value}, separators=(",", ":")).encode()
        a, b = loads(text), general(text)
        (ka, va), (kb, vb) = next(iter(a.items())), next(iter(b.items()))
        assert ka is kb and va is vb
        assert ANY.decode(text).popitem()[0] is ka
    # Longer keys and values, and non-ASCII ones, are new objects (equal).
    text = json.dumps({"k" * 65: "v" * 17, "é": "é"}, ensure_ascii=False).encode()
    assert strictly_equal(loads(text), general(text))


def test_flat_dicts_are_untracked_as_the_general_paths_are():
    for text in (b'{"a":1}', b'{"a":"x","b":null,"c":1.5}'):
        assert gc.is_tracked(loads(text)) == gc.is_tracked(general(text))


TRUNCATED_FROM = ['{"a":1,"b":"x","c":true,"d":null,"e":-1.5e3,"f":false}', '{ "key" : "value" , "n" : 12 }', '{"é":"日本"}']


@pytest.mark.parametrize("text", TRUNCATED_FROM)
def test_every_truncation_and_corruption_is_refused_as_the_general_path_refuses_it(text):
    raw = text.encode()
    for end in range(len(raw) + 1):
        check_bytes(raw[:end])
    for at in range(len(raw)):
        for c in b'"\\{}[],:0-.e tnx\x00\x1f\x7f\xff':
            check_bytes(raw[:at] + bytes([c]) + raw[at + 1 :])
            check_bytes(raw[:at] + bytes([c]) + raw[at:])


def check_bytes(raw):
    want = outcome(general, raw)
    assert same(outcome(loads, raw), want), raw
    try:
        text = raw.decode()
    except UnicodeDecodeError:
        return
    assert same(outcome(loads, text), outcome(general, text)), text


@pytest.mark.parametrize(
    "text",
    [
        '{"a":"[x]"}', '{"a":"{"}', '{"a":"\\n"}', '{"a\\u00e9":1}', '{"a":"\\ud800"}', '{"a":"\\ud83d\\ude00"}',
        '{"a":"x\\"y"}', '{"a":{"b":1}}', '{"a":[]}', '{"a":1,"b":[1,2]}', '{"a":"\x01"}', '{"a":01}',
        '{"a":1e400}', '{"a":-}', '{"a":tru}', '{"a":1}x', '{"a":1} 2', '{"a" 1}', '{"a":1,}', '{,}', '{"a":1 "b":2}',
    ],
)
def test_documents_the_flat_walk_declines_are_read_by_the_general_path(text):
    check(text)
    check_bytes(text.encode())


def test_lone_surrogate_in_a_str_input_is_refused_alike():
    for text in ('{"a":"\ud800"}', '{"\udfff":1}'):
        want = outcome(general, text)
        assert want[0] == "error"
        assert same(outcome(loads, text), want)


def test_invalid_utf8_is_refused_at_its_byte():
    for raw in (b'{"a":"\xff"}', b'{"\xc3":1}', b'{"a":"\xed\xa0\x80"}', b'{"a":"\xe6\x97"}'):
        want = outcome(general, raw)
        assert want[0] == "error" and "UTF-8" in want[1][1]
        assert same(outcome(loads, raw), want)


@pytest.mark.parametrize("policy", ["error", "first", "last"])
def test_duplicate_keys_under_each_policy(policy):
    dec = jetjson.Decoder(typing.Any, duplicate_keys=policy)
    for text in (b'{"a":1,"a":2}', b'{"a":1,"b":2,"a":3}', b'{"b":0,"a":1,"b":"x","a":null}', b'{"x":1,"x":1}'):
        want = outcome(lambda d: general(d, duplicate_keys=policy), text)
        got = outcome(dec.decode, text)
        if policy == "error":
            assert want[0] == "error" and got[0] == "error"
            assert "duplicate" in want[1][1]
            assert same(outcome(loads, text), want)
        else:
            assert same(got, want), (text, got, want)
            assert list(got[1]) == list(want[1])


def test_max_size_and_max_depth_hold_on_the_flat_path():
    raw = b'{"a":1,"b":"x"}'
    for limit in range(len(raw) + 2):
        dec = jetjson.Decoder(typing.Any, max_size=limit)
        for data in (raw, raw.decode()):
            want = outcome(lambda d: general(d, max_size=limit), data)
            assert same(outcome(lambda d: loads(d, max_size=limit), data), want), limit
            got = outcome(dec.decode, data)
            assert got[0] == want[0], limit
            if want[0] == "error":
                assert "max_size" in want[1][1] and want[1][2] == limit
    for depth in (0, 1, 2):
        dec = jetjson.Decoder(typing.Any, max_depth=depth)
        want = outcome(lambda d: general(d, max_depth=depth), raw)
        got = outcome(dec.decode, raw)
        assert got[0] == want[0]
        if depth == 0:
            assert want[0] == "error" and "depth" in want[1][1]
        else:
            assert strictly_equal(got[1], want[1])


def test_around_the_length_limit():
    for n in range(FLAT_UP_TO - 12, FLAT_UP_TO + 4):
        # A string value padding the document to exactly n bytes.
        pad = n - len('{"a":1,"s":""}')
        text = '{"a":1,"s":"' + "p" * pad + '"}'
        assert len(text) == n
        want = check(text)
        assert want[0] == "ok" and want[1] == json.loads(text)


def test_big_integers_and_the_digit_limit():
    for digits in (19, 20, 40, 100):
        text = '{"n":' + "9" * digits + ',"m":-' + "1" * digits + "}"
        want = check(text)
        assert want[1] == json.loads(text)
    # The lowest digit limit CPython takes (640) is beyond the flat path's
    # length; the limit is still the general path's to apply.
    old = sys.get_int_max_str_digits()
    try:
        sys.set_int_max_str_digits(640)
        text = '{"n":' + "9" * 641 + "}"
        want = outcome(general, text)
        assert want[0] == "error"
        assert same(outcome(loads, text.encode()), want)
    finally:
        sys.set_int_max_str_digits(old)


def test_flat_results_keep_reference_counts():
    # None, True and False are not immortal on CPython 3.11; neither are
    # the cached keys and values: a reference too many or too few per call
    # shows here.
    data = b'{"a":null,"b":true,"c":false,"d":"ok"}'
    bad = b'{"a":null,"b":true,"c":false,"d":"ok","a":1}'
    loads(data)
    key = next(iter(loads(data)))
    value = loads(data)["d"]

    def counts():
        return [sys.getrefcount(o) for o in (None, True, False, key, value)]

    for _ in range(3):
        for _ in range(1000):
            loads(data)
            try:
                loads(bad)
            except jetjson.JSONDecodeError:
                pass
    before = counts()
    for _ in range(1000):
        loads(data)
        ANY.decode(data)
        try:
            loads(bad)
        except jetjson.JSONDecodeError:
            pass
    assert counts() == before
