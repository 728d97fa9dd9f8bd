"""A batch: jobs through an executor, rows to a JSON Lines file as they finish, resumable.

The one module the CLI's batch commands (and anything else) share:
:func:`run_batch` sends every job not already in ``--out`` to an executor
(:mod:`.executors`), writes each row as one flushed line as soon as it
arrives (a crash leaves whole lines only), calls back for progress and
printing, and at the end rewrites the file in input order. Ctrl-C stops it
cleanly: the rows already written stay, and ``--resume`` finishes the rest.
"""

from __future__ import annotations

import json
import signal
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..io.files import read_bounded, write_atomic, writing
from .executors import ClusterLost, Executor
from .tasks import STATUSES

__all__ = ["Batch", "run_batch", "read_rows", "summarise"]


@dataclass
class Batch:
    """What a batch did.

    Attributes
    ----------
    rows : list of dict or None
        One per job, in input order; None for a job not run (interrupted).
    resumed : int
        Rows taken from the output file of an earlier run.
    interrupted : bool
        Stopped by Ctrl-C, or by a lost cluster, before every job was done.
    lost : str or None
        What was lost when the cluster was (its scheduler gone): the batch stopped there.
    """

    rows: list[dict | None]
    resumed: int = 0
    interrupted: bool = False
    lost: str | None = None
    wall_seconds: float = 0.0
    executor: str = ""
    workers: int = 1

    @property
    def done(self) -> list[dict]:
        return [r for r in self.rows if r is not None]


#: The largest rows file ``--resume`` reads (bytes; a row is ~0.2-3 kB, so millions of puzzles).
MAX_ROWS_BYTES = 1_000_000_000


def read_rows(path: str | Path) -> dict[str, dict]:
    """The rows of a JSON Lines output by ``key``; a last line cut short by a crash is dropped from the file."""
    path = Path(path)
    if not path.is_file():  # missing, or a device or pipe: nothing to resume from
        return {}
    data = read_bounded(path, MAX_ROWS_BYTES)
    end = data.rfind(b"\n") + 1
    if end < len(data):  # a half-written last line: keep the whole lines only
        with open(path, "r+b") as fh:
            fh.truncate(end)
    rows: dict[str, dict] = {}
    for line in data[:end].splitlines():
        try:
            row = json.loads(line)
        except ValueError:
            continue
        if isinstance(row, dict) and "key" in row:
            rows[row["key"]] = row
    return rows


def _public(row: dict) -> dict:
    return {k: v for k, v in row.items() if not k.startswith("_")}


