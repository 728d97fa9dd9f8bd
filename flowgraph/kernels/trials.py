"""Tiers 1-4 of ``flowgraph explain`` to their end on one board, compiled: the one-step contradiction's trial.

:mod:`flowgraph.authoring.explain` tries each undecided link both ways and
applies the rules of tiers 1 to 3 (then 1 to 4) until nothing changes; a
contradiction proves the link the other way (tier 5). Rating a large board
runs that thousands of times, each a few passes over the whole board, so the
passes are here, over plain arrays, compiled with numba; the rules are the
ones :mod:`flowgraph.authoring.explain` states, in the same order, so a trial
ends with the same board and the same contradiction as applying them one by
one there:

1. forced move: a cell with as many lines as it needs has its other links
   ruled out, one with only as many open links as it needs uses them all
   (Numberlink: an empty cell with one way in stays empty);
2. dead end: a link that would close a loop or join two flows is ruled out;
3. stranded region: a region of empty cells with two links leading in uses
   both (fewer: a contradiction; Numberlink: with at most one, it stays empty);
4. bottleneck: a link every way between an unfinished flow's heads crosses
   is a line (the flow's heads cut off: a contradiction). The graph a flow
   may pass through (empty cells, loose pieces of path end to end) is the
   same for every flow; it is shrunk once to its 2-edge-connected parts
   joined by its bridges (Tarjan's low-link), and each flow's question is
   asked of that tree of parts with the flow's two heads added;
5. with tiers 1-3 only, the end is checked for a flow whose heads cannot
   meet through empty cells and loose pieces.

A link's state is an int8 of :class:`.codes.LinkState`: ``UNDECIDED``, ``LINE`` or ``CUT``.
"""

from __future__ import annotations

import numpy as np

from .codes import CUT, LINE, UNDECIDED
from .codes import TRIAL_CUT_OFF as _CUT_OFF
from .codes import TRIAL_LOOP as _LOOP
from .codes import TRIAL_LOOSE as _LOOSE
from .codes import TRIAL_NO_PATH as _NO_PATH
from .codes import TRIAL_NO_WAY_OUT as _NO_WAY_OUT
from .codes import TRIAL_TOO_MANY as _TOO_MANY
from .codes import TRIAL_TWO_FLOWS as _TWO_FLOWS
from .entry_points import kernel
from .jit import njit
from .trial_bottleneck import bottleneck_trial, trial_heads, trial_passable

__all__ = ["settle_trial", "sweep_trials"]

@njit(cache=True)
def _find(comp, x):  # pragma: no cover - compiled
    while comp[x] != x:
        comp[x] = comp[comp[x]]
        x = comp[x]
    return x


@njit(cache=True)
def trial_segments(links, state, end_flow, root, rflow, cells):  # pragma: no cover - compiled
    """Each node's segment (``root``, a component of lines) and each segment's flow (``rflow`` by root, -1
    unknown); returns the number of cells of a contradiction (a loop, two flows meeting), 0 if none."""
    n = root.shape[0]
    for v in range(n):
        root[v] = v
    for e in range(links.shape[0]):
        if state[e] == LINE:
            u, v = links[e, 0], links[e, 1]
            ru, rv = _find(root, u), _find(root, v)
            if ru == rv:
                cells[0], cells[1] = u, v
                return _LOOP
            root[ru] = rv
    for v in range(n):
        root[v] = _find(root, v)
        rflow[v] = -1
    for v in range(n):
        k = end_flow[v]
        if k >= 0:
            r = root[v]
            if rflow[r] >= 0 and rflow[r] != k:
                cells[0] = v
                return _TWO_FLOWS
            rflow[r] = k
    return 0


@njit(cache=True)
def _decide(links, state, lines, free, queue, qn, e, value):  # pragma: no cover - compiled
    state[e] = value
    for j in range(2):
        w = links[e, j]
        free[w] -= 1
        if value == LINE:
            lines[w] += 1
        queue[qn] = w
        qn += 1
    return qn


@njit(cache=True)
def trial_counts(links, state, lines, free):  # pragma: no cover - compiled
    """Per node: its lines and its undecided links."""
    lines[:] = 0
    free[:] = 0
    for e in range(links.shape[0]):
        s = state[e]
        if s == LINE:
            lines[links[e, 0]] += 1
            lines[links[e, 1]] += 1
        elif s == UNDECIDED:
            free[links[e, 0]] += 1
            free[links[e, 1]] += 1


