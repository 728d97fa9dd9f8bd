"""Whether a puzzle has exactly one solution, and where two solutions differ.

Puzzle authors need a unique solution; so do ``flowgraph validate
--unique`` and, later, the generator and the studio. The count uses the
SAT engine's sound model (no heuristic clauses): it finds a solution,
blocks exactly that set of links and solves again, so "unique" is a proof,
not a guess.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

from ..errors import SearchLimitError
from ..model import Limits, Node, Puzzle, Solution, position
from ..verify import verify

__all__ = ["Uniqueness", "count_solutions", "differing_cells"]


@dataclass(frozen=True)
class Uniqueness:
    """The answer of :func:`count_solutions`.

    Attributes
    ----------
    verdict : str
        ``"unique"``, ``"multiple"``, ``"none"`` or ``"limit"`` (the budget
        ran out before an answer).
    solutions : tuple of Solution
        The verified solutions found, at most ``limit`` of them.
    """

    verdict: str
    solutions: tuple[Solution, ...] = ()

    @property
    def count(self) -> int | None:
        """Solutions found (``limit`` means "that many or more"); None when the budget ran out."""
        return None if self.verdict == "limit" else len(self.solutions)


def count_solutions(puzzle: Puzzle, limit: int = 2, limits: Limits | None = None) -> Uniqueness:
    """Find up to ``limit`` distinct solutions and say whether the puzzle is unique.

    Parameters
    ----------
    puzzle : Puzzle
    limit : int
        Stop after this many solutions (2 is enough to tell unique from not).
    limits : Limits, optional
        ``time_limit_s`` and ``max_sat_calls`` for the whole count.

    Returns
    -------
    Uniqueness
        Every solution in it is verified.

    Raises
    ------
    VerificationError
        The SAT engine produced an answer that breaks the rules (a bug).

    Examples
    --------
    >>> from flowgraph import parse_text
    >>> count_solutions(parse_text("STANDARD\\nA-.-A\\n")).verdict
    'unique'
    """
    from ..engines.sat import solutions  # python-sat is loaded only when asked for

    limits = limits or Limits()
    if puzzle.rules == "numberlink" and limit >= 2:
        # Flow Free solutions are Numberlink solutions, and the model that fills every cell is far
        # easier: two of them settle "multiple" at once. Otherwise the Numberlink model decides.
        t0 = time.perf_counter()
        total = limits.time_limit_s
        try:
            filled, _ = solutions(puzzle.with_rules("flow"), limit,
                                  replace(limits, time_limit_s=None if total is None else total / 2))
        except SearchLimitError:
            filled = []
        if len(filled) >= 2:
            return Uniqueness("multiple", tuple(verify(replace(s, puzzle=puzzle)) for s in filled))
        if total is not None:
            limits = replace(limits, time_limit_s=max(0.01, total - (time.perf_counter() - t0)))
    try:
        found, _ = solutions(puzzle, limit, limits)
    except SearchLimitError:
        return Uniqueness("limit")
    for sol in found:
        verify(sol)
    return Uniqueness({0: "none", 1: "unique"}.get(len(found), "multiple"), tuple(found))


def differing_cells(first: Solution, second: Solution) -> set[tuple[int, int]]:
    """The ``(line, column)`` of every cell whose flow differs between two solutions of one puzzle.

    A bridge counts when one of its lanes is on different flows.
    """
    owner_a: dict[Node, str] = first.owner()
    owner_b: dict[Node, str] = second.owner()
    return {position(n) for n in first.puzzle.graph if owner_a.get(n) != owner_b.get(n)}
