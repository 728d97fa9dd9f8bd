"""Colour bits and reason codes; plain Python (the search reads them without loading numba).

A node's colour byte is 0 when the node is free, else ``k + 1`` for flow
``k`` (:data:`FLOW` bits), with the :data:`ACTIVE` bit on the heads (and
goals) of unfinished flows. Flow ``k`` owns slots ``2k`` and ``2k + 1`` of
the heads array.
"""

from __future__ import annotations

__all__ = [
    "REASONS", "ACTIVE", "FLOW",
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

ACTIVE = 0x40  # colour bit: head or goal of an unfinished flow
FLOW = 0x3F  # colour bits: flow index + 1
