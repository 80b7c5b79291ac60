"""jetjson.loads: values, input types, options, errors and positions,
agreement with json.loads on the corpus, round trips, threads and leaks."""

import array
import gc
import json
import math
import sys
import threading
import tracemalloc
import typing

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jetjson
from _loads_support import corpus_documents, line_col, strictly_equal

loads = jetjson.loads


# ---- values -------------------------------------------------------------


def test_scalars_and_containers():
    assert strictly_equal(loads(b'{"a": [1, -2, 2.5, true, false, null, "x"], "b": {}}'),
                          {"a": [1, -2, 2.5, True, False, None, "x"], "b": {}})
    assert loads(b"[]") == [] and loads(b"{}") == {} and loads(b'""') == ""
    assert loads(b" \n\t7 \r\n") == 7


def test_integers_are_exact_at_any_size():
    for n in [0, 1, -1, 2**31, 2**53 + 1, 2**63 - 1, -(2**63), 2**63, 2**64 - 1, 2**64, -(2**64) - 1, 10**300, -(10**1000)]:
        got = loads(str(n).encode())
        assert type(got) is int and got == n, n


def test_small_ints_are_shared_exact_and_counted():
    # Ints 0 to 1023 come from a table made when the module is set up
    # (loads/numbers.rs `SMALL_INTS`); every other int is made per literal.
    # Each boundary reads as itself, in every reader (loads, a Decoder, a
    # typed int), and taking them from the table leaves their reference
    # counts where they were once the results are gone.
    edge = [-1025, -1024, -257, -256, -6, -5, -1, 0, 1, 255, 256, 257, 1000, 1022, 1023, 1024, 1025, 10**6]
    text = json.dumps(edge).encode()
    decoders = [loads, jetjson.Decoder(typing.Any).decode, jetjson.Decoder(list[int]).decode]
    for decode in decoders:
        got = decode(text)
        assert got == edge and all(type(x) is int for x in got)
        assert [decode(b"[%d]" % n)[0] for n in edge] == edge
    # The table's objects where CPython keeps none of its own (its small
    # ints, up to 256, are counted by everything in the process).
    probes = [1000, 1023, 300, 777]
    shared = [loads(str(p).encode()) for p in probes]
    before = [sys.getrefcount(x) for x in shared]
    for decode in decoders:
        for _ in range(200):
            decode(b"[1000, 1023, 300, 777, {\"a\": 777}]" if decode is not decoders[2] else b"[1000, 1023, 300, 777]")
    gc.collect()
    assert [sys.getrefcount(x) for x in shared] == before
    assert loads(b"[1000, 1000]")[0] is loads(b"1000")


def test_minus_zero_integer_is_int_zero_and_float_keeps_its_sign():
    assert strictly_equal(loads(b"-0"), 0)
    assert strictly_equal(loads(b"-0.0"), -0.0)
    assert strictly_equal(loads(b"0e0"), 0.0)


def test_floats_beyond_the_double_range_are_refused_with_their_position():
    # json.loads gives inf here; serde_json, orjson and Go refuse, as loads
    # does: no float stands for them.
    for text in [b"1e400", b"-1e400", b"1E400", b"1.5e+9999", b"1e2147483648", b"-123123e100000"]:
        assert math.isinf(json.loads(text))
        with pytest.raises(jetjson.JSONDecodeError, match="is out of range") as info:
            loads(b'{"a": [0,\n  ' + text + b"]}")
        assert (info.value.pos, info.value.lineno, info.value.colno) == (12, 2, 3), text
    # Underflow is not out of range: the nearest float is a signed zero.
    for text in [b"1e-400", b"-1e-400", b"2e-324", b"-1e-2147483648"]:
        assert strictly_equal(loads(text), json.loads(text)), text


