"""A batch of a million puzzles: the client's and the scheduler's peak memory, wall time, rows kept.

The puzzles are the corpus's small boards (its 5x5 square, hex and bridges levels and its ten
8x8 Flow Free levels), written as level-pack lines and repeated under distinct names
(``pack_K.txt#N``) into packs of ``--per-pack`` levels. Each run is a separate
``flowgraph solve PACKS/ --json --out ROWS`` process, sampled every 0.2 s for its peak resident
memory (``VmHWM``, this process only, not its workers); with ``--dask`` a loopback cluster
(``dask scheduler`` and two ``dask worker --nthreads 1``) runs the same batch and the scheduler's
peak is sampled too. Every run's rows are checked: one per puzzle, no key twice, the same
status per key as the pool run.

    python bench/batch_scale.py --puzzles 1000000 --dask     # about 25 minutes on 2 cores
    python bench/batch_scale.py --puzzles 100000 --flowgraph /tmp/before   # another checkout

Reads ``../shared/corpus`` (or ``FLOWGRAPH_CORPUS``); writes only under ``--work`` (default: a
temporary folder, removed at the end).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

CORPUS = Path(os.environ.get("FLOWGRAPH_CORPUS", Path(__file__).resolve().parents[2] / "shared" / "corpus"))
SOURCES = ["samgoldman/standard/Regular5x5_1.txt", "samgoldman/hex/Classic5x5_1.txt",
           "samgoldman/hex/Classic5x5_8.txt", "samgoldman/bridges/Starter5x5_1.txt",
           *(f"numberlink/inputs1_{k:03d}_8x8.txt" for k in range(1, 11))]


def level_lines(flowgraph: str | None) -> list[str]:
    """One level-pack line per source board that a level pack can hold."""
    lines = []
    for rel in SOURCES:
        proc = subprocess.run([sys.executable, "-m", "flowgraph", "convert", str(CORPUS / rel), "--to", "level-pack"],
                              capture_output=True, text=True, env=_env(flowgraph))
        if proc.returncode == 0 and proc.stdout.strip():
            lines.append(proc.stdout.strip().splitlines()[-1])
    return lines


def write_packs(folder: Path, lines: list[str], puzzles: int, per_pack: int) -> int:
    """``puzzles`` level lines, in packs of ``per_pack``; returns the number of packs."""
    folder.mkdir(parents=True, exist_ok=True)
    packs = (puzzles + per_pack - 1) // per_pack
    for k in range(packs):
        n = min(per_pack, puzzles - k * per_pack)
        start = k * per_pack
        (folder / f"pack_{k}.txt").write_text("".join(lines[(start + i) % len(lines)] + "\n" for i in range(n)))
    return packs


def _env(flowgraph: str | None) -> dict:
    env = dict(os.environ)
    if flowgraph:
        env["PYTHONPATH"] = flowgraph
    return env


def _cpu_s(pid: int) -> float:
    """CPU seconds (user and system) of a process and every process below it, as far as they are alive."""
    total = 0.0
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        for task in Path(f"/proc/{pid}/task").iterdir():
            for child in (task / "children").read_text().split():
                total += _cpu_s(int(child))
    except (OSError, IndexError, ValueError):
        pass
    return total


def _peak_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


class Sampler(threading.Thread):
    """The peak ``VmHWM`` of some processes, read every 0.2 s until stopped (a process's last value stays)."""

    def __init__(self, pids: dict[str, int], cpu: dict[str, int]):
        super().__init__(daemon=True)
        self.pids, self.peaks, self.stopped = pids, {name: 0.0 for name in pids}, threading.Event()
        self.cpu_pids, self.cpu = cpu, {name: 0.0 for name in cpu}

    def run(self) -> None:
        while not self.stopped.wait(0.2):
            for name, pid in self.pids.items():
                self.peaks[name] = max(self.peaks[name], _peak_mb(pid))
            for name, pid in self.cpu_pids.items():  # (a process's children count while they live)
                self.cpu[name] = max(self.cpu[name], _cpu_s(pid))


def run_solve(packs: Path, rows: Path, extra: list[str], flowgraph: str | None, watch: dict[str, int],
              cpu: dict[str, int] | None = None) -> dict:
    """One ``flowgraph solve`` of the packs: wall seconds, exit status, peaks (MB) of it and of ``watch``, CPU
    seconds of it (its pool workers too) and of ``cpu``."""
    cmd = [sys.executable, "-m", "flowgraph", "solve", str(packs), "--json", "--out", str(rows), *extra]
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=_env(flowgraph))
    sampler = Sampler({"client": proc.pid, **watch}, {"client": proc.pid, **(cpu or {})})
    sampler.start()
    _, err = proc.communicate()
    wall = time.perf_counter() - t0
    sampler.stopped.set()
    sampler.join()
    return {"wall_s": round(wall, 1), "exit": proc.returncode, "stderr": err.decode()[-300:],
            **{f"{k}_peak_mb": round(v) for k, v in sampler.peaks.items()},
            **{f"{k}_cpu_s": round(v) for k, v in sampler.cpu.items()}}


