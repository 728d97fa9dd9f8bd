"""Problems found in a puzzle file, with their positions, and how they are shown.

Every command shows problems the same way: as text in the compiler form
``FILE:LINE:COLUMN: message`` (:meth:`Problem.text`), or as JSON objects
(:meth:`Problem.to_json`).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import PuzzleError

__all__ = ["Problem"]


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
        return self.severity == "error"

    def to_error(self, path: str | None = None) -> PuzzleError:
        """Return this problem as a :class:`~flowgraph.errors.PuzzleError`."""
        return PuzzleError(self.message, self.line, self.column, path)

    def location(self, path: str | None) -> str:
        """``FILE:LINE:COLUMN`` (``<string>`` for text from no file)."""
        return f"{path or '<string>'}:{self.line}:{self.column}"

    def text(self, path: str | None, name_errors: bool = False) -> str:
        """``FILE:LINE:COLUMN: message``; warnings say ``warning:``, errors ``error:`` if ``name_errors``.

        >>> Problem(5, 5, "error", "bad link").text("a.txt")
        'a.txt:5:5: bad link'
        >>> Problem(2, 1, "warning", "odd header").text("a.txt")
        'a.txt:2:1: warning: odd header'
        """
        tag = f"{self.severity}: " if name_errors or not self.is_error else ""
        return f"{self.location(path)}: {tag}{self.message}"

    def to_json(self, severity: bool = True) -> dict[str, object]:
        """``{"line", "column", "severity"?, "message"}`` (docs/format.md's error objects have no severity)."""
        obj: dict[str, object] = {"line": self.line, "column": self.column}
        if severity:
            obj["severity"] = self.severity
        obj["message"] = self.message
        return obj
