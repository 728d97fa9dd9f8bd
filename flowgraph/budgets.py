"""Time policy: how long each part of flowgraph waits by default and how a budget is shared, in one place.

A caller's ``Limits(time_limit_s=...)`` is the budget; these are the shares of it that each part of a
composite answer gets, and the seconds used where the caller sets none. Each value was chosen by
measurement (docs/benchmarks.md names the run). Bounds on what a request may ask for (the studio's
``MAX_TIME_LIMIT_S``, the CLI's ``MAX_SECONDS``) stay beside the code that checks them: docs/limits.md
lists both. Imports nothing.
"""

from __future__ import annotations

__all__ = [
    "SAT_SHARE", "SAT_SECONDS", "FLOW_FIRST_SHARE", "FLOW_FIRST_SECONDS", "LINKS_SHARE", "LINKS_SECONDS",
    "UNIQUE_FIRST_SECONDS", "UNIQUE_ROUND_SAT_SHARE", "UNIQUE_NEARBY_SHARE", "UNIQUE_NEARBY_SECONDS",
    "EXPLAIN_UNIQUE_SECONDS", "EXPLAIN_UNIQUE_SHARE", "DIAGNOSE_SECONDS", "HINT_WHY_SECONDS",
    "STUDIO_SOLVE_SECONDS", "STUDIO_GENERATE_SECONDS", "PACK_SOLVE_SECONDS",
]

# auto (flowgraph.engines.auto)
#: ``auto``: the share of a time budget SAT gets before the search takes over.
SAT_SHARE = 0.6
#: ``auto``: SAT's seconds before the search takes over when no time budget is set.
SAT_SECONDS = 30.0
#: ``auto`` under Numberlink rules: the share of a budget for a Flow Free solution first.
FLOW_FIRST_SHARE = 0.5
#: ``auto`` under Numberlink rules: the seconds for a Flow Free solution first when no budget is set.
FLOW_FIRST_SECONDS = 30.0
#: ``auto`` under Numberlink rules, when no Flow Free solution came: the link search's share of what is left
#: of a budget before SAT's Numberlink model.
LINKS_SHARE = 0.6
#: ``auto`` under Numberlink rules, when no Flow Free solution came: the link search's seconds when no budget
#: is set.
LINKS_SECONDS = 30.0

# validate --unique (flowgraph.authoring.uniqueness)
#: ``validate --unique``: after its first decisions the link search gets this many seconds (under Numberlink
#: rules it answers before SAT on 143 of 149 janko boards that get there, janko_176_17x17 in 1.9 s against
#: SAT's 9 s; under Flow Free rules it proves janko_269_14x14 unique in 1.4 s, SAT in 33 s), then SAT and the
#: link search take turns, each going on from where it stopped, as long again the first time and twice as
#: long each time after.
UNIQUE_FIRST_SECONDS = 6.0
#: ``validate --unique``: SAT's share, at most, of the time left in each of those turns: a board only SAT
#: answers (samgoldman's hex 15x15Mania_150, 16 s) is answered in under twice SAT's time after the first part.
UNIQUE_ROUND_SAT_SHARE = 0.5
#: ``validate --unique``: the share of the time spent first on second solutions that differ from the first
#: only inside one window of the board (:func:`flowgraph.engines.sat.nearby_solution`).
UNIQUE_NEARBY_SHARE = 0.2
#: ``validate --unique``: the most seconds spent on those nearby second solutions.
UNIQUE_NEARBY_SECONDS = 5.0

# explain, the studio and the writers
#: ``explain``: seconds the uniqueness check behind tier 6's words may take (past it, reported unknown).
EXPLAIN_UNIQUE_SECONDS = 10.0
#: ``explain``: the uniqueness check's share, at most, of the time left under a time limit.
EXPLAIN_UNIQUE_SHARE = 0.5
#: ``why_unsolvable``: the seconds a diagnosis takes at most by default (each SAT check is bounded by what is
#: left).
DIAGNOSE_SECONDS = 5.0
#: The studio's hint: the seconds explain may take to name the technique (a 15x15 level: about a second).
HINT_WHY_SECONDS = 3.0
#: The studio's Solve, Unique? and Explain when the page sends no ``time_limit_s``.
STUDIO_SOLVE_SECONDS = 10.0
#: The studio's Generate when the page sends no ``time_limit_s``.
STUDIO_GENERATE_SECONDS = 20.0
#: Writing a level pack solves each level that has no known solution for its pipes, for at most this long.
PACK_SOLVE_SECONDS = 60.0
