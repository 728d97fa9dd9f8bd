"""The exhaustive link search's nesting check on planar boards (:mod:`.link_search`, mode bit 2): the paths that cross
the frontier must nest (two flows cannot cross each other's path), so a frontier whose crossing links cannot be
paired without crossing has no solution below it.
"""

from __future__ import annotations

from .codes import LINE
from .jit import njit_borrowed


@njit_borrowed
def _rim(place, w, x):  # pragma: no cover - compiled
    """Where endpoint ``x`` (at or after ``w``) touches the rim of the part still to decide, as a key in
    the frontier's order continued around the board's border; -1 inside. A rectangle only."""
    if place[x, 1] == place[w, 1] or (place[x, 1] == place[w, 1] + 1 and place[x, 0] < place[w, 0]):
        return 2 * place[x, 0]  # under the frontier: beside the crossing its link up would make
    return place[x, 2]


@njit_borrowed
def is_nested(ptr, nbr, lnk, edge, mate, clue, place, w, span, cross, owner, fends, rect, stk):  # pragma: no cover - compiled
    """False when two paths that must be joined below the frontier would cross there (a planar board).

    The links used between the nodes before ``w`` and the rest cross the frontier at points
    ordered by ``place``. Below it, the piece of path from each crossing is followed along used
    links to where it ends: back up through another crossing (the two are joined already), at an
    endpoint (nothing to join), or at a head. Two crossings whose heads belong to one flow must be
    joined below the frontier. In a plane drawing two joins whose crossings alternate along the
    frontier (a, b, a, b) cannot both be made without crossing (Jordan's curve theorem), so the
    joins must nest like brackets. A loose piece (no endpoint yet) through the part above will join
    some flow: one whose ends are not points here (the joins must nest as they are), or one with a
    join p-q here, which becomes p-a and b-q (or p-b and a-q) through the piece's crossings a and b;
    False only when no such choice nests. With two loose pieces or more nothing is said.

    With ``rect`` (a full rectangle, at least two whole lines below ``w``'s) the rim of the part
    below goes on from the frontier around the board's border, and an endpoint on it is a point
    of that rim too: a flow with one crossing must reach its endpoint below, a flow with no
    crossing joins its two endpoints, and these joins must nest with the others.
    """
    count = 0
    for u in range(max(0, w - span), w):
        for i in range(ptr[u], ptr[u + 1]):
            v = nbr[i]
            if v >= w and edge[lnk[i]] == LINE:
                cross[count, 0] = u
                cross[count, 1] = v
                cross[count, 2] = place[u, 0] + place[v, 0]
                count += 1
    if count < 4 and not rect:
        return True
    for k in range(owner.shape[0]):
        owner[k, 0] = -1  # the crossing whose head is flow k's
        owner[k, 1] = -1  # flow k's endpoint below reached from a crossing
    loose = 0
    for c in range(count):  # the label of each crossing: its partner's key + 1, or 0 (nothing to join)
        prev = cross[c, 0]
        cur = cross[c, 1]
        label = 0
        while True:
            if cur < w:  # back up through another crossing: joined below already
                label = place[prev, 0] + place[cur, 0] + 1
                break
            if clue[cur] >= 0:  # the path ends at an endpoint below: nothing to join
                owner[clue[cur], 1] = cur
                break
            nxt = -1
            for i in range(ptr[cur], ptr[cur + 1]):
                y = nbr[i]
                if y != prev and edge[lnk[i]] == LINE:
                    nxt = y
                    break
            if nxt < 0:  # a head
                m = mate[cur]
                if m >= 0:  # a loose piece: it will join some flow, which is not known yet
                    loose += 1
                    if loose > 2:
                        return True  # two loose pieces or more: nothing is said
                    label = -1 - loose  # -2, -3: the loose piece's two crossings
                    break
                if m < -1:
                    k = -2 - m
                    if owner[k, 0] < 0:
                        owner[k, 0] = c
                    else:  # the flow's other head came up through crossing owner[k]: join the two
                        other = owner[k, 0]
                        cross[other, 3] = cross[c, 2] + 1
                        label = cross[other, 2] + 1
                break
            prev = cur
            cur = nxt
        cross[c, 3] = label
    if rect:
        points = count
        for k in range(owner.shape[0]):
            a = fends[k, 0]
            b = fends[k, 1]
            o = owner[k, 0]
            if o >= 0:
                if cross[o, 3] != 0:
                    continue  # joined to another crossing
                e = -1  # the endpoint below that the crossing's flow still has to reach
                if a >= w and a != owner[k, 1] and (b < w or b == owner[k, 1]):
                    e = a
                elif b >= w and b != owner[k, 1] and (a < w or a == owner[k, 1]):
                    e = b
                if e < 0:
                    continue
                key = _rim(place, w, e)
                if key < 0:
                    continue
                cross[points, 2] = key
                cross[points, 3] = cross[o, 2] + 1
                cross[o, 3] = key + 1
                points += 1
            elif owner[k, 1] < 0 and a >= w and b >= w:  # the whole flow below
                ka = _rim(place, w, a)
                kb = _rim(place, w, b)
                if ka < 0 or kb < 0:
                    continue
                cross[points, 2] = ka
                cross[points, 3] = kb + 1
                cross[points + 1, 2] = kb
                cross[points + 1, 3] = ka + 1
                points += 2
        count = points
        if count < 4:
            return True
    # sort the crossings by their place (few: insertion sort), then the joins must nest
    for c in range(1, count):
        j = c
        while j > 0 and cross[j - 1, 2] > cross[j, 2]:
            for col in range(4):
                t = cross[j - 1, col]
                cross[j - 1, col] = cross[j, col]
                cross[j, col] = t
            j -= 1
    if loose == 0:
        return _joins_nest(cross, count, stk)
    if loose != 2:  # a loose piece crosses twice (up, then down again); anything else: say nothing
        return True
    # One loose piece, crossing at rows a and b: it joins some flow. A flow whose ends are not points
    # here: the joins here must nest as they are. A flow with a join p-q here: p-a and b-q (or p-b and
    # a-q) instead, and those must nest with the rest.
    a = -1
    b = -1
    for c in range(count):
        if cross[c, 3] == -2:
            a = c
        elif cross[c, 3] == -3:
            b = c
    cross[a, 3] = 0
    cross[b, 3] = 0
    if _joins_nest(cross, count, stk):
        return True
    for c in range(count):
        partner = cross[c, 3] - 1
        if partner <= cross[c, 2]:
            continue
        d = 0  # the row of the partner
        while cross[d, 2] != partner:
            d += 1
        for flip in range(2):
            x = a if flip == 0 else b
            y = b if flip == 0 else a
            cross[c, 3] = cross[x, 2] + 1
            cross[x, 3] = cross[c, 2] + 1
            cross[d, 3] = cross[y, 2] + 1
            cross[y, 3] = cross[d, 2] + 1
            ok = _joins_nest(cross, count, stk)
            cross[c, 3] = partner + 1
            cross[d, 3] = cross[c, 2] + 1
            cross[x, 3] = 0
            cross[y, 3] = 0
            if ok:
                return True
    return False


@njit_borrowed
def _joins_nest(cross, count, stk):  # pragma: no cover - compiled
    """Whether the joins of the rows sorted by key (column 2; column 3: the partner's key + 1, or 0
    for none) nest like brackets."""
    top = 0
    for c in range(count):
        partner = cross[c, 3] - 1
        if partner < 0:
            continue
        if partner > cross[c, 2]:
            stk[top] = cross[c, 2]
            top += 1
        else:
            if top == 0 or stk[top - 1] != partner:
                return False
            top -= 1
    return True
