"""Chokepoints: narrow corridors beside a head, compiled."""

from __future__ import annotations

import numpy as np

from .codes import CHOKEPOINT
from .common import heads_beside
from .entry_points import kernel
from .jit import njit

__all__ = ["chokepoint_pass", "corridor_pass"]


@kernel("i8(u1[::1], i8[::1], i8[::1], i8[::1], i8[::1], i8, i8, i8, i8)")
@njit(cache=True)
def chokepoint_pass(color, ptr, nbr, ahead, heads, done, nflows, slot, widest):  # pragma: no cover - compiled
    """Corridors of width 2 to ``widest`` beside the head in ``slot``.

    From the head, walk straight (:func:`.layout.straight_ahead`) over free nodes
    until the walk meets a wall, the edge or a path; each walk of 2 to
    ``widest`` nodes is a corridor checked by :func:`corridor_pass`.

    Returns
    -------
    int
        0 if the state survives, else the chokepoint code of :data:`REASONS`.
    """
    h = heads[slot]
    line = np.empty(widest + 1, np.int64)
    for i in range(ptr[h], ptr[h + 1]):
        u = nbr[i]
        if color[u] != 0:
            continue
        line[0] = u
        width = 1
        p = h
        while width <= widest:
            w = -1
            for j in range(ptr[u], ptr[u + 1]):
                if nbr[j] == p:
                    w = ahead[j]
                    break
            if w < 0 or color[w] != 0:  # the walk is blocked
                if width > 1 and corridor_pass(color, ptr, nbr, heads, done, nflows, line[:width]):
                    return CHOKEPOINT
                break
            line[width] = w
            width += 1
            p = u
            u = w
    return 0



@njit(cache=True)
def corridor_pass(color, ptr, nbr, heads, done, nflows, line):  # pragma: no cover - compiled
    """Whether removing the corridor ``line`` strands more flows than it has nodes.

    Parameters
    ----------
    color, ptr, nbr, heads, done, nflows
        As for :func:`.regions.region_pass`.
    line : ndarray of int64, shape (w,)
        Free nodes across a corridor, ``w`` its width.

    Returns
    -------
    int
        0 if the state survives, else the chokepoint code of :data:`REASONS`.
    """
    width = line.shape[0]
    pending = 0  # unfinished flows whose heads are not side by side
    for k in range(nflows):
        if not (done >> k) & 1 and not heads_beside(ptr, nbr, heads[2 * k], heads[2 * k + 1]):
            pending += 1
    if pending <= width:
        return 0
    n = color.shape[0]
    label = np.zeros(n, np.int64)
    for v in line:
        label[v] = -1
    todo = np.empty(n, np.int64)
    region = 0
    stranded = 0
    for k in range(nflows):
        if (done >> k) & 1:
            continue
        a = heads[2 * k]
        b = heads[2 * k + 1]
        if heads_beside(ptr, nbr, a, b):
            continue
        # Label the regions around head a (flood fill), then look for one at b.
        for i in range(ptr[a], ptr[a + 1]):
            s = nbr[i]
            if color[s] == 0 and label[s] == 0:
                region += 1
                label[s] = region
                top = 0
                todo[0] = s
                while top >= 0:
                    x = todo[top]
                    top -= 1
                    for j in range(ptr[x], ptr[x + 1]):
                        y = nbr[j]
                        if color[y] == 0 and label[y] == 0:
                            label[y] = region
                            top += 1
                            todo[top] = y
        joined = False
        for i in range(ptr[b], ptr[b + 1]):
            s = nbr[i]
            if color[s] == 0 and label[s] > 0:
                for j in range(ptr[a], ptr[a + 1]):
                    t = nbr[j]
                    if color[t] == 0 and label[t] == label[s]:
                        joined = True
        if not joined:
            stranded += 1
            if stranded > width:
                return CHOKEPOINT
    return 0
