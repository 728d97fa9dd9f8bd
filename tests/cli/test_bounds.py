"""Every size and count a command is given is bounded where it enters (issue 51, docs/limits.md).

Each case was a way down: ``new --size 3000x3000`` took 3.7 GB, ``generate --size 100000x100000`` 8 GB,
``--count 1000000000000`` 8.7 GB, ``--jobs 10000`` started 10,000 processes, ``validate`` of a 999x1000
board 2 GB and ``render -o x.png`` of a 42-byte URL 1.9 GB.
"""

from __future__ import annotations

import pytest

from flowgraph.cli import main
from tests.helpers import PUZZLES

REGULAR = str(PUZZLES / "standard" / "regular_5x5.txt")


@pytest.mark.parametrize("argv, words", [
    (["new", "--size", "3000x3000"], "9,000,000 cells: a template has at most 487,322"),
    (["new", "--size", "1000x1000"], "a template has at most 487,322"),  # its file no reader took
    (["new", "--size", "700x700"], "a template has at most 487,322"),  # issue 72: validate, render, solve refused it
    (["new", "--size", "5x99999999999999999999"], "two whole numbers from 1 to 1,000,000"),
    (["generate", "--size", "100000x100000", "--time-limit", "10"], "a generated puzzle has at most 900 (a 30x30"),
    (["generate", "--size", "40x40"], "a generated puzzle has at most 900 (a 30x30"),  # issue 72: failed after 12 s
    (["generate", "--size", "5x5", "--count", "1000000000000"], "at most 100,000 puzzles a run"),
    (["solve", "--time-limit", "inf", REGULAR], "at most 1,000,000"),
    (["validate", "--unique", "--time-limit", "1e308", REGULAR], "at most 1,000,000"),
])
def test_sizes_counts_and_times_are_bounded_where_they_enter(argv, words, capsys):
    assert main(argv) == 2
    assert words in capsys.readouterr().err


@pytest.mark.parametrize("family", ["standard", "hex", "warps", "bridges"])
def test_the_largest_template_is_read_within_the_default_budget(family):
    """Issue 72: what ``new`` writes, every reader takes within its default budget (a 700x700 was refused, about
    1,029 MB to read): the readers' first count of a template's cells exceeds its cells by its header word only."""
    from flowgraph.authoring.templates import template
    from flowgraph.cli.new import MAX_NEW_CELLS
    from flowgraph.io.footprint import cells_bound, over_budget, reading_bytes
    from flowgraph.model import DEFAULT_MEMORY_BYTES

    text = template(family, 40, 30, bridges=[(3, 3)] if family == "bridges" else ())
    assert cells_bound(text) - 40 * 30 <= 16
    assert over_budget(reading_bytes(MAX_NEW_CELLS + 16), DEFAULT_MEMORY_BYTES, MAX_NEW_CELLS + 16) is None


def test_a_mask_is_bounded_by_its_cells(tmp_path, capsys):
    mask = tmp_path / "big.grid"
    mask.write_text(("." * 1000 + "\n") * 600)
    assert main(["new", "--mask", str(mask)]) == 2
    assert "the mask has up to 600,000 cells" in capsys.readouterr().err


def _board(tmp_path, n: int) -> str:
    path = tmp_path / f"b{n}.txt"
    assert main(["new", "--size", f"{n}x{n}", "--endpoint", "A:0,0", "--endpoint", f"A:{n - 1},{n - 1}",
                 "-o", str(path)]) == 0
    return str(path)


@pytest.mark.parametrize("command", ["solve", "validate", "render"])
def test_a_board_that_takes_more_than_memory_limit_to_read_is_refused_before_it_is_read(tmp_path, capsys, command):
    board = _board(tmp_path, 30)  # 900 cells: about 50 MB to read
    extra = ["-o", str(tmp_path / "b.svg")] if command == "render" else []
    assert main([command, board, "--memory-limit", "17", *extra]) == 3
    said = capsys.readouterr()
    said = said.out + said.err  # (validate lists problems on standard output)
    assert f"{board}:1:1:" in said and "over the memory budget of 17 MB (--memory-limit)" in said
    status = main([command, board, *extra, *(["--time-limit", "1"] if command == "solve" else [])])
    assert status in (0, 1, 4) and "memory budget" not in capsys.readouterr().err  # within the default budget: read


def test_a_png_that_takes_more_than_memory_limit_to_draw_is_refused(tmp_path, capsys):
    url = "https://puzz.link/p?numlin/100/100/1zzzz1"  # 42 bytes: a 9,600 x 9,600 picture at 96 px a cell
    assert main(["render", url, "--cell-px", "96", "-o", str(tmp_path / "x.png")]) == 3
    assert "over the memory budget of 1,024 MB (--memory-limit): draw it with a smaller --cell-px" in \
        capsys.readouterr().err
    assert not (tmp_path / "x.png").exists()
    assert main(["render", url, "--cell-px", "8", "-o", str(tmp_path / "x.png")]) == 0


def test_more_jobs_than_cores_run_one_worker_a_core_said_once(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr("os.cpu_count", lambda: 2)
    for i in range(4):
        (tmp_path / f"p{i}.txt").write_text(open(REGULAR).read())
    assert main(["solve", str(tmp_path), "--jobs", "10000", "--engine", "sat"]) == 0
    err = capsys.readouterr().err
    assert err.count("--jobs 10,000 is more than the 2 cores here: running 2 workers") == 1
    assert "(2 workers)" in err
