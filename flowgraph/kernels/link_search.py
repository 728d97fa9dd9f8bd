"""Every solution, by deciding the links around one node at a time in board order; compiled.

The exhaustive link search behind ``validate --unique`` and ``--count`` (:mod:`flowgraph.engines.exhaustive`
prepares its arrays and runs it in slices). Nodes are numbered in board order; at the first node with an
undecided link it tries each set of those links that leaves the node a valid degree (an endpoint one link, any
other node two, or none where Numberlink's rules let cells stay empty), then propagates:

* a node with two links (an endpoint: one) uses none of the rest; a node
  with one link and one undecided uses it; under Numberlink rules an
  unused node with one undecided link does not use it, under Flow Free's
  (or when the node must be used) a node with exactly two links possible
  uses both;
* each fragment of path knows its other end (``mate``): a node in the middle
  of one (``-1``), a node on its own (itself), the end of a fragment whose
  other end is a node (that node) or an endpoint of flow ``k`` (``-2 - k``).
  A link that would close a fragment into a cycle, join two flows or enter a
  node in the middle of a fragment is never used;
* ``canonical`` (Numberlink rules, for the uniqueness proof): no path uses
  two links of a triangle or three of a 4-cycle (its two ends would be
  neighbours that the path does not link: a jump that empties nodes), and a
  path that turns at node ``b`` of a 4-cycle ``a-b-c-d`` (links ``a-b``,
  ``b-c``) makes the opposite node ``d`` used when ``d`` comes later in board
  order and is no endpoint (else the turn could move to ``d``: the L-shape
  canonization of numlin_v2). Each such move leads to another solution, and
  every solution reaches a canonical one by moves, so counting the canonical
  ones settles uniqueness (:func:`flowgraph.authoring.uniqueness.count_solutions`).

Every decision is written to a trail and undone on backtracking. The search runs in slices of ``budget``
decisions, its state kept in the arrays it is given, so the caller checks the clock and Ctrl-C between slices.

**Failure memo** (:mod:`.memo`): a frontier below which no solution was found is skipped when met again. This
is the frontier idea of Yoshinaka, Saitoh, Kawahara, Tsuruma, Iwashita and Minato ("Finding all solutions and
instances of Numberlink and Slitherlink by ZDDs", Algorithms 5(2), 2012) used as a cache of failures in a
depth-first search, so the first solutions are still found and kept. On planar boards the paths crossing the
frontier must nest (:mod:`.nesting`).

The scheme (links decided in board order, the other end of each fragment kept, no U-turn in a 2x2 block,
corners pushed one way) is that of semiexp's numlin_v2 (github semiexp/numlin_v2, ``src/solver.rs``,
``src/board.rs``), written anew here for any graph: hex, warps, bridges and walls are only other neighbours.
"""

from __future__ import annotations

import numpy as np

from .codes import CAPPED, CUT, EXHAUSTED, LINE, PAUSED, UNDECIDED
from .codes import REG_DEPTH as _DEPTH
from .codes import REG_FOUND as _FOUND
from .codes import REG_FROM as _FROM
from .codes import REG_H1 as _H1
from .codes import REG_H2 as _H2
from .codes import REG_HITS as _HITS
from .codes import REG_NODES as _NODES
from .codes import REG_STARTED as _STARTED
from .codes import REG_TRAIL as _TRAIL
from .entry_points import kernel
from .jit import njit, njit_borrowed
from .memo import memo_at, memo_flip, memo_remember, memo_seen
from .nesting import is_nested

__all__ = ["exhaust_pass"]



@njit(cache=True, inline="always")
def _mate_key(base, span, nflows, v, value):  # pragma: no cover - compiled
    return base + v * span + value + nflows + 2


@njit(cache=True, inline="always")
def _mate(mate, trail, regs, base, span, nflows, v, value):  # pragma: no cover - compiled
    old = mate[v]
    if old != value:
        t = regs[_TRAIL]
        trail[t, 0] = 1
        trail[t, 1] = v
        trail[t, 2] = old
        regs[_TRAIL] = t + 1
        mate[v] = value
        memo_flip(regs, _mate_key(base, span, nflows, v, old))
        memo_flip(regs, _mate_key(base, span, nflows, v, value))


@njit(cache=True, inline="always")
def _must(must, trail, regs, base, span, v):  # pragma: no cover - compiled
    if not must[v]:
        t = regs[_TRAIL]
        trail[t, 0] = 2
        trail[t, 1] = v
        regs[_TRAIL] = t + 1
        must[v] = 1
        memo_flip(regs, base + span * must.shape[0] + v)