def test_int_beyond_cpython_digit_limit_is_a_decode_error():
    if not hasattr(sys, "get_int_max_str_digits") or sys.get_int_max_str_digits() == 0:
        pytest.skip("no int digit limit in this interpreter")
    digits = sys.get_int_max_str_digits() + 1
    doc = b'[1, ' + b"9" * digits + b"]"
    with pytest.raises(jetjson.JSONDecodeError) as info:
        loads(doc)
    assert info.value.pos == 4  # the number's first digit


@given(st.text(alphabet=st.characters(codec="utf-8", exclude_categories=["Cs"])))
def test_strings_of_every_width(s):
    text = json.dumps(s, ensure_ascii=False)
    assert strictly_equal(loads(text.encode()), s)
    assert strictly_equal(loads(text), s)
    assert strictly_equal(loads(json.dumps(s)), s)  # escaped form


def test_string_kinds_are_canonical():
    # Each width picked by the largest character: equal strs, same hash,
    # and usable as dict keys next to strs made by Python.
    for s in ["ascii", "caf\u00e9", "\u00ff", "\u0100", "\u65e5\u672c", "\uffff", "\U0001F600", "a\U0010FFFF"]:
        got = loads(json.dumps(s, ensure_ascii=False).encode())
        assert got == s and hash(got) == hash(s) and {s: 1}[got] == 1
        # Repeating keeps a str's width and drops any cached UTF-8 form
        # (a one-character str is CPython's shared singleton, whose cached
        # UTF-8 depends on what ran before), so the sizes compare widths.
        assert sys.getsizeof(got * 2) == sys.getsizeof(s.encode().decode() * 2)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**200), max_value=2**200)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=8), inner, max_size=6),
    max_leaves=40,
)


@settings(max_examples=300)
@given(json_values)
def test_round_trip_through_json_dumps(x):
    text = json.dumps(x)
    assert strictly_equal(loads(text), x)
    assert strictly_equal(loads(text.encode()), x)
    pretty = json.dumps(x, ensure_ascii=False, indent=2)
    assert strictly_equal(loads(pretty.encode("utf-8")), x)


@given(st.floats(allow_nan=False, allow_infinity=False), st.integers(min_value=0, max_value=25))
def test_floats_are_correctly_rounded(f, digits):
    text = f"{f:.{digits}e}"
    if math.isinf(float(text)):
        # Rounding the digits can carry past the largest double (1.8e308
        # written with no digit after the point is 2e+308).
        with pytest.raises(jetjson.JSONDecodeError, match="out of range"):
            loads(text)
    else:
        assert strictly_equal(loads(text), float(text))


def test_corpus_documents_agree_with_json():
    docs = corpus_documents()
    assert len(docs) > 800
    for label, data in docs:
        expected = json.loads(data)
        assert strictly_equal(loads(data, duplicate_keys="last"), expected), label
        assert strictly_equal(loads(data.decode("utf-8"), duplicate_keys="last"), expected), label


def test_corpus_documents_have_no_duplicate_keys():
    # So the default policy accepts them all as well.
    for label, data in corpus_documents():
        loads(data)


# ---- input types ----------------------------------------------------------

DOC = '{"k": ["v\u00e9", 1]}'
VALUE = {"k": ["v\u00e9", 1]}


@pytest.mark.parametrize("make", [
    lambda: DOC.encode(),
    lambda: bytearray(DOC.encode()),
    lambda: memoryview(DOC.encode()),
    lambda: memoryview(bytearray(DOC.encode())),
    lambda: memoryview(b"xx" + DOC.encode() + b"yy")[2:-2],
    lambda: memoryview(DOC.encode()).toreadonly(),
    lambda: DOC,
], ids=["bytes", "bytearray", "memoryview", "memoryview-of-bytearray", "memoryview-slice", "readonly-memoryview", "str"])
def test_each_input_type(make):
    assert loads(make()) == VALUE


def test_bytes_subclass_and_str_subclass():
    class B(bytes):
        pass

    class S(str):
        pass

    assert loads(B(DOC.encode())) == VALUE and loads(S(DOC)) == VALUE


