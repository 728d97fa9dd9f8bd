"""flowgraph: a Flow Free / Numberlink solver for any board.

A puzzle file is parsed by a Lark grammar into a networkx cell graph
(:func:`parse_file`); an engine finds one path per flow (:func:`solve`);
every answer is checked by :func:`verify` before it is shown.

The package is layered (each layer depends on the core, never the other
way round): the core (:mod:`.model`, :mod:`.errors`, :mod:`.verification`),
:mod:`.io` (files and problems), :mod:`.engines` (the search and SAT),
:mod:`.authoring`, :mod:`.render`, :mod:`.batch` and :mod:`.cli`. Importing
this package loads none of numba, rich or python-sat.

The other modules: :mod:`.api`, the library's verbs, named as the command line names them; :mod:`.budgets`,
time policy: how long each part of flowgraph waits by default and how a budget is shared, in one place;
:mod:`.caches`, where flowgraph keeps its caches, and the one rule for loading anything from them;
:mod:`.kernels`, the compiled kernels, one package used by three callers as equals; :mod:`.parts`, the parts
(connected components) of a graph given as numbered links, on whole arrays; :mod:`.scan`, screenshots to
puzzles: ``scan(image) -> Puzzle``; :mod:`.studio`, the studio: a local web page to draw, check, solve and
export puzzles.

>>> from flowgraph import parse_text, solve
>>> puzzle = parse_text("STANDARD\\nA-.-A\\n| | |\\nB-.-B\\n")
>>> solve(puzzle).paths["A"]
((2, 1), (2, 3), (2, 5))
"""

from __future__ import annotations

__version__ = "0.1.0"

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .api import Rating, count, explain, generate, rate, read, write
    from .batch.outcome import Outcome, solve_file
    from .errors import (
        ConversionError,
        FlowgraphError,
        PuzzleError,
        RulesError,
        ScanError,
        SearchLimitError,
        UnsolvableError,
        VerificationError,
    )
    from .io.files import parse_file
    from .io.neighbor_link import analyse, find_problems, parse_text
    from .io.problems import Problem
    from .model import Flow, Limits, Puzzle, Solution

from .model import use_drawer as _use_drawer  # noqa: E402
from .verification import check, verify  # noqa: E402  # (the verifier is light: the core)


def _draw(board: Puzzle | Solution, fmt: str = "svg", **options: Any) -> str | bytes:
    """:func:`flowgraph.render.draw`, the layer loaded when a model first draws itself (``Puzzle.render``)."""
    from .render.draw import draw

    return draw(board, fmt, **options)


_use_drawer(_draw)

# Loaded on first use (PEP 562): ``import flowgraph`` costs a few milliseconds, so the console script can
# catch Ctrl-C while networkx and lark load (flowgraph.cli.run), and ``--version`` needs neither.
_LAZY = {
    **dict.fromkeys(("read", "write", "count", "generate", "explain", "rate", "Rating"), ".api"),
    "Outcome": ".batch.outcome", "solve_file": ".batch.outcome",
    **dict.fromkeys(("ConversionError", "FlowgraphError", "PuzzleError", "RulesError", "ScanError", "SearchLimitError",
                     "UnsolvableError", "VerificationError"), ".errors"),
    "parse_file": ".io.files", "analyse": ".io.neighbor_link", "find_problems": ".io.neighbor_link",
    "parse_text": ".io.neighbor_link", "Problem": ".io.problems", "Flow": ".model", "Limits": ".model",
    "Puzzle": ".model", "Solution": ".model",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name], __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


def solve(puzzle: Puzzle, engine: str = "auto", limits: Limits | None = None) -> Solution:
    """Solve a puzzle and return a verified solution.

    Parameters
    ----------
    puzzle : Puzzle
    engine : {"auto", "search", "sat"}
        A name of :data:`flowgraph.engines.ENGINES`; ``auto`` (SAT first,
        the heap search if SAT is stuck) by default.
    limits : Limits, optional
        Node, time and memory budgets (default: a 1 GiB search frontier).

    Returns
    -------
    Solution

    Raises
    ------
    UnsolvableError
        No solution exists (search space exhausted).
    SearchLimitError
        A budget ran out.
    VerificationError
        The engine's answer broke the rules (a bug).
    RulesError
        The engine asked for does not solve under the puzzle's rules (the search
        takes Flow Free's only; ``auto`` and ``sat`` take both). A ValueError.
    ValueError
        Unknown engine name (the message lists the valid ones).
    """
    from .engines import solve_puzzle

    return solve_puzzle(puzzle, engine, limits)


__all__ = [
    "__version__", "parse_file", "parse_text", "read", "write", "analyse", "find_problems", "Problem",
    "solve", "solve_file", "verify", "check", "count", "generate", "explain", "rate", "Rating", "Limits", "Outcome",
    "Puzzle", "Solution", "Flow", "FlowgraphError", "PuzzleError", "UnsolvableError",
    "SearchLimitError", "VerificationError", "RulesError", "ConversionError", "ScanError",
]
