"""The paths tiny documents take (issue 23, fixed cost per call):

* a document that is one scalar (`loads(b'1')`, `loads(b' "ok" ')`) is read
  by the parser's scalar walk inlined into the quick call, into a builder
  of one object (loads/one.rs, `jetjson::parse::parse_scalar`);
* strings and whitespace in the input's last, partial 64-byte block are
  first read byte by byte, before that block's masks are made
  (drive.rs `short_string_in_tail`, `short_ws_in_tail`).

Each is compared with the general path, which reads the same text with
none of them: a `bytearray` (copied, never quick) or a call with an option
(pyo3's argument parsing, then the full builder), and with json.loads."""

import gc
import json
import sys
import typing

import pytest

import jetjson
from _loads_support import outcome, same, strictly_equal

loads = jetjson.loads
ANY = jetjson.Decoder(typing.Any)

SCALARS = [
    "0", "1", "-1", "-0", "7", "42", "123456789", "9223372036854775807", "-9223372036854775808",
    "9223372036854775808", "18446744073709551615", "18446744073709551616", "123456789012345678901234567890",
    "0.0", "-0.0", "1.5", "-1.5", "1e5", "1E-5", "2.5e+3", "1e-400", "true", "false", "null",
    '""', '"a"', '"ok"', '"\\u00e9"', '"\\n\\t"', '"\\ud83d\\ude00"', '"é"', '"日本"', '"' + "x" * 100 + '"',
]
BAD = [
    "", " ", "01", "-", "1.", "1e", ".5", "+1", "1e400", "-1e400", "nul", "tru", "fals", "nulll", "truex", "None",
    '"', '"abc', '"\\x"', '"\\ud800"', '"\x01"', '"a"b', "1 2", "1,", "1]", "1}", "x", "\x00", '"a" "b"',
]
SPACES = ["", " ", "\n", " \t\r\n ", " " * 70]



def general(data):
    """The same text read with no quick path and no scalar walk."""
    return loads(bytearray(data.encode() if isinstance(data, str) else data), max_depth=512)



@pytest.mark.parametrize("value", SCALARS + BAD)
def test_scalar_documents_read_as_the_general_path_reads_them(value):
    for before in SPACES:
        for after in SPACES:
            text = before + value + after
            want = outcome(general, text)
            for data in (text.encode(), text):
                assert same(outcome(loads, data), want), repr(data)
            if "e400" not in value and "ud800" not in value:  # json.loads takes both; jetjson refuses them
                try:
                    parsed = json.loads(text)
                except ValueError:
                    assert want[0] == "error", repr(text)
                else:
                    assert want[0] == "ok" and strictly_equal(want[1], parsed), repr(text)
            if want[0] == "ok":
                assert strictly_equal(ANY.decode(text.encode()), want[1]), repr(text)


@pytest.mark.parametrize("value", ["1", "-12", "true", "null", '"abc"', "1.5"])
def test_scalar_documents_keep_max_size_and_allow_bom(value):
    raw = value.encode()
    n = len(raw)
    for limit in range(n + 2):
        dec = jetjson.Decoder(typing.Any, max_size=limit)
        for data in (raw, b" " + raw, raw + b"\n"):
            want = outcome(lambda d: loads(bytearray(d), max_size=limit), data)
            assert same(outcome(lambda d: loads(d, max_size=limit), data), want), (data, limit)
            got = outcome(dec.decode, data)
            assert got[0] == want[0], (data, limit)
            if want[0] == "ok":
                assert strictly_equal(got[1], want[1])
            else:
                assert "max_size" in want[1][1] and want[1][2] == limit
    bom = b"\xef\xbb\xbf" + raw
    assert strictly_equal(jetjson.Decoder(typing.Any, allow_bom=True).decode(bom), json.loads(value))
    for f in (loads, ANY.decode):
        with pytest.raises(jetjson.JSONDecodeError) as info:
            f(bom)
        assert info.value.pos == 0


def test_scalar_documents_at_depth_zero_whatever_the_limit():
    # Depth counts containers: a scalar is read under any max_depth, a
    # container only within it, on the quick path as on the general one.
    for depth in (0, 1):
        dec = jetjson.Decoder(typing.Any, max_depth=depth)
        assert dec.decode(b"1") == 1 and dec.decode(b' "x" ') == "x"
        assert loads(b"null", max_depth=depth) is None
    with pytest.raises(jetjson.JSONDecodeError, match="depth"):
        jetjson.Decoder(typing.Any, max_depth=0).decode(b"[1]")


def test_int_beyond_the_digit_limit_in_a_scalar_document():
    # The int is refused by CPython while the scalar walk builds it: the
    # exception is cleared there and the general path reports it, with the
    # same error as a bytearray's; nothing is left set afterwards.
    digits = b"9" * (sys.get_int_max_str_digits() + 1)
    for data in (digits, b" " + digits + b" ", b"-" + digits):
        want = outcome(lambda d: loads(bytearray(d)), data)
        assert want[0] == "error"
        assert outcome(loads, data) == want
        with pytest.raises(jetjson.ValidationError):
            ANY.decode(data)
        assert loads(b"1") == 1


def test_scalar_results_keep_reference_counts():
    # None, True and False are not immortal on CPython 3.11: a reference too
    # many or too few per call shows here.
    # (A first round warms what errors keep between calls.)
    def calls(data):
        for _ in range(1000):
            try:
                loads(data)
            except jetjson.JSONDecodeError:
                pass

    for obj, data in ((None, b"null"), (True, b" true"), (False, b"false "), (None, b"nul"), (True, b"true 1")):
        calls(data)
        # (No collection in between: one may free garbage holding them.)
        gc.collect()
        gc.disable()
        try:
            before = sys.getrefcount(obj)
            calls(data)
            after = sys.getrefcount(obj)
        finally:
            gc.enable()
        assert after == before, data


def test_strings_and_whitespace_in_the_last_block():
    # Bodies of every length around the short scan's reach (16 bytes), each
    # kind of stop at several places, runs of whitespace, at every offset of
    # the last, partial block; as names and values; whole and cut short.
    stops = [None, '"', "\\n", "\\", "\x1f", "é", "\x7f", "\\u00e9"]
    checked = 0
    for pad in (0, 1, 40, 50, 60, 63, 64, 65, 127):
        for n in range(0, 20):
            for stop in stops:
                body = "a" * n
                if stop is not None and n:
                    body = body[: n // 2] + stop + body[n // 2 + 1:]
                ws = "  \t\n\r   "[: n % 9]
                doc = " " * pad + '{"' + body + '"' + ws + ":" + ws + '"' + body + '"' + ws + "}" + ws
                for text in (doc, doc[:-3], doc.rstrip() + "x", " " * pad + '"' + body + '"' + ws):
                    want = outcome(general, text)
                    assert same(outcome(loads, text.encode()), want), repr(text)
                    try:
                        parsed = json.loads(text)
                    except ValueError:
                        assert want[0] == "error", repr(text)
                        assert "disagree" not in str(want[1][1])
                    else:
                        assert want[0] == "ok" and strictly_equal(want[1], parsed), repr(text)
                    checked += 1
    assert checked > 5000