def test_a_view_that_is_not_contiguous_is_read_as_bytes_reads_it():
    # As every function reads a buffer (Raw, canonicalize, digest_bytes):
    # its items in C order; an error at the view's own offsets.
    spread = lambda text: memoryview(b"".join(bytes([c]) + b"x" for c in text))[::2]  # noqa: E731
    view = spread(b"[1, 2]")
    assert bytes(view) == b"[1, 2]"
    assert loads(view) == [1, 2] == jetjson.Decoder(list).decode(view)
    assert jetjson.dumps(jetjson.Raw(view)) == b"[1, 2]"
    assert jetjson.canonicalize(view, "jcs") == b"[1,2]"
    assert jetjson.digest_bytes(view) == jetjson.digest_bytes(b"[1, 2]")
    with pytest.raises(jetjson.JSONDecodeError) as e:
        loads(spread(b"[1, ]"))
    assert e.value.pos == 4


def test_every_function_reads_buffers_alike():
    # Buffers of unsigned bytes, whoever exports them, are read by every
    # function; other buffers are refused by every function, with one
    # message naming what was given. (loads refused an array("B") and a
    # PickleBuffer that the others read; loads_lines read views the others
    # refused and failed on arrays with AttributeError.)
    import ctypes
    import pickle

    text = b'[1, 2]\n{"a": 3}\n'
    readers = {
        "loads": lambda d: loads(d),
        "Decoder": lambda d: jetjson.Decoder(list).decode(d),
        "loads_lines": lambda d: jetjson.loads_lines(d),
        "Raw": lambda d: jetjson.dumps(jetjson.Raw(d)),
        "canonicalize": lambda d: jetjson.canonicalize(d, "compact"),
        "digest_bytes": lambda d: jetjson.digest_bytes(d),
    }
    one = b"[1, 2]"
    for make in (
        lambda b: array.array("B", b),
        lambda b: pickle.PickleBuffer(b),
        lambda b: memoryview(b).cast("c"),
        lambda b: memoryview(bytearray(b)),
        # ctypes arrays say "<B" and "<c": bytes with a byte-order prefix.
        lambda b: (ctypes.c_ubyte * len(b)).from_buffer_copy(b),
        lambda b: (ctypes.c_char * len(b)).from_buffer_copy(b),
        lambda b: memoryview((ctypes.c_ubyte * len(b)).from_buffer_copy(b)),
    ):
        for name, read in readers.items():
            b = text if name == "loads_lines" else one
            assert read(make(b)) == read(b), name
    released = memoryview(one)
    released.release()
    for bad, says in (
        (memoryview(one).cast("b"), "not a memoryview of format b"),
        (array.array("H", [1, 2]), "not array"),
        ((ctypes.c_byte * 6).from_buffer_copy(one), "not c_byte_Array_6"),
        ((ctypes.c_uint16 * 3).from_buffer_copy(one), "not c_ushort_Array_3"),
        (memoryview(b"x").cast("B", ()), "not a memoryview of no dimensions"),
        (released, "not a released memoryview"),
    ):
        for name, read in readers.items():
            with pytest.raises(TypeError, match=says):
                read(bad)


def test_memoryview_of_other_item_sizes_reads_the_raw_bytes():
    assert loads(memoryview(array.array("B", b"[1]"))) == [1]


@pytest.mark.parametrize("bad", [None, 1, 1.5, [b"[]"], {"a": 1}, object()])
def test_unsupported_input_types_are_type_errors(bad):
    with pytest.raises(TypeError, match="bytes, bytearray, memoryview or str"):
        loads(bad)


def test_input_is_positional_only_and_options_keyword_only():
    with pytest.raises(TypeError):
        loads(data=b"[]")
    with pytest.raises(TypeError):
        loads(b"[]", 3)


# ---- options --------------------------------------------------------------


