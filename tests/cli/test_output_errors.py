"""An output that cannot be written is one line naming it and status 6, and nothing half-written is left.

Issue 33's reproducers: ``convert -o /dev/full``, ``new -o /dev/full``, ``solve > /dev/full`` and writes to a
read-only mount were exit 5 "internal error" after all the work; ``--out /dev/null`` became a regular file.
"""

from __future__ import annotations

import errno
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from flowgraph.cli import EXIT, main
from flowgraph.io.files import WriteError, write_atomic
from tests.helpers import PUZZLES

P = str(PUZZLES / "standard" / "regular_5x5.txt")
FULL = "/dev/full"
needs_full = pytest.mark.skipif(not os.path.exists(FULL), reason="no /dev/full on this system")


def test_the_output_status_is_documented():
    assert EXIT["output"] == 6 and EXIT["error"] == 5


@needs_full
@pytest.mark.parametrize("argv", [
    ["convert", P, "--to", "plain-grid", "-o", FULL],
    ["new", "--size", "3x3", "-o", FULL],
    ["solve", P, "--out", FULL],
    ["generate", "--size", "4x4", "--seed", "1", "-o", FULL, "--to", "level-pack"],
])
def test_a_full_device_is_one_line_and_status_6(argv, capsys):
    assert main(argv) == 6
    err = capsys.readouterr().err
    assert f"cannot write {FULL}: No space left on device" in err and "internal error" not in err


@needs_full
@pytest.mark.parametrize("argv", [["solve", P], ["convert", P, "--to", "plain-grid"], ["new", "--size", "3x3"]])
def test_a_full_standard_output_is_one_line_and_status_6(argv):
    with open(FULL, "wb") as full:
        done = subprocess.run([sys.executable, "-m", "flowgraph", *argv], stdout=full, stderr=subprocess.PIPE,
                              text=True, timeout=120)
    assert done.returncode == 6, done.stderr
    assert "cannot write standard output: No space left on device" in done.stderr
    assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path, monkeypatch):
    target = tmp_path / "board.txt"
    target.write_text("the old board")
    target.chmod(0o640)

    def disk_full(src, dst):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "replace", disk_full)
    with pytest.raises(WriteError, match=f"cannot write {target}: No space left on device"):
        write_atomic(target, "the new board")
    monkeypatch.undo()
    assert target.read_text() == "the old board" and sorted(tmp_path.iterdir()) == [target]
    write_atomic(target, "the new board")
    assert target.read_text() == "the new board" and stat.S_IMODE(os.stat(target).st_mode) == 0o640


def test_a_cli_write_that_fails_midway_is_status_6_and_leaves_nothing(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(os, "replace", lambda src, dst: (_ for _ in ()).throw(OSError(errno.EROFS, "Read-only file system")))
    out = tmp_path / "board.svg"
    assert main(["render", P, "-o", str(out)]) == 6
    assert f"cannot write {out}: Read-only file system" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_out_on_a_device_is_written_in_place_never_replaced(monkeypatch, capsys):
    replaced = []
    real = os.replace
    monkeypatch.setattr(os, "replace", lambda src, dst: replaced.append(str(dst)) or real(src, dst))
    assert main(["solve", P, "--out", os.devnull]) == 0, capsys.readouterr().err
    assert os.devnull not in replaced
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)


def test_a_read_only_folder_is_status_6(tmp_path, capsys):
    folder = tmp_path / "ro"
    folder.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "ro,size=64k", "tmpfs", str(folder)],
                             capture_output=True).returncode == 0
    if not mounted:
        folder.chmod(0o555)
        if os.access(folder, os.W_OK):
            pytest.skip("cannot make a read-only folder here (root without mount)")
    try:
        assert main(["render", P, "-o", str(folder / "x.svg")]) == 6
        assert main(["convert", P, "--to", "plain-grid", "-o", str(folder / "x.grid")]) == 6
        err = capsys.readouterr().err
        assert err.count("cannot write") == 2 and "internal error" not in err
    finally:
        if mounted:
            subprocess.run(["umount", str(folder)], check=False)
        folder.chmod(0o755)
    assert not list(Path(folder).iterdir())


