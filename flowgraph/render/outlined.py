"""The picture of a board drawn by its cells' own outlines (a shape board: a ring of sectors, a star), not a lattice.

Its reader recorded each cell's outline, a polygon in board units (:attr:`flowgraph.model.Drawing.outlines`);
the scene draws those polygons as they are, pipes through each cell's centroid, and sorts every edge by what
lies across it, as :mod:`.scene` does on a lattice: an edge two cells share is a thin inner line when they are
linked and a wall when they are not, an edge of one cell alone is the board's thick outline. A bridge (two lanes,
one outline) is drawn as a deck: the lane the board draws over (:meth:`~flowgraph.model.Drawing.passes_over`: a
``-`` or ``/`` lane unless the board says) passes over with a gap, the other's runs under in its shadow, as on a
lattice.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import ConversionError
from ..model import Node, Place, Puzzle

__all__ = ["outlined_scene", "centroid", "place_dots", "deck_sides", "DECK_EDGE_PX", "wrap_name", "name_rows"]

Point = tuple[float, float]

#: A bridge deck's thin sides beside a plain cell, pixels: a line of one pixel that falls between two of a
#: slanted side's gives each half its contrast, too little against the deck's grey for a scan to see it (a
#: side two decks share stays one pixel: grey both sides, it is clear, and wider it reads as a wall).
DECK_EDGE_PX = 1.5


def centroid(polygon: Sequence[Place]) -> Point:
    """The centroid of a simple polygon (its area's centre: a sector's is inside it, where a mean of its corners
    drifts towards the finer arc); a degenerate one gives the mean of its corners.

    >>> centroid([(0, 0), (2, 0), (2, 2), (0, 2)])
    (1.0, 1.0)
    """
    area = cx = cy = 0.0
    for (x0, y0, *_), (x1, y1, *_) in zip(polygon, [*polygon[1:], polygon[0]]):
        cross = x0 * y1 - x1 * y0
        area += cross
        cx += (x0 + x1) * cross
        cy += (y0 + y1) * cross
    if abs(area) < 1e-12:
        return (sum(p[0] for p in polygon) / len(polygon), sum(p[1] for p in polygon) / len(polygon))
    return (cx / (3 * area), cy / (3 * area))


#: The least inradius a cell is drawn with, in ``cell_px`` (a unit square's is 0.5): a board of smaller cells
#: is drawn larger.
FIT_INRADIUS = 0.4


def _inradius(polygon: Sequence[Place]) -> float:
    """Twice a polygon's area over its perimeter: its inscribed circle's radius where it has one."""
    area = perimeter = 0.0
    for (x0, y0, *_), (x1, y1, *_) in zip(polygon, [*polygon[1:], polygon[0]]):
        area += x0 * y1 - x1 * y0
        perimeter += math.hypot(x1 - x0, y1 - y0)
    return abs(area) / perimeter if perimeter else 0.0


#: The least font a cell's name is written in, in pixels: a board drawn with ``labels`` is drawn larger (at
#: most 4 times) till its smallest cell's name is this size.
NAME_PX = 9
NAME_ROOM = 1.5  # a name's square, in inradii: a little over the square inscribed in the cell's circle (1.41)
_CHAR_EM = 0.58  # a sans-serif character's width, in ems (of digits and lower case, a little over the mean)
_LINE_EM = 1.15


def wrap_name(name: str, room: float) -> tuple[list[str], float]:
    """A cell's name in the lines (split between words, never before a number, at most 4) that let it be
    written largest in a square ``room`` pixels on a side, and that font's size in pixels.

    >>> lines, size = wrap_name("ring 2 sector 7", 40)
    >>> lines, round(size, 1)
    (['ring 2', 'sector 7'], 8.6)
    >>> wrap_name("r2c3", 40)[0]
    ['r2c3']
    """
    words: list[str] = []
    for word in name.split() or [name]:  # a number stays with the word it counts ("sector 7")
        if words and word.isdigit():
            words[-1] += " " + word
        else:
            words.append(word)
    if len(words) > 8:  # a long name of the board's own: the last words on one line
        words = [*words[:7], " ".join(words[7:])]
    best: tuple[list[str], float] = ([name], 0.0)
    for cuts in range(2 ** (len(words) - 1)):  # each gap between words broken or not: at most 128 ways
        lines = [words[0]]
        for i, word in enumerate(words[1:]):
            if cuts >> i & 1:
                lines.append(word)
            else:
                lines[-1] += " " + word
        if len(lines) > 4:
            continue
        size = min(room / (_CHAR_EM * max(len(line) for line in lines)), room / (_LINE_EM * len(lines)))
        if size > best[1]:
            best = (lines, size)
    return best


def name_rows(y: float, count: int, size: float) -> list[float]:
    """The middles of a cell name's ``count`` lines of ``size`` pixels (:func:`wrap_name`), centred on ``y``."""
    return [y + (i - (count - 1) / 2) * _LINE_EM * size for i in range(count)]


