"""Every path is checked before it is read: a regular file under its size cap, else one line and the reader's status.

Each case was a reproducer of issue 33 (a FIFO hung, /dev/zero grew to 9 GB, a 2 GB sparse file was read
whole): every door that reads a puzzle, a mask, a picture or a rows file goes through
:func:`flowgraph.io.files.read_bounded`.
"""

from __future__ import annotations

import io
import os
import sys
import threading
from pathlib import Path

import pytest

from flowgraph.cli import main
from flowgraph.io.files import MAX_BYTES, ReadError, describe_size, load, read_bounded
from tests.helpers import PUZZLES

OK = PUZZLES / "standard" / "open_field_8x8.txt"


def _main(argv: list[str], timeout_s: float = 60.0) -> int:
    """``main(argv)`` in a thread: a read that blocks fails the test instead of hanging the suite."""
    result: list[int] = []
    worker = threading.Thread(target=lambda: result.append(main(argv)), daemon=True)
    worker.start()
    worker.join(timeout_s)
    assert not worker.is_alive(), f"flowgraph {' '.join(argv)} still running after {timeout_s} s"
    return result[0]


@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "fifo.txt"
    os.mkfifo(path)
    return path


@pytest.fixture
def sparse(tmp_path):
    path = tmp_path / "huge.txt"
    with open(path, "wb") as fh:
        fh.truncate(2_000_000_000)  # 2 GB of holes: no disk used, and never read
    return path


def test_read_bounded_refuses_other_kinds_and_sizes(tmp_path, fifo, sparse):
    with pytest.raises(ReadError, match=r"not a regular file \(a FIFO\)"):
        read_bounded(fifo)
    with pytest.raises(ReadError, match=r"not a regular file \(a character device\)"):
        read_bounded("/dev/zero")
    with pytest.raises(ReadError, match=r"not a regular file \(a folder\)"):
        read_bounded(tmp_path)
    with pytest.raises(ReadError, match=r"^\[Errno 27\] 2 GB is over the 4 MB limit"):
        read_bounded(sparse)
    link = tmp_path / "link.txt"
    link.symlink_to(OK)
    assert read_bounded(link) == OK.read_bytes()
    with pytest.raises(OSError):
        read_bounded(link, follow_symlinks=False)


def test_a_file_that_grows_after_the_check_stays_bounded(tmp_path, monkeypatch):
    path = tmp_path / "grows.txt"
    path.write_bytes(b"x" * 100)
    real_fstat = os.fstat

    def fstat_before_growth(fd):  # the size seen at the check; then the file is far larger
        info = real_fstat(fd)
        path.write_bytes(b"x" * 5000)
        return info

    monkeypatch.setattr(os, "fstat", fstat_before_growth)
    with pytest.raises(ReadError, match="over the limit"):
        read_bounded(path, limit=1000)


@pytest.mark.parametrize("size, words", [(512, "512 bytes"), (4_000_000, "4 MB"), (2_147_483_648, "2.1 GB")])
def test_sizes_are_said_as_a_person_reads_them(size, words):
    assert describe_size(size) == words


def test_load_says_why_in_one_problem(fifo, sparse):
    for path, words in ((fifo, "not a regular file (a FIFO)"), (sparse, "2 GB is over the 4 MB limit"),
                        ("/dev/zero", "not a regular file (a character device)")):
        puzzle, problems = load(path)
        assert puzzle is None and [(p.line, p.column) for p in problems] == [(1, 1)]
        assert problems[0].message == f"cannot read file: {words}"


@pytest.mark.parametrize("command", [
    ["solve"], ["validate"], ["bench", "--jobs", "1"], ["convert", "--to", "plain-grid"], ["render"],
])
@pytest.mark.parametrize("door", ["fifo", "dev_zero", "sparse"])
def test_every_reading_command_answers_at_once(command, door, fifo, sparse, capsys, tmp_path):
    path = {"fifo": str(fifo), "dev_zero": "/dev/zero", "sparse": str(sparse)}[door]
    argv = command[:1] + [path] + command[1:]
    if command[0] == "render":
        argv += ["-o", str(tmp_path / "out.svg")]
    status = _main(argv)
    out, err = capsys.readouterr()
    err += out  # validate prints its verdicts to standard output
    assert status == 3, err
    said = "invalid" if command[0] == "bench" else ("regular file", "over the 4 MB limit")[door == "sparse"]
    assert said in err and "Traceback" not in err


def test_a_batch_carries_on_past_a_fifo(fifo, capsys):
    assert _main(["solve", str(fifo), str(OK)]) == 3
    out, err = capsys.readouterr()
    assert f"{fifo}:1:1: cannot read file: not a regular file (a FIFO)" in err
    assert "solved" in err or "A" in out  # the good file is still solved


@pytest.mark.parametrize("option", ["--mask"])
@pytest.mark.parametrize("command", [["new"], ["generate", "--count", "1", "--seed", "1"]])
def test_masks_are_bounded_too(command, option, fifo, capsys):
    assert _main(command + [option, str(fifo)]) == 3
    assert "not a regular file (a FIFO)" in capsys.readouterr().err


def test_scan_refuses_a_fifo_and_a_device(fifo, capsys):
    pytest.importorskip("cv2")
    for path in (str(fifo), "/dev/zero"):
        assert _main(["scan", path]) == 3
        assert "not a regular file" in capsys.readouterr().err


def test_standard_input_is_read_to_the_limit_only(monkeypatch, capsys):
    class Endless(io.RawIOBase):
        """An input that never ends (like /dev/zero piped in); counts what was read."""
        read_bytes = 0

        def readable(self):
            return True

        def readinto(self, buffer):
            Endless.read_bytes += len(buffer)
            buffer[:] = b"." * len(buffer)
            return len(buffer)

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BufferedReader(Endless())))
    assert _main(["solve", "-"]) == 3
    assert "over the 4 MB limit" in capsys.readouterr().err
    assert Endless.read_bytes <= MAX_BYTES + 2 * (1 << 20)


def test_out_on_a_device_is_never_read(tmp_path, capsys):
    # the "does it already hold rows" check once read /dev/full to the end (9 GB); a device is not read now
    status = _main(["solve", str(OK), "--out", "/dev/null"])
    assert status == 0, capsys.readouterr().err


def test_resume_rows_from_a_device_are_none(tmp_path):
    from flowgraph.batch.runner import read_rows

    assert read_rows(Path("/dev/zero")) == {}
