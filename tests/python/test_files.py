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


def test_lines_are_split_on_newlines_only():
    # str.splitlines also splits on U+2028, U+2029, U+0085 (and bytes on a
    # bare \r): characters a JSON string may hold raw, and compact output
    # writes raw, so loads_lines(dumps_lines(docs).decode()) broke.
    docs = [["a\u2028b"], {"k\u2029": "\x85"}, "\x0b\x0c\x1c\x1d\x1e"]
    data = jetjson.dumps_lines(docs)
    assert jetjson.loads_lines(data) == docs
    assert jetjson.loads_lines(data.decode()) == docs
    assert list(jetjson.load_lines(io.BytesIO(data))) == docs
    assert list(jetjson.load_lines(io.StringIO(data.decode()))) == docs
    # A bare \r is whitespace inside a document, as the CLI's --lines reads it.
    assert jetjson.loads_lines(b"[1,\r2]\n[3]\r\n") == [[1, 2], [3]]
    assert jetjson.loads_lines("[1,\r2]\n[3]") == [[1, 2], [3]]
    # Any bytes-like input, as loads takes.
    assert jetjson.loads_lines(memoryview(data)) == docs
    assert jetjson.loads_lines(bytearray(data)) == docs
    # Errors still name the line and place.
    with pytest.raises(jetjson.JSONDecodeError) as e:
        jetjson.loads_lines('["\u2028"]\n[1,]\n')
    assert (e.value.lineno, e.value.colno, e.value.pos) == (2, 4, 9)


