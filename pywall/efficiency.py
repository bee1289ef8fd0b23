"""Effective tiles (ukeire) and the discard table of Tenhou's 牌理 tool.

Theory of operation
-------------------
A tile is effective for a 3k+1-tile hand when drawing it lowers the hand's shanten
(the minimum over the forms, ``pywall.shanten.shanten``). A kind already held 4
times cannot be drawn, so it is never effective (the "5th tile"). How many remain
is 4 minus the copies in the hand, minus copies the caller knows are visible
elsewhere (a round's discards, dora indicators, other hands).

For a 3k+2-tile hand, Tenhou's 牌理 (tenhou.net/2) lists each discard that keeps the
lowest shanten reachable by one discard, with the effective tiles of the hand left
and their total, sorted by that total (most first; ties in tile order). There the
discarded tile counts as seen: it lies in the player's own pond.

``effective_kinds`` gives every kind's answer in one pass over the suit automaton
(the draw audit asks it for every draw of a game): the profile of each suit with one
more tile of each of its kinds is looked up once per suit shape (cached), and only
its distinct profiles are combined with the other three suits' profile; seven pairs
and thirteen orphans improve by rule. Not 34 shanten calls (benchmarks/bench_shanten.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pywall.errors import ValueInputError
from pywall.shanten import (
    _COMBINED,
    _HONOUR_PROFILES,
    _NUMBER_PROFILES,
    CAP,
    KINDS,
    ORPHAN_KINDS,
    Profile,
    _orphans,
    checked_counts,
    combine_profiles,
    honour_profile,
    number_profile,
    shanten,
    split_distance,
)
from pywall.tiles import kind_text, mpsz_from_kinds


@dataclass(frozen=True, slots=True)
class TileCount:
    """A kind of tile (0-33) and how many copies of it remain unseen."""

    kind: int
    remaining: int


@dataclass(frozen=True, slots=True)
class EffectiveTiles:
    """The kinds that lower a 3k+1-tile hand's shanten, in tile order."""

    shanten: int
    tiles: tuple[TileCount, ...]
    total: int

    @property
    def kinds(self) -> tuple[int, ...]:
        return tuple(tile.kind for tile in self.tiles)

    def to_dict(self) -> dict[str, Any]:
        return {
            "shanten": self.shanten,
            "tiles": mpsz_from_kinds(list(self.kinds)),
            "remaining": {kind_text(t.kind): t.remaining for t in self.tiles},
            "total": self.total,
        }


@dataclass(frozen=True, slots=True)
class DiscardOption:
    """One row of the 牌理 table: a discard and what the hand left then accepts."""

    discard: int
    effective: EffectiveTiles

    def to_dict(self) -> dict[str, Any]:
        return {"discard": kind_text(self.discard), **self.effective.to_dict()}


@dataclass(frozen=True, slots=True)
class DiscardTable:
    """A 3k+2-tile hand's shanten and its best discards, most effective tiles first."""

    shanten: int
    options: tuple[DiscardOption, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"shanten": self.shanten, "discards": [o.to_dict() for o in self.options]}


def _visible_counts(hand: Sequence[int], visible: Sequence[int] | None) -> tuple[int, ...]:
    if visible is None:
        return (0,) * KINDS
    if len(visible) != KINDS:
        raise ValueInputError(f"visible tiles are 34 per-kind counts, got {len(visible)}")
    for kind, (held, seen) in enumerate(zip(hand, visible)):
        if not 0 <= seen <= 4 or held + seen > 4:
            raise ValueInputError(
                f"{kind_text(kind)}: {held} in the hand and {seen} visible, but a kind has 4"
            )
    return tuple(visible)


def _accepted(
    hand: list[int], base: int, visible: Sequence[int], seen: Sequence[int]
) -> EffectiveTiles:
    """Effective tiles of a validated 3k+1 hand whose shanten is ``base``.

    ``seen`` is the hand as counted against the 4 copies (for a discard table, the
    hand before the discard: the discarded tile lies in the player's own pond).
    """
    tiles = []
    for kind, held in enumerate(hand):
        if held == 4:
            continue
        hand[kind] = held + 1
        advances = shanten(hand) < base
        hand[kind] = held
        if advances:
            tiles.append(TileCount(kind, max(0, 4 - seen[kind] - visible[kind])))
    return EffectiveTiles(base, tuple(tiles), sum(t.remaining for t in tiles))


def effective_tiles(counts: Sequence[int], visible: Sequence[int] | None = None) -> EffectiveTiles:
    """The kinds that lower the shanten of a 3k+1-tile hand (13, 10, 7, 4 or 1 tiles).

    ``visible`` (34 counts) are tiles seen outside the hand; they reduce what remains.
    """
    hand, tiles = checked_counts(counts)
    if tiles % 3 != 1:
        raise ValueInputError(f"effective tiles need a 3k+1-tile hand (e.g. 13), got {tiles}")
    return _accepted(list(hand), shanten(hand), _visible_counts(hand, visible), hand)


