"""Issue 52: a batch of any size holds a bounded number of rows and one input file at a time."""

from __future__ import annotations

import collections
import json
import tracemalloc

import pytest

from flowgraph.batch.executors import Executor, SerialExecutor
from flowgraph.batch.jobs import Jobs
from flowgraph.batch.runner import InOrder, run_batch, summarise
from flowgraph.cli import main
from tests.helpers import PUZZLES

LEVEL = "5,0,1,5;18,17,12;21,16,11,6;3,4,9;0,1,2,7,8,13,14,19,24,23,22;20,15,10,5\n"


def _big_row(i: int) -> dict:
    return {"status": "solved", "stats": {"seconds": i / 1000}, "blob": "x" * 10_000}


class Reversed(Executor):
    """Every task run, the rows given back last first (the order a slow first puzzle makes, at its worst)."""

    name = "reversed"

    def __init__(self):
        self.ran_on = {"here"}

    def run(self, task, args, total=None):
        rows = [(j, task(*a)) for j, a in enumerate(args)]
        yield from reversed(rows)


def test_rows_are_not_kept_a_batch_holds_what_a_few_take(tmp_path):
    """Every row was kept to the end (~39 kB a puzzle: 4 GB for 100,000); 20,000 rows of 10 kB now peak at a
    few MB, the rows file rewritten in input order a row at a time."""
    out = tmp_path / "rows.jsonl"
    shown = []
    tracemalloc.start()
    try:
        batch = run_batch(range(20_000), _big_row, lambda i: (i,), SerialExecutor(), key=lambda i: f"job{i}",
                          out=out, show=lambda i, job, row: shown.append(i))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 20_000_000  # kept, the rows were 200 MB
    assert shown == list(range(20_000)) and batch.done == batch.jobs == 20_000
    with open(out) as fh:
        assert [json.loads(line)["key"] for line in fh] == [f"job{i}" for i in range(20_000)]
    summary = summarise(batch)
    assert summary["status"] == {"solved": 20_000}
    assert [s["puzzle"] for s in summary["slowest"]] == ["job19999", "job19998", "job19997"]


def test_rows_that_wait_for_an_earlier_one_wait_in_a_file_past_a_few_hundred(tmp_path, monkeypatch):
    monkeypatch.setattr(InOrder, "HELD", 4)
    shown = []
    out = tmp_path / "rows.jsonl"
    batch = run_batch(range(50), lambda i: {"status": "solved", "n": i}, lambda i: (i,), Reversed(),
                      key=str, out=out, show=lambda i, job, row: shown.append((i, job, row["n"], row["key"])))
    assert shown == [(i, i, i, str(i)) for i in range(50)] and batch.workers == 1
    assert [json.loads(line)["n"] for line in out.read_text().splitlines()] == list(range(50))


def test_jobs_are_counted_first_and_read_one_file_at_a_time(tmp_path):
    folder = tmp_path / "packs"
    folder.mkdir()
    for k in range(3):
        (folder / f"pack_{k}.txt").write_text(LEVEL * 1000)
    (folder / "single.txt").write_text((PUZZLES / "standard" / "regular_5x5.txt").read_text())
    jobs = Jobs([str(folder), str(folder / "pack_1.txt#7")])
    assert len(jobs) == 3002 and jobs.paths[-1].endswith("pack_1.txt#7")
    tracemalloc.start()
    try:
        count = biggest = 0
        for job in jobs:
            count += 1
            biggest = max(biggest, len(job.data))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert count == 3002 and biggest < 400
    assert peak < 2_000_000  # one pack's lines (74 kB of text) at a time, not 3,000 jobs


def test_a_resumed_batch_reads_each_earlier_row_from_the_file(tmp_path, capsys):
    pack = tmp_path / "pack.txt"
    pack.write_text(LEVEL * 30)
    out = tmp_path / "rows.jsonl"
    assert main(["solve", str(pack), "--json", "--out", str(out), "--jobs", "1"]) == 0
    first = out.read_text()
    lines = first.splitlines()
    out.write_text("\n".join(lines[:10] + lines[20:25]) + "\n" + lines[25][:30])  # a crash's half line
    capsys.readouterr()
    assert main(["solve", str(pack), "--json", "--out", str(out), "--resume", "--jobs", "1",
                 "--color", "never"]) == 0
    captured = capsys.readouterr()
    again = out.read_text().splitlines()
    assert [json.loads(line)["key"] for line in again] == [json.loads(line)["key"] for line in lines]
    assert again[:10] == lines[:10] and again[20:25] == lines[20:25]  # the resumed rows, as they were
    assert len(captured.out.splitlines()) == 30 and "15 rows resumed" in captured.err


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_the_summary_names_the_workers_that_ran(tmp_path, capsys, jobs):
    pack = tmp_path / "pack.txt"
    pack.write_text(LEVEL * 12)
    assert main(["solve", str(pack), "--json", "--jobs", jobs, "--color", "never"]) == 0
    err = capsys.readouterr().err
    assert f"({jobs} worker{'s' if jobs == '2' else ''})" in err


def test_a_pack_of_more_cells_than_a_pack_may_hold_is_every_level_a_job(tmp_path):
    """Issue 52: a batch cut a pack at 200,000 cells (MAX_PACK_CELLS): 5,000 small levels stopped at 2,757.
    Its lines are jobs now, read one by one; only the file's size bounds a pack."""
    from flowgraph.io.level_pack import MAX_PACK_CELLS

    pack = tmp_path / "big.txt"
    count = MAX_PACK_CELLS // 25 + 1000
    pack.write_text(LEVEL * count)
    jobs = Jobs([str(pack)])
    assert len(jobs) == count
    [last] = collections.deque(jobs, maxlen=1)  # (held one at a time)
    assert last.key == f"{pack}#{count}"
    puzzle, problems = last.read()
    assert puzzle is not None and puzzle.cells == 25 and not problems
