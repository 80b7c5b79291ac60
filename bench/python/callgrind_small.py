"""Runs N evaluations of one small_quick statement, for callgrind:
instructions per call = (total at 3N - total at N) / 2N, which cancels the
start-up and the first call's one-off costs (callgrind_small.sh does that).

    .venv/bin/python bench/python/callgrind_small.py "jl(b'1')" 200

The statement is evaluated in small_quick's globals (jd/jl: jetjson
dumps/loads, jx: jetjson.Decoder(typing.Any).decode, od/ol: orjson, me/md: msgspec Encoder/Decoder, and its
inputs: manifest, manifest_bytes, body, body_bytes, event, uids, record,
rstruct, env, payload, raw_unchecked, fragment, one_dict, Raw, Fragment),
and envelope_quick's: head1/raw1/frag1 ... head1000/raw1000/frag1000 (the
suite's envelopes: `jd({**head10, 'data': raw10})`). Code in the SETUP
environment variable runs first among those names (as ab_builds.py's --setup).
"""

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import envelope_quick  # noqa: E402
import small_quick  # noqa: E402

_, g = small_quick.cases()
g.update(envelope_quick.cases(None)[1])
if os.environ.get("SETUP"):
    exec(os.environ["SETUP"], g)
stmt, n = sys.argv[1], int(sys.argv[2])
code = compile(stmt, "stmt", "eval")
eval(code, g)
for _ in range(n):
    eval(code, g)