@pytest.mark.parametrize("kwargs,exc", [
    ({"max_depth": "1"}, TypeError),
    ({"max_depth": 1.0}, TypeError),
    ({"max_depth": True}, TypeError),
    ({"max_depth": -1}, ValueError),
    ({"max_size": "10"}, TypeError),
    ({"max_size": -5}, ValueError),
    ({"max_size": -(2**200)}, ValueError),
    ({"duplicate_keys": "keep"}, ValueError),
    ({"duplicate_keys": "ERROR"}, ValueError),
    ({"duplicate_keys": 1}, TypeError),
    ({"duplicate_keys": None}, TypeError),
    ({"unknown": 1}, TypeError),
])
def test_bad_options(kwargs, exc):
    with pytest.raises(exc) as info:
        loads(b"[]", **kwargs)
    assert not isinstance(info.value, jetjson.JSONDecodeError)


def test_huge_limits_mean_no_limit():
    assert loads(b"[[1]]", max_depth=2**100, max_size=2**100) == [[1]]


def test_duplicate_key_policies():
    doc = b'{"a": 1, "b": 2, "a": 3}'
    assert list(loads(doc, duplicate_keys="first").items()) == [("a", 1), ("b", 2)]
    assert list(loads(doc, duplicate_keys="last").items()) == [("a", 3), ("b", 2)]
    with pytest.raises(jetjson.JSONDecodeError) as info:
        loads(doc)
    e = info.value
    assert e.msg == 'duplicate object key "a"'
    assert (e.pos, e.lineno, e.colno) == (17, 1, 18)  # the second "a"


def test_duplicate_key_error_is_the_first_in_document_order():
    # The inner object closes first, but the outer repeat comes first.
    doc = '{"x": 1, "x": {"y": 1, "y": 2}}'
    with pytest.raises(jetjson.JSONDecodeError) as info:
        loads(doc)
    assert info.value.msg == 'duplicate object key "x"' and info.value.pos == 9
    doc = '[{"\u00e9": 1}, {"k": 0, "\u00e9": 1,\n "\u00e9": 2}]'
    with pytest.raises(jetjson.JSONDecodeError) as info:
        loads(doc)
    e = info.value
    assert e.pos == doc.index('"\u00e9": 2') and (e.lineno, e.colno) == (2, 2)
    with pytest.raises(jetjson.JSONDecodeError) as info:
        loads(doc.encode())
    assert info.value.pos == doc.encode().index('"\u00e9": 2'.encode())


def test_duplicate_keys_are_compared_after_decoding_escapes():
    with pytest.raises(jetjson.JSONDecodeError, match="duplicate"):
        loads(b'{"a": 1, "\\u0061": 2}')
    assert loads(b'{"a": 1, "\\u0061": 2}', duplicate_keys="last") == {"a": 2}


def test_max_depth():
    assert loads(b"[[[]]]", max_depth=3) == [[[]]]
    with pytest.raises(jetjson.JSONDecodeError) as info:
        loads(b"[[[]]]", max_depth=2)
    assert info.value.msg == "nesting deeper than max_depth 2" and info.value.pos == 2
    assert loads(b"5", max_depth=0) == 5
    with pytest.raises(jetjson.JSONDecodeError):
        loads(b"{}", max_depth=0)
    deep = 600
    assert loads(b"[" * deep + b"]" * deep, max_depth=deep) is not None


@pytest.mark.parametrize("opener", [b"[", b'{"a":'])
def test_a_million_open_containers_fail_cleanly_at_max_depth(opener):
    data = opener * 1_000_000
    with pytest.raises(jetjson.JSONDecodeError) as info:
        loads(data)
    assert info.value.msg == "nesting deeper than max_depth 512"
    assert info.value.pos == 512 * len(opener)


def test_default_max_depth_is_512():
    assert loads(b"[" * 512 + b"]" * 512) is not None
    with pytest.raises(jetjson.JSONDecodeError):
        loads(b"[" * 513 + b"]" * 513)


