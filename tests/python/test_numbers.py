"""The number model (README, "Numbers"): one behaviour for canonicalize and
dumps(loads(x)), integers exact at any size in compact and go (checked
against Go's *big.Int bytes), -0 read as the int 0, literals beyond the
double range refused with their position, and long exponents read as
float() reads them."""

import math
import sys
import random
import re
import struct

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jetjson
from _dumps_support import go
from _loads_support import strictly_equal

PROFILES = ("compact", "go", "jcs")
LAYOUTS = ({}, {"sort_keys": True, "indent": 2})


def outcome(fn):
    """The bytes `fn` returns, or the kind of error it raises (and, for
    decoding errors, where)."""
    try:
        return fn()
    except jetjson.JSONDecodeError as e:
        return ("decode error", e.pos)
    except jetjson.JSONEncodeError:
        return ("encode error",)


# ---- generated documents ---------------------------------------------------

digits = st.text(alphabet="0123456789", min_size=1, max_size=30)
exponents = st.builds(
    lambda e, sign, zeros, n: f"{e}{sign}{'0' * zeros}{n}",
    st.sampled_from("eE"),
    st.sampled_from(["", "+", "-"]),
    st.integers(0, 3),
    st.integers(0, 400),
)


def int_literal(n):
    return str(n)


def float_literal(f):
    return repr(f)


number_literals = st.one_of(
    st.integers(-(2**70), 2**70).map(int_literal),
    # Beyond 64 and 128 bits, up to hundreds of digits (no double for some).
    st.integers(-(10**400), 10**400).map(int_literal),
    st.sampled_from(["0", "-0", "-0.0", "0.0", "-0e0", "-0E+5", "0e-7", "-0.000e99"]),
    st.floats(allow_nan=False, allow_infinity=False).map(float_literal),
    # Doubles in [2^64, 1e21): go writes them as integers beyond 64 bits.
    st.floats(min_value=2.0**64, max_value=1e21, exclude_max=True).flatmap(
        lambda f: st.sampled_from([repr(f), f"{int(f)}.0", f"-{int(f)}", f"{f:.3e}"])
    ),
    # Any mantissa with any exponent: some overflow (refused), some underflow.
    st.builds(
        lambda sign, i, frac, exp: f"{sign}{i.lstrip('0') or '0'}{'.' + frac if frac else ''}{exp}",
        st.sampled_from(["", "-"]),
        digits,
        st.one_of(st.just(""), digits),
        st.one_of(st.just(""), exponents),
    ),
    # Zeros that a long exponent moves back into range.
    st.builds(
        lambda k, d, off: f"0.{'0' * k}{d}e{k + off}",
        st.integers(0, 400),
        digits.filter(lambda d: d[0] != "0"),
        st.integers(-330, 320),
    ),
)

keys = st.text(alphabet="abcxyz\u00e9\U0001f600", max_size=4)


def json_array(items):
    return "[" + ", ".join(items) + "]"


def json_object(members):
    return "{" + ",".join(f'"{k}":{v}' for k, v in members.items()) + "}"


documents = st.recursive(
    number_literals | st.sampled_from(["null", "true", '"s"']),
    lambda inner: st.lists(inner, max_size=6).map(json_array) | st.dictionaries(keys, inner, max_size=5).map(json_object),
    max_leaves=20,
)


@settings(max_examples=1500, deadline=None)
@given(documents)
def test_canonicalize_is_dumps_of_loads_in_every_profile(doc):
    data = doc.encode()
    for profile in PROFILES:
        # RFC 8785 fixes the layout.
        for layout in LAYOUTS[:1] if profile == "jcs" else LAYOUTS:
            canon = outcome(lambda: jetjson.canonicalize(data, profile, **layout))
            via_objects = outcome(lambda: jetjson.dumps(jetjson.loads(data), profile=profile, **layout))
            assert canon == via_objects, (profile, layout)
    # What canonicalize writes reads back to the same bytes (go writes
    # doubles in [2^64, 1e21) as integers beyond 64 bits, which are exact),
    # except that go's -0 (the double) reads back as the int 0.
    for profile in PROFILES:
        canon = outcome(lambda: jetjson.canonicalize(data, profile))
        if isinstance(canon, bytes):
            again = jetjson.canonicalize(canon, profile)
            assert again == (re.sub(rb"-0(?=[,\]}]|$)", b"0", canon) if profile == "go" else canon)


