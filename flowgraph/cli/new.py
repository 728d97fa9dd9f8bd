"""``flowgraph new``: a template to fill in, any family and shape."""

from __future__ import annotations

import argparse
import re
import sys

from ..authoring.templates import MAX_GENERATE_CELLS, WRAPS, read_mask, template
from ..errors import PuzzleError
from ..io.files import read_bounded
from ..io.footprint import BASE_BYTES, READ_BYTES_PER_CELL
from ..model import DEFAULT_MEMORY_BYTES, FAMILY_NAMES
from .common import EXIT, add_command, add_shape_options, console, output_file, shape_size, write_output

__all__ = ["add_parser", "run", "MAX_NEW_CELLS", "MAX_GENERATE_CELLS", "check_cells"]


#: The most cells a template may have: a board every reader takes within the default --memory-limit (what
#: reading a cell takes, flowgraph.io.footprint, with room for the header word's letters, which the readers'
#: first count takes for cells), its text well under the 4 MB of a puzzle file.
MAX_NEW_CELLS = (DEFAULT_MEMORY_BYTES - BASE_BYTES) // READ_BYTES_PER_CELL - 16


def size(text: str) -> tuple[int, int]:
    """argparse type: ``WxH``, each side at most 1,000,000 (the cells are bounded by each command)."""
    from ..io.problems import whole_number

    w, sep, h = text.lower().partition("x")
    width, height = whole_number(w, 10**6), whole_number(h, 10**6)
    if not (sep and width and height):
        raise argparse.ArgumentTypeError(f"expected WxH, two whole numbers from 1 to 1,000,000: {text!r}")
    return width, height


def check_cells(width: int | None, height: int | None, most: int, what: str, mask: str | None = None) -> None:
    """Refuse a board of more than ``most`` cells where its size or mask text enters, before anything is built.

    Raises
    ------
    ValueError
        Over the bound (a usage error).
    """
    side = int(most ** 0.5)
    fits = f" (a {side}x{side} board, or a mask with holes)" if side * side == most else ""
    if width is not None and height is not None and width * height > most:
        raise ValueError(f"--size {width}x{height} is {width * height:,} cells: {what} at most {most:,}{fits}")
    cells = 0 if mask is None else len(mask) - sum(mask.count(c) for c in "# \r\n")  # its cells, at most
    if cells > most:
        raise ValueError(f"the mask has up to {cells:,} cells: {what} at most {most:,}{fits}")


_RC = re.compile(r"[rR]([0-9]{1,7})[cC]([0-9]{1,7})")


def cell(text: str) -> tuple[int, int]:
    """argparse type: a cell, ``r3c5`` (row 3, column 5 as the board's rulers number them, as every message names
    a cell) or ``X,Y`` (0-based column and row, read as before): its 0-based ``(x, y)``."""
    rc = _RC.fullmatch(text.strip())
    if rc and int(rc[1]) > 0 and int(rc[2]) > 0:
        return int(rc[2]) - 1, int(rc[1]) - 1
    x, sep, y = text.partition(",")
    if not (sep and x.strip().isascii() and x.strip().isdigit() and y.strip().isascii() and y.strip().isdigit()
            and len(x.strip()) <= 7 and len(y.strip()) <= 7):
        raise argparse.ArgumentTypeError(f"expected a cell as rRcC, row R and column C from 1 (r3c5), or X,Y: {text!r}")
    return int(x), int(y)


