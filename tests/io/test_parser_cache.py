"""The grammar's parser tables are cached where only this user writes, and loaded only from there.

lark's own ``cache=True`` pickles the tables into the shared temporary folder under a name anyone can
work out (user, grammar hash, Python version) and unpickles whatever file holds that name: another user
could plant one that runs a command on the next parse. The tables now live in flowgraph's cache root,
loaded through :func:`flowgraph.caches.open_trusted`.
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from flowgraph import caches

OTHER_UID = 4242

# Parses a bundled board in a new process; prints where the tables are kept.
PARSE_ONE = """
from flowgraph.io import neighbor_link
puzzle = neighbor_link.parse_text("STANDARD\\nA-.-A\\n")
assert len(puzzle.flows) == 1
root = neighbor_link.cache_root()
print(next(iter(root.glob("grammar-*.lark-tables")), ""))
"""


class _Payload:
    """Unpickling it runs a shell command: what a planted cache file can do."""

    def __init__(self, command: str):
        self.command = command

    def __reduce__(self):
        return (os.system, (self.command,))


def _parse(root: Path, tmp: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "FLOWGRAPH_CACHE_DIR": str(root), "TMPDIR": str(tmp)}
    return subprocess.run([sys.executable, "-c", PARSE_ONE], env=env, capture_output=True, text=True, timeout=120)


def _tables_path(root: Path, tmp: Path) -> Path:
    done = _parse(root, tmp)
    assert done.returncode == 0, done.stderr
    return Path(done.stdout.strip())


def test_the_tables_are_cached_privately_and_never_in_the_temporary_folder(tmp_path):
    root, tmp = tmp_path / "cache", tmp_path / "tmp"
    tmp.mkdir()
    path = _tables_path(root, tmp)
    assert path.parent == root and path.is_file()
    assert os.stat(path).st_mode & 0o777 == 0o600
    assert list(tmp.iterdir()) == []  # nothing of lark's in the temporary folder
    assert _tables_path(root, tmp) == path  # the second run loads them


@pytest.mark.parametrize("how", ["writable by others", "another user's", "a symlink", "a FIFO"])
def test_a_planted_table_file_is_never_loaded(tmp_path, how):
    root, tmp = tmp_path / "cache", tmp_path / "tmp"
    tmp.mkdir()
    path = _tables_path(root, tmp)
    marker = tmp_path / "payload-ran"
    planted = pickle.dumps(_Payload(f"touch {marker}"))
    path.unlink()
    if how == "a FIFO":  # opening it for reading would wait for a writer forever
        if not hasattr(os, "mkfifo"):
            pytest.skip("no FIFOs here")
        os.mkfifo(path)
    elif how == "a symlink":
        elsewhere = tmp_path / "elsewhere.pickle"
        elsewhere.write_bytes(planted)
        path.symlink_to(elsewhere)
    else:
        path.write_bytes(planted)
        path.chmod(0o666)
        if how == "another user's":
            path.chmod(0o644)
            try:
                os.chown(path, OTHER_UID, OTHER_UID)
            except PermissionError:
                pytest.skip("needs root to give a file to another user")
    done = _parse(root, tmp)
    assert done.returncode == 0, done.stderr
    assert not marker.exists()


def test_a_damaged_table_file_is_built_again(tmp_path):
    root, tmp = tmp_path / "cache", tmp_path / "tmp"
    tmp.mkdir()
    path = _tables_path(root, tmp)
    path.write_bytes(b"not a pickle")
    assert _tables_path(root, tmp) == path
    done = _parse(root, tmp)
    assert done.returncode == 0 and done.stderr == ""


def test_an_unwritable_cache_only_costs_the_build(tmp_path):
    root = tmp_path / "cache"
    root.mkdir(mode=0o500)
    if os.access(root, os.W_OK):
        pytest.skip("root writes anywhere")
    done = _parse(root, tmp_path)
    assert done.returncode == 0, done.stderr


def test_write_private_leaves_nothing_behind_when_the_write_fails(tmp_path):
    def fails(file):
        file.write(b"half")
        raise OSError(28, "No space left on device")

    assert not caches.write_private(tmp_path / "sub" / "tables", fails)
    assert list((tmp_path / "sub").iterdir()) == []
    assert caches.write_private(tmp_path / "sub" / "tables", lambda f: f.write(b"whole"))
    assert (tmp_path / "sub" / "tables").read_bytes() == b"whole"
    assert caches.open_trusted(tmp_path / "sub" / "tables").read() == b"whole"
    assert caches.open_trusted(tmp_path / "sub" / "absent") is None
