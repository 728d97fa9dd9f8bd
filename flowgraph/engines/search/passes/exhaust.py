"""Every solution, by deciding the links around one node at a time in board order; compiled.

The exhaustive link search behind ``validate --unique`` and ``--count``
(:mod:`flowgraph.engines.exhaustive` prepares its arrays and runs it in
slices). Nodes are numbered in board order; at the first node with an
undecided link it tries each set of those links that leaves the node a
valid degree (an endpoint one link, any other node two, or none where
Numberlink's rules let cells stay empty), then propagates:

* a node with two links (an endpoint: one) uses none of the rest; a node
  with one link and one undecided uses it; under Numberlink rules an
  unused node with one undecided link does not use it, under Flow Free's a
  node with exactly two links possible uses both;
* each fragment of path knows its other end (``mate``): a node in the middle
  of one (``-1``), a node on its own (itself), the end of a fragment whose
  other end is a node (that node) or an endpoint of flow ``k`` (``-2 - k``).
  A link that would close a fragment into a cycle, join two flows or enter a
  node in the middle of a fragment is never used;
* ``chord_free`` (Numberlink rules, for the uniqueness proof): no path uses
  two links of a triangle or three of a 4-cycle (its two ends would be
  neighbours that the path does not link), and a solution whose path has a
  chord is not counted.

Every decision is written to a trail and undone on backtracking. The
search runs in slices of ``budget`` decisions, its state kept in the
arrays it is given, so the caller checks the clock and Ctrl-C between
slices.

The scheme (links decided in board order, the other end of each fragment
kept, no U-turn in a 2x2 block) is that of semiexp's numlin_v2 (github
semiexp/numlin_v2, ``src/solver.rs``, ``src/board.rs``), written anew
here for any graph: hex, warps, bridges and walls are only other
neighbours.
"""

from __future__ import annotations

import numpy as np

from .jit import njit

__all__ = ["UNDECIDED", "LINE", "NOLINE", "EXHAUSTED", "CAPPED", "PAUSED", "REGISTERS", "exhaust_pass"]

UNDECIDED, LINE, NOLINE = 0, 1, 2
#: What :func:`exhaust_pass` returns: the search is over, stopped at ``cap`` solutions, or paused.
EXHAUSTED, CAPPED, PAUSED = 0, 1, 2
#: Registers (``regs``): 0 depth, 1 trail length, 2 decisions made, 3 solutions found, 4 started.
REGISTERS = 5
_DEPTH, _TRAIL, _NODES, _FOUND, _STARTED = 0, 1, 2, 3, 4


@njit(cache=True)
def _mate(mate, trail, regs, v, value):  # pragma: no cover - compiled
    old = mate[v]
    if old != value:
        t = regs[_TRAIL]
        trail[t, 0] = 1
        trail[t, 1] = v
        trail[t, 2] = old
        regs[_TRAIL] = t + 1
        mate[v] = value


@njit(cache=True)
def _undo(edge, mate, trail, regs, mark):  # pragma: no cover - compiled
    t = regs[_TRAIL]
    while t > mark:
        t -= 1
        if trail[t, 0] == 0:
            edge[trail[t, 1]] = UNDECIDED
        else:
            mate[trail[t, 1]] = trail[t, 2]
    regs[_TRAIL] = t


@njit(cache=True)
def _push(queue, inq, qn, v):  # pragma: no cover - compiled
    if not inq[v]:
        inq[v] = 1
        queue[qn] = v
        return qn + 1
    return qn


