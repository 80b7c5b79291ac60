"""dumps when the result object cannot grow: MemoryError, never an abort,
and nothing left with a reference too many (SECURITY.md, "Allocation
failure").

A large output is written straight into the result `bytes` object
(dumps/output.rs), grown as the output grows. When CPython cannot grow it,
the failure unwinds out of the writer and is raised as MemoryError; what
the walker held on the way (containers, dataclass field values, `default`
results, an Enum's value, sorted members) must be released. Each case runs
in a child process under `_testcapi.set_nomemory`, which makes every
allocation from the n-th on fail: an abort ends the child, not the test run.
"""

import os
import subprocess
import sys
import textwrap

import pytest
from _nomemory import needs_set_nomemory


pytestmark = needs_set_nomemory

CHILD = textwrap.dedent(
    """
    import _testcapi, dataclasses, datetime, enum, json, sys
    import jetjson

    inner = ["x" * 1000] * 300            # 300 kB of output per use
    held = {"k": inner, "n": [1.5, None, True]}
    big = [held, inner]                   # what `default` returns

    @dataclasses.dataclass
    class Rec:
        items: list
        at: datetime.datetime

    class E(enum.Enum):
        BIG = (1, 2)

    class Odd:
        pass

    class Key(str):
        pass

    rec = Rec(inner, datetime.datetime(2026, 1, 2, 3, 4, 5))
    member = [inner, "m"]                 # in a dict collected with a reference to each member
    # First in every order: the first growth comes while it is written.
    doc = {"0s": {Key("q"): member, "p": 1}, "z": [inner, held], "a": {"rec": rec, "odd": Odd(), "e": E.BIG, "b": [big]}}
    objs = {"doc": doc, "inner": inner, "held": held, "big": big, "rec": rec, "member": member,
            "doc.z": doc["z"], "doc.a": doc["a"], "doc.0s": doc["0s"]}
    prime = ["y" * 1000] * 100            # a 100 kB output: the next call takes the large path

    def default(o):
        if isinstance(o, Odd):
            return big
        if isinstance(o, tuple):
            return list(o)
        raise TypeError

    options = json.loads(sys.argv[1])
    expected = jetjson.dumps(doc, default=default, **options)
    counts = {k: sys.getrefcount(v) for k, v in objs.items()}
    failed = 0
    for start in range(40):
        jetjson.dumps(prime, default=default, **options)
        _testcapi.set_nomemory(start, 0)
        try:
            out = jetjson.dumps(doc, default=default, **options)
            got = "ok"
        except MemoryError:
            got = "MemoryError"
        finally:
            _testcapi.remove_mem_hooks()
        if got == "ok":
            break
        failed += 1
    now = {k: sys.getrefcount(v) for k, v in objs.items()}
    print(json.dumps({"failed": failed, "last": got, "same": out == expected, "counts": counts, "now": now,
                      "again": jetjson.dumps(doc, default=default, **options) == expected}))
    """
)


