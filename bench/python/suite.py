#!/usr/bin/env python3
"""The Python side of the workload suite: jetjson (`jetjson-py`) against the
Python JSON libraries on the inputs of the Rust/Go suite.

    .venv/bin/python bench/python/suite.py [--quick] [--check-only]
                                           [--filter family/case/op]
                                           [--out bench/results/python.json]

Families (names as in bench/report.py): oci, binding, sdk, envelope,
strings, corpus. Inputs: bench/go/testdata (written by the Rust generators)
and ../shared/corpus/bench. Every row checks every contender's output once
before timing (same value back, equal bytes or digest where they should be
equal); a peer that cannot do the job is left out and the row's note says
why, a peer whose bytes legitimately differ is kept and noted.

Timing: every contender runs a batch of calls (about one sample long,
calibrated once) per round, in a fresh random order each round, after a
warm-up; median, quartiles, min and max of the per-call time over the rounds.
Allocations (binding rows only): tracemalloc over one warm call, which sees
the Python object allocator and PyMem (the objects a library builds), not a
Rust or C library's own malloc calls.

Peers that are not installed are skipped (listed on stderr), so the suite
also runs with only orjson (the test venv).
"""

import argparse
import dataclasses
import gc
import hashlib
import json
import os
import random
import statistics
import sys
import time
import tracemalloc
from dataclasses import dataclass
from typing import List, Optional

import jetjson

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rng_text  # noqa: E402  (next to this file)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TESTDATA = os.path.join(ROOT, "bench", "go", "testdata")


def _find_corpus():
    for base in (os.path.join(ROOT, "..", "shared", "corpus", "bench"),):
        if os.path.isdir(base):
            return os.path.abspath(base)
    return None


CORPUS = _find_corpus()
CORPUS_DOCS = [("twitter", "nativejson-benchmark/twitter.json"), ("citm_catalog", "nativejson-benchmark/citm_catalog.json"),
               ("canada", "nativejson-benchmark/canada.json"), ("github_events", "simdjson/github_events.json"),
               ("gsoc-2018", "simdjson/gsoc-2018.json")]


def _optional(name):
    try:
        return __import__(name)
    except ImportError:
        return None


orjson = _optional("orjson")
msgspec = _optional("msgspec")
if msgspec is not None:
    import msgspec.json  # noqa: F401  (submodule)
ujson = _optional("ujson")
rapidjson = _optional("rapidjson")
simplejson = _optional("simplejson")
rfc8785 = _optional("rfc8785")
canonicaljson = _optional("canonicaljson")
jcs = _optional("jcs")
MISSING = [n for n, m in [("orjson", orjson), ("msgspec", msgspec), ("ujson", ujson), ("rapidjson", rapidjson),
                          ("simplejson", simplejson), ("rfc8785", rfc8785), ("canonicaljson", canonicaljson), ("jcs", jcs)] if m is None]


def read(name):
    with open(os.path.join(TESTDATA, name), "rb") as f:
        return f.read()


# --------------------------------------------------------------------------
# Harness


class Settings:
    quick = False
    check_only = False
    rounds = 15
    sample_s = 0.002
    filter = None


S = Settings()
ROWS = []


def wants(family, case, op):
    key = f"{family}/{case}/{op}"
    return S.filter is None or key.startswith(S.filter) or S.filter in key


def _stats(per_call):
    xs = sorted(per_call)
    q = statistics.quantiles(xs, n=4, method="inclusive") if len(xs) > 1 else [xs[0]] * 3
    return {"median_ns": statistics.median(xs), "p25_ns": q[0], "p75_ns": q[2], "min_ns": xs[0], "max_ns": xs[-1], "rounds": len(xs)}


def allocations(fn):
    """Blocks and bytes of one warm call, seen by tracemalloc: the blocks
    still alive afterwards (the result) and the peak above the start (the
    transient working memory, result included)."""
    fn()
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.take_snapshot()
        base, _ = tracemalloc.get_traced_memory()
        tracemalloc.reset_peak()
        result = fn()
        _, peak = tracemalloc.get_traced_memory()
        after = tracemalloc.take_snapshot()
    finally:
        tracemalloc.stop()
    blocks = sum(max(0, s.count_diff) for s in after.compare_to(before, "traceback"))
    del result
    return blocks, peak - base


