"""The search board: the puzzle graph as int arrays."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from ... import kernels
from ...model import Node, Puzzle

__all__ = ["BoardArrays", "compile_puzzle", "csr"]


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



def _two_colour(adj: tuple[tuple[int, ...], ...], order: range | tuple[int, ...]) -> list[int]:
    """Each node's side of a bipartite graph, as ``networkx.bipartite.color`` gives them (a part's first
    node in ``order`` is side 1, isolated nodes 0), or [] when the graph is not bipartite.

    The same walk as networkx's, over the index lists the search uses (its dicts of views cost more
    than the colouring itself on a small board).
    """
    side = [-1] * len(adj)
    for start in order:
        if side[start] >= 0:
            continue
        if not adj[start]:
            side[start] = 0
            continue
        side[start] = 1
        stack = [start]
        while stack:
            v = stack.pop()
            other = 1 - side[v]
            for w in adj[v]:
                if side[w] < 0:
                    side[w] = other
                    stack.append(w)
                elif side[w] != other:
                    return []
    return side


def _sides_from(dist: np.ndarray, links: np.ndarray, order: range | tuple[int, ...],
                ptr: np.ndarray, nbr: np.ndarray) -> list[int] | np.ndarray:
    """:func:`_two_colour`'s answer read off the endpoints' link distances, without a walk.

    In a connected part a node's side is the parity of its distance from any node of the part,
    so each node takes the first endpoint that reaches it (the same one for its whole part) and
    the side its part's first node in ``order`` gets, 1. The board is bipartite when no link
    joins two nodes of one side. Falls back to the walk where a node is reached by no endpoint
    or the order is not the numbering's.
    """
    n = len(ptr) - 1
    if not isinstance(order, range) or n == 0 or not dist.shape[0]:
        return _two_colour(_adjacency(ptr, nbr), order)
    if (dist[0] < n).all():  # one part (nearly every board): the first endpoint reaches every node
        side = 1 ^ ((dist[0] + dist[0, 0]) & 1)
    else:
        reached = dist < n
        if not reached.any(axis=0).all():
            return _two_colour(_adjacency(ptr, nbr), order)
        part = np.argmax(reached, axis=0)  # each node's first endpoint slot: one per part
        depth = dist[part, np.arange(n)]
        first = np.full(dist.shape[0], n, np.int64)
        np.minimum.at(first, part, np.arange(n))  # each part's first node (order is the numbering)
        side = 1 ^ ((depth + depth[first[part]]) & 1)
    if links.size and (side[links[:, 0]] == side[links[:, 1]]).any():
        return []
    return side


@dataclass(frozen=True)
class BoardArrays:
    """A puzzle compiled to int-indexed arrays for the inner loop.

    Attributes
    ----------
    nodes : tuple of Node
        Index -> graph node.
    ends : tuple of (int, int)
        Per flow, its two endpoints (``flow.ends`` order).
    ptr, nbr : ndarray of int64
        The adjacency as CSR arrays (:func:`csr`).
    side : ndarray of int8, shape (len(nodes),) or (0,)
        Index -> side (0 or 1) of a bipartite graph; empty if not bipartite.
    ahead : ndarray of int64, shape (len(nbr),)
        The node straight on along each link, or -1
        (:func:`flowgraph.kernels.layout.straight_ahead`).
    endpoint : ndarray of uint8, shape (len(nodes),)
        Index -> 1 for the endpoints.
    dist : ndarray of int64, shape (2 * len(ends), len(nodes))
        Per endpoint, in slot order (flow ``k``: ``2k``, ``2k + 1``), links
        from it to every node over the bare graph (``len(nodes)`` if
        unreachable; :func:`flowgraph.kernels.layout.link_distances`).
    """

    nodes: tuple[Node, ...]
    ends: tuple[tuple[int, int], ...]
    ptr: np.ndarray
    nbr: np.ndarray
    side: np.ndarray
    ahead: np.ndarray
    endpoint: np.ndarray
    dist: np.ndarray

    @cached_property
    def adj(self) -> tuple[tuple[int, ...], ...]:
        """Index -> neighbour indices, as tuples (made on first use: the search reads ``ptr`` and ``nbr``)."""
        return _adjacency(self.ptr, self.nbr)


def _adjacency(ptr: np.ndarray, nbr: np.ndarray) -> tuple[tuple[int, ...], ...]:
    """CSR arrays as one tuple of neighbour indices per node."""
    starts, flat = ptr.tolist(), nbr.tolist()
    return tuple(tuple(flat[starts[v]:starts[v + 1]]) for v in range(len(starts) - 1))



def compile_puzzle(puzzle: Puzzle) -> BoardArrays:
    """Turn the puzzle graph into int-indexed arrays (once per solve)."""
    cells = puzzle.cell_index  # the numbering, shared with the other engines
    nodes, index = cells.nodes, cells.number
    # CSR straight from the edge list, each node's neighbours in index order (one sort for all)
    pairs = cells.links
    n = len(nodes)
    both = np.concatenate([pairs, pairs[:, ::-1]])
    both = both[np.argsort(both[:, 0] * n + both[:, 1], kind="stable")]  # by node, then neighbour (one key)
    ptr = np.concatenate([[0], np.cumsum(np.bincount(both[:, 0], minlength=n))]).astype(np.int64)
    nbr = np.ascontiguousarray(both[:, 1])
    ends = tuple((index[f.ends[0]], index[f.ends[1]]) for f in puzzle.flows)
    slots = np.array([end for pair in ends for end in pair], np.int64)  # every endpoint, in slot order
    endpoint = np.zeros(n, np.uint8)
    endpoint[slots] = 1
    dist = kernels.link_distances(ptr, nbr, slots)
    side = _sides_from(dist, pairs, cells.order, ptr, nbr)  # [] when not bipartite (hex boards, odd warps)
    return BoardArrays(
        nodes, ends, ptr, nbr, np.array(side, np.int8), kernels.straight_ahead(ptr, nbr), endpoint, dist,
    )
