"""Rendering boards to pictures and comparing boards read back, for the scanner's tests."""

from __future__ import annotations

import io

from flowgraph.io.sketch import links_by_place, same_graph, sketch_of
from flowgraph.model import Puzzle

__all__ = ["shape", "same_graph", "picture"]


def shape(puzzle: Puzzle):
    """Cells, links and endpoint pairs by place (moved to start at 0, 0): the board up to label names."""
    sketch = sketch_of(puzzle)
    dx = min(s.xy[0] for s in sketch.spots.values())
    dy = min(s.xy[1] for s in sketch.spots.values())
    cells = {(s.xy[0] - dx, s.xy[1] - dy) for s in sketch.spots.values()}
    ends: dict[str, set] = {}
    for s in sketch.spots.values():
        if s.label:
            ends.setdefault(s.label, set()).add((s.xy[0] - dx, s.xy[1] - dy))
    return cells, links_by_place(sketch, dx, dy), {frozenset(v) for v in ends.values()}


def picture(puzzle: Puzzle, *, theme: str = "dark", cell_px: int = 40, scale: float = 1.0,
            jpeg: int | None = None) -> bytes:
    """The puzzle drawn by flowgraph's renderer, scaled and JPEG-compressed as asked."""
    from PIL import Image

    from flowgraph.render.raster import png

    img = Image.open(io.BytesIO(png(puzzle, theme=theme, cell_px=cell_px))).convert("RGB")
    if scale != 1.0:
        img = img.resize((round(img.width * scale), round(img.height * scale)), Image.Resampling.BICUBIC)
    buf = io.BytesIO()
    if jpeg:
        img.save(buf, "JPEG", quality=jpeg)
    else:
        img.save(buf, "PNG")
    return buf.getvalue()
