"""jetjson.Raw: pre-serialized JSON embedded in dumps output."""

import base64
import json

import pytest

import jetjson
from _dumps_support import go


def test_raw_is_validated_with_positions():
    with pytest.raises(jetjson.JSONDecodeError) as e:
        jetjson.Raw(b'{"a": [1, 2,]}')
    assert e.value.pos == 12 and e.value.lineno == 1 and e.value.colno == 13
    # str input: positions count characters, not bytes.
    with pytest.raises(jetjson.JSONDecodeError) as e:
        jetjson.Raw('["é€😂",\n x]')
    assert (e.value.pos, e.value.lineno, e.value.colno) == (9, 2, 2)
    with pytest.raises(json.JSONDecodeError) as std:
        json.loads('["é€😂",\n x]')
    assert (std.value.pos, std.value.lineno, std.value.colno) == (9, 2, 2)
    assert e.value.doc == '["é€😂",\n x]'
    with pytest.raises(jetjson.JSONDecodeError) as e:
        jetjson.Raw(b'["\xc3\xa9",\n x]')
    assert (e.value.pos, e.value.lineno, e.value.colno) == (8, 2, 2)
    for bad in [b"", b"1 2", b"[", b"nul", b"\xff", b'{"a":1,}', "\ud800"]:
        with pytest.raises(jetjson.JSONDecodeError):
            jetjson.Raw(bad)
    with pytest.raises(TypeError):
        jetjson.Raw(12)
    # A name twice is refused as loads refuses it, unless asked otherwise.
    with pytest.raises(jetjson.JSONDecodeError, match="duplicate") as e:
        jetjson.Raw(b'{"a":1,"a":2}')
    assert (e.value.pos, e.value.colno) == (7, 8)
    assert bytes(jetjson.Raw(b'{"a":1,"a":2}', duplicate_keys="first")) == b'{"a":1,"a":2}'
    with pytest.raises(ValueError, match="duplicate_keys"):
        jetjson.Raw(b"1", duplicate_keys="both")


def test_raw_accepts_bytes_like_and_str():
    for data in [b'{"a":1}', bytearray(b'{"a":1}'), memoryview(b'{"a":1}'), '{"a":1}']:
        r = jetjson.Raw(data)
        assert bytes(r) == b'{"a":1}'
        assert jetjson.dumps([r]) == b'[{"a":1}]'


def test_repr_eq_hash_bytes():
    a, b = jetjson.Raw(b"[1, 2]"), jetjson.Raw("[1, 2]")
    assert a == b and hash(a) == hash(b) and bytes(a) == b"[1, 2]"
    assert a != jetjson.Raw(b"[1,2]")
    assert a != b"[1, 2]"
    assert repr(a) == "Raw('[1, 2]')"
    assert repr(jetjson.Raw.unchecked(b"\xff")) == "Raw(b'\\xff')"
    assert len({a, b, jetjson.Raw(b"1")}) == 2


def test_compact_embeds_verbatim():
    r = jetjson.Raw(b'{ "b" : 1.0E+02 , "a" : "\\u00e9<" }')
    assert jetjson.dumps({"x": r, "y": [r]}) == b'{"x":{ "b" : 1.0E+02 , "a" : "\\u00e9<" },"y":[{ "b" : 1.0E+02 , "a" : "\\u00e9<" }]}'


def test_go_embeds_like_json_raw_message():
    docs = [b'{ "b" : 1.0E+02 , "a" : "\\u00e9<&>" }', b' [ 1 , "\xe2\x80\xa8" , {} , [ ] ] ', b'"<script>"', b"  -0.0e-0  ", b'{"a":1,"a":2}']
    for escape_html in (True, False):
        expected = go([base64.b64encode(d) for d in docs], mode="raw", escape_html=escape_html)
        for d, e in zip(docs, expected):
            r = jetjson.Raw(d, duplicate_keys="last")
            assert jetjson.dumps(r, profile="go", escape_html=escape_html) == e, d
            assert jetjson.dumps({"k": [r]}, profile="go", escape_html=escape_html) == b'{"k":[' + e + b"]}"


def test_jcs_canonicalizes():
    r = jetjson.Raw(b'{ "b" : 1.0E+02 , "a" : "\\u00e9" , "\\ud83d\\ude02": -0.0 , "\\ufb33": [] }')
    expected = jetjson.canonicalize(bytes(r), "jcs")
    assert jetjson.dumps([r], profile="jcs") == b"[" + expected + b"]"
    assert expected == '{"a":"é","b":100,"😂":0,"\ufb33":[]}'.encode()


def test_unchecked_trusts_in_compact_only():
    r = jetjson.Raw.unchecked(b"not json")
    assert jetjson.dumps([r]) == b"[not json]"
    for p in ("go", "jcs"):
        with pytest.raises(jetjson.JSONEncodeError, match=r"^\$\[0\]"):
            jetjson.dumps([r], profile=p)


def test_raw_inside_indent():
    out = jetjson.dumps({"a": jetjson.Raw(b"[1, {\"b\": 2}]")}, profile="go", indent=2)
    assert json.loads(out) == {"a": [1, {"b": 2}]}
