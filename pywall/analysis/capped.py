"""Shanten and effective kinds when some copies are already used: a hand can win only
with tiles that exist.

Theory of operation
-------------------
``pywall.analysis.efficiency`` counts a hand's distance to ready over its concealed
tiles alone, with at most four copies of a kind in the complete hand (docs/shanten.md).
A hand with melds or North extractions has used some copies already: with 1z ponned,
a concealed 1z waits on a fifth copy, so the hand cannot win on it. Here kind k may
appear at most ``cap[k] = 4 - used[k]`` times in the complete hand, ``used`` being the
copies in the drawer's own melds (the called tile included) and Norths.

Shanten is also the fewest exchanges (a tile drawn, a tile cut) that reach a ready
hand; each exchange draws a tile the caps allow. So, with ``ready(H)`` = H waits on a
kind it can still draw (a wait j with H[j] < cap[j]):

* capped shanten 0 when ``ready(H)``; its effective kinds are those live waits;
* capped shanten 1 when some exchange (draw j, cut x) reaches a ready hand; its
  effective kinds are the j that do.

The capped shanten is never below the uncapped one, which prunes the search: an
exchange that lowers the uncapped shanten by one is the only kind worth trying when
the two are equal. Hands the uncapped count puts two or more exchanges from ready are
left as it counts them (the caps can only take them further, and any set of
effective kinds chosen from what the record has shown keeps the draw test fair); a
hand of uncapped shanten 0 or 1 that no single exchange makes ready is counted two
from ready with no effective kind. Work is bounded: at most 34 x 14 exchanges, each
one lookup of ``effective_kinds``, and none where no kind can be full.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import add

from pywall.analysis.efficiency import effective_kinds

_KINDS = 34
_KEPT = 1 << 16
_CACHE: dict[tuple[int, ...], tuple[int, int]] = {}


def _effective(hand: tuple[int, ...]) -> tuple[int, int]:
    found = _CACHE.get(hand)
    if found is None:
        if len(_CACHE) >= _KEPT:
            _CACHE.clear()
        found = _CACHE[hand] = effective_kinds(hand)
    return found


#: A kind's copies in the hand and its melds -> "1" when that is all four, else "0".
_FULL_DIGIT = bytes.maketrans(bytes(range(256)), b"0" * 4 + b"1" * 252)


def _full(hand: Sequence[int], used: Sequence[int]) -> int:
    """Kinds the hand can no longer draw: it holds every copy its melds leave (a bit mask,
    read in C as a binary number whose lowest digit is kind 0)."""
    held = bytes(map(add, reversed(hand), reversed(used)))
    return int(held.translate(_FULL_DIGIT), 2)


def _exchanges(hand: tuple[int, ...], caps: Sequence[int], full: int, only: int) -> int:
    """The kinds j among ``only`` (each drawable) that some exchange (draw j, cut x)
    makes ready on a kind it can still draw; ``full``: the kinds ``_full`` in H.

    A kind is full in H + j - x only if it is full in H or is j itself; where neither
    can be (no kind full in H, and j not filled by its draw), every ready hand the
    exchange reaches waits on live kinds, so j needs no search."""
    found = 0
    counts = list(hand)
    for j in range(_KINDS):
        if not only >> j & 1:
            continue
        filled = counts[j] + 1 >= caps[j]
        if not full and not filled:
            found |= 1 << j  # the uncapped count already found a ready exchange
            continue
        counts[j] += 1
        dead = full | (1 << j if filled else 0)
        for x in range(_KINDS):
            if x == j or not counts[x]:
                continue
            counts[x] -= 1
            value, waits = _effective(tuple(counts))
            counts[x] += 1
            # x's copies in hand fell by one: x is no longer full if it was
            if value == 0 and waits & ~(dead & ~(1 << x if counts[x] - 1 < caps[x] else 0)):
                found |= 1 << j
                break
        counts[j] -= 1
    return found


def capped_effective(
    hand: tuple[int, ...], used: Sequence[int], uncapped: tuple[int, int] | None = None
) -> tuple[int, int]:
    """(shanten, effective kinds) of a 3k+1-tile concealed hand whose kind k has only
    ``4 - used[k]`` copies left to complete it (see the module's docstring); ``uncapped``,
    when the caller knows it, is the hand's ``effective_kinds``."""
    value, mask = _effective(hand) if uncapped is None else uncapped
    full = _full(hand, used)
    drawable = ~full & ((1 << _KINDS) - 1)
    if value >= 2:
        return value, mask & drawable
    if value == 0:
        live = mask & drawable
        if live:
            return 0, live
    caps = [4 - u for u in used]
    if value == 0:
        # not ready on any tile that exists: one exchange away at best, by any draw (a
        # kind is full here, so ``_exchanges`` searches every draw)
        ahead = _exchanges(hand, caps, full, drawable)
        return (1, ahead) if ahead else (2, 0)
    ahead = _exchanges(hand, caps, full, mask & drawable)
    return (1, ahead) if ahead else (2, 0)
