"""Find explain's next step: its techniques, tier by tier.

Explain's techniques on a :class:`.explain_board.ExplainBoard`: the next step of tiers 1-4 and the one-step trials
(tier 5), both decided by the compiled rules (:mod:`flowgraph.kernels.steps`, :mod:`flowgraph.kernels.trials`,
the only statement of them), and tier 6's guess. Package-private: :mod:`.explain` is the API.
"""

from __future__ import annotations

import time

import numpy as np

from ..engines import memory
from ..errors import SearchLimitError
from ..kernels.codes import CUT, LINE, TRIAL_NO_WAY_OUT, TRIAL_TOO_MANY, TRIAL_TWO_FLOWS, TRIAL_WHY, UNDECIDED
from .explain_board import Contradiction, ExplainBoard


def apply_step(b: ExplainBoard, lines: list[int], cuts: list[int]) -> None:
    for e in lines:
        if b.state[e] == CUT:
            raise Contradiction("a link both used and ruled out", b.links[e])
        b.state[e] = LINE
    for e in cuts:
        if b.state[e] == LINE:
            raise Contradiction("a link both used and ruled out", b.links[e])
        b.state[e] = CUT


def _why(b: ExplainBoard, code: int, flow: int, cells: tuple[int, ...]) -> str:
    """A contradiction's words (:data:`flowgraph.kernels.codes.TRIAL_WHY`), the cell named where one cell shows it."""
    why = str(TRIAL_WHY[code]).format(b.labels[flow])
    if code in (TRIAL_NO_WAY_OUT, TRIAL_TOO_MANY, TRIAL_TWO_FLOWS):
        why += f" at {b.name(cells[0])}"
    return why


def easy_steps(b: ExplainBoard, up_to: int) -> tuple[int, list[int], list[int], int | None, list[int]] | None:
    """The first deduction of tier at most ``up_to`` (tiers 1-4): (tier, lines, cuts, flow, because); None when
    there is none (:func:`flowgraph.kernels.first_step` decides). Raises Contradiction on a board that breaks a
    rule."""
    from .. import kernels

    k = b.kernel()
    decided = np.empty(max(len(b.links), 2), np.int64)
    cells = np.empty(max(b.n, 2), np.int64)
    tier, code, lines, cuts, count, flow = kernels.first_step(*k,
                                                              np.array(b.state, np.int8), up_to, decided, cells)
    found = cells[:count].tolist()
    if code:
        raise Contradiction(str(_why(b, code, flow, tuple(found))), tuple(found))
    if not tier:
        return None
    chosen = decided[:lines + cuts].tolist()
    return tier, chosen[:lines], chosen[lines:], flow if flow >= 0 else None, found


def in_sight_steps(b: ExplainBoard) -> int:
    """The easy deductions on ``b``: cells with a forced move (tier 1) plus dead-end links (tier 2); a board
    that already breaks a rule counts 0 (:func:`flowgraph.kernels.in_sight`)."""
    from .. import kernels

    k = b.kernel()
    return int(kernels.in_sight(*k, np.array(b.state, np.int8)))


def trial_steps(b: ExplainBoard, truth: list[bool], deadline: float | None = None
            ) -> tuple[list[int], list[int], str, tuple[int, ...]] | int:
    """Tier 5, else tier 6's link: (lines, cuts, why, cells) of the first link whose one value makes tiers
    1-3 fail, else tiers 1-4; else the link to guess (:func:`_guess`).

    Links at a head (a cell with a line, or an endpoint) are tried first, as a person looks there.
    Only each link's value against the solution is tried: the rules are sound, so the solution's
    own value never fails (the guess's sweep tries those too, and a failure there is still a step).
    Each trial applies the rules to their end in compiled code
    (:func:`flowgraph.kernels.trials.sweep_trials`: the rules of :func:`easy_steps`'s steps, to the end
    taking them one by one reaches); the sweep with tiers 1-4 starts each trial where tiers 1-3 left
    it, as tiers 1-3 reach their end before a first bottleneck anyway.
    Raises SearchLimitError past ``deadline`` (``time.perf_counter`` seconds; checked every 256 trials)."""
    from .. import kernels

    k = b.kernel()
    state = np.array(b.state, np.int8)
    cells = np.zeros(b.n, np.int64)
    at_head = [b.flow_of_end[v] >= 0 or b.count(v)[0] > 0 for v in range(b.n)]
    todo = [e for e in range(len(b.links)) if b.state[e] == UNDECIDED]
    todo.sort(key=lambda e: not (at_head[b.links[e][0]] or at_head[b.links[e][1]]))
    order = np.array(todo, np.int64)
    ends = np.empty((len(todo), len(b.links)), np.int8)

    def sweep(values: np.ndarray, up_to: int, from_ends: bool) -> tuple[list[int], list[int], str, tuple[int, ...]] | None:
        for lo in range(0, len(todo), 256):
            if lo and deadline is not None and time.perf_counter() > deadline:
                raise SearchLimitError("time", {"trials": lo})
            if lo and memory.exceeded():
                raise SearchLimitError("memory", {"trials": lo})
            i, code, count, flow = kernels.sweep_trials(*k, state, up_to,
                                                       order, values, lo, min(lo + 256, len(todo)), from_ends, ends, cells)
            if code:
                found = tuple(cells[:count].tolist())
                why = _why(b, code, flow, found)
                e = todo[i]
                return ([], [e], why, found) if values[i] == LINE else ([e], [], why, found)
        return None

    true = np.array([LINE if truth[e] else CUT for e in todo], np.int8)
    false = (LINE + CUT - true).astype(np.int8)
    found = sweep(false, 3, False) or sweep(false, 4, True) or sweep(true, 4, False)
    if found is not None:
        return found
    return _guess(todo, ends)


def leap_step(b: ExplainBoard, e: int, value: int) -> int:
    """How far tiers 1-4 take the board down a choice of tier 6 before they stall: the links they decide after
    link ``e`` is set to ``value`` (the choice with no solution), none of them a contradiction (else the step
    were tier 5's). It sizes the leap: a person who tries that choice decides that many links and must still
    guess again to see it fail. Usually 0 on the game's levels: tier 6's links are where a trial stalls."""
    from .. import kernels

    k = b.kernel()
    state = np.array(b.state, np.int8)
    ends = np.empty((1, len(b.links)), np.int8)
    cells = np.zeros(b.n, np.int64)
    kernels.sweep_trials(*k, state, 4, np.array([e], np.int64), np.array([value], np.int8), 0, 1, False, ends, cells)
    return int(np.count_nonzero(ends[0] != UNDECIDED) - np.count_nonzero(state != UNDECIDED)) - 1


def _guess(todo: list[int], ends: np.ndarray) -> int:
    """Tier 6's link: of the undecided links ``todo``, the one whose true value lets tiers 1-4 decide the
    most (``ends``: each one's trial with that value, to its end), as a person guesses where a guess tells
    most; ties to the first link."""
    decided = np.count_nonzero(ends, axis=1)
    return todo[max(range(len(todo)), key=lambda i: (int(decided[i]), -todo[i]))]
