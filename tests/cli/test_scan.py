"""``flowgraph scan`` through ``main([...])``: files written, boards solved, bad pictures reported."""

from __future__ import annotations

import pytest

from flowgraph import parse_file
from flowgraph.cli import main
from flowgraph.io.sketch import same_board
from tests.helpers import PUZZLES, corpus_file


@pytest.fixture
def shots(tmp_path):
    from tests.scan.scan_helpers import picture

    out = {}
    for rel in ("standard/regular_5x5.txt", "hex/honeycomb_5x4.txt"):
        path = tmp_path / (rel.split("/")[1][:-4] + ".png")
        path.write_bytes(picture(parse_file(PUZZLES / rel)))
        out[rel] = path
    return out


def test_scan_writes_the_board_and_says_what_it_read(shots, tmp_path, capsys):
    shot = shots["standard/regular_5x5.txt"]
    out = tmp_path / "board.txt"
    assert main(["scan", str(shot), "-o", str(out)]) == 0
    assert same_board(parse_file(out), parse_file(PUZZLES / "standard" / "regular_5x5.txt"))
    err = capsys.readouterr().err
    assert "5x5 square board, 25 cells, 5 flows, 0 walls" in err and str(out) in err


def test_scan_without_output_prints_the_text(shots, capsys):
    assert main(["scan", str(shots["hex/honeycomb_5x4.txt"])]) == 0
    text = capsys.readouterr().out
    assert text.startswith("HEX\n")


def test_scan_solve_prints_the_solution_and_draws_it(shots, tmp_path, capsys):
    assert main(["scan", str(shots["standard/regular_5x5.txt"]), "--solve", "--png", str(tmp_path / "pics")]) == 0
    out = capsys.readouterr().out
    assert "solved by" in out
    assert (tmp_path / "pics" / "regular_5x5.png").stat().st_size > 0


def test_several_pictures_go_to_a_folder_with_debug_pictures(shots, tmp_path):
    boards, checks = tmp_path / "boards", tmp_path / "checks"
    assert main(["scan", *map(str, shots.values()), "-o", str(boards), "--debug", str(checks)]) == 0
    assert sorted(p.name for p in boards.iterdir()) == ["honeycomb_5x4.txt", "regular_5x5.txt"]
    assert sorted(p.name for p in checks.iterdir()) == ["honeycomb_5x4.debug.png", "regular_5x5.debug.png"]


def test_bad_pictures_are_reported_and_the_batch_goes_on(shots, tmp_path, capsys):
    bad = tmp_path / "cat.jpg"
    bad.write_bytes(b"\xff\xd8 not really a jpeg")
    missing = tmp_path / "missing.png"
    good = shots["standard/regular_5x5.txt"]
    assert main(["scan", str(bad), str(missing), str(good), "-o", str(tmp_path / "out")]) == 3
    err = capsys.readouterr().err
    assert f"{bad}: not a picture" in err
    assert f"{missing}: cannot read the file" in err
    assert "Traceback" not in err
    assert (tmp_path / "out" / "regular_5x5.txt").exists()


def test_a_real_screenshot_end_to_end(tmp_path, capsys):
    shot = corpus_file("screenshots/RegularPack5x5_2.jpg")
    assert main(["scan", str(shot), "--solve", "--color", "never"]) == 0
    out = capsys.readouterr().out
    assert "solved by" in out
