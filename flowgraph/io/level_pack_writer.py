"""Flow Free level-pack lines written from a puzzle and its verified solution.

The line is the one :mod:`.level_pack` reads (docs/format.md):
``SIZE,0,LEVEL,NFLOWS,BRIDGES,HOLES,WALLS;PIPE_1;...;PIPE_n``. ``SIZE`` is
``W`` for a square board and ``W:H`` otherwise, ``X_`` in front for hex,
``W_`` for warps; cell index ``y * W + x``. A hex board is written in the
game's column parity (even columns link ``(x ± 1, y + 1)``): one in the
other parity (the samgoldman files') is flipped upside down, the same
puzzle mirrored. Every link the family's grid has and the board lacks is a
wall ``a|b``; on a warp board every border pair the board does not wrap is
a wall too; places of the bounding grid without a cell are holes; a bridge
must be crossed both ways (the game's bridges are). The pipes are the
solution's paths, endpoints first and last, flows in the puzzle's order.

Every line is read back (:func:`.level_pack.analyse_level_pack`) and
compared with the puzzle, mirror undone: a difference raises
:class:`~flowgraph.errors.ConversionError` rather than writing a wrong level.
"""

from __future__ import annotations

from ..errors import ConversionError
from ..model import LABELS, Puzzle, Solution
from .grids import LEVEL_PACK_HEX, grid_neighbours, hex_down_parities
from .level_pack import analyse_level_pack
from .sketch import Sketch, links_by_place, sketch_of

__all__ = ["changes", "write_level"]


def write_level(puzzle: Puzzle, solution: Solution, level: int = 1) -> str:
    """One level-pack line: the board, its endpoints and the solution's pipes.

    Parameters
    ----------
    puzzle : Puzzle
        Under Flow Free rules (the game's).
    solution : Solution
        A verified solution of ``puzzle``.
    level : int
        The level number written in the header.

    Raises
    ------
    ConversionError
        The game cannot hold the board (Numberlink rules, a 3-D or
        row-alternating hex board, a bridge crossed one way only, more than
        one cell at a place), or the line does not read back as the board.
    """
    if not puzzle.rules.fills_every_cell:
        raise ConversionError("Flow Free levels fill every cell: a puzzle under Numberlink rules cannot be one")
    sketch = sketch_of(puzzle)
    cells, lanes = _places(sketch)
    place_links = _place_links(sketch)
    hex_down = _hex_down(place_links)
    flip = hex_down is not None and hex_down != LEVEL_PACK_HEX
    xs, ys = [x for x, _ in cells], [y for _, y in cells]
    x0, y0, width, height = min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1
    if hex_down is not None and x0 % 2:
        raise ConversionError("a hex board whose first column is odd: draw it from an even column")

    def index(xy: tuple[int, int]) -> int:
        x, y = xy[0] - x0, xy[1] - y0
        return (height - 1 - y if flip else y) * width + x

    warps = [p for p, warp in place_links.items() if warp]
    links = set(place_links)
    kind = "X_" if hex_down is not None else "W_" if warps else ""
    if hex_down is not None and warps:
        raise ConversionError("a level pack has no hex boards with warps")
    walls = set()
    for xy in cells:
        for n in grid_neighbours(xy, hex_down):
            if n in cells and frozenset((xy, n)) not in links:
                walls.add(frozenset((index(xy), index(n))))
    if kind == "W_":  # every border pair wraps unless a wall blocks it
        for y in range(y0, y0 + height):
            a, b = (x0 + width - 1, y), (x0, y)
            if a in cells and b in cells and frozenset((a, b)) not in links:
                walls.add(frozenset((index(a), index(b))))
        for x in range(x0, x0 + width):
            a, b = (x, y0 + height - 1), (x, y0)
            if a in cells and b in cells and frozenset((a, b)) not in links:
                walls.add(frozenset((index(a), index(b))))
    if not links <= _expected(cells, hex_down, kind == "W_", x0, y0, width, height):
        raise ConversionError("a link the game's grid has no place for (a warp inside the board, say)")
    holes = sorted(index((x, y)) for y in range(y0, y0 + height) for x in range(x0, x0 + width) if (x, y) not in cells)
    bridges = sorted(index(xy) for xy, axes in lanes.items() if axes)
    for xy, axes in lanes.items():
        if axes and axes != {"-", "|"}:
            raise ConversionError(f"the bridge at r{xy[1] - y0 + 1}c{xy[0] - x0 + 1} is crossed along "
                                  f"{''.join(sorted(axes))} only: the game's "
                                  "bridges are crossed both ways")
    place_of = {key: (int(spot.xy[0]), int(spot.xy[1])) for key, spot in sketch.spots.items() if spot.xy is not None}
    pipes = [",".join(str(index(place_of[node])) for node in solution.paths[f.label]) for f in _flow_order(puzzle)]
    size = str(width) if width == height else f"{width}:{height}"
    header = ",".join([kind + size, "0", str(level), str(len(pipes)), ":".join(map(str, bridges)),
                       ":".join(map(str, holes)), ":".join(f"{min(w)}|{max(w)}" for w in sorted(walls, key=sorted))])
    line = ";".join([header.rstrip(",")] + pipes)
    _check(line, puzzle, flip)
    return line


