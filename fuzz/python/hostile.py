"""A structured fuzzer for jetjson.dumps against hostile objects.

Every input (a byte string) is read as a recipe: a tree of dicts, lists,
tuples, scalars, Enum members, dataclasses and datetimes, where some values
are markers that only `default` can write, and some objects run code when
they are written (a datetime subclass's `isoformat`, a dataclass property).
Each such callback carries out a mutation chosen by the recipe on one of
the tree's containers (clear, pop, add, re-add, replace, insert, reverse...)
and returns something: a scalar, a NaN, a new container, another marker (a
chain of defaults) or an exception.

`check(data)` builds the tree from the recipe afresh for every profile and
key order and calls dumps. The properties, which hold for every input:

* the call returns bytes or raises an Exception (never a crash, never a
  PanicException, which is a BaseException);
* returned bytes are JSON that `jetjson.loads` reads back (it refuses a name
  twice in one object) and `json.loads` agrees;
* error messages carry no freed or uninitialised memory (no NUL escapes);
* once the test lets go of the tree, every marker of it is freed (a
  reference leaked by dumps would keep one alive; one released too many
  times is a use-after-free that PYTHONMALLOC=debug catches).

Run it under PYTHONMALLOC=debug so that a read of freed memory is caught.
Used by tests/python/test_hostile_fuzz.py (hypothesis, bounded) and by
fuzz/python/atheris_dumps.py (coverage-guided, for as long as you like).
"""

import dataclasses
import datetime
import enum
import gc
import json
import math
import weakref

import jetjson

PROFILES = ("compact", "go", "jcs")

KEYS = ["a", "b", "c", "id", "zzz", "k" * 40 + "é", "é", "<&>", "\u2028", "x" * 70, ""]
STRS = ["", "s", "é€😂", "<script>", "q\"\\", "\x01", "y" * 100]


class Reader:
    """Draws small numbers from the input; zeros once it is used up."""

    def __init__(self, data: bytes):
        self.data = data
        self.i = 0

    def byte(self) -> int:
        if self.i >= len(self.data):
            return 0
        b = self.data[self.i]
        self.i += 1
        return b

    def below(self, n: int) -> int:
        return self.byte() % n

    def pick(self, seq):
        return seq[self.below(len(seq))]


class Marker:
    """Only `default` writes it; carries out its mutation when it does."""

    def __init__(self, act, tree=None):
        self.act = act
        if tree is not None:
            tree.markers.append(weakref.ref(self))


def fresh(text: str) -> str:
    # A str object only the tree holds (not interned, not shared).
    return "".join(list(text))


class Color(enum.Enum):
    RED = 1
    BLUE = "blue"


