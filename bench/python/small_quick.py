"""Small documents: jetjson against orjson and msgspec, per call.

The workloads jetjson was made for are small (an OCI manifest, a 1 KiB
request body, a message envelope, an SDK record with timestamps and IDs),
so per-call cost and common types decide. Each case states the call of
every contender as a statement that `timeit` compiles into its loop (no
Python-level wrapper around the call being timed), checks that they give
the same bytes (or the same value, for loads) before timing, then runs
interleaved rounds: in each round every contender is timed (best of
`--inner` batches) in a rotating order, and the ratio of the two compared
contenders within the round is kept. The table shows median times and the
median of the per-round ratios (orjson time / jetjson time: above 1.00 is
jetjson faster).

    .venv/bin/python bench/python/small_quick.py [--rounds 21] [--inner 5] [--only SUBSTR]
    .venv/bin/python bench/python/small_quick.py --memory   # peak RSS per case, fresh process each

Needs orjson and msgspec (bench/requirements.txt).
"""

import argparse
import dataclasses
import datetime
import json
import os
import random
import re
import statistics
import subprocess
import sys
import typing
import uuid
from pathlib import Path

import jetjson
import msgspec
import orjson
from timing import best, calibrate  # next to this file

HERE = Path(__file__).resolve().parent
OCI = HERE.parents[1] / ".." / "shared" / "corpus" / "oci"
MANIFEST = OCI / "image-spec" / "manifest-L116-manifest.json"
INDEX = OCI / "containers-image" / "oci1.index.zstd-selection2.json"
# Real payloads for the Raw envelope rows: an OCI manifest as stored
# (indented), and the first GitHub event of simdjson's github_events.json
# as an API sends it (compact).
RAW_MANIFEST = OCI / "containers-image" / "ociv1.manifest.json"
GITHUB_EVENTS = HERE.parents[1] / ".." / "shared" / "corpus" / "bench" / "simdjson" / "github_events.json"


# ---------------------------------------------------------------- inputs


def request_body():
    """About 1 KiB: an order as a web service receives it."""
    rng = random.Random(7)
    body = {
        "order_id": "ord_8f14e45fceea167a5a36dedd4bea2543",
        "customer": {"id": 482913, "email": "jane.doe@example.com", "name": "Jane Doe", "vip": False},
        "currency": "EUR",
        "items": [
            {"sku": f"SKU-{rng.randrange(10**6):06d}", "qty": rng.randrange(1, 5), "price": round(rng.uniform(1, 200), 2), "gift": i % 3 == 0}
            for i in range(6)
        ],
        "shipping": {"street": "Keizersgracht 123", "city": "Amsterdam", "zip": "1015 CJ", "country": "NL"},
        "coupon": None,
        "notes": "Leave at the door, please <3",
        "payment": {"method": "card", "brand": "visa", "last4": "4242", "token": "tok_1N3T2b2eZvKYlo2C8S2QJbqX", "3ds": True},
        "client": {"ip": "203.0.113.42", "user_agent": "Mozilla/5.0 (X11; Linux x86_64) AppSleWebKit/537.36", "locale": "nl-NL"},
        "created_at": "2026-11-25T08:15:30Z",
    }
    return body


@dataclasses.dataclass
class Event:
    id: int
    at: datetime.datetime


@dataclasses.dataclass
class Record:
    id: int
    name: str
    active: bool
    score: float
    created: datetime.datetime
    uid: uuid.UUID
    tags: list
    attrs: dict


class RecordStruct(msgspec.Struct):
    id: int
    name: str
    active: bool
    score: float
    created: datetime.datetime
    uid: uuid.UUID
    tags: list
    attrs: dict


AT = datetime.datetime(2026, 11, 25, 8, 15, 30, 123456, tzinfo=datetime.timezone.utc)
UID = uuid.UUID("8f14e45f-ceea-467a-9a36-dedd4bea2543")
RECORD_FIELDS = dict(
    id=123456,
    name="sensor-42",
    active=True,
    score=0.875,
    created=AT,
    uid=UID,
    tags=["edge", "eu-west", "v2"],
    attrs={"firmware": "1.4.2", "rack": 7},
)
# A structured log line: a small dict whose message is longer than the
# short strings of the other cases, with a quote and a line break.
LOG_LINE = {
    "ts": "2026-11-30T12:00:00.123Z", "level": "warn", "service": "checkout", "status": 502,
    "msg": ('upstream "payments" timed out after 3 retries;\n' + "the order is kept and will be retried by the sweeper " * 3)[:200],
}
PAYLOAD = json.dumps({"items": [{"id": i, "name": f"item {i}", "price": i * 1.25, "tags": ["a", "b"]} for i in range(28)]}, separators=(",", ":")).encode()


