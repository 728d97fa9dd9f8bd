"""flowgraph bench through main([...]) and run_bench: every row verified, totals, JSON."""

from __future__ import annotations

import json

from flowgraph.batch.bench import expand, run_bench, summary
from flowgraph.cli import main

from conftest import BUNDLED, PUZZLES, UNSOLVABLE


def test_rows_and_totals_over_the_bundled_puzzles():
    rows = run_bench([str(p) for p in BUNDLED])
    statuses = {r.path: r.status for r in rows}
    assert all(statuses[str(p)] == ("unsolvable" if p in UNSOLVABLE else "solved") for p in BUNDLED)
    totals = summary(rows)
    assert totals["puzzles"] == len(BUNDLED) and totals["nodes"] == sum(r.nodes for r in rows)
    assert totals["slowest"]["seconds"] == max(r.seconds for r in rows)


def test_folders_expand_to_their_txt_files_sorted():
    assert expand([str(PUZZLES)]) == sorted(str(p) for p in PUZZLES.rglob("*.txt"))


def test_cli_table_json_and_exit_status(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    out = tmp_path / "bench.json"
    assert main(["bench", str(PUZZLES), "--json", str(out)]) == 1  # the unsolvable board
    printed = capsys.readouterr().out
    assert f"{len(BUNDLED)} puzzles" in printed and "peak memory" in printed
    data = json.loads(out.read_text())
    assert data["engine"] == "auto" and len(data["rows"]) == len(BUNDLED)


def test_missing_path_is_a_usage_error(tmp_path, capsys):
    assert main(["bench", str(tmp_path / "nope")]) == 2
    assert "no such file or folder" in capsys.readouterr().err
