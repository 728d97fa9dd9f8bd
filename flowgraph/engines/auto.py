"""The ``auto`` engine, the default: SAT first, the heap search when SAT is stuck.

The order is measured (docs/benchmarks.md, "Design measurements: auto"):
once its compiled code is loaded the search answers the janko and 40x20
sets faster than SAT, but loading that code costs a noticeable part of a
second per process, SAT is faster on the 50x50 boards, and it answers
more of the boards with two labels swapped (``bench/swapped_labels.py``).
So SAT goes first.

Callers that load the search's compiled passes anyway (a batch of at
least :data:`BATCH_TASKS` puzzles, ``bench``, the studio) say so with
``Limits(search_first=True)``: loading costs them nothing more, and on
boards of up to :data:`SEARCH_FIRST_CELLS` cells the search goes first, for
at most :data:`SEARCH_FIRST_STATES` states (faster than SAT on janko's boards:
docs/benchmarks.md); SAT follows if it stops. The choice is the
caller's, never what ran earlier in the process (only a search that is
not loaded, so would compile first, is passed over): what is loaded comes in
as a value, ``runtime`` (:class:`flowgraph.kernels.Runtime`), read once a call
when the caller gives none.

The search still runs when SAT uses up its share of the time
(:data:`SAT_SHARE` of the budget, or :data:`SAT_SECONDS` when there is no
budget): a different method, which may finish where SAT is lost. Either
engine's "no solution" is final: both are sound.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from ..budgets import FLOW_FIRST_SECONDS, FLOW_FIRST_SHARE, LINKS_SECONDS, LINKS_SHARE, SAT_SECONDS, SAT_SHARE
from ..errors import SearchLimitError, UnsolvableError
from ..model import Limits, Puzzle, Rules, Solution
from . import ENGINE_RULES

if TYPE_CHECKING:
    from ..kernels import Runtime

__all__ = ["solve", "warm_up", "kernels_now", "SAT_SHARE", "SAT_SECONDS", "SEARCH_FIRST_CELLS", "SEARCH_FIRST_STATES",
           "BATCH_TASKS", "batch_loads_search"]

#: With the search loaded, boards of at most this many cells try it first (the 50x50 boards go to SAT first).
SEARCH_FIRST_CELLS = 1_000
#: ... for at most this many states (then SAT): every janko and 40x20 board the search solves takes fewer.
SEARCH_FIRST_STATES = 2_000
#: A batch of at least this many puzzles loads the search as well as SAT (``warm_up(batch=True)``).
BATCH_TASKS = 20


def batch_loads_search(tasks: int | None) -> bool:
    """Whether a batch of ``tasks`` puzzles under ``auto`` loads the search as well as SAT and tries it first on
    small boards (``Limits(search_first=True)``): the one place that decides it, for the executors' warm-up and
    the batch's limits alike."""
    return tasks is not None and tasks >= BATCH_TASKS


def warm_up(batch: bool = False) -> None:
    """Load the SAT engine, and for a ``batch`` the search too if it is compiled on this machine.

    A single puzzle does not load it (SAT answers it as fast, and loading both engines costs
    more, a little with the passes built ahead of time, much more just in time: docs/benchmarks.md);
    a batch does once and then tries the search first on small boards. The search is never
    compiled here: that is ``flowgraph warm-up``'s work (:data:`flowgraph.kernels.cache.BUILD_NOTE`, said on the
    terminal).
    """
    from . import sat

    sat.warm_up()
    if batch:
        from ..kernels.cache import compiled

        if compiled():
            from . import search

            search.warm_up()


def kernels_now() -> Runtime:
    """Tell what the search's kernels can do now.

    The kernels of this process as they stand (:func:`flowgraph.kernels.runtime`): what :func:`solve` decides on
    when its caller passes no ``runtime``. A process that never imported them has nothing loaded; whether they
    are built ahead of time is looked up only then."""
    from ..kernels import Runtime

    kernels = sys.modules.get("flowgraph.kernels")
    if kernels is not None:
        return kernels.runtime()
    from ..kernels.cache import built_ahead

    return Runtime(built_ahead=built_ahead())


#: Which engine answers is not known in advance: :func:`solve` takes no ``trace``.
TRACES = False
#: Under rules the search does not take (Numberlink's) only SAT runs.
RULES = ENGINE_RULES["auto"]


