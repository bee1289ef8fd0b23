"""The wall's layout: which position of a round's wall each tile of the game comes from.

This module is the only place that computes a wall index. For each wall scheme it
says which positions are each seat's dealt tiles (in deal order), the live wall in
draw order, the replacement tiles in order, and the k-th dora and ura indicator.
``verify`` checks a record through it, the report carries a round's ``Layout``
(so the CLI's text, the page and the audit read positions, never derive them), and
a new platform is one more scheme here. docs/walls.md explains each scheme.

Positions are indices into the wall as the scheme stores it (``wall[0]`` first):

* ``tenhou`` (Tenhou since about March 2010; ``tenhou-late-2009`` and
  ``tenhou-early-2009`` differ only in the dead wall): the deal takes the wall
  from its end, ``wall[n-1]`` downward, three passes of four tiles per seat from
  the dealer round the table, then one tile each; live draws go on downward to
  ``wall[14]``; the dead wall is ``wall[0..13]``, replacement tiles in the order
  ``wall[1, 0, 3, 2, ...]``, dora indicator k at ``DB + 2k`` and ura k at
  ``DB - 1 + 2k`` (DB = 5, 9 in 3-player).
* ``tenhou-late-2009`` (July 2009 to February 2010) and ``tenhou-early-2009``
  (September 2008 to June 2009): replacement tiles in the order
  ``wall[0, 1, 2, ...]``, dora indicator k at ``DB + 2k`` and ura k at
  ``DB + 1 + 2k``, with DB = 4 in 4-player and 8 in 3-player (past the eight
  replacement tiles) in both eras: real 4-player logs of every older format show
  DB = 4, the one real 3-player log (June 2009) DB = 8; no real 3-player log of
  July 2009 to February 2010 has been checked (docs/walls.md).
* ``front`` (Mahjong Soul since 2023-05-23, Riichi City): the whole wall dealt
  from its front in the same 4-4-4-1 blocks, ``wall[0..13p-1]``; the dealer's
  14th tile ``wall[13p]`` is the first live draw and live draws go on upward to
  ``wall[n-15]``; replacement tiles come from the end (``wall[n-1]``,
  ``wall[n-2]``, ...), dora indicator k at ``n-5-2k`` (3-player ``n-9-2k``), ura
  one below it.
* ``undealt`` (Mahjong Soul before 2023-05-23): the wall holds only the tiles not
  dealt (83, or 68 in 3-player), in draw order: the deal is not in it; otherwise
  as ``front`` without the dealt prefix (the dealer's 14th tile is in the hand).

Every replacement draw shortens the live wall by one (the dead wall stays 14 tiles).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from functools import cache
from typing import Any

from pywall.core.errors import ValueInputError

#: Deal blocks: three passes of four tiles to each seat, then one each.
DEAL_BLOCKS = (4, 4, 4, 1)
DEALT_PER_SEAT = sum(DEAL_BLOCKS)
DEAD_WALL = 14
INDICATORS = 5  # dora (and ura) indicators a wall can show: the first and four kan dora
#: Replacement draws a round can have: 4 kans, and in 3-player up to 4 North extractions besides.
REPLACEMENTS = {4: 4, 3: 8}
_TENHOU_REPLACEMENT_ORDER = (1, 0, 3, 2, 5, 4, 7, 6)


class WallScheme(str, Enum):
    """How a platform lays a round's wall out (see the module's docstring)."""

    TENHOU = "tenhou"
    TENHOU_LATE_2009 = "tenhou-late-2009"
    TENHOU_EARLY_2009 = "tenhou-early-2009"
    FRONT = "front"
    UNDEALT = "undealt"


#: The first dora indicator's position in the 2009 schemes, by player count (their
#: replacement tiles come from wall[0], wall[1], ... in order, the ura indicator above
#: its dora's). The same in June and in July to December 2009 (docs/walls.md gives the
#: real logs behind each): 4-player logs of both show 4, the June 3-player log 8.
_TENHOU_2009_SCHEMES = (WallScheme.TENHOU_LATE_2009, WallScheme.TENHOU_EARLY_2009)
_TENHOU_2009_DORA = {4: 4, 3: 8}


@dataclass(frozen=True, slots=True)
class Layout:
    """Positions in one scheme's wall for a game of ``players``; ``deal`` by seat offset
    from the dealer (0 = the dealer), empty tuples when the wall does not hold the deal."""

    scheme: WallScheme
    players: int
    size: int
    deal: tuple[tuple[int, ...], ...]
    live: tuple[int, ...]
    replacements: tuple[int, ...]
    dora: tuple[int, ...]
    ura: tuple[int, ...]

    @property
    def holds_deal(self) -> bool:
        return bool(self.deal[0])

    @property
    def dead(self) -> tuple[int, ...]:
        """The dead wall's positions (neither dealt nor in the live wall), in wall order."""
        used = {p for seat in self.deal for p in seat} | set(self.live)
        return tuple(p for p in range(self.size) if p not in used)

    @property
    def dealer_draw(self) -> int:
        """The position of the dealer's 14th tile of the starting hand (its first draw, the
        live wall's first tile): where the wall says it (a record says it: ``Round.dealer_draw``)."""
        return self.live[0]

    @property
    def undealt(self) -> tuple[int, ...]:
        """The positions of the tiles in no starting hand (the dealer's 14th tile counts
        as dealt), in wall order: what a record's copy of the undealt wall lists
        (Riichi City's ``paiShan``; the whole wall of scheme ``undealt``)."""
        if not self.holds_deal:
            return tuple(range(self.size))
        dealt = {p for seat in self.deal for p in seat} | {self.dealer_draw}
        return tuple(p for p in range(self.size) if p not in dealt)

    def deal_by_seat(self, dealer: int) -> tuple[tuple[int, ...], ...]:
        """Each seat's dealt positions in deal order, seat 0 first."""
        n = self.players
        return tuple(self.deal[(seat - dealer) % n] for seat in range(n))

    def live_draws(self, replacements: int) -> int:
        """How many live draws the wall allows after ``replacements`` replacement draws."""
        return len(self.live) - replacements

    def to_dict(self, dealer: int) -> dict[str, object]:
        """The round's positions as the report carries them (deal by seat). Its lists are
        made once per layout and dealer and shared by every round: read, never change them."""
        return dict(_positions(self, dealer))

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Layout:
        """The layout ``to_dict`` wrote (deal by seat from its ``dealer``), read back and
        checked: ``ValueInputError`` saying what is wrong for any other shape."""
        if not isinstance(d, Mapping):
            raise ValueInputError("a round's layout must be an object")
        schemes = tuple(s.value for s in WallScheme)
        if d.get("scheme") not in schemes:
            raise ValueInputError(f"a round's layout has no known scheme ({', '.join(schemes)})")
        size, dealer, by_seat = d.get("size"), d.get("dealer"), d.get("deal")
        if type(size) is not int or not 0 < size <= 136:
            raise ValueInputError("a round's layout needs its wall's size (1-136 tiles)")
        if not isinstance(by_seat, list) or len(by_seat) not in REPLACEMENTS:
            raise ValueInputError("a round's layout needs the deal of 3 or 4 seats")
        players = len(by_seat)
        if type(dealer) is not int or not 0 <= dealer < players:
            raise ValueInputError(f"a round's layout needs its dealer's seat (0-{players - 1})")
        seats = [_read_positions("deal", size, seat) for seat in by_seat]
        live, replacements, dora, ura, dead = (
            _read_positions(key, size, d.get(key))
            for key in ("live", "replacements", "dora", "ura", "dead")
        )
        deal = tuple(seats[(offset + dealer) % players] for offset in range(players))
        layout = cls(WallScheme(d["scheme"]), players, size, deal, live, replacements, dora, ura)
        if dead != layout.dead:
            raise ValueInputError(
                "a round's layout's dead wall is not what its deal and live leave"
            )
        return layout