# ---------------------------------------------------------------- cases


def cases():
    """(name, {contender: statement}, globals, compare kind)."""
    jd, jl = jetjson.dumps, jetjson.loads
    od, ol = orjson.dumps, orjson.loads
    menc, mdec = msgspec.json.Encoder(), msgspec.json.Decoder()
    # jx: a pre-made untyped decoder, as msgspec's md.
    jx = jetjson.Decoder(typing.Any).decode
    g = {"jd": jd, "jl": jl, "jx": jx, "od": od, "ol": ol, "me": menc.encode, "md": mdec.decode}
    manifest_bytes = MANIFEST.read_bytes()
    index_bytes = INDEX.read_bytes()
    manifest = json.loads(manifest_bytes)
    index = json.loads(index_bytes)
    body = request_body()
    record = Record(**RECORD_FIELDS)
    rstruct = RecordStruct(**RECORD_FIELDS)
    env = {"id": "evt_01J9Z", "type": "order.created", "data": None}
    raw_checked = dict(env, data=jetjson.Raw(PAYLOAD))
    raw_unchecked = dict(env, data=jetjson.Raw.unchecked(PAYLOAD))
    fragment = dict(env, data=orjson.Fragment(PAYLOAD))
    event_payload = json.dumps(json.loads(GITHUB_EVENTS.read_bytes())[0], separators=(",", ":"), ensure_ascii=False).encode()
    manifest_payload = RAW_MANIFEST.read_bytes()
    g.update(
        manifest=manifest, manifest_bytes=manifest_bytes, index=index, index_bytes=index_bytes, body=body,
        event=Event(7, AT), uids=[UID], record=record, rstruct=rstruct, payload=PAYLOAD,
        env=env, raw_checked=raw_checked, raw_unchecked=raw_unchecked, fragment=fragment,
        Raw=jetjson.Raw, Fragment=orjson.Fragment, one_dict={"a": 1}, body_bytes=orjson.dumps(body),
        event_payload=event_payload, manifest_payload=manifest_payload,
        log_line=LOG_LINE, ints_bytes=json.dumps(list(range(100))).encode(),
        rows_bytes=json.dumps([{"id": i, "n": i * 7} for i in range(30)]).encode(),
        # Prices or readings (one decimal, up to 999.9) and full doubles, as
        # json.dumps writes them (", " between items), the same every run.
        prices_bytes=json.dumps([round((i * 7919 % 10000) / 10, 1) for i in range(100)]).encode(),
        doubles_bytes=json.dumps([(i * 7919 % 10007) / 10.007 + i / 3 for i in range(100)]).encode(),
    )
    body_bytes = g["body_bytes"]
    d = "dumps"
    lo = "loads"
    return [
        ("dumps(1)", {"jetjson": "jd(1)", "orjson": "od(1)", "msgspec": "me(1)"}, d),
        ("loads(b'1')", {"jetjson": "jl(b'1')", "orjson": "ol(b'1')", "msgspec": "md(b'1')"}, lo),
        ("Decoder(Any).decode(b'1')", {"jetjson": "jx(b'1')", "orjson": "ol(b'1')", "msgspec": "md(b'1')"}, lo),
        ("dumps({'a': 1})", {"jetjson": "jd(one_dict)", "orjson": "od(one_dict)", "msgspec": "me(one_dict)"}, d),
        ("loads(b'{\"a\":1}')", {"jetjson": "jl(b'{\"a\":1}')", "orjson": "ol(b'{\"a\":1}')", "msgspec": "md(b'{\"a\":1}')"}, lo),
        ("Decoder(Any).decode(b'{\"a\":1}')", {"jetjson": "jx(b'{\"a\":1}')", "orjson": "ol(b'{\"a\":1}')", "msgspec": "md(b'{\"a\":1}')"}, lo),
        (f"OCI manifest loads ({len(manifest_bytes)} B)", {"jetjson": "jl(manifest_bytes)", "orjson": "ol(manifest_bytes)", "msgspec": "md(manifest_bytes)"}, lo),
        (f"OCI manifest dumps ({len(manifest_bytes)} B)", {"jetjson": "jd(manifest)", "orjson": "od(manifest)", "msgspec": "me(manifest)"}, d),
        (f"OCI index loads ({len(index_bytes)} B)", {"jetjson": "jl(index_bytes)", "orjson": "ol(index_bytes)", "msgspec": "md(index_bytes)"}, lo),
        (f"OCI index dumps ({len(index_bytes)} B)", {"jetjson": "jd(index)", "orjson": "od(index)", "msgspec": "me(index)"}, d),
        ("OCI manifest dumps go (digest bytes)", {"jetjson": "jd(manifest, profile='go')", "orjson": "od(manifest, option=2**5)"}, "value"),
        (f"request body dumps ({len(orjson.dumps(body))} B)", {"jetjson": "jd(body)", "orjson": "od(body)", "msgspec": "me(body)"}, d),
        (f"request body loads ({len(body_bytes)} B)", {"jetjson": "jl(body_bytes)", "orjson": "ol(body_bytes)", "msgspec": "md(body_bytes)"}, lo),
        ("dataclass holding a datetime", {"jetjson": "jd(event)", "orjson": "od(event)", "msgspec": "me(event)"}, d),
        ("list holding a UUID", {"jetjson": "jd(uids)", "orjson": "od(uids)", "msgspec": "me(uids)"}, d),
        ("SDK record (dataclass)", {"jetjson": "jd(record)", "orjson": "od(record)", "msgspec": "me(record)", "msgspec Struct": "me(rstruct)"}, d),
        (f"envelope, Raw checked ({len(PAYLOAD)} B payload)", {"jetjson": "jd(dict(env, data=Raw(payload)))", "orjson": "od(dict(env, data=Fragment(payload)))"}, d),
        (f"envelope, Raw checked (GitHub event, {len(event_payload)} B)", {"jetjson": "jd(dict(env, data=Raw(event_payload)))", "orjson": "od(dict(env, data=Fragment(event_payload)))"}, d),
        (f"envelope, Raw checked (OCI manifest, {len(manifest_payload)} B)", {"jetjson": "jd(dict(env, data=Raw(manifest_payload)))", "orjson": "od(dict(env, data=Fragment(manifest_payload)))"}, d),
        ("envelope, Raw.unchecked", {"jetjson": "jd(raw_unchecked)", "orjson": "od(fragment)"}, d),
        ("log line with a 200-char message dumps", {"jetjson": "jd(log_line)", "orjson": "od(log_line)", "msgspec": "me(log_line)"}, d),
        ("100 small ints loads", {"jetjson": "jl(ints_bytes)", "orjson": "ol(ints_bytes)", "msgspec": "md(ints_bytes)"}, lo),
        ("30 rows of two ints loads", {"jetjson": "jl(rows_bytes)", "orjson": "ol(rows_bytes)", "msgspec": "md(rows_bytes)"}, lo),
        ("100 one-decimal floats loads", {"jetjson": "jl(prices_bytes)", "orjson": "ol(prices_bytes)", "msgspec": "md(prices_bytes)"}, lo),
        ("100 doubles loads", {"jetjson": "jl(doubles_bytes)", "orjson": "ol(doubles_bytes)", "msgspec": "md(doubles_bytes)"}, lo),
    ], g


