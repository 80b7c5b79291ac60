import json

import jetjson


def test_module_exports_the_api():
    for name in ("dumps", "loads", "canonicalize", "digest", "Raw", "JSONDecodeError", "JSONEncodeError"):
        assert hasattr(jetjson, name), name


def test_error_types_fit_existing_handlers():
    assert issubclass(jetjson.JSONDecodeError, json.JSONDecodeError)
    assert issubclass(jetjson.JSONDecodeError, ValueError)
    assert issubclass(jetjson.JSONEncodeError, TypeError)
