"""The suite's request-binding and envelope workloads, typed: a request body
bound to its record with the 16 KiB limit, and an envelope whose message
passes through as the bytes it came as (bench/go/testdata, written by the
Rust generators)."""

import dataclasses
import datetime
import json
import os
import sys
from typing import List, Optional

import pytest

import jetjson

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TESTDATA = os.path.join(ROOT, "bench", "go", "testdata")
sys.path.insert(0, os.path.join(ROOT, "bench", "python"))

import suite  # noqa: E402  (the workload's record types and binder)

LIMIT = 16 * 1024


def read(name):
    with open(os.path.join(TESTDATA, name), "rb") as f:
        return f.read()


def test_request_body_binds_to_the_record():
    body = read("binding-body.json")
    decode = jetjson.Decoder(suite.CreateOrder, max_size=LIMIT).decode
    got = decode(body)
    assert got == suite.bind_order(json.loads(body))
    assert isinstance(got.items[0], suite.LineItem) and isinstance(got.customer, suite.Customer)
    # Refused: trailing data, an oversized body (before it is read), a
    # member of the wrong type (with its place), an unknown member when
    # the framework forbids them.
    with pytest.raises(jetjson.JSONDecodeError, match="trailing"):
        decode(body + b' {"request_id":"x"}')
    with pytest.raises(jetjson.JSONDecodeError, match="max_size") as e:
        decode(b'{"notes":"' + b"n" * (1 << 20) + b'"}')
    assert e.value.pos == LIMIT
    bad = body.replace(b'"quantity":12', b'"quantity":"12"')
    with pytest.raises(jetjson.ValidationError) as e:
        decode(bad)
    assert e.value.path == "$.items[1].quantity" and e.value.pos == bad.index(b'"12"')
    with pytest.raises(jetjson.ValidationError, match="unknown field"):
        jetjson.Decoder(suite.CreateOrder, forbid_unknown_fields=True).decode(body.replace(b'"gift":', b'"gift2":1,"gift":'))


@dataclasses.dataclass
class Event:
    id: str
    source: str
    specversion: str
    type: str
    time: datetime.datetime
    datacontenttype: str
    data: jetjson.Raw


@pytest.mark.parametrize("n", [1, 10, 100, 1000])
def test_envelope_message_passes_through_untouched(n):
    data = read(f"envelope-{n}.json")
    value = json.loads(data)
    message = json.dumps(value["data"], separators=(",", ":"), ensure_ascii=False).encode()
    env = jetjson.Decoder(suite.Envelope).decode(data)
    assert bytes(env.data) == message
    # Written on as it came: the same bytes, message untouched.
    assert jetjson.dumps(env) == data
    # With the time read as a datetime.
    ev = jetjson.loads(data, type=Event)
    assert ev.time == datetime.datetime(2024, 3, 5, 12, 34, 56, 789000, tzinfo=datetime.timezone.utc)
    assert jetjson.loads(bytes(ev.data)) == value["data"]
    # The message is checked (repeated names refused) though not built.
    bad = data.replace(b'"order_id":', b'"order_id":"x","order_id":', 1)
    with pytest.raises(jetjson.JSONDecodeError, match="duplicate"):
        jetjson.Decoder(suite.Envelope).decode(bad)


def test_envelope_message_typed_when_wanted():
    @dataclasses.dataclass
    class Item:
        id: int
        sku: str
        name: str
        price: float
        quantity: int
        in_stock: bool
        tags: List[str]

    @dataclasses.dataclass
    class Order:
        order_id: str
        customer_id: int
        items: List[Item]
        currency: Optional[str] = None

    @dataclasses.dataclass
    class TypedEvent:
        id: str
        time: datetime.datetime
        data: Order

    data = read("envelope-100.json")
    ev = jetjson.loads(data, type=TypedEvent)
    assert len(ev.data.items) == 100 and ev.data.items[0] == Item(**json.loads(data)["data"]["items"][0])
