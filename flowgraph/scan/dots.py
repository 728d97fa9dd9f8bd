"""Endpoint dots: found at cell centres, paired by colour, named after the game's palette.

A cell holds a dot when most of a disc at its centre stands out from the
background; the dot's colour is the median of that disc (robust to a letter
or a drawn mark over it and to JPEG noise). Dots are paired by a
minimum-weight perfect matching on their colour difference (CIE76 ΔE in
CIELAB, networkx's ``max_weight_matching``), so two close shades still pair
right when each has its twin; each pair then takes the label of the nearest
unused colour of Flow Free's palette (A red, B green, C blue, ...).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import ScanError
from ..model import LABELS
from ..render.scene import FLOW_FREE

__all__ = ["Dot", "find_dots", "find_cell_dots", "stray_dot", "pair_dots", "MAX_PAIR_DELTA", "STRAY_SIZES",
           "OFF_MIDDLE"]

#: Two dots of one flow differ by at most this CIE76 ΔE (JPEG noise, a mark over one of them).
MAX_PAIR_DELTA = 22.0
#: A dot's blob in a shape's cell is surrounded by its own cell: over this share of a ring round it in another
#: cell and the scan is unsure (a dot that covers a thin line splits its cell in two: 0.31-0.46 of its ring
#: in the other part; a dot read right has at most 0.14, a thin cell's dot reaching past the line's middle).
RING_SHARE = 0.2
#: A filled disc this wide (times the dots found, least and most) outside the board read is a dot it missed.
STRAY_SIZES = (0.75, 1.33)
#: A dot lies in its cell's middle: its centre is at most this far from the centroid of the cell read round it,
#: in units of the square root of the cell's area, or :data:`OFF_MIDDLE_SPREAD` times the dots' median if more
#: (a few-sector ring whose dots sit midway along the radius). Read right: at most 0.038 (flowgraph draws a dot
#: at its cell's centroid; the game's 8-sector ring 0.029 outwards); a dot's cell taken with the next (its line
#: missed) 0.47, a cell read as its dot and a ragged rim (the line to the next lost) 0.18.
OFF_MIDDLE = 0.1
OFF_MIDDLE_SPREAD = 3.0
#: A disc at the cell centre of this radius (in pitches) is what a dot must fill.
DISC = 0.27


@dataclass
class Dot:
    """An endpoint dot: the cell it is in, where it is in the picture and its colour."""

    site: tuple[int, int]
    xy: tuple[float, float]
    rgb: tuple[int, int, int]
    label: str = ""

    @property
    def hex(self) -> str:
        """The dot's colour as ``#rrggbb``."""
        return "#{:02x}{:02x}{:02x}".format(*self.rgb)


def find_dots(rgb: np.ndarray, diff: np.ndarray, centres: dict, pitch: float, contrast: int = 60) -> list[Dot]:
    """The dots in the cells whose centres are given.

    Parameters
    ----------
    rgb : numpy.ndarray, shape (H, W, 3), uint8
    diff : numpy.ndarray, shape (H, W), uint8
        Each pixel's difference to the background (:func:`~.lattice.foreground`).
    centres : dict of site -> (x, y)
        Cell centres, in pixels of ``rgb``.
    pitch : float
        Distance between neighbouring centres, pixels.
    contrast : int
        How much a dot's pixels differ from the background at least.
    """
    r = max(2.0, DISC * pitch)
    offsets = np.array([(dx, dy) for dx in range(-int(r), int(r) + 1) for dy in range(-int(r), int(r) + 1)
                        if dx * dx + dy * dy <= r * r])
    out = []
    height, width = diff.shape
    for site, (x, y) in centres.items():
        px = np.clip(np.rint(x + offsets[:, 0]).astype(int), 0, width - 1)
        py = np.clip(np.rint(y + offsets[:, 1]).astype(int), 0, height - 1)
        strong = diff[py, px] > contrast
        if strong.mean() < 0.55:
            continue
        colour = np.median(rgb[py[strong], px[strong]], axis=0)
        r, g, b = (int(round(c)) for c in colour)
        out.append(Dot(site, (float(x), float(y)), (r, g, b)))
    return out