class Tree:
    """The objects a recipe makes, and the mutations it plans."""

    def __init__(self, data: bytes):
        self.r = Reader(data)
        self.containers = []
        self.markers = []  # weak references to every marker made
        self.default_calls = 0
        self.root = self.value(0)

    # -- mutations ------------------------------------------------------

    def action(self):
        """A mutation of one of the tree's containers and what to return."""
        r = self.r
        op, target, result = r.below(12), r.byte(), r.below(9)

        def act():
            self.default_calls += 1
            if self.default_calls > 200:
                return "enough"
            if self.containers:
                self.mutate(op, self.containers[target % len(self.containers)])
            return self.result(result)

        return act

    def mutate(self, op, c):
        if isinstance(c, dict):
            keys = list(c)
            if op == 0:
                c.clear()
            elif op == 1 and keys:
                c.pop(keys[0])
            elif op == 2:
                c[fresh("new")] = Marker(lambda: 1, self)
            elif op == 3 and keys:
                k = keys[-1]
                v = c.pop(k)
                c[k] = v
            elif op == 4 and keys:
                c[keys[0]] = fresh("replaced")
            elif op == 5:
                c.clear()
                c.update({k: i for i, k in enumerate(KEYS[:4])})
                c[fresh("zzz_other")] = "OTHER"
            elif op == 6 and keys:
                for k in keys:
                    del c[k]
                for k in reversed(keys):
                    c[k] = 0
        elif isinstance(c, list):
            if op == 0:
                c.clear()
            elif op == 1:
                c.append(Marker(lambda: 2, self))
            elif op == 2:
                c.insert(0, 7)
            elif op == 3 and c:
                c.pop()
            elif op == 4 and c:
                c[0] = fresh("replaced")
            elif op == 5:
                c.reverse()
            elif op == 6:
                c[:] = [1] * 20

    def result(self, which):
        if which == 0:
            return 1
        if which == 1:
            return float("nan")
        if which == 2:
            return {fresh("r"): [1, "x"]}
        if which == 3:
            return Marker(self.action(), self)  # a chain of defaults
        if which == 4:
            raise ValueError("default refused")
        if which == 5:
            return fresh("é" * 3)
        if which == 6:
            return [Marker(lambda: None, self)]
        if which == 7:
            return Color.BLUE
        return None

    # -- values ---------------------------------------------------------

    def value(self, depth):
        r = self.r
        kind = r.below(16 if depth < 4 else 7)
        if kind == 0:
            return r.byte() - 128
        if kind == 1:
            return r.pick([0.5, -0.0, 1e300, float("inf"), 2.0**64])
        if kind == 2:
            return fresh(r.pick(STRS))
        if kind == 3:
            return r.pick([None, True, False])
        if kind == 4:
            return r.pick([2**64, -(2**63) - 1, 10**30])
        if kind == 5:
            return Marker(self.action(), self)
        if kind == 6:
            return Color.RED
        if kind in (7, 8):
            d = {}
            self.containers.append(d)
            for _ in range(r.below(6)):
                key = r.pick(KEYS)
                d[fresh(key) if r.below(2) else key] = self.value(depth + 1)
            return d
        if kind in (9, 10):
            items = [self.value(depth + 1) for _ in range(r.below(7))]
            self.containers.append(items)
            return items
        if kind == 11:
            return tuple(self.value(depth + 1) for _ in range(r.below(4)))
        if kind == 12:
            return self.record(depth)
        if kind == 13:
            return self.moment()
        if kind == 14:
            e = Color.RED if r.below(2) else Color.BLUE
            return e
        return [Marker(self.action(), self)]

    def record(self, depth):
        act = self.action()
        inner = self.value(depth + 1)

        @dataclasses.dataclass
        class Rec:
            a: object
            b: object = None

        class Sneaky(Rec):
            @property
            def b(self):
                return act()

            @b.setter
            def b(self, v):
                pass

        return Sneaky(inner) if self.r.below(2) else Rec(inner, 5)

    def moment(self):
        act = self.action()

        class Sneaky(datetime.datetime):
            def isoformat(self, *args, **kwargs):
                out = act()
                return out if isinstance(out, str) else "2024-01-02T03:04:05+00:19:32"

        tz = datetime.timezone(datetime.timedelta(seconds=self.r.below(200) * 97 - 9000))
        return Sneaky(2024, 1, 2, 3, 4, 5, tzinfo=tz)

    def default(self, o):
        if isinstance(o, Marker):
            return o.act()
        raise TypeError(f"cannot write {type(o).__name__}")


def check(data: bytes) -> int:
    """Runs every profile and key order on the recipe `data`; returns the
    number of dumps calls made. Raises AssertionError on a violated property."""
    calls = 0
    for profile in PROFILES:
        for sort_keys in (False, True):
            tree = Tree(data)
            markers = tree.markers
            try:
                out = jetjson.dumps(tree.root, profile=profile, sort_keys=sort_keys, default=tree.default)
            except Exception as e:  # noqa: BLE001 - every Exception is an allowed outcome
                message = str(e)
                assert "\\u0000" not in message and "\x00" not in message, message
                out = None
            except BaseException as e:  # PanicException and the like
                raise AssertionError(f"{profile}: {type(e).__name__}: {e}") from e
            calls += 1
            if out is not None:
                try:
                    back = jetjson.loads(out)
                except jetjson.JSONDecodeError as e:
                    raise AssertionError(f"{profile}: dumps wrote what loads refuses: {e}: {out[:300]!r}") from e
                std = json.loads(out)
                assert _same(back, std), (profile, out[:300])
                del back, std
            del tree, out
            gc.collect()
            alive = [m() for m in markers if m() is not None]
            assert not alive, (profile, "markers still referenced after dumps", alive[:3])
    return calls


def _same(a, b):
    if isinstance(a, float) and isinstance(b, float):
        return a == b or (math.isnan(a) and math.isnan(b))
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return a == b
