"""The rules canonicalize and digest share with the CLI and the C library
(issue 22, "one behaviour in every front end"): the profile of hashed or
signed output is named (no default), an output keyword that cannot change a
profile's bytes is refused with its Python spelling, the write depth limit
is max_write_depth (default 512, as loads' max_depth), and stored bytes
have their own digest, digest_bytes, which digest points to."""

import hashlib
import json

import pytest

import jetjson
from _dumps_support import CORPUS

PROFILES = ("compact", "go", "jcs")
DOC = '{"b":"<é>","a":[1.5,{"z":1,"y":2}]}'

# (keyword arguments, how the error spells them). The table the README
# documents: which profile refuses which keyword.
KEYWORDS = [
    ({"escape_html": True}, "escape_html=True"),
    ({"escape_html": False}, "escape_html=False"),
    ({"sort_keys": True}, "sort_keys=True"),
    ({"sort_keys": False}, "sort_keys=False"),
    ({"indent": 2}, "indent=2"),
    ({"ascii_only": True}, "ascii_only=True"),
]
REFUSED = {
    "jcs": {"escape_html=True", "escape_html=False", "sort_keys=True", "sort_keys=False", "indent=2", "ascii_only=True", 'nan="null"'},
    "go": {"escape_html=True", 'nan="null"'},
    "compact": {"escape_html=False"},
}


def test_canonicalize_and_digest_need_a_profile():
    for call, name in ((lambda: jetjson.canonicalize(DOC), "canonicalize"), (lambda: jetjson.digest({}), "digest")):
        with pytest.raises(TypeError) as e:
            call()
        message = str(e.value)
        assert message.startswith(f"{name}() needs a profile: "), message
        for p in PROFILES:
            assert f'"{p}"' in message, message
    # Positionally or by keyword, the same bytes.
    for p in PROFILES:
        assert jetjson.canonicalize(DOC, p) == jetjson.canonicalize(DOC, profile=p)
        assert jetjson.digest(json.loads(DOC), p) == jetjson.digest(json.loads(DOC), profile=p)
    # dumps keeps its default, compact.
    assert jetjson.dumps(json.loads(DOC)) == jetjson.canonicalize(DOC, "compact")


@pytest.mark.parametrize("profile", PROFILES)
def test_keywords_that_cannot_change_the_bytes_are_refused(profile):
    obj = json.loads(DOC)
    plain = jetjson.canonicalize(DOC, profile)
    for kw, spelled in KEYWORDS:
        calls = {
            "canonicalize": lambda: jetjson.canonicalize(DOC, profile, **kw),
            "digest": lambda: jetjson.digest(obj, profile, **kw),
            "dumps": lambda: jetjson.dumps(obj, profile, **kw),
        }
        for name, call in calls.items():
            if spelled in REFUSED[profile]:
                with pytest.raises(ValueError) as e:
                    call()
                assert str(e.value).startswith(f'{spelled} cannot be used with profile "{profile}": '), (name, str(e.value))
            else:
                out = call()
                want = jetjson.dumps(obj, profile=profile, **kw)
                assert out == (want if name != "digest" else "sha256:" + hashlib.sha256(want).hexdigest()), (name, kw)
                if spelled.startswith("escape_html"):
                    # The accepted escape_html settings change the bytes here.
                    assert want != plain, (profile, kw)
    # nan="null": compact only (digest; canonicalize reads no NaN).
    nan = {"x": float("nan")}
    if 'nan="null"' in REFUSED[profile]:
        for call in (jetjson.digest, jetjson.dumps):
            with pytest.raises(ValueError, match=f'^nan="null" cannot be used with profile "{profile}"'):
                call(nan, profile, nan="null")
    else:
        assert jetjson.digest(nan, profile, nan="null") == "sha256:" + hashlib.sha256(b'{"x":null}').hexdigest()


