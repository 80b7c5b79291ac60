"""dump/load on files and newline-delimited JSON (NDJSON), as json users
and JSON Lines tools expect."""

import io
import json
import random

import pytest

import jetjson

DOCS = [1, "é", {"a": [1, 2.5, None, True]}, [], {}, "x\ny", 2**70]


def test_dump_and_load_binary_and_text_files(tmp_path):
    for obj in DOCS:
        b = io.BytesIO()
        jetjson.dump(obj, b)
        assert b.getvalue() == jetjson.dumps(obj)
        assert jetjson.load(io.BytesIO(b.getvalue())) == obj
        t = io.StringIO()
        jetjson.dump(obj, t, profile="go", indent=2)
        assert t.getvalue() == jetjson.dumps(obj, profile="go", indent=2).decode()
        assert jetjson.load(io.StringIO(t.getvalue())) == obj
    path = tmp_path / "doc.json"
    with open(path, "w", encoding="utf-8") as f:
        jetjson.dump({"é": [1]}, f)
    with open(path, "rb") as f:
        assert jetjson.load(f) == {"é": [1]}
        assert path.read_bytes() == '{"é":[1]}'.encode()


def test_lines_round_trip_and_match_json_lines():
    rng = random.Random(1)
    docs = [rng.choice(DOCS) for _ in range(200)]
    data = jetjson.dumps_lines(docs)
    assert data == b"".join(json.dumps(d, separators=(",", ":"), ensure_ascii=False).encode() + b"\n" for d in docs)
    assert jetjson.loads_lines(data) == docs
    assert jetjson.loads_lines(data.decode()) == docs
    assert list(jetjson.load_lines(io.BytesIO(data))) == docs
    assert list(jetjson.load_lines(io.StringIO(data.decode()))) == docs
    out = io.BytesIO()
    jetjson.dump_lines(iter(docs), out)
    assert out.getvalue() == data
    # Blank lines and CRLF ends are accepted.
    assert jetjson.loads_lines(b'1\r\n\r\n  \n{"a":2}') == [1, {"a": 2}]
    with pytest.raises(ValueError, match="indent"):
        jetjson.dumps_lines(docs, indent=2)


def test_line_errors_name_the_line_and_its_place():
    data = b'1\n{"a": 2}\n[3,\n4\n'
    with pytest.raises(jetjson.JSONDecodeError) as e:
        jetjson.loads_lines(data)
    assert (e.value.lineno, e.value.colno, e.value.pos) == (3, 4, 14)
    assert str(e.value).endswith("line 3 column 4 (char 14)")
    # Lazily: the documents before the bad line come out first.
    it = jetjson.load_lines(io.BytesIO(data))
    assert next(it) == 1 and next(it) == {"a": 2}
    with pytest.raises(jetjson.JSONDecodeError, match="line 3"):
        next(it)
    # The read limits apply to each document.
    with pytest.raises(jetjson.JSONDecodeError, match="duplicate"):
        jetjson.loads_lines(b'{"a":1}\n{"a":1,"a":2}\n')
    assert jetjson.loads_lines(b'{"a":1,"a":2}\n', duplicate_keys="last") == [{"a": 2}]
    with pytest.raises(jetjson.JSONDecodeError, match="line 2"):
        jetjson.loads_lines(b"[1]\n[[[1]]]\n", max_depth=2)