def _flow_order(puzzle: Puzzle) -> list:
    """The flows in label order (A, B, ... as :data:`~flowgraph.model.LABELS` lists them): a pack numbers
    its flows, and reads the k-th back as the k-th label, so a board labelled A, B, C ... keeps its names."""
    return sorted(puzzle.flows, key=lambda f: (LABELS.find(f.label) % (len(LABELS) + 1), f.label))


def changes(puzzle: Puzzle) -> list[str]:
    """What a level-pack line of ``puzzle`` does not keep, one phrase each (empty: it reads back the same).

    A hex board in the other column parity than the game's is written upside down (the game's hex
    columns start the other way up), and flows whose labels are not A, B, C ... in order are read
    back under those (a level pack numbers its flows; it keeps no names).
    """
    said = []
    if _hex_down(_place_links(sketch_of(puzzle))) not in (None, LEVEL_PACK_HEX):
        said.append("written upside down: the game's hex columns start the other way up")
    renamed = [f"{f.label}->{LABELS[k]}" for k, f in enumerate(_flow_order(puzzle)) if f.label != LABELS[k]]
    if renamed:
        said.append(f"flows renamed {', '.join(renamed)}: a level pack numbers its flows, it keeps no names")
    return said


def _places(sketch: Sketch) -> tuple[dict[tuple[int, int], str], dict[tuple[int, int], set[str]]]:
    """Place -> ``.`` or a label, and bridge place -> its lanes' axes."""
    cells: dict[tuple[int, int], str] = {}
    lanes: dict[tuple[int, int], set[str]] = {}
    for key, spot in sketch.spots.items():
        if spot.xy is None or len(spot.xy) != 2 or any(v != int(v) for v in spot.xy):
            raise ConversionError(f"the node at {key[0]}:{key[1]} has no place on the game's grid")
        xy = (int(spot.xy[0]), int(spot.xy[1]))
        if spot.lane:
            lanes.setdefault(xy, set()).add(spot.lane)
            cells[xy] = "*"
        elif xy in cells:
            raise ConversionError(f"two cells at the place {xy}")
        else:
            cells[xy] = spot.label or "."
    return cells, lanes


def _place_links(sketch: Sketch) -> dict[frozenset, bool]:
    """Each link as the pair of its ends' places, and whether it is a warp."""
    out = {}
    for pair, warp in sketch.links.items():
        u, v = tuple(pair)
        a, b = sketch.spots[u].xy, sketch.spots[v].xy
        if a is not None and b is not None:
            out[frozenset(((int(a[0]), int(a[1])), (int(b[0]), int(b[1]))))] = warp
    return out


def _hex_down(place_links: dict[frozenset, bool]) -> int | None:
    """The board's hex column parity (None: a square board)."""
    diagonal = [p for p in place_links if len({x for x, _ in p}) == 2 and len({y for _, y in p}) == 2]
    if not diagonal:
        return None
    downs = hex_down_parities(diagonal)
    if len(downs) != 1:
        raise ConversionError("a hex board whose rows alternate: the game's hex boards alternate by column")
    return downs.pop()


def _expected(cells: dict, hex_down: int | None, wraps: bool, x0: int, y0: int, width: int, height: int) -> set:
    """Every link the game's grid of this kind can have between these cells."""
    out = {frozenset((xy, n)) for xy in cells for n in grid_neighbours(xy, hex_down) if n in cells}
    if wraps:
        out |= {frozenset(((x0 + width - 1, y), (x0, y))) for y in range(y0, y0 + height)}
        out |= {frozenset(((x, y0 + height - 1), (x, y0))) for x in range(x0, x0 + width)}
    return out


def _check(line: str, puzzle: Puzzle, flip: bool) -> None:
    """The line read back is the puzzle (mirror undone, labels by flow order)."""
    levels, problems = analyse_level_pack(line)
    if problems or len(levels) != 1:
        raise ConversionError(f"the level line does not read back: {problems[0].message if problems else '?'}")
    back = sketch_of(levels[0].puzzle)
    mine = sketch_of(puzzle)
    if flip:
        top = max(s.xy[1] for s in back.spots.values() if s.xy is not None)
        for key, spot in list(back.spots.items()):
            if spot.xy is not None:
                back.spots[key] = type(spot)((spot.xy[0], top - spot.xy[1]), spot.label, spot.lane)
    order = {f.label: k for k, f in enumerate(_flow_order(puzzle))}

    def shape(sketch: Sketch, relabel: dict | None) -> tuple:
        placed = [(s.xy, s) for s in sketch.spots.values() if s.xy is not None]
        dx, dy = min(xy[0] for xy, _ in placed), min(xy[1] for xy, _ in placed)
        cells = sorted((xy[0] - dx, xy[1] - dy, s.lane or "",
                        (relabel or {}).get(s.label, s.label) if s.label else "") for xy, s in placed)
        return cells, links_by_place(sketch, dx, dy)

    if shape(back, None) != shape(mine, {label: LABELS[k] for label, k in order.items()}):
        raise ConversionError("the level line does not read back as the same board")
