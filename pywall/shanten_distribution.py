"""Exact distribution of shanten over every hand of n tiles dealt from 136.

Theory of operation
-------------------
Count hands, not count vectors: a hand holding c copies of a kind can be dealt in
C(4, c) ways, so the number of n-tile hands with a given shape is the product of
those binomials (a generating function over the 34 kinds, as in tomohxx's
mahjong-algorithm-book). The regular form of a hand depends on each suit only
through the suit's profile (see ``pywall.shanten``), so:

1. Each number suit is summarised by running the shanten automaton over all count
   vectors at once, merging equal (node, tiles, pairs, kinds, orphan kinds,
   orphan pair) states and summing their weights. Honours are summarised by the
   multiset of their counts. Profiles are capped at 8 tiles here: a 13- or 14-tile
   hand is never worse than 6-shanten (seven pairs bound it), so a capped value
   never decides a 13/14-tile result.
2. Suits are joined in pairs (man+pin, sou+honours) by min-plus convolution of
   profiles, then the two halves are paired for the final count.

Seven pairs and thirteen orphans (13/14 tiles) would need the pair and kind counts
of the whole hand in every state; three small passes avoid that blow-up:

* main pass: every hand, assuming at least 7 distinct kinds, so seven pairs is
  6 - pairs;
* correction for hands with at most 6 kinds (there seven pairs is
  13 - pairs - kinds; thirteen orphans cannot be the minimum, it is >= 6);
* correction for hands with at least 7 orphan kinds, the only ones where thirteen
  orphans (13 - orphan kinds - orphan pair) can be below the other forms (which
  are <= 6). These have >= 7 kinds, so the two corrections never overlap.

Hands of fewer than 13 tiles need only the regular pass, with uncapped profiles.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from math import comb
from typing import Any

from pywall.errors import ValueInputError
from pywall.shanten import (
    CAP,
    MAX_TILES,
    NUMBER_SUIT_START,
    combine_profiles,
    honour_profile,
    number_suit_profile,
    number_suit_step,
    split_distance,
)

#: Profile cap for 13/14-tile hands (see the module docstring).
FULL_HAND_CAP = 8

# A state: (profile, tiles, then fields that add up when suits are joined).
State = tuple[Any, ...]
States = dict[State, int]
Fields = tuple[int, ...]
VALID_TILES = (1, 2, 4, 5, 7, 8, 10, 11, 13, 14)


def _read_number_kind(states: States, position: int) -> States:
    orphan = position in (0, 8)
    out: States = {}
    for (node, tiles, pairs, kinds, orphans, paired), weight in states.items():
        for held in range(min(4, MAX_TILES - tiles) + 1):
            key = (
                number_suit_step(node, held),
                tiles + held,
                pairs + (held >= 2),
                kinds + (held >= 1),
                orphans + (orphan and held >= 1),
                paired | (orphan and held >= 2),
            )
            out[key] = out.get(key, 0) + weight * comb(4, held)
    return out


@cache
def number_suit_summary() -> States:
    """One number suit, all count vectors of <= 14 tiles, as weighted states
    (profile, tiles, pairs, kinds, orphan kinds, orphan paired)."""
    states: States = {(NUMBER_SUIT_START, 0, 0, 0, 0, 0): 1}
    for position in range(9):
        states = _read_number_kind(states, position)
    summary: States = {}
    for (node, *rest), weight in states.items():
        key = (number_suit_profile(node), *rest)
        summary[key] = summary.get(key, 0) + weight
    return summary


@cache
def honour_summary() -> States:
    """The seven honours as weighted states, like ``number_suit_summary``."""
    shapes: dict[tuple[int, ...], int] = {(): 1}
    for _ in range(7):
        grown: dict[tuple[int, ...], int] = {}
        for shape, weight in shapes.items():
            for held in range(min(4, MAX_TILES - sum(shape)) + 1):
                key = tuple(sorted(shape + (held,)))
                grown[key] = grown.get(key, 0) + weight * comb(4, held)
        shapes = grown
    summary: States = {}
    for shape, weight in shapes.items():
        kinds = sum(1 for held in shape if held)
        pairs = sum(1 for held in shape if held >= 2)
        state = (honour_profile(shape), sum(shape), pairs, kinds, kinds, int(pairs > 0))
        summary[state] = summary.get(state, 0) + weight
    return summary


def _project(summary: States, fields: Callable[[Fields], Fields | None], cap: int) -> States:
    """Keep some fields of each state (None drops the state); cap profiles at ``cap``."""
    out: States = {}
    for (profile, tiles, *rest), weight in summary.items():
        kept = fields(tuple(rest))
        if kept is not None:
            key = (tuple(min(v, cap) for v in profile), tiles, *kept)
            out[key] = out.get(key, 0) + weight
    return out


def _join(a: States, b: States, cap: int) -> States:
    """States of two suit groups together: profiles convolved, other fields added."""
    out: States = {}
    for (pa, ta, *fa), wa in a.items():
        for (pb, tb, *fb), wb in b.items():
            if ta + tb <= MAX_TILES:
                fields = tuple(x + y for x, y in zip(fa, fb))
                key = (combine_profiles(pa, pb, cap), ta + tb, *fields)
                out[key] = out.get(key, 0) + wa * wb
    return out


def _pair_up(
    halves: tuple[States, States], tiles: int, value: Callable[[int, Fields], Any]
) -> dict[Any, int]:
    """Weights of whole hands of ``tiles`` tiles summed by ``value(regular, fields)``."""
    left, right = halves
    by_tiles: dict[int, list[tuple[State, int]]] = {}
    for key, weight in right.items():
        by_tiles.setdefault(key[1], []).append((key, weight))
    melds = tiles // 3
    out: dict[Any, int] = {}
    for (pa, ta, *fa), wa in left.items():
        for (pb, _, *fb), wb in by_tiles.get(tiles - ta, ()):
            fields = tuple(x + y for x, y in zip(fa, fb))
            result = value(split_distance(pa, pb, melds) - 1, fields)
            if result is not None:
                out[result] = out.get(result, 0) + wa * wb
    return out


def _halves(fields: Callable[[Fields], Fields | None], cap: int) -> tuple[States, States]:
    """(man + pin, sou + honours) for the fields kept by ``fields``."""
    numbers = _project(number_suit_summary(), fields, cap)
    honours = _project(honour_summary(), fields, cap)
    return _join(numbers, numbers, cap), _join(numbers, honours, cap)


# Fields of a summary state after (profile, tiles): pairs, kinds, orphans, orphan paired.


@cache
def _regular_halves() -> tuple[States, States]:
    return _halves(lambda f: (), CAP)


@cache
def _main_halves() -> tuple[States, States]:
    return _halves(lambda f: (f[0],), FULL_HAND_CAP)


@cache
def _few_kinds_halves() -> tuple[States, States]:
    return _halves(lambda f: (f[0], f[1]) if f[1] <= 6 else None, FULL_HAND_CAP)


@cache
def _orphan_halves() -> tuple[States, States]:
    left, right = _halves(lambda f: (f[0], f[2], f[3]), FULL_HAND_CAP)
    # man + pin hold at most 4 orphan kinds, so sou + honours need 3 for 7 in all.
    return left, {key: w for key, w in right.items() if key[3] >= 3}


def _assumed(regular: int, pairs: int) -> int:
    """The main pass's value: seven pairs taken as 6 - pairs (>= 7 kinds)."""
    return min(regular, 6 - pairs)