#: The most of a cell's room (its centroid's distance to its outline) a dot's radius takes: a dot never
#: touches its cell's lines (where it would hide one, a scan reads two cells as one).
DOT_ROOM = 0.8


def _room(polygon: Sequence[Place]) -> float:
    """The least distance from a polygon's centroid to its sides, board units."""
    cx, cy = centroid(polygon)
    best = math.inf
    for (x0, y0, *_), (x1, y1, *_) in zip(polygon, [*polygon[1:], polygon[0]]):
        dx, dy = x1 - x0, y1 - y0
        along = ((cx - x0) * dx + (cy - y0) * dy) / (dx * dx + dy * dy) if dx or dy else 0.0
        t = min(1.0, max(0.0, along))
        best = min(best, math.hypot(cx - x0 - t * dx, cy - y0 - t * dy))
    return best


def outlined_scene(puzzle: Puzzle, paths: Mapping[str, Sequence[Any]] | None, theme: dict, cell_px: int,
                   labels: bool, max_pixels: int, scene_type: type) -> Any:
    """The :class:`.scene.Scene` of a board whose every cell has an outline (arguments as :func:`.scene.scene`).

    Raises
    ------
    ConversionError
        A node has no outline, or the picture would be over ``max_pixels`` pixels.
    """
    outlines = puzzle.drawing.outlines
    missing = [node for node in puzzle.cell_index.nodes if node not in outlines]
    if missing:
        raise ConversionError(f"the node at {missing[0][0]}:{missing[0][1]} has no outline to draw it by (the "
                              "board's other cells have one)")
    # small cells (triangles, narrow rhombi) drawn larger, so a dot fits in its cell and every cell is as
    # readable as a square one: a cell's inradius, 2 area / perimeter (exact for a triangle, a rhombus, a
    # regular polygon), at least FIT_INRADIUS of cell_px
    inradius = statistics.median(_inradius(poly) for poly in outlines.values())
    cell_px = max(cell_px, round(cell_px * FIT_INRADIUS / inradius)) if inradius > 0 else cell_px
    min_px = cell_px
    nodes = puzzle.cell_index.nodes
    drawn = list({node[:2]: node for node in reversed(nodes)}.values())[::-1]  # a cell once (a bridge: its lanes)
    ends = {end[:2] for flow in puzzle.flows for end in flow.ends}
    named = [node for node in drawn if node[:2] not in ends] if labels else []  # an endpoint shows its label
    if named:  # each name's lines and its font at one pixel a cell side: drawn larger till the median is legible
        from ..io.sketch import cell_namer

        namer = cell_namer(puzzle)
        wrapped = {node: wrap_name(namer(node), NAME_ROOM * _inradius(outlines[node])) for node in named}
        per_px = min(size for _, size in wrapped.values())  # the smallest name legible, the picture at most 4x
        cell_px = max(cell_px, min(4 * cell_px, math.ceil(NAME_PX / per_px))) if per_px > 0 else cell_px
    dot_px = 0.36 * cell_px * min(1.0, inradius / 0.5)  # a unit square's: 0.36 of 0.5
    xs = [p[0] for poly in outlines.values() for p in poly]
    ys = [p[1] for poly in outlines.values() for p in poly]
    margin = 0.3
    width, height = max(xs) - min(xs) + 2 * margin, max(ys) - min(ys) + 2 * margin
    if named and width * height * cell_px * cell_px > max_pixels:  # the names as large as the picture allows
        cell_px = max(min_px, math.floor(math.sqrt(max_pixels / (width * height))))
    if width * height * cell_px * cell_px > max_pixels:
        raise ConversionError(f"the picture would be over {max_pixels:,} pixels: draw it with a smaller cell_px")
    x0, y0 = min(xs) - margin, min(ys) - margin

    def px(p: Sequence[float]) -> Point:
        return ((p[0] - x0) * cell_px, (p[1] - y0) * cell_px)

    out = scene_type(round(width * cell_px), round(height * cell_px), theme, cell_px=cell_px,
                     pipe_px=0.32 * cell_px * min(1.0, inradius / 0.5), dot_px=dot_px)
    out.cells = [[px(p) for p in outlines[node]] for node in drawn]
    out.cell_pos = [(node[0], node[1]) for node in drawn]
    places = puzzle.places
    out.cell_xy = [tuple(round(v) for v in (places[node] or (0, 0))[:2]) for node in drawn]
    out.bridges = [[px(p) for p in outlines[node]] for node in drawn if len(node) == 3]
    out.deck_sides, out.deck_ink, out.by_area = deck_sides(out.bridges), "deck_edge", True
    centre: dict[Node, Point] = {node: px(centroid(outlines[node])) for node in nodes}
    linked = {frozenset((nodes[u], nodes[v])) for u, v in puzzle.cell_index.links.tolist()}
    side = _sort_edges(out, outlines, linked, px)
    for label, given in (paths or {}).items():
        pieces = [list(given)] if given and not isinstance(given[0], list) else given
        strokes = []
        for piece in pieces:
            if not piece:
                continue
            stroke = [centre[piece[0]]]
            for u, v in zip(piece, piece[1:]):  # through the middle of the side the two cells share
                if frozenset((u, v)) in side:
                    stroke.append(side[frozenset((u, v))])
                stroke.append(centre[v])
            strokes.append(stroke)
            for before, lane, after in zip(piece, piece[1:], piece[2:]):  # straight over a bridge, side to side
                if len(lane) == 3 and frozenset((before, lane)) in side and frozenset((lane, after)) in side:
                    gangway = [side[frozenset((before, lane))], side[frozenset((lane, after))]]
                    deck = out.overpasses if puzzle.drawing.passes_over(lane) else out.underpasses
                    if deck and deck[-1][0] == label and deck[-1][1][-1] == gangway[0]:
                        deck[-1][1].append(gangway[1])  # a run of bridges one polyline: no notch where a band bends
                    else:
                        deck.append((label, gangway))
        out.pipes.append((label, strokes))
    for node in named:
        lines, size = wrapped[node]
        out.names.append((lines, centre[node], size * cell_px))
    # a dot fits its cell, a margin left: at most DOT_ROOM of the least distance from the cell's centroid (where
    # its dot is drawn) to its outline (an inner ring's sector is narrower than most)
    radius = {end: min(dot_px, DOT_ROOM * _room(outlines[end]) * cell_px) for flow in puzzle.flows for end in flow.ends}
    place_dots(out, puzzle, centre, labels, radius)
    return out


