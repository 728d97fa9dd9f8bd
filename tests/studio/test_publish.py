"""``flowgraph convert PACK -o pack.html``: a pack or a folder published as one page that plays offline."""

from __future__ import annotations

import base64
import hashlib
import json
import re

import pytest

from flowgraph import parse_text
from flowgraph.cli import main
from flowgraph.errors import ConversionError
from flowgraph.studio import publish as publishing
from flowgraph.studio.publish import play_board, publish
from tests.helpers import PUZZLES

BRIDGED = (PUZZLES / "bridges" / "crossing_5x5.txt").read_text()


def _data(page: str) -> dict:
    block = re.search(r'<script type="application/json" id="levels">(.*?)</script>', page, re.S)
    assert block, "the page carries its levels as a data block"
    return json.loads(block.group(1))


def test_the_page_runs_only_its_own_scripts_and_style_by_their_hashes():
    page = publish([("a", parse_text(BRIDGED))], "crossing")
    policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', page).group(1)
    assert "default-src 'none'" in policy  # nothing loaded, nothing sent: no connect-src, no img but data:
    scripts = re.findall(r"<script>(.*?)</script>", page, re.S)
    assert len(scripts) == 2
    for script in scripts:
        digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
        assert f"'sha256-{digest}'" in policy
    assert "http://" not in page.replace("http://www.w3.org/2000/svg", "") and "https://" not in page


def test_the_page_ships_each_board_and_no_solution():
    puzzle = parse_text(BRIDGED)
    level = _data(publish([("a", puzzle)], "crossing"))["levels"][0]
    assert level["board"] == play_board(puzzle)
    assert level["board"]["cells"] == puzzle.cells and len(level["board"]["bridges"]) == 1
    assert 'class="pipe"' not in level["svg"] and "paths" not in level


def test_names_and_titles_are_text_never_markup():
    page = publish([("</script><script>alert(1)</script>", parse_text(BRIDGED))], "<b>pack</b>")
    assert "<b>pack</b>" not in page and "&lt;b&gt;pack&lt;/b&gt;" in page
    assert _data(page)["levels"][0]["name"] == "</script><script>alert(1)</script>"
    assert len(re.findall(r"<script>", page)) == 2  # the name did not open a script of its own


@pytest.mark.parametrize("bound, value, said", [
    ("MAX_PAGE_LEVELS", 1, "a page holds at most 1"),
    ("MAX_PAGE_CELLS", 30, "cells in all: a page holds at most 30"),
])
def test_a_page_is_bounded_by_levels_and_cells(monkeypatch, bound, value, said):
    monkeypatch.setattr(publishing, bound, value)
    with pytest.raises(ConversionError, match=said):
        publish([("a", parse_text(BRIDGED)), ("b", parse_text(BRIDGED))], "two")


def test_convert_publishes_a_pack_a_level_of_it_and_a_folder(tmp_path, capsys):
    boards = tmp_path / "boards"
    boards.mkdir()
    for name in ("crossing_5x5", "two_bridges_6x6"):
        (boards / f"{name}.txt").write_text((PUZZLES / "bridges" / f"{name}.txt").read_text())
    (boards / "broken.txt").write_text("STANDARD\nA-.-B\n")  # said, and the rest published
    out = tmp_path / "page.html"
    assert main(["convert", str(boards), "-o", str(out)]) == 3
    levels = _data(out.read_text())["levels"]
    assert [level["name"] for level in levels] == ["crossing_5x5", "two_bridges_6x6"]
    said = capsys.readouterr().err
    assert "broken.txt:" in said and "page.html: 2 levels, a page to open in any browser" in said


def test_convert_to_html_reads_the_output_suffix_or_to(tmp_path, capsys):
    board = PUZZLES / "hex" / "honeycomb_5x4.txt"
    assert main(["convert", str(board), "--to", "html"]) == 0
    assert capsys.readouterr().out.startswith("<!doctype html>")
    assert main(["convert", str(PUZZLES / "standard"), "-o", str(tmp_path / "x.txt")]) == 2
    assert "is a folder: convert reads one file" in capsys.readouterr().err


def test_numberlink_rules_let_the_page_leave_cells_empty(tmp_path):
    out = tmp_path / "nl.html"
    assert main(["convert", str(PUZZLES / "standard" / "regular_5x5.txt"), "--rules", "numberlink", "-o", str(out)]) == 0
    board = _data(out.read_text())["levels"][0]["board"]
    assert board["rules"] == "numberlink" and board["fills_every_cell"] is False


def test_publishing_a_board_too_large_to_play_without_lag_says_so(tmp_path, capsys):
    """Issue 71: a 240x240 board (within the page's limits) loaded in 12 s and cost 1.4 s a pointer move, and
    nothing said so."""
    from flowgraph.cli import main
    from flowgraph.studio.publish import PLAYABLE_CELLS

    n = 101  # just over PLAYABLE_CELLS
    assert n * n > PLAYABLE_CELLS >= 100 * 100
    lines = ["STANDARD"]
    for y in range(n):
        lines.append("-".join("A" if (y, x) in ((0, 0), (0, n - 1)) else "." for x in range(n)))
        if y < n - 1:
            lines.append(" ".join("|" * n))
    board = tmp_path / "big.txt"
    board.write_text("\n".join(lines) + "\n")
    assert main(["convert", str(board), "-o", str(tmp_path / "big.html")]) == 0
    err = capsys.readouterr().err
    assert "note: big has 10,201 cells: a page plays boards of up to 10,000 cells without lag" in err
    small = tmp_path / "small.txt"
    small.write_text("STANDARD\nA-.-A\n")
    assert main(["convert", str(small), "-o", str(tmp_path / "small.html")]) == 0
    assert "note:" not in capsys.readouterr().err
