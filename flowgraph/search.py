"""The heap-ordered search engine.

States are kept on a heap (``heapq``) as ``(score, counter, state)``; the
score weighs open cells, the state's child count and solved flows, so it
runs unchanged on square, hex, warped and bridged boards: the engine sees
only the cell graph, turned once per solve into int-indexed adjacency.

Each flow grows from one endpoint (its *start*, the end with fewer
neighbours, nearer the boundary) towards the other (its *goal*). The growing
end is the flow's *head*. A state is a ``bytearray`` of cell colours (``0``
free, ``k + 1`` for flow ``k``, plus the ``ACTIVE`` bit on the head and goal
of every unfinished flow), the heads as persistent linked lists (so paths
share structure between states), a bitmask of finished flows and the count
of free cells.

Prunings and move ordering
--------------------------
Sound (they follow from the rules, so they may prove "no solution"):

* **forced moves** — a head with one way out moves there; a free cell whose
  only two possible links are a head and one other cell is taken by that
  head. Chains of forced moves are applied without going through the heap.
* **dead ends** — a free cell with fewer than two possible links (free
  neighbours, heads and goals of unfinished flows), or a goal with no free
  neighbour and no head of its own beside it.
* **stranded regions and flows** — every connected region of free cells
  must touch both the head and the goal of some unfinished flow, and every
  unfinished flow needs such a region (or its head beside its goal).
* **bottlenecks** — a cut of ``w`` free cells (here ``w = 1``: an
  articulation cell of the free cells) that separates the head and goal of
  more than ``w`` flows: all of them would have to pass through it.
* **most-constrained flow first** — the flow whose head has the fewest
  moves is extended; this orders the search and never loses solutions.

Heuristic (fast on real levels, *not* sound for the Flow Free rules, where a
path may run beside itself):

* **self-touch** — a path may not step onto a cell that touches its own
  path other than at the head it grows from (and its goal); a head beside
  its goal always moves into it.

When a search with the heuristic on exhausts its space, :func:`solve`
searches again with it off before it answers "no solution".

Notes
-----
The ideas follow Matt Zucker, "Flow Free solver" (2016, blog post and the C
program ``flow_solver``): best-first search, forced moves, dead-end and
stranded-region checks, bottlenecks ("chokepoints") and the self-touch rule.
Here they are stated for an arbitrary graph, so no rule knows the board's
geometry.
"""

from __future__ import annotations

import heapq
import itertools
import sys
import time
from dataclasses import dataclass
from typing import Iterator

from .errors import SearchLimitError, UnsolvableError
from .model import Node, Puzzle, Solution

__all__ = ["solve", "Limits", "compile_puzzle", "Board"]

ACTIVE = 0x40  # colour bit: head or goal of an unfinished flow
FLOW = 0x3F  # colour bits: flow index + 1

DEFAULT_MEMORY_BYTES = 1 << 30


@dataclass(frozen=True)
class Limits:
    """Budgets for one solve; ``None`` means no limit.

    Attributes
    ----------
    max_nodes : int or None
        Search states expanded.
    time_limit_s : float or None
        Wall time in seconds, for the whole solve.
    memory_bytes : int or None
        Estimated size of the frontier (states waiting on the heap), bytes.
    """

    max_nodes: int | None = None
    time_limit_s: float | None = None
    memory_bytes: int | None = DEFAULT_MEMORY_BYTES


@dataclass(frozen=True)
class Board:
    """A puzzle compiled to int-indexed arrays for the inner loop.

    Attributes
    ----------
    nodes : tuple of Node
        Index -> graph node.
    adj : tuple of tuple of int
        Index -> neighbour indices.
    starts, goals : tuple of int
        Per flow, the endpoint the path grows from and the one it grows to.
    flipped : tuple of bool
        Per flow, whether the start is ``flow.ends[1]``.
    """

    nodes: tuple[Node, ...]
    adj: tuple[tuple[int, ...], ...]
    starts: tuple[int, ...]
    goals: tuple[int, ...]
    flipped: tuple[bool, ...]


def compile_puzzle(puzzle: Puzzle) -> Board:
    """Turn the puzzle graph into int-indexed arrays (once per solve).

    The start of each flow is the endpoint with fewer neighbours (nearer the
    boundary, where fewer paths are possible); ties keep file order.
    """
    g = puzzle.graph
    nodes = tuple(sorted(g.nodes, key=lambda n: (n[0], n[1], n[2:] and n[2])))
    index = {n: i for i, n in enumerate(nodes)}
    adj = tuple(tuple(sorted(index[m] for m in g[n])) for n in nodes)
    starts, goals, flipped = [], [], []
    for f in puzzle.flows:
        a, b = index[f.ends[0]], index[f.ends[1]]
        flip = len(adj[b]) < len(adj[a])
        starts.append(b if flip else a)
        goals.append(a if flip else b)
        flipped.append(flip)
    return Board(nodes, adj, tuple(starts), tuple(goals), tuple(flipped))


