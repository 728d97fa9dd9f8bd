"""The neighbor-link builder's common case on whole arrays: a board whose every link joins the two cells beside it.

Nearly every board read has no bridge, no warp and no character outside the format. For those,
:func:`link_rows` finds every cell and link with numpy over the board's rows as one array of
character codes (a link character's two cells are its neighbours at ``-d`` and ``+d`` along its
direction); the graph's Python dicts are made only when the graph is first read (the engines, the checks
and the verifier read the numbering). The result is exactly
:func:`.builder.link_cells`' (nodes, edges and their order, the numbering, the labels); a board
with a link that joins anything else (a warp, or a link with a missing cell, reported as an error)
is left to :func:`.builder.link_cells`, which knows their rules.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from ..model import LABELS, BoardGraph, CellIndex, Node
from .layout import DIRECTIONS, Layout
from .seams import board_graph

if TYPE_CHECKING:
    import numpy as np

__all__ = ["link_rows"]

@functools.cache
def _tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Character code -> 1 + its link's index in :data:`.layout.DIRECTIONS` (0: not a link); character code ->
    whether it is a cell (``.`` or a label; a bridge never comes here); by that index (0 unused), the step
    (d_row, d_col) from the link to the cell after it. Made on first use: numpy loads with the first board."""
    import numpy as np

    link_of = np.zeros(256, np.int8)
    for k, ch in enumerate(DIRECTIONS, 1):
        link_of[ord(ch)] = k
    cell = np.zeros(256, bool)
    cell[[ord(ch) for ch in "." + LABELS]] = True
    steps = np.array([(0, 0), *DIRECTIONS.values()])
    return link_of, cell, steps[:, 0].copy(), steps[:, 1].copy()


def link_rows(layout: Layout, rows: list[str]
              ) -> tuple[BoardGraph, dict[str, list[tuple[int, int]]], CellIndex, list, bool] | None:
    """Link a board's cells from its rows, if every link joins neighbours.

    :func:`.builder.link_cells` for a board whose rows are ``rows``, or None when a link is not between neighbours.

    Parameters
    ----------
    layout : Layout
        The board as read (its ``row_lines``); it has no bridge and no bad character.
    rows : list of str
        Each board row's text, column 1 first (the source lines the rows were read from).

    Returns
    -------
    graph, labels, index, others, diagonals
        As :func:`.builder.link_cells` (``others`` is empty: no warps here); None when some link
        character does not have a cell on both sides (a warp or an error: the caller links the
        board character by character).
    """
    import numpy as np

    link_of, is_cell, step_row, step_col = _tables()
    height = len(rows)
    width = max(map(len, rows), default=0)
    stride = width + 2  # a blank border: no neighbour past an edge; the board as one flat row-major array
    codes = np.full((height + 2) * stride, ord(" "), np.uint8)
    if width:
        text = "".join(row.ljust(width) for row in rows).encode("ascii")
        codes.reshape(height + 2, stride)[1:-1, 1:-1] = np.frombuffer(text, np.uint8).reshape(height, width)
    at = np.flatnonzero(is_cell[codes])  # row-major: the order the builder makes nodes in
    number = np.full(codes.shape, -1, np.int64)
    number[at] = np.arange(len(at))
    kinds = link_of[codes]
    where = np.flatnonzero(kinds)
    kind = kinds[where]
    # each link's two cells, at -step and +step on the flat board; every step of DIRECTIONS runs forward in
    # row-major order (down, or right along a row), so the first row holds the lesser numbers
    ends = number[where + np.multiply.outer((-1, 1), (step_row * stride + step_col)[kind])]
    if len(where) and ends.min() < 0:
        return None
    first = ends[0]
    cell_rows, cell_cols = np.divmod(at, stride)
    row_lines = np.array([0, *layout.row_lines], np.int64)  # by the padded board's row (row 0 is the border)
    nodes: list[tuple[int, int]] = list(zip(row_lines[cell_rows].tolist(), cell_cols.tolist()))
    chars = codes[at]
    cell_chars = chars.tobytes().decode("ascii")
    labels: dict[str, list[tuple[int, int]]] = {}
    for k in np.flatnonzero(chars != ord(".")).tolist():
        labels.setdefault(cell_chars[k], []).append(nodes[k])

    def graph_dicts() -> tuple[dict, dict]:  # on first use of the graph: the engines read the index
        node_attrs: dict[Node, dict[str, str]] = {}
        for node, ch in zip(nodes, cell_chars):
            node_attrs[node] = {"kind": "cell"} if ch == "." else {"kind": "endpoint", "label": ch}
        around: list[dict[Node, dict]] = [{} for _ in nodes]
        link_rows_, link_cols = np.divmod(where, stride)
        for u, v, line, col, ch in zip(first.tolist(), ends[1].tolist(), row_lines[link_rows_].tolist(),
                                       link_cols.tolist(), codes[where].tobytes().decode("ascii")):
            around[u][nodes[v]] = around[v][nodes[u]] = {"links": ((line, col),), "axis": ch, "warp": False}
        return node_attrs, dict(zip(nodes, around))

    pairs = ends.T[np.argsort(first, kind="stable")]  # (a new C-ordered array)
    pairs.setflags(write=False)  # shared by the engines
    index = CellIndex(tuple(nodes), dict(zip(nodes, range(len(nodes)))), pairs, range(len(nodes)), warps=False)
    return board_graph(graph_dicts), labels, index, [], bool(len(kind)) and int(kind.max()) >= 3
