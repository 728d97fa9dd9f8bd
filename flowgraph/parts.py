"""The parts (connected components) of a graph given as numbered links, on whole arrays.

The readers ask whether a board is one part before its graph is built, and the SAT engine finds the
cycles of a model's links, both without networkx (a command that only solves never imports it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

__all__ = ["part_labels"]


def part_labels(count: int, links: np.ndarray) -> np.ndarray:
    """Each node's part, as the least node number in it.

    Each round hooks every root to the least label across a link, then jumps pointers until each node
    points at its root (Shiloach and Vishkin, "An O(log n) parallel connectivity algorithm",
    J. Algorithms 3, 1982), on whole arrays: a few rounds, each linear in the links.

    Parameters
    ----------
    count : int
        The number of nodes, numbered ``0 .. count - 1``.
    links : ndarray of int, shape (m, 2)
        The links, as pairs of node numbers (any order; repeats allowed).

    Returns
    -------
    ndarray of int64, shape (count,)
        ``labels[i] == labels[j]`` exactly when nodes i and j are joined by a chain of links; a node
        with no link is its own part.
    """
    import numpy as np

    u, v = links[:, 0], links[:, 1]
    label = np.arange(count)
    while True:
        low, high = np.minimum(label[u], label[v]), np.maximum(label[u], label[v])
        apart = low != high
        if not apart.any():
            return label
        label[high[apart]] = low[apart]  # roots only (labels are roots after the jumps): each to a lesser one
        while True:
            jumped = label[label]
            if (jumped == label).all():
                break
            label = jumped