def test_max_size_is_checked_before_parsing():
    assert loads(b"[1, 2]", max_size=6) == [1, 2]
    with pytest.raises(jetjson.JSONDecodeError) as info:
        loads(b"[1, 2]", max_size=5)
    assert info.value.msg == "input larger than max_size 5 bytes"
    # Before parsing: the rest of the document is never looked at.
    with pytest.raises(jetjson.JSONDecodeError, match="max_size"):
        loads(b"[1, 2, oops", max_size=3)
    # str input counts the bytes of its UTF-8 form.
    assert loads('"\u00e9"', max_size=4) == "\u00e9"
    with pytest.raises(jetjson.JSONDecodeError, match="max_size"):
        loads('"\u00e9"', max_size=3)
    with pytest.raises(ValueError):
        loads(b"[]", max_size=1)


def test_max_size_alone_behaves_as_with_other_options():
    # loads(data, max_size=n) has a path of its own (no argument parsing);
    # every value must fare as it does next to another keyword.
    class Size(int):
        pass

    def outcome(call):
        try:
            return ("ok", call())
        except Exception as e:  # noqa: BLE001 (the type and text are compared)
            return (type(e), str(e))

    name = "".join(["max_", "size"])  # a keyword name that is not interned
    for data in (b"[1, 2]", "[1, 2]", bytearray(b"[1, 2]"), b"[1, 2", 7):
        for v in (0, 5, 6, 2**62, 2**63, 2**100, -1, -(2**70), True, False, "6", 6.0, None, Size(5), Size(6)):
            want = outcome(lambda: loads(data, max_size=v, allow_bom=False))
            assert outcome(lambda: loads(data, max_size=v)) == want, (data, v)
            assert outcome(lambda: loads(data, **{name: v})) == want, (data, v)


def test_max_size_error_gives_the_line_and_column_of_the_limit():
    # The refusal points at byte max_size, with its line and column counted
    # over everything before it: long prefixes (the count runs in vector
    # blocks), newlines at every density, limits on and off block edges.
    rng = __import__("random").Random(5)
    for density in (0.0, 0.001, 0.05, 0.5, 1.0):
        body = bytes(10 if rng.random() < density else rng.choice(b' "ab:,{}[]\x0b\x8a\xff') for _ in range(70_000))
        for limit in (0, 1, 31, 32, 127, 128, 129, 8064, 8065, 16384, 65_535):
            for data in (body, bytearray(body)):
                with pytest.raises(jetjson.JSONDecodeError) as info:
                    loads(data, max_size=limit)
                e = info.value
                want = (limit, *line_col(body, limit))
                assert (e.pos, e.lineno, e.colno) == want, (density, limit)
                assert str(e) == f"input larger than max_size {limit} bytes: line {want[1]} column {want[2]} (char {limit})"


def test_max_size_refusal_of_str_input_counts_characters():
    # A str of at most max_size characters whose UTF-8 form is longer: the
    # refusal points at byte max_size of that form, given in characters
    # (when the byte is inside a character, at that character: it named
    # the next one before), on every path to the check.
    doc = '["\u00e9\u00e9",\n "\u65e5\u672c", "\U0001F600"]'
    starts = []  # the byte offset where each character starts
    at = 0
    for ch in doc:
        starts.append(at)
        at += len(ch.encode("utf-8"))
    for limit in range(len(doc), at):
        chars_before = sum(1 for s in starts if s <= limit) - 1
        line_start = doc.rfind("\n", 0, chars_before) + 1
        want = (chars_before, doc.count("\n", 0, chars_before) + 1, chars_before - line_start + 1)
        for call in (
            lambda: loads(doc, max_size=limit),
            lambda: loads(doc, max_size=limit, max_depth=9),
            lambda: jetjson.Decoder(list, max_size=limit).decode(doc),
            lambda: jetjson.canonicalize(doc, "go", max_size=limit),
        ):
            with pytest.raises(jetjson.JSONDecodeError) as info:
                call()
            e = info.value
            assert e.msg == f"input larger than max_size {limit} bytes" and e.doc is doc
            assert (e.pos, e.lineno, e.colno) == want, limit