def check_rows(rows: Path) -> tuple[int, int, dict[str, str]]:
    """Rows, distinct keys, and each key's status."""
    status: dict[str, str] = {}
    n = 0
    with open(rows, encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            n += 1
            status[row["key"]] = row["status"]
    return n, len(status), status


def start_cluster(flowgraph: str | None, port: int = 8799) -> tuple[list[subprocess.Popen], str]:
    address = f"tcp://127.0.0.1:{port}"
    env = _env(flowgraph)
    procs = [subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
                               "--port", str(port), "--dashboard-address", ":0"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)]
    time.sleep(3)
    for _ in range(2):
        procs.append(subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", address, "--nthreads", "1",
                                       "--nworkers", "1", "--no-dashboard"],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env))
    time.sleep(5)
    return procs, address


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--puzzles", type=int, default=1_000_000)
    ap.add_argument("--per-pack", type=int, default=10_000)
    ap.add_argument("--dask", action="store_true", help="also run on a loopback Dask cluster of two workers")
    ap.add_argument("--no-pool", action="store_true", help="with --dask: the Dask run only")
    ap.add_argument("--flowgraph", help="a checkout to run instead of the installed flowgraph (its PYTHONPATH)")
    ap.add_argument("--work", help="folder for the packs and rows (default: a temporary one, removed)")
    args = ap.parse_args(argv)
    if not CORPUS.is_dir():
        print(f"no corpus at {CORPUS}: set FLOWGRAPH_CORPUS", file=sys.stderr)
        return 0
    work = Path(args.work) if args.work else Path(tempfile.mkdtemp(prefix="flowgraph-scale-"))
    try:
        lines = level_lines(args.flowgraph)
        packs = write_packs(work / "packs", lines, args.puzzles, args.per_pack)
        print(f"{args.puzzles:,} puzzles ({len(lines)} boards repeated) in {packs} packs; "
              f"{os.cpu_count()} cores; python {sys.version.split()[0]}")
        results = {}
        want: dict[str, str] = {}
        if not (args.no_pool and args.dask):
            pool = run_solve(work / "packs", work / "pool.jsonl", ["--jobs", "2"], args.flowgraph, {})
            results["pool"] = pool
            n, keys, want = check_rows(work / "pool.jsonl")
            pool.update(rows=n, keys=keys)
        if args.dask:
            procs, address = start_cluster(args.flowgraph)
            try:
                run = run_solve(work / "packs", work / "dask.jsonl", ["--scheduler", address], args.flowgraph,
                                {"scheduler": procs[0].pid},
                                {"scheduler": procs[0].pid, **{f"worker{k}": p.pid for k, p in enumerate(procs[1:])}})
            finally:
                for p in procs[::-1]:
                    p.send_signal(signal.SIGINT)
                for p in procs:
                    try:
                        p.wait(10)
                    except subprocess.TimeoutExpired:
                        p.kill()
            n, keys, got = check_rows(work / "dask.jsonl")
            run.update(rows=n, keys=keys)
            if want:
                run["differ"] = sum(got.get(k) != s for k, s in want.items())
            results["dask"] = run
        for name, r in results.items():
            print(f"{name:5} {r['wall_s']:8.1f} s  {args.puzzles / r['wall_s']:8.0f} puzzles/s  client peak "
                  f"{r.get('client_peak_mb', 0):5} MB" + (f"  scheduler peak {r['scheduler_peak_mb']} MB"
                                                          if 'scheduler_peak_mb' in r else "")
                  + f"  rows {r['rows']:,}  keys {r['keys']:,}" + (f"  differ {r['differ']}" if "differ" in r else "")
                  + f"  exit {r['exit']}")
            if r["exit"]:
                print("   ", r["stderr"].strip().replace("\n", "\n    "))
        print(json.dumps({name: {k: v for k, v in r.items() if k != "stderr"} for name, r in results.items()}))
    finally:
        if not args.work:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
