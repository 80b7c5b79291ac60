"""Typed decode: JSON bytes into dataclasses, jetjson against its peers.

Cases (issue 20): a ~1 KiB request body into a nested dataclass
(bench/go/testdata/binding-body.json), an OCI image manifest into
dataclasses (../shared/corpus/oci), a list of 1,000 SDK records (ints,
strs, floats, datetimes, UUIDs, nested lists and dicts; generated here,
deterministically), and the same records with every object's members in
reverse order.

Contenders, each a statement `timeit` compiles into its loop:
  jetjson           jetjson.Decoder(T).decode(data)
  msgspec           msgspec.json.Decoder(T).decode(data), the same dataclasses
  msgspec Struct    msgspec.json.Decoder(S).decode(data), msgspec's own Struct types
  pydantic          pydantic.TypeAdapter(T).validate_json(data), the same dataclasses
  orjson+hand       orjson.loads(data), then the dataclasses built by hand
                    (datetime.fromisoformat, uuid.UUID), without validation

Every contender's result is checked equal to jetjson's before timing.
Rounds are interleaved: in each round every contender is timed (best of
`--inner` batches) in a rotating order, and the ratio of each peer's time
to jetjson's within the round is kept. The table shows median times and
the median of the per-round ratios (above 1.00: jetjson faster).

    .venv/bin/python bench/python/decode_quick.py [--rounds 21] [--inner 5] [--only SUBSTR]
    .venv/bin/python bench/python/decode_quick.py --loop CASE CONTENDER N   # N calls, for callgrind

Times on a shared machine move with its load; instructions do not:
bench/python/decode_callgrind.sh runs `--loop` under callgrind with N and 3N
calls and prints instructions per call, (3N total - N total) / 2N, for every
case and contender (the start-up and the first call cancel out).

Needs msgspec, orjson and pydantic (bench/requirements.txt).
"""

import argparse
import dataclasses
import datetime
import json
import random
import statistics
import sys
import uuid
from pathlib import Path
from typing import Dict, List, Optional

import msgspec
import orjson
import pydantic

import jetjson
from timing import best, calibrate  # next to this file

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
BODY = ROOT / "bench" / "go" / "testdata" / "binding-body.json"
MANIFEST = ROOT / ".." / "shared" / "corpus" / "oci" / "image-spec" / "manifest-L116-manifest.json"

# ---------------------------------------------------------------- request body


@dataclasses.dataclass
class Customer:
    id: int
    name: str
    email: str
    phone: Optional[str]
    loyalty_member: bool


@dataclasses.dataclass
class Address:
    line1: str
    line2: Optional[str]
    city: str
    region: str
    postal_code: str
    country: str


@dataclasses.dataclass
class LineItem:
    sku: str
    name: str
    quantity: int
    unit_price: float
    discount_percent: float


@dataclasses.dataclass
class CreateOrder:
    request_id: str
    customer: Customer
    shipping_address: Address
    items: List[LineItem]
    currency: str
    coupon_code: Optional[str]
    gift: bool
    notes: str
    tags: List[str]
    idempotency_key: str


class SCustomer(msgspec.Struct):
    id: int
    name: str
    email: str
    phone: Optional[str]
    loyalty_member: bool


class SAddress(msgspec.Struct):
    line1: str
    line2: Optional[str]
    city: str
    region: str
    postal_code: str
    country: str


class SLineItem(msgspec.Struct):
    sku: str
    name: str
    quantity: int
    unit_price: float
    discount_percent: float


class SCreateOrder(msgspec.Struct):
    request_id: str
    customer: SCustomer
    shipping_address: SAddress
    items: List[SLineItem]
    currency: str
    coupon_code: Optional[str]
    gift: bool
    notes: str
    tags: List[str]
    idempotency_key: str


def order_by_hand(data):
    d = orjson.loads(data)
    return CreateOrder(
        request_id=d["request_id"], customer=Customer(**d["customer"]), shipping_address=Address(**d["shipping_address"]),
        items=[LineItem(**x) for x in d["items"]], currency=d["currency"], coupon_code=d["coupon_code"], gift=d["gift"],
        notes=d["notes"], tags=d["tags"], idempotency_key=d["idempotency_key"])


# ---------------------------------------------------------------- OCI manifest