@njit(cache=True)
def _propagate(ptr, nbr, lnk, ends, clue, cyc, cptr, cidx, fill, chord_free,
               edge, mate, trail, regs, queue, inq, qn, pend, pn):  # pragma: no cover - compiled
    """Apply the pending decisions (``pend[:pn]``: link, state) and check the queued nodes until
    nothing changes; False on a contradiction (the caller undoes)."""
    ok = True
    while ok and (pn > 0 or qn > 0):
        if pn > 0:
            pn -= 1
            e = pend[pn, 0]
            state = pend[pn, 1]
            cur = edge[e]
            if cur != UNDECIDED:
                if cur != state:
                    ok = False
                continue
            edge[e] = state
            t = regs[_TRAIL]
            trail[t, 0] = 0
            trail[t, 1] = e
            regs[_TRAIL] = t + 1
            u = ends[e, 0]
            v = ends[e, 1]
            qn = _push(queue, inq, qn, u)
            qn = _push(queue, inq, qn, v)
            if state != LINE:
                continue
            a = mate[u]
            b = mate[v]
            if a == -1 or b == -1 or a == v or (a < -1 and b < -1 and a != b):
                ok = False  # a middle node, a cycle, or two flows joined
                continue
            _mate(mate, trail, regs, u, -1)
            _mate(mate, trail, regs, v, -1)
            if a >= 0:
                _mate(mate, trail, regs, a, b)
                qn = _push(queue, inq, qn, a)
            if b >= 0:
                _mate(mate, trail, regs, b, a)
                qn = _push(queue, inq, qn, b)
            if chord_free:
                for j in range(cptr[e], cptr[e + 1]):
                    c = cidx[j]
                    size = 3 if cyc[c, 3] < 0 else 4
                    lines = 0
                    for k in range(size):
                        lines += edge[cyc[c, k]] == LINE
                    if lines > size - 2:
                        ok = False
                        break
                    if lines == size - 2:
                        for k in range(size):
                            if edge[cyc[c, k]] == UNDECIDED:
                                pend[pn, 0] = cyc[c, k]
                                pend[pn, 1] = NOLINE
                                pn += 1
            continue
        qn -= 1
        x = queue[qn]
        inq[x] = 0
        deg = 1 if clue[x] >= 0 else 0
        undet = 0
        for i in range(ptr[x], ptr[x + 1]):
            s = edge[lnk[i]]
            if s == LINE:
                deg += 1
            elif s == UNDECIDED:
                undet += 1
        if deg > 2 or (deg == 1 and undet == 0) or (fill and deg + undet < 2):
            ok = False
            continue
        if undet == 0:
            continue
        m = mate[x]
        for i in range(ptr[x], ptr[x + 1]):
            e = lnk[i]
            if edge[e] != UNDECIDED:
                continue
            y = nbr[i]
            state = UNDECIDED
            if deg == 2:
                state = NOLINE
            elif deg == 1:
                my = mate[y]
                if undet == 1:
                    state = LINE
                elif my == -1 or m == y or (m < -1 and my < -1 and my != m):
                    state = NOLINE
            elif fill:
                if undet == 2:
                    state = LINE
                elif mate[y] == -1:
                    state = NOLINE
            elif undet == 1 or mate[y] == -1:
                state = NOLINE
            if state != UNDECIDED:
                pend[pn, 0] = e
                pend[pn, 1] = state
                pn += 1
    while qn > 0:  # left over after a contradiction
        qn -= 1
        inq[queue[qn]] = 0
    return ok


@njit(cache=True)
def _has_chord(ptr, nbr, lnk, ends, clue, edge, flow):  # pragma: no cover - compiled
    """Whether some path of a complete decision has a chord: two of its nodes neighbours, not linked."""
    flow[:] = -1
    n = clue.shape[0]
    for s in range(n):
        if clue[s] < 0 or flow[s] >= 0:
            continue
        prev, x = -1, s
        while True:
            flow[x] = clue[s]
            nxt = -1
            for i in range(ptr[x], ptr[x + 1]):
                if edge[lnk[i]] == LINE and nbr[i] != prev:
                    nxt = nbr[i]
                    break
            if nxt < 0:
                break
            prev, x = x, nxt
    for e in range(ends.shape[0]):
        if edge[e] != LINE and flow[ends[e, 0]] >= 0 and flow[ends[e, 0]] == flow[ends[e, 1]]:
            return True
    return False