def deck_sides(bridges: list[list[Point]], wide: float = DECK_EDGE_PX) -> list[tuple[Point, Point, float]]:
    """Each side of the bridge decks ``bridges`` (polygons, pixels) once, with its width in pixels: ``wide``
    beside a plain cell or the outline, one pixel where two decks meet."""
    count: dict[frozenset, int] = {}
    sides: dict[frozenset, tuple[Point, Point]] = {}
    for poly in bridges:
        for a, b in zip(poly, [*poly[1:], poly[0]]):
            key = frozenset((tuple(round(v, 3) for v in a), tuple(round(v, 3) for v in b)))
            count[key] = count.get(key, 0) + 1
            sides.setdefault(key, (a, b))
    return [(a, b, 1.0 if count[key] > 1 else wide) for key, (a, b) in sides.items()]


def place_dots(out: Any, puzzle: Puzzle, centre: Mapping[Node, Point], labels: bool,
               radius: Mapping[Node, float] | None = None) -> None:
    """Each endpoint's dot at its cell's centre (and its label on it, with ``labels``): every scene's last layer;
    ``radius``: each dot's, pixels (default: the scene's ``dot_px``)."""
    for flow in puzzle.flows:
        for end in flow.ends:
            out.dots.append((flow.label, centre[end]))
            out.dot_radii.append(radius[end] if radius is not None else out.dot_px)
            if labels:
                out.labels.append((flow.label, centre[end]))


def _sort_edges(out: Any, outlines: Mapping[Node, Sequence[Place]], linked: set, px) -> dict[frozenset, Point]:
    """Each polygon edge once, by the cells that have it: two linked cells a thin line, two unlinked a wall,
    one cell the outline (an edge is its two corners, rounded to a millionth of a cell); returns, for each pair
    of linked cells, the middle of the sides they share (a pipe crosses there), in pixels."""
    shared: dict[frozenset, list[Point]] = {}
    owners: dict[frozenset, list[Node]] = {}
    ends: dict[frozenset, tuple[Place, Place]] = {}
    for node, poly in outlines.items():
        for a, b in zip(poly, [*poly[1:], poly[0]]):
            key = frozenset((tuple(round(v, 6) for v in a[:2]), tuple(round(v, 6) for v in b[:2])))
            owners.setdefault(key, []).append(node)
            ends.setdefault(key, (a, b))
    for key, cells in owners.items():
        a, b = ends[key]
        seg = (px(a), px(b))
        if len({cell[:2] for cell in cells}) == 1:  # one cell's (a bridge's lanes share their outline)
            out.outline.append(seg)
        elif any(frozenset((u, v)) in linked for i, u in enumerate(cells) for v in cells[i + 1:]):
            out.grid_lines.append(seg)
            for i, u in enumerate(cells):
                for v in cells[i + 1:]:
                    shared.setdefault(frozenset((u, v)), []).extend(seg)
        else:
            out.walls.append(seg)
    return {pair: (sum(p[0] for p in ends_) / len(ends_), sum(p[1] for p in ends_) / len(ends_))
            for pair, ends_ in shared.items()}
