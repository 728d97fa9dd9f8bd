"""A picture of what the scanner read, drawn over the screenshot (``flowgraph scan --debug``)."""

from __future__ import annotations

from pathlib import Path

from ..render.scene import flow_colour
from .reader import Scan, hex_corners

__all__ = ["draw_scan"]


def draw_scan(found: Scan, image, out: str | Path) -> None:
    """Draw the cells (thin cyan outlines), walls (thick red), dots (ringed, with their label) over ``image``.

    Parameters
    ----------
    found : Scan
        What :func:`~.reader.read_board` read from ``image``.
    image : str, Path, bytes or numpy.ndarray
        The picture that was scanned.
    out : str or Path
        A PNG (or any suffix Pillow writes).
    """
    from PIL import Image, ImageDraw

    from .image import load_image

    rgb, scale = load_image(image)
    pic = Image.fromarray(rgb).convert("RGB")
    pic = pic.resize((round(pic.width / scale), round(pic.height / scale))) if scale != 1 else pic
    draw = ImageDraw.Draw(pic)
    if found.board is None:
        _draw_regions(found, draw)
    else:
        _draw_lattice(found, draw)
    import io

    from ..io.files import write_atomic

    buf = io.BytesIO()
    pic.save(buf, "PNG")
    write_atomic(out, buf.getvalue())


def _draw_lattice(found: Scan, draw) -> None:
    """A lattice board's cells, walls and dots."""
    from PIL import ImageFont

    assert found.board is not None
    lattice = found.board.lattice
    width = max(2, round(lattice.dx / 25 / found.scale))
    for site in found.board.cells:
        corners = [found.where(p) for p in hex_corners(lattice, lattice.centre(site))]
        draw.polygon(corners, outline=(0, 230, 230), width=max(1, width // 2))
    for wall in found.board.walls:
        a, b = (lattice.centre(s) for s in wall)
        mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        n = (-(b[1] - a[1]) / 2, (b[0] - a[0]) / 2)
        if lattice.family.hexagonal:
            n = (n[0] / 3 ** 0.5, n[1] / 3 ** 0.5)
        draw.line([found.where((mid[0] - n[0], mid[1] - n[1])), found.where((mid[0] + n[0], mid[1] + n[1]))],
                  fill=(255, 40, 40), width=3 * width)
    font = ImageFont.load_default(size=max(10, round(lattice.dx * 0.35 / found.scale)))
    for dot in found.dots:
        x, y = found.where(dot.xy)
        r = 0.38 * min(lattice.dx, lattice.dy * (2 if lattice.family.hexagonal else 1)) / found.scale
        draw.ellipse((x - r, y - r, x + r, y + r), outline=(255, 255, 255), width=width)
        ink = (0, 0, 0) if sum(flow_colour(dot.label)) > 382 else (255, 255, 255)
        draw.text((x, y), dot.label, fill=ink, font=font, anchor="mm", stroke_width=1,
                  stroke_fill=(0, 0, 0) if ink == (255, 255, 255) else (255, 255, 255))


def _draw_regions(found: Scan, draw) -> None:
    """A shape board's cells (their traced outlines; a bridge's in yellow), links (a line between linked cells'
    middles) and dots."""
    from ..render.outlined import centroid

    assert found.regions is not None
    regions = found.regions
    width = max(2, round(regions.unit / 40 / found.scale))
    middles = [found.where(centroid(poly)) for poly in regions.outlines]
    for k, poly in enumerate(regions.outlines):  # a bridge's deck outlined yellow, as the lattice's bridges
        colour = (255, 220, 0) if k in found.bridges else (0, 230, 230)
        draw.polygon([found.where(p) for p in poly], outline=colour, width=width)
    for a, b in sorted(regions.links):
        draw.line([middles[a], middles[b]], fill=(255, 0, 255), width=max(1, width // 2))
    for dot in found.dots:
        x, y = found.where(dot.xy)
        r = 0.3 * regions.unit / found.scale
        draw.ellipse((x - r, y - r, x + r, y + r), outline=(255, 255, 255), width=width)
        draw.text((x, y), dot.label, fill=(255, 255, 255), anchor="mm", stroke_width=1, stroke_fill=(0, 0, 0))
