"""The exception tree of flowgraph.

::

    FlowgraphError
    ├── PuzzleError(ValueError)   .path .line .column .message
    ├── UnsolvableError           the search space was exhausted: a proof of "no"
    ├── SearchLimitError          a budget ran out; carries the stats so far
    ├── RulesError(ValueError)    the engine asked for does not solve under the puzzle's rules
    ├── VerificationError         an engine produced an answer that breaks the rules
    ├── ConversionError(ValueError)  a format cannot express this board (a warp in a plain grid)
    ├── ScanError(ValueError)     a picture holds no board that can be read
    └── GenerationError           no unique puzzle found in the time or candidates allowed
                                  (defined with the generator: flowgraph.authoring.generate)
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "FlowgraphError",
    "PuzzleError",
    "UnsolvableError",
    "SearchLimitError",
    "VerificationError",
    "RulesError",
    "ConversionError",
    "ScanError",
]


class FlowgraphError(Exception):
    """Base class of every error flowgraph raises on purpose."""


class PuzzleError(FlowgraphError, ValueError):
    """A puzzle file breaks the format or its rules.

    Parameters
    ----------
    message : str
        What is wrong, without the position.
    line, column : int
        1-based position in the file, as an editor shows it.
    path : str or None
        The file name, or None for text that came from no file.

    Notes
    -----
    ``str(err)`` is ``path:line:column: message`` (``<string>`` stands in for
    a missing path), the form compilers use, so editors can jump to it.
    """

    def __init__(self, message: str, line: int, column: int, path: str | None = None):
        self.message = message
        self.line = line
        self.column = column
        self.path = path
        super().__init__(str(self))

    def __reduce__(self):  # pickled with its fields (batch workers send errors between processes)
        return type(self), (self.message, self.line, self.column, self.path)

    def __str__(self) -> str:
        return f"{self.path or '<string>'}:{self.line}:{self.column}: {self.message}"


class UnsolvableError(FlowgraphError):
    """The engine exhausted the search space: the puzzle has no solution.

    Attributes
    ----------
    stats : dict
        Engine statistics (``seconds``, ``states`` or ``sat_calls``, and engine-specific fields).
    """

    def __init__(self, message: str = "no solution", stats: dict[str, Any] | None = None):
        self.stats = dict(stats or {})
        super().__init__(message)

    def __reduce__(self):
        return type(self), (str(self), self.stats)


class SearchLimitError(FlowgraphError):
    """A state, SAT-call, time or memory budget ran out before the search finished.

    Attributes
    ----------
    reason : str
        ``"states"``, ``"sat_calls"``, ``"time"`` or ``"memory"``.
    stats : dict
        Engine statistics so far.
    """

    def __init__(self, reason: str, stats: dict[str, Any] | None = None):
        self.reason = reason
        self.stats = dict(stats or {})
        super().__init__(f"{reason} budget ran out")

    def __reduce__(self):
        return type(self), (self.reason, self.stats)

    def said(self, what: str) -> str:
        """Say why a command gave up.

        ``what`` ("not explained", "not rated") and the budget that ran out, in a user's words.

        >>> SearchLimitError("memory").said("not explained")
        'not explained within the memory limit (--memory-limit)'
        """
        return {"time": f"{what} in the time given",
                "memory": f"{what} within the memory limit (--memory-limit)"}.get(
                    self.reason, f"{what}: the {self.reason} budget ran out")


class RulesError(FlowgraphError, ValueError):
    """The engine asked for does not solve under the puzzle's rules (the search and Numberlink rules)."""


class VerificationError(FlowgraphError):
    """A candidate solution breaks the rules (an internal error of an engine)."""


class ConversionError(FlowgraphError, ValueError):
    """The target format cannot express this board; the message says what (a warp, a wall, ...)."""


class ScanError(FlowgraphError, ValueError):
    """A picture could not be read as a puzzle; the message says what was not found.

    Parameters
    ----------
    message : str
        What could not be found or read ("no grid found", "an odd number of
        dots of colour #e0e000 at (412, 310)").
    path : str or None
        The image file, or None for an image given as bytes or an array.

    Notes
    -----
    ``str(err)`` is ``path: message``.
    """

    def __init__(self, message: str, path: str | None = None):
        self.message = message
        self.path = path
        super().__init__(str(self))

    def __reduce__(self):
        return type(self), (self.message, self.path)

    def __str__(self) -> str:
        return f"{self.path or '<image>'}: {self.message}"
