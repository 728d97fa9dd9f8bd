"""``flowgraph render``: a puzzle or its solution as SVG or PNG, the search as an animated GIF."""

from __future__ import annotations

import argparse
import sys

from ..batch.outcome import solve_file
from ..errors import ConversionError, SearchLimitError, UnsolvableError
from ..io.files import load, write_atomic
from ..model import DEFAULT_MEMORY_BYTES, Puzzle, Solution
from .common import EXIT, add_budget_options, add_command, console, limits, output_file, positive_int, print_problems, read_stdin

__all__ = ["add_parser", "run", "add_picture_options", "write_picture"]

SUFFIXES = (".svg", ".png", ".gif")


def add_picture_options(p: argparse.ArgumentParser) -> None:
    """Add the picture options (``--theme``, ``--cell-px``, ``--labels``) to ``p``."""
    p.add_argument("--theme", choices=("dark", "light"), default="dark", help="dark (as the game, default) or light")
    p.add_argument("--cell-px", type=positive_int, default=40, metavar="N", help="pixels per cell (default 40)")
    p.add_argument("--labels", action="store_true",
                   help="write each endpoint's label on its dot (colour-blind safe), and number the rows down the "
                   "left and the columns across the top, as explain names cells (r3c5: row 3, column 5); on a shape "
                   "board, write each cell's name in it as solve and explain name it (ring 2 sector 5), the "
                   "picture drawn larger till the names are legible")


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Add ``flowgraph render`` and its options to the command line."""
    p = add_command(
        sub, "render", run,
        description="Draw a puzzle as the game shows it: squares or hexagons, holes left empty, walls as thick "
        "lines, warps as tunnels on both edges, bridges as a crossing. With --solve, the verified solution's "
        "pipes; an .gif output animates the search (the states it expands, the last frame the solution). "
        "The format comes from the output's suffix; without -o, SVG goes to standard output.",
        epilog="examples:\n  flowgraph render puzzles/hex/hive_8x7.txt -o hive.svg\n"
        "  flowgraph render puzzles/warps/torus_6x6.txt --solve -o torus.png --theme light\n"
        "  flowgraph render board.txt -o search.gif --frames 100\n\n"
        "exit status: as solve (0 drawn, 1 no solution, 3 invalid, 4 a budget ran out)",
    )
    p.add_argument("puzzle", metavar="PUZZLE", help="a puzzle file (any format flowgraph reads), or -")
    p.add_argument("-o", "--output", metavar="OUT", help="OUT.svg, OUT.png or OUT.gif (default: SVG to standard output)")
    p.add_argument("--solve", action="store_true", help="draw the verified solution")
    p.add_argument("--frames", type=positive_int, default=200, metavar="N",
                   help="GIF: at most N frames (default 200)")
    add_picture_options(p)
    add_budget_options(p)


def write_picture(board, out: str | None, args, paths: dict | None = None) -> None:
    """Draw a board or a solution to a picture file.

    ``board`` (a puzzle or a solution) as the picture ``out``'s suffix names (SVG to standard output if None)."""
    if out is None or out.endswith(".svg"):
        from ..render.svg import svg

        text = svg(board, paths=paths, theme=args.theme, cell_px=args.cell_px, labels=args.labels)
        if out is None:
            sys.stdout.write(text)
        else:
            write_atomic(out, text)
    else:
        from ..render.raster import png

        png(board, out, paths=paths, theme=args.theme, cell_px=args.cell_px, labels=args.labels,
            memory_bytes=getattr(args, "memory_limit", DEFAULT_MEMORY_BYTES >> 20) << 20)


def run(args: argparse.Namespace) -> int:
    """Run ``flowgraph render`` on its parsed options; returns the exit status."""
    err = console("auto", sys.stderr)
    out = args.output
    if out and not out.endswith(SUFFIXES):
        err.print(f"flowgraph render: {out}: the output must end in {', '.join(SUFFIXES)}", markup=False)
        return EXIT["usage"]
    output_file(out)
    if out and out.endswith(".gif"):
        return _animate(args, err)
    if args.solve:
        outcome = solve_file(args.puzzle, args.engine, limits(args), data=read_stdin(args.puzzle))
        print_problems(err, args.puzzle, outcome.problems)
        if outcome.status != "solved":
            err.print(f"{args.puzzle}: {outcome.status}{': ' + outcome.message if outcome.message else ''}",
                      markup=False)
            return EXIT[outcome.status]
        board: Puzzle | Solution | None = outcome.solution
    else:
        board, problems = load(args.puzzle, read_stdin(args.puzzle), memory_bytes=args.memory_limit << 20)
        print_problems(err, args.puzzle, problems)
        if board is None:
            return EXIT["invalid"]
    try:
        write_picture(board, out, args)
    except ConversionError as exc:
        err.print(f"{args.puzzle}: {exc}", markup=False)
        return EXIT["invalid"]
    return 0


def _animate(args: argparse.Namespace, err) -> int:
    from ..render import animate
    from ..render.raster import gif

    puzzle, problems = load(args.puzzle, read_stdin(args.puzzle), memory_bytes=args.memory_limit << 20)
    print_problems(err, args.puzzle, problems)
    if puzzle is None:
        return EXIT["invalid"]
    if args.frames < 2:
        err.print("flowgraph render: a GIF needs --frames 2 or more", markup=False)
        return EXIT["usage"]
    try:
        solution, frames = animate(puzzle, args.frames, limits(args))
        gif(puzzle, frames, args.output, theme=args.theme, cell_px=args.cell_px)
    except UnsolvableError:
        err.print(f"{args.puzzle}: no solution: the search space is exhausted", markup=False)
        return EXIT["unsolvable"]
    except SearchLimitError as exc:
        err.print(f"{args.puzzle}: gave up: the {exc.reason} budget ran out", markup=False)
        return EXIT["limit"]
    except ConversionError as exc:
        err.print(f"{args.puzzle}: {exc}", markup=False)
        return EXIT["invalid"]
    return 0
