"""A batch: jobs through an executor, rows to a JSON Lines file as they finish, resumable.

The one module the CLI's batch commands (and anything else) share:
:func:`run_batch` sends every job not already in ``--out`` to an executor
(:mod:`.executors`), writes each row as one flushed line as soon as it
arrives (a crash leaves whole lines only), calls back for progress and
printing, and at the end rewrites the file in input order. Ctrl-C stops it
cleanly: the rows already written stay, and ``--resume`` finishes the rest.
"""

from __future__ import annotations

import errno
import heapq
import itertools
import json
import operator
import os
import signal
import stat
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence, Sized
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Generic, TypeVar

from ..io.files import write_atomic, writing
from .executors import ClusterLost, Executor
from .tasks import STATUSES, row_seconds

__all__ = ["Batch", "Tally", "InOrder", "run_batch", "read_rows", "summarise"]

J = TypeVar("J")


@dataclass
class Tally:
    """What a summary says of the rows of a batch, counted as they come (no row is kept).

    Attributes
    ----------
    status : dict of str to int
        Rows by status.
    seconds : float
        The work of every row (their ``stats.seconds``), seconds.
    slowest : list of (float, str)
        The three slowest rows: seconds and name.
    """

    status: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    slowest: list[tuple[float, str]] = field(default_factory=list)

    def add(self, row: dict) -> None:
        """Count ``row`` in the totals: its status, its seconds, the slowest rows."""
        self.status[row["status"]] = self.status.get(row["status"], 0) + 1
        seconds = row_seconds(row)
        self.seconds += seconds
        item = (seconds, str(row.get("puzzle") or row.get("key", "")))
        if len(self.slowest) < 3:
            heapq.heappush(self.slowest, item)
        elif seconds > self.slowest[0][0]:
            heapq.heapreplace(self.slowest, item)

    @property
    def done(self) -> int:
        """How many rows are counted."""
        return sum(self.status.values())


@dataclass
class Batch:
    """What a batch did; its rows went to the callbacks and ``--out``, only their counts are here.

    Attributes
    ----------
    jobs : int
        Jobs in the batch.
    tally : Tally
        The rows done (resumed ones too), counted.
    resumed : int
        Rows taken from the output file of an earlier run.
    interrupted : bool
        Stopped by Ctrl-C, or by a lost cluster, before every job was done.
    lost : str or None
        What was lost when the cluster was (its scheduler gone): the batch stopped there.
    wall_seconds : float
    executor : str
        Where the tasks ran (:attr:`~.executors.Executor.name`).
    workers : int
        The workers that ran a task (a cluster's count at the start when none did).
    """

    jobs: int
    tally: Tally = field(default_factory=Tally)
    resumed: int = 0
    interrupted: bool = False
    lost: str | None = None
    wall_seconds: float = 0.0
    executor: str = ""
    workers: int = 1

    @property
    def done(self) -> int:
        """Rows done (resumed ones too)."""
        return self.tally.done


#: The largest rows file ``--resume`` reads (bytes; a row is ~0.2-3 kB, so millions of puzzles).
MAX_ROWS_BYTES = 1_000_000_000


def _whole_lines(path: Path) -> Iterator[tuple[int, bytes]]:
    """``(offset, line)`` of each whole line of a rows file (a last line cut short by a crash is dropped
    from the file), at most :data:`MAX_ROWS_BYTES` of it; nothing for a missing file, a device or a pipe."""
    import stat

    try:
        fh = open(path, "r+b")
    except OSError:
        return
    with fh:
        info = os.fstat(fh.fileno())
        if not stat.S_ISREG(info.st_mode):
            return
        if info.st_size > MAX_ROWS_BYTES:
            raise OSError(errno.EFBIG, f"over {MAX_ROWS_BYTES:,} bytes of rows: resume from a new --out", str(path))
        offset = 0
        while True:
            line = fh.readline()
            if not line.endswith(b"\n"):  # the end, or a half-written last line: keep the whole lines only
                if line:
                    fh.truncate(offset)
                return
            yield offset, line
            offset += len(line)


def _row_of(line: bytes) -> dict | None:
    try:
        row = json.loads(line)
    except ValueError:
        return None
    return row if isinstance(row, dict) and isinstance(row.get("key"), str) else None


def read_rows(path: str | Path) -> dict[str, dict]:
    """The rows of a JSON Lines output by ``key``; a last line cut short by a crash is dropped from the file."""
    rows: dict[str, dict] = {}
    for _, line in _whole_lines(Path(path)):
        row = _row_of(line)
        if row is not None:
            rows[row["key"]] = row
    return rows


def _public(row: dict) -> dict:
    return {k: v for k, v in row.items() if not k.startswith("_")}


