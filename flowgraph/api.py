"""The library's verbs, named as the command line names them: read, write, count, generate, explain, rate.

Each is a thin front on the module that does the work (:mod:`flowgraph.io.formats`,
:mod:`flowgraph.authoring.uniqueness`, :mod:`flowgraph.authoring.generate`,
:mod:`flowgraph.authoring.explain`); those deep paths keep working. ``import flowgraph`` exports them
(loaded on first use, as every name of the package).

>>> import flowgraph
>>> puzzle = flowgraph.read("STANDARD\\nA-.-A\\n| | |\\nB-.-B\\n")
>>> flowgraph.count(puzzle).verdict
'unique'
>>> print(flowgraph.write(puzzle, "plain-grid"), end="")
STANDARD
A.A
B.B
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .model import DEFAULT_MEMORY_BYTES

if TYPE_CHECKING:
    from .authoring.explain import Explanation
    from .authoring.generate import Generated
    from .authoring.uniqueness import Uniqueness
    from .model import Limits, Puzzle, Solution

__all__ = ["read", "write", "count", "generate", "explain", "rate", "Rating"]


def read(text: str, fmt: str | None = None, *, path: str | None = None, family: str | None = None,
         memory_bytes: int | None = DEFAULT_MEMORY_BYTES) -> Puzzle:
    """The puzzle a text holds, in any format ``flowgraph convert`` reads.

    Parameters
    ----------
    text : str
        The file's text (read a file with :func:`flowgraph.parse_file`, or ``Path(...).read_text()``).
    fmt : str, optional
        A name of :data:`flowgraph.io.formats.FORMATS` (``neighbor-link``, ``plain-grid``,
        ``numberlink``, ``json-graph``, ``level-pack``, ``puzzlink``); by default the text tells
        (:func:`flowgraph.io.formats.guess_format`).
    path : str, optional
        The file's name, for the puzzle and its error messages.
    family : str, optional
        For a plain grid without its header word: ``standard``, ``hex``, ``warps`` or ``bridges``.
    memory_bytes : int or None
        The memory reading may take (bytes; 1 GiB by default; None: no bound), as ``--memory-limit``: a text
        over :data:`flowgraph.io.files.MAX_BYTES` bytes, or whose boards would take more, is refused before
        it is parsed (as a file is).

    Returns
    -------
    Puzzle
        The only puzzle of the text (a level pack or a file of URLs of one line).

    Raises
    ------
    PuzzleError
        The text has an error; the message gives its line and column (the first error).
    ValueError
        Unknown format or family; or the text holds more than one puzzle (a level pack: read each
        with :func:`flowgraph.io.formats.read_entries`).

    The text is refused as a file is (a :class:`PuzzleError` at 1:1) over
    :data:`flowgraph.io.files.MAX_BYTES` bytes, or when its boards would take more than ``memory_bytes``.

    Examples
    --------
    >>> read("3 1\\n1 0 1\\n").format
    'numberlink'
    """
    from .io.files import MAX_BYTES, bounded_text
    from .io.formats import read_entries

    # a file's bounds, as flowgraph.io.files.load applies them (a character is a byte or more: a longer text is
    # refused before it is encoded whole)
    checked, problems = bounded_text(text[: MAX_BYTES + 1].encode("utf-8", "surrogatepass"), memory_bytes)
    entries: list = []
    if checked is not None:
        _, entries, problems = read_entries(checked, path, fmt, family)
    errors = [p for p in problems if p.is_error]
    if errors:
        raise errors[0].to_error(path)
    if len(entries) != 1:
        raise ValueError(f"the text holds {len(entries)} puzzles: read them with flowgraph.io.formats.read_entries")
    return entries[0].puzzle


def write(puzzle: Puzzle, fmt: str = "neighbor-link", solution: Solution | None = None) -> str:
    """The puzzle as text in a format (``flowgraph convert --to FMT``).

    Parameters
    ----------
    puzzle : Puzzle
    fmt : str
        A writable name of :data:`flowgraph.io.formats.FORMATS` (default ``neighbor-link``).
    solution : Solution, optional
        For a format that carries one (a level pack's pipes); solved for when missing.

    Returns
    -------
    str

    Raises
    ------
    ValueError
        Unknown format, or one that is read only.
    ConversionError
        The format cannot express this board (a hexagonal board as numberlink, say); the message
        says what.
    UnsolvableError
        The format needs a solution and the puzzle has none.
    """
    from .io.formats import get_format
    from .io.formats import write as write_format

    if solution is None and get_format(fmt).needs_solution:
        from . import solve

        solution = solve(puzzle)
    return write_format(puzzle, fmt, solution)


def count(puzzle: Puzzle, limit: int = 2, limits: Limits | None = None) -> Uniqueness:
    """Up to ``limit`` solutions, and whether the puzzle has exactly one (``flowgraph validate --unique``).

    Parameters
    ----------
    puzzle : Puzzle
        Under its rules (:meth:`Puzzle.with_rules`): Flow Free's, or Numberlink's.
    limit : int
        Stop after this many solutions (2 tells unique from not).
    limits : Limits, optional
        ``time_limit_s`` and ``max_sat_calls`` for the whole count.

    Returns
    -------
    Uniqueness
        ``verdict`` (``unique``, ``multiple``, ``none``, ``limit``) and the verified
        ``solutions`` found.

    Raises
    ------
    VerificationError
        An engine produced an answer that breaks the rules (a bug).

    Examples
    --------
    >>> from flowgraph import parse_text
    >>> found = count(parse_text("STANDARD\\nA-.-.\\n| | |\\n.-.-.\\n| | |\\n.-.-A\\n"))
    >>> found.verdict, found.count
    ('multiple', 2)
    """
    from .authoring.uniqueness import count_solutions

    return count_solutions(puzzle, limit, limits)


def generate(family: str = "standard", width: int | None = None, height: int | None = None, *,
             difficulty: str | None = None, seed: int | str = 0, flows: tuple[int, int] | None = None,
             bridges: int | None = None, rules: str = "flow", time_limit_s: float | None = None) -> Generated:
    """A new puzzle with exactly one solution (``flowgraph generate``).

    Parameters
    ----------
    family : {"standard", "hex", "warps", "bridges"}
    width, height : int
        The board's size in cells.
    difficulty : {"easy", "medium", "hard", "extreme"}, optional
        Generate until :func:`rate` gives this tier (the seeds ``seed``, ``seed.1``, ...).
    seed : int or str
        The same seed gives the same puzzle.
    flows : (int, int), optional
        The fewest and most flows (default: from the game's levels of that size, or the difficulty).
    bridges : int, optional
        Bridges on random cells (default: 1 for the bridges family, else 0).
    rules : {"flow", "numberlink"}
        Unique under Flow Free's rules (every cell filled) or Numberlink's.
    time_limit_s : float, optional
        Give up after this long.

    Returns
    -------
    Generated
        ``puzzle``, its one ``solution`` (verified) and ``figures``.

    Raises
    ------
    ValueError
        Unknown family, difficulty or rules; a size the family cannot take.
    GenerationError
        No puzzle was made in the time or tries given (a :class:`FlowgraphError`;
        :mod:`flowgraph.authoring.generate`).

    Examples
    --------
    >>> made = generate("standard", 5, 5, seed=1)
    >>> count(made.puzzle).verdict
    'unique'
    """
    from .authoring.generate import bridged_board, generate_rated
    from .authoring.generate import generate as generate_on
    from .model import Family

    placed = bridges if bridges is not None else int(Family.of(family).bridged)

    def board(seed: str | int):
        return bridged_board(family, width, height, bridges=placed, seed=seed)

    if difficulty is not None:
        made, _, _ = generate_rated(board, difficulty, seed=seed, time_limit_s=time_limit_s, flows=flows,
                                    rules=rules)
        return made
    return generate_on(board(seed), seed=seed, flows=flows, rules=rules, time_limit_s=time_limit_s)


def explain(puzzle: Puzzle, limits: Limits | None = None) -> Explanation:
    """The puzzle's solving path, a step per link decided, easiest technique first (``flowgraph explain``).

    Parameters
    ----------
    puzzle : Puzzle
        Any family, under its rules.
    limits : Limits, optional
        The budget for the whole explanation (``time_limit_s``).

    Returns
    -------
    Explanation
        ``steps`` (each with its technique, tier and the links it decides), the ``solution`` they
        build, whether it is ``unique``, and the ``rating`` and ``tier`` they give.

    Raises
    ------
    UnsolvableError
        The puzzle has no solution.
    SearchLimitError
        The time limit ran out.
    """
    from .authoring.explain import explain as explain_steps

    return explain_steps(puzzle, limits)


@dataclass(frozen=True)
class Rating:
    """How hard a puzzle is for a person (:func:`rate`; the columns of ``flowgraph rate``).

    Attributes
    ----------
    rating : float
        0 to 10, to two decimals.
    tier : str
        ``easy``, ``medium``, ``hard`` or ``extreme``.
    steps : int
        Steps of the explanation.
    tight : float
        The share of steps that had a single way to go (0 to 1).
    unique : bool or None
        Whether the solution is unique (None: not known in the time given).
    counts : dict of str -> int
        Steps per technique, those used.
    """

    rating: float
    tier: str
    steps: int
    tight: float
    unique: bool | None
    counts: dict[str, int]


def rate(puzzle: Puzzle, limits: Limits | None = None) -> Rating:
    """How hard the puzzle is for a person, from its explanation (``flowgraph rate``).

    Parameters
    ----------
    puzzle : Puzzle
    limits : Limits, optional
        As :func:`explain`.

    Returns
    -------
    Rating

    Raises
    ------
    UnsolvableError
        The puzzle has no solution.
    SearchLimitError
        The time limit ran out.

    Examples
    --------
    >>> from flowgraph import parse_text
    >>> found = rate(parse_text("STANDARD\\nA-.-A\\n| | |\\nB-.-B\\n"))
    >>> found.steps, found.unique, found.counts
    (7, True, {'forced move': 5, 'dead end': 2})
    """
    found = explain(puzzle, limits)
    return Rating(found.rating, found.tier, len(found.steps), round(found.tight, 4), found.unique,
                  {k: v for k, v in found.counts.items() if v})
