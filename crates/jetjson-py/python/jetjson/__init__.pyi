"""Type stubs for jetjson: fast JSON with byte-exact output profiles."""

import json
from typing import Any, Callable, Generic, Literal, Optional, Type, TypeVar, Union, overload

__version__: str

_Profile = Literal["compact", "go", "jcs"]
_Buffer = Union[bytes, bytearray, memoryview]
_Text = Union[bytes, bytearray, memoryview, str]
_T = TypeVar("_T")

class JSONDecodeError(json.JSONDecodeError):
    """Invalid JSON input. ``pos`` is a character offset for ``str`` input and a
    byte offset for bytes-like input; ``lineno`` and ``colno`` are 1-based."""

class ValidationError(JSONDecodeError):
    """Valid JSON that does not fit the type it is decoded into. ``str(e)`` is
    e.g. ``Expected int, got str at $.items[3].qty (line 5 column 14)``;
    ``msg`` is what, ``path`` where in the value, ``pos``/``lineno``/``colno``
    where in the input (characters for ``str`` input, bytes otherwise)."""

    path: str

class JSONEncodeError(TypeError):
    """An object that cannot be written in the chosen profile. The message
    starts with the path of the offending value, e.g. ``$.items[3].price``."""

class Raw:
    """Pre-serialized JSON embedded in ``dumps`` output, validated on
    construction as ``loads`` reads it, except for CPython's integer digit
    limit (``sys.set_int_max_str_digits``), which ``loads`` applies when
    converting and ``Raw`` (which converts nothing) does not. The profile
    decides how it is written: ``compact`` copies it verbatim, ``go``
    compacts it as Go does ``json.RawMessage``, ``jcs`` canonicalizes it.
    ``ascii_only``, ``escape_html`` and ``sort_keys`` hold inside it too:
    with any of them ``compact`` lays it out token by token as ``go`` does
    (``indent`` alone leaves it verbatim, as orjson does a ``Fragment``).
    ``max_write_depth``: ``compact`` copying it verbatim does so whatever
    its own nesting;
    ``go`` and ``jcs`` count its nesting from where it is written."""

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
    sort_keys: Optional[object] = None,
    escape_html: Optional[object] = None,
    ascii_only: object = False,
    indent: Union[int, str, None] = None,
    default: Optional[Callable[[Any], Any]] = None,
    nan: Literal["error", "null"] = "error",
    non_str_keys: object = False,
    omit_defaults: object = False,
    max_write_depth: int = 512,
) -> bytes:
    """Serializes ``obj`` to JSON bytes in the given profile. Ints are exact
    at any size in ``compact`` and ``go``, up to Python's int digit limit
    (``sys.get_int_max_str_digits()``, as ``loads``: longer is a
    ``JSONEncodeError`` at its place); ``jcs`` writes numbers as doubles.
    ``max_write_depth`` (1 to 1,000,000) bounds the nesting written; the
    objects are walked on the calling thread's stack, which also bounds it
    (about 40,000 levels on an 8 MiB main thread; more on a thread started
    after ``threading.stack_size(n)``): deeper is a ``JSONEncodeError``.
    ``canonicalize`` of JSON text is not bound by the stack."""

@overload
def loads(
    data: _Text,
    /,
    *,
    max_depth: int = 512,
    max_size: Optional[int] = None,
    duplicate_keys: Literal["error", "first", "last"] = "error",
    allow_bom: object = False,
    decimal: object = False,
    type: Type[_T],
    strict: object = True,
    forbid_unknown_fields: object = False,
) -> _T: ...
@overload
def loads(
    data: _Text,
    /,
    *,
    max_depth: int = 512,
    max_size: Optional[int] = None,
    duplicate_keys: Literal["error", "first", "last"] = "error",
    allow_bom: object = False,
    decimal: object = False,
    type: Any = None,
    strict: object = True,
    forbid_unknown_fields: object = False,
) -> Any:
    """Parses one strict RFC 8259 JSON text. Integers of any size come back
    exact (``-0`` is the int 0); a number beyond the float range (``1e400``)
    is refused; raises ``JSONDecodeError`` with the position of the problem.
    With ``type=T``, reads the text as ``T`` (see ``Decoder``); the compiled
    decoder of ``T`` is kept for later calls."""

