"""The neighbor-link builder's named records: what the grammar read (:class:`Layout`), a resolved
:class:`Link`, and the :class:`Report` every step writes its problems into (:mod:`.builder`,
:mod:`.board_checks`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import NamedTuple

from .problems import Problem

__all__ = ["GridPos", "Layout", "Link", "Report", "DIRECTIONS"]

#: Link character -> (d_row, d_col): the link joins the cells at -d and +d from it.
DIRECTIONS = {"-": (0, 1), "|": (1, 0), "/": (1, -1), "\\": (1, 1)}
_LINK_CHARS = "".join(DIRECTIONS)

GridPos = tuple  # (row, column) on the board: row counts board lines, column is the file's


class Report:
    """The problems found so far."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def error(self, line: int, column: int, message: str) -> None:
        """Record an error at ``line``, ``column``."""
        self.problems.append(Problem(line, column, "error", message))

    def warning(self, line: int, column: int, message: str) -> None:
        """Record a warning at ``line``, ``column``."""
        self.problems.append(Problem(line, column, "warning", message))

    @property
    def has_errors(self) -> bool:
        """Whether an error was recorded."""
        return any(p.is_error for p in self.problems)


@dataclass
class Layout:
    """What the grammar read: the header and the board's characters by position.

    Attributes
    ----------
    family : str or None
        The header word, None when it is missing or unknown.
    header : (int, int)
        File ``(line, column)`` of the header word.
    row_lines : list of int
        Board row -> file line (comment lines take no row).
    rows : list of str
        Each board row's text, column 1 first, as read (a bad character is a space here).
    bad : set of (row, column)
        Characters that are not part of the format (already reported).
    cells : dict of (row, column) -> str
        Cell characters: ``.``, ``*`` or a label, in reading order (read from ``rows`` on first use:
        a board linked on whole arrays never asks).
    links : list of (row, column, str)
        Link characters, in reading order (the same).
    """

    family: str | None = None
    header: tuple[int, int] = (1, 1)
    row_lines: list[int] = field(default_factory=list)
    rows: list[str] = field(default_factory=list)
    bad: set[GridPos] = field(default_factory=set)

    @cached_property
    def cells(self) -> dict[GridPos, str]:
        """Each cell's ``(row, column)`` and character, read when first asked for."""
        self._read()
        return self.cells

    @cached_property
    def links(self) -> list[tuple[int, int, str]]:
        """Each link as ``(row, column, character)``, read when first asked for."""
        self._read()
        return self.links

    def _read(self) -> None:
        """Fill :attr:`cells` and :attr:`links` from the rows at once (both cached: each asks for the other)."""
        cells: dict[GridPos, str] = {}
        links: list[tuple[int, int, str]] = []
        for r, text in enumerate(self.rows):
            for column, char in enumerate(text, 1):
                if char == " ":
                    continue
                if char in _LINK_CHARS:
                    links.append((r, column, char))
                else:
                    cells[r, column] = char
        vars(self).update(cells=cells, links=links)

    @property
    def cell_count(self) -> int:
        """How many cell characters the board has (bridges included), counted without :attr:`cells`."""
        text = "".join(self.rows)
        return len(text) - text.count(" ") - sum(map(text.count, _LINK_CHARS))

    @property
    def has_bridges(self) -> bool:
        """Whether a bridge (``*``) is on the board, seen without :attr:`cells`."""
        return "*" in "".join(self.rows)

    def pos(self, rc: GridPos) -> tuple[int, int]:
        """Board (row, column) -> file (line, column)."""
        return (self.row_lines[rc[0]], rc[1])


class Link(NamedTuple):
    """A link character resolved to the two cells it joins."""

    a: GridPos  # board (row, column) of one end
    b: GridPos  # ... of the other
    axis: str  # the link character: - | / \
    at: tuple[int, int]  # file (line, column) of the link character
    warp: bool  # joins the last cell of a row or column to the first
