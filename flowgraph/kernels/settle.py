"""Forced moves and local dead ends until nothing changes, then the region pass; compiled.

:func:`settle_pass` runs rounds over the nodes changed since the last
round; each round has three phases: the bend walk on the path nodes just
completed, the heads with one way out, and the free nodes near the changes
(dead ends, two flows meeting, nodes a head must take, the loose-bend pair
test). The rules themselves live in their own modules (:mod:`.moves`,
:mod:`.bends`, :mod:`.regions`); this pass only applies them near a change.

Why the three phases are one function (some 150 lines) and not three:
split, they were measurably slower whichever way they were cut
(docs/benchmarks.md, "Design measurements"): numba reference-counts every
array argument of every call, and the phases run several times per state.
The helpers they call per node (the bend walk, the pair and chord tests,
a head's moves, forced moves and links) are compiled without that
counting (:func:`.jit.njit_borrowed`): they take their work space from
this pass, which allocates it once per call.
"""

from __future__ import annotations

import numpy as np

from .bends import bend_chain, bend_pass, pair_ok
from .chokepoints import chokepoint_pass
from .codes import (
    ACTIVE,
    CLOSED_LOOP,
    DEAD_END,
    FLOW,
    LOOSE_BEND,
    NO_MOVES,
    SELF_TOUCH,
    TWO_FLOWS_MEET,
    UNFILLED,
)
from .common import slot_of
from .entry_points import kernel
from .fragments import add_link, chord_near, full
from .jit import njit, njit_borrowed
from .moves import head_moves, moves_buffer, step_head
from .regions import region_pass

__all__ = ["settle_pass", "move_pass", "log_size"]

MAX_PAIRED = 4  # free nodes with up to this many possible links get the pair test (3: more states, same time)
CHORD_DEPTH = 3  # nodes of each fragment beyond a new link that the self-touch rule looks at (chord_near)
# The pairs of a free node's possible links (indices into its first MAX_PAIRED), for 3 and then 4 of them;
# with 4, the two pairs of opposite neighbours first (neighbours come in index order: on a square grid
# up, left, right, down, so these are the straight pairs).
PAIR_ORDER = np.array([(0, 1), (0, 2), (1, 2), (0, 3), (1, 2), (0, 1), (0, 2), (1, 3), (2, 3)], np.int64)
PAIR_START = np.array([0, 0, 0, 0, 3, 9], np.int64)  # navail -> its pairs: PAIR_ORDER[PAIR_START[navail]:...]



@kernel("i8(i8, i8)")
@njit(cache=True)
def log_size(n, nflows):  # pragma: no cover - compiled
    """Length of the move log :func:`settle_pass` may fill, for ``n`` nodes and ``nflows`` flows.

    Each forced move takes a node (at most ``n``) or finishes a flow (at
    most ``nflows``) and logs two numbers.
    """
    return 2 * (n + nflows) + 4


@njit_borrowed
def _forced(color, heads, slot, v, done, free, changed, nch, log, nlog):  # pragma: no cover - compiled
    """A forced move: step, note the two nodes it changed and log the node the head left."""
    h = heads[slot]
    changed[nch] = h
    changed[nch + 1] = v
    if v != heads[slot ^ 1]:  # a join leaves no node behind
        log[nlog] = slot
        log[nlog + 1] = h
        nlog += 2
    done, free = step_head(color, heads, slot, v, done, free)
    return done, free, nch + 2, nlog


@njit_borrowed
def _must_link(color, heads, must, done, free, changed, nch, log, nlog):  # pragma: no cover - compiled
    """Move the head in ``must[0]`` to ``must[1]`` if both still are what they were."""
    if must[0] >= 0 and color[must[1]] == 0 and color[must[0]] & ACTIVE:
        slot = slot_of(color, heads, must[0])
        if heads[slot] == must[0]:
            return _forced(color, heads, slot, must[1], done, free, changed, nch, log, nlog)
    return done, free, nch, nlog


@kernel("UniTuple(i8, 4)(u1[::1], u1[::1], i8[::1], i8[::1], i8[::1], i8, i8, i8[::1], b1, i8, i1[::1], "
        "u1[::1], i8[::1])")
