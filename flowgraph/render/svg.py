"""Puzzles and solutions as SVG: SVG text written from a :class:`~.scene.Scene` (its primitives in drawing order).

``chess.svg`` builds an ElementTree; here each primitive is one line of
SVG text, escaped where it carries a label, which is all these pictures
need.

>>> from flowgraph import parse_text
>>> picture = svg(parse_text("STANDARD\\nA-.-A\\n"))
>>> picture.startswith("<svg") and picture.count('class="cell"')
3
"""

from __future__ import annotations

from xml.sax.saxutils import escape

from ..model import Puzzle, Solution
from .outlined import name_rows
from .scene import Scene, dot_radius, flow_ink, scene, shade

__all__ = ["svg", "scene_svg"]


def _rgb(c: tuple[int, int, int]) -> str:
    return "#%02x%02x%02x" % c


def _pts(points) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in points)


def svg(
    board: Puzzle | Solution,
    *,
    paths: dict | None = None,
    theme: str = "dark",
    cell_px: int = 40,
    labels: bool = False,
    ghosts: bool = False,
    rulers: bool | None = None,
) -> str:
    """A puzzle (endpoints as dots) or a solution (pipes through the cells) as an SVG document.

    Parameters
    ----------
    board : Puzzle or Solution
        A solution draws its paths; a puzzle draws ``paths`` if given (a
        search state's partial paths, say).
    paths : dict of label -> list of Node, optional
    theme : {"dark", "light"}
    cell_px : int
        Pixels per cell.
    labels : bool
        Write each endpoint's label on its dot, and number the rows and columns (unless ``rulers`` says); on a
        board drawn by its cells' outlines, write every other cell's name in it (``class="name"``, as
        :func:`flowgraph.io.sketch.cell_namer` names it), the picture drawn larger till the smallest is 9 px.
    ghosts : bool
        Outline the empty places of the bounding grid (``class="hole"``, for an editor).
    rulers : bool, optional
        Number the rows and columns (``class="ruler"``, as :func:`~flowgraph.render.scene.scene`); default: as
        ``labels``.

    Returns
    -------
    str
        ``<svg ...>...</svg>``: one ``class="cell"`` shape per cell (a
        polygon: 4 corners, 6 on hex boards), one ``class="pipe"`` group per
        flow drawn, one ``class="wall"`` line per missing link between
        neighbouring cells, one ``class="tunnel"`` line per end of each warp.

    Raises
    ------
    ValueError
        Unknown theme.
    ConversionError
        The board has no 2-D drawing.
    """
    if isinstance(board, Solution):
        paths = {k: list(v) for k, v in board.paths.items()}
        board = board.puzzle
    return scene_svg(scene(board, paths, theme=theme, cell_px=cell_px, labels=labels, ghosts=ghosts, rulers=rulers))


