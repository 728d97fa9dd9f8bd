"""flowgraph new: templates of every family and shape parse, and validate finds only 'no flows'."""

from __future__ import annotations

import pytest

from flowgraph import find_problems
from flowgraph.cli import main


def _problems(text):
    return [(p.severity, p.message) for p in find_problems(text)]


@pytest.mark.parametrize("argv", [
    ["--size", "5x5"],
    ["--family", "hex", "--size", "6x5"],
    ["--family", "warps", "--size", "4x4"],
    ["--family", "bridges", "--size", "5x5"],
    ["--family", "bridges", "--size", "6x6", "--bridge", "1,1", "--bridge", "4,3"],
    ["--size", "5x3", "--wrap", "rows"],
    ["--family", "hex", "--size", "5x5", "--wrap", "cols"],
])
def test_templates_of_every_family_validate_but_for_no_flows(argv, capsys, tmp_path):
    out = tmp_path / "t.txt"
    assert main(["new", *argv, "-o", str(out)]) == 0
    text = out.read_text()
    assert _problems(text) == [("error", "the board has no flows (no endpoint labels)")]
    assert main(["validate", str(out)]) == 3
    assert "no flows" in capsys.readouterr().out


def test_hex_template_alternates_like_samgoldman(capsys):
    assert main(["new", "--family", "hex", "--size", "5x2"]) == 0
    assert capsys.readouterr().out == "HEX\n.-.-.-.-.\n|/|\\|/|\\|\n.-.-.-.-.\n"


def test_mask_with_holes_and_labels(tmp_path, capsys):
    mask = tmp_path / "heart.grid"
    mask.write_text(" A# B\nA...B\n#...#\n##.##\n")
    assert main(["new", "--mask", str(mask)]) == 0
    text = capsys.readouterr().out
    assert _problems(text) == []  # the mask's labels make it a puzzle already
    assert text.splitlines()[1] == "  A     B"  # A at x=1, holes at x=0, 2, 3, B at x=4


@pytest.mark.parametrize("argv, words", [
    (["new"], "give --size WxH or --mask FILE"),
    (["new", "--size", "5by5"], "expected WxH"),
    (["new", "--size", "3x3", "--bridge", "0,0"], "needs cells on both sides"),
    (["new", "--size", "3x3", "--bridge", "7,7"], "not a cell of the board"),
])
def test_usage_errors(argv, words, capsys):
    assert main(argv) == 2
    assert words in capsys.readouterr().err


def test_holes_and_endpoints_from_the_command_line(capsys):
    """Issue 72: cells as the board's rulers and every message name them (r2c2); the 0-based X,Y is read too."""
    assert main(["new", "--size", "3x2", "--hole", "r2c2", "--endpoint", "A:r2c1", "--endpoint", "A:r2c3"]) == 0
    assert capsys.readouterr().out == "STANDARD\n.-.-.\n|   |\nA   A\n"
    assert main(["new", "--size", "3x2", "--hole", "1,1", "--endpoint", "A:0,1", "--endpoint", "A:2,1"]) == 0
    assert capsys.readouterr().out == "STANDARD\n.-.-.\n|   |\nA   A\n"


@pytest.mark.parametrize("argv, words", [
    (["--hole", "5,1"], "hole r2c6 is not a cell of the board"),
    (["--hole", "r2c6"], "hole r2c6 is not a cell of the board"),
    (["--endpoint", "A:9,9"], "endpoint A at r10c10 is not a cell of the board"),
    (["--endpoint", "A:0,0", "--endpoint", "B:r1c1"], "the cell already holds 'A'"),
    (["--endpoint", "AB:0,0"], "expected A:rRcC, a one-character label"),
    (["--hole", "r0c1"], "expected a cell as rRcC"),
    (["--hole", "\u00b2,1"], "expected a cell as rRcC"),
    (["--endpoint", "#:0,0"], "expected one of A-Z, a-z, 0-9"),
    (["--hole", "0,0", "--hole", "1,0", "--hole", "2,0", "--hole", "0,1", "--hole", "1,1", "--hole", "2,1"],
     "the holes leave no cell"),
])
def test_bad_holes_and_endpoints_are_usage_errors(argv, words, capsys):
    assert main(["new", "--size", "3x2", *argv]) == 2
    assert words in capsys.readouterr().err
