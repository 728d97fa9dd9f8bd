"""Solves the page starts and polls: one at a time, off the event loop, stoppable from the page.

A solve answers as ``flowgraph solve`` does, by the engines' ``auto`` policy, so the studio and the command
line show the same solution; then, where the search is built and takes the rules, the search runs again with a
trace hook for the replay (its states, sampled, are the frames; the hook is also where Stop lands), and its
frames are shown only when it ends on that same solution (a board with one solution: every level). A new
solve stops the one before, so typing never piles solves up; the last :attr:`Solves.keep` jobs are kept for
their answers.
"""

from __future__ import annotations

import itertools
import logging
import threading
import time
from dataclasses import dataclass, field

from ..errors import SearchLimitError, UnsolvableError
from ..model import Limits, Solution
from ..render import FrameSampler
from ..verification import verify
from .handlers import int_field, puzzle_of, seconds_field, svg_of, theme_field

__all__ = ["Solves", "solve_json"]


def _paths_json(solution: Solution) -> dict:
    return {label: [list(n) for n in path] for label, path in solution.paths.items()}


class _Cancelled(Exception):
    """Raised inside the search's trace hook when the page pressed Stop."""


@dataclass
class _Job:
    id: str
    stop: threading.Event = field(default_factory=threading.Event)
    status: str = "running"
    result: dict = field(default_factory=dict)
    started: float = field(default_factory=time.perf_counter)


class Solves:
    """Solves run one at a time off the event loop; a new one stops the one before (typing never piles them up)."""

    def __init__(self, keep: int = 20):
        self.jobs: dict[str, _Job] = {}
        self.keep = keep
        self.ids = itertools.count(1)
        self.lock = threading.Lock()

    def start(self, body: dict) -> _Job:
        """Validate the request and register a job; :meth:`run` does the work (in a worker thread)."""
        puzzle = puzzle_of(body)
        seconds = seconds_field(body)
        frames = int_field(body, "frames", 30, 2, 200)
        job = _Job(str(next(self.ids)))
        with self.lock:
            for other in self.jobs.values():
                other.stop.set()  # one solve at a time: the newest wins
            self.jobs[job.id] = job
            while len(self.jobs) > self.keep:
                self.jobs.pop(next(iter(self.jobs)))
        job.result = {"puzzle": puzzle, "seconds": seconds, "frames": frames, "theme": theme_field(body)}
        return job

    def run(self, job: _Job) -> None:
        """Solve by ``auto`` (the command line's answer), then replay the search where it is built; finish the job
        as solved / unsolvable / limit / cancelled.

        While the search is built for this machine (the studio's first start, :data:`flowgraph.kernels.cache.BUILD_NOTE`)
        or under rules it does not take, there is no replay: a board never waits for the build.
        """
        from ..engines import ENGINE_RULES, get_engine, solve_puzzle
        from ..kernels import ready

        ask = job.result
        puzzle = ask["puzzle"]
        sampler = FrameSampler(ask["frames"] - 1)  # memory for the frames shown, not for every state

        def trace(paths: dict) -> None:
            if job.stop.is_set():
                raise _Cancelled
            sampler.add(paths)

        try:
            takes = puzzle.rules in ENGINE_RULES["search"]
            building = takes and not ready()  # the page says SAT answered while the search is built
            t0 = time.perf_counter()
            solution = verify(solve_puzzle(puzzle, "auto", Limits(time_limit_s=ask["seconds"])))
            if job.stop.is_set():
                raise _Cancelled
            loaded, replayed = 0.0, False
            if takes and not building:
                search = get_engine("search")
                t1 = time.perf_counter()
                search.warm_up()  # (compiled already: a load, not on the solve's clock)
                loaded = time.perf_counter() - t1
                left = max(0.5, ask["seconds"] - (time.perf_counter() - t0))
                try:
                    traced = search.solve(puzzle, Limits(time_limit_s=left), trace=trace)
                    replayed = dict(traced.paths) == dict(solution.paths)  # the same answer: its way there
                except (SearchLimitError, UnsolvableError):  # (auto answered: the replay alone gave up)
                    replayed = False
            frames = [svg_of(puzzle, ask["theme"], paths=p) for p in sampler.frames()] if replayed else []
            final = svg_of(solution, ask["theme"])
        except _Cancelled:
            job.status, job.result = "cancelled", {}
            return
        except UnsolvableError:
            from ..authoring.diagnose import SECONDS, why_unsolvable

            why = why_unsolvable(puzzle, Limits(time_limit_s=min(SECONDS, ask["seconds"])))  # what to move
            job.status, job.result = "unsolvable", ({"message": why.text, "why": why.to_json()} if why else {})
            return
        except SearchLimitError as exc:
            job.status, job.result = "limit", {"message": f"the {exc.reason} budget ran out"}
            return
        except Exception as exc:  # noqa: BLE001 - a bug must end the job, not leave the page polling forever
            logging.getLogger("flowgraph.studio").exception("solve %s failed", job.id)
            job.status, job.result = "error", {"message": f"internal error: {type(exc).__name__}: {exc}"}
            return
        job.status = "solved"
        job.result = {"paths": _paths_json(solution), "engine": solution.engine, "building": building,
                      "stats": {**solution.stats, "warm_up_s": round(loaded, 3)},
                      "svg": final,
                      "frames": [f for f in frames if f] + [final]}

    def stop_all(self) -> None:
        """Tell every running solve to stop (the server is shutting down)."""
        with self.lock:
            for job in self.jobs.values():
                job.stop.set()

    def get(self, job_id: str) -> _Job | None:
        """The solve ``job_id``, or None."""
        return self.jobs.get(job_id)

    def stop(self, job_id: str) -> bool:
        """Ask the solve ``job_id`` to stop; whether there was one."""
        job = self.jobs.get(job_id)
        if job is None:
            return False
        job.stop.set()
        return True


def solve_json(job: _Job) -> dict:
    """What the page sees of a job."""
    out = {"job": job.id, "status": job.status, "seconds": round(time.perf_counter() - job.started, 3)}
    if job.status != "running":
        out.update({k: v for k, v in job.result.items() if k not in ("puzzle",)})
    return out

