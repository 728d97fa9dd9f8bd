"""Why a puzzle has no solution: the flows, or the cells, that cannot all be satisfied.

A "no solution" is only useful to an author who knows what to move. :func:`why_unsolvable`
answers in the puzzle's own terms, by a minimal unsatisfiable subset found by deletion
(Marques-Silva, "Minimal Unsatisfiability: Models, Algorithms and Applications", ISMVL 2010):

1. Relax the rules to Numberlink's (cells may stay empty). If the puzzle is still
   unsolvable, the culprit is a set of flows that cannot all be joined even with every
   other cell free: flows are dropped one at a time (their endpoints becoming plain cells)
   while the rest stays unsolvable, leaving a set where every flow is needed.
2. Otherwise every flow can be joined and only "fill every cell" fails: each plain cell's
   "is used" becomes a clause guarded by an assumption of its own, and the SAT solver's
   core (python-sat's ``get_core``), shrunk by deletion, names cells that cannot all be
   filled at once.

Each check is a complete SAT answer (cycles cut as :mod:`flowgraph.engines.sat` does), so
every set reported is a proof: those flows (cells) alone already make the board unsolvable.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

import numpy as np

from ..budgets import DIAGNOSE_SECONDS
from ..errors import SearchLimitError, UnsolvableError
from ..model import Limits, Node, Puzzle, Rules, position

__all__ = ["Why", "why_unsolvable", "SECONDS"]

SECONDS = DIAGNOSE_SECONDS  # (flowgraph.budgets)


@dataclass(frozen=True)
class Why:
    """What makes a puzzle unsolvable.

    Attributes
    ----------
    flows : tuple of str
        Labels of flows that cannot all be joined, even with every other cell left empty
        (empty when every flow can be joined and only filling fails).
    cells : tuple of Node
        Cells that cannot all be filled while every flow is joined (empty when ``flows`` says it).
    minimal : bool
        Each flow (cell) listed is needed: dropping any one makes the rest solvable. False
        when the time ran out before every one was tried (the set is then still a proof).
    ends : tuple of Node
        The endpoints of ``flows`` (for an editor to outline).
    names : tuple of str
        ``cells`` as people name them (:func:`flowgraph.io.sketch.cell_namer`: ``r1c4``), for :attr:`text`.
    """

    flows: tuple[str, ...] = ()
    cells: tuple[Node, ...] = ()
    minimal: bool = True
    ends: tuple[Node, ...] = ()
    names: tuple[str, ...] = ()

    @property
    def text(self) -> str:
        """One phrase, e.g. ``flows A and B cannot both be joined, even with cells left empty``."""
        if self.flows:
            names = _names(self.flows)
            if len(self.flows) == 1:
                return f"flow {names} cannot be joined, even with every other cell left empty"
            both = "both" if len(self.flows) == 2 else "all"
            return f"flows {names} cannot {both} be joined, even with cells left empty"
        places = _names(self.names or tuple(f"{line}:{col}" for line, col in (position(c) for c in self.cells)))
        if len(self.cells) == 1:
            return f"every flow can be joined, but never with cell {places} filled"
        return f"every flow can be joined, but never with cells {places} all filled"

    def to_json(self) -> dict:
        """The diagnosis as a JSON object.

        ``{flows, cells, minimal, text, marks}``: ``cells`` and ``marks`` (the cells to outline: ``cells``,
        or the flows' endpoints) as ``[line, column]``."""
        return {"flows": list(self.flows), "cells": [list(position(c)) for c in self.cells], "minimal": self.minimal,
                "text": self.text, "marks": [list(position(c)) for c in (self.cells or self.ends)]}


def _names(labels: tuple[str, ...]) -> str:
    return labels[0] if len(labels) == 1 else ", ".join(labels[:-1]) + " and " + labels[-1]


def why_unsolvable(puzzle: Puzzle, limits: Limits | None = None) -> Why | None:
    """Why ``puzzle`` has no solution, in flows or cells (see the module notes).

    Parameters
    ----------
    puzzle : Puzzle
        A puzzle the engines found unsolvable (under its own rules).
    limits : Limits, optional
        ``time_limit_s`` bounds the whole diagnosis (default :data:`SECONDS`).

    Returns
    -------
    Why or None
        None when the time ran out before any set was proved, or when the puzzle turns
        out to be solvable after all (it was not unsolvable).
    """
    from ..engines import sat

    total = (limits.time_limit_s if limits and limits.time_limit_s is not None else SECONDS)
    t0 = time.perf_counter()

    def left() -> Limits:
        return Limits(time_limit_s=max(0.01, total - (time.perf_counter() - t0)))

    def solvable(p: Puzzle) -> bool | None:
        try:
            sat.solve(p, left(), heuristic=False)
            return True
        except UnsolvableError:
            return False
        except SearchLimitError:
            return None

    relaxed = puzzle.with_rules(Rules.NUMBERLINK)
    whole = solvable(relaxed)
    if whole is None:
        return None
    if whole:
        if not puzzle.rules.fills_every_cell:
            return None  # solvable under its own rules: nothing to explain
        found = _cells(relaxed, t0, total)
        if found is None:
            return None
        from ..io.sketch import cell_namer

        name = cell_namer(puzzle)
        return replace(found, names=tuple(name(c) for c in found.cells))
    core = list(puzzle.flows)
    minimal = True
    for flow in list(core):
        rest = tuple(f for f in core if f is not flow)
        answer = solvable(replace(relaxed, flows=rest)) if rest else True
        if answer is None:
            minimal = False
            break
        if not answer:
            core = list(rest)
    return Why(flows=tuple(sorted(f.label for f in core)), minimal=minimal,
               ends=tuple(end for f in core for end in f.ends))


def _cells(relaxed: Puzzle, t0: float, total: float) -> Why | None:
    """Plain cells that cannot all be used while every flow is joined (the Numberlink model being solvable)."""
    from pysat.solvers import Solver

    from ..engines.sat import SOLVER, solve_until
    from ..engines.sat_model import Model

    model = Model(relaxed)  # not tight: filling a cell may need a detour that tightening would remove
    plain = np.flatnonzero(model.end_flow < 0)
    ends = np.concatenate([model.links[:, 0], model.links[:, 1]])
    link_of = np.concatenate([np.arange(len(model.links))] * 2) + 1
    select = {int(node): model.variables + 1 + k for k, node in enumerate(plain)}
    solver = Solver(name=SOLVER, bootstrap_with=model.clauses)
    try:
        for node, s in select.items():  # s => the cell is used (one link used; never exactly one, so two)
            solver.add_clause([-s, *link_of[ends == node].tolist()])

        def unsat(assume: list[int]) -> bool | None:
            while True:
                answer = solve_until(solver, t0 + total, assumptions=assume)
                if answer is None:
                    return None
                if answer:
                    used = model.used_links(solver.get_model())
                    cuts = model.cycle_cuts(used)
                    if not cuts:
                        return False
                    for clause in cuts:  # a cycle apart from every flow is never part of a solution
                        solver.add_clause(clause)
                    continue
                return True

        first = unsat(list(select.values()))
        if not first:
            return None
        core = sorted(solver.get_core() or select.values())
        minimal = True
        for s in list(core):
            if s not in core:
                continue
            trial = [x for x in core if x != s]
            answer = unsat(trial)
            if answer is None:
                minimal = False
                break
            if answer:
                smaller = set(solver.get_core() or trial)
                core = [x for x in trial if x in smaller]
        node_of = {s: node for node, s in select.items()}
        return Why(cells=tuple(sorted(model.nodes[node_of[s]] for s in core)), minimal=minimal)
    finally:
        solver.delete()
