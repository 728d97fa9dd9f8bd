"""Cover a board by paths: the generator's first stage.

Covers of a board by paths, the generator's first stage (:mod:`.generate`): self-avoiding walks that fill every
node, short paths merged into their neighbours, a 2x2 block of one path noticed, and a path split where a second
solution differs from ours. Package-private.
"""

from __future__ import annotations

import random

from ..io.sketch import nodes_by_place, place
from ..model import Node, Solution


def four_cycles(adj: dict) -> list[frozenset]:
    """The node sets of the graph's 4-cycles (a 2x2 block on a square grid)."""
    out = set()
    for a in adj:
        for b in adj[a]:
            for c in adj[b]:
                if c == a:
                    continue
                for d in adj[c] & adj[a]:
                    if d not in (a, b, c):
                        out.add(frozenset((a, b, c, d)))
    return list(out)


def filled_square(paths: list[list[Node]], squares: list[frozenset]) -> bool:
    owner = {node: k for k, path in enumerate(paths) for node in path}
    return any(len({owner[v] for v in sq}) == 1 for sq in squares)


def random_cover(adj: dict, sketch, rng: random.Random, mean: float, min_length: int,
           loose: float = 0.0) -> list[list[Node]] | None:
    """A random cover of the graph by chordless paths (None when the walks strand a node that cannot be joined).

    A share ``loose`` of the paths start at a random free node and grow from both ends; the others start at
    a node with the fewest free neighbours and grow from there. Each step goes to the free neighbour with the
    fewest free neighbours (Warnsdorff's rule, which strands few nodes). Tight starts alone (a corner, then
    the border) put nearly every endpoint on the rim and nest the paths into concentric C shapes; loose
    starts lay endpoints and turns as the game's Extreme levels do (``bench/layout_spread.py``).

    On a board with bridges a walk goes onto a lane only if straight on over the bridges it reaches a cell
    that does not touch it (:func:`_clear_over`); a run of lanes no walk crossed is threaded into the paths
    at its two ends (:func:`_thread_lanes`), and a path that touches itself after the short paths are merged
    is cut where it does (:func:`_split_chords`).
    """
    free = set(adj)
    lanes = {k for k, s in sketch.spots.items() if s.lane}
    paths: list[list[Node]] = []
    while free:
        starts = sorted(v for v in free if v not in lanes)
        if not starts:  # only lanes left: each run of them threaded into the paths at its two ends
            return _thread_lanes(paths, free, adj, lanes, min_length)
        anywhere = loose > 0 and rng.random() < loose
        if anywhere:
            path = [rng.choice(starts)]
        else:
            tight = min(len(adj[v] & free) for v in starts)
            path = [rng.choice([v for v in starts if len(adj[v] & free) == tight])]
        free.discard(path[0])
        on_path = {path[0]}
        cap = max(min_length, round(rng.uniform(0.5, 1.5) * mean))
        for end in range(2 if anywhere else 1):
            if end:
                path.reverse()
            while len(path) < cap or path[-1] in lanes:
                head = path[-1]
                options = [v for v in adj[head] & free
                           if not any(w in on_path and w != head for w in adj[v])
                           and (head not in lanes or len(path) < 2 or v not in adj[path[-2]])
                           and (v not in lanes or _clear_over(head, v, adj, free, lanes, on_path))]
                if head in lanes:  # straight on: a lane's other neighbour
                    options = [v for v in adj[head] & free if v != path[-2]]
                if not options:
                    break
                least = min(len(adj[v] & free) for v in options)
                v = rng.choice(sorted(v for v in options if len(adj[v] & free) == least))
                path.append(v)
                on_path.add(v)
                free.discard(v)
            while path[-1] in lanes:  # a lane is never an endpoint: give it back (path[0] is none)
                on_path.discard(path[-1])
                free.add(path.pop())
        paths.append(path)
    merged = _merge_short(paths, adj, lanes, min_length)
    return merged if merged is None or not lanes else _split_chords(merged, adj, lanes, min_length)


def _clear_over(head: Node, lane: Node, adj: dict, free: set, lanes: set, on_path: set) -> bool:
    """Whether a walk at ``head`` may go onto ``lane``: straight on over the bridges from there it must reach a
    free cell that touches the walk nowhere (a lane is never an end, and the cell past the run would be a
    chord: the walk U-turning round a crossing of a band two cells wide)."""
    before, at = head, lane
    while at in lanes:
        ahead = [v for v in adj[at] if v != before]
        if len(ahead) != 1 or ahead[0] not in free:
            return False
        before, at = at, ahead[0]
    return not any(w in on_path for w in adj[at] if w != before)


