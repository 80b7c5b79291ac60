"""Round trips: Decoder(T).decode(dumps(x)) == x for generated dataclass
trees, over everything dumps writes today (ints of any size, finite
floats, text, bools, None, lists, tuples, str-keyed dicts, datetimes
naive and aware, dates, times, UUIDs, Decimals, enums, nested and
optional dataclasses, NamedTuples), in the compact and go profiles.
Sets and bytes are left out: compact dumps refuses them."""

import dataclasses
import datetime
import decimal
import enum
import itertools
import uuid
from typing import Dict, List, NamedTuple, Optional, Tuple

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import jetjson


class Color(enum.Enum):
    RED = "red"
    GREEN = "green"


class Size(enum.IntEnum):
    S = 1
    L = 3


class Point(NamedTuple):
    x: int
    y: float


ZONES = [None, datetime.timezone.utc, datetime.timezone(datetime.timedelta(hours=2)),
         datetime.timezone(-datetime.timedelta(hours=5, minutes=30))]
TEXT = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=12)
FLOATS = st.floats(allow_nan=False, allow_infinity=False)
# Decimals whose number text the parser reads (no literal beyond the
# double range: dumps writes Decimal('1E+400') as 1E+400, which is refused).
DECIMALS = st.decimals(allow_nan=False, allow_infinity=False, min_value=-10**30, max_value=10**30)

LEAVES = [
    (int, st.integers()),
    (float, FLOATS),
    (str, TEXT),
    (bool, st.booleans()),
    (datetime.datetime, st.datetimes(timezones=st.sampled_from(ZONES))),
    (datetime.date, st.dates()),
    (datetime.time, st.times()),
    (uuid.UUID, st.uuids()),
    (decimal.Decimal, DECIMALS),
    (Color, st.sampled_from(Color)),
    (Size, st.sampled_from(Size)),
    (Point, st.builds(Point, st.integers(), FLOATS)),
]

_names = itertools.count()


def shapes():
    """(type, strategy of values) pairs, nested."""
    leaves = st.sampled_from(LEAVES)

    def extend(inner):
        def dataclass_of(fields):
            n = next(_names)
            names = [f"f{i}" for i in range(len(fields))]
            cls = dataclasses.make_dataclass(f"Gen{n}", [(nm, t) for nm, (t, _) in zip(names, fields)])
            return cls, st.builds(cls, *[s for _, s in fields])

        return st.one_of(
            inner.map(lambda p: (List[p[0]], st.lists(p[1], max_size=4))),
            inner.map(lambda p: (Dict[str, p[0]], st.dictionaries(TEXT, p[1], max_size=4))),
            inner.map(lambda p: (Optional[p[0]], st.none() | p[1])),
            inner.map(lambda p: (Tuple[p[0], ...], st.lists(p[1], max_size=3).map(tuple))),
            st.lists(inner, min_size=0, max_size=5).map(dataclass_of),
        )

    return st.recursive(leaves, extend, max_leaves=12)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_decode_of_dumps_is_the_value(data):
    t, values = data.draw(shapes())
    x = data.draw(values)
    decoder = jetjson.Decoder(t)
    for profile in ("compact", "go"):
        text = jetjson.dumps(x, profile=profile)
        got = decoder.decode(text)
        assert got == x, (profile, text)
        # And the same through loads(type=), as str input too.
        assert jetjson.loads(text.decode(), type=t) == x


@settings(max_examples=50, deadline=None)
@given(st.lists(st.tuples(st.integers(), TEXT, st.datetimes(timezones=st.sampled_from(ZONES)), st.uuids()), max_size=20))
def test_records_round_trip_in_any_member_order(rows):
    @dataclasses.dataclass
    class Rec:
        id: int
        name: str
        at: datetime.datetime
        uid: uuid.UUID
        tags: List[str] = dataclasses.field(default_factory=list)

    recs = [Rec(i, n, a, u, [n] * (i % 3)) for i, n, a, u in rows]
    text = jetjson.dumps(recs)
    assert jetjson.Decoder(List[Rec]).decode(text) == recs
    # Members reversed: the same records.
    reversed_text = jetjson.dumps([dict(reversed(list(jetjson.loads(jetjson.dumps(r)).items()))) for r in recs])
    assert jetjson.Decoder(List[Rec]).decode(reversed_text) == recs
