"""The jetjson command line tool: ``python -m jetjson ...``, and the
``jetjson`` command that ``pip install jetjson`` puts on the PATH.

Both run the Rust CLI itself (the ``jetjson_cli`` crate, the code of the
``jetjson`` binary), not a Python copy of it: ``python -m jetjson --help``.
"""

import signal
import sys

from ._jetjson import run_cli


def main(prog: str = "jetjson") -> None:
    """Runs the tool with ``sys.argv[1:]`` and exits with its status."""
    # Ctrl-C ends the tool as it ends the binary: Python's own handler only
    # sets a flag, which the Rust code never looks at.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    # The tool writes to file descriptors 1 and 2 directly: whatever Python
    # buffered goes out first.
    sys.stdout.flush()
    sys.stderr.flush()
    sys.exit(run_cli([prog, *sys.argv[1:]]))


if __name__ == "__main__":
    main("python -m jetjson")