def _thread_lanes(paths: list[list[Node]], free: set, adj: dict, lanes: set, min_length: int
                  ) -> list[list[Node]] | None:
    """The cover with each run of free bridge lanes (crossed by no path: the walks took the cells at both its
    ends) made part of a path: the path through the cell before the run is cut there, the path through the
    cell after it likewise, and a piece of each joined through the run; what is cut off stays a path of its
    own, merged on if short (None where no piece can end at a cut: it would end on a lane)."""
    paths = [list(p) for p in paths]
    while free:
        run = [min(free)]
        for _ in range(2):  # grow along the lane's axis both ways (a lane's neighbours are its axis')
            while True:
                ahead = [v for v in adj[run[-1]] if v in free and v not in run]
                if not ahead:
                    break
                run.append(ahead[0])
            run.reverse()
        outside = [v for v in adj[run[0]] if v not in run]  # a run of one lane: both its neighbours
        if len(run) > 1:
            outside = outside[:1] + [v for v in adj[run[-1]] if v not in run][:1]
        if len(outside) != 2 or any(v in lanes for v in outside):
            return None
        x, y = outside  # x next to run[0], y to run[-1]
        threaded = _through(paths, run, x, y, adj, lanes)
        if threaded is None:
            return None
        paths = threaded
        free.difference_update(run)
    merged = _merge_short(paths, adj, lanes, min_length)
    return None if merged is None else _split_chords(merged, adj, lanes, min_length)


def _split_chords(paths: list[list[Node]], adj: dict, lanes: set, min_length: int) -> list[list[Node]]:
    """Each path that touches itself (a short path merged on where it could only touch it) cut between the two
    cells that touch, where both pieces keep ``min_length`` cells and neither ends on a lane; a path no cut
    mends stays as it is (the generator's count refuses what it lets through)."""
    out: list[list[Node]] = []
    todo = [list(p) for p in paths]
    while todo:
        path = todo.pop()
        at = {v: i for i, v in enumerate(path)}
        chord = next(((i, at[w]) for i, v in enumerate(path) for w in adj[v] if w in at and at[w] > i + 1), None)
        cuts = [] if chord is None else [t for t in range(chord[0] + 1, chord[1] + 1)
                                         if min(t, len(path) - t) >= min_length
                                         and path[t - 1] not in lanes and path[t] not in lanes]
        if not cuts:
            out.append(path)
            continue
        t = min(cuts, key=lambda t: abs(2 * t - len(path)))  # the most even halves
        todo += [path[:t], path[t:]]
    return out


def _through(paths: list[list[Node]], run: list[Node], x: Node, y: Node, adj: dict, lanes: set
             ) -> list[list[Node]] | None:
    """``paths`` with one chordless path ``... x, *run, y ...`` made of the pieces of the paths through ``x``
    and ``y`` (:func:`_thread_lanes`), the pieces cut off left as paths; None where every such path touches
    itself or a cut leaves a lane at an end."""
    p = next(k for k, path in enumerate(paths) if x in path)
    q = next(k for k, path in enumerate(paths) if y in path)
    rest = [path for k, path in enumerate(paths) if k not in (p, q)]
    options = []
    if p == q:
        path = paths[p]
        for way in (path, path[::-1]):  # x first, then y: keep x's head and y's tail, the middle cut off
            i, j = way.index(x), way.index(y)
            if i < j:
                options.append([way[:i + 1] + run + way[j:], way[i + 1:j]])
    else:
        for head, x_left in ((paths[p][:paths[p].index(x) + 1], paths[p][paths[p].index(x) + 1:]),
                             (paths[p][paths[p].index(x):][::-1], paths[p][:paths[p].index(x)][::-1])):
            for tail, y_left in ((paths[q][paths[q].index(y):], paths[q][:paths[q].index(y)]),
                                 (paths[q][:paths[q].index(y) + 1][::-1], paths[q][paths[q].index(y) + 1:][::-1])):
                options.append([head + run + tail, x_left, y_left])
    good = [[piece for piece in option if piece] for option in options
            if all(not piece or (piece[0] not in lanes and piece[-1] not in lanes) for piece in option)
            and _chordless(option[0], adj)]
    if not good:
        return None
    best = max(good, key=lambda option: min(len(piece) for piece in option))  # the fewest short pieces
    return rest + best


def _chordless(path: list[Node], adj: dict) -> bool:
    """Whether no two cells of ``path`` but those it joins are neighbours."""
    at = {v: i for i, v in enumerate(path)}
    return all(abs(at[w] - i) == 1 for i, v in enumerate(path) for w in adj[v] if w in at)