class Decoder(Generic[_T]):
    """A type compiled once, and the options to read JSON into it.

    Types: dataclasses (defaults, ``default_factory``, ``kw_only``, ``slots``,
    ``frozen``, inheritance; ``InitVar`` and ``ClassVar`` are not read),
    ``TypedDict``, ``NamedTuple`` (from arrays), ``list``, ``tuple``, ``set``,
    ``frozenset``, ``dict[str, T]``, ``dict[int, T]``, ``Optional`` and unions
    of distinct JSON kinds, unions of dataclasses told apart by a tag
    (``config(tag=...)``) or a ``Literal`` member, ``Literal``, ``Enum`` by
    value, ``int``, ``float``, ``str``, ``bool``, ``None``, ``Any``,
    ``datetime``/``date``/``time`` (RFC 3339), ``uuid.UUID``,
    ``decimal.Decimal``, ``bytes`` (base64), ``Raw`` (the member's JSON text,
    not built), and ``Annotated[T, Meta(...)]`` constraints. Strict: no
    coercion unless ``strict=False``. Unknown members are skipped unless
    ``forbid_unknown_fields``; missing required members and repeated names
    are errors."""

    def __init__(
        self,
        type: Type[_T],
        *,
        strict: object = True,
        forbid_unknown_fields: object = False,
        max_depth: int = 512,
        max_size: Optional[int] = None,
        duplicate_keys: Literal["error", "first", "last"] = "error",
        allow_bom: object = False,
    ) -> None: ...
    def decode(self, data: _Text, /) -> _T:
        """Reads one JSON text as the decoder's type; raises
        ``ValidationError`` for JSON that does not fit it and
        ``JSONDecodeError`` for text that is not JSON."""
    @property
    def type(self) -> Any: ...

class Meta:
    """Constraints in ``Annotated``: ``Annotated[int, Meta(ge=0)]``."""

    ge: Any
    gt: Any
    le: Any
    lt: Any
    min_length: Optional[int]
    max_length: Optional[int]
    pattern: Optional[str]
    def __init__(
        self,
        *,
        ge: Any = None,
        gt: Any = None,
        le: Any = None,
        lt: Any = None,
        min_length: Optional[int] = None,
        max_length: Optional[int] = None,
        pattern: Optional[str] = None,
    ) -> None: ...

def config(
    *,
    rename: Optional[Literal["camel", "pascal", "kebab"]] = None,
    tag: Union[bool, str, int, None] = None,
    tag_field: Optional[str] = None,
) -> Callable[[_T], _T]:
    """Class decorator: the class's JSON names (``rename``) and its tag in
    tagged unions (``tag``, written in the member ``tag_field``, default
    ``"type"``)."""

def canonicalize(
    data: _Text,
    profile: _Profile,
    *,
    sort_keys: Optional[object] = None,
    escape_html: Optional[object] = None,
    ascii_only: object = False,
    indent: Union[int, str, None] = None,
    max_write_depth: int = 512,
    max_depth: int = 512,
    max_size: Optional[int] = None,
    duplicate_keys: Literal["error", "first", "last"] = "error",
    allow_bom: object = False,
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
    sort_keys: Optional[object] = None,
    escape_html: Optional[object] = None,
    ascii_only: object = False,
    indent: Union[int, str, None] = None,
    default: Optional[Callable[[Any], Any]] = None,
    nan: Literal["error", "null"] = "error",
    non_str_keys: object = False,
    omit_defaults: object = False,
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

# Files and newline-delimited JSON (NDJSON, JSON Lines)

from typing import IO, Iterable, Iterator

def dump(obj: Any, fp: IO[Any], /, *args: Any, **kwargs: Any) -> None:
    """``dumps(obj, ...)`` written to ``fp`` (bytes to a binary file, text to a text file)."""

def load(fp: IO[Any], /, **kwargs: Any) -> Any:
    """``loads(fp.read(), ...)``."""

def dumps_lines(objs: Iterable[Any], /, *args: Any, **kwargs: Any) -> bytes:
    """Each object written by ``dumps`` and followed by a newline (no ``indent``;
    a document holding a line break, inside a ``Raw``, raises JSONEncodeError)."""

def dump_lines(objs: Iterable[Any], fp: IO[Any], /, *args: Any, **kwargs: Any) -> None:
    """``dumps_lines`` written to ``fp`` one line at a time."""

def loads_lines(data: _Text, /, **kwargs: Any) -> list[Any]:
    """The documents of newline-delimited JSON (blank lines skipped); errors
    name the line."""

def load_lines(fp: IO[Any], /, **kwargs: Any) -> Iterator[Any]:
    """The documents of a newline-delimited JSON file, read lazily (a text
    file opened with ``newline="\\n"``: lines end at ``\\n`` alone)."""