def find_cell_dots(rgb: np.ndarray, diff: np.ndarray, tiles: np.ndarray, line_width: float,
                   contrast: int = 60) -> list[Dot]:
    """The dots in cells of any shape: in each cell, the largest round blob that stands out from the background.

    A shape's cell has no centre a dot must fill (an annulus sector's dot sits in its middle, not at its
    centroid's pixel), so the blob is found: the cell's pixels that differ from the background by more than
    ``contrast``, opened by a disc twice a line wide (lines and the glow along them go), the largest part.
    It is a dot when it covers at least 3 % of the cell and is round (it fills at least 60 % of its bounding
    box, which is at most 1.6 times as long as it is wide). A dot is drawn in its cell's middle, so one far off
    the middle of the cell read round it (:data:`OFF_MIDDLE`) means the cell's lines were misread.

    Parameters
    ----------
    rgb : numpy.ndarray, shape (H, W, 3), uint8
    diff : numpy.ndarray, shape (H, W), uint8
        Each pixel's difference to the background (:func:`~.lattice.foreground`).
    tiles : numpy.ndarray of int32, shape (H, W)
        Each pixel's cell, -1 for none (:attr:`~.regions.Regions.tiles`).
    line_width : float
        A thin line's width, pixels.
    contrast : int
        How much a dot's pixels differ from the background at least.

    Returns
    -------
    list of Dot
        ``site`` is (the cell's number, 0).

    Raises
    ------
    ScanError
        "unsure of the lines round the dot ...": a ring round a dot lies in another cell as well as its own
        (:data:`RING_SHARE`), or a dot lies off its cell's middle (:data:`OFF_MIDDLE`).
    """
    import cv2

    k = int(2 * line_width + 1) | 1
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    out = []
    off: list[float] = []  # each dot's distance from its cell's centroid, in square roots of the cell's area
    ys, xs = np.nonzero(tiles >= 0)
    order = np.argsort(tiles[ys, xs], kind="stable")
    ys, xs = ys[order], xs[order]
    bounds = np.searchsorted(tiles[ys, xs], np.arange(tiles.max() + 2))
    for cell in range(int(tiles.max()) + 1):
        cy, cx = ys[bounds[cell]:bounds[cell + 1]], xs[bounds[cell]:bounds[cell + 1]]
        if not len(cy):
            continue
        y0, x0 = int(cy.min()), int(cx.min())
        box = np.zeros((int(cy.max()) - y0 + 1, int(cx.max()) - x0 + 1), np.uint8)
        box[cy - y0, cx - x0] = diff[cy, cx] > contrast
        n, parts, stats, centres = cv2.connectedComponentsWithStats(cv2.morphologyEx(box, cv2.MORPH_OPEN, disc),
                                                                    connectivity=8)
        if n < 2:
            continue
        best = 1 + int(np.argmax(stats[1:, 4]))
        w, h, area = (int(v) for v in stats[best, 2:5])
        if area < 0.03 * len(cy) or area < 0.6 * w * h or max(w, h) > 1.6 * min(w, h):
            continue
        inside = parts == best
        r, g, b = (int(round(c)) for c in np.median(rgb[y0:y0 + box.shape[0], x0:x0 + box.shape[1]][inside], axis=0))
        x, y = centres[best]
        dot = Dot((cell, 0), (float(x0 + x), float(y0 + y)), (r, g, b))
        other = _ring_others(tiles, cell, inside, y0, x0, line_width)
        if other is not None:
            raise ScanError(f"unsure of the lines round the dot of colour {dot.hex} at ({dot.xy[0]:.0f}, {dot.xy[1]:.0f}): "
                            f"it touches cell {other + 1} (in reading order) as well as its own, and may hide the "
                            "line between them; scan a larger picture")
        out.append(dot)
        off.append(float(np.hypot(dot.xy[0] - cx.mean(), dot.xy[1] - cy.mean())) / np.sqrt(len(cy)))
    if off:
        worst = int(np.argmax(off))
        if off[worst] > max(OFF_MIDDLE, OFF_MIDDLE_SPREAD * float(np.median(off))):
            dot = out[worst]
            raise ScanError(f"unsure of the lines round the dot of colour {dot.hex} at ({dot.xy[0]:.0f}, "
                            f"{dot.xy[1]:.0f}): it lies off the middle of the cell read round it (cell "
                            f"{dot.site[0] + 1} in reading order), whose lines may be misread; scan a larger or "
                            "sharper picture")
    return out


