"""Writing the formats that carry a solution: each puzzle solved first where its entry has none.

A level pack carries each level's pipes (:attr:`flowgraph.io.formats.Format.needs_solution`); io writes
what it is given and never solves, so ``convert``, ``generate`` and the studio's export come here.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import replace
from pathlib import Path

from ..budgets import PACK_SOLVE_SECONDS
from ..engines import solve_puzzle
from ..errors import ConversionError, SearchLimitError, UnsolvableError
from ..io.formats import Entry, get_format, write, write_many
from ..model import Limits, Puzzle

__all__ = ["with_solutions", "write_solved", "write_many_solved"]


def with_solutions(entries: Iterable[Entry], limits: Limits | None = None) -> Iterator[Entry]:
    """Each entry, with a verified solution found by ``auto`` where it has none, one at a time (a writer takes
    them in order, so the first puzzle that fails is the one reported).

    Parameters
    ----------
    limits : Limits, optional
        Each puzzle's budget (default :data:`flowgraph.budgets.PACK_SOLVE_SECONDS`).

    Raises
    ------
    ConversionError
        A puzzle has no solution, or none was found within the budget. A puzzle under Numberlink rules is
        passed on unsolved: the writer says why it cannot be written.
    """
    limits = limits or Limits(time_limit_s=PACK_SOLVE_SECONDS)
    for entry in entries:
        if entry.solution is None and entry.puzzle.rules.fills_every_cell:
            try:
                entry = replace(entry, solution=solve_puzzle(entry.puzzle, "auto", limits))
            except UnsolvableError:
                raise ConversionError("a level carries its solution's pipes: this puzzle has no solution") from None
            except SearchLimitError:
                within = f"in {limits.time_limit_s:g} s" if limits.time_limit_s is not None else "within the budget"
                raise ConversionError(f"no solution found {within}: a level carries its pipes") from None
        yield entry


def write_many_solved(entries: Iterable[Entry], fmt: str, limits: Limits | None = None) -> str:
    """Write puzzles in a format, solving those whose format needs a solution.

    :func:`flowgraph.io.formats.write_many`, each puzzle solved first where ``fmt`` needs a solution.

    Raises
    ------
    ValueError, ConversionError
        As :func:`~flowgraph.io.formats.write_many` and :func:`with_solutions`.
    """
    needs = get_format(fmt).needs_solution
    return write_many(with_solutions(entries, limits) if needs else entries, fmt)


def write_solved(puzzle: Puzzle, fmt: str, limits: Limits | None = None) -> str:
    """Write a puzzle in a format, solving it first if the format needs a solution.

    :func:`flowgraph.io.formats.write`, the puzzle solved first where ``fmt`` needs a solution.

    Raises
    ------
    ValueError, ConversionError
        As :func:`~flowgraph.io.formats.write` and :func:`with_solutions`.
    """
    if not get_format(fmt).needs_solution:
        return write(puzzle, fmt)
    entry = next(with_solutions([Entry(Path(puzzle.path or "puzzle").stem, puzzle)], limits))
    return write(puzzle, fmt, entry.solution)