def test_decode_errors_are_the_objects_json_makes():
    # Made without running json's __init__, but the same object: the text
    # as the only arg, and msg, doc, pos, lineno, colno in json's order.
    # (A message with non-ASCII text too: a repeated name is quoted in it.)
    for doc in ('{"a": [1,', '[1,\n 2,\n x]', '["\u00e9\u00e9",\n  tru]', "[" * 600, '{"\u65e5":1,\n"\u65e5":2}'):
        with pytest.raises(jetjson.JSONDecodeError) as info:
            loads(doc)
        e = info.value
        assert type(e) is jetjson.JSONDecodeError and isinstance(e, json.JSONDecodeError) and isinstance(e, ValueError)
        assert e.doc is doc and e.args == (str(e),)
        ref = json.JSONDecodeError(e.msg, doc, e.pos)  # json counts lines over doc itself
        assert list(vars(e).items()) == list(vars(ref).items())
        assert str(e) == str(ref)
        assert e.msg.isascii() == ("\u65e5" not in doc) and ("\u65e5" in e.msg) == ("\u65e5" in doc)
    with pytest.raises(jetjson.ValidationError) as info:
        loads('{"a":\n "x"}', type=dict[str, int])
    v = info.value
    assert list(vars(v)) == ["msg", "doc", "pos", "lineno", "colno", "path"]
    assert (v.path, v.pos, v.lineno, v.colno) == ("$.a", 7, 2, 2) and v.args == (str(v),)
    assert str(v) == f"{v.msg} at $.a (line 2 column 2)"


def test_max_size_refuses_a_long_str_before_encoding_it():
    # A lone surrogate beyond the limit is never reached: the str is
    # refused by its length, before its UTF-8 form is made.
    doc = '["\u65e5\u672c", 1, "' + "x" * 100 + '\ud800"]'
    with pytest.raises(jetjson.JSONDecodeError) as info:
        loads(doc, max_size=10)
    e = info.value
    assert e.msg == "input larger than max_size 10 bytes"
    # Byte 10 of the UTF-8 form is character 6 (two 3-byte characters).
    assert (e.pos, e.lineno, e.colno) == (6, 1, 7)
    with pytest.raises(jetjson.JSONDecodeError) as info:
        loads(doc.encode("utf-8", "surrogatepass"), max_size=10)
    assert info.value.pos == 10


def test_allow_bom():
    bom = b"\xef\xbb\xbf"
    with pytest.raises(jetjson.JSONDecodeError, match="byte order mark") as info:
        loads(bom + b"[1]")
    assert info.value.pos == 0
    assert loads(bom + b"[1]", allow_bom=True) == [1]
    assert loads("\ufeff[1]", allow_bom=True) == [1]
    with pytest.raises(jetjson.JSONDecodeError):
        loads("\ufeff[1]")
    with pytest.raises(jetjson.JSONDecodeError):
        loads(bom + bom + b"[1]", allow_bom=True)


# ---- errors ---------------------------------------------------------------


def test_error_is_a_json_decode_error_with_attributes():
    doc = '{"a": 1,\n "b": [1, 2],\n "c": 3 "d"}'
    with pytest.raises(jetjson.JSONDecodeError) as info:
        loads(doc)
    e = info.value
    assert isinstance(e, json.JSONDecodeError) and isinstance(e, ValueError)
    assert e.msg == "expected ',' or '}' after object member"
    assert (e.pos, e.lineno, e.colno) == (doc.index('"d"'), 3, 9)
    assert str(e) == "expected ',' or '}' after object member: line 3 column 9 (char 31)"
    assert e.doc is doc


