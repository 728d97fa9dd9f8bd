"""A picture to a puzzle: the board (:mod:`.lattice`, else :mod:`.regions`), its dots (:mod:`.dots`), its text."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ..errors import ScanError
from ..io.grids import grid_sketch, text_key
from ..io.problems import Problem
from ..io.sketch import PlacedNode, Sketch, draw_neighbor_link
from ..model import Family, Puzzle
from .dots import Dot, find_cell_dots, find_dots, pair_dots, stray_dot
from .features import find_bridges, find_warps
from .image import image_source, load_image
from .lattice import Lattice, ScannedGrid, find_board, find_lattice, foreground, line_ink, without_marks
from .regions import Regions, find_regions

__all__ = ["Scan", "read_board", "scan"]


@dataclass
class Scan:
    """Everything read from one picture.

    Attributes
    ----------
    text : str
        The board in the neighbor-link format (docs/format.md); a shape board (:attr:`regions`) as a JSON
        graph whose cells carry their outlines.
    puzzle : Puzzle or None
        The parsed board, None when it breaks the rules (see :attr:`problems`).
    problems : list of Problem
        What the parser found wrong with :attr:`text` (positions in it).
    board : ScannedGrid or None
        Lattice, cells and walls (pixels of the scanned picture); None for a shape board.
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
    regions : Regions or None
        A shape board's cells (:mod:`.regions`), read where the cells stand on no lattice.
    """

    text: str
    puzzle: Puzzle | None
    problems: list[Problem]
    board: ScannedGrid | None
    dots: list[Dot]
    scale: float
    cells_xy: dict = field(default_factory=dict)
    bridges: set = field(default_factory=set)
    warps: set = field(default_factory=set)
    regions: Regions | None = None

    @property
    def size(self) -> tuple[int, int]:
        """Columns and rows of the board (as the game names its size: a 5x5 hex board has 5 rows); a shape
        board's cells and 1."""
        if self.board is None:
            return (len(self.regions.outlines) if self.regions else 0, 1)
        xs = [x for x, _ in self.cells_xy.values()]
        ys = [y for _, y in self.cells_xy.values()]
        size = (max(xs) - min(xs) + 1, max(ys) - min(ys) + 1) if xs else (0, 0)
        return size[::-1] if self.board.lattice.transposed else size

    @property
    def summary(self) -> str:
        """What was read, in a few words: ``5x5 square board, 25 cells, 5 flows, 0 walls``."""
        flows = len(self.dots) // 2
        if self.board is None:
            cells = len(self.regions.outlines) if self.regions else 0
            decks = f", {len(self.bridges)} bridge{'s' if len(self.bridges) != 1 else ''}" if self.bridges else ""
            return (f"shape board, {cells} cells, {len(self.regions.links) if self.regions else 0} links, {flows} flows"
                    f"{decks}")
        kind = "hex" if self.board.lattice.family.hexagonal else "square"
        return (f"{self.size[0]}x{self.size[1]} {kind} board, {len(self.board.cells)} cells, {flows} flows, "
                f"{len(self.board.walls)} walls")

    def where(self, xy: tuple[float, float]) -> tuple[float, float]:
        """A point of the scanned (possibly transposed) picture in pixels of the original picture."""
        x, y = xy if self.board is None or not self.board.lattice.transposed else (xy[1], xy[0])
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
        try:
            lattice = find_lattice(ink)
            board = find_board(ink, diff, lattice)
            if lattice.family.hexagonal:
                _hexagons_or_not(ink, diff, board)
        except ScanError as err:  # no lattice: the regions the lines enclose, if they make a board
            try:
                return _read_shape(rgb, diff, ink, scale, path)
            except _NoShape as why:
                raise ScanError(f"{err.message}; as a shape board: {why}") from None
        if lattice.transposed:
            rgb, diff = rgb.transpose(1, 0, 2), diff.T
        centres = {site: lattice.centre(site) for site in board.cells}
        pitch = min(lattice.dx, lattice.dy * (2 if lattice.family.hexagonal else 1))
        dots = find_dots(rgb, diff, centres, pitch)
        scan = Scan("", None, [], board, dots, scale)
        at = np.array(list(centres.values()))
        _no_stray_dot(rgb, diff, dots, lambda x, y: bool((np.hypot(at[:, 0] - x, at[:, 1] - y) < 0.75 * pitch).any()),
                      len(board.cells), scan.where)
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


def _no_stray_dot(rgb: np.ndarray, diff: np.ndarray, dots: list[Dot], inside, cells: int, where) -> None:
    """Refuse a board that leaves a dot out (:func:`.dots.stray_dot`): its lines were misread.

    Raises
    ------
    ScanError
        "unsure of the board's lines: a dot of colour ... lies in none of the N cells read".
    """
    dot = stray_dot(rgb, diff, dots, inside)
    if dot is not None:
        x, y = where(dot.xy)
        raise ScanError(f"unsure of the board's lines: a dot of colour {dot.hex} at ({x:.0f}, {y:.0f}) "
                        f"lies in none of the {cells} cells read; scan a larger or sharper picture")


