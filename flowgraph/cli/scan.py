"""``flowgraph scan``: read puzzles from screenshots, write them as neighbor-link text, solve them."""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from ..batch.outcome import solve_file
from ..errors import ScanError
from ..io.files import write_atomic
from .common import (
    EXIT,
    PictureNames,
    add_budget_options,
    add_color_option,
    add_command,
    consoles,
    limits,
    output_folder,
    print_problems,
    warm_up,
)
from .render import add_picture_options
from .solve import print_outcome, write_pictures

__all__ = ["add_parser", "run"]


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Add ``flowgraph scan`` and its options to the command line."""
    p = add_command(
        sub, "scan", run,
        description="Find the board in each picture (a phone screenshot of the game or a picture flowgraph "
        "drew): square or hex, its size, holes and walls drawn as thick lines, and the endpoint dots paired "
        "by colour; a shape level (a ring, a star, a figure-eight) by the regions its lines enclose. Writes "
        "the board as neighbor-link text (a shape board as a JSON graph with each cell's outline) and "
        "validates it; with --solve, solves it at once. Labels follow the game's colours: A red, B green, "
        "C blue, D yellow, E orange, F cyan, "
        "G magenta, ... Bridges (a grey tile) and warps (tunnels at both ends of a row or column) are read on "
        "square boards as flowgraph render draws them, and a shape board's bridges by their lighter grey decks. "
        "Pictures above 40 megapixels are refused.",
        epilog="examples:\n  flowgraph scan level.jpg -o level.txt\n"
        "  flowgraph scan level.jpg --solve --png out/\n"
        "  flowgraph scan shots/*.jpg -o boards/ --debug checks/\n\n"
        "exit status: 0 read (and solved), 1 no solution, 3 a picture could not be read or its board "
        "breaks the rules, 4 a budget ran out",
    )
    p.add_argument("images", nargs="+", metavar="IMAGE", help="PNG, JPEG, WebP, ... pictures")
    p.add_argument("-o", "--output", metavar="OUT",
                   help="the neighbor-link file (one picture) or a folder of IMAGE-name.txt files (several); "
                   "default: standard output")
    p.add_argument("--debug", metavar="OUT",
                   help="draw what was read over the picture: a PNG (one picture) or a folder of them")
    p.add_argument("--solve", action="store_true", help="solve each board read and print the solution")
    p.add_argument("--png", metavar="DIR", help="with --solve: draw each solution as DIR/<name>.png")
    p.add_argument("--svg", metavar="DIR", help="with --solve: draw each solution as DIR/<name>.svg")
    add_picture_options(p)
    add_budget_options(p)
    add_color_option(p)


def _target(option: str | None, image: str, many: bool, suffix: str, names: PictureNames) -> str | None:
    """Where one picture's output goes: the option itself for one picture, a file in that folder for several
    (one name a picture: ``names``)."""
    if option is None or option == "-":
        return None
    if many or option.endswith(("/", "\\")) or os.path.isdir(option):
        Path(option).mkdir(parents=True, exist_ok=True)
        return str(Path(option) / (names(image) + suffix))
    return option


def run(args: argparse.Namespace) -> int:
    """Scan every picture; the exit status is the largest of their outcomes."""
    from ..scan import read_board

    out, err = consoles(args.color)
    output_folder(args.png, "--png")
    output_folder(args.svg, "--svg")
    many = len(args.images) > 1
    names = PictureNames()  # two pictures a/level.png and b/level.png: level, level-2
    status = 0
    if args.solve:
        warm_up(err, args.engine)
    for image in args.images:
        t0 = time.perf_counter()
        try:
            found = read_board(image)
        except ScanError as exc:
            err.print(str(exc), style="red", markup=False)
            status = max(status, EXIT["invalid"])
            continue
        if args.debug:
            from ..scan.debug import draw_scan

            checked = _target(args.debug, image, many, ".debug.png", names)
            if checked is not None:  # "--debug -": there is no picture on standard output
                draw_scan(found, image, checked)
        target = _target(args.output, image, many, ".txt", names)
        name = target or str(Path(image).with_suffix(".txt").name)
        if target:
            write_atomic(target, found.text)
        elif not args.solve or many:
            sys.stdout.write((f"// {image}\n" if many else "") + found.text)
            sys.stdout.flush()
        err.print(f"{image}: {found.summary}{' -> ' + target if target else ''} ({time.perf_counter() - t0:.2f} s)",
                  style="dim", markup=False)
        print_problems(err, name, found.problems)
        if found.puzzle is None:
            status = max(status, EXIT["invalid"])
            continue
        if args.solve:
            outcome = solve_file(name, args.engine, limits(args), data=found.text.encode())
            status = max(status, EXIT[outcome.status])
            if outcome.status == "solved" and (args.svg or args.png):
                write_pictures(outcome, args, err, names(image))
            print_outcome(out, err, outcome)
    return status
