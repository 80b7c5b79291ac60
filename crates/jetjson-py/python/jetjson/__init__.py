"""jetjson: fast JSON with byte-exact output profiles (go, jcs, compact)."""

import io as _io
import sys as _sys

from ._jetjson import (
    Decoder,
    JSONDecodeError,
    JSONEncodeError,
    Raw,
    _buffer_bytes,
    ValidationError,
    __version__,
    canonicalize,
    digest,
    digest_bytes,
    dumps,
    loads,
)
from ._schema import Meta, config

def _rebuild_error(cls, args, state):
    e = cls.__new__(cls, *args)
    e.__dict__.update(state)
    return e


def _reduce_error(self):
    # BaseException's default pickling calls cls(*self.args), which for
    # json.JSONDecodeError means its __init__(msg, doc, pos) again: wrong
    # arity here, and it recounts lines over a bytes doc with a str. Keep
    # the instance's attributes as they are instead, so errors survive
    # pickle (a ProcessPoolExecutor worker) and copy.
    return (_rebuild_error, (type(self), self.args, dict(self.__dict__)))


JSONDecodeError.__reduce__ = _reduce_error
JSONEncodeError.__reduce__ = _reduce_error


# ---------------------------------------------------------------- files


def dump(obj, fp, /, *args, **kwargs):
    """dumps(obj, *args, **kwargs) written to the file `fp`: the bytes to a
    binary file, their text (UTF-8) to a text file."""
    _write(fp, dumps(obj, *args, **kwargs))


def load(fp, /, **kwargs):
    """loads(fp.read(), **kwargs): one JSON text from a binary or text file.
    With max_size, at most max_size + 1 bytes (or characters) are read: a
    larger file is refused without being read whole."""
    limit = kwargs.get("max_size")
    if isinstance(limit, int) and not isinstance(limit, bool) and limit >= 0:
        # One more than the limit shows the file is larger (a character is
        # at least one byte); loads then refuses it with its message.
        # (A limit beyond what a read can be asked for is no limit.)
        return loads(_read_upto(fp, min(limit + 1, _sys.maxsize)), **kwargs)
    return loads(fp.read(), **kwargs)


def _read_upto(fp, n):
    """Up to `n` bytes (or characters) of `fp`: fewer only at its end. A
    pipe or socket read without a buffer may return less than asked while
    more is still to come: read again until `n` or the end. A non-blocking
    stream with nothing ready (None) is an error, never the end."""
    first = fp.read(n)
    if not first or len(first) >= n:
        return first
    parts, got = [first], len(first)
    while got < n:
        more = fp.read(n - got)
        if more is None:
            raise _not_ready()
        if not more:
            break
        parts.append(more)
        got += len(more)
    return first[:0].join(parts)


def _write(fp, data):
    if isinstance(fp, _io.TextIOBase):
        fp.write(data.decode())
        return
    try:
        fp.write(data)
    except TypeError:
        # A text stream that is not an io.TextIOBase: it refuses bytes before
        # writing anything.
        fp.write(data.decode())


# ------------------------------------------------- several documents: NDJSON


def dumps_lines(objs, /, *args, **kwargs):
    """Newline-delimited JSON (NDJSON, JSON Lines): each object of the
    iterable `objs` written by dumps(obj, *args, **kwargs), followed by a
    newline. indent cannot be used (a document must stay on its line), and
    a document holding a line break (a Raw's whitespace, which profiles
    that copy a Raw write as it is) is refused with JSONEncodeError."""
    _no_indent(kwargs)
    docs = [dumps(obj, *args, **kwargs) for obj in objs]
    if not docs:
        return b""
    out = b"\n".join(docs) + b"\n"
    if out.count(b"\n") != len(docs):
        raise _line_break(next(n for n, doc in enumerate(docs, 1) if b"\n" in doc))
    return out


def dump_lines(objs, fp, /, *args, **kwargs):
    """dumps_lines written to the file `fp` one line at a time (binary or
    text), without holding the whole output."""
    _no_indent(kwargs)
    for number, obj in enumerate(objs, 1):
        doc = dumps(obj, *args, **kwargs)
        if b"\n" in doc:
            raise _line_break(number)
        _write(fp, doc + b"\n")


def _line_break(number):
    """The error for a document that would take two lines (an unindented
    document holds a line break only inside a Raw, copied as it is)."""
    return JSONEncodeError(
        f"document {number} holds a line break (inside a Raw, written as it is), "
        "which would split it across lines: make the Raw from compact JSON"
    )


def loads_lines(data, /, **kwargs):
    """The documents of newline-delimited JSON text (bytes, bytearray,
    memoryview or str), as a list. Lines end at "\n" only (as the CLI's
    --lines reads them: U+2028 or U+0085 in a string, or a "\r" between
    tokens, is part of its document); lines of JSON whitespace alone
    (space, tab, "\r") are skipped; "\r\n" line ends are accepted. The read
    limits of loads (max_size, max_depth, duplicate_keys, allow_bom) apply
    to each line without its end ("\n" or "\r\n"; any other "\r" counts).
    A bad line raises JSONDecodeError whose lineno is the line's number,
    colno its column and pos its offset in `data`."""
    return list(_lines(_split_lines(data), kwargs))


