"""Shape boards as the game draws them, written as JSON graphs whose cells carry their outlines and names.

A shape board's cells are not a lattice's: each cell is a polygon in board units (its ``outline``), named in
the shape's own terms (its ``name``), and the links are the sides two cells share. The engines see only the
graph; the picture draws the outlines (:mod:`flowgraph.render.outlined`), the text output and every message
name cells by their names.

* :func:`ring` — rings of annulus sectors around a hole, or around a centre cell (Flow Free: Shapes' rings);
* :func:`cube` — a cube's three visible faces, each a grid of rhombi, linked across the cube's edges;
* :func:`star` — a six-pointed star: six arms, each a grid of rhombi, meeting at the centre (or 5 to 12 points);
* :func:`figure_eight` — a band round two loops that crosses itself between them: its crossing's cells are
  bridges;
* :func:`linked_loops` — a chain of loops, each band crossing the next one's twice: the crossings are bridges;
* :func:`borromean` — three round bands, each crossing both others twice at 60 degrees on bridges whose lanes
  are angles, each ring over the next;
* :func:`triquetra` — one band round three pointed lobes (the Borromean rings' inner arcs), crossing itself
  three times at 60 degrees, over and under in turn;
* :func:`tiling` — any polygonal silhouette cut from a square, hex, triangle or rhombus tiling.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..io.problems import Problem
    from ..io.sketch import Sketch
    from ..model import Node, Puzzle

__all__ = ["ring", "cube", "star", "figure_eight", "ShapeBoard", "shape_board", "SHAPES", "MAX_SECTORS", "MAX_RINGS",
           "MAX_CUBE_SIDE", "MIN_POINTS", "MAX_POINTS", "ARC_STEPS", "MAX_BAND",
           "linked_loops", "MAX_LOOPS", "CROSSINGS", "tiling", "TILINGS", "MAX_SILHOUETTE", "MAX_SILHOUETTE_POINTS",
           "borromean", "MAX_BORROMEAN_BAND", "triquetra"]

#: The shapes :func:`shape_board` makes, and the parameters each takes.
SHAPES = {"ring": ("rings", "sectors", "centre"), "cube": ("side",), "star": ("side", "points"),
          "figure-eight": ("rings", "sectors", "crossing"), "linked-loops": ("loops", "rings", "sectors"),
          "tiling": ("tiling", "side", "silhouette"), "borromean": ("rings", "sectors"),
          "triquetra": ("rings", "sectors")}

#: The most sectors a ring may have, and the most rings.
MAX_SECTORS = 360
MAX_RINGS = 100
#: The most cells along a cube face's side.
MAX_CUBE_SIDE = 100
#: The fewest and the most points of a star (four arms of right-angled rhombi make a square, not a star).
MIN_POINTS = 5
MAX_POINTS = 12
#: Straight pieces a sector's arc is drawn with, at least (more on a ring of few sectors: it looks round).
ARC_STEPS = 4


def ring(rings: int, sectors: int, centre: bool = False) -> str:
    """A blank ring board (no endpoints yet) as JSON graph text: ``rings`` rings of ``sectors`` annulus sectors.

    Ring 1 is the innermost; sector 1 starts at the top and sectors go clockwise. Each sector is linked to the
    sectors beside it in its ring (the last to the first: a ring closes) and to the sectors inside and outside
    it; with ``centre``, a round centre cell fills the hole, linked to every sector of ring 1. A cell is
    named ``ring R sector S`` (``centre``); its outline is the sector drawn with straight pieces fine
    enough to look round, its corners shared exactly with its neighbours'.

    Parameters
    ----------
    rings : int
        1 to :data:`MAX_RINGS`.
    sectors : int
        3 to :data:`MAX_SECTORS`.
    centre : bool
        A centre cell in the hole.

    Returns
    -------
    str
        The board, docs/format.md's JSON graph with ``outline`` and ``name`` on every node.

    Raises
    ------
    ValueError
        ``rings`` or ``sectors`` out of range.

    Examples
    --------
    >>> board = json.loads(ring(2, 8))
    >>> len(board["nodes"]), len(board["links"]), board["nodes"][9]["name"]
    (16, 24, 'ring 2 sector 2')
    """
    _whole(rings, "--rings", 1, MAX_RINGS)
    _whole(sectors, "--sectors", 3, MAX_SECTORS)
    steps = max(ARC_STEPS, math.ceil(48 / sectors))  # pieces of one sector's arc
    inner = 1.0 if centre else 0.6  # the radius of ring 1's inner arc: a hole (or the centre cell) inside
    radius = [inner + i for i in range(rings + 1)]
    around = sectors * steps

    def corner(i: int, j: int) -> list[float]:
        """The point at radius ``radius[i]`` and the j-th step round from the top, clockwise (y down)."""
        angle = 2 * math.pi * (j % around) / around - math.pi / 2
        return [round(radius[i] * math.cos(angle), 6), round(radius[i] * math.sin(angle), 6)]

    nodes: list[dict] = []
    ids: dict[tuple[int, int], int] = {}
    if centre:
        ids[0, 0] = 0
        nodes.append({"id": 0, "name": "centre", "xy": [0, 0], "outline": [corner(0, j) for j in range(around)]})
    for r in range(1, rings + 1):
        for s in range(1, sectors + 1):
            first = (s - 1) * steps
            outline = [corner(r, j) for j in range(first, first + steps + 1)] + \
                      [corner(r - 1, j) for j in range(first + steps, first - 1, -1)]
            middle = (radius[r - 1] + radius[r]) / 2
            angle = 2 * math.pi * (s - 0.5) / sectors - math.pi / 2
            ids[r, s] = len(nodes)
            nodes.append({"id": len(nodes), "name": f"ring {r} sector {s}",
                          "xy": [round(middle * math.cos(angle), 3), round(middle * math.sin(angle), 3)],
                          "outline": outline})
    links = []
    for r in range(1, rings + 1):
        for s in range(1, sectors + 1):
            links.append([ids[r, s], ids[r, s % sectors + 1]])  # round the ring
            if r < rings:
                links.append([ids[r, s], ids[r + 1, s]])  # outwards
            if centre and r == 1:
                links.append([ids[0, 0], ids[1, s]])
    return _json_board("ring", nodes, links)


def cube(side: int) -> str:
    """A blank cube board (no endpoints yet) as JSON graph text: the three faces of a cube seen from above one
    corner, each ``side`` x ``side`` rhombi, as the game's cube levels draw it.

    The near corner is the middle of the picture; the top face rises from it, the left and right faces hang
    below. Cells are linked to their neighbours on their face and across the three edges that meet at the
    near corner (a pipe goes over an edge onto the next face); the far edges are the board's outline. A cell
    is named by its face, row and column (``top r1c1``): on the left and right faces rows count down and
    columns across from the face's top-left cell; on the top face rows count from its far left edge towards
    the near corner and columns from its far right edge, so that ``top r{side}c{side}`` is at the near corner.

    Parameters
    ----------
    side : int
        Cells along a face's side, 1 to :data:`MAX_CUBE_SIDE`.

    Raises
    ------
    ValueError
        ``side`` out of range.

    Examples
    --------
    >>> board = json.loads(cube(2))
    >>> len(board["nodes"]), len(board["links"]), board["nodes"][0]["name"]
    (12, 18, 'top r2c2')
    """
    n = _side(side)
    up_left, up_right, down = (-math.sqrt(3) / 2, -0.5), (math.sqrt(3) / 2, -0.5), (0.0, 1.0)

    def corner(p: int, q: int, r: int) -> list[float]:
        """The point p steps up-left, q up-right and r down from the near corner (one step: a cell's side)."""
        return [round(p * up_left[0] + q * up_right[0] + r * down[0], 6),
                round(p * up_left[1] + q * up_right[1] + r * down[1], 6)]

    # each face: its two axes as steps (up-left, up-right, down), and a cell's (row, column) from its indices
    faces = {
        "top": ((1, 0, 0), (0, 1, 0), lambda i, j: (n - i, n - j)),
        "left": ((1, 0, 0), (0, 0, 1), lambda i, k: (k + 1, n - i)),
        "right": ((0, 1, 0), (0, 0, 1), lambda j, k: (k + 1, j + 1)),
    }
    nodes: list[dict] = []
    ids: dict[tuple[str, int, int], int] = {}
    for face, (a, b, row_column) in faces.items():
        for i in range(n):
            for j in range(n):
                def at(di: int, dj: int, a=a, b=b, i=i, j=j) -> list[float]:
                    return corner(*(a[t] * (i + di) + b[t] * (j + dj) for t in range(3)))

                outline = [at(0, 0), at(1, 0), at(1, 1), at(0, 1)]
                row, column = row_column(i, j)
                ids[face, i, j] = len(nodes)
                nodes.append({"id": len(nodes), "name": f"{face} r{row}c{column}",
                              "xy": [round(sum(p[0] for p in outline) / 4, 4), round(sum(p[1] for p in outline) / 4, 4)],
                              "outline": outline})
    links = [link for face in faces for link in _grid_links(ids, face, n)]
    for t in range(n):  # across the three edges that meet at the near corner
        links.append([ids["top", t, 0], ids["left", t, 0]])  # the up-left edge
        links.append([ids["top", 0, t], ids["right", t, 0]])  # the up-right edge
        links.append([ids["left", 0, t], ids["right", 0, t]])  # the edge down
    return _json_board("cube", nodes, links)


def _whole(value: object, option: str, low: int, high: int, what: str = "") -> None:
    """Raise ValueError unless ``value`` is a whole number from ``low`` to ``high`` (``what`` says what it counts)."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"{option} must be a whole number from {low} to {high}{f' ({what})' if what else ''}, "
                         f"not {value!r}")


def _side(side: int) -> int:
    """A cube face's or a star arm's side, checked: 1 to :data:`MAX_CUBE_SIDE`."""
    _whole(side, "--side", 1, MAX_CUBE_SIDE)
    return side


def _json_board(shape: str, nodes: list[dict], links: list[list[int]]) -> str:
    """A blank shape board as JSON graph text (:func:`flowgraph.io.json_graph.graph_text`), links smaller id first."""
    from ..io.json_graph import graph_text

    return graph_text(nodes, [sorted(link) for link in links], shape=shape)


def _grid_links(ids: dict, part: object, n: int) -> list[list[int]]:
    """The links inside one face or arm ``part``: each cell ``(part, i, j)`` to the next in i and in j."""
    out = []
    for i in range(n):
        for j in range(n):
            if i + 1 < n:
                out.append([ids[part, i, j], ids[part, i + 1, j]])
            if j + 1 < n:
                out.append([ids[part, i, j], ids[part, i, j + 1]])
    return out


#: The six arms of a star, clockwise from the top, as a player names them.
ARMS = ("top", "upper right", "lower right", "bottom", "lower left", "upper left")


def star(side: int, points: int = 6) -> str:
    """A blank star of ``points`` points (no endpoints yet) as JSON graph text: its arms, each ``side`` x ``side``
    rhombi, their points outwards, meeting at the centre, as the game's star levels draw them (six arms of
    60-degree rhombi for the Daily star; five of 72-degree ones for the five-pointed star).

    Arm k is spanned by the rays from the centre at -90 - 180/points + k 360/points degrees and the next (y down):
    the first arm points up. Cells are linked to their neighbours in their arm and across the sides two arms
    share (a ray from the centre). A cell is named by its arm, row and column: ``top arm r1c1`` is the top arm's
    cell at the centre (six points: ``top``, ``upper right``, ... ``upper left``; other counts: ``arm 1``, ...
    clockwise from the top), rows counted along the arm's left side outwards and columns along its right side.

    Parameters
    ----------
    side : int
        Cells along an arm's side, 1 to :data:`MAX_CUBE_SIDE`.
    points : int
        Arms, :data:`MIN_POINTS` to :data:`MAX_POINTS` (fewer close up into a polygon, not a star).

    Raises
    ------
    ValueError
        ``side`` or ``points`` out of range.

    Examples
    --------
    >>> board = json.loads(star(3))
    >>> len(board["nodes"]), len(board["links"]), board["nodes"][0]["name"]
    (54, 90, 'top arm r1c1')
    >>> board = json.loads(star(2, points=5))
    >>> len(board["nodes"]), len(board["links"]), board["nodes"][4]["name"]
    (20, 30, 'arm 2 r1c1')
    """
    n = _side(side)
    _whole(points, "--points", MIN_POINTS, MAX_POINTS)
    step = 360 / points
    rays = [(math.cos(math.radians(-90 - step / 2 + step * m)), math.sin(math.radians(-90 - step / 2 + step * m)))
            for m in range(points)]
    arms = tuple(f"{arm} arm" for arm in ARMS) if points == 6 else tuple(f"arm {k + 1}" for k in range(points))

    def corner(k: int, a: int, b: int) -> list[float]:
        """The point a steps along ray k and b along ray k + 1 from the centre (rays shared by two arms)."""
        u, v = rays[k % points], rays[(k + 1) % points]
        return [round(a * u[0] + b * v[0], 6) + 0.0, round(a * u[1] + b * v[1], 6) + 0.0]

    nodes: list[dict] = []
    ids: dict[tuple[int, int, int], int] = {}
    for k, arm in enumerate(arms):
        for i in range(n):
            for j in range(n):
                outline = [corner(k, i, j), corner(k, i + 1, j), corner(k, i + 1, j + 1), corner(k, i, j + 1)]
                ids[k, i, j] = len(nodes)
                nodes.append({"id": len(nodes), "name": f"{arm} r{i + 1}c{j + 1}",
                              "xy": [round(sum(p[0] for p in outline) / 4, 4), round(sum(p[1] for p in outline) / 4, 4)],
                              "outline": outline})
    links = []
    for k in range(points):
        links += _grid_links(ids, k, n)
        for t in range(n):  # arm k's right side (along ray k + 1) is arm k + 1's left side
            links.append([ids[k, 0, t], ids[(k + 1) % points, t, 0]])
    return _json_board("star", nodes, links)


def _at(u: float, v: float) -> list[float]:
    """The picture's point (y down) of a band's coordinates: u runs up-right, v down-right, a cell's side 1 (a
    diagonal step is (1, -1) or (1, 1): exact, so a lane's neighbours lie on its axis)."""
    return [round((u + v) / math.sqrt(2), 6) + 0.0, round((v - u) / math.sqrt(2), 6) + 0.0]


