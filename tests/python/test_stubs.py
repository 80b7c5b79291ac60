"""The type stubs (__init__.pyi) describe the functions the extension has:
same parameter names, kinds and defaults as the runtime signatures."""

import ast
import inspect
import pathlib

import pytest

import jetjson

STUB = pathlib.Path(jetjson.__file__).with_name("__init__.pyi")


def stub_functions():
    tree = ast.parse(STUB.read_text())
    return {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}


def stub_params(fn: ast.FunctionDef):
    a = fn.args
    out = []
    positional = a.posonlyargs + a.args
    defaults = [None] * (len(positional) - len(a.defaults)) + list(a.defaults)
    for i, (arg, d) in enumerate(zip(positional, defaults)):
        kind = "POSITIONAL_ONLY" if i < len(a.posonlyargs) else "POSITIONAL_OR_KEYWORD"
        out.append((arg.arg, kind, None if d is None else ast.literal_eval(d)))
    for arg, d in zip(a.kwonlyargs, a.kw_defaults):
        out.append((arg.arg, "KEYWORD_ONLY", None if d is None else ast.literal_eval(d)))
    return out


def runtime_params(fn):
    out = []
    for p in inspect.signature(fn).parameters.values():
        default = None if p.default is inspect.Parameter.empty else p.default
        out.append((p.name, p.kind.name, default))
    return out


@pytest.mark.parametrize("name", ["dumps", "loads", "canonicalize", "digest", "config", "digest_bytes"])
def test_stub_signature_matches_the_extension(name):
    stubs = stub_functions()
    assert name in stubs
    stub, runtime = stub_params(stubs[name]), runtime_params(getattr(jetjson, name))
    assert [p[:2] for p in stub] == [p[:2] for p in runtime]
    for s, r in zip(stub, runtime):
        # Defaults of converted types show as "..." at run time.
        if r[2] is not Ellipsis:
            assert s[2] == r[2], (s, r)


def test_every_public_name_has_a_stub():
    text = STUB.read_text()
    for name in jetjson.__all__:
        assert f"def {name}(" in text or f"class {name}" in text or f"{name}:" in text, name


def test_decoder_stub_matches_the_extension():
    tree = ast.parse(STUB.read_text())
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Decoder")
    init = next(n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__init__")
    stub = stub_params(init)[1:]  # without self
    runtime = runtime_params(jetjson.Decoder)
    assert [p[:2] for p in stub] == [p[:2] for p in runtime]
    for s, r in zip(stub, runtime):
        if r[2] is not Ellipsis:
            assert s[2] == r[2], (s, r)


def test_typed_loads_stub_returns_the_type():
    # The overload taking type=Type[T] returns T (for type checkers).
    tree = ast.parse(STUB.read_text())
    overloads = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "loads"]
    assert len(overloads) == 2
    first = overloads[0]
    assert ast.unparse(first.returns) == "_T"
    assert any(a.arg == "type" and ast.unparse(a.annotation) == "Type[_T]" for a in first.args.kwonlyargs)
