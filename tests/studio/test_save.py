"""Issue 71: the studio's Save cannot be raced, and FILE is held by its folder (``studio.file.HeldFile``).

A local user who can write in FILE's folder may swap names there at any moment: a symlink renamed over FILE
while a Save runs, the folder itself renamed and replaced by a symlink. Save writes a new file and renames it
into place, so it never writes through whatever stands at FILE; it writes in the folder opened at start.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import stat
import struct
import threading

import pytest

from flowgraph.studio.file import HeldFile
from tests.studio import studio_client

OLD = "STANDARD\nA-.-A\n"
NEW = "STANDARD\nA-A\n"


def _outside(tmp_path):
    """A file outside FILE's folder that a symlink will point at: Save must never write it."""
    victim = tmp_path / "elsewhere" / "victim.txt"
    victim.parent.mkdir()
    victim.write_text("not the studio's to write")
    return victim


def test_a_symlink_renamed_over_file_between_the_backup_and_the_write_is_replaced(tmp_path, monkeypatch):
    """The swap made deterministically between the two steps (FILE.bak written, FILE not yet): the symlink
    is replaced by the new file; its target is never written."""
    folder = tmp_path / "d"
    folder.mkdir()
    target = folder / "board.txt"
    target.write_text(OLD)
    victim = _outside(tmp_path)
    fifo = tmp_path / "elsewhere" / "fifo"
    os.mkfifo(fifo)
    real = HeldFile._replace

    def swapping(self, name, content, like):
        real(self, name, content, like)
        if name.endswith(".bak"):  # the attacker's move, at the worst moment
            for aim in (victim, fifo):
                link = folder / f"link-{aim.name}"
                link.symlink_to(aim)
                os.replace(link, target)

    monkeypatch.setattr(HeldFile, "_replace", swapping)
    client = studio_client(str(target))
    assert client.post("/api/save", json={"text": NEW}).status_code == 200
    assert not target.is_symlink() and target.read_text() == NEW
    assert (folder / "board.txt.bak").read_text() == OLD
    assert victim.read_text() == "not the studio's to write" and stat.S_ISFIFO(os.lstat(fifo).st_mode)


def _inotify_swapper(folder, target, aim, stop: threading.Event, swaps: list):
    """A real inotify watch on ``folder``: each time FILE.bak lands, a symlink to ``aim`` is renamed over FILE."""
    libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
    fd = libc.inotify_init1(os.O_NONBLOCK)
    if fd < 0:
        pytest.skip("no inotify here")
    libc.inotify_add_watch(fd, os.fsencode(folder), 0x00000080 | 0x00000100)  # IN_MOVED_TO | IN_CREATE
    import select

    try:
        while not stop.is_set():
            ready, _, _ = select.select([fd], [], [], 0.05)
            if not ready:
                continue
            data = os.read(fd, 65536)
            at = 0
            while at + 16 <= len(data):
                _, _, _, length = struct.unpack_from("iIII", data, at)
                name = data[at + 16: at + 16 + length].rstrip(b"\0")
                at += 16 + length
                if name == b"board.txt.bak":
                    link = folder / "swap"
                    try:
                        link.symlink_to(aim)
                        os.replace(link, target)
                        swaps.append(1)
                    except OSError:
                        pass
    finally:
        os.close(fd)


def test_a_real_inotify_watch_racing_save_never_gets_a_write_through_a_symlink(tmp_path):
    """The attack as reported: a watch renames a symlink to a FIFO outside the folder over FILE the moment
    FILE.bak lands (the old Save then opened the FIFO and wrote the text into it)."""
    folder = tmp_path / "d"
    folder.mkdir()
    target = folder / "board.txt"
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # someone listening: a write would not block
    stop, swaps = threading.Event(), []
    watcher = threading.Thread(target=_inotify_swapper, args=(folder, target, fifo, stop, swaps), daemon=True)
    watcher.start()
    client = studio_client(str(target))
    try:
        for k in range(30):
            if target.is_symlink() or not target.exists():
                target.unlink(missing_ok=True)
                target.write_text(OLD)
            reply = client.post("/api/save", json={"text": f"STANDARD\nA-A\n# {k}\n"})
            assert reply.status_code in (200, 409), reply.text
    finally:
        stop.set()
        watcher.join(5)
    try:
        leaked = os.read(reader, 65536)
    except BlockingIOError:
        leaked = b""
    os.close(reader)
    assert swaps, "the watch never swapped"
    assert leaked == b"", "Save wrote through the symlink into the FIFO"


def test_file_is_held_by_the_folder_opened_at_start(tmp_path):
    """``mv DIR DIR.moved; ln -s OTHER DIR`` after start: Save writes in DIR.moved, OTHER is untouched."""
    folder, other = tmp_path / "d", tmp_path / "other"
    folder.mkdir()
    other.mkdir()
    (folder / "board.txt").write_text(OLD)
    client = studio_client(str(folder / "board.txt"))
    os.rename(folder, tmp_path / "d.moved")
    folder.symlink_to(other)
    assert client.post("/api/save", json={"text": NEW}).status_code == 200
    assert list(other.iterdir()) == []
    assert (tmp_path / "d.moved" / "board.txt").read_text() == NEW
    assert (tmp_path / "d.moved" / "board.txt.bak").read_text() == OLD


@pytest.mark.parametrize("make, words", [
    (lambda target: os.chmod(target, 0o444), "read-only (mode 0444)"),
    (lambda target: os.link(target, target.with_name("other-name.txt")), "other name (hard link)"),
])
def test_a_read_only_or_hard_linked_file_is_not_saved_and_says_why(tmp_path, make, words):
    target = tmp_path / "board.txt"
    target.write_text(OLD)
    make(target)
    client = studio_client(str(target))
    reply = client.post("/api/save", json={"text": NEW})
    assert reply.status_code == 409 and words in reply.json()["error"], reply.text
    assert target.read_text() == OLD and not (tmp_path / "board.txt.bak").exists()


def test_a_file_named_with_bytes_not_utf8_is_read_and_saved_and_named_in_utf8(tmp_path):
    """GET /api/file answered 500, and POST /api/save wrote FILE and FILE.bak, then answered 500."""
    folder = os.fsencode(tmp_path)
    name = os.path.join(folder, b"board\xff.txt")
    with open(name, "w", encoding="utf-8") as f:
        f.write(OLD)
    client = studio_client(os.fsdecode(name), raise_server_exceptions=False)
    got = client.get("/api/file")
    assert got.status_code == 200 and got.json()["text"] == OLD and got.json()["path"].endswith("board\ufffd.txt")
    saved = client.post("/api/save", json={"text": NEW})
    assert saved.status_code == 200 and saved.json()["saved"].endswith("board\ufffd.txt"), saved.text
    with open(name, encoding="utf-8") as f:
        assert f.read() == NEW
    with open(name + b".bak", encoding="utf-8") as f:
        assert f.read() == OLD
