"""Finding the board in a picture: its lattice (square or hex), its cells and walls.

The cells are the dark regions the grid lines enclose: connected components
of the pixels that do not stand out from the background, the most common
size among them being the cell size. Their centres give the lattice: the
directions to the nearest centres tell square (0° and 90°) from hex with flat
tops (30°, 90°, 150°, the game's layout) and hex with pointed tops (0°, 60°,
120°, scanned transposed); a least-squares fit gives pitch and origin. Every
site of the lattice is then tested on its own: it is a cell when a line
closes it on every side and at least one of those lines is a thin grid line
(a hole or the outside is closed by thick outline or not at all), so cells
crossed by a drawn mark, hidden by a dot or missing from the component step
are still found. A thick line between two cells is a wall.

The approach follows the screenshot readers of earlier Flow Free solvers
(grid from the lines, dot colours at cell centres), with components instead
of a Hough transform so that hexagons and holes need no special case.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ..errors import ScanError
from ..io.grids import SAMGOLDMAN_HEX, grid_neighbours
from ..model import Family

__all__ = ["Lattice", "ScannedGrid", "foreground", "line_ink", "find_lattice", "find_board"]

#: A pixel is a line's when it stands out this much from what is around it (top-hat of the difference
#: to the background): thin anti-aliased lines of a small picture reach ~25, JPEG noise ~8.
LINE_CONTRAST = 11
#: A line is a wall when it weighs this many times the median line (see :func:`find_board`).
WALL = 2.5


@dataclass
class Lattice:
    """Cell centres of a square or flat-topped hex board, in pixels of the (possibly transposed) picture.

    A site is ``(col, row)`` for square boards and ``(col, half_row)`` for hex
    boards, where ``col + half_row`` has the parity :attr:`parity`.
    """

    family: Family  # STANDARD or HEX
    x0: float
    y0: float
    dx: float  # column pitch
    dy: float  # row pitch (square) or half-row pitch (hex)
    parity: int = 0
    transposed: bool = False

    def centre(self, site: tuple[int, int]) -> tuple[float, float]:
        """The picture's point, in pixels, of the lattice site ``site``."""
        return self.x0 + site[0] * self.dx, self.y0 + site[1] * self.dy

    def steps(self) -> list[tuple[int, int]]:
        """Site offsets to the neighbours: the grid rule of :func:`flowgraph.io.grids.grid_neighbours`.

        In half rows a hex cell's neighbours are the same steps whatever its
        column, so they are read off one cell of a lower column.
        """
        hex_down = SAMGOLDMAN_HEX if self.family.hexagonal else None

        def site(x: int, y: int) -> tuple[int, int]:
            return (x, 2 * y + (x % 2 == hex_down)) if hex_down is not None else (x, y)

        c, r = site(hex_down or 0, 0)
        return [(sc - c, sr - r) for sc, sr in (site(*n) for n in grid_neighbours((hex_down or 0, 0), hex_down))]

    def side(self, step: tuple[int, int]) -> float:
        """Length of the border between a site and its neighbour ``step`` away."""
        if self.family.hexagonal:
            return 2 * self.dy / math.sqrt(3)
        return self.dy if step[0] else self.dx


@dataclass
class ScannedGrid:
    """What :func:`find_board` read: cells, walls and the lattice they sit on."""

    lattice: Lattice
    cells: list[tuple[int, int]]
    walls: set[frozenset] = field(default_factory=set)
    line_weight: float = 1.0


def foreground(rgb: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The background colour (median of the picture) and each pixel's largest channel difference to it."""
    import cv2

    bg = np.median(rgb[::3, ::3].reshape(-1, 3), axis=0)
    delta = cv2.absdiff(np.ascontiguousarray(rgb), np.full_like(rgb, 0) + bg.astype(np.uint8))
    diff = np.maximum(np.maximum(delta[:, :, 0], delta[:, :, 1]), delta[:, :, 2])
    return bg, diff


def line_ink(diff: np.ndarray) -> np.ndarray:
    """Pixels of thin lines: a white top-hat of ``diff`` keeps what is narrower than a dot or a faded
    decoration of the game's background, and drops both."""
    import cv2

    k = max(9, round(min(diff.shape) / 35)) | 1
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (k, k))
    return cv2.morphologyEx(diff, cv2.MORPH_TOPHAT, kernel) > LINE_CONTRAST