def row(family, case, op, nbytes, contenders, note="", measure_allocs=False):
    """contenders: [(name, zero-argument callable)], already checked."""
    if not contenders:
        return
    if S.check_only:
        for _, fn in contenders:
            fn()
        ROWS.append({"family": family, "case": case, "op": op, "bytes": nbytes, "note": note, "contenders": []})
        return
    # Calibrate: calls per batch so a batch is about one sample long.
    batch = {}
    for name, fn in contenders:
        fn()
        t0 = time.perf_counter()
        fn()
        dt = max(time.perf_counter() - t0, 1e-7)
        batch[name] = max(1, int(S.sample_s / dt))
    rounds = S.rounds
    times = {name: [] for name, _ in contenders}
    for name, fn in contenders:  # warm-up batch
        for _ in range(min(batch[name], 3)):
            fn()
    # Calls of tens of milliseconds (10 MB strings, pure-Python
    # canonicalizers) get fewer rounds so the suite stays short; min and max
    # show their spread.
    est = sum((S.sample_s if batch[n] > 1 else _single(fn)) for n, fn in contenders)
    if est > 0.05:
        rounds = max(5, min(rounds, int((3.0 if S.quick else 15.0) / est)))
    order = list(contenders)
    rng = random.Random(f"{family}/{case}/{op}")
    for _ in range(rounds):
        rng.shuffle(order)
        for name, fn in order:
            n = batch[name]
            t0 = time.perf_counter_ns()
            for _ in range(n):
                fn()
            times[name].append((time.perf_counter_ns() - t0) / n)
    out = []
    for name, fn in contenders:
        c = {"name": name, **_stats(times[name]), "allocs": None, "alloc_bytes": None}
        if measure_allocs:
            c["allocs"], c["alloc_bytes"] = allocations(fn)
        out.append(c)
    ROWS.append({"family": family, "case": case, "op": op, "bytes": nbytes, "note": note, "contenders": out})
    best = min(out, key=lambda c: c["median_ns"])
    print(f"{family}/{case}/{op}: {len(out)} contenders, {rounds} rounds; fastest {best['name']} {best['median_ns'] / 1e3:.1f} µs",
          file=sys.stderr)


_single_cache = {}


def _single(fn):
    if fn not in _single_cache:
        t0 = time.perf_counter()
        fn()
        _single_cache[fn] = time.perf_counter() - t0
    return _single_cache[fn]


def check(cond, what):
    if not cond:
        raise AssertionError(what)


class Notes:
    """Collects per-row remarks about peers (left out, or kept with other bytes)."""

    def __init__(self, base=""):
        self.items = [base] if base else []

    def add(self, s):
        self.items.append(s)

    def __str__(self):
        return "; ".join(self.items)


def keep_if(contenders, notes, name, fn, ok, why):
    if ok:
        contenders.append((name, fn))
    else:
        notes.add(f"{name} left out: {why}")


def try_call(fn):
    try:
        return fn(), None
    except Exception as e:  # a peer that refuses the input is reported, not fatal
        return None, f"{type(e).__name__}: {str(e)[:80]}"


# Peers writing compact JSON the way Go/serde/orjson do (no spaces, UTF-8).
def json_compact(o, **kw):
    return json.dumps(o, separators=(",", ":"), ensure_ascii=False, **kw).encode()


def simplejson_compact(o, **kw):
    return simplejson.dumps(o, separators=(",", ":"), ensure_ascii=False, **kw).encode()


def ujson_compact(o, **kw):
    return ujson.dumps(o, ensure_ascii=False, escape_forward_slashes=False, **kw).encode()


def rapidjson_compact(o, **kw):
    return rapidjson.dumps(o, ensure_ascii=False, **kw).encode()


def dump_peers(default=None):
    """name -> f(obj) -> bytes, for the installed peers."""
    kw = {"default": default} if default else {}
    peers = []
    if orjson:
        peers.append(("orjson", lambda o: orjson.dumps(o)))
    if msgspec:
        enc = msgspec.json.Encoder()
        peers.append(("msgspec", enc.encode))
    if ujson:
        peers.append(("ujson", lambda o: ujson_compact(o, **kw)))
    if rapidjson:
        peers.append(("rapidjson", lambda o: rapidjson_compact(o, **kw)))
    if simplejson:
        peers.append(("simplejson", lambda o: simplejson_compact(o, **kw)))
    peers.append(("json", lambda o: json_compact(o, **kw)))
    return peers


