"""The ``flowgraph`` command: one module per subcommand, each with ``add_parser()`` and ``run()``.

The commands only parse arguments and print; what they decide (outcomes,
verdicts, tables' numbers) comes from the library, so the studio and batch
runs can call the same functions. :mod:`.program` holds the parser and
:func:`main`; this module loads it only when asked, so that the console
script's :func:`run` catches Ctrl-C however early it comes (while the
libraries load, ~0.1-0.6 s): "interrupted" and status 130, never a
traceback.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any

__all__ = ["main", "run", "build_parser", "EXIT", "COMMANDS"]

if TYPE_CHECKING:
    from .program import COMMANDS, EXIT, build_parser, main


def run() -> None:
    """Console-script entry point: ``flowgraph ...``; exits with the command's status."""
    if sys.argv[1:] == ["--version"]:  # at once: the parser's module loads numpy and networkx (~0.2 s)
        from .. import __version__

        print(f"flowgraph {__version__}")
        sys.exit(0)
    # numpy's OpenBLAS starts a thread per core as it loads (0.07 s of a 0.35 s run on a 2-core machine,
    # docs/benchmarks.md); nothing flowgraph does needs threaded linear algebra, so one unless the user says
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    try:
        from .program import run as program
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        sys.exit(130)
    program()


def __getattr__(name: str) -> Any:
    if name in ("main", "build_parser", "EXIT", "COMMANDS"):
        from . import program

        return getattr(program, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