def agree(data):
    for profile in PROFILES:
        assert jetjson.canonicalize(data, profile) == jetjson.dumps(jetjson.loads(data), profile=profile), (data, profile)


def test_integers_beyond_64_bits_are_exact_in_go():
    for data in [b"123456789012345678901234567890", b"[-340282366920938463463374607431768211457]"]:
        agree(data)
        assert jetjson.canonicalize(data, "go") == data.replace(b" ", b"")
    assert jetjson.dumps(10**40, profile="go") == b"1" + b"0" * 40


def test_go_doubles_from_2_to_the_64_to_1e21_read_back():
    data = b"[1e20,18446744073709551616.0,9.999999999999999e20]"
    agree(data)
    out = jetjson.canonicalize(data, "go")
    assert out == b"[100000000000000000000,18446744073709552000,999999999999999900000]"
    # Ints beyond 64 bits now: written back exactly.
    assert jetjson.dumps(jetjson.loads(out), profile="go") == out


def test_minus_zero_reads_as_python_reads_it():
    data = b"[-0,-0.0,-0e0,-0E+5]"
    agree(data)
    agree(b"-0")
    assert jetjson.canonicalize(data, "compact") == b"[0,-0.0,-0.0,-0.0]"
    assert jetjson.canonicalize(data, "go") == b"[0,-0,-0,-0]"
    assert jetjson.canonicalize(data, "jcs") == b"[0,0,0,0]"


def test_ints_beyond_cpythons_digit_limit_are_the_one_exception():
    # loads builds an int, which CPython refuses past its digit limit (as
    # int(s) and json.loads do); canonicalize builds none and writes the
    # digits (compact, go) as the CLI does.
    limit = 4300
    data = b"[" + b"7" * (limit + 1) + b"]"
    with pytest.raises(jetjson.JSONDecodeError):
        jetjson.loads(data)
    assert jetjson.canonicalize(data, "go") == data


# ---- go bytes are Go's, with *big.Int semantics ------------------------------


def random_document(rng, depth=3):
    kind = rng.randrange(8 if depth else 5)
    if kind == 0:
        return str(rng.choice([0, -1, 2**63 - 1, -(2**63), 2**64 - 1, 2**64, -(2**64) - 1, 10**30]) + rng.randrange(-3, 4))
    if kind == 1:
        return str(rng.randrange(-(10**rng.randrange(1, 90)), 10**rng.randrange(1, 90)))
    if kind == 2:
        f = struct.unpack("<d", rng.getrandbits(64).to_bytes(8, "little"))[0]
        return repr(f) if math.isfinite(f) else "1.5"
    if kind == 3:
        f = rng.uniform(2.0**64, 1e21)
        return rng.choice([repr(f), f"{int(f)}.0", f"{f:.5e}", f"{f:.5E}".replace("E+", "E")])
    if kind == 4:
        return rng.choice(["-0", "-0.0", "0", "-0e0", "1e-400", "-2.5e-330", "5e-324", "1.7976931348623157e308", "1E+2", "1e-7"])
    if kind == 5:
        return json_array([random_document(rng, depth - 1) for _ in range(rng.randrange(5))])
    if kind == 6:
        return json_object({f"k{i}{rng.choice('ab<&')}": random_document(rng, depth - 1) for i in range(rng.randrange(5))})
    return '"x"'


def test_go_bytes_equal_go_with_big_ints():
    rng = random.Random(18)
    docs = [random_document(rng).encode() for _ in range(2000)]
    # Go reads what Python would: its dumps in compact (-0 as the int 0).
    objects = [jetjson.loads(d) for d in docs]
    lines = [jetjson.dumps(o) for o in objects]
    expected = go(lines, mode="bignum")
    mismatches = []
    for doc, obj, want in zip(docs, objects, expected):
        got = jetjson.dumps(obj, profile="go")
        if got != want or jetjson.canonicalize(doc, "go") != want:
            mismatches.append((doc, want, got))
    assert not mismatches, mismatches[:3]
    assert sum(len(line) > 40 for line in lines) > 200, "long integers were generated"


