"""jetjson: fast JSON with byte-exact output profiles (go, jcs, compact)."""

from ._jetjson import (
    JSONDecodeError,
    JSONEncodeError,
    Raw,
    __version__,
    canonicalize,
    digest,
    dumps,
    loads,
)

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

__all__ = [
    "JSONDecodeError",
    "JSONEncodeError",
    "Raw",
    "__version__",
    "canonicalize",
    "digest",
    "dumps",
    "loads",
]
