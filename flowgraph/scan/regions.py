"""A board of any shape read as the regions its lines enclose: a ring of sectors, a star of rhombi.

Where the cells stand on no lattice (the game's Shapes and Daily boards), each cell is what it is drawn as: a
region of the picture enclosed by lines. The regions are the 4-connected parts of what is not line ink
(:func:`~.lattice.line_ink`; an endpoint dot is too wide for it and stays inside its cell); those of about a
cell's size, away from the picture's edge, are candidates. Two are linked when they lie across a thin line
from each other along a side, not at a corner: each is grown by a little more than a thin line's width (read
from the ink's runs) and what it then covers of the other is weighed against the cells' size. A thick line
(the board's outline, a wall) is wider than that growth, so the hole of a ring and the buttons below the
board join nothing; the board is the largest group of linked regions.

Each cell's outline is traced so that neighbours share their sides exactly, as a JSON graph's outlines must
for a picture to draw its inner lines (:mod:`flowgraph.render.outlined`): the cells are grown over the ink
between them to the middle of each thin line (their pixels then tile the board), the boundary between two
cells is traced once along the pixels' corners, from one corner where three regions meet to the next, and
simplified once (Douglas-Peucker, OpenCV's ``approxPolyDP``), and each of the two cells takes the same points.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..errors import ScanError

__all__ = ["Regions", "find_regions", "MAX_REGION_CELLS", "SIDE_SHARE"]

#: The most cells a shape board read from a picture may have (the game's shapes have at most a few hundred).
MAX_REGION_CELLS = 2_000
#: Two regions are linked when the growth of one covers at least this much of the other, in units of the
#: growth times the square root of the smaller region's area: a shared side gives 0.49-0.97 on the game's
#: ring, a corner 0.014-0.021, the ring's hole across its thick outline 0.08-0.10.
SIDE_SHARE = 0.25
#: How far a traced outline may stray from the pixels' boundary, in units of a typical cell's side: a
#: rhombus keeps its four corners (and the few a thick outline's glow leaves), an arc a corner every sixth of it.
EPSILON_SHARE = 0.03
#: A region is a candidate cell when its area is at least this share of the largest candidate's (a ring's
#: inner cells are half its outer ones; the letters and icons around the board are far smaller).
CELL_AREA_SHARE = 0.12


@dataclass
class Regions:
    """The cells of a shape board read from a picture.

    Attributes
    ----------
    outlines : list of list of (float, float)
        Each cell's outline, pixels of the scanned picture, neighbours sharing their corners.
    links : set of (int, int)
        Cells that share a side across a thin line (indices into ``outlines``, smaller first).
    tiles : numpy.ndarray of int32, shape (H, W)
        Each pixel's cell (0, 1, ...; -1 for none), the cells grown to the middle of the lines between them:
        where a cell's dot is looked for.
    areas : list of int
        Each cell's pixels.
    line_width : float
        A thin line's width, pixels.
    """

    outlines: list[list[tuple[float, float]]]
    links: set[tuple[int, int]]
    tiles: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), np.int32))
    areas: list[int] = field(default_factory=list)
    line_width: float = 1.0

    @property
    def unit(self) -> float:
        """A typical cell's side, pixels (the square root of the median cell's area)."""
        return float(np.sqrt(np.median(self.areas))) if self.areas else 1.0


def _line_width(ink: np.ndarray) -> float:
    """A thin line's width in pixels: the lower quartile of the ink's runs along rows and columns (a line
    crossed at right angles gives its width; thick lines and slanted ones give more)."""
    runs: list[np.ndarray] = []
    for grid in (ink[::5], ink.T[::5]):
        padded = np.zeros((grid.shape[0], grid.shape[1] + 2), np.int8)
        padded[:, 1:-1] = grid
        d = np.diff(padded, axis=1)
        starts, ends = np.nonzero(d == 1), np.nonzero(d == -1)
        runs.append(ends[1] - starts[1])
    every = np.concatenate(runs)
    every = every[every <= max(8, min(ink.shape) // 40)]
    return float(np.percentile(every, 25)) if len(every) else 2.0


def find_regions(ink: np.ndarray) -> Regions:
    """The cells of a shape board: the regions its lines enclose, linked across thin lines.

    Parameters
    ----------
    ink : numpy.ndarray of bool, shape (H, W)
        Line pixels (:func:`~.lattice.line_ink`).

    Returns
    -------
    Regions

    Raises
    ------
    ScanError
        "no board found": fewer than two regions of a cell's size share a side, or more than
        :data:`MAX_REGION_CELLS` do.
    """
    import cv2
    import networkx as nx

    height, width = ink.shape
    n, labels, stats, _ = cv2.connectedComponentsWithStats((~ink).view(np.uint8), connectivity=4)
    x, y, w, h, area = (stats[:, i] for i in range(5))
    inside = (x > 0) & (y > 0) & (x + w < width) & (y + h < height)
    if not inside.any():
        raise ScanError("no board found: no regions enclosed by lines")
    candidate = inside & (area >= CELL_AREA_SHARE * area[inside].max())
    ids = np.flatnonzero(candidate)
    if len(ids) > 4 * MAX_REGION_CELLS:
        raise ScanError(f"no board found: {len(ids):,} regions of a cell's size, more than a board has")
    line = _line_width(ink)
    grow = int(round(1.5 * line + 1))
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * grow + 1, 2 * grow + 1))
    graph = nx.Graph()
    graph.add_nodes_from(ids.tolist())
    for i in ids.tolist():
        x0, y0 = max(0, x[i] - grow), max(0, y[i] - grow)
        x1, y1 = min(width, x[i] + w[i] + grow), min(height, y[i] + h[i] + grow)
        crop = labels[y0:y1, x0:x1]
        grown = cv2.dilate((crop == i).view(np.uint8), disc).view(bool)
        got, counts = np.unique(crop[grown], return_counts=True)
        for j, count in zip(got.tolist(), counts.tolist()):
            if j != i and candidate[j] and count >= SIDE_SHARE * grow * np.sqrt(min(area[i], area[j])):
                graph.add_edge(i, j)
    board = max(nx.connected_components(graph), key=lambda part: (len(part), sum(area[j] for j in part)))
    if len(board) < 2:
        raise ScanError("no board found: no two regions of a cell's size share a side")
    if len(board) > MAX_REGION_CELLS:
        raise ScanError(f"no board found: {len(board):,} cells, over the {MAX_REGION_CELLS:,} a shape board may have")
    half = max(1.0, float(np.sqrt(np.median(area[list(board)]))) / 2)
    cells = sorted(board, key=lambda j: (round(_centre(stats, j)[1] / half), _centre(stats, j)[0]))  # reading order
    index = {j: k for k, j in enumerate(cells)}
    links = {tuple(sorted((index[a], index[b]))) for a, b in graph.subgraph(board).edges}
    tiles = _tile(labels, cells, line)
    outlines = _outlines(tiles, len(cells), epsilon=max(1.0, EPSILON_SHARE * float(np.sqrt(np.median(area[cells])))))
    return Regions(outlines, links, tiles, [int(area[j]) for j in cells], line)  # type: ignore[arg-type]


def _centre(stats: np.ndarray, j: int) -> tuple[float, float]:
    return (stats[j, 0] + stats[j, 2] / 2, stats[j, 1] + stats[j, 3] / 2)


def _tile(labels: np.ndarray, cells: list[int], line: float) -> np.ndarray:
    """Cell numbers (0, 1, ...) grown over the ink to the middle of each thin line; -1 elsewhere."""
    import cv2

    number = np.full(labels.max() + 1, -1, np.int32)
    number[cells] = np.arange(len(cells), dtype=np.int32)
    own = number[labels]
    src = np.where(own >= 0, 0, 255).astype(np.uint8)
    dist, nearest = cv2.distanceTransformWithLabels(src, cv2.DIST_L2, 5, labelType=cv2.DIST_LABEL_PIXEL)
    zero = own[src == 0]  # the cell of each zero pixel, in the order its labels count them (from 1)
    grown = zero[nearest - 1]
    grown[dist > line] = -1  # past half a thick line: not a cell's
    return grown


def _outlines(grown: np.ndarray, count: int, epsilon: float) -> list[list[tuple[float, float]]]:
    """Each cell's outline, traced along the pixels' corners of ``grown`` (cell numbers, -1 outside), each
    boundary between two regions simplified once and shared."""
    import cv2

    g = np.pad(grown, 1, constant_values=-1)
    out_edges: list[dict[tuple[int, int], list[tuple[int, int]]]] = [{} for _ in range(count)]
    # horizontal sides: between g[y-1, x] (above) and g[y, x] (below), at corner row y (picture's y - 1)
    above, below = g[:-1, :], g[1:, :]
    ys, xs = np.nonzero(above != below)
    for yy, xx in zip(ys.tolist(), xs.tolist()):
        a, b = int(above[yy, xx]), int(below[yy, xx])
        if b >= 0:  # the cell below walks it right to left
            out_edges[b].setdefault((xx + 1, yy + 1), []).append((xx, yy + 1))
        if a >= 0:
            out_edges[a].setdefault((xx, yy + 1), []).append((xx + 1, yy + 1))
    left, right = g[:, :-1], g[:, 1:]
    ys, xs = np.nonzero(left != right)
    for yy, xx in zip(ys.tolist(), xs.tolist()):
        a, b = int(left[yy, xx]), int(right[yy, xx])
        if b >= 0:  # the cell on the right walks its left side downwards
            out_edges[b].setdefault((xx + 1, yy), []).append((xx + 1, yy + 1))
        if a >= 0:
            out_edges[a].setdefault((xx + 1, yy + 1), []).append((xx + 1, yy))

    def junction(px: int, py: int) -> bool:
        """Whether three regions meet at the corner (px, py) of ``g``'s pixels, or two cross diagonally."""
        quad = (int(g[py - 1, px - 1]), int(g[py - 1, px]), int(g[py, px]), int(g[py, px - 1]))
        return len(set(quad)) >= 3 or (quad[0] == quad[2] != quad[1] == quad[3])

    def across(c: int, p: tuple[int, int], q: tuple[int, int]) -> int:
        """The region on the other side of cell c's side p -> q."""
        (px, py), (qx, qy) = p, q
        if py == qy:  # horizontal: c is below when walking right to left
            col = min(px, qx)
            return int(g[py - 1, col] if qx < px else g[py, col])
        row = min(py, qy)
        return int(g[row, px - 1] if qy > py else g[row, px])

    shared: dict[tuple, list[tuple[float, float]]] = {}
    outlines: list[list[tuple[float, float]]] = []
    for c in range(count):
        edges = out_edges[c]
        if not edges:
            raise ScanError("no board found: a cell with no outline")
        start = min(edges)
        loop = [start]
        p = start
        while True:  # the cell's outer boundary (the first corner in order lies on it)
            nexts = edges[p]
            q = nexts.pop() if len(nexts) == 1 or not loop[1:] else _turn(loop[-2], p, nexts)
            if not nexts:
                del edges[p]
            if q == start:
                break
            loop.append(q)
            p = q
            if len(loop) > 4 * grown.size:  # pragma: no cover - a broken boundary
                raise ScanError("no board found: a cell's outline does not close")
        cuts = [k for k, (px, py) in enumerate(loop) if junction(px, py)] or [0]
        points: list[tuple[float, float]] = []
        for s, k in enumerate(cuts):
            end = cuts[(s + 1) % len(cuts)]
            piece = loop[k:end + 1] if end > k else loop[k:] + loop[:end + 1]
            other = across(c, piece[0], piece[1])
            forward = (c, other, piece[0], piece[-1], len(piece))
            backward = (other, c, piece[-1], piece[0], len(piece))
            if backward in shared:
                simple = shared[backward][::-1]
            else:
                curve = np.array(piece, np.float32).reshape(-1, 1, 2)
                simple = [(float(px) - 1, float(py) - 1) for px, py in
                          cv2.approxPolyDP(curve, epsilon, False).reshape(-1, 2).tolist()]
                shared[forward] = simple
            points.extend(simple[:-1])
        outlines.append(points)
    return outlines


def _turn(before: tuple[int, int], at: tuple[int, int], nexts: list[tuple[int, int]]) -> tuple[int, int]:
    """Of two ways on from a corner a cell's boundary passes twice, the one turning right (keeps the cell's
    own pixels together where two of its pixels touch only at that corner)."""
    dx, dy = at[0] - before[0], at[1] - before[1]
    right = (-dy, dx)  # y down: turning right of (dx, dy)
    for k, q in enumerate(nexts):
        if (q[0] - at[0], q[1] - at[1]) == right:
            return nexts.pop(k)
    return nexts.pop()
