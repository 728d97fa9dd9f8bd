"""What a board's shape gives once per solve: link distances and the straight-on map; compiled.

Both were Python over networkx, a third of the time on small boards;
compiled over the CSR arrays they cost little (docs/benchmarks.md).
"""

from __future__ import annotations

import numpy as np

from .entry_points import kernel
from .jit import njit

__all__ = ["link_distances", "straight_ahead"]


@kernel("i8[:, ::1](i8[::1], i8[::1], i8[::1])")
@njit(cache=True)
def link_distances(ptr, nbr, sources):  # pragma: no cover - compiled
    """Links from each source to every node, by breadth-first search.

    Parameters
    ----------
    ptr, nbr : ndarray of int64
        The adjacency as CSR arrays, ``n = len(ptr) - 1`` nodes.
    sources : ndarray of int64, shape (k,)

    Returns
    -------
    ndarray of int64, shape (k, n)
        Row ``i``: the number of links from ``sources[i]`` to each node,
        ``n`` where there is no path.
    """
    n = ptr.shape[0] - 1
    out = np.full((sources.shape[0], n), n, np.int64)
    queue = np.empty(n, np.int64)
    for i in range(sources.shape[0]):
        row = out[i]
        row[sources[i]] = 0
        queue[0] = sources[i]
        head, tail = 0, 1
        while head < tail:
            u = queue[head]
            head += 1
            for j in range(ptr[u], ptr[u + 1]):
                w = nbr[j]
                if row[w] == n:
                    row[w] = row[u] + 1
                    queue[tail] = w
                    tail += 1
    return out


@kernel("i8[::1](i8[::1], i8[::1])")
@njit(cache=True)
def straight_ahead(ptr, nbr):  # pragma: no cover - compiled
    """The node straight on along each link, aligned with ``nbr``.

    Straight on from ``p`` through ``u`` is the one neighbour ``w`` of
    ``u`` (not ``p`` nor a neighbour of ``p``) whose only common neighbour
    with ``p`` is ``u``: on a square grid the cell straight ahead, on a hex
    grid the opposite cell, across warps too.

    Returns
    -------
    ndarray of int64, shape (len(nbr),)
        At index ``i`` in ``u``'s neighbours (``nbr[i] == p``), that ``w``,
        or -1 where there is none or more than one.
    """
    n = ptr.shape[0] - 1
    out = np.full(nbr.shape[0], -1, np.int64)
    near = np.full(n, -1, np.int64)  # near[x] == i: x is a neighbour of p = nbr[i] (linked(p, x) by one read)
    for u in range(n):
        for i in range(ptr[u], ptr[u + 1]):
            p = nbr[i]
            for k in range(ptr[p], ptr[p + 1]):
                near[nbr[k]] = i
            found = -1
            count = 0
            for j in range(ptr[u], ptr[u + 1]):
                w = nbr[j]
                if w == p or near[w] == i:
                    continue
                only_u = True  # is u the one common neighbour of p and w?
                for k in range(ptr[w], ptr[w + 1]):
                    x = nbr[k]
                    if x != u and near[x] == i:
                        only_u = False
                        break
                if only_u:
                    found = w
                    count += 1
            if count == 1:
                out[i] = found
    return out