def _square(u: float, v: float) -> list[list[float]]:
    """The outline of a band's square cell whose corner nearest the band's origin is (u, v)."""
    return [_at(u, v), _at(u + 1, v), _at(u + 1, v + 1), _at(u, v + 1)]



def _arc_cell(cu: float, cv: float, inner: float, outer: float, turns: list[tuple[float, float]]) -> list[list[float]]:
    """The outline of a band's curved cell round (cu, cv) between radii ``inner`` and ``outer``: its outer arc
    through the directions ``turns`` (cosine, sine) and back along its inner arc."""
    return ([_at(cu + outer * c, cv + outer * s) for c, s in turns] +
            [_at(cu + inner * c, cv + inner * s) for c, s in reversed(turns)])


#: The most cells across a figure-eight's band.
MAX_BAND = 20


#: What a figure-eight's crossing is made of: bridges (a path over, one under) or plain cells (the game's
#: level 91 style: the runs meet in cells any path may turn in).
CROSSINGS = ("bridges", "cells")


def figure_eight(rings: int, sectors: int, crossing: str = "bridges") -> str:
    """A blank figure-eight (no endpoints yet) as JSON graph text: a band ``rings`` cells wide that runs round a
    top loop and a bottom loop and crosses itself between them, ``sectors`` cells along each loop's arc.

    The band's two straight runs cross at right angles in the middle of the picture, each at 45 degrees; where they
    cross, ``rings`` x ``rings`` cells are bridges (two lanes, ``/`` and ``\\``: a path crosses straight over, the
    other band's path under it; with ``crossing="cells"`` plain cells, each linked to its four neighbours, as
    the game's own figure-eight level draws its neck). From the crossing each run goes straight to its loop,
    whose arc turns 270 degrees round a hole; the straight pieces are as long as makes the arc's cells about as
    long as they are wide. A cell
    is named by its loop and its place along the band from the crossing, clockwise on the top loop and
    anticlockwise on the bottom one (``top loop 3``; with a band wider than one cell ``top loop ring 2 cell 3``,
    ring 1 the side of the loop's hole), a bridge by its place in the crossing (``crossing``; ``crossing r1c2``).

    Parameters
    ----------
    rings : int
        Cells across the band, 1 to :data:`MAX_BAND`.
    sectors : int
        Cells along each loop's arc, 3 to :data:`MAX_SECTORS`.
    crossing : str
        One of :data:`CROSSINGS`.

    Raises
    ------
    ValueError
        ``rings`` or ``sectors`` out of range, or an unknown ``crossing``.

    Examples
    --------
    >>> board = json.loads(figure_eight(1, 8))
    >>> len(board["nodes"]), sum("lane" in node for node in board["nodes"]), board["nodes"][0]["name"]
    (22, 2, 'crossing')
    >>> board = json.loads(figure_eight(2, 8, crossing="cells"))
    >>> len(board["nodes"]), sum("lane" in node for node in board["nodes"])
    (44, 0)
    """
    _whole(rings, "--rings", 1, MAX_BAND, "cells across the band")
    _whole(sectors, "--sectors", 3, MAX_SECTORS)
    if crossing not in CROSSINGS:
        raise ValueError(f"--crossing must be one of {', '.join(CROSSINGS)}, not {crossing!r}")
    w = rings
    # straight cells from the crossing to each loop: the arc's cells (at the band's middle) about a cell long
    run = max(1, round(2 * sectors / (3 * math.pi) - w / 2))
    reach = w / 2 + run  # the loop's centre is (reach, -reach) from the crossing in (u, v); its hole's radius: run
    steps = max(ARC_STEPS, math.ceil(36 / sectors))

    def arc(cu: float, cv: float, ring: int, start: float, turn: float) -> list[list[float]]:
        """The sector of ring ``ring`` (0 the hole's side) from angle ``start`` through ``turn`` radians round
        the loop's centre (cu, cv)."""
        angles = [start + turn * k / steps for k in range(steps + 1)]
        return _arc_cell(cu, cv, run + ring, run + ring + 1, [(math.cos(a), math.sin(a)) for a in angles])

    cells: list[tuple[str, list[list[float]], str | None]] = []  # (name, outline, lane)
    half = w / 2

    def name(loop: str, ring: int, along: int) -> str:
        return f"{loop} loop {along}" if w == 1 else f"{loop} loop ring {ring + 1} cell {along}"

    for i in range(w):  # the crossing: each square a bridge of two lanes, or a cell
        for j in range(w):
            title = "crossing" if w == 1 else f"crossing r{i + 1}c{j + 1}"
            for lane in "/\\" if crossing == "bridges" else (None,):
                cells.append((title, _square(-half + i, -half + j), lane))
    for loop, sign in (("top", 1), ("bottom", -1)):
        cu, cv = sign * reach, -sign * reach  # the loop's centre
        along = 0
        for k in range(run):  # out from the crossing along u (up-right; the bottom loop: down-left)
            along += 1
            for j in range(w):
                u = half + k if sign > 0 else -half - k - 1
                v = -half + j
                ring = j if sign > 0 else w - 1 - j  # the hole's side first
                cells.append((name(loop, ring, along), _square(u, v), None))
        # the arc: from the end of that run, 270 degrees away from the crossing, to the other run
        start, turn = (math.pi / 2, -1.5 * math.pi) if sign > 0 else (-math.pi / 2, -1.5 * math.pi)
        for t in range(sectors):
            along += 1
            for ring in range(w):
                cells.append((name(loop, ring, along),
                              arc(cu, cv, ring, start + turn * t / sectors, turn / sectors), None))
        for k in range(run):  # back to the crossing along v
            along += 1
            for j in range(w):
                u = -half + j
                v = -reach + k if sign > 0 else reach - k - 1
                ring = w - 1 - j if sign > 0 else j
                cells.append((name(loop, ring, along), _square(u, v), None))
    return _sided_board("figure-eight", cells)