def merge_down(paths: list[list[Node]], adj: dict, most: int, rng: random.Random) -> list[list[Node]]:
    """Join paths end to end, the shortest first, until at most ``most`` are left or no two can be joined.

    A join keeps the path chordless (the two touch only where they join), as Thomas Ahle's Numberlink
    generator combines the dominoes it starts from (github.com/thomasahle/numberlink, ``gen.go``).
    """
    paths = [list(p) for p in paths]
    while len(paths) > most:
        order = sorted(range(len(paths)), key=lambda k: (len(paths[k]), rng.random()))
        for i in order:
            partners = [j for j in range(len(paths)) if j != i]
            rng.shuffle(partners)
            joined = next(((j, x) for j in partners if (x := _join(paths[i], paths[j], adj, True)) is not None), None)
            if joined is not None:
                j, paths[j] = joined
                del paths[i]
                break
        else:
            return paths
    return paths


def _merge_short(paths: list[list[Node]], adj: dict, lanes: set, min_length: int) -> list[list[Node]] | None:
    """Join every path shorter than ``min_length`` to a neighbouring path (None if one cannot be).

    A short path goes onto another path's end, or, when it touches one only
    in the middle, that path is cut there and one half joins it. Joins that
    keep the path chordless are tried first, then any.
    """
    paths = [list(p) for p in paths]
    while True:
        i = next((k for k, p in enumerate(paths) if len(p) < min_length), None)
        if i is None:
            return paths
        if not _absorb(paths, i, adj, lanes, min_length):
            return None


def _absorb(paths: list[list[Node]], i: int, adj: dict, lanes: set, min_length: int) -> bool:
    short = paths[i]
    for strict in (True, False):
        for j, other in enumerate(paths):
            joined = _join(short, other, adj, strict) if i != j else None
            if joined is not None:
                paths[j] = joined
                del paths[i]
                return True
        for j, other in enumerate(paths):
            cut = _cut_and_attach(short, other, adj, lanes, min_length, strict) if i != j else None
            if cut is not None:
                paths[j], paths[i] = cut
                return True
    return False


def _cut_and_attach(short: list[Node], other: list[Node], adj: dict, lanes: set, min_length: int, strict: bool):
    """``other`` cut after a node next to an end of ``short``, that half joined to ``short``: the two new paths.

    Both must keep ``min_length`` nodes, and no new end may be a bridge lane;
    ``strict``: ``short`` touches ``other`` only at the cut.
    """
    for s in (short, short[::-1]):  # s[0] is the end that touches other
        for i in range(1, len(other) - 1):
            if other[i] not in adj[s[0]] or (strict and not _touches_only_at(s, other, i, adj)):
                continue
            for head, tail in ((other[:i + 1], other[i + 1:]), (other[i:][::-1], other[:i][::-1])):
                if len(tail) >= min_length and len(head) + len(s) >= min_length and \
                        head[-1] not in lanes and tail[0] not in lanes:
                    return head + s, tail
    return None


def _join(a: list[Node], b: list[Node], adj: dict, strict: bool) -> list[Node] | None:
    """``a`` (short) and ``b`` joined end to end (``strict``: if ``a`` touches ``b`` only where they join)."""
    for x in (a, a[::-1]):
        for y in (b, b[::-1]):
            if y[0] in adj[x[-1]] and (not strict or _touches_only_at(x, y, 0, adj)):
                return x + y
    return None


def _touches_only_at(short: list[Node], path: list[Node], i: int, adj: dict) -> bool:
    """Whether the nodes of ``short`` touch ``path`` at ``path[i]`` alone (the merged path stays chordless)."""
    others = set(path) - {path[i]}
    return not any(adj[v] & others for v in short)


def split_path(paths, ours: Solution, found, sketch, adj, rng: random.Random, min_length: int):
    """Split one of our paths at a node where another solution differs (None if no split keeps the rules)."""
    other = next((s for s in found if dict(s.paths) != dict(ours.paths)), None)
    if other is None:  # pragma: no cover - two distinct solutions were found
        return None
    mine, theirs = ours.owner(), other.owner()
    differ = {node for node in mine if mine[node] != theirs.get(node)}
    node_at = nodes_by_place(ours.puzzle)
    key_of = {v: node_at[place(sketch.spots[v])] for p in paths for v in p}
    choices = []
    for k, path in enumerate(paths):
        for i in range(1, len(path)):  # cut between path[i - 1] and path[i]
            a, b = path[:i], path[i:]
            if len(a) < min_length or len(b) < min_length or sketch.spots[a[-1]].lane or sketch.spots[b[0]].lane:
                continue
            if key_of[a[-1]] in differ or key_of[b[0]] in differ:
                choices.append((k, i))
    if not choices:
        return None
    k, i = rng.choice(choices)
    return paths[:k] + [paths[k][:i], paths[k][i:]] + paths[k + 1:]