class _Dead(Exception):
    """Raised inside state updates when a state cannot lead to a solution."""


class _Search:
    def __init__(self, board: Board, heuristic: bool, limits: Limits, t0: float, nodes0: int):
        self.b = board
        self.adj = board.adj
        self.goals = board.goals
        self.nflows = len(board.starts)
        self.heuristic = heuristic
        self.limits = limits
        self.t0 = t0
        self.nodes = nodes0
        self.pushed = 0
        n = len(board.nodes)
        # Rough bytes per frontier state: colours, head list, tuple, heap slot.
        self.state_bytes = sys.getsizeof(bytearray(n)) + 8 * self.nflows + 200

    # -- moves --------------------------------------------------------------
    def moves(self, color: bytearray, k: int, h: int) -> list[int]:
        """Cells flow ``k`` may step to from its head ``h``."""
        goal = self.goals[k]
        mine = k + 1
        out = []
        adj = self.adj
        for v in adj[h]:
            if v == goal:
                if self.heuristic:
                    return [v]
                out.append(v)
            elif color[v] == 0:
                if self.heuristic:
                    for w in adj[v]:
                        if w != h and w != goal and color[w] & FLOW == mine:
                            break
                    else:
                        out.append(v)
                else:
                    out.append(v)
        return out

    def step(self, st: list, k: int, v: int) -> None:
        """Move flow ``k``'s head to ``v`` in place (state = [color, heads, done, free])."""
        color, heads = st[0], st[1]
        h = heads[k][0]
        color[h] &= FLOW
        heads[k] = (v, heads[k])
        if v == self.goals[k]:
            color[v] &= FLOW
            st[2] |= 1 << k
        else:
            color[v] = (k + 1) | ACTIVE
            st[3] -= 1

    # -- propagation and pruning ---------------------------------------------
    def settle(self, st: list, touched: list[int]) -> None:
        """Apply forced moves and run the prunings; raise _Dead if hopeless."""
        color, heads = st[0], st[1]
        adj = self.adj
        goals = self.goals
        while touched:
            changed: list[int] = []
            # Heads with a single way out (or none).
            for k in range(self.nflows):
                if st[2] >> k & 1:
                    continue
                h = heads[k][0]
                opts = self.moves(color, k, h)
                if not opts:
                    raise _Dead
                if len(opts) == 1:
                    self.step(st, k, opts[0])
                    changed.append(h)
                    changed.append(opts[0])
            # Cells near the changes: dead ends and cells a head must take.
            seen = set()
            for t in touched + changed:
                for c in (t, *adj[t]):
                    if c in seen:
                        continue
                    seen.add(c)
                    cc = color[c]
                    if cc == 0:
                        avail = [w for w in adj[c] if color[w] == 0 or color[w] & ACTIVE]
                        if len(avail) < 2:
                            raise _Dead
                        if len(avail) == 2:
                            ca, cb = color[avail[0]], color[avail[1]]
                            if ca & ACTIVE and cb & ACTIVE and ca != cb:
                                raise _Dead  # would join two different flows
                            for w in avail:
                                cw = color[w]
                                if cw & ACTIVE and color[c] == 0:
                                    k = (cw & FLOW) - 1
                                    if heads[k][0] == w:
                                        self.step(st, k, c)
                                        changed.append(w)
                                        changed.append(c)
                    elif cc & ACTIVE:
                        k = (cc & FLOW) - 1
                        if c == goals[k] and heads[k][0] not in adj[c]:
                            for w in adj[c]:
                                if color[w] == 0:
                                    break
                            else:
                                raise _Dead
            touched = changed
        self.regions(st)

    def regions(self, st: list) -> None:
        """Stranded regions, stranded flows and single-cell bottlenecks."""
        color, heads, done = st[0], st[1], st[2]
        if st[3] == 0:
            if done != (1 << self.nflows) - 1:
                raise _Dead
            return
        adj = self.adj
        goals = self.goals
        n = len(color)
        region = [-1] * n
        need = 0  # unfinished flows not yet served by a region
        head_of = {}
        for k in range(self.nflows):
            if not done >> k & 1:
                h = heads[k][0]
                head_of[h] = k
                if goals[k] in adj[h]:
                    continue  # may finish directly
                need |= 1 << k
        rid = 0
        for s in range(n):
            if color[s] != 0 or region[s] >= 0:
                continue
            region[s] = rid
            stack = [s]
            hmask = gmask = 0
            while stack:
                v = stack.pop()
                for w in adj[v]:
                    cw = color[w]
                    if cw == 0:
                        if region[w] < 0:
                            region[w] = rid
                            stack.append(w)
                    elif cw & ACTIVE:
                        k = (cw & FLOW) - 1
                        if head_of.get(w) == k:
                            hmask |= 1 << k
                        else:
                            gmask |= 1 << k
            both = hmask & gmask
            if not both:
                raise _Dead  # stranded region: nobody can fill it
            need &= ~both
            rid += 1
        if need:
            raise _Dead  # stranded flow: no region joins its head and goal

    # -- main loop -----------------------------------------------------------
    def children(self, st: list) -> tuple[int, list[int]]:
        """The flow to extend (most constrained) and its moves."""
        color, heads, done = st[0], st[1], st[2]
        best_k, best = -1, None
        for k in range(self.nflows):
            if done >> k & 1:
                continue
            opts = self.moves(color, k, heads[k][0])
            if best is None or len(opts) < len(best):
                best_k, best = k, opts
                if len(opts) <= 1:
                    break
        return best_k, best or []

    def run(self, root: list) -> list | None:
        """Best-first search from ``root``; the solved state or None."""
        try:
            self.settle(root, [h for h in (x[0] for x in root[1])])
        except _Dead:
            return None
        lim = self.limits
        heap = [(self.score(root, 1), 0, root)]
        counter = itertools.count(1)
        max_frontier = (lim.memory_bytes // self.state_bytes) if lim.memory_bytes else None
        while heap:
            _, _, st = heapq.heappop(heap)
            if st[3] == 0 and st[2] == (1 << self.nflows) - 1:
                return st
            self.nodes += 1
            if lim.max_nodes is not None and self.nodes > lim.max_nodes:
                raise SearchLimitError("nodes", self.stats())
            if lim.time_limit_s is not None and self.nodes & 63 == 0:
                if time.perf_counter() - self.t0 > lim.time_limit_s:
                    raise SearchLimitError("time", self.stats())
            k, opts = self.children(st)
            for v in opts:
                child = [bytearray(st[0]), list(st[1]), st[2], st[3]]
                h = child[1][k][0]
                self.step(child, k, v)
                try:
                    self.settle(child, [h, v])
                except _Dead:
                    continue
                self.pushed += 1
                heapq.heappush(heap, (self.score(child, len(opts)), next(counter), child))
            if max_frontier is not None and len(heap) > max_frontier:
                raise SearchLimitError("memory", self.stats())
        return None

    def score(self, st: list, children: int) -> int:
        """Lower is better: fewer open cells, fewer siblings, more solved flows."""
        return (st[3] << 8) + (children << 4) - bin(st[2]).count("1")

    def stats(self) -> dict:
        return {
            "seconds": round(time.perf_counter() - self.t0, 6),
            "nodes": self.nodes,
            "pushed": self.pushed,
            "heuristic": self.heuristic,
        }


def _root(board: Board) -> list:
    color = bytearray(len(board.nodes))
    for k, (s, g) in enumerate(zip(board.starts, board.goals)):
        color[s] = color[g] = (k + 1) | ACTIVE
    free = sum(1 for c in color if c == 0)
    return [color, [(s, None) for s in board.starts], 0, free]


def _unwind(cons: tuple | None) -> Iterator[int]:
    while cons is not None:
        yield cons[0]
        cons = cons[1]


def solve(puzzle: Puzzle, limits: Limits | None = None, heuristic: bool = True) -> Solution:
    """Solve a puzzle with the heap-ordered search.

    Parameters
    ----------
    puzzle : Puzzle
    limits : Limits, optional
        Node, time and memory budgets (default: 1 GiB frontier, no others).
    heuristic : bool
        Try the self-touch heuristic first (default). Either way the answer
        is sound: an exhausted heuristic search is repeated without it.

    Returns
    -------
    Solution
        Unverified; callers verify with :func:`flowgraph.verify.verify`.
        ``stats`` has ``seconds``, ``nodes`` (states expanded, all passes),
        ``pushed`` and ``heuristic`` (whether the answer came from the
        heuristic pass).

    Raises
    ------
    UnsolvableError
        The search space was exhausted under the real rules.
    SearchLimitError
        A budget ran out; ``err.stats`` holds the counts so far.
    """
    limits = limits or Limits()
    t0 = time.perf_counter()
    board = compile_puzzle(puzzle)
    nodes = 0
    for mode in ((True, False) if heuristic else (False,)):
        search = _Search(board, mode, limits, t0, nodes)
        final = search.run(_root(board))
        nodes = search.nodes
        if final is not None:
            paths = {}
            for k, flow in enumerate(puzzle.flows):
                path = [board.nodes[i] for i in _unwind(final[1][k])]
                path.reverse()
                if board.flipped[k]:
                    path.reverse()
                paths[flow.label] = tuple(path)
            return Solution(puzzle, paths, "search", search.stats())
    raise UnsolvableError("no solution: the search space is exhausted", search.stats())