#: The most loops of a chain of linked loops.
MAX_LOOPS = 8


def linked_loops(loops: int, rings: int, sectors: int) -> str:
    """A blank chain of linked loops (no endpoints yet) as JSON graph text: ``loops`` bands, each ``rings`` cells
    wide round a hole, each crossing the next twice; about ``sectors`` cells along each band.

    Each loop is a square turned 45 degrees with rounded corners (a diamond), its straight sides at 45 degrees;
    each loop sits to the right of the one before, the two linked as a chain's links are: the band of one crosses
    the band of the next above and below the middle, at right angles, and where they cross ``rings`` x ``rings``
    cells are bridges (a ``/`` and a ``\\`` lane: each band's path crosses straight over the other's). A cell is
    named by its loop and its place along the band, clockwise from the loop's top corner (``loop 2 cell 5``;
    with a band wider than one cell ``loop 2 ring 1 cell 5``, ring 1 the side of the loop's hole), a bridge by
    the loops it joins and whether it is the upper or the lower crossing (``crossing 1-2 top``;
    ``crossing 1-2 top r1c2``).

    Parameters
    ----------
    loops : int
        Loops in the chain, 2 to :data:`MAX_LOOPS`.
    rings : int
        Cells across each band, 1 to :data:`MAX_BAND`.
    sectors : int
        Cells along each loop's band, 3 to :data:`MAX_SECTORS`: the sides are as long as makes about that many (a
        multiple of four), or the shortest that holds the crossings (then more).

    Raises
    ------
    ValueError
        ``loops``, ``rings`` or ``sectors`` out of range.

    Examples
    --------
    >>> board = json.loads(linked_loops(2, 1, 24))
    >>> len(board["nodes"]), sum("lane" in node for node in board["nodes"]), board["nodes"][0]["name"]
    (48, 4, 'loop 1 cell 1')
    """
    _whole(loops, "--loops", 2, MAX_LOOPS)
    _whole(rings, "--rings", 1, MAX_BAND, "cells across each band")
    _whole(sectors, "--sectors", 3, MAX_SECTORS)
    w = rings
    corner = max(1, round(math.pi / 2 * (1 + w / 2)))  # cells along a rounded corner (its middle a cell long)
    steps = max(ARC_STEPS, math.ceil(24 / corner))
    # the hole is a square of side h (board units along u and v) whose corners are rounded; the next loop is
    # shifted (t, t): its band crosses this one's straight sides a cell away from the corners (a lane's
    # neighbours lie on its axis) and each loop's corners lie in the other's hole (w + 2 <= t <= h - 2), in the
    # middle of a side with two loops, and with more far enough on that it misses the loop after the next
    # (2t - w > h + w)
    def shift(h: int) -> int:
        return (h + w) // 2 if loops == 2 else (h + 2 * w) // 2 + 1

    fewest = next(h for h in range(w + 2, 4 * MAX_BAND + 8) if w + 2 <= shift(h) <= h - 2)
    h = max(fewest, round((sectors - 4 * corner) / 4) + 2)
    t = shift(h)

    def arc(cu: float, cv: float, ring: int, start: float, turn: float) -> list[list[float]]:
        """The sector of ring ``ring`` (0 the hole's side) from angle ``start`` through ``turn`` radians round
        (cu, cv), radii 1 + ring to 2 + ring (sines and cosines rounded: a quarter turn's ends are exact)."""
        angles = [start + turn * k / steps for k in range(steps + 1)]
        return _arc_cell(cu, cv, 1 + ring, 2 + ring, [(round(math.cos(a), 12), round(math.sin(a), 12)) for a in angles])

    squares: dict[tuple[int, int], list[tuple[int, str, str]]] = {}  # a straight cell -> (loop, name, lane) each
    arcs: list[tuple[str, list[list[float]]]] = []
    for loop in range(loops):
        s = loop * t  # the hole is [s, s + h] in u and in v
        along = 0

        def name(ring: int, cell: int, loop: int = loop) -> str:
            return f"loop {loop + 1} cell {cell}" if w == 1 else f"loop {loop + 1} ring {ring + 1} cell {cell}"

        # clockwise from the top corner: each corner's centre, and each side's cells (u, v) by ring and step
        corners = [(s + h - 1, s + 1), (s + h - 1, s + h - 1), (s + 1, s + h - 1), (s + 1, s + 1)]
        # each side's first cell (u, v), its step along, its step across (outwards) and its lane's axis
        sides = [((s + h, s + 1), (0, 1), (1, 0), "\\"), ((s + h - 2, s + h), (-1, 0), (0, 1), "/"),
                 ((s - 1, s + h - 2), (0, -1), (-1, 0), "\\"), ((s + 1, s - 1), (1, 0), (0, -1), "/")]
        for quarter in range(4):
            cu, cv = corners[quarter]
            turn = math.pi / 2 / corner
            for c in range(corner):
                along += 1
                for ring in range(w):
                    arcs.append((name(ring, along), arc(cu, cv, ring, (quarter - 1) * math.pi / 2 + c * turn, turn)))
            (u0, v0), (du, dv), (ou, ov), lane = sides[quarter]
            for k in range(h - 2):
                along += 1
                for ring in range(w):
                    place = (u0 + k * du + ring * ou, v0 + k * dv + ring * ov)
                    squares.setdefault(place, []).append((loop, name(ring, along), lane))
    cells: list[tuple[str, list[list[float]], str | None]] = [(title, outline, None) for title, outline in arcs]
    for (u, v), owners in squares.items():
        if len(owners) == 1:
            cells.append((owners[0][1], _square(u, v), None))
            continue
        first = min(owner[0] for owner in owners)  # a crossing of loop first + 1 and the next
        s = (first + 1) * t
        top = u >= s  # the next loop's top side crosses this one's right side, above the middle
        i, j = (u - (s - t + h), v - (s - w)) if top else (u - (s - w), v - (s - t + h))
        where = f"crossing {first + 1}-{first + 2} {'top' if top else 'bottom'}"
        title = where if w == 1 else f"{where} r{i + 1}c{j + 1}"
        for lane in "/\\":
            cells.append((title, _square(u, v), lane))
    return _sided_board("linked-loops", cells)


