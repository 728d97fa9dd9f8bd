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

__all__ = ["read", "write", "count", "generate", "explain", "rate", "Rating", "MAX_SEED_CHARS", "MAX_COUNT_LIMIT"]

#: The longest seed :func:`generate` takes, in characters (an int's digits, or a string's).
MAX_SEED_CHARS = 200
#: The most solutions :func:`count` looks for (each is kept and verified).
MAX_COUNT_LIMIT = 1_000_000


def _whole(name: str, value: object, low: int, high: int) -> int:
    """``value`` as a whole number from ``low`` to ``high``, else a ValueError that names the argument."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"{name} must be a whole number from {low:,} to {high:,}, not {value!r:.60}")
    return value


def _seconds(name: str, value: object) -> float | None:
    """``value`` as a time limit: None (no limit), or a number of seconds above 0 (not NaN, not infinite)."""
    import math

    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value <= 0:
        raise ValueError(f"{name} must be a number of seconds above 0 (or None: no limit), not {value!r:.60}")
    return float(value)


def _checked(limits: Limits | None) -> Limits | None:
    """``limits`` with its time and memory bounds checked (a ValueError that names the field)."""
    if limits is not None:
        _seconds("limits.time_limit_s", limits.time_limit_s)
        if limits.memory_bytes is not None:
            _whole("limits.memory_bytes", limits.memory_bytes, 1, 1 << 50)
    return limits


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
        ``time_limit_s``, ``max_sat_calls`` and ``memory_bytes`` (the resident memory the count may add,
        1 GiB by default, measured while it runs) for the whole count.

    Returns
    -------
    Uniqueness
        ``verdict`` (``unique``, ``multiple``, ``none``, ``limit``) and the verified
        ``solutions`` found.

    Raises
    ------
    VerificationError
        An engine produced an answer that breaks the rules (a bug).
    ValueError
        ``limit`` is not a whole number from 1 to :data:`MAX_COUNT_LIMIT`, ``limits.time_limit_s`` is not
        a number of seconds above 0, or ``limits.memory_bytes`` not a whole number of bytes above 0.

    Examples
    --------
    >>> from flowgraph import parse_text
    >>> found = count(parse_text("STANDARD\\nA-.-.\\n| | |\\n.-.-.\\n| | |\\n.-.-A\\n"))
    >>> found.verdict, found.count
    ('multiple', 2)
    """
    from .authoring.uniqueness import count_solutions

    _whole("limit", limit, 1, MAX_COUNT_LIMIT)
    return count_solutions(puzzle, limit, _checked(limits))


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
        Give up after this long, in seconds, counted from the call (the board's template too).

    Returns
    -------
    Generated
        ``puzzle``, its one ``solution`` (verified) and ``figures``.

    Raises
    ------
    ValueError
        Unknown family, difficulty or rules; a size the family cannot take, or over the command line's
        bound (:data:`flowgraph.authoring.templates.MAX_GENERATE_CELLS` cells); ``flows`` not two whole
        numbers from 1 to 62, the first at most the second; ``bridges`` negative or more than the cells;
        a seed of more than :data:`MAX_SEED_CHARS` characters; a time limit that is not a number of
        seconds above 0. The message names the argument.
    GenerationError
        No puzzle was made in the time or tries given (a :class:`FlowgraphError`;
        :mod:`flowgraph.authoring.generate`).

    Examples
    --------
    >>> made = generate("standard", 5, 5, seed=1)
    >>> count(made.puzzle).verdict
    'unique'
    """
    import time

    from .authoring.generate import GenerationError, bridged_board, generate_rated
    from .authoring.generate import generate as generate_on
    from .authoring.templates import MAX_GENERATE_CELLS
    from .model import LABELS, Family

    t0 = time.monotonic()  # the time limit covers the whole call
    seconds = _seconds("time_limit_s", time_limit_s)
    for name, side in (("width", width), ("height", height)):
        if side is not None:
            _whole(name, side, 1, MAX_GENERATE_CELLS)
    if width is not None and height is not None and width * height > MAX_GENERATE_CELLS:
        raise ValueError(f"width x height is {width}x{height} = {width * height:,} cells: a generated puzzle has "
                         f"at most {MAX_GENERATE_CELLS:,} (a 30x30 board)")
    if flows is not None:
        if not isinstance(flows, (tuple, list)) or len(flows) != 2:
            raise ValueError(f"flows must be (fewest, most), two whole numbers, not {flows!r:.60}")
        low = _whole("flows[0]", flows[0], 1, len(LABELS))
        _whole("flows[1]", flows[1], low, len(LABELS))
        flows = (flows[0], flows[1])
    if bridges is not None:
        _whole("bridges", bridges, 0, MAX_GENERATE_CELLS)
    if isinstance(seed, bool) or not isinstance(seed, (int, str)) or \
            (len(seed) if isinstance(seed, str) else seed.bit_length() * 0.302) > MAX_SEED_CHARS:
        raise ValueError(f"seed must be a whole number or a string of at most {MAX_SEED_CHARS} characters")
    placed = bridges if bridges is not None else int(Family.of(family).bridged)

    def board(seed: str | int):
        return bridged_board(family, width, height, bridges=placed, seed=seed)

    def left() -> float | None:
        if seconds is None:
            return None
        rest = seconds - (time.monotonic() - t0)
        if rest <= 0:
            raise GenerationError(f"no unique puzzle within the time limit ({seconds:g} s)")
        return rest

    if difficulty is not None:
        made, _, _ = generate_rated(board, difficulty, seed=seed, time_limit_s=left(), flows=flows, rules=rules)
        return made
    shape = board(seed)
    return generate_on(shape, seed=seed, flows=flows, rules=rules, time_limit_s=left())


def explain(puzzle: Puzzle, limits: Limits | None = None) -> Explanation:
    """The puzzle's solving path, a step per link decided, easiest technique first (``flowgraph explain``).

    Parameters
    ----------
    puzzle : Puzzle
        Any family, under its rules.
    limits : Limits, optional
        The budget for the whole explanation: ``time_limit_s`` (none by default) and ``memory_bytes``
        (the resident memory it may add, 1 GiB by default, measured while it runs).

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
        The time limit (``reason`` ``"time"``) or the memory bound (``"memory"``) ran out.
    ValueError
        ``limits.time_limit_s`` is not a number of seconds above 0, or ``limits.memory_bytes`` not a whole
        number of bytes above 0.
    """
    from .authoring.explain import explain as explain_steps

    return explain_steps(puzzle, _checked(limits))


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

    @classmethod
    def of(cls, found: Explanation) -> Rating:
        """The rating an explanation gives: the one place its fields are read (``rate``, and ``flowgraph rate``'s
        rows)."""
        return cls(found.rating, found.tier, len(found.steps), round(found.tight, 4), found.unique,
                   {k: v for k, v in found.counts.items() if v})


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
        The time limit (``reason`` ``"time"``) or the memory bound (``"memory"``) ran out.
    ValueError
        As :func:`explain`.

    Examples
    --------
    >>> from flowgraph import parse_text
    >>> found = rate(parse_text("STANDARD\\nA-.-A\\n| | |\\nB-.-B\\n"))
    >>> found.steps, found.unique, found.counts
    (7, True, {'forced move': 5, 'dead end': 2})
    """
    return Rating.of(explain(puzzle, limits))
