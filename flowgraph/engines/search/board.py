"""The search board: the puzzle graph as int arrays."""

from __future__ import annotations

from dataclasses import dataclass

import networkx as nx
import numpy as np

from ...model import Node, Puzzle

__all__ = ["Board", "compile_puzzle", "csr", "straight_links"]


def csr(adj: tuple[tuple[int, ...], ...]) -> tuple[np.ndarray, np.ndarray]:
    """Adjacency lists as CSR arrays.

    Parameters
    ----------
    adj : tuple of tuple of int
        Node -> neighbour indices, for ``n`` nodes.

    Returns
    -------
    ptr : ndarray of int64, shape (n + 1,)
        Node ``v``'s neighbours are ``nbr[ptr[v]:ptr[v + 1]]``.
    nbr : ndarray of int64, shape (sum of degrees,)
    """
    ptr = np.zeros(len(adj) + 1, np.int64)
    for v, around in enumerate(adj):
        ptr[v + 1] = ptr[v] + len(around)
    nbr = np.fromiter((w for around in adj for w in around), np.int64, int(ptr[-1]))
    return ptr, nbr



def straight_links(ptr: np.ndarray, nbr: np.ndarray, straight: dict[tuple[int, int], int]) -> np.ndarray:
    """The straight-on map aligned with ``nbr``.

    Parameters
    ----------
    ptr, nbr : ndarray of int64
        The adjacency (:func:`csr`).
    straight : dict of (int, int) -> int
        ``(p, u) -> w``, the node straight on from ``p`` through ``u``.

    Returns
    -------
    ndarray of int64, shape (len(nbr),)
        At index ``i`` in ``u``'s neighbours (``nbr[i] == p``), the node
        straight on from ``p`` through ``u``, or -1.
    """
    out = np.full(nbr.shape[0], -1, np.int64)
    for u in range(ptr.shape[0] - 1):
        for i in range(ptr[u], ptr[u + 1]):
            out[i] = straight.get((int(nbr[i]), u), -1)
    return out


@dataclass(frozen=True)
class Board:
    """A puzzle compiled to int-indexed arrays for the inner loop.

    Attributes
    ----------
    nodes : tuple of Node
        Index -> graph node.
    adj : tuple of tuple of int
        Index -> neighbour indices.
    ends : tuple of (int, int)
        Per flow, its two endpoints (``flow.ends`` order).
    ptr, nbr : ndarray of int64
        The adjacency as CSR arrays (:func:`csr`).
    side : ndarray of int8, shape (len(nodes),) or (0,)
        Index -> side (0 or 1) of a bipartite graph; empty if not bipartite.
    ahead : ndarray of int64, shape (len(nbr),)
        The node straight on along each link, or -1
        (:func:`straight_links`).
    endpoint : ndarray of uint8, shape (len(nodes),)
        Index -> 1 for the endpoints.
    dist : tuple of tuple of int
        Per endpoint, in slot order (flow ``k``: ``2k``, ``2k + 1``), links
        from it to every node over the bare graph (``len(nodes)`` if
        unreachable).
    """

    nodes: tuple[Node, ...]
    adj: tuple[tuple[int, ...], ...]
    ends: tuple[tuple[int, int], ...]
    ptr: np.ndarray
    nbr: np.ndarray
    side: np.ndarray
    ahead: np.ndarray
    endpoint: np.ndarray
    dist: tuple[tuple[int, ...], ...]



def compile_puzzle(puzzle: Puzzle) -> Board:
    """Turn the puzzle graph into int-indexed arrays (once per solve)."""
    g = puzzle.graph
    nodes = tuple(sorted(g.nodes, key=lambda n: (n[0], n[1], n[2:] and n[2])))
    index = {n: i for i, n in enumerate(nodes)}
    adj = tuple(tuple(sorted(index[m] for m in g[n])) for n in nodes)
    ends = tuple((index[f.ends[0]], index[f.ends[1]]) for f in puzzle.flows)
    side = ()
    if nx.is_bipartite(g):
        colouring = nx.bipartite.color(g)
        side = tuple(colouring[n] for n in nodes)
    ptr, nbr = csr(adj)
    endpoint = np.zeros(len(nodes), np.uint8)
    for pair in ends:
        endpoint[list(pair)] = 1
    dist = []
    for f in puzzle.flows:
        for e in f.ends:
            links = nx.single_source_shortest_path_length(g, e)
            dist.append(tuple(links.get(n, len(nodes)) for n in nodes))
    return Board(
        nodes, adj, ends, ptr, nbr, np.array(side, np.int8), straight_links(ptr, nbr, _straight(adj)), endpoint,
        tuple(dist),
    )



def _straight(adj) -> dict[tuple[int, int], int]:
    """``(p, u) -> w``: the node straight on from ``p`` through ``u``.

    ``w`` is the one neighbour of ``u`` (not ``p`` nor a neighbour of
    ``p``) whose only common neighbour with ``p`` is ``u``: on a square
    grid the cell straight ahead, on a hex grid the opposite cell, across
    warps too. Pairs with no such unique node are left out.
    """
    out = {}
    nbrs = [set(a) for a in adj]
    for u, around in enumerate(adj):
        for p in around:
            found = [w for w in around if w != p and w not in nbrs[p] and nbrs[w] & nbrs[p] == {u}]
            if len(found) == 1:
                out[p, u] = found[0]
    return out