#: The Borromean rings' names, in the order each passes over the next (the last over the first).
_BORROMEAN_NAMES = ("top", "right", "left")
#: The most cells across a Borromean ring's band (kept narrow beside the rings' radius: the ring whose centre a
#: crossing lies on keeps its hole clear of it).
MAX_BORROMEAN_BAND = 4


def borromean(rings: int, sectors: int) -> str:
    """Blank Borromean rings (no endpoints yet) as JSON graph text: three round bands, each ``rings`` cells wide,
    each crossing both others twice at 60 degrees; about ``sectors`` cells along each band.

    The bands' middles are circles of one radius whose centres are the corners of an equilateral triangle of that
    side (a top ring, a right and a left one), so each pair crosses twice, near the third ring's centre and
    outside it, at 60 degrees (the game's linked loops, a triquetra's three bands, cross so). Where two bands cross,
    ``rings`` x ``rings`` cells are bridges whose two lanes are each band's tangent there, written as angles
    (``"lane": "60"``: :func:`flowgraph.model.lane_angle`); each ring's pipe passes over the next ring's (top over
    right, right over left, left over top: no two rings linked, the three together, as the Borromean rings are), and
    the pictures draw it so (``"over"``). Between crossings a band's cells are annulus sectors cut by radial lines,
    each about as long as the band is wide, the sides next to a crossing the other band's arcs. A cell is named by
    its ring and its place along the band, clockwise from the ring's top (``top ring 5``; with a band wider than
    one cell ``top ring lane 2 cell 5``, lane 1 the side of the ring's hole), a bridge by the rings it joins and
    which of their two crossings it is (``crossing top-right inner``, ``crossing top-right outer r2c1``).

    Parameters
    ----------
    rings : int
        Cells across each band, 1 to :data:`MAX_BORROMEAN_BAND`.
    sectors : int
        Cells along each band, about (or the fewest that keep a cell between two crossings, then more), 3 to
        :data:`MAX_SECTORS`.

    Raises
    ------
    ValueError
        ``rings`` or ``sectors`` out of range.

    Examples
    --------
    >>> board = json.loads(borromean(1, 24))
    >>> len(board["nodes"]), sum("lane" in node for node in board["nodes"]), board["nodes"][0]["name"]
    (75, 12, 'crossing top-right inner')
    >>> sorted({node["lane"] for node in board["nodes"] if "lane" in node})
    ['150', '30', '90']
    """
    return _three_circles(rings, sectors, knot=False)


