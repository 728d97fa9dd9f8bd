"""``flowgraph generate``: puzzles with exactly one solution, on any family and mask."""

from __future__ import annotations

import argparse
import json
import re
import secrets
import sys
from pathlib import Path

from ..authoring.templates import WRAPS, board, read_mask
from ..errors import PuzzleError
from ..io.files import read_bounded, write_atomic
from ..model import FAMILY_NAMES, Family
from .batching import add_batch_options, finish, run_rows
from .common import (
    EXIT,
    add_command,
    add_rules_option,
    add_shape_options,
    console,
    names_a_file,
    output_file,
    output_folder,
    positive_float,
    positive_int,
    shape_size,
    write_output,
)
from .new import MAX_GENERATE_CELLS, check_cells, size

#: The most puzzles one run generates (each is proved unique: a day's work is far fewer).
MAX_COUNT = 100_000

__all__ = ["add_parser", "run"]


def _count(text: str) -> int:
    """argparse type: 1 to :data:`MAX_COUNT` puzzles."""
    value = positive_int(text)
    if value > MAX_COUNT:
        raise argparse.ArgumentTypeError(f"at most {MAX_COUNT:,} puzzles a run, not {text}")
    return value


def flow_range(text: str) -> tuple[int, int]:
    """argparse type: ``MIN-MAX`` or ``N``."""
    from ..io.problems import whole_number

    low_text, _, high_text = text.partition("-")
    low, high = whole_number(low_text), whole_number(high_text or low_text)
    if low is None or high is None or not 1 <= low <= high:
        raise argparse.ArgumentTypeError(f"expected MIN-MAX (or N), whole numbers, MIN <= MAX: {text!r}")
    return low, high


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Add ``flowgraph generate`` and its options to the command line."""
    p = add_command(
        sub, "generate", run,
        description="Generate puzzles with exactly one solution on any family and shape: a random "
        "cover of the board by paths, split where a second solution differs until the SAT count "
        "proves the solution unique. Every puzzle written is unique and its solution verified. "
        "The same seed gives the same puzzle; --count N uses seeds S, S+1, ...",
        epilog="examples:\n  flowgraph generate --size 7x7\n  flowgraph generate --family hex --size 10x10 "
        "--count 20 -o pack/\n  flowgraph generate --mask heart.grid --flows 6-9 --json\n"
        "  flowgraph generate --family bridges --size 8x8 --bridges 2 --seed 7\n\n"
        "  flowgraph generate --family hex --size 12x12 --count 1000 -o pack/ --out pack.jsonl --jobs 2\n\n"
        "exit status: 0 every puzzle generated, 2 usage error, 3 a bad mask, 4 a puzzle not found in the "
        "limits (the others are still written), 130 interrupted (--resume with --out finishes)",
    )
    add_shape_options(p)
    p.add_argument("--family", choices=FAMILY_NAMES, default="standard",
                   help="the board's family (default standard)")
    p.add_argument("--size", type=size, metavar="WxH", help="width x height in cells (default 7x7, or the mask's)")
    p.add_argument("--mask", metavar="FILE", help="a plain grid whose # or space cells are holes: any shape")
    p.add_argument("--wrap", choices=WRAPS, help="warps on any family: rows, cols or both")
    p.add_argument("--bridges", type=int, default=None, metavar="N",
                   help="put N bridges on random cells (default: 1 for the bridges family, else 0)")
    p.add_argument("--flows", type=flow_range, metavar="MIN-MAX",
                   help="how many flows (default: about as many as the game's levels of that size, e.g. 7-10 "
                   "on 12x12; over 225 cells 2/3 to 3/2 of the square root of the cells; a shape board with "
                   "bridges whose covers hold more paths, as many as they hold)")
    p.add_argument("--min-length", type=positive_int, default=None, metavar="N",
                   help="the fewest cells on a path (default 3: no flow's endpoints side by side; 4 with "
                   "--difficulty hard, 6 with extreme where the board holds it, else 4, as the game's hardest "
                   "levels have no short filler flows)")
    p.add_argument("--square", dest="no_square", action="store_false",
                   help="allow a 2x2 block of one flow (by default no 4-cycle is filled by one flow)")
    p.add_argument("--seed", metavar="S",
                   help="the same seed gives the same puzzle (default: a random seed, printed so it can be reused)")
    p.add_argument("--count", type=_count, default=1, metavar="N",
                   help=f"how many puzzles (default 1, at most {MAX_COUNT:,})")
    p.add_argument("--difficulty", choices=("easy", "medium", "hard", "extreme"),
                   help="keep only puzzles that flowgraph rate puts in this tier (generated from the seed, "
                   "seed.1, seed.2, ... until one is; each tier gets the flows its band of ratings needs, fewer "
                   "and longer the harder, unless --flows)")
    p.add_argument("--time-limit", type=positive_float, metavar="S", dest="time_limit_s",
                   help="give up on a puzzle after S seconds")
    p.add_argument("-o", "--output", metavar="PATH",
                   help="one puzzle: the FILE to write (a name with a suffix, e.g. board.txt); else write each "
                   "puzzle to the folder PATH/<family>_<W>x<H>_<seed>.txt (needed for --count > 1 without --json); "
                   "with --to level-pack or puzzlink, the one FILE that holds them all")
    p.add_argument("--to", choices=("neighbor-link", "level-pack", "puzzlink"), default="neighbor-link",
                   help="level-pack: a numbered Flow Free pack of the puzzles, with their pipes; puzzlink: one URL "
                   "per puzzle (default: neighbor-link text)")
    add_rules_option(p)
    p.add_argument("--json", action="store_true",
                   help="print one JSON object per puzzle: its text, its solution and difficulty figures")
    add_batch_options(p)


def _write_collected(collected: list[tuple[int, dict]], args, err) -> bool:
    """The generated puzzles as one level pack or file of URLs (each with its proved solution); True on failure."""
    from ..errors import ConversionError
    from ..io.formats import Entry, write_many
    from ..io.neighbor_link import parse_text
    from ..io.solution_json import path_nodes
    from ..model import Solution

    entries = []
    for _, row in sorted(collected, key=lambda item: item[0]):
        puzzle = parse_text(row["text"], row["name"]).with_rules(args.rules or "flow")
        paths = {label: path_nodes(puzzle, places) for label, places in row["solution"].items()}
        entries.append(Entry(row["name"], puzzle, Solution(puzzle, paths, "generate")))
    try:
        out = write_many(entries, args.to)
    except ConversionError as exc:
        err.print(f"flowgraph generate: {exc}", markup=False)
        return True
    write_output(out, args.output)
    return False


def _seeds(seed: str, count: int) -> list[str]:
    """``count`` seeds from ``seed``: whole numbers count up, other text gets a number appended."""
    if re.fullmatch(r"-?[0-9]{1,18}", seed):
        return [str(int(seed) + i) for i in range(count)]
    return [f"{seed}{i or ''}" for i in range(count)]


def run(args: argparse.Namespace) -> int:
    """Run ``flowgraph generate`` on its parsed options; returns the exit status."""
    from ..batch.tasks import generate_task

    err = console("auto", sys.stderr)
    many = args.to != "neighbor-link"
    # -o NAME.txt (a name with a suffix, not a folder) is one puzzle's file, as in `new -o FILE`
    one_file = not many and names_a_file(args.output)
    if one_file and args.count > 1:
        err.print(f"flowgraph generate: -o {args.output} names a file, and {args.count} puzzles need a folder "
                  "(-o DIR) or one file of them all (--to level-pack or --to puzzlink)", markup=False)
        return EXIT["usage"]
    if many or one_file:
        output_file(args.output)
    else:
        output_folder(args.output)
    if args.count > 1 and not (args.output or args.json or many):
        err.print("flowgraph generate: more than one puzzle needs -o DIR or --json", markup=False)
        return EXIT["usage"]
    size_of_shape: dict = {}
    if args.shape is not None:
        from ..authoring.shapes import shape_board

        size_of_shape = shape_size(args)
        try:
            cells = len(shape_board(args.shape, **size_of_shape).cells)
            if cells > MAX_GENERATE_CELLS:
                raise ValueError(f"this {args.shape} has {cells:,} cells: a generated puzzle has at most "
                                 f"{MAX_GENERATE_CELLS:,}")
            if many:
                raise ValueError(f"--to {args.to} cannot hold a shape board: it is written as a JSON graph")
        except ValueError as exc:
            err.print(f"flowgraph generate: {exc}", markup=False)
            return EXIT["usage"]
    try:
        mask_text = read_bounded(args.mask).decode("utf-8") if args.mask else None
        check_cells(None, None, MAX_GENERATE_CELLS, "a generated puzzle has", mask_text)
        mask = read_mask(mask_text, args.mask) if mask_text is not None else None
        width, height = args.size or ((None, None) if mask else (7, 7))
        check_cells(width, height, MAX_GENERATE_CELLS, "a generated puzzle has")
        board(args.family, width, height, mask=mask, wrap=args.wrap)  # a bad shape is a usage error here, once
    except PuzzleError as exc:
        err.print(str(exc), markup=False)
        return EXIT["invalid"]
    except (OSError, UnicodeDecodeError) as exc:
        err.print(f"{args.mask}: cannot read the mask: {getattr(exc, 'strerror', None) or exc}", markup=False)
        return EXIT["invalid"]
    except ValueError as exc:
        err.print(f"flowgraph generate: {exc}", markup=False)
        return EXIT["usage"]
    spec = {"family": args.family, "width": width, "height": height, "wrap": args.wrap,
            "mask": mask_text, "mask_path": args.mask,
            "bridges": args.bridges if args.bridges is not None else int(Family.of(args.family).bridged),
            "flows": args.flows, "min_length": args.min_length, "no_square": args.no_square,
            "time_limit_s": args.time_limit_s, "rules": args.rules, "difficulty": args.difficulty,
            "shape": args.shape, "shape_size": size_of_shape}
    chosen = args.seed is None
    if chosen and args.resume:
        err.print("flowgraph generate: --resume needs the --seed of the first run (it printed it)", markup=False)
        return EXIT["usage"]
    if chosen:
        args.seed = str(secrets.randbelow(1_000_000))
    seeds = _seeds(args.seed, args.count)
    statuses: list[int] = []
    collected: list[tuple[int, dict]] = []

    def show(i: int, seed: str, row: dict) -> None:
        if row["status"] != "generated":
            err.print(f"flowgraph generate: seed {row.get('seed', seed)}: {row.get('message', '')}", markup=False)
            statuses.append(EXIT["usage"] if row["status"] == "invalid" else EXIT["limit"])
            return
        statuses.append(0)
        name = None
        if many:
            collected.append((i, row))
            return
        if one_file:
            name = args.output
            write_atomic(name, row["text"])
        elif args.output:
            folder = Path(args.output)
            folder.mkdir(parents=True, exist_ok=True)
            name = str(folder / row["name"])
            write_atomic(name, row["text"])
        if args.json:
            obj = {"puzzle": name, "seed": row["seed"], "text": row["text"], "solution": row["solution"],
                   "figures": row["figures"]}
            print(json.dumps(obj), flush=True)
        elif not args.output:
            sys.stdout.write(row["text"])

    batch = run_rows(err, args, seeds, generate_task, lambda s: (spec, s), show, verb="generating", warm_up="sat",
                     key=lambda s: f"seed:{s}", digest=None, long=bool(args.difficulty))
    if isinstance(batch, str):
        err.print(f"flowgraph generate: {batch}", markup=False)
        return EXIT["usage"]
    if collected and _write_collected(collected, args, err):
        statuses.append(EXIT["invalid"])
    if chosen:
        err.print(f"flowgraph generate: seed {args.seed} (--seed {args.seed} makes the same puzzles again)",
                  markup=False)
    return finish(err, batch, "flowgraph generate", args.out, max(statuses, default=0))
