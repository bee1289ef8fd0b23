"""The wall-position test: are tile kinds spread over a wall's positions as a shuffle spreads them?

Theory of operation
-------------------
This module owns the wall-position test (docs/audit.md states it). It reads walls that
are whole (a Tenhou wall from its seed, a Mahjong Soul wall of the SHA-256 era, a
Riichi City wall: every scheme but ``undealt``) and, per platform and player count,
counts each position's tile kind over every round. A uniform shuffle puts each of the
N tiles (136, or 108) at each position with the same chance, so every wall is a table
of positions (rows, 1 tile each) by kinds (columns, 4 tiles each) whose margins are
fixed. For such a table Pearson's statistic X^2 = sum (O - E)^2 / E has mean
(I - 1)(J - 1) N / (N - 1) (the hypergeometric covariance of a table with fixed
margins), and the same holds for R walls added up (E = R r_i c_j / N); so the test uses
X^2 (N - 1) / N against chi-square with (I - 1)(J - 1) degrees of freedom, where I is
the number of rows and J the kinds in the set (34, or 27 in 3-player).

Tests (``TESTS``), each a table whose rows partition the wall (``pywall.core.layout`` says
which position is what):

* ``positions``: every position by kind, (N - 1)(J - 1) dof;
* ``deal``: the dealer's dealt tiles, the others' dealt tiles, the rest, by kind, 2(J - 1);
* ``live``: the live wall's first half (in draw order), its second half, the rest, by
  kind, 2(J - 1);
* ``dead``: the dead wall (indicators and replacement tiles), the rest, by kind, J - 1;
* ``red_fives``: the red fives in the dealer's deal, the others' deal, the live wall's
  halves, the dead wall, against the regions' sizes, 4 dof. The red count c of a wall
  is fixed, so a region's count has variance c (N - c) / (N - 1) pi (1 - pi): X^2 is
  divided by the mean of (N - c) / (N - 1) over the red tiles.

A test is reported when its smallest expected count is at least ``MIN_EXPECTED``
(the positions test needs about 5 x 34 = 170 walls).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from pywall.core.layout import Layout, WallScheme, layout_for

TESTS = ("positions", "deal", "live", "dead", "red_fives")
MIN_EXPECTED = 5.0
RED_TILES = frozenset({16, 52, 88})
#: A wall as text: one symbol per position, ``chr(SYMBOL0 + kind)`` (a red five:
#: ``chr(SYMBOL0 + 34 + suit)``).
SYMBOL0 = 0x30
REGIONS = {"deal": 3, "live": 3, "dead": 2, "red_fives": 5}
#: The 37 symbols a wall's text is written in: 34 kinds, then the three red fives.
_SYMBOLS = frozenset(chr(SYMBOL0 + i) for i in range(37))


@dataclass(frozen=True, slots=True)
class WallKinds:
    """One round's whole wall as the test reads it: its scheme and each position's kind."""

    scheme: str
    text: str

    def __reduce__(self) -> tuple[type[WallKinds], tuple[str, str]]:
        # pickled as its fields (a worker's records): dataclass's slots pickling reads
        # ``fields()`` for each object
        return WallKinds, (self.scheme, self.text)


@dataclass(frozen=True, slots=True)
class GameWalls:
    """What the wall test keeps of one game (typed; ``to_dict`` for the report)."""

    rounds: tuple[WallKinds, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"rounds": [[w.scheme, w.text] for w in self.rounds]}

    @classmethod
    def from_dict(cls, d: Any) -> GameWalls:
        """Raises KeyError, TypeError or ValueError on anything else (the caller words it),
        a wall written with a symbol no tile has among it: counted, it would look rigged."""
        rounds = tuple(WallKinds(WallScheme(s).value, str(t)) for s, t in d["rounds"])
        if any(not _SYMBOLS.issuperset(w.text) for w in rounds):
            raise ValueError("a wall holds a symbol that is no tile")
        return cls(rounds)


#: Tile id -> its symbol (ids 0-135 and faces kind * 4 + 1 alike), without and with reds.
_PLAIN = tuple(chr(SYMBOL0 + t // 4) for t in range(136))
_WITH_RED = tuple(
    chr(SYMBOL0 + 34 + t // 36) if t in RED_TILES else ch for t, ch in enumerate(_PLAIN)
)


def wall_text(wall: Sequence[int], red: bool) -> str:
    """A wall's tile ids (0-135, or faces kind * 4 + 1 with reds 16, 52, 88) as text."""
    return "".join(map((_WITH_RED if red else _PLAIN).__getitem__, wall))


def game_walls(walls: Sequence[tuple[WallScheme, Sequence[int]]], red: bool) -> GameWalls:
    """The whole walls of a game's rounds (scheme ``undealt`` lacks the deal: left out)."""
    return GameWalls(
        tuple(
            WallKinds(scheme.value, wall_text(wall, red))
            for scheme, wall in walls
            if scheme is not WallScheme.UNDEALT
        )
    )