def test_the_write_depth_limit():
    at, over = b"[" * 512 + b"]" * 512, b"[" * 513 + b"]" * 513
    for p in PROFILES:
        assert jetjson.canonicalize(at, p) == at
        # Placed at the 513th '[' (line 1, column 513, byte 512).
        with pytest.raises(jetjson.JSONEncodeError, match=r"^line 1 column 513 \(byte 512\): nesting deeper than max_write_depth 512$"):
            jetjson.canonicalize(over, p, max_depth=513)
        assert jetjson.canonicalize(over, p, max_depth=513, max_write_depth=513) == over
        with pytest.raises(jetjson.JSONEncodeError, match="max_write_depth 3"):
            jetjson.canonicalize(b"[[[[0]]]]", p, max_write_depth=3)
        assert jetjson.canonicalize(b"[[[0]]]", p, max_write_depth=3) == b"[[[0]]]"
    deep = b"[" * 100_000 + b"]" * 100_000
    assert jetjson.canonicalize(deep, "go", max_depth=100_000, max_write_depth=100_000) == deep
    for bad in (0, -1, 1_000_001):
        for call in (lambda: jetjson.canonicalize(b"1", "go", max_write_depth=bad), lambda: jetjson.digest(1, "go", max_write_depth=bad)):
            with pytest.raises(ValueError, match=f"max_write_depth must be an int from 1 to 1000000, got {bad}"):
                call()


def _nested(depth):
    v = 0
    for _ in range(depth):
        v = [v]
    return v


def test_digest_holds_the_default_write_depth():
    assert jetjson.digest(_nested(512), "go") == "sha256:" + hashlib.sha256(jetjson.dumps(_nested(512))).hexdigest()
    with pytest.raises(jetjson.JSONEncodeError, match="nesting deeper than max"):
        jetjson.digest(_nested(513), "go")


def test_digest_follows_max_write_depth():
    with pytest.raises(jetjson.JSONEncodeError, match="max_write_depth 3"):
        jetjson.digest(_nested(4), "go", max_write_depth=3)
    assert jetjson.digest(_nested(600), "go", max_write_depth=600).startswith("sha256:")


def test_dumps_follows_max_write_depth():
    # The same limit, keyword and message as digest and canonicalize.
    with pytest.raises(jetjson.JSONEncodeError, match=r"nesting deeper than max_write_depth 3$"):
        jetjson.dumps(_nested(4), max_write_depth=3)
    assert jetjson.dumps(_nested(3), max_write_depth=3) == b"[[[0]]]"
    deep = _nested(600)
    with pytest.raises(jetjson.JSONEncodeError, match="nesting deeper than max_write_depth 512"):
        jetjson.dumps(deep)
    assert jetjson.dumps(deep, max_write_depth=600) == b"[" * 600 + b"0" + b"]" * 600
    assert jetjson.dumps(deep, profile="go", max_write_depth=600) == jetjson.dumps(deep, max_write_depth=600)
    # Records and dicts count too, in every profile.
    d = {}
    for _ in range(5):
        d = {"k": d}
    for profile in ["compact", "go", "jcs"]:
        with pytest.raises(jetjson.JSONEncodeError, match="max_write_depth 4"):
            jetjson.dumps(d, profile, max_write_depth=4)
        assert jetjson.loads(jetjson.dumps(d, profile, max_write_depth=6)) == d
    # Every function checks it alike, and names the value as given.
    takers = (
        lambda v: jetjson.dumps([], max_write_depth=v),
        lambda v: jetjson.canonicalize("[]", "go", max_write_depth=v),
        lambda v: jetjson.digest([], "go", max_write_depth=v),
    )
    for take in takers:
        for bad in [0, -1, 1_000_001, 2**63, 2**64, 2**70, -(2**70)]:
            with pytest.raises(ValueError, match=f"^max_write_depth must be an int from 1 to 1000000, got {bad}\\b"):
                take(bad)
        for bad in [True, 1.5, "3"]:
            with pytest.raises(TypeError, match="max_write_depth must be an int"):
                take(bad)
        # None is the default (512) everywhere.
        assert take(None) == take(512)
    # Deeper than the thread's stack allows: an error, not a crash.
    very = _nested(200_000)
    with pytest.raises(jetjson.JSONEncodeError, match="not enough stack left") as info:
        jetjson.dumps(very, max_write_depth=1_000_000)
    # A long path is shortened in the middle: its first and last 32 steps.
    # (The message itself is about 330 characters: it says what bounds the
    # depth, the thread's stack, and the two ways past it.)
    assert len(str(info.value)) < 800 and "more levels)..." in str(info.value)
    assert "threading.stack_size" in str(info.value) and "canonicalize" in str(info.value)
    with pytest.raises(jetjson.JSONEncodeError) as info:
        jetjson.dumps(_nested(600))
    assert str(info.value) == "$" + "[0]" * 32 + "...(448 more levels)..." + "[0]" * 32 + ": nesting deeper than max_write_depth 512"
    # A cycle is named as one whichever limit stops it.
    loop = []
    loop.append(loop)
    for depth in [3, 512, 1_000_000]:
        with pytest.raises(jetjson.JSONEncodeError) as info:
            jetjson.dumps(loop, max_write_depth=depth)
        assert str(info.value) == "$[0]: circular reference (the list at $ contains itself here)"