# ---- out of range and long exponents ----------------------------------------


def test_out_of_range_literals_are_refused_everywhere_with_their_position():
    for literal in [b"1e400", b"1E400", b"-1e400", b"1e2147483648", b"1" + b"0" * 400 + b".0", b"0." + b"0" * 1000 + b"1e1400"]:
        doc = b'{"a":\n  [1, ' + literal + b"]}"
        for fn in (
            lambda: jetjson.loads(doc),
            lambda: jetjson.loads(doc.decode()),
            lambda: jetjson.Raw(doc),
            *(lambda p=p: jetjson.canonicalize(doc, p) for p in PROFILES),
        ):
            with pytest.raises(jetjson.JSONDecodeError, match="out of range") as e:
                fn()
            assert (e.value.pos, e.value.lineno, e.value.colno) == (12, 2, 7), literal[:20]


def long_literal(rng):
    """A literal whose exponent may be long and whose digits may undo it:
    zeros before or after its significant digits, the exponent shifted by
    as many places, then moved by up to a few hundred."""
    sig = str(rng.randrange(1, 10**rng.randrange(1, 25)))
    k = rng.choice([0, 10, 1000, 65_536, 70_000, 655_360, 700_001])
    # Near the top of the range, near the bottom, or between.
    band = rng.choice([(280, 340), (-420, -300), (-300, 280)])
    shift = rng.randrange(*band)
    sign = rng.choice(["", "-"])
    e = rng.choice("eE")
    if rng.randrange(2):
        return f"{sign}0.{'0' * k}{sig}{e}{k + shift:+d}"
    return f"{sign}{sig}{'0' * k}{e}{shift - k:+d}".replace("+", rng.choice(["+", ""]))


def test_long_exponents_read_as_float_reads_them():
    rng = random.Random(655360)
    seen = {"finite": 0, "zero": 0, "inf": 0, "long": 0}
    for _ in range(600):
        text = long_literal(rng)
        want = float(text)
        seen["long"] += len(text) > 65_536
        if math.isinf(want):
            seen["inf"] += 1
            with pytest.raises(jetjson.JSONDecodeError, match="out of range") as e:
                jetjson.loads(text.encode())
            assert e.value.pos == 0
        else:
            seen["zero" if want == 0 else "finite"] += 1
            assert strictly_equal(jetjson.loads(text.encode()), want), text[:40]
            # And written back from the Value in each profile as from the float.
            for p in PROFILES:
                assert jetjson.canonicalize(text, p) == jetjson.dumps(want, profile=p)
    assert min(seen.values()) > 50, seen


def test_the_issue_literal():
    text = "0." + "0" * 655_359 + "1e655360"
    assert float(text) == 1.0
    assert strictly_equal(jetjson.loads(text), 1.0)
    assert jetjson.canonicalize(text, "go") == b"1"


def test_an_int_beyond_the_digit_limit_is_the_profiles_error_at_its_place():
    # Python's int digit limit holds in dumps as in loads: a longer int is a
    # JSONEncodeError naming its place (a value or a dict key), not a bare
    # ValueError; at the limit it is written exactly, and a raised limit
    # writes longer ones.
    limit = sys.get_int_max_str_digits()
    at_limit = 10 ** (limit - 1)
    for profile in ("compact", "go"):
        assert jetjson.dumps([at_limit], profile=profile) == b"[" + str(at_limit).encode() + b"]"
        cases = (([1, 10**limit], r"\$\[1\]", {}), ({"a": -(10**limit)}, r"\$\.a", {}), ({10**limit: 1}, r"\$", {"non_str_keys": True}))
        for doc, place, more in cases:
            with pytest.raises(jetjson.JSONEncodeError, match="^" + place + ".*int digit limit"):
                jetjson.dumps(doc, profile=profile, **more)
    old = sys.get_int_max_str_digits()
    try:
        sys.set_int_max_str_digits(limit + 100)
        assert jetjson.dumps(10**limit) == str(10**limit).encode()
    finally:
        sys.set_int_max_str_digits(old)
