"""Flow Free level-pack lines (docs/format.md, "Other formats"): one puzzle and its solution per line.

``HEADER;PIPE_1;...;PIPE_n`` with ``HEADER = SIZE,f1,LEVEL,NFLOWS[,BRIDGES[,HOLES[,WALLS]]]``.
``SIZE`` is ``W`` or ``W:H`` (cell index ``y * W + x``), ``X_`` in front for a
hex board (even columns link ``(x ± 1, y + 1)``), ``W_`` for a warp board
(every border cell wraps to the opposite border unless a hole or a wall
blocks it); ``+B``, ``+B:I``, ``+I:B`` after it carry no rule. Bridges are
crossed once along ``-`` and once along ``|``; holes may be written ``n``,
``n_0`` or ``n_0B``; walls are ``a|b`` pairs. Each pipe is its flow's path,
endpoints first and last: the puzzle keeps the endpoints, and the path is
the pack's known solution.

A level becomes neighbor-link text (:func:`~.sketch.draw_placed`) and is
built like any puzzle file, from that text's layout
(:func:`~.builder.read_drawn`: text flowgraph drew needs no parse), so its
node ids are positions in that text; problems of the line itself are
reported at the line and column of the field.

>>> from flowgraph.io.level_pack import read_level_pack
>>> [level] = read_level_pack("3,0,7,2;0,1,2;3,4,5,8,7,6", "pack.txt")
>>> level.name, [f.label for f in level.puzzle.flows]
('pack_7', ['A', 'B'])
>>> print(level.text, end="")
STANDARD
A-.-A
| | |
B-.-.
| | |
B-.-.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..model import LABELS, Family, Node, Puzzle, Solution
from ..verification import check
from .builder import build_layout, read_drawn
from .grids import LEVEL_PACK_HEX, grid_sketch
from .problems import LineError, Problem, content_lines, iter_content_lines, whole_number
from .sketch import draw_placed

__all__ = ["Level", "analyse_level_pack", "read_level_pack", "looks_like_level_pack"]

_SIZE = re.compile(r"^(?:(X|W)_)?([0-9]+)(?::([0-9]+))?(?:\+[BI](?::[BI])?)?$")

#: Cells one level may have (the game's largest boards have a few hundred).
MAX_LEVEL_CELLS = 10_000
#: Cells a whole pack may have (a level is read as text, so a pack of this many reads in a few seconds).
MAX_PACK_CELLS = 200_000
_LINE = re.compile(r"^\s*(?:[XW]_)?\d+(?::\d+)?(?:\+[BI](?::[BI])?)?,[^;]*;")


@dataclass(frozen=True)
class Level:
    """One level of a pack.

    Attributes
    ----------
    name : str
        ``<pack>_<level>`` (the pack file's stem and the header's level number).
    line : int
        Its line in the pack file.
    text : str
        The level as neighbor-link text.
    puzzle : Puzzle
        Parsed from ``text``.
    solution : Solution or None
        The pipes of the line, on ``puzzle``, verified; None when they do not
        read as a solution of the board (the game reads the board and
        endpoints and not the pipes, so such a level is read all the same,
        with a warning, ``note``).
    note : Problem or None
        That warning, at the pipe's column.
    """

    name: str
    line: int
    text: str
    puzzle: Puzzle
    solution: Solution | None
    note: Problem | None = None


def looks_like_level_pack(text: str) -> bool:
    """Whether the first line (not blank, not a ``//`` comment) looks like ``SIZE,f1,LEVEL,NFLOWS...;pipe``."""
    first = next((line for _, line in iter_content_lines(text)), "")
    return bool(_LINE.match(first))



def analyse_level_pack(text: str, path: str | None = None) -> tuple[list[Level], list[Problem]]:
    """Every level of a pack, and the problems of the lines that could not be read (with their positions)."""
    stem = Path(path).stem if path else "level"
    levels: list[Level] = []
    problems: list[Problem] = []
    names: set[str] = set()
    cells = 0  # over the whole pack
    for line_no, line in content_lines(text):
        try:
            size = _size(line)
        except LineError as bad:
            problems.append(Problem(line_no, bad.column, "error", bad.message))
            continue
        if cells + size > MAX_PACK_CELLS:
            problems.append(Problem(line_no, 1, "error", f"the pack has more than {MAX_PACK_CELLS:,} cells: this "
                                    "level and those below it are not read"))
            break
        cells += size
        try:
            level = _read_line(line, line_no, stem)
        except LineError as bad:
            problems.append(Problem(line_no, bad.column, "error", bad.message))
            continue
        if level.name in names:  # two lines with one level number: the line number tells them apart
            level = replace(level, name=f"{level.name}_line{line_no}")
        names.add(level.name)
        levels.append(level)
        if level.note is not None:
            problems.append(level.note)
    if not levels and not problems:
        problems.append(Problem(1, 1, "error", "no level lines: expected SIZE,f1,LEVEL,NFLOWS...;PIPE;..."))
    return levels, problems


def read_level_pack(text: str, path: str | None = None) -> list[Level]:
    """Every level of a pack.

    Raises
    ------
    PuzzleError
        The first line that cannot be read, at the column of the field.
    """
    levels, problems = analyse_level_pack(text, path)
    errors = [p for p in problems if p.is_error]
    if errors:
        raise errors[0].to_error(path)
    return levels


def _fields(line: str) -> list[tuple[int, str]]:
    """The ``;``-separated fields with their 1-based columns."""
    out, col = [], 1
    for part in line.split(";"):
        out.append((col, part))
        col += len(part) + 1
    return out


def _ints(field: str, col: int, what: str) -> list[int]:
    out = []
    for item in filter(None, field.split(":")):
        m = re.match(r"^\s*([0-9]+)(?:_[0-9]+B?)?\s*$", item)
        index = whole_number(m.group(1), MAX_LEVEL_CELLS) if m else None
        if index is None:
            raise LineError(col, f"{what}: {item!r} is not a cell index")
        out.append(index)
    return out


def _size(line: str) -> int:
    """The level's cell count from its SIZE field, checked before anything is made of it."""
    _, width, height = _read_size(line.split(";", 1)[0].split(",", 1)[0])
    return width * height


def _read_size(field: str) -> tuple[str | None, int, int]:
    """``SIZE`` as (kind, width, height); bounded by :data:`MAX_LEVEL_CELLS`."""
    m = _SIZE.match(field.strip())
    if not m:
        raise LineError(1, f"size {field!r}: expected W or W:H, with X_ (hex) or W_ (warps) in front")
    if max(len(m.group(2)), len(m.group(3) or "")) > 6:
        raise LineError(1, f"size {field.strip()!r}: a level has at most {MAX_LEVEL_CELLS:,} cells")
    width, height = int(m.group(2)), int(m.group(3) or m.group(2))
    if not 1 <= width * height <= MAX_LEVEL_CELLS:
        raise LineError(1, f"size {field.strip()!r} is {width}x{height}: a level has 1 to {MAX_LEVEL_CELLS:,} cells")
    return m.group(1), width, height


def _read_line(line: str, line_no: int, stem: str) -> Level:
    fields = _fields(line)
    (hcol, header), pipes = fields[0], fields[1:]
    parts = header.split(",")
    if len(parts) < 4:
        raise LineError(hcol, "the header is SIZE,f1,LEVEL,NFLOWS[,BRIDGES[,HOLES[,WALLS]]]")
    kind, width, height = _read_size(parts[0])
    cols = [hcol + sum(len(p) + 1 for p in parts[:i]) for i in range(len(parts))]
    level = parts[2].strip() or str(line_no)
    if whole_number(parts[3].strip(), MAX_LEVEL_CELLS) != len(pipes):
        raise LineError(cols[3], f"the header says {parts[3].strip()!r} flows, the line has {len(pipes)} pipes")
    if len(pipes) > len(LABELS):
        raise LineError(cols[3], f"{len(pipes)} flows: at most {len(LABELS)} fit the labels A-Z a-z 0-9")
    size = width * height
    bridges = _ints(parts[4], cols[4], "bridges") if len(parts) > 4 else []
    holes = _ints(parts[5], cols[5], "holes") if len(parts) > 5 else []
    walls = set()
    for item in filter(None, parts[6].split(":")) if len(parts) > 6 else ():
        ab = [whole_number(x.strip(), MAX_LEVEL_CELLS) for x in item.split("|")]
        if len(ab) != 2 or None in ab:
            raise LineError(cols[6], f"wall {item!r}: expected a|b")
        walls.add(frozenset(_xy(x, width) for x in ab if x is not None))
    for i in bridges + holes:
        if not 0 <= i < size:
            raise LineError(hcol, f"cell index {i} is outside the {width}x{height} board")
    holed = set(holes)
    cells = {(i % width, i // width): "." for i in range(size) if i not in holed}
    if not cells:
        raise LineError(cols[5] if len(cols) > 5 else hcol, "every cell of the board is a hole")
    for i in bridges:
        cells[_xy(i, width)] = "*"
    paths = []
    whole = len(cells) == size  # no hole: a pipe's cells need only be on the board
    for k, (col, pipe) in enumerate(pipes):
        path = _cell_indices(pipe)
        if path is None:
            raise LineError(col, f"pipe {k + 1}: cell indices are whole numbers")
        if len(path) < 2 or not (0 <= min(path) and max(path) < size if whole else
                                 all(0 <= i < size and (i % width, i // width) in cells for i in path)):
            raise LineError(col, f"pipe {k + 1} must run over at least two cells of the board")
        for end in (path[0], path[-1]):
            if cells[_xy(end, width)] not in ".":
                raise LineError(col, f"pipe {k + 1} ends on a bridge or another pipe's end")
            cells[_xy(end, width)] = LABELS[k]
        paths.append(path)
    if kind is None and not bridges:
        text, node_at = _draw_square(cells, width, height, frozenset(walls))
    else:
        family = {"X": Family.HEX, "W": Family.WARPS}.get(kind or "", Family.BRIDGES if bridges else Family.STANDARD)
        sketch, lame = grid_sketch(cells, family,
                                   hex_down=LEVEL_PACK_HEX if kind == "X" else None,
                                   wrap_rows=kind == "W", wrap_cols=kind == "W", walls=frozenset(walls))
        if lame:
            raise LineError(cols[4], f"the bridge at {lame[0]} has no cells on both sides along - or |")
        text, nodes = draw_placed(sketch)
        node_at = {(*(spot.xy or ()), spot.lane): nodes[key] for key, spot in sketch.spots.items()}  # xy: all set
    lines = tuple(text.splitlines())
    puzzle, problems = build_layout(read_drawn(lines), lines, None)  # drawn text: no parse needed
    if puzzle is None:
        first = next(p for p in problems if p.is_error)
        raise LineError(hcol, f"the level is not a valid board: {first.message}")
    try:
        return Level(f"{stem}_{level}", line_no, text, puzzle, _solution(puzzle, node_at, paths, width, pipes))
    except LineError as bad:  # the game reads the board and its endpoints, not the pipes: so does flowgraph
        note = Problem(line_no, bad.column, "warning", f"{bad.message}: the level is read without its pipes")
        return Level(f"{stem}_{level}", line_no, text, puzzle, None, note)


def _draw_square(cells: dict[tuple[int, int], str], width: int, height: int, walls: frozenset = frozenset()
                 ) -> tuple[str, dict[tuple, Node]]:
    """:func:`.sketch.draw_placed` of a square board with no bridge or warp (nine tenths of the game's levels),
    row by row, and each cell's node by its ``(x, y, None)``: each row's cells joined by ``-`` where both are
    there and no wall parts them, a row of ``|`` below; rows and columns of holes at the top and left are not
    drawn (as :func:`.sketch.draw_placed` draws them), every line ends at its last character."""

    def linked(a: tuple[int, int], b: tuple[int, int]) -> bool:
        return a in cells and b in cells and (not walls or frozenset((a, b)) not in walls)

    if len(cells) == width * height and not walls:  # no hole or wall (half the game's levels): whole rows at once
        chars = list(cells.values())
        rows = ["-".join(chars[y * width:(y + 1) * width]) for y in range(height)]
        between = " ".join("|" * width)
        text = "\n".join([Family.STANDARD.value, *itertools.chain.from_iterable((row, between) for row in rows)][:-1])
        return text + "\n", {(x, y, None): (2 + 2 * y, 1 + 2 * x) for y in range(height) for x in range(width)}
    top = min(y for _, y in cells)
    left = min(x for x, _ in cells)
    bottom = max(y for _, y in cells)
    lines = [Family.STANDARD.value]
    for y in range(top, bottom + 1):
        row = [cells.get((x, y), " ") for x in range(left, width)]
        joins = ["-" if linked((x, y), (x + 1, y)) else " " for x in range(left, width - 1)]
        lines.append("".join(itertools.chain.from_iterable(zip(row, [*joins, ""]))).rstrip())
        if y < bottom:
            lines.append(" ".join("|" if linked((x, y), (x, y + 1)) else " " for x in range(left, width)).rstrip())
    return "\n".join(lines) + "\n", {(x, y, None): (2 + 2 * (y - top), 1 + 2 * (x - left)) for x, y in cells}


def _cell_indices(pipe: str) -> list[int] | None:
    """A pipe's cell indices (empty items between commas skipped), or None when one is not a whole number."""
    items = pipe.split(",")
    try:
        return list(map(int, items))  # (the common case at once: no empty item)
    except ValueError:
        try:
            return [int(v) for v in items if v.strip()]
        except ValueError:
            return None


def _bridged(path: list[int], width: int, node_at: dict[tuple, Any]) -> list[Any]:
    """A pipe's nodes where it crosses a bridge: there, the lane along the step into or out of it (None where
    the board has no such lane)."""
    nodes = []
    for j, i in enumerate(path):
        x, y = _xy(i, width)
        lane = None
        if (x, y, None) not in node_at:
            other = _xy(path[j - 1] if j else path[j + 1], width)
            lane = "-" if other[1] == y else "|"
        nodes.append(node_at.get((x, y, lane)))
    return nodes


def _xy(i: int, width: int) -> tuple[int, int]:
    return (i % width, i // width)


def _solution(puzzle: Puzzle, node_at: dict[tuple, Any], paths: list[list[int]], width: int,
              pipes: list[tuple[int, str]]) -> Solution:
    """The pipes as paths over the puzzle's nodes (a bridge by the lane the pipe crosses it on), verified.

    ``node_at`` maps a cell's ``(x, y, None)`` in the pack's own numbering, and a bridge lane's
    ``(x, y, axis)``, to its node: the board drawn loses rows and columns of holes at its top and
    left, so the places of the drawing are not the pack's.
    """
    out = {}
    for k, path in enumerate(paths):
        nodes: list[Any] = [node_at.get((i % width, i // width, None)) for i in path]  # cells: at once
        if None in nodes:  # a bridge on the way (or a lane the pipe cannot take: None)
            nodes = _bridged(path, width, node_at)
        if None in nodes:
            raise LineError(pipes[k][0], f"pipe {k + 1} crosses a bridge other than straight along - or |")
        if nodes[0] != puzzle.flow(LABELS[k]).ends[0]:
            nodes.reverse()  # a pipe may be written from either end; a path runs from ends[0]
        out[LABELS[k]] = tuple(nodes)
    solution = Solution(puzzle, out, "level-pack")
    broken = check(solution)
    if broken:
        raise LineError(pipes[0][0], f"the pipes are not a solution: {broken[0]}")
    return solution

