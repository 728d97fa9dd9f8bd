"""The search state: what one node of the search holds, defined once.

A state is compact and copied for each child, never shared mutably: the
colours and heads the compiled passes read and write, plus the score terms
the heap orders by. The paths are not stored whole: each slot keeps the
nodes its head has left as a persistent linked list (``(node, rest)``
pairs), so children share their parents' history and a copy costs one list.
"""

from __future__ import annotations

import sys

import numpy as np

from ... import kernels
from ...kernels.codes import ACTIVE
from .board import BoardArrays

__all__ = ["State"]

Trail = tuple  # (node, Trail) or None: the nodes a head has left, last left first


class State:
    """One node of the search.

    Attributes
    ----------
    color : ndarray of uint8, shape (n,)
        Per node: 0 free, ``k + 1`` for flow ``k``, ``| ACTIVE`` on the heads
        (the growing ends and the goals of unfinished flows).
    link : ndarray of uint8, shape (n,)
        Per node, the links known to be used between free nodes (bit ``i``:
        the link to its ``i``-th neighbour; :mod:`flowgraph.kernels.fragments`).
    heads : ndarray of int64, shape (2 * nflows,)
        The node of every slot's head; flow ``k`` owns slots ``2k`` (grown
        from ``flow.ends[0]``) and ``2k + 1``. The only record of where the
        heads are.
    trails : list of Trail, length 2 * nflows
        Per slot, the nodes its head has left, the last one first.
    done : int
        Bitmask of finished flows.
    free : int
        Number of free nodes.
    decisions : int
        Branching moves made so far (forced moves are free).
    last : int
        Slot of the head moved by the last branching decision, or -1.
    discrepancies : int
        Over the branching decisions, the rank of each move taken among its
        surviving siblings (0: the preferred move), summed.
    """

    __slots__ = ("color", "link", "heads", "trails", "done", "free", "decisions", "last", "discrepancies")

    def __init__(self, color: np.ndarray, link: np.ndarray, heads: np.ndarray, trails: list, done: int, free: int,
                 decisions: int, last: int, discrepancies: int):
        self.color = color
        self.link = link
        self.heads = heads
        self.trails = trails
        self.done = done
        self.free = free
        self.decisions = decisions
        self.last = last
        self.discrepancies = discrepancies

    @classmethod
    def root(cls, board: BoardArrays) -> State:
        """Every flow at its two endpoints, nothing else coloured."""
        color = np.zeros(len(board.nodes), np.uint8)
        for k, (a, b) in enumerate(board.ends):
            color[a] = color[b] = (k + 1) | ACTIVE
        heads = np.array([end for pair in board.ends for end in pair], np.int64)
        free = int(np.count_nonzero(color == 0))
        return cls(color, np.zeros(len(color), np.uint8), heads, [None] * len(heads), 0, free, 0, -1, 0)

    def child(self, slot: int, branching: bool) -> State:
        """A copy to make a move of the head in ``slot`` on (a decision if ``branching``)."""
        return State(self.color.copy(), self.link.copy(), self.heads.copy(), list(self.trails), self.done, self.free,
                     self.decisions + branching, slot, self.discrepancies)

    def step(self, slot: int, v: int) -> None:
        """Move the head in ``slot`` to ``v`` in place; joining the other head finishes the flow."""
        h = int(self.heads[slot])
        if v != self.heads[slot ^ 1]:  # a join leaves no node behind
            self.trails[slot] = (h, self.trails[slot])
        done, free = kernels.step_head(self.color, self.heads, slot, v, self.done, self.free)
        self.done, self.free = int(done), int(free)

    def record(self, log: np.ndarray, nlog: int) -> None:
        """Add the moves the compiled passes made (``slot, node left`` pairs in ``log[:nlog]``) to the trails."""
        if nlog:
            trails = self.trails
            moved = log[:nlog].tolist()
            for i in range(0, nlog, 2):
                slot = moved[i]
                trails[slot] = (moved[i + 1], trails[slot])

    def path(self, k: int) -> list[int]:
        """Flow ``k``'s nodes from ``ends[0]`` to ``ends[1]`` (complete once the flow is finished)."""
        first = _unwind(self.trails[2 * k])
        first.reverse()
        first += self.heads[2 * k:2 * k + 2].tolist()
        first += _unwind(self.trails[2 * k + 1])
        return first

    def pieces(self, k: int) -> tuple[list[int], list[int]]:
        """Flow ``k``'s two pieces so far: from ``ends[0]`` to its head, from ``ends[1]`` to its head."""
        first = _unwind(self.trails[2 * k])
        first.reverse()
        second = _unwind(self.trails[2 * k + 1])
        second.reverse()
        return first + [int(self.heads[2 * k])], second + [int(self.heads[2 * k + 1])]

    @staticmethod
    def approx_bytes(board: BoardArrays) -> int:
        """Rough bytes per state waiting on the heap: colours, trails, heads, the object, its heap slot."""
        nflows = len(board.ends)
        return (2 * sys.getsizeof(np.zeros(len(board.nodes), np.uint8)) + 16 * nflows
                + sys.getsizeof(np.zeros(2 * nflows, np.int64)) + 200)


def _unwind(trail: Trail | None) -> list[int]:
    """The nodes of a trail, the last left first."""
    out: list[int] = []
    append = out.append
    while trail is not None:
        append(trail[0])
        trail = trail[1]
    return out