class InOrder(Generic[J]):
    """Calls ``show(index, job, row)`` in index order, whatever order the rows come in.

    The rows that wait for an earlier one (a slow puzzle holds up every row
    after it) are kept in memory up to :attr:`HELD`, the rest in a temporary
    file, so a batch of any size holds a bounded number of rows.
    """

    #: Waiting rows kept in memory; the others wait in a temporary file.
    HELD = 512

    def __init__(self, show: Callable[[int, J, dict], None]):
        self.show = show
        self.next = 0
        self._held: dict[int, tuple[J, dict]] = {}
        self._spilled: dict[int, int] = {}
        self._spill: IO[bytes] | None = None

    def put(self, index: int, job: J, row: dict) -> None:
        """Show ``row`` of job ``index`` in input order: at once if it is the next, else kept until it is."""
        if index != self.next:
            self._wait(index, job, row)
            return
        self.show(index, job, row)
        self.next += 1
        while True:
            waiting = self._take(self.next)
            if waiting is None:
                return
            self.show(self.next, *waiting)
            self.next += 1

    def _wait(self, index: int, job: J, row: dict) -> None:
        if len(self._held) < self.HELD:
            self._held[index] = (job, row)
            return
        import pickle
        import tempfile

        if self._spill is None:
            self._spill = tempfile.TemporaryFile()  # (unnamed: gone with the process, whatever ends it)
        spill = self._spill
        self._spilled[index] = spill.seek(0, os.SEEK_END)
        pickle.dump((job, row), spill, protocol=pickle.HIGHEST_PROTOCOL)

    def _take(self, index: int) -> tuple[J, dict] | None:
        if index in self._held:
            return self._held.pop(index)
        if index in self._spilled:
            import pickle

            assert self._spill is not None
            self._spill.seek(self._spilled.pop(index))
            return pickle.load(self._spill)  # noqa: S301 - our own file of this run, unnamed
        return None

    def close(self) -> None:
        """Close the spill file of rows kept out of order."""
        if self._spill is not None:
            self._spill.close()


