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
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pywall.errors import ValueInputError
from pywall.shanten import KINDS, checked_counts, shanten
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

    >>> from pywall.tiles import counts_from_mpsz, kind_text
    >>> waits = effective_tiles(counts_from_mpsz("123m456p789s11z23p"))
    >>> waits.shanten, [(kind_text(t.kind), t.remaining) for t in waits.tiles], waits.total
    (0, [('1p', 4), ('4p', 3), ('7p', 4)], 11)
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
