"""Every puzzle format by name: one registry of readers and writers (as networkx's ``readwrite``).

=================  ======  ======  =============================================
name               reads   writes  what
=================  ======  ======  =============================================
``neighbor-link``  yes     yes     the project's own format (any board a text can draw)
``plain-grid``     yes     yes     one character per cell; links by family
``numberlink``     yes     yes     ``W H`` and rows of numbers; square, no holes
``level-pack``     yes     yes     Flow Free lines, many levels per file, with their solutions' pipes
``json-graph``     yes     yes     nodes and links: any topology (:mod:`.json_graph`)
``puzzlink``       yes     yes     puzz.link ``numlin``/``arukone`` URLs, one per line (square boards)
=================  ======  ======  =============================================

:func:`guess_format` tells them apart by content; :func:`read_entries` reads
any of them into :class:`Entry` objects (one per puzzle; a level pack has
many); :func:`write` writes a puzzle, raising
:class:`~flowgraph.errors.ConversionError` where the target cannot express
the board. Every format is described in ``docs/format.md``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from ..errors import ConversionError
from ..model import FAMILIES, Puzzle, Solution
from . import json_graph, level_pack, level_pack_writer, neighbor_link, numberlink, plain_grid, puzzlink
from .problems import Problem, content_lines, iter_content_lines
from .sketch import draw_neighbor_link, sketch_of

_GRID_ROW = re.compile(r"^[.#* A-Za-z0-9]+$")

__all__ = ["FORMATS", "MANY", "Format", "Entry", "guess_format", "format_for", "format_names", "get_format",
           "read_entries", "numbered", "write", "write_many"]


@dataclass(frozen=True)
class Format:
    """A puzzle format: how to read it, how to write it, what files are called.

    A format holds one puzzle a file (``read``, ``write``) or many
    (``read_many``, ``write_many``: a level pack, a file of URLs); every
    reader of a kind has the same signature, as networkx's ``readwrite``
    modules share one shape.

    Attributes
    ----------
    read : callable ``(text, path, family) -> (Puzzle or None, problems)``
        One puzzle a file (``family``: for a plain grid without its header).
    write : callable ``(Puzzle) -> str``
        One puzzle a file.
    read_many : callable ``(text, path) -> (entries, problems)``
        Many puzzles a file: an :class:`Entry` each, and the problems of
        the parts that could not be read.
    write_many : callable ``(entries) -> str``
        Many puzzles a file (``entries``: any iterable of :class:`Entry`, taken in order).
    needs_solution : bool
        Whether a puzzle is written with its solution (a level pack carries
        the pipes): the caller gives each entry one
        (:mod:`flowgraph.authoring.solved` solves for the missing ones; io never solves).
    """

    name: str
    suffix: str
    description: str
    read: Callable[[str, str | None, str | None], tuple[Puzzle | None, list[Problem]]] | None = None
    write: Callable[[Puzzle], str] | None = None
    read_many: Callable[[str, str | None], tuple[list[Entry], list[Problem]]] | None = None
    write_many: Callable[[Iterable[Entry]], str] | None = None
    needs_solution: bool = False

    @property
    def many(self) -> bool:
        """Whether a file of this format holds many puzzles."""
        return self.read_many is not None


@dataclass(frozen=True)
class Entry:
    """One puzzle read from a file: its name, the puzzle, and a known solution if the file gives one."""

    name: str
    puzzle: Puzzle
    solution: Solution | None = None
    #: The line of the file it was read from (1-based), for the formats that hold many; 0 otherwise.
    line: int = 0


def _write_level_pack(entries: Iterable[Entry]) -> str:
    """Level-pack lines, numbered from 1, each with its entry's solution's pipes (taken in order: the entries
    may come from a generator that solves each in turn, :func:`flowgraph.authoring.solved.with_solutions`).

    Raises
    ------
    ConversionError
        A puzzle under Numberlink rules, an entry without a solution, or a board the game cannot hold
        (:func:`.level_pack_writer.write_level`).
    """
    out: list[str] = []
    for entry in entries:
        puzzle, solution = entry.puzzle, entry.solution
        if not puzzle.rules.fills_every_cell:
            raise ConversionError("Flow Free levels fill every cell: a puzzle under Numberlink rules cannot be one")
        if solution is None:
            raise ConversionError("a level carries its solution's pipes: none was given")
        out.append(level_pack_writer.write_level(puzzle, solution, len(out) + 1) + "\n")
    return "".join(out)


def write_many(entries: Iterable[Entry], fmt: str) -> str:
    """Several puzzles as one text of a format that holds many (:data:`MANY`): a pack, a file of URLs.

    Raises
    ------
    ValueError
        ``fmt`` holds one puzzle a file.
    ConversionError
        As :func:`write`.
    """
    target = get_format(fmt)
    if target.write_many is None:
        raise ValueError(f"{fmt} holds one puzzle a file")
    return target.write_many(entries)


def _read_level_pack(text: str, path: str | None = None) -> tuple[list[Entry], list[Problem]]:
    levels, problems = level_pack.analyse_level_pack(text, path)
    return [Entry(level.name, level.puzzle, level.solution, level.line) for level in levels], problems


def _read_puzzlinks(text: str, path: str | None = None) -> tuple[list[Entry], list[Problem]]:
    urls, problems = puzzlink.analyse_puzzlink(text, path)
    return [Entry(url.name, url.puzzle, line=url.line) for url in urls], problems


def _write_puzzlinks(entries: Iterable[Entry]) -> str:
    return "".join(puzzlink.write_puzzlink(entry.puzzle) + "\n" for entry in entries)


def _write_neighbor_link(puzzle: Puzzle) -> str:
    if puzzle.format == "neighbor-link":
        return "\n".join(puzzle.lines) + "\n"  # its own text, comments and all
    return draw_neighbor_link(sketch_of(puzzle))


FORMATS: dict[str, Format] = {
    "neighbor-link": Format("neighbor-link", ".txt", "docs/format.md's neighbor-link text",
                            read=neighbor_link.analyse, write=_write_neighbor_link),
    "plain-grid": Format("plain-grid", ".grid", "one character per cell: . label # *",
                         read=plain_grid.analyse_plain_grid, write=plain_grid.write_plain_grid),
    "numberlink": Format("numberlink", ".nl", "W H, then rows of numbers",
                         read=numberlink.analyse_numberlink, write=numberlink.write_numberlink),
    "level-pack": Format("level-pack", ".pack", "Flow Free level-pack lines, with the solution's pipes",
                         read_many=_read_level_pack, write_many=_write_level_pack, needs_solution=True),
    "json-graph": Format("json-graph", ".json", "nodes and links, any topology",
                         read=json_graph.analyse_json_graph, write=json_graph.write_json_graph),
    "puzzlink": Format("puzzlink", ".url", "puzz.link / pzv.jp Numberlink URLs, one per line (square boards)",
                       read_many=_read_puzzlinks, write_many=_write_puzzlinks),
}

#: Formats whose files hold many puzzles (read by read_entries, a job per puzzle in batches).
MANY = tuple(name for name, fmt in FORMATS.items() if fmt.many)


def format_names(writable: bool = False) -> list[str]:
    """Names of the formats (only those that can be written, if asked)."""
    return [name for name, fmt in FORMATS.items() if fmt.write or fmt.write_many or not writable]


def get_format(name: str) -> Format:
    """The format called ``name``.

    Raises
    ------
    ValueError
        Unknown name; the message lists the valid ones.
    """
    try:
        return FORMATS[name]
    except KeyError:
        raise ValueError(f"unknown format {name!r}: expected one of {', '.join(FORMATS)}") from None


def guess_format(text: str) -> str:
    """The format a text is most likely in.

    JSON starts with ``{``; numberlink with ``W H``; a level pack with
    ``SIZE,f1,LEVEL,NFLOWS...;``; rows of only ``.`` ``#`` ``*``, labels and
    spaces (after an optional header word) are a plain grid; anything else
    is neighbor-link, whose parser says what is wrong with it.

    >>> guess_format("STANDARD\\nA-.-A\\n"), guess_format("A.A\\n"), guess_format("3 1\\n1 0 1\\n")
    ('neighbor-link', 'plain-grid', 'numberlink')
    """
    if json_graph.looks_like_json(text):
        return "json-graph"
    if puzzlink.looks_like_puzzlink(text):
        return "puzzlink"
    if numberlink.looks_like_numberlink(text):
        return "numberlink"
    if level_pack.looks_like_level_pack(text):
        return "level-pack"
    lines = (line for _, line in iter_content_lines(text))  # (a link character on an early line ends the test)
    first = next(lines, None)
    if first is not None and first.strip().upper() in FAMILIES:
        first = next(lines, None)
    if first is not None and _GRID_ROW.match(first) and all(_GRID_ROW.match(line) for line in lines):
        return "plain-grid"  # only cells and holes: no link characters
    return "neighbor-link"  # (its parser says what is wrong with anything else)


def format_for(path: str | None, text: str, *, grid_by_content: bool = True) -> str:
    """The format of a file: a puzz.link URL given as the path is ``puzzlink``; else by its suffix where
    that names one (``.grid``, ``.json``, ``.nl``, ``.pack``, ``.url``), else by its content
    (:func:`guess_format`).

    With ``grid_by_content`` False, content alone never makes a plain grid
    (what ``solve`` and ``validate`` use: a mistyped neighbor-link file is
    reported as one, not read as a grid of labels).
    """
    if path and puzzlink.is_url(path):
        return "puzzlink"
    suffix = "." + path.rsplit(".", 1)[-1] if path and "." in path.rsplit("/", 1)[-1] else ""
    by_suffix = {fmt.suffix: name for name, fmt in FORMATS.items() if fmt.suffix != ".txt"}
    if suffix in by_suffix:
        return by_suffix[suffix]
    if not grid_by_content:  # a header word first is neighbor-link (or a plain grid): no other format starts so
        first = next((line for _, line in iter_content_lines(text)), None)
        if first is not None and first.strip().upper() in FAMILIES:
            return "neighbor-link"
    guessed = guess_format(text)
    return "neighbor-link" if guessed == "plain-grid" and not grid_by_content else guessed


def numbered(text: str, entries: list[Entry], problems: list[Problem]
             ) -> list[tuple[int, int, Entry | None, Problem | None]]:
    """The puzzles of a file that holds many, by their number ``N`` of ``FILE#N``: the N-th line that is
    neither blank nor a comment, whatever became of the lines before it (a line that cannot be read keeps
    its number, as its error).

    Returns
    -------
    list of (N, line, entry, problem)
        In file order; each with its entry, or else the error of its line. An error on no puzzle line
        (the whole file's) has N 0.
    """

    number = {no: n for n, (no, _) in enumerate(content_lines(text), 1)}
    by_line: dict[int, tuple[Entry | None, Problem | None]] = {e.line: (e, None) for e in entries}
    loose = []
    for p in problems:
        if not p.is_error:
            continue
        if p.line in number and p.line not in by_line:
            by_line[p.line] = (None, p)
        elif p.line not in number:
            loose.append((0, p.line, None, p))
    return loose + [(number[no], no, *by_line[no]) for no in sorted(by_line) if no in number]


def read_entries(text: str, path: str | None = None, fmt: str | None = None, family: str | None = None
                 ) -> tuple[str, list[Entry], list[Problem]]:
    """Every puzzle in a text (a level pack has many), and every problem.

    Parameters
    ----------
    text : str
    path : str, optional
        Names the entries and the problems.
    fmt : str, optional
        A name of :data:`FORMATS`; by default :func:`format_for` the path and text.
    family : str, optional
        For plain grids without a header word.

    Returns
    -------
    fmt : str
        The format read.
    entries : list of Entry
        Empty when the file has an error (a level pack: the lines that read).
    problems : list of Problem
    """
    text = text.removeprefix(neighbor_link.BOM)
    fmt = fmt or format_for(path, text)
    stem = path.rsplit("/", 1)[-1].rsplit(".", 1)[0] if path else "puzzle"
    target = get_format(fmt)
    if target.read_many is not None:
        entries, problems = target.read_many(text, path)
        return fmt, entries, problems
    assert target.read is not None  # every format reads one puzzle a file or many
    puzzle, problems = target.read(text, path, family)
    return fmt, ([Entry(stem, puzzle)] if puzzle is not None else []), problems


def write(puzzle: Puzzle, fmt: str, solution: Solution | None = None) -> str:
    """The puzzle as text in ``fmt`` (``solution``: where the format carries one, :attr:`Format.needs_solution`).

    Raises
    ------
    ValueError
        Unknown format, or one that is read only.
    ConversionError
        The format cannot express this board; the message says what.
    """
    target = get_format(fmt)
    if puzzle.drawing.outlines and target.name != "json-graph":  # (every other format writes a grid's places)
        raise ConversionError(f"a shape board (its cells have outlines, not a grid's places) cannot be written as "
                              f"{target.name}: write it as a JSON graph, or publish it as a page")
    if target.write_many is not None:  # a file of one level, or of one URL
        return target.write_many([Entry(Path(puzzle.path or "puzzle").stem, puzzle, solution)])
    if target.write is None:
        raise ValueError(f"{fmt} is read only: write one of {', '.join(format_names(writable=True))}")
    return target.write(puzzle)