def triquetra(rings: int, sectors: int) -> str:
    """A blank triquetra (no endpoints yet) as JSON graph text: one band ``rings`` cells wide round three pointed
    lobes, crossing itself three times at 60 degrees; about ``sectors`` cells along each of its three arcs.

    The band is the Borromean rings' (:func:`borromean`, turned so a lobe points up) with each ring's outer half
    left out: each ring keeps the arc that faces the other two, from one lobe's tip to the next, and at a tip
    the two arcs meet in ``rings`` x ``rings`` plain cells where a path may turn (drawn pointed, as the lobe's
    tip is). Where the arcs cross, near the figure's middle, the cells are bridges whose lanes run along each
    arc's tangent (angles, as the Borromean rings'); the pipes pass over and under in turn along the band (a
    trefoil knot). A cell is named by its place along the band, from the top tip clockwise (``band 5``; with a
    band wider than one cell ``band lane 2 cell 5``, lane 1 the side of the lobes' insides), a tip and a crossing
    by where they lie (``top tip``, ``lower left tip r1c2``; ``bottom crossing``, ``upper right crossing r2c1``).

    Parameters
    ----------
    rings : int
        Cells across the band, 1 to :data:`MAX_BORROMEAN_BAND`.
    sectors : int
        Cells along each arc from tip to tip, about (or the fewest that keep a cell between two crossings, then
        more), 3 to :data:`MAX_SECTORS`.

    Raises
    ------
    ValueError
        ``rings`` or ``sectors`` out of range.

    Examples
    --------
    >>> board = json.loads(triquetra(1, 12))
    >>> sum("lane" in node for node in board["nodes"]), sorted(n["name"] for n in board["nodes"] if "tip" in n["name"])
    (6, ['lower left tip', 'lower right tip', 'top tip'])
    """
    return _three_circles(rings, sectors, knot=True)


#: Where a triquetra's tips and crossings lie from its middle, by the angle (degrees, clockwise from up as
#: drawn) of their direction, to the nearest: what they are named.
_WHERE = {0: "top", 60: "upper right", 120: "lower right", 180: "bottom", 240: "lower left", 300: "upper left"}


