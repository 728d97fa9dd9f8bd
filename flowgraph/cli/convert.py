"""``flowgraph convert``: between puzzle formats, level packs to one file per level."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from ..errors import ConversionError
from ..io.files import level_ref, read_bounded, read_text, write_atomic
from ..io.formats import FORMATS, MANY, Entry, format_names, get_format, numbered, read_entries
from ..io.puzzlink import is_url
from ..io.sketch import node_places, nodes_by_place, same_board
from ..io.solution_json import solution_json
from ..model import FAMILY_NAMES, Solution
from ..verification import check
from .common import (
    EXIT,
    add_command,
    add_rules_option,
    console,
    names_a_file,
    output_file,
    output_folder,
    print_problems,
    read_stdin,
    write_output,
)

__all__ = ["add_parser", "run"]

#: Not a puzzle format but a page that plays the levels (:mod:`flowgraph.studio.publish`): written, never read.
HTML = "html"
_BY_SUFFIX = {fmt.suffix: name for name, fmt in FORMATS.items()} | {".html": HTML}


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Add ``flowgraph convert`` and its options to the command line."""
    p = add_command(
        sub, "convert", run,
        description="Read a puzzle (or a Flow Free level pack) and write it in another format. The input "
        "format is guessed from the content unless --from says it; the output format comes from --to, "
        "else from the output file's suffix (.txt neighbor-link, .grid plain grid, .nl numberlink, "
        ".json JSON graph, .html a page that plays the levels), else neighbor-link. A pack or a folder of puzzles "
        "written to PAGE.html is one self-contained page that plays every level offline, on a phone too "
        "(no server, no network; no solution shipped: the page checks each board itself). Every conversion is "
        "read back and compared with the input. Where the target cannot express the board (a warp or a wall in a "
        "plain grid) it says what.",
        epilog="examples:\n  flowgraph convert board.txt --to json-graph -o board.json\n"
        "  flowgraph convert drawing.grid --family hex -o board.txt\n"
        "  flowgraph convert pack.txt -o levels/ --solutions\n"
        "  flowgraph convert pack.txt -o pack.html       (a page anyone can open and play)\n"
        "  flowgraph convert levels/ -o levels.html\n\n"
        "exit status: 0 converted, 2 usage error, 3 invalid input or a board the target cannot express, "
        "5 internal error (a conversion that did not read back the same)",
    )
    p.add_argument("input", metavar="IN",
                   help="the puzzle: a neighbor-link file, a *.grid plain grid, a *.nl numberlink file, a *.json graph, "
                   "a Flow Free level pack (*.txt or *.pack; PACK#N: its level N), a puzz.link URL or a *.url file of "
                   "them, or - for standard input; a folder of them for an .html page")
    p.add_argument("-o", "--output", metavar="OUT",
                   help="the file to write (a folder for a level pack: one file per level); default: standard output")
    p.add_argument("--from", dest="source", choices=format_names(), help="the input format (default: guessed)")
    p.add_argument("--to", dest="target", choices=[*format_names(writable=True), HTML],
                   help="the output format (html: a page that plays the levels)")
    add_rules_option(p)
    p.add_argument("--family", choices=FAMILY_NAMES,
                   help="plain grids without a header word: their family (default standard)")
    p.add_argument("--solutions", action="store_true",
                   help="level packs: also write each level's known solution (the pipes) as NAME.solution.json, "
                   "checked against the converted board")