def load_peers():
    peers = []
    if orjson:
        peers.append(("orjson", orjson.loads))
    if msgspec:
        peers.append(("msgspec", msgspec.json.Decoder().decode))
    if ujson:
        peers.append(("ujson", ujson.loads))
    if rapidjson:
        peers.append(("rapidjson", rapidjson.loads))
    if simplejson:
        peers.append(("simplejson", simplejson.loads))
    peers.append(("json", json.loads))
    return peers


def equal_exact(a, b, ordered=True):
    """Equality that tells 1 from 1.0 and True from 1 (a lossy round trip
    would otherwise pass), and by default member order too."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        if (list(a) != list(b)) if ordered else (a.keys() != b.keys()):
            return False
        return all(equal_exact(a[k], b[k], ordered) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(equal_exact(x, y, ordered) for x, y in zip(a, b))
    return a == b


# --------------------------------------------------------------------------
# 1. OCI manifests


@dataclass
class Descriptor:
    """image-spec Descriptor with only the members these documents set (the
    Python dumps have no omitempty, so one class per shape, as a client with
    optional members would write its own to_json otherwise)."""
    mediaType: str
    digest: str
    size: int


@dataclass
class Manifest:
    schemaVersion: int
    mediaType: str
    config: Descriptor
    layers: list
    annotations: dict


@dataclass
class IndexEntry:
    mediaType: str
    digest: str
    size: int
    platform: dict  # a dict: "os.version" cannot be a dataclass field name


@dataclass
class AnnotatedIndexEntry:
    mediaType: str
    digest: str
    size: int
    annotations: dict
    platform: dict


@dataclass
class Index:
    schemaVersion: int
    mediaType: str
    manifests: list
    annotations: dict


def client_map(d, seed):
    """An annotation map in the order a client sets its keys, not sorted
    (Go sorts map keys when writing; the registry digest depends on it)."""
    items = sorted(d.items())
    random.Random(seed).shuffle(items)
    return dict(items)


def go_platform(p):
    # Go's struct order: architecture, os, os.version, os.features, variant.
    keys = ["architecture", "os", "os.version", "os.features", "variant"]
    return {k: p[k] for k in keys if k in p}


def oci_object(case, value):
    if case.startswith("manifest"):
        return Manifest(value["schemaVersion"], value["mediaType"], Descriptor(**value["config"]),
                        [Descriptor(**x) for x in value["layers"]], client_map(value["annotations"], 1))
    entries = []
    for i, m in enumerate(value["manifests"]):
        base = (m["mediaType"], m["digest"], m["size"])
        if "annotations" in m:
            entries.append(AnnotatedIndexEntry(*base, client_map(m["annotations"], 10 + i), go_platform(m["platform"])))
        else:
            entries.append(IndexEntry(*base, go_platform(m["platform"])))
    return Index(value["schemaVersion"], value["mediaType"], entries, client_map(value["annotations"], 2))


def dataclass_dict(o):
    """`default` hook for the peers without dataclass support: the fields in
    declaration order (vars() of a dataclass instance)."""
    if dataclasses.is_dataclass(o):
        return vars(o)
    raise TypeError(type(o).__name__)


def sha256_prefixed(b):
    return "sha256:" + hashlib.sha256(b).hexdigest()


def oci():
    for case, fname in [("manifest-5", "oci-manifest-5.json"), ("manifest-50", "oci-manifest-50.json"), ("index-10", "oci-index-10.json")]:
        data = read(fname)
        value = json.loads(data)
        obj = oci_object(case, value)
        want_digest = sha256_prefixed(data)
        mine = jetjson.dumps(obj, profile="go")
        index_note = ""
        if mine != data:
            # Only the index: a platform with both os.version and os.features
            # is a dict here, so the go profile sorts it (os.features first)
            # where Go writes struct order. Same value; the digest differs.
            check(case == "index-10" and equal_exact(json.loads(mine), value, ordered=False), f"oci/{case}: jetjson go bytes")
            index_note = ("jetjson-py writes platform as a sorted dict (a dataclass cannot have a field named os.version), so one "
                          "descriptor's os.features/os.version order differs from Go's struct order; digests are checked against "
                          "sha256 of jetjson's go bytes")
            want_digest = sha256_prefixed(mine)
        go_bytes = mine

        if wants("oci", case, "serialize"):
            notes = Notes("annotation maps are dicts in client insertion order (not sorted); Go sorts map keys")
            if index_note:
                notes.add(index_note)
            cs = [("jetjson-py", lambda: jetjson.dumps(obj, profile="go"))]
            # The compact profile writes insertion order like the peers: next
            # to jetjson-py it shows what the go profile's sorting costs.
            peers = [("jetjson-py-compact", lambda o: jetjson.dumps(o))] + dump_peers(default=dataclass_dict)
            if orjson:
                peers.append(("orjson-sorted", lambda o: orjson.dumps(o, option=orjson.OPT_SORT_KEYS)))
            if msgspec:
                det = msgspec.json.Encoder(order="deterministic")
                peers.append(("msgspec-sorted", det.encode))
            differ = []
            for name, f in peers:
                out, err = try_call(lambda: f(obj))
                if err:
                    notes.add(f"{name} left out: {err}")
                    continue
                check(equal_exact(json.loads(out), value, ordered=False), f"oci/{case}: {name} value")
                if out != go_bytes:
                    differ.append(name)
                cs.append((name, (lambda f=f: f(obj))))
            if differ:
                notes.add("bytes differ from Go's (annotations in insertion order, digest would be wrong): " + ", ".join(differ))
            row("oci", case, "serialize", len(data), cs, str(notes))

        if wants("oci", case, "parse"):
            cs = [("jetjson-py", lambda: jetjson.loads(data))]
            check(equal_exact(jetjson.loads(data), value), f"oci/{case}: jetjson parse")
            for name, f in load_peers():
                check(equal_exact(f(data), value), f"oci/{case}: {name} parse")
                cs.append((name, (lambda f=f: f(data))))
            row("oci", case, "parse", len(data), cs, "into dicts and lists (no typed binding)")

        if wants("oci", case, "digest"):
            notes = Notes("jetjson hashes while writing (go profile); peers serialize with sorted maps, then hashlib.sha256")
            if index_note:
                notes.add(index_note)
            check(jetjson.digest(obj, profile="go") == want_digest, f"oci/{case}: jetjson digest")
            cs = [("jetjson-py", lambda: jetjson.digest(obj, profile="go"))]
            if orjson:
                f = lambda: sha256_prefixed(orjson.dumps(obj, option=orjson.OPT_SORT_KEYS))  # noqa: E731
                keep_if(cs, notes, "orjson-sorted", f, f() == want_digest, "wrong digest")
            if msgspec:
                det = msgspec.json.Encoder(order="deterministic")
                f = lambda: sha256_prefixed(det.encode(obj))  # noqa: E731
                keep_if(cs, notes, "msgspec-sorted", f, f() == want_digest, "wrong digest")
            row("oci", case, "digest", len(data), cs, str(notes))


# --------------------------------------------------------------------------
# 2. Request-body binding

LIMIT = 16 * 1024
OVERSIZE = 1 << 20


@dataclass
class Customer:
    id: int
    name: str
    email: str
    phone: Optional[str]
    loyalty_member: bool


@dataclass
class Address:
    line1: str
    line2: Optional[str]
    city: str
    region: str
    postal_code: str
    country: str


@dataclass
class LineItem:
    sku: str
    name: str
    quantity: int
    unit_price: float
    discount_percent: float


@dataclass
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


def bind_order(d):
    """A framework's binder: the parsed body into the typed record (unknown
    or missing members raise TypeError, as a dataclass does)."""
    return CreateOrder(
        request_id=d["request_id"], customer=Customer(**d["customer"]), shipping_address=Address(**d["shipping_address"]),
        items=[LineItem(**x) for x in d["items"]], currency=d["currency"], coupon_code=d["coupon_code"], gift=d["gift"],
        notes=d["notes"], tags=d["tags"], idempotency_key=d["idempotency_key"])


class BodyTooLarge(ValueError):
    pass


def limited(loads):
    def bind(body):
        if len(body) > LIMIT:
            raise BodyTooLarge(len(body))
        return bind_order(loads(body))
    return bind


def msgspec_types():
    class MCustomer(msgspec.Struct):
        id: int
        name: str
        email: str
        phone: Optional[str]
        loyalty_member: bool

    class MAddress(msgspec.Struct):
        line1: str
        line2: Optional[str]
        city: str
        region: str
        postal_code: str
        country: str

    class MLineItem(msgspec.Struct):
        sku: str
        name: str
        quantity: int
        unit_price: float
        discount_percent: float

    class MCreateOrder(msgspec.Struct):
        request_id: str
        customer: MCustomer
        shipping_address: MAddress
        items: list[MLineItem]
        currency: str
        coupon_code: Optional[str]
        gift: bool
        notes: str
        tags: list[str]
        idempotency_key: str

    return MCreateOrder


def binding():
    body = read("binding-body.json")
    want = bind_order(json.loads(body))
    jet = lambda b: bind_order(jetjson.loads(b, max_size=LIMIT))  # noqa: E731
    binders = [("jetjson-py", jet)] + [(n, limited(f)) for n, f in load_peers()]
    # Typed decode: the body straight into the record, checked as it is read.
    typed = jetjson.Decoder(CreateOrder, max_size=LIMIT).decode
    check(typed(body) == want, "binding: jetjson typed")
    binders.append(("jetjson-py-typed", typed))
    mdec = None
    if msgspec:
        MCreateOrder = msgspec_types()
        dec = msgspec.json.Decoder(MCreateOrder)

        def mdec(b):
            if len(b) > LIMIT:
                raise BodyTooLarge(len(b))
            return dec.decode(b)
        check(msgspec.to_builtins(mdec(body)) == dataclasses.asdict(want), "binding: msgspec typed")
        binders.append(("msgspec-typed", mdec))

    if wants("binding", "order-1k", "bind"):
        cs = []
        for name, f in binders:
            if name != "msgspec-typed":
                check(f(body) == want, f"binding: {name} bind")
            cs.append((name, (lambda f=f: f(body))))
        row("binding", "order-1k", "bind", len(body), cs,
            "loads then the dataclass record (jetjson-py-typed: jetjson.Decoder(CreateOrder, max_size=16384), the record "
            "built while parsing; msgspec-typed: msgspec.json.Decoder(type=Struct)); peers check the 16 KiB limit "
            "by length; allocations: tracemalloc, Python objects only", measure_allocs=True)

    # Trailing data after the value, and a 1 MiB body over the limit: every
    # binder must refuse both.
    trailing = body + b' {"request_id":"x"}'
    oversize = b'{"notes":"' + b"n" * (OVERSIZE - 12) + b'"}'
    for op, bad, nbytes in [("reject-trailing", trailing, len(trailing)), ("reject-oversize", oversize, len(oversize))]:
        if not wants("binding", "order-1k", op):
            continue
        cs = []
        notes = Notes("" if op == "reject-trailing" else "1 MiB in-memory body, 16 KiB limit: jetjson loads(max_size=16384), "
                      "peers a length check before loads; MB/s not meaningful")
        for name, f in binders:
            def attempt(f=f):
                try:
                    f(bad)
                except (ValueError, TypeError):
                    return True  # JSONDecodeError, msgspec.DecodeError, BodyTooLarge are ValueErrors
                return False
            ok, err = try_call(attempt)
            keep_if(cs, notes, name, attempt, ok is True, f"accepted the body ({err or 'no error'})")
        row("binding", "order-1k", op, nbytes, cs, str(notes))


# --------------------------------------------------------------------------
# 3. SDK records


def sdk():
    for case in ("simple", "complex"):
        data = read(f"sdk-{case}.json")
        rev = read(f"sdk-{case}-reversed.json")
        value = json.loads(data)
        rev_value = json.loads(rev)
        check(value == rev_value, f"sdk/{case}: reversed input is the same value")
        if wants("sdk", case, "serialize"):
            check(jetjson.dumps(value) == data, f"sdk/{case}: jetjson bytes")
            cs = [("jetjson-py", lambda: jetjson.dumps(value))]
            notes = Notes("from dicts (insertion order); compact output compared with the input bytes")
            differ = []
            for name, f in dump_peers():
                out = f(value)
                check(equal_exact(json.loads(out), value), f"sdk/{case}: {name} value")
                if out != data:
                    differ.append(name)
                cs.append((name, (lambda f=f: f(value))))
            if differ:
                notes.add("other bytes, same value: " + ", ".join(differ))
            row("sdk", case, "serialize", len(data), cs, str(notes))
        for op, b, v in [("deserialize", data, value), ("deserialize-reversed", rev, rev_value)]:
            if not wants("sdk", case, op):
                continue
            check(equal_exact(jetjson.loads(b), v), f"sdk/{case}: jetjson {op}")
            cs = [("jetjson-py", lambda b=b: jetjson.loads(b))]
            for name, f in load_peers():
                check(equal_exact(f(b), v), f"sdk/{case}: {name} {op}")
                cs.append((name, (lambda f=f, b=b: f(b))))
            row("sdk", case, op, len(b), cs, "into dicts and lists")
        if wants("sdk", case, "round-trip"):
            check(jetjson.dumps(jetjson.loads(data)) == data, f"sdk/{case}: jetjson round trip")
            cs = [("jetjson-py", lambda: jetjson.dumps(jetjson.loads(data)))]
            for (name, d), (_, lo) in zip(dump_peers(), load_peers()):
                check(equal_exact(json.loads(d(lo(data))), value), f"sdk/{case}: {name} round trip")
                cs.append((name, (lambda d=d, lo=lo: d(lo(data)))))
            row("sdk", case, "round-trip", len(data), cs, "loads then dumps")


# --------------------------------------------------------------------------
# 4. Envelopes


@dataclass
class Envelope:
    """A CloudEvents envelope whose message the bus passes on as it came."""
    id: str
    source: str
    specversion: str
    type: str
    time: str
    datacontenttype: str
    data: jetjson.Raw


def envelope_typed(data, message):
    """Rows where the envelope is read into a record with the message kept
    as raw bytes (jetjson.Raw; msgspec.Raw), and written on unchanged."""
    value = json.loads(data)
    dec = jetjson.Decoder(Envelope).decode
    env = dec(data)
    check(bytes(env.data) == message and env.id == value["id"], "envelope: jetjson typed raw")
    check(jetjson.dumps(env) == data, "envelope: jetjson typed raw written back")
    cs = [("jetjson-py-typed", lambda: dec(data))]
    notes = Notes("the message kept as its bytes (jetjson.Raw / msgspec.Raw), the envelope as a dataclass (msgspec: Struct); "
                  "peers without raw members parse the whole message")
    if msgspec:
        class MEnvelope(msgspec.Struct):
            id: str
            source: str
            specversion: str
            type: str
            time: str
            datacontenttype: str
            data: msgspec.Raw
        mdec = msgspec.json.Decoder(MEnvelope).decode
        check(bytes(mdec(data).data) == message, "envelope: msgspec raw")
        cs.append(("msgspec-typed", lambda: mdec(data)))
    for name, f in load_peers():
        check(f(data)["data"] == value["data"], f"envelope: {name} loads")
        cs.append((name, (lambda f=f: f(data))))
    return cs, notes


def envelope():
    for n in (1, 10, 100, 1000):
        data = read(f"envelope-{n}.json")
        value = json.loads(data)
        check(list(value)[-1] == "data", "envelope: data is the last member")
        # The message as the bus hands it over: its own bytes, already JSON.
        message = json.dumps(value["data"], separators=(",", ":"), ensure_ascii=False).encode()
        check(data.endswith(b'"data":' + message + b"}"), f"envelope-{n}: message bytes")
        head = {k: v for k, v in value.items() if k != "data"}
        case = f"items-{n}"
        if wants("envelope", case, "serialize-raw"):
            raw = jetjson.Raw(message)
            check(jetjson.dumps({**head, "data": raw}) == data, f"{case}: jetjson raw")
            cs = [("jetjson-py", lambda: jetjson.dumps({**head, "data": raw}))]
            notes = Notes("the message is pre-serialized bytes: jetjson.Raw (validated once, at construction), orjson.Fragment; "
                          "the envelope dict is built per call")
            if orjson and hasattr(orjson, "Fragment"):
                frag = orjson.Fragment(message)
                check(orjson.dumps({**head, "data": frag}) == data, f"{case}: orjson fragment")
                cs.append(("orjson", lambda: orjson.dumps({**head, "data": frag})))
            row("envelope", case, "serialize-raw", len(data), cs, str(notes))
        if wants("envelope", case, "deserialize-raw"):
            cs, notes = envelope_typed(data, message)
            row("envelope", case, "deserialize-raw", len(data), cs, str(notes))
        if wants("envelope", case, "serialize-reparsed"):
            # What a library without raw embedding does: parse the message,
            # then write the whole envelope.
            check(jetjson.dumps({**head, "data": jetjson.loads(message)}) == data, f"{case}: jetjson reparsed")
            cs = [("jetjson-py", lambda: jetjson.dumps({**head, "data": jetjson.loads(message)}))]
            notes = Notes("message parsed (loads) and written again with the envelope")
            differ = []
            for (name, d), (_, lo) in zip(dump_peers(), load_peers()):
                out = d({**head, "data": lo(message)})
                check(equal_exact(json.loads(out), value), f"{case}: {name} value")
                if out != data:
                    differ.append(name)
                cs.append((name, (lambda d=d, lo=lo: d({**head, "data": lo(message)}))))
            if differ:
                notes.add("other bytes, same value: " + ", ".join(differ))
            row("envelope", case, "serialize-reparsed", len(data), cs, str(notes))


# --------------------------------------------------------------------------
# 5. Strings

# (name, quote per ten thousand, control per ten thousand), as strings.rs.
MIXES = [("clean", 0, 0), ("q2-s1", 200, 100), ("q10-s1", 1000, 100)]


def strings():
    sizes = [("100KB", 100_000), ("10MB", 10_000_000)]
    if not S.quick:
        sizes.append(("100MB", 100_000_000))
    if S.check_only:
        sizes = sizes[:1]
    for size_name, length in sizes:
        for i, (mix, q, s) in enumerate(MIXES):
            case = f"{size_name}-{mix}"
            if not wants("strings", case, "serialize"):
                continue
            text = rng_text.text(length, q, s, 500 + i)
            mine = jetjson.dumps(text)
            check(json.loads(mine) == text, f"strings/{case}: jetjson")
            cs = [("jetjson-py", lambda text=text: jetjson.dumps(text))]
            notes = Notes("the strings of strings.rs, byte for byte (bench/python/rng_text.py)")
            differ = []
            for name, f in dump_peers():
                out = f(text)
                check(json.loads(out) == text, f"strings/{case}: {name}")
                if out != mine:
                    differ.append(name)
                cs.append((name, (lambda f=f, text=text: f(text))))
            if differ:
                notes.add("escapes written differently (same string back): " + ", ".join(differ))
            del mine
            row("strings", case, "serialize", length, cs, str(notes))
            del cs, text
            gc.collect()


# --------------------------------------------------------------------------
# 6. Corpus


def canonical_peers():
    peers = []
    if rfc8785:
        peers.append(("rfc8785", rfc8785.dumps))
    if canonicaljson:
        peers.append(("canonicaljson", canonicaljson.encode_canonical_json))
    if jcs:
        peers.append(("jcs", jcs.canonicalize))
    return peers


def corpus():
    if CORPUS is None:
        print("corpus: ../shared/corpus/bench not found, skipped", file=sys.stderr)
        return
    for name, rel in CORPUS_DOCS:
        path = os.path.join(CORPUS, rel)
        if not os.path.exists(path):
            print(f"corpus: {path} missing, skipped", file=sys.stderr)
            continue
        with open(path, "rb") as f:
            data = f.read()
        value = json.loads(data)
        if wants("corpus", name, "parse"):
            check(equal_exact(jetjson.loads(data), value), f"corpus/{name}: jetjson parse")
            cs = [("jetjson-py", lambda: jetjson.loads(data))]
            notes = Notes("into dicts and lists")
            for pname, f in load_peers():
                out, err = try_call(lambda: f(data))
                keep_if(cs, notes, pname, (lambda f=f: f(data)), err is None and equal_exact(out, value),
                        err or "other value back")
            row("corpus", name, "parse", len(data), cs, str(notes))
        if wants("corpus", name, "serialize"):
            check(equal_exact(json.loads(jetjson.dumps(value)), value), f"corpus/{name}: jetjson serialize")
            cs = [("jetjson-py", lambda: jetjson.dumps(value))]
            notes = Notes("from the same dicts and lists (parsed by json)")
            for pname, f in dump_peers():
                out, err = try_call(lambda: f(value))
                keep_if(cs, notes, pname, (lambda f=f: f(value)), err is None and equal_exact(json.loads(out), value),
                        err or "other value back")
            row("corpus", name, "serialize", len(data), cs, str(notes))
        if wants("corpus", name, "round-trip"):
            cs = [("jetjson-py", lambda: jetjson.dumps(jetjson.loads(data)))]
            check(equal_exact(json.loads(cs[0][1]()), value), f"corpus/{name}: jetjson round trip")
            notes = Notes("loads then dumps")
            for (pname, d), (_, lo) in zip(dump_peers(), load_peers()):
                out, err = try_call(lambda: d(lo(data)))
                keep_if(cs, notes, pname, (lambda d=d, lo=lo: d(lo(data))), err is None and equal_exact(json.loads(out), value),
                        err or "other value back")
            row("corpus", name, "round-trip", len(data), cs, str(notes))
        if wants("corpus", name, "canonical"):
            mine = jetjson.dumps(value, profile="jcs")
            check(jetjson.canonicalize(data, "jcs") == mine, f"corpus/{name}: canonicalize == dumps(jcs)")
            check(json.loads(mine) == value, f"corpus/{name}: jcs value")
            cs = [("jetjson-py", lambda: jetjson.dumps(value, profile="jcs"))]
            notes = Notes("RFC 8785 (JCS) from the parsed value; packages' bytes compared with jetjson's")
            for pname, f in canonical_peers():
                out, err = try_call(lambda: f(value))
                if err:
                    notes.add(f"{pname} rejects the document ({err})")
                elif out != mine:
                    notes.add(f"{pname} left out: bytes differ from jetjson jcs ({'same value' if json.loads(out) == value else 'other value'})")
                else:
                    cs.append((pname, (lambda f=f: f(value))))
            if orjson:
                out = orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
                same = "same bytes" if out == mine else "not JCS: other number format or key order, listed for speed only"
                cs.append(("orjson-sorted", lambda: orjson.dumps(value, option=orjson.OPT_SORT_KEYS)))
                notes.add(f"orjson-sorted (OPT_SORT_KEYS): {same}")
            row("corpus", name, "canonical", len(data), cs, str(notes))


# --------------------------------------------------------------------------

FAMILIES = [("oci", oci), ("binding", binding), ("sdk", sdk), ("envelope", envelope), ("strings", strings), ("corpus", corpus)]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="fewer rounds, no 100 MB strings")
    ap.add_argument("--check-only", action="store_true", help="run every body once with its output checks, no timing")
    ap.add_argument("--rounds", type=int, default=None)
    ap.add_argument("--filter", default=None, help="family/case/op prefix or substring")
    ap.add_argument("--out", default=None, help="write results (schema of rust.json) here")
    a = ap.parse_args(argv)
    S.quick, S.check_only, S.filter = a.quick, a.check_only, a.filter
    S.rounds = a.rounds or (9 if a.quick else 21)
    S.sample_s = 0.001 if a.quick else 0.003
    if MISSING:
        print("peers not installed (skipped): " + ", ".join(MISSING), file=sys.stderr)
    t0 = time.perf_counter()
    for _, fn in FAMILIES:
        fn()  # rows outside --filter are skipped inside (wants)
    elapsed = time.perf_counter() - t0
    print(f"{len(ROWS)} rows in {elapsed:.1f} s ({'check only' if S.check_only else 'timed'})", file=sys.stderr)
    if a.out and not S.check_only:
        import platform
        doc = {"suite": "python", "scale": "quick" if S.quick else "full", "rounds": S.rounds, "sample_ms": S.sample_s * 1e3,
               "python": sys.version.split()[0], "platform": platform.platform(),
               "versions": {n: getattr(m, "__version__", "?") for n, m in [("jetjson", jetjson), ("orjson", orjson), ("msgspec", msgspec),
                            ("ujson", ujson), ("rapidjson", rapidjson), ("simplejson", simplejson), ("rfc8785", rfc8785),
                            ("canonicaljson", canonicaljson), ("jcs", jcs)] if m},
               "unix_time": int(time.time()), "rows": ROWS}
        os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
        with open(a.out, "w") as f:
            json.dump(doc, f, indent=1)
        print(f"wrote {a.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