def _three_circles(rings: int, sectors: int, knot: bool) -> str:
    """The Borromean rings (``knot`` False) or the triquetra (True): :func:`borromean`, :func:`triquetra`."""
    from ..render.outlined import centroid

    _whole(rings, "--rings", 1, MAX_BORROMEAN_BAND, "cells across each band")
    _whole(sectors, "--sectors", 3, MAX_SECTORS)
    w = rings
    # the fewest cells along: between two crossings 60 degrees apart a cell each lane, at the hole's side too
    # (a triquetra's arc, tip to tip, is half its ring)
    radius = max(sectors / (math.pi if knot else 2 * math.pi), (1 + w / math.sin(math.pi / 3)) * 3 / math.pi + w / 2 + 0.25)
    flip = -1 if knot else 1  # the triquetra turned half round: its top tip up
    centres = [(flip * radius * math.sin(k * 2 * math.pi / 3) / math.sqrt(3),
                -flip * radius * math.cos(k * 2 * math.pi / 3) / math.sqrt(3)) for k in range(3)]
    radii = [radius - w / 2 + k for k in range(w + 1)]  # each band's circles, the hole's side first

    def rounded(x: float, y: float) -> tuple[float, float]:
        return (round(x, 6) + 0.0, round(y, 6) + 0.0)

    def bearing(ring: int, point: tuple[float, float]) -> float:
        """The clockwise angle (as drawn, y down) of ``point`` round ``ring``'s centre, from its top: 0 to 2 pi."""
        cx, cy = centres[ring]
        return (math.atan2(point[1] - cy, point[0] - cx) + math.pi / 2) % (2 * math.pi)

    def on_circle(ring: int, k: int, angle: float) -> tuple[float, float]:
        cx, cy = centres[ring]
        return rounded(cx + radii[k] * math.sin(angle), cy - radii[k] * math.cos(angle))

    crossings = {}  # (i, j, which) -> the point the two bands' middles cross at (i < j; which: inner, outer)
    for i in range(3):
        for j in range(i + 1, 3):
            third = 3 - i - j
            (ax, ay), (bx, by), (tx, ty) = centres[i], centres[j], centres[third]
            mx, my = (ax + bx) / 2, (ay + by) / 2
            crossings[i, j, "inner"] = (tx, ty)
            crossings[i, j, "outer"] = (2 * mx - tx, 2 * my - ty)
    corner_cache: dict = {}

    def corner(i: int, a: int, j: int, b: int, which: tuple) -> tuple[float, float]:
        """Where ring ``i``'s circle ``a`` meets ring ``j``'s circle ``b``, near crossing ``which``."""
        key = (frozenset(((i, a), (j, b))), which)
        if key not in corner_cache:
            (ax, ay), (bx, by) = centres[i], centres[j]
            r, q = radii[a], radii[b]
            d = math.hypot(bx - ax, by - ay)
            along = (r * r - q * q + d * d) / (2 * d)
            up = math.sqrt(max(r * r - along * along, 0.0))
            ux, uy = (bx - ax) / d, (by - ay) / d
            px, py = crossings[which]
            options = [(ax + along * ux - sign * up * uy, ay + along * uy + sign * up * ux) for sign in (1, -1)]
            corner_cache[key] = rounded(*min(options, key=lambda o: math.hypot(o[0] - px, o[1] - py)))
        return corner_cache[key]

    arc_cache: dict = {}

    def arc(ring: int, k: int, start: tuple[float, float], end: tuple[float, float]) -> list[tuple[float, float]]:
        """The points of ring ``ring``'s circle ``k`` from ``start`` to ``end`` the short way, both included (the
        same points whichever way it is asked: two cells' shared side is one side)."""
        key = (ring, k, frozenset((start, end)))
        if key not in arc_cache:
            first, last = sorted((start, end))
            a0, a1 = bearing(ring, first), bearing(ring, last)
            turn = (a1 - a0 + math.pi) % (2 * math.pi) - math.pi
            steps = max(2, math.ceil(abs(turn) / math.radians(6)))
            arc_cache[key] = [first, *(on_circle(ring, k, a0 + turn * t / steps) for t in range(1, steps)), last]
        points = arc_cache[key]
        return points if points[0] == start else points[::-1]

    def polygon(*pieces: list[tuple[float, float]]) -> list[list[float]]:
        """One outline of pieces each starting where the one before ended."""
        out: list[tuple[float, float]] = []
        for piece in pieces:
            out.extend(piece[1:] if out and out[-1] == piece[0] else piece)
        if out[0] == out[-1]:
            out.pop()
        return [list(p) for p in out]

    def title(i: int, j: int, which: str) -> str:
        if not knot:
            return f"crossing {_BORROMEAN_NAMES[i]}-{_BORROMEAN_NAMES[j]} {which}"
        x, y = crossings[i, j, which]
        where = _WHERE[round(math.degrees(math.atan2(x, -y)) % 360 / 60) * 60 % 360]
        return f"{where} {'crossing' if which == 'inner' else 'tip'}"

    cells: list[tuple[str, list[list[float]], str | None, bool]] = []  # (name, outline, lane, over)
    for (i, j, which) in crossings:
        for a in range(w):
            for b in range(w):
                c = [corner(i, a, j, b, (i, j, which)), corner(i, a, j, b + 1, (i, j, which)),
                     corner(i, a + 1, j, b + 1, (i, j, which)), corner(i, a + 1, j, b, (i, j, which))]
                outline = polygon(arc(i, a, c[0], c[1]), arc(j, b + 1, c[1], c[2]), arc(i, a + 1, c[2], c[3]),
                                  arc(j, b, c[3], c[0]))
                name = title(i, j, which) if w == 1 else f"{title(i, j, which)} r{a + 1}c{b + 1}"
                if knot and which == "outer":  # a lobe's tip: plain cells where the band turns
                    cells.append((name, outline, None, False))
                    continue
                mx, my = centroid([tuple(p) for p in outline])
                for ring in (i, j):  # each band's lane: its tangent's angle as drawn (anticlockwise from across)
                    cx, cy = centres[ring]
                    angle = round(math.degrees(math.atan2(mx - cx, my - cy)) % 180)
                    cells.append((name, outline, str(angle % 180), (ring - (j if ring == i else i)) % 3 == 2))
    for ring in range(3):
        # this ring's crossings clockwise from its top, and the side (0 or w: the other band's circle) it enters by
        mine = sorted(((bearing(ring, point), key) for key, point in crossings.items() if ring in key[:2]))
        passes = []
        for _, key in mine:
            other = key[1] if key[0] == ring else key[0]
            before = [(bearing(ring, corner(ring, 0, other, s, key)) - bearing(ring, crossings[key]) + math.pi) %
                      (2 * math.pi) for s in (0, w)]  # how far clockwise of the crossing each side is, less pi
            enter = 0 if before[0] < before[1] else w
            passes.append((key, other, enter, w - enter))
        lanes: list[list[list[list[float]]]] = [[] for _ in range(w)]  # each lane's plain cells' outlines
        def near(point: tuple[float, float], key: tuple, ring: int = ring) -> float:
            """``point``'s bearing round ``ring``, unwrapped near crossing ``key``'s."""
            mid = bearing(ring, crossings[key])
            return mid + (bearing(ring, point) - mid + math.pi) % (2 * math.pi) - math.pi

        stretches = []  # between each crossing and the next: where its cells may be cut radially
        for m, (key, other, _, leave) in enumerate(passes):
            nxt_key, nxt_other, enter, _ = passes[(m + 1) % len(passes)]
            out_at = [corner(ring, k, other, leave, key) for k in range(w + 1)]
            in_at = [corner(ring, k, nxt_other, enter, nxt_key) for k in range(w + 1)]
            first = max(near(p, key) for p in out_at)
            last = first + min((near(p, nxt_key) - first) % (2 * math.pi) for p in in_at)
            if not (knot and key[2] == nxt_key[2] == "outer"):  # a triquetra: each ring's outer half left out
                stretches.append((other, leave, out_at, nxt_other, enter, in_at, first, last))
        # the cells along: sectors in all, the crossings' counted, shared by the stretches' lengths
        free = sum(last - first for *_, first, last in stretches) * radius
        scale = max(1.0, (sectors - (2 if knot else 4) * w) / free)
        for other, leave, out_at, nxt_other, enter, in_at, first, last in stretches:
            n = max(1, round((last - first) * radius * scale))
            cuts = [first + (last - first) * t / n for t in range(1, n)]
            for k in range(w):
                # the boundaries of this lane's cells: the crossing's side, the radial cuts, the next one's side
                bounds = [arc(other, leave, out_at[k], out_at[k + 1])]
                bounds += [[on_circle(ring, k, cut), on_circle(ring, k + 1, cut)] for cut in cuts]
                bounds += [arc(nxt_other, enter, in_at[k], in_at[k + 1])]
                for low, high in zip(bounds, bounds[1:]):
                    outline = polygon(arc(ring, k, low[0], high[0]), high, arc(ring, k + 1, high[-1], low[-1]),
                                      low[::-1])
                    lanes[k].append(outline)
        # numbered clockwise, crossings counted: a ring from its top; the triquetra's band from its top tip, the
        # arcs in turn (each runs clockwise round its own ring's centre, from the tip after its left-out half)
        start, offset = 0.0, 0
        if knot:
            start = next(bearing(ring, crossings[key]) for m, (key, *_) in enumerate(passes)
                         if key[2] == "outer" and passes[m - 1][0][2] == "outer")
            offset = {1: 0, 0: 1, 2: 2}[ring] * (sum(len(lane) for lane in lanes) // w + 2 * w)
        inner = [bearing(ring, crossings[key]) for key, *_ in passes if not (knot and key[2] == "outer")]
        for k in range(w):
            placed: list[tuple[float, list[list[float]] | None]] = [
                ((bearing(ring, centroid([tuple(p) for p in o])) - start) % (2 * math.pi), o) for o in lanes[k]]
            placed += [((b - start) % (2 * math.pi), None) for b in inner for _ in range(w)]  # a crossing's cells
            along = sorted(placed, key=lambda item: item[0])
            for number, (_, cell) in enumerate(along, offset + 1):
                if cell is None:
                    continue
                if knot:
                    name = f"band {number}" if w == 1 else f"band lane {k + 1} cell {number}"
                else:
                    name = f"{_BORROMEAN_NAMES[ring]} ring {number}" if w == 1 else \
                        f"{_BORROMEAN_NAMES[ring]} ring lane {k + 1} cell {number}"
                cells.append((name, cell, None, False))
    shape = "triquetra" if knot else "borromean"
    board = json.loads(_sided_board(shape, [(name, outline, lane) for name, outline, lane, _ in cells]))
    for node, (_, _, _, over) in zip(board["nodes"], cells):
        if over:
            node["over"] = True
    return _json_board(shape, board["nodes"], board["links"])


#: The tilings :func:`tiling` cuts a silhouette from.
TILINGS = ("square", "hex", "triangle", "rhombus")
#: The most a silhouette's point may lie from the tiling's origin, in cell sides, and the most points it has.
MAX_SILHOUETTE = 100
MAX_SILHOUETTE_POINTS = 1000
_H = math.sqrt(3) / 2  # an equilateral triangle's height, side 1


def tiling(tiling: str, side: int = 3, silhouette: str | None = None) -> str:
    """A blank board cut from a tiling (no endpoints yet) as JSON graph text: the cells of a ``square``, ``hex``,
    ``triangle`` or ``rhombus`` tiling whose centres lie inside a polygonal ``silhouette``.

    Every cell's side is 1 (board units, y down). The tilings, and what their cells are named:

    * ``square``: unit squares, corners at whole numbers; ``r2c3`` (row, column, from the top left).
    * ``hex``: flat-topped hexagons, one centred on the origin, columns 1.5 apart, each column offset half a cell
      from the last (as the hex family draws them); ``r2c3``.
    * ``triangle``: equilateral triangles in rows, their sides horizontal and at 60 degrees, a corner on the
      origin; ``r2c3``, the third triangle of the second row.
    * ``rhombus``: 60-degree rhombi in rows, each row half a cell right of the one above (the rhombi of a
      game's star arm or cube face), a corner on the origin; ``r2c3``.

    Without a silhouette the board is the tiling's own shape of ``side`` cells: a ``side`` x ``side`` square or
    rhombus (from the origin), a hexagon of hexagons with ``side`` on each edge, or a hexagon of ``6 side**2``
    triangles. Links are the sides two cells share.

    Parameters
    ----------
    tiling : str
        One of :data:`TILINGS`.
    side : int
        The default shape's size, 2 (1 for ``triangle``: six triangles) to :data:`MAX_CUBE_SIDE` (unused with a
        silhouette).
    silhouette : str, optional
        A polygon, its corners ``x,y`` separated by spaces (``"0,0 8,0 4,6"``), in cell sides from the
        tiling's origin (a row of triangles or rhombi is sqrt(3)/2 high); the board is the cells whose centres it
        holds, less a cell that would share no side with another; each coordinate at most :data:`MAX_SILHOUETTE` from it, 3 to
        :data:`MAX_SILHOUETTE_POINTS` corners; its sides may cross (a point is inside where a ray from it crosses
        them an odd number of times).

    Returns
    -------
    str
        The board, docs/format.md's JSON graph with ``outline`` and ``name`` on every node.

    Raises
    ------
    ValueError
        An unknown tiling, ``side`` out of range, a silhouette that is not such a polygon, or one that holds no
        two cells that share a side.

    Examples
    --------
    >>> board = json.loads(tiling("triangle", 2))
    >>> len(board["nodes"]), len(board["links"]), board["nodes"][0]["name"]
    (24, 30, 'r1c2')
    >>> board = json.loads(tiling("rhombus", silhouette="0,0 8,0 4,7"))
    >>> len(board["nodes"]), board["nodes"][0]["name"], board["nodes"][-1]["name"]
    (36, 'r1c1', 'r8c1')
    """
    if tiling not in TILINGS:
        raise ValueError(f"unknown tiling {tiling!r}: expected one of {', '.join(TILINGS)}")
    polygon = None if silhouette is None else _silhouette(silhouette)
    _whole(side, "--side", 1 if tiling == "triangle" else 2, MAX_CUBE_SIDE)  # one square is no board
    n = side
    cells: list[tuple[tuple[int, int], list[list[float]]]] = []  # (name key, outline)
    if polygon:  # lattice indices to look through: the silhouette's box, a cell more each way
        x0, x1 = min(p[0] for p in polygon), max(p[0] for p in polygon)
        y0, y1 = min(p[1] for p in polygon), max(p[1] for p in polygon)
    else:  # the default shape's box
        x0 = y0 = -2.0 * n - 2  # centred shapes (the hexagons) lie inside this; the square and rhombus use range(n)
        x1 = y1 = 2.0 * n + 2

    def keep(centre: tuple[float, float], inside_default: bool) -> bool:
        if polygon is None:
            return inside_default
        return x0 <= centre[0] <= x1 and y0 <= centre[1] <= y1 and _inside(centre, polygon)

    def span(low: float, high: float) -> range:
        return range(math.floor(low) - 1, math.ceil(high) + 2)

    if tiling == "square":
        for j in span(y0, y1) if polygon else range(n):
            for i in span(x0, x1) if polygon else range(n):
                if keep((i + 0.5, j + 0.5), True):
                    cells.append(((j, i), [_pt(i, j), _pt(i + 1, j), _pt(i + 1, j + 1), _pt(i, j + 1)]))
    elif tiling == "rhombus":
        for j in span(y0 / _H, y1 / _H) if polygon else range(n):
            for i in span(x0 - (j + 0.5) / 2, x1 - (j + 0.5) / 2) if polygon else range(n):  # centre x = i + (j + 1.5) / 2
                if keep((i + 0.5 + (j + 0.5) / 2, (j + 0.5) * _H), True):
                    cells.append(((j, i), [_pt(i + di + (j + dj) / 2, (j + dj) * _H)
                                           for di, dj in ((0, 0), (1, 0), (1, 1), (0, 1))]))
    elif tiling == "hex":
        for q in span(x0 / 1.5, x1 / 1.5):
            for r in span(y0 / (2 * _H) - q / 2, y1 / (2 * _H) - q / 2):  # centre y = 2 H (r + q / 2)
                cx, cy = 1.5 * q, 2 * _H * (r + q / 2)
                if keep((cx, cy), max(abs(q), abs(r), abs(q + r)) < n):
                    corners = [_pt(cx + math.cos(math.pi / 3 * k), cy + math.sin(math.pi / 3 * k)) for k in range(6)]
                    cells.append(((2 * r + q, q), corners))  # doubled rows: a column's row is half that
    elif tiling == "triangle":
        hexagon = [(n, 0), (n / 2, n * _H), (-n / 2, n * _H), (-n, 0), (-n / 2, -n * _H), (n / 2, -n * _H)]
        for b in span(y0 / _H, y1 / _H):
            for a in span(x0 - b / 2, x1 - b / 2):  # a row's corners lie at x = a + b / 2
                for t, steps in enumerate((((0, 0), (1, 0), (0, 1)), ((1, 0), (1, 1), (0, 1)))):
                    third = (t + 1) / 3  # the centroid is a third (two thirds) of the way across
                    centre = (a + third + (b + third) / 2, (b + third) * _H)
                    if keep(centre, _inside(centre, hexagon)):
                        cells.append(((b, 2 * a + b + t), [_pt(a + da + (b + db) / 2, (b + db) * _H) for da, db in steps]))
    if not cells:
        raise ValueError("the silhouette holds no cell's centre (its corners are in cell sides from the origin)")
    return _sided_board(f"{tiling} tiling", _tiling_names(tiling, cells))


def _tiling_names(tiling: str, cells: list[tuple[tuple[int, int], list[list[float]]]]
                  ) -> list[tuple[str, list[list[float]], str | None]]:
    """The cells of :func:`tiling` less a cell that shares no side with another (a silhouette's corner that holds
    one triangle touching the rest at a point: no path could fill it), then named from 1 at the board's top left,
    in reading order."""
    def edges(outline: list[list[float]]) -> list[frozenset]:
        return [frozenset((tuple(a), tuple(b))) for a, b in zip(outline, [*outline[1:], outline[0]])]

    sides: dict[frozenset, int] = {}
    for _, outline in cells:
        for edge in edges(outline):
            sides[edge] = sides.get(edge, 0) + 1
    kept = [cell for cell in cells if any(sides[edge] > 1 for edge in edges(cell[1]))]
    if not kept:
        raise ValueError("the silhouette holds no two cells that share a side")
    first_row = min(key[0] for key, _ in kept)
    first_col = min(key[1] for key, _ in kept)
    ordered = []
    for key, outline in kept:
        row, col = key[0] - first_row + 1, key[1] - first_col + 1
        if tiling == "hex":  # key: (doubled row, column): a column's rows are half a cell off the next's
            row = (key[0] - first_row) // 2 + 1
        ordered.append(((row, col), f"r{row}c{col}", outline))
    return [(title, outline, None) for _, title, outline in sorted(ordered)]


def _pt(x: float, y: float) -> list[float]:
    """A corner, rounded so that the cells sharing it name it alike."""
    return [round(x, 6) + 0.0, round(y, 6) + 0.0]


def _silhouette(text: str) -> list[tuple[float, float]]:
    """The corners of a silhouette ``"x,y x,y ..."``, checked (:func:`tiling`)."""
    if not isinstance(text, str):
        raise ValueError(f"--silhouette must be corners x,y separated by spaces, not {text!r}")
    words = text.replace(";", " ").split()
    if not 3 <= len(words) <= MAX_SILHOUETTE_POINTS:
        raise ValueError(f"--silhouette needs 3 to {MAX_SILHOUETTE_POINTS} corners x,y separated by spaces, "
                         f"not {len(words)}")
    corners = []
    for number, word in enumerate(words, 1):
        parts = word.split(",")
        try:
            x, y = (float(part) for part in parts)
        except ValueError:
            raise ValueError(f"--silhouette: corner {number} ({word[:40]!r}) is not x,y (two numbers)") from None
        if not (abs(x) <= MAX_SILHOUETTE and abs(y) <= MAX_SILHOUETTE):  # NaN fails too
            raise ValueError(f"--silhouette: corner {number} ({word[:40]}) is more than {MAX_SILHOUETTE} cell "
                             "sides from the origin")
        corners.append((x, y))
    area = sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(corners, [*corners[1:], corners[0]]))
    if abs(area) < 1e-9:
        raise ValueError("--silhouette encloses no area: its corners lie on one line")
    return corners


