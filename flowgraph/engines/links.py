"""The link engine: the exhaustive link search stopped at its first solution.

The links around one node are decided at a time in board order, with each fragment's other end
kept and degrees, cycles and flows that may not meet propagated
(:func:`flowgraph.engines.exhaustive.enumerate_solutions`; the scheme of semiexp's numlin_v2,
``src/board.rs`` and ``src/solver.rs``, written anew for any graph). It solves under both rule
sets: under Numberlink rules it looks only at canonical solutions (no short jump, corners
towards earlier nodes), and there is a solution exactly when there is a canonical one, so its
"no solution" is a proof there too.

Under Numberlink rules it answers more of the corpus's boards than SAT's Numberlink model, and
most of them faster (docs/benchmarks.md, "Engines under Numberlink rules"), so ``auto`` runs it
there when no solution fills every cell. Under Flow Free rules the heap search and SAT are far
stronger on large boards: it is there to cross-check them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from ..errors import SearchLimitError, UnsolvableError
from ..model import Limits, Puzzle, Solution
from . import ENGINE_RULES

__all__ = ["solve", "warm_up", "TRACES", "RULES"]

#: The link search keeps no states to show: :func:`solve` takes no ``trace``.
TRACES = False
#: Both: every cell filled, or cells left empty (canonical solutions only).
RULES = ENGINE_RULES["links"]


def warm_up() -> None:
    """Load (or build) the compiled link-search pass."""
    from .. import kernels

    kernels.warm_up()


def solve(puzzle: Puzzle, limits: Limits | None = None, *, trace: Callable[..., None] | None = None) -> Solution:
    """The first solution the exhaustive link search finds.

    Parameters
    ----------
    puzzle : Puzzle
        Any family, under either rule set.
    limits : Limits, optional
        ``time_limit_s``, and ``max_states``: decisions (sets of links tried around a node).
    trace : None
        Must be None (:data:`TRACES`).

    Returns
    -------
    Solution
        Unverified; engine ``"links"``, ``stats`` with ``seconds``, ``states`` (the board after
        propagation and each decision after it: a set of links tried around a node), ``order``
        (``"rows"`` or ``"columns"``), ``memo_hits``, ``memo_slots`` and ``heuristic`` (always
        false: every restriction is sound).

    Raises
    ------
    UnsolvableError
        The search space is exhausted without a solution.
    SearchLimitError
        The time limit (reason ``"time"``) or ``max_states`` (``"states"``) ran out first.
    ValueError
        A ``trace`` was given.
    """
    from .exhaustive import enumerate_solutions

    if trace is not None:
        raise ValueError("the links engine cannot trace: ask the search engine")
    limits = limits or Limits()
    try:
        found = enumerate_solutions(puzzle, 1, keep=1, canonical=not puzzle.rules.fills_every_cell, limits=limits)
    except SearchLimitError as err:
        raise SearchLimitError(err.reason, _stats(err.stats)) from None
    if not found.solutions:
        raise UnsolvableError("the link search exhausted every way to join the endpoints", _stats(found.stats))
    return replace(found.solutions[0], engine="links", stats=_stats(found.stats))


def _stats(stats: dict) -> dict:
    """The enumeration's stats in the engines' terms: the states are the board after propagation and
    each decision after it."""
    out = {k: v for k, v in stats.items() if k not in ("decisions", "count")}
    return {**out, "states": stats["decisions"] + 1, "heuristic": False}
