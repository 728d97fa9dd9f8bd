"""Playing a board in a real browser as a player does: by mouse, by finger (CDP touch events) or by pen.

Shared by the studio's browser tests and the published page's: a path is dragged cell by cell over the
centres the page draws; a warp is crossed as the game crosses it, off the edge its link leaves by, then
on from the new head.
"""

from __future__ import annotations

import math
import os
import shutil

import pytest

__all__ = ["ARGS", "CHROMIUM", "DEVICES", "FAMILY_LEVELS", "centre", "drag_path", "need", "solution_cells"]

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def need(condition: bool, why: str) -> None:
    """Skip locally, fail in CI (``CI`` set: ``.ci/run`` installs Chromium when it is absent)."""
    if not condition:
        if os.environ.get("CI"):
            pytest.fail(f"browser tests cannot run in CI: {why}")
        pytest.skip(why)


def centre(page, pos: str) -> tuple[float, float]:
    """The centre of the cell ``"line:column"`` on the page, in CSS pixels."""
    box = page.locator(f'#board polygon.cell[data-cell="{pos}"]').bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def solution_cells(solution) -> dict[str, list[str]]:
    """A solution's paths as the page keys cells: ``{label: ["line:column", ...]}`` (a bridge lane: its cell)."""
    return {label: [f"{n[0]}:{n[1]}" for n in path] for label, path in solution.paths.items()}


def _points(page, path: list[str]) -> list[tuple[float, float]]:
    """Where the pointer goes: each cell's centroid, through the middle of the side it shares with the next
    (a straight line between two curved cells' centres may cross a third); past the edge before a warp, as
    the game is played."""
    polygons = page.evaluate("""(cells) => cells.map((cell) => {
        const poly = document.querySelector(`#board polygon.cell[data-cell="${cell}"]`);
        const m = poly.getScreenCTM();
        return poly.getAttribute('points').trim().split(/\\s+/).map((p) => p.split(',').map(Number))
          .map(([x, y]) => { const q = new DOMPoint(x, y).matrixTransform(m); return [q.x, q.y]; }); })""", path)
    spots = [_centroid(poly) for poly in polygons]
    pitch = min((math.dist(a, b) for a, b in zip(spots, spots[1:])), default=40.0)
    out = [spots[0]]
    for k, (a, b) in enumerate(zip(spots, spots[1:])):
        d = math.dist(a, b)
        if d > 1.8 * pitch:  # a warp: off the board beyond a, the way the link leaves
            out.append((a[0] + (a[0] - b[0]) / d * pitch, a[1] + (a[1] - b[1]) / d * pitch))
        else:
            ours = {(round(x, 1), round(y, 1)) for x, y in polygons[k]}
            shared = [p for p in ((round(x, 1), round(y, 1)) for x, y in polygons[k + 1]) if p in ours]
            if len(shared) >= 2 and path[k] != path[k + 1]:
                out.append((sum(x for x, _ in shared) / len(shared), sum(y for _, y in shared) / len(shared)))
        out.append(b)
    return out


def _centroid(poly: list[list[float]]) -> tuple[float, float]:
    """A polygon's area centre (inside a ring's sector, where its bounding box's centre may not be)."""
    area = cx = cy = 0.0
    for (x0, y0), (x1, y1) in zip(poly, [*poly[1:], poly[0]]):
        cross = x0 * y1 - x1 * y0
        area, cx, cy = area + cross, cx + (x0 + x1) * cross, cy + (y0 + y1) * cross
    if abs(area) < 1e-9:
        return (sum(x for x, _ in poly) / len(poly), sum(y for _, y in poly) / len(poly))
    return (cx / (3 * area), cy / (3 * area))


def drag_path(page, path: list[str], by: str = "mouse") -> None:
    """Draw ``path`` (cells ``"line:column"``, first an endpoint) in one stroke, by ``"mouse"``, ``"touch"`` or
    ``"pen"``, a few pointer moves a cell."""
    points = _points(page, path)
    if by == "mouse":
        page.mouse.move(*points[0])
        page.mouse.down()
        for x, y in points[1:]:
            page.mouse.move(x, y, steps=3)
        page.mouse.up()
        return
    cdp = page.context.new_cdp_session(page)
    kind = "touch" if by == "touch" else "pen"
    if kind == "touch":
        def send(event, x=None, y=None):
            cdp.send("Input.dispatchTouchEvent", {"type": event, "touchPoints": [] if x is None else [{"x": x, "y": y}]})
        start, move, end = "touchStart", "touchMove", "touchEnd"
    else:
        def send(event, x=None, y=None):
            x, y = (points[-1] if x is None else (x, y))
            cdp.send("Input.dispatchMouseEvent", {"type": event, "x": x, "y": y, "button": "left", "buttons": 1,
                                                  "clickCount": 1, "pointerType": "pen"})
        start, move, end = "mousePressed", "mouseMoved", "mouseReleased"
    x, y = points[0]
    send(start, x, y)
    for nx, ny in points[1:]:
        for k in range(1, 4):
            send(move, x + (nx - x) * k / 3, y + (ny - y) * k / 3)
        x, y = nx, ny
    send(end, x, y) if kind == "pen" else send(end)
    cdp.detach()


#: One real level of each family (the shared corpus), and the rules it is played under.
FAMILY_LEVELS = {
    "standard": ("samgoldman/standard/Regular5x5_1.txt", "flow"),
    "hex": ("samgoldman/hex/Classic5x5_1.txt", "flow"),
    "warps": ("samgoldman/warps/6x6Boundless_12.txt", "flow"),
    "bridges": ("samgoldman/bridges/Starter5x5_1.txt", "flow"),
    "numberlink": ("numberlink/inputs1_001_8x8.txt", "numberlink"),
}
#: How each is played: a desktop by mouse and by pen, a phone held upright by finger.
DEVICES = {
    "mouse": {"viewport": {"width": 1366, "height": 768}},
    "pen": {"viewport": {"width": 1366, "height": 768}},
    "touch": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True, "device_scale_factor": 2},
}
