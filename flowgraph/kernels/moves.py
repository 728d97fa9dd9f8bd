"""A head's moves and a step, compiled."""

from __future__ import annotations

import numpy as np

from .bends import bend_chain
from .codes import ACTIVE, FLOW
from .entry_points import kernel
from .fragments import full, linked_free
from .jit import njit, njit_borrowed

__all__ = ["head_moves", "fewest_moves", "step_head", "moves_buffer"]


@kernel("i8[::1](i8[::1])")
@njit(cache=True)
def moves_buffer(ptr):
    """An array :func:`head_moves` can write any node's moves to (a node has fewer links than ``len(ptr)``)."""
    return np.empty(ptr.shape[0], np.int64)


@njit_borrowed
def head_moves(color, link, ptr, nbr, heads, slot, heuristic, endpoint, out, limit, quiet):  # pragma: no cover - compiled
    """How many moves the head in ``slot`` has, up to ``limit``; the moves go to ``out``.

    A move is a free neighbour, or the other head of the flow (a join).
    A free node with two known links (:mod:`.fragments`) is none; a head known
    to link a free node (it entered a fragment) has that one move.
    With ``heuristic`` (the self-touch rule) a free node that touches the
    flow's own path other than at this head and the other head is no move,
    nor is one that would make the head a loose bend (:func:`bend_pass`),
    and a head beside the other head has that join as its only move.

    Returns
    -------
    int
        The number of moves, written to ``out[:count]`` in neighbour order
        (``out`` needs room for the head's degree); ``limit`` once that many
        are found (the rest are not looked at: their bend walks cost most).
        ``quiet`` is a two-entry int64 array holding zeros: the bend walk's
        ``must`` and ``chain`` when a move is only tried (nothing recorded).
    """
    h = heads[slot]
    other = heads[slot ^ 1]
    mine = (slot >> 1) + 1
    ahead = linked_free(color, ptr, nbr, link, h, -1)
    if ahead >= 0:  # inside a fragment: on along it, unless that touches the flow's own path
        if heuristic and _touches_own(color, ptr, nbr, ahead, h, other, mine):
            return 0
        out[0] = ahead
        return 1
    count = 0
    back = -1  # the node before the head, if the head is no endpoint
    if heuristic:
        for i in range(ptr[h], ptr[h + 1]):
            w = nbr[i]
            if w == other:  # the join is the only move (looked for first: ``limit`` may stop the loop below)
                out[0] = w
                return 1
            if color[w] & FLOW == mine and not endpoint[h]:
                back = w
    for i in range(ptr[h], ptr[h + 1]):
        v = nbr[i]
        if v == other:
            pass  # a move (without the heuristic; with it, returned above)
        elif color[v] == 0:
            if full(link, v):
                continue
            if heuristic:
                if _touches_own(color, ptr, nbr, v, h, other, mine):
                    continue
                if back >= 0 and bend_chain(color, link, ptr, nbr, endpoint, h, back, v, mine, quiet, quiet[:1]):
                    continue
        else:
            continue
        out[count] = v
        count += 1
        if count == limit:
            break
    return count


@njit_borrowed
def _touches_own(color, ptr, nbr, v, h, other, mine):  # pragma: no cover - compiled
    """Whether ``v`` is next to a node of flow ``mine`` other than the head ``h`` and the other head."""
    for j in range(ptr[v], ptr[v + 1]):
        w = nbr[j]
        if w != h and w != other and (color[w] & FLOW) == mine:
            return True
    return False


@kernel("UniTuple(i8, 2)(u1[::1], u1[::1], i8[::1], i8[::1], i8[::1], i8[::1], i8, b1, u1[::1], i8[:, ::1], "
        "i8[::1], i8[::1], i8[::1])")
@njit_borrowed
def fewest_moves(color, link, ptr, nbr, heads, slots, done, heuristic, endpoint, goal, out, scratch, quiet
                 ):  # pragma: no cover
    """The slot among ``slots`` whose head has the fewest moves, unfinished flows only.

    Ties go to a head with a move into a fragment (a free node with a
    known link, :mod:`.fragments`), then to the head nearest its goal
    (``goal[slot ^ 1, head]``: the distance to the flow's other endpoint,
    in links), then to the first slot: which flow takes a fragment is
    settled early, and a flow about to close is finished before the others
    are crossed (both tie-breaks measured: docs/benchmarks.md, "Design
    measurements"). One compiled call instead of one :func:`head_moves`
    per head.

    Returns
    -------
    slot, count : int
        ``-1, 0`` when every flow is finished; the slot's moves are in
        ``out[:count]`` (``scratch`` is work space of the same size, ``quiet``
        as for :func:`head_moves`). Runs without numba's reference counting:
        one count per array argument of every head's call cost more than
        the moves themselves.
    """
    best_slot = -1
    best = 0
    best_far = 0
    for i in range(slots.shape[0]):
        slot = slots[i]
        if (done >> (slot >> 1)) & 1:
            continue
        # a head with more moves than the best so far is not chosen: count one past it at most
        n = head_moves(color, link, ptr, nbr, heads, slot, heuristic, endpoint, scratch,
                       best + 1 if best_slot >= 0 else scratch.shape[0], quiet)
        # the tie-break: a head that can enter a fragment first, then the nearest its goal
        far = goal[slot ^ 1, heads[slot]]
        for k in range(n):
            if link[scratch[k]]:
                far -= goal.shape[1]  # below every distance, which is at most the node count
                break
        if best_slot < 0 or n < best or (n == best and far < best_far):
            best_slot = slot
            best = n
            best_far = far
            for k in range(n):  # (a slice copy costs numba's reference counting)
                out[k] = scratch[k]
            if n == 0:
                break
    return best_slot, best


@kernel("UniTuple(i8, 2)(u1[::1], i8[::1], i8, i8, i8, i8)")
@njit_borrowed
def step_head(color, heads, slot, v, done, free):  # pragma: no cover - compiled
    """Move the head in ``slot`` to ``v`` in place; joining the other head finishes the flow.

    Returns
    -------
    done, free : int
        The finished-flow bitmask and free-node count after the move.
    """
    h = heads[slot]
    color[h] &= FLOW
    if v == heads[slot ^ 1]:
        color[v] &= FLOW
        done |= np.int64(1) << (slot >> 1)
    else:
        color[v] = ((slot >> 1) + 1) | ACTIVE
        heads[slot] = v
        free -= 1
    return done, free
