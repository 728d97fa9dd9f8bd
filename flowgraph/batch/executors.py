"""Where a batch's tasks run: this process, a local process pool, or a Dask cluster, behind one interface.

An executor takes a task (a picklable function) and its arguments, one per
job, and yields ``(index, row)`` as the rows finish, in any order, as
:mod:`concurrent.futures` executors do; :meth:`Executor.close` stops it (with
``cancel=True``: drops what has not started). A task that raises becomes an
``error`` row, so one bad job never stops a batch.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from .tasks import EMPTY_STATS, row_seconds

__all__ = ["Executor", "SerialExecutor", "PoolExecutor", "DaskExecutor", "make_executor", "ClusterLost"]

Task = Callable[..., dict]


class ClusterLost(RuntimeError):
    """The executor's cluster is gone (its scheduler lost): the batch stops, as on Ctrl-C, with the rows done."""


def _error_row(exc: BaseException) -> dict[str, Any]:
    return {"status": "error", "message": f"{type(exc).__name__}: {exc}", "stats": dict(EMPTY_STATS)}


def _warm_up(engine: str | None, batch: bool = False) -> None:
    """Load ``engine`` (``batch``: auto for a batch, the search too; see :func:`flowgraph.engines.auto.warm_up`)."""
    if engine:
        from ..engines import auto, freeze_loaded, get_engine

        if batch and engine == "auto":
            auto.warm_up(batch=True)
        else:
            get_engine(engine).warm_up()
        freeze_loaded()  # the loaded engines are out of the collector's way for every task after


def _call(task: Task, args: tuple) -> dict:
    """``task(*args)``; a task that raises is an ``error`` row (its bug is a row, not a stopped batch)."""
    try:
        return task(*args)
    except Exception as exc:  # noqa: BLE001
        return _error_row(exc)


def _worker_id() -> str:
    """This process, among a cluster's: ``host:pid``."""
    import socket

    return f"{socket.gethostname()}:{os.getpid()}"


def _run_chunk(task: Task, args: list[tuple]) -> tuple[str, list[dict]]:
    """Several jobs in one Dask task, each bad one a row of its own; and the worker that ran them."""
    return _worker_id(), [_call(task, a) for a in args]


def _tagged(task: Task, args: tuple) -> tuple[str, dict]:
    """``task(*args)`` in a pool worker, and which worker ran it."""
    return _worker_id(), task(*args)


class Executor:
    """The interface: :meth:`run` and :meth:`close`; a context manager.

    Attributes
    ----------
    name : str
        Where the tasks run, as a summary says it.
    workers : int
        The workers there are (a cluster's at connect).
    ran_on : set of str
        The workers that ran a task (``host:pid``), as the rows came back.
    """

    name = "executor"
    workers = 1
    ran_on: set[str]

    def run(self, task: Task, args: Iterable[tuple], total: int | None = None) -> Iterator[tuple[int, dict]]:
        """Run ``task`` on each of ``args``.

        ``(index, row)`` of each task as it finishes, ``index`` counting ``args`` from 0.

        ``args`` is taken as there is room in the executor's window (a
        bounded number in flight), never all at once; ``total`` says how many
        it holds, when known (how a cluster's work is cut into chunks).
        """
        raise NotImplementedError

    def close(self, cancel: bool = False) -> None:
        """Release the workers; ``cancel``: drop the tasks not yet started."""

    def __enter__(self) -> Executor:
        return self

    def __exit__(self, *exc) -> None:
        self.close(cancel=exc[0] is not None)


class SerialExecutor(Executor):
    """Every task in this process, in order (``--jobs 1``): times free of contention."""

    name = "this process"

    def __init__(self, warm_up: str | None = None, batch: bool = False):
        _warm_up(warm_up, batch)
        self.ran_on = {_worker_id()}

    def run(self, task: Task, args: Iterable[tuple], total: int | None = None) -> Iterator[tuple[int, dict]]:
        """Run ``task`` on each of ``args`` in this process, in order: ``(index, row)`` each."""
        for i, a in enumerate(args):
            yield i, _call(task, a)