@njit(cache=True)
def broken_trial(lines, free, nd, empty_ok):  # pragma: no cover - compiled
    """Tier 1's contradiction at a cell with ``lines`` lines and ``free`` undecided links that needs ``nd`` (1 an
    endpoint, 2 a cell on a path; a cell may also stay empty when ``empty_ok``, Numberlink): its code, else 0."""
    if empty_ok and nd == 2:
        if lines > 2:
            return _TOO_MANY
        return _NO_WAY_OUT if lines == 1 and free == 0 else 0
    if lines > nd:
        return _TOO_MANY
    return _NO_WAY_OUT if lines + free < nd else 0


@njit(cache=True)
def forced_trial(lines, free, nd, empty_ok):  # pragma: no cover - compiled
    """Tier 1's forced move at such a cell: the value all its undecided links take (``CUT`` when it has its lines,
    ``LINE`` when it needs every way left; under ``empty_ok``, ``CUT`` too for an empty cell with one way in: it
    stays empty), else ``UNDECIDED``."""
    if free == 0:
        return UNDECIDED
    if empty_ok and nd == 2:
        if lines == 2:
            return CUT
        if free == 1:
            return LINE if lines == 1 else CUT
        return UNDECIDED
    if lines == nd:
        return CUT
    return LINE if lines + free == nd else UNDECIDED


@njit(cache=True)
def dead_end_trial(links, root, rflow, e):  # pragma: no cover - compiled
    """Tier 2: whether link ``e`` would close a loop or join two flows (``root``, ``rflow`` as :func:`trial_segments`)."""
    u, v = links[e, 0], links[e, 1]
    fu, fv = rflow[root[u]], rflow[root[v]]
    return root[u] == root[v] or (fu >= 0 and fv >= 0 and fu != fv)


@njit(cache=True)
def _propagate(links, at_start, at_link, need, end_flow, empty_ok, state,  # pragma: no cover - compiled
               root, rflow, lines, free, queue, cells, seeds):
    """Tiers 1 and 2 to their end (forced moves from a queue of changed cells, first ``seeds``, then every dead
    end at once); returns a contradiction's code (cells in ``cells``), else 0 with ``lines``, ``root`` and
    ``rflow`` current."""
    m = links.shape[0]
    trial_counts(links, state, lines, free)
    qn = 0
    for v in seeds:
        queue[qn] = v
        qn += 1
    while True:
        while qn > 0:
            qn -= 1
            v = queue[qn]
            code = broken_trial(lines[v], free[v], need[v], empty_ok)
            if code:
                cells[0] = v
                return code
            value = forced_trial(lines[v], free[v], need[v], empty_ok)
            if value != UNDECIDED:
                for i in range(at_start[v], at_start[v + 1]):
                    e = at_link[i]
                    if state[e] == UNDECIDED:
                        qn = _decide(links, state, lines, free, queue, qn, e, value)
        code = trial_segments(links, state, end_flow, root, rflow, cells)
        if code:
            return code
        any_dead = False
        for e in range(m):
            if state[e] == UNDECIDED and dead_end_trial(links, root, rflow, e):
                # a cut joins no segments: every dead end found stays one
                qn = _decide(links, state, lines, free, queue, qn, e, CUT)
                any_dead = True
        if not any_dead:
            return 0


@njit(cache=True)
def stranded_trial(links, at_start, at_link, end_flow, empty_ok, state, lines, cells, exits):  # pragma: no cover
    """Tier 3 on the first region of empty cells (in node order) with at most two links leading in (under
    ``empty_ok``: at most one), the region in ``cells``. Two: both are lines (returns -1, the links in ``exits`` in
    the order met); fewer: a contradiction (returns its code), or under ``empty_ok`` no path can pass through, so
    the region stays empty and all its links are ruled out (returns -2); 0: none. Also returns how many cells the
    region has. Decides nothing itself."""
    n = lines.shape[0]
    empty = np.zeros(n, np.bool_)
    for v in range(n):
        empty[v] = end_flow[v] < 0 and lines[v] == 0
    seen = np.zeros(n, np.bool_)
    stack = np.empty(n, np.int64)
    for s in range(n):
        if seen[s] or not empty[s]:
            continue
        seen[s] = True
        stack[0] = s
        sn, rn, xn, inner = 1, 0, 0, 0
        while sn > 0:
            sn -= 1
            v = stack[sn]
            cells[rn] = v
            rn += 1
            for i in range(at_start[v], at_start[v + 1]):
                e = at_link[i]
                if state[e] != UNDECIDED:
                    continue
                w = links[e, 0] + links[e, 1] - v
                if empty[w]:
                    inner += 1
                    if not seen[w]:
                        seen[w] = True
                        stack[sn] = w
                        sn += 1
                else:
                    if xn < 2:
                        exits[xn] = e
                    xn += 1
        if xn < 2 and empty_ok and xn + inner == 0:
            continue  # cells already left empty: nothing to decide
        if xn < 2:
            return (-2 if empty_ok else _NO_PATH), rn
        if xn == 2 and not empty_ok:
            return -1, rn
    return 0, 0


