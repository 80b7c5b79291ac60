"""jetjson.Raw: pre-serialized JSON embedded in dumps output."""

import base64
import json
import subprocess
import sys

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


@pytest.mark.skipif(not hasattr(sys, "get_int_max_str_digits") or sys.get_int_max_str_digits() == 0, reason="no int digit limit")
def test_the_int_digit_limit_is_loads_not_raws_and_the_docstring_says_so():
    # loads converts the number to an int, and CPython's digit limit refuses
    # it; Raw converts nothing, so it takes the same text (as documented).
    text = b"1" * (sys.get_int_max_str_digits() + 1)
    with pytest.raises(jetjson.JSONDecodeError):
        jetjson.loads(text)
    assert bytes(jetjson.Raw(text)) == text
    assert jetjson.dumps([jetjson.Raw(b"[" + text + b"]")]) == b"[[" + text + b"]]"
    assert "set_int_max_str_digits" in jetjson.Raw.__doc__


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


def test_options_that_change_strings_or_order_hold_inside_raw():
    # Written plainly (no escapes, plain numbers), the text gives the bytes
    # its parsed value gives under the same options; an indent alone leaves
    # compact's copy as it is (as orjson leaves a Fragment).
    text = '{"zé": [1, "<b>&\u2028\x7f😀"], "a": {"y": true, "b": null}, "é": -2.5}'
    value = jetjson.loads(text)
    for opts in ({"ascii_only": True}, {"escape_html": True}, {"sort_keys": True},
                 {"ascii_only": True, "sort_keys": True, "indent": 2},
                 {"profile": "go", "ascii_only": True, "sort_keys": True}):
        for doc in ({"d": jetjson.Raw(text)}, [jetjson.Raw(text), 1]):
            plain = {"d": value} if isinstance(doc, dict) else [value, 1]
            out = jetjson.dumps(doc, **opts)
            assert out == jetjson.dumps(plain, **opts), opts
            if opts.get("ascii_only"):
                assert out.isascii(), opts
    assert jetjson.dumps([jetjson.Raw(text)], indent=2) == b"[\n  " + text.encode() + b"\n]"
    # Laid out, an unchecked text is read: invalid JSON is an error there.
    with pytest.raises(jetjson.JSONEncodeError, match=r"^\$\[0\]"):
        jetjson.dumps([jetjson.Raw.unchecked(b"{not json")], ascii_only=True)


def test_go_embeds_like_json_raw_message():
    docs = [b'{ "b" : 1.0E+02 , "a" : "\\u00e9<&>" }', b' [ 1 , "\xe2\x80\xa8" , {} , [ ] ] ', b'"<script>"', b"  -0.0e-0  ", b'{"a":1,"a":2}']
    for escape_html in (True, False):
        expected = go([base64.b64encode(d) for d in docs], mode="raw", escape_html=escape_html)
        for d, e in zip(docs, expected):
            r = jetjson.Raw(d, duplicate_keys="last")
            assert jetjson.dumps(r, profile="go", **({} if escape_html else {"escape_html": False})) == e, d
            assert jetjson.dumps({"k": [r]}, profile="go", **({} if escape_html else {"escape_html": False})) == b'{"k":[' + e + b"]}"


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


def test_an_unchecked_raw_that_does_not_read_says_where_in_its_text():
    # As loads places the same fault in the same text (outside tester, stop
    # 51: the path alone, with no place in a 1.6 MB text).
    for text in (b"[1, 2,\n tru]", b'{"a": "x', b'{"a" 1}', b"[" + b"0," * 50_000 + b"]"):
        with pytest.raises(jetjson.JSONDecodeError) as read:
            jetjson.loads(text)
        at = f"in the raw JSON at line {read.value.lineno} column {read.value.colno} (byte {read.value.pos})"
        for p, options in (("go", {}), ("jcs", {}), ("compact", {"sort_keys": True}), ("compact", {"ascii_only": True})):
            with pytest.raises(jetjson.JSONEncodeError) as e:
                jetjson.dumps({"k": [jetjson.Raw.unchecked(text)]}, profile=p, **options)
            assert str(e.value).startswith("$.k[0]: ") and str(e.value).endswith(at), (p, options, str(e.value), at)


