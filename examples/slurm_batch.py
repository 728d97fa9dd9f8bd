"""Solve puzzles on a SLURM cluster: the workers are SLURM jobs, this machine runs the batch.

    pip install 'flowgraph-solver[dask]' dask-jobqueue      # here and on every node (a shared venv will do)
    python examples/slurm_batch.py packs/ --out rows.jsonl  # then again with --resume after any stop

Each SLURM job runs ``flowgraph warm-up`` first (one build of the search per node: the others wait for it and
load it, so make it part of the node image where you can), then one single-threaded Dask worker per core.
Only each puzzle's text and its row travel; no shared file system is needed. The batch is
``flowgraph solve ... --scheduler ADDRESS``, so everything the README says of batches holds: rows stream to
``--out``, a worker lost is replaced and its tasks rerun, a lost scheduler stops the batch (exit status 7) and
``--resume`` finishes it.

Uses dask-jobqueue's :class:`~dask_jobqueue.SLURMCluster` (https://jobqueue.dask.org); for PBS, SGE, LSF or
HTCondor, change the class, the options are the same.
"""

from __future__ import annotations

import subprocess
import sys


def make_cluster(cores: int = 4, memory: str = "8GB", walltime: str = "02:00:00", **options):
    """A cluster of SLURM jobs of ``cores`` single-threaded workers each, the search built before they start.

    ``memory`` is the job's (each worker gets its share; a board of 250,000 cells needs about 8 GB,
    docs/limits.md); ``options`` go to :class:`~dask_jobqueue.SLURMCluster` (``queue``, ``account``, ...).
    """
    from dask_jobqueue import SLURMCluster

    return SLURMCluster(
        cores=cores,
        processes=cores,  # one thread a worker: a task holds the GIL while it solves
        memory=memory,
        walltime=walltime,
        job_script_prologue=["flowgraph warm-up"],  # the search's one-time build, once a node
        **options,
    )


def main(argv: list[str]) -> int:
    """``flowgraph solve ARGV --scheduler ADDRESS`` on ten SLURM jobs; its exit status."""
    with make_cluster() as cluster:
        cluster.scale(jobs=10)
        return subprocess.call([sys.executable, "-m", "flowgraph", "solve", *argv,
                                "--scheduler", cluster.scheduler_address])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
