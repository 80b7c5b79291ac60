"""Statements of the binding workload's reject rows for callgrind, with the
try/except the suite puts around them (callgrind_small.py evaluates bare
expressions, which cannot hold one):

    bash bench/python/callgrind_reject.sh "j(oversize)" "o(oversize)" "j(trailing)" "jok(body)"

j: jetjson.loads(b, max_size=16384); o/m: the peers' Python length check,
then orjson.loads / msgspec.json.Decoder().decode; jok/ook: a successful
loads; jsm: jetjson on a 36-byte body; raw: jetjson.Raw; nothing: the call
overhead alone (also imported by reject_timeit.py). Inputs: body (the suite's 1,089-byte order), trailing (body
+ ' {"request_id":"x"}'), oversize (1 MiB), small.
"""
import sys
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parent))
import jetjson, orjson, msgspec
LIMIT = 16 * 1024
class BodyTooLarge(ValueError):
    pass
import suite
body = suite.read("binding-body.json")
trailing = body + b' {"request_id":"x"}'
oversize = b'{"notes":"' + b"n" * ((1 << 20) - 12) + b'"}'
mdec = msgspec.json.Decoder()
def j(b):
    try: jetjson.loads(b, max_size=LIMIT)
    except ValueError: return True
def o(b):
    try:
        if len(b) > LIMIT: raise BodyTooLarge(len(b))
        orjson.loads(b)
    except ValueError: return True
def m(b):
    try:
        if len(b) > LIMIT: raise BodyTooLarge(len(b))
        mdec.decode(b)
    except ValueError: return True
def jok(b):
    return jetjson.loads(b, max_size=LIMIT)
def ook(b):
    return orjson.loads(b)
def raw(b):
    return jetjson.Raw(b)
small = b'{"id":7,"name":"x","tags":["a","b"]}'
def jsm(b):
    return jetjson.loads(b, max_size=LIMIT)
def nothing(b):
    return True
if __name__ == "__main__":
    stmt, n = sys.argv[1], int(sys.argv[2])
    code = compile(stmt, "stmt", "eval")
    eval(code)
    for _ in range(n):
        eval(code)
