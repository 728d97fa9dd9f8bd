"""The search's compiled passes never run stale code: an edit of any pass compiles them all again."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

import flowgraph

pytestmark = pytest.mark.compile  # each compiles passes in a copy of the package

PACKAGE = Path(flowgraph.__file__).resolve().parent

# Compiles one small pass in a copy of the package and reports where its cache went.
PROBE = """
import json, sys
from flowgraph.kernels import cache, common
assert common.popcount(0b1011) == 3
print(json.dumps({"dir": str(cache.cache_dir()), "files": sorted(p.name for p in cache.cache_dir().rglob("*.nb*"))}))
"""


def _probe(copy: Path, cache_root: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
    env.update(PYTHONPATH=str(copy), FLOWGRAPH_CACHE_DIR=str(cache_root))
    done = subprocess.run([sys.executable, "-c", PROBE], env=env, cwd=copy, capture_output=True, text=True,
                          check=True)
    return json.loads(done.stdout)


def test_an_edit_of_any_pass_moves_every_pass_to_a_new_cache(tmp_path):
    copy = tmp_path / "src"
    shutil.copytree(PACKAGE, copy / "flowgraph", ignore=shutil.ignore_patterns("__pycache__"))
    cache_root = tmp_path / "cache"

    first = _probe(copy, cache_root)
    assert Path(first["dir"]).parent == cache_root
    assert any(name.startswith("common.popcount") and name.endswith(".nbi") for name in first["files"])
    assert _probe(copy, cache_root) == first  # unchanged source: the same folder, loaded

    # A comment in another module than the one compiled: popcount must not load from the old folder.
    moves = copy / "flowgraph" / "kernels" / "moves.py"
    moves.write_text(moves.read_text() + "\n# an edit\n")
    second = _probe(copy, cache_root)
    assert second["dir"] != first["dir"]
    assert any(name.startswith("common.popcount") for name in second["files"])
    assert sorted(p.name for p in Path(first["dir"]).rglob("*.nb*")) == first["files"]


def test_the_installed_passes_cache_outside_the_source_tree():
    import numba

    from flowgraph.kernels import cache

    assert cache.cache_dir().name == f"search-passes-{cache.source_hash()}-numba{numba.__version__}"
    assert cache.aot_path().parent.name.startswith(f"search-passes-{cache.source_hash()}-aot-numpy")
    assert not list((PACKAGE / "kernels").glob("__pycache__/*.nbi"))


def test_a_build_prunes_only_other_sources_folders_unused_for_a_month(tmp_path, monkeypatch):
    from flowgraph.kernels import cache

    monkeypatch.setenv("FLOWGRAPH_CACHE_DIR", str(tmp_path))
    month = 31 * 86400

    def folder(name: str, age_s: float) -> Path:
        path = tmp_path / name
        path.mkdir()
        (path / "f.nbi").write_text("")
        when = time.time() - age_s
        os.utime(path / "f.nbi", (when, when))
        os.utime(path, (when, when))
        return path

    old = folder("search-passes-0123456789abcdef-numba0.1", month)
    recent = folder("search-passes-fedcba9876543210-aot-numpy1.0", 86400)
    mine = folder(cache.aot_path().parent.name, month)  # this source's: kept however old
    other = folder("something-else", month)
    (tmp_path / "search-passes-link").symlink_to(old)
    assert cache.prune() == [old]
    assert not old.exists() and recent.is_dir() and mine.is_dir() and other.is_dir()
    assert (tmp_path / "search-passes-link").is_symlink()