def test_ctrl_c_while_the_libraries_load_is_one_line_and_130():
    """Issue 33: Ctrl-C in the first ~0.6 s printed a traceback (the interrupt landed in an import)."""
    code = ("import sys, builtins\n"
            "real = builtins.__import__\n"
            "def interrupting(name, *args, **kwargs):\n"
            "    if name == 'lark':\n"
            "        raise KeyboardInterrupt\n"
            "    return real(name, *args, **kwargs)\n"
            "builtins.__import__ = interrupting\n"
            "sys.argv = ['flowgraph', 'solve', sys.argv[1]]\n"
            "from flowgraph.cli import run\n"
            "run()\n")
    done = subprocess.run([sys.executable, "-c", code, P], capture_output=True, text=True, timeout=60)
    assert done.returncode == 130 and done.stderr == "interrupted\n", done.stderr


@pytest.mark.parametrize("family", ["standard", "bridges", "warps", "hex"])
def test_solving_a_board_never_imports_networkx(family):
    """Issue 56: a third of the start; the engines, the checks, the verifier and the text read the numbering."""
    done = _in_a_process("solve", sorted((PUZZLES / family).glob("*.txt"))[0])
    assert done.stdout.splitlines()[-1] == "False 0"


def _in_a_process(*args) -> subprocess.CompletedProcess:
    """``flowgraph ARGS`` in a new process, which prints whether networkx was loaded and the exit status."""
    code = ("import sys\n"
            "from flowgraph.cli import main\n"
            f"status = main({[str(a) for a in args]!r})\n"
            "print('networkx' in sys.modules, status)\n")
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)


def test_validating_a_board_imports_no_networkx():
    """validate loads the uniqueness module (for --unique), whose path moves import networkx only when they run."""
    done = _in_a_process("validate", sorted((PUZZLES / "standard").glob("*.txt"))[0])
    assert done.stdout.splitlines()[-1] == "False 0"


@pytest.mark.parametrize("family", ["standard", "bridges", "warps", "hex"])
@pytest.mark.parametrize("command", [["render", "-o", "{out}.png"], ["render", "-o", "{out}.svg"],
                                     ["convert", "--to", "json-graph", "-o", "{out}.json"],
                                     ["convert", "--to", "neighbor-link", "-o", "{out}.txt"]])
def test_drawing_and_converting_a_board_import_no_networkx(tmp_path, family, command):
    """render and convert read the board's dicts (``Puzzle.board``) and places (``Puzzle.places``): no graph is built."""
    board = sorted((PUZZLES / family).glob("*.txt"))[0]
    args = [command[0], str(board), *(a.format(out=tmp_path / "out") for a in command[1:])]
    done = _in_a_process(*args)
    assert done.stdout.splitlines()[-1] == "False 0", done.stderr
    assert any(tmp_path.iterdir())


@pytest.mark.parametrize("command", [["explain"], ["rate"], ["validate", "--unique"]])
def test_explaining_rating_and_counting_a_square_board_import_no_networkx(command):
    """The link search lays a board out from its numbering; only a board whose warps the reader left unsaid
    (not this one) has its graph built to read them. (Under Numberlink rules a second solution's path moves
    use networkx's algorithms, imported when they run.)"""
    done = _in_a_process(*command, PUZZLES / "standard" / "heart_9x7.txt")
    assert done.stdout.splitlines()[-1] == "False 0", done.stderr


def test_solving_under_other_rules_keeps_the_numbering_and_imports_no_networkx():
    """Puzzle.with_rules keeps the reader's numbering (the same graph): the SAT model reads it, not the graph."""
    done = _in_a_process("solve", "--rules", "numberlink", sorted((PUZZLES / "standard").glob("*.txt"))[0])
    assert done.stdout.splitlines()[-1] == "False 0"


@pytest.mark.parametrize("text", ["WARPS\n.-.\n", '{"nodes": [{"id": 1, "xy": [0, 0]}, {"id": 2, "xy": [1, 0]}], '
                                  '"links": [[1, 2]]}'])
def test_a_board_with_no_flows_is_refused_without_networkx(tmp_path, text):
    """Nothing to say of the parts of a board with no endpoints: its graph is not built (a blank template)."""
    board = tmp_path / ("blank.json" if text.startswith("{") else "blank.txt")
    board.write_text(text)
    done = _in_a_process("solve", board)
    assert done.stdout.splitlines()[-1] == "False 3"
    assert "the board has no flows" in done.stderr


def test_import_flowgraph_loads_no_library():
    code = ("import sys, flowgraph, flowgraph.cli; "
            "print(sorted(m for m in ('networkx', 'lark', 'rich', 'numpy') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    assert done.stdout.strip() == "[]"