def test_positions_are_characters_for_str_and_bytes_for_bytes():
    doc = '{"\u65e5\u672c": "\u00e9\U0001F600",\n "x": [1, 2 3]}'
    b = doc.encode()
    with pytest.raises(jetjson.JSONDecodeError) as s_info:
        loads(doc)
    with pytest.raises(jetjson.JSONDecodeError) as b_info:
        loads(b)
    se, be = s_info.value, b_info.value
    assert se.msg == be.msg == "expected ',' or ']' after array element"
    assert se.pos == doc.index("3]") and (se.lineno, se.colno) == line_col(doc, se.pos) == (2, 13)
    assert be.pos == b.index(b"3]") and (be.lineno, be.colno) == line_col(b, be.pos) == (2, 13)
    # The same error json.loads reports (its own words aside).
    try:
        json.loads(doc)
    except json.JSONDecodeError as j:
        assert (j.pos, j.lineno, j.colno) == (se.pos, se.lineno, se.colno)


def test_non_ascii_on_the_error_line_counts_as_one_column():
    doc = '["\u00e9\u00e9\u00e9", tru]'
    with pytest.raises(jetjson.JSONDecodeError) as info:
        loads(doc)
    e = info.value
    assert e.msg == "invalid literal (expected true, false or null)"
    assert (e.pos, e.colno) == (doc.index("tru") + 3, doc.index("tru") + 4)
    with pytest.raises(jetjson.JSONDecodeError) as info:
        loads(doc.encode())
    assert (info.value.pos, info.value.colno) == (doc.encode().index(b"tru") + 3, doc.encode().index(b"tru") + 4)


@pytest.mark.parametrize("doc,msg,pos", [
    (b"", "unexpected end of input: expected a JSON value", 0),
    (b"[1,]", "expected a value after ','", 3),
    (b'{"a" 1}', "expected ':' after object member name", 5),
    (b"[1] [2]", "trailing characters after the JSON value", 4),
    (b'["a\xffb"]', "invalid UTF-8 in string", 3),
    (b'["\\ud800"]', "lone surrogate escape (a high surrogate must be followed by a low one)", 2),
    (b"[NaN]", "expected a JSON value", 1),
    (b"[01]", "expected ',' or ']' after array element", 2),
    (b'"abc', "unterminated string", 0),
])
def test_error_messages_and_positions(doc, msg, pos):
    with pytest.raises(jetjson.JSONDecodeError) as info:
        loads(doc)
    assert (info.value.msg, info.value.pos) == (msg, pos)


def test_str_with_a_lone_surrogate_is_a_decode_error():
    doc = '["ok",\n "\ud800"]'
    with pytest.raises(jetjson.JSONDecodeError) as info:
        loads(doc)
    e = info.value
    assert "surrogate" in e.msg
    assert (e.pos, e.lineno, e.colno) == (9, 2, 3)


# ---- threads and leaks ----------------------------------------------------


def test_eight_threads_agree_with_one():
    docs = [data for _, data in corpus_documents()[:40]]
    docs += [b'{"a": 1, "a": 2}', b"[1, 2", ("\u65e5" * 100).join(['{"k', '": 1}']).encode()]

    def run(doc):
        try:
            return ("ok", loads(doc, duplicate_keys="error"))
        except jetjson.JSONDecodeError as e:
            return ("error", e.msg, e.pos)

    expected = [run(d) for d in docs]
    results = [None] * 8
    start = threading.Barrier(8)

    def worker(k):
        start.wait()
        out = []
        for _ in range(5):
            out.append([run(d) for d in docs])
        results[k] = out

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for out in results:
        assert out is not None
        for rnd in out:
            assert len(rnd) == len(expected)
            for got, want in zip(rnd, expected):
                assert got[0] == want[0] and strictly_equal(got[1:], want[1:])