@dataclasses.dataclass
class Descriptor:
    mediaType: str
    digest: str
    size: int
    annotations: Optional[Dict[str, str]] = None
    urls: Optional[List[str]] = None
    artifactType: Optional[str] = None


@dataclasses.dataclass
class Manifest:
    schemaVersion: int
    mediaType: str
    config: Descriptor
    layers: List[Descriptor]
    subject: Optional[Descriptor] = None
    annotations: Optional[Dict[str, str]] = None
    artifactType: Optional[str] = None


class SDescriptor(msgspec.Struct):
    mediaType: str
    digest: str
    size: int
    annotations: Optional[Dict[str, str]] = None
    urls: Optional[List[str]] = None
    artifactType: Optional[str] = None


class SManifest(msgspec.Struct):
    schemaVersion: int
    mediaType: str
    config: SDescriptor
    layers: List[SDescriptor]
    subject: Optional[SDescriptor] = None
    annotations: Optional[Dict[str, str]] = None
    artifactType: Optional[str] = None


def manifest_by_hand(data):
    d = orjson.loads(data)
    subject = d.get("subject")
    return Manifest(d["schemaVersion"], d["mediaType"], Descriptor(**d["config"]), [Descriptor(**x) for x in d["layers"]],
                    Descriptor(**subject) if subject is not None else None, d.get("annotations"), d.get("artifactType"))


# ---------------------------------------------------------------- SDK records


@dataclasses.dataclass
class Line:
    sku: str
    quantity: int
    unit_price: float


@dataclasses.dataclass
class SdkRecord:
    id: int
    uid: uuid.UUID
    name: str
    email: str
    active: bool
    score: float
    created_at: datetime.datetime
    updated_at: Optional[datetime.datetime]
    tags: List[str]
    attributes: Dict[str, str]
    lines: List[Line]


class SLine(msgspec.Struct):
    sku: str
    quantity: int
    unit_price: float


class SSdkRecord(msgspec.Struct):
    id: int
    uid: uuid.UUID
    name: str
    email: str
    active: bool
    score: float
    created_at: datetime.datetime
    updated_at: Optional[datetime.datetime]
    tags: List[str]
    attributes: Dict[str, str]
    lines: List[SLine]


def sdk_records(n=1000, seed=20):
    rng = random.Random(seed)
    word = lambda k: "".join(rng.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(k))  # noqa: E731
    base = datetime.datetime(2024, 1, 1, tzinfo=datetime.timezone.utc)
    out = []
    for i in range(n):
        created = base + datetime.timedelta(seconds=rng.randrange(10**8), microseconds=rng.randrange(1000) * 1000)
        out.append({
            "id": rng.randrange(10**15),
            "uid": str(uuid.UUID(int=rng.getrandbits(128), version=4)),
            "name": f"{word(6)} {word(8)}",
            "email": f"{word(9)}@example.org",
            "active": rng.random() < 0.7,
            "score": round(rng.uniform(0, 100), 3),
            "created_at": created.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
            "updated_at": None if rng.random() < 0.5 else (created + datetime.timedelta(days=3)).isoformat().replace("+00:00", "Z"),
            "tags": [word(5) for _ in range(rng.randrange(4))],
            "attributes": {word(6): word(10) for _ in range(rng.randrange(1, 4))},
            "lines": [{"sku": "SKU-" + word(8), "quantity": rng.randrange(1, 30), "unit_price": round(rng.uniform(1, 900), 2)}
                      for _ in range(rng.randrange(1, 4))],
        })
    return out


def reverse_members(v):
    if isinstance(v, dict):
        return {k: reverse_members(x) for k, x in reversed(list(v.items()))}
    if isinstance(v, list):
        return [reverse_members(x) for x in v]
    return v


def records_by_hand(data):
    parse = datetime.datetime.fromisoformat
    out = []
    for d in orjson.loads(data):
        u = d["updated_at"]
        out.append(SdkRecord(d["id"], uuid.UUID(d["uid"]), d["name"], d["email"], d["active"], d["score"], parse(d["created_at"]),
                             parse(u) if u is not None else None, d["tags"], d["attributes"], [Line(**x) for x in d["lines"]]))
    return out


# ---------------------------------------------------------------- cases


