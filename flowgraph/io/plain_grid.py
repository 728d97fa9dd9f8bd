"""The plain grid format (docs/format.md, "Other formats"): one character per cell.

``.`` an empty cell, a label an endpoint, ``#`` (or a space) a hole, ``*`` a
bridge; an optional first line is a header word. Links follow the family
(:mod:`.grids`): STANDARD and BRIDGES 4 neighbours, HEX 6 in the
column-alternating layout of ``corpus/samgoldman/hex``, WARPS 4 plus
wrap-around on every row and column. The header word, else ``family``,
chooses.

>>> from flowgraph.io.plain_grid import read_plain_grid, write_plain_grid
>>> p = read_plain_grid("A.A\\nB.B\\n")
>>> p.cells, [f.label for f in p.flows]
(6, ['A', 'B'])
>>> print(write_plain_grid(p), end="")
STANDARD
A.A
B.B
"""

from __future__ import annotations

from ..errors import ConversionError
from ..model import FAMILIES, LABELS, Family, Puzzle
from .grid_arrays import square_grid_puzzle
from .grids import SAMGOLDMAN_HEX, grid_sketch
from .problems import Problem
from .sketch import Sketch, links_by_place, sketch_of, to_puzzle

__all__ = ["analyse_plain_grid", "read_plain_grid", "write_plain_grid", "family_links"]

_CELLS = set(LABELS) | {".", "*"}


def analyse_plain_grid(text: str, path: str | None = None, family: str | None = None
                       ) -> tuple[Puzzle | None, list[Problem]]:
    """Read a plain grid; the puzzle (None on an error) and every problem.

    Node ids are the ``(line, column)`` of each cell's character; nodes carry ``xy``.
    """
    lines = tuple(text.splitlines())
    problems: list[Problem] = []
    cells: dict[tuple[int, int], str] = {}
    keys: dict[tuple[int, int], tuple[int, int]] = {}
    header_at = (1, 1)
    rows = list(enumerate(lines, 1))
    while rows and not rows[-1][1].strip():
        rows.pop()
    first = next((i for i, (_, line) in enumerate(rows) if line.strip()), len(rows))
    if first < len(rows) and rows[first][1].strip().upper() in FAMILIES:
        line_no, line = rows[first]
        family = rows[first][1].strip().upper()
        header_at = (line_no, len(line) - len(line.lstrip()) + 1)
        first += 1
    family = Family.of(family or Family.STANDARD)  # raises ValueError, naming the families
    for y, (line_no, line) in enumerate(rows[first:]):
        for x, ch in enumerate(line):
            if ch in _CELLS:
                cells[x, y] = ch
                keys[x, y] = (line_no, x + 1)
            elif ch not in "# ":
                what = "tab character: use spaces" if ch == "\t" else f"unexpected character {ch!r}"
                problems.append(Problem(line_no, x + 1, "error", f"{what} (a plain grid has . * # and labels)"))
    if not cells:
        return None, problems + [Problem(*header_at, "error", "empty grid: expected rows of cells")]
    made = square_grid_puzzle(cells, keys, lines, path, "plain-grid", header_at) if family == Family.STANDARD else None
    if made is None:
        sketch, lame = _sketch(cells, family, keys)
        problems += [Problem(*keys[xy], "error", "bridge has no cells on both sides of it along - or |") for xy in lame]
        made = to_puzzle(sketch, lines, path, "plain-grid", header_at)
    puzzle, more = made
    problems = sorted(problems + more)
    return (None if any(p.is_error for p in problems) else puzzle), problems


def read_plain_grid(text: str, path: str | None = None, family: str | None = None) -> Puzzle:
    """Read a plain grid.

    Raises
    ------
    PuzzleError
        The first error, with its position.
    ValueError
        Unknown family.
    """
    puzzle, problems = analyse_plain_grid(text, path, family)
    if puzzle is None:
        raise next(p for p in problems if p.is_error).to_error(path)
    return puzzle


def _sketch(cells, family, keys=None) -> tuple[Sketch, list]:
    return grid_sketch(
        cells, family, keys=keys,
        hex_down=SAMGOLDMAN_HEX if family.hexagonal else None,
        wrap_rows=family.wraps, wrap_cols=family.wraps,
    )


def family_links(cells: dict[tuple[int, int], str], family: str) -> set[frozenset]:
    """The links a plain grid of ``family`` has between these cells, as pairs of ``(x, y, lane)``."""
    sketch, _ = _sketch(cells, family)
    return links_by_place(sketch)


def write_plain_grid(puzzle: Puzzle) -> str:
    """The puzzle as a plain grid, its family's header word first.

    Raises
    ------
    ConversionError
        The board is not a grid of whole cells, or its links are not exactly
        those of one family (a wall, a warp on a non-warp board, a link no
        family has): the message names the first difference.
    """
    sketch = sketch_of(puzzle)
    places = {}
    for key, spot in sketch.spots.items():
        if spot.xy is None or len(spot.xy) != 2 or any(v != int(v) for v in spot.xy):
            raise ConversionError(f"the node at {key[0]}:{key[1]} is not on a grid of whole cells")
        places[int(spot.xy[0]), int(spot.xy[1])] = "*" if spot.lane else (spot.label or ".")
    x0 = min(x for x, _ in places)
    y0 = min(y for _, y in places)
    actual = links_by_place(sketch)
    order = [puzzle.family] + [f for f in (Family.STANDARD, Family.HEX, Family.WARPS) if f != puzzle.family]
    first_miss = None
    for family in order:
        if not isinstance(family, Family):  # a draft's missing header
            continue
        for shift in ((x0 - x0 % 2, x0 - x0 % 2 - 1) if family.hexagonal else (x0,)):
            cells = {(x - shift, y - y0): ch for (x, y), ch in places.items()}
            moved = {frozenset((_move(a, shift, y0), _move(b, shift, y0))) for a, b in (tuple(p) for p in actual)}
            expected = family_links(cells, family)
            if moved == expected:
                return _grid_text(cells, family)
            if first_miss is None:
                first_miss = _difference(expected, moved, shift, y0)
    raise ConversionError(f"a plain grid cannot express this board: {first_miss}")


def _move(place: tuple, dx: int, dy: int) -> tuple:
    return (place[0] - dx, place[1] - dy) + tuple(place[2:])


def _difference(expected: set, actual: set, dx: int, dy: int) -> str:
    def cell(place: tuple) -> str:
        return f"({int(place[0] + dx)}, {int(place[1] + dy)})"

    for pair in sorted(expected - actual, key=str):
        a, b = sorted(pair, key=str)
        return f"no link between cells {cell(a)} and {cell(b)} (a wall)"
    for pair in sorted(actual - expected, key=str):
        a, b = sorted(pair, key=str)
        return f"a link between cells {cell(a)} and {cell(b)} that its family does not have (a warp?)"
    return "no difference"


def _grid_text(cells: dict[tuple[int, int], str], family: str) -> str:
    width = max(x for x, _ in cells) + 1
    height = max(y for _, y in cells) + 1
    rows = ["".join(cells.get((x, y), "#") for x in range(width)) for y in range(height)]
    return "\n".join([family] + rows) + "\n"
