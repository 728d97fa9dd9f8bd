"""Forced moves and local dead ends until nothing changes, then the region pass; compiled.

:func:`settle_pass` runs rounds over the nodes changed since the last
round; each round has three phases, each a function: the bend walk on the
path nodes just completed (:func:`_bend_walks`), the heads with one way out
(:func:`_forced_heads`), and the free nodes near the changes
(:func:`_free_nodes`: dead ends, two flows meeting, nodes a head must
take, the loose-bend pair test). What the phases share (the counters and
the scratch arrays) is one :data:`Work` record.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from ..board import csr
from .bends import bend_chain, bend_pass, pair_ok
from .chokepoints import chokepoint_pass
from .codes import ACTIVE, DEAD_END, FLOW, LOOSE_BEND, NO_MOVES, TWO_FLOWS_MEET, UNFILLED, linkable, slot_of
from .moves import head_moves, moves_buffer, step_head
from .regions import region_pass

__all__ = ["settle_pass", "log_size", "warm_up"]

MAX_PAIRED = 4  # free nodes with up to this many possible links get the pair test (3: more states, same time)

#: Scratch shared by the phases of one settle (int64 arrays).
Work = namedtuple("Work", [
    "tally",  # the counters below, by index
    "mark",   # per node: the stamp of the last phase that looked at it
    "slots",  # heads near the changes
    "opts",   # a head's moves (moves_buffer)
    "avail",  # a free node's possible links (the first MAX_PAIRED)
    "must",   # a head and the free node it must link (bend_chain), or -1
    "log",    # the moves made: slot, node left
])
DONE, FREE, NCH, NLOG, STAMP = range(5)  # in Work.tally: finished flows, free nodes, changed nodes, log used, stamp


@njit(cache=True)
def log_size(n, nflows):  # pragma: no cover - compiled
    """Length of the move log :func:`settle_pass` may fill, for ``n`` nodes and ``nflows`` flows.

    Each forced move takes a node (at most ``n``) or finishes a flow (at
    most ``nflows``) and logs two numbers.
    """
    return 2 * (n + nflows) + 4


@njit(cache=True)
def settle_pass(color, ptr, nbr, heads, done, free, touched, heuristic, nflows, par, endpoint, log):  # pragma: no cover
    """Forced moves, local dead ends, loose bends, then :func:`.regions.region_pass`.

    Heads with a single way out move (a head's moves depend on nodes up to
    two links away, so only heads that near a change are looked at); a
    free node with fewer than two possible links (free neighbours and
    heads) is a dead end; one whose only two possible links are heads of
    two different flows would join them; one whose only two possible
    links include a head is taken by that head; with ``heuristic``, one
    whose two possible links make a bend must bend around something
    (:func:`.bends.bend_pass`), and of one with three possible links, the pairs
    it could link are those that join no two flows and make no loose
    bend: none left is a dead end, and a head in every pair left takes
    it; a head that the bend walk finds an inside node must link moves
    there. Chains of forced moves repeat until nothing changes.

    Parameters
    ----------
    color, heads : ndarray
        As for :func:`.regions.region_pass`; both are updated in place.
    done, free : int
        Finished flows (bitmask) and free nodes before.
    touched : ndarray of int64
        Nodes changed since the last settle.
    heuristic : bool
        The self-touch rule (:func:`.moves.head_moves`) and its consequence, the
        loose-bend test (:func:`.bends.bend_pass`) on every node whose links were
        just completed.
    endpoint : ndarray of uint8
        Node -> 1 for the puzzle's endpoints.
    log : ndarray of int64, shape (log_size(n, nflows),)
        Receives the moves made, as ``slot, node left`` pairs (joins, which
        leave no node behind, are not logged).

    Returns
    -------
    code, done, free, nlog : int
        The reason code (0: the state survives), the updated counts and the
        length of ``log`` used.
    """
    n = color.shape[0]
    w = Work(np.array([done, free, 0, 0, 0], np.int64), np.zeros(n, np.int64), np.empty(2 * nflows + 1, np.int64),
             moves_buffer(ptr), np.empty(max(MAX_PAIRED, 2), np.int64), np.empty(2, np.int64), log)
    cur = touched.copy()
    ncur = cur.shape[0]
    while ncur > 0:
        changed = np.empty(log_size(n, nflows), np.int64)
        w.tally[NCH] = 0
        code = 0
        if heuristic:
            code = _bend_walks(color, ptr, nbr, heads, endpoint, cur, ncur, changed, w)
        if code == 0:
            code = _forced_heads(color, ptr, nbr, heads, endpoint, heuristic, cur, ncur, changed, w)
        if code == 0:
            code = _free_nodes(color, ptr, nbr, heads, endpoint, heuristic, cur, ncur, changed, w)
        if code:
            return code, w.tally[DONE], w.tally[FREE], w.tally[NLOG]
        ncur = w.tally[NCH]
        cur = changed[:ncur]
    done = w.tally[DONE]
    free = w.tally[FREE]
    if free == 0:
        if done != (np.int64(1) << nflows) - 1:
            return UNFILLED, done, free, w.tally[NLOG]
        return 0, done, free, w.tally[NLOG]
    return region_pass(color, ptr, nbr, heads, done, nflows, par), done, free, w.tally[NLOG]


@njit(cache=True)
def _forced(color, heads, slot, v, changed, w):  # pragma: no cover - compiled
    """A forced move: step, note the two nodes it changed and log the node the head left."""
    h = heads[slot]
    nch = w.tally[NCH]
    changed[nch] = h
    changed[nch + 1] = v
    w.tally[NCH] = nch + 2
    if v != heads[slot ^ 1]:  # a join leaves no node behind
        nlog = w.tally[NLOG]
        w.log[nlog] = slot
        w.log[nlog + 1] = h
        w.tally[NLOG] = nlog + 2
    done, free = step_head(color, heads, slot, v, w.tally[DONE], w.tally[FREE])
    w.tally[DONE] = done
    w.tally[FREE] = free


@njit(cache=True)
def _must_link(color, heads, changed, w):  # pragma: no cover - compiled
    """Move the head in ``must[0]`` to ``must[1]`` if both still are what they were."""
    must = w.must
    if must[0] >= 0 and color[must[1]] == 0 and color[must[0]] & ACTIVE:
        slot = slot_of(color, heads, must[0])
        if heads[slot] == must[0]:
            _forced(color, heads, slot, must[1], changed, w)


@njit(cache=True)
def _next_stamp(w):  # pragma: no cover - compiled
    """A new stamp for ``w.mark``: every node counts as not looked at yet."""
    w.tally[STAMP] += 1
    return w.tally[STAMP]


@njit(cache=True)
def _bend_walks(color, ptr, nbr, heads, endpoint, cur, ncur, changed, w):  # pragma: no cover - compiled
    """The loose-bend walk from every changed path node whose two links are made."""
    for ti in range(ncur):
        x = cur[ti]
        if color[x] != 0 and not color[x] & ACTIVE and not endpoint[x]:
            w.must[0] = -1
            code = bend_pass(color, ptr, nbr, endpoint, x, w.must)
            if code:
                return code
            _must_link(color, heads, changed, w)
    return 0


@njit(cache=True)
def _forced_heads(color, ptr, nbr, heads, endpoint, heuristic, cur, ncur, changed, w):  # pragma: no cover
    """Heads within two links of a change, in slot order: none left a move is hopeless, one has to take it."""
    stamp = _next_stamp(w)
    nslots = 0
    for ti in range(ncur):
        t = cur[ti]
        for ci in range(ptr[t] - 1, ptr[t + 1]):
            c = t if ci < ptr[t] else nbr[ci]
            for di in range(ptr[c] - 1, ptr[c + 1]):
                d = c if di < ptr[c] else nbr[di]
                if color[d] & ACTIVE and w.mark[d] != stamp:
                    w.mark[d] = stamp
                    w.slots[nslots] = slot_of(color, heads, d)
                    nslots += 1
    order = np.sort(w.slots[:nslots])
    for si in range(nslots):
        slot = order[si]
        if (w.tally[DONE] >> (slot >> 1)) & 1:
            continue
        count = head_moves(color, ptr, nbr, heads, slot, heuristic, endpoint, w.opts)
        if count == 0:
            return NO_MOVES
        if count == 1:
            _forced(color, heads, slot, w.opts[0], changed, w)
    return 0


@njit(cache=True)
def _free_nodes(color, ptr, nbr, heads, endpoint, heuristic, cur, ncur, changed, w):  # pragma: no cover
    """Every free node next to a change (this round's so far included) gets :func:`_free_node`."""
    stamp = _next_stamp(w)
    nch0 = w.tally[NCH]
    for ti in range(ncur + nch0):
        t = cur[ti] if ti < ncur else changed[ti - ncur]
        for ci in range(ptr[t] - 1, ptr[t + 1]):
            c = t if ci < ptr[t] else nbr[ci]
            if w.mark[c] == stamp or color[c] != 0:
                continue
            w.mark[c] = stamp
            code = _free_node(color, ptr, nbr, heads, endpoint, heuristic, c, changed, w)
            if code:
                return code
    return 0


@njit(cache=True)
def _free_node(color, ptr, nbr, heads, endpoint, heuristic, c, changed, w):  # pragma: no cover - compiled
    """A free node needs two possible links (free neighbours or heads); with two, it has both."""
    navail = 0  # its possible links; the first MAX_PAIRED go to avail
    for j in range(ptr[c], ptr[c + 1]):
        u = nbr[j]
        if linkable(color, u):
            if navail < MAX_PAIRED:
                w.avail[navail] = u
            navail += 1
    if navail < 2:
        return DEAD_END  # a node that can never be passed through
    if navail == 2:
        return _two_links(color, ptr, nbr, heads, endpoint, heuristic, c, changed, w)
    if heuristic and navail <= MAX_PAIRED:
        return _link_pairs(color, ptr, nbr, heads, endpoint, c, navail, changed, w)
    return 0


@njit(cache=True)
def _two_links(color, ptr, nbr, heads, endpoint, heuristic, c, changed, w):  # pragma: no cover - compiled
    """A free node with just two possible links: not two flows' heads; a head there takes it; a bend holds."""
    a0 = w.avail[0]
    a1 = w.avail[1]
    ca = color[a0]
    cb = color[a1]
    if ca & ACTIVE and cb & ACTIVE and ca != cb:
        return TWO_FLOWS_MEET
    if heuristic:
        # c must link both: if that is a bend, its inside must hold
        w.must[0] = -1
        code = bend_chain(color, ptr, nbr, endpoint, c, a0, a1, (ca | cb) & FLOW, w.must)
        if code:
            return code
        _must_link(color, heads, changed, w)
    for u in (a0, a1):
        if color[u] & ACTIVE and color[c] == 0:
            _forced(color, heads, slot_of(color, heads, u), c, changed, w)
    return 0


@njit(cache=True)
def _link_pairs(color, ptr, nbr, heads, endpoint, c, navail, changed, w):  # pragma: no cover - compiled
    """Which two of its possible links can ``c`` have? A link that every possible pair shares is made."""
    inall = 0  # bit i: avail[i] is in every possible pair so far
    nfeas = 0
    for i0 in range(navail):
        for i1 in range(i0 + 1, navail):
            if pair_ok(color, ptr, nbr, endpoint, c, w.avail[i0], w.avail[i1], w.must):
                pair = (1 << i0) | (1 << i1)
                inall = pair if nfeas == 0 else inall & pair
                nfeas += 1
    if nfeas == 0:
        return LOOSE_BEND
    for i in range(navail):
        u = w.avail[i]
        if inall >> i & 1 and color[u] & ACTIVE and color[c] == 0:
            _forced(color, heads, slot_of(color, heads, u), c, changed, w)
    return 0


def warm_up() -> None:
    """Load the compiled passes now (compiling them on a machine's first run).

    Numba compiles a function on its first call, or loads it from the cache
    beside this module, which takes about a second; :func:`flowgraph.batch.bench.run_bench`
    calls this before its first timed puzzle so that no puzzle's time
    includes it.
    """
    ptr, nbr = csr(((1, 2), (0, 3), (0, 3), (1, 2)))  # a 2x2 board, one flow on a diagonal
    color = np.frombuffer(bytearray((1 | ACTIVE, 0, 0, 1 | ACTIVE)), np.uint8)
    heads = np.array([0, 3], np.int64)
    side = np.array([0, 1, 1, 0], np.int8)
    endpoint = np.array([1, 0, 0, 1], np.uint8)
    settle_pass(color, ptr, nbr, heads, 0, 2, np.array([0, 3], np.int64), True, 1, side, endpoint,
                np.empty(log_size(4, 1), np.int64))
    chokepoint_pass(color, ptr, nbr, np.full(nbr.shape[0], -1, np.int64), heads, 0, 1, 0, 3)