class _Endless(io.RawIOBase):
    """A binary file that never ends and counts what is read from it."""

    def __init__(self, chunk=b"[1,"):
        self.chunk, self.given = chunk, 0

    def readable(self):
        return True

    def readinto(self, b):
        if self.given > 8 << 20:
            raise OSError("read 8 MiB of an endless file: the limit did not stop the reading")
        n = len(b)
        data = (self.chunk * (n // len(self.chunk) + 1))[:n]
        b[:n] = data
        self.given += n
        return n


def test_max_size_holds_for_files_before_they_are_read_whole():
    # load(fp, max_size=N) read the whole file (fp.read()) and only then
    # compared its size; load_lines read a whole line however long. A limit
    # that bounds the memory a request may take must stop the reading.
    for make in (lambda f: io.BufferedReader(f), lambda f: io.TextIOWrapper(io.BufferedReader(f), encoding="utf-8")):
        raw = _Endless()
        with pytest.raises(jetjson.JSONDecodeError, match="max_size 1000"):
            jetjson.load(make(raw), max_size=1000)
        assert raw.given < 1 << 20, raw.given
        raw = _Endless()
        with pytest.raises(jetjson.JSONDecodeError, match="max_size 1000") as e:
            next(jetjson.load_lines(make(raw), max_size=1000))
        assert raw.given < 1 << 20, raw.given
        assert e.value.lineno == 1
    # At the limit, documents and lines are read as before.
    doc = json.dumps({"a": list(range(50))}, separators=(",", ":")).encode()
    assert jetjson.load(io.BytesIO(doc), max_size=len(doc)) == json.loads(doc)
    with pytest.raises(jetjson.JSONDecodeError, match="max_size"):
        jetjson.load(io.BytesIO(doc), max_size=len(doc) - 1)
    lines = doc + b"\r\n" + doc + b"\n" + doc
    assert list(jetjson.load_lines(io.BytesIO(lines), max_size=len(doc))) == [json.loads(doc)] * 3
    assert list(jetjson.load_lines(io.StringIO(lines.decode()), max_size=len(doc))) == [json.loads(doc)] * 3
    with pytest.raises(jetjson.JSONDecodeError, match="max_size") as e:
        list(jetjson.load_lines(io.BytesIO(b"1\n" + lines), max_size=len(doc) - 1))
    assert e.value.lineno == 2


class _Trickle(io.RawIOBase):
    """A stream that gives at most two bytes a read, as a pipe or socket
    read without a buffer may while more is still to come."""

    def __init__(self, data):
        self.data = data

    def readable(self):
        return True

    def readinto(self, b):
        n = min(2, len(b), len(self.data))
        b[:n] = self.data[:n]
        self.data = self.data[n:]
        return n


def test_load_with_max_size_reads_a_trickling_stream_to_its_end():
    # load read once (fp.read(max_size + 1)): a stream that returned part of
    # the document gave a prefix of it as the whole value.
    assert jetjson.load(_Trickle(b"12345"), max_size=100) == 12345
    assert jetjson.load(_Trickle(b'{"a": [1, 2, 3]}'), max_size=100) == {"a": [1, 2, 3]}
    with pytest.raises(jetjson.JSONDecodeError, match="trailing"):
        jetjson.load(_Trickle(b"[1, 2]\n[3]"), max_size=100)
    with pytest.raises(jetjson.JSONDecodeError, match="max_size 4"):
        jetjson.load(_Trickle(b"12345"), max_size=4)


@pytest.mark.parametrize("filler", ["\r", " ", "\t"])
def test_a_line_over_max_size_is_refused_whatever_whitespace_ends_it(filler):
    # A line cut at the limit and then stripped of its "\r"s fell back under
    # the limit: load_lines returned the first document and stopped, silently.
    data = "1" + filler * 10 + "\n2\n3\n"
    for read in (
        lambda: jetjson.loads_lines(data, max_size=5),
        lambda: jetjson.loads_lines(data.encode(), max_size=5),
        lambda: list(jetjson.load_lines(io.BytesIO(data.encode()), max_size=5)),
        lambda: list(jetjson.load_lines(io.StringIO(data), max_size=5)),
    ):
        with pytest.raises(jetjson.JSONDecodeError, match="max_size 5") as e:
            read()
        assert e.value.lineno == 1
    # A "\r\n" line end is not part of the document.
    assert jetjson.loads_lines("12345\r\n6\n", max_size=5) == [12345, 6]
    assert list(jetjson.load_lines(io.BytesIO(b"12345\r\n6\n"), max_size=5)) == [12345, 6]


@pytest.mark.parametrize("blank", ["\x0b", "\x0c", "\x1c", "\x85", "\xa0", "\u2028", "\u3000"])
def test_lines_of_other_whitespace_are_errors_not_blank_lines(blank):
    # Lines were taken as blank by str.strip(), which knows more whitespace
    # than JSON: a line loads refuses was skipped.
    with pytest.raises(jetjson.JSONDecodeError) as e:
        jetjson.loads_lines("1\n" + blank + "\n2\n")
    assert e.value.lineno == 2
    with pytest.raises(jetjson.JSONDecodeError):
        jetjson.loads_lines(("1\n" + blank + "\n2\n").encode())
    assert jetjson.loads_lines("1\n \t\r\n\n2\n") == [1, 2]


def test_text_files_that_turn_a_lone_cr_into_a_line_end_are_refused(tmp_path):
    path = tmp_path / "cr.ndjson"
    path.write_bytes(b'{"a":1}\r{"b":2}\n')
    with open(path, "rb") as f, pytest.raises(jetjson.JSONDecodeError, match="trailing"):
        list(jetjson.load_lines(f))
    with open(path, encoding="utf-8", newline="\n") as f, pytest.raises(jetjson.JSONDecodeError, match="trailing"):
        list(jetjson.load_lines(f))
    for newline in (None, ""):
        with open(path, encoding="utf-8", newline=newline) as f, pytest.raises(ValueError, match="newline="):
            list(jetjson.load_lines(f))
    # "\r\n" in universal-newlines mode is an ordinary line end.
    path.write_bytes(b'{"a":1}\r\n{"b":2}\r\n')
    with open(path, encoding="utf-8") as f:
        assert list(jetjson.load_lines(f)) == [{"a": 1}, {"b": 2}]


@pytest.mark.parametrize("profile", ["compact", "go", "jcs"])
def test_lines_writers_never_split_a_document(profile):
    # A Raw is copied as it is in compact: its line break split the document
    # across two lines, which no NDJSON reader reads back.
    objs = [{"a": 1}, {"raw": jetjson.Raw(b"[1,\n 2]")}, {"b": 2}]
    try:
        out = jetjson.dumps_lines(objs, profile=profile)
    except jetjson.JSONEncodeError as e:
        assert "document 2" in str(e)
        assert b"\n" in jetjson.dumps(objs[1], profile=profile)
    else:
        assert jetjson.loads_lines(out) == [{"a": 1}, {"raw": [1, 2]}, {"b": 2}]
    f = io.BytesIO()
    try:
        jetjson.dump_lines(objs, f, profile=profile)
    except jetjson.JSONEncodeError as e:
        assert "document 2" in str(e)
        assert f.getvalue() == jetjson.dumps(objs[0], profile=profile) + b"\n"
    else:
        assert jetjson.loads_lines(f.getvalue()) == [{"a": 1}, {"raw": [1, 2]}, {"b": 2}]


def test_a_blank_line_longer_than_max_size_is_refused():
    # A cut line of whitespace alone was skipped as blank, and the reader
    # stopped after it: the rest of the file was lost without an error.
    for blank in (b" " * 20, b"\t" * 20, b"\r" * 20):
        data = b"1\n" + blank + b"\n2\n3\n"
        for read in (
            lambda: list(jetjson.load_lines(io.BytesIO(data), max_size=5)),
            lambda: jetjson.loads_lines(data, max_size=5),
        ):
            with pytest.raises(jetjson.JSONDecodeError, match="max_size 5") as e:
                read()
            assert e.value.lineno == 2
    assert list(jetjson.load_lines(io.BytesIO(b"1\n   \n2\n"), max_size=5)) == [1, 2]


class _NotReady(io.RawIOBase):
    """A non-blocking stream: None stands for "no data ready yet"."""

    def __init__(self, chunks):
        self.chunks = list(chunks)

    def readable(self):
        return True

    def readinto(self, b):
        if not self.chunks:
            return 0
        chunk = self.chunks.pop(0)
        if chunk is None:
            return None
        n = min(len(b), len(chunk))
        b[:n] = chunk[:n]
        if n < len(chunk):
            self.chunks.insert(0, chunk[n:])
        return n


def test_a_non_blocking_stream_with_no_data_ready_is_an_error():
    # None (no data ready) was taken for the end of the file: load gave 12
    # for 1234, load_lines [1, 2, 3, 4] for 1, 23, 4.
    with pytest.raises(BlockingIOError):
        jetjson.load(_NotReady([b"12", None, b"34"]), max_size=10)
    for kwargs in ({}, {"max_size": 10}):
        with pytest.raises(BlockingIOError):
            list(jetjson.load_lines(io.BufferedReader(_NotReady([b"1\n2", None, b"3\n4\n"])), **kwargs))
    assert list(jetjson.load_lines(io.BufferedReader(_NotReady([b"1\n2", b"3\n4"])))) == [1, 23, 4]