# --- regions, from the layout ------------------------------------------------------


@cache
def regions(scheme: str, players: int) -> dict[str, tuple[int, ...]]:
    """Each position's region in each region test (deal by seat offset from the dealer)."""
    layout: Layout = layout_for(WallScheme(scheme), players)
    n = layout.size
    deal = [2] * n
    for offset, seat in enumerate(layout.deal):
        for p in seat:
            deal[p] = 0 if offset == 0 else 1
    live = [2] * n
    half = len(layout.live) // 2
    for k, p in enumerate(layout.live):
        live[p] = 0 if k < half else 1
    dead = [1] * n
    for p in layout.dead:
        dead[p] = 0
    red = [d if d < 2 else 2 + v if v < 2 else 4 for d, v in zip(deal, live)]
    return {"deal": tuple(deal), "live": tuple(live), "dead": tuple(dead), "red_fives": tuple(red)}


# --- the tally: counts that merge by addition --------------------------------------


#: A wall's text -> its kinds, one byte per position (a red five: its kind).
_KIND_OF = bytes(range(34)) + bytes((4, 13, 22))
_TRANSLATE = bytes.maketrans(bytes(range(SYMBOL0, SYMBOL0 + 37)), _KIND_OF)
_RED = tuple(chr(SYMBOL0 + 34 + suit) for suit in range(3))
_COUNTED = ("positions", "deal", "live", "dead")  # the tables of each position's kind
#: Walls of a scheme held before they are counted (136 bytes each).
_PENDING_KEPT = 1024


@cache
def _bases(scheme: str, players: int) -> dict[str, tuple[int, ...]]:
    """Each position's first cell in each table (position * 34, region * 34)."""
    found = {name: tuple(r * 34 for r in rows) for name, rows in regions(scheme, players).items()}
    found["positions"] = tuple(p * 34 for p in range(len(found["deal"])))
    return found


@dataclass(slots=True)
class WallTally:
    """One platform and player count's walls: counts per table (cell: row * 34 + kind;
    the red-five table counts in column 0)."""

    players: int
    walls: int = 0
    tables: dict[str, Counter[int]] = field(default_factory=dict)
    reds: int = 0  # red fives seen
    #: sum over walls of c (N - c), c the wall's red fives: a whole number, so the weight
    #: (it over N - 1) is the same bits whatever the order the walls are added or merged in
    red_pairs: int = 0
    games: int = 0  # games with at least one whole wall
    #: walls added but not yet counted, by scheme: each a wall's kinds, a byte a position
    #: (``table``, ``merge`` and ``to_dict`` count them first)
    _pending: dict[str, list[bytes]] = field(default_factory=dict, repr=False, compare=False)

    @property
    def red_weight(self) -> float:
        """Sum over walls of c (N - c) / (N - 1), c the wall's red fives, rounded once."""
        return self.red_pairs / (self.size - 1)

    @property
    def size(self) -> int:
        return 108 if self.players == 3 else 136

    def table(self, name: str) -> Counter[int]:
        """A test's counts (cell: row * 34 + kind), every wall added so far counted."""
        self._counted()
        return self._table(name)

    def _table(self, name: str) -> Counter[int]:
        found = self.tables.get(name)
        if found is None:
            found = self.tables[name] = Counter()
        return found

    def add(self, wall: WallKinds) -> None:
        text = wall.text
        if len(text) != self.size or not text.isascii():
            return
        if len(self.tables) < 4:  # the tables in their order, as counting them made them
            for name in _COUNTED:
                self._table(name)
        pending = self._pending.setdefault(wall.scheme, [])
        pending.append(text.encode().translate(_TRANSLATE))
        if len(pending) >= _PENDING_KEPT:
            self._count(wall.scheme)
        reds = 0
        red = _bases(wall.scheme, self.players)["red_fives"]
        for symbol in _RED:
            at = text.find(symbol)
            while at >= 0:
                self._table("red_fives")[red[at]] += 1
                reds += 1
                at = text.find(symbol, at + 1)
        self.walls += 1
        self.reds += reds
        self.red_pairs += reds * (self.size - reds)

    def _count(self, scheme: str) -> None:
        """Count a scheme's pending walls into the tables: a position's kinds over all of
        them at once (a column of the joined walls), not a wall at a time."""
        walls = self._pending.pop(scheme, [])
        if not walls:
            return
        joined, size = b"".join(walls), self.size
        bases = _bases(scheme, self.players)
        tables = [(self._table(name), bases[name]) for name in _COUNTED]
        for p in range(size):
            for kind, n in Counter(joined[p::size]).items():
                for counts, base in tables:
                    counts[base[p] + kind] += n

    def _counted(self) -> dict[str, Counter[int]]:
        for scheme in list(self._pending):
            self._count(scheme)
        return self.tables

    def add_game(self, walls: GameWalls) -> None:
        before = self.walls
        for wall in walls.rounds:
            self.add(wall)
        self.games += self.walls > before

    def merge(self, other: WallTally) -> None:
        for name, counts in other._counted().items():
            self.table(name).update(counts)
        self.walls += other.walls
        self.reds += other.reds
        self.red_pairs += other.red_pairs
        self.games += other.games

    def cells(self, name: str) -> int:
        rows = self.size if name == "positions" else REGIONS[name]
        return rows * 34

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "walls": self.walls,
            "tables": {
                name: [counts[i] for i in range(self.cells(name))]
                for name, counts in self._counted().items()
            },
            "reds": [self.reds, self.red_weight],
            "games": self.games,
        }

    @classmethod
    def from_dict(cls, d: Any) -> WallTally:
        """Raises KeyError, TypeError or ValueError on anything else (the caller words it)."""
        reds, weight = d["reds"]
        size = 108 if int(d["players"]) == 3 else 136
        weighted = float(weight) * (size - 1)
        pairs = round(weighted) if 0 <= weighted < 9007199254740992.0 else -1  # NaN, infinities: -1
        if pairs < 0 or abs(pairs - weighted) > 1e-6 * max(1, pairs):
            raise ValueError("the red fives' weight is no sum of c (N - c) / (N - 1)")
        tables = {
            str(name): Counter({i: int(v) for i, v in enumerate(values) if v})
            for name, values in d["tables"].items()
        }
        return cls(
            int(d["players"]),
            int(d["walls"]),
            tables,
            int(reds),
            pairs,
            int(d["games"]),
        )


