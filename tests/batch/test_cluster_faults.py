"""Issue 52: on a real loopback cluster (``distributed.LocalCluster``, worker processes), a killed client, a
killed worker and a lost scheduler lose no row, duplicate none and key none wrongly: every row is the pool's."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from flowgraph.cli import main

pytest.importorskip("distributed")

LEVELS = [
    "5,0,1,5;18,17,12;21,16,11,6;3,4,9;0,1,2,7,8,13,14,19,24,23,22;20,15,10,5",
    "5,0,2,4;24,19,18,17;12,13,14,9,4,3,2,1,0;8,7,6,5,10,15,20;11,16,21,22,23",
    "5,0,3,4;21,20,15,10,5,0,1,2,7;8,13,12,17,22,23,24;16,11,6;3,4,9,14,19,18",
    "5,0,1,2;0,1,2,3;4,9,8,7",  # no solution
    "5,0,1,2;0,1,99;3,4",  # a pipe off the board: an invalid row at its own line
]
PUZZLES = 3000


def _keyed(path: Path) -> dict[str, tuple]:
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    keyed = {r["key"]: (r["puzzle"], r["status"], json.dumps(r.get("paths"), sort_keys=True)) for r in rows}
    assert len(keyed) == len(rows), "a key written twice"
    return keyed


def _lines(path: Path) -> int:
    try:
        return path.read_bytes().count(b"\n")
    except FileNotFoundError:
        return 0


def _client(pack: Path, out: Path, address: str, *extra: str) -> subprocess.Popen:
    # (standard error to a file: a pipe nobody reads fills with the invalid lines' messages and stops the client)
    with open(out.with_suffix(".err"), "wb") as err:
        return subprocess.Popen([sys.executable, "-m", "flowgraph", "solve", str(pack), "--scheduler", address,
                                 "--json", "--out", str(out), "--color", "never", *extra],
                                stdout=subprocess.DEVNULL, stderr=err)


def _wait_for(out: Path, rows: int, proc: subprocess.Popen, timeout_s: float = 120) -> None:
    deadline = time.monotonic() + timeout_s
    while _lines(out) < rows and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert proc.poll() is None and _lines(out) < PUZZLES, "the batch ended before the fault"


@pytest.mark.slow
def test_a_killed_client_worker_and_scheduler_lose_no_row(tmp_path):
    from distributed import Client, LocalCluster

    pack = tmp_path / "pack.txt"
    pack.write_text("".join(LEVELS[i % len(LEVELS)] + "\n" for i in range(PUZZLES)))
    pool, out = tmp_path / "pool.jsonl", tmp_path / "cluster.jsonl"
    assert main(["solve", str(pack), "--json", "--jobs", "2", "--out", str(pool)]) == 3
    want = _keyed(pool)
    assert len(want) == PUZZLES

    def cluster() -> LocalCluster:
        return LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                            dashboard_address=None, silence_logs=50)

    first = cluster()
    try:
        with Client(first) as watcher:  # (closed now: a client left open over the lost scheduler hung its close)
            worker = next(iter(watcher.run(os.getpid).values()))
        address = first.scheduler_address
        # the client killed (SIGKILL: no handler runs) part-way: whole rows are kept
        proc = _client(pack, out, address)
        _wait_for(out, PUZZLES // 10, proc)
        proc.kill()
        proc.wait()
        kept = _lines(out)
        # --resume; a worker killed part-way (its nanny starts another; Dask runs its tasks again)
        proc = _client(pack, out, address, "--resume")
        _wait_for(out, kept + PUZZLES // 10, proc)
        os.kill(worker, signal.SIGKILL)
        _wait_for(out, _lines(out) + PUZZLES // 10, proc)
        # the scheduler lost: the batch stops as on Ctrl-C, with its own status and one line
        first.sync(first.scheduler.close)
        proc.wait(timeout=120)
    finally:
        with contextlib.suppress(Exception):
            first.close(timeout=20)
    said = out.with_suffix(".err").read_text()
    assert proc.returncode == 7, said
    assert "lost the Dask scheduler" in said and "--resume" in said and "Traceback" not in said
    assert "Couldn't gather" not in said and "distributed." not in said  # Dask's own log lines: not the user's
    with cluster() as second:
        proc = _client(pack, out, second.scheduler_address, "--resume")
        proc.wait(timeout=300)
    assert proc.returncode == 3, out.with_suffix(".err").read_text()  # the invalid lines' (above unsolvable's 1)
    got = _keyed(out)
    assert list(got) == list(want)  # every key once, in input order
    assert got == want  # each row the pool's: the same level, status and paths
