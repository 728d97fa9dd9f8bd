"""Boards given as grids of cells: the neighbour rules of each family, once.

Plain grids, numberlink files, Flow Free level packs and the templates of
``flowgraph new`` all describe a board as cells at ``(x, y)`` and leave the
links to a rule: 4 neighbours (square), 6 (hex, column-alternating), plus
wrap-around links on warp boards, minus walls; a bridge is crossed straight
along ``-`` and ``|``. :func:`grid_sketch` applies the rule.

Hex boards alternate by column. Two parities occur: in the neighbor-link
files of ``corpus/samgoldman/hex`` (and docs/format.md's plain grid) the odd
columns link down-diagonally, ``(x ± 1, y + 1)``; in Flow Free level packs
the even columns do. ``hex_down`` names the parity.
"""

from __future__ import annotations

from ..model import Family
from .sketch import PlacedNode, Sketch

__all__ = ["grid_sketch", "grid_neighbours", "hex_down_parities", "text_key", "SQUARE_STEPS", "SAMGOLDMAN_HEX",
           "LEVEL_PACK_HEX"]

SAMGOLDMAN_HEX = 1  # odd columns link (x ± 1, y + 1)
LEVEL_PACK_HEX = 0  # even columns do

#: A square cell's neighbours, as steps: right, down, left, up.
SQUARE_STEPS = ((1, 0), (0, 1), (-1, 0), (0, -1))


def grid_neighbours(xy: tuple[int, int], hex_down: int | None = None) -> list[tuple[int, int]]:
    """The places next to ``xy`` on a grid board (whether or not they hold cells).

    The neighbour rule of every family, once: 4 neighbours on a square grid,
    6 on a column-alternating hex grid, where the columns of parity
    ``hex_down`` link ``(x ± 1, y + 1)`` and the others ``(x ± 1, y - 1)``.
    :func:`grid_sketch`, the drawing's layout
    (:meth:`flowgraph.render.geometry.Geometry.neighbours`) and the
    screenshot scanner's lattice use it.

    >>> grid_neighbours((2, 2))
    [(3, 2), (2, 3), (1, 2), (2, 1)]
    >>> grid_neighbours((1, 2), SAMGOLDMAN_HEX)[4:]
    [(0, 3), (2, 3)]
    """
    x, y = xy
    out = [(x + dx, y + dy) for dx, dy in SQUARE_STEPS]
    if hex_down is not None:
        dy = 1 if x % 2 == hex_down else -1
        out += [(x - 1, y + dy), (x + 1, y + dy)]
    return out


def hex_down_parities(diagonal_links) -> set[int]:
    """The column parities (``x % 2``) of the upper cell of every diagonal link.

    On a hex board whose columns alternate, the columns drawn half a cell
    lower link down-diagonally, so every diagonal pair's upper cell is in
    such a column: one parity (``hex_down`` of :func:`grid_neighbours`).
    Two parities: the board alternates by row, or is no hex board.

    >>> sorted(hex_down_parities([((0, 0), (1, 1)), ((2, 3), (1, 4))]))
    [0]
    """
    return {min(pair, key=lambda xy: xy[1])[0] % 2 for pair in diagonal_links}


def text_key(x: int, y: int) -> tuple[int, int]:
    """The (line, column) a cell at ``(x, y)`` has in neighbor-link text drawn from the origin."""
    return (2 + 2 * y, 1 + 2 * x)


def grid_sketch(
    cells: dict[tuple[int, int], str],
    family: Family | str = Family.STANDARD,
    *,
    hex_down: int | None = None,
    wrap_rows: bool = False,
    wrap_cols: bool = False,
    walls: frozenset = frozenset(),
    keys: dict[tuple[int, int], tuple[int, int]] | None = None,
) -> tuple[Sketch, list[tuple[int, int]]]:
    """The sketch of a grid board.

    Parameters
    ----------
    cells : dict of (x, y) -> str
        ``.`` an empty cell, ``*`` a bridge, a label an endpoint; holes are absent.
    family : str
        The header word the sketch gets.
    hex_down : int or None
        Hex links: the column parity that links ``(x ± 1, y + 1)``
        (:data:`SAMGOLDMAN_HEX` or :data:`LEVEL_PACK_HEX`); None: no diagonals.
    wrap_rows, wrap_cols : bool
        Link the first and last cell of every row (column) when both are at
        the board's edge (a warp); a hole there blocks it.
    walls : frozenset of frozenset of (x, y)
        Neighbouring cells that are not linked.
    keys : dict of (x, y) -> (line, column), optional
        Where each cell is in the source text (default: :func:`text_key`).

    Returns
    -------
    sketch : Sketch
    lame_bridges : list of (x, y)
        Bridges with no lane: no axis has cells on both sides.
    """
    keys = keys or {xy: text_key(*xy) for xy in cells}
    width = max((x for x, _ in cells), default=-1) + 1
    height = max((y for _, y in cells), default=-1) + 1
    sketch = Sketch(family)
    lanes: dict[tuple[int, int], dict[str, tuple]] = {}  # bridge -> axis -> lane key
    for (x, y), ch in cells.items():
        line, col = keys[x, y]
        if ch == "*":
            lanes[x, y] = {}
            for axis, (a, b) in (("-", ((x - 1, y), (x + 1, y))), ("|", ((x, y - 1), (x, y + 1)))):
                if a in cells and b in cells:
                    lanes[x, y][axis] = (line, col, axis)
                    sketch.spots[line, col, axis] = PlacedNode((x, y), None, axis)
        else:
            sketch.spots[line, col] = PlacedNode((x, y), None if ch == "." else ch)

    def node(xy: tuple[int, int], axis: str):
        if xy in lanes:
            return lanes[xy].get(axis)
        return keys[xy]

    def link(a: tuple[int, int], b: tuple[int, int], axis: str, warp: bool = False) -> None:
        if a not in cells or b not in cells or (walls and frozenset((a, b)) in walls):
            return
        u, v = node(a, axis), node(b, axis)
        if u is not None and v is not None:
            sketch.link(u, v, warp)

    axes = {(1, 0): "-", (0, 1): "|", (-1, 1): "/", (1, 1): "\\"}  # each link once: from its upper (left) end
    forward = [[(dx, dy, axes[dx, dy]) for dx, dy in ((gx - parity, gy) for gx, gy in grid_neighbours((parity, 0), hex_down))
                if (dx, dy) in axes] for parity in (0, 1)]  # the steps of each column parity, in the rule's order
    for x, y in cells:
        for dx, dy, along in forward[x % 2]:
            link((x, y), (x + dx, y + dy), along)
    if wrap_rows and width > 2:
        for y in range(height):
            if (0, y) in cells:
                link((width - 1, y), (0, y), "-", warp=True)
    if wrap_cols and height > 2:
        for x in range(width):
            if (x, 0) in cells:
                link((x, height - 1), (x, 0), "|", warp=True)
    return sketch, [xy for xy, axes in lanes.items() if not axes]