def discard_table(counts: Sequence[int], visible: Sequence[int] | None = None) -> DiscardTable:
    """Tenhou 牌理 table of a 3k+2-tile hand (14, 11, 8, 5 or 2 tiles).

    Each discard that keeps the lowest shanten reachable by one discard, with its
    effective tiles; sorted by total remaining (most first), ties in tile order.
    """
    hand, tiles = checked_counts(counts)
    if tiles % 3 != 2:
        raise ValueInputError(f"a discard table needs a 3k+2-tile hand (e.g. 14), got {tiles}")
    seen = _visible_counts(hand, visible)
    after: dict[int, int] = {}
    work = list(hand)
    for kind in range(KINDS):
        if work[kind]:
            work[kind] -= 1
            after[kind] = shanten(work)
            work[kind] += 1
    best = min(after.values())
    options = []
    for kind, value in after.items():
        if value == best:
            work[kind] -= 1
            options.append(DiscardOption(kind, _accepted(work, value, seen, hand)))
            work[kind] += 1
    options.sort(key=lambda o: (-o.effective.total, o.discard))
    return DiscardTable(shanten(hand), tuple(options))


# --- every kind at once, for the draw audit ------------------------------------------

#: A suit's counts -> (profile with one more tile, bit mask of the kinds giving it).
_VARIANTS: dict[tuple[int, ...], tuple[tuple[Profile, int], ...]] = {}
_ORPHAN_MASK = sum(1 << k for k in ORPHAN_KINDS)


def _variants(key: tuple[int, ...], honours: bool) -> tuple[tuple[Profile, int], ...]:
    found = _VARIANTS.get(key)
    if found is None:
        groups: dict[Profile, int] = {}
        for i, held in enumerate(key):
            if held < 4:
                more = key[:i] + (held + 1,) + key[i + 1 :]
                profile = honour_profile(more) if honours else number_profile(more)
                groups[profile] = groups.get(profile, 0) | 1 << i
        found = _VARIANTS[key] = tuple(groups.items())
    return found


def _regular_mask(hand: tuple[int, ...], melds: int) -> tuple[int, int]:
    """(regular shanten, mask of the kinds that lower it) of a 3k+1 hand."""
    keys = (hand[0:9], hand[9:18], hand[18:27], hand[27:34])
    a, b, c = (_NUMBER_PROFILES.get(k) or number_profile(k) for k in keys[:3])
    h = _HONOUR_PROFILES.get(keys[3]) or honour_profile(keys[3])
    ab = _COMBINED.get((a, b, CAP)) or combine_profiles(a, b)
    ch = _COMBINED.get((c, h, CAP)) or combine_profiles(c, h)
    rests = (
        _COMBINED.get((b, ch, CAP)) or combine_profiles(b, ch),
        _COMBINED.get((a, ch, CAP)) or combine_profiles(a, ch),
        _COMBINED.get((ab, h, CAP)) or combine_profiles(ab, h),
        _COMBINED.get((ab, c, CAP)) or combine_profiles(ab, c),
    )
    distance = split_distance(ab, ch, melds)
    mask = 0
    for suit in range(4):
        key = (keys[suit], rests[suit], melds)
        bits = _SUIT_MASKS.get(key)
        if bits is None:
            bits = _SUIT_MASKS[key] = _suit_mask(keys[suit], suit == 3, rests[suit], melds)
        mask |= bits << 9 * suit
    return distance - 1, mask


#: (a suit's counts, the other suits' profile, melds) -> the suit's kinds that lower it.
_SUIT_MASKS: dict[tuple[tuple[int, ...], Profile, int], int] = {}


def _suit_mask(key: tuple[int, ...], honours: bool, rest: Profile, melds: int) -> int:
    profile = honour_profile(key) if honours else number_profile(key)
    distance = split_distance(profile, rest, melds)
    mask = 0
    for more, bits in _variants(key, honours):
        if split_distance(more, rest, melds) < distance:
            mask |= bits
    return mask


def effective_kinds(hand: tuple[int, ...]) -> tuple[int, int]:
    """(shanten, bit mask of effective kinds: bit k set when drawing kind k lowers the
    shanten) of a 3k+1-tile hand given as 34 valid counts (13 - 3m tiles, m melds).

    The same kinds as ``effective_tiles`` (shanten(H + k) < shanten(H), a kind held 4
    times never), in one pass: see the module's docstring."""
    tiles = sum(hand)
    regular, mask = _regular_mask(hand, tiles // 3)
    if tiles != 13:
        return regular, mask
    kinds = KINDS - hand.count(0)
    singles = hand.count(1)
    chiitoi = 6 - (kinds - singles) + max(0, 7 - kinds)
    orphans: tuple[int, ...] = _orphans(hand)
    held = 13 - orphans.count(0)
    paired = held - orphans.count(1) > 0
    kokushi = 13 - held - paired
    best = min(regular, chiitoi, kokushi)
    out = mask if regular == best else 0
    if chiitoi == best:
        for kind, count in enumerate(hand):
            if count == 1 or (count == 0 and kinds < 7):
                out |= 1 << kind
    if kokushi == best:
        for kind in ORPHAN_KINDS:
            if hand[kind] == 0 or (hand[kind] < 4 and not paired):
                out |= 1 << kind
    if 4 in hand:  # a kind held 4 times cannot be drawn
        out &= ~sum(1 << k for k, c in enumerate(hand) if c == 4)
    return best, out
