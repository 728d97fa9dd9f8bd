"""bench/go_side_by_side.py: the side-by-side runs and says what it could not time."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.helpers import CORPUS, ROOT

SCRIPT = ROOT / "bench" / "go_side_by_side.py"


@pytest.mark.slow
@pytest.mark.skipif(not (CORPUS / "numberlink").is_dir(), reason=f"corpus absent: {CORPUS}")
def test_without_go_only_flowgraph_is_timed_and_said_so(tmp_path):
    done = subprocess.run([sys.executable, str(SCRIPT), "--sets", "inputs1", "--runs", "1"], capture_output=True,
                          text=True, env={**os.environ, "FLOWGRAPH_CORPUS": str(CORPUS)}, cwd=tmp_path, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "no --go-src: only flowgraph is timed" in done.stderr
    row = next(line for line in done.stdout.splitlines() if line.startswith("inputs1"))
    assert row.split()[1] == str(len(list((CORPUS / "numberlink").glob("inputs1_*.txt"))))


def test_a_folder_that_is_not_the_go_solver_is_said_and_not_built(tmp_path):
    from importlib.util import module_from_spec, spec_from_file_location

    spec = spec_from_file_location("go_side_by_side", SCRIPT)
    module = module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.build_go(tmp_path, tmp_path / "work") is None
