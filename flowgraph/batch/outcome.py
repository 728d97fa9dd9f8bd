"""One puzzle file to a verified outcome: read, parse, solve, verify, time.

:func:`solve_file` is what the CLI and the benchmark share, and what batch
runs will send to their workers: it never raises for bad input, and every
way a solve can end is an :class:`Outcome`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from typing import Any

from ..engines import solve_puzzle
from ..errors import RulesError, SearchLimitError, UnsolvableError, VerificationError
from ..io.files import load
from ..io.problems import Problem
from ..io.solution_json import solution_json
from ..model import Limits, Puzzle, Solution

__all__ = ["Outcome", "solve_file"]


@dataclass
class Outcome:
    """How solving one puzzle file ended.

    Attributes
    ----------
    path : str
    status : str
        ``solved``, ``unsolvable``, ``limit``, ``invalid`` or ``error`` (an
        engine's answer failed verification: a bug, never shown as an answer).
    engine : str
        The engine asked for; for ``unsolvable`` the one that proved it
        (``auto`` names the engine it ran).
    solution : Solution or None
    problems : list of Problem
        For ``invalid``: every error and warning; otherwise the warnings.
    stats : dict
        ``seconds`` (wall time, parse to verified answer), ``states``
        (search states expanded), ``sat_calls`` and ``nodes`` (docs/format.md's
        name for ``states``), plus the engine's own fields.
    message : str
        One line for people (the proof of no solution, the limit that ran
        out, the internal error).
    puzzle : Puzzle or None
    why : dict or None
        For ``unsolvable``: :meth:`flowgraph.authoring.diagnose.Why.to_json`, the flows or
        cells that cannot all be satisfied (``solve`` asks for it; None when not asked or
        not found in time).
    """

    path: str
    status: str
    engine: str
    solution: Solution | None = None
    problems: list[Problem] = field(default_factory=list)
    stats: dict[str, Any] = field(default_factory=dict)
    message: str = ""
    puzzle: Puzzle | None = None
    why: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        """The JSON Lines object of docs/format.md."""
        if self.status == "solved" and self.solution is not None:
            solved = solution_json(self.path, self.solution)
            solved["stats"] = self.stats
            return solved
        obj: dict[str, Any] = {"puzzle": self.path, "status": self.status, "engine": self.engine}
        if self.puzzle is not None:
            obj["rules"] = self.puzzle.rules
        if self.status == "invalid":
            obj["errors"] = [p.to_json(severity=False) for p in self.problems if p.is_error]
        if self.message:
            obj["message"] = self.message
        if self.why is not None:
            obj["why"] = self.why
        obj["stats"] = self.stats
        return obj



def solve_file(path: str, engine: str = "auto", limits: Limits | None = None, data: bytes | None = None,
               rules: str | None = None, line: int = 1) -> Outcome:
    """Read, parse, solve and verify one puzzle file; never raises for bad input.

    Parameters
    ----------
    path : str
        File name (also what the outcome reports).
    engine : str
        A key of :data:`ENGINES`.
    limits : Limits, optional
        The time budget counts from the start of parsing.
    data : bytes, optional
        The file's content, when already read (``-`` for standard input).
    rules : str, optional
        A rule set of :data:`~flowgraph.model.RULES` (default: the source's
        own, :attr:`Puzzle.rules`).

    Returns
    -------
    Outcome
        ``invalid`` too when the engine does not solve under the rules.
    """
    t0 = time.perf_counter()
    limits = limits or Limits()

    def stats(extra: dict[str, Any] | None = None) -> dict[str, Any]:
        out = {"seconds": round(time.perf_counter() - t0, 6), "states": 0, "sat_calls": 0}
        out.update({k: v for k, v in (extra or {}).items() if k != "seconds"})
        out["nodes"] = out["states"]  # docs/format.md's name for the states expanded
        return out

    puzzle, problems = load(path, data, memory_bytes=limits.memory_bytes, line=line)
    if puzzle is None:
        return Outcome(path, "invalid", engine, problems=problems, stats=stats())
    puzzle = puzzle.with_rules(rules)
    warnings = [p for p in problems if p.severity == "warning"]
    if limits.time_limit_s is not None:
        spent = time.perf_counter() - t0
        limits = replace(limits, time_limit_s=max(0.0, limits.time_limit_s - spent))
    try:
        solution = solve_puzzle(puzzle, engine, limits)
    except UnsolvableError as err:
        prover = (err.stats.get("tried") or [engine])[-1]  # auto: the engine that gave the proof
        return Outcome(path, "unsolvable", prover, problems=warnings, stats=stats(err.stats), message=str(err),
                       puzzle=puzzle)
    except SearchLimitError as err:
        return Outcome(
            path, "limit", engine, problems=warnings, stats=stats(err.stats),
            message=f"the {err.reason} budget ran out", puzzle=puzzle,
        )
    except VerificationError as err:
        return Outcome(path, "error", engine, problems=warnings, stats=stats(), message=str(err), puzzle=puzzle)
    except RulesError as err:
        return Outcome(path, "invalid", engine, problems=[Problem(1, 1, "error", str(err))], stats=stats(),
                       message=str(err), puzzle=puzzle)
    return Outcome(
        path, "solved", engine, solution=solution, problems=warnings,
        stats=stats(dict(solution.stats)), puzzle=puzzle,
    )