def test_raw_errors_name_the_member_holding_it():
    # The errors of a Raw that go or jcs cannot re-encode carry the path
    # of the member holding it.
    bad = jetjson.Raw.unchecked(b"not json")
    deep = jetjson.Raw.unchecked(b"[" * 600 + b"]" * 600)
    for p in ("go", "jcs"):
        with pytest.raises(jetjson.JSONEncodeError, match=r"^\$\.k: invalid literal"):
            jetjson.dumps({"k": bad}, profile=p)
        with pytest.raises(jetjson.JSONEncodeError, match=r"^\$\.a\.k: invalid literal"):
            jetjson.dumps({"a": {"x": 1, "k": bad}}, profile=p)
    # jcs reads a Raw again and go lays it out again under the write limit
    # (its nesting counts below the members holding it), which
    # max_write_depth raises (go had no limit: with an indent, a deep Raw
    # made a huge output).
    for p in ("go", "jcs"):
        with pytest.raises(jetjson.JSONEncodeError, match=r"^\$\.a\.k: nesting deeper than max_write_depth 512"):
            jetjson.dumps({"a": {"k": deep}}, profile=p)
        with pytest.raises(jetjson.JSONEncodeError, match=r"max_write_depth 601"):
            jetjson.dumps({"a": {"k": deep}}, profile=p, max_write_depth=601)
        assert jetjson.dumps({"a": {"k": deep}}, profile=p, max_write_depth=602) == b'{"a":{"k":' + b"[" * 600 + b"]" * 600 + b"}}"
    with pytest.raises(jetjson.JSONEncodeError, match=r"max_write_depth 3"):
        jetjson.dumps({"a": {"k": deep}}, profile="go", indent=1, max_write_depth=3)


def test_a_deep_raw_in_jcs_is_written_on_a_small_thread_stack():
    # jcs reads a Raw into a value and writes it by recursion: that write
    # had no stack check, so a 300-deep Raw crashed the interpreter on a
    # 64 KiB thread, and a 40,000-deep one (max_write_depth=40000) on the
    # main thread. In a child process: a crash must fail the test, not the run.
    code = """if True:
        import threading, jetjson
        raw = jetjson.Raw(b"[" * 300 + b"]" * 300)
        out = []
        threading.stack_size(64 * 1024)
        t = threading.Thread(target=lambda: out.append(jetjson.dumps(raw, "jcs")))
        t.start(); t.join()
        assert out == [b"[" * 300 + b"]" * 300], out
        deep = jetjson.Raw.unchecked(b"[" * 40000 + b"]" * 40000)
        assert jetjson.dumps([deep], "jcs", max_write_depth=40001) == b"[" * 40001 + b"]" * 40001
        assert jetjson.digest(deep, "jcs", max_write_depth=40000).startswith("sha256:")
        print("ok")
    """
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stdout.strip() == "ok", (r.returncode, r.stderr[-2000:])


def test_raw_inside_indent():
    out = jetjson.dumps({"a": jetjson.Raw(b"[1, {\"b\": 2}]")}, profile="go", indent=2)
    assert json.loads(out) == {"a": [1, {"b": 2}]}


def test_raw_bom_error_does_not_point_to_an_option_raw_lacks():
    # It said "enable allow_bom to skip it", and Raw has no allow_bom.
    for data in (b"\xef\xbb\xbf[1]", "\ufeff[1]"):
        with pytest.raises(jetjson.JSONDecodeError) as e:
            jetjson.Raw(data)
        assert e.value.pos == 0 and "byte order mark" in e.value.msg
        assert "allow_bom" not in str(e.value)
        with pytest.raises(TypeError):
            jetjson.Raw(data, allow_bom=True)
    # loads, which has the option, still names it.
    with pytest.raises(jetjson.JSONDecodeError, match="allow_bom"):
        jetjson.loads(b"\xef\xbb\xbf[1]")