def without_marks(rgb: np.ndarray, background: np.ndarray) -> np.ndarray:
    """The picture with thin near-white marks drawn over a dark board painted out.

    A finger-drawn line across the board would split cells and cut grid
    lines; OpenCV's inpainting (Telea's fast marching method) fills it from
    the pixels around, which continues the grid lines it crossed. White dots
    are thick and stay. A light board is returned as it is.
    """
    import cv2

    if background.mean() > 128:
        return rgb
    lo = np.minimum(np.minimum(rgb[:, :, 0], rgb[:, :, 1]), rgb[:, :, 2])
    hi = np.maximum(np.maximum(rgb[:, :, 0], rgb[:, :, 1]), rgb[:, :, 2])
    white = ((lo > 240) & (hi - lo < 40)).view(np.uint8)
    k = max(7, round(min(rgb.shape[:2]) / 80)) | 1
    thin = white & ~np.asarray(cv2.morphologyEx(white, cv2.MORPH_OPEN, np.ones((k, k), np.uint8)), np.uint8)
    n, parts, stats, _ = cv2.connectedComponentsWithStats(thin, connectivity=8)
    long = np.flatnonzero(np.maximum(stats[:, 2], stats[:, 3]) >= 4 * k)
    thin = np.isin(parts, long[long > 0]).view(np.uint8)
    if thin.sum() < 0.0005 * thin.size:
        return rgb
    mask = cv2.dilate(thin, np.ones((5, 5), np.uint8))
    return cv2.inpaint(np.ascontiguousarray(rgb), mask, 5, cv2.INPAINT_TELEA)


def find_lattice(ink: np.ndarray) -> Lattice:
    """The lattice the cells of the board sit on.

    Parameters
    ----------
    ink : numpy.ndarray of bool, shape (H, W)
        Pixels of lines and dots.

    Raises
    ------
    ScanError
        "no grid found": fewer than four regions of one size, or their
        centres form no regular grid.
    """
    centres, size = _cell_regions(ink)
    angles, lengths, vectors = _neighbour_vectors(centres, 1.25 * max(size))
    near = lambda a: np.minimum(np.abs(angles - a), 180 - np.abs(angles - a)) < 12  # noqa: E731
    flat = (near(30) | near(150)).sum()
    pointed = (near(60) | near(120)).sum()
    if max(flat, pointed) > 0.3 * len(angles):
        if pointed > flat:
            lattice = find_lattice(ink.T)
            lattice.transposed = True
            return lattice
        return _hex_lattice(centres, vectors, near(90), near(30) | near(150))
    return _square_lattice(centres, vectors, near(0), near(90))


def _cell_regions(ink: np.ndarray) -> tuple[np.ndarray, tuple[float, float]]:
    import cv2

    height, width = ink.shape
    n, _, stats, _ = cv2.connectedComponentsWithStats((~ink).view(np.uint8), connectivity=4)
    x, y, w, h, area = (stats[:, i].astype(float) for i in range(5))
    ok = ((x > 0) & (y > 0) & (x + w < width) & (y + h < height) & (w >= 5) & (h >= 5)
          & (area >= 0.4 * w * h) & (w < 2 * h) & (h < 2 * w))
    idx = np.flatnonzero(ok)
    if len(idx) < 4:
        raise ScanError("no grid found: no regions enclosed by grid lines")
    ws, hs = w[idx], h[idx]
    similar = (np.abs(ws[:, None] - ws[None, :]) <= 0.12 * ws[:, None] + 1) & \
              (np.abs(hs[:, None] - hs[None, :]) <= 0.12 * hs[:, None] + 1)
    best = int(np.argmax(similar.sum(axis=1) + 1e-6 * ws * hs))
    group = idx[similar[best]]
    if len(group) < 4:
        raise ScanError("no grid found: fewer than four cells of one size")
    centres = np.stack([x[group] + (w[group] - 1) / 2, y[group] + (h[group] - 1) / 2], axis=1)
    return centres, (float(np.median(w[group])), float(np.median(h[group])))


