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

__all__ = ["TIER_WORDS", "TIGHT", "WEIGHTS", "rating_of", "span_of", "tight_share", "tier_word", "tier_words",
           "technique_part"]

#: A puzzle's word by its rating: each word's lowest rating. Chosen on the game's own packs (docs/benchmarks.md):
#: every level of its Extreme packs rates at least 6.75 at every size from 8x8 to 12x12, about 5 % of its other
#: levels do; the other levels' quartiles are near 5.5 and 6.25.
TIER_WORDS = {"easy": 0.0, "medium": 5.5, "hard": 6.25, "extreme": 6.75}


#: A step is *tight* when at most this many easy deductions are in sight before it (see :func:`rating_of`).
TIGHT = 2


#: The mean path, in board sides (the square root of the cells), and the shortest path beyond two cells, at which a
#: span part of the rating is 1 - 1/e.
SPAN_MEAN, SPAN_SHORT = 1.0, 5.0

#: The weight of each part of the rating (they add up to 1): the techniques, the mean path, the shortest path and
#: the tight share. Chosen on two samples of the game's packs against its Extreme packs and checked on a third and
#: on the held-out Extreme Rainbow pack (``bench/rating_auc.py``, docs/benchmarks.md).
WEIGHTS = {"techniques": 0.075, "long": 0.74, "short": 0.15, "tight": 0.035}


def rating_of(steps: Sequence[RatedStep], lengths: Iterable[int] = (), cells: int | None = None) -> float:
    """The rating of a solving path, 0 to 10, to two decimals (0.0 with no step).

    Parameters
    ----------
    steps : sequence of RatedStep (an :class:`.explain.Step`)
        The solving path.
    lengths : iterable of int
        The cells of each path of the solution (none: the span counts 0).
    cells : int, optional
        The board's cells (default: the paths' cells together, as under Flow Free's rules).

    Returns
    -------
    float
        ``10 * (0.075 * techniques + 0.74 * long + 0.15 * short + 0.035 * tight)`` (:data:`WEIGHTS`), each part
        0 to 1: ``techniques``, the hardest tier and how often it was used (:func:`technique_part`); the span a
        person must trace (:func:`span_of`): ``long`` from the mean path in board sides, ``short`` from the
        shortest; ``tight``, the share of steps with at most :data:`TIGHT` easy deductions in sight (a step
        whose ``in_sight`` is None is not tight). Its word is :func:`tier_word`'s.

    Notes
    -----
    The parts follow Sudoku Explainer (a puzzle rated by its hardest technique), Pelánek's model of
    human problem solving ("Difficulty rating of Sudoku puzzles by a computational model", FLAIRS
    2011: the time to find a step grows as fewer steps are available) and van Kreveld, Löffler and
    Mutser ("Automated puzzle difficulty estimation", CIG 2015: Flow levels rated by a function of
    the level's aspects: long paths are traced far, a short one, a "filler" flow, is a free
    foothold). Against the game's Extreme packs the span carries most of what separates them; the
    weights make the whole at least as good as its best part, pooled, within a size and with size
    and flows matched (docs/benchmarks.md), and the mean path in board sides makes a rating mean the
    same at every size.
    """
    if not steps:
        return 0.0
    lengths = list(lengths)
    long, short = span_of(lengths, cells)
    parts = {"techniques": technique_part(steps), "long": long, "short": short, "tight": tight_share(steps)}
    return round(10 * sum(WEIGHTS[k] * parts[k] for k in WEIGHTS), 2)


def technique_part(steps: Sequence[RatedStep]) -> float:
    """The techniques' part of the rating, 0 to 1: ``(tier - 1 + 1 - 0.9 ** uses) / 6`` of the hardest tier
    (0.0 with no step)."""
    if not steps:
        return 0.0
    top = max(s.tier for s in steps)
    uses = sum(s.tier == top for s in steps)
    return (top - 1 + 1 - 0.9 ** uses) / 6


def span_of(lengths: Iterable[int], cells: int | None = None) -> tuple[float, float]:
    """The span of a solution's paths, as two parts of the rating, each 0 to 1 (0, 0 with no path).

    Parameters
    ----------
    lengths : iterable of int
        The cells of each path (an endpoint to the other, both counted).
    cells : int, optional
        The board's cells (default: the paths' together).

    Returns
    -------
    long : float
        ``1 - exp(-mean / sqrt(cells))``: the mean path in board sides; a mean path as long as the board's
        side 0.63, twice as long 0.86.
    short : float
        ``1 - exp(-(shortest - 2) / 5)``: two endpoints side by side 0, a shortest path of 7 cells 0.63.
    """
    paths = list(lengths)
    if not paths:
        return 0.0, 0.0
    side = math.sqrt(cells if cells else sum(paths))
    mean = sum(paths) / len(paths)
    return 1 - math.exp(-mean / side / SPAN_MEAN), 1 - math.exp(-(min(paths) - 2) / SPAN_SHORT)


def tight_share(steps: Sequence[RatedStep]) -> float:
    """The share of ``steps`` taken with at most :data:`TIGHT` easy deductions in sight (0.0 with no step;
    a step whose ``in_sight`` is None is not tight)."""
    if not steps:
        return 0.0
    return sum(s.in_sight is not None and s.in_sight <= TIGHT for s in steps) / len(steps)


def tier_words() -> str:
    """The words and their bounds, as help texts say them (read from :data:`TIER_WORDS`, never typed twice).

    >>> tier_words()
    'easy below 5.5, medium below 6.25, hard below 6.75, else extreme'
    """
    bounds = sorted(TIER_WORDS.items(), key=lambda item: item[1])
    below = ", ".join(f"{word} below {nxt:g}" for (word, _), (_, nxt) in zip(bounds, bounds[1:]))
    return f"{below}, else {bounds[-1][0]}"


def tier_word(rating: float) -> str:
    """Name a rating's tier.

    ``easy``, ``medium``, ``hard`` or ``extreme`` for a rating (:data:`TIER_WORDS`)."""
    return max((low, word) for word, low in TIER_WORDS.items() if rating >= low)[1] if rating >= 0 else "easy"
