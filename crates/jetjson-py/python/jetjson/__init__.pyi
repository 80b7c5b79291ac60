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

    def __init__(self, data: Union[bytes, bytearray, memoryview, str], /, *, duplicate_keys: Literal["error", "first", "last"] = "error") -> None: ...
    @classmethod
    def unchecked(cls, data: Union[bytes, bytearray, memoryview, str], /) -> "Raw":
        """Trusts ``data`` to be one valid JSON text (no validation)."""
    def __bytes__(self) -> bytes: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

def dumps(
    obj: Any,
    /,
    profile: _Profile = "compact",
    *,
    sort_keys: object = False,
    escape_html: Optional[object] = None,
    ascii_only: object = False,
    indent: Optional[int] = None,
    default: Optional[Callable[[Any], Any]] = None,
    nan: Literal["error", "null"] = "error",
    non_str_keys: object = False,
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
    allow_bom: object = False,
    decimal: object = False,
) -> Any:
    """Parses one strict RFC 8259 JSON text. Integers of any size come back
    exact (``-0`` is the int 0); a number beyond the float range (``1e400``)
    is refused; raises ``JSONDecodeError`` with the position of the problem."""

def canonicalize(
    data: _Text,
    profile: _Profile = "jcs",
    *,
    sort_keys: bool = False,
    escape_html: Optional[bool] = None,
    ascii_only: bool = False,
    indent: Optional[int] = None,
    max_depth: int = 512,
    max_size: Optional[int] = None,
    duplicate_keys: Literal["error", "first", "last"] = "error",
    allow_bom: bool = False,
) -> bytes:
    """JSON text in, the profile's bytes out, without building Python objects;
    equal to ``dumps(loads(data), profile=profile)`` (same options)."""

def digest(
    obj: Any,
    profile: _Profile = "go",
    algorithm: Literal["sha256", "sha512"] = "sha256",
    *,
    sort_keys: bool = False,
    escape_html: Optional[bool] = None,
    ascii_only: bool = False,
    indent: Optional[int] = None,
    default: Optional[Callable[[Any], Any]] = None,
    nan: Literal["error", "null"] = "error",
) -> str:
    """``"sha256:<hex>"`` of ``dumps(obj, profile=profile)``, hashed while writing."""

# Files and newline-delimited JSON (NDJSON, JSON Lines)

from typing import IO, Iterable, Iterator

def dump(obj: Any, fp: IO[Any], /, *args: Any, **kwargs: Any) -> None:
    """``dumps(obj, ...)`` written to ``fp`` (bytes to a binary file, text to a text file)."""

def load(fp: IO[Any], /, **kwargs: Any) -> Any:
    """``loads(fp.read(), ...)``."""

def dumps_lines(objs: Iterable[Any], /, *args: Any, **kwargs: Any) -> bytes:
    """Each object written by ``dumps`` and followed by a newline (no ``indent``)."""

def dump_lines(objs: Iterable[Any], fp: IO[Any], /, *args: Any, **kwargs: Any) -> None:
    """``dumps_lines`` written to ``fp`` one line at a time."""

def loads_lines(data: _Text, /, **kwargs: Any) -> list[Any]:
    """The documents of newline-delimited JSON; errors name the line."""

def load_lines(fp: IO[Any], /, **kwargs: Any) -> Iterator[Any]:
    """The documents of a newline-delimited JSON file, read lazily."""