def endpoint(text: str) -> tuple[str, tuple[int, int]]:
    """argparse type: ``A:r3c5`` (a label, then a cell as :func:`cell` reads it)."""
    label, sep, where = text.partition(":")
    if not sep or len(label) != 1:
        raise argparse.ArgumentTypeError(f"expected A:rRcC, a one-character label and a cell (A:r1c1): {text!r}")
    return label, cell(where)


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Add ``flowgraph new`` and its options to the command line."""
    p = add_command(
        sub, "new", run,
        description="Print a template in the neighbor-link format: every cell and every link of the "
        "family drawn, no endpoints yet (so validate says 'no flows' until you add them). "
        "Hex boards alternate by column as in the samgoldman hex files.",
        epilog="examples:\n  flowgraph new --size 7x7 -o board.txt\n  flowgraph new --family hex --size 5x5\n"
        "  flowgraph new --mask heart.grid --wrap rows\n  flowgraph new --family bridges --size 5x5 "
        "--bridge r3c3 --bridge r4c2\n  flowgraph new --size 3x2 --hole r2c2 --endpoint A:r2c1 --endpoint A:r2c3\n"
        "  flowgraph new --shape ring --rings 2 --sectors 8 -o ring.json   # a JSON graph: add \"label\"s\n"
        "  flowgraph new --shape cube --side 4 -o cube.json\n  flowgraph new --shape star --side 3 -o star.json\n"
        "  flowgraph new --shape star --points 5 --side 2 -o star5.json\n"
        "  flowgraph new --shape figure-eight --rings 1 --sectors 8 -o eight.json\n"
        "  flowgraph new --shape linked-loops --loops 3 --rings 1 --sectors 24 -o chain.json\n\n"
        "exit status: 0 written, 2 usage error, 3 a bad mask",
    )
    p.add_argument("--family", choices=FAMILY_NAMES, default="standard",
                   help="the header word and the links: 4 neighbours, 6 (hex), wrap-around (warps), "
                   "crossings (bridges); default standard")
    p.add_argument("--size", type=size, metavar="WxH", help="width x height in cells (default: the mask's)")
    p.add_argument("--mask", metavar="FILE", help="a plain grid whose # or space cells are holes: any shape")
    p.add_argument("--wrap", choices=WRAPS, help="warps on any family: rows, cols or both")
    p.add_argument("--bridge", type=cell, action="append", default=[], metavar="rRcC",
                   help="make the cell in row R, column C a bridge (r1c1 is the top left, as the board's rulers "
                   "and every message number cells; 0-based X,Y is read too); repeatable")
    p.add_argument("--hole", type=cell, action="append", default=[], metavar="rRcC",
                   help="leave the cell in row R, column C out of the board; repeatable")
    p.add_argument("--endpoint", type=endpoint, action="append", default=[], metavar="A:rRcC",
                   help="put an endpoint of flow A on the cell in row R, column C; each label twice makes a flow; "
                   "repeatable")
    add_shape_options(p)
    p.add_argument("-o", "--output", metavar="FILE", help="write the template to FILE instead of standard output")


def run(args: argparse.Namespace) -> int:
    """Run ``flowgraph new`` on its parsed options; returns the exit status."""
    err = console("auto", sys.stderr)
    output_file(args.output)
    mask = None
    if args.shape is not None:
        from ..authoring.shapes import shape_board

        try:
            if args.shape == "ring" and args.rings * args.sectors > MAX_NEW_CELLS:
                raise ValueError(f"{args.rings} rings of {args.sectors} sectors is over {MAX_NEW_CELLS:,} cells")
            text = shape_board(args.shape, **shape_size(args)).text
        except ValueError as exc:
            err.print(f"flowgraph new: {exc}", markup=False)
            return EXIT["usage"]
        write_output(text, args.output)
        return 0
    try:
        if args.mask:
            mask_text = read_bounded(args.mask).decode("utf-8")
            check_cells(None, None, MAX_NEW_CELLS, "a template has", mask_text)
            mask = read_mask(mask_text, args.mask)
        elif not args.size:
            err.print("flowgraph new: give --size WxH or --mask FILE", markup=False)
            return EXIT["usage"]
        width, height = args.size or (None, None)
        check_cells(width, height, MAX_NEW_CELLS, "a template has")
        text = template(args.family, width, height, mask=mask, wrap=args.wrap, bridges=args.bridge,
                        holes=args.hole, endpoints=args.endpoint)
    except PuzzleError as exc:
        err.print(str(exc), markup=False)
        return EXIT["invalid"]
    except (OSError, UnicodeDecodeError) as exc:
        err.print(f"{args.mask}: cannot read the mask: {getattr(exc, 'strerror', None) or exc}", markup=False)
        return EXIT["invalid"]
    except ValueError as exc:
        err.print(f"flowgraph new: {exc}", markup=False)
        return EXIT["usage"]
    write_output(text, args.output)
    return 0
