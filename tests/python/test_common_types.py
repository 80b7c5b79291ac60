"""UUIDs and Enum members, written from their C-level data on the hot path
(a UUID's 128-bit int, an Enum member's `_value_`), against what Python's
own str()/`.value` give, and the subclasses that keep the slow path."""

import dataclasses
import enum
import json
import random
import uuid

import orjson
import pytest

import jetjson

PROFILES = ("compact", "go", "jcs")


def test_uuids_equal_their_str():
    rng = random.Random(3)
    uuids = [uuid.UUID(int=0), uuid.UUID(int=2**128 - 1), uuid.uuid4(), uuid.uuid1(), uuid.uuid5(uuid.NAMESPACE_DNS, "x")]
    uuids += [uuid.UUID(int=rng.getrandbits(128)) for _ in range(500)]
    uuids += [uuid.UUID(int=rng.getrandbits(rng.randrange(1, 128))) for _ in range(200)]
    for p in PROFILES:
        assert jetjson.dumps(uuids, profile=p) == json.dumps([str(u) for u in uuids], separators=(",", ":")).encode()


def test_uuids_at_every_int_digit_boundary():
    # CPython keeps ints in 30-bit digits: values just below and at each
    # digit count (up to the five of a 128-bit value) read the same as str().
    ints = [0, 1, 2**128 - 1, 2**127, 2**120 + 5]
    for k in (8, 30, 32, 60, 64, 90, 96, 120):
        ints += [2**k - 1, 2**k, 2**k + 1]
    uuids = [uuid.UUID(int=i) for i in ints]
    for p in PROFILES:
        assert jetjson.dumps(uuids, profile=p) == json.dumps([str(u) for u in uuids], separators=(",", ":")).encode()
        # As dict keys too (non_str_keys), which take the same route.
        got = jetjson.loads(jetjson.dumps({u: 1 for u in uuids}, profile=p, non_str_keys=True))
        assert sorted(got) == sorted(str(u) for u in uuids)


def test_uuids_with_every_hex_digit_at_every_place():
    # The text is built eight digits at a time in a register: every digit
    # value (0-9 and a-f, the edge at 9/a) at each of the 32 places, plus
    # random values, read the same as str() in every profile.
    import random

    rng = random.Random(23)
    ints = [sum(((i + k) % 16) << (4 * i) for i in range(32)) for k in range(16)]
    ints += [rng.getrandbits(128) for _ in range(500)]
    uuids = [uuid.UUID(int=i) for i in ints]
    for p in PROFILES:
        assert jetjson.dumps(uuids, profile=p) == json.dumps([str(u) for u in uuids], separators=(",", ":")).encode()


def test_uuid_whose_int_slot_was_forced():
    # UUID refuses attribute changes, but object.__setattr__ can put
    # anything in its slot: the hot path declines it and `.hex` decides.
    u = uuid.UUID(int=5)
    object.__setattr__(u, "int", -1)
    with pytest.raises((jetjson.JSONEncodeError, ValueError)):
        jetjson.dumps(u)
    for beyond in (2**128, 2**128 + 1, 2**135, 2**150 - 1, 2**150, 2**200, -(2**100)):
        v = uuid.UUID(int=5)
        object.__setattr__(v, "int", beyond)
        with pytest.raises((jetjson.JSONEncodeError, ValueError)):
            jetjson.dumps(v)
    w = uuid.UUID(int=5)
    object.__delattr__(w, "int")
    with pytest.raises((jetjson.JSONEncodeError, AttributeError)):
        jetjson.dumps(w)


class Color(enum.Enum):
    RED = 1
    GREEN = "green"
    BLUE = (1, [2])
    NONE = None


class Level(enum.IntEnum):
    LOW = 1
    HIGH = 2


class Flags(enum.Flag):
    A = 1
    B = 2


def test_enum_members_are_their_value():
    doc = [Color.RED, Color.GREEN, Color.BLUE, Color.NONE, Level.HIGH, Flags.A, Flags.A | Flags.B]
    want = [1, "green", [1, [2]], None, 2, 1, 3]
    for p in PROFILES:
        assert json.loads(jetjson.dumps(doc, profile=p)) == want


def test_enum_with_its_own_value_property():
    class Shout(enum.Enum):
        A = "a"

        @property
        def value(self):
            return self._value_.upper()

    for p in PROFILES:
        assert jetjson.dumps([Shout.A], profile=p) == b'["A"]'


def test_dataclass_fields_read_in_place_follow_every_change():
    # Fields are read from the instance where CPython keeps them (slots,
    # the managed values array, the instance dict) while the class is
    # unchanged, and through getattr otherwise: every way of changing an
    # instance or its class must show in the output.
    import dataclasses

    @dataclasses.dataclass
    class P:
        x: int
        y: str = "d"

    @dataclasses.dataclass(slots=True)
    class S:
        x: int
        y: str = "d"

    for cls in (P, S):
        p = cls(1)
        assert jetjson.dumps(p) == b'{"x":1,"y":"d"}'
        p.x = 2
        assert jetjson.dumps(p) == b'{"x":2,"y":"d"}'
        del p.y
        if cls is S:
            with pytest.raises(AttributeError):
                jetjson.dumps(p)
        else:
            # getattr finds the default on the class, as json-ing p.y would.
            assert jetjson.dumps(p) == b'{"x":2,"y":"d"}'
        p.y = "e"
        assert jetjson.dumps(p) == b'{"x":2,"y":"e"}'
    p = P(3)
    p.__dict__  # the instance gets a real dict
    p.x = 4
    assert jetjson.dumps(p) == b'{"x":4,"y":"d"}'
    # Many instances with extra attributes (the shared keys grow).
    rs = [P(i) for i in range(40)]
    for i, r in enumerate(rs):
        setattr(r, f"extra{i}", i)
    assert [json.loads(jetjson.dumps(r)) for r in rs] == [{"x": i, "y": "d"} for i in range(40)]
    # A property added to the class afterwards takes over (a new version).
    q = P(5)
    assert jetjson.dumps(q) == b'{"x":5,"y":"d"}'
    P.x = property(lambda self: 99)
    assert jetjson.dumps(q) == b'{"x":99,"y":"d"}'


