"""The corpus's numberlink sets side by side: ``flowgraph bench --engine search --jobs 1`` against T. Ahle's Go solver.

thomasahle/numberlink (github, Go, no dependencies; its README's way of building it) solves the
boards of a set file read from its standard input. This script builds it from a source folder you
give (``GOPATH=COPY GO111MODULE=off go install numberlink`` in a temporary copy, its build cache
there too), then times, run after run on the same machine:

- Go: the whole process ``bin/numberlink < puzzles/SET`` (its own parser included);
- flowgraph: ``flowgraph bench CORPUS/numberlink/SET_* --engine search --jobs 1 --json OUT``,
  its own wall line (read, solve and verify of every board, the engine loaded before the first)
  and the whole process.

and prints one row per set: the minimum and median of each, the ratio of flowgraph's wall to Go's
process, Go's recursive calls (``-calls-only``) and flowgraph's search states. The corpus's
``numberlink/SET_NNN_WxH.txt`` files are the boards of the Go repository's ``puzzles/SET``, one a file
(the counts are checked).

Usage::

    python bench/go_side_by_side.py --go-src PATH [--sets janko inputs9 inputs10] [--runs 3]

Without Go, or without ``--go-src``, only flowgraph is timed (said once). The corpus is
``FLOWGRAPH_CORPUS``, else ``../shared/corpus``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def corpus() -> Path:
    return Path(os.environ.get("FLOWGRAPH_CORPUS", Path(__file__).resolve().parents[2] / "shared" / "corpus"))


def build_go(src: Path, work: Path) -> Path | None:
    """The numberlink binary built from ``src`` in ``work``, or None (the reason printed)."""
    if shutil.which("go") is None:
        print("go not found: the Go solver is not timed", file=sys.stderr)
        return None
    if not (src / "src" / "numberlink").is_dir() or not (src / "puzzles").is_dir():
        print(f"{src} is no checkout of thomasahle/numberlink (no src/numberlink or puzzles/)", file=sys.stderr)
        return None
    copy = work / "numberlink"
    shutil.copytree(src / "src", copy / "src")
    env = {**os.environ, "GOPATH": str(copy), "GO111MODULE": "off", "GOCACHE": str(work / "gocache"),
           "GOFLAGS": ""}
    done = subprocess.run(["go", "install", "numberlink"], cwd=copy, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        print(f"the Go solver did not build: {done.stderr.strip().splitlines()[-1:]}", file=sys.stderr)
        return None
    return copy / "bin" / "numberlink"


def go_boards(text: str) -> int:
    """How many boards a Go set file holds (a ``W H`` line starts each)."""
    return len(re.findall(r"(?m)^\d+ \d+\s*$", text))


def time_go(binary: Path, set_file: Path) -> float:
    with set_file.open("rb") as stdin:
        t0 = time.perf_counter()
        subprocess.run([str(binary)], stdin=stdin, stdout=subprocess.DEVNULL, check=True)
        return time.perf_counter() - t0


def go_calls(binary: Path, set_file: Path) -> int | None:
    with set_file.open("rb") as stdin:
        out = subprocess.run([str(binary), "-calls-only"], stdin=stdin, capture_output=True, text=True).stdout
    m = re.search(r"Called (\d+) times", out)
    return int(m.group(1)) if m else None


def time_flowgraph(files: list[str], work: Path, time_limit: float) -> tuple[float, float, dict]:
    """Whole process seconds, flowgraph's own wall seconds, and its totals."""
    out = work / "bench.json"
    cmd = [sys.executable, "-m", "flowgraph", "bench", *files, "--engine", "search", "--jobs", "1",
           "--time-limit", str(time_limit), "--json", str(out), "--color", "never"]
    t0 = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True)
    process = time.perf_counter() - t0
    totals = json.loads(out.read_text())["totals"]
    return process, float(totals["wall_seconds"]), totals


def spread(values: list[float]) -> str:
    return f"{min(values):.3f} / {statistics.median(values):.3f}"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--go-src", type=Path, help="a checkout of thomasahle/numberlink")
    p.add_argument("--sets", nargs="+", default=["janko", "inputs9", "inputs10"],
                   help="the sets to run (default janko inputs9 inputs10)")
    p.add_argument("--runs", type=int, default=3, help="runs of each side (default 3)")
    p.add_argument("--time-limit", type=float, default=60.0, help="flowgraph's seconds a board (default 60)")
    args = p.parse_args(argv)
    folder = corpus() / "numberlink"
    if not folder.is_dir():
        print(f"no corpus at {folder}: nothing to time", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        go = build_go(args.go_src, work) if args.go_src else None
        if args.go_src is None:
            print("no --go-src: only flowgraph is timed", file=sys.stderr)
        print(f"{'set':<9} {'boards':>6} {'Go min / median s':>18} {'flowgraph wall':>16} {'process':>15} "
              f"{'wall / Go':>9} {'Go calls':>10} {'states':>8}")
        for name in args.sets:
            files = sorted(str(f) for f in folder.glob(f"{name}_*.txt"))
            go_set = args.go_src / "puzzles" / name if go is not None else None
            if go_set is not None and go_boards(go_set.read_text()) != len(files):
                print(f"{name}: {go_boards(go_set.read_text())} boards in {go_set}, {len(files)} in the corpus",
                      file=sys.stderr)
                return 1
            go_times: list[float] = []
            walls: list[float] = []
            processes: list[float] = []
            totals: dict = {}
            for _ in range(args.runs):  # the two sides in turn, so a busy spell falls on both
                if go is not None and go_set is not None:
                    go_times.append(time_go(go, go_set))
                process, wall, totals = time_flowgraph(files, work, args.time_limit)
                processes.append(process)
                walls.append(wall)
            calls = go_calls(go, go_set) if go is not None and go_set is not None else None
            ratio = f"{statistics.median(walls) / statistics.median(go_times):.1f}x" if go_times else "-"
            print(f"{name:<9} {len(files):>6} {spread(go_times) if go_times else '-':>18} {spread(walls):>16} "
                  f"{spread(processes):>15} {ratio:>9} {calls if calls is not None else '-':>10} "
                  f"{totals.get('states', 0):>8}", flush=True)
            unsolved = {k: v for k, v in totals.get("status", {}).items() if k != "solved"}
            if unsolved:
                print(f"{name}: not all solved: {unsolved}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
