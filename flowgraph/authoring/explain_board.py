"""Hold the board explain reasons on, link by link.

The board explain reasons on: its links, each undecided, a line or ruled out, and what every technique asks of
it (:mod:`.techniques`, which asks the compiled rules through :meth:`ExplainBoard.kernel`); a rule broken is a
:class:`Contradiction`. Package-private: :mod:`.explain` is the API.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..kernels.codes import LINE, UNDECIDED
from ..model import Puzzle


class Contradiction(Exception):
    """The board breaks a rule; ``cells`` show where."""

    def __init__(self, why: str, cells: tuple[int, ...]):
        super().__init__(why)
        self.why = why
        self.cells = cells


def _finder(comp: list[int]):
    """The ``find`` of a union-find forest held in ``comp`` (path halving)."""

    def find(x: int) -> int:
        while comp[x] != x:
            comp[x] = comp[comp[x]]
            x = comp[x]
        return x

    return find


class _Arrays(NamedTuple):
    """A board's graph as arrays (:func:`flowgraph.kernels.trials.sweep_trials`'s arguments)."""

    links: np.ndarray  # (links, 2) int64: each link's nodes
    at_start: np.ndarray  # (nodes + 1,) int64: where each node's links start in at_link
    at_link: np.ndarray  # (2 * links,) int64: each node's links, in link order
    need: np.ndarray  # (nodes,) int64: lines each node needs
    end_flow: np.ndarray  # (nodes,) int64: an endpoint's flow, else -1
    empty_ok: bool  # a cell may stay empty (Numberlink's rules)


class ExplainBoard:
    """Link states and the derived flows of a puzzle, under its rules (Flow Free's, or Numberlink's: a cell may
    stay empty)."""

    def __init__(self, puzzle: Puzzle):
        index = puzzle.cell_index
        self.nodes = list(index.nodes)
        self.n = len(self.nodes)
        self.links = [tuple(map(int, row)) for row in index.links.tolist()]
        self.at: list[list[int]] = [[] for _ in range(self.n)]
        for e, (u, v) in enumerate(self.links):
            self.at[u].append(e)
            self.at[v].append(e)
        self.flow_of_end = [-1] * self.n
        self.labels = [f.label for f in puzzle.flows]
        for k, f in enumerate(puzzle.flows):
            for end in f.ends:
                self.flow_of_end[index.number[end]] = k
        self.need = [1 if self.flow_of_end[v] >= 0 else 2 for v in range(self.n)]  # on a path
        self.empty_ok = not puzzle.rules.fills_every_cell
        self.state = [UNDECIDED] * len(self.links)
        self._arrays: _Arrays | None = None
        self._puzzle = puzzle
        self._names: list[str] | None = None

    def name(self, v: int) -> str:
        """Node ``v`` as a player names its cell (:func:`flowgraph.io.sketch.cell_name`: ``r3c5``)."""
        if self._names is None:
            from ..io.sketch import cell_namer

            name = cell_namer(self._puzzle)  # (a shape board's own names: ring 2 sector 5)
            self._names = [name(node) for node in self.nodes]
        return self._names[v]

    def copy(self) -> ExplainBoard:
        other = object.__new__(ExplainBoard)
        other.__dict__.update(self.__dict__)
        other.state = list(self.state)
        return other

    def other(self, e: int, v: int) -> int:
        u, w = self.links[e]
        return w if u == v else u

    def count(self, v: int) -> tuple[int, int]:
        """(lines, undecided links) at ``v``."""
        lines = open_ = 0
        for e in self.at[v]:
            s = self.state[e]
            lines += s == LINE
            open_ += s == UNDECIDED
        return lines, open_

    def segments(self) -> tuple[list[int], list[int]]:
        """Per node: its segment's id (a component of lines) and that segment's flow (-1 unknown)."""
        comp = list(range(self.n))
        find = _finder(comp)
        for e, (u, v) in enumerate(self.links):
            if self.state[e] == LINE:
                ru, rv = find(u), find(v)
                if ru == rv:
                    raise Contradiction("a loop", (u, v))
                comp[ru] = rv
        root = [find(v) for v in range(self.n)]
        flow: dict[int, int] = {}
        for v in range(self.n):
            k = self.flow_of_end[v]
            if k >= 0:
                if flow.get(root[v], k) != k:
                    raise Contradiction("two flows meet", (v,))
                flow[root[v]] = k
        return root, [flow.get(root[v], -1) for v in range(self.n)]

    def done(self) -> bool:
        return all(s != UNDECIDED for s in self.state)

    def kernel(self) -> _Arrays:
        """The board's graph as the compiled trial reads it (made once)."""
        if self._arrays is None:
            at_start = np.zeros(self.n + 1, np.int64)
            at_start[1:] = np.cumsum([len(a) for a in self.at])
            self._arrays = _Arrays(np.array(self.links, np.int64).reshape(-1, 2),
                                   at_start, np.array([e for a in self.at for e in a], np.int64),
                                   np.array(self.need, np.int64), np.array(self.flow_of_end, np.int64),
                                   self.empty_ok)
        return self._arrays

