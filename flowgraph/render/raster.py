"""Puzzles and solutions as PNG, and the search as an animated GIF, with Pillow.

The scene (:mod:`.scene`) is drawn at twice the size and scaled down with
Lanczos resampling, which smooths the edges Pillow draws without
anti-aliasing. Pillow is imported only here, when a picture is asked for.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from pathlib import Path

from ..errors import ConversionError
from ..model import Puzzle, Solution
from .outlined import name_rows
from .scene import Scene, dot_radius, flow_ink, scene, shade

__all__ = ["png", "scene_image", "gif"]

_SUPER = 2  # drawn at this many times the size, then scaled down


def scene_image(sc: Scene):
    """The scene as a Pillow RGB image."""
    from PIL import Image, ImageDraw

    k = _SUPER
    img = Image.new("RGB", (sc.width * k, sc.height * k), sc.theme["background"])
    draw = ImageDraw.Draw(img)

    def pts(points):
        return [(x * k, y * k) for x, y in points]

    for poly in sc.cells:
        draw.polygon(pts(poly), fill=sc.theme["cell"])
    for a, b in sc.grid_lines:
        _stroke(draw, pts([a, b]), sc.theme["grid"], max(1, round(sc.grid_px * k)), False)
    for poly in sc.bridges:  # a deck over the grid lines: its sides a thin line of its own, as clear on its grey
        draw.polygon(pts(poly), fill=sc.theme["bridge"])
    for a, b, width in sc.deck_sides:  # centred on each side, as a grid line (two decks' outlines inside: two)
        _stroke(draw, pts([a, b]), sc.theme[sc.deck_ink], round(width * k), False)
    for segs, colour, width, caps in ((sc.outline, sc.theme["wall"], 0.08 * sc.cell_px, True),
                                      (sc.tunnels, sc.theme["tunnel"], 0.5 * sc.cell_px, False),
                                      (sc.walls, sc.theme["wall"], 0.08 * sc.cell_px, True)):
        for a, b in segs:
            _stroke(draw, pts([a, b]), colour, max(1, round(width * k)), caps)
    rim_px = max(1.5, 0.1 * sc.pipe_px)
    for label, strokes in sc.pipes:
        colour, rim = flow_ink(label, sc.theme)
        for stroke in strokes:
            if len(stroke) > 1:
                if rim is not None:  # a colour close to the background: a rim under the pipe
                    _stroke(draw, pts(stroke), rim, round((sc.pipe_px + 2 * rim_px) * k))
                _stroke(draw, pts(stroke), colour, round(sc.pipe_px * k))
    for label, stroke in sc.underpasses:  # the | lane runs on beneath the deck, in its shadow
        _stroke(draw, pts(stroke), shade(flow_ink(label, sc.theme)[0], sc.theme), round(sc.pipe_px * k), caps=False)
    for label, stroke in sc.overpasses:  # the - lane passes over the | lane, a thin gap each side
        _stroke(draw, pts(stroke), sc.theme["rim"], round(sc.pipe_px * 1.45 * k), caps=False)
        _stroke(draw, pts(stroke), flow_ink(label, sc.theme)[0], round(sc.pipe_px * k), caps=False)
    for a, b in sc.rails:  # the deck's guard rails, over both lanes
        _stroke(draw, pts([a, b]), sc.theme["rail"], max(1, round(0.06 * sc.cell_px * k)))
    for lines, (x, y), size in sc.names:  # over the pipes, a halo of the cell's colour round each letter
        font = _font(round(size * k))
        for line, row in zip(lines, name_rows(y, len(lines), size)):
            draw.text((x * k, row * k), line, fill=sc.theme["wall"], font=font, anchor="mm",
                      stroke_width=max(1, round(0.12 * size * k)), stroke_fill=sc.theme["cell"])
    for n, (label, (x, y)) in enumerate(sc.dots):
        colour, rim = flow_ink(label, sc.theme)
        r = dot_radius(sc, n) * k
        draw.ellipse((x * k - r, y * k - r, x * k + r, y * k + r), fill=colour,
                     outline=rim, width=0 if rim is None else max(1, round(rim_px * k)))
    for n, (label, (x, y)) in enumerate(sc.labels):  # (one a dot, in the dots' order)
        ink = (0, 0, 0) if sum(flow_ink(label, sc.theme)[0]) > 382 else (255, 255, 255)
        draw.text((x * k, y * k), label, fill=ink, font=_font(round(dot_radius(sc, n) * 1.2 * k)), anchor="mm")
    for text, (x, y) in sc.rulers:
        draw.text((x * k, y * k), text, fill=sc.theme["wall"], font=_font(round(sc.cell_px * 0.3 * k)), anchor="mm")
    # a shape's picture by area (the mean of each 2 x 2): Lanczos rings beside its slanted and curved bright lines,
    # darker than the background, and a scan then takes a narrow cell's fill beside them for a line
    return img.resize((sc.width, sc.height), Image.Resampling.BOX if sc.by_area else Image.Resampling.LANCZOS)


@functools.lru_cache(maxsize=64)
def _font(size: int):
    """Pillow's own font at ``size`` pixels (at least 1), loaded once a size: a board's names share a few."""
    from PIL import ImageFont

    return ImageFont.load_default(size=max(1, size))


def _stroke(draw, points, colour, width: int, caps: bool = True) -> None:
    """A thick polyline with round joins and caps (Pillow draws square ends)."""
    draw.line(points, fill=colour, width=width, joint="curve")
    if caps:
        r = width / 2
        for x, y in (points[0], points[-1]):
            draw.ellipse((x - r, y - r, x + r, y + r), fill=colour)


def png(board: Puzzle | Solution, out: str | Path | None = None, *, paths: dict | None = None, theme: str = "dark",
        cell_px: int = 40, labels: bool = False, memory_bytes: int | None = None) -> bytes:
    """A puzzle or a solution as PNG bytes (also written to ``out`` if given); arguments as :func:`~.svg.svg`.

    Raises
    ------
    ConversionError
        As :func:`~.scene.scene`; or drawing the picture would take more than ``memory_bytes``
        (:data:`flowgraph.io.footprint.PNG_BYTES_PER_PIXEL` a pixel; None: no bound).
    """
    import io

    from ..io.footprint import PNG_BYTES_PER_PIXEL

    if isinstance(board, Solution):
        paths = {k: list(v) for k, v in board.paths.items()}
        board = board.puzzle
    buf = io.BytesIO()
    drawn = scene(board, paths, theme=theme, cell_px=cell_px, labels=labels)
    needed = drawn.width * drawn.height * PNG_BYTES_PER_PIXEL
    if memory_bytes is not None and needed > memory_bytes:
        raise ConversionError(f"drawing this {drawn.width:,} x {drawn.height:,} picture takes about "
                              f"{needed / 2**20:,.0f} MB, over the memory budget of {memory_bytes / 2**20:,.0f} MB "
                              "(--memory-limit): draw it with a smaller --cell-px")
    scene_image(drawn).save(buf, "PNG", optimize=True)
    data = buf.getvalue()
    if out is not None:
        from ..io.files import write_atomic

        write_atomic(out, data)
    return data


def gif(puzzle: Puzzle, frames: Iterable[dict], out: str | Path, *, theme: str = "dark", cell_px: int = 40,
        frame_ms: int = 120, last_ms: int = 2000) -> int:
    """An animated GIF of partial paths, one frame per item of ``frames`` (the last one held).

    Returns
    -------
    int
        The number of frames written.
    """
    images = [scene_image(scene(puzzle, paths, theme=theme, cell_px=cell_px)) for paths in frames]
    if not images:
        raise ValueError("no frames to animate")
    durations = [frame_ms] * (len(images) - 1) + [last_ms]
    import io

    from ..io.files import write_atomic

    buf = io.BytesIO()
    images[0].save(buf, "GIF", save_all=True, append_images=images[1:], duration=durations, loop=0, optimize=False)
    write_atomic(out, buf.getvalue())
    return len(images)
