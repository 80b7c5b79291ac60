"""The call matrix of test_entry_calls.py: the call forms of loads, dumps and
Decoder.decode (every keyword, positional and keyword misuse, wrong types and
values, inputs of every kind and size), each with a label.

entry_calls.json holds each call's outcome (result or exception type and
text) as the build before the C entry points without pyo3's trampoline
(cf13efb) gave them; regenerate it only for an intended change:

    .venv/bin/python tests/python/_entry_calls.py > tests/python/entry_calls.json
"""
import typing
import jetjson

class S(str): pass
class B(bytes): pass
class I(int): pass
class Truthy:
    def __repr__(self): return "Truthy()"
    def __bool__(self): return True
class Opaque:
    def __repr__(self): return "Opaque()"
class Bad:
    def __repr__(self): return "Bad()"
    def __bool__(self): raise ZeroDivisionError("no truth")

ANY = jetjson.Decoder(typing.Any)
LIST = jetjson.Decoder(typing.List[int])
L, D = jetjson.loads, jetjson.dumps

def calls():
    c = []
    # loads: inputs of every kind, tiny and larger, good and bad
    for data in (b"1", b"", b" ", b"x", b"[1,", b'{"a":1}', b'{"a":1,"a":2}', "1", "", "\u00e9", '"\u00e9"', "\ud800",
                 '"\ud800"', S("1"), B(b"1"), bytearray(b"[1]"), memoryview(b"[2]"), 1, None, 1.5, [b"1"],
                 b"1" * 600, b"[" + b"1," * 300 + b"]", b"9" * 5000, b'"' + b"a" * 511, b" " * 511 + b"1",
                 b"\xef\xbb\xbf1", b"\xff", b" " * 512 + b"1", " " * 512 + "1", " " * 510 + "1", '"' + "\u00e9" * 200 + '"',
                 '["\u00e9", ' + "1" * 400 + "]", "\u00e9" * 300, b"[" * 100 + b"]" * 99, b"1 2", b"nul", b"-", b"1e400", b"[" * 600 + b"]" * 600):
        size = len(data) if isinstance(data, (bytes, str, bytearray, memoryview)) else "-"
        shown = f"{type(data).__name__}:{size}:{bytes(data) if isinstance(data, memoryview) else data!r:.60}"
        c.append((f"loads({shown})", lambda data=data: L(data)))
        c.append((f"Decoder(Any).decode({shown})", lambda data=data: ANY.decode(data)))
        c.append((f"Decoder(List[int]).decode({shown})", lambda data=data: LIST.decode(data)))
    c += [
        ("loads()", lambda: L()),
        ("loads(b'1', b'2')", lambda: L(b"1", b"2")),
        ("loads(data=b'1')", lambda: L(data=b"1")),
        ("loads(b'1', data=b'1')", lambda: L(b"1", data=b"1")),
        ("loads(b'1', bogus=1)", lambda: L(b"1", bogus=1)),
        ("loads(b'1', **{'max_' + 'size': 1})", lambda: L(b"1", **{"max_" + "size": 1})),
        ("loads(*[b'1'])", lambda: L(*[b"1"])),
        ("loads(*[])", lambda: L(*[])),
        ("loads(b'1', **{})", lambda: L(b"1", **{})),
    ]
    good = {"max_depth": 3, "max_size": 10, "duplicate_keys": "last", "allow_bom": True, "decimal": True,
            "strict": True, "forbid_unknown_fields": False}
    bad = {"max_depth": [-1, "1", 1.0, True, None, I(2)], "max_size": [-1, "1", True, None, I(9), 2**80],
           "duplicate_keys": ["x", 1, None, "first", "FIRST", S("last")], "allow_bom": [Bad(), Truthy(), 0, "x"],
           "decimal": [Bad(), Truthy(), None], "strict": [False, Bad(), 0], "forbid_unknown_fields": [True, Bad()],
           "type": [int, typing.List[int], "x", None, 1]}
    for k, v in good.items():
        c.append((f"loads(b'[1.5]', {k}={v!r})", lambda k=k, v=v: L(b"[1.5]", **{k: v})))
    for k, vs in bad.items():
        for v in vs:
            c.append((f"loads(b'[1.5]', {k}={type(v).__name__}:{v!r:.30})", lambda k=k, v=v: L(b"[1.5]", **{k: v})))
    c.append(("loads(b'1', max_size=1, max_size=...)", lambda: L(b"1", max_size=1, **{"max_" + "depth": 2})))
    # Decoder.decode misuse
    c += [
        ("ANY.decode()", lambda: ANY.decode()),
        ("ANY.decode(b'1', b'2')", lambda: ANY.decode(b"1", b"2")),
        ("ANY.decode(data=b'1')", lambda: ANY.decode(data=b"1")),
        ("Decoder.decode(1, b'1')", lambda: jetjson.Decoder.decode(1, b"1")),
        ("Decoder.decode(ANY, b'[1]')", lambda: jetjson.Decoder.decode(ANY, b"[1]")),
    ]
    # dumps: objects of every kind with no options
    for obj in (1, 0, -1, True, False, None, "", "a", "\u00e9", "\ud800", "<&>", 2**63, -(2**63), 2**64, 1.5, float("nan"),
                I(3), S("s"), {"a": 1}, [1], (), {}, {1: 2}, b"x", Opaque(), "x" * 5000, list(range(300))):
        c.append((f"dumps({type(obj).__name__}:{obj!r:.40})", lambda obj=obj: D(obj)))
    c += [
        ("dumps()", lambda: D()),
        ("dumps(1, 'go', 3)", lambda: D(1, "go", 3)),
        ("dumps(obj=1)", lambda: D(obj=1)),
        ("dumps(1, obj=1)", lambda: D(1, obj=1)),
        ("dumps(1, 'go', profile='go')", lambda: D(1, "go", profile="go")),
        ("dumps(1, bogus=1)", lambda: D(1, bogus=1)),
        ("dumps(1, **{'sort_' + 'keys': 1})", lambda: D({"b": 1, "a": 2}, **{"sort_" + "keys": 1})),
        ("dumps(*[1])", lambda: D(*[1])),
    ]
    dgood = {"profile": ["go", "jcs", "compact", S("go")], "sort_keys": [True, 0, Truthy()], "escape_html": [True, False, None],
             "ascii_only": [True, Truthy()], "indent": [2, 0, None, "  ", "\t", 16], "default": [str, None],
             "nan": ["null", "error"], "non_str_keys": [True], "omit_defaults": [True], "max_write_depth": [1, 3, 10**6, None, I(4)]}
    dbad = {"profile": ["yaml", 3, None, b"go"], "sort_keys": [Bad()], "escape_html": [Bad()], "ascii_only": [Bad()],
            "indent": [True, -1, 17, "x", 1.5, " \t"], "default": [1], "nan": ["x", 1, None], "non_str_keys": [Bad()],
            "omit_defaults": [Bad()], "max_write_depth": [0, -1, 10**6 + 1, 2**80, "1", 1.0, True]}
    obj = {"b": [1.5, "<\u00e9>", {"z": None}], "a": float("nan")}
    for table in (dgood, dbad):
        for k, vs in table.items():
            for v in vs:
                c.append((f"dumps(obj, {k}={type(v).__name__}:{v!r:.30})", lambda k=k, v=v: D(obj, **{k: v})))
                c.append((f"dumps(obj, 'go', {k}={type(v).__name__}:{v!r:.30})", lambda k=k, v=v: D(obj, "go", **({k: v} if k != "profile" else {}))))
    c.append(("dumps({1: 2}, non_str_keys=True, profile='jcs')", lambda: D({1: 2, "x": 1.0}, non_str_keys=True, profile="jcs")))
    return c

def outcome(f):
    try:
        r = f()
    except Exception as e:  # noqa: BLE001
        return ("raise", type(e).__name__, str(e), repr(getattr(e, "__cause__", None))[:200])
    return ("ok", type(r).__name__, repr(r)[:300])


if __name__ == "__main__":
    import json, sys
    table = calls()
    out = {name: outcome(f) for name, f in table}
    assert len(out) == len(table), "labels must be unique"
    json.dump(out, sys.stdout, indent=0, ensure_ascii=True)
    print()
