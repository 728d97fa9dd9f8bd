"""The SAT engine: the puzzle graph as CNF, solved with python-sat.

Model
-----
* an edge variable per link, a colour (flow) variable per node and flow;
* every node has exactly one colour; endpoints have their own;
* an endpoint has exactly one used link, every other node (bridge lanes are
  nodes of their own) exactly two;
* a used link joins two nodes of the same colour;
* colours a node cannot take are ruled out first: a flow's colour can only
  reach nodes in the part of the graph its path could run through (the
  graph minus the other flows' endpoints), which shrinks the model a lot on
  boards with many flows;
* cycles detached from every endpoint satisfy all of the above: each model
  is checked, and for every such cycle a clause says that some link leaving
  its cells is used (sound: any real path through those cells must leave
  them). The same solver is re-solved incrementally, keeping what it learnt.

Heuristic clauses (*not* sound for the Flow Free rules, used to find
answers fast and dropped before any "no solution"): two neighbouring nodes of
the same colour must be linked ("no self-touch"). When the model with them is
unsatisfiable, the puzzle is solved again without them.

Notes
-----
The colour-per-cell and degree model is the standard reduction of
Numberlink to SAT (e.g. Matt Zucker, "Flow Free solver" 2016, and the
"numberlink" SAT encodings it cites); the lazy cycle cuts follow the usual
counter-example guided loop for connectivity. Glucose 4.1 was chosen by
measurement over CaDiCaL 1.5.3 and 1.9.5 and MiniSat 2.2 (docs/benchmarks.md),
and because python-sat can interrupt it for the time budget, which it cannot
do for CaDiCaL.
"""

from __future__ import annotations

import itertools
import threading
import time
from typing import Iterable

import networkx as nx
from pysat.card import CardEnc, EncType
from pysat.solvers import Solver

from ..errors import SearchLimitError, UnsolvableError
from ..model import Limits, Node, Puzzle, Solution

__all__ = ["solve", "solutions", "warm_up", "SOLVER"]

#: python-sat back end.
SOLVER = "glucose4"


def _exactly(lits: list[int], k: int) -> Iterable[list[int]]:
    """Clauses for "exactly k of lits" (k in 1, 2), by direct subsets (nodes have <= 8 links)."""
    n = len(lits)
    if n < k:
        yield []  # unsatisfiable
        return
    # at most k: no k+1 of them together
    for combo in itertools.combinations(lits, k + 1):
        yield [-x for x in combo]
    # at least k: every n-k+1 of them has one true
    for combo in itertools.combinations(lits, n - k + 1):
        yield list(combo)


