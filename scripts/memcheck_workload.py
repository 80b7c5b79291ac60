"""A short workload of every Python API, for `make memcheck-python`
(valgrind memcheck over the extension; see SECURITY.md).

It walks the hot and cold paths once each on small inputs: every builtin
type, the profiles, sorted dicts, dataclasses, dates, Raw, digest,
canonicalize, loads of every value kind, and the error paths of each
(which release partially built objects).
"""

import dataclasses
import datetime
import decimal
import enum
import json
import pathlib
import uuid

import jetjson

CORPUS = pathlib.Path(__file__).resolve().parents[1] / ".." / "shared" / "corpus"


@dataclasses.dataclass
class Item:
    name: str
    price: float
    tags: list


class Color(enum.Enum):
    RED = "red"


def main() -> None:
    docs = [CORPUS / "bench" / "simdjson" / "github_events.json", CORPUS / "jcs" / "input" / "structures.json"]
    texts = [p.read_bytes() for p in docs if p.exists()]
    texts.append('{"a":[1,-2,3.5e-7,1e400,123456789012345678901234567890,"\u00e9\u4e2d\U0001f600",null,true,false,{}]}'.encode())
    for raw in texts:
        obj = jetjson.loads(raw)
        assert obj == json.loads(raw)
        assert jetjson.loads(raw.decode()) == obj
        for profile in ("compact", "go", "jcs"):
            try:
                out = jetjson.dumps(obj, profile=profile)
                assert jetjson.loads(out) is not None
                jetjson.digest(obj, profile=profile)
            except jetjson.JSONEncodeError:
                pass  # 1e400 reads as infinity; jcs refuses integers beyond 2^53
            try:
                jetjson.canonicalize(raw, profile=profile)
            except jetjson.JSONEncodeError:
                pass
        jetjson.dumps(obj, sort_keys=True, indent=2, nan="null")
    value = {
        "item": Item("a<b>", 1.5, [1, 2]),
        "when": datetime.datetime(2024, 1, 2, 3, 4, 5, 678000, tzinfo=datetime.timezone.utc),
        "day": datetime.date(2024, 1, 2),
        "id": uuid.UUID(int=7),
        "price": decimal.Decimal("12.50"),
        "color": Color.RED,
        "raw": jetjson.Raw(b'{"z": [1, 2]}'),
        "tuple": (1, "x"),
    }
    for profile in ("compact", "go", "jcs"):
        jetjson.dumps(value, profile=profile)
    jetjson.dumps({"b": b"\x00\xff"}, profile="go")
    for bad in (b'{"a":1,"a":2}', b"[1,2", b'"\xff"', b"[" * 2000, b"{" * 10, b"1 2", b"nan"):
        try:
            jetjson.loads(bad)
        except jetjson.JSONDecodeError:
            pass
    for bad in ({1: 2}, {"x": float("nan")}, object(), [[[]] * 3] * 2 + [set()]):
        try:
            jetjson.dumps(bad, profile="go")
        except (jetjson.JSONEncodeError, TypeError):
            pass
    try:
        jetjson.Raw(b"{bad")
    except jetjson.JSONDecodeError:
        pass
    deep = []
    for _ in range(1000):
        deep = [deep]
    try:
        jetjson.dumps(deep)
    except jetjson.JSONEncodeError:
        pass
    print("memcheck workload done")


if __name__ == "__main__":
    main()