def run(args: argparse.Namespace) -> int:
    """Run ``flowgraph convert`` on its parsed options; returns the exit status."""
    err = console("auto", sys.stderr)
    source = args.input
    if args.output and Path(args.output).resolve() == Path(source).resolve():
        err.print(f"flowgraph convert: {source} is the input; choose another output", markup=False)
        return EXIT["usage"]
    if os.path.isdir(source):
        if _target(args) != HTML:
            err.print(f"flowgraph convert: {source} is a folder: convert reads one file (a folder's puzzles can be "
                      "published as one page: -o PAGE.html)", markup=False)
            return EXIT["usage"]
        return _publish_folder(source, args, err)
    data = read_stdin(source)
    if data is None and is_url(source):  # a puzz.link URL is its own text: read offline
        data = source.encode("utf-8")
    level = level_ref(source) if data is None else None  # PACK#N: level N of a pack
    if data is None:
        try:
            data = read_bounded(level[0] if level else source)
        except OSError as exc:
            err.print(f"{source}:1:1: cannot read file: {exc.strerror or exc}", markup=False)
            return EXIT["invalid"]
    text, problems = read_text(data)
    if text is None:
        print_problems(err, source, problems)
        return EXIT["invalid"]
    fmt, entries, problems = read_entries(text, level[0] if level else source, args.source, args.family)
    print_problems(err, source, problems)
    if not entries:
        return EXIT["invalid"]
    if level:
        base, number = level
        if number > len(entries):
            held = f"{len(entries)} puzzle" + ("" if len(entries) == 1 else "s")
            err.print(f"{source}:1:1: {base} holds {held}: there is no #{number}", markup=False)
            return EXIT["invalid"]
        fmt, entries = "one level", [entries[number - 1]]
    target = _target(args)
    if target == HTML:
        title = Path(level[0] if level else source).name if source != "-" else "levels"
        levels = [(entry.name, entry.puzzle.with_rules(args.rules)) for entry in entries]
        return max(_publish(levels, title, args, err), EXIT["invalid"] if problems else 0)
    if target in MANY and (len(entries) > 1 or fmt in MANY):  # many puzzles into one file: a pack, URLs
        return _convert_many(entries, target, args, err, EXIT["invalid"] if problems else 0)
    if len(entries) > 1 and not args.output:
        err.print(f"flowgraph convert: {source} holds {len(entries)} puzzles: give -o DIR", markup=False)
        return EXIT["usage"]
    status = EXIT["invalid"] if any(p.is_error for p in problems) else 0
    folder = Path(args.output) if args.output and (len(entries) > 1 or fmt == "level-pack") else None
    if folder is not None and names_a_file(args.output):
        err.print(f"flowgraph convert: -o {args.output} names a file, and {source} holds {len(entries)} puzzle"
                  f"{'s' if len(entries) != 1 else ''}: give -o DIR (one file per puzzle), or --to level-pack "
                  "or --to puzzlink (one file of them all)", markup=False)
        return EXIT["usage"]
    if folder is not None:
        output_folder(args.output)
    else:
        output_file(args.output)
    for entry in entries:
        status = max(status, _convert(entry, target, folder, args, err))
    return status


def _target(args) -> str:
    return args.target or _BY_SUFFIX.get(Path(args.output).suffix if args.output else "", "neighbor-link")


def _publish(levels: list, title: str, args, err) -> int:
    """The levels as one page that plays them (:func:`flowgraph.studio.publish.publish`), to -o FILE or standard output."""
    from ..studio.publish import publish, slow_note

    if not _written(lambda: publish(levels, title), args, err):
        return EXIT["invalid"]
    if args.output and args.output != "-":
        err.print(f"{args.output}: {len(levels)} level{'s' if len(levels) != 1 else ''}, a page to open in any "
                  "browser (no server, no network)", markup=False)
    note = slow_note(levels)
    if note:
        err.print(note, markup=False)
    return 0


def _written(make: Callable[[], str], args, err) -> bool:
    """``make()``'s text to -o FILE (checked first) or standard output; False, said, when it cannot be made."""
    output_file(args.output)
    try:
        out = make()
    except ConversionError as exc:
        err.print(f"{args.input}: {exc}", markup=False)
        return False
    write_output(out, args.output)
    return True


