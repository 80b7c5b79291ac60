"""Declarations that typed decode (``Decoder``, ``loads(type=...)``) and
``dumps`` read from classes and annotations: ``config`` (class-wide JSON
names and tags) and ``Meta`` (constraints in ``typing.Annotated``)."""

import re

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