def _pool_worker(engine: str | None, batch: bool = False) -> None:
    """A pool worker's start: out of the terminal's reach for Ctrl-C, and the engine loaded once.

    Ctrl-C on a terminal signals the whole foreground process group. The
    main process handles it (cancels what has not started; the running tasks
    finish); a worker must not see it at all: python-sat's solvers install
    their own SIGINT handler while they run, which jumps out of the solver
    and leaves it hanging when it is deleted. So each worker leaves the
    group (``os.setpgrp``) and ignores SIGINT as well.

    Out of the group, a worker would outlive a parent killed with SIGKILL
    (which no handler sees): a daemon thread checks once a second that the
    parent is still the one that started the worker, and ends the worker
    when it is not.
    """
    import os
    import signal
    import threading

    os.setpgrp()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = os.getppid()
    threading.Thread(target=_exit_with_parent, args=(parent,), daemon=True, name="flowgraph-parent-watch").start()
    _warm_up(engine, batch)


def _exit_with_parent(parent: int, every_s: float = 1.0) -> None:
    import os
    import time

    while os.getppid() == parent:
        time.sleep(every_s)
    os._exit(1)  # the parent is gone: nobody reads this worker's rows


#: A row whose task's worker died while running it alone (:class:`PoolExecutor`).
LOST_WORKER = ("the worker process solving it died, twice (the second time alone): killed by a signal, as the "
               "system's out-of-memory killer does; give it fewer jobs or more memory")


class PoolExecutor(Executor):
    """A local pool of worker processes (:class:`concurrent.futures.ProcessPoolExecutor`).

    Each worker loads the engine ``warm_up`` names once, before its first task, and ignores Ctrl-C.

    A worker that dies (killed by a signal: the kernel's out-of-memory killer, say) breaks the whole pool, and
    every task in flight fails with it. As Dask's scheduler does, those tasks run again: the pool is made
    anew, and each of them runs alone in it first, so that a death names its task; a task whose worker dies
    while it runs alone is its row's ``error`` ("the worker ... died"), and the batch goes on.
    """

    name = "local processes"

    def __init__(self, workers: int, warm_up: str | None = None, batch: bool = False):
        from concurrent.futures import ProcessPoolExecutor  # here: a run in this process needs none (5 ms)

        self.workers = workers
        self.ran_on: set[str] = set()
        self._make = lambda: ProcessPoolExecutor(max_workers=workers, initializer=_pool_worker,
                                                 initargs=(warm_up, batch))
        self._pool = self._make()

    #: Tasks in flight per worker: enough to keep each busy, few enough that the client holds a bounded window
    #: of a batch of any size (a million submitted at once held every puzzle's text twice). 8 a worker measured
    #: 6-8 % slower on 396 small boards; 32 is within the run-to-run noise (docs/benchmarks.md).
    WINDOW = 32

    def run(self, task: Task, args: Iterable[tuple], total: int | None = None) -> Iterator[tuple[int, dict]]:
        """Run ``task`` on each of ``args`` in the pool: ``(index, row)`` as each finishes, a dead worker's tasks
        run again."""
        import queue
        from collections import deque
        from concurrent.futures.process import BrokenProcessPool

        finished: queue.SimpleQueue = queue.SimpleQueue()  # (index, future) as each finishes, in any order
        pending = iter(args)
        given: dict[int, tuple] = {}  # index -> its arguments, while in flight or waiting to run again
        suspects: deque[int] = deque()  # in flight when a worker died: each runs again alone
        alone: int | None = None  # the suspect running alone now
        broken = False  # the pool is broken: the tasks in flight come back failed, then it is made anew
        submitted = flying = 0

        def send(index: int) -> None:
            nonlocal flying, broken
            try:
                self._pool.submit(_tagged, task, given[index]).add_done_callback(lambda f: finished.put((index, f)))
            except BrokenProcessPool:  # broken since the last result: it runs again once the pool is made anew
                broken = True
                suspects.append(index)
                return
            flying += 1

        def top_up() -> None:
            nonlocal submitted, alone, broken
            if broken:
                if flying:
                    return  # the rest of the tasks in flight still to come back failed
                self._pool.shutdown(wait=False, cancel_futures=True)
                self._pool, broken = self._make(), False
            if suspects or alone is not None:
                if alone is None and not flying:
                    alone = suspects.popleft()
                    send(alone)
                return
            while flying < self.WINDOW * self.workers and not broken:
                a = next(pending, None)
                if a is None:
                    return
                given[submitted] = a
                submitted += 1
                send(submitted - 1)

        top_up()
        while flying or suspects:
            if not flying:  # (a send found the pool broken: nothing in flight to wait for)
                top_up()
                continue
            i, future = finished.get()
            flying -= 1
            row = None
            try:
                worker, row = future.result()
                self.ran_on.add(worker)
            except BrokenProcessPool:  # its worker, or another one, died
                broken = True
                if i == alone:  # alone in the pool: it is what killed its worker
                    row = {**_error_row(RuntimeError()), "message": LOST_WORKER}
                else:
                    suspects.append(i)
            except Exception as exc:  # noqa: BLE001 - a task's bug: a row
                row = _error_row(exc)
            if i == alone:
                alone = None
            top_up()
            if row is not None:
                given.pop(i, None)
                yield i, row

    def close(self, cancel: bool = False) -> None:
        """Wait for the workers; ``cancel`` (Ctrl-C): end them now, their boards unfinished (a large board
        may take many seconds to finish), so the batch stops within a second; the rows done are kept by the caller."""
        if cancel:
            terminate = getattr(self._pool, "terminate_workers", None)  # Python 3.14
            if terminate is not None:
                terminate()
            else:
                for process in list((getattr(self._pool, "_processes", None) or {}).values()):
                    process.terminate()
        self._pool.shutdown(wait=not cancel, cancel_futures=cancel)