def _neighbour_vectors(centres: np.ndarray, radius: float):
    d = centres[None, :, :] - centres[:, None, :]
    dist = np.hypot(d[..., 0], d[..., 1])
    i, j = np.nonzero((dist > 0.3 * radius) & (dist < radius))
    vectors = d[i, j]
    vectors[vectors[:, 1] < 0] *= -1  # one of each pair's two directions: pointing down (or right)
    angles = np.degrees(np.arctan2(vectors[:, 1], vectors[:, 0])) % 180
    if len(angles) < 4:
        raise ScanError("no grid found: the cells found are not next to each other")
    return angles, dist[i, j], vectors


def _fit(values: np.ndarray, pitch: float) -> tuple[float, float, np.ndarray]:
    """Origin and pitch of ``values ~ origin + k * pitch`` (least squares over integer ``k``)."""
    ref = values[np.argmin(np.abs(values - np.median(values)))]
    k = np.round((values - ref) / pitch)
    if np.ptp(k) > 0:
        pitch, origin = np.polyfit(k, values, 1)
    else:
        origin = float(np.mean(values - k * pitch))
    residual = np.abs(values - origin - k * pitch)
    if np.mean(residual > 0.2 * pitch) > 0.1:
        raise ScanError("no grid found: the cells found are not on a regular grid")
    return float(origin), float(pitch), k.astype(int)


def _pitch(vectors: np.ndarray, mask: np.ndarray, axis: int, what: str) -> float:
    if not mask.any():
        raise ScanError(f"no grid found: no {what} neighbours among the cells found")
    return float(np.median(np.abs(vectors[mask, axis])))


def _square_lattice(centres, vectors, across, down) -> Lattice:
    x0, dx, _ = _fit(centres[:, 0], _pitch(vectors, across, 0, "side-by-side"))
    y0, dy, _ = _fit(centres[:, 1], _pitch(vectors, down, 1, "stacked"))
    return Lattice(Family.STANDARD, x0, y0, dx, dy)


def _hex_lattice(centres, vectors, down, slant) -> Lattice:
    x0, dx, cols = _fit(centres[:, 0], _pitch(vectors, slant, 0, "diagonal"))
    y0, dy, halves = _fit(centres[:, 1], _pitch(vectors, down, 1, "stacked") / 2)
    parity = np.bincount((cols + halves) % 2, minlength=2)
    if min(parity) > 0.1 * len(cols):
        raise ScanError("no grid found: the hexagons found do not alternate by column")
    return Lattice(Family.HEX, x0, y0, dx, dy, int(np.argmax(parity)))