@njit(cache=True)
def exhaust_pass(ptr, nbr, lnk, ends, clue, cyc, cptr, cidx, mode, cap, budget,
                 edge, mate, trail, regs, stack, queue, inq, pend, out, flow):  # pragma: no cover - compiled
    """Search on (or resume) until every solution is found, ``cap`` are, or ``budget`` more decisions are made.

    Parameters
    ----------
    ptr, nbr, lnk : int64 arrays, shapes (n + 1,), (2m,), (2m,)
        Node ``v``'s neighbours are ``nbr[ptr[v]:ptr[v + 1]]``, over links ``lnk[...]``; nodes in board order.
    ends : int64 array, shape (m, 2)
    clue : int64 array, shape (n,)
        The flow of an endpoint, -1 for other nodes.
    cyc : int64 array, shape (c, 4)
        The links of each triangle and 4-cycle, in order around it (a triangle's fourth is -1).
    cptr, cidx : int64 arrays, shapes (m + 1,), (4c,)
        The cycles of link ``e`` are ``cidx[cptr[e]:cptr[e + 1]]``.
    mode : int
        Bit 0: every node must be used (Flow Free); bit 1: chord-free solutions only.
    cap : int
        Stop when this many solutions are found.
    budget : int
        Pause after this many more decisions.
    edge, mate : uint8 (m,) and int64 (n,)
        The search's state: all ``UNDECIDED`` and ``mate[v] = v`` (an endpoint ``-2 - flow``) at the start.
    trail : int64 array, shape (5m + n + 8, 3)
    regs : int64 array, shape (REGISTERS,)
        Zero at the start; the counters afterwards (``regs[3]``: solutions found, ``regs[2]``: decisions).
    stack : int64 array, shape (n + 1, 3)
    queue, inq : int64 (n,) and uint8 (n,) scratch, ``inq`` zero
    pend : int64 array, shape (P, 2)
        Pending decisions; P at least ``m * (3 * most cycles of a link + 4 * most links of a node) + n * 8``.
    out : uint8 array, shape (keep, m)
        The first ``keep`` solutions' link states.
    flow : int64 array, shape (n,), scratch

    Returns
    -------
    int
        ``EXHAUSTED``, ``CAPPED`` or ``PAUSED``.
    """
    fill = (mode & 1) != 0
    chord_free = (mode & 2) != 0
    n = clue.shape[0]
    end_nodes = regs[_NODES] + budget
    if not regs[_STARTED]:
        regs[_STARTED] = 1
        qn = 0
        for v in range(n):
            qn = _push(queue, inq, qn, v)
        if not _propagate(ptr, nbr, lnk, ends, clue, cyc, cptr, cidx, fill, chord_free,
                          edge, mate, trail, regs, queue, inq, qn, pend, 0):
            regs[_DEPTH] = -1
            return EXHAUSTED
        v = 0
        while v < n and not _undecided(ptr, lnk, edge, v):
            v += 1
        if v == n:  # decided by propagation alone
            regs[_DEPTH] = -1
            return _leaf(ptr, nbr, lnk, ends, clue, edge, flow, chord_free, regs, out, cap)
        regs[_DEPTH] = 0
        stack[0, 0] = v
        stack[0, 1] = 0
        stack[0, 2] = regs[_TRAIL]
    links = np.empty(64, np.int64)  # a node's undecided links (a node has at most 8)
    while regs[_DEPTH] >= 0:
        if regs[_NODES] >= end_nodes:
            return PAUSED
        d = regs[_DEPTH]
        v = stack[d, 0]
        _undo(edge, mate, trail, regs, stack[d, 2])
        k = 0
        deg = 1 if clue[v] >= 0 else 0
        for i in range(ptr[v], ptr[v + 1]):
            s = edge[lnk[i]]
            if s == UNDECIDED:
                links[k] = lnk[i]
                k += 1
            elif s == LINE:
                deg += 1
        mask = stack[d, 1]
        while mask < (1 << k):
            total = deg
            for j in range(k):
                total += (mask >> j) & 1
            if total == 2 or (total == 0 and not fill):
                break
            mask += 1
        if mask >= (1 << k):
            regs[_DEPTH] = d - 1
            continue
        stack[d, 1] = mask + 1
        regs[_NODES] += 1
        pn = 0
        for j in range(k):
            pend[pn, 0] = links[j]
            pend[pn, 1] = LINE if (mask >> j) & 1 else NOLINE
            pn += 1
        if not _propagate(ptr, nbr, lnk, ends, clue, cyc, cptr, cidx, fill, chord_free,
                          edge, mate, trail, regs, queue, inq, 0, pend, pn):
            continue
        w = v + 1
        while w < n and not _undecided(ptr, lnk, edge, w):
            w += 1
        if w == n:
            if _leaf(ptr, nbr, lnk, ends, clue, edge, flow, chord_free, regs, out, cap) == CAPPED:
                _undo(edge, mate, trail, regs, stack[0, 2])
                return CAPPED
            continue
        stack[d + 1, 0] = w
        stack[d + 1, 1] = 0
        stack[d + 1, 2] = regs[_TRAIL]
        regs[_DEPTH] = d + 1
    return EXHAUSTED


@njit(cache=True)
def _undecided(ptr, lnk, edge, v):  # pragma: no cover - compiled
    for i in range(ptr[v], ptr[v + 1]):
        if edge[lnk[i]] == UNDECIDED:
            return True
    return False


@njit(cache=True)
def _leaf(ptr, nbr, lnk, ends, clue, edge, flow, chord_free, regs, out, cap):  # pragma: no cover - compiled
    """Count a complete decision (every link decided, every node's degree valid, no cycle)."""
    if chord_free and _has_chord(ptr, nbr, lnk, ends, clue, edge, flow):
        return EXHAUSTED
    found = regs[_FOUND]
    if found < out.shape[0]:
        out[found, :] = edge
    regs[_FOUND] = found + 1
    return CAPPED if found + 1 >= cap else EXHAUSTED
