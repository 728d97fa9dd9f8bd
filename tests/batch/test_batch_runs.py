"""Batch runs: rows in input order whatever the job order, JSON Lines out, --resume, Ctrl-C, Dask, a dead worker."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time

import pytest

from flowgraph.batch.executors import DaskExecutor, PoolExecutor, SerialExecutor
from flowgraph.batch.jobs import expand_jobs
from flowgraph.batch.runner import read_rows, run_batch
from flowgraph.batch.tasks import solve_task
from flowgraph.cli import main
from tests.helpers import PUZZLES

GOOD = PUZZLES / "standard" / "regular_5x5.txt"
UNSOLVABLE = PUZZLES / "standard" / "unsolvable_3x3.txt"
LIMITED = PUZZLES / "standard" / "open_field_8x8.txt"  # needs more than one search state
EXPECTED = {"a_good.txt": "solved", "b_unsolvable.txt": "unsolvable", "c_invalid.txt": "invalid",
            "d_limited.txt": "limit", "e_good_hex.txt": "solved"}
# --engine search --max-states 1: the 5x5 boards solve in one state, the 8x8 open field runs out
BUDGET = ["--engine", "search", "--max-states", "1"]


@pytest.fixture
def folder(tmp_path):
    d = tmp_path / "mixed"
    d.mkdir()
    shutil.copy(GOOD, d / "a_good.txt")
    shutil.copy(UNSOLVABLE, d / "b_unsolvable.txt")
    (d / "c_invalid.txt").write_text("STANDARD\nA-.-B\n|   |\nA-.-B/\n")
    shutil.copy(LIMITED, d / "d_limited.txt")
    shutil.copy(PUZZLES / "hex" / "honeycomb_5x4.txt", d / "e_good_hex.txt")
    return d


def _rows(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


def _name(row):
    return os.path.basename(row["puzzle"])


@pytest.mark.parametrize("extra", [["--jobs", "2"], ["--jobs", "1"]], ids=["jobs2", "jobs1"])
def test_a_mixed_folder_gives_each_row_in_input_order(folder, tmp_path, extra, capsys):
    out = tmp_path / "rows.jsonl"
    assert main(["solve", str(folder), *BUDGET, *extra, "--out", str(out), "--json"]) == 4
    rows = _rows(out)
    assert [(_name(r), r["status"]) for r in rows] == list(EXPECTED.items())
    printed = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(_name(r), r["status"]) for r in printed] == list(EXPECTED.items())
    assert all("key" in r for r in rows) and "key" not in printed[0]


def test_the_summary_counts_every_status(folder, capsys):
    main(["solve", str(folder), *BUDGET, "--jobs", "2", "--color", "never"])
    err = capsys.readouterr().err
    for status, n in (("solved", 2), ("unsolvable", 1), ("limit", 1), ("invalid", 1), ("total", 5)):
        assert re.search(rf"{status}\s*│\s*{n} │", err), status
    assert "slowest:" in err


def test_a_level_pack_is_a_job_per_level(tmp_path):
    pack = tmp_path / "pack.txt"
    rows = ";".join(",".join(str(5 * y + x) for x in range(5)) for y in range(5))
    cols = ";".join(",".join(str(5 * y + x) for y in range(5)) for x in range(5))
    pack.write_text(f"5,0,1,5;{rows}\n5,0,2,5;{cols}\n")
    jobs = expand_jobs([str(pack)])
    assert [j.key for j in jobs] == [f"{pack}#1", f"{pack}#2"]
    out = tmp_path / "rows.jsonl"
    assert main(["solve", str(pack), "--jobs", "2", "--out", str(out), "--json"]) == 0
    assert [(r["puzzle"], r["status"]) for r in _rows(out)] == [(f"{pack}#1", "solved"), (f"{pack}#2", "solved")]


def _started(folder, out, lines: int, jobs: int = 1) -> subprocess.Popen:
    """``flowgraph solve FOLDER --out OUT`` in a process group of its own, once ``lines`` rows are written."""
    proc = subprocess.Popen([sys.executable, "-m", "flowgraph", "solve", str(folder), "--jobs", str(jobs), "--out",
                             str(out), "--engine", "sat", "--json"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True)
    deadline = time.time() + 60
    while time.time() < deadline and (not out.exists() or out.read_text().count("\n") < lines):
        time.sleep(0.01)
    return proc


def test_resume_after_a_killed_run_does_every_puzzle_exactly_once(tmp_path):
    d = tmp_path / "many"
    d.mkdir()
    for i in range(120):
        shutil.copy((GOOD, UNSOLVABLE, PUZZLES / "hex" / "honeycomb_5x4.txt")[i % 3], d / f"p{i:03}.txt")
    out = tmp_path / "rows.jsonl"
    proc = _started(d, out, 10)
    proc.kill()
    proc.communicate()
    before = out.read_text().count("\n")
    assert 10 <= before < 120, "the run was not killed part-way"
    with open(out, "a") as fh:
        fh.write('{"key": "half a li')  # what a crash mid-write would leave
    assert main(["solve", str(d), "--jobs", "2", "--out", str(out), "--resume", "--engine", "sat", "--json"]) == 1
    rows = _rows(out)
    assert [r["key"] for r in rows] == [str(d / f"p{i:03}.txt") for i in range(120)]
    assert [r["status"] for r in rows] == ["solved", "unsolvable", "solved"] * 40


@pytest.mark.parametrize("jobs", [1, 2])
def test_ctrl_c_stops_cleanly_and_keeps_the_finished_rows(tmp_path, jobs):
    d = tmp_path / "many"
    d.mkdir()
    for i in range(400):
        shutil.copy(GOOD, d / f"p{i:03}.txt")
    out = tmp_path / "rows.jsonl"
    proc = _started(d, out, 5, jobs)
    os.killpg(proc.pid, signal.SIGINT)  # as Ctrl-C on a terminal: the whole process group, workers too
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert b"interrupted:" in err and b"--resume" in err and b"Traceback" not in err
    rows = _rows(out)
    assert 5 <= len(rows) < 400 and all(r["status"] == "solved" for r in rows)  # python-sat's own
    # "Caught keyboard interrupt" error is not taken for a row


def _statuses(rows):
    return [(_name(r), r["status"]) for r in rows]


@pytest.mark.slow
def test_a_local_dask_cluster_gives_the_same_rows(folder, tmp_path):
    local, dask = tmp_path / "local.jsonl", tmp_path / "dask.jsonl"
    assert main(["solve", str(folder), *BUDGET, "--jobs", "2", "--out", str(local), "--json"]) == 4
    assert main(["solve", str(folder), *BUDGET, "--jobs", "2", "--scheduler", "local", "--out", str(dask),
                 "--json"]) == 4
    assert _statuses(_rows(dask)) == _statuses(_rows(local)) == list(EXPECTED.items())


@pytest.mark.slow
def test_a_worker_killed_mid_batch_loses_nothing():
    jobs = expand_jobs([str(PUZZLES / "standard" / "regular_10x10.txt")] * 1 + [str(GOOD)] * 59)
    jobs = [type(j)(f"{j.key}:{i}", j.name, j.data) for i, j in enumerate(jobs)]
    with DaskExecutor("local", workers=2, warm_up="search") as executor:
        pids = list(executor.client.run(os.getpid).values())
        killed = []

        def on_row(i, row):
            if not killed:
                os.kill(pids[0], signal.SIGKILL)  # the nanny starts a new worker; its tasks run again
                killed.append(pids[0])

        rows = []
        batch = run_batch(jobs, solve_task, lambda j: (j, "search"), executor, on_row=on_row,
                          show=lambda i, job, row: rows.append((i, job.key, row["key"], row["status"])))
    assert killed
    assert batch.done == 60 and rows == [(i, j.key, j.key, "solved") for i, j in enumerate(jobs)]


def _sleepy(i: int) -> dict:
    time.sleep(0.1)
    if i == 7:
        raise ValueError("job 7 fails")
    return {"status": "solved", "stats": {"seconds": 0.1}}


@pytest.mark.slow
def test_a_lost_scheduler_stops_the_batch_with_every_row_under_its_own_key(tmp_path):
    """Issue 52: a chunk that failed as a whole wrote one shared dict for its 16 jobs, all keyed to the first;
    killing the scheduler left 2,745 distinct keys in 9,111 rows and a status 5."""
    out = tmp_path / "rows.jsonl"
    with DaskExecutor("local", workers=2) as executor:
        threading.Timer(4.0, lambda: executor._cluster.sync(executor._cluster.scheduler.close)).start()
        batch = run_batch(range(300), _sleepy, lambda i: (i,), executor, key=lambda i: f"job{i}", out=out)
    rows = _rows(out)
    assert batch.interrupted and batch.lost and "lost the Dask scheduler" in batch.lost
    assert 0 < len(rows) < 300 and len({r["key"] for r in rows}) == len(rows)
    assert all(r["status"] == "solved" for r in rows if r["key"] != "job7")


def test_a_failed_chunk_gives_each_job_a_row_of_its_own():
    made = iter(range(1000))

    class Future:
        def __init__(self):
            self.key = f"chunk-{next(made)}"

        def result(self):
            raise RuntimeError("the worker could not import flowgraph")

        def release(self):
            pass

    executor = DaskExecutor.__new__(DaskExecutor)
    executor.workers, executor.name, executor.lost, executor.ran_on = 2, "dask test", False, set()
    executor.stranded = False
    executor._cluster = None
    executor.client = type("Client", (), {"status": "running",
                                          "submit": staticmethod(lambda *a, **k: Future())})()
    import distributed

    class FirstOnly:  # as distributed.as_completed, yielding the first chunk only
        def __init__(self, futures):
            self.futures = list(futures)

        def add(self, future):
            self.futures.append(future)

        def __iter__(self):
            yield self.futures[0]

    real = distributed.as_completed
    distributed.as_completed = FirstOnly
    try:
        rows = list(executor.run(int, [("1",)] * 160, total=160))  # chunks of 10 jobs; the first fails as a whole
    finally:
        distributed.as_completed = real
    assert [i for i, _ in rows] == list(range(10)) and len({id(row) for _, row in rows}) == 10
    assert all(row["status"] == "error" and "could not import" in row["message"] for _, row in rows)


def test_executors_turn_a_crashing_task_into_an_error_row():
    for executor in (SerialExecutor(), PoolExecutor(2)):
        with executor:
            rows = dict(executor.run(int, [("1",), ("x",)]))
        assert rows[0] == 1 and rows[1]["status"] == "error" and "ValueError" in rows[1]["message"]


def _kills_its_worker(n: str) -> dict:
    """A task for the pool: ``"kill"`` dies as the out-of-memory killer ends a process; others give their number."""
    import os
    import signal

    if n == "kill":
        os.kill(os.getpid(), signal.SIGKILL)
    return {"status": "solved", "n": int(n)}


def test_a_pool_worker_that_dies_loses_no_row_and_names_its_task():
    """Issue 71: a killed worker broke the whole pool, and the batch ended as "internal error: BrokenProcessPool"
    (89 of 1,500 rows). The tasks in flight run again, each alone first: only the one that kills its worker
    is an error row, said as such; every other row is its own."""
    jobs = [(str(k),) for k in range(40)]
    jobs[7] = ("kill",)
    with PoolExecutor(2) as executor:
        rows = dict(executor.run(_kills_its_worker, jobs))
    assert sorted(rows) == list(range(40))
    assert rows[7]["status"] == "error" and "worker process solving it died" in rows[7]["message"]
    assert all(rows[k] == {"status": "solved", "n": k} for k in range(40) if k != 7)


def test_a_pool_worker_killed_from_outside_loses_nothing(tmp_path):
    """A worker killed mid-batch (as the kernel's out-of-memory killer would): its tasks run again; every puzzle
    has its row, solved."""
    folder = tmp_path / "many"
    folder.mkdir()
    for k in range(600):
        shutil.copy(GOOD, folder / f"p{k}.txt")
    out = tmp_path / "rows.jsonl"
    proc = subprocess.Popen([sys.executable, "-m", "flowgraph", "solve", "--jobs", "2", "--out", str(out), str(folder)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    import psutil

    parent = psutil.Process(proc.pid)
    deadline = time.monotonic() + 60
    while not parent.children() and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.5)
    victims = parent.children()
    if victims:
        victims[0].kill()
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == 0 and "internal error" not in err, err
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert victims, "no worker to kill"
    assert len(rows) == 600 == len({r["puzzle"] for r in rows}) and all(r["status"] == "solved" for r in rows), err


def test_read_rows_drops_a_half_line_and_keeps_the_whole_ones(tmp_path):
    out = tmp_path / "rows.jsonl"
    out.write_text('{"key": "a", "status": "solved"}\n{"key": "b", "sta')
    assert list(read_rows(out)) == ["a"]
    assert out.read_text() == '{"key": "a", "status": "solved"}\n'


def test_resume_without_out_is_a_usage_error(folder, capsys):
    assert main(["solve", str(folder), "--resume"]) == 2
    assert "--resume needs --out FILE" in capsys.readouterr().err


def test_an_unreachable_scheduler_is_a_clear_error(folder, capsys):
    assert main(["solve", str(folder), "--scheduler", "tcp://127.0.0.1:9"]) == 2
    err = capsys.readouterr().err
    assert "cannot reach the Dask scheduler tcp://127.0.0.1:9" in err and "Traceback" not in err


def test_validate_unique_and_generate_run_as_batches(folder, tmp_path, capsys):
    out = tmp_path / "v.jsonl"
    assert main(["validate", "--unique", str(folder), "--jobs", "2", "--out", str(out)]) == 3
    assert [(_name(r), r["status"]) for r in _rows(out)] == [
        ("a_good.txt", "unique"), ("b_unsolvable.txt", "unsolvable"), ("c_invalid.txt", "invalid"),
        ("d_limited.txt", "multiple"), ("e_good_hex.txt", "unique")]
    gen = tmp_path / "g.jsonl"
    assert main(["generate", "--size", "5x5", "--count", "4", "--seed", "0", "--jobs", "2", "-o", str(tmp_path / "pack"),
                 "--out", str(gen)]) == 0
    assert [r["key"] for r in _rows(gen)] == ["seed:0", "seed:1", "seed:2", "seed:3"]
    assert sorted(p.name for p in (tmp_path / "pack").iterdir()) == [f"standard_5x5_{i}.txt" for i in range(4)]


def test_resume_runs_a_file_again_when_it_changed(tmp_path, capsys):
    board = tmp_path / "board.txt"
    board.write_text("STANDARD\nA-.-A\n")
    out = tmp_path / "rows.jsonl"
    assert main(["solve", "--json", "--out", str(out), str(board)]) == 0
    board.write_text("STANDARD\nA-.-B\n")  # changed between the runs: now invalid
    capsys.readouterr()
    assert main(["solve", "--json", "--out", str(out), "--resume", str(board)]) == 3
    assert [r["status"] for r in _rows(out)] == ["invalid"]


def test_pool_workers_end_when_the_parent_is_killed(tmp_path):
    import os
    import signal
    import subprocess
    import sys
    import time

    script = (
        "import os, sys, time\n"
        "from concurrent.futures import wait\n"
        "from flowgraph.batch.executors import PoolExecutor\n"
        "pool = PoolExecutor(2)\n"
        "wait([pool._pool.submit(time.sleep, 0.2) for _ in range(4)])\n"
        "print(' '.join(str(p) for p in pool._pool._processes), flush=True)\n"
        "time.sleep(60)\n"
    )
    parent = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    workers = [int(p) for p in parent.stdout.readline().split()]
    assert len(workers) == 2
    os.kill(parent.pid, signal.SIGKILL)
    parent.wait()
    deadline = time.monotonic() + 10
    alive = workers
    while alive and time.monotonic() < deadline:
        time.sleep(0.2)
        alive = [p for p in workers if _alive(p)]
    assert not alive


def _alive(pid: int) -> bool:
    import os

    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie (ended, not yet reaped by init) counts as ended
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().split(") ")[1][0] != "Z"
    except OSError:
        return False


def _pack(tmp_path):
    pack = tmp_path / "pack.txt"
    rows = ";".join(",".join(str(5 * y + x) for x in range(5)) for y in range(5))
    cols = ";".join(",".join(str(5 * y + x) for y in range(5)) for x in range(5))
    pack.write_text(f"5,0,1,5;{rows}\n5,0,2,5;{cols}\n")
    return pack


@pytest.mark.parametrize("command", [["solve"], ["validate"], ["validate", "--unique"], ["render", "--solve"],
                                     ["convert", "--to", "puzzlink"]])
def test_pack_hash_n_is_that_level_everywhere(tmp_path, capsys, command):
    # README and docs/format.md: "solve pack.txt#3 solves the third level".
    pack = _pack(tmp_path)
    extra = ["-o", str(tmp_path / "out.svg")] if command[0] == "render" else []
    assert main([command[0], f"{pack}#2", *command[1:], *extra]) == 0
    out, err = capsys.readouterr()
    assert "cannot read" not in out + err
    code = main([command[0], f"{pack}#3", *command[1:], *extra])
    out, err = capsys.readouterr()
    assert code != 0 and f"{pack}#3:1:1: " in out + err and "holds 2 puzzles: there is no #3" in out + err
    assert "Traceback" not in out + err


def test_pack_hash_n_picks_the_level(tmp_path):
    pack = _pack(tmp_path)
    jobs = expand_jobs([f"{pack}#2", f"{pack}#1"])
    assert [j.key for j in jobs] == [f"{pack}#2", f"{pack}#1"] and jobs[0].data != jobs[1].data
    from flowgraph.io.files import load

    one, _ = load(f"{pack}#1")
    two, _ = load(f"{pack}#2")
    assert one is not None and two is not None and one.graph.edges != two.graph.edges or one.flows != two.flows
    single = tmp_path / "single.txt"
    single.write_text("STANDARD\nA-.-A\n")
    assert load(f"{single}#1")[0] is not None
    assert "holds 1 puzzle: there is no #2" in load(f"{single}#2")[1][0].message
    # a file whose name holds '#' is that file
    odd = tmp_path / "odd.txt#1"
    odd.write_text("STANDARD\nA-A\n")
    assert load(str(odd))[0] is not None


def test_pack_hash_n_is_the_nth_level_line_whatever_became_of_the_lines_before_it(tmp_path, capsys):
    """Issue 52: after a line that failed to read, every later #N answered for the next level."""
    pack = _pack(tmp_path)
    good = pack.read_text().splitlines()
    pack.write_text(f"// a comment is no level\n{good[0]}\n3,0,9,2;0,1,2;3,4,5,8,7,99\n{good[1]}\n")
    jobs = expand_jobs([str(pack)])
    assert [j.key for j in jobs] == [f"{pack}#1", f"{pack}#2", f"{pack}#3"]
    # each level line is its worker's to read (issue 52: the client parsed every level first), at its own line
    assert [j.line for j in jobs] == [2, 3, 4] and all(j.source == str(pack) for j in jobs)
    bad = jobs[1].read()[1][0]
    assert (bad.line, bad.column) == (3, 15) and "pipe 2 must run over" in bad.message
    from flowgraph.io.files import load

    third, _ = load(f"{pack}#3")
    second_line = tmp_path / "second.pack"
    second_line.write_text(good[1] + "\n")
    assert third is not None and third.graph.edges == load(f"{second_line}#1")[0].graph.edges
    assert "pipe 2 must run over" in load(f"{pack}#2")[1][0].message
    assert "holds 3 puzzles: there is no #4" in load(f"{pack}#4")[1][0].message
    assert main(["solve", f"{pack}#3", f"{pack}#2"]) == 3
    err = capsys.readouterr().err
    assert f"{pack}:3:15: pipe 2 must run over" in err


def test_ctrl_c_stops_a_batch_of_large_boards_within_a_second(tmp_path):
    """Issue 51: the workers finished their boards first (12-15 s over 200x200 boards)."""
    d = tmp_path / "large"
    d.mkdir()
    for i in range(6):
        (d / f"p{i}.url").write_text("https://puzz.link/p?numlin/200/200/1zzzz1\n")
    proc = subprocess.Popen([sys.executable, "-m", "flowgraph", "solve", str(d), "--jobs", "2", "--time-limit", "60"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    time.sleep(4)  # the workers have started (about 2 s), and are inside their first boards
    t0 = time.monotonic()
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and time.monotonic() - t0 < 1.5, (time.monotonic() - t0, err[-500:])
    assert b"Traceback" not in err


def test_a_folder_of_converted_levels_is_read_in_level_order_without_its_solutions(tmp_path, capsys):
    """Issue 52: `convert pack -o levels/ --solutions` then `solve levels/` gave an invalid row per solution
    file, and level 10 came second."""
    pack = tmp_path / "big.pack"
    line = _pack(tmp_path).read_text().splitlines()[0]
    pack.write_text("".join(line.replace("5,0,1,5", f"5,0,{n},5") + "\n" for n in range(1, 12)))
    assert main(["convert", str(pack), "-o", str(tmp_path / "levels"), "--solutions"]) == 0
    assert len(list((tmp_path / "levels").glob("*.solution.json"))) == 11
    capsys.readouterr()
    assert main(["solve", str(tmp_path / "levels"), "--json"]) == 0
    puzzles = [json.loads(row)["puzzle"].rsplit("/", 1)[-1] for row in capsys.readouterr().out.splitlines()]
    assert puzzles == [f"big_{n}.txt" for n in range(1, 12)]


def test_a_fifo_in_a_folder_is_a_row_of_its_own(tmp_path, capsys):
    shutil.copy(GOOD, tmp_path / "a.txt")
    os.mkfifo(tmp_path / "b.txt")
    assert main(["solve", str(tmp_path), "--json"]) == 3
    out, err = capsys.readouterr()
    assert '"status": "solved"' in out and f"{tmp_path / 'b.txt'}:1:1: cannot read file: not a regular file" in err


def test_a_scheduler_with_no_workers_is_said_not_waited_for(monkeypatch):
    """Issue 52: a scheduler with no workers took the tasks and waited for ever, silently."""
    from distributed import LocalCluster

    monkeypatch.setattr(DaskExecutor, "WORKERS_WAIT_S", 1.0)
    with LocalCluster(n_workers=0, processes=False, scheduler_port=0, dashboard_address=None) as cluster:
        with pytest.raises(RuntimeError, match="has no workers .waited 1 s.: start some with 'dask worker"):
            DaskExecutor(cluster.scheduler_address)


@pytest.mark.slow
def test_a_batch_left_with_no_worker_stops_and_keeps_its_rows(tmp_path, monkeypatch):
    """Issue 52: a cluster whose workers all left held the batch for ever, silently."""
    from distributed import LocalCluster

    monkeypatch.setattr(DaskExecutor, "LEFT_WAIT_S", 1.0)
    out = tmp_path / "rows.jsonl"
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False, scheduler_port=0,
                      dashboard_address=None) as cluster:
        with DaskExecutor(cluster.scheduler_address) as executor:
            threading.Timer(2.0, lambda: cluster.scale(0)).start()  # the worker goes; none is started again
            t0 = time.monotonic()
            batch = run_batch(range(300), _sleepy, lambda i: (i,), executor, key=lambda i: f"job{i}", out=out)
            waited = time.monotonic() - t0
    rows = _rows(out)
    assert batch.interrupted and batch.lost == f"the Dask scheduler {cluster.scheduler_address} has had no worker for 1 s"
    assert 0 < len(rows) < 300 and len({r["key"] for r in rows}) == len(rows)
    assert waited < 20
