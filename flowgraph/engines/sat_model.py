"""The SAT engine's CNF model of a puzzle graph, built with numpy arrays (:class:`Model`).

Model
-----
* a variable per link, and per node the bits of a flow number (binary:
  ceil(log2 flows) variables per node, not one per flow);
* an endpoint has exactly one used link, every other node (bridge lanes are
  nodes of their own) exactly two;
* an endpoint's bits spell its flow's number; a used link joins two nodes
  whose bits are equal, so a path carries one number from end to end and
  can only join two endpoints of the same flow;
* cycles detached from every endpoint satisfy all of the above: each model
  is checked, and for every such cycle a clause says that some link leaving
  its cells is used (sound: any real path through those cells must leave
  them). The same solver is re-solved incrementally, keeping what it learnt;
* no 3- or 4-cycle of links is used whole;
* Numberlink rules (a node may be unused): two used neighbours with equal
  flow numbers are linked, i.e. no path has a chord (``Model._tight``). Sound
  for "is there a solution" (every solution tightens to a chord-free one);
  the uniqueness count adds what it leaves out.

The clauses are made a family at a time with numpy arrays. The binary flow
numbers were measured against the one-variable-per-flow model
(docs/benchmarks.md, "Design measurements"): the clauses were most of the
time, the solving little.

Heuristic clauses (*not* sound for the Flow Free rules, used to find
answers fast and dropped before any "no solution"): a path never turns back
beside itself, i.e. uses no three links of a 4-cycle and no two of a
triangle ("no self-touch"). Without them the solver is lost on large boards
(docs/benchmarks.md, "Design measurements"), with either model. When
the model with them is unsatisfiable, the puzzle is solved again without
them.

Notes
-----
The degree model with a colour per cell is the standard reduction of
Numberlink to SAT (e.g. Matt Zucker, "Flow Free solver" 2016, and the
"numberlink" SAT encodings it cites); the colours in binary are the log
encoding of a finite domain (Walsh, "SAT v CSP", CP 2000); the lazy cycle
cuts follow the usual counter-example guided loop for connectivity
(:mod:`flowgraph.engines.sat` runs that loop).
"""

from __future__ import annotations

import itertools

import numpy as np

from ..model import Node, Puzzle
from ..parts import part_labels

__all__ = ["Model"]