def scene_svg(sc: Scene) -> str:
    """The scene as an SVG document."""
    t = sc.theme
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{sc.width}" height="{sc.height}" '
           f'viewBox="0 0 {sc.width} {sc.height}">',
           f'<rect width="100%" height="100%" fill="{_rgb(t["background"])}"/>']
    for poly, (line, col), (x, y) in zip(sc.cells, sc.cell_pos, sc.cell_xy):
        out.append(f'<polygon class="cell" data-cell="{line}:{col}" data-xy="{x},{y}" '
                   f'aria-label="cell {line}:{col}" points="{_pts(poly)}" fill="{_rgb(t["cell"])}"/>')
    for (x, y), poly in sc.ghosts:
        out.append(f'<polygon class="hole" data-xy="{x},{y}" points="{_pts(poly)}" fill="{_rgb(t["background"])}" '
                   f'stroke="{_rgb(t["grid"])}" stroke-dasharray="3 4"/>')
    segment = ('<line class="{cls}" x1="{:.1f}" y1="{:.1f}" x2="{:.1f}" y2="{:.1f}" stroke="{col}" '
               'stroke-width="{w:.1f}" stroke-linecap="{cap}"/>')
    for (x1, y1), (x2, y2) in sc.grid_lines:
        out.append(segment.format(x1, y1, x2, y2, cls="grid", col=_rgb(t["grid"]), w=sc.grid_px, cap="butt"))
    for poly in sc.bridges:  # a deck over the grid lines: its sides a thin line of its own, as clear on its grey
        out.append(f'<polygon class="bridge" points="{_pts(poly)}" fill="{_rgb(t["bridge"])}"/>')
    for (x1, y1), (x2, y2), width in sc.deck_sides:
        out.append(segment.format(x1, y1, x2, y2, cls="deck-side", col=_rgb(t[sc.deck_ink]), w=width, cap="butt"))
    for cls, segs, col, w, cap in (("outline", sc.outline, t["wall"], 0.08 * sc.cell_px, "round"),
                                   ("tunnel", sc.tunnels, t["tunnel"], 0.5 * sc.cell_px, "butt"),
                                   ("wall", sc.walls, t["wall"], 0.08 * sc.cell_px, "round")):
        for (x1, y1), (x2, y2) in segs:
            out.append(segment.format(x1, y1, x2, y2, cls=cls, col=_rgb(col), w=w, cap=cap))
    rim_px = max(1.5, 0.1 * sc.pipe_px)
    for label, strokes in sc.pipes:
        colour, rim = flow_ink(label, t)
        drawn = [f'<polyline points="{_pts(stroke)}"/>' for stroke in strokes if len(stroke) > 1]
        if rim is not None:  # a colour close to the background: a rim under the pipe
            out.append(f'<g class="pipe-rim" fill="none" stroke="{_rgb(rim)}" stroke-width="{sc.pipe_px + 2 * rim_px:.1f}" '
                       f'stroke-linecap="round" stroke-linejoin="round">')
            out += drawn + ["</g>"]
        out.append(f'<g class="pipe" data-flow="{escape(label)}" fill="none" stroke="{_rgb(colour)}" '
                   f'stroke-width="{sc.pipe_px:.1f}" stroke-linecap="round" stroke-linejoin="round">')
        out += drawn + ["</g>"]
    for label, stroke in sc.underpasses:  # the | lane runs on beneath the deck, in its shadow
        out.append(f'<polyline class="underpass" points="{_pts(stroke)}" fill="none" '
                   f'stroke="{_rgb(shade(flow_ink(label, t)[0], t))}" stroke-width="{sc.pipe_px:.1f}"/>')
    for label, stroke in sc.overpasses:  # the - lane of a bridge passes over the | lane, a thin gap each side
        out.append(f'<polyline class="overpass" points="{_pts(stroke)}" fill="none" stroke="{_rgb(t["rim"])}" '
                   f'stroke-width="{sc.pipe_px * 1.45:.1f}"/>')
        out.append(f'<polyline class="overpass" points="{_pts(stroke)}" fill="none" '
                   f'stroke="{_rgb(flow_ink(label, t)[0])}" stroke-width="{sc.pipe_px:.1f}"/>')
    for (x1, y1), (x2, y2) in sc.rails:  # the deck's guard rails, over both lanes
        out.append(f'<line class="rail" x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
                   f'stroke="{_rgb(t["rail"])}" stroke-width="{0.06 * sc.cell_px:.1f}" stroke-linecap="round"/>')
    for lines, (cx, cy), size in sc.names:  # over the pipes, a halo of the cell's colour round each letter
        spans = "".join(f'<tspan x="{cx:.1f}" y="{y:.1f}">{escape(line)}</tspan>'
                        for line, y in zip(lines, name_rows(cy, len(lines), size)))
        out.append(f'<text class="name" fill="{_rgb(t["wall"])}" stroke="{_rgb(t["cell"])}" '
                   f'stroke-width="{0.25 * size:.1f}" paint-order="stroke" stroke-linejoin="round" '
                   f'font-family="sans-serif" font-size="{size:.1f}" text-anchor="middle" '
                   f'dominant-baseline="central">{spans}</text>')
    for k, (label, (cx, cy)) in enumerate(sc.dots):
        colour, rim = flow_ink(label, t)
        edge = "" if rim is None else f' stroke="{_rgb(rim)}" stroke-width="{rim_px:.1f}"'
        out.append(f'<circle class="endpoint" data-flow="{escape(label)}" cx="{cx:.1f}" cy="{cy:.1f}" '
                   f'r="{dot_radius(sc, k):.1f}" fill="{_rgb(colour)}"{edge}/>')
    for k, (label, (cx, cy)) in enumerate(sc.labels):  # (one a dot, in the dots' order)
        ink = "#000000" if sum(flow_ink(label, t)[0]) > 382 else "#ffffff"
        out.append(f'<text x="{cx:.1f}" y="{cy:.1f}" fill="{ink}" font-family="sans-serif" font-weight="bold" '
                   f'font-size="{dot_radius(sc, k) * 1.2:.0f}" text-anchor="middle" dominant-baseline="central">'
                   f'{escape(label)}</text>')
    for text, (rx, ry) in sc.rulers:
        out.append(f'<text class="ruler" x="{rx:.1f}" y="{ry:.1f}" fill="{_rgb(t["wall"])}" font-family="sans-serif" '
                   f'font-size="{sc.cell_px * 0.3:.0f}" text-anchor="middle" dominant-baseline="central">{text}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
