"""Problems found in a puzzle file, with their positions."""

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

    def to_error(self, path: str | None = None) -> PuzzleError:
        """Return this problem as a :class:`~flowgraph.errors.PuzzleError`."""
        return PuzzleError(self.message, self.line, self.column, path)
