"""Generate puzzles with exactly one solution, on any family and any mask.

Method: a random path cover of the board, made unique by splitting paths.

1. **Cover** (:func:`.covers.random_cover`): self-avoiding walks over the board graph,
   each from the free node with the fewest free neighbours, stepping to the
   tightest next node (Warnsdorff's rule, so the walks strand few nodes) and
   never onto a node that touches the walk's own path other than at its
   head: the paths are chordless, so no 2x2 block of one flow, and their
   ends are never side by side. A walk stops at a random length around the
   mean the flow count asks for. Paths shorter than ``min_length`` are
   merged into a neighbouring path's end.
2. **Uniqueness** (:func:`generate`): the SAT engine's sound model counts
   solutions (:func:`~flowgraph.authoring.uniqueness.count_solutions`).
   While a second solution exists, one of our paths is split at a node
   where the two solutions differ: the new endpoint cannot be the middle
   of a path in the second solution, so that solution is gone. Every split
   adds a flow; a candidate that needs more flows than allowed, or whose
   count runs out of budget, is dropped for a new cover.

Every puzzle returned has been proved unique by the SAT count (warp boards
included: the count runs on the graph, wrap-around links and all), and its
solution is verified.

Notes
-----
The shape rules of the cover (no 2x2 block of one flow, no endpoint with two
neighbours on its own flow) and the default flow range (two thirds to three
halves of the square root of the cells) follow T. Ahle's numberlink
generator (github.com/thomasahle/numberlink, ``gen/gen.py``), which builds
its grids from loops and takes those rules as a sign of uniqueness; here the
cover comes from walks on the board graph, so hex, warps, bridges and masks
need no special case, and uniqueness is proved by the solver, not assumed.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from ..engines import get_engine
from ..errors import FlowgraphError, SearchLimitError
from ..io.sketch import nodes_by_place, place
from ..model import LABELS, Limits, Node, Puzzle, Solution
from ..verification import verify
from .covers import filled_square, four_cycles, merge_down, random_cover, split_path
from .templates import BoardShape, board
from .uniqueness import count_solutions

__all__ = ["generate", "generate_rated", "difficulty_flows", "DIFFICULTIES", "Generated", "GenerationError",
           "pick_bridges", "bridged_board", "FIGURES_STATES"]

#: States the search may spend on a generated puzzle's difficulty figures.
FIGURES_STATES = 200_000
#: A shape board with bridges whose first covers all hold more paths than the default range allows (a long band
#: two or more cells wide: walks end short there and no chordless join is left) takes, from this many covers on,
#: as many flows as their median cover holds: a puzzle rather than none. ``--flows`` given is kept.
ADAPT_AFTER = 20


class GenerationError(FlowgraphError):
    """No unique puzzle was found within the candidates or the time allowed.

    Attributes
    ----------
    seed : int or str or None
        The seed that was tried (the message does not repeat it).
    """

    def __init__(self, message: str, seed: int | str | None = None):
        super().__init__(message)
        self.seed = seed


@dataclass(frozen=True)
class Generated:
    """A generated puzzle and what it took.

    Attributes
    ----------
    puzzle : Puzzle
        Neighbor-link; ``"\\n".join(puzzle.lines)`` is its text.
    solution : Solution
        Its one solution, verified.
    figures : dict
        ``candidates`` (covers made), ``checked`` (covers that met the flow
        range and shape rules and were counted), ``splits`` (repairs of the
        last one), ``first_unique`` (the first counted cover was unique as
        it stood),
        ``seconds``, ``sat_calls``, ``flows``, ``path_lengths`` (min, mean,
        max), and from solving it with the search: ``search_states``,
        ``forced_share`` (moves that were forced, of all moves); both None
        when the search needs more than :data:`FIGURES_STATES` states (the
        figures are best effort; the puzzle is proved unique all the same).
    """

    puzzle: Puzzle
    solution: Solution
    figures: dict = field(default_factory=dict)

    @property
    def text(self) -> str:
        """The puzzle's text, as its file holds it (a newline at the end)."""
        return "\n".join(self.puzzle.lines) + "\n"