def run_batch(
    jobs: Iterable[J],
    task: Callable[..., dict],
    args: Callable[[J], tuple],
    executor: Executor,
    *,
    key: Callable[[J], str] = operator.attrgetter("key"),
    digest: Callable[[J], str] | None = None,
    total: int | None = None,
    out: str | Path | None = None,
    resume: bool = False,
    on_row: Callable[[int, dict], None] | None = None,
    show: Callable[[int, J, dict], None] | None = None,
) -> Batch:
    """Run ``task(*args(job))`` for every job whose key the output does not already hold.

    The jobs are taken as the executor has room for them (a bounded window
    in flight) and no row is kept: each is written, counted and passed to
    the callbacks, so a batch of a million puzzles holds what a few hundred
    take, plus 8 bytes a job (where its row is in ``out``).

    Parameters
    ----------
    jobs : iterable
        The jobs, in input order (:class:`~.jobs.Jobs`: read one file at a
        time), each with a unique ``key(job)``.
    task : callable
        A function of :mod:`.tasks` (picklable: it may run in another process or machine).
    args : callable
        ``args(job)``: the task's arguments, a tuple.
    executor : Executor
    key : callable
        A job's key (default: its ``key``; :attr:`~.jobs.Job.key`).
    digest : callable, optional
        A hash of what a job reads (:attr:`~.jobs.Job.digest`). Each row
        keeps its job's; with ``resume`` a row is kept only when its digest
        is the job's, so a file changed since the earlier run is run again.
    total : int, optional
        How many jobs there are (``len(jobs)`` when it has one).
    out : str or Path, optional
        JSON Lines output: each row (``key`` included) is appended and
        flushed as it finishes; once every job is done the file is rewritten
        in input order.
    resume : bool
        Keep the rows ``out`` already holds and run only the other jobs
        (without it, ``out`` is started afresh).
    on_row : callable, optional
        ``on_row(index, row)`` as each row finishes (a resumed row as its job is reached).
    show : callable, optional
        ``show(index, job, row)`` for every row, in input order (:class:`InOrder`).

    Returns
    -------
    Batch
        Never raises for a bad job (its row says what went wrong); Ctrl-C
        returns with ``interrupted`` set after stopping the executor, a lost
        cluster (:class:`~.executors.ClusterLost`) with ``lost`` set too.

    Raises
    ------
    WriteError
        ``out`` cannot be written (its folder, a full device).
    OSError
        With ``resume``: ``out`` holds more than :data:`MAX_ROWS_BYTES`.
    """
    import time
    from array import array

    t0 = time.perf_counter()
    count = total if total is not None else len(jobs) if isinstance(jobs, Sized) else 0
    batch = Batch(count, executor=executor.name, workers=executor.workers)
    earlier = _earlier_rows(Path(out)) if (out and resume) else {}
    where = array("q")  # where each job's row is in ``out`` (-1: none), for the rewrite in input order
    in_order = InOrder[J](show) if show else None
    flight: dict[int, tuple[int, J, str | None]] = {}  # the jobs sent and not back, by the executor's index
    numbering = itertools.count()
    fh = reader = None
    position, regular = 0, False
    if out is not None:
        with writing(out):
            fh = open(out, "ab" if resume else "wb")
            regular = stat.S_ISREG(os.fstat(fh.fileno()).st_mode)  # (a device or pipe: no offsets, no rewrite)
            position = fh.seek(0, os.SEEK_END) if regular else 0
            reader = open(out, "rb") if earlier else None

    def arrived(i: int, job: J, row: dict) -> None:
        batch.tally.add(row)
        if on_row:
            on_row(i, row)
        if in_order:
            in_order.put(i, job, row)

    def sent() -> Iterator[tuple]:
        """The arguments of each job to run; a job the output holds is its row at once."""
        for i, job in enumerate(jobs):
            where.append(-1)
            hashed = digest(job) if digest is not None else None  # (once a job: it hashes the job's text)
            offset = earlier.pop(key(job), None) if earlier else None
            if offset is not None:
                assert reader is not None
                reader.seek(offset)
                row = _row_of(reader.readline())
                if row is not None and (hashed is None or row.get("digest") == hashed):
                    where[i] = offset
                    batch.resumed += 1
                    arrived(i, job, row)
                    continue
            flight[next(numbering)] = (i, job, hashed)
            yield args(job)

    restore = _watch_interrupts()
    try:
        for j, row in executor.run(task, sent(), total=count):
            if _INTERRUPTED.is_set():  # a task caught Ctrl-C as its own error (python-sat does): not a row
                raise KeyboardInterrupt
            i, job, hashed = flight.pop(j)
            row.setdefault("key", key(job))
            if hashed is not None:
                row["digest"] = hashed
            if fh is not None and out is not None:
                line = (json.dumps(_public(row)) + "\n").encode()
                with writing(out):
                    fh.write(line)  # one write per whole line
                    fh.flush()
                where[i] = position
                position += len(line)
            arrived(i, job, row)
    except KeyboardInterrupt:
        batch.interrupted = True
        executor.close(cancel=True)
    except ClusterLost as exc:  # as Ctrl-C: the rows done are kept, --resume finishes
        batch.interrupted = True
        batch.lost = str(exc)
        executor.close(cancel=True)
    finally:
        restore()
        if in_order:
            in_order.close()
        if reader:
            reader.close()
        if fh is not None and out is not None:
            with writing(out):  # the last buffered row (a full device): said as the write it is
                fh.close()
    batch.jobs = max(batch.jobs, len(where)) if not batch.interrupted else batch.jobs
    if out and regular and not batch.interrupted:
        _rewrite_in_order(Path(out), where)
    batch.workers = len(executor.ran_on) or executor.workers
    batch.wall_seconds = time.perf_counter() - t0
    return batch


def _earlier_rows(path: Path) -> dict[str, int]:
    """Where each key's row is in the rows file of an earlier run (the last, for a key written twice)."""
    offsets: dict[str, int] = {}
    for offset, line in _whole_lines(path):
        row = _row_of(line)
        if row is not None:
            offsets[row["key"]] = offset
    return offsets


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


def _rewrite_in_order(path: Path, where: Sequence[int]) -> None:
    """The rows file again, in input order, written whole or not at all, a row at a time from where each is;
    a device or pipe is never replaced (``--out /dev/null`` once became a regular file: the rewrite renamed a
    temporary file over it)."""
    if not path.is_file():
        return
    with open(path, "rb") as fh:

        def rows() -> Iterator[bytes]:
            for offset in where:
                if offset >= 0:
                    fh.seek(offset)
                    yield fh.readline()

        write_atomic(path, rows())


def summarise(batch: Batch) -> dict:
    """Counts by status (in :data:`~.tasks.STATUSES` order), total and slowest seconds, jobs not run."""
    counts = batch.tally.status
    ordered = {s: counts[s] for s in STATUSES if s in counts}
    ordered.update({s: n for s, n in counts.items() if s not in ordered})
    return {
        "jobs": batch.jobs,
        "done": batch.done,
        "resumed": batch.resumed,
        "not_run": batch.jobs - batch.done,
        "status": ordered,
        "seconds": round(batch.tally.seconds, 3),
        "wall_seconds": round(batch.wall_seconds, 3),
        "slowest": [{"puzzle": name, "seconds": s} for s, name in sorted(batch.tally.slowest, reverse=True)],
        "executor": batch.executor,
        "workers": batch.workers,
    }