# ---------------------------------------------------------------- stored bytes


def test_digest_bytes_is_the_registry_digest():
    checked = 0
    for line in (CORPUS / "oci" / "CATALOG.tsv").read_text().splitlines()[1:]:
        file, _, sha256, _, upstream, rule, _ = line.split("\t")
        data = (CORPUS / "oci" / file).read_bytes()
        assert jetjson.digest_bytes(data) == sha256, file
        assert jetjson.digest_bytes(data, "sha256") == jetjson.digest_bytes(data, algorithm="sha256")
        assert jetjson.digest_bytes(bytearray(data)) == sha256
        assert jetjson.digest_bytes(memoryview(data)) == sha256
        assert jetjson.digest_bytes(data, "sha512") == "sha512:" + hashlib.sha512(data).hexdigest()
        if "sha256 of the exact stored bytes" in rule:
            assert jetjson.digest_bytes(data) == upstream, file
            checked += 1
    assert checked >= 10
    # A strided view is hashed as the bytes it shows.
    data = bytes(range(256)) * 1000
    assert jetjson.digest_bytes(memoryview(data)[::3]) == "sha256:" + hashlib.sha256(data[::3]).hexdigest()
    # Large inputs (hashed without the GIL) too.
    big = b"x" * (1 << 22)
    assert jetjson.digest_bytes(big) == "sha256:" + hashlib.sha256(big).hexdigest()


def test_digest_bytes_refuses_what_is_not_bytes():
    with pytest.raises(TypeError, match=r'binary mode \(open\(path, "rb"\)\)'):
        jetjson.digest_bytes('{"a":1}')
    for bad in (None, 1, ["a"]):
        with pytest.raises(TypeError, match="digest_bytes\\(\\) takes bytes"):
            jetjson.digest_bytes(bad)
    with pytest.raises(ValueError, match="algorithm"):
        jetjson.digest_bytes(b"", "md5")


def test_digest_of_bytes_points_to_digest_bytes():
    # The pitfall: digest(open(f, "rb").read()) used to hash the bytes as
    # a base64 JSON string (Go's []byte rule).
    data = (CORPUS / "oci" / "CATALOG.tsv").read_bytes()
    for value in (data, bytearray(data), memoryview(data)):
        for profile in PROFILES:
            with pytest.raises(TypeError) as e:
                jetjson.digest(value, profile)
            assert "digest_bytes(data)" in str(e.value), str(e.value)
            # Only bytes has a JSON encoding (go's base64 string); the
            # message says which case this is.
            if isinstance(value, bytes):
                assert "base64" in str(e.value), str(e.value)
                assert jetjson.dumps(value, profile="go").startswith(b'"')
            else:
                assert "has no JSON encoding" in str(e.value), str(e.value)
                with pytest.raises(jetjson.JSONEncodeError):
                    jetjson.dumps(value, profile=profile)
        # Even without a profile, the pitfall is named first.
        with pytest.raises(TypeError, match="digest_bytes"):
            jetjson.digest(value)
    # Bytes inside a value are still written as the profile writes them.
    assert jetjson.digest({"b": b"\x00"}, "go") == "sha256:" + hashlib.sha256(b'{"b":"AA=="}').hexdigest()


