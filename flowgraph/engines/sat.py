"""The SAT engine: the puzzle graph as CNF, solved with python-sat.

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
  flow numbers are linked, i.e. no path has a chord (``_Model._tight``). Sound
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
cuts follow the usual counter-example guided loop for connectivity. Glucose 4.1 was chosen by
measurement over CaDiCaL 1.5.3 and 1.9.5 and MiniSat 2.2 (docs/benchmarks.md),
and because python-sat can interrupt it for the time budget, which it cannot
do for CaDiCaL.
"""

from __future__ import annotations

import contextlib
import itertools
import threading
import time
from collections.abc import Callable

import networkx as nx
import numpy as np
from pysat.solvers import Solver

from ..errors import SearchLimitError, UnsolvableError
from ..model import Limits, Node, Puzzle, Solution
from . import ENGINE_RULES

__all__ = ["solve", "solutions", "warm_up", "SOLVER"]

#: python-sat back end.
SOLVER = "glucose4"


class _Model:
    """Variables and clauses for one puzzle, built with arrays.

    Nodes are numbered in a fixed order; link ``e`` is variable ``e + 1``,
    bit ``j`` of node ``i``'s flow number is variable ``bits[i, j]``. Clauses are made a whole family at a
    time as integer arrays and turned into lists once.
    """

    def __init__(self, puzzle: Puzzle, tight: bool = False):
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
            self._tight()

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

    def _tight(self) -> None:
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

    def _short_cycles(self) -> None:
        """Clauses on the graph's triangles and 4-cycles.

        Sound: no cycle may be used whole. Heuristic (no self-touch): a path
        may not use three links of a 4-cycle (a U-turn) or two of a triangle,
        because the two cells left at its ends would touch.
        """
        var = {}
        nbrs: list[set[int]] = [set() for _ in self.nodes]
        for e, (u, v) in enumerate(self.links.tolist()):
            var[u, v] = var[v, u] = e + 1
            nbrs[u].add(v)
            nbrs[v].add(u)
        triangles: list[tuple[int, int, int]] = []  # each cycle as its links, in order around it
        squares: list[tuple[int, int, int, int]] = []
        for u, around in enumerate(nbrs):
            later = sorted(x for x in around if x > u)
            for i, v in enumerate(later):
                for w in later[i + 1:]:
                    if w in nbrs[v]:
                        triangles.append((var[u, v], var[v, w], var[w, u]))
                    for x in nbrs[v] & nbrs[w]:  # u is the cycle's smallest node: found once
                        if x > u and x not in around:
                            squares.append((var[u, v], var[v, x], var[x, w], var[w, u]))
        for cycles, keep in ((triangles, 2), (squares, 3)):  # clauses a family at a time, as arrays
            if cycles:
                lits = -np.array(cycles, np.int64)
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
        h = nx.Graph(self.links[used].tolist())
        cuts = []
        inside = np.zeros(len(self.nodes), bool)
        for comp in nx.connected_components(h):
            part = list(comp)
            if (self.end_flow[part] >= 0).any():
                continue
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


def _ctrl_c(call, **kwargs):
    """``call(**kwargs)``, with Ctrl-C raised as KeyboardInterrupt: python-sat's solvers catch SIGINT themselves
    and raise an error of their own ("Caught keyboard interrupt"), which a batch would take for a failed puzzle."""
    try:
        return call(**kwargs)
    except Exception as exc:
        if "keyboard interrupt" in str(exc).lower():
            raise KeyboardInterrupt from None
        raise


class _Watchdog:
    """One daemon thread that interrupts SAT solvers whose deadline passed.

    A ``threading.Timer`` per solver call costs a thread start (~0.8 ms),
    a tenth of a small board's whole solve; this thread is started once
    and sleeps until the earliest deadline of the calls running (several,
    when the studio serves requests in threads).
    """

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._calls: dict[int, tuple[float, Callable[[], None]]] = {}
        self._ids = itertools.count()
        self._thread: threading.Thread | None = None

    @contextlib.contextmanager
    def watch(self, deadline: float, interrupt):
        """Call ``interrupt()`` if the block is still running at ``deadline`` (``time.perf_counter`` seconds)."""
        with self._cond:
            key = next(self._ids)
            self._calls[key] = (deadline, interrupt)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="flowgraph-sat-watchdog", daemon=True)
                self._thread.start()
            self._cond.notify()
        try:
            yield
        finally:
            with self._cond:
                self._calls.pop(key, None)

    def _run(self) -> None:
        with self._cond:
            while True:
                now = time.perf_counter()
                for key, (deadline, interrupt) in list(self._calls.items()):
                    if deadline <= now:
                        del self._calls[key]
                        interrupt()
                soonest = min((d for d, _ in self._calls.values()), default=None)
                self._cond.wait(None if soonest is None else soonest - now)


