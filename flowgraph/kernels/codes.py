"""Colour bits, reason codes and the exhaustive search's codes; plain Python (read without loading numba).

A node's colour byte is 0 when the node is free, else ``k + 1`` for flow
``k`` (:data:`FLOW` bits), with the :data:`ACTIVE` bit on the heads (and
goals) of unfinished flows. Flow ``k`` owns slots ``2k`` and ``2k + 1`` of
the heads array.
"""

from __future__ import annotations

from enum import IntEnum

__all__ = [
    "REASONS", "ACTIVE", "FLOW",
    "STRANDED_REGION", "STRANDED_FLOW", "PARITY", "DEAD_POCKET", "BOTTLENECK", "CHOKEPOINT",
    "NO_MOVES", "DEAD_END", "TWO_FLOWS_MEET", "UNFILLED", "LOOSE_BEND", "CLOSED_LOOP", "SELF_TOUCH",
    "LinkState", "UNDECIDED", "LINE", "CUT", "EXHAUSTED", "CAPPED", "PAUSED", "REGISTERS", "REG_DEPTH", "REG_TRAIL",
    "REG_NODES", "REG_FOUND", "REG_STARTED", "REG_H1", "REG_H2", "REG_FROM", "REG_HITS", "REG_TAKEN",
    "TRIAL_NO_WAY_OUT", "TRIAL_TOO_MANY", "TRIAL_LOOP", "TRIAL_TWO_FLOWS", "TRIAL_NO_PATH", "TRIAL_LOOSE", "TRIAL_CUT_OFF",
    "TRIAL_WHY",
    "STACK_COLUMNS", "LOW31",
    "hash_fits",
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



class LinkState(IntEnum):
    """Encode a link's state.

    A link's state, the one encoding of it: the link search's link bytes (uint8), explain's board and its
    compiled trials (int8) alike. A trial's other choice is ``LINE + CUT - value``."""

    UNDECIDED = 0
    #: The link is part of a path.
    LINE = 1
    #: The link is ruled out.
    CUT = 2


#: :class:`LinkState`'s values as plain ints, for the compiled kernels (numba folds module ints into the code).
UNDECIDED, LINE, CUT = int(LinkState.UNDECIDED), int(LinkState.LINE), int(LinkState.CUT)

# The exhaustive link search (link_search.py).
#: What ``exhaust_pass`` returns: the search is over, stopped at ``cap`` solutions, or paused.
EXHAUSTED, CAPPED, PAUSED = 0, 1, 2
#: Registers (``regs``): 0 depth, 1 trail length, 2 decisions made, 3 solutions found, 4 started,
#: 5-6 the frontier's hash, 7 the first node whose terms are in it, 8 memo hits, 9 memo slots taken.
REGISTERS = 10
#: The registers by name, in that order (``REG_NODES``: decisions made).
REG_DEPTH, REG_TRAIL, REG_NODES, REG_FOUND, REG_STARTED, REG_H1, REG_H2, REG_FROM, REG_HITS, REG_TAKEN = range(REGISTERS)
#: Columns of its ``stack``: node, next set of links to try, trail mark, hash (two), solutions found on entry.
STACK_COLUMNS = 6
LOW31 = 0x7FFFFFFF


#: What explain's one-step trial (:func:`.trials.settle_trial`) or next step (:func:`.steps.first_step`) found: the
#: contradiction's code (0: none); its words are :data:`TRIAL_WHY`.
TRIAL_NO_WAY_OUT, TRIAL_TOO_MANY, TRIAL_LOOP, TRIAL_TWO_FLOWS, TRIAL_NO_PATH, TRIAL_LOOSE, TRIAL_CUT_OFF = range(1, 8)
#: A trial's or a step's contradiction code -> its words (0: none; :data:`TRIAL_CUT_OFF`'s names the flow).
TRIAL_WHY = (None, "a cell with no way out", "a cell with too many lines", "a loop", "two flows meet",
             "a region no path can reach", "a flow with a loose end", "flow {} is cut off")


def hash_fits(n: int, m: int, flows: int) -> bool:
    """Whether every number the exhaustive search hashes for a graph of ``n`` nodes, ``m`` links and
    ``flows`` flows is below 2**31, so that no two of them overlap (else it runs without a memo)."""
    return 2 * m + n * (n + flows + 3) + 2 * n < LOW31
