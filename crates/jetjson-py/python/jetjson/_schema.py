"""Declarations that typed decode (``Decoder``, ``loads(type=...)``) and
``dumps`` read from classes and annotations: ``config`` (class-wide JSON
names and tags) and ``Meta`` (constraints in ``typing.Annotated``)."""

import re
import typing

_RENAMES = ("camel", "pascal", "kebab")


def config(*, rename=None, tag=None, tag_field=None):
    """Class decorator: how a dataclass appears in JSON.

    ``rename``: "camel" (``user_id`` -> ``userId``), "pascal" (``UserId``) or
    "kebab" (``user-id``) for every field without an explicit name
    (``dataclasses.field(metadata={"json": "..."})``). ``tag``: ``True``
    (the class's name) or a str or int written in the member ``tag_field``
    (default ``"type"``), which tells the classes of a union apart, as
    msgspec's ``Struct(tag=..., tag_field=...)`` does. Stored as the class
    attributes ``__jetjson_rename__``, ``__jetjson_tag__`` and
    ``__jetjson_tag_field__`` (subclasses inherit the rename, the tag field
    and ``tag=True``)."""
    if rename is not None and rename not in _RENAMES:
        raise ValueError(f"rename must be one of {', '.join(map(repr, _RENAMES))}, not {rename!r}")
    if tag is not None and not isinstance(tag, (bool, str, int)):
        raise TypeError(f"tag must be True, a str or an int, not {type(tag).__name__}")
    if tag_field is not None and not isinstance(tag_field, str):
        raise TypeError(f"tag_field must be a str, not {type(tag_field).__name__}")

    def apply(cls):
        if rename is not None:
            cls.__jetjson_rename__ = rename
        if tag is not None:
            cls.__jetjson_tag__ = tag
        if tag_field is not None:
            cls.__jetjson_tag_field__ = tag_field
        return cls

    return apply


class Meta:
    """Constraints for ``typing.Annotated``: ``Annotated[int, Meta(ge=0)]``.

    ``ge``, ``gt``, ``le``, ``lt`` bound numbers (and anything ordered);
    ``min_length`` and ``max_length`` bound the length of str, bytes and
    containers; ``pattern`` is a regular expression a str must contain
    (``re.search``; anchor it with ``^...$`` for a full match)."""

    __slots__ = ("ge", "gt", "le", "lt", "min_length", "max_length", "pattern")

    def __init__(self, *, ge=None, gt=None, le=None, lt=None, min_length=None, max_length=None, pattern=None):
        for name, n in (("min_length", min_length), ("max_length", max_length)):
            if n is not None and (not isinstance(n, int) or isinstance(n, bool)):
                raise TypeError(f"Meta {name} must be an int, not {type(n).__name__}")
            if n is not None and n < 0:
                raise ValueError(f"Meta {name} must be >= 0, not {n}")
        if pattern is not None and not isinstance(pattern, str):
            raise TypeError(f"Meta pattern must be a str, not {type(pattern).__name__}")
        if pattern is not None:
            try:
                re.compile(pattern)
            except re.error as e:
                raise ValueError(f"Meta pattern {pattern!r} is not a regular expression: {e}") from e
        self.ge, self.gt, self.le, self.lt = ge, gt, le, lt
        self.min_length, self.max_length, self.pattern = min_length, max_length, pattern

    def __repr__(self):
        parts = [f"{k}={getattr(self, k)!r}" for k in self.__slots__ if getattr(self, k) is not None]
        return f"Meta({', '.join(parts)})"

    def __eq__(self, other):
        return isinstance(other, Meta) and all(getattr(self, k) == getattr(other, k) for k in self.__slots__)

    def __hash__(self):
        return hash(tuple(getattr(self, k) for k in self.__slots__))


def _resolve_type_vars(cls, args, annotations):
    """Typed decode of a generic record: ``annotations`` (field name ->
    annotation, as ``typing.get_type_hints`` gives them) with each type
    variable replaced by the type it stands for when ``cls`` is read as
    ``cls[*args]`` (``args`` None: ``cls`` bare) or through a generic base
    it names (``class IntBox(Box[int])``). Each field's variables are those
    of the class that declares it (the first in the MRO whose own
    ``__annotations__`` name it), so two classes sharing one ``TypeVar``
    object are told apart. Variables left free stay as they are (read as
    their bound, their constraints, or anything). Returns ``annotations``
    itself when nothing is generic. Called by the compiler (compile.rs)."""
    binds = {}
    params = getattr(cls, "__parameters__", ())
    if args is not None and params:
        binds[cls] = dict(zip(params, args))
    for c in cls.__mro__:
        mine = binds.get(c, {})
        for base in c.__dict__.get("__orig_bases__", ()):
            origin = typing.get_origin(base)
            if not isinstance(origin, type) or origin is typing.Generic or origin in binds:
                continue
            base_params = getattr(origin, "__parameters__", ())
            if base_params:
                binds[origin] = dict(zip(base_params, (_substitute(a, mine) for a in typing.get_args(base))))
    if not binds:
        return annotations
    out = {}
    for name, annotation in annotations.items():
        owner = next((c for c in cls.__mro__ if name in c.__dict__.get("__annotations__", {})), cls)
        out[name] = _substitute(annotation, binds.get(owner, binds.get(cls, {})))
    return out


def _substitute(tp, binds):
    """``tp`` with the type variables of ``binds`` replaced (a variable
    itself, or one inside a subscripted form: ``list[T]``,
    ``Optional["Box[T]"]`` once resolved, ``Annotated[T, ...]``)."""
    if not binds:
        return tp
    if isinstance(tp, typing.TypeVar):
        return binds.get(tp, tp)
    params = getattr(tp, "__parameters__", None)
    if params and typing.get_origin(tp) is not None:
        return tp[tuple(binds.get(p, p) for p in params)]
    return tp