def _inside(point: tuple[float, float], polygon: list[tuple[float, float]]) -> bool:
    """Whether ``point`` is inside ``polygon`` by the even-odd rule (a ray to the right crosses its sides an odd
    number of times; W. R. Franklin's PNPOLY)."""
    x, y = point
    inside = False
    for (x0, y0), (x1, y1) in zip(polygon, [*polygon[-1:], *polygon[:-1]]):
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            inside = not inside
    return inside


def _sided_board(shape: str, cells: list[tuple[str, list[list[float]], str | None]]) -> str:
    """A blank board of named cells with outlines (a bridge: one cell a lane, the same outline): its links are the
    sides two cells share, a bridge's lane linked only along its axis (a path crosses a bridge straight over)."""
    from ..render.outlined import centroid

    nodes: list[dict] = []
    sides: dict[frozenset, list[int]] = {}
    for index, (title, outline, lane) in enumerate(cells):
        middle = [round(sum(p[0] for p in outline) / len(outline), 4), round(sum(p[1] for p in outline) / len(outline), 4)]
        if len(outline) != 4:  # a sector: its area's centre (a mean of corners drifts to the finer arc)
            middle = [round(v, 4) for v in centroid([tuple(p) for p in outline])]
        node = {"id": index, "name": title, "xy": middle, "outline": outline}
        if lane:
            node["lane"] = lane
        nodes.append(node)
        for a, b in zip(outline, [*outline[1:], outline[0]]):
            sides.setdefault(frozenset((tuple(a), tuple(b))), []).append(index)
    links: set[tuple[int, int]] = set()
    for owners in sides.values():
        for x, one in enumerate(owners):
            for other in owners[x + 1:]:
                if cells[one][0] == cells[other][0] and cells[one][2] and cells[other][2]:
                    continue  # a bridge's own two lanes
                if _lane_runs(nodes[one], nodes[other]) and _lane_runs(nodes[other], nodes[one]):
                    links.add((min(one, other), max(one, other)))
    return _json_board(shape, nodes, [list(link) for link in sorted(links)])


