"""Whether a puzzle has exactly one solution."""

from __future__ import annotations

from ..errors import SearchLimitError
from ..model import Limits, Puzzle, Solution
from ..verify import verify


def _uniqueness(puzzle: Puzzle, time_limit_s: float | None) -> tuple[list[Solution], str]:
    """Up to two verified solutions and a verdict: unique, multiple, none or limit."""
    from ..engines.sat import solutions  # python-sat is loaded only when asked for

    try:
        found, _ = solutions(puzzle, 2, Limits(time_limit_s=time_limit_s))
    except SearchLimitError:
        return [], "limit"
    for sol in found:
        verify(sol)
    return found, {0: "none", 1: "unique"}.get(len(found), "multiple")
