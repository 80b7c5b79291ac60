"""jetjson: fast JSON with byte-exact output profiles (go, jcs, compact)."""

from ._jetjson import (
    Decoder,
    JSONDecodeError,
    JSONEncodeError,
    Raw,
    ValidationError,
    __version__,
    canonicalize,
    digest,
    dumps,
    loads,
)
from ._schema import Meta, config

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
    "dumps",
    "loads",
]
