"""``flowgraph warm-up``: load every engine now, building the search once for this machine and version.

The search's passes are built ahead of time into one module by numba
(:data:`flowgraph.kernels.cache.BUILD_NOTE` says how long) and cached (``flowgraph/kernels/aot.py``, ``cache.py``); a first
search run does it too, and this command does it before, e.g. in a Dockerfile
after ``pip install``, so that no user waits for it. Where the build fails (no
C compiler) it says why and compiles the passes just in time instead.
"""

from __future__ import annotations

import argparse
import sys
import time

from ..engines import engine_names
from ..kernels.cache import BUILD_NOTE
from .common import EXIT, add_command, console, warm_up

__all__ = ["add_parser", "run"]


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Add ``flowgraph warm-up`` and its options to the command line."""
    add_command(
        sub, "warm-up", run,
        description="Load every engine (auto, search, sat, links) now. The search's compiled passes are built on its "
        f"first run on a machine, or after an upgrade, and cached ({BUILD_NOTE.split('(', 1)[1]}. A C compiler lets "
        "them be built ahead of time, into one module that later runs load without numba; run this once, e.g. in a "
        "Dockerfile after pip install, so that no solve waits for it. Until then, solve and the studio answer with "
        "SAT.",
        epilog="examples:\n  flowgraph warm-up\n  RUN pip install flowgraph-solver && flowgraph warm-up   "
        "# in a Dockerfile\n\nexit status: 0 loaded, 5 an engine failed to load",
    )


def run(args: argparse.Namespace) -> int:
    """Run ``flowgraph warm-up`` on its parsed options; returns the exit status."""
    err = console("auto", sys.stderr)
    for name in engine_names():
        t0 = time.perf_counter()
        warm_up(err, name, build=True)
        how = ""
        if name == "search":
            from .. import kernels

            how = {"ahead of time": " (its passes built ahead of time)", "just in time": " (its passes compiled "
                   "just in time: numba loads in each process)", "plain Python": " (its passes as plain Python: "
                   "NUMBA_DISABLE_JIT)"}.get(kernels.runtime().kind or "", "")
        err.print(f"{name}: ready in {time.perf_counter() - t0:.1f} s{how}", markup=False)
    return EXIT["solved"]
