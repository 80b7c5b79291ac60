"""Dates, times and datetimes: written from their C-level fields in the
layout of isoformat() (compact, jcs) and of Go's time.Time (go), checked
against isoformat() itself and the live Go oracle on generated values."""

import datetime
import json
import random
import zoneinfo

import pytest

import jetjson
from _dumps_support import go

PROFILES = ("compact", "go", "jcs")
TZ = datetime.timezone


def offsets(rng):
    yield None
    yield TZ.utc
    yield TZ(datetime.timedelta(0))
    yield zoneinfo.ZoneInfo("Europe/Amsterdam")
    yield zoneinfo.ZoneInfo("America/St_Johns")
    for _ in range(30):
        us = rng.randrange(-86_399_999_999, 86_400_000_000)
        for grain in (60_000_000, 1_000_000, 1):
            yield TZ(datetime.timedelta(microseconds=us // grain * grain))


def moments(n=400, seed=11):
    rng = random.Random(seed)
    zones = list(offsets(rng))
    for i in range(n):
        micro = rng.choice([0, 0, rng.randrange(1_000_000), rng.randrange(1000) * 1000, 500_000])
        yield datetime.datetime(
            rng.choice([1, 1900, 1970, 2024, 9999, rng.randrange(1, 10000)]),
            rng.randrange(1, 13),
            rng.randrange(1, 29),
            rng.randrange(24),
            rng.randrange(60),
            rng.randrange(60),
            micro,
            tzinfo=zones[i % len(zones)],
            fold=rng.randrange(2),
        )


def test_compact_and_jcs_equal_isoformat():
    for dt in moments():
        for p in ("compact", "jcs"):
            assert jetjson.dumps(dt, profile=p) == json.dumps(dt.isoformat()).encode(), dt
            assert jetjson.dumps(dt.date(), profile=p) == json.dumps(dt.date().isoformat()).encode()
            t = dt.timetz() if not isinstance(dt.tzinfo, zoneinfo.ZoneInfo) else dt.time()
            assert jetjson.dumps(t, profile=p) == json.dumps(t.isoformat()).encode(), t


def test_go_equals_go_time_marshal():
    dts = [dt for dt in moments(300) if dt.tzinfo is not None]
    lines = []
    for dt in dts:
        off = dt.utcoffset()
        # Go's time.FixedZone takes whole seconds: isoformat drops the
        # offset's microseconds from what Go is given, so do we.
        secs = int(abs(off).total_seconds()) * (-1 if off < datetime.timedelta(0) else 1)
        lines.append(json.dumps([dt.year, dt.month, dt.day, dt.hour, dt.minute, dt.second, dt.microsecond * 1000, secs]).encode())
    for dt, want in zip(dts, go(lines, mode="time")):
        assert jetjson.dumps(dt, profile="go") == want, dt


def test_naive_datetimes_in_go_have_no_offset():
    dt = datetime.datetime(2024, 5, 1, 12, 30, 0, 120000)
    assert jetjson.dumps(dt, profile="go") == b'"2024-05-01T12:30:00.12"'


def test_subclasses_keep_or_override_isoformat():
    class Plain(datetime.datetime):
        pass

    class Own(datetime.datetime):
        def isoformat(self, *args, **kwargs):
            return "custom"

    class OwnDate(datetime.date):
        def isoformat(self):
            return "custom date"

    dt = Plain(2024, 1, 2, 3, 4, 5, tzinfo=TZ.utc)
    for p in PROFILES:
        assert json.loads(jetjson.dumps(dt, profile=p)) in (dt.isoformat(), "2024-01-02T03:04:05Z")
        assert jetjson.dumps(Own(2024, 1, 2), profile="compact") == b'"custom"'
        assert jetjson.dumps(OwnDate(2024, 1, 2), profile=p) == b'"custom date"'
    with pytest.raises(jetjson.JSONEncodeError, match="isoformat"):
        jetjson.dumps(Own(2024, 1, 2), profile="go")


def test_tzinfo_whose_utcoffset_misbehaves():
    class Bad(datetime.tzinfo):
        def __init__(self, out):
            self.out = out

        def utcoffset(self, dt):
            return self.out

    for out, err in [("1h", TypeError), (datetime.timedelta(hours=24), ValueError)]:
        dt = datetime.datetime(2024, 1, 1, tzinfo=Bad(out))
        with pytest.raises(err):
            dt.isoformat()
        for p in PROFILES:
            with pytest.raises(err):
                jetjson.dumps([dt], profile=p)
    # None means no offset, as isoformat has it.
    dt = datetime.datetime(2024, 1, 1, tzinfo=Bad(None))
    assert jetjson.dumps(dt) == json.dumps(dt.isoformat()).encode()


def test_tzinfo_utcoffset_that_changes_the_container():
    doc = {}

    class Sneaky(datetime.tzinfo):
        def utcoffset(self, dt):
            doc.clear()
            return datetime.timedelta(hours=1)

    doc.update(a=datetime.datetime(2024, 1, 1, tzinfo=Sneaky()), b=1)
    with pytest.raises(RuntimeError, match="changed"):
        jetjson.dumps(doc)


def test_dates_as_dict_keys_are_the_text_they_are_as_values():
    # non_str_keys writes a date, time or datetime key as the text it is
    # written as a value (a buffer of its own for keys; values are laid out
    # in the output itself), in every profile.
    for dt in moments(120, seed=5):
        t = dt.timetz() if not isinstance(dt.tzinfo, zoneinfo.ZoneInfo) else dt.time()
        for v in (dt, dt.date(), t):
            for p in PROFILES:
                got = jetjson.dumps({v: 1}, profile=p, non_str_keys=True)
                assert got == b"{" + jetjson.dumps(v, profile=p) + b":1}", (v, p)
                if p != "go":
                    assert got == b"{" + json.dumps(v.isoformat()).encode() + b":1}", (v, p)


def test_subclass_keys_with_their_own_isoformat_are_laid_out_as_their_values():
    # A subclass with its own isoformat is written through it; in go, a
    # datetime's text is then Go's layout of it, as a key as well as a
    # value (keys were written as isoformat returned them; found by an
    # outside tester), and text that is not ISO 8601 is an error for both.
    class Own(datetime.datetime):
        def isoformat(self, sep="T", timespec="auto"):
            return super().isoformat(sep, timespec)

    class Bad(datetime.datetime):
        def isoformat(self, sep="T", timespec="auto"):
            return "not a date"

    for dt in moments(60, seed=7):
        own = Own(dt.year, dt.month, dt.day, dt.hour, dt.minute, dt.second, dt.microsecond, tzinfo=dt.tzinfo)
        for p in PROFILES:
            value = jetjson.dumps(own, profile=p)
            assert jetjson.dumps({own: 1}, profile=p, non_str_keys=True) == b"{" + value + b":1}", (own, p)
            assert value == jetjson.dumps(dt, profile=p), (own, p)
    bad = Bad(2000, 1, 2, 3, 4, 5, 120000, tzinfo=TZ.utc)
    for obj in (bad, {bad: 1}):
        with pytest.raises(Exception, match="not an ISO 8601 date and time"):
            jetjson.dumps(obj, profile="go", non_str_keys=True)
    assert jetjson.dumps({bad: 1}, non_str_keys=True) == b'{"not a date":1}'