@njit(cache=True)
def _cut_off(links, at_start, at_link, need, end_flow, state,  # pragma: no cover - compiled
             lines, root, rflow, cells):
    """A flow whose heads cannot meet through empty cells and loose pieces: (its code, heads in ``cells``,
    the flow), else (0, -1)."""
    n, m = need.shape[0], links.shape[0]
    passable = np.zeros(n, np.bool_)
    mate = np.empty(n, np.int64)
    trial_passable(need, end_flow, lines, root, rflow, passable, mate)
    comp = np.arange(n)
    for e in range(m):
        u, v = links[e, 0], links[e, 1]
        if state[e] == UNDECIDED and passable[u] and passable[v] and root[u] != root[v]:
            comp[_find(comp, u)] = _find(comp, v)
    for v in range(n):
        if mate[v] > v:
            comp[_find(comp, v)] = _find(comp, mate[v])
    k_flows = end_flow.max() + 1
    head1 = np.empty(k_flows, np.int64)
    head2 = np.empty(k_flows, np.int64)
    order = np.empty(k_flows, np.int64)
    mark = np.full(n, -1, np.int64)
    for j in range(trial_heads(need, lines, root, rflow, head1, head2, order)):
        k = order[j]
        h1, h2 = head1[k], head2[k]
        if h2 < 0:
            cells[0] = h1
            return _LOOSE, k
        direct = False
        for i in range(at_start[h1], at_start[h1 + 1]):
            e = at_link[i]
            if state[e] == UNDECIDED and links[e, 0] + links[e, 1] - h1 == h2 and root[h1] != root[h2]:
                direct = True
        if direct:
            continue
        for i in range(at_start[h1], at_start[h1 + 1]):
            e = at_link[i]
            w = links[e, 0] + links[e, 1] - h1
            if state[e] == UNDECIDED and passable[w]:
                mark[_find(comp, w)] = j
        met = False
        for i in range(at_start[h2], at_start[h2 + 1]):
            e = at_link[i]
            w = links[e, 0] + links[e, 1] - h2
            if state[e] == UNDECIDED and passable[w] and mark[_find(comp, w)] == j:
                met = True
        if not met:
            cells[0], cells[1] = h1, h2
            return _CUT_OFF, k
    return 0, -1


@njit(cache=True)
def _empty(at_start, at_link, state, cells, size):  # pragma: no cover - compiled
    """Rule out every undecided link of the cells ``cells[:size]`` (a region no path passes through)."""
    for j in range(size):
        v = cells[j]
        for i in range(at_start[v], at_start[v + 1]):
            if state[at_link[i]] == UNDECIDED:
                state[at_link[i]] = CUT