_WATCHDOG = _Watchdog()


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
            "sat_calls": self.calls,
            "conflicts": conflicts,
            "cycle_cuts": self.cuts,
            "heuristic": self.heuristic,
            "variables": self.model.variables,
            "clauses": len(self.model.clauses) + (len(self.model.heuristic) if self.heuristic else 0),
        }

    def next_solution(self) -> np.ndarray | None:
        """Solve, cutting detached cycles, until a real solution or UNSAT."""
        lim = self.limits
        while True:
            self.calls += 1
            if lim.max_sat_calls is not None and self.calls > lim.max_sat_calls:
                raise SearchLimitError("sat_calls", self.stats())
            if lim.time_limit_s is not None:
                deadline = self.t0 + lim.time_limit_s
                if deadline <= time.perf_counter():
                    raise SearchLimitError("time", self.stats())
                with _WATCHDOG.watch(deadline, self.solver.interrupt):
                    result = _ctrl_c(self.solver.solve_limited, expect_interrupt=True)
                self.solver.clear_interrupt()
                if result is None:
                    raise SearchLimitError("time", self.stats())
            else:
                result = _ctrl_c(self.solver.solve)
            if not result:
                return None
            used = self.model.used_links(self.solver.get_model())
            cuts = self.model.cycle_cuts(used)
            if not cuts:
                return used
            self.cuts += len(cuts)
            for clause in cuts:
                self.solver.add_clause(clause)

    def block(self, used: np.ndarray) -> None:
        """Forbid this exact set of links (a solution is determined by its links)."""
        self.solver.add_clause(self.model.block(used))


def warm_up() -> None:
    """Nothing to load beyond python-sat, which importing this module did."""


#: SAT has no states to show: :func:`solve` takes no ``trace``.
TRACES = False
#: Under Numberlink rules a node may have no used link (and then any flow number).
RULES = ENGINE_RULES["sat"]


def solve(puzzle: Puzzle, limits: Limits | None = None, heuristic: bool = True, *,
          trace: Callable[..., None] | None = None) -> Solution:
    """Solve a puzzle with the SAT engine.

    Parameters
    ----------
    puzzle : Puzzle
    limits : Limits, optional
        ``time_limit_s`` interrupts the SAT solver; ``max_sat_calls`` bounds the
        number of SAT calls (one per cycle-cutting round).
    heuristic : bool
        Add the no-self-touch clauses first (default); an unsatisfiable answer
        with them is always rechecked without them.
    trace : None
        Must be None (:data:`TRACES`).

    Returns
    -------
    Solution
        Unverified; ``stats`` has ``seconds``, ``sat_calls``,
        ``conflicts``, ``cycle_cuts``, ``variables``, ``clauses``, ``heuristic``.

    Raises
    ------
    UnsolvableError
        The sound model is unsatisfiable.
    SearchLimitError
        The time or call budget ran out.
    ValueError
        A ``trace`` was given.
    """
    if trace is not None:
        raise ValueError("the sat engine cannot trace: it expands no states (use the search)")
    limits = limits or Limits()
    t0 = time.perf_counter()
    model = _Model(puzzle, tight=not puzzle.rules.fills_every_cell)
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


def solutions(puzzle: Puzzle, limit: int = 2, limits: Limits | None = None, *, tight: bool = False,
              exclude: Solution | None = None) -> tuple[list[Solution], dict]:
    """Up to ``limit`` distinct solutions, found with the sound model.

    Used by ``flowgraph validate --unique``: fewer than ``limit`` solutions
    means the list is complete (the model was exhausted).

    Parameters
    ----------
    puzzle : Puzzle
    limit : int
    limits : Limits, optional
    tight : bool
        Numberlink rules only: only solutions whose paths have no chord (see
        ``_Model._tight``); the list is then complete for those alone.
    exclude : Solution, optional
        A solution not to find again.

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
    model = _Model(puzzle, tight=tight)
    run = _Run(model, False, limits, t0)
    found: list[Solution] = []
    if exclude is not None:
        index = {frozenset(link): e for e, link in enumerate(model.links.tolist())}
        run.block(np.array([index[frozenset((model.index[a], model.index[b]))]
                            for path in exclude.paths.values() for a, b in itertools.pairwise(path)], np.int64))
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