@pytest.mark.parametrize("profile", PROFILES)
def test_dataclass_fields_dict_changed_in_place_is_planned_again(profile):
    # Plans were trusted while the class's version tag was unchanged, and a
    # change to __dataclass_fields__ in place gives it none: a class planned
    # before the change kept writing a field that no longer is one.
    import dataclasses

    def make():
        @dataclasses.dataclass
        class M:
            a: int = 1
            b: int = 2

        return M

    planned, fresh = make(), make()
    assert jetjson.dumps(planned(), profile=profile) == b'{"a":1,"b":2}'
    for cls in (planned, fresh):
        del cls.__dataclass_fields__["b"]
    want = jetjson.dumps(fresh(), profile=profile)
    assert want == b'{"a":1}'
    assert jetjson.dumps(planned(), profile=profile) == want
    assert jetjson.dumps([planned(), planned()], profile=profile) == b"[" + want + b"," + want + b"]"
    # A field put back, or replaced by another of another name.
    field = dataclasses.field(default=3)
    field.name, field.type, field._field_type = "c", int, dataclasses._FIELD
    planned.__dataclass_fields__["c"] = field
    planned.c = 3
    assert jetjson.dumps(planned(), profile=profile) == jetjson.dumps({"a": 1, "c": 3}, profile=profile)


@pytest.mark.parametrize("profile", PROFILES)
def test_dataclass_fields_read_in_place_follow_changes_made_while_writing(profile):
    # Python code run while an instance is written (here `default`, for the
    # first field) may change its class or the instance: every later field
    # is read as getattr reads it then, not from where the plan said it was.
    class Odd:
        pass

    def run(change):
        @dataclasses.dataclass
        class C:
            a: object
            b: int
            c: str

        @dataclasses.dataclass
        class Other:  # the same layout, other names
            p: int
            q: int
            r: int

        obj = C(Odd(), 2, "three")
        jetjson.dumps(C(1, 1, "warm"), profile=profile)  # planned, read in place

        def default(o):
            change(C, Other, obj)
            return "A"

        written = json.loads(jetjson.dumps(obj, default=default, profile=profile))
        # What getattr reads once the change is made.
        assert written == {"a": "A", "b": obj.b, "c": obj.c}
        return written

    def add_property(C, Other, obj):
        C.b = property(lambda self: 20)

    def swap_class(C, Other, obj):
        obj.__class__ = Other
        Other.b = 21  # what getattr finds for b on an Other
        Other.c = "class c"

    def make_dict(C, Other, obj):
        vars(obj)["b"] = 22

    def replace_dict(C, Other, obj):
        obj.__dict__ = {"a": 0, "c": "own dict", "b": 23}

    assert run(add_property)["b"] == 20
    run(swap_class)
    assert run(make_dict)["b"] == 22
    assert run(replace_dict) == {"a": "A", "b": 23, "c": "own dict"}


def test_dataclass_instances_whose_dict_was_made_are_read_as_their_attributes():
    # vars(obj) (or orjson, which reads obj.__dict__) turns a CPython 3.11
    # instance's inline values into a dict that keeps them (a split table
    # over the class's shared keys), which dumps reads in place; every
    # change to such a dict must show, and a dict that left the shared keys
    # (combined, replaced) must be read as a dict.
    @dataclasses.dataclass
    class D:
        a: int
        b: str = "x"
        c: list = dataclasses.field(default_factory=list)

    def ref(d):
        return json.dumps({"a": d.a, "b": d.b, "c": d.c}, separators=(",", ":")).encode()

    @dataclasses.dataclass
    class E:  # the same names, set in another order: other shared keys
        c: list
        b: str
        a: int

    objs = [D(i, str(i), [i]) for i in range(10)]
    for d in objs:
        vars(d)
    objs[1].b = "changed"
    del objs[2].b  # the class attribute (the default) is found instead
    objs[3].extra = 1
    vars(objs[4])["a"] = 40
    objs[5].__dict__ = {"c": [], "a": 5, "b": "a dict of its own"}
    d6 = vars(objs[6])
    d6.clear()
    d6.update(c=[6], b="re-added", a=66)  # other order: not the shared keys' any more
    for k in range(30):
        setattr(objs[7], f"x{k}", k)  # more names than the shared keys take
    objs[8].__dict__.pop("a")
    objs[8].a = 88
    objs[9].__dict__ = vars(E(["e"], "from an E", 99))  # E's split table
    for _ in range(2):
        for d in objs:
            assert jetjson.dumps(d) == ref(d)
            assert jetjson.dumps(d, profile="go") == json.dumps({"a": d.a, "b": d.b, "c": d.c}, separators=(",", ":")).encode()
    # orjson writes __dict__ as it is (extra names, its order, no class
    # defaults): the same bytes where the dict holds the fields in order.
    for d in (objs[1], objs[4]):
        assert jetjson.dumps(d) == orjson.dumps(d)
    del vars(objs[0])["a"]
    with pytest.raises(AttributeError):
        jetjson.dumps(objs[0])