@njit(cache=True)
def settle_trial(links, at_start, at_link, need, end_flow, empty_ok, state, up_to, cells, seeds):  # pragma: no cover
    """Apply tiers 1 to ``up_to`` (3 or 4) to ``state`` until nothing changes, then (``up_to`` 3) the cut-off check.

    The end is the one explain's steps (:func:`.steps.first_step`, applied one by one) reach: the rules
    only add decisions. The forced moves start from the cells ``seeds``: every node (0 to nodes - 1);
    or, when the board was at the end of tiers 1-2 but for the links decided since, their nodes (the
    same end: the other cells would pop with nothing to do).

    Parameters
    ----------
    links : int64 array, shape (links, 2)
        Each link's two nodes.
    at_start, at_link : int64 arrays, shapes (nodes + 1,) and (2 * links,)
        Each node's links, ``at_link[at_start[v]:at_start[v + 1]]``, in link order.
    need : int64 array, shape (nodes,)
        Lines a node needs: 1 at an endpoint, else 2.
    end_flow : int64 array, shape (nodes,)
        The flow of an endpoint, else -1.
    empty_ok : bool
        A cell may stay empty (Numberlink's rules), else every cell is on a path (Flow Free's).
    state : int8 array, shape (links,)
        Each link's :class:`.codes.LinkState`; decided further in place.
    up_to : int
        The hardest tier applied.
    cells : int64 array, shape (nodes,)
        Out: a contradiction's cells.
    seeds : int64 array, shape (at most nodes,)
        The cells the forced moves start from (the queue pops the last first).

    Returns
    -------
    code : int
        0 when the board ends without a contradiction, else the index of its words in :data:`.codes.TRIAL_WHY`.
    cells : int
        How many of ``cells`` show where.
    flow : int
        The flow of a contradiction about one (codes 6 and 7), else -1.
    """
    n = need.shape[0]
    root = np.empty(n, np.int64)
    rflow = np.empty(n, np.int64)
    lines = np.empty(n, np.int64)
    free = np.empty(n, np.int64)
    queue = np.empty(n + 2 * links.shape[0], np.int64)
    exits = np.empty(2, np.int64)
    first = True
    while True:
        code = _propagate(links, at_start, at_link, need, end_flow, empty_ok, state, root, rflow, lines, free, queue, cells,
                          seeds if first else np.arange(n))  # a later round (rare): every cell
        first = False
        if code:
            return code, 2 if code == _LOOP else 1, -1
        if up_to >= 3:
            code, size = stranded_trial(links, at_start, at_link, end_flow, empty_ok, state, lines, cells, exits)
            if code > 0:
                return code, size, -1
            if code == -1:
                state[exits[0]] = LINE
                state[exits[1]] = LINE
                continue
            if code == -2:
                _empty(at_start, at_link, state, cells, size)
                continue
        if up_to < 4:
            break
        code, k, e = bottleneck_trial(links, at_start, at_link, need, end_flow, state, lines, root, rflow, cells)
        if code < 0:
            state[e] = LINE
        if code > 0:
            return code, 1 if code == _LOOSE else 2, k
        if code == 0:
            return 0, 0, -1  # the bottleneck rule found every flow's heads joined: nothing is cut off
    code, k = _cut_off(links, at_start, at_link, need, end_flow, state, lines, root, rflow, cells)
    return code, 0 if code == 0 else (1 if code == _LOOSE else 2), k


@kernel("UniTuple(i8, 4)(i8[:, ::1], i8[::1], i8[::1], i8[::1], i8[::1], b1, i1[::1], i8, i8[::1], i1[::1], "
        "i8, i8, b1, i1[:, ::1], i8[::1])")
@njit(cache=True)
def sweep_trials(links, at_start, at_link, need, end_flow, empty_ok, state, up_to, order, values, lo, hi,  # pragma: no cover
                 from_ends, ends, cells):
    """Trials ``lo`` to ``hi`` - 1 of a sweep, in order, up to the first contradiction: trial i sets link
    ``order[i]`` to ``values[i]`` and applies :func:`settle_trial` (tiers 1 to ``up_to``).

    Parameters
    ----------
    links, at_start, at_link, need, end_flow, empty_ok
        The board's graph and rules, as :func:`settle_trial` takes them.
    state : int8 array, shape (links,)
        The board (at the end of tiers 1-2): each trial's start unless ``from_ends``; not changed.
    up_to : int
        The hardest tier applied (3 or 4).
    order : int64 array, shape (trials,)
        Each trial's link.
    values : int8 array, shape (trials,)
        Each trial's value of its link (``LINE`` or ``CUT``).
    lo, hi : int
        The trials run.
    from_ends : bool
        Each trial starts from its row of ``ends`` (where an earlier sweep's trial ended, the link
        already set) instead of from ``state``.
    ends : int8 array, shape (trials, links)
        Out: where each trial ended (a contradiction's row: where it was found).
    cells : int64 array, shape (nodes,)
        Out: the contradiction's cells.

    Returns
    -------
    i : int
        The trial that ran into a contradiction, else ``hi``.
    code, count, flow : int
        As :func:`settle_trial` returns them for trial i (0, 0, -1 when none did).
    """
    none = np.zeros(0, np.int64)
    pair = np.empty(2, np.int64)
    for i in range(lo, hi):
        e = order[i]
        t = ends[i]
        if from_ends:
            seeds = none  # the trial was at rest with tiers 1-3: nothing to start from
        else:
            t[:] = state
            pair[0], pair[1] = links[e, 0], links[e, 1]  # the board was at rest but for this link: its cells
            seeds = pair
        t[e] = values[i]
        code, count, flow = settle_trial(links, at_start, at_link, need, end_flow, empty_ok, t, up_to, cells, seeds)
        if code:
            return i, code, count, flow
    return hi, 0, 0, -1
