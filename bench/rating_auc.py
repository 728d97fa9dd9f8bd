"""How well ``flowgraph rate`` tells the game's Extreme levels from its ordinary ones (issue 35).

Reads Flow Free ``levelpack_*.txt`` files (a public clone: github nubango/FlowFree,
``FlowFree/Assets/Levels/``; give the folder, nothing is copied). ``levelpack_19`` and
``levelpack_20`` are the Extreme packs (30 levels each of 8x8 to 12x12; samgoldman's
``ExtremePack11x11_7`` and ``ExtremePack12x12_30`` are ``levelpack_19`` lines 97 and 150); every
other numbered pack's levels of the same sizes are "ordinary". A seeded sample of each size and
group is rated (``explain``, in a process pool), then the area under the ROC curve (the chance
that an Extreme level rates above an ordinary one, ties half) is printed:

* raw: all sampled levels pooled;
* within size: the AUC per board size, averaged weighted by the pairs it compares;
* matched: the same within each (size, number of flows) stratum both groups have;

each for the rating, its parts ("techniques": the hardest tier and how often it was used; "tight share":
the share of steps taken with at most two easy deductions in sight; "mean path": in board sides, the
rating's main part; "shortest path"; "span": both as the rating weighs them) and the baselines "cells per
flow" (the mean path in cells), "fewer flows" and "search states of the engine" ("techniques" orders levels
as issue 35's first rating did, the hardest tier plus its uses). Then, per size, the share of each group the rating's
word puts in each tier: a word means the same at every size when those shares do not drift with it.

Usage::

    python bench/rating_auc.py PACK_FOLDER [--per-size 15] [--seed 1] [--jobs 2] [--json rows.jsonl]
                               [--extreme levelpack_32_extremeRainbow.txt]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

EXTREME_PACKS = (19, 20)
SIZES = range(8, 13)


def levels(folder: Path, extreme: list[Path] | None = None) -> list[dict]:
    """Every square level of 8x8-12x12 in the numbered packs: pack, line, size, flows, extreme.

    ``extreme``: pack files that are the Extreme set instead of ``levelpack_19`` and ``levelpack_20``
    (those two are then left out: they are neither set)."""
    found = []
    paths = sorted(folder.glob("levelpack_*.txt"))
    for path in paths + list(extreme or []):
        m = re.fullmatch(r"levelpack_(\d+)\.txt", path.name)
        if extreme and path in extreme:
            pack = -1 - extreme.index(path)
        elif not m:
            continue  # the named packs (hexes, warps, rectangles ...) are other families
        elif extreme and int(m.group(1)) in EXTREME_PACKS:
            continue
        else:
            pack = int(m.group(1))
        for number, line in enumerate(path.read_text().splitlines(), 1):
            head = line.split(";")[0].split(",")
            if len(head) < 4 or not head[0].isdigit() or "." in head[0]:
                continue
            size, flows = int(head[0]), int(head[3])
            if size in SIZES:
                found.append({"pack": pack, "line": number, "size": size, "flows": flows,
                              "extreme": pack < 0 if extreme else pack in EXTREME_PACKS, "file": f"{path}#{number}"})
    return found


def rate(row: dict) -> dict:
    """The row with ``rating``, ``tier``, ``states`` (the search's, solving it) and ``seconds``."""
    from flowgraph import parse_file, solve
    from flowgraph.authoring.explain import explain
    from flowgraph.errors import FlowgraphError

    t0 = time.perf_counter()
    try:
        puzzle = parse_file(row["file"])
        solution = solve(puzzle, "search")
        found = explain(puzzle, solution=solution)
    except FlowgraphError as error:  # a level that does not parse or solve is counted, not rated
        return {**row, "error": str(error)}
    counts = [sum(s.tier == t for s in found.steps) for t in range(1, 7)]
    return {**row, "rating": found.rating, "tier": found.tier, "unique": found.unique, "counts": counts,
            "tight": round(found.tight, 4), "paths": found.lengths,
            "states": solution.stats.get("states", 0), "seconds": round(time.perf_counter() - t0, 3)}


def _top_uses(row: dict) -> tuple[int, float]:
    """The hardest tier of a rated row (0: no step) and ``1 - 0.9 ** uses`` of it."""
    top = max((t for t in range(1, 7) if row["counts"][t - 1]), default=0)
    return top, (1 - 0.9 ** row["counts"][top - 1]) if top else 0.0


def _techniques(row: dict) -> float:
    """The techniques' part of the rating (:func:`flowgraph.authoring.rating.technique_part`)."""
    top, uses = _top_uses(row)
    return (top - 1 + uses) / 6 if top else 0.0


def _span(row: dict, part: str | None = None) -> float:
    """The span parts of the rating as it weighs them (:data:`flowgraph.authoring.rating.WEIGHTS`), or one part."""
    from flowgraph.authoring.rating import WEIGHTS, span_of

    long, short = span_of(row["paths"], row["size"] ** 2)
    if part:
        return {"long": long, "short": short}[part]
    return WEIGHTS["long"] * long + WEIGHTS["short"] * short


def auc(pos: list[float], neg: list[float]) -> tuple[float, int]:
    """(AUC, pairs): the share of (pos, neg) pairs with pos above neg, ties counting half."""
    pairs = len(pos) * len(neg)
    if not pairs:
        return float("nan"), 0
    wins = sum(1.0 if p > n else 0.5 if p == n else 0.0 for p in pos for n in neg)
    return wins / pairs, pairs


def stratified(rows: list[dict], key, strata) -> float:
    """AUC within each stratum, averaged weighted by its pairs."""
    groups: dict = defaultdict(lambda: ([], []))
    for r in rows:
        groups[strata(r)][0 if r["extreme"] else 1].append(key(r))
    total = weight = 0.0
    for pos, neg in groups.values():
        value, pairs = auc(pos, neg)
        if pairs:
            total += value * pairs
            weight += pairs
    return total / weight if weight else float("nan")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("packs", type=Path, help="the folder of levelpack_*.txt files")
    parser.add_argument("--per-size", type=int, default=15, help="levels sampled per size and group (default 15)")
    parser.add_argument("--matched", type=int, default=15,
                        help="ordinary levels sampled per size to match the Extreme levels' flows (default 15)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--json", type=Path, help="write the rated rows here (JSON lines)")
    parser.add_argument("--extreme", type=Path, nargs="+", metavar="PACK",
                        help="pack files to take as the Extreme set instead of levelpack_19/20 (which are then "
                        "left out), e.g. the held-out levelpack_32_extremeRainbow.txt")
    args = parser.parse_args(argv)
    every = levels(args.packs, args.extreme)
    if not any(r["extreme"] for r in every):
        print(f"{args.packs}: no Extreme levels of 8x8-12x12 there (levelpack_19/20, or the --extreme packs)", file=sys.stderr)
        return 2
    rng = random.Random(args.seed)
    sample: list[dict] = []
    for size in SIZES:
        ext = [r for r in every if r["extreme"] and r["size"] == size]
        ordinary = [r for r in every if not r["extreme"] and r["size"] == size]
        picked = rng.sample(ext, min(args.per_size, len(ext)))
        plain = rng.sample(ordinary, min(args.per_size, len(ordinary)))
        sample += [{**r, "drawn": "sample"} for r in picked + plain]
        # ordinary levels with the flows of the Extreme ones picked (most ordinary levels have more)
        wanted = {r["flows"] for r in picked}
        near = [r for r in ordinary if r["flows"] in wanted and r not in plain]
        sample += [{**r, "drawn": "matched"} for r in rng.sample(near, min(args.matched, len(near)))]
    t0 = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        rated = list(pool.map(rate, sample))
    wall = time.perf_counter() - t0
    if args.json:
        args.json.write_text("".join(json.dumps(r) + "\n" for r in rated))
    for r in rated:
        if "error" in r:
            print(f"{r['file']}: not rated: {r['error']}", file=sys.stderr)
    rated = [r for r in rated if "error" not in r]
    base = [r for r in rated if r["drawn"] == "sample"]  # the raw and per-size figures: no matching
    figures = {"rating": lambda r: r["rating"], "techniques": _techniques, "tight share": lambda r: r["tight"],
               "mean path": lambda r: _span(r, "long"), "shortest path": lambda r: min(r["paths"]), "span": _span,
               "cells per flow": lambda r: r["size"] ** 2 / r["flows"], "fewer flows": lambda r: -r["flows"],
               "search states": lambda r: r["states"]}
    ext_n = sum(r["extreme"] for r in rated)
    print(f"{len(rated)} levels rated ({ext_n} Extreme, {len(rated) - ext_n} ordinary), 8x8-12x12, "
          f"seed {args.seed}, {wall:.0f} s wall with {args.jobs} jobs")
    print(f"{'figure':<16} {'raw':>6} {'within size':>12} {'matched':>8}")
    for name, key in figures.items():
        raw = auc([key(r) for r in base if r["extreme"]], [key(r) for r in base if not r["extreme"]])[0]
        size = stratified(base, key, lambda r: r["size"])
        matched = stratified(rated, key, lambda r: (r["size"], r["flows"]))
        print(f"{name:<16} {raw:>6.3f} {size:>12.3f} {matched:>8.3f}")
    by_size = defaultdict(lambda: ([], []))
    for r in base:
        by_size[r["size"]][0 if r["extreme"] else 1].append(r)
    words = ("easy", "medium", "hard", "extreme")
    print("size   group     median  " + "  ".join(f"{w:>7}" for w in words))
    for size in SIZES:
        for group, rows in zip(("Extreme", "ordinary"), by_size[size]):
            if rows:
                ratings = sorted(r["rating"] for r in rows)
                shares = "  ".join(f"{sum(r['tier'] == w for r in rows) / len(rows):>7.0%}" for w in words)
                print(f"{f'{size}x{size}':<6} {group:<9} {ratings[len(ratings) // 2]:>6}  {shares}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