def _lane_runs(node: dict, other: dict) -> bool:
    """Whether a link from ``node`` to ``other`` runs along ``node``'s lane, by the reader's rule
    (:func:`flowgraph.io.json_graph.on_axis`); any link does from a plain cell."""
    from ..io.json_graph import on_axis

    lane = node.get("lane")
    return lane is None or on_axis(lane, other["xy"][0] - node["xy"][0], other["xy"][1] - node["xy"][1])


@dataclass(frozen=True)
class ShapeBoard:
    """An empty shape board for the generator (:func:`flowgraph.authoring.generate.generate`), as
    :class:`~flowgraph.authoring.templates.BoardShape` is a lattice's: its blank JSON graph text.

    Attributes
    ----------
    text : str
        The blank board (:func:`ring`, :func:`cube`, :func:`star`, :func:`figure_eight`, :func:`linked_loops`,
        :func:`borromean`, :func:`triquetra`, :func:`tiling`): no endpoints.
    """

    text: str

    @property
    def cells(self) -> dict[Node, str]:
        """Each cell -> ``"."`` (what :class:`~flowgraph.authoring.templates.BoardShape` holds of a board: its
        cells, counted by the generator's difficulty spans)."""
        return dict.fromkeys((key[:2] for key in self.sketch().spots), ".")  # a bridge once

    def sketch(self) -> Sketch:
        """The board's nodes (keyed ``(0, id)``; a bridge's lanes ``(0, id, axis)``, the id of its first lane), places,
        outlines and names, and its links."""
        from ..io.sketch import PlacedNode, Sketch

        doc = json.loads(self.text)
        sketch = Sketch()
        keys: dict = {}
        bridges: dict[tuple, int] = {}  # a bridge's place -> the id its lanes' keys share (the reader's rule)
        for node in doc["nodes"]:
            lane = node.get("lane")
            key = (0, bridges.setdefault(tuple(node["xy"]), node["id"]), lane) if lane else (0, node["id"])
            keys[node["id"]] = key
            sketch.spots[key] = PlacedNode(tuple(node["xy"]), None, lane, tuple(map(tuple, node["outline"])),
                                           node["name"])
        for a, b in doc["links"]:
            sketch.link(keys[a], keys[b])
        return sketch

    def labelled(self, sketch: Sketch, labels: dict[Node, str]) -> tuple[Puzzle | None, list[Problem]]:
        """The puzzle of this board with endpoint ``labels`` on the nodes of :meth:`sketch`."""
        from ..io.json_graph import analyse_json_graph

        doc = json.loads(self.text)
        for node in doc["nodes"]:
            label = None if node.get("lane") else labels.get((0, node["id"]))
            if label is not None:
                node["label"] = label
        return analyse_json_graph(_json_board(doc["shape"], doc["nodes"], doc["links"]))


def shape_board(shape: str, **size: int | bool) -> ShapeBoard:
    """The blank board of a shape of :data:`SHAPES` (``shape_board("ring", rings=2, sectors=8)``).

    Raises
    ------
    ValueError
        An unknown shape, a parameter it does not take, or a size out of range.
    """
    if shape not in SHAPES:
        raise ValueError(f"unknown shape {shape!r}: expected one of {', '.join(SHAPES)}")
    unknown = set(size) - set(SHAPES[shape])
    if unknown:
        raise ValueError(f"a {shape} takes {', '.join(SHAPES[shape])}, not {', '.join(sorted(unknown))}")
    make = {"ring": ring, "cube": cube, "star": star, "figure-eight": figure_eight,
            "linked-loops": linked_loops, "tiling": tiling, "borromean": borromean,
            "triquetra": triquetra}[shape]
    return ShapeBoard(make(**size))  # type: ignore[operator]