# ---- large Raw texts copied once into the result (dumps/holes.rs)
#
# After an output of 512 bytes or more, a Raw text of 512 bytes or more that
# the profile embeds as it is (compact) is left out of the kept writer's
# buffer and copied straight into the result. Every test primes that path
# with a large output first, and compares with the bytes written without it.

_BIG = json.dumps({"items": [{"id": i, "name": f"item {i}", "tags": ["a", "b"]} for i in range(30)]}, separators=(",", ":")).encode()


def _prime():
    jetjson.dumps("x" * 2000)


def _reference(obj, **kw):
    """The bytes of `obj` with every Raw replaced by its decoded value: the
    same text in compact, since _BIG is compact already."""

    def plain(o):
        if isinstance(o, jetjson.Raw):
            return json.loads(bytes(o))
        if isinstance(o, dict):
            return {k: plain(v) for k, v in o.items()}
        if isinstance(o, (list, tuple)):
            return [plain(v) for v in o]
        return o

    return jetjson.dumps(plain(obj), **kw)


def test_large_raws_in_every_place_give_the_same_bytes():
    r = jetjson.Raw(_BIG)
    small = jetjson.Raw(b'{"s":1}')
    shapes = [
        r,
        [r],
        {"id": "evt_1", "type": "order.created", "data": r},
        [r, r, r, r, r, r, r],  # more than the four holes an output keeps
        {"a": [r, {"b": r, "c": small}], "d": "x" * 40, "e": [small, r]},
        [small, 1, r, None, r, "tail"],
        {"deep": [[[[r]]]], "after": list(range(100))},
    ]
    for obj in shapes:
        for kw in [{}, {"sort_keys": True}, {"indent": 2}, {"nan": "null"}, {"profile": "compact"}]:
            # Written with the texts in the buffer: after a small output.
            jetjson.dumps(1)
            want = jetjson.dumps(obj, **kw)
            if "indent" not in kw:  # (compact embeds Raw text as it is, unindented)
                assert want == _reference(obj, **kw)
            _prime()
            got = jetjson.dumps(obj, **kw)
            assert got == want, (kw, got[:80], want[:80])
            # And again, the writer kept from the call before.
            assert jetjson.dumps(obj, **kw) == want
        # go and jcs re-encode Raw text: not left out, same bytes as the value.
        for profile in ["go", "jcs"]:
            _prime()
            assert jetjson.dumps(obj, profile) == _reference(obj, profile=profile)


def test_large_raw_from_str_and_bytes_subclass():
    class B(bytes):
        pass

    text = _BIG.decode()
    for r in [jetjson.Raw.unchecked(text), jetjson.Raw.unchecked(B(_BIG)), jetjson.Raw(B(_BIG)), jetjson.Raw(text)]:
        _prime()
        assert jetjson.dumps({"data": r, "n": 1}) == b'{"data":' + _BIG + b',"n":1}'


def test_raws_made_by_default_and_dropped_are_copied_whole():
    # Each Raw (and, for the str input, its bytes) lives only until default's
    # result is written: the text left out must stay alive until the end.
    class Opaque:
        def __init__(self, i):
            self.i = i

    def default2(o):
        payload = (_BIG.decode() if o.i % 2 else bytes(_BIG))
        return jetjson.Raw.unchecked(payload)

    items = [Opaque(i) for i in range(7)]
    _prime()
    got = jetjson.dumps({"items": items, "tail": "x" * 10}, default=default2)
    assert got == b'{"items":[' + b",".join([_BIG] * 7) + b'],"tail":"xxxxxxxxxx"}'
    json.loads(got)


