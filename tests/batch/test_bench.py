"""flowgraph bench through main([...]) and run_bench: every row verified, totals, JSON."""

from __future__ import annotations

import json

from flowgraph.batch.bench import expand, run_bench, summary
from flowgraph.cli import main
from flowgraph.io.files import natural_key
from tests.helpers import BUNDLED, PUZZLES, UNSOLVABLE


def test_rows_and_totals_over_the_bundled_puzzles():
    rows = run_bench([str(p) for p in BUNDLED])
    statuses = {r.path: r.status for r in rows}
    assert all(statuses[str(p)] == ("unsolvable" if p in UNSOLVABLE else "solved") for p in BUNDLED)
    totals = summary(rows)
    assert totals["puzzles"] == len(BUNDLED) and totals["states"] == sum(r.states for r in rows)
    assert totals["slowest"]["seconds"] == max(r.seconds for r in rows)


def test_folders_expand_to_their_puzzle_files_sorted():
    # masks/ holds no puzzles; numbers in names by value (regular_5x5 before regular_10x10)
    files = [*PUZZLES.rglob("*.txt"), *PUZZLES.rglob("*.json")]  # (the shape boards are JSON graphs)
    assert expand([str(PUZZLES)]) == sorted((str(p) for p in files), key=natural_key)


def test_cli_table_json_and_exit_status(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    out = tmp_path / "bench.json"
    assert main(["bench", str(PUZZLES), "--json", str(out)]) == 1  # the unsolvable board
    printed = capsys.readouterr().out
    shapes = len(list(PUZZLES.glob("shapes/*.json")))
    assert f"{len(BUNDLED) + shapes} puzzles" in printed and "peak memory" in printed
    data = json.loads(out.read_text())
    assert data["engine"] == "auto" and len(data["rows"]) == len(BUNDLED) + shapes


def test_missing_path_is_an_unreadable_file_as_in_solve(tmp_path, capsys):
    missing = str(tmp_path / "nope")
    assert main(["bench", missing]) == main(["solve", missing]) == 3
    err = capsys.readouterr().err
    assert err.count(f"{missing}:1:1: cannot read file: No such file or directory") == 2


def test_jobs_give_the_same_rows_in_input_order():
    files = [str(p) for p in BUNDLED]
    one = run_bench(files, "sat")
    seen = []
    two = run_bench(files, "sat", progress=seen.append, jobs=2)
    assert [r.path for r in two] == files
    assert [(r.status, r.cells, r.flows) for r in two] == [(r.status, r.cells, r.flows) for r in one]
    assert sorted(r.path for r in seen) == sorted(files)  # progress saw every row, in finishing order


def test_bad_files_do_not_stop_the_workers(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("STANDARD\nA-B\n")
    rows = run_bench([str(bad), str(BUNDLED[0])], jobs=2)
    assert [r.status for r in rows] == ["invalid", "solved" if BUNDLED[0] not in UNSOLVABLE else "unsolvable"]


def test_cli_jobs_option(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    out = tmp_path / "bench.json"
    main(["bench", str(PUZZLES), "--jobs", "2", "--json", str(out)])
    printed = capsys.readouterr().out
    assert "with 2 jobs" in printed and "--jobs 2" in printed
    data = json.loads(out.read_text())
    assert data["jobs"] == 2 and [r["path"] for r in data["rows"]] == expand([str(PUZZLES)])
    assert main(["bench", str(PUZZLES), "--jobs", "0"]) == 2
    assert "argument -j/--jobs: must be a positive whole number, not 0" in capsys.readouterr().err
