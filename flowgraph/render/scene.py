"""A picture of a puzzle or a solution as plain primitives, for the SVG and raster backends.

:func:`scene` turns a puzzle (and optionally the paths of a solution, whole
or partial) into a :class:`Scene`: cell shapes, walls, the outline of the
board, tunnel stubs for warps, pipes, endpoint dots and labels, in pixels.
Both backends draw the same scene, so an SVG and a PNG of a board agree.

* holes are left empty; the board's outline is drawn where a cell has no
  neighbouring cell;
* a **wall** is a pair of neighbouring cells with no link: a thick line on
  their shared edge;
* a **warp** link is drawn as two tunnel stubs, one on each edge it leaves
  and re-enters, and a pipe through it runs out to the edge and back in;
* a **bridge** is crossed twice, drawn as the game's raised crossing: a
  lighter deck with guard rails along the ``-`` lane, the ``|`` lane's pipe
  running on beneath it in shadow (a darker shade of its colour, so it is
  seen to continue), the ``-`` lane's pipe over it with a thin gap.

The Flow Free palette colours the first 16 flows (the colour table of M.
Zucker's ``flow_solver``), then evenly spread hues (the golden angle) with
alternating lightness give distinct colours up to 62.
"""

from __future__ import annotations

import colorsys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import ConversionError
from ..model import LABELS, Node, Puzzle
from .geometry import Geometry, board_links, geometry_of
from .outlined import deck_sides, outlined_scene, place_dots

__all__ = ["Scene", "scene", "flow_colour", "flow_colour_name", "flow_ink", "shade", "THEMES", "FLOW_FREE",
           "FLOW_FREE_NAMES"]

#: Flow Free's first 16 colours (RGB), in flow order.
FLOW_FREE = (
    (255, 0, 0), (0, 128, 0), (0, 0, 255), (238, 238, 0), (255, 128, 0), (0, 255, 255), (255, 0, 255),
    (128, 0, 0), (128, 0, 128), (255, 255, 255), (166, 166, 166), (0, 255, 0), (189, 182, 108), (0, 0, 139),
    (0, 139, 139), (255, 20, 147),
)

#: What players call those colours (the game's own names where it gives them).
FLOW_FREE_NAMES = ("red", "green", "blue", "yellow", "orange", "cyan", "magenta", "maroon", "purple", "white", "grey",
                   "lime", "tan", "navy", "teal", "pink")

#: Theme -> background, cell fill, grid line, wall and outline, the rim of an overpass, bridge deck, the thin
#: line round a deck (as far from the deck's grey as a grid line is from a cell's fill: a scan finds its sides),
#: tunnel, a bridge deck's guard rails.
THEMES = {
    "dark": {"background": (0, 0, 0), "cell": (12, 12, 12), "grid": (70, 70, 70), "wall": (200, 200, 200),
             "rim": (0, 0, 0), "bridge": (50, 50, 50), "deck_edge": (108, 108, 108), "tunnel": (110, 110, 110),
             "rail": (110, 110, 110)},
    "light": {"background": (255, 255, 255), "cell": (246, 246, 246), "grid": (190, 190, 190), "wall": (40, 40, 40),
              "rim": (255, 255, 255), "bridge": (212, 212, 212), "deck_edge": (156, 156, 156),
              "tunnel": (150, 150, 150),
              "rail": (130, 130, 130)},
}

RGB = tuple[int, int, int]
Point = tuple[float, float]


def flow_colour(label: str) -> RGB:
    """The colour of a flow: Flow Free's for the first 16 labels, distinct generated hues after.

    >>> flow_colour("A"), flow_colour("B")
    ((255, 0, 0), (0, 128, 0))
    """
    k = LABELS.find(label)
    if 0 <= k < len(FLOW_FREE):
        return FLOW_FREE[k]
    hue = (k * 0.618033988749895) % 1.0
    r, g, b = colorsys.hls_to_rgb(hue, 0.45 if k % 2 else 0.65, 0.85)
    return (round(r * 255), round(g * 255), round(b * 255))


