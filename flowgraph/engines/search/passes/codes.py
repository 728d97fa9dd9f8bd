"""Colour bits, reason codes and the small tests every compiled pass shares.

A node's colour byte is 0 when the node is free, else ``k + 1`` for flow
``k`` (:data:`FLOW` bits), with the :data:`ACTIVE` bit on the heads (and
goals) of unfinished flows. Flow ``k`` owns slots ``2k`` and ``2k + 1`` of
the heads array.
"""

from __future__ import annotations

from numba import njit

__all__ = [
    "REASONS", "ACTIVE", "FLOW", "popcount", "linkable", "slot_of", "heads_beside", "njit_borrowed",
    "STRANDED_REGION", "STRANDED_FLOW", "PARITY", "DEAD_POCKET", "BOTTLENECK", "CHOKEPOINT",
    "NO_MOVES", "DEAD_END", "TWO_FLOWS_MEET", "UNFILLED", "LOOSE_BEND", "CLOSED_LOOP", "SELF_TOUCH",
]

#: Reason code -> the words prune_reason reports (0: the state survives).
REASONS = (
    None, "stranded region", "stranded flow", "parity", "dead pocket", "bottleneck", "chokepoint",
    "no moves", "dead end", "two flows meet", "unfilled cells", "loose bend", "closed loop", "self-touch",
)
(
    STRANDED_REGION, STRANDED_FLOW, PARITY, DEAD_POCKET, BOTTLENECK, CHOKEPOINT,
    NO_MOVES, DEAD_END, TWO_FLOWS_MEET, UNFILLED, LOOSE_BEND, CLOSED_LOOP, SELF_TOUCH,
) = range(1, 14)

def njit_borrowed(fn):
    """``@njit(cache=True)`` without numba's reference counting (NRT), for helpers that allocate nothing.

    Numba counts a reference to every array argument on entry to a compiled
    function and drops it on exit, each an atomic instruction; in the
    passes' helpers, called per node and per move, those counts were more
    than half the search's time (docs/benchmarks.md, "Design measurements",
    "Helpers without reference counting"). Compiled with
    ``_nrt=False`` a helper borrows its arrays from the caller, which holds
    them for the whole call. Such a helper cannot make arrays (``np.empty``
    and the like): its callers pass work space in.
    """
    return njit(cache=True, _nrt=False)(fn)  # type: ignore[call-overload]  # (numba's stubs omit _nrt)


ACTIVE = 0x40  # colour bit: head or goal of an unfinished flow
FLOW = 0x3F  # colour bits: flow index + 1


@njit(cache=True)
def popcount(x):  # pragma: no cover - compiled
    """Number of set bits of a flow bitmask."""
    c = 0
    while x:
        x &= x - 1
        c += 1
    return c


@njit(cache=True)
def linkable(color, w):  # pragma: no cover - compiled
    """Whether a path may still link to ``w``: a free node or a head (or goal)."""
    return color[w] == 0 or color[w] & ACTIVE


@njit(cache=True)
def slot_of(color, heads, d):  # pragma: no cover - compiled
    """The slot whose head is the node ``d`` (a head of an unfinished flow)."""
    slot = 2 * ((color[d] & FLOW) - 1)
    if heads[slot] != d:
        slot += 1
    return slot


@njit(cache=True)
def heads_beside(ptr, nbr, a, b):  # pragma: no cover - compiled
    """Whether the nodes ``a`` and ``b`` are linked: two heads side by side can join at once."""
    for i in range(ptr[a], ptr[a + 1]):
        if nbr[i] == b:
            return True
    return False