@njit(cache=True)
def settle_pass(color, link, ptr, nbr, heads, done, free, touched, heuristic, nflows, side, endpoint, log
                ):  # pragma: no cover - compiled
    """Forced moves, forced links, local dead ends, loose bends, then :func:`.regions.region_pass`.

    Heads with a single way out move (a head's moves depend on nodes up to
    two links away, so only heads that near a change are looked at); a
    free node with fewer than two possible links (free neighbours that
    have a link to spare, heads, and the links it is known to use) is a
    dead end; one whose only two possible links are heads of two different
    flows would join them; one whose only two possible links include a
    head is taken by that head, and its links to free nodes are recorded
    (:mod:`.fragments`: a fragment of some path); with ``heuristic``, one whose
    two possible links make a bend must bend around something
    (:func:`.bends.bend_pass`: the inside nodes the walk finds are linked
    too), and of one with three or four possible links, the pairs it could
    link are those that keep its known links, join no two flows, make no
    loose bend and do not touch its own fragment: none left is a dead end,
    and a link in every pair left is made. A head that the bend walk finds
    an inside node must link moves there. Chains of forced moves and links
    repeat until nothing changes.

    Parameters
    ----------
    color, heads : ndarray
        As for :func:`.regions.region_pass`; both are updated in place.
    link : ndarray of uint8, shape (n,)
        The links known to be used (:mod:`.fragments`); updated in place.
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
    nlog = 0
    mark = np.zeros(n, np.int64)
    stamp = 0
    slots = np.empty(2 * nflows + 1, np.int64)
    opts = moves_buffer(ptr)
    avail = np.empty(max(MAX_PAIRED, 2), np.int64)  # a free node's possible links
    must = np.empty(2, np.int64)  # a head and the free node it must link (bend_pass)
    chain = np.empty(3 * n + 1, np.int64)  # inside nodes the bend walk found (bend_pass); chain[0] set before each walk
    near = np.empty(2 * CHORD_DEPTH + 3, np.int64)  # chord_near's work space
    quiet = np.zeros(2, np.int64)  # bend_chain's must and chain when a move is only tried (head_moves)
    # Two buffers, swapped each round: the nodes changed in the last round
    # and in this one; room for the moves (2 entries each, at most
    # n + nflows) and the links (2 each, at most n) of a whole settle.
    size = max(log_size(n, nflows) + 2 * n, touched.shape[0])
    cur = np.empty(size, np.int64)
    changed = np.empty(size, np.int64)
    cur[:touched.shape[0]] = touched
    ncur = touched.shape[0]
    while ncur > 0:
        nch = 0
        if heuristic:
            for ti in range(ncur):
                x = cur[ti]
                if color[x] != 0 and not color[x] & ACTIVE and not endpoint[x]:
                    must[0] = -1
                    chain[0] = 0
                    code = bend_pass(color, link, ptr, nbr, endpoint, x, must, chain)
                    if code:
                        return code, done, free, nlog
                    code, nch = _link_chain(color, link, ptr, nbr, chain, changed, nch)
                    if code:
                        return code, done, free, nlog
                    done, free, nch, nlog = _must_link(color, heads, must, done, free, changed, nch, log, nlog)
        stamp += 1
        nslots = 0
        for ti in range(ncur):
            t = cur[ti]
            for ci in range(ptr[t] - 1, ptr[t + 1]):
                c = t if ci < ptr[t] else nbr[ci]
                for di in range(ptr[c] - 1, ptr[c + 1]):
                    d = c if di < ptr[c] else nbr[di]
                    if color[d] & ACTIVE and mark[d] != stamp:
                        mark[d] = stamp
                        slots[nslots] = slot_of(color, heads, d)
                        nslots += 1
        for si in range(1, nslots):  # in slot order (insertion sort: a few slots, no new array)
            x = slots[si]
            sj = si
            while sj > 0 and slots[sj - 1] > x:
                slots[sj] = slots[sj - 1]
                sj -= 1
            slots[sj] = x
        for si in range(nslots):
            slot = slots[si]
            if (done >> (slot >> 1)) & 1:
                continue
            count = head_moves(color, link, ptr, nbr, heads, slot, heuristic, endpoint, opts, 2, quiet)  # forced or not
            first = opts[0]
            if count == 0:
                return NO_MOVES, done, free, nlog
            if count == 1:
                done, free, nch, nlog = _forced(color, heads, slot, first, done, free, changed, nch, log, nlog)
        # Free nodes near the changes: dead ends, and links they must make.
        stamp += 1
        nch0 = nch
        for ti in range(ncur + nch0):
            t = cur[ti] if ti < ncur else changed[ti - ncur]
            for ci in range(ptr[t] - 1, ptr[t + 1]):
                c = t if ci < ptr[t] else nbr[ci]
                if mark[c] == stamp or color[c] != 0:
                    continue
                mark[c] = stamp
                if full(link, c):
                    continue  # inside a fragment: both links known
                navail = 0  # its possible links; the first MAX_PAIRED go to avail
                known = 0  # bit i: the link to avail[i] is known to be used
                for j in range(ptr[c], ptr[c + 1]):
                    w = nbr[j]
                    used = (link[c] >> (j - ptr[c])) & 1
                    if used or (color[w] == 0 and not full(link, w)) or color[w] & ACTIVE:
                        if navail < MAX_PAIRED:
                            avail[navail] = w
                            known |= used << navail
                        navail += 1
                if navail < 2:
                    return DEAD_END, done, free, nlog  # a node that can never be passed through
                if navail == 2:
                    a0 = avail[0]
                    a1 = avail[1]
                    ca = color[a0]
                    cb = color[a1]
                    if ca & ACTIVE and cb & ACTIVE and ca != cb:
                        return TWO_FLOWS_MEET, done, free, nlog
                    if heuristic:
                        # c must link both: if that is a bend, its inside must hold
                        must[0] = -1
                        chain[0] = 0
                        code = bend_chain(color, link, ptr, nbr, endpoint, c, a0, a1, (ca | cb) & FLOW, must, chain)
                        if code:
                            return code, done, free, nlog
                        code, nch = _link_chain(color, link, ptr, nbr, chain, changed, nch)
                        if code:
                            return code, done, free, nlog
                        done, free, nch, nlog = _must_link(color, heads, must, done, free, changed, nch, log, nlog)
                    code, done, free, nch, nlog = _take(color, link, ptr, nbr, heads, c, avail, 3, heuristic, done,
                                                        free, changed, nch, log, nlog, near)
                    if code:
                        return code, done, free, nlog
                elif heuristic and navail <= MAX_PAIRED:
                    # Which two of its possible links can c have? A link that
                    # every possible pair shares is made.
                    # Once the pairs found possible share no new link, the rest cannot add one (and
                    # one possible pair rules out a dead end): stop there. Pairs in PAIR_ORDER: on a
                    # square grid the two straight ones first, which need no bend walk.
                    inall = 0  # bit i: avail[i] is in every possible pair so far
                    nfeas = 0
                    for k in range(PAIR_START[navail], PAIR_START[navail + 1]):
                        i0 = PAIR_ORDER[k, 0]
                        i1 = PAIR_ORDER[k, 1]
                        pair = (1 << i0) | (1 << i1)
                        if known & ~pair:
                            continue  # it would drop a known link
                        if not pair_ok(color, link, ptr, nbr, endpoint, c, avail[i0], avail[i1], must):
                            continue
                        if chord_near(color, ptr, nbr, link, avail[i0], c, avail[i1], CHORD_DEPTH, near):
                            continue
                        inall = pair if nfeas == 0 else inall & pair
                        nfeas += 1
                        if inall & ~known == 0:
                            break
                    if nfeas == 0:
                        return LOOSE_BEND, done, free, nlog
                    if inall & ~known:
                        code, done, free, nch, nlog = _take(color, link, ptr, nbr, heads, c, avail, inall & ~known,
                                                            heuristic, done, free, changed, nch, log, nlog, near)
                        if code:
                            return code, done, free, nlog
        cur, changed = changed, cur
        ncur = nch
    if free == 0:
        if done != (np.int64(1) << nflows) - 1:
            return UNFILLED, done, free, nlog
        return 0, done, free, nlog
    return region_pass(color, link, ptr, nbr, heads, done, nflows, side), done, free, nlog


@njit_borrowed
def _take(color, link, ptr, nbr, heads, c, avail, which, heuristic, done, free, changed, nch, log, nlog, near
          ):  # pragma: no cover - compiled
    """The free node ``c`` makes its links to ``avail[i]`` for the bits ``i`` of ``which``.

    A head there moves to ``c`` (a forced move); a free node there is
    linked to ``c`` (:func:`.fragments.add_link`). Once a head has taken ``c``
    the other links are the head's to make (it follows them, see
    :func:`.moves.head_moves`), so none is recorded.

    Returns
    -------
    code, done, free, nch, nlog : int
        ``CLOSED_LOOP`` if a link would close a loop or give a node three
        links, ``SELF_TOUCH`` if, with ``heuristic``, a fragment would touch
        itself near the new link (:func:`.fragments.chord_near`), else 0; the
        updated counters.
    """
    for i in range(avail.shape[0]):
        if not (which >> i) & 1:
            continue
        w = avail[i]
        if color[w] & ACTIVE and color[c] == 0:
            slot = slot_of(color, heads, w)
            done, free, nch, nlog = _forced(color, heads, slot, c, done, free, changed, nch, log, nlog)
    if color[c] != 0:
        return 0, done, free, nch, nlog
    for i in range(avail.shape[0]):
        if not (which >> i) & 1:
            continue
        w = avail[i]
        if color[w] == 0:
            if heuristic and chord_near(color, ptr, nbr, link, c, -1, w, CHORD_DEPTH, near):
                return SELF_TOUCH, done, free, nch, nlog
            r = add_link(color, ptr, nbr, link, c, w)
            if r < 0:
                return CLOSED_LOOP, done, free, nch, nlog
            if r > 0:
                changed[nch] = c
                changed[nch + 1] = w
                nch += 2
    return 0, done, free, nch, nlog


@njit_borrowed
def _link_chain(color, link, ptr, nbr, chain, changed, nch):  # pragma: no cover - compiled
    """Record the links of the inside nodes the bend walk found (``chain``, see :func:`.bends.bend_pass`)."""
    for k in range(chain[0]):
        d = chain[1 + 3 * k]
        if color[d] != 0:
            continue
        for e in (chain[2 + 3 * k], chain[3 + 3 * k]):
            if color[e] != 0:
                continue  # a head: bend_pass's ``must`` moves it
            r = add_link(color, ptr, nbr, link, d, e)
            if r < 0:
                return CLOSED_LOOP, nch
            if r > 0:
                changed[nch] = d
                changed[nch + 1] = e
                nch += 2
    return 0, nch


@kernel("UniTuple(i8, 4)(u1[::1], u1[::1], i8[::1], i8[::1], i8[::1], i8, i8, b1, i8, i1[::1], u1[::1], "
        "i8[::1], i8, i8, i8[::1], i8)")
@njit(cache=True)
def move_pass(color, link, ptr, nbr, heads, done, free, heuristic, nflows, side, endpoint, log, slot, v, ahead, widest
              ):  # pragma: no cover - compiled
    """A branching move, then :func:`settle_pass`, then the chokepoints beside the head moved.

    One compiled call per child state instead of three: the calls from
    Python cost more than the move and the chokepoint walk themselves
    (each unboxes its array arguments).

    Parameters
    ----------
    slot, v : int
        The head to move and the node it moves to (a free neighbour, or
        the other head: a join).
    ahead, widest : ndarray, int
        As for :func:`.chokepoints.chokepoint_pass`; ``widest`` 0 skips it.
    Others
        As for :func:`settle_pass`.

    Returns
    -------
    code, done, free, nlog : int
        As for :func:`settle_pass`; ``log`` starts with the move itself.
    """
    touched = np.empty(2, np.int64)
    done, free, _, nlog = _forced(color, heads, slot, v, done, free, touched, 0, log, 0)
    code, done, free, more = settle_pass(color, link, ptr, nbr, heads, done, free, touched, heuristic, nflows, side,
                                         endpoint, log[nlog:])
    nlog += more
    if code == 0 and widest > 0 and not (done >> (slot >> 1)) & 1:
        code = chokepoint_pass(color, ptr, nbr, ahead, heads, done, nflows, slot, widest)
    return code, done, free, nlog