def test_canonicalize_and_digest_flags_take_truth_values():
    # As dumps and loads take them (and json's flags): any object's truth value.
    text = '{"b":1,"a":"\u00e9<"}'.encode()
    for yes, no in [(1, 0), ("yes", ""), ([0], [])]:
        assert jetjson.canonicalize(text, "compact", sort_keys=yes, ascii_only=yes, escape_html=yes) == jetjson.canonicalize(
            text, "compact", sort_keys=True, ascii_only=True, escape_html=True
        )
        assert jetjson.canonicalize(text, "compact", sort_keys=no, ascii_only=no) == text
        assert jetjson.canonicalize(b"\xef\xbb\xbf[1]", "jcs", allow_bom=yes) == b"[1]"
        with pytest.raises(jetjson.JSONDecodeError):
            jetjson.canonicalize(b"\xef\xbb\xbf[1]", "jcs", allow_bom=no)
        obj = {"b": 1, "a": "\u00e9"}
        assert jetjson.digest(obj, "compact", sort_keys=yes, ascii_only=yes) == jetjson.digest(obj, "compact", sort_keys=True, ascii_only=True)
        assert jetjson.digest(obj, "compact", sort_keys=no) == "sha256:" + hashlib.sha256(jetjson.dumps(obj)).hexdigest()
        # The refusal rule sees the truth value: escape_html on is go's default.
        with pytest.raises(ValueError, match="escape_html=True"):
            jetjson.digest(obj, "go", escape_html=yes)


# ------------------------------------------- options read as dumps reads them


def test_canonicalize_and_digest_flags_take_truth_values_as_dumps_does():
    # issue 22: "accept any truthy value, as json does"; dumps and loads do,
    # and the functions that share their keywords must too.
    obj = json.loads(DOC)
    for truthy, falsy in ((1, 0), ("yes", ""), ([0], [])):
        for p in ("compact", "go"):
            assert jetjson.canonicalize(DOC, p, sort_keys=truthy) == jetjson.dumps(obj, p, sort_keys=True)
            assert jetjson.canonicalize(DOC, p, ascii_only=truthy) == jetjson.dumps(obj, p, ascii_only=True)
            # (A false sort_keys keeps the order: go's maps too.)
            assert jetjson.canonicalize(DOC, p, sort_keys=falsy, ascii_only=falsy) == jetjson.dumps(obj, p, sort_keys=False)
            assert jetjson.canonicalize(DOC, p, ascii_only=falsy) == jetjson.dumps(obj, p)
            assert jetjson.digest(obj, p, sort_keys=truthy) == jetjson.digest(obj, p, sort_keys=True)
            assert jetjson.digest(obj, p, ascii_only=truthy) == jetjson.digest(obj, p, ascii_only=True)
        assert jetjson.canonicalize(DOC, "compact", escape_html=truthy) == jetjson.dumps(obj, escape_html=True)
        assert jetjson.digest(obj, "go", escape_html=falsy) == jetjson.digest(obj, "go", escape_html=False)
        assert jetjson.canonicalize(b"\xef\xbb\xbf[1]", "jcs", allow_bom=truthy) == b"[1]"
        with pytest.raises(jetjson.JSONDecodeError, match="byte order mark"):
            jetjson.canonicalize(b"\xef\xbb\xbf[1]", "jcs", allow_bom=falsy)


def test_canonicalize_and_digest_take_indent_as_dumps_does():
    obj = json.loads(DOC)
    for indent in (2, " ", "  ", "\t", "\t\t", 0, "", None):
        want = jetjson.dumps(obj, "go", indent=indent)
        assert jetjson.canonicalize(DOC, "go", indent=indent) == want, repr(indent)
        assert jetjson.digest(obj, "go", indent=indent) == "sha256:" + hashlib.sha256(want).hexdigest(), repr(indent)
    # What dumps refuses, they refuse, with the same error.
    for bad in (True, 2.0, "--", " \t", 17, " " * 17, "\t" * 17, -1, 2**63, 2**70, -(2**70)):
        with pytest.raises((TypeError, ValueError)) as want:
            jetjson.dumps(obj, "go", indent=bad)
        for call in (lambda: jetjson.canonicalize(DOC, "go", indent=bad), lambda: jetjson.digest(obj, "go", indent=bad)):
            with pytest.raises(type(want.value)) as got:
                call()
            assert str(got.value) == str(want.value), repr(bad)
    # The value as given, however large; a str by its length.
    for bad in (17, 2**70, -(2**70)):
        with pytest.raises(ValueError, match=f"^indent must be None or an int from 0 to 16, got {bad}\\b"):
            jetjson.dumps(obj, indent=bad)
    for bad in (" " * 17, "\t" * 20):
        with pytest.raises(ValueError, match=f"^indent must be a str of at most 16 spaces or tabs, got {len(bad)} "):
            jetjson.dumps(obj, indent=bad)
    # jcs refuses a layout, whichever way it is spelled.
    for indent in (2, "\t"):
        with pytest.raises(ValueError, match=r'^indent=.* cannot be used with profile "jcs"'):
            jetjson.canonicalize(DOC, "jcs", indent=indent)


