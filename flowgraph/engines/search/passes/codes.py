"""Colour bits and reason codes shared by the compiled passes."""

from __future__ import annotations

from numba import njit

__all__ = ["REASONS", "ACTIVE", "FLOW"]


#: Reason code -> the words prune_reason reports (0: the state survives).
REASONS = (
    None, "stranded region", "stranded flow", "parity", "dead pocket", "bottleneck", "chokepoint",
    "no moves", "dead end", "two flows meet", "unfilled cells", "loose bend",
)



(
    _STRANDED_REGION, _STRANDED_FLOW, _PARITY, _DEAD_POCKET, _BOTTLENECK, _CHOKEPOINT,
    _NO_MOVES, _DEAD_END, _TWO_FLOWS_MEET, _UNFILLED, _LOOSE_BEND,
) = range(1, 12)



ACTIVE = 0x40  # colour bit: head or goal of an unfinished flow



FLOW = 0x3F  # colour bits: flow index + 1



@njit(cache=True)
def _popcount(x):
    c = 0
    while x:
        x &= x - 1
        c += 1
    return c



@njit(cache=True)
def _linkable(color, w):
    """Whether a path may still link to ``w``: a free node or a head (or goal)."""
    return color[w] == 0 or color[w] & ACTIVE



@njit(cache=True)
def _slot_of(color, heads, d):
    slot = 2 * ((color[d] & FLOW) - 1)
    if heads[slot] != d:
        slot += 1
    return slot
