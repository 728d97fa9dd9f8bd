"""The ``flowgraph`` command: one module per subcommand, each with ``add_parser()`` and ``run()``.

The commands only parse arguments and print; what they decide (outcomes,
verdicts, tables' numbers) comes from the library, so the studio and batch
runs can call the same functions. :mod:`.program` holds the parser and
:func:`main`; this module loads it only when asked, so that the console
script's :func:`run` catches Ctrl-C however early it comes (while the
libraries load): "interrupted" and status 130, never a
traceback.

The other modules: :mod:`.batching`, what the batch commands; :mod:`.bench`, ``flowgraph bench``: many puzzles
in one process, a table of times and nodes; :mod:`.common`, what the commands share; :mod:`.convert`,
``flowgraph convert``: between puzzle formats, level packs to one file per level; :mod:`.explain`, ``flowgraph
explain``: the solving path as a person takes it; :mod:`.generate`, ``flowgraph generate``: puzzles with
exactly one solution, on any family and mask; :mod:`.new`, ``flowgraph new``: a template to fill in, any
family and shape; :mod:`.rate`, ``flowgraph rate``: many puzzles rated 0 to 10 by their solving path, and
named by the rating's word; :mod:`.render`, ``flowgraph render``; :mod:`.scan`, ``flowgraph scan``: read
puzzles from screenshots, write them as neighbor-link text, solve them; :mod:`.solve`, ``flowgraph solve``:
solve puzzle files and print verified solutions; :mod:`.studio`, ``flowgraph studio``: a local web page to
draw, check, solve and export puzzles; :mod:`.validate`, ``flowgraph validate``; :mod:`.warm_up`, ``flowgraph
warm-up``.
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
