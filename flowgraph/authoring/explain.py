"""The solving path as a person takes it: techniques in tiers, each step justified (``flowgraph explain``).

A board is a set of links, each undecided, used (a *line*) or ruled out. A step applies the
easiest technique that decides something, in this order (the tier is the position):

1. **forced move**: a cell needs two lines (an endpoint one); when it has as many lines as it
   needs the rest are ruled out, when it has only as many open links as it needs they are all
   lines. Under Numberlink's rules a cell needs none or two: an empty cell with one way in stays
   empty (its link is ruled out), one with a line and one way on takes it;
2. **dead end**: a link that would close a loop, or join two different flows, is ruled out;
3. **stranded region**: a region of empty cells (no line yet, no endpoint) must be entered and
   left by a path: when only two links lead into it, both are lines. Under Numberlink's rules it
   may stay empty instead: it does when at most one link leads in (its links are ruled out);
4. **bottleneck**: every way between the two heads of an unfinished flow, through empty cells,
   crosses one link: it is a line;
5. **one-step contradiction**: with a link taken as a line (or ruled out), tiers 1-3 (then, if
   none does, 1-4) run into a contradiction (a cell with no way out, a loop, two flows meeting, a region nobody can reach,
   a flow cut off), so the link is the other way;
6. **deeper search**: none of the above decides anything; a link of the solution is taken,
   and the search proved the other choice has no solution (for a unique puzzle). The link is
   the one whose true value lets tiers 1-4 decide the most (the failed sweeps of tier 5 have
   just settled every trial), as a person guesses where a guess tells most: fewer guesses, and
   a rating that still tells the hardest levels apart.

The puzzle is rated 0 to 10 by what makes it hard for a person (:func:`rating_of`): its hardest
step (Sudoku Explainer's way, Simon Tatham's difficulty levels as sets of rules), how hard its
steps were to find (Pelánek's model of a person solving: few moves in sight make the next one hard
to spot) and how far its paths reach (van Kreveld et al.'s difficulty function of a level's
aspects): ``rating = 10 * (0.075 * techniques + 0.74 * long + 0.15 * short + 0.035 * tight)``, to
two decimals, where ``techniques`` is the hardest tier and how often it was used, ``long`` and
``short`` the span of the solution's mean path (in board sides) and shortest path (:func:`span_of`),
and ``tight`` the share of steps taken with at most :data:`TIGHT` easy deductions (cells with a
forced move, dead-end links) in sight (:attr:`Step.in_sight`). Measured on the game's own packs,
the span tells its Extreme levels apart (fewer, longer paths, no short filler flow), and the
shortest path where size and number of flows are equal; together they do at least as well as
each alone (docs/benchmarks.md). The word is the highest of :data:`TIER_WORDS` whose lowest rating the
puzzle reaches (:func:`~.rating.tier_words`), ``extreme`` where the game's Extreme levels rate at every size.

Every step agrees with the solution (the tests replay the steps on every bundled and corpus
board, under both rules): techniques 1-5 are sound under the puzzle's rules, and a step of tier 6
is only sound given that the solution is unique, which :func:`explain` reports. The rules are
stated once, compiled (:mod:`flowgraph.kernels.steps`); Numberlink's two (a cell with one way in,
a region with at most one, stays empty) are the ones Nikoli's rule that cells may stay empty adds:
Flow Free's rule that every cell is filled makes both a contradiction instead.

The board model is :mod:`.explain_board`, the techniques :mod:`.techniques`, the rating :mod:`.rating`.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterable
from dataclasses import dataclass, replace

from ..budgets import EXPLAIN_UNIQUE_SECONDS as UNIQUE_SECONDS
from ..budgets import EXPLAIN_UNIQUE_SHARE as UNIQUE_SHARE
from ..engines import memory
from ..errors import SearchLimitError
from ..kernels.codes import CUT
from ..model import Limits, Node, Puzzle, Solution
from .explain_board import LINE, Contradiction, ExplainBoard
from .rating import TIER_WORDS, TIGHT, rating_of, span_of, tier_word, tight_share
from .techniques import apply_step, easy_steps, in_sight_steps, leap_step, trial_steps

__all__ = ["TECHNIQUES", "TIER_WORDS", "TIGHT", "GUESS_NOTES", "Step", "Explanation", "explain", "explanation_json",
           "guess_note", "next_steps", "rating_of", "replay", "span_of", "tier_word", "tight_share"]

#: Technique names, in tier order (tier = position + 1).
TECHNIQUES = ("forced move", "dead end", "stranded region", "bottleneck", "one-step contradiction", "deeper search")




#: Tier 6's words by the puzzle's uniqueness (True, False, None: not settled in the time given).
GUESS_NOTES = {True: "the other choice has no solution (found by search)",
               False: "the solution followed {} (the puzzle has more than one: the other choice may have one too)",
               None: "the solution found {} (whether the other choice has one was not settled in the time given)"}


def guess_note(unique: bool | None, line: bool) -> str:
    """Why a tier-6 step decides its link: :data:`GUESS_NOTES` for a puzzle ``unique`` or not (None: not
    settled), the link a ``line`` of the solution or not ("takes it", "leaves it out")."""
    return GUESS_NOTES[unique].format("takes it" if line else "leaves it out")


@dataclass(frozen=True)
class Step:
    """One step of the solving path.

    Attributes
    ----------
    technique : str
        One of :data:`TECHNIQUES`.
    tier : int
        1 (easiest) to 6.
    flow : str or None
        The flow the step is about, when one is.
    lines : tuple of (Node, Node)
        Links the step makes lines.
    cuts : tuple of (Node, Node)
        Links the step rules out.
    because : tuple of Node
        The cells that justify it (the cell, the region, the flow's heads, where the trial failed).
    note : str
        One sentence saying why.
    in_sight : int or None
        The easy deductions on the board just before the step (cells with a forced move, plus
        links that are dead ends): how many moves a person had in sight; None when not counted.
    """

    technique: str
    tier: int
    flow: str | None
    lines: tuple[tuple[Node, Node], ...]
    cuts: tuple[tuple[Node, Node], ...]
    because: tuple[Node, ...]
    note: str
    in_sight: int | None = None


@dataclass(frozen=True)
class Explanation:
    """What :func:`explain` found.

    Attributes
    ----------
    steps : tuple of Step
    solution : Solution
        The solution the steps build (verified).
    unique : bool or None
        Whether the solution is unique (None: not known in the time given); tier-6 steps rely on it.
    """

    steps: tuple[Step, ...]
    solution: Solution
    unique: bool | None

    @property
    def rating(self) -> float:
        """How hard the puzzle is, from 0 to 10.

        0 to 10, to two decimals: the hardest tier and its uses, the share of tight steps and the paths' span
        (:func:`rating_of`)."""
        return rating_of(self.steps, self.lengths, self.solution.puzzle.cells)

    @property
    def lengths(self) -> list[int]:
        """The cells of each path of the solution, in flow order."""
        return [len(path) for path in self.solution.paths.values()]

    @property
    def tier(self) -> str:
        """The rating's word.

        ``easy``, ``medium``, ``hard`` or ``extreme`` (:func:`tier_word` of the rating)."""
        return tier_word(self.rating)

    @property
    def hardest(self) -> int:
        """The hardest step's tier (0 with no step)."""
        return max((s.tier for s in self.steps), default=0)

    @property
    def tight(self) -> float:
        """The share of steps taken with at most :data:`TIGHT` easy deductions in sight (0.0 to 1.0)."""
        return tight_share(self.steps)

    @property
    def counts(self) -> dict[str, int]:
        """Steps per technique, every technique named."""
        return {t: sum(s.technique == t for s in self.steps) for t in TECHNIQUES}


def explain(puzzle: Puzzle, limits: Limits | None = None, *, solution: Solution | None = None,
            unique: bool | None = None) -> Explanation:
    """The solving path of ``puzzle``, easiest technique first at each step.

    Parameters
    ----------
    puzzle : Puzzle
        Any family (square, hex, warps, bridges, holes), under its rules: Flow Free's, or Numberlink's (a
        cell may stay empty).
    limits : Limits, optional
        The budget for the whole explanation: the solution, the uniqueness check (at most
        :data:`~flowgraph.budgets.EXPLAIN_UNIQUE_SECONDS`, and
        :data:`~flowgraph.budgets.EXPLAIN_UNIQUE_SHARE` of the time left; past it the uniqueness
        is unknown) and the steps.
    solution : Solution, optional
        A verified solution already at hand (a hint's, a generator's): not solved for again.
    unique : bool, optional
        Whether the puzzle is known to be unique: not counted again.

    Returns
    -------
    Explanation
        Its steps decide every link; each agrees with :attr:`Explanation.solution`.

    Raises
    ------
    UnsolvableError
        The puzzle has no solution.
    SearchLimitError
        The time limit (reason ``"time"``) or the memory bound (``"memory"``: the call grew the process's
        resident memory by more than ``limits.memory_bytes``, :mod:`flowgraph.engines.memory`) ran out,
        solving or before the last step.
    """
    from ..engines import solve_puzzle
    from .uniqueness import count_solutions

    t0 = time.perf_counter()
    limits = limits or Limits()
    with memory.watch(limits.memory_bytes):
        deadline = None if limits.time_limit_s is None else t0 + limits.time_limit_s
        if solution is None:
            solution = solve_puzzle(puzzle, "auto", limits)
        if unique is None:
            budget = UNIQUE_SECONDS if deadline is None else min(UNIQUE_SECONDS, UNIQUE_SHARE * (deadline - time.perf_counter()))
            unique = {"unique": True, "multiple": False}.get(
                count_solutions(puzzle, 2, replace(limits, time_limit_s=max(0.01, budget))).verdict)
        return _steps(puzzle, solution, unique, deadline, t0)


def _steps(puzzle: Puzzle, solution: Solution, unique: bool | None, deadline: float | None,
           t0: float) -> Explanation:
    """:func:`explain`'s steps, once the solution and its uniqueness are known."""
    b = ExplainBoard(puzzle)
    truth = _truth(b, solution)
    steps: list[Step] = []
    while not b.done():
        _check(deadline, {"seconds": round(time.perf_counter() - t0, 6), "steps": len(steps)})
        steps.append(_step(b, truth, unique, deadline))
    return Explanation(tuple(steps), solution, unique)


def _check(deadline: float | None, stats: dict) -> None:
    """Stop with ``SearchLimitError`` once the time is up or the memory watch says the call grew past its bound."""
    if deadline is not None and time.perf_counter() > deadline:
        raise SearchLimitError("time", stats)
    if memory.exceeded():
        raise SearchLimitError("memory", stats)


def _step(b: ExplainBoard, truth: list[bool], unique: bool | None, deadline: float | None) -> Step:
    """The next step on ``b`` (the easiest technique that decides something), applied to ``b``."""
    in_sight = in_sight_steps(b)
    found = easy_steps(b, 4)
    if found is not None:
        tier, lines, cuts, k, cells = found
        note = _note(tier, b, lines, cuts, cells)
        because = tuple(cells)
    else:
        trial = trial_steps(b, truth, deadline)
        if not isinstance(trial, int):
            lines, cuts, why, because = trial
            tier = 5
            k = None
            e = (lines or cuts)[0]
            note = (f"if {_name(b, e)} were {'ruled out' if lines else 'a line'}, {why}")
        else:
            e = trial
            lines, cuts = ([e], []) if truth[e] else ([], [e])
            tier, k, because = 6, None, b.links[e]
            note = f"{_name(b, e)} {'is a line' if truth[e] else 'is ruled out'}: {guess_note(unique, truth[e])}"
            if unique:  # the other choice has no solution: say how far the easier techniques go down it
                far = leap_step(b, e, CUT if truth[e] else LINE)
                decides = f"decides {far} more link{'s' if far != 1 else ''} and " if far else ""
                note += f", but a trial of it {decides}finds nothing wrong: it fails only after more guesses"
    flow = k if k is not None else _flow_of(b, lines)
    apply_step(b, lines, cuts)
    return Step(TECHNIQUES[tier - 1], tier, b.labels[flow] if flow is not None and flow >= 0 else None,
                tuple(_pair(b, e) for e in lines), tuple(_pair(b, e) for e in cuts),
                tuple(b.nodes[v] for v in because), note, in_sight)


def _truth(b: ExplainBoard, solution: Solution) -> list[bool]:
    """Per link of ``b``: whether ``solution`` uses it."""
    number = solution.puzzle.cell_index.number
    used = {frozenset((number[u], number[v])) for path in solution.paths.values() for u, v in itertools.pairwise(path)}
    return [frozenset(link) in used for link in b.links]


def next_steps(solution: Solution, drawn: Iterable[tuple[Node, Node]], limits: Limits | None = None,
               unique: bool | None = None) -> list[Step]:
    """The steps a person takes next on a board where the links ``drawn`` are lines: up to and
    including the first that draws a line (a step that only rules links out is not a move yet).

    Parameters
    ----------
    solution : Solution
        A verified solution of the puzzle (Flow Free rules); the links drawn that it does not use
        are left out (the caller says so: with one solution they cannot be finished).
    drawn : iterable of (Node, Node)
        Links the player has drawn (pairs of neighbouring nodes).
    limits : Limits, optional
        Its ``time_limit_s`` bounds the search for the steps.
    unique : bool, optional
        Whether the puzzle is known to be unique (only tier 6's words use it).

    Returns
    -------
    list of Step
        Empty when the drawn links already decide the whole board.

    Raises
    ------
    SearchLimitError
        The time limit ran out first.
    """
    deadline = None if limits is None or limits.time_limit_s is None else time.perf_counter() + limits.time_limit_s
    b = ExplainBoard(solution.puzzle)
    truth = _truth(b, solution)
    number = solution.puzzle.cell_index.number
    index = {frozenset(link): e for e, link in enumerate(b.links)}
    for u, v in drawn:
        e = index.get(frozenset((number.get(u, -1), number.get(v, -2))))
        if e is not None and truth[e]:
            b.state[e] = LINE
    steps: list[Step] = []
    while not b.done():
        _check(deadline, {"steps": len(steps)})
        steps.append(_step(b, truth, unique, deadline))
        if steps[-1].lines:
            break
    return steps


def replay(found: Explanation) -> list[str]:
    """Replay an explanation's steps against its solution: what disagrees, in words (empty when all agree).

    Each step's technique matches its tier, decides something, makes lines only of links the solution
    uses and rules out only links it does not, and decides no link decided before; the steps
    together decide every link of the board.

    Returns
    -------
    list of str
        One sentence per problem, the step numbered from 1.
    """
    puzzle = found.solution.puzzle
    used = {frozenset(pair) for path in found.solution.paths.values() for pair in itertools.pairwise(path)}
    problems, decided = [], set()
    for i, step in enumerate(found.steps, 1):
        if step.technique != TECHNIQUES[step.tier - 1]:
            problems.append(f"step {i}: technique {step.technique!r} is not tier {step.tier}'s")
        if not step.lines and not step.cuts:
            problems.append(f"step {i}: decides nothing")
        problems += [f"step {i}: makes {pair} a line, which the solution does not use"
                     for pair in step.lines if frozenset(pair) not in used]
        problems += [f"step {i}: rules out {pair}, which the solution uses" for pair in step.cuts if frozenset(pair) in used]
        links = [frozenset(pair) for pair in step.lines + step.cuts]
        problems += [f"step {i}: decides {tuple(link)} again" for link in links if link in decided]
        decided.update(links)
    nodes = puzzle.cell_index.nodes  # (the numbering: the graph need not be built)
    left = {frozenset((nodes[a], nodes[b])) for a, b in puzzle.cell_index.links.tolist()} - decided
    if left:
        problems.append(f"the steps leave {len(left)} links undecided")
    return problems


def _pair(b: ExplainBoard, e: int) -> tuple[Node, Node]:
    u, v = b.links[e]
    return b.nodes[u], b.nodes[v]


def _flow_of(b: ExplainBoard, lines: list[int]) -> int | None:
    if not lines:
        return None
    try:
        root, flow = b.segments()
    except Contradiction:
        return None
    u, v = b.links[lines[0]]
    return flow[u] if flow[u] >= 0 else flow[v] if flow[v] >= 0 else None


def _name(b: ExplainBoard, e: int) -> str:
    u, v = b.links[e]
    return f"{b.name(u)}-{b.name(v)}"


def _note(tier: int, b: ExplainBoard, lines: list[int], cuts: list[int], cells: list[int]) -> str:
    """A step's words, said before it is applied to ``b``."""
    if tier == 1:
        v = cells[0]
        if lines:
            return (f"{b.name(v)} has only {len(lines)} ways left and needs them" if len(lines) > 1
                    else f"{b.name(v)} has only one way left and needs it")
        if b.count(v)[0] == 0:  # Numberlink: a cell with one way in is no way through
            return f"{b.name(v)} has only one way in: it stays empty"
        return f"{b.name(v)} has all its lines"
    if tier == 2:
        return f"{_name(b, cuts[0])} would close a loop or join two flows"
    if tier == 3:
        size = f"{len(cells)} cell{'s' if len(cells) != 1 else ''}"
        if cuts:  # Numberlink: no path passes through it
            return f"the empty region of {size} at {b.name(cells[0])} has at most one way in: it stays empty"
        return f"the empty region of {size} at {b.name(cells[0])} has only two ways in"
    return f"every way between the flow's heads {b.name(cells[0])} and {b.name(cells[1])} crosses {_name(b, lines[0])}"


def explanation_json(path: str, found: Explanation) -> dict:
    """The object ``flowgraph explain --json`` prints: positions as ``[line, column]`` (as ``solve --json``)."""

    def at(node: Node) -> list[int]:
        return [int(node[0]), int(node[1])]

    return {
        "puzzle": path,
        "status": "explained",
        "steps": [{"technique": s.technique, "tier": s.tier, "flow": s.flow,
                   "links": [[at(u), at(v)] for u, v in s.lines], "cuts": [[at(u), at(v)] for u, v in s.cuts],
                   "because": [at(n) for n in s.because], "note": s.note, "in_sight": s.in_sight}
                  for s in found.steps],
        "counts": found.counts,
        "unique": found.unique,
        "rating": found.rating,
        "tier": found.tier,
        "tight": round(found.tight, 4),
        "paths": found.lengths,
    }