@njit_borrowed
def _undo(edge, mate, must, trail, regs, mark):  # pragma: no cover - compiled
    """Undo the trail down to ``mark`` (the caller restores the hash it saved)."""
    t = regs[_TRAIL]
    while t > mark:
        t -= 1
        kind = trail[t, 0]
        if kind == 0:
            edge[trail[t, 1]] = UNDECIDED
        elif kind == 1:
            mate[trail[t, 1]] = trail[t, 2]
        else:
            must[trail[t, 1]] = 0
    regs[_TRAIL] = t


@njit(cache=True, inline="always")
def _push(queue, inq, qn, v):  # pragma: no cover - compiled
    if not inq[v]:
        inq[v] = 1
        queue[qn] = v
        return qn + 1
    return qn


@njit_borrowed
def _propagate(ptr, nbr, lnk, ends, clue, cyc, cptr, cidx, fill, nflows,
               edge, mate, must, trail, regs, queue, inq, qn, pend, pn):  # pragma: no cover - compiled
    """Apply the pending decisions (``pend[:pn]``: link, state) and check the queued nodes until
    nothing changes; False on a contradiction (the caller undoes)."""
    n = clue.shape[0]
    base = 2 * ends.shape[0]
    span = n + nflows + 3
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
            memo_flip(regs, 2 * e + state - 1)
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
            _mate(mate, trail, regs, base, span, nflows, u, -1)
            _mate(mate, trail, regs, base, span, nflows, v, -1)
            if a >= 0:
                _mate(mate, trail, regs, base, span, nflows, a, b)
                qn = _push(queue, inq, qn, a)
            if b >= 0:
                _mate(mate, trail, regs, base, span, nflows, b, a)
                qn = _push(queue, inq, qn, b)
            for j in range(cptr[e], cptr[e + 1]):  # no cycles listed unless canonical
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
                            pend[pn, 1] = CUT
                            pn += 1
                    if size == 4:  # a turn at cyc[c, 4 + k] (links k, k + 1) keeps the opposite node used
                        for k in range(4):
                            if edge[cyc[c, k]] == LINE and edge[cyc[c, (k + 1) % 4]] == LINE:
                                b = cyc[c, 4 + k]
                                o = cyc[c, 4 + (k + 2) % 4]
                                if b >= 0 and o > b and clue[o] < 0 and not must[o]:
                                    _must(must, trail, regs, base, span, o)
                                    qn = _push(queue, inq, qn, o)
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
        used = fill or must[x] != 0
        if deg > 2 or (deg == 1 and undet == 0) or (used and deg + undet < 2):
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
                state = CUT
            elif deg == 1:
                my = mate[y]
                if undet == 1:
                    state = LINE
                elif my == -1 or m == y or (m < -1 and my < -1 and my != m):
                    state = CUT
            elif used:
                if undet == 2:
                    state = LINE
                elif mate[y] == -1:
                    state = CUT
            elif undet == 1 or mate[y] == -1:
                state = CUT
            if state != UNDECIDED:
                pend[pn, 0] = e
                pend[pn, 1] = state
                pn += 1
    while qn > 0:  # left over after a contradiction
        qn -= 1
        inq[queue[qn]] = 0
    return ok


@njit_borrowed
def _move_on(ptr, nbr, lnk, ends, edge, mate, must, regs, nflows, w):  # pragma: no cover - compiled
    """Take out of the hash the terms of the nodes before ``w`` (every link of theirs decided) and of
    the links between them; return the hash of the frontier at ``w`` (both halves)."""
    n = mate.shape[0]
    base = 2 * ends.shape[0]
    span = n + nflows + 3
    for v in range(regs[_FROM], w):
        memo_flip(regs, _mate_key(base, span, nflows, v, mate[v]))
        if must[v]:
            memo_flip(regs, base + span * n + v)
        for i in range(ptr[v], ptr[v + 1]):
            if nbr[i] < v:  # the link's later end is v: both ends left behind now
                memo_flip(regs, 2 * lnk[i] + edge[lnk[i]] - 1)
    regs[_FROM] = w
    return memo_at(regs, ends, n, nflows, w)


@kernel("i8(i8[::1], i8[::1], i8[::1], i8[:, ::1], i8[::1], i8[:, ::1], i8[::1], i8[::1], i8, i8, i8, "
        "u1[::1], i8[::1], u1[::1], i8[:, ::1], i8[::1], i8[:, ::1], i8[::1], u1[::1], i8[:, ::1], "
        "u1[:, ::1], i8[:, ::1], i8[:, ::1])")
