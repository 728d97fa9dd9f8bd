"""Every answer of two versions of flowgraph over the corpus, row for row: a refactor changes none of them.

    python bench/identity.py --source /tmp/before --out /tmp/ident/before   # a worktree of the old commit
    python bench/identity.py --source . --out /tmp/ident/after
    diff -r /tmp/ident/before /tmp/ident/after && echo identical

Runs ``solve --json``, ``validate --unique --json``, ``rate --json`` (batches, ``--jobs 2``) and
``explain --json`` (one process a puzzle) over every puzzle file of the corpus (``FLOWGRAPH_CORPUS``, else
``../shared/corpus``), with the package at ``--source`` first on ``PYTHONPATH``. It writes one file per command
(``NAME.jsonl``), one sorted JSON line per puzzle, with what varies from run to run left out: times, state and node counts, the
engine that answered (``auto`` races them) and digests. A row that ran out of time (status ``timeout`` or
``limit``, a verdict ``limit`` or ``unknown``) is written as ``"time limit"`` only (``explain`` prints no row
then: its file is missing from ``explain.jsonl``), and listed in ``NAME.out-of-time``: compare those by hand.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

VARYING = {"engine", "stats", "digest", "seconds", "time", "elapsed", "states", "nodes", "sat_calls"}
OUT_OF_TIME = ({"status": "timeout"}, {"status": "limit"}, {"verdict": "limit"}, {"verdict": "unknown"},
               {"unique": None})


def corpus() -> Path:
    return Path(os.environ.get("FLOWGRAPH_CORPUS", Path(__file__).resolve().parents[2] / "shared" / "corpus"))


def puzzles(root: Path) -> list[str]:
    """Every puzzle file of the corpus (not its screenshots or READMEs), sorted."""
    return sorted(str(p) for p in root.rglob("*.txt") if p.name != "README.md" and "screenshots" not in p.parts)


def strip(value):
    if isinstance(value, dict):
        return {k: strip(v) for k, v in value.items() if k not in VARYING}
    if isinstance(value, list):
        return [strip(v) for v in value]
    return value


def normal(line: str) -> tuple[str, str]:
    """A row's puzzle and its comparable JSON text."""
    row = json.loads(line)
    if any(all(k in row and row[k] == v for k, v in mark.items()) for mark in OUT_OF_TIME):
        return row["puzzle"], json.dumps({"puzzle": row["puzzle"], "result": "time limit"})
    return row["puzzle"], json.dumps(strip(row), sort_keys=True)


def run(source: str, args: list[str]) -> str:
    env = dict(os.environ, PYTHONPATH=source, NO_COLOR="1")
    proc = subprocess.run([sys.executable, "-m", "flowgraph", *args], env=env, cwd="/tmp",
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, check=False)
    return proc.stdout


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--source", required=True, help="the folder holding the flowgraph package to run")
    ap.add_argument("--out", required=True, type=Path, help="a folder for the four files of rows")
    ap.add_argument("--time-limit", type=float, default=20.0, help="seconds a puzzle (default 20)")
    ap.add_argument("--only", nargs="*", default=["solve", "validate", "rate", "explain"])
    a = ap.parse_args(argv)
    source = str(Path(a.source).resolve())
    files = puzzles(corpus())
    a.out.mkdir(parents=True, exist_ok=True)
    limit = ["--time-limit", str(a.time_limit)]
    batches = {"solve": ["solve", "--json", "--jobs", "2", *limit],
               "validate": ["validate", "--unique", "--json", "--jobs", "2", *limit],
               "rate": ["rate", "--json", "--jobs", "2", *limit]}
    for name in a.only:
        t0 = time.perf_counter()
        if name == "explain":
            with ThreadPoolExecutor(2) as pool:
                lines = [out for out in pool.map(lambda f: run(source, ["explain", "--json", *limit, f]), files)]
        else:
            lines = [run(source, [*batches[name], *files])]
        rows = dict(normal(line) for text in lines for line in text.splitlines() if line.strip())
        (a.out / f"{name}.jsonl").write_text("".join(rows[k] + "\n" for k in sorted(rows)))
        missing = [f for f in files if f not in rows]
        slow = [k for k, v in rows.items() if v.endswith('"time limit"}')]
        print(f"{name}: {len(rows)} rows, {len(missing)} missing, {len(slow)} out of time, "
              f"{time.perf_counter() - t0:.0f} s", file=sys.stderr)
        (a.out / f"{name}.out-of-time").write_text("".join(k + "\n" for k in slow))
    return 0


if __name__ == "__main__":
    sys.exit(main())