class Model:
    """Variables and clauses for one puzzle, built with arrays.

    Nodes are numbered in a fixed order; link ``e`` is variable ``e + 1``,
    bit ``j`` of node ``i``'s flow number is variable ``bits[i, j]``. Clauses are made a whole family at a
    time as integer arrays and turned into lists once.
    """

    def __init__(self, puzzle: Puzzle, tight: bool = False, corners: bool = False):
        self.puzzle = puzzle
        cells = puzzle.cell_index  # the numbering, shared with the other engines
        self.nodes = list(cells.nodes)
        index = self.index = cells.number
        self.flows = puzzle.flows
        self.links = cells.links
        self.end_flow = np.full(len(self.nodes), -1, np.int64)
        for k, f in enumerate(self.flows):
            self.end_flow[[index[e] for e in f.ends]] = k
        nlinks = len(self.links)
        # flow numbers in binary: bit j of node i is variable bits[i, j]
        width = max(1, (len(self.flows) - 1).bit_length())
        self.bits = nlinks + 1 + np.arange(len(self.nodes) * width, dtype=np.int64).reshape(-1, width)
        self.variables = nlinks + self.bits.size
        self.clauses: list[list[int]] = []
        self.heuristic: list[list[int]] = []
        self._degrees()
        self._colours()
        self._short_cycles()
        if tight:
            self._tight(corners)

    def _add(self, clauses: np.ndarray, heuristic: bool = False) -> None:
        (self.heuristic if heuristic else self.clauses).extend(clauses.tolist())

    def _degrees(self) -> None:
        """An endpoint has exactly one used link, every other node exactly two (Numberlink rules: 0 or 2)."""
        if not self.puzzle.rules.fills_every_cell:
            return self._numberlink_degrees()
        degree, start, var = self._incidence()
        need = np.where(self.end_flow >= 0, 1, 2)
        for d in sorted(set(degree.tolist())):  # (np.unique would load numpy.ma: 15 ms)
            for k in (1, 2):
                group = np.flatnonzero((degree == d) & (need == k))
                if not len(group):
                    continue
                if d < k:  # a node with too few links: the model is unsatisfiable
                    self.clauses.append([])
                    continue
                inc = var[start[group][:, None] + np.arange(d)]
                for combo in itertools.combinations(range(d), k + 1):  # at most k
                    self._add(-inc[:, combo])
                for combo in itertools.combinations(range(d), d - k + 1):  # at least k
                    self._add(inc[:, combo])

    def _incidence(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Each node's link variables: ``var[start[i]:start[i] + degree[i]]`` are node ``i``'s."""
        ends = np.concatenate([self.links[:, 0], self.links[:, 1]])
        order = np.argsort(ends, kind="stable")
        var = (np.arange(2 * len(self.links)) % max(len(self.links), 1) + 1)[order]
        degree = np.bincount(ends, minlength=len(self.nodes))
        return degree, np.concatenate([[0], np.cumsum(degree)]), var

    def _numberlink_degrees(self) -> None:
        """An endpoint has exactly one used link; every other node none or two: at most two, never one."""
        degree, start, var = self._incidence()
        endpoint = self.end_flow >= 0
        for d in sorted(set(degree.tolist())):
            group = np.flatnonzero((degree == d) & endpoint)
            if len(group):
                if d < 1:
                    self.clauses.append([])
                else:
                    inc = var[start[group][:, None] + np.arange(d)]
                    self._add(inc)  # at least one
                    for pair in itertools.combinations(range(d), 2):  # at most one
                        self._add(-inc[:, pair])
            group = np.flatnonzero((degree == d) & ~endpoint)
            if not len(group) or d == 0:
                continue
            inc = var[start[group][:, None] + np.arange(d)]
            for triple in itertools.combinations(range(d), 3):  # at most two
                self._add(-inc[:, triple])
            for i in range(d):  # link i used => another link used (never exactly one)
                self._add(np.concatenate([-inc[:, [i]], np.delete(inc, i, axis=1)], axis=1))

    def _colours(self) -> None:
        """An endpoint's bits spell its flow; a used link joins nodes with equal bits.

        A path then carries its endpoints' flow number to every node on it,
        so a path joining two different flows is impossible; only detached
        cycles could take other numbers, and those are cut. Two clauses per
        link and bit: far fewer than one variable per flow and node.
        """
        ends = np.flatnonzero(self.end_flow >= 0)
        width = self.bits.shape[1]
        ones = (self.end_flow[ends, None] >> np.arange(width)) & 1
        self._add(np.where(ones == 1, self.bits[ends], -self.bits[ends]).reshape(-1, 1))
        lit = np.repeat(np.arange(1, len(self.links) + 1), width)
        bu, bv = self.bits[self.links[:, 0]].ravel(), self.bits[self.links[:, 1]].ravel()
        self._add(np.stack([-lit, -bu, bv], axis=1))
        self._add(np.stack([-lit, bu, -bv], axis=1))

    def _tight(self, corners: bool = False) -> None:
        """Numberlink rules: two neighbours on one flow are linked (a path has no chord).

        Sound for "is there a solution" under Numberlink rules, where a cell may stay empty: a
        path with a chord (two of its nodes that are neighbours but not consecutive) can jump it,
        leaving the nodes between empty, so every puzzle with a solution has a chord-free one.
        Not for counting: :func:`flowgraph.authoring.uniqueness.count_solutions` adds what it
        leaves out. Variables: ``used[i]`` (node ``i`` has a used link) and, per link and bit,
        ``differ`` (implies the two nodes' bits differ); per link the clause is "linked, or an
        end unused, or some bit differs".
        """
        n, nlinks, width = len(self.nodes), self.links.shape[0], self.bits.shape[1]
        used = self.variables + 1 + np.arange(n, dtype=np.int64)
        differ = self.variables + 1 + n + np.arange(nlinks * width, dtype=np.int64).reshape(nlinks, width)
        self.variables += n + differ.size
        degree, start, var = self._incidence()
        for d in sorted(set(degree.tolist())):
            group = np.flatnonzero(degree == d)
            inc = var[start[group][:, None] + np.arange(d)]
            self._add(np.concatenate([-used[group, None], inc], axis=1))  # used => some link used
            self._add(np.stack([-inc, np.broadcast_to(used[group, None], inc.shape)], axis=2).reshape(-1, 2))
        bu, bv = self.bits[self.links[:, 0]], self.bits[self.links[:, 1]]
        self._add(np.stack([-differ, bu, bv], axis=2).reshape(-1, 3))
        self._add(np.stack([-differ, -bu, -bv], axis=2).reshape(-1, 3))
        lit = np.arange(1, nlinks + 1)[:, None]
        self._add(np.concatenate([lit, -used[self.links[:, 0], None], -used[self.links[:, 1], None], differ], axis=1))
        if corners:
            self._corners(used)

    def _corners(self, used: np.ndarray) -> None:
        """Numberlink rules: a path turning at ``b`` of a 4-cycle ``a-b-c-d`` leaves ``d`` empty only
        when ``d`` comes before ``b`` (or is an endpoint): the canonical corners of
        :func:`flowgraph.engines.exhaustive.enumerate_solutions`, in this model's node order."""
        from .link_layout import short_cycles

        _, squares = short_cycles(self.links, len(self.nodes), chorded=True)
        if not squares:
            return
        plain = np.array([len(v) == 2 for v in self.nodes])
        around = np.array(squares, np.int64)  # (squares, 4): link numbers in order around each
        ends = self.links[around]  # (squares, 4, 2)
        nxt = np.roll(ends, -1, axis=1)  # the next link's ends
        first = ends[:, :, 0]
        shared = (first == nxt[:, :, 0]) | (first == nxt[:, :, 1])
        corner = np.where(shared, first, ends[:, :, 1])  # corner k: the node links k and k + 1 share
        b, d = corner, np.roll(corner, -2, axis=1)
        keep = plain[b] & plain[d] & (d > b) & (self.end_flow[d] < 0)
        rows = np.stack([-(around + 1), -(np.roll(around, -1, axis=1) + 1), used[d]], axis=2)[keep]
        if len(rows):
            self._add(rows)

    def _short_cycles(self) -> None:
        """Clauses on the graph's triangles and 4-cycles.

        Sound: no cycle may be used whole. Heuristic (no self-touch): a path
        may not use three links of a 4-cycle (a U-turn) or two of a triangle,
        because the two cells left at its ends would touch.
        """
        from .link_layout import short_cycles  # (numpy only: the exhaustive search's passes load on first use)

        triangles, squares = short_cycles(self.links, len(self.nodes))
        for cycles, keep in ((triangles, 2), (squares, 3)):  # clauses a family at a time, as arrays
            if cycles:
                lits = -(np.array(cycles, np.int64) + 1)  # link e is variable e + 1
                self._add(lits)
                for sub in itertools.combinations(range(lits.shape[1]), keep):
                    self._add(lits[:, sub], heuristic=True)

    def used_links(self, model: list[int]) -> np.ndarray:
        """Indices of the links a model uses."""
        return np.flatnonzero(np.asarray(model[: len(self.links)]) > 0)

    def cycle_cuts(self, used: np.ndarray) -> list[list[int]]:
        """A clause per used cycle with no endpoint: some link leaving it is used.

        Under Numberlink rules its cells may also all stay empty, so the
        clause is: some link of the cycle unused, or some link leaving it used.
        """
        links = self.links[used]
        labels = part_labels(len(self.nodes), links)
        ended = np.zeros(len(self.nodes), bool)  # by a part's label: the part holds an endpoint
        ended[labels[self.end_flow >= 0]] = True
        seen_labels, first = np.unique(labels[links.ravel()], return_index=True)
        cuts = []
        inside = np.zeros(len(self.nodes), bool)
        for root in seen_labels[np.argsort(first)].tolist():  # parts in order of first use, as networkx gave them
            if ended[root]:
                continue
            part = np.flatnonzero(labels == root)
            inside[:] = False
            inside[part] = True
            leaving = inside[self.links[:, 0]] != inside[self.links[:, 1]]
            clause = (np.flatnonzero(leaving) + 1).tolist()
            if not self.puzzle.rules.fills_every_cell:
                own = used[inside[self.links[used, 0]]]
                clause += (-(own + 1)).tolist()
            cuts.append(clause)
        return cuts

    def block(self, used: np.ndarray) -> list[int]:
        """The clause forbidding this exact set of links (a solution is determined by its links)."""
        return (-(used + 1)).tolist()

    def paths(self, used: np.ndarray) -> dict[str, tuple[Node, ...]]:
        """The paths the links ``used`` make, each from its flow's first endpoint."""
        nbrs: dict[int, list[int]] = {}
        for u, v in self.links[used].tolist():
            nbrs.setdefault(u, []).append(v)
            nbrs.setdefault(v, []).append(u)
        out = {}
        for f in self.flows:
            a, b = (self.index[e] for e in f.ends)
            path, prev = [a], -1
            while path[-1] != b:
                nxt = next(m for m in nbrs[path[-1]] if m != prev)
                prev = path[-1]
                path.append(nxt)
            out[f.label] = tuple(self.nodes[i] for i in path)
        return out
