"""The grid readers' common case on whole arrays: a square board of plain cells, no bridge, wall or warp.

Plain grids and numberlink files of the STANDARD family are nearly every file of those formats. For them,
:func:`square_grid_puzzle` finds every link and the numbering with numpy (a cell links to the cells at its
right and below), and the graph's Python dicts are made only when the graph is first read, as the
neighbor-link reader does (:mod:`.board_arrays`). The result is exactly :func:`.sketch.to_puzzle` of
:func:`.grids.grid_sketch`'s sketch: nodes, links and their order, attributes, numbering, flows and problems
(``tests/io/test_grid_arrays.py`` holds it on every bundled board and the corpus).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..model import CellIndex, Drawing, Family, Node, Puzzle
from .problems import Problem
from .seams import board_graph
from .sketch import GRID_ID_FORMATS, finish_puzzle

if TYPE_CHECKING:
    import numpy as np

__all__ = ["square_grid_puzzle"]

#: The largest bounding grid, in places a cell, this path allocates; sparser boards take the sketch (its
#: dicts grow with the cells alone).
_SPREAD = 4


def square_grid_puzzle(cells: dict[tuple[int, int], str], keys: dict[tuple[int, int], tuple[int, int]],
                       lines: tuple[str, ...], path: str | None, fmt: str, family_at: tuple[int, int]
                       ) -> tuple[Puzzle | None, list[Problem]] | None:
    """Read a plain square grid by arrays, where that applies.

    ``to_puzzle(grid_sketch(cells, STANDARD, keys=keys)[0], ...)`` on arrays, or None where it does not apply.

    Parameters
    ----------
    cells : dict of (x, y) -> str
        ``.`` or a label per cell, row by row (``y``, then ``x``); holes are absent.
    keys : dict of (x, y) -> (line, column)
        Each cell's place in the source, in the same order as ``cells``.
    lines, path, fmt, family_at
        As :func:`.sketch.to_puzzle`.

    Returns
    -------
    (puzzle, problems) or None
        As :func:`.sketch.to_puzzle`; None when a cell is a bridge (``*``), the cells or their places
        are not in row order, or the bounding grid has over :data:`_SPREAD` places a cell (the sketch's
        rules then apply).
    """
    import numpy as np

    if not cells or "*" in cells.values() or list(keys) != list(cells):
        return None
    count = len(cells)
    xy = np.array(list(cells), np.int64).reshape(count, 2)
    places = np.array(list(keys.values()), np.int64).reshape(count, 2)
    if count > 1 and not _row_order(xy[:, 1], xy[:, 0]) or count > 1 and not _row_order(places[:, 0], places[:, 1]):
        return None  # the numbering is the places' sorted order: here it must be the cells' own
    width, height = int(xy[:, 0].max()) + 1, int(xy[:, 1].max()) + 1
    if (width + 1) * (height + 1) > _SPREAD * count + 64:
        return None  # the grid's array would be mostly holes (one long row among short ones): memory per cell
    at = np.full((height + 1, width + 1), -1, np.int64)  # a row and a column of no cell past the edges
    at[xy[:, 1], xy[:, 0]] = np.arange(count)
    steps = np.stack([at[xy[:, 1], xy[:, 0] + 1], at[xy[:, 1] + 1, xy[:, 0]]], axis=1)  # right, below: the sketch's order
    first = np.repeat(np.arange(count), 2)
    second = steps.ravel()
    linked = second >= 0
    links = np.stack([first[linked], second[linked]], axis=1)
    links.setflags(write=False)  # shared by the engines
    nodes: tuple[Node, ...] = tuple(keys.values())
    index = CellIndex(nodes, dict(zip(nodes, range(count))), links, range(count))
    labels: dict[str, list[Node]] = {}
    for key, ch in zip(nodes, cells.values()):
        if ch != ".":
            labels.setdefault(ch, []).append(key)
    degree = np.bincount(links.ravel(), minlength=count)
    unlinked = [nodes[i] for i in np.flatnonzero(degree == 0).tolist()]

    def graph_dicts() -> tuple[dict, dict]:  # on first use of the graph: the engines read the index
        node_attrs = {key: ({"kind": "cell"} if ch == "." else {"kind": "endpoint", "label": ch}) | {"xy": place}
                      for key, ch, place in zip(nodes, cells.values(), cells)}
        around: dict[Node, dict[Node, dict]] = {key: {} for key in nodes}
        for u, v in links.tolist():
            around[nodes[u]][nodes[v]] = around[nodes[v]][nodes[u]] = {"links": (), "axis": "", "warp": False}
        return node_attrs, around

    drawing = Drawing(xy=dict(zip(nodes, cells)), ids_on_grid=fmt in GRID_ID_FORMATS)
    return finish_puzzle(board_graph(graph_dicts), index, labels, unlinked, Family.STANDARD, lines, path, fmt,
                         family_at, drawing)


def _row_order(major: np.ndarray, minor: np.ndarray) -> bool:
    """Whether the pairs (major, minor) strictly increase, major first."""
    import numpy as np

    return bool(np.all((np.diff(major) > 0) | ((np.diff(major) == 0) & (np.diff(minor) > 0))))