def check(name, stmts, g, kind):
    outs = {c: eval(s, g) for c, s in stmts.items()}
    first = outs["jetjson"]
    for c, out in outs.items():
        if kind == "dumps" and c.startswith("msgspec"):
            # msgspec writes UTC as "Z" where orjson and jetjson write "+00:00".
            utc = lambda b: re.sub(rb'(\d\d:\d\d:\d\d(\.\d+)?)Z"', rb'\1+00:00"', b)  # noqa: E731
            assert utc(out) == utc(first), f"{name}: {c} wrote {out[:120]!r}, jetjson {first[:120]!r}"
        elif kind == "dumps":
            assert out == first, f"{name}: {c} wrote {out[:120]!r}, jetjson {first[:120]!r}"
        elif kind == "value":
            assert json.loads(out) == json.loads(first), f"{name}: {c}"
        else:
            assert out == first, f"{name}: {c} read another value"


def run(rounds, inner, only):
    table, g = cases()
    rows = []
    for name, stmts, kind in table:
        if only and only not in name:
            continue
        check(name, stmts, g, kind)
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
        rows.append((name, {c: statistics.median(v) for c, v in times.items()}, {c: statistics.median(v) for c, v in ratios.items()}))
    print(f"| case | jetjson | orjson | vs orjson | msgspec | vs msgspec |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, t, r in rows:
        ms = "msgspec Struct" if "msgspec Struct" in t else "msgspec"
        msg_t = f"{t[ms] * 1e9:.0f} ns" if ms in t else "-"
        msg_r = f"{r[ms]:.2f}x" + (" (Struct)" if ms != "msgspec" else "") if ms in r else "-"
        if "msgspec" in t and ms != "msgspec":
            msg_t = f"{t['msgspec'] * 1e9:.0f} / {t[ms] * 1e9:.0f} ns"
            msg_r = f"{r['msgspec']:.2f}x / {r[ms]:.2f}x"
        print(f"| {name} | {t['jetjson'] * 1e9:.0f} ns | {t['orjson'] * 1e9:.0f} ns | {r['orjson']:.2f}x | {msg_t} | {msg_r} |")


def memory(only):
    """Peak memory per case and contender, each in a fresh process.

    Two figures, in KiB of resident memory (page granularity, so 0 means
    "under a page or two"): *first*, the high-water mark (ru_maxrss) after
    the first 1,000 calls minus the RSS just before the first call: what a
    library takes to start working on this case (its kept buffers, its
    result, the faulted-in code paths); *steady*, the growth of the
    high-water mark over the next 200,000 calls: memory kept or leaked per
    call. tracemalloc is not used: it is blind to memory a library takes
    from malloc or mmap directly.
    """
    table, _ = cases()
    contenders = ["jetjson", "orjson", "msgspec", "msgspec Struct"]
    child = (
        "import resource, sys; sys.path.insert(0, %r); import small_quick as s; table, g = s.cases()\n"
        "stmt = %r\n"
        "f = compile(stmt, 'x', 'eval')\n"
        "def rss_kib():\n"
        "    with open('/proc/self/statm') as fh:\n"
        "        return int(fh.read().split()[1]) * (resource.getpagesize() // 1024)\n"
        "before = rss_kib()\n"
        "for _ in range(1000): eval(f, g)\n"
        "first = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "for _ in range(200000): eval(f, g)\n"
        "print(max(0, first - before), resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - first)\n"
    )
    def run(stmt):
        out = subprocess.run([sys.executable, "-c", child % (str(HERE), stmt)], capture_output=True, text=True, check=True)
        return out.stdout.split()

    # The same loop around a builtin call that allocates nothing: what the
    # interpreter itself takes (the figures above it are not the library's).
    base = [run("len(payload)") for _ in range(3)]
    print(f"Eval loop alone (len(payload)), three processes: first {', '.join(b[0] for b in base)} KiB; steady {', '.join(b[1] for b in base)} KiB.")
    print()
    print("| case | " + " | ".join(f"{c} first" for c in contenders) + " | " + " | ".join(f"{c} steady" for c in contenders) + " |")
    print("|---|" + "---:|" * (2 * len(contenders)))
    for name, stmts, _ in table:
        if only and only not in name:
            continue
        first, steady = {}, {}
        for c in stmts:
            first[c], steady[c] = run(stmts[c])
        cells = [first.get(c, "-") for c in contenders] + [steady.get(c, "-") for c in contenders]
        print(f"| {name} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=21)
    ap.add_argument("--inner", type=int, default=5)
    ap.add_argument("--only", default="")
    ap.add_argument("--memory", action="store_true")
    a = ap.parse_args()
    if a.memory:
        memory(a.only)
    else:
        run(a.rounds, a.inner, a.only)