class _Model:
    """Variables and clauses for one puzzle."""

    def __init__(self, puzzle: Puzzle):
        self.puzzle = puzzle
        g = puzzle.graph
        self.nodes = sorted(g.nodes, key=lambda n: (n[0], n[1], n[2:] and n[2]))
        self.flows = puzzle.flows
        self.ends = {end: k for k, f in enumerate(self.flows) for end in f.ends}
        self.counter = counter = itertools.count(1)
        self.edge_var: dict[frozenset, int] = {}
        for u, v in g.edges:
            self.edge_var[frozenset((u, v))] = next(counter)
        self.allowed = self._allowed_colours()
        self.col_var: dict[tuple[Node, int], int] = {}
        for n in self.nodes:
            for k in self.allowed[n]:
                self.col_var[n, k] = next(counter)
        self.clauses: list[list[int]] = []
        self.heuristic: list[list[int]] = []
        self._build()

    def _allowed_colours(self) -> dict[Node, list[int]]:
        """Flow k can colour only nodes reachable from its ends without crossing other endpoints."""
        g = self.puzzle.graph
        inner = g.subgraph(n for n in g if n not in self.ends)
        comp_of: dict[Node, int] = {}
        for i, comp in enumerate(nx.connected_components(inner)):
            for n in comp:
                comp_of[n] = i
        allowed: dict[Node, list[int]] = {n: [] for n in g}
        for k, f in enumerate(self.flows):
            allowed[f.ends[0]].append(k)
            allowed[f.ends[1]].append(k)
            near_a = {comp_of[m] for m in g[f.ends[0]] if m in comp_of}
            near_b = {comp_of[m] for m in g[f.ends[1]] if m in comp_of}
            for n, c in comp_of.items():
                if c in near_a and c in near_b:
                    allowed[n].append(k)
        for n in g:
            allowed[n] = sorted(set(allowed[n]))
        return allowed

    def _build(self) -> None:
        g = self.puzzle.graph
        add = self.clauses.append
        for n in self.nodes:
            colours = [self.col_var[n, k] for k in self.allowed[n]]
            if n in self.ends:
                add([self.col_var[n, self.ends[n]]])
            if len(colours) <= 6:
                for clause in _exactly(colours, 1):
                    add(clause)
            else:  # a sequential counter beats O(n^2) pairs on boards with many flows
                top = next(self.counter)
                card = CardEnc.atmost(colours, bound=1, top_id=top, encoding=EncType.seqcounter)
                self.clauses.extend(card.clauses)
                self.counter = itertools.count(max(top, card.nv) + 1)
                add(colours)
            links = [self.edge_var[frozenset((n, m))] for m in g[n]]
            for clause in _exactly(links, 1 if n in self.ends else 2):
                add(clause)
        for u, v in g.edges:
            e = self.edge_var[frozenset((u, v))]
            av = set(self.allowed[v])
            for k in self.allowed[u]:
                cu = self.col_var[u, k]
                # A used link carries u's colour to v; with exactly one colour
                # per node one direction suffices (v's colour must then be k).
                if k in av:
                    cv = self.col_var[v, k]
                    add([-e, -cu, cv])
                    self.heuristic.append([-cu, -cv, e])  # no self-touch
                else:
                    add([-e, -cu])
        self._short_cycles()

    def _short_cycles(self) -> None:
        """Clauses on the graph's triangles and 4-cycles.

        Sound: no cycle may be used whole. Heuristic (no self-touch): a path
        may not use three links of a 4-cycle (a U-turn) or two of a triangle,
        because the two cells left at its ends would touch.
        """
        g = self.puzzle.graph
        ev = self.edge_var
        seen: set[frozenset] = set()
        for u in g:
            nbrs = list(g[u])
            for v, w in itertools.combinations(nbrs, 2):
                cycles = []
                if g.has_edge(v, w):
                    cycles.append((u, v, w))
                for x in set(g[v]) & set(g[w]):
                    if x != u and x not in (v, w) and not (g.has_edge(u, x)):
                        cycles.append((u, v, x, w))
                for cyc in cycles:
                    edges = frozenset(frozenset((cyc[i], cyc[(i + 1) % len(cyc)])) for i in range(len(cyc)))
                    if edges in seen:
                        continue
                    seen.add(edges)
                    lits = [ev[e] for e in edges]
                    self.clauses.append([-x for x in lits])
                    for sub in itertools.combinations(lits, len(lits) - 1 if len(lits) == 4 else 2):
                        self.heuristic.append([-x for x in sub])

    def edges_in(self, model: list[int]) -> list[tuple[Node, Node]]:
        true = {v for v in model if v > 0}
        return [tuple(k) for k, var in self.edge_var.items() if var in true]

    def cycle_cuts(self, used: list[tuple[Node, Node]]) -> list[list[int]]:
        """A clause per used cycle with no endpoint: some link leaving it is used."""
        h = nx.Graph(used)
        cuts = []
        g = self.puzzle.graph
        for comp in nx.connected_components(h):
            if any(n in self.ends for n in comp):
                continue
            boundary = [
                self.edge_var[frozenset((u, v))] for u in comp for v in g[u] if v not in comp
            ]
            cuts.append(boundary)
        return cuts

    def paths(self, used: list[tuple[Node, Node]]) -> dict[str, tuple[Node, ...]]:
        h = nx.Graph(used)
        out = {}
        for f in self.flows:
            a, b = f.ends
            path = [a]
            prev = None
            while path[-1] != b:
                nxt = [m for m in h[path[-1]] if m != prev]
                prev = path[-1]
                path.append(nxt[0])
            out[f.label] = tuple(path)
        return out