def _publish_folder(folder: str, args, err) -> int:
    """Every puzzle file of ``folder`` (packs: each level), in natural order of names, as one page; a file that
    cannot be read is said, and the rest are published."""
    from ..batch.jobs import puzzle_files
    from ..studio.publish import MAX_PAGE_CELLS

    status, levels, cells = 0, [], 0
    for path in puzzle_files([folder], empty=[]):
        try:
            data = read_bounded(path, follow_symlinks=False)
        except OSError as exc:
            err.print(f"{path}:1:1: cannot read file: {exc.strerror or exc}", markup=False)
            status = EXIT["invalid"]
            continue
        text, problems = read_text(data)
        fmt, entries, more = read_entries(text, path) if text is not None else ("", [], [])
        print_problems(err, path, problems + more)
        status = max(status, EXIT["invalid"] if any(p.is_error for p in problems + more) else 0)
        stem = Path(path).relative_to(folder).with_suffix("").as_posix()
        # a pack's level by its number N of PACK#N (a line that cannot be read keeps its number)
        for n, _, entry, _ in numbered(text or "", entries, []) if fmt in MANY else [(0, 0, e, None) for e in entries]:
            if entry is not None:
                levels.append((f"{stem} #{n}" if n else stem, entry.puzzle.with_rules(args.rules)))
                cells += entry.puzzle.cells
        if cells > MAX_PAGE_CELLS:  # (said by publish; nothing more is read)
            break
    if not levels:
        err.print(f"{folder}: no puzzle to publish in that folder", markup=False)
        return EXIT["invalid"]
    return max(status, _publish(levels, Path(folder).resolve().name, args, err))


def _convert_many(entries: list[Entry], target: str, args, err, status: int) -> int:
    """Every puzzle into one text of ``target`` (numbered levels, or URLs), to -o FILE or standard output."""
    entries = [replace(e, puzzle=e.puzzle.with_rules(args.rules)) for e in entries]
    from ..authoring.solved import write_many_solved  # (solves where the target carries solutions)

    if not _written(lambda: write_many_solved(entries, target), args, err):
        return EXIT["invalid"]
    for entry in entries:
        _say_changes(entry, target, entry.puzzle.path or args.input, err)
    return status


def _say_changes(entry: Entry, target: str, where: str, err) -> None:
    """One line per thing a level pack does not keep of the board (mirrored hex, renamed flows)."""
    if target != "level-pack":
        return
    from ..io.level_pack_writer import changes

    for change in changes(entry.puzzle):
        err.print(f"{where}: note: {change}", markup=False)


def _convert(entry: Entry, target: str, folder: Path | None, args, err) -> int:
    from ..authoring.solved import write_solved  # (solves where the target carries solutions)

    entry = replace(entry, puzzle=entry.puzzle.with_rules(args.rules))  # a URL says numlin or arukone by them
    try:
        out = write_solved(entry.puzzle, target)
    except ConversionError as exc:
        where = entry.puzzle.path or args.input
        err.print(f"{where}{'' if where.endswith(entry.name + Path(where).suffix) else ' (' + entry.name + ')'}: {exc}",
                  markup=False)
        return EXIT["invalid"]
    name = str(folder / (entry.name + get_format(target).suffix)) if folder else (args.output or "<stdout>")
    _, back, _ = read_entries(out, name, target)
    # (a level-pack line is checked by its writer: the game's hex parity may mirror the board, labels follow pipes)
    if not back or (target != "level-pack" and not same_board(back[0].puzzle, entry.puzzle)):
        err.print(f"{name}: internal error: the {target} text does not read back as the same board", markup=False)
        return EXIT["error"]
    if folder:
        folder.mkdir(parents=True, exist_ok=True)
        write_atomic(name, out)
    else:
        write_output(out, args.output)
    _say_changes(entry, target, entry.puzzle.path or args.input, err)
    if folder and args.solutions and entry.solution is not None:
        return _write_solution(entry, back[0], name, err)
    if folder and args.solutions:  # (the pack's warning says why, at its line)
        err.print(f"{name}: note: no solution written beside it: the level's pipes are not a solution of its board",
                  markup=False)
    return 0


def _write_solution(entry: Entry, written: Entry, name: str, err) -> int:
    """The level's known solution on the written board (nodes matched by place), verified, as docs/format.md JSON."""
    assert entry.solution is not None  # called for entries that carry one
    by_place = nodes_by_place(written.puzzle)
    at = node_places(entry.puzzle)
    paths = {label: tuple(by_place[at[n]] for n in path)
             for label, path in entry.solution.paths.items()}
    solution = Solution(written.puzzle, paths, "level-pack")
    broken = check(solution)
    if broken:
        err.print(f"{name}: the level's pipes are not a solution of the written board: {broken[0]}", markup=False)
        return EXIT["error"]
    obj = solution_json(name, solution)
    obj["stats"] = {}
    write_atomic(name[: -len(Path(name).suffix)] + ".solution.json", json.dumps(obj) + "\n")
    return 0
