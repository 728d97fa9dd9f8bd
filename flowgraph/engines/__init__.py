"""Engines by name: one registry, one protocol.

An engine is a module with two functions and two flags (:class:`Engine`):
``solve(puzzle, limits, *, trace=None) -> Solution``, whose answer the
caller verifies, ``warm_up()``, which loads what the engine needs before
any timing starts, and ``TRACES``, whether ``solve`` can call ``trace``
with the partial paths of every state it expands (the search can, for
pictures of the search; SAT and ``auto`` cannot and raise ``ValueError``
when asked), and ``RULES``, the rule sets it solves under (the search: Flow
Free's only; SAT, ``auto`` and the link search: Flow Free's and Numberlink's). The
registry maps a name to the module; a module is imported only
when its engine is first asked for, so ``import flowgraph`` loads neither
numba (the search's compiled passes) nor python-sat.

>>> engine_names()
['auto', 'search', 'sat', 'links']
>>> get_engine("dfs")
Traceback (most recent call last):
...
ValueError: unknown engine 'dfs': expected one of auto, search, sat, links
"""

from __future__ import annotations

import gc
import importlib
import threading
import weakref
from collections.abc import Callable
from typing import Protocol

from ..errors import RulesError
from ..model import Limits, Node, Puzzle, Rules, Solution
from ..verification import verify

__all__ = ["ENGINES", "ENGINE_RULES", "Engine", "Trace", "engine_names", "get_engine", "solve_puzzle",
           "freeze_loaded", "FORK_SAFE_THREADS"]

#: Threads of flowgraph's own that a forked child of the link search never touches (a fork copies other threads'
#: locks as they stand): each is added here by the code that starts it (SAT's watchdog), so the check holds the
#: threads themselves, not their names.
FORK_SAFE_THREADS: weakref.WeakSet[threading.Thread] = weakref.WeakSet()

#: Called with each expanded state's partial paths: per label, the pieces grown from each endpoint.
Trace = Callable[[dict[str, list[list[Node]]]], None]

#: Engine name -> the rule sets it solves under (known without importing the engine). The search's
#: prunings (dead ends, stranded regions, parity) assume that every cell is filled.
ENGINE_RULES: dict[str, tuple[Rules, ...]] = {"auto": tuple(Rules), "search": (Rules.FLOW,), "sat": tuple(Rules),
                                              "links": tuple(Rules)}

#: Engine name -> the module that implements it (imported on first use).
ENGINES: dict[str, str] = {
    "auto": "flowgraph.engines.auto",  # SAT first, the search when SAT is stuck (the default)
    "search": "flowgraph.engines.search",  # the heap-ordered search, the project's own
    "sat": "flowgraph.engines.sat",  # CNF for python-sat
    "links": "flowgraph.engines.links",  # the exhaustive link search's first solution (numlin_v2's scheme)
}


class Engine(Protocol):
    """What every engine module provides."""

    #: Whether :meth:`solve` can report the states it expands to ``trace``.
    TRACES: bool
    #: The rule sets (:data:`flowgraph.model.RULES`) it solves under.
    RULES: tuple[Rules, ...]

    def solve(self, puzzle: Puzzle, limits: Limits | None = None, *, trace: Trace | None = None) -> Solution:
        """An unverified solution; raises UnsolvableError or SearchLimitError.

        ``trace`` given to an engine whose ``TRACES`` is false raises ValueError.
        """

    def warm_up(self) -> None:
        """Load (or compile) what the first solve would otherwise pay for."""


def engine_names() -> list[str]:
    """Names accepted by ``--engine`` and :func:`get_engine`, in registry order."""
    return list(ENGINES)


def freeze_loaded() -> None:
    """Keep the garbage collector off everything loaded so far (call it after ``warm_up``).

    ``gc.freeze()`` moves every object alive now (the engines' modules, numba's compiled
    passes, python-sat) to CPython's permanent generation, so the collections that a batch's
    puzzles trigger no longer walk them. Those objects live as long as the process anyway.
    Measured with the search loaded (docs/benchmarks.md, "Issue 27"): the collector was a
    quarter of a janko batch's time.
    """
    gc.freeze()


def get_engine(name: str) -> Engine:
    """The engine module registered under ``name``.

    Raises
    ------
    ValueError
        No engine has this name; the message lists the valid names.
    """
    try:
        module = ENGINES[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown engine {name!r}: expected one of {', '.join(ENGINES)}") from None
    return importlib.import_module(module)  # a module: checked against Engine by the shared engine tests


def solve_puzzle(puzzle: Puzzle, engine: str = "auto", limits: Limits | None = None) -> Solution:
    """Solve a parsed puzzle with a named engine and verify the answer.

    Parameters
    ----------
    puzzle : Puzzle
    engine : str
        A name of :data:`ENGINES`.
    limits : Limits, optional
        Budgets (default: the 1 GiB frontier only).

    Returns
    -------
    Solution
        Verified against the rules.

    Raises
    ------
    ValueError
        Unknown engine name.
    RulesError
        The engine does not solve under ``puzzle.rules``.
    UnsolvableError, SearchLimitError
        From the engine.
    VerificationError
        The engine's answer breaks the rules (a bug in the engine).
    """
    module = get_engine(engine)
    if puzzle.rules not in module.RULES:
        others = [name for name, rules in ENGINE_RULES.items() if puzzle.rules in rules]
        raise RulesError(f"the {engine} engine solves under {' and '.join(module.RULES)} rules only, not "
                         f"{puzzle.rules}: use --engine {', '.join(others[:-1])} or {others[-1]}")
    return verify(module.solve(puzzle, limits or Limits()))