def _exercise(i):
    loads(b'{"key": [1, 2.5, "s\xc3\xa9", {"n": null}], "big": 123456789012345678901234567890}')
    loads('{"\u65e5": "\U0001F600", "k%d": [true, false]}' % (i % 50))
    for bad in (b'{"a": [1, {"b": [2, 3', b'{"a": 1, "a": 2}', b'[1, {"x": "y"}, [2, 3]] x', b"[" * 600):
        try:
            loads(bad)
        except jetjson.JSONDecodeError:
            pass
    try:
        loads(b'{"x": [1, 2], "y": ' + b"9" * 5000 + b"}")
    except ValueError:
        pass
    try:
        loads(12)
    except TypeError:
        pass
    loads(bytearray(b'[{"a": "b"}]'), duplicate_keys="first")


def test_no_leaks_over_100000_calls_including_error_paths():
    for i in range(2000):
        _exercise(i)
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for i in range(100_000 // 10):
            _exercise(i)
        gc.collect()
        after = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    # Each round builds and drops about 10 documents and errors; a leak of
    # even one small object per call would add megabytes.
    assert after - before < 64 * 1024, after - before


def test_flags_take_truth_values_as_json_does():
    # allow_bom=1 or None is what json-style code passes; any object's
    # truth value decides, as for json's flags.
    for truthy in (1, "yes", [0]):
        assert jetjson.loads(b"\xef\xbb\xbf[1]", allow_bom=truthy) == [1]
    for falsy in (0, None, ""):
        with pytest.raises(jetjson.JSONDecodeError):
            jetjson.loads(b"\xef\xbb\xbf[1]", allow_bom=falsy)


def _objects_by_name(value, seen):
    """Every object used as a dict key anywhere in `value`, by its text."""
    if isinstance(value, dict):
        for k, v in value.items():
            seen.setdefault(k, set()).add(id(k))
            _objects_by_name(v, seen)
    elif isinstance(value, list):
        for v in value:
            _objects_by_name(v, seen)
    return seen


def test_keys_are_one_object_each_and_dicts_are_the_kind_json_makes():
    # A key spelled the same is the same str object wherever it appears (as
    # json.loads's memo makes it): dumps matches its cached shapes by key
    # identity, and memory holds one copy. Timelines put colliding keys
    # (`protected`, `profile_sidebar_fill_color`) in every user object. And
    # each dict has the table json.loads makes (sys.getsizeof equal): a
    # presized table is CPython's general kind, bigger and off dumps'
    # fast path.
    names = ("twitter.json", "citm_catalog.json", "github_events.json")
    docs = [(label, data) for label, data in corpus_documents() if label.endswith(names)]
    assert len(docs) >= len(names)
    for path, data in docs:
        got, want = jetjson.loads(data), json.loads(data)
        seen = _objects_by_name(got, {})
        assert seen.keys() == _objects_by_name(want, {}).keys()
        several = {k: len(ids) for k, ids in seen.items() if len(ids) > 1}
        assert not several, (path, sorted(several.items())[:5])

        def sizes(v, out):
            if isinstance(v, dict):
                out.append(sys.getsizeof(v))
                for x in v.values():
                    sizes(x, out)
            elif isinstance(v, list):
                for x in v:
                    sizes(x, out)
            return out

        assert sizes(got, []) == sizes(want, []), path


def test_cached_keys_that_differ_only_between_their_ends_stay_apart():
    # The key cache decides a key of up to 16 bytes by its length and its
    # first and last eight bytes; a longer one (to 64 bytes) must also be
    # compared in full. Keys of one length whose ends agree fall in the same
    # set of the cache, so each lookup meets the others' entries there
    # (several per set, so entries are also replaced), in one document and
    # across calls, as keys of nested objects and as string values.
    for n in range(17, 70):
        head, tail = "h" * 8, "t" * 8
        keys = [head + c * (n - 16) + tail for c in "abcd"]
        doc = {k: {k2: i for i, k2 in enumerate(keys[::-1])} for k in keys}
        doc["values"] = keys + keys[::-1]
        text = json.dumps(doc).encode()
        for _ in range(3):
            got = jetjson.loads(text)
            assert got == doc, n
            assert list(got) == list(doc), n
            assert [list(v) for v in got.values() if isinstance(v, dict)] == [keys[::-1]] * 4, n
