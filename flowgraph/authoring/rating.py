"""A solving path's rating: its hardest tier, how often, how tight its steps were and how far its paths reach (see
:mod:`.explain`, whose steps it rates).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Protocol


class RatedStep(Protocol):
    """What the rating reads of a step (:class:`.explain.Step`): its tier and the easy deductions in sight."""

    @property
    def tier(self) -> int: ...

    @property
    def in_sight(self) -> int | None: ...

__all__ = ["TIER_WORDS", "TIGHT", "rating_of", "span_of", "tight_share", "tier_word"]

#: A puzzle's tier word by its hardest step's tier.
TIER_WORDS = {1: "easy", 2: "easy", 3: "medium", 4: "medium", 5: "hard", 6: "extreme"}


#: A step is *tight* when at most this many easy deductions are in sight before it (see :func:`rating_of`).
TIGHT = 2


#: Cells of the mean path, and of the shortest beyond two, at which a span part of the rating is 1 - 1/e.
SPAN_MEAN, SPAN_SHORT = 10.0, 5.0


def rating_of(steps: Sequence[RatedStep], lengths: Iterable[int] = ()) -> float:
    """The rating of a solving path, to two decimals (0.0 with no step).

    Parameters
    ----------
    steps : sequence of RatedStep (an :class:`.explain.Step`)
        The solving path.
    lengths : iterable of int
        The cells of each path of the solution (none: the span counts 0).

    Returns
    -------
    float
        ``tier + 0.99 * (0.2 * (1 - 0.9 ** uses) + 0.1 * tight + 0.3 * long + 0.4 * short)``: the
        hardest tier; the times it was used; ``tight``, the share of steps with at most
        :data:`TIGHT` easy deductions in sight (a step whose ``in_sight`` is None is not tight);
        and the span a person must trace (:func:`span_of`): ``long`` from the mean path,
        ``short`` from the shortest. Each part is 0 to 1, so the decimal stays below 1 and the
        tier word never changes with it.

    Notes
    -----
    The uses follow Sudoku Explainer (a puzzle rated by its hardest technique); the tight share
    follows Pelánek's model of human problem solving ("Difficulty rating of Sudoku puzzles by a
    computational model", FLAIRS 2011: the time to find a step grows as fewer steps are
    available); the span follows van Kreveld, Löffler and Mutser ("Automated puzzle difficulty
    estimation", CIG 2015: Flow levels rated by a function of the level's aspects): long paths
    are traced far, and a short one (a "filler" flow) is a free foothold. The weights were chosen
    against the game's Extreme packs on one sample and checked on another (docs/benchmarks.md).
    """
    if not steps:
        return 0.0
    top = max(s.tier for s in steps)
    uses = sum(s.tier == top for s in steps)
    long, short = span_of(lengths)
    return round(top + 0.99 * (0.2 * (1 - 0.9 ** uses) + 0.1 * tight_share(steps) + 0.3 * long + 0.4 * short), 2)


def span_of(lengths: Iterable[int]) -> tuple[float, float]:
    """The span of a solution's paths, as two parts of the rating, each 0 to 1 (0, 0 with no path).

    Parameters
    ----------
    lengths : iterable of int
        The cells of each path (an endpoint to the other, both counted).

    Returns
    -------
    long : float
        ``1 - exp(-mean / 10)``: a mean path of 10 cells 0.63, of 20 cells 0.86.
    short : float
        ``1 - exp(-(shortest - 2) / 5)``: two endpoints side by side 0, a shortest path of 7 cells 0.63.
    """
    cells = list(lengths)
    if not cells:
        return 0.0, 0.0
    return 1 - math.exp(-sum(cells) / len(cells) / SPAN_MEAN), 1 - math.exp(-(min(cells) - 2) / SPAN_SHORT)


def tight_share(steps: Sequence[RatedStep]) -> float:
    """The share of ``steps`` taken with at most :data:`TIGHT` easy deductions in sight (0.0 with no step;
    a step whose ``in_sight`` is None is not tight)."""
    if not steps:
        return 0.0
    return sum(s.in_sight is not None and s.in_sight <= TIGHT for s in steps) / len(steps)


def tier_word(rating: float) -> str:
    """``easy``, ``medium``, ``hard`` or ``extreme`` for a rating."""
    return TIER_WORDS.get(max(1, min(6, int(rating))), "easy")
