"""The workload suite's typed-decode objects, for `ab_builds.py --twin-setup`
(run once per build, with `jetjson` that build's module) and for
callgrind_small.sh's SETUP (which imports the build to count):

    .venv/bin/python bench/python/ab_builds.py /tmp/ab --cpu \
        --twin-setup "exec(open('bench/python/typed_twins.py').read())" \
        "jenv(env1)" "jenv(env10)" "jbind(body1k)" "attempt(jbind, oversize)"
    SETUP="import jetjson; exec(open('bench/python/typed_twins.py').read())" \
        JETJSON_LEVEL=avx2 bash bench/python/callgrind_small.sh "jenv(env1)" "menv(env1)"

Names: env1, env10 (suite envelopes), body1k (the suite's request body),
oversize (its 1 MiB body), trailing (the body with a second value);
jenv/jbind: `jetjson.Decoder` of suite.Envelope (its Raw the build's) /
suite.CreateOrder (max_size 16 KiB) as the suite makes them; menv/mbind/
mlimited: msgspec's `Decoder(Struct)` twins (mlimited checks the size
first, as the suite's); attempt(f, b): True if f(b) raised ValueError or
TypeError.
"""
# (No `import jetjson` here: the caller binds it to the build to use.)
import dataclasses  # noqa: E402

import msgspec  # noqa: E402
import suite  # noqa: E402

# suite.Envelope with this build's Raw (a build knows only its own).
Envelope = dataclasses.make_dataclass(
    "Envelope", [(f.name, jetjson.Raw if f.name == "data" else f.type) for f in dataclasses.fields(suite.Envelope)])  # noqa: F821

env1 = suite.read("envelope-1.json")
env10 = suite.read("envelope-10.json")
body1k = suite.read("binding-body.json")
oversize = b'{"notes":"' + b"n" * (suite.OVERSIZE - 12) + b'"}'
trailing = body1k + b' {"request_id":"x"}'
jenv = jetjson.Decoder(Envelope).decode  # noqa: F821
jbind = jetjson.Decoder(suite.CreateOrder, max_size=suite.LIMIT).decode  # noqa: F821
# Its msgspec twin (the suite's MEnvelope): a Struct, its message a msgspec.Raw.
MEnvelope = msgspec.defstruct(
    "MEnvelope", [(f.name, msgspec.Raw if f.name == "data" else f.type) for f in dataclasses.fields(suite.Envelope)])
menv = msgspec.json.Decoder(MEnvelope).decode
mbind = msgspec.json.Decoder(suite.msgspec_types()).decode


def mlimited(b):
    if len(b) > suite.LIMIT:
        raise suite.BodyTooLarge(len(b))
    return mbind(b)


def attempt(f, b):
    try:
        f(b)
    except (ValueError, TypeError):
        return True
    return False
