"""Bridges and warps on square boards, as flowgraph's pictures draw them.

A **bridge** is a cell filled with a grey lighter (dark theme) or darker
(light theme) than the others (the middle of its deck, between the guard rails): its inside stands out from the background
while the cells around it do not, and it has no hue (the game's faded
background decorations are tinted, and are not taken for one). A **warp** is a pair of tunnel
stubs: thick bars, narrower than a cell, just outside the board at both ends of a row or a column;
the first and last cell of that row (column) are linked.
"""

from __future__ import annotations

import numpy as np

from ..model import Family
from .lattice import Lattice

__all__ = ["find_bridges", "find_warps"]

#: A bridge's inside stands out this much from the background, at least.
BRIDGE_CONTRAST = 14
#: Half a cell to either side of a warp's stub, the background stands out at most this share of the stub.
WARP_GAP = 0.5


def _level(diff: np.ndarray, x: float, y: float, half: float) -> float:
    """Median difference to the background in a square of ``2 * half`` pixels around ``(x, y)``."""
    h, w = diff.shape
    x0, x1 = max(0, round(x - half)), min(w, round(x + half) + 1)
    y0, y1 = max(0, round(y - half)), min(h, round(y + half) + 1)
    if x0 >= x1 or y0 >= y1:
        return 0.0
    return float(np.median(diff[y0:y1, x0:x1]))


def _grey(rgb: np.ndarray, x: float, y: float, half: float, level: float) -> bool:
    h, w = rgb.shape[:2]
    box = rgb[max(0, round(y - half)):min(h, round(y + half) + 1), max(0, round(x - half)):min(w, round(x + half) + 1)]
    colour = np.median(box.reshape(-1, 3), axis=0)
    return float(colour.max() - colour.min()) < max(6.0, 0.3 * level)


def find_bridges(rgb: np.ndarray, diff: np.ndarray, lattice: Lattice, cells: list, dots: set) -> set:
    """Cells (not endpoints) whose grey inside stands out while every neighbouring cell's does not."""
    if lattice.family is not Family.STANDARD:
        return set()
    half = 0.14 * min(lattice.dx, lattice.dy)  # inside the deck's guard rails (at 0.21 of a cell from the centre)
    have = set(cells)
    level = {site: _level(diff, *lattice.centre(site), half) for site in cells}
    out = set()
    for site in cells:
        if site in dots or level[site] < BRIDGE_CONTRAST:
            continue
        around = [level[(site[0] + dx, site[1] + dy)] for dx, dy in lattice.steps()
                  if (site[0] + dx, site[1] + dy) in have and (site[0] + dx, site[1] + dy) not in dots]
        if around and max(around) < 0.5 * level[site] and _grey(rgb, *lattice.centre(site), half, level[site]):
            out.add(site)
    return out


def find_warps(diff: np.ndarray, lattice: Lattice, cells: list) -> set:
    """Pairs of sites (the first and last cell of a row or column) that tunnels at both ends link."""
    if lattice.family is not Family.STANDARD:
        return set()
    have = set(cells)
    half = 0.08 * min(lattice.dx, lattice.dy)
    width = np.median(diff)

    def tunnel(site, dx: int, dy: int) -> bool:
        """A stub just outside the board beside ``site``: it stands out, and the background half a cell to
        either side does not (a stub is a bar narrower than a cell; a glow of the game's background, which
        once read as a tunnel below one column of an 8x8 level, is wider)."""
        if (site[0] + dx, site[1] + dy) in have:
            return False
        x, y = lattice.centre(site)
        x, y = x + 0.68 * dx * lattice.dx, y + 0.68 * dy * lattice.dy
        level = _level(diff, x, y, half)
        if level <= max(40.0, 3 * width):
            return False
        sx, sy = 0.5 * dy * lattice.dx, 0.5 * dx * lattice.dy  # across the stub, half a cell
        return all(_level(diff, x + k * sx, y + k * sy, half) < WARP_GAP * level for k in (-1, 1))

    out = set()
    rows: dict[int, list] = {}
    cols: dict[int, list] = {}
    for c, r in cells:
        rows.setdefault(r, []).append((c, r))
        cols.setdefault(c, []).append((c, r))
    for line, (dx, dy) in ((rows, (1, 0)), (cols, (0, 1))):
        for sites in line.values():
            first, last = min(sites), max(sites)
            if len(sites) > 2 and tunnel(first, -dx, -dy) and tunnel(last, dx, dy):
                out.add((first, last))
    return out