@pytest.mark.parametrize(
    "options",
    [
        "{}",
        '{"sort_keys": true}',
        '{"profile": "go"}',
        '{"profile": "jcs"}',
        '{"indent": 2}',
        '{"profile": "go", "indent": 2}',
    ],
)
def test_a_result_that_cannot_grow_is_a_memory_error_and_leaks_nothing(options):
    import json

    r = subprocess.run([sys.executable, "-c", CHILD, options], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    got = json.loads(r.stdout.strip().splitlines()[-1])
    # The first allocation (the result object) and at least two growths
    # failed before a call had room enough (the output is about 2 MB, the
    # first allocation sized for the 100 kB one before it).
    assert got["failed"] >= 3, got
    assert got["last"] == "ok" and got["same"] and got["again"], got
    # Every container, field value, default result and collected member
    # the failed calls were writing has the references it had before them.
    assert got["now"] == got["counts"], got


# Python code the walk calls (here `default`) raising MemoryError with the
# process out of memory: the error gets a note naming where it was raised,
# and making the note (its text, the interned `add_note`, the interned
# name of a class's plan on the first object that is not an exact
# built-in) fails too. pyo3's conversions panic on such a failure and the
# PanicException could not be made either: the process aborted ("panic in
# a destructor during cleanup"). Small outputs (the kept writer) and large
# ones (the result object) alike.
CALLBACK_CHILD = textwrap.dedent(
    """
    import _testcapi, json, sys
    import jetjson

    class Odd:
        pass

    def default(o):
        return [type(o).__name__ * 2]     # allocates

    size = int(sys.argv[1])
    jetjson.dumps({"warm": 1}, sort_keys=True)   # the type table, made before
    doc = {"a": [Odd()], "pad": ["x" * 1000] * size}
    expected = jetjson.dumps(doc, default=default)
    seen = set()
    for start in range(60):
        jetjson.dumps(["y" * 1000] * size)
        _testcapi.set_nomemory(start, 0)
        try:
            out = jetjson.dumps(doc, default=default)
            got = "ok" if out == expected else "wrong"
        except MemoryError:
            got = "MemoryError"
        finally:
            _testcapi.remove_mem_hooks()
        seen.add(got)
        if got != "MemoryError":
            break
    print(json.dumps(sorted(seen)))
    """
)


@pytest.mark.parametrize("size", [0, 300])
def test_a_memory_error_from_python_code_out_of_memory_is_raised_not_an_abort(size):
    import json

    r = subprocess.run([sys.executable, "-c", CALLBACK_CHILD, str(size)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    assert json.loads(r.stdout.strip().splitlines()[-1]) == ["MemoryError", "ok"], r.stdout


# A failure out of a sorted dict left that dict's order (a u32 per member)
# on the walker's kept order stack, under every later call's: memory that
# grew with each failure for as long as the process ran.
ORDER_CHILD = textwrap.dedent(
    """
    import _testcapi, sys
    import jetjson

    big = {"k%06d" % i: [i] for i in range(200000)}
    doc = {"a": big, "z": ["x" * 1000] * 3000}

    def rss():
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * 4096

    def fail_once():
        jetjson.dumps(["y" * 1000] * 100, sort_keys=True)
        _testcapi.set_nomemory(2, 0)      # a growth while big's members are written
        try:
            jetjson.dumps(doc, sort_keys=True)
            raise SystemExit("no failure")
        except MemoryError:
            pass
        finally:
            _testcapi.remove_mem_hooks()

    expected = jetjson.dumps(doc, sort_keys=True)
    fail_once()
    before = rss()
    for _ in range(50):
        fail_once()
    print(rss() - before, jetjson.dumps(doc, sort_keys=True) == expected)
    """
)


def test_failures_out_of_a_sorted_dict_leave_no_memory_behind():
    r = subprocess.run([sys.executable, "-c", ORDER_CHILD], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    grew, same = r.stdout.split()
    assert same == "True"
    # 50 failures left 40 MB (0.8 MB each) before; nothing now.
    assert int(grew) < 12 << 20, grew


# What a process's first calls make once (the interned keyword names, the
# table of known types) was made with pyo3's
# `PyString::intern` and `&str` conversions, which panic when CPython
# cannot allocate: the first call out of memory aborted the process.
FIRST_CHILD = textwrap.dedent(
    """
    import _testcapi, sys
    import jetjson

    calls = {
        "keywords": lambda: jetjson.dumps([1], sort_keys=True),
        "general": lambda: jetjson.dumps([1, 2.5, None]),
    }
    call = calls[sys.argv[1]]
    expected = {"keywords": b"[1]", "general": b"[1,2.5,null]"}[sys.argv[1]]
    failed = 0
    for start in range(int(sys.argv[2]), int(sys.argv[2]) + 3):
        _testcapi.set_nomemory(start, start + 1)
        try:
            out = call()
        except MemoryError:
            out = None
        finally:
            _testcapi.remove_mem_hooks()
        assert out in (None, expected), out
        failed += out is None
    assert call() == expected
    print(failed)
    """
)


@pytest.mark.parametrize("first", ["keywords", "general"])
@pytest.mark.parametrize("start", [0, 3, 6])
def test_a_first_call_out_of_memory_is_a_memory_error_not_an_abort(first, start):
    r = subprocess.run([sys.executable, "-c", FIRST_CHILD, first, str(start)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-3000:]


# An error dumps makes itself (JSONEncodeError, the RuntimeError of a dict
# changed while written) is made lazily, with its message, when it is
# raised: out of memory pyo3 panicked there, in its trampoline, outside any
# catch, and the process aborted. It is raised as MemoryError now.
LAZY_CHILD = textwrap.dedent(
    """
    import _testcapi, json
    import jetjson

    class Odd:
        pass

    def changing():
        d = {}
        def default(o):
            d.clear()
            return 1
        d.update({"a": Odd(), "b": 2})
        return d, default

    calls = [
        (lambda d, default: jetjson.dumps([float("nan")], profile="go"), jetjson.JSONEncodeError),
        (lambda d, default: jetjson.dumps({"b": [Odd()]}, sort_keys=True), jetjson.JSONEncodeError),
        (lambda d, default: jetjson.dumps(d, default=default), RuntimeError),
    ]
    seen = set()
    for call, error in calls:
        try:
            call(*changing())
        except error:
            pass                          # every type and name made
        for start in range(40):
            d, default = changing()
            _testcapi.set_nomemory(start, start + 1)
            try:
                call(d, default)
                got = "ok"
            except MemoryError:
                got = "MemoryError"
            except error:
                got = "error"
            finally:
                _testcapi.remove_mem_hooks()
            seen.add(got)
    print(json.dumps(sorted(seen)))
    """
)


def test_an_error_made_out_of_memory_is_a_memory_error_not_an_abort():
    import json

    r = subprocess.run([sys.executable, "-c", LAZY_CHILD], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    assert json.loads(r.stdout.strip().splitlines()[-1]) == ["MemoryError", "error"], r.stdout


# A plan made the first time a type is seen (a `Decoder`'s type, a
# dataclass's fields for dumps) read names and modules with pyo3's
# `getattr("...")`, `intern!` and `import("...")`, which panic when CPython
# cannot make the string: out of memory, `Decoder(...)` raised pyo3's
# PanicException (a BaseException) instead of MemoryError. Every module the
# plans import is imported first: an import out of memory fails in
# CPython's own import machinery, with its own errors.
PLAN_CHILD = textwrap.dedent(
    """
    import _testcapi, collections.abc, dataclasses, datetime, decimal, enum, json, re, sys, types, typing, uuid
    from typing import Annotated
    import jetjson

    def make():
        @dataclasses.dataclass
        class Rec:
            a: int
            b: str = "x"
            c: typing.Optional[typing.List[int]] = None
            at: datetime.datetime = datetime.datetime(2026, 1, 1)
            u: typing.Optional[uuid.UUID] = None
            n: Annotated[int, jetjson.Meta(ge=0)] = 0

        class TD(typing.TypedDict):
            a: int
            s: Annotated[str, jetjson.Meta(pattern="^x")]
        return Rec, TD

    doc = b'{"a":1,"b":"y","c":[1],"at":"2026-01-01T00:00:00","u":"12345678-1234-5678-1234-567812345678","n":3}'
    calls = {
        "decoder": lambda Rec, TD: jetjson.Decoder(Rec).decode(doc).b,
        "typeddict": lambda Rec, TD: jetjson.Decoder(typing.List[TD]).decode(b'[{"a":1,"s":"xy"}]')[0]["s"],
        "dumps": lambda Rec, TD: jetjson.dumps(Rec(1), profile="go"),
    }
    call = calls[sys.argv[1]]
    seen, outputs = set(), []
    # No call before the first failures: the names the binding makes once
    # per process are made under them too.
    for width in (1, 0):                  # one failing allocation; every one from start on
        for start in range(int(sys.argv[2])):
            classes = make()              # a new class: its plan is made in the call
            _testcapi.set_nomemory(start, start + width)
            try:
                outputs.append(call(*classes))
                got = "ok"
            except MemoryError:
                got = "MemoryError"
            except BaseException as e:
                got = type(e).__name__ + ": " + str(e)[:100]
            finally:
                _testcapi.remove_mem_hooks()
            seen.add(got)
    expected = call(*make())
    seen |= {"ok" if out == expected else "different: %r" % (out,) for out in outputs}
    print(json.dumps(sorted(seen)))
    """
)


@pytest.mark.parametrize("call", ["decoder", "typeddict", "dumps"])
def test_a_plan_made_out_of_memory_is_a_memory_error(call):
    import json

    r = subprocess.run([sys.executable, "-c", PLAN_CHILD, call, "160"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    assert json.loads(r.stdout.strip().splitlines()[-1]) == ["MemoryError", "ok"], r.stdout


# After small outputs, dumps writes into a kept writer (kept.rs), whose
# memory is a Rust Vec; an output that grows far past them (a large Raw, a
# long str) must raise MemoryError when that Vec cannot grow, not abort the
# process (a Rust allocation failure aborts), through every way into the
# kept writers: the quick walk of a list, the small-dict path, a scalar, and
# a writer kept for non-default options. The writers then still work.
KEPT_CHILD = textwrap.dedent(
    """
    import os, resource, sys
    import jetjson
    shape = sys.argv[1]
    big = jetjson.Raw.unchecked(b"1" * (400 << 20)) if shape != "str" else "x" * (300 << 20)
    doc = {"list": [1, big], "dict": {"a": 1, "r": big}, "str": big, "sorted": {"b": 1, "a": big}}[shape]
    kw = {"sort_keys": True} if shape == "sorted" else {}
    small = {"w": [1, "x\\u2028"], "v": 2.5}
    before = jetjson.dumps(small, **kw)      # the output before is small
    vm = int(open("/proc/self/statm").read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    resource.setrlimit(resource.RLIMIT_AS, (vm + (200 << 20), resource.RLIM_INFINITY))
    try:
        jetjson.dumps(doc, **kw)
        print("ok")
    except MemoryError as e:
        # With a message saying what was asked for (a bare MemoryError()
        # came out when the result could not be made at its size).
        print("MemoryError", "out of memory for an output of" in str(e))
    assert jetjson.dumps(small, **kw) == before, jetjson.dumps(small, **kw)
    assert jetjson.dumps("s") == b'"s"' and jetjson.dumps([1, 2]) == b"[1,2]"
    """
)


@pytest.mark.parametrize("shape", ["list", "dict", "str", "sorted"])
def test_a_kept_writer_that_cannot_grow_is_a_memory_error(shape):
    r = subprocess.run([sys.executable, "-c", KEPT_CHILD, shape], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    assert r.stdout.strip() == "MemoryError True", r.stdout


# A str that is not ASCII is read through its UTF-8 form, which CPython
# makes (and caches) the first time it is asked for: out of memory that
# failed, and the binding aborted the process on purpose
# (`handle_alloc_error` in dumps/text.rs), whatever the str's size: a
# top-level str, a key, a value, under every option, in `digest` too (found
# by an outside tester). Now that failure unwinds to the catch around the
# walk and is raised as MemoryError; the quick paths decline and the
# general path raises it. Each str is made anew before each call, so that
# no UTF-8 form is cached.
UTF8_CHILD = textwrap.dedent(
    """
    import _testcapi, enum, json, sys
    import jetjson

    class E(enum.Enum):
        A = "\\u00e9t\\u00e9"

    def fresh(s):
        return (s + "!")[:-1]             # a new str of the same text

    shape, options = sys.argv[1], json.loads(sys.argv[2])
    def make():
        u, k = fresh("caf\\u00e9 \\u2028 \\U0001F600"), fresh("cl\\u00e9")
        return {
            "top": lambda: u,
            "small_dict_key": lambda: {k: 1, "b": "x"},
            "list": lambda: [1, "x", u],
            "dict": lambda: {"a": [1, {"b": u}], k: 2.5},
            # Lone surrogates (their bytes made in Rust) next to a str
            # whose UTF-8 form CPython makes.
            "surrogates": lambda: {fresh("a\\udc80\\u00e9"): [fresh("b\\ud800\\U0001F600"), u]},
            "enum_key": lambda: {E.A: 1, "z": u},
        }[shape]()
    call = (lambda o: jetjson.digest(o, **options)) if options.pop("digest", False) else (lambda o: jetjson.dumps(o, **options))
    expected = call(make())
    seen = set()
    for width in (1, 0):                  # one failing allocation; every one from start on
        for start in range(30):
            obj = make()
            before = sys.getrefcount(obj)
            _testcapi.set_nomemory(start, start + width)
            try:
                got = "ok" if call(obj) == expected else "wrong"
            except MemoryError:
                got = "MemoryError"
            finally:
                _testcapi.remove_mem_hooks()
            if sys.getrefcount(obj) != before:
                got += " and a reference left"
            if call(make()) != expected:
                got += " and different bytes after"
            seen.add(got)
    print(json.dumps(sorted(seen)))
    """
)


@pytest.mark.parametrize("shape", ["top", "small_dict_key", "list", "dict", "surrogates", "enum_key"])
@pytest.mark.parametrize(
    "options",
    [
        "{}",
        '{"sort_keys": true}',
        '{"profile": "go", "non_str_keys": true}',
        '{"profile": "jcs", "non_str_keys": true}',
        '{"indent": 2, "non_str_keys": true}',
        '{"digest": true, "profile": "go", "non_str_keys": true}',
    ],
)
def test_a_str_whose_utf8_form_cannot_be_made_is_a_memory_error(shape, options):
    import json

    if shape == "surrogates" and "go" not in options:
        pytest.skip("lone surrogates are written only by go")
    if shape == "enum_key" and "non_str_keys" not in options:
        pytest.skip("an Enum key needs non_str_keys")
    r = subprocess.run([sys.executable, "-c", UTF8_CHILD, shape, options], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    assert json.loads(r.stdout.strip().splitlines()[-1]) == ["MemoryError", "ok"], r.stdout


# An error's message held the whole text of the keys on its path (and of
# a name written twice, and of an `isoformat()` that is not a date): a
# 300 MB key was copied four times over on the way to the message, each
# copy a Rust allocation, which aborts the process when it fails (found by
# an outside tester). Messages now keep the first 256 bytes of such a text
# and its length.
LONG_KEY_CHILD = textwrap.dedent(
    """
    import os, resource, sys
    import jetjson

    class Odd:
        pass

    kw = {"sort_keys": True} if sys.argv[1] == "sorted" else {}
    doc = {"k" * (300 << 20): [Odd()], "a": 1}
    jetjson.dumps({"w": 1}, **kw)
    vm = int(open("/proc/self/statm").read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    # Room for the output (the key written, 300 MB, in a result grown to
    # 512 MB), not for another copy of the key.
    resource.setrlimit(resource.RLIMIT_AS, (vm + (900 << 20), resource.RLIM_INFINITY))
    try:
        jetjson.dumps(doc, **kw)
        print("ok")
    except jetjson.JSONEncodeError as e:
        print(len(str(e)))
    except MemoryError:
        print("MemoryError")
    """
)


@pytest.mark.parametrize("order", ["insertion", "sorted"])
def test_an_error_under_a_huge_key_makes_no_copy_of_it(order):
    r = subprocess.run([sys.executable, "-c", LONG_KEY_CHILD, order], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    out = r.stdout.strip()
    assert out == "MemoryError" or (out.isdigit() and int(out) < 1000), out


# `digest_bytes` of a buffer that is not contiguous copied it into a Rust
# `Vec` as large as the data, which aborted the process when it could not
# be made (found by an outside tester); the copy is a bytes object now.
STRIDED_CHILD = textwrap.dedent(
    """
    import hashlib, os, resource
    import jetjson

    data = bytearray(b"ab" * (200 << 20))
    view = memoryview(data)[::2]          # 200 MB, not contiguous
    vm = int(open("/proc/self/statm").read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    resource.setrlimit(resource.RLIMIT_AS, (vm + (100 << 20), resource.RLIM_INFINITY))
    try:
        jetjson.digest_bytes(view)
        print("ok")
    except MemoryError:
        print("MemoryError")
    resource.setrlimit(resource.RLIMIT_AS, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
    small = memoryview(bytearray(b"xy" * 1000))[::2]
    assert jetjson.digest_bytes(small) == "sha256:" + hashlib.sha256(b"x" * 1000).hexdigest()
    """
)


def test_digest_bytes_of_a_strided_buffer_out_of_memory_is_a_memory_error():
    r = subprocess.run([sys.executable, "-c", STRIDED_CHILD], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    assert r.stdout.strip() == "MemoryError", r.stdout


# The members of a dict being sorted (sort_keys, and every dict in the go
# and jcs profiles) are collected into the walker's working memory, a Rust
# Vec as long as the dict: when it cannot grow, MemoryError, not an abort
# ("memory allocation of 41943040 bytes failed" before), with every key and
# value released and the same bytes from a smaller dict afterwards.
SORT_CHILD = textwrap.dedent(
    """
    import os, resource, sys
    import jetjson
    how = sys.argv[1]
    args, kw = {"sort_keys": ((), {"sort_keys": True}), "go": (("go",), {}), "jcs": (("jcs",), {})}[how]
    big = {"%07d" % i: i for i in range(2_000_000)}
    small = {"b": [1, {"d": 2, "c": "x"}], "a": None}
    before = jetjson.dumps(small, *args, **kw)
    probe = big["0000300"]  # collected early; an int of its own (not a cached small int)
    count = sys.getrefcount(probe)
    vm = int(open("/proc/self/statm").read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    resource.setrlimit(resource.RLIMIT_AS, (vm + (40 << 20), resource.RLIM_INFINITY))
    try:
        jetjson.dumps({"outer": 1, "big": big}, *args, **kw)
        print("ok")
    except MemoryError:
        print("MemoryError")
    assert sys.getrefcount(probe) == count, (sys.getrefcount(probe), count)
    assert jetjson.dumps(small, *args, **kw) == before
    """
)


@pytest.mark.parametrize("how", ["sort_keys", "go", "jcs"])
def test_a_sorted_dict_whose_members_cannot_be_collected_is_a_memory_error(how):
    r = subprocess.run([sys.executable, "-c", SORT_CHILD, how], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    assert r.stdout.strip() == "MemoryError", r.stdout


def child_output(script, *args):
    """What `script`, run by a child Python with `args`, printed; the child
    must exit cleanly (an abort for want of memory is the failure)."""
    r = subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    return r.stdout.strip()


# Reading: the working memory of a parse grows with the input (the
# builder's stack of finished values holds one entry per item of the
# largest container, its frames one per level, a string's decoded text is
# as long as the string) and its growth failing aborted the process
# ("memory allocation of 67108864 bytes failed"). Each growth is now
# fallible: `loads` and `Decoder.decode` raise MemoryError, saying where
# for a string, and the process carries on. Each document is ~120 MB,
# read with 50 MB of address space to spare.
READ_CHILD = textwrap.dedent(
    """
    import os, resource, sys, typing
    import jetjson

    kind, entry = sys.argv[1], sys.argv[2]
    if kind == "items":
        data = b"[" + b"1," * (60 << 20) + b"1]"
    elif kind == "escaped":
        data = b'"' + b"\\\\n" * (60 << 20) + b'"'
    else:
        # 60 million levels, under a limit raised to let them be read.
        data = b"[" * (60 << 20) + b"]" * (60 << 20)
    deep = 10**9
    read = {
        "loads": lambda d: jetjson.loads(d, max_depth=deep),
        "loads_str_input": lambda d: jetjson.loads(text, max_depth=deep),
        "Decoder(Any)": jetjson.Decoder(typing.Any, max_depth=deep).decode,
        "Decoder(list)": jetjson.Decoder(list[typing.Any] if kind == "deep" else typing.Union[list[int], str], max_depth=deep).decode,
    }[entry]
    text = data.decode() if entry == "loads_str_input" else None
    vm = int(open("/proc/self/statm").read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    resource.setrlimit(resource.RLIMIT_AS, (vm + (50 << 20), resource.RLIM_INFINITY))
    try:
        read(data)
        print("ok")
    except MemoryError as e:
        print("MemoryError", e)
    resource.setrlimit(resource.RLIMIT_AS, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
    assert jetjson.loads(b'[1, "a\\\\nb", {"k": [2]}]') == [1, "a\\nb", {"k": [2]}]
    assert jetjson.Decoder(list[int]).decode(b"[1,2,3]") == [1, 2, 3]
    """
)


@pytest.mark.parametrize("entry", ["loads", "loads_str_input", "Decoder(Any)", "Decoder(list)"])
@pytest.mark.parametrize("kind", ["items", "escaped", "deep"])
def test_a_parse_whose_working_memory_cannot_grow_is_a_memory_error(kind, entry):
    out = child_output(READ_CHILD, kind, entry)
    assert out.startswith("MemoryError"), out
    if kind == "escaped" and entry != "loads_str_input":
        # Where the string's text stopped growing: inside the string.
        assert "out of memory while reading: line 1 column" in out, out


# Objects that fill memory themselves: CPython's allocation fails first, and
# the builder's own error handling (formatting the error, the path) then
# found no memory for its few bytes and aborted the process ("memory
# allocation of 11 bytes failed"; found by an outside tester). The builders
# now release what they hold before handling a MemoryError. A huge integer
# literal was copied with an allocation that aborted before CPython's digit
# limit refused it.
FILL_CHILD = textwrap.dedent(
    """
    import os, resource, sys, typing
    import jetjson

    kind, entry, spare = sys.argv[1], sys.argv[2], int(sys.argv[3])
    if kind == "floats":
        data = b"[" + b"1.5e3," * 20_000_000 + b"1]"
    elif kind == "records":
        data = b"{" + b",".join(b'"k%d":["ab","c\\\\n","d"]' % i for i in range(4_000_000)) + b"}"
    else:
        data = b"1" + b"2" * 120_000_000
    read = {
        "loads": jetjson.loads,
        "loads_decimal": lambda d: jetjson.loads(d, decimal=True),
        "Decoder": jetjson.Decoder(typing.Union[list[float], dict[str, list[str]], int]).decode,
    }[entry]
    vm = int(open("/proc/self/statm").read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    resource.setrlimit(resource.RLIMIT_AS, (vm + (spare << 20), resource.RLIM_INFINITY))
    try:
        read(data)
        print("ok")
    except MemoryError:
        print("MemoryError")
    except ValueError as e:
        print("ValueError", str(e)[:60])
    resource.setrlimit(resource.RLIMIT_AS, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
    assert jetjson.loads(b'[1, 2.5, {"k": ["a"]}]') == [1, 2.5, {"k": ["a"]}]
    """
)


@pytest.mark.parametrize("entry", ["loads", "loads_decimal", "Decoder"])
@pytest.mark.parametrize("kind,spare", [("floats", 200), ("records", 200), ("bigint", 50)])
def test_objects_that_fill_memory_are_a_memory_error(kind, spare, entry):
    out = child_output(FILL_CHILD, kind, entry, str(spare))
    assert out == "MemoryError", out


# `canonicalize` reads its input into the core's `Value` (an arena for the
# document, stacks for the open containers), which aborted the process when
# that memory could not grow ("memory allocation of ... bytes failed"). It
# is a MemoryError now, and the process reads on afterwards. Each document
# is ~120 MB, read with 50 MB of address space to spare: the items of one
# huge array (the builder's value stack), long strings (the arena), and the
# names of one huge object (the name stack and the arena); a document that
# is one 60 MB string or one 40-million-digit number (its owned copy),
# with 20 MB to spare. And the output: 120 MB of 300-byte strings read
# within 200 or 400 MB to spare, whose output then cannot grow (it aborted
# in a `Vec`, or raised PanicException where pyo3 made the `bytes`; found
# by an outside tester).
CANON_CHILD = textwrap.dedent(
    """
    import os, resource, sys
    import jetjson

    kind, profile, spare = sys.argv[1], sys.argv[2], int(sys.argv[3])
    if kind == "items":
        data = b"[" + b"1," * (60 << 20) + b"1]"
    elif kind == "strings":
        data = b"[" + b",".join([b'"' + b"s" * 40 + b'"'] * (3 << 20)) + b"]"
    elif kind == "names":
        data = b"{" + b",".join(b'"%d":0' % i for i in range(10_000_000)) + b"}"
    elif kind == "root string":
        data = b'"' + b"R" * (60 << 20) + b'"'
    elif kind == "root number":
        data = b"1" + b"2" * (40 << 20)
    else:
        unit = b'"' + b"L" * 300 + b'",'
        data = b"[" + unit * ((120 << 20) // len(unit)) + b'"e"]'
    vm = int(open("/proc/self/statm").read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    resource.setrlimit(resource.RLIMIT_AS, (vm + (spare << 20), resource.RLIM_INFINITY))
    try:
        out = jetjson.canonicalize(data, profile)
        print("ok", len(out))
    except MemoryError as e:
        print("MemoryError", e)
    resource.setrlimit(resource.RLIMIT_AS, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
    assert jetjson.canonicalize(b'{"b": [1, "x\\\\n"], "a": 2}', "jcs") == b'{"a":2,"b":[1,"x\\\\n"]}'
    """
)


@pytest.mark.parametrize("profile", ["jcs", "compact"])
@pytest.mark.parametrize("kind,spare", [("items", 50), ("strings", 50), ("names", 50), ("root string", 20), ("root number", 20)])
def test_canonicalize_whose_value_cannot_grow_is_a_memory_error(kind, spare, profile):
    out = child_output(CANON_CHILD, kind, profile, str(spare))
    assert out.startswith("MemoryError"), out
    if not kind.startswith("root"):
        # Said where, as every reading error is (a document that is one
        # value is reported where the reading ended).
        assert "out of memory while reading: line 1 column" in out, out


@pytest.mark.parametrize("spare", [200, 400])
def test_canonicalize_whose_output_cannot_grow_is_a_memory_error(spare):
    out = child_output(CANON_CHILD, "output", "jcs", str(spare))
    # Read, then out of memory for the output, or (with more to spare)
    # written whole; never an abort or a PanicException.
    assert out.startswith("MemoryError") or out.startswith("ok"), out


# Inputs that are copied before they are read: a `bytearray` or another
# buffer (it could change while it is read) and a str with lone surrogates
# (its `surrogatepass` bytes). The copy was a Rust `Vec`, which aborted the
# process when an input as large as the memory left could not be copied
# (found in the stop-37 review); the new `bytes` that `Raw` keeps was made
# by pyo3, which raised PanicException. Each input is ~120 MB, read with
# 50 MB of address space to spare (180 MB for the str, whose encoded form
# is made first, by Python).
COPY_CHILD = textwrap.dedent(
    """
    import array, os, resource, sys
    import jetjson

    entry, kind = sys.argv[1], sys.argv[2]
    doc = b'"' + b"s" * (120 << 20) + b'"'
    spare = 50
    if kind == "bytearray":
        data = bytearray(doc)
    elif kind == "memoryview":
        data = memoryview(bytearray(doc))
    elif kind == "array":
        data = array.array("B", doc)
    else:
        data = '"\\ud800' + "s" * (120 << 20) + '"'
        spare = 180
    read = {
        "loads": jetjson.loads,
        "canonicalize": lambda d: jetjson.canonicalize(d, "jcs"),
        "Raw": jetjson.Raw,
        "Raw.unchecked": jetjson.Raw.unchecked,
    }[entry]
    vm = int(open("/proc/self/statm").read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    resource.setrlimit(resource.RLIMIT_AS, (vm + (spare << 20), resource.RLIM_INFINITY))
    try:
        read(data)
        print("ok")
    except MemoryError as e:
        print("MemoryError", e)
    except (ValueError, TypeError) as e:
        print(type(e).__name__, str(e)[:80])
    resource.setrlimit(resource.RLIMIT_AS, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
    assert jetjson.loads(bytearray(b'[1, "a"]')) == [1, "a"]
    assert bytes(jetjson.Raw(bytearray(b'{"k": 2}'))) == b'{"k": 2}'
    assert jetjson.canonicalize(memoryview(b'{"b":1,"a":2}'), "jcs") == b'{"a":2,"b":1}'
    """
)


@pytest.mark.parametrize(
    "entry,kind",
    [
        ("loads", "bytearray"),
        ("loads", "memoryview"),
        ("canonicalize", "bytearray"),
        ("canonicalize", "array"),
        ("canonicalize", "surrogate str"),
        ("Raw", "bytearray"),
        ("Raw", "memoryview"),
        ("Raw.unchecked", "bytearray"),
    ],
)
def test_an_input_copy_that_cannot_be_made_is_a_memory_error(entry, kind):
    out = child_output(COPY_CHILD, entry, kind)
    assert out.startswith("MemoryError"), out


# A large output written by a call that expected a small one (the first
# call of a process, or one after small outputs) was written into a kept
# writer's buffer and copied whole into the result at the end: the peak was
# twice the output (300 MB written, 600 MB held, where orjson holds 300 MB;
# found by an outside tester). Now the output moves into the result object
# once it grows past 1 MiB and is written there. Measured in a fresh child
# (ru_maxrss, the peak resident size), against the output's size: memory,
# not time.
PEAK_CHILD = textwrap.dedent(
    """
    import resource, sys
    import jetjson
    shape, n = sys.argv[1], int(sys.argv[2])
    doc = "a" * n if shape == "str" else ["a" * 1000] * (n // 1003)
    if shape == "after-small":
        jetjson.dumps([1, 2, 3])
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    out = jetjson.dumps(doc)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print((peak - before) * 1024 / len(out))
    """
)


@pytest.mark.skipif(os.environ.get("PYTHONMALLOC", "").startswith("debug"), reason="the debug allocator fills all new memory, so the peak there is the result's whole capacity")
@pytest.mark.parametrize("shape", ["str", "list", "after-small"])
def test_a_large_dumps_peaks_at_about_its_output(shape):
    r = subprocess.run([sys.executable, "-c", PEAK_CHILD, shape, str(96 << 20)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    extra = float(r.stdout)
    # The result itself is 1.0; a copy of it made 2.0.
    assert extra < 1.3, extra


# The same under a memory limit that holds the result but not a second
# copy of it: the finished output was lost to a bare `MemoryError()` (no
# message) when the copy failed. Now there is no copy, so the call
# succeeds; any MemoryError must say what was asked for.
LIMITED_CHILD = textwrap.dedent(
    """
    import os, resource, sys
    import jetjson
    doc = ["a" * 1000] * 100_000           # 100 MB of output
    vm = int(open("/proc/self/statm").read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    resource.setrlimit(resource.RLIMIT_AS, (vm + (260 << 20), resource.RLIM_INFINITY))
    for kw in ({}, {"ascii_only": True}):
        try:
            print(len(jetjson.dumps(doc, **kw)))
        except MemoryError as e:
            print("MemoryError:", e)
    """
)


@pytest.mark.skipif(os.environ.get("PYTHONMALLOC", "").startswith("debug"), reason="the debug allocator copies on every resize")
def test_a_large_first_dumps_under_a_memory_limit_needs_no_second_copy():
    r = subprocess.run([sys.executable, "-c", LIMITED_CHILD], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    assert r.stdout.split() == ["100300001", "100300001"], r.stdout


# A Raw laid out with sort_keys is read whole into a tree first; a string
# there that needs escapes (ascii_only) is copied, fallibly: out of memory
# is a MemoryError (it was a JSONEncodeError naming reading), and streamed
# (no sort_keys) the kept writer's MemoryError; the process goes on.
RELAID_CHILD = textwrap.dedent(
    """
    import os, resource
    import jetjson
    big = jetjson.Raw.unchecked(b'"' + "\\u00e9".encode() * (150 << 20) + b'"')
    vm = int(open("/proc/self/statm").read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    resource.setrlimit(resource.RLIMIT_AS, (vm + (200 << 20), resource.RLIM_INFINITY))
    for kw in ({"ascii_only": True, "sort_keys": True}, {"ascii_only": True}):
        try:
            jetjson.dumps({"a": big}, **kw)
            print("ok")
        except MemoryError as e:
            print("MemoryError", "out of memory" in str(e))
    print(jetjson.dumps({"b": 1, "a": jetjson.Raw(b'{"y": 1, "x": "\\u00e9"}')}, ascii_only=True, sort_keys=True).decode())
    """
)


def test_a_relaid_raw_out_of_memory_is_a_memory_error():
    r = subprocess.run([sys.executable, "-c", RELAID_CHILD], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    assert r.stdout.split("\n")[:3] == ["MemoryError True", "MemoryError True", '{"a":{"x":"\\u00e9","y":1},"b":1}'], r.stdout