def run_batch(
    keys: Sequence[str],
    task: Callable[..., dict],
    args: Sequence[tuple],
    executor: Executor,
    *,
    out: str | Path | None = None,
    resume: bool = False,
    on_row: Callable[[int, dict], None] | None = None,
    digests: Sequence[str] | None = None,
) -> Batch:
    """Run ``task(*args[i])`` for every job ``i`` whose key the output does not already hold.

    Parameters
    ----------
    keys : sequence of str
        One per job, unique (:attr:`~.jobs.Job.key`).
    task : callable
        A function of :mod:`.tasks` (picklable: it may run in another process or machine).
    args : sequence of tuple
        The task's arguments, one tuple per job.
    executor : Executor
    out : str or Path, optional
        JSON Lines output: each row (``key`` included) is appended and
        flushed as it finishes; once every job is done the file is rewritten
        in input order.
    resume : bool
        Keep the rows ``out`` already holds and run only the other jobs
        (without it, ``out`` is started afresh).
    on_row : callable, optional
        ``on_row(index, row)`` as each row finishes, resumed rows first.
    digests : sequence of str, optional
        One per job: a hash of what it reads (:attr:`~.jobs.Job.digest`).
        Each row keeps its job's; with ``resume`` a row is kept only when
        its digest is the job's, so a file changed since the earlier run is
        run again.

    Returns
    -------
    Batch
        Never raises for a bad job (its row says what went wrong); Ctrl-C
        returns with ``interrupted`` set after stopping the executor, a lost
        cluster (:class:`~.executors.ClusterLost`) with ``lost`` set too.
    """
    import time

    t0 = time.perf_counter()
    rows: list[dict | None] = [None] * len(keys)
    earlier = read_rows(out) if (out and resume) else {}
    for i, key in enumerate(keys):
        if key in earlier and (digests is None or earlier[key].get("digest") == digests[i]):
            rows[i] = row = earlier[key]
            if on_row:
                on_row(i, row)
    todo = [i for i in range(len(keys)) if rows[i] is None]
    batch = Batch(rows, resumed=len(keys) - len(todo), executor=executor.name, workers=executor.workers)
    fh = None
    if out:
        with writing(out):
            fh = open(out, "a" if resume else "w", encoding="utf-8")
    restore = _watch_interrupts()
    try:
        for j, row in executor.run(task, [args[i] for i in todo]):
            if _INTERRUPTED.is_set():  # a task caught Ctrl-C as its own error (python-sat does): not a row
                raise KeyboardInterrupt
            i = todo[j]
            row.setdefault("key", keys[i])
            if digests is not None:
                row["digest"] = digests[i]
            rows[i] = row
            if fh:
                with writing(fh.name):
                    fh.write(json.dumps(_public(row)) + "\n")  # one write per whole line
                    fh.flush()
            if on_row:
                on_row(i, row)
    except KeyboardInterrupt:
        batch.interrupted = True
        executor.close(cancel=True)
    except ClusterLost as exc:  # as Ctrl-C: the rows done are kept, --resume finishes
        batch.interrupted = True
        batch.lost = str(exc)
        executor.close(cancel=True)
    finally:
        restore()
        if fh:
            with writing(fh.name):  # the last buffered row (a full device): said as the write it is
                fh.close()
    if out and not batch.interrupted:
        _rewrite_in_order(Path(out), rows)
    batch.wall_seconds = time.perf_counter() - t0
    return batch


_INTERRUPTED = threading.Event()


def _watch_interrupts() -> Callable[[], None]:
    """Note Ctrl-C (and raise KeyboardInterrupt as usual) so that a task that turns it into an error of its
    own still stops the batch; returns what puts the old handler back (nothing to do off the main thread)."""
    _INTERRUPTED.clear()
    if threading.current_thread() is not threading.main_thread():
        return lambda: None

    def on_sigint(signum, frame):
        _INTERRUPTED.set()
        raise KeyboardInterrupt

    old = signal.signal(signal.SIGINT, on_sigint)

    def restore() -> None:
        signal.signal(signal.SIGINT, old)

    return restore


def _rewrite_in_order(path: Path, rows: list[dict | None]) -> None:
    """The rows file again, in input order, written whole or not at all; a device or pipe is never replaced
    (``--out /dev/null`` once became a regular file: the rewrite renamed a temporary file over it)."""
    if not path.is_file():
        return
    write_atomic(path, "".join(json.dumps(_public(row)) + "\n" for row in rows if row is not None))


def summarise(batch: Batch, name: Callable[[dict], str] = lambda r: r.get("puzzle") or r.get("key", "")) -> dict:
    """Counts by status (in :data:`~.tasks.STATUSES` order), total and slowest seconds, jobs not run."""
    counts: dict[str, int] = {}
    for row in batch.done:
        counts[row["status"]] = counts.get(row["status"], 0) + 1
    ordered = {s: counts[s] for s in STATUSES if s in counts}
    ordered.update({s: n for s, n in counts.items() if s not in ordered})
    seconds = [(float(r.get("stats", {}).get("seconds", r.get("seconds", 0.0))), r) for r in batch.done]
    slowest = sorted(seconds, key=lambda t: -t[0])[:3]
    return {
        "jobs": len(batch.rows),
        "done": len(batch.done),
        "resumed": batch.resumed,
        "not_run": len(batch.rows) - len(batch.done),
        "status": ordered,
        "seconds": round(sum(s for s, _ in seconds), 3),
        "wall_seconds": round(batch.wall_seconds, 3),
        "slowest": [{"puzzle": name(r), "seconds": s} for s, r in slowest],
        "executor": batch.executor,
        "workers": batch.workers,
    }