def test_digest_takes_every_option_of_dumps():
    # "equal to hashlib.sha256(dumps(obj, profile=profile, ...))", "options
    # as for dumps": the dumps options that change the bytes work here too.
    import dataclasses

    @dataclasses.dataclass
    class Rec:
        a: int = 1
        b: list = dataclasses.field(default_factory=list)

    for obj, kw in (({1: "a", "b": 2}, {"non_str_keys": True}), ([Rec(), Rec(2, [3])], {"omit_defaults": True})):
        for p in PROFILES:
            want = jetjson.dumps(obj, p, **kw)
            assert jetjson.digest(obj, p, **kw) == "sha256:" + hashlib.sha256(want).hexdigest(), (p, kw)


def test_read_limits_are_taken_alike_by_every_function():
    # max_size and max_depth: an int (not a bool), at least 0; one beyond
    # any input's size is no limit. loads, canonicalize, Decoder and load
    # take them alike (canonicalize raised OverflowError for -1 and 2**64,
    # and took True as 1; load raised OverflowError for 2**70).
    import io

    takers = {
        "loads": lambda **kw: jetjson.loads(DOC, **kw),
        "canonicalize": lambda **kw: jetjson.canonicalize(DOC, "go", **kw),
        "Decoder": lambda **kw: jetjson.Decoder(dict, **kw).decode(DOC),
        "load": lambda **kw: jetjson.load(io.BytesIO(DOC.encode()), **kw),
    }
    for name, take in takers.items():
        for option in ("max_size", "max_depth"):
            # Every message names the option as the caller spelled it.
            for bad in (True, 1.5, "3"):
                with pytest.raises(TypeError, match=f"^{option} must be an int, not {type(bad).__name__}"):
                    take(**{option: bad})
            for bad in (-1, -(2**70)):
                with pytest.raises(ValueError, match=f"^{option} must be an int >= 0, got {bad}"):
                    take(**{option: bad})
            for huge in (2**63, 2**64, 2**70):
                assert take(**{option: huge}) == take(), (name, option, huge)
        with pytest.raises(ValueError, match="larger than max_size"):
            take(max_size=len(DOC.encode()) - 1)


