"""Puzzle files: the Lark grammar, the graph builder and the problem-finder.

Text goes through ``grammar/flow.lark`` (tokens with positions), then a
builder turns the tokens into a :class:`~flowgraph.model.Puzzle` and checks
the puzzle rules of docs/format.md. :func:`find_problems` reports every problem at
once; :func:`parse_text` and :func:`parse_file` raise the first error.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import sys
from importlib import resources
from pathlib import Path

import lark

from ..caches import cache_root, open_trusted, write_private
from ..errors import ConversionError
from ..model import Node, Place, Puzzle
from .builder import MISSING_HEADER, build
from .footprint import cell_characters
from .problems import Problem
from .sketch import draw_neighbor_link, sketch_of

__all__ = ["analyse", "draft", "find_problems", "parse_text", "text_drawing", "MAX_CELLS"]

#: Boards with more cells than this are refused (cells and bridges).
MAX_CELLS = 1_000_000
#: A UTF-8 byte-order mark as text: some editors write one; every reader skips it (columns as the editor shows).
BOM = "\ufeff"


#: The parser's options (LALR with a contextual lexer): part of the key of its cached tables.
PARSER_OPTIONS = {"parser": "lalr", "lexer": "contextual", "maybe_placeholders": False}


@functools.lru_cache(maxsize=1)
def _parser() -> lark.Lark:
    """Load the grammar from the installed package, else from the source tree.

    Building the LALR tables takes a noticeable part of a start (docs/benchmarks.md), so they are kept in flowgraph's cache
    (:func:`flowgraph.caches.cache_root`), named by a hash of the grammar, the options and the
    lark and Python versions, and loaded only from a file :func:`flowgraph.caches.open_trusted`
    lets through: they are a pickle, and lark's own ``cache=True`` would load one from the shared
    temporary folder, where another user could plant it. A missing, stale or unreadable cache
    only costs the build.
    """
    packaged = resources.files("flowgraph") / "grammar" / "flow.lark"
    if packaged.is_file():
        text = packaged.read_text(encoding="utf-8")
    else:  # editable install or a source checkout
        text = (Path(__file__).resolve().parents[2] / "grammar" / "flow.lark").read_text(
            encoding="utf-8"
        )
    key = hashlib.sha256(repr((text, PARSER_OPTIONS, lark.__version__, sys.version_info[:2])).encode()).hexdigest()
    path = cache_root() / f"grammar-{key[:24]}.lark-tables"
    file = open_trusted(path)
    if file is not None:
        with file, contextlib.suppress(Exception):  # a damaged file: build the tables again
            return lark.Lark.load(file)
    parser = lark.Lark(text, **PARSER_OPTIONS)
    write_private(path, parser.save)
    return parser


def _syntax_problem(text: str, err: lark.exceptions.LarkError) -> Problem:
    """The grammar only fails before the header: point at the first content."""
    for i, line in enumerate(text.splitlines(), 1):
        stripped = line.lstrip(" ")
        if stripped and not stripped.startswith("//"):
            return Problem(i, len(line) - len(stripped) + 1, "error", MISSING_HEADER)
    return Problem(1, 1, "error", MISSING_HEADER)


def analyse(text: str, path: str | None = None, family: str | None = None) -> tuple[Puzzle | None, list[Problem]]:
    """Parse a puzzle text and find its problems in one pass (``family`` unused: every one-puzzle reader takes it).

    Returns
    -------
    puzzle : Puzzle or None
        None when the text has an error.
    problems : list of Problem
        Every error and warning, in file order.
    """
    text = text.removeprefix(BOM)
    if not text.strip():
        return None, [Problem(1, 1, "error", "empty file: expected a header and a board")]
    cells = cell_characters(text)
    if cells > MAX_CELLS:  # an upper bound on the cells, refused before parsing
        return None, [Problem(1, 1, "error", f"board has more than {MAX_CELLS:,} cells ({cells:,} cell characters)")]
    try:
        tree = _parser().parse(text)
    except lark.exceptions.LarkError as err:
        return None, [_syntax_problem(text, err)]
    return build(tree, tuple(text.splitlines()), path)


def draft(text: str, fmt: str = "neighbor-link") -> Puzzle | None:
    """The board a text describes, errors and all (labels not paired, no flows): for drawing while editing.

    None when the text has no board at all (no header, nothing parsed, over the limits), or is in a format
    ``fmt`` other than neighbor-link (only its text is drawn while wrong). Never solve a draft: check it
    with :func:`analyse` first.
    """
    if fmt != "neighbor-link" or not text.strip() or cell_characters(text) > MAX_CELLS:
        return None
    try:
        tree = _parser().parse(text)
    except lark.exceptions.LarkError:
        return None
    return build(tree, tuple(text.splitlines()), None, draft=True)[0]


def text_drawing(puzzle: Puzzle) -> tuple[Puzzle, dict[Node, Node] | None]:
    """The board as neighbor-link text, and where each of its nodes is there: what the text output fills in.

    A board whose own text is its drawing (:attr:`flowgraph.model.Drawing.text_rows`: a neighbor-link file,
    a level pack's level) is itself, its nodes where they are (None); another is drawn as text
    (:func:`.sketch.draw_neighbor_link`) and read back, and each node maps to its node at the same place.

    Raises
    ------
    ConversionError
        No text draws the board (a node without a 2-D place, a link that is not between neighbours).
    """
    if puzzle.drawing.text_rows is not None:
        return puzzle, None
    drawn, problems = analyse(draw_neighbor_link(sketch_of(puzzle)))
    if drawn is None:  # a bug of the writer: say what, rather than draw a wrong board
        raise ConversionError(f"the board drawn as text does not read back: {problems[0].message}")
    node_at = {at: key for key, at in _from_origin(drawn).items()}
    return drawn, {n: node_at[at] for n, at in _from_origin(puzzle).items()}


def _from_origin(puzzle: Puzzle) -> dict[Node, tuple]:
    """Node -> its place moved so that the least ``x`` and ``y`` are 0, and its lane: equal in two drawings of a board."""
    placed: list[Place] = [xy for xy in puzzle.places.values() if xy is not None]
    dx = min((xy[0] for xy in placed), default=0)
    dy = min((xy[1] for xy in placed), default=0)
    return {node: ((xy[0] - dx, xy[1] - dy, *xy[2:]) if xy is not None else ()) + (node[2:] or (None,))
            for node, xy in puzzle.places.items()}


def find_problems(text: str, path: str | None = None) -> list[Problem]:
    """Return every problem in a puzzle text, errors and warnings, in file order.

    Parameters
    ----------
    text : str
        The whole file.
    path : str, optional
        Unused in the result; kept for symmetry with :func:`parse_text`.

    Returns
    -------
    list of Problem
        Empty when the file is valid and has nothing to warn about.

    Examples
    --------
    >>> [p.message for p in find_problems("STANDARD\\nA-.-A\\n")]
    []
    >>> find_problems("STANDARD\\nA-.-B\\n")[0].message
    "label 'A' appears once; each label appears exactly twice"
    """
    return analyse(text, path)[1]


def parse_text(text: str, path: str | None = None) -> Puzzle:
    """Parse puzzle text into a :class:`~flowgraph.model.Puzzle`.

    Parameters
    ----------
    text : str
        The whole file (LF or CRLF line ends).
    path : str, optional
        The file name used in errors.

    Returns
    -------
    Puzzle

    Raises
    ------
    PuzzleError
        The first error in file order (warnings never raise).

    Examples
    --------
    >>> p = parse_text("STANDARD\\nA-.-A\\n")
    >>> sorted(p.graph.nodes)
    [(2, 1), (2, 3), (2, 5)]
    """
    puzzle, problems = analyse(text, path)
    if puzzle is None:
        first = next(p for p in problems if p.severity == "error")
        raise first.to_error(path)
    return puzzle


