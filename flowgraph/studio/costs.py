"""Weigh what a studio request costs in memory before it runs.

What a studio request costs in memory, weighed before it runs: the app's Gate holds every heavy request to one
budget (``flowgraph/studio/app.py``). Each function takes the request's JSON body and returns ``(bytes, cells)``
(``(bytes, pixels)`` for a picture), from the text's cell count (:func:`flowgraph.io.footprint.cells_bound`) and the
measured costs of :mod:`flowgraph.io.footprint`; nothing is parsed.
"""

from __future__ import annotations

from ..io.footprint import BASE_BYTES, PNG_BYTES_PER_PIXEL, SCAN_BYTES_PER_PIXEL, cells_bound, reading_bytes, solving_bytes

__all__ = ["reading_cost", "solving_cost", "render_cost", "convert_cost", "generate_cost", "scan_cost"]


def _text_cells(body: dict) -> int:
    text = body.get("text")
    return cells_bound(text) if isinstance(text, str) else 0


def reading_cost(body: dict) -> tuple[int, int]:
    """Estimate what reading a request's board costs.

    ``(bytes, cells)`` reading the body's ``text`` takes (check, levels, an SVG)."""
    cells = _text_cells(body)
    return reading_bytes(cells), cells


def solving_cost(body: dict) -> tuple[int, int]:
    """Estimate what reading and solving a request's board costs.

    ``(bytes, cells)`` reading and solving the body's ``text`` takes (count, hint, a solve)."""
    cells = _text_cells(body)
    return solving_bytes(cells), cells


def render_cost(body: dict) -> tuple[int, int]:
    """Estimate what a picture request costs.

    ``(bytes, cells)`` of :func:`.api.render`: reading, solving where asked, the picture's pixels for a PNG."""
    cells = _text_cells(body)
    need = solving_bytes(cells) if body.get("solution") else reading_bytes(cells)
    if body.get("png"):
        cell_px = body.get("cell_px", 40)
        cell_px = cell_px if isinstance(cell_px, int) and 8 <= cell_px <= 96 else 96
        need += cells * cell_px * cell_px * PNG_BYTES_PER_PIXEL
    return need, cells


def convert_cost(body: dict) -> tuple[int, int]:
    """Estimate what a conversion request costs.

    ``(bytes, cells)`` of :func:`.api.convert`: a level pack carries its solution, so that target solves."""
    return solving_cost(body) if body.get("to") == "level-pack" else reading_cost(body)


def generate_cost(body: dict) -> tuple[int, int]:
    """Estimate what a generation request costs.

    ``(bytes, cells)`` of :func:`.api.generate` (its size is checked there: at most 30x30)."""
    w, h = body.get("width", 7), body.get("height", 7)
    cells = w * h if all(isinstance(v, int) and 0 < v <= 30 for v in (w, h)) else 900
    return solving_bytes(cells), cells


def scan_cost(body: dict) -> tuple[int, int]:
    """Estimate what a scan request costs.

    ``(bytes, pixels)`` of :func:`.api.scan_picture`: the picture's pixels, read from its header alone."""
    import base64
    import binascii
    import io

    from PIL import Image, UnidentifiedImageError

    image = body.get("image")
    try:
        with Image.open(io.BytesIO(base64.b64decode(image if isinstance(image, str) else "", validate=True))) as im:
            pixels = im.width * im.height  # (the header only: nothing decoded)
    except (binascii.Error, ValueError, OSError, UnidentifiedImageError, Image.DecompressionBombError):
        return BASE_BYTES, 0  # not a picture: scan_picture says so, at no cost
    return BASE_BYTES + pixels * SCAN_BYTES_PER_PIXEL, pixels
