"""Where each cell of a board is drawn, read from the board's links alone.

A board's drawing follows its graph: with no diagonal links it is a square
grid; with diagonals that alternate by column it is a grid of flat-topped
hexagons whose columns of one parity sit half a cell lower (the columns
that link ``(x ± 1, y + 1)``: odd ones in ``corpus/samgoldman/hex``, even
ones in level packs); with diagonals that alternate by row it is a grid of
pointy-topped hexagons whose rows are offset half a cell (the
row-alternating layout of ``corpus/generated/hex``). Positions are the
places its reader recorded (:attr:`flowgraph.model.Puzzle.places`), so puzzles
of every format are drawn the same way.

Units: a cell's width is 1 (hexagons: the distance between neighbouring
centres is 1); :class:`Geometry` gives centres and corner polygons in those
units, and the renderers scale them by ``cell_px``.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass

from ..io.grids import SAMGOLDMAN_HEX, grid_neighbours, hex_down_parities
from ..model import Node, Place, Puzzle, adjacency_edges

__all__ = ["Geometry", "geometry_of", "board_links"]

Point = tuple[float, float]


@dataclass(frozen=True)
class Geometry:
    """The layout of one board.

    Attributes
    ----------
    kind : str
        ``"square"``, ``"hex-columns"`` or ``"hex-rows"``.
    hex_down : int
        ``hex-columns``: the column parity drawn half a cell lower, which
        links ``(x ± 1, y + 1)`` (:func:`flowgraph.io.grids.grid_neighbours`).
    row_shift : dict of int -> float
        ``hex-rows``: each row's offset in cells.
    """

    kind: str = "square"
    hex_down: int = SAMGOLDMAN_HEX
    row_shift: dict | None = None

    def centre(self, xy: tuple[float, float]) -> Point:
        """The centre of the cell at grid place ``xy``."""
        x, y = xy
        if self.kind == "hex-columns":
            r = 1 / math.sqrt(3)  # circumradius of a flat-topped hexagon whose neighbours are 1 apart
            return (x * 1.5 * r + r, y + 0.5 + (0.5 if int(x) % 2 == self.hex_down else 0.0))
        if self.kind == "hex-rows":
            return (x + 0.5 + (self.row_shift or {}).get(int(y), 0.0), y * math.sqrt(3) / 2 + 1 / math.sqrt(3))
        return (x + 0.5, y + 0.5)

    def corners(self, xy: tuple[float, float]) -> list[Point]:
        """The cell's outline: 4 corners (square) or 6 (hexagons), clockwise."""
        cx, cy = self.centre(xy)
        if self.kind == "square":
            return [(cx - 0.5, cy - 0.5), (cx + 0.5, cy - 0.5), (cx + 0.5, cy + 0.5), (cx - 0.5, cy + 0.5)]
        r = 1 / math.sqrt(3)
        start = 0 if self.kind == "hex-columns" else 30  # flat-topped / pointy-topped
        return [(cx + r * math.cos(math.radians(start + 60 * i)), cy + r * math.sin(math.radians(start + 60 * i)))
                for i in range(6)]

    def neighbours(self, xy: tuple[int, int]) -> list[tuple[int, int]]:
        """The grid places next to ``xy`` in this layout (whether or not there are cells)."""
        if self.kind != "hex-rows":
            return grid_neighbours(xy, self.hex_down if self.kind == "hex-columns" else None)
        x, y = xy
        shift = self.row_shift or {}
        out = [(x - 1, y), (x + 1, y)]
        for ny in (y - 1, y + 1):
            d = shift.get(ny, 0.0) - shift.get(y, 0.0)  # -0.5: that row sits half a cell left
            out += [(x, ny), (x + (1 if d < 0 else -1), ny)]
        return out

    def size(self, places: list[tuple[float, float]]) -> tuple[float, float]:
        """Width and height (in cells) that hold every cell drawn at these places."""
        xs = [p[0] for xy in places for p in self.corners(xy)]
        ys = [p[1] for xy in places for p in self.corners(xy)]
        return max(xs), max(ys)


def board_links(puzzle: Puzzle) -> dict[frozenset[Node], bool]:
    """Each link of the board, as the pair of its nodes, and whether it is a warp (the graph need not be built)."""
    return {frozenset((u, v)): bool(attrs.get("warp")) for u, v, attrs in adjacency_edges(puzzle.board.dicts()[1])}


def geometry_of(places: Mapping[Node, Place | None], links: Iterable[Collection[Node]]) -> Geometry:
    """The layout the board's diagonal links imply (square when it has none).

    Parameters
    ----------
    places : Mapping[Node, Place or None]
        Each node's place in cells (:attr:`flowgraph.model.Puzzle.places`).
    links : iterable of node pairs
    """
    diagonals = []
    for pair in links:
        a, b = (places[k] for k in pair)
        if a is None or b is None or len(a) != 2:
            continue
        dx, dy = b[0] - a[0], b[1] - a[1]
        if abs(dx) == 1 and abs(dy) == 1:
            low = a if a[1] < b[1] else b  # the upper cell of the pair
            high = b if low is a else a
            diagonals.append((int(low[0]), int(low[1]), int(high[0]) - int(low[0])))  # x, y of upper, +1 right / -1 left
    if not diagonals:
        return Geometry("square")
    by_column = hex_down_parities(((x, y), (x + d, y + 1)) for x, y, d in diagonals)  # one: column-alternating
    if len(by_column) == 1:
        return Geometry("hex-columns", hex_down=by_column.pop())
    by_row: dict[int, set[int]] = {}
    for _, y, d in diagonals:
        by_row.setdefault(y, set()).add(d)
    if all(len(ds) == 1 for ds in by_row.values()):
        shift: dict[int, float] = {}
        rows = sorted({int(xy[1]) for xy in places.values() if xy is not None and len(xy) == 2})
        offset = 0.0
        for y in rows:
            shift[y] = offset
            d = next(iter(by_row.get(y, {0})))
            offset += -0.5 if d > 0 else 0.5 if d < 0 else 0.0  # the next row sits toward the diagonal's other end
        least = min(shift.values())
        return Geometry("hex-rows", row_shift={y: s - least for y, s in shift.items()})
    return Geometry("square")
