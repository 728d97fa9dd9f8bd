"""A picture to a puzzle: the board (:mod:`.lattice`), its dots (:mod:`.dots`), neighbor-link text."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ..errors import ScanError
from ..io.grids import grid_sketch, text_key
from ..io.problems import Problem
from ..io.sketch import PlacedNode, Sketch, draw_neighbor_link
from ..model import Family, Puzzle
from .dots import Dot, find_dots, pair_dots
from .features import find_bridges, find_warps
from .image import image_source, load_image
from .lattice import Lattice, ScannedGrid, find_board, find_lattice, foreground, line_ink, without_marks

__all__ = ["Scan", "read_board", "scan"]


@dataclass
class Scan:
    """Everything read from one picture.

    Attributes
    ----------
    text : str
        The board in the neighbor-link format (docs/format.md).
    puzzle : Puzzle or None
        The parsed board, None when it breaks the rules (see :attr:`problems`).
    problems : list of Problem
        What the parser found wrong with :attr:`text` (positions in it).
    board : ScannedGrid
        Lattice, cells and walls (pixels of the scanned picture).
    dots : list of Dot
        Labelled endpoint dots.
    scale : float
        Pixels of the scanned picture per pixel of the original.
    cells_xy : dict of site -> (x, y)
        Where each site's cell is on the text grid.
    bridges : set of site
        Cells drawn as bridges.
    warps : set of (site, site)
        The first and last cell of a row or column that tunnels link.
    """

    text: str
    puzzle: Puzzle | None
    problems: list[Problem]
    board: ScannedGrid
    dots: list[Dot]
    scale: float
    cells_xy: dict = field(default_factory=dict)
    bridges: set = field(default_factory=set)
    warps: set = field(default_factory=set)

    @property
    def size(self) -> tuple[int, int]:
        """Columns and rows of the board (as the game names its size: a 5x5 hex board has 5 rows)."""
        xs = [x for x, _ in self.cells_xy.values()]
        ys = [y for _, y in self.cells_xy.values()]
        size = (max(xs) - min(xs) + 1, max(ys) - min(ys) + 1) if xs else (0, 0)
        return size[::-1] if self.board.lattice.transposed else size

    def where(self, xy: tuple[float, float]) -> tuple[float, float]:
        """A point of the scanned (possibly transposed) picture in pixels of the original picture."""
        x, y = xy if not self.board.lattice.transposed else (xy[1], xy[0])
        return x / self.scale, y / self.scale


def read_board(image, path: str | None = None) -> Scan:
    """Read a board from a picture, keeping what was read even when it breaks the rules.

    Parameters
    ----------
    image : str, Path, bytes or numpy.ndarray
        See :func:`~.image.load_image`.
    path : str, optional
        The name messages and the puzzle carry (default: the file name, if any).

    Returns
    -------
    Scan

    Raises
    ------
    ScanError
        The picture cannot be read, no grid is found, or the dots do not pair
        up by colour.
    """
    path = path or image_source(image)
    try:
        import cv2  # noqa: F401
    except ImportError:
        raise ScanError("scanning needs OpenCV: pip install 'flowgraph-solver[scan]'", path) from None
    rgb = None
    try:
        rgb, scale = load_image(image)
        background, diff = foreground(rgb)
        cleaned = without_marks(rgb, background)
        if cleaned is not rgb:
            rgb = cleaned
            _, diff = foreground(rgb)
        ink = line_ink(diff)
        lattice = find_lattice(ink)
        board = find_board(ink, diff, lattice)
        if lattice.transposed:
            rgb, diff = rgb.transpose(1, 0, 2), diff.T
        centres = {site: lattice.centre(site) for site in board.cells}
        pitch = min(lattice.dx, lattice.dy * (2 if lattice.family.hexagonal else 1))
        dots = find_dots(rgb, diff, centres, pitch)
        scan = Scan("", None, [], board, dots, scale)
        pair_dots(dots, lambda dot: scan.where(dot.xy))
        scan.bridges = find_bridges(rgb, diff, lattice, board.cells, {d.site for d in dots})
        scan.warps = find_warps(diff, lattice, board.cells)
    except ScanError as err:
        message = err.message
        if rgb is not None and ("no grid found" in message or "dots of colour" in message) and _looks_solved(rgb):
            message += ("; the picture looks solved (pipes drawn over the cells): scan reads boards before they "
                        "are played: take the screenshot before drawing a path, or render without --solve")
        raise ScanError(message, path) from None
    scan.cells_xy = _grid_places(lattice, board.cells)
    scan.text = draw_neighbor_link(_sketch(scan))
    from ..io.neighbor_link import analyse

    scan.puzzle, scan.problems = analyse(scan.text, path)
    return scan


#: The share of strongly coloured pixels above which a picture whose grid is not found is taken for a
#: solved board: pipes and dots of a solved render cover 27-30 %, the dots of an unsolved one 6-13 %.
SOLVED_SHARE = 0.2


def _looks_solved(rgb: np.ndarray) -> bool:
    colour = rgb.max(axis=2).astype(np.int16) - rgb.min(axis=2)
    return float((colour > 80).mean()) >= SOLVED_SHARE


def scan(image, path: str | None = None) -> Puzzle:
    """Read a puzzle from a screenshot or a picture of a board.

    Square boards (rectangles, holes, walls drawn as thick lines, bridges
    drawn as a lighter tile, warps as tunnels at both ends of a row or
    column) and hex boards (flat or pointed tops; no bridges or warps) are read.

    Parameters
    ----------
    image : str, Path, bytes or numpy.ndarray
        A picture file, its bytes, or an RGB array (see :func:`~.image.load_image`).
    path : str, optional
        The name the puzzle and messages carry (default: the file name).

    Returns
    -------
    Puzzle
        A neighbor-link puzzle (``puzzle.lines`` is its text).

    Raises
    ------
    ScanError
        The picture cannot be read or is refused (see :data:`~.image.MAX_PIXELS`),
        no grid is found, dots do not pair up by colour, or the board read
        breaks the rules of the format (the message names the first problem).
    """
    found = read_board(image, path)
    if found.puzzle is None:
        first = next(p for p in found.problems if p.is_error)
        raise ScanError(f"the board read breaks the rules: {first.message} (line {first.line} of the text read)",
                        path or image_source(image))
    return found.puzzle


def _grid_places(lattice: Lattice, cells: list[tuple[int, int]]) -> dict:
    """Site -> (x, y) on the text grid; hex: the top cell of every column is in row 0 on a rectangular board
    (the columns that start lower link down-diagonally, as in level packs)."""
    c0 = min(c for c, _ in cells)
    r0 = min(r for _, r in cells)
    if not lattice.family.hexagonal:
        return {(c, r): (c - c0, r - r0) for c, r in cells}
    return {(c, h): (c - c0, (h - r0) // 2) for c, h in cells}


def _hex_down(lattice: Lattice, cells: list[tuple[int, int]]) -> int:
    c0 = min(c for c, _ in cells)
    r0 = min(r for _, r in cells)
    top = next(c for c, h in cells if h == r0)
    return (top - c0 + 1) % 2


def _sketch(scan: Scan) -> Sketch:
    board, places = scan.board, scan.cells_xy
    labels = {dot.site: dot.label for dot in scan.dots}
    cells = {places[site]: labels.get(site, "*" if site in scan.bridges else ".") for site in board.cells}
    walls = frozenset(frozenset(places[s] for s in wall) for wall in board.walls)
    hex_down = _hex_down(board.lattice, board.cells) if board.lattice.family.hexagonal else None
    family = Family.BRIDGES if scan.bridges else Family.WARPS if scan.warps else board.lattice.family
    sketch, _ = grid_sketch(cells, family, hex_down=hex_down, walls=walls)
    for a, b in scan.warps:
        axis = "-" if a[1] == b[1] else "|"
        u, v = (text_key(*places[s]) + ((axis,) if s in scan.bridges else ()) for s in (a, b))
        sketch.link(u, v, warp=True)  # type: ignore[arg-type]  # (line, column) or (line, column, axis)
    return _transpose(sketch) if board.lattice.transposed else sketch


def _transpose(sketch: Sketch) -> Sketch:
    """The sketch mirrored on its diagonal: a board of flat-topped hexagons becomes one of pointed tops."""
    out = Sketch(sketch.family)
    key = {}
    for old, spot in sketch.spots.items():
        x, y = spot.xy or (0, 0)  # grid_sketch places every node
        key[old] = text_key(y, x)
        out.spots[key[old]] = PlacedNode((y, x), spot.label, spot.lane)
    for pair, warp in sketch.links.items():
        u, v = pair
        out.link(key[u], key[v], warp)
    return out


def hex_corners(lattice: Lattice, centre: tuple[float, float]) -> list[tuple[float, float]]:
    """The corners of a cell around ``centre`` (pixels of the scanned picture)."""
    x, y = centre
    if lattice.family.hexagonal:
        s = 2 * lattice.dy / math.sqrt(3)
        return [(x + s * math.cos(math.radians(a)), y + s * math.sin(math.radians(a))) for a in range(0, 360, 60)]
    hx, hy = lattice.dx / 2, lattice.dy / 2
    return [(x - hx, y - hy), (x + hx, y - hy), (x + hx, y + hy), (x - hx, y + hy)]