#: Rows of rhombi share two thirds of the sides a hex board's cells would (four of six, less at the rim).
RHOMBUS_LINKS = 0.75


def _hexagons_or_not(ink: np.ndarray, diff: np.ndarray, board: ScannedGrid) -> None:
    """Check that a hex board's cells are hexagons: rows of 60-degree rhombi (a tiling's, a star's arm) have
    their centres on the same lattice, but each shares sides with four of its six nearest cells, not six.
    The regions the lines enclose (:mod:`.regions`) count the sides shared; where they are as many cells
    with at most :data:`RHOMBUS_LINKS` of the lattice's links, the board is no hex board (a region missed
    in a blurred picture loses a few links, not a third).

    Raises
    ------
    ScanError
        "no grid found: ..." (then read as a shape board).
    """
    try:
        regions = find_regions(ink.T if board.lattice.transposed else ink,
                               diff.T if board.lattice.transposed else diff)
    except ScanError:
        return
    have = set(board.cells)
    links = {frozenset((site, (site[0] + dx, site[1] + dy))) for site in board.cells
             for dx, dy in board.lattice.steps() if (site[0] + dx, site[1] + dy) in have} - board.walls
    if len(regions.outlines) == len(board.cells) and len(regions.links) <= RHOMBUS_LINKS * len(links):
        raise ScanError(f"no grid found: the {len(board.cells)} cells are not hexagons (they share "
                        f"{len(regions.links)} sides, a hex board's {len(links)})")


class _NoShape(Exception):
    """The regions of a picture make no shape board (why, in words)."""


def _read_shape(rgb: np.ndarray, diff: np.ndarray, ink: np.ndarray, scale: float, path: str | None) -> Scan:
    """A shape board read from the regions its lines enclose (:mod:`.regions`).

    Raises
    ------
    _NoShape
        The regions make no board with dots in it (the lattice's error is then said with why).
    ScanError
        A board was found and its dots do not pair up by colour.
    """
    from ..io.json_graph import analyse_json_graph, graph_text
    from ..render.outlined import centroid

    try:
        regions = find_regions(ink, diff)
    except ScanError as err:
        raise _NoShape(err.message.removeprefix("no board found: ")) from None
    if len(regions.outlines) < 4:
        raise _NoShape(f"only {len(regions.outlines)} regions of a cell's size share sides")
    dots = find_cell_dots(rgb, diff, regions.tiles, regions.line_width)
    if not dots:
        raise _NoShape(f"{len(regions.outlines)} cells, and no endpoint dot in any")
    found = Scan("", None, [], None, dots, scale, regions=regions)
    tiles = regions.tiles
    _no_stray_dot(rgb, diff, dots, lambda x, y: tiles[int(y), int(x)] >= 0, len(regions.outlines), found.where)
    pair_dots(dots, lambda dot: found.where(dot.xy))
    unit = regions.unit
    x0 = min(p[0] for poly in regions.outlines for p in poly)
    y0 = min(p[1] for poly in regions.outlines for p in poly)

    def board_units(p: tuple[float, float]) -> list[float]:
        return [round((p[0] - x0) / unit, 3), round((p[1] - y0) / unit, 3)]

    labels = {dot.site[0]: dot.label for dot in dots}
    decks = _decks(rgb, diff, ink, regions)
    found.bridges = set(decks)
    on_deck = sorted(set(labels) & set(decks))
    if on_deck:
        raise ScanError(f"cell {on_deck[0] + 1} (in reading order) is drawn as a bridge's deck and holds a dot: "
                        "an endpoint is never on a bridge")
    degree = np.zeros(len(regions.outlines), int)
    for pair in regions.links:
        degree[list(pair)] += 1
    # a cell no path could fill (one neighbour and no dot; a dot with none) is a thin line not seen, likelier
    # than a level no one can finish: unsure, not another board
    stuck = next((k for k in range(len(degree)) if degree[k] < (1 if k in labels else 2)), None)
    if stuck is not None:
        raise ScanError(f"unsure of the lines round cell {stuck + 1} (in reading order): it has {degree[stuck]} "
                        f"neighbour{'s' if degree[stuck] != 1 else ''}{'' if stuck in labels else ' and no dot'}, so no "
                        "path could fill it; scan a larger picture")
    nodes = []
    lane_of: dict[tuple[int, int], int] = {}  # (a bridge, a neighbour) -> the node of its lane to that neighbour
    for k, poly in enumerate(regions.outlines):
        outline = [board_units(p) for p in poly]
        base: dict = {"name": f"cell {k + 1}"}  # (in reading order: rows of half a cell, then columns)
        if k in labels:
            base["label"] = labels[k]
        base["xy"] = [round(v, 3) for v in centroid([(p[0], p[1]) for p in outline])]
        base["outline"] = outline
        if k not in decks:
            nodes.append({"id": k, **base})
            continue
        for lane, (pair, angle) in enumerate(decks[k]):  # a bridge: a lane straight across each pair of sides
            node_id = k if lane == 0 else len(regions.outlines) + len(nodes)
            nodes.append({"id": node_id, **base, "lane": str(angle)})
            lane_of.update({(k, other): node_id for other in pair})
    links = sorted([lane_of.get((a, b), a), lane_of.get((b, a), b)] for a, b in regions.links)
    found.text = graph_text(sorted(nodes, key=lambda node: node["id"]), [sorted(link) for link in links],
                            shape="scanned")
    found.puzzle, found.problems = analyse_json_graph(found.text, path)
    return found


