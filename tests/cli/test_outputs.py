"""Every door of the CLI keeps its promise: outputs checked before work, inputs never overwritten, no traceback."""

from __future__ import annotations

import sys

import pytest

from flowgraph.cli import main
from tests.helpers import PUZZLES

BOARD = str(PUZZLES / "standard" / "regular_5x5.txt")

# Each command with an output that must be a file: given a folder, one line and exit status 2.
FILE_OUTPUTS = [
    ["solve", BOARD, "--out", "{dir}"],
    ["validate", BOARD, "--out", "{dir}"],
    ["bench", BOARD, "--json", "{dir}"],
    ["convert", BOARD, "-o", "{dir}"],
    ["new", "--size", "3x3", "-o", "{dir}"],
    ["generate", "--size", "4x4", "--json", "--out", "{dir}"],
]
# ... and with an output that must be a folder: given a file, the same.
FOLDER_OUTPUTS = [
    ["solve", BOARD, "--svg", "{file}"],
    ["solve", BOARD, "--png", "{file}"],
    ["generate", "--size", "4x4", "--count", "2", "-o", "{file}"],  # one puzzle: -o FILE is its file
]


@pytest.mark.parametrize("argv", FILE_OUTPUTS + FOLDER_OUTPUTS, ids=lambda a: " ".join(a[:1] + a[-2:-1]))
def test_a_wrong_kind_of_destination_is_one_line_and_status_2(argv, tmp_path, capsys):
    folder, file = tmp_path / "adir", tmp_path / "afile.txt"
    folder.mkdir()
    file.write_text("keep me")
    assert main([a.format(dir=folder, file=file) for a in argv]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert file.read_text() == "keep me"


@pytest.mark.parametrize("argv, made", [
    (["solve", BOARD, "--out", "{tmp}/a/b/rows.jsonl"], "a/b/rows.jsonl"),
    (["render", BOARD, "-o", "{tmp}/c/d.svg"], "c/d.svg"),
    (["convert", BOARD, "-o", "{tmp}/e/f.json"], "e/f.json"),
    (["new", "--size", "3x3", "-o", "{tmp}/g/h.txt"], "g/h.txt"),
    (["bench", BOARD, "--json", "{tmp}/i/j.json"], "i/j.json"),
    (["solve", BOARD, "--svg", "{tmp}/k/l"], "k/l/regular_5x5.svg"),
])
def test_missing_parent_folders_are_made(argv, made, tmp_path, capsys):
    assert main([a.format(tmp=tmp_path) for a in argv]) == 0
    assert (tmp_path / made).is_file()


def test_out_never_overwrites_an_input_or_a_file_that_holds_no_rows(tmp_path, capsys):
    folder = tmp_path / "boards"
    folder.mkdir()
    board = folder / "regular_5x5.txt"
    board.write_text((PUZZLES / "standard" / "regular_5x5.txt").read_text())
    before = board.read_text()
    assert main(["solve", "--out", str(board), "--resume", str(folder)]) == 2
    assert "is one of the inputs" in capsys.readouterr().err
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    assert main(["solve", "--out", str(notes), str(board)]) == 2
    assert "holds something other than rows" in capsys.readouterr().err
    assert board.read_text() == before and notes.read_text() == "my notes\n"
    rows = tmp_path / "rows.jsonl"
    assert main(["solve", "--json", "--out", str(rows), str(board)]) == 0
    assert main(["solve", "--json", "--out", str(rows), "--resume", str(board)]) == 0  # rows may be resumed


def test_a_bug_is_one_line_and_status_5_and_debug_shows_the_traceback(monkeypatch, capsys):
    from flowgraph.cli import solve

    def broken(args):
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(solve, "run", broken)
    assert main(["solve", BOARD]) == 5
    err = capsys.readouterr().err
    assert "internal error: ZeroDivisionError: a bug" in err and "Traceback" not in err
    assert main(["--debug", "solve", BOARD]) == 5
    assert "Traceback" in capsys.readouterr().err


@pytest.mark.parametrize("name, data", [
    ("bom.txt", b"\xef\xbb\xbfSTANDARD\nA-.-A\n"),
    ("bom.json", b'\xef\xbb\xbf{"nodes": [{"id": 1, "label": "A", "xy": [0, 0]}, {"id": 2, "label": "A", "xy": [1, 0]}],'
                 b' "links": [[1, 2]]}'),
    ("bom.pack", b"\xef\xbb\xbf3,0,7,2;0,1,2;3,4,5,8,7,6\n"),
    ("bom.grid", b"\xef\xbb\xbfA.A\n"),
])
def test_a_byte_order_mark_is_skipped_by_every_reader(name, data, tmp_path, capsys):
    path = tmp_path / name
    path.write_bytes(data)
    assert main(["solve", str(path)]) == 0, capsys.readouterr().err


def test_one_level_pack_converts_to_standard_output(tmp_path, capsys):
    pack = tmp_path / "one.pack"
    pack.write_text("3,0,7,2;0,1,2;3,4,5,8,7,6\n")
    assert main(["convert", str(pack)]) == 0
    assert capsys.readouterr().out.startswith("STANDARD\nA-.-A\n")


@pytest.mark.parametrize("line, words", [
    ("1000,0,1,2;0,1;2,3", "a level has 1 to 10,000 cells"),
    ("100000,0,1,2;0,1;2,3", "a level has 1 to 10,000 cells"),
    ("9" * 5000 + ",0,1,2;0,1;2,3", "a level has at most 10,000 cells"),
    ("600,0,7,2;0,1,2;3,4,5", "a level has 1 to 10,000 cells"),
])
def test_a_level_pack_size_is_bounded_before_anything_is_made(line, words, tmp_path, capsys):
    pack = tmp_path / "big.pack"
    pack.write_text(line + "\n")
    assert main(["validate", str(pack)]) == 3
    assert words in capsys.readouterr().out


def test_a_level_pack_reads_at_most_a_file_s_worth_of_cells(tmp_path, capsys):
    from flowgraph.io.level_pack import analyse_level_pack

    levels, problems = analyse_level_pack("10000:1,0,1,2;0,1;2,3\n" * 30, "many.pack")
    assert problems[-1].line == 21 and "more than 200,000 cells" in problems[-1].message
    assert len(problems) == 21


def test_a_folder_with_no_puzzle_files_says_so_and_the_batch_carries_on(tmp_path, capsys):
    (tmp_path / "notes.md").write_text("no puzzles here")
    regular = str(PUZZLES / "standard" / "regular_5x5.txt")
    assert main(["solve", str(tmp_path), regular, "--json"]) == 3  # issue 52: it stopped the whole batch
    out, err = capsys.readouterr()
    assert f"{tmp_path}:1:1: a folder with no puzzle files" in err and '"status": "solved"' in out


def test_a_folder_stands_for_its_puzzle_files_of_every_format(tmp_path, capsys):
    (tmp_path / "a.grid").write_text("A.A\nB.B\n")
    (tmp_path / "b.json").write_text('{"nodes": [{"id": 1, "label": "A", "xy": [0, 0]}, '
                                     '{"id": 2, "label": "A", "xy": [1, 0]}], "links": [[1, 2]]}')
    (tmp_path / "c.txt").write_text("STANDARD\nA-A\n")
    assert main(["solve", "--json", str(tmp_path)]) == 0
    assert capsys.readouterr().out.count('"status": "solved"') == 3


def test_a_bad_level_pack_line_is_reported_at_its_place_in_the_pack(tmp_path, capsys):
    pack = tmp_path / "my.pack"
    pack.write_text("3,0,1,2;0,1,2;3,4,5,8,7,6\n3,0,2,2;0,1,2;3,4,5,8,7,99\n")
    assert main(["solve", str(pack)]) == 3
    solve_err = capsys.readouterr().err
    assert main(["convert", str(pack), "-o", str(tmp_path / "levels")]) == 3
    convert_err = capsys.readouterr().err
    assert f"{pack}:2:15: pipe 2 must run over at least two cells of the board" in solve_err
    assert f"{pack}:2:15: pipe 2 must run over at least two cells of the board" in convert_err


def test_a_file_with_thousands_of_problems_prints_the_first_hundred(tmp_path, capsys):
    nodes = ",".join('{"id": %d}' % i for i in range(5000))
    path = tmp_path / "loose.json"
    path.write_text('{"nodes": [' + nodes + '], "links": []}')
    assert main(["validate", str(path)]) == 3
    out = capsys.readouterr().out
    assert out.count(": error: ") == 100 and "... and 4,901 more problems" in out


def test_the_first_search_run_says_it_compiles(tmp_path, monkeypatch, capsys):
    from flowgraph.kernels import cache

    monkeypatch.setattr(cache, "compiled", lambda ahead=False: False)  # as on a new machine (the real compile is cached)
    assert main(["solve", "--engine", "search", BOARD]) == 0
    err = capsys.readouterr().err
    assert "compiling the search engine, once for this machine" in err and "compiled in" in err


def test_warm_up_loads_every_engine(capsys):
    assert main(["warm-up"]) == 0
    err = capsys.readouterr().err
    assert all(f"{name}: ready in" in err for name in ("auto", "search", "sat"))
    assert "(its passes built ahead of time)" in err or "(its passes compiled just in time" in err


def test_ctrl_c_inside_a_finalizer_prints_no_traceback(capsys):
    import gc

    from flowgraph.cli.program import _quiet_interrupts

    class Interrupted:
        def __del__(self):
            raise KeyboardInterrupt  # as when Ctrl-C lands in python-sat's Solver.__del__

    old = sys.unraisablehook
    sys.unraisablehook = _quiet_interrupts
    try:
        Interrupted()
        gc.collect()
    finally:
        sys.unraisablehook = old
    assert "Traceback" not in capsys.readouterr().err


def test_out_never_overwrites_a_pack_whose_levels_are_the_inputs_even_under_a_folder_named_with_a_hash(tmp_path, capsys):
    folder = tmp_path / "week#2"  # PACK#N's syntax is the last '#': the folder's is part of the file's name
    folder.mkdir()
    pack = folder / "pack.txt"
    pack.write_text("5,0,1,2;0,1;2,3\n")
    before = pack.read_text()
    assert main(["solve", "--out", str(pack), f"{pack}#1"]) == 2
    assert "is one of the inputs" in capsys.readouterr().err and pack.read_text() == before
