"""Writes the payloads of small_quick.py's checked-`Raw` envelope rows, and
two more, as files for the Rust validator loop (bench/validate_calls.sh):

    items.json      small_quick's PAYLOAD (28 objects of one shape)
    event.json      the first GitHub event of github_events.json, compact
    manifest.json   an OCI manifest as stored (indented)
    one.json        b'1' (the fixed cost of a call)
    ones.json       b'[' + b'1,' * 300 + b'1]' (the number path)

    .venv/bin/python bench/python/raw_payloads.py DIR
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import small_quick  # noqa: E402


def main():
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    _, g = small_quick.cases()
    payloads = {
        "items": g["payload"],
        "event": g["event_payload"],
        "manifest": g["manifest_payload"],
        "one": b"1",
        "ones": b"[" + b"1," * 300 + b"1]",
    }
    for name, data in payloads.items():
        (out / f"{name}.json").write_bytes(data)


if __name__ == "__main__":
    main()
