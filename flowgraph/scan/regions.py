"""A board of any shape read as the regions its lines enclose: a ring of sectors, a star of rhombi.

Where the cells stand on no lattice (the game's Shapes and Daily boards), each cell is what it is drawn as: a
region of the picture enclosed by lines. The regions are the 4-connected parts of what is not line ink
(:func:`~.lattice.line_ink`, a pixel's gap closed first); those of about a cell's size, away from the
picture's edge and mostly of a cell's dark fill (not the hollowed inside of a thick line, nor a dot's inside),
are candidates. A cell's size is a share of the largest region's; where that region shares a thin line with no
other it is a hole (a loop's inside, ten cells large in a triquetra), set aside, and the next largest
measures. Two are linked when they lie across a thin line from each other along a side, not at a corner, by
two measures that must agree: what one covers of the other when grown by a little more than a thin line's
width (read from the ink's runs), and their gap (the least distance between them) against the gaps of the
other pairs. A thick line (the board's outline, a wall) is wider than both allow, so the hole of a
ring and the buttons below the board join nothing; the board is the largest group of linked regions. Where
the measures disagree the scan is unsure and says so (a wrong board is worse than none). A region that one
cell encloses (a dark dot's inside, its rim kept as ink) is made that cell's; a sliver linked to one cell
at most (the acute tip of a star's outline) is dropped.

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

__all__ = ["Regions", "find_regions", "MAX_REGION_CELLS", "MAX_HOLES", "COVER_SHARE", "SIDE_SHARE"]

#: The most cells a shape board read from a picture may have (the game's shapes have at most a few hundred).
MAX_REGION_CELLS = 2_000
#: Two regions are linked when the growth of one covers at least this much of the other, in units of the
#: growth times the square root of the smaller region's area: a shared side gives 0.49-0.97 on the game's
#: ring, a corner 0.014-0.021, the ring's hole across its thick outline 0.08-0.10.
COVER_SHARE = 0.25
#: Two regions are linked only when one also lies along the other this share of the smaller's side (the
#: square root of its area) long, a thin line between them (a corner gives a few pixels).
SIDE_SHARE = 0.3
#: A line between two regions is thin when their gap is at most this many times the median pair's, plus a
#: pixel: a slanted line anti-aliased is 1.5 times as wide as a straight one, a thick line 2.5 or more.
THIN_GAP = 1.55
#: How far a traced outline may stray from the pixels' boundary, in units of a typical cell's side: a
#: rhombus keeps its four corners (and the few a thick outline's glow leaves), an arc a corner every sixth of it.
EPSILON_SHARE = 0.03
#: A cell's fill differs from the background by at most this (a thick line's inside: 190-240).
FILL_CONTRAST = 96
#: At least this share of a cell's pixels are its fill (a dot covers 30-45 % of one; a dot's inside, the
#: hollowed inside of a thick line: none).
FILL_SHARE = 0.25
#: A region of the board under this share of the median cell's area, linked to one cell at most, is a sliver
#: left inside the outline's acute tip (a ring's smallest sectors are 0.4 of its median).
SLIVER_SHARE = 0.35
#: A region no cell's size (a dark dot's inside) is its cell's when this share of the cells its growth
#: reaches is that cell's: a dot near a side reaches 17 % into the next cell.
ENCLOSED_SHARE = 0.7
#: A region is a candidate cell when its area is at least this share of the largest candidate's (a ring's
#: inner cells are half its outer ones; the letters and icons around the board are far smaller).
CELL_AREA_SHARE = 0.12
#: The most regions set aside as holes (each the largest left and sharing a thin line with no other region)
#: while looking for the one a cell's size is measured against (a chain of loops' insides, a triquetra's four).
MAX_HOLES = 8


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


def find_regions(ink: np.ndarray, diff: np.ndarray | None = None) -> Regions:
    """The cells of a shape board: the regions its lines enclose, linked across thin lines.

    Parameters
    ----------
    ink : numpy.ndarray of bool, shape (H, W)
        Line pixels (:func:`~.lattice.line_ink`).
    diff : numpy.ndarray of uint8, shape (H, W), optional
        Each pixel's difference to the background (:func:`~.lattice.foreground`): a region whose pixels are
        nearly all bright is no cell but the inside of a thick line, hollowed where the line-ink filter found
        it too wide (the acute tip of a star's outline), :data:`FILL_SHARE`.

    Returns
    -------
    Regions

    Raises
    ------
    ScanError
        "no board found": fewer than two regions of a cell's size share a side, or more than
        :data:`MAX_REGION_CELLS` do; "unsure whether cells N and M ... share a side": the two measures of a
        link disagree on a pair.
    """
    import cv2
    import networkx as nx

    height, width = ink.shape
    # a pixel's gap where a thin line meets the outline would join two cells: closed first
    ink = cv2.morphologyEx(ink.view(np.uint8), cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8)).view(bool)
    n, labels, stats, _ = cv2.connectedComponentsWithStats((~ink).view(np.uint8), connectivity=4)
    x, y, w, h, area = (stats[:, i] for i in range(5))
    inside = (x > 0) & (y > 0) & (x + w < width) & (y + h < height)
    inside[0] = False  # label 0 is the ink itself (a picture with a margin round the board: flowgraph's)
    if not inside.any():
        raise ScanError("no board found: no regions enclosed by lines")
    if diff is not None:  # a cell is mostly its dark fill (a dot covers under half of it)
        dark = np.bincount(labels.ravel(), weights=(diff <= FILL_CONTRAST).ravel(), minlength=n)
        inside &= dark >= FILL_SHARE * area
        if not inside.any():
            raise ScanError("no board found: no regions enclosed by lines")
    line = _line_width(ink)
    grow = int(np.ceil(1.5 * line + 1))  # past a thin line by half its width or more (round(2.5) is 2)
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * grow + 1, 2 * grow + 1))

    def linked(labels: np.ndarray, area: np.ndarray, among: np.ndarray) -> tuple[nx.Graph, set]:
        """Regions across a thin line from each other along a side, by two measures that must agree: what
        one's growth by ``grow`` covers of the other (COVER_SHARE), and their gap (the least distance between
        them: at most THIN_GAP times the lower quartile pair's, a thick line's is wider) along a side (how
        much of one lies within 2 pixels past that gap, SIDE_SHARE). The graph of pairs both link, and the
        pairs only one does."""
        reach = 4 * grow  # a thick line's gap is measured too, to be told from a thin one's
        members = set(among.tolist())
        covered: set[tuple[int, int]] = set()
        gaps: dict[tuple[int, int], float] = {}
        for i in among.tolist():
            x0, y0 = max(0, x[i] - reach), max(0, y[i] - reach)
            x1, y1 = min(width, x[i] + w[i] + reach), min(height, y[i] + h[i] + reach)
            crop = labels[y0:y1, x0:x1]
            dist = cv2.distanceTransform((crop != i).view(np.uint8), cv2.DIST_L2, 3)
            near = (dist <= reach) & (crop != i) & (crop != 0)
            for j in np.unique(crop[near]).tolist():
                if j not in members:
                    continue
                pair, d = (min(i, j), max(i, j)), dist[crop == j]
                unit = np.sqrt(min(area[i], area[j]))
                if float((d <= grow).sum()) >= COVER_SHARE * grow * unit:
                    covered.add(pair)
                gap = float(d.min())
                if float((d <= gap + 2).sum()) / 2 >= SIDE_SHARE * unit:
                    gaps[pair] = min(gap, gaps.get(pair, gap))
        thin = float(np.percentile(list(gaps.values()), 25)) if gaps else 0.0  # most pairs: thin lines
        close = {pair for pair, gap in gaps.items() if gap <= THIN_GAP * thin + 0.5}
        graph = nx.Graph()
        graph.add_nodes_from(members)
        graph.add_edges_from(covered & close)
        return graph, covered ^ close

    sizes = np.where(inside, area, 0)
    for _ in range(MAX_HOLES + 1):
        # a cell is a region of at least a share of the largest; where that one shares no thin line with
        # another it is a hole (a loop's inside), and the next largest is measured against
        largest = int(sizes.argmax())
        ids = np.flatnonzero(inside & (area >= CELL_AREA_SHARE * area[largest]))
        if len(ids) > 4 * MAX_REGION_CELLS:
            raise ScanError(f"no board found: {len(ids):,} regions of a cell's size, more than a board has")
        graph, _ = linked(labels, area, ids)
        if graph.degree(largest) or len(ids) < 2:
            break
        sizes[largest] = 0
    board = max(nx.connected_components(graph), key=lambda part: (len(part), sum(area[j] for j in part)))
    if len(board) < 2:
        raise ScanError("no board found: no two regions of a cell's size share a side")
    if len(board) > MAX_REGION_CELLS:
        raise ScanError(f"no board found: {len(board):,} cells, over the {MAX_REGION_CELLS:,} a shape board may have")
    labels, area = _absorb_enclosed(labels, stats, board, disc, grow)  # a dot's inside: its cell's
    graph, unsure = linked(labels, area, np.array(sorted(board)))
    typical = float(np.median(area[list(board)]))
    slivers = {j for j in board if area[j] < SLIVER_SHARE * typical and graph.degree(j) <= 1}
    if slivers:  # the acute tip of a star's outline, hollowed by the line filter: no cell
        board = board - slivers
        graph.remove_nodes_from(slivers)
        unsure = {pair for pair in unsure if not set(pair) & slivers}
    half = max(1.0, float(np.sqrt(np.median(area[list(board)]))) / 2)
    cells = sorted(board, key=lambda j: (round(_centre(stats, j)[1] / half), _centre(stats, j)[0]))  # reading order
    index = {j: k for k, j in enumerate(cells)}
    links = {tuple(sorted((index[a], index[b]))) for a, b in graph.subgraph(board).edges}
    doubt = sorted(tuple(sorted((index[a] + 1, index[b] + 1))) for a, b in unsure if a in index and b in index)
    if doubt:
        a, b = doubt[0]
        more = f" (and {len(doubt) - 1} more pairs)" if len(doubt) > 1 else ""
        raise ScanError(f"unsure whether cells {a} and {b} (in reading order) share a side{more}: the line "
                        "between them is neither clearly thin nor clearly thick; scan a larger picture")
    tiles = _tile(labels, cells, line)
    outlines = _outlines(tiles, len(cells), epsilon=max(1.0, EPSILON_SHARE * float(np.sqrt(np.median(area[cells])))))
    return Regions(outlines, links, tiles, [int(area[j]) for j in cells], line)  # type: ignore[arg-type]


def _absorb_enclosed(labels: np.ndarray, stats: np.ndarray, board: set[int], disc: np.ndarray, grow: int
                     ) -> tuple[np.ndarray, np.ndarray]:
    """The labels with each region that one cell encloses made that cell's (a dot whose rim the line filter
    kept: a dark dot's inside is a region of its own, and its dot would be found in no cell), and the regions'
    areas so counted. Enclosed: of the cells a region's growth reaches, one has :data:`ENCLOSED_SHARE` of
    what it covers; a region that reaches no cell (a ring's hole, across the thick outline) stays as it was."""
    import cv2

    height, width = labels.shape
    x, y, w, h, area = (stats[:, i].copy() for i in range(5))
    cells = sorted(board)
    bx0, by0 = int(x[cells].min()), int(y[cells].min())
    bx1, by1 = int((x[cells] + w[cells]).max()), int((y[cells] + h[cells]).max())
    least = 0.02 * float(np.median(area[cells]))
    most = int(area[cells].max())
    lut = np.arange(len(stats), dtype=labels.dtype)
    for r in range(1, len(stats)):
        if r in board or not least <= area[r] <= most or x[r] < bx0 or y[r] < by0 or x[r] + w[r] > bx1 \
                or y[r] + h[r] > by1:
            continue
        x0, y0 = max(0, x[r] - grow), max(0, y[r] - grow)
        crop = labels[y0:min(height, y[r] + h[r] + grow), x0:min(width, x[r] + w[r] + grow)]
        grown = cv2.dilate((crop == r).view(np.uint8), disc).view(bool)
        got, counts = np.unique(crop[grown], return_counts=True)
        near = {j: c for j, c in zip(got.tolist(), counts.tolist()) if j in board}
        if near and max(near.values()) >= ENCLOSED_SHARE * sum(near.values()):  # mostly one cell's (a dot
            lut[r] = max(near, key=near.__getitem__)                               # near a side reaches past it)
            area[lut[r]] += area[r]
    if (lut == np.arange(len(stats))).all():
        return labels, area
    return lut[labels], area


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
