"""Issue 52: the README's SLURM recipe (examples/slurm_batch.py) makes the job script it says, without SLURM."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

RECIPE = Path(__file__).resolve().parents[2] / "examples" / "slurm_batch.py"


def _recipe():
    spec = importlib.util.spec_from_file_location("slurm_batch", RECIPE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_each_slurm_job_builds_the_search_then_runs_one_single_threaded_worker_a_core():
    pytest.importorskip("dask_jobqueue")
    with _recipe().make_cluster(cores=4, queue="short") as cluster:  # a scheduler here; no job is submitted
        script = cluster.job_script()
    lines = script.splitlines()
    warm = lines.index("flowgraph warm-up")
    worker = next(i for i, line in enumerate(lines) if "dask_worker" in line)
    assert warm < worker and "#SBATCH -p short" in lines and "#SBATCH --cpus-per-task=4" in lines
    assert "--nthreads 1" in lines[worker] and "--nworkers 4" in lines[worker]


def test_the_recipe_runs_flowgraph_solve_on_the_cluster(monkeypatch):
    recipe = _recipe()
    calls = []

    class Cluster:
        scheduler_address = "tcp://10.0.0.5:8786"

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            calls.append("closed")

        def scale(self, jobs):
            calls.append(("scale", jobs))

    monkeypatch.setattr(recipe, "make_cluster", Cluster)
    monkeypatch.setattr(recipe.subprocess, "call", lambda argv: calls.append(argv) or 0)
    assert recipe.main(["packs/", "--out", "rows.jsonl"]) == 0
    assert calls == [("scale", 10), [sys.executable, "-m", "flowgraph", "solve", "packs/", "--out", "rows.jsonl",
                                     "--scheduler", "tcp://10.0.0.5:8786"], "closed"]