#: A shape board's cell is a bridge's deck when its fill is this much brighter than the median cell's (the
#: difference to the background, 0-255: flowgraph's decks are 35-38 brighter, the game's cells under its
#: glows at most 8) and grey: its colour's spread (the largest channel less the smallest) under a quarter of that.
DECK_CONTRAST = 20
#: A deck's two pairs of opposite sides: the directions from its centre to the middles of two opposite sides
#: differ by at least this many degrees (a straight crossing: 180; a curved band's, less).
DECK_STRAIGHT = 130


def _decks(rgb: np.ndarray, diff: np.ndarray, ink: np.ndarray, regions: Regions) -> dict[int, list]:
    """The cells drawn as a bridge's deck (lighter and grey, :data:`DECK_CONTRAST`), each with its two lanes:
    ``[((neighbour, neighbour), angle), ...]``, the neighbours across opposite sides and the lane's axis in
    whole degrees (anticlockwise from across, as a JSON graph's angle lane).

    Raises
    ------
    ScanError
        A deck that is not crossed straight: not four neighbours, or no two pairs of opposite sides.
    """
    from .regions import FILL_CONTRAST

    tiles, count = regions.tiles, len(regions.outlines)
    fill = (~ink) & (diff <= FILL_CONTRAST) & (tiles >= 0)
    cell = tiles[fill]
    pixels = np.maximum(np.bincount(cell, minlength=count), 1)
    level = np.bincount(cell, weights=diff[fill].astype(float), minlength=count) / pixels
    colour = np.stack([np.bincount(cell, weights=rgb[..., c][fill].astype(float), minlength=count) / pixels
                       for c in range(3)], axis=1)
    lift = level - float(np.median(level))
    deck = (lift >= DECK_CONTRAST) & (colour.max(axis=1) - colour.min(axis=1) < lift / 4)
    around: dict[int, list[int]] = {}
    for a, b in regions.links:
        around.setdefault(a, []).append(b)
        around.setdefault(b, []).append(a)
    out = {}
    for k in np.flatnonzero(deck).tolist():
        sides = around.get(k, [])
        if len(sides) != 4:
            raise ScanError(f"cell {k + 1} (in reading order) is drawn as a bridge's deck but has {len(sides)} "
                            "neighbours: a bridge is crossed straight, four sides in two opposite pairs")
        out[k] = _deck_lanes(k, sides, regions.outlines)
    return out


def _deck_lanes(k: int, sides: list[int], outlines: list) -> list:
    """Deck ``k``'s two lanes: its four neighbours ``sides`` paired across opposite sides (the pairing whose
    least turn between a pair's directions from the deck's centre to its shared sides' middles is the largest),
    each with its axis in whole degrees. Raises ScanError where no pairing is straight (:data:`DECK_STRAIGHT`)."""
    mine = set(outlines[k])
    cx, cy = np.mean(outlines[k], axis=0)
    heading = {}
    for other in sides:
        shared = mine & set(outlines[other])
        mx, my = np.mean(list(shared), axis=0) if shared else (cx, cy)
        heading[other] = ((mx, my), math.atan2(my - cy, mx - cx))

    def apart(pair: tuple[int, ...]) -> float:
        turn = abs(math.degrees(heading[pair[0]][1] - heading[pair[1]][1])) % 360
        return min(turn, 360 - turn)

    first = sides[0]
    pairings = [((first, o), tuple(n for n in sides[1:] if n != o)) for o in sides[1:]]
    best = max(pairings, key=lambda pairing: min(apart(pair) for pair in pairing))
    if min(apart(pair) for pair in best) < DECK_STRAIGHT:
        raise ScanError(f"cell {k + 1} (in reading order) is drawn as a bridge's deck but its sides do not pair "
                        "straight across")
    lanes = []
    for a, b in best:
        (ax, ay), (bx, by) = heading[a][0], heading[b][0]
        lanes.append(((a, b), round(math.degrees(math.atan2(ay - by, bx - ax))) % 180))
    return lanes


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
    column) and hex boards (flat or pointed tops; no bridges or warps) are read;
    where the cells stand on no lattice (the game's shape levels: a ring, a
    star, a figure-eight), the regions the lines enclose (:mod:`.regions`).

    Parameters
    ----------
    image : str, Path, bytes or numpy.ndarray
        A picture file, its bytes, or an RGB array (see :func:`~.image.load_image`).
    path : str, optional
        The name the puzzle and messages carry (default: the file name).

    Returns
    -------
    Puzzle
        A neighbor-link puzzle (``puzzle.lines`` is its text); a shape board's is a JSON graph whose
        cells carry their outlines and names (``cell 1``, ... in reading order).

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
    assert board is not None  # (a lattice board's)
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