def _few_kinds(regular: int, f: Fields) -> tuple[int, int] | None:
    pairs, kinds = f
    if kinds > 6:
        return None
    return min(regular, 13 - pairs - kinds), _assumed(regular, pairs)


def _many_orphans(regular: int, f: Fields) -> tuple[int, int] | None:
    pairs, orphans, paired = f
    if orphans < 7:
        return None
    return min(regular, 6 - pairs, 13 - orphans - (paired > 0)), _assumed(regular, pairs)


def _full_hand_counts(tiles: int) -> dict[int, int]:
    counts: dict[int, int] = _pair_up(_main_halves(), tiles, lambda r, f: _assumed(r, f[0]))
    for halves, value in ((_few_kinds_halves(), _few_kinds), (_orphan_halves(), _many_orphans)):
        for (true, assumed), weight in _pair_up(halves, tiles, value).items():
            counts[true] = counts.get(true, 0) + weight
            counts[assumed] -= weight
    return counts


def distribution(tiles: int) -> dict[int, int]:
    """Exact number of ``tiles``-tile hands dealt from 136 tiles at each shanten.

    Keys are shanten values in ascending order (-1 = complete), values exact
    integers summing to C(136, tiles); shanten values with no hand are left out.
    ``tiles`` is 1, 2, 4, 5, 7, 8, 10, 11, 13 or 14 (seven pairs and thirteen
    orphans count only at 13 and 14). Computed on first use (about 1.5 s in
    CPython for the first call, 0.2 s for each further tile count), then cached.
    """
    if isinstance(tiles, bool) or tiles not in VALID_TILES:
        raise ValueInputError(f"hands of {tiles!r} tiles: choose one of {VALID_TILES}")
    return dict(_distribution(tiles))


@cache
def _distribution(tiles: int) -> tuple[tuple[int, int], ...]:
    if tiles < 13:
        counts = _pair_up(_regular_halves(), tiles, lambda regular, f: regular)
    else:
        counts = _full_hand_counts(tiles)
    return tuple((s, counts[s]) for s in sorted(counts) if counts[s])


def total_hands(tiles: int) -> int:
    """C(136, tiles): every way to deal ``tiles`` tiles."""
    return comb(136, tiles)
