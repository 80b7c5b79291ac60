"""jetjson: fast JSON with byte-exact output profiles (go, jcs, compact)."""

from ._jetjson import (
    JSONDecodeError,
    JSONEncodeError,
    Raw,
    __version__,
    canonicalize,
    digest,
    digest_bytes,
    dumps,
    loads,
)

__all__ = [
    "JSONDecodeError",
    "JSONEncodeError",
    "Raw",
    "__version__",
    "canonicalize",
    "digest",
    "digest_bytes",
    "dumps",
    "loads",
]