@dataclass(frozen=True, slots=True)
class WallTest:
    name: str
    chi2: float
    dof: int
    p: float

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "chi2": self.chi2, "dof": self.dof, "p": self.p}


def _kinds(players: int) -> tuple[int, ...]:
    return tuple(k for k in range(34) if players == 4 or not 1 <= k <= 7)


def _chi2_sf(statistic: float, dof: int) -> float:
    # imported here: a report carries a game's walls, and the page loads pywall.analysis.stats
    # only with its first audit (pywall.page.api.LAZY_MODULES)
    from pywall.analysis.stats import chi2_sf

    return chi2_sf(statistic, dof)


def _table_test(
    name: str, counts: Counter[int], sizes: Sequence[int], walls: int, n: int, players: int
) -> WallTest | None:
    kinds = _kinds(players)
    smallest = walls * min(sizes) * 4 / n
    if smallest < MIN_EXPECTED:
        return None
    chi2 = 0.0
    for row, size in enumerate(sizes):
        expected = walls * size * 4 / n
        for kind in kinds:
            d = counts[row * 34 + kind] - expected
            chi2 += d * d / expected  # a product: ``** 2`` would call the C library's pow
    chi2 *= (n - 1) / n
    dof = (len(sizes) - 1) * (len(kinds) - 1)
    return WallTest(name, chi2, dof, _chi2_sf(chi2, dof))


def _red_test(tally: WallTally, sizes: Sequence[int]) -> WallTest | None:
    n = tally.size
    if not tally.reds or tally.reds * min(sizes) / n < MIN_EXPECTED:
        return None
    counts = tally.table("red_fives")
    chi2 = 0.0
    for row, size in enumerate(sizes):  # in order: ``sum()`` of floats differs from 3.12 on
        expected = tally.reds * size / n
        d = counts[row * 34] - expected
        chi2 += d * d / expected
    chi2 /= tally.red_weight / tally.reds
    dof = len(sizes) - 1
    return WallTest("red_fives", chi2, dof, _chi2_sf(chi2, dof))


def _sizes(scheme: str, players: int, name: str) -> list[int]:
    found = regions(scheme, players)[name]
    return [found.count(r) for r in range(REGIONS[name])]


def wall_tests(tally: WallTally) -> tuple[WallTest, ...]:
    """The tests the tally has data enough for, in ``TESTS`` order."""
    if not tally.walls:
        return ()
    n, players = tally.size, tally.players
    scheme = WallScheme.FRONT.value  # region sizes are the same in every whole-wall scheme
    found = [_table_test("positions", tally.table("positions"), [1] * n, tally.walls, n, players)]
    for name in ("deal", "live", "dead"):
        sizes = _sizes(scheme, players, name)
        found.append(_table_test(name, tally.table(name), sizes, tally.walls, n, players))
    found.append(_red_test(tally, _sizes(scheme, players, "red_fives")))
    return tuple(t for t in found if t is not None)