def flow_colour_name(label: str) -> str:
    """What a player calls a flow: its colour's name for the first 16 labels, else ``"flow LABEL"``.

    >>> flow_colour_name("A"), flow_colour_name("z")
    ('red', 'flow z')
    """
    k = LABELS.find(label)
    return FLOW_FREE_NAMES[k] if 0 <= k < len(FLOW_FREE_NAMES) else f"flow {label}"


def _luminance(rgb: RGB) -> float:
    """WCAG 2 relative luminance of an sRGB colour, 0 (black) to 1 (white)."""
    def linear(c: int) -> float:
        c_ = c / 255
        return c_ / 12.92 if c_ <= 0.04045 else ((c_ + 0.055) / 1.055) ** 2.4
    r, g, b = map(linear, rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


#: Below this contrast with the background (WCAG 2's 3:1 for graphics) a flow gets a rim.
RIM_CONTRAST = 3.0


def flow_ink(label: str, theme: dict) -> tuple[RGB, RGB | None]:
    """The colour a flow is drawn in on a theme, and the rim around its dots and pipes, if any.

    A colour whose contrast with the background is under :data:`RIM_CONTRAST` (WCAG 2,
    "non-text contrast") gets a rim: light on the dark theme (navy, maroon, purple, blue),
    dark on the light theme (white, yellow, cyan, lime, ...). White itself is drawn dark grey
    on the light theme, where even a rim leaves a white pipe on white cells unreadable.

    Parameters
    ----------
    label : str
    theme : dict
        One of :data:`THEMES`' values.

    Returns
    -------
    colour : (int, int, int)
    rim : (int, int, int) or None
    """
    colour = flow_colour(label)
    background = _luminance(theme["background"])
    light = background > 0.5
    if light and colour == (255, 255, 255):
        colour = (96, 96, 96)
    own = _luminance(colour)
    contrast = (max(own, background) + 0.05) / (min(own, background) + 0.05)
    if contrast >= RIM_CONTRAST:
        return colour, None
    return colour, ((70, 70, 70) if light else (170, 170, 170))


@dataclass
class Scene:
    """Everything to draw, in pixels, back to front."""

    width: int
    height: int
    theme: dict
    cells: list[list[Point]] = field(default_factory=list)  # one polygon per cell (a bridge's lanes share one)
    bridges: list[list[Point]] = field(default_factory=list)  # the bridge cells' polygons again, drawn as tiles
    cell_pos: list[tuple[int, int]] = field(default_factory=list)  # each cell's (line, column) in its source text
    cell_xy: list[tuple[int, int]] = field(default_factory=list)  # each cell's place on the board's grid
    ghosts: list[tuple[tuple[int, int], list[Point]]] = field(default_factory=list)  # empty places (for editors)
    grid_lines: list[tuple[Point, Point]] = field(default_factory=list)  # edges between linked neighbours
    walls: list[tuple[Point, Point]] = field(default_factory=list)  # edges between unlinked neighbours
    outline: list[tuple[Point, Point]] = field(default_factory=list)  # edges with no cell across
    tunnels: list[tuple[Point, Point]] = field(default_factory=list)  # a warp's stub: from the board's edge outwards
    pipes: list[tuple[str, list[list[Point]]]] = field(default_factory=list)  # per flow: its strokes
    overpasses: list[tuple[str, list[Point]]] = field(default_factory=list)  # a ``-`` lane's segment over its bridge
    underpasses: list[tuple[str, list[Point]]] = field(default_factory=list)  # a ``|`` lane's segment beneath it
    rails: list[tuple[Point, Point]] = field(default_factory=list)  # a bridge deck's guard rails, drawn over the lanes
    deck_sides: list[tuple[Point, Point, float]] = field(default_factory=list)  # each once, its width in pixels
    deck_ink: str = "grid"  # the theme's colour for them (a lattice's: the grid's; a shape's: "deck_edge")
    by_area: bool = False  # a raster scaled down by area, not Lanczos (a shape's: see .raster)
    dots: list[tuple[str, Point]] = field(default_factory=list)  # endpoints
    dot_radii: list[float] = field(default_factory=list)  # each dot's radius, pixels (a shape's small cell: less)
    labels: list[tuple[str, Point]] = field(default_factory=list)
    rulers: list[tuple[str, Point]] = field(default_factory=list)  # row numbers down the left, columns across the top
    names: list[tuple[list[str], Point, float]] = field(default_factory=list)  # a shape's cell: its name's lines, centre, font px
    cell_px: float = 40.0
    pipe_px: float = 13.0
    dot_px: float = 15.0
    grid_px: float = 1.0  # a thin line's width (the game's phone screenshots: about 4)


def dot_radius(sc: Scene, k: int) -> float:
    """The radius of the scene's ``k``-th dot, pixels."""
    return sc.dot_radii[k] if k < len(sc.dot_radii) else sc.dot_px


#: Places (cells and holes of the board's bounding grid) a picture may span: 500 x 500.
MAX_DRAWN_PLACES = 250_000
#: Pixels a picture may have (an RGB image of this size takes 300 MB; drawing it as PNG about 2.8 GB, which
#: --memory-limit bounds first: flowgraph.io.footprint.PNG_BYTES_PER_PIXEL).
MAX_DRAWN_PIXELS = 100_000_000


def scene(
    puzzle: Puzzle,
    paths: Mapping[str, Sequence[Any]] | None = None,
    *,
    theme: str = "dark",
    cell_px: int = 40,
    labels: bool = False,
    ghosts: bool = False,
    rulers: bool | None = None,
) -> Scene:
    """The picture of a puzzle, with pipes along ``paths`` (a solution's, or a search state's partial ones).

    Parameters
    ----------
    puzzle : Puzzle
        Of any format whose nodes have a 2-D place.
    paths : dict of label -> list of Node, optional
        Pipes to draw; a path may be partial (a search state's) or in two
        pieces, one from each endpoint (a list of lists).
    theme : {"dark", "light"}
    cell_px : int
        Pixels per cell.
    labels : bool
        Write each endpoint's label on its dot (to tell flows apart without colour); on a board drawn by its
        cells' outlines, also every other cell's name in it (:attr:`Scene.names`; the picture drawn larger,
        at most 4 times, till the smallest name is :data:`.outlined.NAME_PX` pixels).
    ghosts : bool
        Also outline the empty places of the board's bounding grid (an editor clicks them into cells).
    rulers : bool, optional
        Number the rows down the left and the columns across the top as a player names cells (``r3c5``:
        :attr:`flowgraph.model.Puzzle.cell_places`); default: as ``labels``.

    Raises
    ------
    ValueError
        Unknown theme.
    ConversionError
        A node has no 2-D place (a 3-D JSON board), or the board spans more
        than :data:`MAX_DRAWN_PLACES` places or the picture more than
        :data:`MAX_DRAWN_PIXELS` pixels.
    """
    if theme not in THEMES:
        raise ValueError(f"unknown theme {theme!r}: expected one of {', '.join(THEMES)}")
    if puzzle.drawing.outlines:  # a shape board: its cells drawn as their reader gave them
        return outlined_scene(puzzle, paths, THEMES[theme], cell_px, labels, MAX_DRAWN_PIXELS, Scene)
    xys = {}
    for key, xy in puzzle.places.items():  # where the board's reader drew each node
        if xy is None or len(xy) != 2:
            raise ConversionError(f"the node at {key[0]}:{key[1]} has no place on a 2-D grid to draw it at")
        xys[key] = xy
    links = board_links(puzzle)
    geo = geometry_of(xys, links)
    x0 = min(xy[0] for xy in xys.values())
    y0 = min(xy[1] for xy in xys.values())
    if geo.kind == "hex-columns":  # keep each column's parity: shift by whole pairs of columns
        x0 -= x0 % 2
    places = {key: (round(xy[0] - x0), round(xy[1] - y0)) for key, xy in xys.items()}
    span = (max(x for x, _ in places.values()) + 1) * (max(y for _, y in places.values()) + 1)
    if span > MAX_DRAWN_PLACES:  # checked before anything proportional to it is made
        raise ConversionError(f"the board spans {span:,} places: too large to draw (at most {MAX_DRAWN_PLACES:,})")
    geo = _shifted(geo, y0)
    warped = any(links.values())
    margin = 0.55 if warped else 0.3  # room for the tunnels outside the edge
    rulers = labels if rulers is None else rulers
    lead = margin + (0.5 if rulers else 0)  # left and top: room for the row and column numbers
    w, h = geo.size(list(set(places.values())))
    s = cell_px
    if (w + margin + lead) * (h + margin + lead) * s * s > MAX_DRAWN_PIXELS:
        raise ConversionError(f"the picture would be over {MAX_DRAWN_PIXELS:,} pixels: draw it with a smaller cell_px")

    def px(p: Point) -> Point:
        return ((p[0] + lead) * s, (p[1] + lead) * s)

    out = Scene(round((w + margin + lead) * s), round((h + margin + lead) * s), THEMES[theme], cell_px=s,
                pipe_px=0.32 * s, dot_px=0.36 * s)
    cells = set(places.values())
    out.cells = [[px(p) for p in geo.corners(xy)] for xy in sorted(cells)]
    where = {at: k[:2] for k, at in places.items()}
    out.cell_pos = [where[xy] for xy in sorted(cells)]
    shift = (round(x0), round(y0))
    out.cell_xy = [(x + shift[0], y + shift[1]) for x, y in sorted(cells)]
    if ghosts:
        xs = [x for x, _ in cells]
        ys = [y for _, y in cells]
        out.ghosts = [((x + shift[0], y + shift[1]), [px(p) for p in geo.corners((x, y))])
                      for y in range(min(ys), max(ys) + 1) for x in range(min(xs), max(xs) + 1) if (x, y) not in cells]
    out.bridges = [[px(p) for p in geo.corners(xy)] for xy in sorted({at for k, at in places.items() if len(k) == 3})]
    out.deck_sides = deck_sides(out.bridges, 1.0)  # square, in the grid's colour: no side slants
    for poly in out.bridges:  # the deck's guard rails: either side of the - lane's pipe, across the cell
        deck_x, deck_y = [x for x, _ in poly], [y for _, y in poly]
        left, right, mid = min(deck_x) + 0.25 * s, max(deck_x) - 0.25 * s, (min(deck_y) + max(deck_y)) / 2
        out.rails += [((left, mid - 0.21 * s), (right, mid - 0.21 * s)), ((left, mid + 0.21 * s), (right, mid + 0.21 * s))]
    linked = {frozenset((places[u], places[v])) for u, v in (tuple(pair) for pair in links)}
    warps = [(places[u], places[v]) for u, v in (tuple(pair) for pair, warp in links.items() if warp)]
    _edges(out, geo, cells, linked, px)
    for a, b in warps:
        out.tunnels += [_stub(geo, a, b, px), _stub(geo, b, a, px)]
    centre = {key: px(geo.centre(at)) for key, at in places.items()}
    warp_pairs = {frozenset(pair) for pair in warps}
    for label, given in (paths or {}).items():
        pieces: Sequence[list[Node]] = [list(given)] if given and not isinstance(given[0], list) else given
        strokes = []
        for piece in pieces:
            strokes += _strokes(piece, places, centre, warp_pairs, geo, px)
            for i, n in enumerate(piece[1:-1], 1):
                lane = n[2] if len(n) == 3 else None
                if lane:
                    crossing = (label, _across(centre[piece[i - 1]], centre[n], centre[piece[i + 1]], s))
                    (out.overpasses if lane == "-" else out.underpasses).append(crossing)
        out.pipes.append((label, strokes))
    place_dots(out, puzzle, centre, labels)
    if rulers:
        out.rulers = _rulers(puzzle, centre, 0.25 * s)  # outside the tunnels of warps
    return out


def _rulers(puzzle: Puzzle, centre: Mapping[Node, Point], at: float) -> list[tuple[str, Point]]:
    """Each row's number at ``at`` pixels from the left, level with its cells, and each column's at ``at`` from
    the top, above its cells (a hexagonal board's shifted rows or columns: their mean)."""
    rows: dict[int, list[float]] = {}
    columns: dict[int, list[float]] = {}
    for node, place in puzzle.cell_places.items():
        if place is not None and node in centre:
            rows.setdefault(place[0], []).append(centre[node][1])
            columns.setdefault(place[1], []).append(centre[node][0])
    return ([(str(r), (at, sum(ys) / len(ys))) for r, ys in sorted(rows.items())] +
            [(str(c), (sum(xs) / len(xs), at)) for c, xs in sorted(columns.items())])


def _shifted(geo: Geometry, y0: float) -> Geometry:
    """Row offsets keyed by the drawn rows (rows start at 0 after moving the board to the origin)."""
    if geo.kind != "hex-rows" or not geo.row_shift:
        return geo
    shift = {int(y - y0): s for y, s in geo.row_shift.items()}
    low = min(shift.values())
    return Geometry("hex-rows", row_shift={y: v - low for y, v in shift.items()})


def _edges(out: Scene, geo: Geometry, cells: set, linked: set, px) -> None:
    """Grid lines, walls and outline: each cell edge once, by what lies across it."""
    seen = set()
    for xy in sorted(cells):
        corners = geo.corners(xy)
        centre = geo.centre(xy)
        for i in range(len(corners)):
            a, b = corners[i], corners[(i + 1) % len(corners)]
            mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
            across = next((n for n in geo.neighbours(xy) if n in cells and _near(geo.centre(n),
                          (2 * mid[0] - centre[0], 2 * mid[1] - centre[1]))), None)
            key = frozenset((xy, across)) if across else (xy, i)
            if key in seen:
                continue
            seen.add(key)
            seg = (px(a), px(b))
            if across is None:
                out.outline.append(seg)
            elif frozenset((xy, across)) in linked:
                out.grid_lines.append(seg)
            else:
                out.walls.append(seg)


def _near(p: Point, q: Point) -> bool:
    return abs(p[0] - q[0]) < 1e-6 and abs(p[1] - q[1]) < 1e-6


def shade(colour: tuple[int, int, int], theme: Mapping) -> tuple[int, int, int]:
    """A pipe's colour in the shadow of a bridge deck: halfway to the theme's background."""
    back = theme["background"]
    return tuple(round(0.5 * c + 0.5 * b) for c, b in zip(colour, back))


def _stub(geo: Geometry, a: tuple, b: tuple, px) -> tuple[Point, Point]:
    """The tunnel of a warp at cell ``a``: from its edge outwards, on the side away from ``b``."""
    ca, cb = geo.centre(a), geo.centre(b)
    dx, dy = ca[0] - cb[0], ca[1] - cb[1]
    ux, uy = (1.0 if dx > 0 else -1.0, 0.0) if abs(dx) >= abs(dy) else (0.0, 1.0 if dy > 0 else -1.0)
    return px((ca[0] + 0.5 * ux, ca[1] + 0.5 * uy)), px((ca[0] + 0.85 * ux, ca[1] + 0.85 * uy))


def _across(prev: Point, mid: Point, nxt: Point, cell: float) -> list[Point]:
    """The straight segment a lane's pipe takes across its bridge cell (from ``prev``'s side to ``nxt``'s)."""
    dx, dy = nxt[0] - prev[0], nxt[1] - prev[1]
    n = (dx * dx + dy * dy) ** 0.5 or 1.0
    ux, uy = dx / n * cell / 2, dy / n * cell / 2
    return [(mid[0] - ux, mid[1] - uy), (mid[0] + ux, mid[1] + uy)]


def _strokes(path: list[Node], places: dict, centre: dict, warps: set, geo: Geometry, px) -> list[list[Point]]:
    """A path as strokes through cell centres, broken at warps into runs out to the edge and back in."""
    strokes = [[centre[path[0]]]] if path else []
    for u, v in zip(path, path[1:]):
        if frozenset((places[u], places[v])) in warps:
            strokes[-1].append(_stub(geo, places[u], places[v], px)[1])
            strokes.append([_stub(geo, places[v], places[u], px)[1], centre[v]])
        else:
            strokes[-1].append(centre[v])
    return strokes
