"""Exact distribution of shanten over every hand of n tiles dealt from a wall.

Theory of operation
-------------------
Count hands, not count vectors: a hand holding c copies of a kind the wall holds k
times can be dealt in C(k, c) ways, so the number of n-tile hands with a given
shape is the product of those binomials (a generating function over the 34 kinds,
as in tomohxx's mahjong-algorithm-book). A 4-player wall holds every kind 4 times
(136 tiles); a 3-player wall (108 tiles) holds no 2m-8m (k = 0 for them), which
changes only the weights: shanten itself is the same function of a hand, and 1m
and 9m still count for thirteen orphans. The regular form of a hand depends on
each suit only through the suit's profile (see ``pywall.analysis.suit_profiles``), so:

1. Each number suit is summarised by running the shanten automaton over all count
   vectors at once, merging equal (node, tiles, pairs, kinds, orphan kinds,
   orphan pair) states and summing their weights. Honours are summarised by the
   multiset of their counts. Profiles are capped at 8 tiles here: a 13- or 14-tile
   hand is never worse than 6-shanten (seven pairs bound it), so a capped value
   never decides a 13/14-tile result (this bounds every hand, whatever the wall).
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

from collections.abc import Callable, Sequence
from functools import cache
from math import comb
from typing import Any

from pywall.analysis.shanten import KINDS, MAX_TILES
from pywall.analysis.suit_profiles import (
    CAP,
    NUMBER_SUIT_START,
    combine_profiles,
    honour_profile,
    number_suit_profile,
    number_suit_step,
    split_distance,
)
from pywall.core.errors import ValueInputError

#: Profile cap for 13/14-tile hands (see the module docstring).
FULL_HAND_CAP = 8

#: Copies of each of the 34 kinds in a wall, by number of players: 136 and 108 tiles.
WALL_COPIES: dict[int, tuple[int, ...]] = {
    4: (4,) * KINDS,
    3: (4,) + (0,) * 7 + (4,) * (KINDS - 8),  # no 2m-8m
}

# A state: (profile, tiles, then fields that add up when suits are joined).
State = tuple[Any, ...]
States = dict[State, int]
Fields = tuple[int, ...]
VALID_TILES = (1, 2, 4, 5, 7, 8, 10, 11, 13, 14)
#: Kind ranges of man, pin, sou and the honours.
_SUITS = ((0, 9), (9, 18), (18, 27), (27, 34))
_FOUR = (4,) * 9


def _read_number_kind(states: States, position: int, copies: int) -> States:
    orphan = position in (0, 8)
    out: States = {}
    for (node, tiles, pairs, kinds, orphans, paired), weight in states.items():
        for held in range(min(copies, MAX_TILES - tiles) + 1):
            key = (
                number_suit_step(node, held),
                tiles + held,
                pairs + (held >= 2),
                kinds + (held >= 1),
                orphans + (orphan and held >= 1),
                paired | (orphan and held >= 2),
            )
            out[key] = out.get(key, 0) + weight * comb(copies, held)
    return out


@cache
def number_suit_summary(copies: tuple[int, ...] = _FOUR) -> States:
    """One number suit whose nine kinds the wall holds ``copies`` times, all count
    vectors of <= 14 tiles, as weighted states (profile, tiles, pairs, kinds, orphan
    kinds, orphan paired)."""
    states: States = {(NUMBER_SUIT_START, 0, 0, 0, 0, 0): 1}
    for position, held_in_wall in enumerate(copies):
        states = _read_number_kind(states, position, held_in_wall)
    summary: States = {}
    for (node, *rest), weight in states.items():
        key = (number_suit_profile(node), *rest)
        summary[key] = summary.get(key, 0) + weight
    return summary


@cache
def honour_summary(copies: tuple[int, ...] = (4,) * 7) -> States:
    """The seven honours as weighted states, like ``number_suit_summary``."""
    # Every field of an honour state depends on the multiset of counts only.
    shapes: dict[tuple[int, ...], int] = {(): 1}
    for held_in_wall in copies:
        grown: dict[tuple[int, ...], int] = {}
        for shape, weight in shapes.items():
            for held in range(min(held_in_wall, MAX_TILES - sum(shape)) + 1):
                key = tuple(sorted(shape + (held,)))
                grown[key] = grown.get(key, 0) + weight * comb(held_in_wall, held)
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


# The passes, each a choice of the fields kept after (profile, tiles) and a cap. A
# summary state's fields are: pairs, kinds, orphan kinds, orphan paired.
_PASSES: dict[str, tuple[Callable[[Fields], Fields | None], int]] = {
    "regular": (lambda f: (), CAP),
    "main": (lambda f: (f[0],), FULL_HAND_CAP),
    "few_kinds": (lambda f: (f[0], f[1]) if f[1] <= 6 else None, FULL_HAND_CAP),
    "orphans": (lambda f: (f[0], f[2], f[3]), FULL_HAND_CAP),
}


@cache
def _suit_states(name: str, copies: tuple[int, ...]) -> States:
    """One suit (nine kinds) or the honours (seven) projected for the pass ``name``."""
    fields, cap = _PASSES[name]
    summary = number_suit_summary(copies) if len(copies) == 9 else honour_summary(copies)
    return _project(summary, fields, cap)


@cache
def _halves(name: str, copies: tuple[int, ...]) -> tuple[States, States]:
    """(man + pin, sou + honours) for the pass ``name`` over a wall of ``copies``."""
    cap = _PASSES[name][1]
    man, pin, sou, honours = (_suit_states(name, copies[a:b]) for a, b in _SUITS)
    left, right = _join(man, pin, cap), _join(sou, honours, cap)
    if name == "orphans":
        # man + pin hold at most 4 orphan kinds, so sou + honours need 3 for 7 in all.
        right = {key: w for key, w in right.items() if key[3] >= 3}
    return left, right


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


def _full_hand_counts(tiles: int, copies: tuple[int, ...]) -> dict[int, int]:
    main = _halves("main", copies)
    counts: dict[int, int] = _pair_up(main, tiles, lambda r, f: _assumed(r, f[0]))
    corrections = (("few_kinds", _few_kinds), ("orphans", _many_orphans))
    for name, value in corrections:
        for (true, assumed), weight in _pair_up(_halves(name, copies), tiles, value).items():
            counts[true] = counts.get(true, 0) + weight
            counts[assumed] -= weight
    return counts


def _checked_tiles(tiles: int) -> None:
    if isinstance(tiles, bool) or tiles not in VALID_TILES:
        raise ValueInputError(f"hands of {tiles!r} tiles: choose one of {VALID_TILES}")


#: ``distribution`` of the dealt hands the audit tests (13 and 14 tiles, 4 and 3 players),
#: written out: computing them takes about 2.4 s in CPython and longer in the page, at the
#: start of every audit. tests/unit/test_shanten_distribution.py computes each again and
#: holds it equal.
# fmt: off
_DEALT: dict[tuple[int, int], tuple[tuple[int, int], ...]] = {
    (13, 4): (
        (0, 39270395383132),
        (1, 3006175115638776),
        (2, 45249205945148216),
        (3, 175141291509958900),
        (4, 192909046305573888),
        (5, 63384201353756672),
        (6, 4045365540028416),
    ),
    (14, 4): (
        (-1, 12859078207674),
        (0, 2966241795738948),
        (1, 99154452630748356),
        (2, 828714358375292670),
        (3, 1867404976243926528),
        (4, 1211948980271480832),
        (5, 233501763289743360),
        (6, 6601397483077632),
    ),
    (13, 3): (
        (0, 4248510347840),
        (1, 243214957965344),
        (2, 2732462102008544),
        (3, 8169994696655136),
        (4, 7581335897696256),
        (5, 1820816976642048),
        (6, 40884598996992),
    ),
    (14, 3): (
        (-1, 1321887397648),
        (0, 229204302023024),
        (1, 5666836324042176),
        (2, 35089291127094384),
        (3, 61289092707873792),
        (4, 33570528047677440),
        (5, 3878645818982400),
        (6, 13007308455936),
    ),
}
# fmt: on


def wall_copies(players: int) -> tuple[int, ...]:
    """Copies of each of the 34 kinds in the wall of a ``players``-player game (3 or 4)."""
    if isinstance(players, bool) or players not in WALL_COPIES:
        raise ValueInputError(f"a wall for {players!r} players: choose 3 or 4")
    return WALL_COPIES[players]


def distribution(tiles: int, players: int = 4) -> dict[int, int]:
    """Exact number of ``tiles``-tile hands dealt from a ``players``-player wall at each
    shanten (136 tiles for 4 players, 108 for 3: no 2m-8m).

    Keys are shanten values in ascending order (-1 = complete), values exact
    integers summing to C(136, tiles) or C(108, tiles); shanten values with no hand
    are left out. ``tiles`` is 1, 2, 4, 5, 7, 8, 10, 11, 13 or 14 (seven pairs and
    thirteen orphans count only at 13 and 14). The 13- and 14-tile ones are written out
    (``_DEALT``); the others are computed on first use (a fraction of a second in
    CPython), then cached per (tiles, players).
    """
    _checked_tiles(tiles)
    copies = wall_copies(players)
    known = _DEALT.get((tiles, players))
    return dict(known if known is not None else _distribution(tiles, copies))


def distribution_for_copies(tiles: int, copies: Sequence[int]) -> dict[int, int]:
    """Like ``distribution`` for any wall: ``copies`` gives each of the 34 kinds' copies
    (0-4). The counts sum to C(sum(copies), tiles). For tests on small walls, where
    every hand can be enumerated."""
    _checked_tiles(tiles)
    wall = tuple(copies)
    if len(wall) != KINDS or not all(type(c) is int and 0 <= c <= 4 for c in wall):
        raise ValueInputError("a wall is 34 per-kind copy counts, each 0-4")
    if sum(wall) < tiles:
        raise ValueInputError(f"a wall of {sum(wall)} tiles cannot deal {tiles}")
    return dict(_distribution(tiles, wall))


@cache
def _distribution(tiles: int, copies: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    if tiles < 13:
        counts = _pair_up(_halves("regular", copies), tiles, lambda regular, f: regular)
    else:
        counts = _full_hand_counts(tiles, copies)
    return tuple((s, counts[s]) for s in sorted(counts) if counts[s])


def total_hands(tiles: int, players: int = 4) -> int:
    """C(136, tiles) or C(108, tiles): every way to deal ``tiles`` tiles."""
    return comb(sum(wall_copies(players)), tiles)