def stray_dot(rgb: np.ndarray, diff: np.ndarray, dots: list[Dot], inside, contrast: int = 60) -> Dot | None:
    """A dot the board read leaves out: a filled disc the size of the dots found whose centre is in no cell.

    A board read from part of a picture's lines (a lattice's few cells found among a cube's rhombi) holds
    some of its dots and can pair them: another board. Every dot lies in a cell, so a dot outside the cells
    means the lines were misread. A disc is a part of what differs from the background by more than
    ``contrast`` (apart from every line: a dot touching one is not seen) that is round: it fills 65-90 % of
    its bounding box, a disc's 79 % (a warp's square tunnel end fills all, the game's star after a level's
    name less than half). It is a dot when it is :data:`STRAY_SIZES` times as wide as the median of the dots
    found (the game's bulb icon, half a dot, is none).

    Parameters
    ----------
    rgb : numpy.ndarray, shape (H, W, 3), uint8
    diff : numpy.ndarray, shape (H, W), uint8
        Each pixel's difference to the background (:func:`~.lattice.foreground`).
    dots : list of Dot
        The dots found in the board's cells (in pixels of ``rgb``).
    inside : callable
        ``inside(x, y)`` is whether a point of the picture lies in one of the board's cells.
    contrast : int
        How much a dot's pixels differ from the background at least.
    """
    import cv2

    n, parts, stats, centres = cv2.connectedComponentsWithStats((diff > contrast).astype(np.uint8), connectivity=8)
    height, width = diff.shape

    def disc(part: int) -> bool:
        _, _, w, h, area = (int(v) for v in stats[part])
        return part > 0 and max(w, h) <= 1.3 * min(w, h) and 0.65 * w * h <= area <= 0.9 * w * h

    found = {int(parts[min(height - 1, int(d.xy[1])), min(width - 1, int(d.xy[0]))]) for d in dots}
    sizes = [max(stats[part, 2:4]) for part in found if disc(part)]
    if not sizes:
        return None
    size = float(np.median(sizes))
    for part in range(1, n):
        x, y, w, h, _ = (int(v) for v in stats[part])
        if part in found or not disc(part) or not STRAY_SIZES[0] * size <= max(w, h) <= STRAY_SIZES[1] * size:
            continue
        cx, cy = (float(v) for v in centres[part])
        if inside(cx, cy):
            continue
        r, g, b = (int(round(c)) for c in np.median(rgb[y:y + h, x:x + w][parts[y:y + h, x:x + w] == part], axis=0))
        return Dot((-1, -1), (cx, cy), (r, g, b))
    return None


def _ring_others(tiles: np.ndarray, cell: int, blob: np.ndarray, y0: int, x0: int, line_width: float) -> int | None:
    """The other cell a dot's blob touches, or None: a ring a line's width and two pixels round the blob lies
    in its own cell (:data:`RING_SHARE`); where another cell has more of it, a line under the dot was missed or a
    dot covers the line between two cells (both read as cells: another board)."""
    import cv2

    pad = int(np.ceil(line_width)) + 2
    height, width = tiles.shape
    ya, xa = max(0, y0 - pad), max(0, x0 - pad)
    yb, xb = min(height, y0 + blob.shape[0] + pad), min(width, x0 + blob.shape[1] + pad)
    mask = np.zeros((yb - ya, xb - xa), np.uint8)
    mask[y0 - ya:y0 - ya + blob.shape[0], x0 - xa:x0 - xa + blob.shape[1]] = blob
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * pad + 1, 2 * pad + 1))
    ring = cv2.dilate(mask, disc).view(bool) & ~mask.view(bool)
    near = tiles[ya:yb, xa:xb][ring]
    near = near[(near >= 0) & (near != cell)]
    if not len(near) or len(near) < RING_SHARE * ring.sum():
        return None
    return int(np.bincount(near).argmax())


