"""The ``auto`` engine, the default: SAT first, the heap search when SAT is stuck.

The order is measured (docs/benchmarks.md, "Design measurements: auto"):
once its compiled code is loaded the search answers the janko and 40x20
sets faster than SAT, but loading that code costs a noticeable part of a
second per process, SAT is faster on the 50x50 boards, and it answers
more of the boards with two labels swapped (``bench/swapped_labels.py``).
So SAT goes first.

The search still runs when SAT uses up its share of the time
(:data:`SAT_SHARE` of the budget, or :data:`SAT_SECONDS` when there is no
budget): a different method, which may finish where SAT is lost. Either
engine's "no solution" is final: both are sound.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace

from ..errors import SearchLimitError, UnsolvableError
from ..model import Limits, Puzzle, Solution
from . import ENGINE_RULES

__all__ = ["solve", "warm_up", "SAT_SHARE", "SAT_SECONDS"]

#: Share of a time budget that SAT gets before the search takes over.
SAT_SHARE = 0.6
#: SAT's time before the search takes over when no time budget is set.
SAT_SECONDS = 30.0
#: Under Numberlink rules: the time for a Flow Free solution first (share of a budget, or seconds without one).
FLOW_FIRST_SHARE = 0.5
FLOW_FIRST_SECONDS = 30.0


def warm_up() -> None:
    """Load the SAT engine; the search is loaded only if a puzzle needs it."""
    from . import sat

    sat.warm_up()


#: Which engine answers is not known in advance: :func:`solve` takes no ``trace``.
TRACES = False
#: Under rules the search does not take (Numberlink's) only SAT runs.
RULES = ENGINE_RULES["auto"]


def solve(puzzle: Puzzle, limits: Limits | None = None, *, trace: Callable[..., None] | None = None) -> Solution:
    """Solve with SAT, then, if SAT's share of the time runs out, with the search.

    Parameters
    ----------
    puzzle : Puzzle
    limits : Limits, optional
        ``time_limit_s`` is shared: SAT gets :data:`SAT_SHARE` of it (or
        :data:`SAT_SECONDS` without a budget), the search what is left.
        ``max_states``, ``max_sat_calls`` and ``memory_bytes`` apply to
        each engine as they are.

    Returns
    -------
    Solution
        Unverified; ``engine`` names the engine that answered, ``stats``
        are that engine's plus ``tried`` (engine names in order) and
        ``seconds`` over both.

    Raises
    ------
    UnsolvableError
        An engine proved that there is no solution.
    SearchLimitError
        Both engines ran out of budget; ``stats`` are the search's.
    ValueError
        A ``trace`` was given.
    """
    from . import sat

    if trace is not None:
        raise ValueError("the auto engine cannot trace: ask the search engine")
    limits = limits or Limits()
    if puzzle.rules == "numberlink":
        return _numberlink(puzzle, limits)
    t0 = time.perf_counter()
    total = limits.time_limit_s
    share: float | None = SAT_SECONDS if total is None else SAT_SHARE * total
    try:
        return _tagged(sat.solve(puzzle, replace(limits, time_limit_s=share)), ["sat"], t0)
    except UnsolvableError as err:
        err.stats.update(tried=["sat"])
        raise
    except SearchLimitError as err:
        err.stats.update(tried=["sat"])
        left = None if total is None else total - (time.perf_counter() - t0)
        if err.reason != "time" or (left is not None and left <= 0):
            raise
    from . import search

    try:
        solution = search.solve(puzzle, replace(limits, time_limit_s=left))
    except (UnsolvableError, SearchLimitError) as err:
        err.stats.update(tried=["sat", "search"], seconds=round(time.perf_counter() - t0, 6))
        raise
    return _tagged(solution, ["sat", "search"], t0)


def _numberlink(puzzle: Puzzle, limits: Limits) -> Solution:
    """Numberlink rules: a Flow Free solution first (it is a Numberlink one too, and filling every cell is
    the far easier model: janko's 25x25 boards in 0.1 s against over 30 s), then SAT's Numberlink model,
    whose "no solution" is the proof."""
    from . import sat

    t0 = time.perf_counter()
    total = limits.time_limit_s
    first = FLOW_FIRST_SECONDS if total is None else FLOW_FIRST_SHARE * total
    try:
        filled = solve(puzzle.with_rules("flow"), replace(limits, time_limit_s=first))
        return _tagged(replace(filled, puzzle=puzzle), [*filled.stats.get("tried", []), "(flow rules)"], t0)
    except (UnsolvableError, SearchLimitError):
        pass  # no solution fills every cell (or none found soon): the Numberlink model decides
    left = None if total is None else max(0.0, total - (time.perf_counter() - t0))
    try:
        return _tagged(sat.solve(puzzle, replace(limits, time_limit_s=left)), ["sat"], t0)
    except (UnsolvableError, SearchLimitError) as err:
        err.stats.update(tried=["sat"], seconds=round(time.perf_counter() - t0, 6))
        raise


def _tagged(solution: Solution, tried: list[str], t0: float) -> Solution:
    """The solution with ``tried`` and the time over every engine in its stats."""
    return replace(solution, stats={**solution.stats, "tried": tried, "seconds": round(time.perf_counter() - t0, 6)})