class DaskExecutor(Executor):
    """Tasks on a Dask cluster (:mod:`dask.distributed`): only the job's text and the row travel.

    Parameters
    ----------
    address : str
        The scheduler (``tcp://host:8786``), or ``local`` for a
        :class:`~distributed.LocalCluster` on 127.0.0.1 (for testing).
    workers : int
        Workers of a ``local`` cluster (one thread each).
    warm_up : str, optional
        An engine every worker loads before the tasks.
    batch : bool
        ``auto`` for a batch: the search is loaded too (:func:`flowgraph.engines.auto.batch_loads_search`).

    Notes
    -----
    A task whose worker dies is run again on another worker (Dask's
    scheduler does it; after 3 deaths the task's row is ``error``). Each
    task keeps its own time budget, so a slow puzzle ends as a ``limit`` row.

    Raises
    ------
    RuntimeError
        ``dask[distributed]`` is not installed, or the scheduler cannot be reached.
    """

    name = "dask"
    #: The most jobs one Dask task carries.
    CHUNK = 256
    #: The jobs of a batch's first tasks, before their times are known.
    FIRST_CHUNK = 16
    #: The work one task aims at, in seconds: Dask costs about a millisecond of its scheduler's and worker's
    #: time a task, so small puzzles go many to a task (16 a task ran 1.46x the pool's time on 20,000 small
    #: boards, 256 a task 1.1x; docs/benchmarks.md) and a puzzle of seconds goes alone.
    TASK_SECONDS = 0.25
    #: Chunks in flight per worker (the scheduler and the client hold a window, not the whole batch).
    WINDOW = 4
    #: Seconds to wait for a first worker before a batch is refused (a scheduler with none waited for ever).
    WORKERS_WAIT_S = 10.0
    #: Seconds a batch waits with tasks in flight and no worker left (one may join: a nanny's restart takes
    #: seconds, a queued SLURM job longer) before it stops as on a lost scheduler, its rows kept for --resume.
    LEFT_WAIT_S = 60.0

    def __init__(self, address: str, workers: int = 2, warm_up: str | None = None, batch: bool = False):
        try:
            from distributed import Client, LocalCluster
        except ImportError:
            raise RuntimeError("--scheduler needs Dask: pip install 'flowgraph-solver[dask]'") from None
        import logging

        # Dask's own log lines (a lost connection, a rescheduled key) are said here in flowgraph's words: a
        # lost scheduler ends the batch with one line, a failed task is its job's row
        for name in ["distributed", *logging.root.manager.loggerDict]:  # (dask's config gives some their own level)
            if name.split(".", 1)[0] == "distributed":
                logging.getLogger(name).setLevel(logging.CRITICAL)
        self.lost = False
        self.stranded = False
        self.ran_on: set[str] = set()
        self._cluster = None
        try:
            if address == "local":
                self._cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                             host="127.0.0.1", dashboard_address=None,
                                             silence_logs=logging.CRITICAL)
                self.client = Client(self._cluster)
            else:
                self.client = Client(address, timeout=10)
        except (OSError, TimeoutError) as exc:
            self.close()
            raise RuntimeError(f"cannot reach the Dask scheduler {address}: {exc}") from None
        if address != "local":
            try:  # a scheduler with no workers would take the tasks and wait for ever, silently
                self.client.wait_for_workers(1, timeout=self.WORKERS_WAIT_S)
            except (TimeoutError, OSError):
                self.close()
                raise RuntimeError(f"the Dask scheduler {address} has no workers (waited {self.WORKERS_WAIT_S:g} s): "
                                   f"start some with 'dask worker {address}'") from None
        self.workers = len(self.client.scheduler_info().get("workers", {})) or workers
        self.name = f"dask {self.client.scheduler_info().get('address', address)}"
        if warm_up:
            self.client.run(_warm_up, warm_up, batch)

    def run(self, task: Task, args: Iterable[tuple], total: int | None = None) -> Iterator[tuple[int, dict]]:
        """Run ``task`` on each of ``args`` on the cluster: ``(index, row)`` as each finishes."""
        import itertools

        from distributed import as_completed as dask_completed

        # Small puzzles take milliseconds, less than Dask's cost per task: send them in chunks of about
        # TASK_SECONDS of work, as the rows back say a job takes, so that each worker still gets several chunks
        # (for balance) and a chunk is at most CHUNK jobs.
        most = max(1, min(self.CHUNK, total // (8 * max(1, self.workers)))) if total else self.CHUNK
        self._size = min(self.FIRST_CHUNK, most)
        pending = iter(args)
        first: dict = {}  # a chunk's key: its first index and how many jobs it holds
        sent = 0
        self._futures: set = set()

        def submit() -> None:  # the next chunk, if any: a bounded window of chunks is in flight, not the batch
            nonlocal sent
            chunk = list(itertools.islice(pending, self._size))
            if chunk:
                future = self.client.submit(_run_chunk, task, chunk, pure=False)
                first[future.key] = (sent, len(chunk))
                sent += len(chunk)
                self._futures.add(future)
                flight.add(future)

        flight = dask_completed([])
        for _ in range(self.WINDOW * max(1, self.workers)):
            submit()
        stop = threading.Event()
        threading.Thread(target=self._watch_workers, args=(stop,), daemon=True, name="flowgraph-dask-workers").start()
        try:
            yield from self._rows(flight, first, submit, most)
        finally:
            stop.set()

    def _rows(self, flight, first: dict, submit: Callable[[], None], most: int) -> Iterator[tuple[int, dict]]:
        """:meth:`run`'s rows as their chunks finish, each finished chunk making room for the next."""
        address = self.name.removeprefix("dask ")
        work, measured = 0.0, 0
        for future in flight:
            self._futures.discard(future)
            k, n = first.pop(future.key)
            try:
                worker, rows = future.result()
                self.ran_on.add(worker)
            except Exception as exc:  # noqa: BLE001 - KilledWorker after retries, a task's bug: rows
                if self.stranded:
                    raise ClusterLost(f"the Dask scheduler {address} has had no worker for "
                                      f"{self.LEFT_WAIT_S:g} s") from None
                if self._lost(exc):
                    self.lost = True
                    raise ClusterLost(f"lost the Dask scheduler {address}") from None
                # one row of its own per job: a shared dict took the first job's key for all of them
                rows = [_error_row(exc) for _ in range(n)]
            future.release()
            work += sum(row_seconds(row) for row in rows)
            measured += len(rows)
            self._size = max(1, min(most, int(self.TASK_SECONDS * measured / max(work, 1e-6))))
            submit()  # (after its result: a lost scheduler is said before anything more is sent)
            for j, row in enumerate(rows):
                yield k + j, row

    def _watch_workers(self, stop: threading.Event, every_s: float = 1.0) -> None:
        """Cancel the tasks in flight once no worker has been there for :attr:`LEFT_WAIT_S` (the batch then stops,
        as :meth:`_rows` sees them cancelled and :attr:`stranded` set); a lost scheduler is left to :meth:`_rows`."""
        import time

        alone_since = None
        while not stop.wait(every_s):
            try:
                workers = len(self.client.nthreads())
            except Exception:  # noqa: BLE001 - no scheduler to ask: the rows say so
                return
            if workers:
                alone_since = None
                continue
            alone_since = alone_since or time.monotonic()
            if time.monotonic() - alone_since >= self.LEFT_WAIT_S:
                self.stranded = True
                while True:
                    try:
                        futures = list(self._futures)
                        break
                    except RuntimeError:  # (changed size while copied: the batch's thread moved on)
                        continue
                self.client.cancel(futures)
                return

    def _lost(self, exc: BaseException) -> bool:
        """Whether ``exc`` says the scheduler is gone (not that a task or its worker failed)."""
        if getattr(exc, "reason", None) == "scheduler-connection-lost":
            return True
        return getattr(self.client, "status", "running") not in ("running", "newly-created")

    def close(self, cancel: bool = False) -> None:
        """Release the cluster's client; ``cancel``: drop the tasks not yet finished."""
        client = getattr(self, "client", None)
        if client is not None:
            lost = getattr(self, "lost", False)
            if cancel and getattr(self, "_futures", None) and not lost:
                client.cancel(list(self._futures))
            client.close(timeout=2 if lost else None)  # (no scheduler to say goodbye to: do not wait for it)
        if self._cluster is not None:
            self._cluster.close()


def make_executor(jobs: int | None = None, scheduler: str | None = None, warm_up: str | None = None,
                  tasks: int | None = None) -> Executor:
    """The executor the CLI's ``--jobs`` and ``--scheduler`` ask for.

    ``--scheduler`` wins; otherwise ``jobs`` processes (default: one per
    core), this process when that is 1 or there is at most one task.

    Raises
    ------
    ValueError
        ``jobs`` < 1.
    RuntimeError
        As :class:`DaskExecutor`.
    """
    jobs = jobs or os.cpu_count() or 1
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, not {jobs}")
    from ..engines.auto import batch_loads_search

    batch = warm_up == "auto" and batch_loads_search(tasks)  # many puzzles: loading the search pays for itself
    if scheduler:
        return DaskExecutor(scheduler, workers=jobs if jobs > 1 else 2, warm_up=warm_up, batch=batch)
    if jobs == 1 or (tasks is not None and tasks < 2):
        return SerialExecutor(warm_up, batch)
    return PoolExecutor(min(jobs, tasks or jobs), warm_up, batch)