# Option errors that did not name the option (an outside tester's list):
# each now says which option, as the caller spelled it, with one wording
# for all (`max_write_depth`'s).
def test_every_option_error_names_the_option():
    import io

    cases = [
        (lambda: jetjson.loads(b"1", max_size=-1), ValueError, "max_size must be an int >= 0, got -1"),
        (lambda: jetjson.loads(b"1", max_depth=-1), ValueError, "max_depth must be an int >= 0, got -1"),
        (lambda: jetjson.loads(b"1", max_size=1.5), TypeError, "max_size must be an int, not float"),
        (lambda: jetjson.loads(b"1", max_depth=True), TypeError, "max_depth must be an int, not bool"),
        (lambda: jetjson.loads(b"1", duplicate_keys=None), TypeError, 'duplicate_keys must be "error", "first" or "last", not NoneType'),
        (lambda: jetjson.Decoder(int, duplicate_keys=None), TypeError, 'duplicate_keys must be "error", "first" or "last", not NoneType'),
        (lambda: jetjson.Raw(b"1", duplicate_keys=1), TypeError, 'duplicate_keys must be "error", "first" or "last", not int'),
        (lambda: jetjson.Decoder(int, max_size=-5), ValueError, "max_size must be an int >= 0, got -5"),
        (lambda: jetjson.canonicalize(b"1", "go", max_depth=-1), ValueError, "max_depth must be an int >= 0, got -1"),
        (lambda: jetjson.loads_lines(b"1\n2\n", max_size=-1), ValueError, "max_size must be an int >= 0, got -1"),
        (lambda: list(jetjson.load_lines(io.BytesIO(b"1\n"), max_size=-1)), ValueError, "max_size must be an int >= 0, got -1"),
        (lambda: jetjson.digest([1], "go", algorithm=5), TypeError, 'algorithm must be "sha256" or "sha512", not int'),
        (lambda: jetjson.digest_bytes(b"1", algorithm=None), TypeError, 'algorithm must be "sha256" or "sha512", not NoneType'),
        (lambda: jetjson.digest_bytes(b"1", "md5"), ValueError, 'unknown digest algorithm "md5" (expected sha256 or sha512)'),
        (lambda: jetjson.canonicalize(b"1", "go", duplicate_keys=None), TypeError, 'duplicate_keys must be "error", "first" or "last", not NoneType'),
        (lambda: jetjson.canonicalize(b"1", 5), TypeError, "profile must be a str, not int"),
        (lambda: jetjson.digest([1], 5), TypeError, "profile must be a str, not int"),
        (lambda: jetjson.digest([1], "go", nan=5), TypeError, "nan must be a str, not int"),
        (lambda: jetjson.dumps([], nan=5), TypeError, "nan must be a str, not int"),
        (lambda: jetjson.dumps([], profile=5), TypeError, "profile must be a str, not int"),
        (lambda: jetjson.dumps([], max_write_depth=0), ValueError, "max_write_depth must be an int from 1 to 1000000, got 0"),
        (lambda: jetjson.dumps([], max_write_depth=1.0), TypeError, "max_write_depth must be an int, not float"),
    ]
    for call, kind, message in cases:
        with pytest.raises(kind) as info:
            call()
        assert str(info.value) == message, (str(info.value), message)
    assert jetjson.digest_bytes(b"1", "sha512") == jetjson.digest_bytes(b"1", algorithm="sha512")


def test_sort_keys_false_keeps_every_objects_order_as_the_cli_keep_order():
    # sort_keys is None by default (the profile's order); False kept go's
    # maps sorted, so Python had no way to the CLI's --keep-order and C's
    # JETJSON_KEYS_KEEP (outside tester, stop 44). With compact, which
    # keeps the order already, False is json.dumps' habit: accepted.
    obj = {"b": 1, "a": {"z": [1, {"y": 2, "x": 3}], "c": "<>"}}
    as_given = json.dumps(obj, separators=(",", ":")).replace("<", "\\u003c").replace(">", "\\u003e").encode()
    sorted_ = json.dumps(obj, separators=(",", ":"), sort_keys=True).replace("<", "\\u003c").replace(">", "\\u003e").encode()
    assert jetjson.dumps(obj, "go") == jetjson.dumps(obj, "go", sort_keys=None) == sorted_
    assert jetjson.dumps(obj, "go", sort_keys=False) == as_given != sorted_
    assert jetjson.dumps(obj, "go", sort_keys=True) == sorted_
    assert jetjson.digest(obj, "go", sort_keys=False) == "sha256:" + hashlib.sha256(as_given).hexdigest()
    text = json.dumps(obj)
    assert jetjson.canonicalize(text, "go", sort_keys=False) == as_given
    compact = json.dumps(obj, separators=(",", ":")).encode()
    assert jetjson.dumps(obj, sort_keys=False) == jetjson.dumps(obj) == compact
    # The same call, alternating with the profile's order, shares no style.
    for _ in range(3):
        assert jetjson.dumps(obj, "go", sort_keys=False, indent=1) == json.dumps(obj, indent=1).replace("<", "\\u003c").replace(">", "\\u003e").encode()
        assert jetjson.dumps(obj, "go", indent=1) == json.dumps(obj, indent=1, sort_keys=True).replace("<", "\\u003c").replace(">", "\\u003e").encode()