@njit(cache=True)
def exhaust_pass(ptr, nbr, lnk, ends, clue, cyc, cptr, cidx, mode, cap, budget,
                 edge, mate, must, trail, regs, stack, queue, inq, pend, out, memo, place):  # pragma: no cover - compiled
    """Search on (or resume) until every solution is found, ``cap`` are, or ``budget`` more decisions are made.

    Parameters
    ----------
    ptr, nbr, lnk : int64 arrays, shapes (n + 1,), (2m,), (2m,)
        Node ``v``'s neighbours are ``nbr[ptr[v]:ptr[v + 1]]``, over links ``lnk[...]``; nodes in board order.
    ends : int64 array, shape (m, 2)
    clue : int64 array, shape (n,)
        The flow of an endpoint, -1 for other nodes.
    cyc : int64 array, shape (c, 8)
        The links of each triangle and 4-cycle, in order around it (a triangle's fourth is -1), then
        for a 4-cycle the node between links ``k`` and ``k + 1`` (-1: a bridge's lane, no corner moves).
        Empty unless ``canonical``.
    cptr, cidx : int64 arrays, shapes (m + 1,), (4c,)
        The cycles of link ``e`` are ``cidx[cptr[e]:cptr[e + 1]]``.
    mode : int
        Bit 0: every node must be used (Flow Free). Bit 1: the board is planar and drawn so that
        ``place`` orders the links that cross the frontier (:func:`is_nested`). Bit 2: besides, it is
        a full rectangle of lines (every node and link of the grid) and ``place`` gives the rim.
    cap : int
        Stop when this many solutions are found.
    budget : int
        Pause after this many more decisions.
    edge, mate, must : uint8 (m,), int64 (n,), uint8 (n,)
        The search's state: all ``UNDECIDED``, ``mate[v] = v`` (an endpoint ``-2 - flow``) and ``must``
        (the node has to be used) zero at the start.
    trail : int64 array, shape (5m + 2n + 8, 3)
    regs : int64 array, shape (REGISTERS,)
        Zero at the start; the counters afterwards (``regs[3]``: solutions found, ``regs[2]``: decisions,
        ``regs[8]``: subtrees skipped by the memo, ``regs[9]``: its slots taken).
    stack : int64 array, shape (n + 1, STACK_COLUMNS)
    queue, inq : int64 (n,) and uint8 (n,) scratch, ``inq`` zero
    pend : int64 array, shape (P, 2)
        Pending decisions; P at least ``m * (3 * most cycles of a link + 4 * most links of a node) + n * 8``.
    out : uint8 array, shape (keep, m)
        The first ``keep`` solutions' link states.
    place : int64 array, shape (n, 3)
        With mode bit 1: each node's column (rows order; its line in columns order) times two, so
        that a link's crossing point on the frontier is ``place[u, 0] + place[v, 0]``; its line
        (column); with mode bit 2 its key on the board's border, going on from the frontier's last
        point (``4 * columns``) down the last column, back along the last line and up the first
        column (-1 off the border).
    memo : int64 array, shape (S, 2)
        The failure memo, zero at the start; S a power of two, or 1 for none (then
        :func:`~flowgraph.kernels.codes.hash_fits` need not hold). Between two calls
        the caller may replace it by a larger one holding some of its entries (each at its
        slot ``h1 & (S - 1)``) and set ``regs[9]`` to their number: it is a cache.

    Returns
    -------
    int
        ``EXHAUSTED``, ``CAPPED`` or ``PAUSED``.
    """
    fill = (mode & 1) != 0
    planar = (mode & 2) != 0
    rect = (mode & 4) != 0
    n = clue.shape[0]
    nflows = 0
    for v in range(n):
        nflows = max(nflows, clue[v] + 1)
    span = 0  # the farthest a link reaches back in board order
    for e in range(ends.shape[0]):
        span = max(span, ends[e, 1] - ends[e, 0])
    cross = np.empty((2 * n + 2, 4), np.int64)  # scratch of is_nested: u, v, key, label
    stk = np.empty(2 * n + 2, np.int64)  # scratch of _joins_nest
    owner = np.empty((max(nflows, 1), 2), np.int64)
    fends = np.full((max(nflows, 1), 2), -1, np.int64)  # each flow's endpoints
    for v in range(n):
        if clue[v] >= 0:
            fends[clue[v], 0 if fends[clue[v], 0] < 0 else 1] = v
    lines = 0
    for v in range(n):
        lines = max(lines, place[v, 1] + 1)
    end_nodes = regs[_NODES] + budget
    if not regs[_STARTED]:
        regs[_STARTED] = 1
        base = 2 * ends.shape[0]
        span = n + nflows + 3
        for v in range(n):  # the hash of the start: every node's mate (no link decided, no node must)
            memo_flip(regs, _mate_key(base, span, nflows, v, mate[v]))
        qn = 0
        for v in range(n):
            qn = _push(queue, inq, qn, v)
        if not _propagate(ptr, nbr, lnk, ends, clue, cyc, cptr, cidx, fill, nflows,
                          edge, mate, must, trail, regs, queue, inq, qn, pend, 0):
            regs[_DEPTH] = -1
            return EXHAUSTED
        v = 0
        while v < n and not _undecided(ptr, lnk, edge, v):
            v += 1
        if v == n:  # decided by propagation alone
            regs[_DEPTH] = -1
            return _leaf(edge, regs, out, cap)
        h1, h2 = _move_on(ptr, nbr, lnk, ends, edge, mate, must, regs, nflows, v)
        regs[_DEPTH] = 0
        stack[0, 0] = v
        stack[0, 1] = 0
        stack[0, 2] = regs[_TRAIL]
        stack[0, 3] = regs[_H1]
        stack[0, 4] = regs[_H2]
        stack[0, 5] = regs[_FOUND]
    links = np.empty(64, np.int64)  # a node's undecided links (a node has at most 8)
    while regs[_DEPTH] >= 0:
        if regs[_NODES] >= end_nodes:
            return PAUSED
        d = regs[_DEPTH]
        v = stack[d, 0]
        _undo(edge, mate, must, trail, regs, stack[d, 2])
        regs[_H1] = stack[d, 3]
        regs[_H2] = stack[d, 4]
        regs[_FROM] = v
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
            if total == 2 or (total == 0 and not fill and not must[v]):
                break
            mask += 1
        if mask >= (1 << k):
            if regs[_FOUND] == stack[d, 5]:  # nothing below this frontier
                h1, h2 = memo_at(regs, ends, n, nflows, v)
                memo_remember(memo, regs, h1, h2)
            regs[_DEPTH] = d - 1
            continue
        stack[d, 1] = mask + 1
        regs[_NODES] += 1
        pn = 0
        for j in range(k):
            pend[pn, 0] = links[j]
            pend[pn, 1] = LINE if (mask >> j) & 1 else CUT
            pn += 1
        if not _propagate(ptr, nbr, lnk, ends, clue, cyc, cptr, cidx, fill, nflows,
                          edge, mate, must, trail, regs, queue, inq, 0, pend, pn):
            continue
        w = v + 1
        while w < n and not _undecided(ptr, lnk, edge, w):
            w += 1
        if w == n:
            if _leaf(edge, regs, out, cap) == CAPPED:
                _undo(edge, mate, must, trail, regs, stack[0, 2])
                regs[_H1] = stack[0, 3]
                regs[_H2] = stack[0, 4]
                regs[_FROM] = stack[0, 0]
                return CAPPED
            continue
        h1, h2 = _move_on(ptr, nbr, lnk, ends, edge, mate, must, regs, nflows, w)
        if memo_seen(memo, h1, h2):
            regs[_HITS] += 1
            continue
        rim = rect and place[w, 1] + 3 <= lines  # two whole lines below w's at least
        if planar and not is_nested(ptr, nbr, lnk, edge, mate, clue, place, w, span, cross, owner, fends, rim, stk):
            memo_remember(memo, regs, h1, h2)
            continue
        stack[d + 1, 0] = w
        stack[d + 1, 1] = 0
        stack[d + 1, 2] = regs[_TRAIL]
        stack[d + 1, 3] = regs[_H1]
        stack[d + 1, 4] = regs[_H2]
        stack[d + 1, 5] = regs[_FOUND]
        regs[_DEPTH] = d + 1
    return EXHAUSTED


@njit_borrowed
def _undecided(ptr, lnk, edge, v):  # pragma: no cover - compiled
    for i in range(ptr[v], ptr[v + 1]):
        if edge[lnk[i]] == UNDECIDED:
            return True
    return False


@njit(cache=True)
def _leaf(edge, regs, out, cap):  # pragma: no cover - compiled
    """Count a complete decision (every link decided, every node's degree valid, no cycle)."""
    found = regs[_FOUND]
    if found < out.shape[0]:
        out[found, :] = edge
    regs[_FOUND] = found + 1
    return CAPPED if found + 1 >= cap else EXHAUSTED