def _split_lines(data):
    """`data`'s lines, each with its "\n" (str.splitlines would also end
    lines at characters JSON strings may hold)."""
    if not isinstance(data, (bytes, bytearray, str)):
        # Any other buffer as loads reads it (bytes items, C order), and
        # refused as loads refuses it.
        data = _buffer_bytes(data)
    nl = "\n" if isinstance(data, str) else b"\n"
    parts = data.split(nl)
    lines = [part + nl for part in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


def load_lines(fp, /, **kwargs):
    """The documents of a newline-delimited JSON file (binary or text), read
    lazily: an iterator that reads one line per document. Errors as in
    loads_lines (pos counts from the start of the file). With max_size, a
    line is read up to max_size + 3 bytes (or characters, its "\r\n"
    included): a longer one is refused without being read whole. A text
    file must end lines at "\n" alone (open it with newline="\\n", or in
    binary mode): one that ended a line at a lone "\r" (universal newlines,
    open()'s default and newline="") is refused with ValueError."""
    limit = kwargs.get("max_size")
    if isinstance(limit, int) and not isinstance(limit, bool) and limit >= 0:
        lines = _bounded_lines(fp, min(limit + 3, _sys.maxsize))
    else:
        lines = fp
    return _lines(_whole_lines(_no_lone_cr(fp, lines)), kwargs)


def _not_ready():
    """A non-blocking stream had no data ready in the middle of a document."""
    import errno

    return BlockingIOError(
        errno.EAGAIN, "the stream had no data ready in the middle of the input (non-blocking): read it whole, or make it blocking"
    )


def _whole_lines(lines):
    """`lines`, each ending in "\n" but the last: a line without one that is
    followed by more is a piece of a line (a non-blocking stream's partial
    read), an error rather than a document."""
    held = None
    for line in lines:
        if held is not None:
            raise _not_ready()
        if line[-1:] in ("\n", b"\n"):
            yield line
        else:
            held = line
    if held is not None:
        yield held


def _bounded_lines(fp, most):
    """fp's lines, each cut at `most` bytes or characters; the first cut
    one ends the iteration (it has no line end to drop and is longer than
    max_size + 2, so loads refuses it)."""
    while True:
        line = fp.readline(most)
        if not line:
            return
        yield line
        if len(line) == most and line[-1:] not in ("\n", b"\n"):
            return


def _no_lone_cr(fp, lines):
    """`lines`, refused once a text file in universal-newlines mode
    (`open(path)`'s default, and newline="") has ended a line at a lone
    "\r": that splits a line where the file has none."""
    for line in lines:
        seen = getattr(fp, "newlines", None)
        if seen == "\r" or (isinstance(seen, tuple) and "\r" in seen):
            raise ValueError(
                'the file ended a line at a lone "\\r" (universal newlines): '
                'open it with newline="\\n" or in binary mode, so that lines end at "\\n" only'
            )
        yield line


def _lines(lines, kwargs):
    offset = 0
    for number, line in enumerate(lines, 1):
        # The line without its end, "\n" or "\r\n" (an error at the end of
        # a cut-short document is then on this line, not at the start of
        # the next); any other "\r" is JSON whitespace that max_size counts.
        text = line
        if text[-1:] in ("\n", b"\n"):
            text = text[:-2] if text[-2:-1] in ("\r", b"\r") else text[:-1]
        # A blank line is skipped, unless it is longer than max_size
        # (loads refuses it: a cut line, or a limit that holds for every
        # line, as in the CLI).
        limit = kwargs.get("max_size")
        if text.strip(b" \t\r" if isinstance(text, (bytes, bytearray)) else " \t\r") or (
            isinstance(limit, int) and not isinstance(limit, bool) and 0 <= limit < len(text)
        ):
            try:
                yield loads(text, **kwargs)
            except JSONDecodeError as e:
                raise _at_line(e, number, offset, text) from None
        offset += len(line)


def _at_line(e, number, offset, line):
    """The error `e` (from one line) placed in the whole input."""
    pos = offset + e.pos
    err = JSONDecodeError.__new__(JSONDecodeError, f"{e.msg}: line {number} column {e.colno} (char {pos})")
    err.msg, err.doc, err.pos, err.lineno, err.colno = e.msg, line, pos, number, e.colno
    return err


def _no_indent(kwargs):
    if kwargs.get("indent") not in (None, 0, ""):
        raise ValueError("indent cannot be used for newline-delimited JSON: each document must stay on its line")


__all__ = [
    "Decoder",
    "JSONDecodeError",
    "JSONEncodeError",
    "Meta",
    "Raw",
    "ValidationError",
    "config",
    "__version__",
    "canonicalize",
    "digest",
    "dump",
    "dump_lines",
    "digest_bytes",
    "dumps",
    "dumps_lines",
    "load",
    "load_lines",
    "loads",
    "loads_lines",
]
