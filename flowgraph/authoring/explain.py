"""The solving path as a person takes it: techniques in tiers, each step justified (``flowgraph explain``).

A board is a set of links, each undecided, used (a *line*) or ruled out. A step applies the
easiest technique that decides something, in this order (the tier is the position):

1. **forced move**: a cell needs two lines (an endpoint one); when it has as many lines as it
   needs the rest are ruled out, when it has only as many open links as it needs they are all
   lines;
2. **dead end**: a link that would close a loop, or join two different flows, is ruled out;
3. **stranded region**: a region of empty cells (no line yet, no endpoint) must be entered and
   left by a path: when only two links lead into it, both are lines;
4. **bottleneck**: every way between the two heads of an unfinished flow, through empty cells,
   crosses one link: it is a line;
5. **one-step contradiction**: with a link taken as a line (or ruled out), tiers 1-3 (then, if
   none does, 1-4) run into a contradiction (a cell with no way out, a loop, two flows meeting, a region nobody can reach,
   a flow cut off), so the link is the other way;
6. **deeper search**: none of the above decides anything; a link of the solution is taken,
   and the search proved the other choice has no solution (for a unique puzzle). The link is
   the one whose true value lets tiers 1-4 decide the most (the failed sweeps of tier 5 have
   just settled every trial), as a person guesses where a guess tells most: fewer guesses, and
   a rating that still tells the hardest levels apart.

The puzzle is rated by its hardest step (Sudoku Explainer's way, Simon Tatham's difficulty
levels as sets of rules), by how hard its steps were to find (Pelánek's model of a person
solving: few moves in sight make the next one hard to spot) and by how far its paths reach
(van Kreveld et al.'s difficulty function of a level's aspects):
``rating = tier + 0.99 * (0.2 * (1 - 0.9 ** uses of that tier) + 0.1 * tight + 0.3 * long + 0.4 * short)``,
to two decimals, where ``tight`` is the share of steps taken with at most :data:`TIGHT` easy
deductions (cells with a forced move, dead-end links) in sight on the board
(:attr:`Step.in_sight`) and ``long`` and ``short`` the span of the solution's mean and shortest
path (:func:`span_of`). The decimal never reaches the next tier. Measured on the game's own
packs, the span tells its Extreme levels apart (fewer, longer paths, no short filler flow), and
the shortest path where size and number of flows are equal (docs/benchmarks.md); the tier word is
``easy`` (tiers 1-2), ``medium`` (3-4), ``hard`` (5) or ``extreme`` (6).

Every step agrees with the solution (the tests replay the steps on every bundled and corpus
board): techniques 1-5 are sound under Flow Free's rules, and a step of tier 6 is only sound
given that the solution is unique, which :func:`explain` reports.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import NamedTuple

import numpy as np

from ..errors import RulesError, SearchLimitError
from ..model import Limits, Node, Puzzle, Solution

__all__ = ["TECHNIQUES", "TIER_WORDS", "TIGHT", "Step", "Explanation", "explain", "explanation_json", "next_steps",
           "rating_of", "replay", "span_of", "tier_word", "tight_share"]

#: Technique names, in tier order (tier = position + 1).
TECHNIQUES = ("forced move", "dead end", "stranded region", "bottleneck", "one-step contradiction", "deeper search")
#: A puzzle's tier word by its hardest step's tier.
TIER_WORDS = {1: "easy", 2: "easy", 3: "medium", 4: "medium", 5: "hard", 6: "extreme"}

UNDECIDED, LINE, CUT = 0, 1, -1
#: A step is *tight* when at most this many easy deductions are in sight before it (see :func:`rating_of`).
TIGHT = 2
#: Cells of the mean path, and of the shortest beyond two, at which a span part of the rating is 1 - 1/e.
SPAN_MEAN, SPAN_SHORT = 10.0, 5.0
#: Seconds the uniqueness check behind tier 6's words may take, and at most this share of the time
#: left under a time limit (past it, the puzzle's uniqueness is reported unknown).
UNIQUE_SECONDS = 10.0
UNIQUE_SHARE = 0.5
#: Tier 6's words by the puzzle's uniqueness (True, False, None: not settled in the time given).
GUESS_NOTES = {True: "the other choice has no solution (found by search)",
               False: "the solution followed takes it (the puzzle has more than one: the other choice may have one too)",
               None: "the solution found takes it (whether the other choice has one was not settled in the time given)"}


class _Contradiction(Exception):
    """The board breaks a rule; ``cells`` show where."""

    def __init__(self, why: str, cells: tuple[int, ...]):
        super().__init__(why)
        self.why = why
        self.cells = cells


@dataclass(frozen=True)
class Step:
    """One step of the solving path.

    Attributes
    ----------
    technique : str
        One of :data:`TECHNIQUES`.
    tier : int
        1 (easiest) to 6.
    flow : str or None
        The flow the step is about, when one is.
    lines : tuple of (Node, Node)
        Links the step makes lines.
    cuts : tuple of (Node, Node)
        Links the step rules out.
    because : tuple of Node
        The cells that justify it (the cell, the region, the flow's heads, where the trial failed).
    note : str
        One sentence saying why.
    in_sight : int or None
        The easy deductions on the board just before the step (cells with a forced move, plus
        links that are dead ends): how many moves a person had in sight; None when not counted.
    """

    technique: str
    tier: int
    flow: str | None
    lines: tuple[tuple[Node, Node], ...]
    cuts: tuple[tuple[Node, Node], ...]
    because: tuple[Node, ...]
    note: str
    in_sight: int | None = None


@dataclass(frozen=True)
class Explanation:
    """What :func:`explain` found.

    Attributes
    ----------
    steps : tuple of Step
    solution : Solution
        The solution the steps build (verified).
    unique : bool or None
        Whether the solution is unique (None: not known in the time given); tier-6 steps rely on it.
    """

    steps: tuple[Step, ...]
    solution: Solution
    unique: bool | None

    @property
    def rating(self) -> float:
        """The hardest tier, its uses, the share of tight steps and the paths' span, to two decimals
        (:func:`rating_of`)."""
        return rating_of(self.steps, self.lengths)

    @property
    def lengths(self) -> list[int]:
        """The cells of each path of the solution, in flow order."""
        return [len(path) for path in self.solution.paths.values()]

    @property
    def tier(self) -> str:
        """``easy``, ``medium``, ``hard`` or ``extreme``."""
        return tier_word(self.rating)

    @property
    def tight(self) -> float:
        """The share of steps taken with at most :data:`TIGHT` easy deductions in sight (0.0 to 1.0)."""
        return tight_share(self.steps)

    @property
    def counts(self) -> dict[str, int]:
        """Steps per technique, every technique named."""
        return {t: sum(s.technique == t for s in self.steps) for t in TECHNIQUES}


def rating_of(steps: tuple[Step, ...] | list[Step], lengths: Iterable[int] = ()) -> float:
    """The rating of a solving path, to two decimals (0.0 with no step).

    Parameters
    ----------
    steps : sequence of Step
        The solving path.
    lengths : iterable of int
        The cells of each path of the solution (none: the span counts 0).

    Returns
    -------
    float
        ``tier + 0.99 * (0.2 * (1 - 0.9 ** uses) + 0.1 * tight + 0.3 * long + 0.4 * short)``: the
        hardest tier; the times it was used; ``tight``, the share of steps with at most
        :data:`TIGHT` easy deductions in sight (a step whose ``in_sight`` is None is not tight);
        and the span a person must trace (:func:`span_of`): ``long`` from the mean path,
        ``short`` from the shortest. Each part is 0 to 1, so the decimal stays below 1 and the
        tier word never changes with it.

    Notes
    -----
    The uses follow Sudoku Explainer (a puzzle rated by its hardest technique); the tight share
    follows Pelánek's model of human problem solving ("Difficulty rating of Sudoku puzzles by a
    computational model", FLAIRS 2011: the time to find a step grows as fewer steps are
    available); the span follows van Kreveld, Löffler and Mutser ("Automated puzzle difficulty
    estimation", CIG 2015: Flow levels rated by a function of the level's aspects): long paths
    are traced far, and a short one (a "filler" flow) is a free foothold. The weights were chosen
    against the game's Extreme packs on one sample and checked on another (docs/benchmarks.md).
    """
    if not steps:
        return 0.0
    top = max(s.tier for s in steps)
    uses = sum(s.tier == top for s in steps)
    long, short = span_of(lengths)
    return round(top + 0.99 * (0.2 * (1 - 0.9 ** uses) + 0.1 * tight_share(steps) + 0.3 * long + 0.4 * short), 2)


def span_of(lengths: Iterable[int]) -> tuple[float, float]:
    """The span of a solution's paths, as two parts of the rating, each 0 to 1 (0, 0 with no path).

    Parameters
    ----------
    lengths : iterable of int
        The cells of each path (an endpoint to the other, both counted).

    Returns
    -------
    long : float
        ``1 - exp(-mean / 10)``: a mean path of 10 cells 0.63, of 20 cells 0.86.
    short : float
        ``1 - exp(-(shortest - 2) / 5)``: two endpoints side by side 0, a shortest path of 7 cells 0.63.
    """
    cells = list(lengths)
    if not cells:
        return 0.0, 0.0
    return 1 - math.exp(-sum(cells) / len(cells) / SPAN_MEAN), 1 - math.exp(-(min(cells) - 2) / SPAN_SHORT)


def tight_share(steps: tuple[Step, ...] | list[Step]) -> float:
    """The share of ``steps`` taken with at most :data:`TIGHT` easy deductions in sight (0.0 with no step;
    a step whose ``in_sight`` is None is not tight)."""
    if not steps:
        return 0.0
    return sum(s.in_sight is not None and s.in_sight <= TIGHT for s in steps) / len(steps)


def tier_word(rating: float) -> str:
    """``easy``, ``medium``, ``hard`` or ``extreme`` for a rating."""
    return TIER_WORDS.get(max(1, min(6, int(rating))), "easy")


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


class _Board:
    """Link states and the derived flows of a puzzle under Flow Free rules."""

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
        self.need = [1 if self.flow_of_end[v] >= 0 else 2 for v in range(self.n)]
        self.state = [UNDECIDED] * len(self.links)
        self._arrays: _Arrays | None = None

    def copy(self) -> _Board:
        other = object.__new__(_Board)
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
                    raise _Contradiction("a loop", (u, v))
                comp[ru] = rv
        root = [find(v) for v in range(self.n)]
        flow: dict[int, int] = {}
        for v in range(self.n):
            k = self.flow_of_end[v]
            if k >= 0:
                if flow.get(root[v], k) != k:
                    raise _Contradiction("two flows meet", (v,))
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
                                   np.array(self.need, np.int64), np.array(self.flow_of_end, np.int64))
        return self._arrays


def _forced(b: _Board) -> tuple[list[int], list[int], int] | None:
    """Tier 1: a cell with as many lines as it needs, or as many open links."""
    for v in range(b.n):
        lines, open_ = b.count(v)
        if lines > b.need[v] or lines + open_ < b.need[v]:
            raise _Contradiction("a cell with no way out" if lines + open_ < b.need[v] else "a cell with too many lines",
                                 (v,))
        if open_ and lines == b.need[v]:
            return [], [e for e in b.at[v] if b.state[e] == UNDECIDED], v
        if open_ and lines + open_ == b.need[v]:
            return [e for e in b.at[v] if b.state[e] == UNDECIDED], [], v
    return None


def _dead_ends(b: _Board) -> tuple[list[int], list[int], int] | None:
    """Tier 2: a link that closes a loop or joins two flows."""
    root, flow = b.segments()
    for e, (u, v) in enumerate(b.links):
        if b.state[e] != UNDECIDED:
            continue
        if root[u] == root[v] or (flow[u] >= 0 and flow[v] >= 0 and flow[u] != flow[v]):
            return [], [e], u
    return None


def _lines(b: _Board) -> list[int]:
    """Per cell, its lines (one pass over the links)."""
    lines = [0] * b.n
    for e, (u, v) in enumerate(b.links):
        if b.state[e] == LINE:
            lines[u] += 1
            lines[v] += 1
    return lines


def _regions(b: _Board) -> list[tuple[list[int], list[int]]]:
    """Regions of empty cells joined by open links, each with the open links leading out of it."""
    lines = _lines(b)
    empty = [b.flow_of_end[v] < 0 and lines[v] == 0 for v in range(b.n)]
    seen = [False] * b.n
    out = []
    for s in range(b.n):
        if seen[s] or not empty[s]:
            continue
        region, exits, stack = [], [], [s]
        seen[s] = True
        while stack:
            v = stack.pop()
            region.append(v)
            for e in b.at[v]:
                if b.state[e] != UNDECIDED:
                    continue
                w = b.other(e, v)
                if empty[w]:
                    if not seen[w]:
                        seen[w] = True
                        stack.append(w)
                else:
                    exits.append(e)
        out.append((region, exits))
    return out


def _stranded(b: _Board) -> tuple[list[int], list[int], list[int]] | None:
    """Tier 3: a region of empty cells with exactly two ways in (both lines), or fewer (a contradiction)."""
    for region, exits in _regions(b):
        if len(exits) < 2:
            raise _Contradiction("a region no path can reach", tuple(region))
        if len(exits) == 2:
            return exits, [], region
    return None


class _Open(NamedTuple):
    """What the bottleneck rule and the cut-off check read off the board, once per call."""

    root: list[int]  # each node's segment
    empty: list[bool]  # no line yet and no endpoint
    loose: list[bool]  # an end of a piece of path no endpoint owns yet
    pieces: list[tuple[int, int]]  # such a piece's two ends
    heads: dict[int, list[int]]  # flow -> the nodes of its segments that still need a line


def _open(b: _Board) -> _Open:
    root, flow = b.segments()
    lines = _lines(b)
    loose = [flow[v] < 0 and 0 < lines[v] < b.need[v] for v in range(b.n)]
    ends: dict[int, list[int]] = {}
    heads: dict[int, list[int]] = {}
    for v in range(b.n):
        if loose[v]:
            ends.setdefault(root[v], []).append(v)
        if flow[v] >= 0 and lines[v] < b.need[v]:
            heads.setdefault(flow[v], []).append(v)
    pieces = [(pair[0], pair[1]) for pair in ends.values() if len(pair) == 2]
    return _Open(root, [b.flow_of_end[v] < 0 and lines[v] == 0 for v in range(b.n)], loose, pieces, heads)


def _low_link(adj: Callable[[int], list[tuple[int, int]]], n: int, roots: Iterable[int]
              ) -> tuple[list[int], list[int], list[int], list[bool]]:
    """Tarjan's low-link by depth-first search from each of ``roots`` not yet reached, iteratively
    (``adj(v)``: v's (neighbour, link id) pairs, ids unique and not negative, nodes below ``n``; lists,
    not dicts: this is the rating's hottest loop). Returns, per node, its discovery number (-1 not
    reached), its parent and the link to it (-1 at a root) and whether that link is a bridge."""
    disc = [-1] * n
    low = [0] * n
    up = [-1] * n
    up_link = [-1] * n
    bridged = [False] * n
    seen = 0
    for root in roots:
        if disc[root] >= 0:
            continue
        disc[root] = low[root] = seen
        seen += 1
        stack = [(root, iter(adj(root)))]
        while stack:
            v, it = stack[-1]
            via = up_link[v]
            for w, e in it:
                if e == via:  # the tree link back
                    continue
                d = disc[w]
                if d >= 0:
                    if d < low[v]:
                        low[v] = d
                else:
                    disc[w] = low[w] = seen
                    seen += 1
                    up[w] = v
                    up_link[w] = e
                    stack.append((w, iter(adj(w))))
                    break
            else:
                stack.pop()
                u = up[v]
                if u >= 0:
                    if low[v] < low[u]:
                        low[u] = low[v]
                    if low[v] > disc[u]:
                        bridged[v] = True
    return disc, up, up_link, bridged


def _path_bridges(adj: Callable[[int], list[tuple[int, int]]], n: int, h1: int, h2: int) -> list[int] | None:
    """The links that every h1-h2 path crosses (``adj`` as for :func:`_low_link`), from h2 back to h1;
    None when h2 cannot be reached. A bridge on one h1-h2 path separates h1 from h2, so they are the
    bridges on the depth-first search's path."""
    disc, up, up_link, bridged = _low_link(adj, n, (h1,))
    if disc[h2] < 0:
        return None
    out, v = [], h2
    while v != h1:
        if bridged[v]:
            out.append(up_link[v])
        v = up[v]
    return out


def _two_edge_parts(base: list[list[tuple[int, int]]], nodes: list[int]) -> tuple[list[int], int, list[tuple[int, int, int]]]:
    """The 2-edge-connected parts of a graph on ``nodes`` (``base[v]``: v's (neighbour, link id) pairs):
    each node's part (-1 off the graph), the number of parts, and the bridges as (part, part, link id)."""
    n = len(base)
    _, up, up_link, bridged = _low_link(base.__getitem__, n, nodes)
    bridge_ids = {up_link[v] for v in range(n) if bridged[v]}
    part = [-1] * n
    parts = 0
    for s in nodes:
        if part[s] >= 0:
            continue
        part[s] = parts
        todo = [s]
        while todo:
            v = todo.pop()
            for w, e in base[v]:
                if part[w] < 0 and e not in bridge_ids:
                    part[w] = parts
                    todo.append(w)
        parts += 1
    return part, parts, [(part[up[v]], part[v], up_link[v]) for v in range(n) if bridged[v]]


def _bottleneck(b: _Board) -> tuple[list[int], int, list[int]] | None:
    """Tier 4: a link every way between an unfinished flow's heads crosses.

    The graph a flow may pass through (empty cells, loose pieces of path end to end) is the same for
    every flow, only its two heads join it; it is shrunk once to its 2-edge-connected parts joined by
    its bridges (no link inside a part can separate anything, with or without the heads), so each
    flow's search runs on that small tree of parts plus its heads."""
    root, empty, loose_end, pieces, heads = _open(b)
    nlinks = len(b.links)
    passable = [empty[v] or loose_end[v] for v in range(b.n)]
    base: list[list[tuple[int, int]]] = [[] for _ in range(b.n)]
    for e, (u, v) in enumerate(b.links):
        if b.state[e] == UNDECIDED and passable[u] and passable[v] and root[u] != root[v]:
            base[u].append((v, e))
            base[v].append((u, e))
    for i, (a, c) in enumerate(pieces):  # a piece's own ids, above every link's: never the answer
        base[a].append((c, nlinks + i))
        base[c].append((a, nlinks + i))
    part, parts, bridges = _two_edge_parts(base, [v for v in range(b.n) if passable[v]])
    tree: list[list[tuple[int, int]]] = [[] for _ in range(parts + 2)]
    for p, q, e in bridges:
        tree[p].append((q, e))
        tree[q].append((p, e))
    for k, hs in sorted(heads.items()):
        if len(hs) != 2:
            raise _Contradiction("a flow with a loose end", tuple(hs))
        h1, h2 = hs
        node = {h1: parts, h2: parts + 1}
        extra: dict[int, list[tuple[int, int]]] = {}
        for h in hs:
            for e in b.at[h]:
                w = b.other(e, h)
                if b.state[e] == UNDECIDED and (passable[w] or w in hs) and root[h] != root[w] and \
                        not (w in hs and h > w):  # the link between the two heads once
                    x, y = node[h], node[w] if w in hs else part[w]
                    extra.setdefault(x, []).append((y, e))
                    extra.setdefault(y, []).append((x, e))

        def adj(v: int, extra: dict = extra) -> list[tuple[int, int]]:
            return tree[v] + extra[v] if v in extra else tree[v]

        found = _path_bridges(adj, parts + 2, parts, parts + 1)
        if found is None:
            raise _Contradiction(f"flow {b.labels[k]} is cut off", (h1, h2))
        found = [e for e in found if e < nlinks]
        if found:
            return [found[-1]], k, [h1, h2]
    return None


def _apply(b: _Board, lines: list[int], cuts: list[int]) -> None:
    for e in lines:
        if b.state[e] == CUT:
            raise _Contradiction("a link both used and ruled out", b.links[e])
        b.state[e] = LINE
    for e in cuts:
        if b.state[e] == LINE:
            raise _Contradiction("a link both used and ruled out", b.links[e])
        b.state[e] = CUT


def _easy(b: _Board, up_to: int) -> tuple[int, list[int], list[int], int | None, list[int]] | None:
    """The first deduction of tier at most ``up_to`` (tiers 1-4): (tier, lines, cuts, flow, because)."""
    found = _forced(b)
    if found:
        return 1, found[0], found[1], None, [found[2]]
    found = _dead_ends(b)
    if found:
        return 2, found[0], found[1], None, [found[2]]
    if up_to >= 3:
        stranded = _stranded(b)
        if stranded:
            return 3, stranded[0], stranded[1], None, stranded[2]
    if up_to >= 4:
        neck = _bottleneck(b)
        if neck:
            return 4, neck[0], [], neck[1], neck[2]
    return None


def _cut_off(b: _Board) -> None:
    """Raise _Contradiction when an unfinished flow's heads cannot meet through empty cells and loose pieces."""
    root, empty, loose_end, pieces, heads = _open(b)
    # components of the cells any flow may pass through (empty cells, loose pieces end to end)
    comp = list(range(b.n))
    find = _finder(comp)
    shared = [empty[v] or loose_end[v] for v in range(b.n)]
    for e, (u, v) in enumerate(b.links):
        if b.state[e] == UNDECIDED and shared[u] and shared[v] and root[u] != root[v]:
            comp[find(u)] = find(v)
    for a, c in pieces:
        comp[find(a)] = find(c)

    def touches(h: int) -> set[int]:
        return {find(w) for e in b.at[h] if b.state[e] == UNDECIDED for w in (b.other(e, h),) if shared[w]}

    for k, hs in heads.items():
        if len(hs) != 2:
            raise _Contradiction("a flow with a loose end", tuple(hs))
        h1, h2 = hs
        direct = any(b.state[e] == UNDECIDED and b.other(e, h1) == h2 for e in b.at[h1]) and root[h1] != root[h2]
        if not direct and not touches(h1) & touches(h2):
            raise _Contradiction(f"flow {b.labels[k]} is cut off", (h1, h2))


def _propagate(b: _Board) -> None:
    """Tiers 1 and 2 to their fixpoint, fast: forced moves from a queue of the cells whose links changed
    (counts kept as links are decided), then every dead end at once; raises _Contradiction.

    The rules only ever add decisions, so their fixpoint, and whether it holds a contradiction, does not
    depend on the order they are applied in: this is what :func:`_easy` reaches one step at a time."""
    lines = [0] * b.n
    free = [0] * b.n
    for e, (u, v) in enumerate(b.links):
        s = b.state[e]
        if s == LINE:
            lines[u] += 1
            lines[v] += 1
        elif s == UNDECIDED:
            free[u] += 1
            free[v] += 1

    def decide(e: int, value: int, queue: list[int]) -> None:
        b.state[e] = value
        for w in b.links[e]:
            free[w] -= 1
            lines[w] += value == LINE
            queue.append(w)

    queue = list(range(b.n))
    while True:
        while queue:
            v = queue.pop()
            need = b.need[v]
            if lines[v] > need or lines[v] + free[v] < need:
                raise _Contradiction("a cell with no way out" if lines[v] + free[v] < need
                                     else "a cell with too many lines", (v,))
            if free[v] and (lines[v] == need or lines[v] + free[v] == need):
                value = CUT if lines[v] == need else LINE
                for e in b.at[v]:
                    if b.state[e] == UNDECIDED:
                        decide(e, value, queue)
        root, flow = b.segments()
        dead = [e for e, (u, v) in enumerate(b.links) if b.state[e] == UNDECIDED and
                (root[u] == root[v] or (flow[u] >= 0 and flow[v] >= 0 and flow[u] != flow[v]))]
        if not dead:
            return
        for e in dead:  # a cut joins no segments: every dead end found stays one
            decide(e, CUT, queue)


def _settle(b: _Board, up_to: int = 3) -> None:
    """Apply tiers 1 to ``up_to`` until nothing changes, then the global checks (regions, flows cut off);
    raises _Contradiction."""
    while True:
        _propagate(b)  # tiers 1-2 have nothing left after it: a stranded region or a bottleneck, if any
        stranded = _stranded(b) if up_to >= 3 else None
        if stranded:
            _apply(b, stranded[0], stranded[1])
            continue
        neck = _bottleneck(b) if up_to >= 4 else None
        if neck is None:
            break
        _apply(b, neck[0], [])
    if up_to < 4:  # the bottleneck rule, run last on this very board, already found every flow's heads joined
        _cut_off(b)


def _trials(b: _Board, truth: list[bool], deadline: float | None = None
            ) -> tuple[list[int], list[int], str, tuple[int, ...]] | int:
    """Tier 5, else tier 6's link: (lines, cuts, why, cells) of the first link whose one value makes tiers
    1-3 fail, else tiers 1-4; else the link to guess (:func:`_guess`).

    Links at a head (a cell with a line, or an endpoint) are tried first, as a person looks there.
    Only each link's value against the solution is tried: the rules are sound, so the solution's
    own value never fails (the guess's sweep tries those too, and a failure there is still a step).
    Each trial applies the rules to their end in compiled code
    (:func:`flowgraph.kernels.trials.sweep_trials`: :func:`_settle`'s rules, in its
    order, to the same end); the sweep with tiers 1-4 starts each trial where tiers 1-3 left it, as
    :func:`_settle` applies tiers 1-3 to their end before its first bottleneck anyway.
    Raises SearchLimitError past ``deadline`` (``time.perf_counter`` seconds; checked every 256 trials)."""
    from .. import kernels
    from ..kernels.trials import WHY

    k = b.kernel()
    state = np.array(b.state, np.int8)
    cells = np.zeros(b.n, np.int64)
    at_head = [b.flow_of_end[v] >= 0 or b.count(v)[0] > 0 for v in range(b.n)]
    todo = [e for e in range(len(b.links)) if b.state[e] == UNDECIDED]
    todo.sort(key=lambda e: not (at_head[b.links[e][0]] or at_head[b.links[e][1]]))
    order = np.array(todo, np.int64)
    ends = np.empty((len(todo), len(b.links)), np.int8)

    def sweep(values: np.ndarray, up_to: int, from_ends: bool) -> tuple[list[int], list[int], str, tuple[int, ...]] | None:
        for lo in range(0, len(todo), 256):
            if deadline is not None and lo and time.perf_counter() > deadline:
                raise SearchLimitError("time", {"trials": lo})
            i, code, count, flow = kernels.sweep_trials(k.links, k.at_start, k.at_link, k.need, k.end_flow, state, up_to,
                                                       order, values, lo, min(lo + 256, len(todo)), from_ends, ends, cells)
            if code:
                why = str(WHY[code]).format(b.labels[flow])
                found = tuple(cells[:count].tolist())
                e = todo[i]
                return ([], [e], why, found) if values[i] == LINE else ([e], [], why, found)
        return None

    true = np.array([LINE if truth[e] else CUT for e in todo], np.int8)
    found = sweep(-true, 3, False) or sweep(-true, 4, True) or sweep(true, 4, False)
    if found is not None:
        return found
    return _guess(todo, ends)


def explain(puzzle: Puzzle, limits: Limits | None = None, *, solution: Solution | None = None,
            unique: bool | None = None) -> Explanation:
    """The solving path of ``puzzle``, easiest technique first at each step.

    Parameters
    ----------
    puzzle : Puzzle
        Any family under Flow Free rules (square, hex, warps, bridges, holes).
    limits : Limits, optional
        The budget for the whole explanation: the solution, the uniqueness check (at most
        :data:`UNIQUE_SECONDS`, and :data:`UNIQUE_SHARE` of the time left; past it the uniqueness
        is unknown) and the steps.
    solution : Solution, optional
        A verified solution already at hand (a hint's, a generator's): not solved for again.
    unique : bool, optional
        Whether the puzzle is known to be unique: not counted again.

    Returns
    -------
    Explanation
        Its steps decide every link; each agrees with :attr:`Explanation.solution`.

    Raises
    ------
    RulesError
        Numberlink rules (empty cells make the degree rule "none or two": not explained yet).
    UnsolvableError
        The puzzle has no solution.
    SearchLimitError
        The time limit ran out (solving, or before the last step).
    """
    from ..engines import solve_puzzle
    from .uniqueness import count_solutions

    if not puzzle.rules.fills_every_cell:
        raise RulesError("explain follows Flow Free's rules only (every cell filled), not numberlink")
    t0 = time.perf_counter()
    limits = limits or Limits()
    deadline = None if limits.time_limit_s is None else t0 + limits.time_limit_s
    if solution is None:
        solution = solve_puzzle(puzzle, "auto", limits)
    if unique is None:
        budget = UNIQUE_SECONDS if deadline is None else min(UNIQUE_SECONDS, UNIQUE_SHARE * (deadline - time.perf_counter()))
        unique = {"unique": True, "multiple": False}.get(
            count_solutions(puzzle, 2, replace(limits, time_limit_s=max(0.01, budget))).verdict)
    b = _Board(puzzle)
    truth = _truth(b, solution)
    steps: list[Step] = []
    while not b.done():
        if deadline is not None and time.perf_counter() > deadline:
            raise SearchLimitError("time", {"seconds": round(time.perf_counter() - t0, 6), "steps": len(steps)})
        steps.append(_step(b, truth, unique, deadline))
    return Explanation(tuple(steps), solution, unique)


def _in_sight(b: _Board) -> int:
    """The easy deductions on ``b``: cells with a forced move (tier 1) plus dead-end links (tier 2).

    One pass over the cells and one over the links; a board that already breaks a rule counts 0.
    """
    count = 0
    for v in range(b.n):
        lines, open_ = b.count(v)
        count += bool(open_) and (lines == b.need[v] or lines + open_ == b.need[v])
    try:
        root, flow = b.segments()
    except _Contradiction:
        return 0
    for e, (u, v) in enumerate(b.links):
        if b.state[e] == UNDECIDED and (root[u] == root[v] or (flow[u] >= 0 and flow[v] >= 0 and flow[u] != flow[v])):
            count += 1
    return count


def _step(b: _Board, truth: list[bool], unique: bool | None, deadline: float | None) -> Step:
    """The next step on ``b`` (the easiest technique that decides something), applied to ``b``."""
    in_sight = _in_sight(b)
    found = _easy(b, 4)
    if found is not None:
        tier, lines, cuts, k, cells = found
        note = _note(tier, b, lines, cuts, cells)
        because = tuple(cells)
    else:
        trial = _trials(b, truth, deadline)
        if not isinstance(trial, int):
            lines, cuts, why, because = trial
            tier = 5
            k = None
            e = (lines or cuts)[0]
            note = (f"if {_name(b, e)} were {'ruled out' if lines else 'a line'}, {why}")
        else:
            e = trial
            lines, cuts = ([e], []) if truth[e] else ([], [e])
            tier, k, because = 6, None, b.links[e]
            note = f"{_name(b, e)} {'is a line' if truth[e] else 'is ruled out'}: {GUESS_NOTES[unique]}"
    flow = k if k is not None else _flow_of(b, lines)
    _apply(b, lines, cuts)
    return Step(TECHNIQUES[tier - 1], tier, b.labels[flow] if flow is not None and flow >= 0 else None,
                tuple(_pair(b, e) for e in lines), tuple(_pair(b, e) for e in cuts),
                tuple(b.nodes[v] for v in because), note, in_sight)


def _truth(b: _Board, solution: Solution) -> list[bool]:
    """Per link of ``b``: whether ``solution`` uses it."""
    number = solution.puzzle.cell_index.number
    used = {frozenset((number[u], number[v])) for path in solution.paths.values() for u, v in itertools.pairwise(path)}
    return [frozenset(link) in used for link in b.links]


def next_steps(solution: Solution, drawn: Iterable[tuple[Node, Node]], limits: Limits | None = None,
               unique: bool | None = None) -> list[Step]:
    """The steps a person takes next on a board where the links ``drawn`` are lines: up to and
    including the first that draws a line (a step that only rules links out is not a move yet).

    Parameters
    ----------
    solution : Solution
        A verified solution of the puzzle (Flow Free rules); the links drawn that it does not use
        are left out (the caller says so: with one solution they cannot be finished).
    drawn : iterable of (Node, Node)
        Links the player has drawn (pairs of neighbouring nodes).
    limits : Limits, optional
        Its ``time_limit_s`` bounds the search for the steps.
    unique : bool, optional
        Whether the puzzle is known to be unique (only tier 6's words use it).

    Returns
    -------
    list of Step
        Empty when the drawn links already decide the whole board.

    Raises
    ------
    SearchLimitError
        The time limit ran out first.
    """
    deadline = None if limits is None or limits.time_limit_s is None else time.perf_counter() + limits.time_limit_s
    b = _Board(solution.puzzle)
    truth = _truth(b, solution)
    number = solution.puzzle.cell_index.number
    index = {frozenset(link): e for e, link in enumerate(b.links)}
    for u, v in drawn:
        e = index.get(frozenset((number.get(u, -1), number.get(v, -2))))
        if e is not None and truth[e]:
            b.state[e] = LINE
    steps: list[Step] = []
    while not b.done():
        if deadline is not None and time.perf_counter() > deadline:
            raise SearchLimitError("time", {"steps": len(steps)})
        steps.append(_step(b, truth, unique, deadline))
        if steps[-1].lines:
            break
    return steps


def replay(found: Explanation) -> list[str]:
    """Replay an explanation's steps against its solution: what disagrees, in words (empty when all agree).

    Each step's technique matches its tier, decides something, makes lines only of links the solution
    uses and rules out only links it does not, and decides no link decided before; the steps
    together decide every link of the board.

    Returns
    -------
    list of str
        One sentence per problem, the step numbered from 1.
    """
    puzzle = found.solution.puzzle
    used = {frozenset(pair) for path in found.solution.paths.values() for pair in itertools.pairwise(path)}
    problems, decided = [], set()
    for i, step in enumerate(found.steps, 1):
        if step.technique != TECHNIQUES[step.tier - 1]:
            problems.append(f"step {i}: technique {step.technique!r} is not tier {step.tier}'s")
        if not step.lines and not step.cuts:
            problems.append(f"step {i}: decides nothing")
        problems += [f"step {i}: makes {pair} a line, which the solution does not use"
                     for pair in step.lines if frozenset(pair) not in used]
        problems += [f"step {i}: rules out {pair}, which the solution uses" for pair in step.cuts if frozenset(pair) in used]
        links = [frozenset(pair) for pair in step.lines + step.cuts]
        problems += [f"step {i}: decides {tuple(link)} again" for link in links if link in decided]
        decided.update(links)
    left = {frozenset(e) for e in puzzle.graph.edges} - decided
    if left:
        problems.append(f"the steps leave {len(left)} links undecided")
    return problems


def _guess(todo: list[int], ends: np.ndarray) -> int:
    """Tier 6's link: of the undecided links ``todo``, the one whose true value lets tiers 1-4 decide the
    most (``ends``: each one's trial with that value, to its end), as a person guesses where a guess tells
    most; ties to the first link."""
    decided = np.count_nonzero(ends, axis=1)
    return todo[max(range(len(todo)), key=lambda i: (int(decided[i]), -todo[i]))]


def _pair(b: _Board, e: int) -> tuple[Node, Node]:
    u, v = b.links[e]
    return b.nodes[u], b.nodes[v]


def _flow_of(b: _Board, lines: list[int]) -> int | None:
    if not lines:
        return None
    try:
        root, flow = b.segments()
    except _Contradiction:
        return None
    u, v = b.links[lines[0]]
    return flow[u] if flow[u] >= 0 else flow[v] if flow[v] >= 0 else None


def _cell(b: _Board, v: int) -> str:
    line, col = b.nodes[v][:2]
    return f"({line},{col})"


def _name(b: _Board, e: int) -> str:
    u, v = b.links[e]
    return f"{_cell(b, u)}-{_cell(b, v)}"


def _note(tier: int, b: _Board, lines: list[int], cuts: list[int], cells: list[int]) -> str:
    if tier == 1:
        v = cells[0]
        if lines:
            return f"{_cell(b, v)} has only {len(lines)} way{'s' if len(lines) != 1 else ''} left and needs them"
        return f"{_cell(b, v)} has all its lines"
    if tier == 2:
        return f"{_name(b, cuts[0])} would close a loop or join two flows"
    if tier == 3:
        size = f"{len(cells)} cell{'s' if len(cells) != 1 else ''}"
        return f"the empty region of {size} at {_cell(b, cells[0])} has only two ways in"
    return f"every way between the flow's heads {_cell(b, cells[0])} and {_cell(b, cells[1])} crosses {_name(b, lines[0])}"


def explanation_json(path: str, found: Explanation) -> dict:
    """The object ``flowgraph explain --json`` prints: positions as ``[line, column]`` (as ``solve --json``)."""

    def at(node: Node) -> list[int]:
        return [int(node[0]), int(node[1])]

    return {
        "puzzle": path,
        "status": "explained",
        "steps": [{"technique": s.technique, "tier": s.tier, "flow": s.flow,
                   "links": [[at(u), at(v)] for u, v in s.lines], "cuts": [[at(u), at(v)] for u, v in s.cuts],
                   "because": [at(n) for n in s.because], "note": s.note, "in_sight": s.in_sight}
                  for s in found.steps],
        "counts": found.counts,
        "unique": found.unique,
        "rating": found.rating,
        "tier": found.tier,
        "tight": round(found.tight, 4),
        "paths": found.lengths,
    }