def solve(puzzle: Puzzle, limits: Limits | None = None, *, trace: Callable[..., None] | None = None,
          runtime: Runtime | None = None) -> Solution:
    """Solve with SAT, then, if SAT's share of the time runs out, with the search.

    Parameters
    ----------
    puzzle : Puzzle
    limits : Limits, optional
        ``time_limit_s`` is shared: SAT gets :data:`SAT_SHARE` of it (or
        :data:`SAT_SECONDS` without a budget), the search what is left.
        ``max_states``, ``max_sat_calls`` and ``memory_bytes`` apply to
        each engine as they are.
    runtime : flowgraph.kernels.Runtime, optional
        The compiled kernels as the caller loaded them (default: :func:`kernels_now`, read once here):
        with ``warm`` and ``limits.search_first``, small boards try the search first; under Numberlink
        rules the link search runs only when ``compiled_at_once``. The only state the choice reads.

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
    kernels = runtime or kernels_now()
    if not puzzle.rules.fills_every_cell:
        return _numberlink(puzzle, limits, kernels)
    t0 = time.perf_counter()
    total = limits.time_limit_s
    first: list[str] = []
    if limits.search_first and puzzle.cells <= SEARCH_FIRST_CELLS and kernels.warm:
        from . import search

        states = min(limits.max_states or SEARCH_FIRST_STATES, SEARCH_FIRST_STATES)
        try:
            return _tagged(search.solve(puzzle, replace(limits, max_states=states)), ["search"], t0)
        except UnsolvableError as err:  # sound: final
            err.stats.update(tried=["search"])
            raise
        except SearchLimitError:
            first = ["search"]
            if total is not None:
                total = max(0.0, total - (time.perf_counter() - t0))
    share: float | None = SAT_SECONDS if total is None else SAT_SHARE * total
    try:
        return _tagged(sat.solve(puzzle, replace(limits, time_limit_s=share)), [*first, "sat"], t0)
    except UnsolvableError as err:
        err.stats.update(tried=[*first, "sat"])
        raise
    except SearchLimitError as err:
        err.stats.update(tried=[*first, "sat"])
        left = None if total is None else total - (time.perf_counter() - t0)
        if err.reason != "time" or (left is not None and left <= 0):
            raise
    from . import search

    try:
        solution = search.solve(puzzle, replace(limits, time_limit_s=left))
    except (UnsolvableError, SearchLimitError) as err:
        err.stats.update(tried=[*first, "sat", "search"], seconds=round(time.perf_counter() - t0, 6))
        raise
    return _tagged(solution, [*first, "sat", "search"], t0)


def _numberlink(puzzle: Puzzle, limits: Limits, kernels: Runtime) -> Solution:
    """Numberlink rules: a Flow Free solution first (it is a Numberlink one too, and filling every cell is
    the far easier model on janko's 25x25 boards); then, when the search's
    compiled passes are at hand, the link search for :data:`LINKS_SHARE` of the time left (on the
    corpus's Numberlink boards it answers every board SAT's Numberlink model answers and more, most
    faster); then SAT's Numberlink model, a different method, with the rest. Each
    engine's "no solution" is a proof (docs/benchmarks.md, "Engines under Numberlink rules")."""
    from . import sat

    t0 = time.perf_counter()
    total = limits.time_limit_s

    def left() -> float | None:
        return None if total is None else max(0.0, total - (time.perf_counter() - t0))

    first = FLOW_FIRST_SECONDS if total is None else FLOW_FIRST_SHARE * total
    try:
        filled = solve(puzzle.with_rules(Rules.FLOW), replace(limits, time_limit_s=first), runtime=kernels)
        return _tagged(replace(filled, puzzle=puzzle), [*filled.stats.get("tried", []), "(flow rules)"], t0)
    except (UnsolvableError, SearchLimitError):
        pass  # no solution fills every cell (or none found soon): the Numberlink models decide
    tried = []
    if kernels.compiled_at_once:  # else the link search would compile just in time: seconds on a first run
        from . import links

        rest = left()
        tried.append("links")
        try:
            share = LINKS_SECONDS if rest is None else LINKS_SHARE * rest
            return _tagged(links.solve(puzzle, replace(limits, time_limit_s=share)), tried, t0)
        except UnsolvableError as err:
            err.stats.update(tried=tried, seconds=round(time.perf_counter() - t0, 6))
            raise
        except SearchLimitError:
            pass
    tried.append("sat")
    try:
        return _tagged(sat.solve(puzzle, replace(limits, time_limit_s=left())), tried, t0)
    except (UnsolvableError, SearchLimitError) as err:
        err.stats.update(tried=tried, seconds=round(time.perf_counter() - t0, 6))
        raise


def _tagged(solution: Solution, tried: list[str], t0: float) -> Solution:
    """The solution with ``tried`` and the time over every engine in its stats."""
    return replace(solution, stats={**solution.stats, "tried": tried, "seconds": round(time.perf_counter() - t0, 6)})