def cases():
    body = BODY.read_bytes()
    manifest = MANIFEST.read_bytes()
    records = sdk_records()
    recs = json.dumps(records, separators=(",", ":")).encode()
    recs_rev = json.dumps(reverse_members(records), separators=(",", ":")).encode()
    g = {}
    rows = []
    for name, data, T, S, hand in [
        (f"request body -> nested dataclass ({len(body)} B)", body, CreateOrder, SCreateOrder, order_by_hand),
        (f"OCI manifest -> dataclasses ({len(manifest)} B)", manifest, Manifest, SManifest, manifest_by_hand),
        (f"1,000 SDK records ({len(recs) // 1024} KiB)", recs, List[SdkRecord], List[SSdkRecord], records_by_hand),
        ("1,000 SDK records, members reversed", recs_rev, List[SdkRecord], List[SSdkRecord], records_by_hand),
    ]:
        k = len(rows)
        g[f"d{k}"] = data
        g[f"jet{k}"] = jetjson.Decoder(T).decode
        g[f"ms{k}"] = msgspec.json.Decoder(T).decode
        g[f"mss{k}"] = msgspec.json.Decoder(S).decode
        g[f"pyd{k}"] = pydantic.TypeAdapter(T).validate_json
        g[f"hand{k}"] = hand
        stmts = {
            "jetjson": f"jet{k}(d{k})",
            "msgspec": f"ms{k}(d{k})",
            "msgspec Struct": f"mss{k}(d{k})",
            "pydantic": f"pyd{k}(d{k})",
            "orjson+hand": f"hand{k}(d{k})",
        }
        rows.append((name, stmts))
    return rows, g


def check(name, stmts, g):
    want = eval(stmts["jetjson"], g)
    for c, s in stmts.items():
        got = eval(s, g)
        if c == "msgspec Struct":
            got = msgspec.json.decode(msgspec.json.encode(got), type=type(want) if not isinstance(want, list) else List[type(want[0])])
        assert got == want, f"{name}: {c} read another value"


def run(rounds, inner, only):
    table, g = cases()
    out = []
    for name, stmts in table:
        if only and only not in name:
            continue
        check(name, stmts, g)
        number = {c: calibrate(s, g) for c, s in stmts.items()}
        times = {c: [] for c in stmts}
        ratios = {c: [] for c in stmts if c != "jetjson"}
        names = list(stmts)
        for r in range(rounds):
            order = names[r % len(names):] + names[: r % len(names)]
            got = {c: best(stmts[c], g, number[c], inner) for c in order}
            for c in names:
                times[c].append(got[c])
            for c in ratios:
                ratios[c].append(got[c] / got["jetjson"])
        out.append((name, {c: statistics.median(v) for c, v in times.items()}, {c: statistics.median(v) for c, v in ratios.items()}))
    peers = ["msgspec", "msgspec Struct", "pydantic", "orjson+hand"]
    print(f"Python {sys.version.split()[0]}, jetjson {jetjson.__version__}, msgspec {msgspec.__version__}, "
          f"pydantic {pydantic.__version__}, orjson {orjson.__version__}; {rounds} rounds, best of {inner}")
    print()
    print("| case | jetjson | " + " | ".join(f"{p} | vs {p}" for p in peers) + " |")
    print("|---|---:|" + "---:|---:|" * len(peers))
    for name, t, r in out:
        cells = " | ".join(f"{fmt(t[p])} | {r[p]:.2f}x" for p in peers)
        print(f"| {name} | {fmt(t['jetjson'])} | {cells} |")


def fmt(s):
    return f"{s * 1e6:.1f} µs" if s >= 1e-5 else f"{s * 1e9:.0f} ns"


def loop(case, contender, n):
    """`n` calls of one contender on one case (the first case whose name
    contains `case`), after one warm-up call."""
    table, g = cases()
    name, stmts = next((nm, st) for nm, st in table if case in nm)
    code = compile(stmts[contender], name, "eval")
    eval(code, g)
    for _ in range(n):
        eval(code, g)


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=21)
    ap.add_argument("--inner", type=int, default=5)
    ap.add_argument("--only", default="")
    ap.add_argument("--loop", nargs=3, metavar=("CASE", "CONTENDER", "N"))
    a = ap.parse_args()
    if a.loop:
        loop(a.loop[0], a.loop[1], int(a.loop[2]))
    else:
        run(a.rounds, a.inner, a.only)