def test_no_reference_is_kept_or_lost_around_a_large_raw():
    payload = bytes(_BIG)
    r = jetjson.Raw.unchecked(payload)
    before = sys.getrefcount(payload)
    for _ in range(3):
        _prime()
        jetjson.dumps([r, r, {"x": r}])
    assert sys.getrefcount(payload) == before
    # A failure after texts were left out releases them too.
    for _ in range(3):
        _prime()
        with pytest.raises(TypeError):
            jetjson.dumps([r, r, object()])
        _prime()
        with pytest.raises(TypeError):
            jetjson.dumps({"a": r, "b": {1, 2}})
    assert sys.getrefcount(payload) == before


def test_large_raw_inside_a_nested_dumps_call():
    r = jetjson.Raw(_BIG)

    class Inner:
        pass

    def default(o):
        # A dumps inside default, itself with a large Raw: its own holes.
        return jetjson.Raw(jetjson.dumps({"inner": r}))

    _prime()
    got = jetjson.dumps([r, Inner(), r], default=default)
    assert got == b"[" + _BIG + b',{"inner":' + _BIG + b"}," + _BIG + b"]"


def test_a_view_of_other_items_is_named_by_its_format():
    # The message said "expected ... memoryview or str, not memoryview".
    import array

    view = memoryview(array.array("I", [1, 2])).cast("B").cast("I")
    calls = (
        lambda: jetjson.Raw(view),
        lambda: jetjson.canonicalize(view, "jcs"),
        lambda: jetjson.digest_bytes(view),
        lambda: jetjson.loads(view),
        lambda: jetjson.Decoder(list).decode(view),
    )
    for call in calls:
        with pytest.raises(TypeError, match="not a memoryview of format I"):
            call()


# A str with a lone surrogate is refused as loads refuses it (it said
# "invalid UTF-8 in string" before), at the surrogate's character index.
def test_a_lone_surrogate_is_named_as_loads_names_it():
    for text, at in [('["\ud800"]', 2), ('{"a":\n"x\udfff"}', 8), ("\ud83d", 0)]:
        with pytest.raises(jetjson.JSONDecodeError) as loads_error:
            jetjson.loads(text)
        for call in (jetjson.Raw, lambda t: jetjson.canonicalize(t, "go")):
            with pytest.raises(jetjson.JSONDecodeError) as info:
                call(text)
            e = info.value
            assert e.msg == "lone surrogate in str input (not valid Unicode text)" and e.pos == at, (e.msg, e.pos)
            assert (e.msg, e.pos, e.lineno, e.colno) == (loads_error.value.msg, loads_error.value.pos, loads_error.value.lineno, loads_error.value.colno)


def test_sorting_a_deep_unchecked_raw_that_fails_late_does_not_crash():
    # With sort_keys a raw text is read whole into a tree first; dropping it
    # after an error late in the text (trailing bytes, a missing close)
    # recursed on the caller's stack: a segfault on a 32 KiB thread at 500
    # levels, and on the main thread at 200,000 under a raised limit (found
    # by an outside tester). Run in a child process, which a crash fails.
    code = r"""
import threading, jetjson
out = []
def work():
    for text in ("[" * 500 + "]" * 500 + "x", "[" * 500 + "]" * 499, '{"a":' * 500 + "1" + "}" * 500 + "x"):
        try:
            jetjson.dumps([jetjson.Raw.unchecked(text)], sort_keys=True)
            out.append("no error")
        except jetjson.JSONEncodeError as e:
            out.append("error")
threading.stack_size(32 << 10)
t = threading.Thread(target=work)
t.start()
t.join()
threading.stack_size(0)
n = 200000
try:
    jetjson.dumps(jetjson.Raw.unchecked("[" * n + "]" * n + "x"), sort_keys=True, max_write_depth=10**6)
except jetjson.JSONEncodeError:
    out.append("error")
print(out)
"""
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stdout.strip() == str(["error"] * 4), (r.returncode, r.stdout, r.stderr[-2000:])