class _Run:
    """One incremental solver with budget handling."""

    def __init__(self, model: _Model, heuristic: bool, limits: Limits, t0: float):
        self.model = model
        self.solver = Solver(name=SOLVER, bootstrap_with=model.clauses)
        if heuristic:
            self.solver.append_formula(model.heuristic)
        self.heuristic = heuristic
        self.limits = limits
        self.t0 = t0
        self.calls = 0
        self.cuts = 0

    def close(self) -> None:
        self.solver.delete()

    def stats(self) -> dict:
        conflicts = self.solver.accum_stats().get("conflicts", 0) if self.solver else 0
        return {
            "seconds": round(time.perf_counter() - self.t0, 6),
            "nodes": self.calls,
            "conflicts": conflicts,
            "cycle_cuts": self.cuts,
            "heuristic": self.heuristic,
            "variables": len(self.model.edge_var) + len(self.model.col_var),
            "clauses": len(self.model.clauses) + (len(self.model.heuristic) if self.heuristic else 0),
        }

    def next_solution(self) -> list[tuple[Node, Node]] | None:
        """Solve, cutting detached cycles, until a real solution or UNSAT."""
        lim = self.limits
        while True:
            self.calls += 1
            if lim.max_nodes is not None and self.calls > lim.max_nodes:
                raise SearchLimitError("nodes", self.stats())
            timer = None
            if lim.time_limit_s is not None:
                left = lim.time_limit_s - (time.perf_counter() - self.t0)
                if left <= 0:
                    raise SearchLimitError("time", self.stats())
                timer = threading.Timer(left, self.solver.interrupt)
                timer.start()
                result = self.solver.solve_limited(expect_interrupt=True)
                timer.cancel()
                self.solver.clear_interrupt()
                if result is None:
                    raise SearchLimitError("time", self.stats())
            else:
                result = self.solver.solve()
            if not result:
                return None
            used = self.model.edges_in(self.solver.get_model())
            cuts = self.model.cycle_cuts(used)
            if not cuts:
                return used
            self.cuts += len(cuts)
            for clause in cuts:
                self.solver.add_clause(clause)

    def block(self, used: list[tuple[Node, Node]]) -> None:
        """Forbid this exact set of links (a solution is determined by its links)."""
        self.solver.add_clause([-self.model.edge_var[frozenset(e)] for e in used])


def warm_up() -> None:
    """Nothing to load beyond python-sat, which importing this module did."""


def solve(puzzle: Puzzle, limits: Limits | None = None, heuristic: bool = True) -> Solution:
    """Solve a puzzle with the SAT engine.

    Parameters
    ----------
    puzzle : Puzzle
    limits : Limits, optional
        ``time_limit_s`` interrupts the SAT solver; ``max_nodes`` bounds the
        number of SAT calls (one per cycle-cutting round).
    heuristic : bool
        Add the no-self-touch clauses first (default); an unsatisfiable answer
        with them is always rechecked without them.

    Returns
    -------
    Solution
        Unverified; ``stats`` has ``seconds``, ``nodes`` (SAT calls),
        ``conflicts``, ``cycle_cuts``, ``variables``, ``clauses``, ``heuristic``.

    Raises
    ------
    UnsolvableError
        The sound model is unsatisfiable.
    SearchLimitError
        The time or call budget ran out.
    """
    limits = limits or Limits()
    t0 = time.perf_counter()
    model = _Model(puzzle)
    calls = 0
    for mode in ((True, False) if heuristic else (False,)):
        run = _Run(model, mode, limits, t0)
        run.calls = calls
        try:
            used = run.next_solution()
            stats = run.stats()
        finally:
            calls = run.calls
            run.close()
        if used is not None:
            return Solution(puzzle, model.paths(used), "sat", stats)
    raise UnsolvableError("no solution: the SAT model is unsatisfiable", stats)


def solutions(puzzle: Puzzle, limit: int = 2, limits: Limits | None = None) -> tuple[list[Solution], dict]:
    """Up to ``limit`` distinct solutions, found with the sound model.

    Used by ``flowgraph validate --unique``: fewer than ``limit`` solutions
    means the list is complete (the model was exhausted).

    Returns
    -------
    solutions : list of Solution
    stats : dict

    Raises
    ------
    SearchLimitError
        A budget ran out first.
    """
    limits = limits or Limits()
    t0 = time.perf_counter()
    model = _Model(puzzle)
    run = _Run(model, False, limits, t0)
    found: list[Solution] = []
    try:
        while len(found) < limit:
            used = run.next_solution()
            if used is None:
                break
            found.append(Solution(puzzle, model.paths(used), "sat", run.stats()))
            run.block(used)
        return found, run.stats()
    finally:
        run.close()
