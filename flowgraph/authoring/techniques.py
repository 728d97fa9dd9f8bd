"""Explain's techniques, tiers 1-5, on a :class:`.explain_board._Board`: forced moves, dead ends, stranded regions,
bottlenecks (every rule to its end: :func:`_settle`), and the one-step trials (compiled:
:func:`flowgraph.kernels.trials.sweep_trials`). Package-private: :mod:`.explain` is the API.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import NamedTuple

import numpy as np

from ..errors import SearchLimitError
from ..kernels.codes import CUT, LINE, TRIAL_NO_WAY_OUT, TRIAL_TOO_MANY, TRIAL_TWO_FLOWS, UNDECIDED
from .explain_board import _Board, _Contradiction, _finder, _lines, _regions


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
                found = tuple(cells[:count].tolist())
                why = str(WHY[code]).format(b.labels[flow])
                if code in (TRIAL_NO_WAY_OUT, TRIAL_TOO_MANY, TRIAL_TWO_FLOWS):  # one cell shows it: name it
                    why += f" at {b.name(found[0])}"
                e = todo[i]
                return ([], [e], why, found) if values[i] == LINE else ([e], [], why, found)
        return None

    true = np.array([LINE if truth[e] else CUT for e in todo], np.int8)
    false = (LINE + CUT - true).astype(np.int8)
    found = sweep(false, 3, False) or sweep(false, 4, True) or sweep(true, 4, False)
    if found is not None:
        return found
    return _guess(todo, ends)


def _guess(todo: list[int], ends: np.ndarray) -> int:
    """Tier 6's link: of the undecided links ``todo``, the one whose true value lets tiers 1-4 decide the
    most (``ends``: each one's trial with that value, to its end), as a person guesses where a guess tells
    most; ties to the first link."""
    decided = np.count_nonzero(ends, axis=1)
    return todo[max(range(len(todo)), key=lambda i: (int(decided[i]), -todo[i]))]
