"""Type stubs for jetjson: fast JSON with byte-exact output profiles."""

import json
from typing import Any, Callable, Literal, Optional, Union

__version__: str

_Profile = Literal["compact", "go", "jcs"]
_Buffer = Union[bytes, bytearray, memoryview]
_Text = Union[bytes, bytearray, memoryview, str]

class JSONDecodeError(json.JSONDecodeError):
    """Invalid JSON input. ``pos`` is a character offset for ``str`` input and a
    byte offset for bytes-like input; ``lineno`` and ``colno`` are 1-based."""

class JSONEncodeError(TypeError):
    """An object that cannot be written in the chosen profile. The message
    starts with the path of the offending value, e.g. ``$.items[3].price``."""

class Raw:
    """Pre-serialized JSON embedded in ``dumps`` output, validated on
    construction. The profile decides how it is written: ``compact`` copies it
    verbatim, ``go`` compacts it as Go does ``json.RawMessage``, ``jcs``
    canonicalizes it."""

    def __init__(self, data: Union[bytes, bytearray, memoryview, str], /) -> None: ...
    @classmethod
    def unchecked(cls, data: Union[bytes, bytearray, memoryview, str], /) -> "Raw":
        """Trusts ``data`` to be one valid JSON text (no validation)."""
    def __bytes__(self) -> bytes: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

def dumps(
    obj: Any,
    *,
    profile: _Profile = "compact",
    sort_keys: bool = False,
    escape_html: Optional[bool] = None,
    ascii_only: bool = False,
    indent: Optional[int] = None,
    default: Optional[Callable[[Any], Any]] = None,
    nan: Literal["error", "null"] = "error",
) -> bytes:
    """Serializes ``obj`` to JSON bytes in the given profile. Ints are exact
    at any size in ``compact`` and ``go``; ``jcs`` writes numbers as doubles."""

def loads(
    data: _Text,
    /,
    *,
    max_depth: int = 512,
    max_size: Optional[int] = None,
    duplicate_keys: Literal["error", "first", "last"] = "error",
    allow_bom: bool = False,
) -> Any:
    """Parses one strict RFC 8259 JSON text. Integers of any size come back
    exact (``-0`` is the int 0); a number beyond the float range (``1e400``)
    is refused; raises ``JSONDecodeError`` with the position of the problem."""

def canonicalize(
    data: _Text,
    profile: _Profile,
    *,
    sort_keys: bool = False,
    escape_html: Optional[bool] = None,
    ascii_only: bool = False,
    indent: Optional[int] = None,
    max_write_depth: int = 512,
    max_depth: int = 512,
    max_size: Optional[int] = None,
    duplicate_keys: Literal["error", "first", "last"] = "error",
    allow_bom: bool = False,
) -> bytes:
    """JSON text in, the profile's bytes out, without building Python objects;
    equal to ``dumps(loads(data), profile=profile)`` (same options). The
    profile is required (no default). An output option that cannot change the
    profile's bytes is refused with ``ValueError`` (every one with ``jcs``,
    ``escape_html=True`` with ``go``, ``escape_html=False`` with ``compact``).
    ``max_write_depth``: the deepest nesting written (1 to 1,000,000)."""

def digest(
    obj: Any,
    profile: _Profile,
    algorithm: Literal["sha256", "sha512"] = "sha256",
    *,
    sort_keys: bool = False,
    escape_html: Optional[bool] = None,
    ascii_only: bool = False,
    indent: Optional[int] = None,
    default: Optional[Callable[[Any], Any]] = None,
    nan: Literal["error", "null"] = "error",
    max_write_depth: int = 512,
) -> str:
    """``"sha256:<hex>"`` of ``dumps(obj, profile=profile)``, hashed while
    writing. The profile is required (no default). ``bytes``, ``bytearray``
    and ``memoryview`` are refused with ``TypeError``: for the digest of stored
    bytes (a file, a registry manifest) use ``digest_bytes``."""

def digest_bytes(
    data: _Buffer,
    algorithm: Literal["sha256", "sha512"] = "sha256",
) -> str:
    """``"sha256:<hex>"`` of ``data`` exactly as given: the content address
    registries give a manifest or blob, e.g.
    ``digest_bytes(open("manifest.json", "rb").read())``. ``str`` is refused
    (read in binary mode, or encode it)."""