def _read_positions(key: str, size: int, value: object) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(type(p) is int and 0 <= p < size for p in value):
        raise ValueInputError(f"a round's layout's {key} must be a list of positions 0-{size - 1}")
    return tuple(value)


@cache
def _positions(layout: Layout, dealer: int) -> dict[str, object]:
    return {
        "scheme": layout.scheme.value,
        "size": layout.size,
        "dealer": dealer,
        "deal": [list(seat) for seat in layout.deal_by_seat(dealer)],
        "live": list(layout.live),
        "dead": list(layout.dead),
        "replacements": list(layout.replacements),
        "dora": list(layout.dora),
        "ura": list(layout.ura),
    }


def wall_size(scheme: WallScheme, players: int) -> int:
    full = 108 if players == 3 else 136
    return full - (DEALT_PER_SEAT * players + 1) if scheme is WallScheme.UNDEALT else full


def _deal_blocks(players: int) -> list[list[int]]:
    """Deal order as offsets 0, 1, 2, ... into the dealt part, by seat offset."""
    seats: list[list[int]] = [[] for _ in range(players)]
    p = 0
    for size in DEAL_BLOCKS:
        for offset in range(players):
            seats[offset].extend(range(p, p + size))
            p += size
    return seats


@cache
def layout_for(scheme: WallScheme, players: int) -> Layout:
    """The layout of ``scheme`` for a 3- or 4-player game."""
    if players not in (3, 4):
        raise ValueError(f"players must be 3 or 4, not {players}")
    n = wall_size(scheme, players)
    dealt = DEALT_PER_SEAT * players
    if scheme in (WallScheme.FRONT, WallScheme.UNDEALT):
        start = dealt if scheme is WallScheme.FRONT else 0
        deal = (
            tuple(map(tuple, _deal_blocks(players)))
            if scheme is WallScheme.FRONT
            else ((),) * players
        )
        base = n - (9 if players == 3 else 5)
        return Layout(
            scheme,
            players,
            n,
            deal,
            tuple(range(start, n - DEAD_WALL)),
            tuple(n - 1 - r for r in range(REPLACEMENTS[players])),
            tuple(base - 2 * k for k in range(INDICATORS)),
            tuple(base - 1 - 2 * k for k in range(INDICATORS)),
        )
    deal = tuple(tuple(n - 1 - p for p in seat) for seat in _deal_blocks(players))
    if scheme in _TENHOU_2009_SCHEMES:
        # 2009: the ura indicator lies above its dora indicator, not below it
        base, ura, order = _TENHOU_2009_DORA[players], 1, tuple(range(REPLACEMENTS[players]))
    else:
        base, ura = 9 if players == 3 else 5, -1
        order = _TENHOU_REPLACEMENT_ORDER[: REPLACEMENTS[players]]
    return Layout(
        scheme,
        players,
        n,
        deal,
        tuple(range(n - 1 - dealt, DEAD_WALL - 1, -1)),
        order,
        tuple(base + 2 * k for k in range(INDICATORS)),
        tuple(base + ura + 2 * k for k in range(INDICATORS)),
    )