def find_board(ink: np.ndarray, diff: np.ndarray, lattice: Lattice) -> ScannedGrid:
    """The cells and walls of the board on ``lattice`` (see the module notes for the rule).

    A line's weight is its contrast summed across it (difference to the
    background x pixels): a wall is more than :data:`WALL` times the median
    line's weight, thicker or brighter or both, which survives JPEG blurring
    better than a width in pixels.

    Raises
    ------
    ScanError
        "no grid found": no site of the lattice is closed by lines, or no two
        neighbours are.
    """
    if lattice.transposed:
        ink, diff = ink.T, diff.T
    height, width = ink.shape
    sites = _sites(lattice, width, height)
    seen: dict[frozenset, float] = {}  # a border is shared by two sites: measure it once

    def border(site, step) -> float:
        key = frozenset((site, (site[0] + step[0], site[1] + step[1])))
        if key not in seen:
            seen[key] = _border(ink, diff, lattice, site, step)
        return seen[key]

    borders = {site: [border(site, step) for step in lattice.steps()] for site in sites}
    weights = [w for found in borders.values() for w in found if w > 0]
    if not weights:
        raise ScanError("no grid found: no lines between the cells")
    line = float(np.median(weights))
    thick = WALL * line
    cells = [site for site, found in borders.items()
             if all(w > 0 for w in found) and any(w < thick for w in found)]
    if not cells:
        raise ScanError("no grid found: no cell is closed by grid lines")
    have = set(cells)
    if not any((site[0] + step[0], site[1] + step[1]) in have for site in cells for step in lattice.steps()):
        # no flow fits: a ring's centre disc, or sectors on its axes, closed by a lattice's lines alone
        raise ScanError("no grid found: no two cells closed by grid lines are neighbours")
    walls = set()
    for site in cells:
        for step, w in zip(lattice.steps(), borders[site]):
            other = (site[0] + step[0], site[1] + step[1])
            if other in have and w >= thick:
                walls.add(frozenset((site, other)))
    return ScannedGrid(lattice, sorted(cells), walls, line)


def _sites(lattice: Lattice, width: int, height: int) -> list[tuple[int, int]]:
    margin_x, margin_y = 0.3 * lattice.dx, 0.3 * lattice.dy
    cols = range(math.floor(-lattice.x0 / lattice.dx) - 1, math.ceil((width - lattice.x0) / lattice.dx) + 2)
    rows = range(math.floor(-lattice.y0 / lattice.dy) - 1, math.ceil((height - lattice.y0) / lattice.dy) + 2)
    out = []
    for c in cols:
        for r in rows:
            if lattice.family.hexagonal and (c + r) % 2 != lattice.parity:
                continue
            x, y = lattice.centre((c, r))
            if margin_x <= x <= width - margin_x and margin_y <= y <= height - margin_y:
                out.append((c, r))
    return out


def _border(ink: np.ndarray, diff: np.ndarray, lattice: Lattice, site: tuple[int, int],
            step: tuple[int, int]) -> float:
    """Weight of the line between a site and its neighbour ``step`` away (0: no line)."""
    (x, y), (x2, y2) = lattice.centre(site), lattice.centre((site[0] + step[0], site[1] + step[1]))
    d = np.array([x2 - x, y2 - y])
    length = float(np.hypot(*d))
    u = d / length
    n = np.array([-u[1], u[0]])
    along = np.linspace(-0.3, 0.3, 7) * lattice.side(step)
    across = np.arange(-0.13 * length, 0.13 * length + 0.5, 0.5)
    mid = np.array([x, y]) + d / 2
    pts = mid + along[:, None, None] * n + across[None, :, None] * u
    px, py = np.rint(pts[..., 0]).astype(int), np.rint(pts[..., 1]).astype(int)
    inside = (px >= 0) & (py >= 0) & (px < ink.shape[1]) & (py < ink.shape[0])
    hit = np.zeros(px.shape, bool)
    hit[inside] = ink[py[inside], px[inside]]
    level = np.zeros(px.shape, float)
    level[inside] = diff[py[inside], px[inside]]
    widths = []
    for row, values in zip(hit, level):
        on = np.flatnonzero(row)
        if len(on) == 0:
            continue
        centre = len(row) // 2
        k = on[np.argmin(np.abs(on - centre))]
        if abs(k - centre) > 0.09 * length / 0.5:
            continue
        lo, hi = k, k
        while lo > 0 and row[lo - 1]:
            lo -= 1
        while hi < len(row) - 1 and row[hi + 1]:
            hi += 1
        widths.append(values[lo:hi + 1].sum() * 0.5)
    if len(widths) < 4:
        return 0.0
    return float(np.median(widths))
