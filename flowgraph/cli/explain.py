"""``flowgraph explain``: the solving path as a person takes it."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from typing import TYPE_CHECKING

from rich.text import Text

from ..authoring.rating import TIGHT, tier_words
from .common import EXIT, add_color_option, add_command, add_memory_option, add_rules_option, consoles, positive_float, read_stdin

if TYPE_CHECKING:
    from ..model import Node

__all__ = ["add_parser", "run"]

STYLE = {1: "green", 2: "green", 3: "cyan", 4: "cyan", 5: "yellow", 6: "bold red"}



def paths_words(lengths: list[int]) -> str:
    """The span of a solution's paths in words: ``mean path 9.1 cells, shortest 3``."""
    return f"mean path {sum(lengths) / len(lengths):.1f} cells, shortest {min(lengths)}" if lengths else "no path"


def hardest_words(counts: dict[str, int]) -> str:
    """The hardest technique a solving path used (``counts``: technique -> uses, in tier order): ``hardest:
    bottleneck``."""
    used = [t for t, n in counts.items() if n]
    return f"hardest: {used[-1]}" if used else "no step"


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Add ``flowgraph explain`` and its options to the command line."""
    p = add_command(
        sub, "explain", run,
        description="Solve a puzzle the way a person does and print each step: its technique (1 forced move, "
        "2 dead end, 3 stranded region, 4 bottleneck, 5 one-step contradiction, 6 deeper search), the links it "
        "decides and the cells that justify it, easiest technique first at every step. Runs of forced moves and "
        "dead ends are shown as one line (--all shows every step). Ends with the rating, 0 to 10: mostly the span "
        "of the paths (the mean path in board sides and the shortest path), then the hardest technique and how "
        f"often it was used and the share of tight steps (taken with at most {TIGHT} forced moves or dead ends in "
        f"sight); and its word: {tier_words()} (where the "
        "game's Extreme levels rate, at every size). --boards draws the board before each harder "
        "step. Cells are named as a player reads the board: r3c5 is row 3, column 5 from the top-left cell "
        "(--json gives (line, column) of the file, as solve --json does). Under the puzzle's rules (--rules): "
        "Numberlink's let cells stay empty, and an empty cell or region with one way in stays empty.",
        epilog="examples:\n  flowgraph explain puzzles/standard/regular_10x10.txt\n"
        "  flowgraph explain --boards puzzles/warps/wrap_5x5.txt\n"
        "  flowgraph explain --json puzzles/warps/torus_6x6.txt\n"
        "  flowgraph explain --rules numberlink nikoli.txt\n\n"
        "exit status: 0 explained, 1 no solution, 2 usage error, 3 invalid file, 4 limit",
    )
    p.add_argument("file", metavar="FILE", help="a puzzle file (FILE#N: level N of a pack), or - for standard input")
    p.add_argument("--json", action="store_true",
                   help='one JSON object: {"puzzle", "status", "steps": [{"technique", "tier", "flow", "links", '
                   '"cuts", "because", "note", "in_sight"}, ...], "counts", "unique", "rating", "tier", "tight", "paths"}')
    p.add_argument("--all", action="store_true", help="show every step, forced moves and dead ends included")
    p.add_argument("--boards", action="store_true",
                   help="draw the board as it stands before each step of tier 3 and up (the lines decided so far), "
                   "where a person would stop and look")
    p.add_argument("--time-limit", type=positive_float, metavar="S", dest="time_limit_s",
                   help="give up after S seconds, solving and steps together (status 4); the uniqueness check "
                   "behind tier 6's words stops at 10 s or half of S (then reported unknown)")
    add_memory_option(p, "explaining it has grown the process by more")
    add_rules_option(p)
    add_color_option(p)


def _draw(out, found, before, labels: tuple[dict[int, int], dict[int, int]]) -> None:
    """The board with the lines of the steps ``before``, indented under the list, its rows and columns numbered
    (``labels``: :func:`flowgraph.render.text.board_labels`, read once for every board drawn)."""
    from ..render.text import board_text

    board = board_text(found.solution, [pair for s in before for pair in s.lines], color=True)
    rows, columns = labels
    # the board's rows numbered down the left and its columns across the top (tens above units from 10 on),
    # as the steps name cells: r3c5
    wide = len(str(max(rows.values(), default=1)))
    ruler = [" " * (max(columns, default=-1) + 1)]
    if max(columns.values(), default=0) >= 10:
        ruler.insert(0, ruler[0])
    for at, column in columns.items():
        for k, digit in enumerate(reversed(f"{column:>{len(ruler)}}")):
            line = ruler[-1 - k]
            ruler[-1 - k] = line[:at] + digit + line[at + 1:]
    for line in ruler:
        out.print(Text(" " * (10 + wide + 1) + line.rstrip(), style="dim"))
    for k, row in enumerate(board.split("\n")):
        if row.plain.strip():
            row.rstrip()
            label = f"{rows[k]:>{wide}} " if k in rows else " " * (wide + 1)
            out.print(Text("          ").append(label, style="dim").append(row))


def _labels(puzzle) -> tuple[dict[int, int], dict[int, int]] | None:
    """:func:`flowgraph.render.text.board_labels`, or None where no text draws the board (a 3-D graph)."""
    from ..errors import ConversionError
    from ..render.text import board_labels

    try:
        return board_labels(puzzle)
    except ConversionError:
        return None


def _link(pair, name: Callable[[Node], str]) -> str:
    """A link as a player names it: its two cells, ``r2c3-r2c4`` (:func:`flowgraph.io.sketch.cell_namer`; a shape
    board's own names, ``ring 1 sector 2-ring 2 sector 2``)."""
    return "-".join(name(node) for node in pair)


def run(args: argparse.Namespace) -> int:
    """Run ``flowgraph explain`` on its parsed options; returns the exit status."""
    from ..authoring.explain import explain, explanation_json
    from ..errors import SearchLimitError, UnsolvableError
    from ..io.files import load
    from ..model import Limits
    from .common import print_problems

    out, err = consoles(args.color)
    puzzle, problems = load(args.file, read_stdin(args.file), memory_bytes=args.memory_limit << 20)
    if puzzle is None or any(p.is_error for p in problems):
        print_problems(err, args.file, problems)
        return EXIT["invalid"]
    puzzle = puzzle.with_rules(args.rules)
    try:
        found = explain(puzzle, Limits(time_limit_s=args.time_limit_s, memory_bytes=args.memory_limit << 20))
    except UnsolvableError:
        err.print(f"{args.file}: no solution", markup=False)
        return EXIT["unsolvable"]
    except SearchLimitError as exc:
        err.print(f"{args.file}: limit: {exc.said('not explained')}", markup=False)
        return EXIT["limit"]
    if args.json:
        print(json.dumps(explanation_json(args.file, found)))
        return EXIT["solved"]
    steps = found.steps
    from ..io.sketch import cell_namer

    names = cell_namer(found.solution.puzzle)
    labels = _labels(found.solution.puzzle) if args.boards else None
    i = 0
    while i < len(steps):
        s = steps[i]
        if s.tier <= 2 and not args.all:
            j = i
            while j < len(steps) and steps[j].tier <= 2:
                j += 1
            run_ = steps[i:j]
            moves = sum(x.tier == 1 for x in run_)
            ends = len(run_) - moves
            lines = sum(len(x.lines) for x in run_)
            cuts = sum(len(x.cuts) for x in run_)
            what = " and ".join(w for w in (f"{moves} forced move{'s' if moves != 1 else ''}" if moves else "",
                                            f"{ends} dead end{'s' if ends != 1 else ''}" if ends else "") if w)
            label = f"{i + 1}." if j == i + 1 else f"{i + 1}-{j}."
            out.print(Text(f"{label:>8} ").append(what, style="green")
                      .append(f": {lines} line{'s' if lines != 1 else ''}, {cuts} link{'s' if cuts != 1 else ''} "
                              "ruled out"))
            i = j
            continue
        if labels is not None and s.tier >= 3:
            _draw(out, found, steps[:i], labels)
        decided = ", ".join([f"line {_link(p, names)}" for p in s.lines] + [f"no line {_link(p, names)}" for p in s.cuts])
        flow = f" flow {s.flow}:" if s.flow else ""
        out.print(Text(f"{i + 1:>7}. ").append(s.technique, style=STYLE[s.tier])
                  .append(f" (tier {s.tier}):{flow} {decided} - {s.note}"))
        i += 1
    unique = {True: "unique solution", False: "several solutions: deeper-search steps pick one",
              None: "uniqueness not known"}[found.unique]
    out.print(Text(f"{args.file}: ").append(f"{found.tier}", style=STYLE[max([s.tier for s in steps], default=1)])
              .append(f", rating {found.rating} ({hardest_words(found.counts)}, {len(steps)} steps, "
                      f"{found.tight:.0%} tight, {paths_words(found.lengths)}; {unique})"))
    return EXIT["solved"]