def _lab(colours) -> np.ndarray:
    import cv2

    arr = np.asarray(colours, dtype=np.float32).reshape(1, -1, 3) / 255.0
    return cv2.cvtColor(arr, cv2.COLOR_RGB2Lab).reshape(-1, 3)


def pair_dots(dots: list[Dot], where=lambda dot: dot.xy) -> list[tuple[Dot, Dot]]:
    """Pair the dots by colour and label each pair (sets :attr:`Dot.label`).

    Parameters
    ----------
    dots : list of Dot
    where : callable
        Dot -> (x, y) for messages (pixels of the original picture).

    Returns
    -------
    list of (Dot, Dot)
        In label order.

    Raises
    ------
    ScanError
        No dots, an odd number of them, more than two of one colour, a dot with no
        partner of its colour, or more flows than labels.
    """
    import networkx as nx

    if not dots:
        raise ScanError("no endpoint dots found in the cells")
    lab = _lab([d.rgb for d in dots])
    delta = np.linalg.norm(lab[:, None, :] - lab[None, :, :], axis=2)
    np.fill_diagonal(delta, np.inf)
    if len(dots) % 2:
        lonely = int(np.argmax(delta.min(axis=1)))
        raise ScanError(f"an odd number of dots ({len(dots)}): the dot of colour {dots[lonely].hex} at "
                        f"{_at(where(dots[lonely]))} has no partner of its colour")
    graph = nx.Graph()
    for i in range(len(dots)):
        for j in range(i + 1, len(dots)):
            graph.add_edge(i, j, weight=1000.0 - delta[i, j])
    pairs = sorted(tuple(sorted(p)) for p in nx.max_weight_matching(graph, maxcardinality=True))
    worst = max(pairs, key=lambda p: delta[p])
    if delta[worst] > MAX_PAIR_DELTA:
        _crowd(dots, delta, where)
        i = worst[0]
        j = int(np.argmin(delta[i]))
        raise ScanError(f"the dot of colour {dots[i].hex} at {_at(where(dots[i]))} has no partner of its colour "
                        f"(the closest, {dots[j].hex} at {_at(where(dots[j]))}, differs by ΔE {delta[i, j]:.0f})")
    if len(pairs) > len(LABELS):
        raise ScanError(f"{len(pairs)} flows: more than the {len(LABELS)} labels of the format")
    _name(dots, pairs, lab)
    return sorted(((dots[i], dots[j]) for i, j in pairs), key=lambda p: LABELS.index(p[0].label))


def _crowd(dots: list[Dot], delta: np.ndarray, where) -> None:
    """Where dots cannot be paired: raise when one colour has many more dots than a flow's two (a solved
    picture: pipes through the cells read as dots), which says more than the one dot left over."""
    import networkx as nx

    alike = nx.Graph()
    alike.add_nodes_from(range(len(dots)))
    alike.add_edges_from(zip(*np.nonzero(delta <= MAX_PAIR_DELTA)))
    crowd: list[int] = max((sorted(c) for c in nx.connected_components(alike)), key=lambda c: len(c))
    if len(crowd) > 4:  # two flows may look alike (generated colours); five dots of one colour is no board
        places = ", ".join(_at(where(dots[i])) for i in crowd[:4]) + ", ..."
        raise ScanError(f"{len(crowd)} dots of colour {dots[crowd[0]].hex} ({places}): a flow has two endpoints")


def _name(dots: list[Dot], pairs: list[tuple[int, int]], lab: np.ndarray) -> None:
    palette = _lab(FLOW_FREE)
    mean = np.array([(lab[i] + lab[j]) / 2 for i, j in pairs])
    dist = np.linalg.norm(mean[:, None, :] - palette[None, :, :], axis=2)
    free = list(LABELS)
    named: dict[int, str] = {}
    for k in np.argsort(dist, axis=None):
        p, c = divmod(int(k), len(palette))
        if p not in named and LABELS[c] in free and dist[p, c] < 40:
            named[p] = LABELS[c]
            free.remove(LABELS[c])
    for p in range(len(pairs)):
        label = named.get(p) or free.pop(0)
        for i in pairs[p]:
            dots[i].label = label


def _at(xy) -> str:
    return f"({round(xy[0])}, {round(xy[1])})"
