"""``flowgraph validate`` and the problem-finder: one bad file per problem."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from flowgraph import PuzzleError, find_problems, parse_file
from flowgraph.cli import main
from flowgraph.io.files import MAX_BYTES, read_text
from tests.helpers import DATA, PUZZLES, corpus_params

BAD = sorted((DATA / "bad").glob("*.txt"))
assert BAD, f"no bad files in {DATA / 'bad'}"
EXPECT = re.compile(r"^// expect (\d+):(\d+) (error|warning): (.*)$")


def expectations(path: Path) -> list[tuple[int, int, str, str]]:
    """The ``// expect LINE:COLUMN SEVERITY: MESSAGE`` lines at the top of a bad file."""
    out = []
    for line in path.read_bytes().decode("utf-8", "replace").splitlines():
        m = EXPECT.match(line)
        if not m:
            break
        out.append((int(m[1]), int(m[2]), m[3], m[4]))
    return out


def problems_of(path: Path):
    text, problems = read_text(path.read_bytes())
    return problems if text is None else find_problems(text)


@pytest.mark.parametrize("path", BAD, ids=lambda p: p.stem)
def test_bad_file_reports_its_problem(path):
    expected = expectations(path)
    assert expected, "a bad file starts with its '// expect' line"
    found = problems_of(path)
    for line, column, severity, message in expected:
        assert any(
            (p.line, p.column, p.severity) == (line, column, severity) and p.message.startswith(message)
            for p in found
        ), (expected, found)
    if any(e[2] == "error" for e in expected):
        with pytest.raises(PuzzleError):
            parse_file(path)
    else:
        parse_file(path)  # warnings never stop a solve


def test_empty_file():
    assert [(p.line, p.column, p.message[:10]) for p in find_problems("")] == [(1, 1, "empty file")]
    assert find_problems("\n  \n")[0].message.startswith("empty file")


def test_oversized_file_is_refused_before_parsing():
    text, problems = read_text(b"." * (MAX_BYTES + 1))
    assert text is None and "limit" in problems[0].message


@pytest.mark.parametrize("kind, head", [("PNG", b"\x89PNG\r\n\x1a\n\x00\x00"), ("JPEG", b"\xff\xd8\xff\xe0\x00\x10JFIF"),
                                        ("GIF", b"GIF89a\x01\x00"), ("WebP", b"RIFF\x10\x00\x00\x00WEBPVP8 ")])
def test_a_picture_is_named_as_one_and_scan_offered(kind, head, tmp_path, capsys):
    """Issue 72: ``solve hive.png`` said "invalid UTF-8" with no word of ``scan``."""
    shot = tmp_path / "hive.png"
    shot.write_bytes(head + bytes(range(256)))
    assert main(["solve", str(shot)]) == 3
    assert f"{shot}:1:1: a {kind} picture, not a puzzle file: flowgraph scan FILE reads a screenshot" in capsys.readouterr().err


def test_too_many_cells_is_refused_before_parsing():
    problems = find_problems("STANDARD\n" + ("." * 1000 + "\n") * 1001)
    assert len(problems) == 1 and "more than 1,000,000 cells" in problems[0].message


def test_validate_prints_problems_and_verdicts(capsys):
    bad = next(p for p in BAD if p.stem == "label_once")
    good = PUZZLES / "hex" / "hive_8x7.txt"
    assert main(["validate", str(bad), str(good)]) == 3
    out = capsys.readouterr().out
    assert f"{bad}:3:5: error: label 'B' appears once" in out
    assert f"{bad}: invalid (1 error)" in out
    assert f"{good}: valid (8 flows, 56 cells)" in out


@pytest.mark.parametrize("board, size", [("bridges/crossing_5x5.txt", "6 flows, 25 cells, 1 bridge"),
                                         ("shapes/triquetra_1x16.json", "8 flows, 51 cells, 3 bridges"),
                                         ("shapes/figure_eight_2x10_cells.json", "10 flows, 52 cells")])
def test_validate_counts_a_bridge_once_as_the_picture_draws_it(board, size, capsys):
    """A bridge is one cell of the board (two lanes a solution fills): the count a player sees in the picture."""
    assert main(["validate", str(PUZZLES / board)]) == 0
    assert f": valid ({size})" in capsys.readouterr().out


def test_validate_warnings_keep_exit_0(capsys):
    warn = next(p for p in BAD if p.stem == "warning_warp_repeats_link")
    assert main(["validate", str(warn)]) == 0
    assert "3:4: warning: link '-' repeats an existing link" in capsys.readouterr().out


def test_validate_json(capsys):
    bad = next(p for p in BAD if p.stem == "lane_one_side")
    assert main(["validate", "--json", str(bad), str(PUZZLES / "standard" / "regular_5x5.txt")]) == 3
    first, second = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert first["valid"] is False and first["puzzle"] == str(bad)
    lane = {"line": 5, "column": 3, "severity": "error", "message": "bridge lane '|' is linked on one side only"}
    assert lane in first["problems"]
    assert second == {"puzzle": str(PUZZLES / "standard" / "regular_5x5.txt"), "valid": True, "problems": []}


def test_solve_refuses_invalid_files_with_3(capsys):
    bad = next(p for p in BAD if p.stem == "dangling_dash")
    assert main(["solve", str(bad)]) == 3


@pytest.mark.parametrize("path", corpus_params("*/**/*.txt"))
def test_corpus_files_have_no_errors(path):
    errors = [p.message for p in find_problems(path.read_text()) if p.severity == "error"]
    if path.name == "14x14Template.txt":
        assert errors == ["the board has no flows (no endpoint labels)"]
    else:
        assert errors == []


# -- validate --unique --------------------------------------------------------

UNIQUE = PUZZLES / "standard" / "regular_5x5.txt"
MULTIPLE = PUZZLES / "standard" / "open_field_8x8.txt"
NONE = PUZZLES / "standard" / "unsolvable_3x3.txt"


def test_validate_unique_text(capsys, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    assert main(["validate", "--unique", str(UNIQUE)]) == 0
    assert f"{UNIQUE}: unique solution" in capsys.readouterr().out
    assert main(["validate", "--unique", str(MULTIPLE)]) == 1
    out = capsys.readouterr().out
    assert "multiple solutions; two of them differ in" in out and "x" in out
    assert main(["validate", "--unique", str(NONE)]) == 1
    assert f"{NONE}: no solution" in capsys.readouterr().out


def test_validate_unique_json(capsys):
    assert main(["validate", "--unique", "--json", str(UNIQUE), str(MULTIPLE), str(NONE)]) == 1
    counts = [json.loads(line)["solutions"] for line in capsys.readouterr().out.splitlines()]
    assert counts == [1, 2, 0]


def test_two_solutions_show_a_third_board_with_the_differing_cells_marked(capsys):
    assert main(["validate", "--unique", "--color", "never", str(PUZZLES / "standard" / "open_field_8x8.txt")]) == 1
    out = capsys.readouterr().out
    differ = re.search(r"differ in (\d+) cells \(marked x\)", out)
    assert differ and int(differ.group(1)) >= 2
    third = [line.split("   ")[-1] for line in out.splitlines()[2::2]]  # the cell rows' third board
    assert len(third) == 8 and all(len(row.split()) == 8 for row in third)
    assert sum(row.split().count("x") for row in third) == int(differ.group(1))
