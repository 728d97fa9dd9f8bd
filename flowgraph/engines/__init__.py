"""Engines by name, and one call that takes a file to a verified outcome.

:func:`solve_file` is what the CLI and the benchmark share: read, parse,
solve with the chosen engine, verify, time it, and say how it ended.
"""

from __future__ import annotations

from typing import Callable

from . import search
from ..model import Limits, Puzzle, Solution
from ..verify import verify

__all__ = ["ENGINES", "solve_puzzle", "engine_names"]

Engine = Callable[[Puzzle, Limits], Solution]


def _search(puzzle: Puzzle, limits: Limits) -> Solution:
    return search.solve(puzzle, limits)


def _sat(puzzle: Puzzle, limits: Limits) -> Solution:
    from . import sat  # python-sat is imported only when asked for

    return sat.solve(puzzle, limits)


#: Engine name -> ``solve(puzzle, limits)``.
ENGINES: dict[str, Engine] = {"search": _search, "sat": _sat}


def engine_names() -> list[str]:
    """Names accepted by ``--engine``."""
    return list(ENGINES)


def solve_puzzle(puzzle: Puzzle, engine: str = "search", limits: Limits | None = None) -> Solution:
    """Solve a parsed puzzle with a named engine and verify the answer.

    Raises
    ------
    KeyError
        Unknown engine name.
    UnsolvableError, SearchLimitError
        From the engine.
    VerificationError
        The engine's answer breaks the rules (a bug in the engine).
    """
    return verify(ENGINES[engine](puzzle, limits or Limits()))


