"""jetjson.canonicalize (JSON text in, profile bytes out) and jetjson.digest
(hash of an object's profile bytes), against the RFC 8785 vectors, the OCI
catalog, Node and Go; plus the leak test for every API."""

import csv
import gc
import hashlib
import json
import random
import resource
import tracemalloc

import pytest

import jetjson
from _dumps_support import BENCH, CORPUS, go, node_jcs, one_line


def catalog():
    with open(CORPUS / "oci" / "CATALOG.tsv", newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    assert len(rows) >= 20
    return rows


# ---------------------------------------------------------------- canonicalize


def test_rfc8785_vectors():
    for path in sorted((CORPUS / "jcs" / "input").glob("*.json")):
        data = path.read_bytes()
        expected = (CORPUS / "jcs" / "output" / path.name).read_bytes()
        assert jetjson.canonicalize(data, "jcs") == expected, path.name
        assert jetjson.canonicalize(data.decode(), "jcs") == expected
        assert jetjson.canonicalize(bytearray(data), profile="jcs") == expected
        assert jetjson.canonicalize(memoryview(data), "jcs") == expected
        hexed = (CORPUS / "jcs" / "outhex" / path.with_suffix(".txt").name).read_text().split()
        assert bytes(int(h, 16) for h in hexed) == expected


def test_oci_documents_in_every_profile():
    rows = catalog()
    docs = [(CORPUS / "oci" / r["file"]).read_bytes() for r in rows]
    node = node_jcs([one_line(json.loads(d)) for d in docs])
    gos = go([one_line(json.loads(d)) for d in docs])
    for row, data, n, g in zip(rows, docs, node, gos):
        jcs = jetjson.canonicalize(data, "jcs")
        assert jcs == n, row["file"]
        assert jetjson.canonicalize(data, "go") == g, row["file"]
        for profile in ("go", "jcs", "compact"):
            out = jetjson.canonicalize(data, profile)
            # The digest of the object equals the hash of the canonical bytes.
            assert jetjson.digest(json.loads(data), profile) == "sha256:" + hashlib.sha256(out).hexdigest()
        assert jetjson.canonicalize(jcs, "jcs") == jcs


def test_oci_digests_of_stored_bytes_through_raw():
    upstream = 0
    for row in catalog():
        data = (CORPUS / "oci" / row["file"]).read_bytes()
        d = jetjson.digest(jetjson.Raw(data), profile="compact")
        assert d == row["sha256_of_file_bytes"], row["file"]
        assert jetjson.dumps(jetjson.Raw(data)) == data
        if "sha256 of the exact stored bytes" in row["digest_rule"]:
            assert d == row["upstream_digest"]
            upstream += 1
        sha512 = jetjson.digest(jetjson.Raw(data), profile="compact", algorithm="sha512")
        assert sha512 == "sha512:" + hashlib.sha512(data).hexdigest()
    assert upstream >= 10


def test_compact_go_documents_round_trip_in_go_profile():
    # Documents that Go itself wrote compactly from maps come back byte for byte.
    obj = {"schemaVersion": 2, "annotations": {"b": "<x> & y", "a": "\u2028"}}
    [go_bytes] = go([one_line(obj)])
    assert jetjson.canonicalize(go_bytes, "go") == go_bytes
    assert jetjson.digest(obj, "go") == "sha256:" + hashlib.sha256(go_bytes).hexdigest()


def test_canonicalize_options():
    data = b'{"b": [1.0, "<\xc3\xa9>"], "a": {"d": 1, "c": 2}}'
    assert jetjson.canonicalize(data, "compact") == b'{"b":[1.0,"<\xc3\xa9>"],"a":{"d":1,"c":2}}'
    assert jetjson.canonicalize(data, "compact", sort_keys=True) == b'{"a":{"c":2,"d":1},"b":[1.0,"<\xc3\xa9>"]}'
    assert jetjson.canonicalize(data, "go") == b'{"a":{"c":2,"d":1},"b":[1,"\\u003c\xc3\xa9\\u003e"]}'
    assert jetjson.canonicalize(data, "go", escape_html=False, ascii_only=True) == b'{"a":{"c":2,"d":1},"b":[1,"<\\u00e9>"]}'
    assert jetjson.canonicalize(data, "go", indent=2) == jetjson.dumps(json.loads(data), profile="go", indent=2)
    with pytest.raises(ValueError, match="jcs"):
        jetjson.canonicalize(data, "jcs", indent=2)
    with pytest.raises(ValueError, match="duplicate_keys"):
        jetjson.canonicalize(data, "jcs", duplicate_keys="merge")


def test_read_limits_and_errors():
    with pytest.raises(jetjson.JSONDecodeError, match="duplicate"):
        jetjson.canonicalize(b'{"a":1,"a":2}', "jcs")
    assert jetjson.canonicalize(b'{"a":1,"a":2}', "jcs", duplicate_keys="first") == b'{"a":1}'
    assert jetjson.canonicalize(b'{"a":1,"a":2}', "jcs", duplicate_keys="last") == b'{"a":2}'
    deep = b"[" * 600 + b"]" * 600
    with pytest.raises(jetjson.JSONDecodeError, match="max_depth 512"):
        jetjson.canonicalize(deep, "jcs")
    # Read deeper, then written: the write limit is its own keyword.
    with pytest.raises(jetjson.JSONEncodeError, match="nesting deeper than max_write_depth 512"):
        jetjson.canonicalize(deep, "jcs", max_depth=600)
    # Placed at the first container too deep (outside tester, stop 48: it
    # said "$: ..."), for str and bytes input alike.
    for text in ('{"a":\n  [[1]]}', b'{"a":\n  [[1]]}'):
        for profile in ("compact", "go", "jcs"):
            with pytest.raises(jetjson.JSONEncodeError) as e:
                jetjson.canonicalize(text, profile, max_write_depth=2)
            assert str(e.value) == "line 2 column 4 (byte 9): nesting deeper than max_write_depth 2", str(e.value)
    assert jetjson.canonicalize(deep, "jcs", max_depth=600, max_write_depth=600) == deep
    with pytest.raises(jetjson.JSONDecodeError, match="max_size 4"):
        jetjson.canonicalize(b"[1, 2]", "jcs", max_size=4)
    with pytest.raises(jetjson.JSONDecodeError, match="allow_bom"):
        jetjson.canonicalize(b"\xef\xbb\xbf[]", "jcs")
    assert jetjson.canonicalize(b"\xef\xbb\xbf[]", "jcs", allow_bom=True) == b"[]"
    assert jetjson.canonicalize("\ufeff[]", "jcs", allow_bom=True) == b"[]"
    with pytest.raises(jetjson.JSONDecodeError) as e:
        jetjson.canonicalize('{"é": [1,\n  tru]}', "jcs")
    # The parser stops where "tru" stops being a literal; the str offset
    # counts characters, the bytes offset bytes (é is two bytes).
    assert (e.value.pos, e.value.lineno, e.value.colno) == (15, 2, 6)
    with pytest.raises(jetjson.JSONDecodeError) as e:
        jetjson.canonicalize('{"é": [1,\n  tru]}'.encode(), "jcs")
    assert (e.value.pos, e.value.lineno, e.value.colno) == (16, 2, 6)
    with pytest.raises(jetjson.JSONDecodeError) as e:
        jetjson.canonicalize('["\ud800"]', "jcs")
    assert e.value.pos == 2
    # A literal beyond the double range is bad input, in every profile.
    for profile in ("jcs", "go", "compact"):
        with pytest.raises(jetjson.JSONDecodeError, match="1e400 is out of range") as e:
            jetjson.canonicalize(b"[1,\n 1e400]", profile)
        assert (e.value.pos, e.value.lineno, e.value.colno) == (5, 2, 2)
    # Valid input a profile cannot write: an integer with no double, in jcs.
    with pytest.raises(jetjson.JSONEncodeError, match=r'\$\[0\]: number 1000.* is out of range for profile "jcs"') as e:
        jetjson.canonicalize(b"[1" + b"0" * 400 + b"]", "jcs")
    # Placed in the text read, with its path (outside tester, stop 51).
    assert str(e.value).startswith("line 1 column 2 (byte 1): $[0]: number 1000"), str(e.value)
    with pytest.raises(jetjson.JSONEncodeError) as e:
        jetjson.canonicalize(b'{"a": [true,\n "]", 1' + b"0" * 400 + b"]}", "jcs")
    assert str(e.value).startswith("line 2 column 7 (byte 19): $.a[2]: number 1000"), str(e.value)
    with pytest.raises(TypeError):
        jetjson.canonicalize(123, "jcs")


def test_jsontestsuite_never_crashes():
    for path in sorted((CORPUS / "jsontestsuite" / "test_parsing").glob("*.json")):
        data = path.read_bytes()
        for profile in ("jcs", "go", "compact"):
            try:
                out = jetjson.canonicalize(data, profile, duplicate_keys="last")
            except (jetjson.JSONDecodeError, jetjson.JSONEncodeError):
                assert not path.name.startswith("y_") or profile == "jcs", path.name
                continue
            assert not path.name.startswith("n_"), path.name
            assert jetjson.canonicalize(out, profile) == out


def test_generated_documents_match_node():
    rng = random.Random(5)
    from test_dumps import rand_value

    values = [rand_value(rng) for _ in range(300)]
    lines = [one_line(v) for v in values]
    for line, expected in zip(lines, node_jcs(lines)):
        assert jetjson.canonicalize(line, "jcs") == expected


# ---------------------------------------------------------------- digest


def test_digest_hashes_the_profile_bytes():
    obj = json.loads(BENCH["citm_catalog"].read_bytes())
    for profile in ("go", "jcs", "compact"):
        out = jetjson.dumps(obj, profile=profile)
        assert jetjson.digest(obj, profile) == "sha256:" + hashlib.sha256(out).hexdigest()
        assert jetjson.digest(obj, profile, "sha512") == "sha512:" + hashlib.sha512(out).hexdigest()
    out = jetjson.dumps(obj, profile="go", indent=3, escape_html=False)
    assert jetjson.digest(obj, "go", indent=3, escape_html=False) == "sha256:" + hashlib.sha256(out).hexdigest()
    assert jetjson.digest(obj, profile="go", indent=3, escape_html=False) == "sha256:" + hashlib.sha256(out).hexdigest()
    with pytest.raises(ValueError, match="algorithm"):
        jetjson.digest(obj, "go", algorithm="md5")
    with pytest.raises(jetjson.JSONEncodeError, match=r"^\$\.a: NaN"):
        jetjson.digest({"a": float("nan")}, "go")


# ---------------------------------------------------------------- leaks


def rss_kib():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def test_no_leaks_over_100k_calls():
    doc = {"a": [1, 2.5, "é<", None, True, {"b": [2**70]}], "c": jetjson.Raw(b"[1]")}
    go_doc = {"a": [1, 2.5, "é<", None, True], "c": jetjson.Raw(b"[1]")}
    text = jetjson.dumps(doc)
    calls = [
        lambda: jetjson.dumps(doc),
        lambda: jetjson.dumps(go_doc, profile="go"),
        lambda: jetjson.dumps(go_doc, profile="jcs"),
        lambda: jetjson.digest(go_doc, "go"),
        lambda: jetjson.digest_bytes(text),
        lambda: jetjson.canonicalize(text, "jcs"),
        lambda: jetjson.canonicalize(text.decode(), "go"),
        lambda: jetjson.Raw(text),
        lambda: _raises(jetjson.dumps, {"x": [float("nan")]}, profile="go"),
        lambda: _raises(jetjson.dumps, {"x": [object()]}),
        lambda: _raises(jetjson.canonicalize, b'{"a": [1,', "jcs"),
        lambda: _raises(jetjson.Raw, b"[1,"),
    ]
    for call in calls:
        for _ in range(1000):  # warm-up: caches, pools, interned strings
            call()
    gc.collect()
    tracemalloc.start()
    before_traced = tracemalloc.get_traced_memory()[0]
    before_rss = rss_kib()
    for call in calls:
        for _ in range(100_000):
            call()
    gc.collect()
    grown_traced = tracemalloc.get_traced_memory()[0] - before_traced
    tracemalloc.stop()
    grown_rss = rss_kib() - before_rss
    # 1.2 million calls: a leak of even one small object per call would be
    # tens of megabytes.
    assert grown_traced < 256 * 1024, grown_traced
    assert grown_rss < 8 * 1024, grown_rss


def _raises(fn, *args, **kw):
    try:
        fn(*args, **kw)
    except (jetjson.JSONEncodeError, jetjson.JSONDecodeError):
        return
    raise AssertionError("expected an error")