def pick_bridges(board: BoardShape, count: int, rng: random.Random) -> list[tuple[int, int]]:
    """Choose the cells to make bridges.

    ``count`` random cells that can be bridges: cells on both sides along ``-`` and ``|``, none side by side."""
    cells = board.cells
    spots = [(x, y) for (x, y), ch in cells.items() if ch == "." and all(
        n in cells and cells[n] != "*" for n in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)))]
    rng.shuffle(spots)
    chosen: list[tuple[int, int]] = []
    for x, y in spots:
        if len(chosen) == count:
            break
        if all(max(abs(x - a), abs(y - b)) > 1 for a, b in chosen):
            chosen.append((x, y))
    if len(chosen) < count:
        raise ValueError(f"the board has room for {len(chosen)} bridges, not {count}")
    return chosen


def bridged_board(family: str, width: int | None = None, height: int | None = None, *,
                  mask: dict[tuple[int, int], str] | None = None, wrap: str | None = None,
                  bridges: int = 0, seed: int | str = 0) -> BoardShape:
    """An empty board (:func:`~.templates.board`) with ``bridges`` bridges placed by ``seed``.

    The CLI's ``generate --bridges N --seed S`` and the studio's generator
    both build their boards here, so one seed gives one board everywhere.
    ``bridges=0`` gives a board with none, whatever the family.

    Raises
    ------
    ValueError
        As :func:`~.templates.board`; or the board has no room for that many bridges.
    """
    empty = board(family, width, height, mask=mask, wrap=wrap)
    cells = {xy: ch for xy, ch in empty.cells.items() if ch != "*"}
    plain = BoardShape(empty.header, cells, empty.wrap_rows, empty.wrap_cols)
    if not bridges:
        return plain
    chosen = pick_bridges(plain, bridges, random.Random(f"bridges:{seed}"))
    return board(family, width, height, mask=mask, wrap=wrap, bridges=chosen)


