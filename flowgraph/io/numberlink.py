"""The numberlink format (janko.at, Nikoli, contest files): ``W H`` then H rows of W tokens.

A number or a letter is an endpoint, ``0``, ``.`` or ``-`` an empty cell;
square boards with no holes, each cell linked to its 4 neighbours. Labels
follow the numbers: ``n`` is the ``n``-th label (``1`` is ``A``, ``27`` is
``a``), so a board converted both ways keeps its labels; a file whose tokens
are labels keeps them; otherwise labels go in the tokens' order. A board
with more flows than the 62 labels is refused.

>>> from flowgraph.io.numberlink import read_numberlink, write_numberlink
>>> p = read_numberlink("3 2\\n1 0 1\\n2 0 2\\n")
>>> [f.label for f in p.flows]
['A', 'B']
>>> print(write_numberlink(p), end="")
3 2
1 0 1
2 0 2
"""

from __future__ import annotations

import re

from ..errors import ConversionError
from ..model import LABELS, Family, Puzzle
from .grid_arrays import square_grid_puzzle
from .grids import grid_sketch
from .problems import Problem, whole_number
from .sketch import links_by_place, sketch_of, to_puzzle

__all__ = ["analyse_numberlink", "read_numberlink", "write_numberlink", "looks_like_numberlink"]

_SIZE = re.compile(r"^\s*([0-9]+)\s+([0-9]+)\s*$")
_EMPTY = {"0", ".", "-"}
#: The most cells a side of a numberlink board may have (the reading budget bounds the whole board).
MAX_NUMBERLINK_SIDE = 100_000


def looks_like_numberlink(text: str) -> bool:
    """Whether the first non-blank line is ``W H``."""
    first = next((line for line in text.splitlines() if line.strip()), "")
    return bool(_SIZE.match(first))


def analyse_numberlink(text: str, path: str | None = None, family: str | None = None) -> tuple[Puzzle | None, list[Problem]]:
    """Read a numberlink file; the puzzle (None on an error) and every problem (``family`` unused, as in
    every one-puzzle reader's signature).

    Node ids are the ``(line, column)`` of each token; nodes carry ``xy``.
    """
    lines = tuple(text.splitlines())
    numbered = [(i, line) for i, line in enumerate(lines, 1) if line.strip()]
    size = _SIZE.match(numbered[0][1]) if numbered else None
    if size is None:
        return None, [Problem(numbered[0][0] if numbered else 1, 1, "error", "expected 'W H' (width and height) first")]
    width, height = (whole_number(v, MAX_NUMBERLINK_SIDE) for v in size.groups())
    if width is None or height is None or not width or not height:
        return None, [Problem(numbered[0][0], size.start(1) + 1, "error",
                              f"the width and height are whole numbers from 1 to {MAX_NUMBERLINK_SIDE:,}")]
    problems: list[Problem] = []
    rows = numbered[1:]
    if len(rows) != height:
        where = rows[height][0] if len(rows) > height else (rows[-1][0] if rows else numbered[0][0])
        problems.append(Problem(where, 1, "error", f"expected {height} rows (the header says {width} {height}), "
                                f"found {len(rows)}"))
    cells: dict[tuple[int, int], str] = {}
    keys: dict[tuple[int, int], tuple[int, int]] = {}
    ids: dict[str, list[tuple[int, int]]] = {}
    for y, (line_no, line) in enumerate(rows[:height]):
        tokens = [(m.start() + 1, m.group()) for m in re.finditer(r"\S+", line)]
        if len(tokens) != width:
            problems.append(Problem(line_no, 1, "error", f"expected {width} tokens in this row, found {len(tokens)}"))
        for x, (col, tok) in enumerate(tokens[:width]):
            keys[x, y] = (line_no, col)
            cells[x, y] = "."
            if tok not in _EMPTY:
                ids.setdefault(tok, []).append((x, y))
    if len(ids) > len(LABELS):
        return None, problems + [Problem(numbered[0][0], 1, "error", f"{len(ids)} endpoint numbers: at most "
                                         f"{len(LABELS)} flows fit the labels A-Z a-z 0-9")]
    for tok, label in _labels(ids).items():
        for xy in ids[tok]:
            cells[xy] = label
    made = square_grid_puzzle(cells, keys, lines, path, "numberlink", (numbered[0][0], 1))
    if made is None:
        sketch, _ = grid_sketch(cells, Family.STANDARD, keys=keys)
        made = to_puzzle(sketch, lines, path, "numberlink", (numbered[0][0], 1))
    puzzle, more = made
    problems = sorted(problems + more)
    return (None if any(p.is_error for p in problems) else puzzle), problems


def _labels(ids: dict[str, list]) -> dict[str, str]:
    """Token -> label: number ``n`` is the ``n``-th label (1 is ``A``, 27 is ``a``) when every token is a
    number from 1 to 62, a token that is a label is itself, else labels go in the tokens' order."""
    numbers = {t: whole_number(t) for t in ids}
    if all(n is not None and 1 <= n <= len(LABELS) for n in numbers.values()):
        return {t: LABELS[n - 1] for t, n in numbers.items() if n is not None}
    if all(len(t) == 1 and t in LABELS for t in ids):
        return {t: t for t in ids}
    order = sorted(ids, key=lambda t: (0, n, t) if (n := numbers[t]) is not None else (1, 0, t))
    return dict(zip(order, LABELS))


def read_numberlink(text: str, path: str | None = None) -> Puzzle:
    """Read a numberlink file.

    Raises
    ------
    PuzzleError
        The first error, with its position.
    """
    puzzle, problems = analyse_numberlink(text, path)
    if puzzle is None:
        raise next(p for p in problems if p.is_error).to_error(path)
    return puzzle


def write_numberlink(puzzle: Puzzle) -> str:
    """The puzzle as a numberlink file; a flow's number is its label's rank (``A`` is 1, ``a`` is 27).

    Raises
    ------
    ConversionError
        The board is not a full rectangle of cells each linked to its 4
        neighbours and nothing else (holes, walls, warps, bridges, hex).
    """
    sketch = sketch_of(puzzle)
    cells: dict[tuple[int, int], str] = {}
    for key, spot in sketch.spots.items():
        if spot.lane:
            raise ConversionError("numberlink files have no bridges")
        if spot.xy is None or len(spot.xy) != 2 or any(v != int(v) for v in spot.xy):
            raise ConversionError(f"the node at {key[0]}:{key[1]} is not on a grid of whole cells")
        cells[int(spot.xy[0]), int(spot.xy[1])] = spot.label or "."
    x0 = min(x for x, _ in cells)
    y0 = min(y for _, y in cells)
    cells = {(x - x0, y - y0): ch for (x, y), ch in cells.items()}
    width = max(x for x, _ in cells) + 1
    height = max(y for _, y in cells) + 1
    if len(cells) != width * height:
        raise ConversionError("numberlink boards are full rectangles: this one has holes")
    expected, _ = grid_sketch(cells, Family.STANDARD)
    if links_by_place(expected) != links_by_place(sketch, x0, y0):
        raise ConversionError("numberlink boards link every cell to its 4 neighbours and nothing else: this one "
                              "has walls, warps or diagonal links")
    number = {f.label: str(LABELS.index(f.label) + 1) for f in puzzle.flows}
    rows = [" ".join(number.get(cells[x, y], "0") for x in range(width)) for y in range(height)]
    return "\n".join([f"{width} {height}"] + rows) + "\n"
