"""Faults at random moments on a loopback Dask cluster: rows lost, duplicated or keyed wrong, each round.

    python bench/cluster_faults.py --rounds 3 --puzzles 20000     # about 5 minutes on 2 cores

Each round: a pack of ``--puzzles`` small levels (solved, unsolvable and invalid lines) is solved once on
the local pool (the reference rows); then on a ``distributed.LocalCluster`` of two worker processes the
client is killed (SIGKILL) at a random point, ``--resume`` is started and a worker is killed at a random
point, then the scheduler is closed at a random point (the batch stops, exit status 7), and a last
``--resume`` on a new cluster finishes. The rows are compared with the pool's key by key: a key missing
is a row lost, a key twice a duplicate, a row whose level, status or paths differ is keyed wrong.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

LEVELS = [
    "5,0,1,5;18,17,12;21,16,11,6;3,4,9;0,1,2,7,8,13,14,19,24,23,22;20,15,10,5",
    "5,0,2,4;24,19,18,17;12,13,14,9,4,3,2,1,0;8,7,6,5,10,15,20;11,16,21,22,23",
    "5,0,3,4;21,20,15,10,5,0,1,2,7;8,13,12,17,22,23,24;16,11,6;3,4,9,14,19,18",
    "5,0,1,2;0,1,2,3;4,9,8,7",  # no solution
    "5,0,1,2;0,1,99;3,4",  # invalid
]


def _lines(path: Path) -> int:
    try:
        return path.read_bytes().count(b"\n")
    except FileNotFoundError:
        return 0


def _client(pack: Path, out: Path, address: str, *extra: str) -> subprocess.Popen:
    # (standard error to a file: a pipe nobody reads fills with the invalid lines' messages and stops the client)
    with open(out.with_suffix(".err"), "ab") as err:
        return subprocess.Popen([sys.executable, "-m", "flowgraph", "solve", str(pack), "--scheduler", address,
                                 "--json", "--out", str(out), *extra], stdout=subprocess.DEVNULL, stderr=err)


def _until(out: Path, rows: int, proc: subprocess.Popen) -> bool:
    """Wait until ``out`` holds ``rows`` lines; False if the batch ended first."""
    while _lines(out) < rows:
        if proc.poll() is not None:
            return False
        time.sleep(0.02)
    return True


def one_round(folder: Path, puzzles: int, rng: random.Random) -> dict:
    from distributed import Client, LocalCluster

    pack = folder / "pack.txt"
    pack.write_text("".join(LEVELS[i % len(LEVELS)] + "\n" for i in range(puzzles)))
    pool, out = folder / "pool.jsonl", folder / "cluster.jsonl"
    subprocess.run([sys.executable, "-m", "flowgraph", "solve", str(pack), "--json", "--jobs", "2", "--out", str(pool)],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    at = sorted(rng.uniform(0.05, 0.9) for _ in range(3))
    said = {}

    def cluster() -> LocalCluster:
        return LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                            dashboard_address=None, silence_logs=50)

    first = cluster()
    try:
        with Client(first) as watcher:  # (closed now: a client left open over the lost scheduler hung its close)
            worker = next(iter(watcher.run(os.getpid).values()))
        proc = _client(pack, out, first.scheduler_address)
        _until(out, int(at[0] * puzzles), proc)
        proc.kill()
        proc.wait()
        proc = _client(pack, out, first.scheduler_address, "--resume")
        if _until(out, int(at[1] * puzzles), proc):
            os.kill(worker, signal.SIGKILL)
        _until(out, int(at[2] * puzzles), proc)
        first.sync(first.scheduler.close)
        proc.wait(timeout=300)
        said["lost"] = proc.returncode
    finally:
        with contextlib.suppress(Exception):
            first.close(timeout=20)
    with cluster() as second:
        proc = _client(pack, out, second.scheduler_address, "--resume")
        said["resumed"] = proc.wait(timeout=600)
    want = {r["key"]: r for r in map(json.loads, pool.read_text().splitlines())}
    got_rows = [json.loads(line) for line in out.read_text().splitlines()]
    got = {r["key"]: r for r in got_rows}

    def same(a: dict, b: dict) -> bool:
        return (a["puzzle"], a["status"], a.get("paths")) == (b["puzzle"], b["status"], b.get("paths"))

    return {"at": [round(a, 2) for a in at], "rows": len(got_rows), "lost": len(set(want) - set(got)),
            "duplicated": len(got_rows) - len(got), "keyed_wrong": sum(not same(got[k], want[k]) for k in got if k in want),
            "exit_lost": said["lost"], "exit_resumed": said["resumed"]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--puzzles", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=None)
    args = ap.parse_args(argv)
    import logging

    logging.getLogger("distributed").setLevel(logging.CRITICAL)  # (this process's cluster: its INFO lines)
    seed = args.seed if args.seed is not None else random.randrange(1_000_000)
    rng = random.Random(seed)
    print(f"seed {seed}; {args.puzzles:,} puzzles a round; {os.cpu_count()} cores")
    for k in range(args.rounds):
        with tempfile.TemporaryDirectory(prefix="flowgraph-faults-") as scratch:
            r = one_round(Path(scratch), args.puzzles, rng)
        print(f"round {k + 1}: faults at {r['at']} of the batch; rows {r['rows']:,}, lost {r['lost']}, duplicated "
              f"{r['duplicated']}, keyed wrong {r['keyed_wrong']}; exit {r['exit_lost']} when the scheduler went, "
              f"{r['exit_resumed']} resumed", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