def generate(
    board: BoardShape,
    *,
    seed: int | str = 0,
    flows: tuple[int, int] | None = None,
    min_length: int = 3,
    no_square: bool | None = None,
    time_limit_s: float | None = None,
    max_candidates: int = 200,
    count_limit_s: float = 10.0,
    rules: str = "flow",
) -> Generated:
    """A puzzle with exactly one solution on ``board``.

    Parameters
    ----------
    board : BoardShape
        From :func:`~flowgraph.authoring.templates.board` (family, size or
        mask, wraps, bridges).
    seed : int or str
        The same seed gives the same puzzle.
    flows : (int, int), optional
        The fewest and most flows (default: seven tenths of the game's median
        flows for the board's size to that median, :func:`_default_flows`).
    min_length : int
        The fewest nodes a path may have (3: no flow is two endpoints side by side).
    no_square : bool, optional
        No 4-cycle of the board (a 2x2 block on a square grid) filled by one
        flow; default on. Chordless walks never make one; merges and splits
        are checked.
    time_limit_s : float, optional
        Give up after this long.
    max_candidates : int
        Give up after this many covers.
    count_limit_s : float
        A cover whose uniqueness is not decided within this many seconds is
        dropped for a new one (proving uniqueness on a large torus can take
        the SAT solver minutes).
    rules : {"flow", "numberlink"}
        The rules under which the puzzle is unique (the SAT count's). Under
        Numberlink rules (cells may stay empty) fewer covers are unique, and
        the puzzle made is unique as Nikoli's Numberlink; it carries the rules.

    Returns
    -------
    Generated

    Raises
    ------
    GenerationError
        No unique puzzle within the limits (the message says which ran out).
    ValueError
        A board with fewer nodes than one flow needs, or an impossible flow range.
    """
    t0 = time.perf_counter()
    rng = random.Random(f"flowgraph:{seed}")
    sketch = board.sketch()
    adj: dict[Node, set[Node]] = {key: set() for key in sketch.spots}
    for pair in sketch.links:
        u, v = tuple(pair)
        adj[u].add(v)
        adj[v].add(u)
    n = len(adj)
    low, high = flows or _default_flows(n, side=_square_side(board))
    high = min(high, len(LABELS))
    if low > high or n < 2 * low:
        raise ValueError(f"{n} cells cannot hold {low} to {high} flows")
    if n < low * max(min_length, 2):
        raise ValueError(f"{n} cells cannot hold {low} flows of at least {min_length} cells each "
                         f"(at most {n // max(min_length, 2)}): lower --min-length or --flows")
    squares = four_cycles(adj) if no_square is not False else []
    bridged = any(s.lane for s in sketch.spots.values())
    # Long flows (the hard and extreme spans) on square boards up to 12x12: half the paths start anywhere, else the
    # endpoints hug the rim. Larger or dense boards, hexagons (triangles), bridges: such covers are seldom unique.
    mean = n / ((low + high) / 2)
    anywhere = n <= LOOSE_MOST_CELLS and mean >= DIFFICULTY_SPANS["hard"][0] * math.sqrt(n) \
        and not bridged and not any(adj[u] & adj[v] for u in adj for v in adj[u])
    sat_calls = 0
    checked = 0  # covers that reached the uniqueness count
    held: list[int] = []  # how many paths each cover over the range held, while no cover fits it
    adapt = flows is None and bridged and not isinstance(board, BoardShape)
    for candidate in range(1, max_candidates + 1):
        if time_limit_s is not None and time.perf_counter() - t0 > time_limit_s:
            break
        paths = random_cover(adj, sketch, rng, mean, min_length, LOOSE_STARTS if anywhere else 0.0)
        if anywhere and paths is not None and len(paths) > (low + high) // 2:
            paths = merge_down(paths, adj, (low + high) // 2, rng)
        elif bridged and paths is not None and len(paths) > high:  # walks end short at the bridges: join some
            paths = merge_down(paths, adj, (low + high) // 2, rng)
        if adapt and paths is not None:
            if len(paths) <= high:
                adapt = False  # the default range is reached: kept
            else:
                held.append(len(paths))
                if len(held) == ADAPT_AFTER:
                    high, adapt = min(len(LABELS), max(high, round(statistics.median(held)))), False
        if paths is None or not low <= len(paths) <= high:
            continue
        splits = 0
        while True:
            if squares and filled_square(paths, squares):
                break
            puzzle, solution = _puzzle(board, sketch, paths)
            puzzle = puzzle.with_rules(rules)
            solution = replace(solution, puzzle=puzzle)
            left = count_limit_s
            if time_limit_s is not None:
                left = min(left, max(0.1, time_limit_s - (time.perf_counter() - t0)))
            checked += splits == 0
            count = count_solutions(puzzle, 2, Limits(time_limit_s=left), sat_only=True)
            sat_calls += 1
            if count.verdict == "unique":
                return Generated(puzzle, verify(solution), _figures(
                    puzzle, solution, candidate, checked, splits, sat_calls, t0))
            if count.verdict != "multiple" or len(paths) >= high:
                break
            paths = split_path(paths, solution, count.solutions, sketch, adj, rng, min_length)
            if paths is None:
                break
            splits += 1
    why = "time" if time_limit_s is not None and time.perf_counter() - t0 > time_limit_s else f"{max_candidates} covers"
    flows_wanted = f"{low} flows" if low == high else f"{low}-{high} flows"
    advice = "a longer --time-limit, another --seed" if why == "time" else "another --seed"
    raise GenerationError(f"no unique puzzle with {flows_wanted} within {why}: try {advice}, more --flows or a smaller "
                          "board", seed)


#: The median number of flows of the game's square levels by side (Flow Free's own level packs,
#: levelpack_*.txt: 341 to 794 levels a size; docs/benchmarks.md "Generated density").
GAME_MEDIAN_FLOWS = {5: 4, 6: 5, 7: 6, 8: 7, 9: 8, 10: 8, 11: 9, 12: 10, 13: 12, 14: 14, 15: 15}


def _square_side(board: BoardShape) -> int | None:
    """The side of a full square board that does not wrap (the game's usual level), else None."""
    if not isinstance(board, BoardShape):  # a shape board (a ring, a cube)
        return None
    xs = {x for x, _ in board.cells}
    ys = {y for _, y in board.cells}
    whole = len(board.cells) == len(xs) * len(ys) and len(xs) == len(ys)
    return len(xs) if whole and not (board.wrap_rows or board.wrap_cols) else None


def _default_flows(n: int, side: int | None = None) -> tuple[int, int]:
    """The default flow range on ``n`` cells.

    A full square board of side 5 to 15 that does not wrap gets seven tenths of the game's median
    (:data:`GAME_MEDIAN_FLOWS`) to that median: the generator ends near the top of its range, so its
    boards have about as many flows as the game's (12x12: 7 to 10; it was 8 to 18 and gave 13-18).
    Other boards get two thirds to three halves of sqrt(cells), as in Ahle's generator: on warps,
    masks and larger boards fewer flows make uniqueness slow to reach (docs/benchmarks.md).
    """
    if side in GAME_MEDIAN_FLOWS:
        high = GAME_MEDIAN_FLOWS[side]
        return max(2, round(0.7 * high)), high
    root = int(n ** 0.5)
    # covers of larger boards hold more paths a side (walks end short): 1.3 sqrt(n) on 16x16, 1.9 on 30x30
    # (``bench/generate_sizes.py``); past 25x25 the top follows them, up to the labels there are
    high = min(len(LABELS), max(3, root * 3 // 2 if root <= 25 else root * 9 // 4))
    return min(high, max(2, root * 2 // 3)), high  # (never a minimum above the maximum: 100x100 asked 66 to 62)


def _puzzle(board: BoardShape, sketch, paths: list[list[Node]]) -> tuple[Puzzle, Solution]:
    """The puzzle with these paths' ends as endpoints (in the board's own format: neighbor-link text, a shape's
    JSON graph), and the paths as its solution."""
    labels = {end: LABELS[k] for k, path in enumerate(paths) for end in (path[0], path[-1])}
    puzzle, problems = board.labelled(sketch, labels)
    if puzzle is None:  # pragma: no cover - the board is valid and every node is on a path
        raise GenerationError(f"internal error: the generated board is invalid: {problems[0].message}")
    node_at = nodes_by_place(puzzle)
    out = {}
    for path in paths:
        nodes = [node_at[place(sketch.spots[v])] for v in path]
        flow = next(f for f in puzzle.flows if nodes[0] in f.ends)
        out[flow.label] = tuple(nodes if nodes[0] == flow.ends[0] else nodes[::-1])
    return puzzle, Solution(puzzle, out, "generate")


def _figures(puzzle: Puzzle, solution: Solution, candidate: int, checked: int, splits: int, sat_calls: int,
             t0: float) -> dict:
    lengths = [len(p) for p in solution.paths.values()]
    seconds = time.perf_counter() - t0
    try:  # best effort: a proved puzzle is never dropped for its figures
        solved: Solution | None = get_engine("search").solve(puzzle, Limits(max_states=FIGURES_STATES))
    except SearchLimitError:
        solved = None
    moves = sum(n - 1 for n in lengths)
    return {
        "candidates": candidate,
        "checked": checked,
        "splits": splits,
        "first_unique": checked == 1 and splits == 0,
        "seconds": round(seconds, 3),
        "sat_calls": sat_calls,
        "flows": len(lengths),
        "path_lengths": [min(lengths), round(statistics.mean(lengths), 1), max(lengths)],
        "search_states": solved.stats["states"] if solved else None,
        "forced_share": (round(1 - solved.stats.get("decisions", 0) / moves, 3) if moves else 1.0) if solved else None,
    }


#: Tiers ``generate --difficulty`` accepts (:data:`flowgraph.authoring.explain.TIER_WORDS`' words).
DIFFICULTIES = ("easy", "medium", "hard", "extreme")


#: The mean path, in board sides (sqrt of the cells), that makes each difficulty likely: the rating's main part
#: (:func:`flowgraph.authoring.rating.span_of`) at the middle of its word's band, shortest path and techniques as
#: they tend to come.
DIFFICULTY_SPANS = {"easy": (0.7, 1.0), "medium": (1.0, 1.25), "hard": (1.25, 1.45), "extreme": (1.45, 2.2)}


def difficulty_flows(n: int, difficulty: str) -> tuple[int, int]:
    """The flow range that makes a ``difficulty`` likely on ``n`` cells: fewer, longer flows are harder.

    The rating rests mostly on the mean path in board sides (:data:`DIFFICULTY_SPANS`), and the
    mean path is ``n / flows``, so each word's band of spans is a band of flows: on 7x7, easy 7-10
    flows, medium 6-7, hard 5, extreme 4; on 10x10, 10-14, 8-10, 7-8, 5-6. At least two flows.
    """
    side = n ** 0.5
    low, high = DIFFICULTY_SPANS[difficulty]
    most = max(2, int(side / low))
    return min(most, max(2, math.ceil(side / high))), most


#: The share of a cover's paths that start at a random cell where flows are long (:func:`.covers.random_cover`), and the
#: largest board (cells) that takes them, the game's Extreme levels' 12x12: at share 1 endpoints lie as the game's
#: do but fewer covers are unique; on 16x16 none was in 60 s (``bench/layout_spread.py``, docs/benchmarks.md).
LOOSE_STARTS, LOOSE_MOST_CELLS = 0.5, 144


#: The shortest path generate_rated asks for by default: the game's Extreme 10x10 levels' shortest
#: path has a median of 8 cells (docs/benchmarks.md); 6 where the board holds it, else 4.
EXTREME_MIN_LENGTH = 6


def _min_length(n: int, flows: int | tuple[int, int], difficulty: str) -> int:
    """The default shortest path for ``difficulty`` on ``n`` cells: 3, 4 for hard, ``EXTREME_MIN_LENGTH``
    for extreme where ``n`` cells hold the fewest flows asked at that length (else 4)."""
    low = flows if isinstance(flows, int) else flows[0]
    if difficulty == "extreme" and n >= low * EXTREME_MIN_LENGTH:
        return EXTREME_MIN_LENGTH
    return 4 if difficulty in ("hard", "extreme") else 3


def generate_rated(make_board: Callable[[str], BoardShape], difficulty: str, *, seed: int | str = 0,
                   tries: int = 60, time_limit_s: float | None = None, **options: Any):
    """A unique puzzle whose :func:`~flowgraph.authoring.explain.explain` tier is ``difficulty``.

    Puzzles are generated from the seeds ``seed``, ``seed.1``, ``seed.2``, ... and rated, and the
    first of the asked tier is kept: Simon Tatham's generators reject a puzzle of another level the
    same way. Without ``flows`` in ``options`` the range is :func:`difficulty_flows`'; without
    ``min_length``, :func:`_min_length`'s (no short filler flows on hard and extreme boards).

    Parameters
    ----------
    make_board : callable
        Seed -> the board to fill (a bridged board depends on its seed).
    difficulty : {"easy", "medium", "hard", "extreme"}
    seed : int or str
    tries : int
        Puzzles generated and rated at most.
    time_limit_s : float, optional
        For all tries together.
    **options
        As for :func:`generate` (``flows``, ``min_length``, ``no_square``, ``rules``: the tier is explain's
        under the same rules).

    Returns
    -------
    (Generated, Explanation, str)
        The puzzle, its solving path and the seed that made it.

    Raises
    ------
    GenerationError
        No puzzle of that tier within ``tries`` or the time.
    ValueError
        An unknown difficulty, or as :func:`generate`.
    """
    from .explain import explain

    if difficulty not in DIFFICULTIES:
        raise ValueError(f"unknown difficulty {difficulty!r}: expected one of {', '.join(DIFFICULTIES)}")
    t0 = time.perf_counter()
    seen: dict[str, int] = {}
    for k in range(tries):
        left = None if time_limit_s is None else time_limit_s - (time.perf_counter() - t0)
        if left is not None and left <= 0:
            break
        attempt = str(seed) if k == 0 else f"{seed}.{k}"
        shaped = make_board(attempt)
        kw = dict(options)
        if kw.get("flows") is None:
            kw["flows"] = difficulty_flows(len(shaped.cells), difficulty)
        if kw.get("min_length") is None:  # the game's hardest levels have no short filler flows
            kw["min_length"] = _min_length(len(shaped.cells), kw["flows"], difficulty)
        try:
            made = generate(shaped, seed=attempt, time_limit_s=left, **kw)
        except GenerationError:
            continue
        found = explain(made.puzzle, solution=made.solution, unique=True)  # generate proved it unique
        seen[found.tier] = seen.get(found.tier, 0) + 1
        if found.tier == difficulty:
            figures = {**made.figures, "rating": found.rating, "tier": found.tier, "tries": k + 1}
            return replace(made, figures=figures), found, attempt
    tally = ", ".join(f"{n} {t}" for t, n in seen.items()) or "none generated"
    raise GenerationError(f"no {difficulty} puzzle in {k + 1} tries ({tally}): {_advice(difficulty, seen)}", seed)


def _advice(difficulty: str, seen: dict[str, int]) -> str:
    """What to change when ``generate_rated`` found no puzzle of ``difficulty`` (``seen``: tier -> puzzles made)."""
    if not seen:
        return "try a smaller board, a lower --min-length, more --flows or a longer --time-limit"
    rank = DIFFICULTIES.index(difficulty)
    easier = sum(n for t, n in seen.items() if DIFFICULTIES.index(t) < rank)
    if easier * 2 >= sum(seen.values()):
        return "the puzzles came out easier: try fewer --flows, a larger board or a mask with holes (--mask)"
    return "the puzzles came out harder: try more --flows or a smaller board"
