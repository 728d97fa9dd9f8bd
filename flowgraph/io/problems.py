"""Problems found in a puzzle file, with their positions, how they are shown, and the rules every reader shares.

Every command shows problems the same way: as text in the compiler form
``FILE:LINE:COLUMN: message`` (:meth:`Problem.text`), or as JSON objects
(:meth:`Problem.to_json`). The rules every text format keeps have their one
home here: ``//`` comment lines (:func:`is_comment`, :func:`content_lines`)
and each label exactly twice (:func:`pair_endpoints`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import PuzzleError

__all__ = ["Problem", "LineError", "is_comment", "content_lines", "iter_content_lines", "pair_endpoints", "exact_int",
           "whole_number", "MAX_EXACT_INT", "board_row_of_line"]

#: The largest whole number JSON readers everywhere hold exactly (IEEE doubles): 2**53.
MAX_EXACT_INT = 2**53


def whole_number(text: str, most: int = MAX_EXACT_INT) -> int | None:
    """Read a whole number, bounded before it is converted.

    ``text`` as a whole number, or None: the one way a reader reads a number it meets in a file or a name.

    Only ASCII digits count (``str.isdigit`` also takes ``²`` and other digits ``int`` refuses), with no sign,
    space or ``_``; a number above ``most`` is None, and the digits are counted before ``int`` is asked (it
    refuses 4,300 digits and more, after spending time on them). The caller says what was wrong, where.

    >>> whole_number("42"), whole_number("²"), whole_number("٣"), whole_number("1" * 5000), whole_number("7", most=5)
    (42, None, None, None, None)
    """
    if not text.isascii() or not text.isdigit() or len(text) > len(str(most)):
        return None
    value = int(text)
    return value if value <= most else None


def exact_int(text: str) -> int | None:
    """The whole number ``text`` (JSON's digits), or None beyond :data:`MAX_EXACT_INT` either way.

    The digits are counted first: Python's ``int`` of thousands of digits
    costs time before it refuses them.

    >>> exact_int("9007199254740992"), exact_int("-9007199254740993"), exact_int("1" * 5000)
    (9007199254740992, None, None)
    """
    if len(text.lstrip("-")) > 16 or abs(value := int(text)) > MAX_EXACT_INT:
        return None
    return value


class LineError(Exception):
    """A problem at ``column`` of the line being read: the one-line-a-puzzle readers (level packs, URLs)
    raise it and report it at the line's number."""

    def __init__(self, column: int, message: str):
        super().__init__(message)
        self.column = column
        self.message = message

#: What starts a comment line in every text format (after any white space).
COMMENT = "//"


def is_comment(line: str) -> bool:
    """Whether ``line`` is a comment line (``//`` after any white space).

    >>> is_comment("  // a note"), is_comment("A-.-A")
    (True, False)
    """
    return line.lstrip().startswith(COMMENT)


def content_lines(text: str) -> list[tuple[int, str]]:
    """The lines that are neither blank nor comments, with their 1-based numbers."""
    return list(iter_content_lines(text))


def iter_content_lines(text: str) -> Iterator[tuple[int, str]]:
    """Yield a text's content lines one at a time.

    :func:`content_lines` one at a time: a test of the first few (a format's guess) reads no further."""
    return ((no, line) for no, line in enumerate(text.splitlines(), 1) if line.strip() and not is_comment(line))


def pair_endpoints(labels: Mapping[str, Sequence[Any]]) -> tuple[list[tuple[str, tuple[Any, Any]]], list[Problem]]:
    """The two ends of every label that appears exactly twice; an error at every place of any other label.

    Parameters
    ----------
    labels : mapping of str to sequence of Node
        Each label's places (nodes whose first two items are a line and a column).

    Returns
    -------
    pairs : list of (label, (Node, Node))
        A flow each (``Flow(label, ends)``), in the order of each label's first place; the ends in place
        order. (Plain pairs: this module imports nothing of the model, so every reader can use it.)
    problems : list of Problem
        ``label 'A' appears once; each label appears exactly twice`` (or
        ``3 times``) at every place of such a label.
    """
    pairs: list[tuple[str, tuple[Any, Any]]] = []
    problems: list[Problem] = []
    for label, where in sorted(((label, sorted(places)) for label, places in labels.items()), key=lambda kv: kv[1][0]):
        if len(where) == 2:
            pairs.append((label, (where[0], where[1])))
        else:
            count = "once" if len(where) == 1 else f"{len(where)} times"
            problems += [Problem(n[0], n[1], "error", f"label {label!r} appears {count}; each label appears exactly twice")
                         for n in where]
    return pairs, problems


@dataclass(frozen=True, order=True)
class Problem:
    """One problem found in a puzzle file.

    Attributes
    ----------
    line, column : int
        1-based position in the file.
    severity : str
        ``"error"`` (the file cannot be solved as written) or ``"warning"``.
    message : str
    """

    line: int
    column: int
    severity: str
    message: str

    @property
    def is_error(self) -> bool:
        """Whether the problem is an error (the puzzle cannot be read), not a warning."""
        return self.severity == "error"

    def to_error(self, path: str | None = None) -> PuzzleError:
        """Return this problem as a :class:`~flowgraph.errors.PuzzleError`."""
        return PuzzleError(self.message, self.line, self.column, path)

    def location(self, path: str | None) -> str:
        """Say where the problem is.

        ``FILE:LINE:COLUMN`` (``<string>`` for text from no file)."""
        return f"{path or '<string>'}:{self.line}:{self.column}"

    def text(self, path: str | None, name_errors: bool = False) -> str:
        """Say the problem in one line.

        ``FILE:LINE:COLUMN: message``; warnings say ``warning:``, errors ``error:`` if ``name_errors``.

        >>> Problem(5, 5, "error", "bad link").text("a.txt")
        'a.txt:5:5: bad link'
        >>> Problem(2, 1, "warning", "odd header").text("a.txt")
        'a.txt:2:1: warning: odd header'
        """
        tag = f"{self.severity}: " if name_errors or not self.is_error else ""
        return f"{self.location(path)}: {tag}{self.message}"

    def to_json(self, severity: bool = True) -> dict[str, object]:
        """The problem as a JSON object.

        ``{"line", "column", "severity"?, "message"}`` (docs/format.md's error objects have no severity)."""
        obj: dict[str, object] = {"line": self.line, "column": self.column}
        if severity:
            obj["severity"] = self.severity
        obj["message"] = self.message
        return obj


def board_row_of_line(lines: tuple[str, ...]) -> dict[int, int]:
    """Neighbor-link text: file line (1-based) -> board row (0-based); comments take no row."""
    rows: dict[int, int] = {}
    header_seen = False
    for i, line in enumerate(lines, 1):
        stripped = line.strip()
        if is_comment(line):
            continue
        if not header_seen:
            header_seen = bool(stripped)
            continue
        rows[i] = len(rows)
    return rows
