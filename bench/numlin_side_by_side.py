"""Numberlink uniqueness side by side: ``flowgraph validate --unique`` against semiexp's numlin_v2.

numlin_v2 (github semiexp/numlin_v2, Rust, no dependencies) enumerates every
solution of a puz.link ``numlin`` URL. This script builds it from a source
folder you give (``cargo build --release``; its dev-dependencies, which are
paths outside the repository, are dropped in a temporary copy), then times
both whole processes on the same URLs and prints one row per URL.

Note what each counts: numlin_v2 counts solutions in its canonical form (no
U-turn in a 2x2 block, L-shaped corners canonised: ``src/lib.rs``'s
``OPTIMIZATION_*`` flags), so a puzzle whose path may turn a corner either
way around an empty cell counts 1 there and "multiple" under Nikoli's rules
here.

Usage::

    python bench/numlin_side_by_side.py --numlin-src PATH URLS.txt [--time-limit 60]

Without cargo, or without ``--numlin-src``, only flowgraph is timed (said once).
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def build_numlin(src: Path, work: Path) -> Path | None:
    """The numlin binary built from ``src`` in ``work``, or None (the reason printed)."""
    if shutil.which("cargo") is None:
        print("cargo not found: numlin_v2 is not timed", file=sys.stderr)
        return None
    copy = work / "numlin_v2"
    shutil.copytree(src, copy, ignore=shutil.ignore_patterns("target", ".git"))
    manifest = copy / "Cargo.toml"
    text = manifest.read_text()
    manifest.write_text(re.split(r"(?m)^\[dev-dependencies\]", text)[0])
    done = subprocess.run(["cargo", "build", "--release", "--offline", "--bin", "numlin"], cwd=copy,
                          capture_output=True, text=True)
    if done.returncode != 0:
        print(f"numlin_v2 did not build: {done.stderr.strip().splitlines()[-1:]}", file=sys.stderr)
        return None
    return copy / "target" / "release" / "numlin"


def timed(cmd: list[str], limit: float) -> tuple[float, str, int | None]:
    t0 = time.perf_counter()
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=limit)
    except subprocess.TimeoutExpired:
        return time.perf_counter() - t0, "", None
    return time.perf_counter() - t0, done.stdout, done.returncode


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("urls", type=Path, help="a file with one puzz.link numlin URL per line")
    p.add_argument("--numlin-src", type=Path, help="a checkout of semiexp/numlin_v2")
    p.add_argument("--time-limit", type=float, default=60.0, help="seconds per URL and solver (default 60)")
    args = p.parse_args(argv)
    urls = [u.strip() for u in args.urls.read_text().splitlines() if u.strip() and not u.startswith("//")]
    with tempfile.TemporaryDirectory() as work:
        numlin = build_numlin(args.numlin_src, Path(work)) if args.numlin_src else None
        print(f"{'board':<16} {'flowgraph':>22} {'numlin_v2':>22}")
        for url in urls:
            size = "/".join(url.split("/")[-3:-1]) if "/" in url else url
            s, out, code = timed([sys.executable, "-m", "flowgraph", "validate", "--unique", "--json",
                                  "--time-limit", str(args.time_limit), url], args.time_limit + 30)
            verdict = json.loads(out.splitlines()[-1]).get("verdict", "?") if out.strip() else "timeout"
            ours = f"{verdict} {s:7.2f} s"
            theirs = "-"
            if numlin is not None:
                s2, out2, code2 = timed([str(numlin), url], args.time_limit)
                m = re.search(r"solutions: (\d+)", out2)
                theirs = f"{m.group(1) if m else 'limit'} {s2:7.2f} s"
            print(f"{size:<16} {ours:>22} {theirs:>22}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
