"""jetjson: fast JSON with byte-exact output profiles (go, jcs, compact)."""

import io as _io

from ._jetjson import (
    Decoder,
    JSONDecodeError,
    JSONEncodeError,
    Raw,
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
    """loads(fp.read(), **kwargs): one JSON text from a binary or text file."""
    return loads(fp.read(), **kwargs)


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
    newline. indent cannot be used (a document must stay on its line)."""
    _no_indent(kwargs)
    return b"".join([dumps(obj, *args, **kwargs) + b"\n" for obj in objs])


def dump_lines(objs, fp, /, *args, **kwargs):
    """dumps_lines written to the file `fp` one line at a time (binary or
    text), without holding the whole output."""
    _no_indent(kwargs)
    for obj in objs:
        _write(fp, dumps(obj, *args, **kwargs) + b"\n")


def loads_lines(data, /, **kwargs):
    """The documents of newline-delimited JSON text (bytes or str), as a
    list. Blank lines are skipped; "\r\n" line ends are accepted. The read
    limits of loads (max_size, max_depth, duplicate_keys, allow_bom) apply
    to each document. A bad line raises JSONDecodeError whose lineno is the
    line's number, colno its column and pos its offset in `data`."""
    return list(_lines(data.splitlines(keepends=True), kwargs))


def load_lines(fp, /, **kwargs):
    """The documents of a newline-delimited JSON file (binary or text), read
    lazily: an iterator that reads one line per document. Errors as in
    loads_lines (pos counts from the start of the file)."""
    return _lines(fp, kwargs)


def _lines(lines, kwargs):
    offset = 0
    for number, line in enumerate(lines, 1):
        # The line without its end (an error at the end of a cut-short
        # document is then on this line, not at the start of the next).
        text = line.rstrip(b"\r\n" if isinstance(line, (bytes, bytearray)) else "\r\n")
        if text.strip():
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
